package results_test

import (
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit/internal/hostile"
	"github.com/evalkit-go/evalkit/internal/results"
)

func TestWriteAndRead(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.jsonl")
	w := results.NewWriter(path)
	score := 0.5
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			assert.NoError(t, w.Write(results.Line{Kind: results.KindCheck, Test: "TestX", Check: strings.Repeat("x", i*100), Status: "pass", Score: &score}))
		}()
	}
	wg.Wait()
	assert.False(t, w.HasTranscript("a"))
	assert.True(t, w.HasTranscript("a"))
	lines, err := results.ReadFile(path)
	require.NoError(t, err)
	assert.Len(t, lines, 50, "concurrent writes never tear a line")
	assert.Equal(t, results.Version, lines[0].V)
}

// What Read refuses, Write does not write.
func TestWriteRefusesWhatReadWould(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.jsonl")
	w := results.NewWriter(path)
	seven := 7.0
	err := w.Write(results.Line{Kind: results.KindCheck, Test: "T", Check: "C", Status: "pass", Score: &seven})
	assert.EqualError(t, err, `results: a line Read would refuse (test "T", check "C"): score 7, want a number in [0,1]`)
	assert.NoFileExists(t, path)
}

func TestReadRefusesWhatItCannotTrust(t *testing.T) {
	for _, tt := range []struct{ data, want string }{
		{`{"v":1,"kind":"check","test":"T","status":"pass"}` + "\n" + `{"v":1,"kind":"check","test":"T","status":"pa`, "r.jsonl:2: the line has no newline: the file was cut off"},
		{`{"v":2,"kind":"check","test":"T","status":"pass"}` + "\n", "r.jsonl:1: format version 2, want 1"},
		{`{"v":1,"kind":"check","test":"T","status":"ok"}` + "\n", `r.jsonl:1: status "ok", want pass, fail or error`},
		{`{"v":1,"kind":"check","status":"pass"}` + "\n", "r.jsonl:1: a check line without a test"},
		{`{"v":1,"kind":"verdict"}` + "\n", `r.jsonl:1: kind "verdict", want "check" or "transcript"`},
		{`{"v":1,"kind":"transcript","id":"x"}` + "\n", "r.jsonl:1: a transcript line without an id or a transcript"},
		{"not json\n", "r.jsonl:1: not a results line: invalid character 'o' in literal null (expecting 'u')"},
		{`{"v":1,"kind":"check","test":"T","status":"pass","score":-5}` + "\n", "r.jsonl:1: score -5, want a number in [0,1]"},
		{`{"v":1,"kind":"check","test":"T","status":"pass","score":1e308}` + "\n", "r.jsonl:1: score 1e+308, want a number in [0,1]"},
		{`{"v":1,"kind":"check","test":"T","status":"pass","tokens":-1}` + "\n", "r.jsonl:1: tokens -1, want at least 0"},
		{`{"v":1,"kind":"check","test":"T","status":"pass","cost_usd":1e300}` + "\n", "r.jsonl:1: cost_usd 1e+300, want a price in US dollars, at least 0"},
		{`{"v":1,"kind":"check","test":"T","status":"pass","latency_ms":-3}` + "\n", "r.jsonl:1: latency_ms -3, want milliseconds, at least 0"},
		{`{"v":1,"kind":"check","test":"T","type":"repeat","status":"pass","attempts":3,"passed":4,"need":2}` + "\n", "r.jsonl:1: attempts 3, passed 4, need 2: want counts of at least 0, passed at most attempts"},
	} {
		_, err := results.Read("r.jsonl", strings.NewReader(tt.data))
		assert.EqualError(t, err, tt.want)
	}
	lines, err := results.Read("r.jsonl", strings.NewReader("\n\n"))
	require.NoError(t, err)
	assert.Empty(t, lines)
}

// A results file past its limit is refused naming the file, the limit and
// the variable that raises it, before it is read whole; a FIFO at once.
func TestReadBounded(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.jsonl")
	w := results.NewWriter(path)
	for range 100 {
		require.NoError(t, w.Write(results.Line{Kind: results.KindCheck, Test: "TestX", Check: strings.Repeat("x", 100), Status: "pass"}))
	}
	t.Setenv("EVALKIT_MAX_RESULTS_BYTES", "4KiB")
	_, err := results.ReadFile(path)
	assert.EqualError(t, err, path+": 16.1 KiB, past the limit of 4 KiB for a results file (EVALKIT_MAX_RESULTS_BYTES raises it)")
	_, err = results.Read("stdin", strings.NewReader(strings.Repeat(`{"v": 1, "kind": "check", "test": "T", "status": "pass"}`+"\n", 100)))
	assert.EqualError(t, err, "stdin: more than the limit of 4 KiB for a results file (EVALKIT_MAX_RESULTS_BYTES raises it)")
	t.Setenv("EVALKIT_MAX_RESULTS_BYTES", "")
	lines, err := results.ReadFile(path)
	require.NoError(t, err)
	assert.Len(t, lines, 100)

	fifo := filepath.Join(dir, "fifo.jsonl")
	if err := hostile.Mkfifo(fifo); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	err, blocked := hostile.ReadWithin(fifo, 5*time.Second, func() error {
		_, err := results.ReadFile(fifo)
		return err
	})
	require.False(t, blocked, "ReadFile blocked on a FIFO")
	assert.EqualError(t, err, fifo+" is a named pipe (FIFO), not a regular file: evalkit reads only regular files")
}
