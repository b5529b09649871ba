package evaltest_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/evaltest"
	"github.com/evalkit-go/evalkit/golden"
	"github.com/evalkit-go/evalkit/judgefake"
)

// inFlight is a judge that counts its calls running at once, and the most
// it saw, around another judge.
type inFlight struct {
	j         evalkit.Judge
	now, most atomic.Int64
	calls     atomic.Int64
}

func (f *inFlight) Judge(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
	f.calls.Add(1)
	n := f.now.Add(1)
	for m := f.most.Load(); n > m && !f.most.CompareAndSwap(m, n); m = f.most.Load() {
	}
	defer f.now.Add(-1)
	return f.j.Judge(ctx, req)
}

// judgeConcurrently makes n judged steps at once, each through a T of its
// own sharing opts, as n parallel tests do, and returns how long they took
// (in a synctest bubble, virtual time: exact).
func judgeConcurrently(t *testing.T, n int, opts ...evaltest.Option) time.Duration {
	start := time.Now()
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			evaltest.New(t, opts...).Expect(nineMessages()).Judge("Confirms the refund")
		})
	}
	wg.Wait()
	return time.Since(start)
}

// TestJudgeLimitThroughput is issue 8's target 4, in virtual time: 200
// judge calls to judgefake.Slow(50ms) through evaltest with at most c in
// flight take ⌈200/c⌉ × 50 ms (the target allows 10% more; virtual time
// gives it exactly), and never more than c run at once.
func TestJudgeLimitThroughput(t *testing.T) {
	for _, c := range []int{1, 7, 10, 50, 200} {
		t.Run(fmt.Sprintf("c=%d", c), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				judge := &inFlight{j: judgefake.Slow(50*time.Millisecond, judgefake.Pass())}
				limit := evaltest.NewJudgeLimiter(c, 0)
				took := judgeConcurrently(t, 200, evaltest.WithJudge(judge), evaltest.WithJudgeLimiter(limit))
				want := time.Duration((200+c-1)/c) * 50 * time.Millisecond
				assert.Equal(t, want, took)
				assert.InEpsilon(t, float64(want), float64(took), 0.10)
				assert.EqualValues(t, c, judge.most.Load(), "at most c in flight, and c reached")
				assert.EqualValues(t, 200, judge.calls.Load())
			})
		})
	}
}

// TestJudgeLimitPerMinute: 600 a minute starts one call every 100 ms, so
// ten instant calls take 900 ms; with 2 in flight too, calls of 250 ms
// start no faster than 2 at a time.
func TestJudgeLimitPerMinute(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var mu sync.Mutex
		var starts []time.Duration
		begin := time.Now()
		judge := evalkit.JudgeFunc(func(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
			mu.Lock()
			starts = append(starts, time.Since(begin))
			mu.Unlock()
			return judgefake.Pass().Judge(ctx, req)
		})
		took := judgeConcurrently(t, 10, evaltest.WithJudge(judge), evaltest.WithJudgeLimiter(evaltest.NewJudgeLimiter(0, 600)))
		assert.Equal(t, 900*time.Millisecond, took)
		for i, s := range starts {
			assert.Equal(t, time.Duration(i)*100*time.Millisecond, s)
		}
	})
	synctest.Test(t, func(t *testing.T) {
		judge := &inFlight{j: judgefake.Slow(250*time.Millisecond, judgefake.Pass())}
		took := judgeConcurrently(t, 10, evaltest.WithJudge(judge), evaltest.WithJudgeLimiter(evaltest.NewJudgeLimiter(2, 600)))
		// Two in flight, each 250 ms: pairs start at 0, 250, 500, ... ms,
		// the second of each 100 ms after the first: the last ends at
		// 4 × 250 + 100 + 250 ms.
		assert.Equal(t, 1350*time.Millisecond, took)
		assert.EqualValues(t, 2, judge.most.Load())
	})
}

// TestJudgeLimitShared: one limiter given to many Ts bounds them
// together; WithJudgeLimiter(nil) bounds nothing.
func TestJudgeLimitShared(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		judge := &inFlight{j: judgefake.Slow(time.Second, judgefake.Pass())}
		shared := evaltest.NewJudgeLimiter(3, 0)
		var wg sync.WaitGroup
		for i := range 4 {
			wg.Go(func() {
				// Each "test" makes its own T, with the shared limiter.
				judgeConcurrently(t, 3+i, evaltest.WithJudge(judge), evaltest.WithJudgeLimiter(shared))
			})
		}
		wg.Wait()
		assert.EqualValues(t, 3, judge.most.Load())

		judge = &inFlight{j: judgefake.Slow(time.Second, judgefake.Pass())}
		assert.Equal(t, time.Second, judgeConcurrently(t, 50, evaltest.WithJudge(judge), evaltest.WithJudgeLimiter(nil)))
		assert.EqualValues(t, 50, judge.most.Load())
	})
}

// TestJudgeLimitCancel: a step waiting for its turn returns when its
// context ends, as an evaluation error.
func TestJudgeLimitCancel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		limit := evaltest.NewJudgeLimiter(1, 0)
		hold := make(chan struct{})
		blocking := evalkit.JudgeFunc(func(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
			<-hold
			return judgefake.Pass().Judge(ctx, req)
		})
		go evaltest.New(&testTB{name: "TestHolder"}, evaltest.WithJudge(blocking), evaltest.WithJudgeLimiter(limit)).
			Expect(nineMessages()).Judge("Confirms the refund")
		synctest.Wait() // the holder has the one slot

		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		tb := &ctxTB{testTB: testTB{name: "TestWaiter"}, ctx: ctx}
		start := time.Now()
		evaltest.New(tb, evaltest.WithJudge(judgefake.Pass()), evaltest.WithJudgeLimiter(limit)).
			Expect(nineMessages()).Judge("Confirms the refund")
		assert.Equal(t, time.Minute, time.Since(start), "waited until the context ended")
		require.Len(t, tb.errors, 1)
		assert.Contains(t, tb.errors[0], "context deadline exceeded")
		close(hold)
	})
}

// ctxTB is a testTB whose Context is ctx.
type ctxTB struct {
	testTB
	ctx context.Context
}

func (f *ctxTB) Context() context.Context { return f.ctx }

// TestJudgeLimitReplayDoesNotWait: a recorded judge's replayed verdicts
// never wait for the limiter; its misses in record mode do.
func TestJudgeLimitReplayDoesNotWait(t *testing.T) {
	isolate(t)
	synctest.Test(t, func(t *testing.T) {
		live := &liveJudge{fake: judgefake.Slow(time.Second, judgefake.Fixed(verdict055))}
		limit := evaltest.NewJudgeLimiter(1, 0)
		judge := func(et *evaltest.T) { et.Expect(nineMessages()).Judge("Confirms the refund") }
		run("TestLimitReplay", []evaltest.Option{evaltest.WithJudge(live), evaltest.WithMode(golden.ModeRecord), evaltest.WithJudgeLimiter(limit)}, judge)
		require.EqualValues(t, 1, live.calls.Load())

		// Hold the limiter's one slot: a replay still answers at once.
		hold := make(chan struct{})
		go evaltest.New(&testTB{name: "TestHolder"}, evaltest.WithJudge(evalkit.JudgeFunc(func(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
			<-hold
			return judgefake.Pass().Judge(ctx, req)
		})), evaltest.WithJudgeLimiter(limit)).Expect(nineMessages()).Judge("x")
		synctest.Wait()
		start := time.Now()
		tb := run("TestLimitReplay", []evaltest.Option{evaltest.WithJudge(live), evaltest.WithJudgeLimiter(limit)}, judge)
		assert.Zero(t, time.Since(start))
		assert.Len(t, tb.errors, 1, "the replayed verdict fails its default criterion, at once")
		assert.EqualValues(t, 1, live.calls.Load())
		close(hold)
	})
}

// judgeLimit is one limiter for every test of the package: four judge
// calls in flight at most, 6000 started a minute at most (one every 10 ms).
var judgeLimit = evaltest.NewJudgeLimiter(4, 6000)

func ExampleWithJudgeLimiter() {
	judge := &inFlight{j: judgefake.Slow(200*time.Millisecond, judgefake.Pass())}
	var wg sync.WaitGroup
	for range 12 { // twelve parallel tests, each with its own T
		wg.Go(func() {
			// In a test: evaltest.New(t, evaltest.WithJudge(judge), evaltest.WithJudgeLimiter(judgeLimit)).
			et := evaltest.New(printingTB{}, evaltest.WithJudge(judge), evaltest.WithJudgeLimiter(judgeLimit))
			et.Expect(nineMessages()).Judge("Confirms the refund")
		})
	}
	wg.Wait()
	fmt.Println(judgeLimit, "→ calls:", judge.calls.Load(), "most at once:", judge.most.Load())
	// Output:
	// 4 in flight, 6000/min → calls: 12 most at once: 4
}
