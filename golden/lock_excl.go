//go:build !(darwin || dragonfly || freebsd || linux || netbsd || openbsd)

package golden

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"time"
)

// staleLock is the age past which a lock file is taken for one left by a
// process that died holding it: a Save holds it for the time of one read
// and one write of the recording.
const staleLock = time.Minute

// lockFile creates the file name, which must not exist, and returns what
// releases the lock: the file's removal.
func lockFile(ctx context.Context, name string) (func(), error) {
	err := retryLock(ctx, name, func() (bool, error) {
		f, err := os.OpenFile(name, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if err == nil {
			f.WriteString(strconv.Itoa(os.Getpid()) + "\n")
			f.Close()
			return true, nil
		}
		// Windows says a file being removed is not ours to open.
		if !errors.Is(err, fs.ErrExist) && !errors.Is(err, fs.ErrPermission) {
			return false, fmt.Errorf("golden: %w", err)
		}
		if fi, err := os.Stat(name); err == nil && time.Since(fi.ModTime()) > staleLock {
			os.Remove(name)
		}
		return false, nil
	})
	if err != nil {
		return nil, err
	}
	return func() { os.Remove(name) }, nil
}
