package evalkit_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
)

// A classifier is any function from a request to label scores.
func ExampleClassifierFunc() {
	c := evalkit.ClassifierFunc(func(ctx context.Context, req evalkit.ClassifyRequest) (evalkit.Classification, error) {
		return evalkit.Classification{Scores: []evalkit.LabelScore{{Label: "positive", Score: 0.91}, {Label: "negative", Score: 0.09}}}, nil
	})
	cl, err := c.Classify(context.Background(), evalkit.ClassifyRequest{Kind: evalkit.InputText, Text: "Thanks, that fixed it!"})
	score, ok := cl.Score("Positive")
	top, _ := cl.Top()
	fmt.Println(score, ok, top.Label, err)
	// Output: 0.91 true positive <nil>
}

func TestClassifyRequestValidate(t *testing.T) {
	img := &evalkit.Part{Type: "image", URL: "https://example.com/cat.png"}
	for _, tt := range []struct {
		req  evalkit.ClassifyRequest
		want string
	}{
		{evalkit.ClassifyRequest{Kind: evalkit.InputText, Text: "hi"}, ""},
		{evalkit.ClassifyRequest{Kind: evalkit.InputImage, Media: img}, ""},
		{evalkit.ClassifyRequest{Kind: evalkit.InputText}, "has no text"},
		{evalkit.ClassifyRequest{Kind: "video", Text: "x"}, `unknown input kind "video"`},
		{evalkit.ClassifyRequest{Kind: evalkit.InputAudio}, "for audio has no media part"},
		{evalkit.ClassifyRequest{Kind: evalkit.InputAudio, Media: &evalkit.Part{Type: "audio"}}, "has no data, URL or file id"},
		{evalkit.ClassifyRequest{Kind: evalkit.InputText, Text: "x", Labels: []string{"a", " "}}, "an empty label"},
		{evalkit.ClassifyRequest{Kind: evalkit.InputText, Text: "x", Labels: []string{"a", "a"}}, `the label "a" twice`},
	} {
		err := tt.req.Validate()
		if tt.want == "" {
			assert.NoError(t, err)
			continue
		}
		require.Error(t, err)
		assert.Contains(t, err.Error(), tt.want)
	}
}

func TestClassificationValidate(t *testing.T) {
	ok := evalkit.Classification{Scores: []evalkit.LabelScore{{Label: "toxic", Score: 0}, {Label: "insult", Score: 1}}}
	require.NoError(t, ok.Validate())
	for _, bad := range []evalkit.Classification{
		{Scores: []evalkit.LabelScore{{Label: "toxic", Score: 1.2}}},
		{Scores: []evalkit.LabelScore{{Label: "toxic", Score: -0.1}}},
		{Scores: []evalkit.LabelScore{{Label: "toxic", Score: math.NaN()}}},
		{Scores: []evalkit.LabelScore{{Label: "", Score: 0.5}}},
		{Scores: []evalkit.LabelScore{{Label: "toxic", Score: 0.5}, {Label: "toxic", Score: 0.6}}},
	} {
		assert.Error(t, bad.Validate(), "%+v", bad)
	}
}

func TestClassificationScoreAndTop(t *testing.T) {
	cl := evalkit.Classification{Scores: []evalkit.LabelScore{{Label: "Neutral", Score: 0.4}, {Label: "neutral", Score: 0.4}, {Label: "positive", Score: 0.4}}}
	s, ok := cl.Score("neutral")
	assert.True(t, ok)
	assert.Equal(t, 0.4, s)
	_, ok = cl.Score("negative")
	assert.False(t, ok)
	top, ok := cl.Top()
	assert.True(t, ok)
	assert.Equal(t, "Neutral", top.Label, "the first of equals")
	_, ok = evalkit.Classification{}.Top()
	assert.False(t, ok)
}
