//go:build unix

package golden_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit/golden"
)

// within runs f and fails the test if it has not returned in 5s: the
// hostile journals below hung New, Save, Verify and JournalEntries.
func within(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatalf("%s: still waiting after 5s", what)
	}
}

// A journal that is a FIFO, a directory or a symbolic link was not written
// by evalkit: New (in every mode), Verify and JournalEntries refuse it with
// an error naming it, never waiting on a FIFO nor reading or appending
// through a link to another file.
func TestJournalNotARegularFile(t *testing.T) {
	for _, kind := range []string{"fifo", "dir", "link"} {
		t.Run(kind, func(t *testing.T) {
			path := recordingPath(t)
			jp := path + golden.JournalSuffix
			require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
			target := filepath.Join(t.TempDir(), "elsewhere")
			require.NoError(t, os.WriteFile(target, []byte("not evalkit's\n"), 0o644))
			switch kind {
			case "fifo":
				require.NoError(t, syscall.Mkfifo(jp, 0o644))
				// A writer that never closes would keep a reader waiting
				// for ever; none is needed for os.Open to block.
			case "dir":
				require.NoError(t, os.Mkdir(jp, 0o755))
			case "link":
				require.NoError(t, os.Symlink(target, jp))
			}
			for _, mode := range []golden.Mode{golden.ModeReplay, golden.ModeRecord, golden.ModeRefresh} {
				within(t, "New in "+mode.String(), func() {
					_, err := golden.New(path, newLive(testIdentity), golden.WithMode(mode))
					require.Error(t, err, mode.String())
					assert.Contains(t, err.Error(), jp)
					assert.Contains(t, err.Error(), "not a regular file")
				})
			}
			within(t, "Verify", func() {
				err := golden.Verify(path)
				require.Error(t, err)
				assert.Contains(t, err.Error(), "not a regular file")
			})
			within(t, "JournalEntries", func() {
				_, exists, err := golden.JournalEntries(path)
				assert.True(t, exists)
				require.Error(t, err)
			})
			data, err := os.ReadFile(target)
			require.NoError(t, err)
			assert.Equal(t, "not evalkit's\n", string(data), "nothing written through the link")
		})
	}
}

// A recording run whose journal became a FIFO or a link while it ran (or
// that started beside one) does not append to it: the verdict is returned
// with a note, and the file behind the link is untouched.
func TestJournalAppendRefusesLink(t *testing.T) {
	path := recordingPath(t)
	rec, err := golden.New(path, newLive(testIdentity), golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	target := filepath.Join(t.TempDir(), "elsewhere")
	require.NoError(t, os.WriteFile(target, []byte("x\n"), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.Symlink(target, path+golden.JournalSuffix))
	within(t, "Judge", func() {
		_, err := rec.Judge(context.Background(), numbered(0))
		require.NoError(t, err)
	})
	data, err := os.ReadFile(target)
	require.NoError(t, err)
	assert.Equal(t, "x\n", string(data))
	assert.Contains(t, strings.Join(rec.Notes(), "\n"), "not a regular file")
}
