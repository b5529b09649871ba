package evalkit_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/judgefake"
)

// vectors is an embedder that answers with fixed vectors, in order.
type vectors [][]float64

func (v vectors) Embed(_ context.Context, texts []string) ([][]float64, error) {
	return v, nil
}

func TestNearestCentroidGeometry(t *testing.T) {
	// The corners of a square: the centroid is (2, 2), so the distances
	// are exact. (No corner is the origin: a zero vector is no embedding.)
	c, err := evalkit.NearestCentroid(context.Background(), vectors{{1, 1}, {3, 1}, {1, 3}, {3, 3}}, []string{"a", "b", "c", "d"})
	require.NoError(t, err)
	require.Len(t, c.Candidates, 4)
	for _, cand := range c.Candidates {
		assert.InDelta(t, math.Sqrt2, cand.Distance, 1e-12, "every corner is √2 from (2, 2)")
	}
	assert.Equal(t, 0, c.Best, "ties go to the first")
	assert.Equal(t, 2, c.Dimension)
	// Confidence = 1 − d/(‖e‖+‖c‖): for (1,1) 1 − √2/(√2+2√2) = 2/3; for
	// (3,3) 1 − √2/(3√2+2√2) = 4/5.
	assert.InDelta(t, 2.0/3, c.Candidates[0].Confidence, 1e-12)
	assert.InDelta(t, 4.0/5, c.Candidates[3].Confidence, 1e-12)

	c, err = evalkit.NearestCentroid(context.Background(), vectors{{1, 0}, {1, 0.1}, {1, -0.1}, {0, 1}}, []string{"a", "b", "c", "far"})
	require.NoError(t, err)
	assert.Equal(t, 1, c.Best, "the centroid (0.75, 0.25) is pulled towards the far answer, so (1, 0.1) is nearest")
	out := c.Outliers(0.5)
	require.Len(t, out, 1)
	assert.Equal(t, "far", out[0].Text)
	// Past a distance every candidate exceeds, the consensus is still not
	// its own outlier.
	out = c.Outliers(0.01)
	require.Len(t, out, 3)
	for _, o := range out {
		assert.NotEqual(t, c.Best, o.Index, "the consensus, %q, is listed as an outlier", o.Text)
	}
	assert.Greater(t, c.Candidates[0].Confidence, c.Candidates[3].Confidence)

	same, err := evalkit.NearestCentroid(context.Background(), vectors{{0.6, 0.8}, {0.6, 0.8}}, []string{"x", "x"})
	require.NoError(t, err)
	assert.Equal(t, 1.0, same.Candidates[1].Confidence, "identical answers: full confidence")
	assert.Zero(t, same.Candidates[1].Distance)
}

func TestNearestCentroidWithWords(t *testing.T) {
	answers := []string{
		"Refunds are accepted within 30 days of delivery.",
		"You can get a refund within 30 days of delivery.",
		"Refunds are possible within 30 days after delivery.",
		"Our store opens at 9am on weekdays.",
	}
	c, err := evalkit.NearestCentroid(context.Background(), judgefake.BagOfWords(64), answers)
	require.NoError(t, err)
	assert.NotEqual(t, 3, c.Best)
	far := 0
	for i, cand := range c.Candidates {
		if cand.Distance > c.Candidates[far].Distance {
			far = i
		}
	}
	assert.Equal(t, 3, far, "the off-topic answer is the farthest")
}

func TestNearestCentroidErrors(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name string
		e    evalkit.Embedder
		in   []string
		want string
	}{
		{"no candidates", judgefake.BagOfWords(64), nil, "evalkit: consensus: no candidates"},
		{"no embedder", nil, []string{"a"}, "evalkit: consensus: no embedder"},
		{"count", vectors{{1}}, []string{"a", "b"}, "evalkit: consensus: the embedder returned 1 vectors for 2 texts"},
		{"empty", vectors{{}}, []string{"a"}, "evalkit: consensus: the embedder returned an empty vector for text 0"},
		{"ragged", vectors{{1, 2}, {1}}, []string{"a", "b"}, "evalkit: consensus: the embedder returned vectors of 2 and 1 dimensions (texts 0 and 1)"},
		{"nan", vectors{{1, math.NaN()}}, []string{"a"}, "evalkit: consensus: the embedder returned NaN at dimension 1 of text 0"},
		{"no words", judgefake.BagOfWords(64), []string{"ok", "?!"}, "evalkit: consensus: the embedder returned the zero vector for text 1"},
	}
	for _, tt := range tests {
		_, err := evalkit.NearestCentroid(ctx, tt.e, tt.in)
		assert.EqualError(t, err, tt.want, tt.name)
	}
}

func TestBestByJudge(t *testing.T) {
	req := evalkit.JudgeRequest{Criteria: "States the refund window"}
	v := func(s float64) evalkit.Verdict { return evalkit.Verdict{Score: s, Scored: true} }
	best, err := evalkit.BestByJudge(context.Background(), judgefake.Sequence(v(0.4), v(0.9), v(0.9), v(0.1)), req, []string{"a", "b", "c", "d"})
	require.NoError(t, err)
	assert.Equal(t, 1, best.Best, "the highest score, the first of a tie")
	assert.Equal(t, "c", best.Candidates[2].Text)

	flaky := judgefake.Flaky(1, judgefake.Sequence(v(0.3), v(0.2)))
	best, err = evalkit.BestByJudge(context.Background(), flaky, req, []string{"a", "b", "c"})
	require.NoError(t, err)
	assert.Equal(t, 1, best.Best, "a failed call is missing data, never chosen")
	assert.Contains(t, best.Candidates[0].Err, "transient judge failure")

	_, err = evalkit.BestByJudge(context.Background(), judgefake.Err(errors.New("HTTP 503")), req, []string{"a", "b"})
	assert.EqualError(t, err, "evalkit: best of n: no candidate was scored: candidate 0: HTTP 503; candidate 1: HTTP 503")
	_, err = evalkit.BestByJudge(context.Background(), judgefake.Pass(), evalkit.JudgeRequest{}, []string{"a"})
	assert.EqualError(t, err, "evalkit: best of n: evalkit: judge request has no criteria")
	_, err = evalkit.BestByJudge(context.Background(), judgefake.Fixed(evalkit.Verdict{Label: "A"}), req, []string{"a"})
	assert.EqualError(t, err, "evalkit: best of n: no candidate was scored: candidate 0: the verdict has no score")
}

// Five sampled answers to one question: the one nearest the centroid of
// their embeddings is the consensus, and the off-topic one is an outlier.
func ExampleNearestCentroid() {
	answers := []string{
		"Refunds are accepted within 30 days of delivery.",
		"You can get a refund within 30 days of delivery.",
		"Refunds are accepted within 30 days of the delivery date.",
		"A refund is possible within 30 days of delivery.",
		"Our store opens at 9am on weekdays.",
	}
	// In a test: a real embedder (an embeddings API); here a fake one
	// that embeds texts as bags of words.
	c, err := evalkit.NearestCentroid(context.Background(), judgefake.BagOfWords(64), answers)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("best: %q\n", c.Candidates[c.Best].Text)
	for _, o := range c.Outliers(0.8) {
		fmt.Printf("outlier: %q (distance %.2f, confidence %.2f)\n", o.Text, o.Distance, o.Confidence)
	}
	// Output:
	// best: "Refunds are accepted within 30 days of delivery."
	// outlier: "Our store opens at 9am on weekdays." (distance 1.07, confidence 0.38)
}

// Large finite components are compared as small ones: squaring 1e200
// overflowed to +Inf, so distances were +Inf and confidences NaN (and a
// consistent check, NaN > max_distance being false, found no outlier).
func TestNearestCentroidLargeComponents(t *testing.T) {
	c, err := evalkit.NearestCentroid(context.Background(), vectors{{1e200, 1e200}, {3e200, 1e200}, {1e200, 3e200}, {3e200, 3e200}}, []string{"a", "b", "c", "d"})
	require.NoError(t, err)
	for _, cand := range c.Candidates {
		assert.InEpsilon(t, math.Sqrt2*1e200, cand.Distance, 1e-12)
	}
	assert.InDelta(t, 2.0/3, c.Candidates[0].Confidence, 1e-12, "confidence does not change with scale")
	assert.InDelta(t, 4.0/5, c.Candidates[3].Confidence, 1e-12)

	c, err = evalkit.NearestCentroid(context.Background(), vectors{{1e308, 0}, {1e308, 1e308}}, []string{"a", "b"})
	require.NoError(t, err)
	assert.InEpsilon(t, 0.5e308, c.Candidates[0].Distance, 1e-12)
	assert.False(t, math.IsNaN(c.Candidates[0].Confidence))

	_, err = evalkit.NearestCentroid(context.Background(), vectors{{math.MaxFloat64, 0}, {-math.MaxFloat64, 0}, {-math.MaxFloat64, 0}}, []string{"a", "b", "c"})
	assert.ErrorContains(t, err, "the distance of text 0 to the centroid is not a finite number")
}
