// Package deadline stops evalkit waiting for a call — a judge's verdict, a
// classifier's, a recorded HTTP exchange, a simulated user's turn — a little
// before go test's -timeout ends the test binary, so the test fails with a
// message naming the call instead of Go's "test timed out" panic, which
// names none and runs no cleanup (so saves no recording).
//
//	at, _ := t.Deadline()
//	ctx, cancel := deadline.WithStop(parent, deadline.For(at, timeout))
//	v, err := deadline.Wait(ctx, `judge openai gpt-4.1-mini, criteria "Confirms the refund"`, func(ctx context.Context) (evalkit.Verdict, error) {
//		return judge.Judge(ctx, req)
//	})
//	// err: judge openai gpt-4.1-mini, criteria "Confirms the refund": no answer in 18.9s (waiting for POST https://api.openai.com/v1/chat/completions for 4.1s): evalkit stopped waiting 1s before go test's -timeout 20s ends the test binary
//
// The margin is MarginFor(timeout): the larger of one second and 5% of the
// timeout, at most half of it. The margin is what the test has left to
// fail, to run its cleanups (recordings are saved there) and to print.
package deadline

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"sync"
	"time"
)

// Stop is the cause of a context WithStop bounded: evalkit stopped
// waiting at At, Margin before the test binary's deadline.
type Stop struct {
	// At is when waiting stops: Deadline minus Margin.
	At time.Time
	// Deadline is when go test's -timeout panics (testing.T.Deadline).
	Deadline time.Time
	// Timeout is go test's -timeout, 0 when not known.
	Timeout time.Duration
	// Margin is Deadline minus At.
	Margin time.Duration
}

// Error says why waiting stopped: "evalkit stopped waiting 1s before go
// test's -timeout 20s ends the test binary".
func (s *Stop) Error() string {
	timeout := "-timeout"
	if s.Timeout > 0 {
		timeout = "-timeout " + s.Timeout.String()
	}
	return fmt.Sprintf("evalkit stopped waiting %v before go test's %s ends the test binary", s.Margin, timeout)
}

// Is makes errors.Is(err, context.DeadlineExceeded) hold for a Stop.
func (s *Stop) Is(target error) bool { return target == context.DeadlineExceeded }

// MarginFor is how long before go test's deadline waiting stops, for a
// -timeout of timeout: the larger of one second and 5% of timeout (30s of
// the default 10m), and at most half of timeout. A timeout of 0 (not
// known) gives one second.
func MarginFor(timeout time.Duration) time.Duration {
	m := max(time.Second, timeout/20)
	if timeout > 0 {
		m = min(m, timeout/2)
	}
	return m
}

// For returns the Stop for a test binary whose deadline (testing.T's
// Deadline) is testDeadline, run with -timeout timeout (0 when not known):
// MarginFor(timeout) before it. It returns nil for the zero time: no
// deadline.
func For(testDeadline time.Time, timeout time.Duration) *Stop {
	if testDeadline.IsZero() {
		return nil
	}
	m := MarginFor(timeout)
	return &Stop{At: testDeadline.Add(-m), Deadline: testDeadline, Timeout: timeout, Margin: m}
}

// WithStop returns ctx bounded to end at s.At, its cause (context.Cause)
// s. A nil s returns ctx and a cancel that does nothing.
func WithStop(ctx context.Context, s *Stop) (context.Context, context.CancelFunc) {
	if s == nil {
		return ctx, func() {}
	}
	return context.WithDeadlineCause(ctx, s.At, s)
}

// Of returns the *Stop that ended ctx, or nil when ctx is not done or
// ended otherwise (cancelled, another deadline).
func Of(ctx context.Context) *Stop {
	if ctx.Err() == nil {
		return nil
	}
	var s *Stop
	if errors.As(context.Cause(ctx), &s) {
		return s
	}
	return nil
}

// Error is a call that did not end before the Stop: what it was, how long
// it was waited for, and, when a client said so (see Calling), the request
// it was waiting for. It unwraps to the Stop (so errors.Is(err,
// context.DeadlineExceeded) holds) and to the call's own error, if it
// returned one.
type Error struct {
	// What names the call: `judge openai gpt-4.1-mini, criteria "…"`.
	What string
	// Waited is how long the call ran before waiting stopped.
	Waited time.Duration
	// Request is the request in flight when waiting stopped, "POST
	// https://host/path" (no query, no user info), and InFlight how long
	// it had been; "" when no client said.
	Request  string
	InFlight time.Duration
	// Stop is why waiting stopped.
	Stop *Stop
	// Err is the call's own error, when it returned in time to give one.
	Err error
}

func (e *Error) Error() string {
	s := fmt.Sprintf("%s: no answer in %v", e.What, e.Waited.Round(100*time.Millisecond))
	if e.Request != "" {
		s += fmt.Sprintf(" (waiting for %s for %v)", e.Request, e.InFlight.Round(100*time.Millisecond))
	}
	return s + ": " + e.Stop.Error()
}

// Unwrap returns the Stop and the call's own error.
func (e *Error) Unwrap() []error {
	if e.Err != nil {
		return []error{e.Stop, e.Err}
	}
	return []error{e.Stop}
}

// tracker remembers the last request a client made under a context.
type tracker struct {
	mu      sync.Mutex
	request string
	since   time.Time
}

type trackerKey struct{}

// Calling tells whoever waits under ctx (see Wait) that the client is
// sending method to rawURL now, so that a stop names the request. It does
// nothing when no one waits. The URL is kept without its query and user
// info, which may hold credentials.
func Calling(ctx context.Context, method, rawURL string) {
	t, ok := ctx.Value(trackerKey{}).(*tracker)
	if !ok {
		return
	}
	t.mu.Lock()
	t.request, t.since = method+" "+CleanURL(rawURL), time.Now()
	t.mu.Unlock()
}

// CleanURL is rawURL without its query, fragment and user info:
// "https://api.openai.com/v1/chat/completions".
func CleanURL(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "(a URL that does not parse)"
	}
	u.User, u.RawQuery, u.ForceQuery, u.Fragment, u.RawFragment = nil, "", false, "", ""
	return u.String()
}

// grace is how long Wait, once stopped, still waits for the call's own
// error: a client that honours its context returns at once.
const grace = 50 * time.Millisecond

// Wait runs f under ctx and returns what it returns. When ctx ends by its
// Stop (see WithStop) before f returns, Wait stops waiting — even for an f
// that ignores its context, which is left to end on its own — and returns
// an *Error naming what; an answer f gives without error as waiting stops
// stands. Any other end of ctx is f's to report. f runs on a goroutine of
// its own when ctx has a deadline; a panic in it is an error.
func Wait[V any](ctx context.Context, what string, f func(context.Context) (V, error)) (V, error) {
	if _, ok := ctx.Deadline(); !ok {
		return f(ctx) // nothing to stop at: no goroutine
	}
	start := time.Now()
	tr := &tracker{}
	ctx = context.WithValue(ctx, trackerKey{}, tr)
	type result struct {
		v   V
		err error
	}
	done := make(chan result, 1)
	go func() {
		var r result
		defer func() {
			if p := recover(); p != nil {
				r.err = fmt.Errorf("%s panicked: %v", what, p)
			}
			done <- r
		}()
		r.v, r.err = f(ctx)
	}()
	var at time.Time // when waiting stopped
	stopped := func(err error) (V, error) {
		if at.IsZero() {
			at = time.Now()
		}
		e := &Error{What: what, Waited: at.Sub(start), Stop: Of(ctx), Err: err}
		tr.mu.Lock()
		if tr.request != "" {
			e.Request, e.InFlight = tr.request, at.Sub(tr.since)
		}
		tr.mu.Unlock()
		var zero V
		return zero, e
	}
	select {
	case r := <-done:
		if r.err == nil || Of(ctx) == nil {
			return r.v, r.err
		}
		return stopped(r.err)
	case <-ctx.Done():
		if Of(ctx) == nil {
			r := <-done // cancelled, or a deadline of the caller's: f reports it
			return r.v, r.err
		}
		at = time.Now()
		select {
		case r := <-done:
			if r.err == nil {
				return r.v, nil
			}
			return stopped(r.err)
		case <-time.After(grace):
			return stopped(nil)
		}
	}
}
