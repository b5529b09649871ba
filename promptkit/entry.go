package promptkit

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
)

// Trigger is when a PromptKit eval runs.
type Trigger string

// PromptKit's triggers. On a finished transcript, the per-turn ones run
// the check once on each assistant turn — the transcript cut at the end
// of that turn — and the others once on the whole transcript.
const (
	EveryTurn              Trigger = "every_turn"
	OnSessionComplete      Trigger = "on_session_complete"
	SampleTurns            Trigger = "sample_turns"
	SampleSessions         Trigger = "sample_sessions"
	OnConversationComplete Trigger = "on_conversation_complete"
	OnWorkflowStep         Trigger = "on_workflow_step"
)

var triggers = []Trigger{EveryTurn, OnSessionComplete, SampleTurns, SampleSessions, OnConversationComplete, OnWorkflowStep}

func joinTriggers() string {
	s := make([]string, len(triggers))
	for i, t := range triggers {
		s[i] = string(t)
	}
	return strings.Join(s, ", ")
}

// perTurn reports whether t runs on each assistant turn.
func (t Trigger) perTurn() bool {
	return t == EveryTurn || t == SampleTurns || t == OnWorkflowStep
}

// DefaultSamplePercentage is the sampling rate of a sample_turns or
// sample_sessions eval that gives none, as PromptKit's.
const DefaultSamplePercentage = 5.0

// Entry is one PromptKit eval, assertion or validator, as written.
type Entry struct {
	Role Role
	ID   string
	// Type and Params are the check's type name and parameters, with
	// PromptKit's entry-level keys lifted out of Params: message, and a
	// validator's direction, min_score and max_score.
	Type   string
	Params map[string]any
	// Trigger is an eval's; "" for assertions and validators.
	Trigger Trigger
	// Enabled false turns the entry off (nil: on).
	Enabled *bool
	// SamplePercentage is the sampling rate of a sample_* trigger, in
	// percent (nil: DefaultSamplePercentage).
	SamplePercentage *float64
	// When are preconditions on the tool calls (nil: always).
	When *When
	// Metric and Groups are kept for reports, as written.
	Metric *Metric
	Groups []string
	// Threshold grades an eval's score (min_score, max_score).
	Threshold *Threshold
	// Direction is a validator's side: "input", "output" (the default)
	// or "both".
	Direction string
	// GuardMin and GuardMax are a validator's min_score and max_score.
	GuardMin, GuardMax *float64
	// Message and Description are kept as written.
	Message, Description string
	// Turn is a scenario assertion's user turn, from 0; -1 for the whole
	// conversation.
	Turn int
	// AllTurns is set for an eval document's all_turns assertions: the
	// check runs on each assistant turn.
	AllTurns bool
	// PassThreshold is a scenario assertion's pass rate across trials.
	PassThreshold *float64
	// Line is where the entry is written.
	Line int
}

// When are an entry's preconditions on the tool calls made so far, as
// PromptKit's: a check whose preconditions fail is not run (neither a
// pass nor a failure).
type When struct {
	ToolCalled        string
	ToolCalledPattern string
	AnyToolCalled     bool
	MinToolCalls      int
}

// Holds reports whether w holds for calls, and why not.
func (w *When) Holds(calls []evalkit.ToolCall) (bool, string) {
	if w == nil {
		return true, ""
	}
	if w.AnyToolCalled && len(calls) == 0 {
		return false, "when: no tool was called"
	}
	if w.ToolCalled != "" && !slices.ContainsFunc(calls, func(c evalkit.ToolCall) bool { return c.Name == w.ToolCalled }) {
		return false, fmt.Sprintf("when: %s was not called", quote(w.ToolCalled))
	}
	if w.ToolCalledPattern != "" {
		re, err := regexp.Compile(w.ToolCalledPattern)
		if err != nil || !slices.ContainsFunc(calls, func(c evalkit.ToolCall) bool { return re.MatchString(c.Name) }) {
			return false, fmt.Sprintf("when: no tool matching %s was called", quote(w.ToolCalledPattern))
		}
	}
	if w.MinToolCalls > 0 && len(calls) < w.MinToolCalls {
		return false, fmt.Sprintf("when: %d tool calls, want at least %d", len(calls), w.MinToolCalls)
	}
	return true, ""
}

// Metric is a PromptKit eval's metric declaration, kept for reports.
type Metric struct {
	Name, Type string
	Labels     map[string]string
	Min, Max   *float64
	Extra      map[string]any
}

// Threshold is a PromptKit eval's threshold: its score must lie in
// [MinScore, MaxScore].
type Threshold struct {
	MinScore, MaxScore *float64
}

// lift moves PromptKit's entry-level keys out of Params.
func (e *Entry) lift() {
	take := func(k string) (any, bool) {
		v, ok := e.Params[k]
		if ok {
			e.Params = maps.Clone(e.Params)
			delete(e.Params, k)
		}
		return v, ok
	}
	if v, ok := e.Params["message"].(string); ok {
		take("message")
		if e.Message == "" {
			e.Message = v
		}
	}
	if e.Role != RoleValidator {
		return
	}
	if v, ok := take("direction"); ok {
		e.Direction, _ = v.(string)
		if e.Direction == "" {
			e.Direction = fmt.Sprint(v)
		}
	}
	for _, b := range []struct {
		name string
		dst  **float64
	}{{"min_score", &e.GuardMin}, {"max_score", &e.GuardMax}} {
		if v, ok := take(b.name); ok {
			if f, isNum := toFloat(v); isNum {
				*b.dst = &f
			}
		}
	}
}

func toFloat(v any) (float64, bool) {
	switch n := v.(type) {
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	case uint64:
		return float64(n), true
	case float64:
		return n, true
	}
	return 0, false
}

// Spec returns the check the entry runs, as a type name and parameters:
// the entry's own, a validator's wrapped in evalkit's "guardrail" (which
// triggers below min_score, 1 by default, as PromptKit's guardrails do),
// an eval with a threshold in an "assertion".
func (e Entry) Spec() (string, map[string]any) {
	switch {
	case e.Role == RoleValidator:
		p := map[string]any{"eval_type": e.Type, "eval_params": e.Params}
		if e.GuardMin != nil {
			p["min_score"] = *e.GuardMin
		}
		if e.GuardMax != nil {
			p["max_score"] = *e.GuardMax
		}
		return "guardrail", p
	case e.Threshold != nil && (e.Threshold.MinScore != nil || e.Threshold.MaxScore != nil):
		p := map[string]any{"eval_type": e.Type, "eval_params": e.Params}
		if e.Threshold.MinScore != nil {
			p["min_score"] = *e.Threshold.MinScore
		}
		if e.Threshold.MaxScore != nil {
			p["max_score"] = *e.Threshold.MaxScore
		}
		return "assertion", p
	}
	return e.Type, e.Params
}

// turnTools are the tool checks that PromptKit's scenario turn assertions
// read within that turn ("Tool Checks (Turn-Level)"), where evalkit's read
// the whole session by default: a scenario turn's assertion of one of them
// gets scope: turn, unless it gives a scope.
var turnTools = []string{"tools_called", "tool_called", "tools_not_called", "tool_args", "tool_calls_with_args",
	"tool_call_count", "tool_call_sequence", "tool_call_chain", "tool_anti_pattern", "tool_no_repeat", "tool_efficiency",
	"no_tool_errors", "tool_result_includes", "tool_result_matches", "tool_result_has_media", "tool_result_media_type"}

func (e *Entry) scopeTurn(reg *assert.Registry) {
	if e.Turn < 0 || !slices.Contains(turnTools, e.Type) {
		return
	}
	if _, has := e.Params["scope"]; has {
		return
	}
	p := maps.Clone(e.Params)
	p["scope"] = "turn"
	if reg.Validate(e.Type, p) == nil {
		e.Params = p
	}
}

// validate validates the entry's check with reg.
func (e *Entry) validate(reg *assert.Registry) error {
	e.scopeTurn(reg)
	typ, params := e.Spec()
	return reg.Validate(typ, params)
}
