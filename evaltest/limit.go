package evaltest

import (
	"context"
	"fmt"
	"math"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/evalkit-go/evalkit"
)

// JudgeLimiter bounds the judge calls evaltest makes: at most maxInFlight
// at once, and at most perMinute started in any minute (NewJudgeLimiter's
// arguments). Give one to every T that should share it
// (WithJudgeLimiter), typically one per test binary in a package-level
// variable, so parallel tests, subtests, case files and Repeats draw on
// one budget:
//
//	var judgeLimit = evaltest.NewJudgeLimiter(8, 500) // 8 in flight, 500 a minute
//
//	func TestRefund(t *testing.T) {
//		t.Parallel()
//		et := evaltest.New(t, evaltest.WithJudge(judge), evaltest.WithJudgeLimiter(judgeLimit))
//		...
//	}
//
// Without WithJudgeLimiter, a T uses the process-wide limiter the
// environment sets, read once per test binary: EVALKIT_JUDGE_CONCURRENCY
// (calls in flight, a whole number ≥ 1) and EVALKIT_JUDGE_RPM (calls
// started a minute, a number > 0, fractions allowed); either may be set
// alone, and with neither nothing is bounded. A value that does not parse
// makes each call it would bound an error naming the variable, never an
// unbounded call. "Process-wide" is one test binary: go test ./... runs one
// binary per package, up to -p of them at once, each with its own limiter
// — divide the provider's limits among them, or run with -p 1.
//
// What is bounded is every call evaltest makes to the judge WithJudge
// gave: a fake's, a live judge's in ModeLive, and, for a recorded judge,
// the calls its recording cannot answer (record and refresh modes). A
// replayed verdict never waits. A *golden.Recorder given to WithJudge is
// the user's own and is used as it is: evaltest bounds none of its calls
// (bound the live judge inside it yourself).
//
// Calls start in the order they ask, perMinute spaced evenly (one every
// 60 s / perMinute, no burst): providers enforce a per-minute limit over
// shorter windows too. A call waiting for its turn returns when its
// context ends (the test's, or the step's deadline), with an error
// wrapping the context's; it is then not charged. A JudgeLimiter is safe
// for concurrent use.
type JudgeLimiter struct {
	slots    chan struct{} // one per call in flight; nil: no bound
	interval time.Duration // between starts; 0: no bound

	mu   sync.Mutex
	next time.Time // the earliest the next call may start
}

// NewJudgeLimiter returns a limiter of at most maxInFlight calls at once
// and perMinute calls started a minute; 0 (or less) leaves that bound
// off.
func NewJudgeLimiter(maxInFlight int, perMinute float64) *JudgeLimiter {
	l := &JudgeLimiter{}
	if maxInFlight > 0 {
		l.slots = make(chan struct{}, maxInFlight)
	}
	if perMinute > 0 && !math.IsInf(perMinute, 1) {
		l.interval = time.Duration(float64(time.Minute) / perMinute)
	}
	return l
}

// WithJudgeLimiter makes the T's judge calls draw on l, shared with every
// other T given l (see JudgeLimiter). A nil l leaves the T unbounded,
// whatever the environment says.
func WithJudgeLimiter(l *JudgeLimiter) Option {
	return func(t *T) {
		if l == nil {
			l = unlimited
		}
		t.limiter = l
	}
}

// unlimited is WithJudgeLimiter(nil)'s limiter: no bound.
var unlimited = &JudgeLimiter{}

// String describes the limits: "8 in flight, 500/min".
func (l *JudgeLimiter) String() string {
	var s string
	if l.slots != nil {
		s = fmt.Sprintf("%d in flight", cap(l.slots))
	}
	if l.interval > 0 {
		if s != "" {
			s += ", "
		}
		s += strconv.FormatFloat(float64(time.Minute)/float64(l.interval), 'g', 4, 64) + "/min"
	}
	if s == "" {
		return "no limit"
	}
	return s
}

// wait blocks until a call may start, or ctx ends; release ends the call.
func (l *JudgeLimiter) wait(ctx context.Context) (release func(), err error) {
	if l.slots == nil && l.interval == 0 {
		return func() {}, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	release = func() {}
	if l.slots != nil {
		select {
		case l.slots <- struct{}{}:
			release = func() { <-l.slots }
		case <-ctx.Done():
			return nil, context.Cause(ctx)
		}
	}
	if l.interval > 0 {
		l.mu.Lock()
		now := time.Now()
		start := l.next
		if start.Before(now) {
			start = now
		}
		l.next = start.Add(l.interval)
		l.mu.Unlock()
		if d := start.Sub(now); d > 0 {
			timer := time.NewTimer(d)
			defer timer.Stop()
			select {
			case <-timer.C:
			case <-ctx.Done():
				l.mu.Lock()
				if l.next.Equal(start.Add(l.interval)) { // the last turn taken: give it back
					l.next = start
				}
				l.mu.Unlock()
				release()
				return nil, context.Cause(ctx)
			}
		}
	}
	return release, nil
}

// envLimiter is the process-wide limiter EVALKIT_JUDGE_CONCURRENCY and
// EVALKIT_JUDGE_RPM set, read once; nil when neither is set.
var envLimiter = sync.OnceValues(func() (*JudgeLimiter, error) {
	return parseJudgeLimit(os.Getenv("EVALKIT_JUDGE_CONCURRENCY"), os.Getenv("EVALKIT_JUDGE_RPM"))
})

// parseJudgeLimit reads EVALKIT_JUDGE_CONCURRENCY's and EVALKIT_JUDGE_RPM's
// values; nil when both are empty.
func parseJudgeLimit(conc, rpm string) (*JudgeLimiter, error) {
	if conc == "" && rpm == "" {
		return nil, nil
	}
	n, perMinute := 0, 0.0
	if conc != "" {
		v, err := strconv.Atoi(conc)
		if err != nil || v < 1 {
			return nil, fmt.Errorf("EVALKIT_JUDGE_CONCURRENCY=%q: want a whole number >= 1 (judge calls in flight)", conc)
		}
		n = v
	}
	if rpm != "" {
		v, err := strconv.ParseFloat(rpm, 64)
		if err != nil || !(v > 0) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("EVALKIT_JUDGE_RPM=%q: want a number > 0 (judge calls started a minute)", rpm)
		}
		perMinute = v
	}
	return NewJudgeLimiter(n, perMinute), nil
}

// judgeLimiter is the limiter the T's judge calls draw on: WithJudgeLimiter's
// (a Repeat's attempts use their test's), else the environment's; nil for
// none.
func (t *T) judgeLimiter() (*JudgeLimiter, error) {
	if l := t.root().limiter; l != nil {
		return l, nil
	}
	return envLimiter()
}

// limited returns j with its calls drawing on the T's limiter.
func (t *T) limited(j evalkit.Judge) evalkit.Judge {
	return limitedJudge{j: j, t: t}
}

// limitedJudge is a judge whose calls wait for the T's limiter. It keeps
// the judge's identity, so a recording keys its verdicts as the judge's.
type limitedJudge struct {
	j evalkit.Judge
	t *T
}

// Judge implements evalkit.Judge.
func (l limitedJudge) Judge(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
	lim, err := l.t.judgeLimiter()
	if err != nil {
		return evalkit.Verdict{}, err
	}
	if lim != nil {
		release, err := lim.wait(ctx)
		if err != nil {
			return evalkit.Verdict{}, fmt.Errorf("waiting for the judge limiter (%s): %w", lim, err)
		}
		defer release()
	}
	return l.j.Judge(ctx, req)
}

// Identity is the judge's (evalkit.Identifier), or none.
func (l limitedJudge) Identity() evalkit.Identity {
	if id, ok := l.j.(evalkit.Identifier); ok {
		return id.Identity()
	}
	return evalkit.Identity{}
}

// JudgeName is the judge's name in its judge set (evalkit.NamedJudge), or
// none, so a recording names the judge as it would unlimited.
func (l limitedJudge) JudgeName() (name, variant string) {
	if n, ok := l.j.(evalkit.NamedJudge); ok {
		return n.JudgeName()
	}
	return "", ""
}
