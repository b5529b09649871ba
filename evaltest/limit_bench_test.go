package evaltest_test

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/evaltest"
	"github.com/evalkit-go/evalkit/judgefake"
)

// BenchmarkJudgeThroughput makes 200 judged steps at once to
// judgefake.Slow(50ms) through evaltest with a JudgeLimiter of c in
// flight, each step a T of its own as in 200 parallel tests, against the
// baseline of hand-written Go making the same 200 calls through a
// buffered-channel semaphore of c. x-ideal is a run's wall time over
// ⌈200/c⌉ × 50 ms: the target is within 10% (≤ 1.10). TestJudgeLimitThroughput
// checks the same in virtual time, exactly.
func BenchmarkJudgeThroughput(b *testing.B) {
	const calls, latency = 200, 50 * time.Millisecond
	slow := judgefake.Slow(latency, judgefake.Pass())
	tr := nineMessages()
	for _, c := range []int{10, 50} {
		ideal := time.Duration((calls+c-1)/c) * latency
		report := func(b *testing.B) {
			b.ReportMetric(float64(b.Elapsed())/float64(b.N)/float64(ideal), "x-ideal")
		}
		b.Run(fmt.Sprintf("c=%d/baseline=semaphore", c), func(b *testing.B) {
			req := evalkit.JudgeRequest{Criteria: "Confirms the refund", Input: "I want a refund", Content: "Your refund has been issued."}
			for b.Loop() {
				sem := make(chan struct{}, c)
				var wg sync.WaitGroup
				for range calls {
					wg.Go(func() {
						sem <- struct{}{}
						defer func() { <-sem }()
						if _, err := slow.Judge(b.Context(), req); err != nil {
							b.Error(err)
						}
					})
				}
				wg.Wait()
			}
			report(b)
		})
		b.Run(fmt.Sprintf("c=%d/evaltest", c), func(b *testing.B) {
			limit := evaltest.NewJudgeLimiter(c, 0)
			tb := &quietTB{TB: b}
			for b.Loop() {
				var wg sync.WaitGroup
				for range calls {
					wg.Go(func() {
						evaltest.New(tb, evaltest.WithJudge(slow), evaltest.WithJudgeLimiter(limit)).Expect(tr).Judge("Confirms the refund")
					})
				}
				wg.Wait()
			}
			report(b)
		})
	}
}

// quietTB is a benchmark's TB without test attributes: a judged step
// reports one, 200 of them a run.
type quietTB struct{ testing.TB }

func (quietTB) Attr(key, value string) {}
