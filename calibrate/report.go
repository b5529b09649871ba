package calibrate

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/evalkit-go/evalkit/stats"
)

// Outcome is what the judge made of one item: its pass or fail and its
// score in [0,1], or the error that kept it from judging.
type Outcome struct {
	Passed bool
	Score  float64
	Err    error
}

// Report is how far a judge agrees with the people who labelled a gold
// set. A figure that cannot be computed — kappa when everyone passed
// everything, TPR with no item people passed — is NaN, and Undefined says
// why; a gate on it fails.
type Report struct {
	// Gold names the gold set.
	Gold string
	// Items counts the items; Judged those the judge answered.
	Items, Judged int
	// Errors are the items the judge could not judge, in order: they are
	// left out of every figure, and fail a calibration.
	Errors []ItemError
	// Confusion is the judge's pass/fail against the people's, over the
	// judged items with a label or annotators.
	Confusion stats.Confusion
	// Accuracy, Kappa (Cohen's), TPR and TNR are Confusion's, in [0,1]
	// (Kappa in [−1,1]).
	Accuracy, Kappa, TPR, TNR float64
	// Annotators counts the annotators named across the items.
	Annotators int
	// Alpha is Krippendorff's alpha (nominal) over the annotators' labels
	// with the judge as one more annotator; HumanAlpha is the annotators'
	// among themselves, the agreement a judge can hope to reach. NaN
	// without annotators.
	Alpha, HumanAlpha float64
	// Scored counts the judged items with a human score; ScoreAlpha is
	// Krippendorff's alpha (interval) of the human and judge scores over
	// them, MeanAbsDiff and MaxAbsDiff their absolute differences. NaN
	// when no item has a score.
	Scored                              int
	ScoreAlpha, MeanAbsDiff, MaxAbsDiff float64
	// Canaries are the canary items and what the judge made of them.
	Canaries []Canary
	// Undefined says, by figure name ("kappa", "TPR", ...), why a figure
	// is NaN.
	Undefined map[string]string
}

// ItemError is an item the judge could not judge.
type ItemError struct {
	ID  string
	Err error
}

// Canary is a canary item's outcome: Want is the people's verdict, Got
// the judge's.
type Canary struct {
	ID        string
	Want, Got bool
}

// OK reports whether the judge gave the canary its verdict.
func (c Canary) OK() bool { return c.Want == c.Got }

// FailedCanaries returns the canaries the judge got wrong.
func (r Report) FailedCanaries() []Canary {
	var out []Canary
	for _, c := range r.Canaries {
		if !c.OK() {
			out = append(out, c)
		}
	}
	return out
}

// Measure computes the report of a judge's outcomes on gold, one per item
// in order; an item whose outcome has an error is left out of the figures
// and listed in Errors. It returns an error for a count of outcomes other
// than the items', and for a score outside [0,1].
func Measure(gold *Gold, outcomes []Outcome) (Report, error) {
	if gold == nil {
		return Report{}, errors.New("calibrate: no gold set")
	}
	if len(outcomes) != len(gold.Items) {
		return Report{}, fmt.Errorf("calibrate: %d outcomes for the %d items of %s", len(outcomes), len(gold.Items), gold.Name)
	}
	r := Report{Gold: gold.Name, Items: len(gold.Items), Undefined: map[string]string{}}
	var names []string
	for _, it := range gold.Items {
		for name := range it.Annotators {
			if !slices.Contains(names, name) {
				names = append(names, name)
			}
		}
	}
	slices.Sort(names)
	r.Annotators = len(names)
	var withJudge, humans, scores [][]float64
	sumDiff := 0.0
	for i, it := range gold.Items {
		o := outcomes[i]
		if o.Err != nil {
			r.Errors = append(r.Errors, ItemError{ID: it.ID, Err: o.Err})
			continue
		}
		if !(o.Score >= 0 && o.Score <= 1) {
			return Report{}, fmt.Errorf("calibrate: item %q: the judge's score %v is outside [0,1]", it.ID, o.Score)
		}
		r.Judged++
		if pass, ok := it.Passes(); ok {
			switch {
			case pass && o.Passed:
				r.Confusion.TP++
			case pass:
				r.Confusion.FN++
			case o.Passed:
				r.Confusion.FP++
			default:
				r.Confusion.TN++
			}
			if it.Canary {
				r.Canaries = append(r.Canaries, Canary{ID: it.ID, Want: pass, Got: o.Passed})
			}
		}
		if len(it.Annotators) > 0 {
			row := make([]float64, len(names))
			for j, name := range names {
				switch it.Annotators[name] {
				case "pass":
					row[j] = 1
				case "fail":
					row[j] = 0
				default:
					row[j] = math.NaN() // not this annotator's item
				}
			}
			humans = append(humans, row)
			withJudge = append(withJudge, append(slices.Clone(row), bit(o.Passed)))
		}
		if it.Score != nil {
			r.Scored++
			d := math.Abs(*it.Score - o.Score)
			sumDiff += d
			r.MaxAbsDiff = math.Max(r.MaxAbsDiff, d)
			scores = append(scores, []float64{*it.Score, o.Score})
		}
	}
	figure := func(name string, v float64, err error) float64 {
		if err != nil {
			r.Undefined[name] = strings.TrimPrefix(err.Error(), "stats: ")
			return math.NaN()
		}
		return v
	}
	acc, err := r.Confusion.Accuracy()
	r.Accuracy = figure("accuracy", acc, err)
	k, err := r.Confusion.Kappa()
	r.Kappa = figure("kappa", k, err)
	tpr, err := r.Confusion.TPR()
	r.TPR = figure("TPR", tpr, err)
	tnr, err := r.Confusion.TNR()
	r.TNR = figure("TNR", tnr, err)
	if len(humans) == 0 {
		r.Alpha, r.HumanAlpha = math.NaN(), math.NaN()
		r.Undefined["alpha"] = "no item has annotators"
	} else {
		a, err := stats.KrippendorffAlpha(withJudge, stats.Nominal)
		r.Alpha = figure("alpha", a, err)
		h, err := stats.KrippendorffAlpha(humans, stats.Nominal)
		r.HumanAlpha = figure("human alpha", h, err)
	}
	if r.Scored == 0 {
		r.ScoreAlpha, r.MeanAbsDiff, r.MaxAbsDiff = math.NaN(), math.NaN(), math.NaN()
		r.Undefined["score alpha"] = "no judged item has a human score"
	} else {
		r.MeanAbsDiff = sumDiff / float64(r.Scored)
		a, err := stats.KrippendorffAlpha(scores, stats.Interval)
		r.ScoreAlpha = figure("score alpha", a, err)
	}
	return r, nil
}

func bit(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// Summary is the report in a few lines: agreement, the confusion table,
// the annotators' alpha, score agreement, canaries and errors.
func (r Report) Summary() string {
	var b strings.Builder
	c := r.Confusion
	fmt.Fprintf(&b, "%s: %d of %d items judged", r.Gold, r.Judged, r.Items)
	if len(r.Errors) > 0 {
		fmt.Fprintf(&b, " (%d could not be)", len(r.Errors))
	}
	fmt.Fprintf(&b, "\nagreement: accuracy %s (%d of %d), kappa %s, TPR %s (%d of %d passes), TNR %s (%d of %d fails)\n",
		fig(r.Accuracy), c.TP+c.TN, c.N(), fig(r.Kappa), fig(r.TPR), c.TP, c.TP+c.FN, fig(r.TNR), c.TN, c.TN+c.FP)
	fmt.Fprintf(&b, "confusion: people pass: judge pass %d, judge fail %d; people fail: judge pass %d, judge fail %d\n", c.TP, c.FN, c.FP, c.TN)
	if r.Annotators > 0 {
		fmt.Fprintf(&b, "annotators: %d; Krippendorff's alpha %s with the judge, %s among themselves\n", r.Annotators, fig(r.Alpha), fig(r.HumanAlpha))
	}
	if r.Scored > 0 {
		fmt.Fprintf(&b, "scores: %d items; Krippendorff's alpha (interval) %s; mean absolute difference %.3f, max %.3f\n", r.Scored, fig(r.ScoreAlpha), r.MeanAbsDiff, r.MaxAbsDiff)
	}
	if len(r.Canaries) > 0 {
		failed := r.FailedCanaries()
		fmt.Fprintf(&b, "canaries: %d of %d as they must be", len(r.Canaries)-len(failed), len(r.Canaries))
		for _, cn := range failed {
			fmt.Fprintf(&b, "; %s", cn)
		}
		b.WriteString("\n")
	}
	for _, e := range r.Errors {
		fmt.Fprintf(&b, "error: item %q: %v\n", e.ID, e.Err)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// String says what went wrong with a canary, or that nothing did.
func (c Canary) String() string {
	switch {
	case c.OK():
		return fmt.Sprintf("canary %q: %s, as it must", c.ID, passFail(c.Got))
	case c.Want:
		return fmt.Sprintf("canary %q: the judge failed a known-good answer", c.ID)
	}
	return fmt.Sprintf("canary %q: the judge passed a known-bad answer", c.ID)
}

func passFail(b bool) string {
	if b {
		return "pass"
	}
	return "fail"
}

// fig writes a figure to three decimals, or "undefined".
func fig(f float64) string {
	if math.IsNaN(f) {
		return "undefined"
	}
	return fmt.Sprintf("%.3f", f)
}
