//go:build unix

package inputs

import (
	"os"
	"syscall"
)

// openNoBlock opens path read-only with O_NONBLOCK: opening a FIFO that
// no one writes to returns at once (without it, open waits for a writer
// for ever), and Open's Stat of the open file then refuses it. For a
// regular file the flag changes nothing.
func openNoBlock(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
