package evaltest

import (
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
	"github.com/evalkit-go/evalkit/calibrate"
	"github.com/evalkit-go/evalkit/internal/textnorm"
)

// Calibration is a judge measured against a human-labelled gold set (see
// T.Calibrate); its gates fail the test when the judge agrees with people
// less than they ask.
type Calibration struct {
	t      *T
	label  string
	report calibrate.Report
	judge  string // the judge line of the items' results: model and where verdicts came from
	ok     bool
	ran    bool // the items were judged: gates have figures to read
}

// Calibrate asks the T's judge (WithJudge, or the default of its judge
// set) about every item of gold, as Judge asks about an answer — the
// item's Input as the user's message, its Content as the assistant's, its
// Reference as assert.Reference — so the verdicts are recorded and
// replayed like any other (testdata/evalkit/<TestName>.judge.json). opts
// are Judge's, and say how a verdict becomes a pass (MinScore,
// PassingLabels; by default the judge's own pass/fail). It then compares
// the judge with the people: see calibrate.Report, whose summary it logs.
//
// It fails the test when a canary item gets the wrong verdict — the
// judge passed a known-bad answer or failed a known-good one — whatever
// the figures, so a judge that passes everything is caught; and it
// reports an evaluation error when an item could not be judged (the item
// is left out of the figures). The gates — AtLeastKappa, AtLeastAccuracy,
// AtLeastTPR, AtLeastTNR, AtLeastAlpha, MaxMeanScoreDiff — then fail it
// when a figure is below their bar, or cannot be computed. The summary
// is logged once; each failing gate is one line naming its figure, the
// figure's value and the bar:
//
//	Calibrate("refunds.jsonl"):
//	refunds.jsonl: 50 of 50 items judged
//	agreement: accuracy 0.820 (41 of 50), kappa 0.412, TPR 0.950 (19 of 20 passes), TNR 0.733 (22 of 30 fails)
//	confusion: people pass: judge pass 19, judge fail 1; people fail: judge pass 8, judge fail 22
//	judge: gpt-4.1-mini (replayed testdata/evalkit/TestJudgeAgrees.judge.json)
//	Calibrate("refunds.jsonl").AtLeastKappa(0.60): kappa 0.412, want >= 0.60
//	Calibrate("refunds.jsonl").AtLeastTNR(0.80): TNR 0.733, want >= 0.80
//
// Results files keep every figure on each gate's entry.
//
// The idea — measure an LLM judge against human labels before trusting it
// — is inspect_ai's and LangSmith's judge alignment, and the MT-Bench
// paper's agreement study (Zheng et al., 2023).
func (t *T) Calibrate(gold *calibrate.Gold, opts ...assert.JudgeOption) *Calibration {
	t.tb.Helper()
	c := &Calibration{t: t, label: calibrateLabel(gold, opts), ok: true}
	if gold == nil {
		c.settle(c.label, assert.Result{}, fmt.Errorf("no gold set: load one with calibrate.Load"), nil)
		return c
	}
	outcomes := make([]calibrate.Outcome, len(gold.Items))
	var firstErr *stepJudge
	for i, it := range gold.Items {
		step := t.stepJudge()
		if step == nil {
			c.settle(c.label, assert.Result{}, fmt.Errorf("%w: give evaltest.New the option evaltest.WithJudge(j)", assert.ErrNoJudge), nil)
			return c
		}
		o := opts
		if it.Reference != "" {
			o = append(slices.Clone(opts), assert.Reference(it.Reference))
		}
		res, err := runCheck(t.tb.Context(), assert.JudgeCheck(step, evalkit.ContentAnswer, it.Criteria, o...), itemTranscript(it))
		outcomes[i] = calibrate.Outcome{Passed: res.Passed, Score: res.Score, Err: err}
		switch {
		case err != nil && firstErr == nil:
			firstErr = step
		case err == nil && c.judge == "":
			if c.judge = detail(res, "judge"); c.judge != "" {
				c.judge += step.source()
			}
		}
	}
	rep, err := calibrate.Measure(gold, outcomes)
	if err != nil {
		c.settle(c.label, assert.Result{}, err, nil)
		return c
	}
	c.report, c.ran = rep, true
	summary := rep.Summary()
	if c.judge != "" {
		summary += "\njudge: " + c.judge
	}
	t.tb.Logf("%s:\n%s", c.label, summary) // once: a failing canary or gate names only its own figure
	if len(rep.Errors) > 0 {
		c.settle(c.label, assert.Result{}, itemErrors(rep), firstErr)
	}
	if failed := rep.FailedCanaries(); len(failed) > 0 {
		res := c.result(fmt.Sprintf("%d of %d %s wrong", len(failed), len(rep.Canaries), plural(int64(len(rep.Canaries)), "canary", "canaries")))
		for _, cn := range failed {
			res.Details = append([]assert.Detail{{Label: "canary", Text: strings.TrimPrefix(cn.String(), "canary ")}}, res.Details...)
		}
		c.settle(c.label, res, nil, nil)
	} else if len(rep.Errors) == 0 {
		res := c.result("")
		res.Passed, res.Score = true, clamp01(rep.Accuracy)
		c.observe(c.label, res, nil)
	}
	return c
}

// Report returns the figures; the zero Report when the items could not be
// judged at all.
func (c *Calibration) Report() calibrate.Report { return c.report }

// OK reports whether every canary and every gate so far passed and every
// item was judged.
func (c *Calibration) OK() bool { return c.ok }

// AtLeastKappa fails the test when Cohen's kappa between the judge and the
// people's pass/fail is below min (in [−1,1]; 0.6 is a common bar,
// "substantial agreement" from 0.61 in Landis and Koch, 1977). A gold set
// of one class (people pass every item) gives kappa 0, or undefined when
// the judge agrees on all, whatever the judge: gate it on AtLeastTPR, or
// add items people fail.
func (c *Calibration) AtLeastKappa(min float64) *Calibration {
	c.t.tb.Helper()
	return c.atLeast("AtLeastKappa", "kappa", c.report.Kappa, min, -1)
}

// AtLeastAccuracy fails the test when the share of items the judge labels
// as the people do is below min, in [0,1].
func (c *Calibration) AtLeastAccuracy(min float64) *Calibration {
	c.t.tb.Helper()
	return c.atLeast("AtLeastAccuracy", "accuracy", c.report.Accuracy, min, 0)
}

// AtLeastTPR fails the test when the judge passes less than min (in
// [0,1]) of the items people passed: a judge that fails good answers.
func (c *Calibration) AtLeastTPR(min float64) *Calibration {
	c.t.tb.Helper()
	return c.atLeast("AtLeastTPR", "TPR", c.report.TPR, min, 0)
}

// AtLeastTNR fails the test when the judge fails less than min (in [0,1])
// of the items people failed: a lenient judge, the costly kind, since it
// lets regressions through.
func (c *Calibration) AtLeastTNR(min float64) *Calibration {
	c.t.tb.Helper()
	return c.atLeast("AtLeastTNR", "TNR", c.report.TNR, min, 0)
}

// AtLeastAlpha fails the test when Krippendorff's alpha over the
// annotators' labels with the judge as one more annotator is below min (in
// [−1,1]; 0.667 is Krippendorff's bar for tentative conclusions). It needs
// items with annotators.
func (c *Calibration) AtLeastAlpha(min float64) *Calibration {
	c.t.tb.Helper()
	return c.atLeast("AtLeastAlpha", "alpha", c.report.Alpha, min, -1)
}

// MaxMeanScoreDiff fails the test when the judge's scores differ from the
// people's by more than max on average (absolute difference, scores in
// [0,1]). It needs items with scores.
func (c *Calibration) MaxMeanScoreDiff(max float64) *Calibration {
	c.t.tb.Helper()
	label := fmt.Sprintf("%s.MaxMeanScoreDiff(%s)", c.label, fmtBar(max))
	if !(max >= 0 && max <= 1) {
		c.settle(label, assert.Result{}, fmt.Errorf("the bar %v is outside [0,1], where a mean absolute score difference lies", max), nil)
		return c
	}
	if !c.ran {
		return c
	}
	got := c.report.MeanAbsDiff
	res := c.result("")
	switch {
	case math.IsNaN(got):
		res.Summary = "mean score difference undefined: " + c.report.Undefined["score alpha"]
	case got > max:
		res.Summary = fmt.Sprintf("mean score difference %.3f, want <= %s", got, fmtBar(max))
	default:
		res.Passed, res.Score = true, clamp01(1-got)
		c.observe(label, res, nil)
		return c
	}
	c.settle(label, res, nil, nil)
	return c
}

// atLeast is a gate: figure got (named name) must be at least min, a bar
// in [lowest,1]; a bar outside it, NaN included, is an error, never a
// gate that passes whatever the figure.
func (c *Calibration) atLeast(method, name string, got, min, lowest float64) *Calibration {
	c.t.tb.Helper()
	label := fmt.Sprintf("%s.%s(%s)", c.label, method, fmtBar(min))
	if !(min >= lowest && min <= 1) {
		c.settle(label, assert.Result{}, fmt.Errorf("the bar %v is outside [%v,1], where %s lies", min, lowest, name), nil)
		return c
	}
	if !c.ran {
		return c // the items could not be judged: already an error
	}
	res := c.result("")
	switch {
	case math.IsNaN(got):
		why := c.report.Undefined[name]
		res.Summary = fmt.Sprintf("%s undefined: %s", name, why)
	case got < min:
		res.Summary = fmt.Sprintf("%s %.3f, want >= %s", name, got, fmtBar(min))
	default:
		res.Passed, res.Score = true, clamp01(got)
		res.Summary = fmt.Sprintf("%s %.3f", name, got)
		c.observe(label, res, nil)
		return c
	}
	c.settle(label, res, nil, nil)
	return c
}

// result is a Result carrying the report's figures as labelled lines.
func (c *Calibration) result(summary string) assert.Result {
	lines := strings.Split(c.report.Summary(), "\n")[1:] // the first is the counts, in the label
	var details []assert.Detail
	for _, l := range lines {
		label, text, ok := strings.Cut(l, ": ")
		if ok && label != "error" {
			details = append(details, assert.Detail{Label: label, Text: text})
		}
	}
	if c.judge != "" {
		details = append(details, assert.Detail{Label: "judge", Text: c.judge})
	}
	return assert.Result{Summary: summary, Details: details}
}

// settle reports a failure (err nil) or an evaluation error, and writes
// its results line.
func (c *Calibration) settle(label string, res assert.Result, err error, step *stepJudge) {
	c.t.tb.Helper()
	c.ok = false
	n := step.noteFor(err)
	if n == nil {
		n = &note{}
	}
	// The message is the gate's own line (a failing canary's lines too):
	// the figures were logged once, and four failing gates must not print
	// them four times. The results file keeps them on every entry.
	printed := res
	printed.Details = slices.DeleteFunc(slices.Clone(res.Details), func(d assert.Detail) bool { return d.Label != "canary" })
	var b strings.Builder
	writeOutcome(&b, label, printed, err, n)
	if n.hint != "" {
		b.WriteString("\n" + n.hint)
	}
	msg := b.String()
	c.observe(label, res, err, msg)
	c.t.fail(msg, err != nil, false)
}

func (c *Calibration) observe(label string, res assert.Result, err error, msg ...string) {
	c.t.observe(label, "calibration", res, err, nil, strings.Join(msg, ""), nil, true)
}

// source says where the step's verdicts came from, as a judge line's
// suffix: " (replayed testdata/evalkit/TestX.judge.json)"; "" when none
// came through a recording.
func (s *stepJudge) source() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.rec == nil || len(s.origins) == 0 {
		return ""
	}
	how := s.origins[0].String()
	for _, o := range s.origins[1:] {
		if o != s.origins[0] {
			how = "replayed and recorded"
		}
	}
	return " (" + how + " " + filepath.ToSlash(s.rec.Path()) + ")"
}

// itemErrors is the error of the items the judge could not judge: how
// many, and the first few.
func itemErrors(r calibrate.Report) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%d of %d items could not be judged (left out of the figures)", len(r.Errors), r.Items)
	for i, e := range r.Errors {
		if i == maxItemErrors {
			fmt.Fprintf(&b, "; … and %d more", len(r.Errors)-maxItemErrors)
			break
		}
		fmt.Fprintf(&b, "; item %s: %v", strconv.Quote(e.ID), e.Err)
	}
	return fmt.Errorf("%s", b.String())
}

// maxItemErrors bounds the item errors a message lists.
const maxItemErrors = 3

func calibrateLabel(gold *calibrate.Gold, opts []assert.JudgeOption) string {
	name := "<nil>"
	if gold != nil {
		name = strconv.Quote(gold.Name)
	}
	args := []string{name}
	for _, o := range opts {
		args = append(args, o.String())
	}
	return textnorm.Excerpt("Calibrate("+strings.Join(args, ", ")+")", maxLabel)
}

// itemTranscript is the conversation an item stands for: the user's
// input, when it has one, and the answer.
func itemTranscript(it calibrate.Item) *evalkit.Transcript {
	tr := &evalkit.Transcript{}
	if it.Input != "" {
		tr.Messages = append(tr.Messages, evalkit.Message{Role: evalkit.RoleUser, Content: it.Input})
	}
	tr.Messages = append(tr.Messages, evalkit.Message{Role: evalkit.RoleAssistant, Content: it.Content})
	return tr
}

// detail returns the text of res's detail labelled label.
func detail(res assert.Result, label string) string {
	for _, d := range res.Details {
		if d.Label == label {
			return d.Text
		}
	}
	return ""
}

func fmtBar(f float64) string { return strconv.FormatFloat(f, 'f', 2, 64) }

func clamp01(f float64) float64 {
	if math.IsNaN(f) {
		return 0
	}
	return math.Max(0, math.Min(1, f))
}
