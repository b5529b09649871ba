//go:build !unix

package inputs

import "os"

// openNoBlock opens path read-only after a Stat that refuses what is not
// a regular file (a named pipe could block the open); Open's Stat of the
// open file checks again.
func openNoBlock(path string) (*os.File, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, &NotRegularError{Path: path, Mode: info.Mode()}
	}
	return os.Open(path)
}
