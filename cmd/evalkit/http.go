package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/evalkit-go/evalkit/golden"
	"github.com/evalkit-go/evalkit/internal/textnorm"
)

// isHTTP reports whether path names an HTTP recording.
func isHTTP(path string) bool { return strings.HasSuffix(path, golden.HTTPSuffix) }

// listHTTP prints one line for an HTTP recording: interactions, size, the
// requests by method and path, the last recording date.
func listHTTP(w io.Writer, path string) error {
	f, err := golden.LoadHTTP(path)
	if err != nil {
		return err
	}
	info, _ := os.Stat(path)
	counts := map[string]int{}
	last := ""
	for _, in := range f.Interactions {
		counts[in.Request.Method+" "+in.Request.Path]++
		if at := in.RecordedAt.Format("2006-01-02"); at > last {
			last = at
		}
	}
	var reqs []string
	for _, r := range slices.Sorted(func(yield func(string) bool) {
		for k := range counts {
			if !yield(k) {
				return
			}
		}
	}) {
		reqs = append(reqs, fmt.Sprintf("%s ×%d", r, counts[r]))
	}
	line := fmt.Sprintf("%s\t%d %s\t%s", filepath.ToSlash(path), len(f.Interactions), plural(len(f.Interactions), "interaction", "interactions"), size(info.Size()))
	if len(reqs) > 0 {
		line += "\t" + strings.Join(reqs, ", ") + "\tlast recorded " + last
	}
	fmt.Fprintln(w, line)
	return nil
}

// showHTTP prints the interactions of an HTTP recording whose key starts
// with prefix, and returns how many.
func showHTTP(w io.Writer, path, prefix string, asJSON bool) (int, error) {
	f, err := golden.LoadHTTP(path)
	if err != nil {
		return 0, err
	}
	shown := 0
	for _, in := range f.Interactions {
		if !strings.HasPrefix(in.Key, prefix) {
			continue
		}
		shown++
		if asJSON {
			data, _ := json.MarshalIndent(in, "", "  ")
			fmt.Fprintln(w, string(data))
			continue
		}
		fmt.Fprintf(w, "%s #%d  %s  %s %s  (%s)\n", golden.ShortKey(in.Key), in.Occurrence, in.RecordedAt.Format("2006-01-02T15:04:05Z"),
			in.Request.Method, in.Request.Path, filepath.ToSlash(path))
		line := func(label, text string) {
			if text != "" {
				fmt.Fprintf(w, "    %-10s %s\n", label+":", textnorm.Excerpt(strings.Join(strings.Fields(text), " "), 200))
			}
		}
		line("request", bodyText(in.Request.Body, in.Request.BodyText, in.Request.BodyBase64))
		r := in.Response
		status := fmt.Sprintf("%d", r.Status)
		if ct := r.Header.Get("Content-Type"); ct != "" {
			status += ", " + ct
		}
		if r.Events != nil {
			status += fmt.Sprintf(", %d events", len(r.Events))
		}
		line("status", status)
		line("response", bodyText(r.Body, r.BodyText, r.BodyBase64))
		fmt.Fprintln(w)
	}
	return shown, nil
}

func bodyText(body json.RawMessage, text string, raw []byte) string {
	switch {
	case body != nil:
		var b bytes.Buffer
		if json.Compact(&b, body) != nil {
			return string(body)
		}
		return b.String()
	case text != "":
		return text
	case raw != nil:
		return fmt.Sprintf("(%d bytes, base64)", len(raw))
	}
	return ""
}
