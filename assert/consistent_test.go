package assert_test

import (
	"context"
	"errors"
	"testing"

	testify "github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
	"github.com/evalkit-go/evalkit/judgefake"
)

func answer(text string) *evalkit.Transcript {
	return &evalkit.Transcript{Messages: []evalkit.Message{
		{Role: evalkit.RoleUser, Content: "What is the refund window?"},
		{Role: evalkit.RoleAssistant, Content: text},
	}}
}

var refundAnswers = []string{
	"Refunds are accepted within 30 days of delivery.",
	"You can get a refund within 30 days of delivery.",
	"Refunds are accepted within 30 days of the delivery date.",
	"Our store opens at 9am on weekdays.",
}

func TestConsistentNamesTheOutliers(t *testing.T) {
	var trs []*evalkit.Transcript
	for _, a := range refundAnswers {
		trs = append(trs, answer(a))
	}
	c := assert.Consistent{Embedder: judgefake.BagOfWords(64), MaxDistance: 0.8}
	res, err := c.CheckSet(context.Background(), trs)
	require.NoError(t, err)
	testify.False(t, res.Passed)
	testify.Equal(t, 0.75, res.Score)
	testify.Equal(t, "1 of 4 candidates lie farther than 0.8 from the centroid: candidate 4", res.Summary)
	testify.Equal(t, []assert.Detail{
		{Label: "consensus", Text: `candidate 1 (distance 0.49, confidence 0.71): "Refunds are accepted within 30 days of delivery."`},
		{Label: "outlier", Text: `candidate 4 (distance 1.01, confidence 0.41): "Our store opens at 9am on weekdays."`},
		{Label: "distances", Text: "0.49, 0.64, 0.52, 1.01"},
	}, res.Details)

	// Every candidate past the distance: the consensus is named once, as
	// the consensus, never in its own outlier list.
	tight := assert.Consistent{Embedder: judgefake.BagOfWords(64), MaxDistance: 0.3}
	res, err = tight.CheckSet(context.Background(), trs)
	require.NoError(t, err)
	testify.False(t, res.Passed)
	testify.Equal(t, 0.0, res.Score)
	testify.Equal(t, "4 of 4 candidates lie farther than 0.3 from the centroid: candidate 2, 3 and 4, and the consensus (candidate 1) itself", res.Summary)
	testify.Equal(t, []assert.Detail{
		{Label: "consensus", Text: `candidate 1 (distance 0.49, confidence 0.71): "Refunds are accepted within 30 days of delivery."`},
		{Label: "outlier", Text: `candidate 2 (distance 0.64, confidence 0.63): "You can get a refund within 30 days of delivery."`},
		{Label: "outlier", Text: `candidate 3 (distance 0.52, confidence 0.70): "Refunds are accepted within 30 days of the delivery date."`},
		{Label: "outlier", Text: `candidate 4 (distance 1.01, confidence 0.41): "Our store opens at 9am on weekdays."`},
		{Label: "distances", Text: "0.49, 0.64, 0.52, 1.01"},
	}, res.Details)
	// Only the consensus past it (two answers far apart, 0.71 each).
	pair := []*evalkit.Transcript{answer(refundAnswers[0]), answer(refundAnswers[3])}
	res, err = assert.Consistent{Embedder: judgefake.BagOfWords(64), MaxDistance: 0.7}.CheckSet(context.Background(), pair)
	require.NoError(t, err)
	testify.False(t, res.Passed)
	testify.Equal(t, "2 of 2 candidates lie farther than 0.7 from the centroid: candidate 2, and the consensus (candidate 1) itself", res.Summary)

	res, err = c.CheckSet(context.Background(), trs[:3])
	require.NoError(t, err)
	testify.True(t, res.Passed)
	testify.Equal(t, "all 3 candidates lie within 0.8 of the centroid (farthest 0.57)", res.Summary)

	// One transcript holding several sampled answers.
	one := answer(refundAnswers[0])
	one.Messages = append(one.Messages, evalkit.Message{Role: evalkit.RoleAssistant, Content: refundAnswers[3]})
	res, err = c.Check(context.Background(), one)
	require.NoError(t, err)
	testify.Equal(t, "both messages lie within 0.8 of the centroid (farthest 0.71)", res.Summary, "two unrelated answers of length 1 lie √2/2 from their centroid")
}

func TestConsistentErrors(t *testing.T) {
	ctx := context.Background()
	two := []*evalkit.Transcript{answer("a refund"), answer("a refund")}
	_, err := assert.Consistent{MaxDistance: 0.5}.CheckSet(ctx, two)
	testify.ErrorIs(t, err, assert.ErrNoEmbedder)
	_, err = assert.Consistent{Embedder: judgefake.BagOfWords(64)}.CheckSet(ctx, two)
	testify.EqualError(t, err, `consistent: param "max_distance": want a positive number, got 0`)
	_, err = assert.Consistent{Embedder: judgefake.BagOfWords(64), MaxDistance: 0.5}.CheckSet(ctx, two[:1])
	testify.EqualError(t, err, "consistent: 1 candidate to compare, want at least 2")
	_, err = assert.Consistent{Embedder: judgefake.BagOfWords(64), MaxDistance: 0.5}.CheckSet(ctx, []*evalkit.Transcript{answer("a"), {}})
	testify.ErrorIs(t, err, assert.ErrNoOutput)
	testify.ErrorContains(t, err, "transcript 2: ")
	broken := embedFunc(func(context.Context, []string) ([][]float64, error) { return nil, errors.New("HTTP 429") })
	_, err = assert.Consistent{Embedder: broken, MaxDistance: 0.5}.CheckSet(ctx, two)
	testify.EqualError(t, err, "consistent: evalkit: consensus: the embedder failed: HTTP 429")

	// The registry: validated without an embedder, built only with one.
	require.NoError(t, assert.Validate("consistent", map[string]any{"max_distance": 0.3}))
	err = assert.Validate("consistent", map[string]any{"max_distnce": 0.3})
	testify.EqualError(t, err, `consistent: param "max_distnce": unknown parameter: did you mean "max_distance"?`)
	err = assert.Validate("consistent", map[string]any{"max_distance": -1})
	testify.EqualError(t, err, `consistent: param "max_distance": want a positive number, got -1`)
	_, err = assert.NewRegistry().Build("consistent", map[string]any{"max_distance": 0.3})
	testify.ErrorIs(t, err, assert.ErrNoEmbedder)
	judge := evalkit.JudgeFunc(func(context.Context, evalkit.JudgeRequest) (evalkit.Verdict, error) { return evalkit.Verdict{}, nil })
	reg := assert.NewRegistry().WithEmbedder(judgefake.BagOfWords(64)).WithJudge(judge)
	c, err := reg.Build("consistent", map[string]any{"max_distance": 0.3})
	require.NoError(t, err, "WithJudge keeps the embedder")
	testify.Equal(t, "every answer lies within 0.3 of the centroid of the answers' embeddings", assert.Describe(c))
	_, err = assert.NewRegistry().WithJudge(judge).WithEmbedder(judgefake.BagOfWords(64)).Build("llm_judge", map[string]any{"criteria": "x"})
	require.NoError(t, err, "WithEmbedder keeps the judge")
}

type embedFunc func(ctx context.Context, texts []string) ([][]float64, error)

func (f embedFunc) Embed(ctx context.Context, texts []string) ([][]float64, error) {
	return f(ctx, texts)
}
