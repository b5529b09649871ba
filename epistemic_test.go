package evalkit_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	testify "github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/judgefake"
)

// dimensionJudge scores completeness by how many of the summary's three
// facts the content states, and correctness 0 when it says something
// false; strict judges take off offset points.
func dimensionJudge(offset float64, fail string) evalkit.Judge {
	return evalkit.JudgeFunc(func(_ context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
		if fail != "" && strings.Contains(req.Content, fail) {
			return evalkit.Verdict{}, errors.New("judge unavailable")
		}
		raw := 100.0
		switch {
		case strings.Contains(req.Criteria, "completeness"):
			n := 0
			for _, fact := range []string{"Paris", "capital", "France"} {
				if strings.Contains(req.Content, fact) {
					n++
				}
			}
			raw = float64(n) / 3 * 100
		case strings.Contains(req.Content, "Lyon"):
			raw = 0
		}
		raw = math.Max(0, raw-offset)
		score, err := req.Scale.Normalize(raw)
		return evalkit.Verdict{Score: score, RawScore: raw, Scored: true}, err
	})
}

// ObjectWeaver's epistemic validation in one call: three judges × two
// dimensions 0–100, averaged; the best average wins; the embeddings give
// the consensus and each completion's confidence, 0–1 and 0–100.
func TestEpistemicValidation(t *testing.T) {
	completions := []string{
		"Paris is the capital of France.",
		"The capital of France is Paris.",
		"Lyon is the capital of France.",
		"France is in Europe.",
	}
	ev := evalkit.EpistemicValidation{
		Judges:   []evalkit.Judge{dimensionJudge(0, ""), dimensionJudge(10, ""), dimensionJudge(20, "Europe")},
		Embedder: judgefake.BagOfWords(256),
	}
	res, err := ev.Run(context.Background(), evalkit.JudgeRequest{Criteria: "A factual one-sentence summary", Input: "What is the capital of France?"}, completions)
	require.NoError(t, err)
	require.Len(t, res.Candidates, 4)
	c0 := res.Candidates[0]
	// completeness 100, 90, 80 and correctness 100, 90, 80: mean 90.
	testify.InDelta(t, 0.9, c0.Score, 1e-9)
	testify.InDelta(t, 90, c0.Score100, 1e-9)
	require.Len(t, c0.Dimensions, 2)
	testify.Equal(t, "completeness", c0.Dimensions[0].Name)
	testify.InDelta(t, 90, c0.Dimensions[0].RawScore, 1e-9)
	testify.Len(t, c0.Verdict.Votes, 3)
	// Lyon: names all three words, but what it says is false: correctness 0.
	testify.Less(t, res.Candidates[2].Score, c0.Score)
	// "France is in Europe.": one judge failed on it: two votes, not a zero.
	testify.Len(t, res.Candidates[3].Verdict.Votes, 3)
	testify.Empty(t, res.Candidates[3].Err)
	testify.Equal(t, 0, res.Best, "the first of the two best")
	testify.Contains(t, []int{0, 1, 2}, res.ConsensusBest, "one of the three near-paraphrases")
	for _, c := range res.Candidates {
		testify.InDelta(t, c.Confidence*100, c.Confidence100, 1e-9)
		testify.True(t, c.Confidence > 0 && c.Confidence <= 1, "%v", c.Confidence)
	}
	testify.Less(t, res.Candidates[3].Confidence, res.Candidates[res.ConsensusBest].Confidence, "the outlier is the least confident")

	// Without an embedder: no consensus.
	ev.Embedder = nil
	res, err = ev.Run(context.Background(), evalkit.JudgeRequest{Criteria: "x"}, completions[:2])
	require.NoError(t, err)
	testify.Equal(t, -1, res.ConsensusBest)
	testify.Zero(t, res.Candidates[0].Confidence100)

	_, err = evalkit.EpistemicValidation{}.Run(context.Background(), evalkit.JudgeRequest{Criteria: "x"}, completions)
	testify.EqualError(t, err, "evalkit: epistemic validation: no judges")
	_, err = evalkit.EpistemicValidation{Judges: []evalkit.Judge{judgefake.Err(fmt.Errorf("down"))}}.Run(context.Background(), evalkit.JudgeRequest{Criteria: "x"}, completions[:1])
	testify.ErrorContains(t, err, "no candidate was scored")
}

func ExampleEpistemicValidation() {
	judge := dimensionJudge(0, "")
	ev := evalkit.EpistemicValidation{Judges: []evalkit.Judge{judge, judge, judge}, Embedder: judgefake.BagOfWords(64)}
	res, _ := ev.Run(context.Background(), evalkit.JudgeRequest{Criteria: "A factual summary"},
		[]string{"Paris is the capital of France.", "Lyon is the capital of France."})
	best := res.Candidates[res.Best]
	fmt.Printf("best: %q, score %.0f/100, confidence %.0f/100\n", best.Text, best.Score100, best.Confidence100)
	// Output: best: "Paris is the capital of France.", score 100/100, confidence 85/100
}
