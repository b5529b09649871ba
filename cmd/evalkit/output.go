package main

import (
	"io"
	"os"
)

// emit writes one finished output of a command: to stdout when path is ""
// or "-", else to the file path. Every output of compare, golden audit and
// calibrate leaves through here, whole, so a redactor of what evalkit
// prints and writes has one place to stand.
func emit(stdout io.Writer, path string, data []byte) error {
	if path == "" || path == "-" {
		_, err := stdout.Write(data)
		return err
	}
	return os.WriteFile(path, data, 0o644)
}
