package golden

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// lockTimeout bounds how long a Save waits for another process that
// holds a recording's lock.
const lockTimeout = 2 * time.Minute

// withFileLock runs f holding the advisory lock of the recording at path:
// the file path+".lock" beside it (made with its directory when missing,
// removed when done), so two processes recording one file — two test
// binaries of one `go test ./...`, or two CI jobs sharing a checkout —
// read, merge and write it one after the other and lose nothing. On
// Linux, macOS and the BSDs the lock is flock(2) on that file, released
// by the system when a process dies; elsewhere (Windows included) it is
// the file's creation with O_EXCL, and a lock file older than staleLock
// is taken for one a dead process left. Waiting for it ends after
// lockTimeout with an error naming the lock file.
func withFileLock(path string, f func() error) error {
	path, err := resolveLink(path) // one lock for a file, however it is reached
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("golden: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), lockTimeout)
	defer cancel()
	unlock, err := lockFile(ctx, path+".lock")
	if err != nil {
		return err
	}
	defer unlock()
	return f()
}

// retryLock calls try until it takes the lock (true) or fails, waiting a
// little longer each time it finds the lock held, until ctx is done.
func retryLock(ctx context.Context, name string, try func() (bool, error)) error {
	wait := time.Millisecond
	for {
		ok, err := try()
		if err != nil || ok {
			return err
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("golden: waiting for the lock %s, which another process holds: %w (remove the file if no evalkit run is going on)", name, ctx.Err())
		case <-t.C:
		}
		wait = min(2*wait, 50*time.Millisecond)
	}
}
