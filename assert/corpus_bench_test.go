package assert_test

import (
	"context"
	"strings"
	"testing"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
	"github.com/evalkit-go/evalkit/internal/benchdata"
)

// corpusCopies is how many copies of each run the corpus benchmarks cycle
// through (22 runs each): more answers than the parse cache holds, so a
// run's checks parse its answer once, as a test checking the run does.
const corpusCopies = 4

// corpus is every bundled real τ-bench run with its answer, in
// corpusCopies copies, beside the same runs decoded into plain structs
// for the hand-written checks, and each run's eleven checks built once.
type corpus struct {
	runs   []benchdata.Run
	plain  [][]benchdata.PlainMessage
	checks [][]assert.Check
}

func loadCorpus(tb testing.TB) *corpus {
	tb.Helper()
	runs, err := benchdata.CorpusRuns()
	if err != nil {
		tb.Fatal(err)
	}
	if runs, err = benchdata.CorpusVariants(runs, corpusCopies); err != nil {
		tb.Fatal(err)
	}
	c := &corpus{runs: runs}
	reg := assert.NewRegistry()
	for i := range runs {
		rec, err := benchdata.DecodePlain(runs[i].Raw)
		if err != nil {
			tb.Fatal(err)
		}
		c.plain = append(c.plain, rec.Msgs())
		var checks []assert.Check
		for _, s := range runs[i].Checks() {
			ch, err := reg.Build(s.Type, s.Params)
			if err != nil {
				tb.Fatal(runs[i].Name, s.Type, err)
			}
			checks = append(checks, ch)
		}
		c.checks = append(c.checks, checks)
	}
	return c
}

// TestCorpusHandWrittenAgrees: on every run of the corpus, the
// hand-written checks the benchmarks measure evalkit against fail exactly
// where evalkit's checks fail, so the two do the same work to the same
// verdicts; and the corpus holds failing runs.
func TestCorpusHandWrittenAgrees(t *testing.T) {
	c := loadCorpus(t)
	ctx := context.Background()
	failing := map[string]int{}
	for i := range c.runs[:len(c.runs)/corpusCopies] {
		r := &c.runs[i]
		specs := r.Checks()
		h := benchdata.NewHand(r, c.plain[i])
		for j, ch := range c.checks[i] {
			res, err := ch.Check(ctx, r.Transcript)
			if err != nil {
				t.Fatalf("%s: %s: %v", r.Name, specs[j].Type, err)
			}
			hand := h.Check(j)
			if res.Passed != (hand == "") {
				t.Errorf("%s: %s: evalkit passed=%v (%s), hand-written %q", r.Name, specs[j].Type, res.Passed, res.Summary, hand)
			}
			if hand != "" && !strings.HasPrefix(hand, specs[j].Type+":") {
				t.Errorf("%s: check %d is %s, the hand-written failure says %q", r.Name, j, specs[j].Type, hand)
			}
			if !res.Passed {
				failing[specs[j].Type]++
			}
		}
	}
	t.Logf("failing checks by type over %d runs: %v", len(c.runs)/corpusCopies, failing)
	if failing["tool_args"] == 0 || failing["no_tool_errors"] == 0 {
		t.Errorf("the corpus has no failing tool_args or no_tool_errors: %v", failing)
	}
}

// BenchmarkCorpusChain runs each real τ-bench run's eleven checks
// (benchdata.Run.Checks: contains, content_excludes, regex, json_path ×3,
// json_schema, tools_called, tool_args, tool_call_sequence,
// no_tool_errors), failures included, one run per iteration in turn
// through the corpus: through checks built once (assert.Check), through
// assert.Eval with the specs as a case file gives them, and, the
// baseline, by hand on the same run decoded into plain structs
// (benchdata.HandWrittenRun). The paired variants time the baseline and
// evalkit alternately on the same run (benchdata.Paired). The target is
// evalkit ≤ 1.5× the baseline.
func BenchmarkCorpusChain(b *testing.B) {
	c := loadCorpus(b)
	ctx := context.Background()
	specs := make([][]benchdata.Spec, len(c.runs))
	for i := range c.runs {
		specs[i] = c.runs[i].Checks()
	}
	hand := func(i int) {
		benchdata.HandWrittenRun(&c.runs[i], c.plain[i])
	}
	check := func(i int) {
		for _, ch := range c.checks[i] {
			if _, err := ch.Check(ctx, c.runs[i].Transcript); err != nil {
				b.Fatal(err)
			}
		}
	}
	eval := func(i int) {
		for _, s := range specs[i] {
			if _, err := assert.Eval(ctx, s.Type, c.runs[i].Transcript, s.Params); err != nil {
				b.Fatal(err)
			}
		}
	}
	for _, v := range []struct {
		name string
		run  func(int)
	}{{"baseline=handwritten", hand}, {"assert.Check", check}, {"assert.Eval", eval}} {
		b.Run(v.name, func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				v.run(i % len(c.runs))
				i++
			}
		})
	}
	for _, v := range []struct {
		name string
		run  func(int)
	}{{"assert.Check", check}, {"assert.Eval", eval}} {
		b.Run("paired/"+v.name, func(b *testing.B) {
			i := 0
			ratio := benchdata.Paired(b, func() { hand(i % len(c.runs)) }, func() {
				v.run(i % len(c.runs))
				i++
			})
			b.ReportMetric(ratio, "x-baseline")
		})
	}
}

// BenchmarkCorpusChecks runs each check type of the corpus chain alone
// over the corpus, beside the same check written by hand (each doing the
// work it needs: finding the answer, decoding it, linking the calls),
// paired: x-baseline is the check's time over the hand-written one's.
func BenchmarkCorpusChecks(b *testing.B) {
	c := loadCorpus(b)
	ctx := context.Background()
	names := []string{"contains", "content_excludes", "regex", "json_path_user", "json_path_tool0", "json_path_record",
		"json_schema", "tools_called", "tool_args", "tool_call_sequence", "no_tool_errors"}
	for j, name := range names {
		b.Run(name, func(b *testing.B) {
			i := 0
			ratio := benchdata.Paired(b, func() {
				k := i % len(c.runs)
				benchdata.NewHand(&c.runs[k], c.plain[k]).Check(j)
			}, func() {
				k := i % len(c.runs)
				if _, err := c.checks[k][j].Check(ctx, c.runs[k].Transcript); err != nil {
					b.Fatal(err)
				}
				i++
			})
			b.ReportMetric(ratio, "x-baseline")
		})
	}
}

// toolArgsTwins returns, for each corpus run whose ground-truth tool_args
// fails although every expected tool was called, the failing check and a
// passing twin: the same expected calls, each asking, of the ground
// truth's argument keys, the values of an actual call to its tool (the
// latest not taken by another), so the two differ only in the verdict.
func toolArgsTwins(tb testing.TB) (names []string, failing, passing []assert.Check, trs []*evalkit.Transcript) {
	tb.Helper()
	runs, err := benchdata.CorpusRuns()
	if err != nil {
		tb.Fatal(err)
	}
	ctx := context.Background()
	for i := range runs {
		r := &runs[i]
		calls := r.Transcript.ToolCalls()
		used := make([]bool, len(calls))
		var want, twin []assert.ExpectedCall
		ok := true
		for _, a := range r.Expected {
			want = append(want, assert.ExpectedCall{Tool: a.Name, Args: a.Kwargs})
			pick := -1
			for j := len(calls) - 1; j >= 0; j-- {
				if !used[j] && calls[j].Name == a.Name {
					pick = j
					break
				}
			}
			if pick < 0 {
				ok = false
				break
			}
			used[pick] = true
			args, err := calls[pick].Arguments()
			if err != nil {
				ok = false
				break
			}
			kw := map[string]any{}
			for k := range a.Kwargs {
				if v, has := args[k]; has {
					kw[k] = v
				}
			}
			twin = append(twin, assert.ExpectedCall{Tool: a.Name, Args: kw})
		}
		if !ok {
			continue
		}
		f, p := assert.ToolArgs{Calls: want}, assert.ToolArgs{Calls: twin}
		fr, err1 := f.Check(ctx, r.Transcript)
		pr, err2 := p.Check(ctx, r.Transcript)
		if err1 != nil || err2 != nil || !pr.Passed {
			tb.Fatalf("%s: twin of tool_args: %v %v %s", r.Name, err1, err2, pr.Summary)
		}
		if fr.Passed {
			continue
		}
		names = append(names, r.Name)
		failing, passing, trs = append(failing, f), append(passing, p), append(trs, r.Transcript)
	}
	if len(names) == 0 {
		tb.Fatal("no failing tool_args run with a twin")
	}
	return names, failing, passing, trs
}

// BenchmarkCorpusToolArgs runs tool_args with the ground truth on the real
// runs it fails although every expected tool was called (each failure
// explains the closest call: the costly case), against the same check on
// the same runs with expected calls that pass (toolArgsTwins). The target
// is failing ≤ 3× passing. failing+diff also reads each failure's diff
// (Result.DiffText), as a failure message shows it.
func BenchmarkCorpusToolArgs(b *testing.B) {
	_, failing, passing, trs := toolArgsTwins(b)
	ctx := context.Background()
	all := func(checks []assert.Check, diff bool) func() {
		return func() {
			for i, c := range checks {
				res, err := c.Check(ctx, trs[i])
				if err != nil {
					b.Fatal(err)
				}
				if diff {
					_ = res.DiffText()
				}
			}
		}
	}
	for _, v := range []struct {
		name string
		run  func()
	}{{"baseline=passing", all(passing, false)}, {"failing", all(failing, false)}, {"failing+diff", all(failing, true)}} {
		b.Run(v.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				v.run()
			}
		})
	}
	b.Run("paired/failing", func(b *testing.B) {
		b.ReportMetric(benchdata.Paired(b, all(passing, false), all(failing, false)), "x-baseline")
	})
	b.Run("paired/failing+diff", func(b *testing.B) {
		b.ReportMetric(benchdata.Paired(b, all(passing, false), all(failing, true)), "x-baseline")
	})
}
