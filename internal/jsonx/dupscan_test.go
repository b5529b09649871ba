package jsonx_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit/internal/jsonx"
)

func TestFirstDuplicate(t *testing.T) {
	for _, tc := range []struct {
		in             string
		key, path, pos string // pos: "line:column"
		same           bool
	}{
		{in: `{"passed": false, "passed": true}`, key: "passed", path: "passed", pos: "1:19"},
		{in: `{"a": 1, "b": {"c": 2, "c": 2}}`, key: "c", path: "b.c", pos: "1:24", same: true},
		{in: `{"items": [{"id": 1}, {"id": 2}, {"id": 3, "id": 4}]}`, key: "id", path: "items[2].id", pos: "1:44"},
		{in: "[[], [1, {\"x\": [],\n \"y\": 1, \"x\": {}}]]", key: "x", path: "[1][1].x", pos: "2:10"},
		{in: `{"a": {"k": 1}, "b": {"k": 1}, "k": "a"}`}, // one key in each object
		{in: `{"a": "a", "b": ["a", "a", "\"a\""]}`},     // strings that are values, not keys
		{in: `{"a\"b": 1, "a\"c": 2, "a": {"\"": 1}}`},   // escaped quotes
		{in: `{}`}, {in: `7`}, {in: `[]`}, {in: `""`}, {in: ``},
		{in: `{"Result": 1, "result": 2}`},                                                   // RFC 8259 names are case-sensitive
		{in: `{"a": "\u0061", "\u0061": 1}`, key: "a", path: "a", pos: "1:17"},               // an escape is its letter
		{in: `{"é": 1, "\u00e9": 2}`, key: "é", path: `["é"]`, pos: "1:11"},                  // and its character
		{in: "{\"\xff\": 1, \"\xfe\": 2}", key: "\ufffd", path: "[\"\ufffd\"]", pos: "1:10"}, // invalid UTF-8 decodes to U+FFFD, alike
		{in: `{"a.b": 1, "a.b": 2}`, key: "a.b", path: `["a.b"]`, pos: "1:12"},
		{in: `{"x": 1e400, "passed": false, "passed": true}`, key: "passed", path: "passed", pos: "1:31"},
	} {
		d, ok := jsonx.FirstDuplicate([]byte(tc.in))
		require.Equal(t, tc.key != "", ok, tc.in)
		if !ok {
			continue
		}
		assert.Equal(t, tc.key, d.Key, tc.in)
		assert.Equal(t, tc.path, d.Path, tc.in)
		assert.Equal(t, tc.pos, fmt.Sprintf("%d:%d", d.Line, d.Column), tc.in)
		assert.Equal(t, tc.same, d.Same, tc.in)
		assert.Equal(t, byte('"'), tc.in[d.Offset], tc.in)
	}
}

// FirstFoldedDuplicate compares names as encoding/json fills struct
// fields, ignoring case (Unicode's simple folding: "ſ" is "s", "K" the
// Kelvin sign is "k"), agreeing with DuplicateFoldedKey; the values of
// the members named as maps are compared exactly, at any depth.
func TestFirstFoldedDuplicate(t *testing.T) {
	for _, tc := range []struct {
		in, key, path string
	}{
		{`{"score": 0.9, "Score": 0.2}`, "Score", "Score"},
		{`{"verdict": {"raw_score": 9, "RAW_SCORE": 2}}`, "RAW_SCORE", "verdict.RAW_SCORE"},
		{`{"status": 1, "ſtatus": 2}`, "ſtatus", `["ſtatus"]`},
		{`{"kind": 1, "Kind": 2}`, "Kind", `["Kind"]`},
		{`{"a": 1, "A": 2}`, "A", "A"},
		{`{"fields": {"Tone": 1, "tone": 2}, "x": {"args": {"A": {"b": 1, "B": 2}}}}`, "", ""},
		{`{"fields": {"a": 1}, "Fields": {}}`, "Fields", "Fields"},
		{`{"fields": {"Tone": 1, "tone": 2}, "verdict": {"fields": 1, "x": 1, "X": 2}}`, "X", "verdict.X"},
		{`{"a": 1, "b": 2}`, "", ""},
	} {
		d, ok := jsonx.FirstFoldedDuplicate([]byte(tc.in), "fields", "args")
		require.Equal(t, tc.key != "", ok, tc.in)
		if ok {
			assert.Equal(t, tc.key, d.Key, tc.in)
			assert.Equal(t, tc.path, d.Path, tc.in)
		}
		if !strings.Contains(tc.in, "fields") {
			_, folded, err := jsonx.DuplicateFoldedKey([]byte(tc.in))
			require.NoError(t, err)
			assert.Equal(t, ok, folded, "agrees with DuplicateFoldedKey: %s", tc.in)
		}
	}
	_, ok := jsonx.FirstDuplicate([]byte(`{"score": 0.9, "Score": 0.2}`))
	assert.False(t, ok, "FirstDuplicate compares names exactly")
}

// Conflicts takes a name given twice with the same value as what every
// parser reads alike, and names the first given twice with different
// values, with the key and its place.
func TestConflicts(t *testing.T) {
	assert.NoError(t, jsonx.Conflicts([]byte(`{"a": {"x": [1, 2]}, "a": {"x": [1, 2]}}`)))
	err := jsonx.Conflicts([]byte(`{"a": {"x": [1, 2]}, "a": {"x": [1, 2]}, "b": {"c": 1, "d": [{"e": "f", "e": "g"}]}}`))
	assert.EqualError(t, err, `key "e" is given twice, with different values (at b.d[0].e, line 1, column 73): which is meant cannot be told`)
	var ce *jsonx.ConflictError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, "b.d[0].e", ce.Path)
	assert.NoError(t, jsonx.ConflictsString(`{"a": 1}`))
	assert.Error(t, jsonx.ConflictsString(`{"a": 1, "a": 1.0}`), "1 and 1.0 are written apart: not the same")

	// Many members: the map past a small object finds them too.
	var b strings.Builder
	b.WriteString("{")
	for i := range 1000 {
		fmt.Fprintf(&b, `"k%d": %d, `, i, i)
	}
	b.WriteString(`"k500": 0}`)
	d, ok := jsonx.FirstDuplicate([]byte(b.String()))
	require.True(t, ok)
	assert.Equal(t, "k500", d.Path)

	// A megabyte name is quoted to a bounded error.
	huge := strings.Repeat("k", 1<<20)
	err = jsonx.Conflicts([]byte(`{"` + huge + `": 1, "` + huge + `": 2}`))
	require.Error(t, err)
	assert.Less(t, len(err.Error()), 700)
}

// FirstDuplicate agrees with the Token-reading DuplicateKey on every
// seed of the fuzz corpora that parses, and never panics on what does not.
func TestFirstDuplicateAgrees(t *testing.T) {
	inputs := []string{`{"a":1,"a":2}`, `[{"a":{"b":[1,{"c":1,"c":1}]}}]`, `{"":1,"":2}`, `{"a":[}`, `{"a"`, `{"a":"\`, `[1,2`, `{"a":1,}`}
	dir := "testdata/fuzz"
	if entries, err := os.ReadDir(dir); err == nil {
		for _, e := range entries {
			files, _ := os.ReadDir(dir + "/" + e.Name())
			for _, f := range files {
				if data, err := os.ReadFile(dir + "/" + e.Name() + "/" + f.Name()); err == nil {
					inputs = append(inputs, string(data))
				}
			}
		}
	}
	for _, in := range inputs {
		d, ok := jsonx.FirstDuplicate([]byte(in))
		if !json.Valid([]byte(in)) {
			continue
		}
		want, wantOK, err := jsonx.DuplicateKey([]byte(in))
		require.NoError(t, err)
		require.Equal(t, wantOK, ok, in)
		if ok && d.Key != "" && !strings.ContainsAny(want, `."\[]`) {
			assert.Equal(t, want, d.Path, in)
		}
	}
}

// BenchmarkConflicts: the scan beside a plain json.Valid of the same
// bytes and a decode into an any, on a list of 10,000 recording-shaped
// objects: compact (about 4.5 MB) and indented as recordings are written
// (about 7 MB).
func BenchmarkConflicts(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`{"version": 1, "entries": [`)
	for i := range 10_000 {
		if i > 0 {
			sb.WriteString(",")
		}
		fmt.Fprintf(&sb, `{"key": "sha256:%064d", "judge": {"provider": "openai", "model": "gpt-4.1-mini", "settings": {"temperature": 0}}, "request": {"criteria": "Confirms the refund and states the amount", "content": "Your refund of $42.00 for order #W%06d was issued."}, "verdict": {"score": 0.9, "raw_score": 9, "scored": true, "reasoning": "It states the amount.", "usage": {"input_tokens": 310, "output_tokens": 42}}}`, i, i)
	}
	sb.WriteString("]}")
	compact := []byte(sb.String())
	var indented bytes.Buffer
	if err := json.Indent(&indented, compact, "", "  "); err != nil {
		b.Fatal(err)
	}
	for _, in := range []struct {
		name string
		data []byte
	}{{"compact", compact}, {"indented", indented.Bytes()}} {
		data := in.data
		b.Run(in.name+"/baseline=json.Valid", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if !json.Valid(data) {
					b.Fatal("invalid")
				}
			}
		})
		b.Run(in.name+"/Conflicts", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if err := jsonx.Conflicts(data); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(in.name+"/json.Unmarshal-any", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				var v any
				if err := json.Unmarshal(data, &v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkConflictsSmall: the scan of a tool call's arguments and of a
// short JSON answer, as the checks make it once per text; it allocates
// nothing.
func BenchmarkConflictsSmall(b *testing.B) {
	for name, data := range map[string][]byte{
		"args":   []byte(`{"reservation_id": "FQ8APE", "total_baggages": 3, "nonfree_baggages": 0, "payment_id": "gift_card_7219152"}`),
		"answer": []byte(`{"refund": {"order_id": "#W2378156", "amount": 149.99, "currency": "USD", "items": [{"id": "9647374798", "name": "Smart Watch", "price": 149.99}], "status": "issued"}, "message": "Your refund of $149.99 is on its way.", "tags": ["refund", "watch"]}`),
	} {
		b.Run(name+"/baseline=json.Valid", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if !json.Valid(data) {
					b.Fatal("invalid")
				}
			}
		})
		b.Run(name+"/Conflicts", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if err := jsonx.Conflicts(data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// FuzzFirstDuplicate: on valid JSON the one-pass scan finds a duplicate
// exactly when the Token-reading DuplicateKey does; on anything it never
// panics and never loops.
func FuzzFirstDuplicate(f *testing.F) {
	for _, s := range []string{`{"a":1,"a":2}`, `[{"a":{"b":[1,{"c":1,"c":1}]}}]`, `{"\u0061":1,"a":1}`, `{"a":[}`, `{"a":"\"","b":{}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, ok := jsonx.FirstDuplicate(data)
		_ = jsonx.Conflicts(data)
		if !json.Valid(data) {
			return
		}
		_, want, err := jsonx.DuplicateKey(data)
		if err != nil {
			t.Fatal(err)
		}
		if ok != want {
			t.Fatalf("FirstDuplicate %v, DuplicateKey %v", ok, want)
		}
	})
}
