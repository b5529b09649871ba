package assert_test

import (
	"context"
	"testing"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
	"github.com/evalkit-go/evalkit/internal/benchdata"
)

// benchVariants is how many distinct answers the chain benchmarks cycle
// through: more than the parse cache holds, so every iteration parses its
// answer once, as a test checking a run once does.
const benchVariants = 512

func chainRuns(b *testing.B) []*evalkit.Transcript {
	b.Helper()
	tr, err := benchdata.TauAnswer()
	if err != nil {
		b.Fatal(err)
	}
	runs := benchdata.Variants(tr, benchVariants)
	for _, r := range runs {
		if err := benchdata.HandWritten(r); err != nil {
			b.Fatal(err)
		}
	}
	return runs
}

// chainChecks are benchdata.Chain as assert values, built once.
func chainChecks(b *testing.B) []assert.Check {
	b.Helper()
	var checks []assert.Check
	for _, s := range benchdata.Chain() {
		c, err := assert.NewRegistry().Build(s.Type, s.Params)
		if err != nil {
			b.Fatal(err)
		}
		checks = append(checks, c)
	}
	return checks
}

// BenchmarkChainVsHandWritten runs the chain of common deterministic checks
// (contains, regex, json_path ×3, json_schema, tools_called, tool_args,
// tool_call_sequence, no_tool_errors) on a real τ-bench run with a JSON
// answer: through assert.Eval (specs as a case file gives them: each built
// from its params and run), through checks built once (assert values),
// and, the baseline, by hand with encoding/json and loops
// (benchdata.HandWritten). Each iteration checks another answer, so
// nothing is found in a cache from the iteration before. The target is
// evalkit ≤ 1.5× the baseline.
func BenchmarkChainVsHandWritten(b *testing.B) {
	ctx := context.Background()
	runs := chainRuns(b)
	specs := benchdata.Chain()
	b.Run("baseline=handwritten", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			if err := benchdata.HandWritten(runs[i%len(runs)]); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
	b.Run("assert.Eval", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			tr := runs[i%len(runs)]
			for _, s := range specs {
				res, err := assert.Eval(ctx, s.Type, tr, s.Params)
				if err != nil || !res.Passed {
					b.Fatal(s.Type, res.Summary, err)
				}
			}
			i++
		}
	})
	checks := chainChecks(b)
	runChecks := func(b *testing.B, tr *evalkit.Transcript) {
		for _, c := range checks {
			res, err := c.Check(ctx, tr)
			if err != nil || !res.Passed {
				b.Fatal(res.Summary, err)
			}
		}
	}
	b.Run("assert.Check", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			runChecks(b, runs[i%len(runs)])
			i++
		}
	})
	// The same, each iteration running the baseline then the chain on one
	// answer: x-baseline is the chain's time over the baseline's, measured
	// side by side (benchdata.Paired).
	b.Run("paired/assert.Check", func(b *testing.B) {
		i := 0
		ratio := benchdata.Paired(b, func() {
			if err := benchdata.HandWritten(runs[i%len(runs)]); err != nil {
				b.Fatal(err)
			}
		}, func() {
			runChecks(b, runs[i%len(runs)])
			i++
		})
		b.ReportMetric(ratio, "x-baseline")
	})
	b.Run("paired/assert.Eval", func(b *testing.B) {
		i := 0
		ratio := benchdata.Paired(b, func() {
			if err := benchdata.HandWritten(runs[i%len(runs)]); err != nil {
				b.Fatal(err)
			}
		}, func() {
			for _, s := range specs {
				if res, err := assert.Eval(ctx, s.Type, runs[i%len(runs)], s.Params); err != nil || !res.Passed {
					b.Fatal(s.Type, res.Summary, err)
				}
			}
			i++
		})
		b.ReportMetric(ratio, "x-baseline")
	})
}
