package evalkit_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/judgefake"
)

func TestDimensions(t *testing.T) {
	spy := judgefake.Spy(judgefake.Sequence(
		evalkit.Verdict{RawScore: 80, Scored: true, Reasoning: "covers both questions", Usage: evalkit.Usage{InputTokens: 100, OutputTokens: 10, CostUSD: 0.001}},
		evalkit.Verdict{RawScore: 60, Scored: true, Reasoning: "the date is wrong", Usage: evalkit.Usage{InputTokens: 100, OutputTokens: 12, CostUSD: 0.001}},
	))
	req := evalkit.JudgeRequest{Criteria: "Answers the customer's question", Content: "Your refund arrives on Monday.", Labels: []string{"pass", "fail"}}
	v, err := evalkit.Dimensions(spy, evalkit.EpistemicDimensions...).Judge(context.Background(), req)
	require.NoError(t, err)
	assert.InDelta(t, 0.7, v.Score, 1e-12, "the mean of 0.8 and 0.6")
	assert.InDelta(t, 7, v.RawScore, 1e-12, "on the request's default 0–10 scale")
	assert.True(t, v.Scored)
	assert.Nil(t, v.Passed)
	assert.Equal(t, []evalkit.CriterionScore{
		{Name: "completeness", Score: 0.8, RawScore: 80, Reasoning: "covers both questions"},
		{Name: "correctness", Score: 0.6, RawScore: 60, Reasoning: "the date is wrong"},
	}, v.Criteria)
	assert.Equal(t, "mean of 2 dimensions 0.70: completeness 80/100, correctness 60/100", v.Reasoning)
	assert.Equal(t, evalkit.Usage{InputTokens: 200, OutputTokens: 22, CostUSD: 0.002}, v.Usage)

	reqs := spy.Requests()
	require.Len(t, reqs, 2)
	assert.True(t, strings.HasPrefix(reqs[0].Criteria, "Answers the customer's question\n\nScore one dimension only — completeness: "), reqs[0].Criteria)
	assert.Equal(t, evalkit.Scale{Min: 0, Max: 100}, reqs[1].Scale)
	assert.Nil(t, reqs[0].Labels, "dimensions are scored, not labelled")
}

func TestDimensionsFailClosed(t *testing.T) {
	req := evalkit.JudgeRequest{Criteria: "Answers", Content: "x"}
	_, err := evalkit.Dimensions(judgefake.Flaky(1, judgefake.Pass()), evalkit.EpistemicDimensions...).Judge(context.Background(), req)
	assert.ErrorContains(t, err, "evalkit: dimensions: completeness: judgefake: Flaky call 1 of 1 failing calls", "one missing dimension fails the whole")
	_, err = evalkit.Dimensions(judgefake.Fixed(evalkit.Verdict{Label: "A"}), evalkit.EpistemicDimensions...).Judge(context.Background(), req)
	assert.EqualError(t, err, "evalkit: dimensions: completeness: the verdict has no score")
	for want, d := range map[string]*evalkit.DimensionJudge{
		"evalkit: dimensions: no judge":                                                    evalkit.Dimensions(nil, evalkit.EpistemicDimensions...),
		"evalkit: dimensions: no dimensions":                                               evalkit.Dimensions(judgefake.Pass()),
		"evalkit: dimensions: dimension 0 has no name":                                     evalkit.Dimensions(judgefake.Pass(), evalkit.Dimension{Criteria: "x"}),
		`evalkit: dimensions: dimension "a" is given twice`:                                evalkit.Dimensions(judgefake.Pass(), evalkit.Dimension{Name: "a", Criteria: "x"}, evalkit.Dimension{Name: "a", Criteria: "y"}),
		`evalkit: dimensions: dimension "a" has no criteria`:                               evalkit.Dimensions(judgefake.Pass(), evalkit.Dimension{Name: "a"}),
		`evalkit: dimensions: dimension "a": evalkit: scale [5, 1]: min must be below max`: evalkit.Dimensions(judgefake.Pass(), evalkit.Dimension{Name: "a", Criteria: "x", Scale: evalkit.Scale{Min: 5, Max: 1}}),
	} {
		_, err := d.Judge(context.Background(), req)
		assert.EqualError(t, err, want)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = evalkit.Dimensions(judgefake.Pass(), evalkit.EpistemicDimensions...).Judge(ctx, req)
	assert.True(t, errors.Is(err, context.Canceled))
}

// ObjectWeaver-style epistemic validation: three judges each score
// completeness and correctness 0–100, a panel averages them, and the best
// of the candidate answers is the one with the highest mean.
func ExampleDimensions() {
	judge := func(seed string) evalkit.Judge {
		// In a test: real judges (openaijudge, anthropicjudge).
		return evalkit.Dimensions(judgefake.Hash(seed), evalkit.EpistemicDimensions...)
	}
	panel := evalkit.Panel([]evalkit.Judge{judge("a"), judge("b"), judge("c")}, evalkit.Mean)
	best, err := evalkit.BestByJudge(context.Background(), panel,
		evalkit.JudgeRequest{Criteria: "Summarizes the refund policy", Input: "What is your refund policy?"},
		[]string{"Refunds within 30 days.", "Refunds within 30 days of delivery, to the original card.", "We like refunds."})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range best.Candidates {
		fmt.Printf("%d: %.3f %q\n", c.Index, c.Verdict.Score, c.Text)
	}
	fmt.Println("best:", best.Best)
	fmt.Println(best.Candidates[0].Verdict.Votes[0].Verdict.Reasoning)
	// Output:
	// 0: 0.482 "Refunds within 30 days."
	// 1: 0.587 "Refunds within 30 days of delivery, to the original card."
	// 2: 0.344 "We like refunds."
	// best: 1
	// mean of 2 dimensions 0.94: completeness 90.9/100, correctness 97.8/100
}
