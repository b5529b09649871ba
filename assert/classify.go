package assert

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/internal/textnorm"
)

// ErrNoClassifier is returned (wrapped) by a classifier-backed check that
// has no classifier to ask.
var ErrNoClassifier = errors.New("no classifier")

// ErrNoThreshold is returned (wrapped) by a score emitter that holds no
// threshold and so cannot pass or fail on its own (ClassifierScore): wrap
// it in an Assertion.
var ErrNoThreshold = errors.New("no threshold")

// The classification tasks of ClassifierScore, as PromptKit names its
// handlers: text_sentiment, text_toxicity, image_moderation, audio_emotion.
const (
	TaskSentiment  = "sentiment"  // text_sentiment: text, the assistant's by default
	TaskToxicity   = "toxicity"   // text_toxicity: text, the assistant's by default
	TaskModeration = "moderation" // image_moderation: an image, the assistant's by default
	TaskEmotion    = "emotion"    // audio_emotion: an audio clip, the user's by default
)

// classifierTasks are the tasks by registry type name.
var classifierTasks = map[string]string{
	"text_sentiment":   TaskSentiment,
	"text_toxicity":    TaskToxicity,
	"image_moderation": TaskModeration,
	"audio_emotion":    TaskEmotion,
}

// taskInput is what a task classifies and whose message by default.
func taskInput(task string) (evalkit.InputKind, evalkit.Role, string) {
	switch task {
	case TaskModeration:
		return evalkit.InputImage, evalkit.RoleAssistant, "image_moderation"
	case TaskEmotion:
		return evalkit.InputAudio, evalkit.RoleUser, "audio_emotion"
	case TaskToxicity:
		return evalkit.InputText, evalkit.RoleAssistant, "text_toxicity"
	}
	return evalkit.InputText, evalkit.RoleAssistant, "text_sentiment"
}

// ClassifierScore emits a classifier's score for one label of one
// message, as PromptKit's text_sentiment, text_toxicity, image_moderation
// and audio_emotion: a pure score emitter. The Classifier is asked to
// classify the message's text (TaskSentiment, TaskToxicity), its last
// image part (TaskModeration) or its last audio part (TaskEmotion), with
// Model; the score is the classification's score for ExpectedLabel, in
// [0,1], as the classifier gave it — a probability-like number whose
// direction is the label's ("toxic" near 1 is bad, "positive" near 1 is
// good).
//
// It holds no threshold and so cannot pass or fail alone: its Check
// returns an error wrapping ErrNoThreshold, and an Assertion wrapping it
// grades its score (min_score for "positive", max_score for "toxic").
// The message is the last one of MessageRole holding the input (the
// assistant's by default; the user's for TaskEmotion), or the message at
// MessageIndex in the transcript.
//
// Errors, never scores: no Classifier (ErrNoClassifier), no Model or
// ExpectedLabel, no message of the role with the input (ErrNoOutput), the
// classifier's own error, and a classification that breaks
// evalkit.Classification.Validate or has no score for ExpectedLabel.
//
// Registry types "text_sentiment", "text_toxicity", "image_moderation",
// "audio_emotion", params: model (required), expected_label (required),
// message_role, message_index (-1, the default, is the latest match; else
// the message's index in the transcript), classifier_id (a classifier the
// registry holds by id, Registry.WithClassifierID; empty is its default,
// Registry.WithClassifier). min_score and max_score are refused: put them
// on a "type: assertion" wrapper, as PromptKit does.
type ClassifierScore struct {
	Classifier evalkit.Classifier
	// Task is TaskSentiment, TaskToxicity, TaskModeration or TaskEmotion.
	Task string
	// Model is the classifier's model id. Required.
	Model string
	// ExpectedLabel is the label whose score is emitted. Required.
	ExpectedLabel string
	// MessageRole is whose message is classified; empty means the task's
	// default.
	MessageRole evalkit.Role
	// MessageIndex, when set, picks the message by its index in the
	// transcript instead of the latest match.
	MessageIndex *int
}

func classifierChecks() map[string]func(*params) (Check, error) {
	m := map[string]func(*params) (Check, error){"topic_policy": buildTopicPolicy}
	for name := range classifierTasks {
		m[name] = buildClassifierScore
	}
	return m
}

func (c ClassifierScore) validate() error {
	_, _, check := taskInput(c.Task)
	if _, ok := classifierTasks[check]; !ok || classifierTasks[check] != c.Task {
		return paramErr("classifier", "task", "want %s, %s, %s or %s, got %q", TaskSentiment, TaskToxicity, TaskModeration, TaskEmotion, c.Task)
	}
	switch {
	case strings.TrimSpace(c.Model) == "":
		return paramErr(check, "model", "required: the classifier's model id")
	case strings.TrimSpace(c.ExpectedLabel) == "":
		return paramErr(check, "expected_label", "required: the label whose score the check emits")
	case c.MessageRole != "" && c.MessageRole != evalkit.RoleUser && c.MessageRole != evalkit.RoleAssistant && c.MessageRole != evalkit.RoleTool && c.MessageRole != evalkit.RoleSystem:
		return paramErr(check, "message_role", "want user, assistant, tool or system, got %q", c.MessageRole)
	case c.MessageIndex != nil && *c.MessageIndex < 0:
		return paramErr(check, "message_index", "want a message index >= 0 (or -1 in params for the latest match), got %d", *c.MessageIndex)
	case c.Classifier == nil:
		return fmt.Errorf("%s: %w: set the check's Classifier, build the registry with assert.NewRegistry().WithClassifier(c), or in a test give evaltest.New the option evaltest.WithClassifier(c)", check, ErrNoClassifier)
	}
	return nil
}

// Check implements Check: ClassifierScore holds no threshold, so alone it
// is an error wrapping ErrNoThreshold; wrap it in an Assertion.
func (c ClassifierScore) Check(ctx context.Context, tr *evalkit.Transcript) (Result, error) {
	if err := c.validate(); err != nil {
		return Result{}, err
	}
	_, _, check := taskInput(c.Task)
	return Result{}, fmt.Errorf("%s: %w: it emits the score of %q and cannot pass or fail alone: wrap it in type: assertion with min_score or max_score (assert.Assertion in Go)", check, ErrNoThreshold, c.ExpectedLabel)
}

// emitScore implements scoreEmitter: the score an Assertion grades.
func (c ClassifierScore) emitScore(ctx context.Context, tr *evalkit.Transcript) (Result, error) {
	if err := c.validate(); err != nil {
		return Result{}, err
	}
	kind, defRole, check := taskInput(c.Task)
	role := c.MessageRole
	if role == "" {
		role = defRole
	}
	i, req, err := classifyInput(check, tr, kind, role, c.MessageIndex)
	if err != nil {
		return Result{}, err
	}
	req.Model, req.Task = c.Model, c.Task
	cl, err := callClassifier(ctx, check, c.Classifier, req)
	if err != nil {
		return Result{}, err
	}
	score, ok := cl.Score(c.ExpectedLabel)
	if !ok {
		return Result{}, fmt.Errorf("%s: the classifier gave no score for the label %q (it scored %s)", check, c.ExpectedLabel, labelList(cl))
	}
	res := Result{Passed: true, Score: score, Summary: fmt.Sprintf("%s: %q scores %s on messages[%d]", check, c.ExpectedLabel, fmtNumber(roundScore(score)), i)}
	res.Details = append(res.Details, Detail{"labels", topLabels(cl, 5)})
	if m := firstNonEmpty(cl.Model, c.Model); m != "" {
		res.Details = append(res.Details, Detail{"classifier", textnorm.Excerpt(m, maxQuote)})
	}
	return res, nil
}

// roundScore keeps four decimals of a classifier's score for a summary.
func roundScore(f float64) float64 {
	return float64(int64(f*10000+0.5)) / 10000
}

// topLabels lists the n best-scored labels: "toxic 0.91, insult 0.40".
func topLabels(cl evalkit.Classification, n int) string {
	scores := slices.Clone(cl.Scores)
	sort.SliceStable(scores, func(i, j int) bool { return scores[i].Score > scores[j].Score })
	var parts []string
	for i, s := range scores {
		if i == n {
			parts = append(parts, fmt.Sprintf("… %d more", len(scores)-n))
			break
		}
		parts = append(parts, fmt.Sprintf("%s %s", textnorm.Excerpt(s.Label, 40), fmtNumber(roundScore(s.Score))))
	}
	return textnorm.Excerpt(strings.Join(parts, ", "), maxDetail)
}

func labelList(cl evalkit.Classification) string {
	if len(cl.Scores) == 0 {
		return "no label"
	}
	names := make([]string, len(cl.Scores))
	for i, s := range cl.Scores {
		names[i] = s.Label
	}
	return quoteList(names)
}

// classifyInput finds the message a classifier check reads and makes the
// request's input from it: the message at index, or the last message of
// role holding input of kind.
func classifyInput(check string, tr *evalkit.Transcript, kind evalkit.InputKind, role evalkit.Role, index *int) (int, evalkit.ClassifyRequest, error) {
	if tr == nil {
		return 0, evalkit.ClassifyRequest{}, fmt.Errorf("%s: %w: the transcript is nil", check, ErrNoOutput)
	}
	input := func(m *evalkit.Message) (evalkit.ClassifyRequest, bool) {
		if kind == evalkit.InputText {
			text := textnorm.Newlines(m.Content)
			return evalkit.ClassifyRequest{Kind: kind, Text: text}, strings.TrimSpace(text) != ""
		}
		for k := len(m.Parts) - 1; k >= 0; k-- {
			if p := m.Parts[k]; p.Type == string(kind) && (len(p.Data) > 0 || p.URL != "" || p.FileID != "") {
				return evalkit.ClassifyRequest{Kind: kind, Media: &m.Parts[k]}, true
			}
		}
		return evalkit.ClassifyRequest{}, false
	}
	what := "text"
	if kind != evalkit.InputText {
		what = "an " + string(kind) + " part"
		if kind == evalkit.InputImage {
			what = "an image part"
		}
	}
	if index != nil {
		i := *index
		if i >= len(tr.Messages) {
			return 0, evalkit.ClassifyRequest{}, paramErr(check, "message_index", "%d is past the transcript's %s", i, plural(len(tr.Messages), "message"))
		}
		m := &tr.Messages[i]
		if m.Role != role {
			return 0, evalkit.ClassifyRequest{}, paramErr(check, "message_index", "messages[%d] is a %s message, want %s", i, m.Role, role)
		}
		req, ok := input(m)
		if !ok {
			return 0, evalkit.ClassifyRequest{}, fmt.Errorf("%s: %w: messages[%d] has no %s", check, ErrNoOutput, i, what)
		}
		return i, req, nil
	}
	for i := len(tr.Messages) - 1; i >= 0; i-- {
		if tr.Messages[i].Role != role {
			continue
		}
		if req, ok := input(&tr.Messages[i]); ok {
			return i, req, nil
		}
	}
	return 0, evalkit.ClassifyRequest{}, fmt.Errorf("%s: %w: no %s message has %s", check, ErrNoOutput, role, what)
}

// callClassifier asks the classifier, turning a panic into an error, and
// checks the classification keeps the contract.
func callClassifier(ctx context.Context, check string, c evalkit.Classifier, req evalkit.ClassifyRequest) (cl evalkit.Classification, err error) {
	if err := req.Validate(); err != nil {
		return evalkit.Classification{}, fmt.Errorf("%s: %w", check, err)
	}
	defer func() {
		if r := recover(); r != nil {
			cl, err = evalkit.Classification{}, fmt.Errorf("%s: the classifier panicked: %v", check, r)
		}
	}()
	cl, err = c.Classify(ctx, req)
	if err != nil {
		return evalkit.Classification{}, fmt.Errorf("%s: the classifier failed: %w", check, err)
	}
	if err := cl.Validate(); err != nil {
		return evalkit.Classification{}, fmt.Errorf("%s: the classification cannot be graded: %w", check, err)
	}
	return cl, nil
}

// Describe implements Describer.
func (c ClassifierScore) Describe() string {
	kind, defRole, check := taskInput(c.Task)
	role := c.MessageRole
	if role == "" {
		role = defRole
	}
	what := "text"
	if kind != evalkit.InputText {
		what = string(kind)
	}
	return describeLine(fmt.Sprintf("a classifier's score for %q on the last %s message's %s (%s, model %s, score in [0,1])", c.ExpectedLabel, role, what, check, textnorm.Quote(c.Model, 60)))
}

func buildClassifierScore(p *params) (Check, error) {
	task := classifierTasks[p.check]
	if err := noThreshold(p); err != nil {
		return nil, err
	}
	c := ClassifierScore{Task: task}
	var err error
	if c.Model, _, err = p.str(true, "model"); err != nil {
		return nil, err
	}
	if c.ExpectedLabel, _, err = p.str(true, "expected_label"); err != nil {
		return nil, err
	}
	role, _, err := p.str(false, "message_role")
	if err != nil {
		return nil, err
	}
	c.MessageRole = evalkit.Role(role)
	idx, ok, err := p.num("message_index")
	if err != nil {
		return nil, err
	}
	if ok {
		if idx != float64(int(idx)) || idx < -1 {
			return nil, p.err("message_index", "want -1 (the latest match) or a message index >= 0, got %v", idx)
		}
		if idx >= 0 {
			i := int(idx)
			c.MessageIndex = &i
		}
	}
	if c.Classifier, err = classifierParam(p); err != nil {
		return nil, err
	}
	return c, nil
}

// classifierParam is the classifier a check asks: the registry's, by the
// classifier_id param, or a stand-in while Validate checks parameters.
func classifierParam(p *params) (evalkit.Classifier, error) {
	id, _, err := p.str(false, "classifier_id")
	if err != nil {
		return nil, err
	}
	c, known := p.reg.classifier(id)
	switch {
	case p.declaring:
		return notYetClassifier{}, nil
	case id != "" && !known:
		return nil, p.err("classifier_id", "the registry has no classifier %q (add it with Registry.WithClassifierID)", id)
	}
	return c, nil
}

// notYetClassifier stands in for the classifier while Registry.Validate
// checks parameters; the check it is in is never run.
type notYetClassifier struct{}

func (notYetClassifier) Classify(context.Context, evalkit.ClassifyRequest) (evalkit.Classification, error) {
	return evalkit.Classification{}, fmt.Errorf("%w: the check was only validated", ErrNoClassifier)
}
