package main

import (
	"io"

	"github.com/evalkit-go/evalkit/internal/secret"
)

// emit writes one finished output of a command: to stdout when path is ""
// or "-", else to the file path. Every output of compare, golden audit and
// calibrate leaves through here, whole, and through the one redactor:
// what the process knows is secret, and what looks like a credential, is
// written "[redacted:kind]" (secret.CleanBytes; writeOutput for files). A failure message in a results file quotes the agent's
// output, and an audit quotes the judge's reasoning; both go to a PR
// comment or a CI summary others read.
func emit(stdout io.Writer, path string, data []byte) error {
	if path == "" || path == "-" {
		_, err := stdout.Write(secret.CleanBytes(data))
		return err
	}
	return writeOutput(path, data)
}
