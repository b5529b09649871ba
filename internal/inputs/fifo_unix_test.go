//go:build unix

package inputs_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit/internal/hostile"
	"github.com/evalkit-go/evalkit/internal/inputs"
)

// A FIFO is refused, naming what it is, and at once: a plain open of a
// FIFO no one writes to waits for a writer for ever.
func TestReadFileFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "Test.judge.json")
	require.NoError(t, hostile.Mkfifo(fifo))
	err, blocked := hostile.ReadWithin(fifo, 5*time.Second, func() error {
		_, err := inputs.ReadFile(fifo, inputs.Recording)
		return err
	})
	require.False(t, blocked, "ReadFile blocked on a FIFO")
	assert.EqualError(t, err, fifo+" is a named pipe (FIFO), not a regular file: evalkit reads only regular files")
}
