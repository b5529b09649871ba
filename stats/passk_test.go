package stats_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit/stats"
)

func TestPassHatKAndPassAtK(t *testing.T) {
	tests := []struct {
		n, c, k   int
		hatK, atK float64
		comment   string
	}{
		{8, 6, 1, 0.75, 0.75, "k = 1: both are c/n"},
		{8, 6, 2, 15.0 / 28, 1 - 1.0/28, "C(6,2)/C(8,2); 1 − C(2,2)/C(8,2)"},
		{8, 6, 3, 20.0 / 56, 1, "fewer failures than k: every k-subset holds a success"},
		{8, 8, 8, 1, 1, "every attempt passed"},
		{8, 2, 3, 0, 1 - 20.0/56, "fewer successes than k: no k-subset is all successes"},
		{10, 0, 4, 0, 0, "no success"},
		{1000, 999, 500, 0.5, 1, "large n: the product form never overflows"},
	}
	for _, tt := range tests {
		hat, err := stats.PassHatK(tt.n, tt.c, tt.k)
		require.NoError(t, err)
		assert.InDelta(t, tt.hatK, hat, 1e-12, "pass^%d of %d/%d: %s", tt.k, tt.c, tt.n, tt.comment)
		at, err := stats.PassAtK(tt.n, tt.c, tt.k)
		require.NoError(t, err)
		assert.InDelta(t, tt.atK, at, 1e-12, "pass@%d of %d/%d: %s", tt.k, tt.c, tt.n, tt.comment)
	}
	for _, bad := range [][3]int{{stats.MaxKAttempts + 1, 1, 1}, {1 << 62, 1 << 62, 1 << 61}, {0, 0, 1}, {5, 6, 1}, {5, -1, 1}, {5, 2, 0}, {5, 2, 6}} {
		_, err := stats.PassHatK(bad[0], bad[1], bad[2])
		assert.Error(t, err, "pass^k%v", bad)
		_, err = stats.PassAtK(bad[0], bad[1], bad[2])
		assert.Error(t, err, "pass@k%v", bad)
	}
}

// The estimators are unbiased, as τ-bench and HumanEval say: over the
// binomial distribution of c for n attempts at a true rate p, the mean of
// C(c,k)/C(n,k) is exactly p^k, and of 1 − C(n−c,k)/C(n,k) exactly
// 1 − (1−p)^k. Exact sums, no sampling.
func TestPassKEstimatorsAreUnbiased(t *testing.T) {
	for _, n := range []int{4, 10, 25} {
		for _, p := range []float64{0.1, 0.5, 0.73, 0.95} {
			for k := 1; k <= n; k++ {
				meanHat, meanAt := 0.0, 0.0
				for c := 0; c <= n; c++ {
					w := binomialPMF(n, c, p)
					hat, err := stats.PassHatK(n, c, k)
					require.NoError(t, err)
					at, err := stats.PassAtK(n, c, k)
					require.NoError(t, err)
					meanHat += w * hat
					meanAt += w * at
				}
				assert.InDelta(t, math.Pow(p, float64(k)), meanHat, 1e-9, "E[pass^%d] for n=%d, p=%v", k, n, p)
				assert.InDelta(t, 1-math.Pow(1-p, float64(k)), meanAt, 1e-9, "E[pass@%d] for n=%d, p=%v", k, n, p)
			}
		}
	}
}

func binomialPMF(n, c int, p float64) float64 {
	lg := func(x int) float64 { v, _ := math.Lgamma(float64(x + 1)); return v }
	return math.Exp(lg(n) - lg(c) - lg(n-c) + float64(c)*math.Log(p) + float64(n-c)*math.Log1p(-p))
}

func ExamplePassHatK() {
	// A τ-bench-style report: 8 trials of a task, 6 passed.
	for _, k := range []int{1, 2, 4, 8} {
		hat, _ := stats.PassHatK(8, 6, k)
		at, _ := stats.PassAtK(8, 6, k)
		fmt.Printf("k=%d pass^k=%.3f pass@k=%.3f\n", k, hat, at)
	}
	lo, _ := stats.WilsonLower(6, 8, 0.95)
	fmt.Printf("Wilson lower bound at 95%%: %.3f\n", lo)
	// Output:
	// k=1 pass^k=0.750 pass@k=0.750
	// k=2 pass^k=0.536 pass@k=0.964
	// k=4 pass^k=0.214 pass@k=1.000
	// k=8 pass^k=0.000 pass@k=1.000
	// Wilson lower bound at 95%: 0.409
}
