package golden

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"path/filepath"
	"strings"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/internal/secret"
)

// VerifyError lists every problem Verify found in one recording.
type VerifyError struct {
	// Path is the recording's path.
	Path string
	// Problems are one sentence each, in the order found: "line 38:
	// looks like an OpenAI API key (sk-…): sk-l (4 of 28 bytes)";
	// the first MaxProblems of them.
	Problems []string
	// More counts the problems found past MaxProblems.
	More int
}

// MaxProblems bounds the problems a VerifyError holds: a file of a
// hundred thousand keys is one problem to fix, not a megabyte of output.
const MaxProblems = 100

// Error returns "golden: PATH: N problems:" and one problem a line.
func (e *VerifyError) Error() string {
	n := len(e.Problems) + e.More
	head := fmt.Sprintf("golden: %s: %d problems:", e.Path, n)
	if n == 1 {
		head = fmt.Sprintf("golden: %s: 1 problem:", e.Path)
	}
	tail := ""
	if e.More > 0 {
		tail = fmt.Sprintf("\n\t… and %d more", e.More)
	}
	return head + "\n\t" + strings.Join(e.Problems, "\n\t") + tail
}

// Verify checks the recording at path as fstest.TestFS checks a file
// system: it returns nil, or a *VerifyError listing every problem (the
// first MaxProblems, and how many more). The
// problems: it does not read as a version 1 recording (then nothing else
// is checked); its entries are not sorted by key; its bytes are not those
// Marshal writes (CRLF line endings aside, which a Windows checkout may
// add); an entry has no judge provider, no digests, no recording date, a
// score outside [0,1], or a score that is not its raw score on its scale
// (one of them edited by hand); and any text that looks like a credential (see
// internal/secret: provider key formats, Bearer and Basic credentials,
// passwords in URLs, credential query parameters and assignments), named
// by line and masked, never shown.
//
// A journal beside the recording (see JournalSuffix) is a problem too: a
// recording run ended before it saved, and what it holds is not in the
// recording yet; running the test again, in any mode, merges it.
//
// A file named *.http.json is an HTTP recording (see HTTPFile), checked
// the same way: it reads as one, its interactions are grouped by test in
// name order (those of no test first; each test's in any order: see
// WithTest), its bytes are Marshal's, each interaction has a recording
// date and a response that is one body or one event stream, and nothing
// in it looks like a credential — bodies and events held as base64
// included, read as they are and, when compressed (gzip or deflate),
// decoded.
func Verify(path string) error {
	e := &VerifyError{Path: path}
	journal := journalProblem(path)
	data, err := readFile(path)
	if err != nil {
		if journal != "" && errors.Is(err, fs.ErrNotExist) {
			e.add("%s", journal)
			return e
		}
		return err
	}
	if journal != "" {
		e.add("%s", journal)
	}
	text := scanSecrets(e, data)
	if strings.HasSuffix(path, HTTPSuffix) {
		verifyHTTP(e, path, data, text)
		if len(e.Problems) == 0 {
			return nil
		}
		return e
	}
	problem := e.add
	f, err := decode(path, data)
	if err != nil {
		problem("%v", strings.TrimPrefix(err.Error(), "golden: "+path+": "))
		return e
	}
	sorted := true
	for i := 1; i < len(f.Entries) && sorted; i++ {
		if f.Entries[i-1].Key > f.Entries[i].Key {
			problem("entries are not sorted by key: entry %d (%s) comes after %s", i+1, ShortKey(f.Entries[i].Key), ShortKey(f.Entries[i-1].Key))
			sorted = false
		}
	}
	for i, ent := range f.Entries {
		where := fmt.Sprintf("entry %d (%s)", i+1, ShortKey(ent.Key))
		if ent.Judge.Provider == "" {
			problem("%s: the judge has no provider", where)
		}
		if len(ent.Digests) == 0 {
			problem("%s: no digests", where)
		}
		if ent.RecordedAt.IsZero() {
			problem("%s: no recorded_at", where)
		}
		if p := scoreProblem(ent); p != "" {
			problem("%s: %s", where, p)
		}
	}
	if line := marshalDiff(text, "entries", f.Entries); sorted && line > 0 {
		problem("not written as evalkit writes it (entries sorted by key, 2-space indent, LF, a trailing newline): first difference at line %d", line)
	}
	if len(e.Problems) == 0 {
		return nil
	}
	return e
}

// scaleOf is the scale an entry's request asked for: DefaultScale when
// it set none.
// journalProblem says what is wrong with the journal beside the
// recording at path, "" when there is none.
func journalProblem(path string) string {
	n, exists, err := JournalEntries(path)
	switch {
	case !exists:
		return ""
	case err != nil:
		return fmt.Sprintf("a journal that does not read is beside it: %v", strings.TrimPrefix(err.Error(), "golden: "))
	}
	return fmt.Sprintf("%s holds %d %s not merged into the recording, left by a recording run that ended before it saved: run the test again (any mode merges it), and never commit the journal", filepath.Base(path)+JournalSuffix, n, plural(n, "entry", "entries"))
}

func scaleOf(ent Entry) evalkit.Scale {
	if ent.Request.Scale == (evalkit.Scale{}) {
		return evalkit.DefaultScale
	}
	return ent.Request.Scale
}

func (e *VerifyError) add(format string, args ...any) {
	if len(e.Problems) == MaxProblems {
		e.More++
		return
	}
	e.Problems = append(e.Problems, fmt.Sprintf(format, args...))
}

// scanSecrets adds a problem for every credential-shaped string in a
// recording's lines, and returns its text with LF line endings (data
// itself when it has no CRLF: a copy of a 64 MiB file is 64 MiB more).
func scanSecrets(e *VerifyError, data []byte) []byte {
	text := bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	if bytes.Contains(text, []byte("\r\n")) {
		text = bytes.ReplaceAll(text, []byte("\r\n"), []byte("\n"))
	}
	for i, rest := 0, text; len(rest) > 0; i++ {
		line := rest
		if j := bytes.IndexByte(rest, '\n'); j >= 0 {
			line, rest = rest[:j], rest[j+1:]
		} else {
			rest = nil
		}
		for _, f := range secret.Find(string(line)) {
			e.add("line %d: looks like %s: %s", i+1, f.Kind, f.Masked)
		}
	}
	return text
}

// marshalDiff returns 0 when text is the bytes Marshal writes for a file
// of these items (sorted already) under the key list, else the line of
// the first difference. It encodes one item at a time, as Marshal's
// encoder indents it, so it holds one item's JSON at once, not a second
// copy of the file.
func marshalDiff[T any](text []byte, list string, items []T) int {
	pos := 0
	diff := 0
	expect := func(want []byte) bool {
		n := 0
		for n < len(want) && pos+n < len(text) && text[pos+n] == want[n] {
			n++
		}
		if n < len(want) {
			diff = bytes.Count(text[:pos+n], []byte("\n")) + 1
			return false
		}
		pos += n
		return true
	}
	if len(items) == 0 {
		if !expect([]byte("{\n  \"version\": 1,\n  \"" + list + "\": []\n}\n")) {
			return diff
		}
	} else {
		if !expect([]byte("{\n  \"version\": 1,\n  \"" + list + "\": [\n    ")) {
			return diff
		}
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		enc.SetIndent("    ", "  ")
		for i := range items {
			b.Reset()
			if err := enc.Encode(items[i]); err != nil {
				return bytes.Count(text[:pos], []byte("\n")) + 1
			}
			item := bytes.TrimSuffix(b.Bytes(), []byte("\n"))
			sep := ",\n    "
			if i == len(items)-1 {
				sep = "\n  ]\n}\n"
			}
			if !expect(item) || !expect([]byte(sep)) {
				return diff
			}
		}
	}
	if pos != len(text) {
		return bytes.Count(text[:pos], []byte("\n")) + 1
	}
	return 0
}

// scanBytes adds a problem for every credential-shaped string in bytes a
// recording holds as base64, which the scan of its lines cannot read:
// as they are, and decoded when they are compressed (by the
// Content-Encoding of h, or gzip's magic number).
func scanBytes(e *VerifyError, what string, data []byte, h http.Header) {
	if len(data) == 0 {
		return
	}
	report := func(what string, data []byte) {
		for _, f := range secret.Find(string(data)) {
			e.add("%s: looks like %s: %s", what, f.Kind, f.Masked)
		}
	}
	report(what, data)
	codings, err := contentCodings(h)
	if err != nil {
		e.add("%s: %v", what, err)
		return
	}
	if len(codings) == 0 && bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
		codings = []string{"gzip"}
	}
	if len(codings) == 0 {
		return
	}
	plain, err := decodeBody(codings, data)
	if err != nil {
		e.add("%s: %v", what, err)
		return
	}
	report(what+" ("+strings.Join(codings, ", ")+"-decoded)", plain)
}

func verifyHTTP(e *VerifyError, path string, data, text []byte) {
	f, err := DecodeHTTP(path, data)
	if err != nil {
		e.add("%v", strings.TrimPrefix(err.Error(), "golden: "+path+": "))
		return
	}
	sorted := true
	for i := 1; i < len(f.Interactions) && sorted; i++ {
		if f.Interactions[i-1].Test > f.Interactions[i].Test {
			e.add("interactions are not grouped by test in name order (those of no test first): interaction %d (test %q) comes after one of test %q", i+1,
				f.Interactions[i].Test, f.Interactions[i-1].Test)
			sorted = false
		}
	}
	for i, in := range f.Interactions {
		where := fmt.Sprintf("interaction %d (%s #%d)", i+1, ShortKey(in.Key), in.Occurrence)
		if in.RecordedAt.IsZero() {
			e.add("%s: no recorded_at", where)
		}
		r := in.Response
		bodies := 0
		for _, set := range []bool{r.Body != nil, r.BodyText != "", r.BodyBase64 != nil, r.Events != nil} {
			if set {
				bodies++
			}
		}
		if bodies > 1 {
			e.add("%s: the response has more than one of body, body_text, body_base64 and events", where)
		}
		scanBytes(e, where+": the request's body_base64", in.Request.BodyBase64, nil)
		scanBytes(e, where+": the response's body_base64", r.BodyBase64, r.Header)
		for k, ev := range r.Events {
			scanBytes(e, fmt.Sprintf("%s: event %d's raw_base64", where, k+1), ev.RawBase64, nil)
		}
	}
	if line := marshalDiff(text, "interactions", f.Interactions); sorted && line > 0 {
		e.add("not written as evalkit writes it (interactions grouped by test, 2-space indent, LF, a trailing newline): first difference at line %d", line)
	}
}
