package judgefake

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/evalkit-go/evalkit"
)

// begin is the first two steps every fake takes.
func begin(ctx context.Context, req evalkit.JudgeRequest) error {
	if err := req.Validate(); err != nil {
		return err
	}
	return ctxErr(ctx)
}

// ctxErr returns the context's error, or nil when it is not done. The error
// wraps context.Canceled or context.DeadlineExceeded, and the context's
// cause when it has one.
func ctxErr(ctx context.Context) error {
	if ctx.Err() == nil {
		return nil
	}
	if cause := context.Cause(ctx); cause != nil && !errors.Is(cause, ctx.Err()) {
		return fmt.Errorf("%w: %w", ctx.Err(), cause)
	}
	return ctx.Err()
}

// judgeFunc is the fakes' own Judge: a function with a name for %v, and no
// Identity method.
type judgeFunc struct {
	name string
	f    func(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error)
}

func (j *judgeFunc) Judge(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
	return j.f(ctx, req)
}

// String returns the call that made the fake, such as "judgefake.Pass()".
func (j *judgeFunc) String() string { return j.name }

func newJudge(name string, f func(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error)) evalkit.Judge {
	return &judgeFunc{name: name, f: f}
}

// Pass returns a judge that passes every valid request: Score 1, RawScore
// the scale's Max, Scored and Passed true. It gives no Label, so a step
// graded by labels (assert.PassingLabels) reports that the verdict has no
// label; fake such a judge with Fixed(evalkit.Verdict{Label: "yes"}).
func Pass() evalkit.Judge {
	return newJudge("judgefake.Pass()", func(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
		if err := begin(ctx, req); err != nil {
			return evalkit.Verdict{}, err
		}
		return evalkit.Verdict{Score: 1, RawScore: req.Scale.OrDefault().Max, Scored: true, Passed: ptr(true)}, nil
	})
}

// Fail returns a judge that fails every valid request: Score 0, RawScore
// the scale's Min, Scored true, Passed false, and reason as the Reasoning.
// Like Pass, it gives no Label: use Fixed with a Label for a step graded by
// labels.
func Fail(reason string) evalkit.Judge {
	return newJudge(fmt.Sprintf("judgefake.Fail(%q)", reason), func(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
		if err := begin(ctx, req); err != nil {
			return evalkit.Verdict{}, err
		}
		return evalkit.Verdict{Score: 0, RawScore: req.Scale.OrDefault().Min, Scored: true, Passed: ptr(false), Reasoning: reason}, nil
	})
}

// Fixed returns a judge that answers every valid request with v.
//
// v's Score is the fake's truth; its RawScore follows the request's scale:
// a zero RawScore is set to Min + Score×(Max−Min), and any other RawScore
// must equal that value. A verdict given only a RawScore (Score 0) gets the
// Score it normalizes to, so Fixed(Verdict{RawScore: 8, Scored: true})
// scores 0.8 on the default 0–10 scale. Each call returns its own copy of v (Passed,
// Criteria and Fields are copied), so callers may change what they get.
//
// A call returns an error instead of a verdict v cannot be on the
// request's scale: a Score outside [0,1] or not finite, a Score or RawScore
// with Scored false, a RawScore that disagrees with Score, a criterion
// score outside [0,1].
func Fixed(v evalkit.Verdict) evalkit.Judge {
	return newJudge("judgefake.Fixed(...)", func(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
		if err := begin(ctx, req); err != nil {
			return evalkit.Verdict{}, err
		}
		out, err := onScale(v, req.Scale.OrDefault())
		if err != nil {
			return evalkit.Verdict{}, fmt.Errorf("judgefake: Fixed verdict: %w", err)
		}
		return out, nil
	})
}

// Sequence returns a judge that answers valid requests with vs in order,
// one verdict per call, each made consistent with the request's scale as
// Fixed does. Once every verdict has been given, each further call returns
// an error naming how many verdicts there were. It is safe for concurrent
// use; concurrent calls get distinct verdicts in an unspecified order.
func Sequence(vs ...evalkit.Verdict) evalkit.Judge {
	vs = slices.Clone(vs)
	var next atomic.Int64
	return newJudge(fmt.Sprintf("judgefake.Sequence(%d verdicts)", len(vs)), func(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
		if err := begin(ctx, req); err != nil {
			return evalkit.Verdict{}, err
		}
		call := next.Add(1)
		if call > int64(len(vs)) {
			return evalkit.Verdict{}, fmt.Errorf("judgefake: Sequence exhausted: call %d, but only %d verdicts were given", call, len(vs))
		}
		out, err := onScale(vs[call-1], req.Scale.OrDefault())
		if err != nil {
			return evalkit.Verdict{}, fmt.Errorf("judgefake: Sequence verdict %d of %d: %w", call, len(vs), err)
		}
		return out, nil
	})
}

// Err returns a judge that returns err for every valid request, unwrapped,
// so errors.Is and == both match it. Err(nil) returns a judge whose every
// call fails with an error saying so: a judge never returns no verdict
// and no error.
func Err(err error) evalkit.Judge {
	return newJudge(fmt.Sprintf("judgefake.Err(%v)", err), func(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
		if err := begin(ctx, req); err != nil {
			return evalkit.Verdict{}, err
		}
		if err == nil {
			return evalkit.Verdict{}, errors.New("judgefake: Err was given a nil error")
		}
		return evalkit.Verdict{}, err
	})
}

// ErrTransient is the error a Flaky judge fails with; its calls' errors
// wrap it. A retrying wrapper can treat it as worth retrying.
var ErrTransient = errors.New("judgefake: transient judge failure")

// Flaky returns a judge whose first n valid calls fail with an error
// wrapping ErrTransient, naming the call ("call 1 of 2 failing calls");
// every later call is answered by j. n ≤ 0 never fails. It is safe for
// concurrent use when j is.
func Flaky(n int, j evalkit.Judge) evalkit.Judge {
	var calls atomic.Int64
	return newJudge(fmt.Sprintf("judgefake.Flaky(%d, %v)", n, j), func(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
		if err := begin(ctx, req); err != nil {
			return evalkit.Verdict{}, err
		}
		if j == nil {
			return evalkit.Verdict{}, errors.New("judgefake: Flaky was given a nil judge")
		}
		if call := calls.Add(1); call <= int64(n) {
			return evalkit.Verdict{}, fmt.Errorf("judgefake: Flaky call %d of %d failing calls: %w", call, n, ErrTransient)
		}
		return j.Judge(ctx, req)
	})
}

// Slow returns a judge that waits d, then lets j answer. If the context is
// done first it returns the context's error at once (wrapping
// context.Canceled or context.DeadlineExceeded). The wait is a timer, so
// inside a testing/synctest bubble it passes in virtual time. d ≤ 0 does
// not wait.
func Slow(d time.Duration, j evalkit.Judge) evalkit.Judge {
	return newJudge(fmt.Sprintf("judgefake.Slow(%v, %v)", d, j), func(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
		if err := begin(ctx, req); err != nil {
			return evalkit.Verdict{}, err
		}
		if j == nil {
			return evalkit.Verdict{}, errors.New("judgefake: Slow was given a nil judge")
		}
		if d > 0 {
			t := time.NewTimer(d)
			defer t.Stop()
			select {
			case <-t.C:
			case <-ctx.Done():
				return evalkit.Verdict{}, fmt.Errorf("judgefake: Slow judge waited less than %v: %w", d, ctxErr(ctx))
			}
		}
		return j.Judge(ctx, req)
	})
}

// SpyJudge is a judge that records every request it is called with and
// lets another judge answer. Make one with Spy.
type SpyJudge struct {
	j    evalkit.Judge
	mu   sync.Mutex
	reqs []evalkit.JudgeRequest
}

// Spy returns a judge that records every request it is called with — valid
// or not, in call order — then answers as j does. It is safe for
// concurrent use when j is.
func Spy(j evalkit.Judge) *SpyJudge {
	return &SpyJudge{j: j}
}

// Judge records req, then validates it and lets the spied judge answer.
func (s *SpyJudge) Judge(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
	s.mu.Lock()
	s.reqs = append(s.reqs, cloneRequest(req))
	s.mu.Unlock()
	if err := begin(ctx, req); err != nil {
		return evalkit.Verdict{}, err
	}
	if s.j == nil {
		return evalkit.Verdict{}, errors.New("judgefake: Spy was given a nil judge")
	}
	return s.j.Judge(ctx, req)
}

// Requests returns copies of the requests recorded so far, in call order.
func (s *SpyJudge) Requests() []evalkit.JudgeRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]evalkit.JudgeRequest, len(s.reqs))
	for i, r := range s.reqs {
		out[i] = cloneRequest(r)
	}
	return out
}

// String returns "judgefake.Spy(j)".
func (s *SpyJudge) String() string { return fmt.Sprintf("judgefake.Spy(%v)", s.j) }

// onScale returns a copy of v made consistent with scale, or an error for a
// verdict that cannot be.
func onScale(v evalkit.Verdict, scale evalkit.Scale) (evalkit.Verdict, error) {
	if err := scale.Validate(); err != nil {
		return evalkit.Verdict{}, err
	}
	if math.IsNaN(v.Score) || math.IsInf(v.Score, 0) || v.Score < 0 || v.Score > 1 {
		return evalkit.Verdict{}, fmt.Errorf("score %v is outside [0,1]", v.Score)
	}
	if !v.Scored {
		if v.Score != 0 || v.RawScore != 0 {
			return evalkit.Verdict{}, fmt.Errorf("score %v (raw %v) but Scored is false; set Scored: true", v.Score, v.RawScore)
		}
	} else {
		if v.Score == 0 && v.RawScore != 0 {
			// Only the raw score given: the score is what it normalizes to.
			score, err := scale.Normalize(v.RawScore)
			if err != nil {
				return evalkit.Verdict{}, fmt.Errorf("raw score: %w", err)
			}
			v.Score = score
		}
		raw := scale.Raw(v.Score)
		switch {
		case v.RawScore == 0:
			v.RawScore = raw
		case math.Abs(v.RawScore-raw) > 1e-9*math.Max(1, math.Abs(raw)):
			return evalkit.Verdict{}, fmt.Errorf("raw score %v disagrees with score %v on the scale [%v, %v], which gives raw score %v", v.RawScore, v.Score, scale.Min, scale.Max, raw)
		}
	}
	for i, c := range v.Criteria {
		if math.IsNaN(c.Score) || c.Score < 0 || c.Score > 1 {
			return evalkit.Verdict{}, fmt.Errorf("criterion %d (%q) score %v is outside [0,1]", i, c.Name, c.Score)
		}
	}
	return cloneVerdict(v), nil
}

func ptr[T any](v T) *T { return &v }

// cloneVerdict copies everything a caller could change through v.
func cloneVerdict(v evalkit.Verdict) evalkit.Verdict {
	if v.Passed != nil {
		v.Passed = ptr(*v.Passed)
	}
	v.Criteria = slices.Clone(v.Criteria)
	if v.Fields != nil {
		v.Fields = cloneJSON(v.Fields).(map[string]any)
	}
	return v
}

// cloneJSON deep-copies a JSON-shaped value (maps, slices, scalars).
func cloneJSON(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = cloneJSON(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = cloneJSON(e)
		}
		return out
	default:
		return v
	}
}

func cloneRequest(r evalkit.JudgeRequest) evalkit.JudgeRequest {
	r.Context = slices.Clone(r.Context)
	r.VerdictSchema = slices.Clone(r.VerdictSchema)
	r.Labels = slices.Clone(r.Labels)
	return r
}
