package golden_test

import (
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit/golden"
	"github.com/evalkit-go/evalkit/internal/hostile"
)

// The generator the hostile tests use writes a recording that reads and
// verifies: the size, not the content, is what they try.
func TestHostileRecordingIsARecording(t *testing.T) {
	path := filepath.Join(t.TempDir(), "TestRefund.judge.json")
	require.NoError(t, hostile.WriteJudgeRecording(path, 100_000))
	f, err := golden.Load(path)
	require.NoError(t, err)
	assert.Equal(t, 64, len(f.Entries))
	assert.NoError(t, golden.Verify(path))
}

// A 200 MB recording took 1.3 GB in Load (2.4 GB in `evalkit golden
// verify`); now it is refused before it is read, past the 64 MiB limit of
// a recording, by every reader. The child process measures Load: a clear
// error within 5 s and 500 MB.
func TestLoadHugeRecording(t *testing.T) {
	if hostile.Child("huge-recording") {
		hostile.Do(func() error {
			_, err := golden.Load(os.Getenv("EVALKIT_TEST_FILE"))
			return err
		})
		return
	}
	if testing.Short() {
		t.Skip("writes a 200 MB recording: skipped under -short")
	}
	if hostile.Race {
		t.Skip("a measure of time and memory: the race detector's are no measure (make test runs it)")
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "TestRefund.judge.json")
	require.NoError(t, hostile.WriteJudgeRecording(path, 200_000_000))
	res := hostile.Run("TestLoadHugeRecording", "huge-recording", 30*time.Second, "EVALKIT_TEST_FILE="+path)
	t.Log(res)
	require.NoError(t, res.Within(5*time.Second, 500<<20))
	want := "golden: " + path + ": 191.0 MiB, past the limit of 64 MiB for a recording (EVALKIT_MAX_RECORDING_BYTES raises it)"
	assert.Equal(t, want, res.Result)

	_, err := golden.New(path, newLive(testIdentity))
	assert.EqualError(t, err, want)
	assert.EqualError(t, golden.Verify(path), want)
	httpPath := filepath.Join(dir, "TestRefund.http.json")
	require.NoError(t, os.Rename(path, httpPath))
	want = "golden: " + httpPath + ": 191.0 MiB, past the limit of 64 MiB for a recording (EVALKIT_MAX_RECORDING_BYTES raises it)"
	_, err = golden.LoadHTTP(httpPath)
	assert.EqualError(t, err, want)
	_, err = golden.NewTransport(httpPath, http.DefaultTransport)
	assert.EqualError(t, err, want)
}

// A recording that is a FIFO is refused at once by every reader: Verify
// (`evalkit golden verify`) blocked for ever on one named *.judge.json.
func TestRecordingFIFO(t *testing.T) {
	dir := t.TempDir()
	judgeFIFO, httpFIFO := filepath.Join(dir, "TestX.judge.json"), filepath.Join(dir, "TestX.http.json")
	for _, p := range []string{judgeFIFO, httpFIFO} {
		if err := hostile.Mkfifo(p); err != nil {
			t.Skip("no FIFOs here:", err)
		}
	}
	for _, tc := range []struct {
		name, fifo string
		read       func(path string) error
	}{
		{"Verify", judgeFIFO, golden.Verify},
		{"Load", judgeFIFO, func(p string) error { _, err := golden.Load(p); return err }},
		{"New", judgeFIFO, func(p string) error { _, err := golden.New(p, newLive(testIdentity)); return err }},
		{"Verify HTTP", httpFIFO, golden.Verify},
		{"LoadHTTP", httpFIFO, func(p string) error { _, err := golden.LoadHTTP(p); return err }},
		{"NewTransport", httpFIFO, func(p string) error { _, err := golden.NewTransport(p, http.DefaultTransport); return err }},
	} {
		err, blocked := hostile.ReadWithin(tc.fifo, 5*time.Second, func() error { return tc.read(tc.fifo) })
		require.False(t, blocked, "%s blocked on a FIFO", tc.name)
		assert.EqualError(t, err, "golden: "+tc.fifo+" is a named pipe (FIFO), not a regular file: evalkit reads only regular files", tc.name)
	}
}
