package evaltest_test

import (
	"testing"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/evaltest"
	"github.com/evalkit-go/evalkit/internal/benchdata"
)

// BenchmarkChainVsHandWritten is assert's benchmark of the same name
// through evaltest, as a test writes the chain: the fluent methods, and
// Eval with a case file's specs, each reporting to the test (t.Helper,
// the label in call syntax, the results line when there is a file to
// write). The baseline is the same hand-written Go. The target is ≤ 1.5×.
func BenchmarkChainVsHandWritten(b *testing.B) {
	tr, err := benchdata.TauAnswer()
	if err != nil {
		b.Fatal(err)
	}
	runs := benchdata.Variants(tr, 512)
	schema := benchdata.Schema()
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
	b.Run("evaltest.fluent", func(b *testing.B) {
		et := evaltest.New(b)
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			fluentChain(et, runs[i%len(runs)], schema)
			i++
		}
	})
	evalChain := func(et *evaltest.T, tr *evalkit.Transcript) {
		e := et.Expect(tr)
		for _, s := range specs {
			e.Eval(s.Type, s.Params)
		}
		if !e.OK() {
			panic("the chain failed")
		}
	}
	b.Run("evaltest.Eval", func(b *testing.B) {
		et := evaltest.New(b)
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			evalChain(et, runs[i%len(runs)])
			i++
		}
	})
	// Each iteration the baseline then the chain on one answer: x-baseline
	// is the chain's time over the baseline's, side by side
	// (benchdata.Paired).
	for _, c := range []struct {
		name  string
		chain func(et *evaltest.T, tr *evalkit.Transcript)
	}{
		{"evaltest.fluent", func(et *evaltest.T, tr *evalkit.Transcript) { fluentChain(et, tr, schema) }},
		{"evaltest.Eval", evalChain},
	} {
		chain := c.chain
		b.Run("paired/"+c.name, func(b *testing.B) {
			et := evaltest.New(b)
			i := 0
			ratio := benchdata.Paired(b, func() {
				if err := benchdata.HandWritten(runs[i%len(runs)]); err != nil {
					b.Fatal(err)
				}
			}, func() {
				chain(et, runs[i%len(runs)])
				i++
			})
			b.ReportMetric(ratio, "x-baseline")
		})
	}
}

// fluentChain is benchdata.Chain as a test writes it with evaltest.
func fluentChain(et *evaltest.T, tr *evalkit.Transcript, schema map[string]any) {
	e := et.Expect(tr).
		Contains("successfully updated", "FQ8APE").
		Regex(`"flight_number": "HAT\d{3}"`).
		JSONPath("reservation.reservation_id", "FQ8APE").
		JSONPath("reservation.total_baggages", 3).
		JSONPath("reservation.passengers[0].last_name", "Rossi").
		JSONSchema(schema).
		ToolsCalled("get_user_details", "update_reservation_baggages").
		ToolArgs("update_reservation_baggages", map[string]any{"reservation_id": "FQ8APE", "total_baggages": 3}).
		ToolCallSequence("get_user_details", "get_reservation_details", "update_reservation_passengers", "update_reservation_baggages").
		NoToolErrors()
	if !e.OK() {
		panic("the chain failed")
	}
}

// failureCountingTB keeps a benchmark's failing checks from failing it: the corpus
// chain fails on the runs τ-bench rewarded 0, as it should, and evaltest
// reports each failure (its message built, diff included) to Errorf.
type failureCountingTB struct {
	testing.TB
	failures int
}

func (q *failureCountingTB) Errorf(string, ...any) { q.failures++ }

// BenchmarkCorpusChain is assert's benchmark of the same name through
// evaltest: each real τ-bench run's eleven checks (benchdata.Run.Checks)
// as a case file gives them to Expect(tr).Eval, failures reported as a
// test reports them (the message built, the diff read), against the same
// checks by hand (benchdata.HandWrittenRun), paired. The target is ≤ 1.5×.
func BenchmarkCorpusChain(b *testing.B) {
	runs, err := benchdata.CorpusRuns()
	if err != nil {
		b.Fatal(err)
	}
	if runs, err = benchdata.CorpusVariants(runs, 4); err != nil {
		b.Fatal(err)
	}
	plain := make([][]benchdata.PlainMessage, len(runs))
	specs := make([][]benchdata.Spec, len(runs))
	for i := range runs {
		rec, err := benchdata.DecodePlain(runs[i].Raw)
		if err != nil {
			b.Fatal(err)
		}
		plain[i], specs[i] = rec.Msgs(), runs[i].Checks()
	}
	tb := &failureCountingTB{TB: b}
	et := evaltest.New(tb)
	hand := func(i int) { benchdata.HandWrittenRun(&runs[i], plain[i]) }
	eval := func(i int) {
		e := et.Expect(runs[i].Transcript)
		for _, s := range specs[i] {
			e.Eval(s.Type, s.Params)
		}
	}
	b.Run("baseline=handwritten", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			hand(i % len(runs))
			i++
		}
	})
	b.Run("evaltest.Eval", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			eval(i % len(runs))
			i++
		}
	})
	b.Run("paired/evaltest.Eval", func(b *testing.B) {
		i := 0
		ratio := benchdata.Paired(b, func() { hand(i % len(runs)) }, func() {
			eval(i % len(runs))
			i++
		})
		b.ReportMetric(ratio, "x-baseline")
	})
	if tb.failures == 0 {
		b.Fatal("no check failed on the corpus: the failing runs were not checked")
	}
}
