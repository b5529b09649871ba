package stats_test

import (
	"fmt"
	"math/big"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit/stats"
)

// Fagerland, Lydersen and Laake (2013), "The McNemar test for binary
// matched-pairs data: mid-p and asymptotic are better than exact
// conditional", BMC Medical Research Methodology 13:91: the airway
// hyper-responsiveness example (Bentur et al., 2009), 21 pairs of which 1
// changed one way and 7 the other; the exact conditional test gives
// P = 0.070.
func TestMcNemarExactAgainstFagerland(t *testing.T) {
	p, err := stats.McNemarExact(1, 7, stats.TwoSided)
	require.NoError(t, err)
	assert.InDelta(t, 0.070, p, 5e-4)
	assert.InDelta(t, 18.0/256, p, 1e-12, "2·(C(8,0)+C(8,1))/2⁸")
	swapped, err := stats.McNemarExact(7, 1, stats.TwoSided)
	require.NoError(t, err)
	assert.InDelta(t, p, swapped, 1e-12, "two-sided is symmetric")
}

// The one-sided tails are the binomial's, exactly: five checks flipped
// from pass to fail and none back is p = ½⁵ that the new run is worse.
func TestMcNemarExactTails(t *testing.T) {
	for _, tt := range []struct {
		b, c    int
		alt     stats.Alternative
		want    float64
		comment string
	}{
		{5, 0, stats.Greater, 1.0 / 32, "5 of 5 changes one way"},
		{5, 0, stats.TwoSided, 2.0 / 32, ""},
		{5, 0, stats.Less, 1, "P(X ≤ 5) of 5"},
		{0, 0, stats.TwoSided, 1, "nothing changed"},
		{0, 0, stats.Greater, 1, "nothing changed"},
		{3, 3, stats.TwoSided, 1, "capped at 1"},
		{1, 7, stats.Less, 9.0 / 256, ""},
		{7, 1, stats.Greater, 9.0 / 256, ""},
	} {
		p, err := stats.McNemarExact(tt.b, tt.c, tt.alt)
		require.NoError(t, err)
		assert.InDelta(t, tt.want, p, 1e-12, "b=%d c=%d %v %s", tt.b, tt.c, tt.alt, tt.comment)
	}
	big, err := stats.McNemarExact(600, 400, stats.Greater)
	require.NoError(t, err)
	assert.Less(t, big, 1e-9, "large counts: no overflow, a tiny p")
	assert.Greater(t, big, 0.0)

	_, err = stats.McNemarExact(-1, 2, stats.TwoSided)
	assert.Error(t, err)
	_, err = stats.McNemarExact(1, 2, stats.Alternative(7))
	assert.EqualError(t, err, "stats: McNemar's test: unknown alternative Alternative(7)")
}

// R's documentation of fisher.test: the tea-tasting experiment
// (TeaTasting <- matrix(c(3, 1, 1, 3), nrow = 2); alternative "greater":
// p-value = 0.2429; two-sided 0.4857) and the convictions of twins
// (Convictions <- matrix(c(2, 10, 15, 3), nrow = 2); alternative "less":
// p-value = 0.0004652).
func TestFisherExactAgainstR(t *testing.T) {
	for _, tt := range []struct {
		a, b, c, d int
		alt        stats.Alternative
		want, tol  float64 // tol: half the last digit R prints
	}{
		{3, 1, 1, 3, stats.Greater, 0.2429, 5e-5},
		{3, 1, 1, 3, stats.TwoSided, 0.4857, 5e-5},
		{2, 15, 10, 3, stats.Less, 0.0004652, 5e-8},
	} {
		p, err := stats.FisherExact(tt.a, tt.b, tt.c, tt.d, tt.alt)
		require.NoError(t, err)
		assert.InDelta(t, tt.want, p, tt.tol, "[[%d %d] [%d %d]] %v", tt.a, tt.b, tt.c, tt.d, tt.alt)
	}
}

func TestFisherExactEdges(t *testing.T) {
	same, err := stats.FisherExact(5, 5, 5, 5, stats.TwoSided)
	require.NoError(t, err)
	assert.InDelta(t, 1, same, 1e-9)
	empty, err := stats.FisherExact(0, 0, 0, 0, stats.Greater)
	require.NoError(t, err)
	assert.InDelta(t, 1, empty, 1e-12)
	// Two proportions far apart in large samples: tiny, not zero or NaN.
	p, err := stats.FisherExact(900, 100, 700, 300, stats.Greater)
	require.NoError(t, err)
	assert.Greater(t, p, 0.0)
	assert.Less(t, p, 1e-20)
	_, err = stats.FisherExact(1, -1, 1, 1, stats.TwoSided)
	assert.Error(t, err)
	_, err = stats.FisherExact(1, 1, 1, 1, stats.Alternative(-1))
	assert.Error(t, err)
}

func ExampleMcNemarExact() {
	// Base and new runs of the same 40 checks: 5 went from pass to fail,
	// none from fail to pass. Is the new run worse?
	p, _ := stats.McNemarExact(5, 0, stats.Greater)
	fmt.Printf("p = %.4f\n", p)
	// Output: p = 0.0312
}

// A p-value equal to a level is not below it: the exact rational, rounded
// once, is what the gate compares. Fisher's test of 3 of 3 passes against
// 0 of 3 is 1/C(6,3) = 1/20, and summing its terms from log-gamma gave
// 0.04999999999999996 — "significant at 0.05" — as it gave 0.4999999999999999
// for 3 of 5 changed pairs (McNemar, P(X ≥ 3) = 1/2).
func TestSignificanceAtTheLevel(t *testing.T) {
	p, err := stats.FisherExact(3, 0, 0, 3, stats.Greater)
	require.NoError(t, err)
	assert.Equal(t, 0.05, p, "1/20, exactly as the level 0.05 reads")
	assert.False(t, p < 0.05)
	p, err = stats.FisherExact(0, 3, 3, 0, stats.Less)
	require.NoError(t, err)
	assert.Equal(t, 0.05, p)
	p, err = stats.FisherExact(3, 0, 0, 3, stats.TwoSided)
	require.NoError(t, err)
	assert.Equal(t, 0.1, p)
	p, err = stats.McNemarExact(3, 2, stats.Greater)
	require.NoError(t, err)
	assert.Equal(t, 0.5, p)
}

// Every one-sided and two-sided McNemar p-value up to 60 changed pairs is
// the float64 nearest the exact binomial tail, counted in uint64.
func TestMcNemarExactIsExact(t *testing.T) {
	for n := 1; n <= 60; n++ {
		c := make([]uint64, n+1) // C(n, k)
		c[0] = 1
		for k := 1; k <= n; k++ {
			c[k] = c[k-1] * uint64(n-k+1) / uint64(k)
		}
		tail := func(from, to int) float64 {
			var s uint64
			for k := from; k <= to; k++ {
				s += c[k]
			}
			f, _ := new(big.Rat).SetFrac(new(big.Int).SetUint64(s), new(big.Int).Lsh(big.NewInt(1), uint(n))).Float64()
			return f
		}
		for b := 0; b <= n; b++ {
			p, err := stats.McNemarExact(b, n-b, stats.Greater)
			require.NoError(t, err)
			require.Equal(t, tail(b, n), p, "n=%d b=%d greater", n, b)
			p, err = stats.McNemarExact(b, n-b, stats.Less)
			require.NoError(t, err)
			require.Equal(t, tail(0, b), p, "n=%d b=%d less", n, b)
		}
	}
}

// FisherExact against the hypergeometric probabilities written with
// factorials, in exact rationals, over every table of up to 6 per cell;
// and the float64 path above ExactN agrees with the exact one below it.
func TestFisherExactIsExact(t *testing.T) {
	fact := func(n int) *big.Int { return new(big.Int).MulRange(1, int64(max(n, 1))) }
	prob := func(a, b, c, d int) *big.Rat {
		num := new(big.Int).Mul(fact(a+b), fact(c+d))
		num.Mul(num, fact(a+c))
		num.Mul(num, fact(b+d))
		den := new(big.Int).Mul(fact(a), fact(b))
		den.Mul(den, fact(c))
		den.Mul(den, fact(d))
		den.Mul(den, fact(a+b+c+d))
		return new(big.Rat).SetFrac(num, den)
	}
	for a := 0; a <= 6; a++ {
		for b := 0; b <= 6; b++ {
			for c := 0; c <= 6; c++ {
				for d := 0; d <= 6; d++ {
					greater, less := new(big.Rat), new(big.Rat)
					for x := 0; x <= a+b && x <= a+c; x++ {
						y := a + c - x // the table with x in a's cell, margins kept
						if y < 0 || b+a-x < 0 || d-a+x < 0 {
							continue
						}
						q := prob(x, a+b-x, y, d-a+x)
						if x >= a {
							greater.Add(greater, q)
						}
						if x <= a {
							less.Add(less, q)
						}
					}
					wantG, _ := greater.Float64()
					wantL, _ := less.Float64()
					p, err := stats.FisherExact(a, b, c, d, stats.Greater)
					require.NoError(t, err)
					require.Equal(t, min(1, wantG), p, "[[%d %d] [%d %d]] greater", a, b, c, d)
					p, err = stats.FisherExact(a, b, c, d, stats.Less)
					require.NoError(t, err)
					require.Equal(t, min(1, wantL), p, "[[%d %d] [%d %d]] less", a, b, c, d)
				}
			}
		}
	}
	// Both sides of ExactN: 2049+2048 items exact, 2049+2049 in float64.
	exact, err := stats.FisherExact(1100, 948, 1000, 1000, stats.Greater)
	require.NoError(t, err)
	float, err := stats.FisherExact(1100, 949, 1000, 1000, stats.Greater)
	require.NoError(t, err)
	assert.InEpsilon(t, exact, float, 0.05, "one more failure moves p a little")
	m1, err := stats.McNemarExact(2100, 1996, stats.Greater)
	require.NoError(t, err)
	m2, err := stats.McNemarExact(2100, 1997, stats.Greater)
	require.NoError(t, err)
	assert.Less(t, m1, m2)
	assert.InEpsilon(t, m1, m2, 0.2)
}
