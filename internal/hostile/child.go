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
//			hostile.Do(func() error { // timed, its error reported to the parent
//				_, err := golden.Load(os.Getenv("FILE"))
//				return err
//			})
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
	"strconv"
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

// marker starts the line Report writes, elapsedMarker the line Do writes.
const (
	marker        = "hostile-child-result: "
	elapsedMarker = "hostile-child-elapsed: "
	peakMarker    = "hostile-child-peak-rss: "
)

// Do runs f in the child, timing it, and reports its error (see Report)
// and its wall time, which Run's Result gives as Took: the time the input
// took, without the child's start and exit, which a loaded machine can
// stretch.
func Do(f func() error) {
	start := time.Now()
	err := f()
	fmt.Printf("%s%d\n", elapsedMarker, time.Since(start).Nanoseconds())
	if peak := peakRSS(); peak > 0 {
		fmt.Printf("%s%d\n", peakMarker, peak)
	}
	Report(err)
}

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
	// Took is the wall time of what the child did (see Do); Elapsed when
	// it did not say.
	Took time.Duration
	// MaxRSS is the child's peak resident set, in bytes: its own count
	// since its exec where the system keeps one (Linux's VmHWM: the
	// rusage of a child started by vfork counts the parent's resident set
	// too), else its rusage; 0 where the system does not say.
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
	r.Took = r.Elapsed
	for _, line := range strings.Split(r.Output, "\n") {
		if rest, ok := strings.CutPrefix(line, marker); ok {
			r.Result = rest
		}
		if rest, ok := strings.CutPrefix(line, peakMarker); ok {
			if n, err := strconv.ParseInt(rest, 10, 64); err == nil {
				r.MaxRSS = n
			}
		}
		if rest, ok := strings.CutPrefix(line, elapsedMarker); ok {
			if ns, err := strconv.ParseInt(rest, 10, 64); err == nil {
				r.Took = time.Duration(ns)
			}
		}
	}
	return r
}

// Within returns nil when the child ended by itself, what it did taking
// at most d (Took), with a peak resident set of at most max bytes, having
// reported a result; else an error saying which, with its output. Under the race detector, whose
// costs are no measure of the code's, only the ending is checked.
func (r Result) Within(d time.Duration, max int64) error {
	switch {
	case r.Killed:
		return fmt.Errorf("the child ran past its timeout and was killed (%s):\n%s", r, tail(r.Output))
	case r.Result == "":
		return fmt.Errorf("the child reported nothing (%s, %v):\n%s", r, r.Err, tail(r.Output))
	case Race:
		return nil
	case r.Took > d:
		return fmt.Errorf("the child took %s, more than %s", r.Took.Round(time.Millisecond), d)
	case r.MaxRSS > max:
		return fmt.Errorf("the child's peak resident set was %d MiB, more than %d MiB", r.MaxRSS>>20, max>>20)
	}
	return nil
}

// String gives the measures: "0.012 s (0.41 s with the child's start),
// peak RSS 23 MiB".
func (r Result) String() string {
	return fmt.Sprintf("%.3f s (%.2f s with the child's start), peak RSS %d MiB", r.Took.Seconds(), r.Elapsed.Seconds(), r.MaxRSS>>20)
}

func tail(s string) string {
	if len(s) > 2000 {
		return "…" + s[len(s)-2000:]
	}
	return s
}
