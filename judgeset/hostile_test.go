package judgeset_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit/internal/hostile"
	"github.com/evalkit-go/evalkit/judgeset"
)

// An alias inside the value it stands for is refused at once, with the
// file, line and alias; the walk of the config followed it for ever. The
// child process measures it: a clear error within 5 s and 500 MB.
func TestLoadAliasCycle(t *testing.T) {
	if hostile.Child("judgeset-cycle") {
		hostile.Do(func() error {
			_, err := judgeset.Load(os.Getenv("EVALKIT_TEST_FILE"))
			return err
		})
		return
	}
	path := filepath.Join(t.TempDir(), "judges.yaml")
	require.NoError(t, os.WriteFile(path, []byte("judges:\n  strict: &s\n    provider: openai\n    settings: {again: *s}\n"), 0o644))
	res := hostile.Run("TestLoadAliasCycle", "judgeset-cycle", 20*time.Second, "EVALKIT_TEST_FILE="+path)
	t.Log(res)
	require.NoError(t, res.Within(5*time.Second, 500<<20))
	assert.Equal(t, "judgeset: "+path+":4: judges.strict.settings.again: the alias *s stands for a value that holds it (&s at line 2): a value cannot contain itself, so it has no end", res.Result)
}

// A config past 1 MiB, or a FIFO, is refused naming the file; the
// variable raises the limit.
func TestLoadBounded(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "judges.yaml")
	data := "judges:\n  a: {provider: openai, model: m}\n# " + strings.Repeat("x", 1<<20) + "\n"
	require.NoError(t, os.WriteFile(path, []byte(data), 0o644))
	_, err := judgeset.Load(path)
	assert.EqualError(t, err, "judgeset: "+path+": 1.0 MiB, past the limit of 1 MiB for a judge set config (EVALKIT_MAX_JUDGE_SET_BYTES raises it)")
	t.Setenv("EVALKIT_MAX_JUDGE_SET_BYTES", "2MiB")
	_, err = judgeset.Load(path)
	assert.NoError(t, err)

	fifo := filepath.Join(dir, "fifo.yaml")
	if err := hostile.Mkfifo(fifo); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	err, blocked := hostile.ReadWithin(fifo, 5*time.Second, func() error {
		_, err := judgeset.Load(fifo)
		return err
	})
	require.False(t, blocked, "Load blocked on a FIFO")
	assert.EqualError(t, err, "judgeset: "+fifo+" is a named pipe (FIFO), not a regular file: evalkit reads only regular files")
}
