package stats

import (
	"errors"
	"fmt"
	"math"
)

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
		return 0, fmt.Errorf("stats: Krippendorff's alpha: unknown metric %v", metric)
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
				return 0, fmt.Errorf("stats: Krippendorff's alpha: unit %d, rater %d: %v is not a finite number", u, r, x)
			}
			vals = append(vals, x)
		}
		if len(vals) >= 2 {
			units = append(units, vals)
			n += len(vals)
		}
	}
	if n < 2 {
		return 0, errors.New("stats: Krippendorff's alpha: no unit has two values to compare")
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
		return 0, errors.New("stats: Krippendorff's alpha: every value is the same, so agreement beyond chance is undefined")
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
