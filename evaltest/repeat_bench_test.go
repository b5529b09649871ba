package evaltest_test

import (
	"fmt"
	"testing"

	evalassert "github.com/evalkit-go/evalkit/assert"
	"github.com/evalkit-go/evalkit/evaltest"
	"github.com/evalkit-go/evalkit/judgefake"
)

// BenchmarkRepeat measures what stopping early saves against the baseline
// that runs every attempt (Exhaustive): 100 attempts of a judged agent
// answer whose judge (judgefake.Hash) passes about half, decided by
// AtLeast(10) and by All(). attempts/op is the attempts run, each one
// judge call (a paid API call against a live judge).
func BenchmarkRepeat(b *testing.B) {
	attempt := func(et *evaltest.T) {
		et.Expect(chat(fmt.Sprintf("Your refund #%d was issued.", et.Attempt()))).
			Judge("Confirms the refund", evalassert.MinScore(0.5))
	}
	for _, rule := range []evaltest.Rule{evaltest.AtLeast(10), evaltest.All()} {
		for _, mode := range []struct {
			name string
			opts []evaltest.RepeatOption
		}{{"Exhaustive", []evaltest.RepeatOption{evaltest.Exhaustive()}}, {"EarlyStop", nil}} {
			b.Run(rule.String()+"/"+mode.name, func(b *testing.B) {
				attempts := 0
				for b.Loop() {
					var rep *evaltest.Repetition
					reportWith([]evaltest.Option{evaltest.WithJudge(judgefake.Hash("bench"))}, func(et *evaltest.T) {
						rep = et.Repeat(100, attempt, rule, mode.opts...)
					})
					attempts += len(rep.Attempts)
				}
				b.ReportMetric(float64(attempts)/float64(b.N), "attempts/op")
			})
		}
	}
}
