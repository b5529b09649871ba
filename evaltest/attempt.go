package evaltest

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
)

// attemptState collects one attempt's failures.
type attemptState struct {
	mu       sync.Mutex
	failures []string
	kinds    []bool // per failure: an evaluation error
	failed   bool   // a check failed
	erred    bool   // a check could not be evaluated, or the attempt panicked or skipped
	skipped  bool
	cleanups []func()
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
	failures, kinds := slices.Clone(st.failures), slices.Clone(st.kinds)
	st.mu.Unlock()
	return Attempt{Index: i, Status: st.status(), Failures: failures, Transcript: tr, evalErrs: kinds}
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
					s.add(fmt.Sprintf("a cleanup panicked: %v", r), true)
				}
			}()
			fs[i]()
		}()
	}
}

// attemptTB is an attempt's testing.TB: failures go to the attempt, and
// the rest to the test.
type attemptTB struct {
	testing.TB
	st    *attemptState
	ctx   context.Context
	index int // the attempt's number, from 1
}

func (a *attemptTB) Context() context.Context { return a.ctx }
func (a *attemptTB) Errorf(format string, args ...any) {
	a.st.add(fmt.Sprintf(format, args...), false)
}
func (a *attemptTB) Error(args ...any) {
	a.st.add(strings.TrimSuffix(fmt.Sprintln(args...), "\n"), false)
}
func (a *attemptTB) Fatalf(format string, args ...any) {
	a.Errorf(format, args...)
	runtime.Goexit()
}
func (a *attemptTB) Fatal(args ...any) {
	a.Error(args...)
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
	a.skip(fmt.Sprintf(format, args...))
}
func (a *attemptTB) Skip(args ...any) { a.skip(strings.TrimSuffix(fmt.Sprintln(args...), "\n")) }
func (a *attemptTB) SkipNow()         { a.skip("") }
func (a *attemptTB) skip(msg string) {
	a.st.mu.Lock()
	a.st.skipped = true
	a.st.mu.Unlock()
	a.st.add(strings.TrimSuffix("the attempt skipped: "+msg, ": "), true)
	runtime.Goexit()
}
func (a *attemptTB) Skipped() bool {
	a.st.mu.Lock()
	defer a.st.mu.Unlock()
	return a.st.skipped
}
func (a *attemptTB) Cleanup(f func()) {
	a.st.mu.Lock()
	a.st.cleanups = append(a.st.cleanups, f)
	a.st.mu.Unlock()
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
