//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package golden

import (
	"context"
	"errors"
	"fmt"
	"os"
	"syscall"
)

// lockFile takes an exclusive flock(2) on the file name, and returns
// what releases it: the file is removed, then closed.
func lockFile(ctx context.Context, name string) (func(), error) {
	var held *os.File
	err := retryLock(ctx, name, func() (bool, error) {
		f, err := os.OpenFile(name, os.O_CREATE|os.O_RDWR, 0o644)
		if err != nil {
			return false, fmt.Errorf("golden: %w", err)
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) || errors.Is(err, syscall.EINTR) {
				return false, nil
			}
			return false, fmt.Errorf("golden: locking %s: %w", name, err)
		}
		// The holder before may have removed the file once done: a lock
		// on a file no longer at name locks nothing.
		mine, err1 := f.Stat()
		now, err2 := os.Stat(name)
		if err1 != nil || err2 != nil || !os.SameFile(mine, now) {
			f.Close()
			return false, nil
		}
		held = f
		return true, nil
	})
	if err != nil {
		return nil, err
	}
	return func() {
		os.Remove(held.Name())
		held.Close()
	}, nil
}
