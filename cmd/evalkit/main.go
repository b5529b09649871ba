// Command evalkit inspects and maintains evalkit's recordings (package
// golden) — of judge verdicts (*.judge.json) and of the HTTP exchanges of
// the code under test (*.http.json) — and renders test results as reports:
//
//	evalkit golden list   [recording|DIR ...]      one line per recording
//	evalkit golden show   [-key PREFIX] [-json] recording|DIR ...
//	evalkit golden verify [recording|DIR ...]      format, order, no secrets
//	evalkit golden prune  [-n] [recording ...]     drop what no test used
//	evalkit golden merge  -o FILE recording ...    the union of shards' recordings
//	evalkit golden audit  [-n N] [-judges FILE] [-update] [recording ...]
//	                                               ask the live judge again: judge drift
//	evalkit report [-html FILE] [-md FILE] results ...   HTML page and Markdown summary
//	evalkit compare [-alpha A] [-max-flips N] [-tag TAG=N] [-md FILE] [-html FILE] BASE NEW
//	                                               flips, pass rates, significance; a gate
//	evalkit checks [-md] [TYPE ...]               the check types of case files: parameters, defaults, examples
//
// A directory named stands for every *.judge.json and *.http.json under
// it; with none named, it takes every one in a testdata directory under
// the current one. -h on any command prints its usage and exits 0. verify exits 1 when any recording has
// a problem, so CI can run it; prune drops the entries the last full test
// run did not use (it reads the usage logs go test leaves in
// golden.DefaultUsageDir), and the recordings of tests that no longer
// exist.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/evalkit-go/evalkit/internal/secret"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

const usage = `usage: evalkit golden <command> [flags] [recording|DIR ...]
       evalkit report [-html FILE] [-md FILE] results ...
       evalkit compare [flags] BASE NEW
       evalkit checks [-md] [TYPE ...]      the check types of case files: parameters, examples

commands:
  list     one line per recording: entries, size, judges, last recorded
  show     the entries of recordings (-key PREFIX: those whose key starts so; -json: as JSON)
  verify   check format, order and that nothing looks like a credential; exit 1 on a problem
  prune    drop the entries the last full test run did not use, and recordings of
           tests that no longer exist (-n: only say what; -usage DIR: where the
           usage logs are)
  merge    -o FILE: the union of recordings, as the shards of a CI matrix
           (EVALKIT_SHARD) record them; different verdicts under one key are
           a conflict, and nothing is written
  audit    ask the live judge again a seeded sample of recorded verdicts (-n N,
           -fraction F, -seed S) and report judge drift: flips with a Wilson
           interval, score drift, model version; -update writes what changed

A DIR stands for every *.judge.json and *.http.json under it. With no recording named:
every one in a testdata directory under the current one. -h on a command: its flags.
`

// isHelp reports whether arg asks for help: -h, -help, --help or help.
func isHelp(arg string) bool {
	switch arg {
	case "-h", "-help", "--help", "help":
		return true
	}
	return false
}

// parseExit is the exit code of a command line its flags did not parse:
// 0 when it asked for help (-h, -help, --help: the usage was printed), as
// Go's own commands exit since Go 1.15, else 2.
func parseExit(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	return 2
}

// run is the command: its exit code is 0 when all went well, 1 when a
// recording has a problem or could not be handled, 2 for a bad command
// line. Everything it prints passes the one redactor (internal/secret),
// as a stream, and every file it writes goes through writeOutput or
// golden, which redact too.
func run(args []string, stdout, stderr io.Writer) int {
	out, errOut := secret.NewWriter(stdout), secret.NewWriter(stderr)
	defer out.Flush()
	defer errOut.Flush()
	return dispatch(args, out, errOut)
}

// writeOutput writes a file the command makes (a report), redacted.
func writeOutput(path string, data []byte) error {
	return os.WriteFile(path, secret.CleanBytes(data), 0o644)
}

func dispatch(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && isHelp(args[0]) || len(args) == 2 && args[0] == "golden" && isHelp(args[1]) {
		fmt.Fprint(stdout, usage)
		return 0
	}
	if len(args) > 0 && args[0] == "report" {
		return report(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "compare" {
		return compare(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "checks" {
		return checks(args[1:], stdout, stderr)
	}
	if len(args) < 2 || args[0] != "golden" {
		fmt.Fprint(stderr, usage)
		return 2
	}
	cmd, rest := args[1], args[2:]
	switch cmd {
	case "list":
		return list(rest, stdout, stderr)
	case "show":
		return show(rest, stdout, stderr)
	case "verify":
		return verify(rest, stdout, stderr)
	case "prune":
		return prune(rest, stdout, stderr)
	case "merge":
		return merge(rest, stdout, stderr)
	case "audit":
		return audit(rest, stdout, stderr)
	}
	fmt.Fprintf(stderr, "evalkit golden: unknown command %q\n\n%s", cmd, usage)
	return 2
}
