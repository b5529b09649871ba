package evalkit_test

import (
	"context"
	"encoding/json"
	"runtime"
	"testing"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
	"github.com/evalkit-go/evalkit/internal/benchdata"
)

// corpusRuns is every bundled real τ-bench run with its answer, in copies
// whose answers differ (benchdata.CorpusVariants).
func corpusRuns(b *testing.B, copies int) []benchdata.Run {
	b.Helper()
	runs, err := benchdata.CorpusRuns()
	if err != nil {
		b.Fatal(err)
	}
	if runs, err = benchdata.CorpusVariants(runs, copies); err != nil {
		b.Fatal(err)
	}
	return runs
}

// BenchmarkCorpusDecode decodes every bundled real τ-bench run (14
// airline records, 8 retail conversations with their tool definitions;
// 635 messages) from its JSON, once per iteration: with evalkit.Decode,
// and, the baseline, with encoding/json into plain structs holding the
// same fields (benchdata.PlainRecord). ns/msg and allocs/msg are per
// message; the paired variant times the two alternately. The target is
// evalkit ≤ 1.5× the baseline, in time and allocations.
func BenchmarkCorpusDecode(b *testing.B) {
	runs := corpusRuns(b, 1)
	msgs := float64(benchdata.CorpusMessages(runs))
	size := 0
	for _, r := range runs {
		size += len(r.Raw)
	}
	plain := func() {
		for _, r := range runs {
			if _, err := benchdata.DecodePlain(r.Raw); err != nil {
				b.Fatal(err)
			}
		}
	}
	decode := func() {
		for _, r := range runs {
			if _, err := evalkit.Decode(r.Raw); err != nil {
				b.Fatal(err)
			}
		}
	}
	for _, v := range []struct {
		name string
		run  func()
	}{{"baseline=encoding-json", plain}, {"evalkit.Decode", decode}} {
		b.Run(v.name, func(b *testing.B) {
			b.SetBytes(int64(size))
			b.ReportAllocs()
			var before, after runtimeAllocs
			before.read()
			for b.Loop() {
				v.run()
			}
			after.read()
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/msgs, "ns/msg")
			b.ReportMetric(float64(after.mallocs-before.mallocs)/float64(b.N)/msgs, "allocs/msg")
		})
	}
	b.Run("paired/evalkit.Decode", func(b *testing.B) {
		b.ReportMetric(benchdata.Paired(b, plain, decode), "x-baseline")
	})
}

// BenchmarkCorpusEvalkitJSON decodes the same runs written as evalkit's
// own JSON (json.Marshal of each Transcript, as evaltest writes a
// transcript artifact), against encoding/json decoding that JSON back
// into an evalkit.Transcript (which checks nothing: the floor).
func BenchmarkCorpusEvalkitJSON(b *testing.B) {
	runs := corpusRuns(b, 1)
	msgs := float64(benchdata.CorpusMessages(runs))
	var docs [][]byte
	for _, r := range runs {
		out, err := json.Marshal(r.Transcript)
		if err != nil {
			b.Fatal(err)
		}
		docs = append(docs, out)
	}
	plain := func() {
		for _, d := range docs {
			var tr evalkit.Transcript
			if err := json.Unmarshal(d, &tr); err != nil {
				b.Fatal(err)
			}
		}
	}
	decode := func() {
		for _, d := range docs {
			if _, err := evalkit.Decode(d); err != nil {
				b.Fatal(err)
			}
		}
	}
	for _, v := range []struct {
		name string
		run  func()
	}{{"baseline=encoding-json", plain}, {"evalkit.Decode", decode}} {
		b.Run(v.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				v.run()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/msgs, "ns/msg")
		})
	}
	b.Run("paired/evalkit.Decode", func(b *testing.B) {
		b.ReportMetric(benchdata.Paired(b, plain, decode), "x-baseline")
	})
}

// BenchmarkCorpusPipeline goes from a run's raw JSON bytes to the
// verdicts of its eleven checks (benchdata.Run.Checks), failures
// included, one run per iteration in turn through the corpus: evalkit.Decode
// then the checks built once; the baseline decodes into plain structs with
// encoding/json and makes the same checks by hand
// (benchdata.HandWrittenRun). The target is evalkit ≤ 1.5× the baseline.
func BenchmarkCorpusPipeline(b *testing.B) {
	runs := corpusRuns(b, 4)
	ctx := context.Background()
	reg := assert.NewRegistry()
	checks := make([][]assert.Check, len(runs))
	for i := range runs {
		for _, s := range runs[i].Checks() {
			c, err := reg.Build(s.Type, s.Params)
			if err != nil {
				b.Fatal(err)
			}
			checks[i] = append(checks[i], c)
		}
	}
	hand := func(i int) {
		rec, err := benchdata.DecodePlain(runs[i].Raw)
		if err != nil {
			b.Fatal(err)
		}
		benchdata.HandWrittenRun(&runs[i], rec.Msgs())
	}
	evalkitRun := func(i int) {
		tr, err := evalkit.Decode(runs[i].Raw)
		if err != nil {
			b.Fatal(err)
		}
		for _, c := range checks[i] {
			if _, err := c.Check(ctx, tr); err != nil {
				b.Fatal(err)
			}
		}
	}
	for _, v := range []struct {
		name string
		run  func(int)
	}{{"baseline=handwritten", hand}, {"evalkit", evalkitRun}} {
		b.Run(v.name, func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				v.run(i % len(runs))
				i++
			}
		})
	}
	b.Run("paired/evalkit", func(b *testing.B) {
		i := 0
		ratio := benchdata.Paired(b, func() { hand(i % len(runs)) }, func() {
			evalkitRun(i % len(runs))
			i++
		})
		b.ReportMetric(ratio, "x-baseline")
	})
}

// runtimeAllocs is the process's count of heap allocations so far.
type runtimeAllocs struct{ mallocs uint64 }

func (a *runtimeAllocs) read() {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	a.mallocs = ms.Mallocs
}
