package stats_test

import (
	"fmt"
	"math/big"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit/stats"
)

// The worked examples of Wikipedia's "Cohen's kappa" article: 50
// applications read by two readers (20 yes/yes, 5 yes/no, 10 no/yes, 15
// no/no) give p_o 0.7, p_e 0.5, κ 0.4; and two tables of equal agreement
// (60 of 100) with different marginals give κ 0.1304 and 0.2593.
func TestCohenKappaAgainstWikipedia(t *testing.T) {
	for _, tt := range []struct {
		table [][]int
		want  float64
	}{
		{[][]int{{20, 5}, {10, 15}}, 0.4},
		{[][]int{{45, 15}, {25, 15}}, 0.1304},
		{[][]int{{25, 35}, {5, 35}}, 0.2593},
	} {
		k, err := stats.CohenKappa(tt.table)
		require.NoError(t, err)
		assert.InDelta(t, tt.want, k, 5e-5, "%v", tt.table)
	}
}

// Cohen (1960), "A Coefficient of Agreement for Nominal Scales", Table 1:
// 200 items in three categories, proportions .44 .07 .09 / .05 .20 .05 /
// .01 .03 .06; p_o = .70, p_c = .41, κ = .492.
func TestCohenKappaAgainstCohen1960(t *testing.T) {
	k, err := stats.CohenKappa([][]int{{88, 14, 18}, {10, 40, 10}, {2, 6, 12}})
	require.NoError(t, err)
	assert.InDelta(t, 0.492, k, 5e-4)
}

func TestCohenKappaEdges(t *testing.T) {
	perfect, err := stats.CohenKappa([][]int{{3, 0}, {0, 4}})
	require.NoError(t, err)
	assert.InDelta(t, 1, perfect, 1e-12)
	// An always-pass judge against people who pass 3 in 5: no agreement
	// beyond chance, however accurate it looks.
	always, err := stats.CohenKappa([][]int{{30, 0}, {20, 0}})
	require.NoError(t, err)
	assert.InDelta(t, 0, always, 1e-12)
	opposed, err := stats.CohenKappa([][]int{{0, 5}, {5, 0}})
	require.NoError(t, err)
	assert.InDelta(t, -1, opposed, 1e-12)

	for name, table := range map[string][][]int{
		"empty":        nil,
		"not square":   {{1, 2}, {3}},
		"negative":     {{1, -2}, {3, 4}},
		"no items":     {{0, 0}, {0, 0}},
		"one category": {{7, 0}, {0, 0}},
	} {
		_, err := stats.CohenKappa(table)
		assert.Error(t, err, name)
	}
	_, err = stats.CohenKappa([][]int{{1, 2}, {3}})
	assert.EqualError(t, err, "stats: Cohen's kappa: row 1 has 1 counts, want 2 (a square table)")
}

func TestConfusion(t *testing.T) {
	// Wikipedia's 50 applications, reader A as the reference.
	c := stats.Confusion{TP: 20, FN: 5, FP: 10, TN: 15}
	assert.Equal(t, 50, c.N())
	acc, err := c.Accuracy()
	require.NoError(t, err)
	assert.InDelta(t, 0.7, acc, 1e-12)
	tpr, err := c.TPR()
	require.NoError(t, err)
	assert.InDelta(t, 0.8, tpr, 1e-12)
	tnr, err := c.TNR()
	require.NoError(t, err)
	assert.InDelta(t, 0.6, tnr, 1e-12)
	k, err := c.Kappa()
	require.NoError(t, err)
	assert.InDelta(t, 0.4, k, 1e-12)

	_, err = stats.Confusion{FP: 2, TN: 3}.TPR()
	assert.EqualError(t, err, "stats: true-positive rate: the reference passes no item")
	_, err = stats.Confusion{TP: 2, FN: 3}.TNR()
	assert.EqualError(t, err, "stats: true-negative rate: the reference fails no item")
	_, err = stats.Confusion{}.Accuracy()
	assert.Error(t, err)
	_, err = stats.Confusion{TP: -1}.Kappa()
	assert.Error(t, err)
}

func ExampleConfusion() {
	// A judge against 50 human labels.
	c := stats.Confusion{TP: 20, FN: 5, FP: 10, TN: 15}
	acc, _ := c.Accuracy()
	k, _ := c.Kappa()
	tpr, _ := c.TPR()
	tnr, _ := c.TNR()
	fmt.Printf("accuracy %.2f, kappa %.2f, TPR %.2f, TNR %.2f\n", acc, k, tpr, tnr)
	// Output: accuracy 0.70, kappa 0.40, TPR 0.80, TNR 0.60
}

// κ is the exact rational rounded once: over every 2×2 table of up to 12
// per cell, it equals (n·agree − Σ rows·cols)/(n² − Σ rows·cols) in
// big.Rat, so a judge whose κ is exactly a bar (0.4, 0.6) meets it.
func TestCohenKappaIsExact(t *testing.T) {
	for tp := 0; tp <= 12; tp++ {
		for fn := 0; fn <= 12; fn++ {
			for fp := 0; fp <= 12; fp++ {
				for tn := 0; tn <= 12; tn++ {
					c := stats.Confusion{TP: tp, FN: fn, FP: fp, TN: tn}
					n := int64(c.N())
					chance := int64(tp+fn)*int64(tp+fp) + int64(fp+tn)*int64(fn+tn)
					got, err := c.Kappa()
					if n*n == chance {
						require.Error(t, err, "%+v", c)
						continue
					}
					require.NoError(t, err)
					want, _ := big.NewRat(n*int64(tp+tn)-chance, n*n-chance).Float64()
					require.Equal(t, want, got, "%+v", c)
				}
			}
		}
	}
	k, err := stats.CohenKappa([][]int{{1, 0}, {1, 1}})
	require.NoError(t, err)
	assert.Equal(t, 0.4, k)
	assert.False(t, k < 0.4, "at the bar, not below it")
}
