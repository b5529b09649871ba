package stats_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit/stats"
)

// Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability",
// section C: four observers, twelve units, missing values. The paper
// gives α = 0.743 (nominal) and 0.849 (interval).
func TestKrippendorffAlphaAgainstThePaper(t *testing.T) {
	x := math.NaN()
	observers := [][]float64{
		{1, 2, 3, 3, 2, 1, 4, 1, 2, x, x, x},
		{1, 2, 3, 3, 2, 2, 4, 1, 2, 5, x, 3},
		{x, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, x},
		{1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, x},
	}
	units := make([][]float64, 12)
	for u := range units {
		for _, o := range observers {
			units[u] = append(units[u], o[u])
		}
	}
	nominal, err := stats.KrippendorffAlpha(units, stats.Nominal)
	require.NoError(t, err)
	assert.InDelta(t, 0.743, nominal, 5e-4)
	interval, err := stats.KrippendorffAlpha(units, stats.Interval)
	require.NoError(t, err)
	assert.InDelta(t, 0.849, interval, 5e-4)
}

func TestKrippendorffAlphaEdges(t *testing.T) {
	perfect, err := stats.KrippendorffAlpha([][]float64{{1, 1}, {3, 3}, {5, 5}}, stats.Interval)
	require.NoError(t, err)
	assert.InDelta(t, 1, perfect, 1e-12)
	opposed, err := stats.KrippendorffAlpha([][]float64{{0, 1}, {1, 0}}, stats.Nominal)
	require.NoError(t, err)
	assert.Less(t, opposed, 0.0, "systematic disagreement")
	shifted, err := stats.KrippendorffAlpha([][]float64{{1e9 + 1, 1e9 + 1}, {1e9 + 3, 1e9 + 3}, {1e9 + 2, 1e9 + 5}}, stats.Interval)
	require.NoError(t, err)
	small, err := stats.KrippendorffAlpha([][]float64{{1, 1}, {3, 3}, {2, 5}}, stats.Interval)
	require.NoError(t, err)
	assert.InDelta(t, small, shifted, 1e-6, "a shift of every value changes nothing")

	for name, data := range map[string][][]float64{
		"no pairable unit": {{1, math.NaN()}, {2}},
		"no variation":     {{2, 2}, {2, 2}},
		"infinite":         {{1, math.Inf(1)}},
	} {
		_, err := stats.KrippendorffAlpha(data, stats.Interval)
		assert.Error(t, err, name)
	}
	_, err = stats.KrippendorffAlpha([][]float64{{1, 2}}, stats.Metric(9))
	assert.EqualError(t, err, "stats: Krippendorff's alpha: unknown metric Metric(9)")
}
