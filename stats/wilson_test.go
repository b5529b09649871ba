package stats_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit/stats"
)

// Newcombe (1998), "Two-sided confidence intervals for the single
// proportion", Table II, method 3 (Wilson score, no continuity correction).
func TestWilsonAgainstNewcombe(t *testing.T) {
	tests := []struct {
		c, n   int
		lo, hi float64
	}{
		{81, 263, 0.2553, 0.3662},
		{15, 148, 0.0624, 0.1605},
		{0, 20, 0, 0.1611},
		{1, 29, 0.0061, 0.1718},
		{8, 10, 0.4902, 0.9433},
		{10, 10, 0.7225, 1},
	}
	for _, tt := range tests {
		lo, err := stats.WilsonLower(tt.c, tt.n, 0.95)
		require.NoError(t, err)
		hi, err := stats.WilsonUpper(tt.c, tt.n, 0.95)
		require.NoError(t, err)
		assert.InDelta(t, tt.lo, lo, 5e-5, "lower bound of %d/%d", tt.c, tt.n)
		assert.InDelta(t, tt.hi, hi, 5e-5, "upper bound of %d/%d", tt.c, tt.n)
		both, bothHi, err := stats.Wilson(tt.c, tt.n, 0.95)
		require.NoError(t, err)
		assert.Equal(t, [2]float64{lo, hi}, [2]float64{both, bothHi})
	}
	assert.InDelta(t, 1.959964, stats.ZScore(0.95), 1e-6)
	assert.InDelta(t, 2.575829, stats.ZScore(0.99), 1e-6)
	for _, bad := range []struct {
		c, n  int
		level float64
	}{{1, 0, 0.95}, {3, 2, 0.95}, {-1, 2, 0.95}, {1, 2, 0}, {1, 2, 1}, {1, 2, math.NaN()}} {
		_, err := stats.WilsonLower(bad.c, bad.n, bad.level)
		assert.Error(t, err, "%+v", bad)
	}
}

// The lower bound does what a gate needs: a true rate lies below it
// rarely. Exactly, over the binomial distribution, on a grid of true rates:
// at 95% the true rate is at or above the lower bound with probability
// about 97.5% on average over the rates (one side of a two-sided interval), and
// at least 94% at every rate from 0.5 up — so a gate at a rate r passes an
// agent whose true rate is below r at most 6% of the time. Below 0.5 and
// near 0 the coverage dips further, as Brown, Cai and DasGupta (2001)
// describe for every binomial interval.
func TestWilsonLowerBoundCoverage(t *testing.T) {
	for _, n := range []int{5, 10, 20, 50, 100} {
		sum, count, worst := 0.0, 0, 1.0
		for i := 1; i < 200; i++ {
			p := float64(i) / 200
			covered := 0.0
			for c := 0; c <= n; c++ {
				lo, err := stats.WilsonLower(c, n, 0.95)
				require.NoError(t, err)
				if lo <= p {
					covered += binomialPMF(n, c, p)
				}
			}
			sum, count = sum+covered, count+1
			if p >= 0.5 {
				worst = math.Min(worst, covered)
			}
		}
		assert.GreaterOrEqual(t, sum/float64(count), 0.97, "mean coverage of the lower bound at n=%d", n)
		assert.GreaterOrEqual(t, worst, 0.94, "least coverage of the lower bound for rates >= 0.5 at n=%d", n)
	}
}
