package evalkit

import (
	"fmt"
	"math"

	"github.com/evalkit-go/evalkit/stats"
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

// Agreement is how far a panel's judges agreed over a run of verdicts.
type Agreement struct {
	// Alpha is Krippendorff's alpha over the run (see stats.KrippendorffAlpha).
	Alpha float64 `json:"alpha"`
	// Metric is Interval over scores, or Nominal over labels or pass/fail.
	Metric stats.Metric `json:"metric"`
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
// stats.KrippendorffAlpha's, and a vote with none of the three.
func PanelAgreement(verdicts []Verdict) (Agreement, error) {
	a := Agreement{Metric: stats.Interval}
	for _, v := range verdicts {
		a.Judges = max(a.Judges, len(v.Votes))
		for _, vote := range v.Votes {
			switch {
			case vote.Err != "":
				a.Missing++
			case !vote.Verdict.Scored && a.Metric == stats.Interval:
				a.Metric = stats.Nominal
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
			case a.Metric == stats.Interval:
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
	alpha, err := stats.KrippendorffAlpha(data, a.Metric)
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
