package stats_test

import (
	"fmt"
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
