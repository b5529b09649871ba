package evaltest

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/evalkit-go/evalkit/internal/results"
)

// attemptState collects one attempt's failures.
type attemptState struct {
	mu       sync.Mutex
	failures []string
	kinds    []bool // per failure: an evaluation error
	failed   bool   // a check failed
	erred    bool   // a check could not be evaluated, or the attempt panicked or skipped
	skipped  bool
	cleanups []cleanupAt
	helpers  map[string]bool // functions marked with the attempt's Helper, by name
	running  string          // the line that registered the cleanup running, see at
	judged   []results.Line  // the attempt's judged steps, for their Repeat's attributes
}

// cleanupAt is a cleanup and the line that registered it: what the
// cleanup reports carries that line, as testing's do.
type cleanupAt struct {
	f    func()
	line string
}

func (s *attemptState) add(msg string, evalErr bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failures = append(s.failures, msg)
	s.kinds = append(s.kinds, evalErr)
	if evalErr {
		s.erred = true
	} else {
		s.failed = true
	}
}

func (s *attemptState) status() Status {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.failed:
		return StatusFail
	case s.erred:
		return StatusError
	}
	return StatusPass
}

// runAttempt runs attempt i on a goroutine of its own (a Fatal ends it
// with runtime.Goexit) and returns how it went.
func (t *T) runAttempt(ctx context.Context, i int, attempt func(et *T)) Attempt {
	st := &attemptState{}
	tb := &attemptTB{TB: t.tb, st: st, ctx: ctx, index: i}
	et := &T{tb: tb, registry: t.registry, judge: t.judge, judges: t.judges, sel: t.sel, mode: t.mode, modeSet: t.modeSet}
	et.x = t.x
	et.x.parent, et.x.attempt, et.x.index, et.x.last = t, st, i, nil
	et.x.report = t.x.report.child()
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		defer st.runCleanups()
		defer func() {
			if r := recover(); r != nil {
				st.add(fmt.Sprintf("attempt %d panicked: %v", i, r), true)
			}
		}()
		attempt(et)
	}()
	<-finished
	et.mu.Lock()
	tr := et.x.last
	et.mu.Unlock()
	st.mu.Lock()
	failures, kinds, judged := slices.Clone(st.failures), slices.Clone(st.kinds), slices.Clone(st.judged)
	st.mu.Unlock()
	return Attempt{Index: i, Status: st.status(), Failures: failures, Transcript: tr, evalErrs: kinds, judged: judged}
}

func (s *attemptState) runCleanups() {
	s.mu.Lock()
	fs := s.cleanups
	s.cleanups = nil
	s.mu.Unlock()
	for i := len(fs) - 1; i >= 0; i-- {
		func() {
			defer func() {
				if r := recover(); r != nil {
					s.add(fmt.Sprintf("%sa cleanup panicked: %v", fs[i].line, r), true)
				}
			}()
			s.mu.Lock()
			s.running = fs[i].line
			s.mu.Unlock()
			fs[i].f()
		}()
	}
}

// attemptTB is an attempt's testing.TB: failures go to the attempt, and
// the rest to the test. What it reports itself — an Errorf, a Fatal, a
// Skip, a Log — carries the caller's file and line, found past the frames
// marked with its Helper, as the testing package finds them: the Repeat's
// message then says where in the attempt function it failed.
type attemptTB struct {
	testing.TB
	st    *attemptState
	ctx   context.Context
	index int // the attempt's number, from 1
}

func (a *attemptTB) Context() context.Context { return a.ctx }
func (a *attemptTB) Errorf(format string, args ...any) {
	a.st.add(a.st.at(fmt.Sprintf(format, args...)), false)
}
func (a *attemptTB) Error(args ...any) {
	a.st.add(a.st.at(sprintln(args...)), false)
}
func (a *attemptTB) Fatalf(format string, args ...any) {
	a.st.add(a.st.at(fmt.Sprintf(format, args...)), false)
	runtime.Goexit()
}
func (a *attemptTB) Fatal(args ...any) {
	a.st.add(a.st.at(sprintln(args...)), false)
	runtime.Goexit()
}
func (a *attemptTB) Fail() {
	a.st.mu.Lock()
	a.st.failed = true
	a.st.mu.Unlock()
}
func (a *attemptTB) FailNow() {
	a.Fail()
	runtime.Goexit()
}
func (a *attemptTB) Failed() bool { return a.st.status() == StatusFail }
func (a *attemptTB) Skipf(format string, args ...any) {
	a.skip(a.st.at(fmt.Sprintf(format, args...)))
}
func (a *attemptTB) Skip(args ...any) { a.skip(a.st.at(sprintln(args...))) }
func (a *attemptTB) SkipNow()         { a.skip(a.st.at("")) }
func (a *attemptTB) skip(msg string) {
	a.st.mu.Lock()
	a.st.skipped = true
	a.st.mu.Unlock()
	a.st.add("the attempt skipped: "+strings.TrimSuffix(msg, ": "), true)
	runtime.Goexit()
}
func (a *attemptTB) Skipped() bool {
	a.st.mu.Lock()
	defer a.st.mu.Unlock()
	return a.st.skipped
}
func (a *attemptTB) Cleanup(f func()) {
	line := a.st.at("")
	a.st.mu.Lock()
	a.st.cleanups = append(a.st.cleanups, cleanupAt{f: f, line: line})
	a.st.mu.Unlock()
}

// Helper marks the calling function a helper of the attempt: the lines
// its reports carry skip it.
func (a *attemptTB) Helper() {
	var pc [1]uintptr
	if runtime.Callers(2, pc[:]) == 0 {
		return
	}
	frame, _ := runtime.CallersFrames(pc[:]).Next()
	a.st.mu.Lock()
	if a.st.helpers == nil {
		a.st.helpers = map[string]bool{}
	}
	a.st.helpers[frame.Function] = true
	a.st.mu.Unlock()
}

// Log and Logf write to the test's output, as the test's own Log does,
// with the caller's line.
func (a *attemptTB) Log(args ...any) { a.log(a.st.at(sprintln(args...))) }
func (a *attemptTB) Logf(format string, args ...any) {
	a.log(a.st.at(fmt.Sprintf(format, args...)))
}

// log writes s as testing's Log does: later lines indented four spaces
// more than the first.
func (a *attemptTB) log(s string) {
	s = strings.ReplaceAll(strings.TrimSuffix(s, "\n"), "\n", "\n    ") + "\n"
	defer func() { _ = recover() }() // a stand-in TB without Output
	_, _ = io.WriteString(a.TB.Output(), s)
}

// Attr does nothing: a Repeat reports its attempts as one result.
func (a *attemptTB) Attr(key, value string) {}

// ArtifactDir is the test's.
func (a *attemptTB) ArtifactDir() string {
	if ad, ok := a.TB.(interface{ ArtifactDir() string }); ok {
		return ad.ArtifactDir()
	}
	return ""
}

// at prefixes msg with the file and line of the frame that reported it:
// the first frame above the attemptTB method that no Helper marked; in a
// cleanup with nothing but helpers above it, the line that registered
// the cleanup.
func (s *attemptState) at(msg string) string {
	var pcs [64]uintptr
	n := runtime.Callers(3, pcs[:]) // runtime.Callers, at, the attemptTB method
	frames := runtime.CallersFrames(pcs[:n])
	s.mu.Lock()
	defer s.mu.Unlock()
	for {
		f, more := frames.Next()
		switch {
		case strings.HasSuffix(f.Function, ".(*attemptState).runCleanups.func1") || strings.HasSuffix(f.Function, ".(*attemptState).runCleanups"):
			return s.running + msg
		case f.Function != "" && !s.helpers[f.Function]:
			return fmt.Sprintf("%s:%d: %s", filepath.Base(f.File), f.Line, msg)
		}
		if !more {
			return msg
		}
	}
}

// sprintln is fmt.Sprintln without its newline, as testing's Log formats.
func sprintln(args ...any) string { return strings.TrimSuffix(fmt.Sprintln(args...), "\n") }
