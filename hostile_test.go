package evalkit_test

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/internal/hostile"
)

// A transcript holding one 100 MB answer took 11 s to decode; now the file
// is refused before it is read, past the 32 MiB limit of a transcript.
// The child process measures it: a clear error within 5 s and 500 MB.
func TestLoadHugeTranscript(t *testing.T) {
	if hostile.Child("huge-transcript") {
		hostile.Do(func() error {
			_, err := evalkit.Load(os.Getenv("EVALKIT_TEST_FILE"))
			return err
		})
		return
	}
	skipHuge(t)
	path := filepath.Join(t.TempDir(), "run.json")
	if hostile.Race {
		t.Skip("a measure of time and memory: the race detector's are no measure (make test runs it)")
	}
	f, err := os.Create(path)
	require.NoError(t, err)
	w := bufio.NewWriter(f)
	fmt.Fprint(w, `[{"role": "user", "content": "Describe the image"}, {"role": "assistant", "content": "`)
	line := strings.Repeat("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg", 10)
	for written := 0; written < 100_000_000; written += len(line) {
		w.WriteString(line)
	}
	fmt.Fprint(w, `"}]`)
	require.NoError(t, w.Flush())
	require.NoError(t, f.Close())

	res := hostile.Run("TestLoadHugeTranscript", "huge-transcript", 30*time.Second, "EVALKIT_TEST_FILE="+path)
	t.Log(res)
	require.NoError(t, res.Within(5*time.Second, 500<<20))
	assert.Equal(t, "evalkit: "+path+": 95.4 MiB, past the limit of 32 MiB for a transcript (EVALKIT_MAX_TRANSCRIPT_BYTES raises it)", res.Result)
}

// A transcript file that is a FIFO is refused at once by Load and
// LoadAll; a plain read waited for a writer for ever.
func TestLoadFIFO(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "run.jsonl")
	if err := hostile.Mkfifo(fifo); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	for name, load := range map[string]func() error{
		"Load":    func() error { _, err := evalkit.Load(fifo); return err },
		"LoadAll": func() error { _, err := evalkit.LoadAll(fifo); return err },
	} {
		err, blocked := hostile.ReadWithin(fifo, 5*time.Second, load)
		require.False(t, blocked, "%s blocked on a FIFO", name)
		assert.EqualError(t, err, "evalkit: "+fifo+" is a named pipe (FIFO), not a regular file: evalkit reads only regular files", name)
	}
}
