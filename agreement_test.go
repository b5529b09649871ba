package evalkit_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/judgefake"
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
	nominal, err := evalkit.KrippendorffAlpha(units, evalkit.Nominal)
	require.NoError(t, err)
	assert.InDelta(t, 0.743, nominal, 5e-4)
	interval, err := evalkit.KrippendorffAlpha(units, evalkit.Interval)
	require.NoError(t, err)
	assert.InDelta(t, 0.849, interval, 5e-4)
}

func TestKrippendorffAlphaEdges(t *testing.T) {
	perfect, err := evalkit.KrippendorffAlpha([][]float64{{1, 1}, {3, 3}, {5, 5}}, evalkit.Interval)
	require.NoError(t, err)
	assert.InDelta(t, 1, perfect, 1e-12)
	opposed, err := evalkit.KrippendorffAlpha([][]float64{{0, 1}, {1, 0}}, evalkit.Nominal)
	require.NoError(t, err)
	assert.Less(t, opposed, 0.0, "systematic disagreement")
	shifted, err := evalkit.KrippendorffAlpha([][]float64{{1e9 + 1, 1e9 + 1}, {1e9 + 3, 1e9 + 3}, {1e9 + 2, 1e9 + 5}}, evalkit.Interval)
	require.NoError(t, err)
	small, err := evalkit.KrippendorffAlpha([][]float64{{1, 1}, {3, 3}, {2, 5}}, evalkit.Interval)
	require.NoError(t, err)
	assert.InDelta(t, small, shifted, 1e-6, "a shift of every value changes nothing")

	for name, data := range map[string][][]float64{
		"no pairable unit": {{1, math.NaN()}, {2}},
		"no variation":     {{2, 2}, {2, 2}},
		"infinite":         {{1, math.Inf(1)}},
	} {
		_, err := evalkit.KrippendorffAlpha(data, evalkit.Interval)
		assert.Error(t, err, name)
	}
	_, err = evalkit.KrippendorffAlpha([][]float64{{1, 2}}, evalkit.Metric(9))
	assert.EqualError(t, err, "evalkit: Krippendorff's alpha: unknown metric Metric(9)")
}

func TestSpreadAndPanelAgreement(t *testing.T) {
	fixed := func(score float64) evalkit.Judge { return judgefake.Fixed(evalkit.Verdict{Score: score, Scored: true}) }
	ask := func(p *evalkit.PanelJudge) evalkit.Verdict {
		v, err := p.Judge(context.Background(), panelReq)
		require.NoError(t, err)
		return v
	}
	agreeing := []evalkit.Verdict{
		ask(evalkit.Panel([]evalkit.Judge{fixed(0.9), fixed(0.8), fixed(0.9)}, evalkit.Mean)),
		ask(evalkit.Panel([]evalkit.Judge{fixed(0.2), fixed(0.3), fixed(0.2)}, evalkit.Mean)),
		ask(evalkit.Panel([]evalkit.Judge{fixed(0.5), fixed(0.6), judgefake.Err(fmt.Errorf("HTTP 503"))}, evalkit.Mean)),
	}
	spread, ok := agreeing[0].Spread()
	assert.True(t, ok)
	assert.InDelta(t, 0.1, spread, 1e-12)
	_, ok = evalkit.Verdict{Score: 1, Scored: true}.Spread()
	assert.False(t, ok, "not a panel's verdict")

	a, err := evalkit.PanelAgreement(agreeing)
	require.NoError(t, err)
	assert.Equal(t, evalkit.Interval, a.Metric)
	assert.Equal(t, 3, a.Units)
	assert.Equal(t, 3, a.Judges)
	assert.Equal(t, 1, a.Missing, "the failed vote is missing data")
	assert.Greater(t, a.Alpha, 0.9)

	yes, no := true, false
	pf := func(p bool) evalkit.Judge { return judgefake.Fixed(evalkit.Verdict{Passed: &p}) }
	split := []evalkit.Verdict{
		ask(evalkit.Panel([]evalkit.Judge{pf(yes), pf(no), pf(yes)}, evalkit.Majority)),
		ask(evalkit.Panel([]evalkit.Judge{pf(no), pf(yes), pf(no)}, evalkit.Majority)),
	}
	b, err := evalkit.PanelAgreement(split)
	require.NoError(t, err)
	assert.Equal(t, evalkit.Nominal, b.Metric)
	assert.Less(t, b.Alpha, 0.0, "judges that split on every item agree worse than chance")
}

// Three judges graded four answers; Krippendorff's alpha says how far
// their scores agree beyond chance.
func ExamplePanelAgreement() {
	scores := [][]float64{{0.9, 0.8, 0.9}, {0.2, 0.3, 0.2}, {0.6, 0.7, 0.5}, {0.1, 0.1, 0.3}}
	var run []evalkit.Verdict
	for _, s := range scores {
		judges := make([]evalkit.Judge, len(s))
		for i, score := range s {
			judges[i] = judgefake.Fixed(evalkit.Verdict{Score: score, Scored: true})
		}
		v, err := evalkit.Panel(judges, evalkit.Median).Judge(context.Background(), evalkit.JudgeRequest{Criteria: "Answers the question", Content: "..."})
		if err != nil {
			fmt.Println(err)
			return
		}
		spread, _ := v.Spread()
		fmt.Printf("median %.2f, spread %.2f\n", v.Score, spread)
		run = append(run, v)
	}
	a, err := evalkit.PanelAgreement(run)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("Krippendorff's alpha (%s) over %d verdicts: %.3f\n", a.Metric, a.Units, a.Alpha)
	// Output:
	// median 0.90, spread 0.10
	// median 0.20, spread 0.10
	// median 0.60, spread 0.20
	// median 0.10, spread 0.20
	// Krippendorff's alpha (interval) over 4 verdicts: 0.920
}
