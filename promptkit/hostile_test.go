package promptkit_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	testify "github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit/assert"
	"github.com/evalkit-go/evalkit/internal/hostile"
	"github.com/evalkit-go/evalkit/promptkit"
)

// A runtime config is read as case files are: a FIFO is refused at once
// (a plain read waited for a writer for ever; /dev/zero, read until
// memory ran out), and so is a config past a case file's size limit.
func TestBindRuntimeConfigBounded(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "runtime.yaml")
	if err := hostile.Mkfifo(fifo); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	err, blocked := hostile.ReadWithin(fifo, 5*time.Second, func() error {
		return promptkit.BindRuntimeConfig(assert.NewRegistry(), fifo)
	})
	require.False(t, blocked, "BindRuntimeConfig blocked on a FIFO")
	testify.EqualError(t, err, "promptkit: "+fifo+" is a named pipe (FIFO), not a regular file: evalkit reads only regular files")

	if _, err := os.Stat("/dev/zero"); err == nil {
		zero := filepath.Join(dir, "zero.yaml")
		require.NoError(t, os.Symlink("/dev/zero", zero))
		err := promptkit.BindRuntimeConfig(assert.NewRegistry(), zero)
		testify.EqualError(t, err, "promptkit: "+zero+" is a character device, not a regular file: evalkit reads only regular files")
	}

	big := filepath.Join(dir, "big.yaml")
	require.NoError(t, os.WriteFile(big, make([]byte, 5<<10), 0o644))
	t.Setenv("EVALKIT_MAX_CASE_FILE_BYTES", "4KiB")
	err = promptkit.BindRuntimeConfig(assert.NewRegistry(), big)
	testify.EqualError(t, err, "promptkit: "+big+": 5 KiB, past the limit of 4 KiB for a case file (EVALKIT_MAX_CASE_FILE_BYTES raises it)")
}
