package golden

import (
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
