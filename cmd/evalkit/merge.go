package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/evalkit-go/evalkit/golden"
)

// merge is `evalkit golden merge -o OUT recording ...`: the union of the
// recordings' entries, as the shards of a CI matrix (EVALKIT_SHARD) record
// the verdicts of their own cases into copies of one file. Two entries
// under one key must hold the same verdict; the earlier recording time is
// kept. Different verdicts under one key are a conflict: exit 1, nothing
// written, the keys listed — re-record them rather than pick one.
func merge(args []string, stdout, stderr io.Writer) int {
	fl := flags("merge", stderr)
	out := fl.String("o", "", "write the merged recording to `FILE` (required; may be one of the inputs)")
	if err := fl.Parse(args); err != nil {
		return parseExit(err)
	}
	if *out == "" || fl.NArg() == 0 {
		fmt.Fprintln(stderr, "usage: evalkit golden merge -o FILE recording ...")
		return 2
	}
	byKey := map[string]golden.Entry{}
	from := map[string]string{}
	var conflicts []string
	for _, path := range fl.Args() {
		f, err := golden.Load(path)
		if err != nil {
			fmt.Fprintln(stderr, err)
			return 1
		}
		for _, e := range f.Entries {
			prev, seen := byKey[e.Key]
			switch {
			case !seen:
				byKey[e.Key], from[e.Key] = e, path
			case !sameVerdict(prev, e):
				conflicts = append(conflicts, fmt.Sprintf("%s: %s and %s hold different verdicts", golden.ShortKey(e.Key), filepath.ToSlash(from[e.Key]), filepath.ToSlash(path)))
			case e.RecordedAt.Before(prev.RecordedAt):
				byKey[e.Key] = e
			}
		}
	}
	if len(conflicts) > 0 {
		fmt.Fprintf(stderr, "evalkit golden merge: %d conflicting %s, nothing written:\n%s\n", len(conflicts), plural(len(conflicts), "entry", "entries"), strings.Join(conflicts, "\n"))
		return 1
	}
	merged := &golden.File{Version: golden.Version}
	for _, k := range slices.Sorted(maps.Keys(byKey)) {
		merged.Entries = append(merged.Entries, byKey[k])
	}
	if err := golden.WriteFile(*out, merged); err != nil {
		fmt.Fprintln(stderr, "evalkit golden merge:", err)
		return 1
	}
	fmt.Fprintf(stdout, "%s: %d %s from %d %s\n", filepath.ToSlash(*out), len(merged.Entries), plural(len(merged.Entries), "entry", "entries"), fl.NArg(), plural(fl.NArg(), "recording", "recordings"))
	return 0
}

func sameVerdict(a, b golden.Entry) bool {
	va, errA := json.Marshal([]any{a.Verdict, a.Embedding})
	vb, errB := json.Marshal([]any{b.Verdict, b.Embedding})
	return errA == nil && errB == nil && bytes.Equal(va, vb)
}
