package judgefake_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/judgefake"
)

func TestJudgefakeTestJudgePassesEveryFake(t *testing.T) {
	fakes := map[string]evalkit.Judge{
		"Pass":            judgefake.Pass(),
		"Fail":            judgefake.Fail("never states the amount"),
		"Fixed":           judgefake.Fixed(evalkit.Verdict{Score: 0.25, Scored: true, Reasoning: "partly"}),
		"Fixed label":     judgefake.Fixed(evalkit.Verdict{Label: "B"}),
		"Sequence":        judgefake.Sequence(evalkit.Verdict{Score: 1, Scored: true}, evalkit.Verdict{Score: 0, Scored: true}),
		"Rules":           judgefake.Rules{{Keyword: "refund", Verdict: evalkit.Verdict{Score: 1, Scored: true}}, {Otherwise: true, Verdict: evalkit.Verdict{Score: 0.5, Scored: true}}},
		"Rules no match":  judgefake.Rules{{Keyword: "never there", Verdict: evalkit.Verdict{Score: 1, Scored: true}}},
		"Hash":            judgefake.Hash("conformance"),
		"Err":             judgefake.Err(errors.New("judge API down")),
		"Flaky":           judgefake.Flaky(5, judgefake.Hash("x")),
		"Slow":            judgefake.Slow(2*time.Millisecond, judgefake.Pass()),
		"Spy":             judgefake.Spy(judgefake.Fail("x")),
		"Spy of Slow":     judgefake.Spy(judgefake.Slow(time.Millisecond, judgefake.Hash("y"))),
		"Flaky of Rules":  judgefake.Flaky(1, judgefake.Rules{{Otherwise: true, Err: errors.New("no")}}),
		"Slow of Flaky":   judgefake.Slow(time.Millisecond, judgefake.Flaky(2, judgefake.Pass())),
		"Sequence of one": judgefake.Sequence(evalkit.Verdict{Label: "A"}),
	}
	for name, j := range fakes {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			assert.NoError(t, judgefake.TestJudge(j))
		})
	}
}

func TestJudgefakeTestJudgeNil(t *testing.T) {
	assert.EqualError(t, judgefake.TestJudge(nil), "judgefake.TestJudge: the judge is nil")
}

// judgeFunc builds a broken judge for the checker to catch.
type judgeFunc = evalkit.JudgeFunc

var no = false

// valid is the part of the contract the broken judges below keep, so each
// shows one problem.
func valid(ctx context.Context, req evalkit.JudgeRequest) error {
	if err := req.Validate(); err != nil {
		return err
	}
	return ctx.Err()
}

func TestJudgefakeTestJudgeFindsEachProblem(t *testing.T) {
	tests := []struct {
		name  string
		judge evalkit.Judge
		want  []string
	}{
		{
			"score outside [0,1]",
			judgeFunc(func(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
				if err := valid(ctx, req); err != nil {
					return evalkit.Verdict{}, err
				}
				return evalkit.Verdict{Score: 8, RawScore: 8, Scored: true}, nil
			}),
			[]string{
				"Judge(answer, scale [0, 10]): Score 8, want within [0, 1]",
				"Judge(answer, scale [0, 10]): Score 8 disagrees with RawScore 8 on [0, 10], want Score 0.8",
				"Judge(transcript, scale [1, 5]): RawScore 8, want within the request's scale [1, 5]",
			},
		},
		{
			"raw score on the wrong scale",
			judgeFunc(func(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
				if err := valid(ctx, req); err != nil {
					return evalkit.Verdict{}, err
				}
				return evalkit.Verdict{Score: 0.7, RawScore: 7, Scored: true}, nil
			}),
			[]string{
				"Judge(answer, scale [1, 10], rubric): Score 0.7 disagrees with RawScore 7 on [1, 10], want Score 0.6666666666666666",
				"Judge(tool_calls, scale [0, 1]): RawScore 7, want within the request's scale [0, 1]",
			},
		},
		{
			"unscored verdict with a score",
			judgeFunc(func(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
				if err := valid(ctx, req); err != nil {
					return evalkit.Verdict{}, err
				}
				return evalkit.Verdict{Score: 0.4, Label: "A"}, nil
			}),
			[]string{"Judge(answer, scale [0, 10]): Scored false with Score 0.4 and RawScore 0, want both 0 or Scored true"},
		},
		{
			"criterion outside [0,1]",
			judgeFunc(func(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
				if err := valid(ctx, req); err != nil {
					return evalkit.Verdict{}, err
				}
				return evalkit.Verdict{Label: "A", Criteria: []evalkit.CriterionScore{{Name: "tone", Score: 4, RawScore: 4}}}, nil
			}),
			[]string{`Judge(answer, scale [0, 10]): criterion "tone" Score 4, want within [0, 1]`},
		},
		{
			"empty verdict without an error",
			judgeFunc(func(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
				if err := valid(ctx, req); err != nil {
					return evalkit.Verdict{}, err
				}
				return evalkit.Verdict{Reasoning: "could not decide", Raw: "hmm"}, nil
			}),
			[]string{"Judge(answer, scale [0, 10]): empty verdict and no error: no score, label, Passed, criteria or fields; a judge that cannot judge returns an error"},
		},
		{
			"verdict with an error",
			judgeFunc(func(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
				if err := valid(ctx, req); err != nil {
					return evalkit.Verdict{Scored: true, Passed: &no}, err
				}
				// Diagnostics beside an error are fine; a grade is not.
				return evalkit.Verdict{Raw: "$ERROR$", Model: "gpt-4", Usage: evalkit.Usage{InputTokens: 9}, Score: 0, Scored: true, Passed: &no}, errors.New("unreadable verdict")
			}),
			[]string{
				`Judge(answer, scale [0, 10]) returned a verdict (Scored, Passed set) together with the error "unreadable verdict"; a judge that fails returns no verdict`,
				`Judge(request with no criteria) returned a verdict (Scored, Passed set) together with the error "evalkit: judge request has no criteria"; a judge that fails returns no verdict`,
			},
		},
		{
			"no validation",
			judgeFunc(func(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
				if err := ctx.Err(); err != nil {
					return evalkit.Verdict{}, err
				}
				return judgefake.Pass().Judge(ctx, evalkit.JudgeRequest{Criteria: "x"})
			}),
			[]string{
				"Judge(request with no criteria): no error, want one: the request is invalid (evalkit.JudgeRequest.Validate)",
				`Judge(request with unknown kind "poem"): no error, want one: the request is invalid (evalkit.JudgeRequest.Validate)`,
				"Judge(request with scale [5, 1]): no error, want one: the request is invalid (evalkit.JudgeRequest.Validate)",
			},
		},
		{
			"ignores cancellation",
			judgeFunc(func(_ context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
				return judgefake.Pass().Judge(context.Background(), req)
			}),
			[]string{"Judge(context cancelled before the call): a verdict and no error, want an error wrapping context.Canceled"},
		},
		{
			"cancellation error that hides context.Canceled",
			judgeFunc(func(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
				if ctx.Err() != nil {
					return evalkit.Verdict{}, errors.New("judge stopped")
				}
				return judgefake.Pass().Judge(ctx, req)
			}),
			[]string{`Judge(context cancelled before the call): error "judge stopped" does not wrap context.Canceled`},
		},
		{
			"panics",
			judgeFunc(func(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
				if req.Kind == evalkit.ContentTranscript {
					panic("no renderer for transcripts")
				}
				return judgefake.Pass().Judge(ctx, req)
			}),
			[]string{
				"Judge(transcript, scale [1, 5]) panicked: no renderer for transcripts",
			},
		},
		{
			"changes the request",
			judgeFunc(func(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
				for i := range req.Context {
					req.Context[i] = strings.ToUpper(req.Context[i])
				}
				return judgefake.Pass().Judge(ctx, req)
			}),
			[]string{"Judge(answer, scale [-5, 5], reference, context) changed the request's Context or VerdictSchema, which the caller owns"},
		},
		{
			"bad identity",
			&identified{judge: judgefake.Pass()},
			[]string{
				`Identity(): Provider is empty, want the kind of judge ("openai", "anthropic", ...)`,
				`Identity(): changes between calls ({"provider":"","model":"m1"}, then {"provider":"","model":"m2"}); recordings key on it`,
			},
		},
		{
			"identity that cannot be encoded",
			&identified{judge: judgefake.Pass(), settings: map[string]any{"temperature": func() {}}},
			[]string{`Identity(): does not encode as JSON, so recordings cannot key on it: json: unsupported type: func()`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := judgefake.TestJudge(tt.judge)
			require.Error(t, err)
			var ce *judgefake.ConformanceError
			require.ErrorAs(t, err, &ce)
			for _, w := range tt.want {
				assert.Contains(t, ce.Problems, w)
			}
		})
	}
}

// identified is a judge with an identity that is wrong in every way the
// checker knows.
type identified struct {
	judge    evalkit.Judge
	mu       sync.Mutex
	calls    int
	settings map[string]any
}

func (j *identified) Judge(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
	return j.judge.Judge(ctx, req)
}

func (j *identified) Identity() evalkit.Identity {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.calls++
	if j.settings != nil {
		return evalkit.Identity{Provider: "mine", Settings: j.settings}
	}
	return evalkit.Identity{Model: "m" + string(rune('0'+j.calls))}
}

func TestJudgefakeTestJudgeMessage(t *testing.T) {
	j := judgeFunc(func(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
		if err := valid(ctx, req); err != nil {
			return evalkit.Verdict{}, err
		}
		return evalkit.Verdict{Label: "A", Score: 0.5}, nil
	})
	err := judgefake.TestJudge(j)
	// Every valid request shows the problem, listed once with a count
	// that includes the concurrent calls (and, for the first request, the
	// call whose context is cancelled 50ms in, answered before that).
	assert.EqualError(t, err, strings.Join([]string{
		"judgefake.TestJudge(evalkit.JudgeFunc): 6 problems:",
		"\tJudge(answer, scale [0, 10]): Scored false with Score 0.5 and RawScore 0, want both 0 or Scored true (×8)",
		"\tJudge(answer, scale [1, 10], rubric): Scored false with Score 0.5 and RawScore 0, want both 0 or Scored true (×7)",
		"\tJudge(transcript, scale [1, 5]): Scored false with Score 0.5 and RawScore 0, want both 0 or Scored true (×6)",
		"\tJudge(tool_calls, scale [0, 1]): Scored false with Score 0.5 and RawScore 0, want both 0 or Scored true (×6)",
		"\tJudge(answer, scale [-5, 5], reference, context): Scored false with Score 0.5 and RawScore 0, want both 0 or Scored true (×6)",
		"\tJudge(answer, scale [0, 10], verdict schema): Scored false with Score 0.5 and RawScore 0, want both 0 or Scored true (×6)",
	}, "\n"))
}

// TestJudgefakeTestJudgeFindsEveryProblemAtOnce checks a judge broken in
// many ways: TestJudge keeps going and lists them all.
func TestJudgefakeTestJudgeFindsEveryProblemAtOnce(t *testing.T) {
	j := judgeFunc(func(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
		switch {
		case ctx.Err() != nil:
			return evalkit.Verdict{Label: "A"}, errors.New("gave up")
		case req.Kind == evalkit.ContentToolCalls:
			panic("tool calls unsupported")
		case req.Scale.Min < 0:
			return evalkit.Verdict{}, nil
		}
		return evalkit.Verdict{Score: 1.2, RawScore: 12, Scored: true}, nil
	})
	err := judgefake.TestJudge(j)
	require.Error(t, err)
	for _, want := range []string{
		"Judge(answer, scale [0, 10]): Score 1.2, want within [0, 1]",
		"Judge(answer, scale [0, 10]): RawScore 12, want within the request's scale [0, 10]",
		"Judge(tool_calls, scale [0, 1]) panicked: tool calls unsupported",
		"Judge(answer, scale [-5, 5], reference, context): empty verdict and no error",
		"Judge(request with no criteria): no error, want one",
		`Judge(context cancelled before the call): error "gave up" does not wrap context.Canceled`,
		`Judge(context cancelled before the call) returned a verdict (Label set) together with the error "gave up"`,
	} {
		assert.Contains(t, err.Error(), want)
	}
}

// TestJudgefakeTestJudgeFindsHangs runs in a synctest bubble, so the
// checker's waits pass in virtual time.
func TestJudgefakeTestJudgeFindsHangs(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		defer close(release)
		// Answers valid requests at once, but a cancelled context makes it
		// wait for something that never comes.
		j := judgeFunc(func(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
			if err := req.Validate(); err != nil {
				return evalkit.Verdict{}, err
			}
			if ctx.Err() != nil {
				<-release
				return evalkit.Verdict{}, ctx.Err()
			}
			if req.Scale.Min < 0 {
				<-release
			}
			return judgefake.Pass().Judge(ctx, req)
		})
		start := time.Now()
		err := judgefake.TestJudge(j)
		require.Error(t, err)
		assert.Equal(t, strings.Join([]string{
			"judgefake.TestJudge(evalkit.JudgeFunc): 3 problems:",
			"\tJudge(answer, scale [-5, 5], reference, context): blocked past its 5s deadline: no answer 1s after it",
			"\tJudge(context cancelled before the call): no answer within 1s; not waited for longer, as the judge has blocked past a deadline",
			"\tconcurrent Judge(answer, scale [-5, 5], reference, context): no answer within 1s; not waited for longer, as the judge has blocked past a deadline (×5)",
		}, "\n"), err.Error())
		assert.Equal(t, 8*time.Second, time.Since(start), "virtual time")
	})
}

// A judge that never returns is reported in seconds: the first call
// blocked past its deadline is waited for 1s after it, every later call
// 1s in all. (It took 2m40s when every call got its 10s deadline and 2s.)
func TestJudgefakeTestJudgeBoundsANeverReturningJudge(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		defer close(release)
		j := judgeFunc(func(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
			<-release
			return evalkit.Verdict{}, errors.New("released")
		})
		start := time.Now()
		err := judgefake.TestJudge(j)
		took := time.Since(start)
		var ce *judgefake.ConformanceError
		require.ErrorAs(t, err, &ce)
		assert.Equal(t, "Judge(answer, scale [0, 10]): blocked past its 5s deadline: no answer 1s after it", ce.Problems[0])
		assert.Contains(t, ce.Problems, "Judge(request with no criteria): no answer within 1s; not waited for longer, as the judge has blocked past a deadline")
		assert.Contains(t, ce.Problems, "Judge(context cancelled during the call): no answer within 1s; not waited for longer, as the judge has blocked past a deadline")
		assert.LessOrEqual(t, took, 20*time.Second, "virtual time")
		t.Logf("TestJudge took %v of virtual time", took)
	})
}

// A verdict returned once the context is done is a problem, whether the
// judge returns it at once or later, after its deadline or after a
// cancellation during the call.
func TestJudgefakeTestJudgeFindsVerdictsAfterTheContextIsDone(t *testing.T) {
	for _, after := range []time.Duration{0, 100 * time.Millisecond} {
		t.Run(after.String(), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				j := judgeFunc(func(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
					if err := req.Validate(); err != nil {
						return evalkit.Verdict{}, err
					}
					<-ctx.Done()
					time.Sleep(after)
					return judgefake.Pass().Judge(context.Background(), req)
				})
				err := judgefake.TestJudge(j)
				var ce *judgefake.ConformanceError
				require.ErrorAs(t, err, &ce)
				assert.Equal(t, []string{
					"Judge(answer, scale [0, 10]): a verdict and no error after the call's 5s deadline passed; a judge whose context is done returns an error",
					"Judge(answer, scale [1, 10], rubric): a verdict and no error after the call's 5s deadline passed; a judge whose context is done returns an error",
					"Judge(transcript, scale [1, 5]): a verdict and no error after the call's 5s deadline passed; a judge whose context is done returns an error",
					"Judge(tool_calls, scale [0, 1]): a verdict and no error after the call's 5s deadline passed; a judge whose context is done returns an error",
					"Judge(answer, scale [-5, 5], reference, context): a verdict and no error after the call's 5s deadline passed; a judge whose context is done returns an error",
					"Judge(answer, scale [0, 10], verdict schema): a verdict and no error after the call's 5s deadline passed; a judge whose context is done returns an error",
					"Judge(context cancelled before the call): a verdict and no error, want an error wrapping context.Canceled",
					"Judge(context cancelled during the call): a verdict and no error, want an error wrapping context.Canceled",
				}, ce.Problems)
			})
		})
	}
}

// Verdict fields are checked against the request's verdict schema by
// hand: required properties, and the type, enum and const of each
// property. A verdict without fields is not checked.
func TestJudgefakeTestJudgeChecksTheVerdictSchema(t *testing.T) {
	withFields := func(fields map[string]any) evalkit.Judge {
		return judgeFunc(func(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
			v, err := judgefake.Pass().Judge(ctx, req)
			if err == nil {
				v.Fields = fields
			}
			return v, err
		})
	}
	const name = "Judge(answer, scale [0, 10], verdict schema): Fields break the request's VerdictSchema: "
	tests := []struct {
		fields map[string]any
		want   []string
	}{
		{map[string]any{"nonsense": 1}, []string{name + `required property "score" is missing`}},
		{map[string]any{"score": "high", "verdict": "maybe"}, []string{
			name + `property "score" is a string, want type number`,
			name + `property "verdict" is "maybe", not one of its enum`,
		}},
		{map[string]any{"score": nil}, []string{name + `property "score" is a null, want type number`}},
		{map[string]any{"score": json.Number("8"), "verdict": "pass"}, nil},
		{map[string]any{"score": 8.5, "verdict": "fail", "reasoning": "fine"}, nil},
		{map[string]any{"score": 8}, nil},
		{nil, nil},
	}
	for _, tt := range tests {
		err := judgefake.TestJudge(withFields(tt.fields))
		if tt.want == nil {
			assert.NoError(t, err, "%v", tt.fields)
			continue
		}
		var ce *judgefake.ConformanceError
		if assert.ErrorAs(t, err, &ce, "%v", tt.fields) {
			assert.Equal(t, tt.want, ce.Problems, "%v", tt.fields)
		}
	}
}

// A label a reader cannot see is a problem; a visible one is not.
func TestJudgefakeTestJudgeFindsInvisibleLabels(t *testing.T) {
	for _, label := range []string{"\u200b", " \ufeff\t", "\u3164", "\u0301", "\u2800\u200d"} {
		err := judgefake.TestJudge(judgefake.Fixed(evalkit.Verdict{Label: label}))
		var ce *judgefake.ConformanceError
		if assert.ErrorAs(t, err, &ce, "%+q", label) {
			assert.Equal(t, fmt.Sprintf("Judge(answer, scale [0, 10]): Label %+q has no visible character; a grader cannot tell it from no label", label), ce.Problems[0])
		}
	}
	for _, label := range []string{"C", "\u200bC", "pass ", "é"} {
		assert.NoError(t, judgefake.TestJudge(judgefake.Fixed(evalkit.Verdict{Label: label})), "%+q", label)
	}
}

// TestJudgefakeTestJudgeCallsConcurrently shows the checker calls the
// judge from many goroutines at once: a judge that cannot bear it is
// caught here even without -race (with -race, data races are caught too).
func TestJudgefakeTestJudgeCallsConcurrently(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var mu sync.Mutex
		j := judgeFunc(func(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
			if !mu.TryLock() {
				panic("concurrent call")
			}
			defer mu.Unlock()
			time.Sleep(time.Millisecond) // stay inside long enough to be overlapped
			return judgefake.Pass().Judge(ctx, req)
		})
		err := judgefake.TestJudge(j)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "panicked: concurrent call")
		assert.NotContains(t, strings.Split(err.Error(), "concurrent Judge")[0], "panicked", "sequential calls never overlap")
	})
}

// TestJudgefakeTestJudgeOverHTTP checks a judge that talks to the fake
// server through the in-memory transport: the same pieces a real judge's
// test combines.
func TestJudgefakeTestJudgeOverHTTP(t *testing.T) {
	replies := make([]judgefake.Reply, 0, 64)
	for range 64 {
		replies = append(replies, judgefake.Text("[[7]]"))
	}
	tr := judgefake.NewTransport(replies...)
	j := judgeFunc(func(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
		if err := req.Validate(); err != nil {
			return evalkit.Verdict{}, err
		}
		text, se, err := judgeOnce(ctx, &http.Client{Transport: tr})
		if err != nil {
			return evalkit.Verdict{}, err
		}
		if se != nil {
			return evalkit.Verdict{}, errors.New(http.StatusText(se.status))
		}
		if text != "[[7]]" {
			return evalkit.Verdict{}, errors.New("unreadable: " + text)
		}
		scale := req.Scale.OrDefault()
		if 7 < scale.Min || 7 > scale.Max {
			return evalkit.Verdict{}, errors.New("7 is off the scale")
		}
		score, err := scale.Normalize(7)
		if err != nil {
			return evalkit.Verdict{}, err
		}
		return evalkit.Verdict{Score: score, RawScore: 7, Scored: true, Raw: text}, nil
	})
	assert.NoError(t, judgefake.TestJudge(j))
}
