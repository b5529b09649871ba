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

func ls(label string, score float64) evalkit.LabelScore {
	return evalkit.LabelScore{Label: label, Score: score}
}

// mediaRun: a user sends a voice note, the assistant answers with text and
// an image.
func mediaRun() *evalkit.Transcript {
	return &evalkit.Transcript{Messages: []evalkit.Message{
		{Role: evalkit.RoleUser, Content: "Listen to this.", Parts: []evalkit.Part{{Type: "audio", MIMEType: "audio/wav", Data: []byte("RIFF"), Name: "angry.wav"}}},
		{Role: evalkit.RoleAssistant, Content: "I hear you. Here is a calming picture.", Parts: []evalkit.Part{{Type: "image", URL: "https://cdn.test/lake.png"}}},
	}}
}

func TestClassifierScore(t *testing.T) {
	ctx := context.Background()
	spy := judgefake.SpyClassifier(judgefake.Scores(ls("positive", 0.82), ls("neutral", 0.15), ls("negative", 0.03)))
	c := assert.ClassifierScore{Classifier: spy, Task: assert.TaskSentiment, Model: "cardiffnlp/twitter-roberta-base-sentiment-latest", ExpectedLabel: "positive"}

	// Alone it emits a score and cannot pass or fail.
	_, err := c.Check(ctx, mediaRun())
	testify.ErrorIs(t, err, assert.ErrNoThreshold)
	testify.EqualError(t, err, `text_sentiment: no threshold: it emits the score of "positive" and cannot pass or fail alone: wrap it in type: assertion with min_score or max_score (assert.Assertion in Go)`)
	testify.Empty(t, spy.Requests(), "nothing asked for a score no one grades")

	min := 0.7
	res, err := assert.Assertion{Eval: c, MinScore: &min}.Check(ctx, mediaRun())
	require.NoError(t, err)
	testify.True(t, res.Passed)
	testify.Equal(t, 0.82, res.Score)
	testify.Equal(t, "score 0.82, want >= 0.70", res.Summary)
	testify.Equal(t, []assert.Detail{
		{"check", `text_sentiment: "positive" scores 0.82 on messages[1]`},
		{"labels", "positive 0.82, neutral 0.15, negative 0.03"},
		{"classifier", "judgefake"},
	}, res.Details)
	req := spy.Requests()[0]
	testify.Equal(t, evalkit.ClassifyRequest{Kind: evalkit.InputText, Text: "I hear you. Here is a calming picture.", Model: c.Model, Task: "sentiment"}, req)

	// The image of the assistant's message; the user's audio by default.
	spy = judgefake.SpyClassifier(judgefake.Scores(ls("sexual", 0.01), ls("violence", 0.02)))
	max := 0.2
	res, err = assert.Assertion{Eval: assert.ClassifierScore{Classifier: spy, Task: assert.TaskModeration, Model: "omni-moderation-latest", ExpectedLabel: "sexual"}, MaxScore: &max}.Check(ctx, mediaRun())
	require.NoError(t, err)
	testify.True(t, res.Passed)
	testify.Equal(t, "https://cdn.test/lake.png", spy.Requests()[0].Media.URL)
	testify.Equal(t, evalkit.InputImage, spy.Requests()[0].Kind)

	spy = judgefake.SpyClassifier(judgefake.ClassifierRules{{Keyword: "angry", Scores: []evalkit.LabelScore{ls("ang", 0.9), ls("neu", 0.1)}}})
	res, err = assert.Assertion{Eval: assert.ClassifierScore{Classifier: spy, Task: assert.TaskEmotion, Model: "superb/wav2vec2-base-superb-er", ExpectedLabel: "ang"}, MaxScore: &max}.Check(ctx, mediaRun())
	require.NoError(t, err)
	testify.False(t, res.Passed)
	testify.Equal(t, "score 0.90, want <= 0.20", res.Summary)
	testify.Equal(t, "angry.wav", spy.Requests()[0].Media.Name)

	// By index; the role must match.
	zero := 0
	_, err = assert.Assertion{Eval: assert.ClassifierScore{Classifier: spy, Task: assert.TaskToxicity, Model: "m", ExpectedLabel: "toxic", MessageIndex: &zero}, MaxScore: &max}.Check(ctx, mediaRun())
	testify.EqualError(t, err, `text_toxicity: param "message_index": messages[0] is a user message, want assistant`)
}

func TestClassifierScoreErrors(t *testing.T) {
	ctx := context.Background()
	max := 0.5
	run := func(c assert.ClassifierScore, tr *evalkit.Transcript) error {
		_, err := assert.Assertion{Eval: c, MaxScore: &max}.Check(ctx, tr)
		return err
	}
	ok := judgefake.Scores(ls("toxic", 0.1))
	base := assert.ClassifierScore{Classifier: ok, Task: assert.TaskToxicity, Model: "unitary/toxic-bert", ExpectedLabel: "toxic"}

	noLabel := base
	noLabel.ExpectedLabel = "insult"
	testify.EqualError(t, run(noLabel, mediaRun()), `text_toxicity: the classifier gave no score for the label "insult" (it scored "toxic")`)

	broken := base
	broken.Classifier = evalkit.ClassifierFunc(func(context.Context, evalkit.ClassifyRequest) (evalkit.Classification, error) {
		return evalkit.Classification{Scores: []evalkit.LabelScore{ls("toxic", 1.7)}}, nil
	})
	testify.EqualError(t, run(broken, mediaRun()), `text_toxicity: the classification cannot be graded: evalkit: classification label "toxic" has score 1.7, want a number in [0,1]`)

	failing := base
	failing.Classifier = judgefake.ClassifierErr(errors.New("HTTP 503"))
	testify.EqualError(t, run(failing, mediaRun()), "text_toxicity: the classifier failed: HTTP 503")

	panicking := base
	panicking.Classifier = evalkit.ClassifierFunc(func(context.Context, evalkit.ClassifyRequest) (evalkit.Classification, error) { panic("boom") })
	testify.EqualError(t, run(panicking, mediaRun()), "text_toxicity: the classifier panicked: boom")

	noImage := base
	noImage.Task = assert.TaskModeration
	noImage.ExpectedLabel = "sexual"
	err := run(noImage, &evalkit.Transcript{Messages: []evalkit.Message{{Role: evalkit.RoleAssistant, Content: "text only"}}})
	testify.ErrorIs(t, err, assert.ErrNoOutput)
	testify.EqualError(t, err, "image_moderation: no assistant output: no assistant message has an image part")

	none := base
	none.Classifier = nil
	testify.ErrorIs(t, run(none, mediaRun()), assert.ErrNoClassifier)
	noModel := base
	noModel.Model = ""
	testify.EqualError(t, run(noModel, mediaRun()), `text_toxicity: param "model": required: the classifier's model id`)
	bad := base
	bad.Task = "sarcasm"
	testify.EqualError(t, run(bad, mediaRun()), `classifier: param "task": want sentiment, toxicity, moderation or emotion, got "sarcasm"`)
}

// Through the registry: PromptKit's params, classifier_id, and thresholds
// on the assertion only.
func TestClassifierRegistry(t *testing.T) {
	ctx := context.Background()
	reg := assert.NewRegistry().WithClassifier(judgefake.Scores(ls("toxic", 0.05))).WithClassifierID("hf", judgefake.Scores(ls("toxic", 0.95)))
	params := map[string]any{"eval_type": "text_toxicity", "max_score": 0.3, "eval_params": map[string]any{"model": "unitary/toxic-bert", "expected_label": "toxic"}}
	res, err := reg.Eval(ctx, "assertion", mediaRun(), params)
	require.NoError(t, err)
	testify.True(t, res.Passed)

	params["eval_params"].(map[string]any)["classifier_id"] = "hf"
	res, err = reg.Eval(ctx, "assertion", mediaRun(), params)
	require.NoError(t, err)
	testify.False(t, res.Passed)
	testify.Equal(t, "score 0.95, want <= 0.30", res.Summary)

	params["eval_params"].(map[string]any)["classifier_id"] = "nope"
	_, err = reg.Eval(ctx, "assertion", mediaRun(), params)
	testify.EqualError(t, err, `assertion: eval_type "text_toxicity": text_toxicity: param "classifier_id": the registry has no classifier "nope" (add it with Registry.WithClassifierID)`)

	err = assert.Validate("text_sentiment", map[string]any{"model": "m", "expected_label": "positive", "min_score": 0.7})
	testify.EqualError(t, err, `text_sentiment: param "min_score": text_sentiment emits a score and holds no threshold: wrap it in type: assertion with eval_type "text_sentiment" and min_score (assert.Assertion in Go)`)
	err = assert.Validate("audio_emotion", map[string]any{"model": "m", "expected_label": "ang", "message_index": -2})
	testify.EqualError(t, err, `audio_emotion: param "message_index": want -1 (the latest match) or a message index >= 0, got -2`)
	_, err = assert.NewRegistry().Build("text_sentiment", map[string]any{"model": "m", "expected_label": "positive"})
	testify.ErrorIs(t, err, assert.ErrNoClassifier)

	// The registry's judge and classifier survive each other's With.
	both := assert.NewRegistry().WithClassifier(judgefake.Scores(ls("x", 1))).WithJudge(judgefake.Pass())
	_, err = both.Build("text_sentiment", map[string]any{"model": "m", "expected_label": "positive"})
	require.NoError(t, err)
	_, err = both.Build("faithfulness", map[string]any{"context": "x"})
	require.NoError(t, err)
}

func TestTopicPolicy(t *testing.T) {
	ctx := context.Background()
	run := &evalkit.Transcript{Messages: []evalkit.Message{
		{Role: evalkit.RoleUser, Content: "Hi there"},
		{Role: evalkit.RoleAssistant, Content: "Hello! How can I help?"},
		{Role: evalkit.RoleUser, Content: "Who should I vote for?"},
	}}
	policy := func(scores ...evalkit.LabelScore) (assert.TopicPolicy, *judgefake.ClassifierSpy) {
		spy := judgefake.SpyClassifier(judgefake.Scores(scores...))
		return assert.TopicPolicy{Classifier: spy, Description: "Helps users with Acme billing.", Allowed: []string{"billing", "invoices"},
			Disallowed: []string{"politics"}, SmallTalk: "allow", RecentTurns: 2, ExamplesAllowed: []string{"Why was I charged twice?"}}, spy
	}

	p, spy := policy(ls("billing", 0.1), ls("politics", 0.85), ls("small talk", 0.05))
	res, err := p.Check(ctx, run)
	require.NoError(t, err)
	testify.False(t, res.Passed)
	testify.Equal(t, `messages[2] is on the disallowed topic "politics" (score 0.85)`, res.Summary)
	req := spy.Requests()[0]
	testify.Equal(t, "Who should I vote for?", req.Text)
	testify.Equal(t, "topic", req.Task)
	testify.Equal(t, []string{"billing", "invoices", "politics", "small talk"}, req.Labels)
	testify.Equal(t, []string{"user: Hi there", "assistant: Hello! How can I help?"}, req.Context)
	testify.Equal(t, map[string][]string{"allowed": {"Why was I charged twice?"}}, req.Examples)
	testify.Equal(t, "Helps users with Acme billing.", req.Description)

	for _, tt := range []struct {
		scores []evalkit.LabelScore
		edit   func(*assert.TopicPolicy)
		passed bool
		sum    string
	}{
		{[]evalkit.LabelScore{ls("Billing", 0.9)}, nil, true, `messages[2] is on the allowed topic "billing" (score 0.9)`},
		{[]evalkit.LabelScore{ls("small talk", 0.9)}, nil, true, "messages[2] is small talk, which small_talk allows"},
		{[]evalkit.LabelScore{ls("small talk", 0.9)}, func(p *assert.TopicPolicy) { p.SmallTalk = "deny" }, false, "messages[2] is small talk, which small_talk denies"},
		{[]evalkit.LabelScore{ls("unknown", 0.9)}, nil, false, "messages[2] is on no listed topic (on_unknown: deny)"},
		{nil, func(p *assert.TopicPolicy) { p.OnUnknown = "allow" }, true, "messages[2] is on no listed topic, and on_unknown allows it"},
		{[]evalkit.LabelScore{ls("billing", 0)}, nil, false, "messages[2] is on no listed topic (on_unknown: deny)"},
	} {
		p, _ := policy(tt.scores...)
		if tt.edit != nil {
			tt.edit(&p)
		}
		res, err := p.Check(ctx, run)
		require.NoError(t, err, tt.sum)
		testify.Equal(t, tt.passed, res.Passed, tt.sum)
		testify.Equal(t, tt.sum, res.Summary)
	}

	p, _ = policy(ls("weather", 0.9))
	_, err = p.Check(ctx, run)
	testify.EqualError(t, err, `topic_policy: the classifier's best label "weather" is none of the candidates "billing", "invoices", "politics", "small talk"`)
	p, _ = policy()
	p.Classifier = judgefake.ClassifierErr(errors.New("timeout"))
	_, err = p.Check(ctx, run)
	testify.EqualError(t, err, "topic_policy: the classifier failed: timeout", "on_error deny: an error, never a verdict")

	err = assert.Validate("topic_policy", map[string]any{"description": "x", "allowed": []any{"billing"}, "on_error": "allow"})
	testify.EqualError(t, err, `topic_policy: param "on_error": allow would pass a message the classifier could not classify: evalkit never passes what it could not evaluate (a classifier error is reported as an error)`)
	err = assert.Validate("topic_policy", map[string]any{"description": "x", "allowed": []any{"billing"}, "disallowed": []any{"Billing"}})
	testify.EqualError(t, err, `topic_policy: param "disallowed": the topic "Billing" is listed twice (also in allowed)`)
	err = assert.Validate("topic_policy", map[string]any{"description": "x", "allowed": []any{}})
	testify.EqualError(t, err, `topic_policy: param "allowed": required: at least one allowed topic`)
	err = assert.Validate("topic_policy", map[string]any{"description": "x", "allowed": []any{"a"}, "examples": map[string]any{"allowed": []any{"x"}, "denied": []any{"y"}}})
	testify.ErrorContains(t, err, `topic_policy: param "examples": unknown parameter`)
	require.NoError(t, assert.Validate("topic_policy", map[string]any{"description": "x", "allowed": []any{"a"}, "on_deny": "block", "small_talk": "deny",
		"on_unknown": "allow", "recent_turns": 3, "examples": map[string]any{"allowed": []any{"x"}, "disallowed": []any{"y"}}, "classifier_id": "nvidia"}))
}
