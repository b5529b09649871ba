// Package hostile helps the tests that try hostile inputs: it runs one
// test of the running test binary again in a child process and measures
// it — wall time and peak resident memory — for the tests that prove an
// input ends in bounded time and memory (the child's own numbers, not
// the parent's heap with every other test's garbage in it; a child that
// hangs or balloons is killed without taking the parent down), and it
// makes FIFOs and runs a reader of one with a deadline. It does not
// import testing (only evaltest does, outside tests).
//
//	func TestHugeFile(t *testing.T) {
//		if hostile.Child("huge") {
//			_, err := golden.Load(os.Getenv("FILE"))
//			hostile.Report(err) // the child's result, for the parent to read
//			return
//		}
//		res := hostile.Run("TestHugeFile", "huge", 20*time.Second, "FILE="+path)
//		// res.Elapsed, res.MaxRSS, res.Result ...
//	}
package hostile

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime/metrics"
	"strings"
	"time"
)

// env names the child run a process is, when it is one.
const envName = "EVALKIT_HOSTILE_CHILD"

// Child reports whether this process is the child run name. In the child
// it starts a watchdog that ends the process (exit status 3) once its
// heap passes 2 GiB, so an input that balloons — on a build without the
// fix under test — fails fast instead of exhausting a shared machine.
func Child(name string) bool {
	if os.Getenv(envName) != name {
		return false
	}
	go watchdog(2 << 30)
	return true
}

func watchdog(max uint64) {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	for {
		metrics.Read(sample)
		if sample[0].Value.Kind() == metrics.KindUint64 && sample[0].Value.Uint64() > max {
			fmt.Printf("%sthe child's heap passed %d MiB: killed\n", marker, max>>20)
			os.Exit(3)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// marker starts the line Report writes.
const marker = "hostile-child-result: "

// Report writes the child's result for Run to read: err's message, or
// "ok". Newlines in it are written as " | ".
func Report(err error) {
	msg := "ok"
	if err != nil {
		msg = strings.ReplaceAll(err.Error(), "\n", " | ")
	}
	fmt.Println(marker + msg)
}

// Result is what Run measured of a child.
type Result struct {
	// Elapsed is the child's wall time, from start to exit (or kill).
	Elapsed time.Duration
	// MaxRSS is the child's peak resident set, in bytes; 0 where the
	// system does not say.
	MaxRSS int64
	// Result is what the child reported (see Report); "" if it reported
	// nothing.
	Result string
	// Killed reports that the child ran past the timeout and was killed.
	Killed bool
	// Output is the child's standard output and error.
	Output string
	// Err is the child's exit error, if it failed.
	Err error
}

// Run runs test (a test name of the running binary) as the child run
// name, with env added to the environment, and kills it after timeout.
func Run(test, name string, timeout time.Duration, env ...string) Result {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^"+test+"$", "-test.count=1", "-test.v")
	cmd.Env = append(append(os.Environ(), envName+"="+name), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err := cmd.Run()
	r := Result{Elapsed: time.Since(start), Output: out.String(), Err: err, Killed: ctx.Err() != nil}
	if cmd.ProcessState != nil {
		r.MaxRSS = maxRSS(cmd.ProcessState)
	}
	for _, line := range strings.Split(r.Output, "\n") {
		if rest, ok := strings.CutPrefix(line, marker); ok {
			r.Result = rest
		}
	}
	return r
}

// Within returns nil when the child ended by itself within d, with a peak
// resident set of at most max bytes, having reported a result; else an
// error saying which, with its output. Under the race detector, whose
// costs are no measure of the code's, only the ending is checked.
func (r Result) Within(d time.Duration, max int64) error {
	switch {
	case r.Killed:
		return fmt.Errorf("the child ran past its timeout and was killed (%s):\n%s", r, tail(r.Output))
	case r.Result == "":
		return fmt.Errorf("the child reported nothing (%s, %v):\n%s", r, r.Err, tail(r.Output))
	case Race:
		return nil
	case r.Elapsed > d:
		return fmt.Errorf("the child took %s, more than %s", r.Elapsed.Round(time.Millisecond), d)
	case r.MaxRSS > max:
		return fmt.Errorf("the child's peak resident set was %d MiB, more than %d MiB", r.MaxRSS>>20, max>>20)
	}
	return nil
}

// String gives the measures: "0.41 s, peak RSS 23 MiB".
func (r Result) String() string {
	return fmt.Sprintf("%.2f s, peak RSS %d MiB", r.Elapsed.Seconds(), r.MaxRSS>>20)
}

func tail(s string) string {
	if len(s) > 2000 {
		return "…" + s[len(s)-2000:]
	}
	return s
}
