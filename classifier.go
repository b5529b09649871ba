package evalkit

import (
	"context"
	"fmt"
	"math"
	"strings"
)

// Classifier scores an input — a text, an image or an audio clip — against
// labels: a sentiment model ("positive", "neutral", "negative"), a toxicity
// or moderation model ("toxic", "harassment", "sexual"), an emotion model
// ("ang", "hap"), a topic classifier (the topics a policy names). Package
// openaiclassifier is one over HTTP; package judgefake has deterministic
// fakes; a user's own function is a ClassifierFunc.
//
// Like a Judge, a classifier that cannot classify — the service failed, the
// input kind is one it does not read, the context ended — returns an error,
// never a Classification: a check on a broken classifier is an error, never
// a pass and never a failure charged to the output under test.
type Classifier interface {
	Classify(ctx context.Context, req ClassifyRequest) (Classification, error)
}

// ClassifierFunc adapts a function to a Classifier.
type ClassifierFunc func(ctx context.Context, req ClassifyRequest) (Classification, error)

// Classify calls f.
func (f ClassifierFunc) Classify(ctx context.Context, req ClassifyRequest) (Classification, error) {
	return f(ctx, req)
}

// InputKind names what a ClassifyRequest holds.
type InputKind string

// The kinds of input a classifier reads.
const (
	InputText  InputKind = "text"  // ClassifyRequest.Text
	InputImage InputKind = "image" // ClassifyRequest.Media, an image part
	InputAudio InputKind = "audio" // ClassifyRequest.Media, an audio part
)

// ClassifyRequest is what a classifier is asked to score. It is plain data,
// as a JudgeRequest is.
type ClassifyRequest struct {
	// Kind says which input the request holds: InputText (Text),
	// InputImage or InputAudio (Media). Required.
	Kind InputKind `json:"kind"`
	// Text is the text to classify, for InputText.
	Text string `json:"text,omitempty"`
	// Media is the image or audio part to classify, for InputImage and
	// InputAudio: its Data, URL or FileID locates the media.
	Media *Part `json:"media,omitempty"`
	// Model is the backend model the check asks for (PromptKit's model
	// param: "unitary/toxic-bert", "omni-moderation-latest"); empty means
	// the classifier's own default.
	Model string `json:"model,omitempty"`
	// Task names what the check classifies for — "sentiment", "toxicity",
	// "moderation", "emotion", "topic" — so one classifier can route
	// checks to different models; a classifier may ignore it.
	Task string `json:"task,omitempty"`
	// Context holds earlier turns of the conversation, oldest first, as
	// "role: text", for a classifier that reads the input in context
	// (topic_policy's recent_turns).
	Context []string `json:"context,omitempty"`
	// Labels, when set, are the candidate labels the classifier must
	// choose among and score (a topic classifier's topics; a zero-shot
	// model's classes). Empty means the model's own label set.
	Labels []string `json:"labels,omitempty"`
	// Description says what the candidate labels are about, for a topic
	// classifier: the assistant's purpose ("Helps users operate
	// AltairaLabs products").
	Description string `json:"description,omitempty"`
	// Examples are example inputs for a topic classifier, under the keys
	// "allowed" and "disallowed" (PromptKit's examples.allowed and
	// examples.disallowed): messages that are in scope, and out of it.
	Examples map[string][]string `json:"examples,omitempty"`
}

// Validate returns an error for a request no classifier can answer: an
// unknown kind, a text request without text, a media request without a
// part that locates its media, or an empty or repeated candidate label.
func (r ClassifyRequest) Validate() error {
	switch r.Kind {
	case InputText:
		if r.Text == "" {
			return fmt.Errorf("evalkit: classify request has no text")
		}
	case InputImage, InputAudio:
		if r.Media == nil {
			return fmt.Errorf("evalkit: classify request for %s has no media part", r.Kind)
		}
		if len(r.Media.Data) == 0 && r.Media.URL == "" && r.Media.FileID == "" {
			return fmt.Errorf("evalkit: classify request for %s: the part has no data, URL or file id", r.Kind)
		}
	default:
		return fmt.Errorf("evalkit: classify request has unknown input kind %q: want text, image or audio", r.Kind)
	}
	seen := make(map[string]bool, len(r.Labels))
	for _, l := range r.Labels {
		if strings.TrimSpace(l) == "" {
			return fmt.Errorf("evalkit: classify request has an empty label")
		}
		if seen[l] {
			return fmt.Errorf("evalkit: classify request lists the label %q twice", l)
		}
		seen[l] = true
	}
	return nil
}

// LabelScore is one label's score: a probability-like number in [0,1].
type LabelScore struct {
	Label string  `json:"label"`
	Score float64 `json:"score"`
}

// Classification is a classifier's answer: a score in [0,1] per label it
// scored. Scores need not sum to 1: a multi-label model (moderation
// categories, toxic-bert's six heads) scores each label on its own.
type Classification struct {
	// Scores are the labels' scores, in the classifier's order.
	Scores []LabelScore `json:"scores"`
	// Model is the model that classified, as the service reported it.
	Model string `json:"model,omitempty"`
	// Flagged is the service's own verdict when it gives one (OpenAI's
	// moderation "flagged"); nil otherwise. Checks grade scores, not this.
	Flagged *bool `json:"flagged,omitempty"`
}

// Score returns label's score. Labels compare exactly, then ignoring case
// when no label matches exactly ("Positive" and "positive"); ok is false
// when the classification has no such label.
func (c Classification) Score(label string) (score float64, ok bool) {
	for _, s := range c.Scores {
		if s.Label == label {
			return s.Score, true
		}
	}
	for _, s := range c.Scores {
		if strings.EqualFold(s.Label, label) {
			return s.Score, true
		}
	}
	return 0, false
}

// Top returns the label with the highest score, the first of equals; ok is
// false when the classification has no scores.
func (c Classification) Top() (top LabelScore, ok bool) {
	for i, s := range c.Scores {
		if i == 0 || s.Score > top.Score {
			top = s
		}
	}
	return top, len(c.Scores) > 0
}

// Validate returns an error for a classification a check must not grade:
// a score that is not a finite number in [0,1], an empty label, or a label
// scored twice with different scores.
func (c Classification) Validate() error {
	seen := make(map[string]float64, len(c.Scores))
	for i, s := range c.Scores {
		if strings.TrimSpace(s.Label) == "" {
			return fmt.Errorf("evalkit: classification score %d has an empty label", i)
		}
		if math.IsNaN(s.Score) || math.IsInf(s.Score, 0) || s.Score < 0 || s.Score > 1 {
			return fmt.Errorf("evalkit: classification label %q has score %v, want a number in [0,1]", s.Label, s.Score)
		}
		if prev, dup := seen[s.Label]; dup && prev != s.Score {
			return fmt.Errorf("evalkit: classification scores the label %q twice, %v and %v", s.Label, prev, s.Score)
		}
		seen[s.Label] = s.Score
	}
	return nil
}
