package golden

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDecodeEntriesAsWhole: parse's streaming read of a recording returns
// what reading it as one value returns, and leaves every other input to
// that, errors included.
func TestDecodeEntriesAsWhole(t *testing.T) {
	var files []string
	for _, p := range []string{"../testdata/evalkit/TestMTBenchJudgments.judge.json", "../examples/agent/testdata/evalkit/TestAgent.judge.json"} {
		data, err := os.ReadFile(filepath.FromSlash(p))
		require.NoError(t, err)
		files = append(files, string(data))
	}
	for _, data := range files {
		entries, ok := decodeEntries([]byte(data))
		require.True(t, ok, "a recording evalkit wrote is read entry by entry")
		whole, err := decodeWhole("f", []byte(data))
		require.NoError(t, err)
		require.NotEmpty(t, entries)
		assert.Equal(t, whole.Entries, entries)
	}
	key := `"sha256:` + "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef" + `"`
	for name, data := range map[string]string{
		"no entries":       `{"version": 1, "entries": []}`,
		"entries first":    `{"entries": [{"key": ` + key + `}], "version": 1}`,
		"another key case": `{"Version": 1, "entries": []}`,
		"unknown key":      `{"version": 1, "entries": [], "comment": "x"}`,
		"version twice":    `{"version": 1, "version": 1, "entries": []}`,
		"version 1.0":      `{"version": 1.0, "entries": []}`,
		"entries null":     `{"version": 1, "entries": null}`,
		"null entry":       `{"version": 1, "entries": [null]}`,
		"trailing":         `{"version": 1, "entries": []} {}`,
		"type error":       `{"version": 1, "entries": [{"key": ` + key + `, "verdict": {"score": "high"}}]}`,
		"cut off":          `{"version": 1, "entries": [{"key": `,
		"no version":       `{"entries": []}`,
	} {
		whole, err := decodeWhole("f", []byte(data))
		got, gotErr := parse("f", []byte(data))
		assert.Equal(t, whole, got, name)
		assert.Equal(t, err, gotErr, name)
	}
}

// A difference is quoted from a little before it, and whole when only a
// few bytes would be left out: "…onfirms" hid one letter.
func TestWindow(t *testing.T) {
	for _, tc := range []struct {
		s    string
		p    int
		want string
	}{
		{"Confirms the cancellation and refund", 25, `"Confirms the cancellation and refund"`},
		{"Confirms the cancellation of the booking and the refund", 50, `…"of the booking and the refund"`},
		{"short", 2, `"short"`},
	} {
		if got := window(tc.s, tc.p); got != tc.want {
			t.Errorf("window(%q, %d) = %s, want %s", tc.s, tc.p, got, tc.want)
		}
	}
}

// marshalDiff, which encodes a recording an entry at a time, finds what
// comparing with Marshal's whole bytes finds: nothing in what evalkit
// wrote, and the line of the first difference in an edited copy.
func TestMarshalDiffAsMarshal(t *testing.T) {
	wholeDiff := func(want, text []byte) int {
		if bytes.Equal(want, text) {
			return 0
		}
		i := 0
		for i < len(want) && i < len(text) && want[i] == text[i] {
			i++
		}
		return bytes.Count(want[:i], []byte("\n")) + 1
	}
	edits := func(data []byte) [][]byte {
		var out [][]byte
		for _, at := range []int{0, 1, 5, len(data) / 3, len(data) / 2, len(data) - 3, len(data) - 1} {
			e := bytes.Clone(data)
			e[at] = 'X'
			out = append(out, e)
		}
		return append(out, data[:len(data)-1], append(bytes.Clone(data), '\n'), bytes.Replace(data, []byte("  \""), []byte("   \""), 1),
			bytes.Replace(data, []byte("<"), []byte(`\u003c`), 1))
	}
	for _, p := range []string{"../testdata/evalkit/TestMTBenchJudgments.judge.json", "../examples/agent/testdata/evalkit/TestAgent.judge.json"} {
		data, err := os.ReadFile(filepath.FromSlash(p))
		require.NoError(t, err)
		f, err := parse(p, data)
		require.NoError(t, err)
		want, err := f.Marshal()
		require.NoError(t, err)
		assert.Equal(t, 0, marshalDiff(data, "entries", f.Entries), p)
		for _, e := range edits(data) {
			assert.Equal(t, wholeDiff(want, e), marshalDiff(e, "entries", f.Entries), p)
		}
		assert.Equal(t, wholeDiff((&File{}).mustMarshal(t), []byte("{}")), marshalDiff([]byte("{}"), "entries", []Entry{}))
	}
	data, err := os.ReadFile("../examples/agent/testdata/evalkit/TestAgent.http.json")
	require.NoError(t, err)
	f, err := DecodeHTTP("h", data)
	require.NoError(t, err)
	want, err := f.Marshal()
	require.NoError(t, err)
	assert.Equal(t, 0, marshalDiff(data, "interactions", f.Interactions))
	for _, e := range edits(data) {
		assert.Equal(t, wholeDiff(want, e), marshalDiff(e, "interactions", f.Interactions))
	}
	empty, err := (&HTTPFile{}).Marshal()
	require.NoError(t, err)
	assert.Equal(t, 0, marshalDiff(empty, "interactions", []Interaction{}))
}

func (f *File) mustMarshal(t *testing.T) []byte {
	data, err := f.Marshal()
	require.NoError(t, err)
	return data
}
