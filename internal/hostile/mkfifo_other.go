//go:build !unix

package hostile

import "errors"

// Mkfifo makes a FIFO at path: not on this system.
func Mkfifo(path string) error { return errors.ErrUnsupported }
