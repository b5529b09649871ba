package judgefake_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/judgefake"
)

var text = evalkit.ClassifyRequest{Kind: evalkit.InputText, Text: "You are an idiot."}

func ExampleClassifierRules() {
	c := judgefake.ClassifierRules{
		{Pattern: `(?i)\bidiot\b`, Scores: []evalkit.LabelScore{{Label: "toxic", Score: 0.97}}},
		{Otherwise: true, Scores: []evalkit.LabelScore{{Label: "toxic", Score: 0.02}}},
	}
	cl, err := c.Classify(context.Background(), evalkit.ClassifyRequest{Kind: evalkit.InputText, Text: "You are an idiot."})
	fmt.Println(cl.Scores, err)
	// Output: [{toxic 0.97}] <nil>
}

func TestClassifierFakes(t *testing.T) {
	ctx := context.Background()
	cl, err := judgefake.Scores(evalkit.LabelScore{Label: "positive", Score: 0.8}).Classify(ctx, text)
	require.NoError(t, err)
	assert.Equal(t, "judgefake", cl.Model)
	assert.Equal(t, []evalkit.LabelScore{{Label: "positive", Score: 0.8}}, cl.Scores)

	_, err = judgefake.Scores(evalkit.LabelScore{Label: "positive", Score: 1.5}).Classify(ctx, text)
	assert.ErrorContains(t, err, "judgefake: Scores: ")

	_, err = judgefake.Scores().Classify(ctx, evalkit.ClassifyRequest{Kind: evalkit.InputText})
	assert.ErrorContains(t, err, "has no text", "an invalid request is refused first")

	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	_, err = judgefake.Scores().Classify(cancelled, text)
	assert.ErrorIs(t, err, context.Canceled)

	boom := errors.New("boom")
	_, err = judgefake.ClassifierErr(boom).Classify(ctx, text)
	assert.Equal(t, boom, err)
	_, err = judgefake.ClassifierErr(nil).Classify(ctx, text)
	assert.ErrorContains(t, err, "nil error")
}

func TestClassifierRules(t *testing.T) {
	ctx := context.Background()
	rules := judgefake.ClassifierRules{
		{Keyword: "cat.png", Scores: []evalkit.LabelScore{{Label: "sexual", Score: 0.01}}},
		{Pattern: `(?i)idiot`, Err: errors.New("rate limited")},
	}
	img := evalkit.ClassifyRequest{Kind: evalkit.InputImage, Media: &evalkit.Part{Type: "image", URL: "https://cdn.test/cat.png"}}
	cl, err := rules.Classify(ctx, img)
	require.NoError(t, err)
	assert.Equal(t, 0.01, cl.Scores[0].Score)
	_, err = rules.Classify(ctx, text)
	assert.EqualError(t, err, "rate limited")
	_, err = rules.Classify(ctx, evalkit.ClassifyRequest{Kind: evalkit.InputText, Text: "hello"})
	assert.ErrorContains(t, err, "none of 2 classifier rules matches")

	_, err = judgefake.ClassifierRules{{}, {Pattern: "("}}.Classify(ctx, text)
	assert.ErrorContains(t, err, "ClassifierRules[0] has no Keyword")
	assert.ErrorContains(t, err, "ClassifierRules[1] Pattern")
}

func TestSpyClassifier(t *testing.T) {
	spy := judgefake.SpyClassifier(judgefake.Scores(evalkit.LabelScore{Label: "a", Score: 1}))
	req := evalkit.ClassifyRequest{Kind: evalkit.InputText, Text: "x", Labels: []string{"a", "b"}}
	_, err := spy.Classify(context.Background(), req)
	require.NoError(t, err)
	got := spy.Requests()
	require.Len(t, got, 1)
	got[0].Labels[0] = "changed"
	assert.Equal(t, "a", spy.Requests()[0].Labels[0], "copies")
	_, err = judgefake.SpyClassifier(nil).Classify(context.Background(), req)
	assert.Error(t, err)
}
