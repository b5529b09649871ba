package evaltest_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	evalassert "github.com/evalkit-go/evalkit/assert"
	"github.com/evalkit-go/evalkit/evaltest"
	"github.com/evalkit-go/evalkit/judgefake"
	"github.com/evalkit-go/evalkit/stats"
)

// scripted is an attempt function whose attempt i answers with a refund
// when script[i-1] is 'p', without one when 'f', and asks a failing judge
// when 'e' (an evaluation error, not a failure).
func scripted(script string) func(et *evaltest.T) {
	return func(et *evaltest.T) {
		switch script[et.Attempt()-1] {
		case 'p':
			et.Expect(chat("Your refund was issued.")).Contains("refund")
		case 'f':
			et.Expect(chat("Sorry, I cannot help.")).Contains("refund")
		case 'e':
			et.Expect(chat("Your refund was issued.")).Check(evalassert.CheckFunc(judgeDown))
		}
	}
}

func judgeDown(ctx context.Context, tr *evalkit.Transcript) (evalassert.Result, error) {
	return evalassert.Result{}, errors.New("llm_judge: the judge failed: HTTP 503")
}

func TestRepeatFailureMessage(t *testing.T) {
	var rep *evaltest.Repetition
	tb := report(func(et *evaltest.T) {
		rep = et.Repeat(10, scripted("pfppfpppfp"), evaltest.PassRate(0.8))
	})
	assert.Equal(t, []string{`Repeat(10, PassRate(0.80)): 6 of 9 attempts passed, want at least 8 of 10
pass rate: 0.67 (95% two-sided Wilson interval 0.35–0.88)
pass^k: 0.67 (k=1), 0.42 (k=2), 0.12 (k=4), 0.00 (k=8)
pass@k: 0.67 (k=1), 0.92 (k=2), 1.00 (k=4), 1.00 (k=8)
attempt 2: Contains("refund"): missing "refund"
attempt 5: Contains("refund"): missing "refund"
attempt 9: Contains("refund"): missing "refund"
stopped: after 9 of 10 attempts, once the outcome was decided`}, tb.errors)
	assert.False(t, tb.fatal)
	assert.Equal(t, evaltest.StatusFail, rep.Status)
	assert.True(t, rep.Stopped, "after the third failure 8 passes are out of reach")
	assert.Len(t, rep.Attempts, 9)
	assert.Equal(t, 8, rep.Need)
	assert.Len(t, rep.Attempts[1].Failures, 1)
	assert.Equal(t, "Contains(\"refund\"): missing \"refund\"\noutput: \"Sorry, I cannot help.\"\ntranscript: 2 messages", rep.Attempts[1].Failures[0],
		"each attempt keeps its whole messages")

	tb = report(func(et *evaltest.T) {
		rep = et.Repeat(10, scripted("pfppfppppp"), evaltest.PassRate(0.8))
	})
	assert.Empty(t, tb.errors, "8 of 10 meet PassRate(0.80): the failed attempts are not reported")
	assert.True(t, rep.OK())
	assert.Equal(t, 8, rep.Passed)
}

func TestRepeatErrorsAreNotFailures(t *testing.T) {
	tb := report(func(et *evaltest.T) {
		et.Repeat(3, scripted("pep"), evaltest.All())
	})
	assert.Equal(t, []string{`Repeat(3, All()): error: 1 of 3 attempts could not be evaluated; 2 passed, want at least 3
pass rate: 0.67 (95% two-sided Wilson interval 0.21–0.94)
pass^k: 0.67 (k=1), 0.33 (k=2)
pass@k: 0.67 (k=1), 1.00 (k=2)
attempt 2: Check(assert.CheckFunc): error: llm_judge: the judge failed: HTTP 503`}, tb.errors)

	var rep *evaltest.Repetition
	tb = report(func(et *evaltest.T) {
		rep = et.Repeat(3, scripted("efp"), evaltest.All())
	})
	require.Len(t, tb.errors, 1)
	assert.True(t, strings.HasPrefix(tb.errors[0], "Repeat(3, All()): 0 of 2 attempts passed, want at least 3 of 3\n"), tb.errors[0])
	assert.Equal(t, evaltest.StatusFail, rep.Status, "a failure is the agent's, whatever else erred")
	assert.Equal(t, []evaltest.Status{evaltest.StatusError, evaltest.StatusFail}, []evaltest.Status{rep.Attempts[0].Status, rep.Attempts[1].Status})
}

func TestRepeatConfidence(t *testing.T) {
	// The one-sided 95% bound (z = 1.645): 17 of 20 gives 0.678, below
	// 0.70; 18 of 20 gives 0.738.
	script := strings.Repeat("p", 16) + "f" + "p" + "f"
	var rep *evaltest.Repetition
	tb := report(func(et *evaltest.T) {
		rep = et.Repeat(20, scripted(script+"f"), evaltest.PassRate(0.7), evaltest.Confidence(0.95))
	})
	assert.Equal(t, 18, rep.Need, "17 of 20 has a one-sided Wilson lower bound of 0.678, below 0.70")
	require.Len(t, tb.errors, 1)
	first, _, _ := strings.Cut(tb.errors[0], "\n")
	assert.Equal(t, "Repeat(20, PassRate(0.70), Confidence(0.95)): 17 of 20 attempts passed (one-sided 95% Wilson lower bound 0.678), want at least 18 (lower bound >= 0.700)", first)

	tb = report(func(et *evaltest.T) {
		rep = et.Repeat(20, scripted(script+"p"), evaltest.PassRate(0.7), evaltest.Confidence(0.95))
	})
	assert.Empty(t, tb.errors)
	assert.True(t, rep.OK())
}

func TestRepeatBadArguments(t *testing.T) {
	never := func(et *evaltest.T) { t.Error("no attempt may run") }
	tests := []struct {
		run  func(et *evaltest.T)
		want string
	}{
		{func(et *evaltest.T) { et.Repeat(0, never, evaltest.All()) }, "Repeat(0, All()): error: n is 0, want at least 1 attempt"},
		{func(et *evaltest.T) { et.Repeat(evaltest.MaxRepeat+1, never, evaltest.All()) }, "Repeat(10001, All()): error: n is 10001, want at most 10000 attempts (MaxRepeat)"},
		{func(et *evaltest.T) { et.Repeat(5, never, evaltest.PassRate(0)) }, "Repeat(5, PassRate(0.00)): error: PassRate(0.00): want a pass rate above 0 and at most 1"},
		{func(et *evaltest.T) { et.Repeat(5, never, evaltest.PassRate(1.5)) }, "Repeat(5, PassRate(1.50)): error: PassRate(1.50): want a pass rate above 0 and at most 1"},
		{func(et *evaltest.T) { et.Repeat(3, never, evaltest.AtLeast(4)) }, "Repeat(3, AtLeast(4)): error: AtLeast(4): want 1 to 3 attempts"},
		{func(et *evaltest.T) { et.Repeat(3, never, evaltest.AtLeast(0)) }, "Repeat(3, AtLeast(0)): error: AtLeast(0): want 1 to 3 attempts"},
		{func(et *evaltest.T) { et.Repeat(3, never, evaltest.Rule{}) }, "Repeat(3, Rule{}): error: no rule: give PassRate(p), AtLeast(k) or All()"},
		{func(et *evaltest.T) { et.Repeat(3, nil, evaltest.All()) }, "Repeat(3, All()): error: no attempt function"},
		{func(et *evaltest.T) { et.Repeat(3, never, evaltest.All(), evaltest.Confidence(0.95)) },
			"Repeat(3, All(), Confidence(0.95)): error: All() with Confidence can never pass: a Wilson lower bound is below 1 for any number of attempts"},
		{func(et *evaltest.T) { et.Repeat(10, never, evaltest.PassRate(0.8), evaltest.Confidence(0.95)) },
			"Repeat(10, PassRate(0.80), Confidence(0.95)): error: PassRate(0.80) with Confidence(0.95) can never pass in 10 attempts: even 10 of 10 gives a Wilson lower bound of 0.79; make more attempts"},
		{func(et *evaltest.T) { et.Repeat(3, never, evaltest.All(), evaltest.Confidence(1)) }, "Repeat(3, All(), Confidence(1)): error: Confidence(1): want a level above 0.5 and below 1, such as 0.95"},
		{func(et *evaltest.T) { et.Repeat(3, never, evaltest.All(), evaltest.Concurrency(0)) }, "Repeat(3, All(), Concurrency(0)): error: Concurrency(0): want at least 1"},
	}
	for _, tt := range tests {
		tb := report(tt.run)
		assert.Equal(t, []string{tt.want}, tb.errors)
	}
}

// An attempt ends at its first Fatal; a panic or a Skip is an error of its
// attempt; cleanups run when the attempt ends; nothing reaches the test.
func TestRepeatAttemptLifecycle(t *testing.T) {
	var cleaned, after atomic.Int32
	var rep *evaltest.Repetition
	tb := report(func(et *evaltest.T) {
		rep = et.Repeat(4, func(et *evaltest.T) {
			et.Cleanup(func() { cleaned.Add(1) })
			switch et.Attempt() {
			case 1:
				et.Require(chat("Sorry.")).Contains("refund")
				after.Add(1)
			case 2:
				panic("agent crashed")
			case 3:
				et.Skip("no sandbox")
			case 4:
				et.Fatalf("agent returned %v", errors.New("timeout"))
			}
		}, evaltest.AtLeast(1), evaltest.Exhaustive())
	})
	assert.Zero(t, after.Load(), "Require ends the attempt")
	assert.Equal(t, int32(4), cleaned.Load())
	require.Len(t, rep.Attempts, 4)
	var statuses []string
	for _, a := range rep.Attempts {
		first, _, _ := strings.Cut(a.Failures[0], "\n")
		statuses = append(statuses, a.Status.String()+": "+regexp.MustCompile(`_test\.go:\d+:`).ReplaceAllString(first, "_test.go:N:"))
	}
	assert.Equal(t, []string{
		`fail: Contains("refund"): missing "refund"`,
		"error: attempt 2 panicked: agent crashed",
		"error: the attempt skipped: repeat_test.go:N: no sandbox",
		"fail: repeat_test.go:N: agent returned timeout",
	}, statuses)
	require.Len(t, tb.errors, 1)
	assert.True(t, strings.HasPrefix(tb.errors[0], "Repeat(4, AtLeast(1), Exhaustive()): error: 2 of 4 attempts could not be evaluated; 0 passed, want at least 1\n"), tb.errors[0],
		"had the two attempts that erred passed, AtLeast(1) would be met: the errors decide")
	assert.False(t, tb.fatal, "a Fatal inside an attempt is not the test's")
}

// Stopping early never changes the outcome: over random scripts of passes,
// failures and errors, for every rule, the early-stopped Repeat decides as
// the exhaustive one does, and runs no more attempts.
func TestRepeatEarlyStopKeepsTheOutcome(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	rules := []struct {
		rule evaltest.Rule
		opts []evaltest.RepeatOption
	}{
		{evaltest.All(), nil},
		{evaltest.AtLeast(3), nil},
		{evaltest.PassRate(0.5), nil},
		{evaltest.PassRate(0.8), nil},
		{evaltest.PassRate(0.6), []evaltest.RepeatOption{evaltest.Confidence(0.9)}},
	}
	saved := 0
	for trial := 0; trial < 300; trial++ {
		n := 8 + rng.IntN(8)
		script := make([]byte, n)
		for i := range script {
			switch x := rng.Float64(); {
			case x < 0.6:
				script[i] = 'p'
			case x < 0.9:
				script[i] = 'f'
			default:
				script[i] = 'e'
			}
		}
		for _, r := range rules {
			var early, full *evaltest.Repetition
			report(func(et *evaltest.T) { early = et.Repeat(n, scripted(string(script)), r.rule, r.opts...) })
			report(func(et *evaltest.T) {
				full = et.Repeat(n, scripted(string(script)), r.rule, append([]evaltest.RepeatOption{evaltest.Exhaustive()}, r.opts...)...)
			})
			require.Equal(t, full.Status, early.Status, "script %s, rule %v", script, r.rule)
			require.Len(t, full.Attempts, n)
			require.LessOrEqual(t, len(early.Attempts), n)
			saved += n - len(early.Attempts)
		}
	}
	assert.Positive(t, saved, "early stopping saved attempts")
}

// flaky is an agent that answers correctly with probability p, drawing from
// rng: a fake agent with a known success rate.
func flaky(rng *rand.Rand, p float64) func(et *evaltest.T) {
	return func(et *evaltest.T) {
		answer := "Sorry, I cannot help."
		if rng.Float64() < p {
			answer = "Your refund was issued."
		}
		et.Expect(chat(answer)).Contains("refund")
	}
}

// binomialTail is P(X ≥ need) for X ~ Binomial(n, p).
func binomialTail(n, need int, p float64) float64 {
	sum := 0.0
	for c := need; c <= n; c++ {
		lg := func(x int) float64 { v, _ := math.Lgamma(float64(x + 1)); return v }
		sum += math.Exp(lg(n) - lg(c) - lg(n-c) + float64(c)*math.Log(p) + float64(n-c)*math.Log1p(-p))
	}
	return sum
}

// Repeat on a flaky agent with a known success rate passes as often as the
// binomial distribution says, with and without Confidence; fixed seeds, so
// the counts are the same in every run. The tolerance is 4.5 standard
// errors of the observed share.
func TestRepeatOnAFlakyAgentFollowsTheBinomial(t *testing.T) {
	tests := []struct {
		name string
		p    float64
		n    int
		rule evaltest.Rule
		opts []evaltest.RepeatOption
		need int
	}{
		{"PassRate(0.8) of an agent at 0.7", 0.7, 10, evaltest.PassRate(0.8), nil, 8},
		{"All() of an agent at 0.9", 0.9, 5, evaltest.All(), nil, 5},
		{"AtLeast(1) of an agent at 0.2", 0.2, 4, evaltest.AtLeast(1), nil, 1},
		// With Confidence an agent below the rate rarely passes: the
		// coverage of the Wilson lower bound.
		{"Confidence(0.95) PassRate(0.7) of an agent at 0.6", 0.6, 30, evaltest.PassRate(0.7), []evaltest.RepeatOption{evaltest.Confidence(0.95)}, 26},
		{"Confidence(0.95) PassRate(0.7) of an agent at 0.9", 0.9, 30, evaltest.PassRate(0.7), []evaltest.RepeatOption{evaltest.Confidence(0.95)}, 26},
	}
	const trials = 1500
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := binomialTail(tt.n, tt.need, tt.p)
			passed, attempts := 0, 0
			for seed := range uint64(trials) {
				rng := rand.New(rand.NewPCG(seed, 42))
				var rep *evaltest.Repetition
				report(func(et *evaltest.T) { rep = et.Repeat(tt.n, flaky(rng, tt.p), tt.rule, tt.opts...) })
				require.Equal(t, tt.need, rep.Need)
				if rep.OK() {
					passed++
				}
				attempts += len(rep.Attempts)
			}
			got := float64(passed) / trials
			se := math.Sqrt(want * (1 - want) / trials)
			assert.InDelta(t, want, got, 4.5*se+1e-9, "P(pass) = P(Binomial(%d, %v) >= %d)", tt.n, tt.p, tt.need)
			t.Logf("passed %d of %d Repeats (exact %.4f); %.1f attempts per Repeat of %d", passed, trials, want, float64(attempts)/trials, tt.n)
		})
	}
	assert.Less(t, binomialTail(30, 26, 0.6), 0.06, "an agent well below the rate passes a Confidence gate rarely")
}

// Repeat on judgefake.Hash: each attempt's answer differs, so the fake's
// scores are spread uniformly over [0,1]; with MinScore(0.5) about half the
// attempts pass, and the Repeat counts exactly the attempts a second look
// at their transcripts finds passing.
func TestRepeatOnHashJudge(t *testing.T) {
	spy := judgefake.Spy(judgefake.Hash("repeat"))
	var rep *evaltest.Repetition
	tb := reportWith([]evaltest.Option{evaltest.WithJudge(spy)}, func(et *evaltest.T) {
		rep = et.Repeat(200, func(et *evaltest.T) {
			et.Expect(chat(fmt.Sprintf("Your refund #%d was issued.", et.Attempt()))).
				Judge("Confirms the refund", evalassert.MinScore(0.5))
		}, evaltest.PassRate(0.3), evaltest.Exhaustive())
	})
	assert.Empty(t, tb.errors)
	require.Len(t, rep.Attempts, 200)
	assert.Len(t, spy.Requests(), 200)
	assert.InDelta(t, 0.5, rep.PassRate(), 4.5*math.Sqrt(0.25/200), "scores uniform on [0,1]")

	again := 0
	reportWith([]evaltest.Option{evaltest.WithJudge(judgefake.Hash("repeat"))}, func(et *evaltest.T) {
		for _, tr := range rep.Transcripts() {
			if et.Expect(tr).Judge("Confirms the refund", evalassert.MinScore(0.5)).OK() {
				again++
			}
		}
	})
	assert.Equal(t, rep.Passed, again)
	hat, err := rep.PassHatK(3)
	require.NoError(t, err)
	want, _ := stats.PassHatK(200, rep.Passed, 3)
	assert.Equal(t, want, hat)

	// Stopping early: AtLeast(10) needs about 20 attempts, not 200.
	spy = judgefake.Spy(judgefake.Hash("repeat"))
	reportWith([]evaltest.Option{evaltest.WithJudge(spy)}, func(et *evaltest.T) {
		rep = et.Repeat(200, func(et *evaltest.T) {
			et.Expect(chat(fmt.Sprintf("Your refund #%d was issued.", et.Attempt()))).
				Judge("Confirms the refund", evalassert.MinScore(0.5))
		}, evaltest.AtLeast(10))
	})
	assert.True(t, rep.OK())
	assert.True(t, rep.Stopped)
	assert.Equal(t, 10, rep.Passed)
	assert.Len(t, spy.Requests(), len(rep.Attempts), "one judge call per attempt run")
	assert.Less(t, len(rep.Attempts), 40)
}

// concurrentTB is a fakeTB whose Helper, like testing.T's, is safe for the
// concurrent attempts of a Repeat to call.
type concurrentTB struct {
	fakeTB
	mu sync.Mutex
}

func (c *concurrentTB) Helper() {
	c.mu.Lock()
	c.helpers++
	c.mu.Unlock()
}

func reportConcurrent(body func(et *evaltest.T)) *concurrentTB {
	tb := &concurrentTB{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		body(evaltest.New(tb))
	}()
	<-done
	return tb
}

// Concurrency(4) keeps at most 4 attempts in flight, and an early stop
// cancels the ones running, which are not counted.
func TestRepeatConcurrency(t *testing.T) {
	var inflight, most atomic.Int32
	gate := make(chan struct{})
	var once sync.Once
	var rep *evaltest.Repetition
	tb := reportConcurrent(func(et *evaltest.T) {
		rep = et.Repeat(16, func(et *evaltest.T) {
			now := inflight.Add(1)
			defer inflight.Add(-1)
			for {
				m := most.Load()
				if now <= m || most.CompareAndSwap(m, now) {
					break
				}
			}
			if now == 4 {
				once.Do(func() { close(gate) })
			}
			<-gate
			et.Expect(chat("Your refund was issued.")).Contains("refund")
		}, evaltest.All(), evaltest.Concurrency(4))
	})
	assert.Empty(t, tb.errors)
	assert.Equal(t, int32(4), most.Load())
	assert.Len(t, rep.Attempts, 16)
	for i, a := range rep.Attempts {
		assert.Equal(t, i+1, a.Index, "attempts are listed by index")
	}

	var cancelled atomic.Int32
	tb = reportConcurrent(func(et *evaltest.T) {
		rep = et.Repeat(8, func(et *evaltest.T) {
			if et.Attempt() == 1 {
				et.Expect(chat("Sorry.")).Contains("refund")
				return
			}
			<-et.Context().Done() // a slow agent, cut short by the stop
			cancelled.Add(1)
		}, evaltest.All(), evaltest.Concurrency(3))
	})
	require.Len(t, rep.Attempts, 1)
	assert.True(t, rep.Stopped)
	assert.Equal(t, int32(2), cancelled.Load(), "attempts 2 and 3 were running, and were cancelled")
	require.Len(t, tb.errors, 1)
	assert.Contains(t, tb.errors[0], "stopped: after 1 of 8 attempts, once the outcome was decided")
}
