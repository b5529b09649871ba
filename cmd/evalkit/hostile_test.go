package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit/internal/hostile"
)

// `evalkit golden verify` on a 200 MB recording took 2.4 GB; now the file
// is refused before it is read, past the 64 MiB limit of a recording. The
// child process measures the command: a clear error within 5 s and 500 MB.
func TestVerifyHugeRecording(t *testing.T) {
	if hostile.Child("verify-huge") {
		hostile.Do(func() error {
			code, _, stderr := runCLI("golden", "verify", os.Getenv("EVALKIT_TEST_FILE"))
			return errorf(code, stderr)
		})
		return
	}
	if testing.Short() {
		t.Skip("writes a 200 MB recording: skipped under -short")
	}
	if hostile.Race {
		t.Skip("a measure of time and memory: the race detector's are no measure (make test runs it)")
	}
	path := filepath.Join(t.TempDir(), "TestRefund.judge.json")
	require.NoError(t, hostile.WriteJudgeRecording(path, 200_000_000))
	res := hostile.Run("TestVerifyHugeRecording", "verify-huge", 30*time.Second, "EVALKIT_TEST_FILE="+path)
	t.Log(res)
	require.NoError(t, res.Within(5*time.Second, 500<<20))
	assert.Equal(t, "exit 1: golden: "+path+": 191.0 MiB, past the limit of 64 MiB for a recording (EVALKIT_MAX_RECORDING_BYTES raises it)", res.Result)
}

// errorf is a command's outcome as a child reports it.
func errorf(code int, stderr string) error {
	return &exitError{code: code, stderr: strings.TrimSpace(stderr)}
}

type exitError struct {
	code   int
	stderr string
}

func (e *exitError) Error() string { return "exit " + strconv.Itoa(e.code) + ": " + e.stderr }

// `evalkit golden verify` on a FIFO named *.judge.json blocked for ever;
// now it, and `evalkit report` on a FIFO, fail at once naming the file.
func TestCLIFIFO(t *testing.T) {
	t.Chdir(t.TempDir())
	require.NoError(t, os.MkdirAll("pkg/testdata/evalkit", 0o755))
	fifo := "pkg/testdata/evalkit/TestX.judge.json"
	if err := hostile.Mkfifo(fifo); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	for _, args := range [][]string{{"golden", "verify", fifo}, {"golden", "verify"}, {"golden", "list"}, {"golden", "show"}} {
		var code int
		var stderr string
		_, blocked := hostile.ReadWithin(fifo, 5*time.Second, func() error {
			code, _, stderr = runCLI(args...)
			return nil
		})
		require.False(t, blocked, "evalkit %s blocked on a FIFO", strings.Join(args, " "))
		assert.Equal(t, 1, code)
		assert.Equal(t, "golden: "+fifo+" is a named pipe (FIFO), not a regular file: evalkit reads only regular files\n", stderr, args)
	}

	results := "results.jsonl"
	require.NoError(t, hostile.Mkfifo(results))
	var code int
	var stderr string
	_, blocked := hostile.ReadWithin(results, 5*time.Second, func() error {
		code, _, stderr = runCLI("report", "-md", "-", results)
		return nil
	})
	require.False(t, blocked, "evalkit report blocked on a FIFO")
	assert.Equal(t, 1, code)
	assert.Equal(t, "evalkit report: results.jsonl is a named pipe (FIFO), not a regular file: evalkit reads only regular files\n", stderr)
}

// TestPruneTestFileFIFO: prune reads a package's _test.go files to tell
// whether a recorded test is gone; a FIFO among them blocked it for ever.
// Now the read fails at once, and a file it cannot read leaves the
// recording alone, as a file declaring the test does.
func TestPruneTestFileFIFO(t *testing.T) {
	usage := fixture(t)
	if err := hostile.Mkfifo("pkg/fifo_test.go"); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	var code int
	var out string
	_, blocked := hostile.ReadWithin("pkg/fifo_test.go", 5*time.Second, func() error {
		code, out, _ = runCLI("golden", "prune", "-n", "-usage", usage)
		return nil
	})
	require.False(t, blocked, "evalkit golden prune blocked on a FIFO named *_test.go")
	assert.Equal(t, 0, code)
	assert.NotContains(t, out, "TestGone.judge.json: would drop", "a test file it could not read may declare the test")
}
