package evalkit

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
)

// Judge grades content against criteria and returns a Verdict: an LLM behind
// an API (packages openaijudge, anthropicjudge), a fake (package judgefake),
// or a user's own function (JudgeFunc).
//
// A judge that cannot produce a verdict — the model's answer is unreadable,
// the API failed, the context ended — returns an error, never a failing or a
// passing verdict: a broken judge must not be charged to the agent under
// test, and must never pass it.
type Judge interface {
	Judge(ctx context.Context, req JudgeRequest) (Verdict, error)
}

// JudgeFunc adapts a function to a Judge.
type JudgeFunc func(ctx context.Context, req JudgeRequest) (Verdict, error)

// Judge calls f.
func (f JudgeFunc) Judge(ctx context.Context, req JudgeRequest) (Verdict, error) {
	return f(ctx, req)
}

// JudgeRequest is what a judge is asked to grade. It is plain data: a
// recording keys on its canonical JSON together with the judge's Identity,
// so two requests that could get different verdicts never share a key.
type JudgeRequest struct {
	// Criteria says what to judge, in the user's words: "Confirms the
	// refund and states the amount". Required.
	Criteria string `json:"criteria"`
	// Rubric is optional scoring guidance: what earns which score.
	Rubric string `json:"rubric,omitempty"`
	// Input is the user's request the content answers, when known (the
	// last user message for an answer; empty for a whole transcript).
	Input string `json:"input,omitempty"`
	// Content is the text under judgment: the assistant's answer, or a
	// transcript rendered with roles, tool calls and results (see
	// RenderTranscript). Its kind says which.
	Content string `json:"content"`
	// Kind says what Content holds: ContentAnswer (the default),
	// ContentTranscript or ContentToolCalls.
	Kind ContentKind `json:"kind,omitempty"`
	// Reference is an optional reference answer to compare against.
	Reference string `json:"reference,omitempty"`
	// References are several acceptable reference answers: the content
	// should be equivalent to any one of them (MindTrial's expected
	// results). Give Reference or References.
	References []string `json:"references,omitempty"`
	// Prompt, when set, is the judge's whole task as the user wrote it —
	// a judge prompt template rendered (MindTrial's) — sent instead of the
	// judge's own framing of the criteria and content; the judge adds only
	// the shape of its answer.
	Prompt string `json:"prompt,omitempty"`
	// Tools are tools the judge may call while judging (MindTrial's judge
	// tools): a judge that supports them lets the model call them and
	// keeps each call in Verdict.ToolCalls; one that does not returns an
	// error. Recordings key on their names, descriptions and parameters.
	Tools []JudgeTool `json:"tools,omitempty"`
	// Context holds optional context documents (retrieved passages, a
	// policy) the content should be judged against.
	Context []string `json:"context,omitempty"`
	// Scale is the range the judge scores on; the zero Scale means
	// DefaultScale. A verdict's Score is normalized from it to [0,1].
	Scale Scale `json:"scale"`
	// VerdictSchema, when set, is a JSON Schema the judge's verdict object
	// must satisfy (a judge asks the model for structured output in that
	// shape; grading may then read its fields).
	VerdictSchema json.RawMessage `json:"verdict_schema,omitempty"`
	// SystemPrompt, when set, replaces the judge's own system prompt
	// (PromptKit's system_prompt).
	SystemPrompt string `json:"system_prompt,omitempty"`
	// Model, when set, is the model the check asks for (PromptKit's model
	// param): a judge uses it instead of its own default, or returns an
	// error when it cannot.
	Model string `json:"model,omitempty"`
	// Labels, when set, are the labels the judge chooses from: besides its
	// score it gives exactly one of them, as written here, in
	// Verdict.Label ("yes" and "no", "C" and "I", "pass" and "fail"). A
	// grader reads the label against its passing labels.
	Labels []string `json:"labels,omitempty"`
	// Metric, when set, names the step of a model-graded metric the
	// request is, with its template's version ("faithfulness.verdicts/1";
	// see package assert's RAG and safety metrics): the judge does the
	// task Criteria describes and answers in VerdictSchema's shape, item
	// by item, instead of scoring the content on Scale, and evalkit
	// computes the metric from the items. Such a request needs a
	// VerdictSchema.
	Metric string `json:"metric,omitempty"`
	// ContentB, when set, makes the request pairwise: Content is Assistant
	// A's answer and ContentB Assistant B's, and the judge says which it
	// prefers (Verdict.Preference), in a Format that can say so.
	ContentB string `json:"content_b,omitempty"`
	// Game is 1 or 2 for the two games of a pairwise judgment asked both
	// ways (package verdicts, BothWays): game 2 shows the answers swapped.
	// It keeps the two games' recordings apart even when the answers are
	// equal; 0 otherwise.
	Game int `json:"game,omitempty"`
	// Format, when set, is the verdict format the judge's prompt asks for
	// (MT-Bench's "[[8]]", Arena-Hard's "[[A>>B]]": package verdicts), and
	// ParseVerdictFor reads the answer by that format's rule. It keys a
	// recording by its name.
	Format Format `json:"format,omitempty"`
}

// Format is a verdict format a judge prompt asks for, and the rule that
// reads it. Package verdicts holds the formats of published benchmarks.
type Format interface {
	// Name names the format and its version: "arena-hard/1".
	Name() string
	// Instructions tell the judge how to write its verdict, for a prompt.
	Instructions() string
	// Parse reads the verdict raw states on scale. An answer it cannot
	// read by the format's rule is an error wrapping ErrUnreadableVerdict.
	Parse(raw string, scale Scale) (Verdict, error)
}

// Validate returns an error for a request no judge can answer: no criteria,
// or a scale that cannot normalize a score.
func (r JudgeRequest) Validate() error {
	if r.Criteria == "" {
		return fmt.Errorf("evalkit: judge request has no criteria")
	}
	switch r.Kind {
	case ContentAnswer, ContentTranscript, ContentToolCalls:
	default:
		return fmt.Errorf("evalkit: judge request has unknown content kind %q", r.Kind)
	}
	seen := make(map[string]bool, len(r.Labels))
	for _, l := range r.Labels {
		if strings.TrimSpace(l) == "" {
			return fmt.Errorf("evalkit: judge request has an empty label")
		}
		if seen[l] {
			return fmt.Errorf("evalkit: judge request lists the label %q twice", l)
		}
		seen[l] = true
	}
	if r.Game < 0 || r.Game > 2 || (r.Game != 0 && r.ContentB == "") {
		return fmt.Errorf("evalkit: judge request has game %d: a game is 1 or 2, of a pairwise request (ContentB set)", r.Game)
	}
	if r.Metric != "" && len(r.VerdictSchema) == 0 {
		return fmt.Errorf("evalkit: judge request for the metric step %q has no verdict schema", r.Metric)
	}
	if r.Reference != "" && len(r.References) > 0 {
		return fmt.Errorf("evalkit: judge request gives Reference and References: give one")
	}
	tools := make(map[string]bool, len(r.Tools))
	for _, t := range r.Tools {
		switch {
		case strings.TrimSpace(t.Name) == "":
			return fmt.Errorf("evalkit: judge request has a tool without a name")
		case tools[t.Name]:
			return fmt.Errorf("evalkit: judge request lists the tool %q twice", t.Name)
		case t.Run == nil:
			return fmt.Errorf("evalkit: judge request's tool %q has no Run function", t.Name)
		}
		tools[t.Name] = true
	}
	return r.Scale.OrDefault().Validate()
}

// ContentKind names what a JudgeRequest's Content holds.
type ContentKind string

// The kinds of content a judge grades.
const (
	ContentAnswer     ContentKind = ""           // the assistant's answer
	ContentTranscript ContentKind = "transcript" // a whole conversation, rendered
	ContentToolCalls  ContentKind = "tool_calls" // the tool calls and results only
)

// Scale is the range of raw scores a judge gives, inclusive: 1 to 10 for an
// MT-Bench-style judge, 0 to 1 for a probability-like one.
type Scale struct {
	Min float64 `json:"min"`
	Max float64 `json:"max"`
}

// DefaultScale is the scale of a request that sets none: 0 to 10, which
// models grade reliably in whole numbers and which leaves 0 for "fails
// completely".
var DefaultScale = Scale{Min: 0, Max: 10}

// OrDefault returns s, or DefaultScale when s is the zero Scale.
func (s Scale) OrDefault() Scale {
	if s == (Scale{}) {
		return DefaultScale
	}
	return s
}

// Validate returns an error for a scale that cannot normalize a score: a
// non-finite bound, Min not below Max, or a width Max − Min too large for a
// float64 ([-1e308, 1e308]: it overflows to +Inf, and every score would
// normalize to 0 or NaN).
func (s Scale) Validate() error {
	if math.IsNaN(s.Min) || math.IsInf(s.Min, 0) || math.IsNaN(s.Max) || math.IsInf(s.Max, 0) {
		return fmt.Errorf("evalkit: scale [%v, %v] has a bound that is not a finite number", s.Min, s.Max)
	}
	if s.Min >= s.Max {
		return fmt.Errorf("evalkit: scale [%v, %v]: min must be below max", s.Min, s.Max)
	}
	if math.IsInf(s.Max-s.Min, 0) {
		return fmt.Errorf("evalkit: scale [%v, %v]: its width, max − min, is too large for a float64", s.Min, s.Max)
	}
	return nil
}

// Normalize maps a raw score on the scale to [0,1]: (raw − Min)/(Max − Min).
// It returns an error for a raw score outside the scale or not finite, and
// for an invalid scale: a judge that wrote 11 on a 1–10 scale said
// something its parser must not guess about.
func (s Scale) Normalize(raw float64) (float64, error) {
	if err := s.Validate(); err != nil {
		return 0, err
	}
	if math.IsNaN(raw) || math.IsInf(raw, 0) {
		return 0, fmt.Errorf("evalkit: score %v is not a finite number", raw)
	}
	if raw < s.Min || raw > s.Max {
		return 0, fmt.Errorf("evalkit: score %v is outside the scale [%v, %v]", raw, s.Min, s.Max)
	}
	return (raw - s.Min) / (s.Max - s.Min), nil
}

// Raw maps a normalized score in [0,1] back onto the scale:
// Min + score×(Max − Min), landing exactly on Min and Max at 0 and 1.
func (s Scale) Raw(score float64) float64 {
	switch score {
	case 0:
		return s.Min
	case 1:
		return s.Max
	}
	return s.Min + score*(s.Max-s.Min)
}

// Verdict is a judge's answer.
type Verdict struct {
	// Score is the verdict's score normalized to [0,1] by the request's
	// Scale; meaningful only when Scored.
	Score float64 `json:"score"`
	// RawScore is the score as the judge wrote it, on the Scale.
	RawScore float64 `json:"raw_score"`
	// Scored reports whether the judge gave a score at all: a pairwise
	// judge that answers "[[A]]" gives a Label and no score.
	Scored bool `json:"scored"`
	// Label is a categorical verdict as the judge wrote it: "A", "B" or
	// "C" (tie) for a pairwise judge, a grade, "pass".
	Label string `json:"label,omitempty"`
	// Passed is the judge's own pass/fail, when it gave one.
	Passed *bool `json:"passed,omitempty"`
	// Reasoning is the judge's explanation.
	Reasoning string `json:"reasoning,omitempty"`
	// Criteria are per-criterion scores when the judge scored several
	// named criteria (a multi-dimension rubric).
	Criteria []CriterionScore `json:"criteria,omitempty"`
	// Fields is the verdict object as the judge wrote it, when it answered
	// in JSON: grading by a boolean field or a verdict JSON Schema reads it.
	Fields map[string]any `json:"fields,omitempty"`
	// Raw is the judge's whole answer, unparsed.
	Raw string `json:"raw,omitempty"`
	// Model is the model that judged, as the provider reported it.
	Model string `json:"model,omitempty"`
	// Usage is the judge call's tokens and cost (USD); for a panel, the sum
	// over its members.
	Usage Usage `json:"usage"`
	// Votes are a panel's members' votes (see Panel); nil otherwise.
	Votes []Vote `json:"votes,omitempty"`
	// Preference is a pairwise verdict's meaning: which answer the judge
	// prefers, and how strongly; nil for a verdict that states none.
	Preference *Preference `json:"preference,omitempty"`
	// Games are the two games of a pairwise verdict asked both ways
	// (package verdicts, BothWays): game 1 as asked, game 2 with the
	// answers swapped, each with its Preference as that judge wrote it.
	Games []Verdict `json:"games,omitempty"`
	// ToolCalls are the calls the judge made to the request's Tools while
	// judging, in order: recorded and replayed with the verdict, as
	// MindTrial's validation tool-call log.
	ToolCalls []JudgeToolCall `json:"tool_calls,omitempty"`
}

// Preference is which of two answers a pairwise judge prefers: Winner "A"
// or "B" with Strength 1 (better, "A>B") or 2 (much better, "A>>B"), or a
// tie: Winner "" and Strength 0 ("A=B"). After Arena-Hard's five levels.
type Preference struct {
	Winner   string `json:"winner,omitempty"`
	Strength int    `json:"strength"`
}

// String writes p as Arena-Hard does: "A>>B", "A>B", "A=B", "B>A", "B>>A".
func (p Preference) String() string {
	switch {
	case p.Winner == "" && p.Strength == 0:
		return "A=B"
	case (p.Winner == "A" || p.Winner == "B") && (p.Strength == 1 || p.Strength == 2):
		loser := map[string]string{"A": "B", "B": "A"}[p.Winner]
		return p.Winner + strings.Repeat(">", p.Strength) + loser
	}
	return fmt.Sprintf("Preference{%q, %d}", p.Winner, p.Strength)
}

// Swapped returns p with A and B exchanged: game 2's preference in game
// 1's order.
func (p Preference) Swapped() Preference {
	switch p.Winner {
	case "A":
		p.Winner = "B"
	case "B":
		p.Winner = "A"
	}
	return p
}

// JudgeTool is a tool a judge may call while judging: a name, what it
// does, the JSON Schema of its arguments, and the function that runs it
// (never recorded; a replayed verdict does not run it).
type JudgeTool struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters,omitempty"`
	// Run runs the tool with the arguments the model wrote (a JSON
	// object) and returns what the model reads. An error is sent to the
	// model as the tool's failure, and kept in the call.
	Run func(ctx context.Context, args json.RawMessage) (string, error) `json:"-"`
}

// JudgeToolCall is one call a judge made to a tool while judging.
type JudgeToolCall struct {
	Name   string          `json:"name"`
	Args   json.RawMessage `json:"args,omitempty"`
	Result string          `json:"result,omitempty"`
	// Error is the tool's failure, when it failed.
	Error string `json:"error,omitempty"`
}

// CriterionScore is one criterion's score in a multi-dimension verdict.
type CriterionScore struct {
	Name string `json:"name"`
	// Score is normalized to [0,1]; RawScore is as written.
	Score     float64 `json:"score"`
	RawScore  float64 `json:"raw_score"`
	Reasoning string  `json:"reasoning,omitempty"`
}

// Identity describes a judge for recordings to key on: two judges with the
// same identity given the same request are expected to give the same
// verdict. Credentials and transport details are never part of it.
type Identity struct {
	// Provider is the kind of judge: "openai", "anthropic", or a user's name.
	Provider string `json:"provider"`
	// Model is the model asked to judge.
	Model string `json:"model,omitempty"`
	// Settings are the generation settings that can change a verdict
	// (temperature, max tokens, seed, ...), as the provider names them.
	// An omitted setting is absent here, not zero: a provider default is
	// not the same as an explicit 0.
	Settings map[string]any `json:"settings,omitempty"`
	// PromptVersion names the judge's prompt template version.
	PromptVersion string `json:"prompt_version,omitempty"`
}

// Identifier is implemented by judges that can be recorded and replayed.
// Judges without an identity (fakes, closures), or whose Identity has an
// empty Provider (a panel with such a member), are never recorded.
type Identifier interface {
	Identity() Identity
}
