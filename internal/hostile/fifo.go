package hostile

import (
	"errors"
	"os"
	"syscall"
	"time"
)

// ReadWithin runs read, which reads the FIFO at path, and returns its
// error, or blocked true when it has not returned after d: then ReadWithin
// opens the FIFO for writing, so a read blocked opening it returns, and
// waits for it (5 s at most).
func ReadWithin(path string, d time.Duration, read func() error) (err error, blocked bool) {
	done := make(chan error, 1)
	go func() { done <- read() }()
	select {
	case err := <-done:
		return err, false
	case <-time.After(d):
	}
	for range 500 {
		// Non-blocking: it fails while no reader is opening the FIFO.
		if w, err := os.OpenFile(path, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			w.Close()
		}
		select {
		case err := <-done:
			return err, true
		case <-time.After(10 * time.Millisecond):
		}
	}
	return errors.New("hostile: the reader of the FIFO is still blocked 5 s after it was given a writer"), true
}
