package evalkit_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/judgefake"
	"github.com/evalkit-go/evalkit/stats"
)

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
	assert.Equal(t, stats.Interval, a.Metric)
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
	assert.Equal(t, stats.Nominal, b.Metric)
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
