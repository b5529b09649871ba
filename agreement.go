package evalkit

import (
	"errors"
	"fmt"
	"math"
)

// Spread is how far apart a panel's scored votes are: the highest valid
// vote's Score minus the lowest, in [0,1] (0: the judges agree). It reports
// false when fewer than two votes gave a score, a verdict that is not a
// panel's (no Votes) included.
func (v Verdict) Spread() (float64, bool) {
	lo, hi, n := 1.0, 0.0, 0
	for _, vote := range v.Votes {
		if vote.Err != "" || !vote.Verdict.Scored {
			continue
		}
		lo, hi, n = math.Min(lo, vote.Verdict.Score), math.Max(hi, vote.Verdict.Score), n+1
	}
	if n < 2 {
		return 0, false
	}
	return hi - lo, true
}

// Metric is the difference function of Krippendorff's alpha: how unlike
// two values are.
type Metric int

const (
	// Interval: the squared difference (a − b)², for scores.
	Interval Metric = iota + 1
	// Nominal: 0 for the same value, 1 for any other, for labels and
	// pass/fail.
	Nominal
)

// String returns "interval" or "nominal".
func (m Metric) String() string {
	switch m {
	case Interval:
		return "interval"
	case Nominal:
		return "nominal"
	}
	return fmt.Sprintf("Metric(%d)", int(m))
}

// MarshalText writes the metric's name, so JSON reads "interval".
func (m Metric) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// KrippendorffAlpha measures how far raters agree beyond chance:
// α = 1 − D_o/D_e, the disagreement observed within units over the
// disagreement expected from all values pooled (Krippendorff, "Computing
// Krippendorff's Alpha-Reliability", 2011). 1 is perfect agreement, 0 is
// agreement no better than chance, below 0 systematic disagreement; a
// common reading asks α ≥ 0.8 for reliable ratings and α ≥ 0.667 for
// tentative conclusions.
//
// data[u][r] is rater r's value for unit u (a judge's score for one graded
// answer); NaN is a missing value, and rows may differ in length. Units
// with fewer than two values are not pairable and are left out, as the
// method prescribes. It returns an error for an unknown metric, for fewer
// than two pairable values, for an infinite value, and when every
// pairable value is the same (no variation: α is 0/0).
func KrippendorffAlpha(data [][]float64, metric Metric) (float64, error) {
	if metric != Interval && metric != Nominal {
		return 0, fmt.Errorf("evalkit: Krippendorff's alpha: unknown metric %v", metric)
	}
	var units [][]float64
	n := 0
	for u, row := range data {
		var vals []float64
		for r, x := range row {
			switch {
			case math.IsNaN(x):
				continue
			case math.IsInf(x, 0):
				return 0, fmt.Errorf("evalkit: Krippendorff's alpha: unit %d, rater %d: %v is not a finite number", u, r, x)
			}
			vals = append(vals, x)
		}
		if len(vals) >= 2 {
			units = append(units, vals)
			n += len(vals)
		}
	}
	if n < 2 {
		return 0, errors.New("evalkit: Krippendorff's alpha: no unit has two values to compare")
	}
	observed := 0.0
	var pooled []float64
	for _, vals := range units {
		observed += pairSum(vals, metric) / float64(len(vals)-1)
		pooled = append(pooled, vals...)
	}
	observed /= float64(n)
	expected := pairSum(pooled, metric) / float64(n*(n-1))
	if expected == 0 {
		return 0, errors.New("evalkit: Krippendorff's alpha: every value is the same, so agreement beyond chance is undefined")
	}
	return 1 - observed/expected, nil
}

// pairSum is Σ δ(a, b) over the ordered pairs of distinct positions of vals,
// in O(len(vals)): for Interval 2(nΣx² − (Σx)²), for Nominal n² − Σ n_k².
func pairSum(vals []float64, metric Metric) float64 {
	n := float64(len(vals))
	if metric == Nominal {
		counts := map[float64]float64{}
		for _, x := range vals {
			counts[x]++
		}
		same := 0.0
		for _, c := range counts {
			same += c * c
		}
		return n*n - same
	}
	// Centred first, so large equal offsets cannot cancel catastrophically.
	mean := 0.0
	for _, x := range vals {
		mean += x
	}
	mean /= n
	ss := 0.0
	for _, x := range vals {
		ss += (x - mean) * (x - mean)
	}
	return 2 * n * ss
}

// Agreement is how far a panel's judges agreed over a run of verdicts.
type Agreement struct {
	// Alpha is Krippendorff's alpha over the run (see KrippendorffAlpha).
	Alpha float64 `json:"alpha"`
	// Metric is Interval over scores, or Nominal over labels or pass/fail.
	Metric Metric `json:"metric"`
	// Units counts the verdicts with at least two valid votes.
	Units int `json:"units"`
	// Judges is the largest panel among the verdicts.
	Judges int `json:"judges"`
	// Missing counts the votes that gave no verdict (missing data).
	Missing int `json:"missing"`
}

// PanelAgreement measures the agreement of a panel's judges over a run:
// each verdict (made by Panel, so it holds Votes) is a unit, and member i
// of each panel is rater i; a vote that gave no verdict is missing data.
// When every valid vote has a score, the metric is Interval over scores;
// else, when every one has a label, Nominal over labels; else Nominal over
// pass/fail. Verdicts replayed from a recording keep their votes, so a
// replayed run measures what the recorded one did. Errors are
// KrippendorffAlpha's, and a vote with none of the three.
func PanelAgreement(verdicts []Verdict) (Agreement, error) {
	a := Agreement{Metric: Interval}
	for _, v := range verdicts {
		a.Judges = max(a.Judges, len(v.Votes))
		for _, vote := range v.Votes {
			switch {
			case vote.Err != "":
				a.Missing++
			case !vote.Verdict.Scored && a.Metric == Interval:
				a.Metric = Nominal
			}
		}
	}
	byLabel := true
	for _, v := range verdicts {
		for _, vote := range v.Votes {
			if vote.Err == "" && vote.Verdict.Label == "" {
				byLabel = false
			}
		}
	}
	codes := map[string]float64{}
	data := make([][]float64, len(verdicts))
	for u, v := range verdicts {
		row := make([]float64, len(v.Votes))
		for r, vote := range v.Votes {
			switch {
			case vote.Err != "":
				row[r] = math.NaN()
			case a.Metric == Interval:
				row[r] = vote.Verdict.Score
			case byLabel:
				code, ok := codes[vote.Verdict.Label]
				if !ok {
					code = float64(len(codes))
					codes[vote.Verdict.Label] = code
				}
				row[r] = code
			case vote.Verdict.Passed != nil:
				row[r] = 0
				if *vote.Verdict.Passed {
					row[r] = 1
				}
			default:
				return Agreement{}, fmt.Errorf("evalkit: panel agreement: verdict %d, %s: no score, label or pass/fail to compare", u, vote.Judge)
			}
		}
		if countValid(row) >= 2 {
			a.Units++
		}
		data[u] = row
	}
	alpha, err := KrippendorffAlpha(data, a.Metric)
	if err != nil {
		return Agreement{}, fmt.Errorf("evalkit: panel agreement: %w", err)
	}
	a.Alpha = alpha
	return a, nil
}

func countValid(row []float64) int {
	n := 0
	for _, x := range row {
		if !math.IsNaN(x) {
			n++
		}
	}
	return n
}
