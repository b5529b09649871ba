package assert

// Workflow checks read the state machine a run went through
// (Transcript.Workflow) and the state each message was produced in
// (Message.State), as PromptKit's workflow_* handlers read its state
// machine's history.

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/evalkit-go/evalkit"
)

// ErrNotReported is returned (wrapped) by a check whose transcript does not
// record what the check reads: no workflow, no composition, no usage or
// latency, no guardrail result of the type asked about, no embedding. A
// budget with nothing to measure, or a state machine that was never
// recorded, neither passes nor fails.
var ErrNotReported = errors.New("not reported")

func workflowChecks() map[string]func(*params) (Check, error) {
	return map[string]func(*params) (Check, error){
		"workflow_complete":         buildWorkflowComplete,
		"workflow_state_is":         buildWorkflowStateIs,
		"workflow_transitioned_to":  buildWorkflowTransitionedTo,
		"workflow_transition_order": buildWorkflowTransitionOrder,
		"workflow_tool_access":      buildWorkflowToolAccess,
		"spoke_in_state":            buildSpokeInState,
	}
}

// workflowOf returns tr's workflow, or an error wrapping ErrNotReported
// (ErrNoOutput for a nil transcript).
func workflowOf(check string, tr *evalkit.Transcript) (*evalkit.Workflow, error) {
	if tr == nil {
		return nil, fmt.Errorf("%s: %w: the transcript is nil", check, ErrNoOutput)
	}
	if tr.Workflow == nil {
		return nil, fmt.Errorf("%s: %w: the transcript records no workflow (Transcript.Workflow)", check, ErrNotReported)
	}
	return tr.Workflow, nil
}

// statesDetail lists the states the workflow was in: "start → triage".
func statesDetail(w *evalkit.Workflow) Detail {
	b := bounded{max: 30}
	for _, s := range w.States() {
		b.add("%s", stateName(s))
	}
	return Detail{"states", b.join(" → ")}
}

func stateName(s string) string {
	if s == "" {
		return "(no name)"
	}
	return shortName(s)
}

// stateProblem rejects a state name that no workflow could be in.
func stateProblem(check, param, s string) error {
	if problem := toolNameProblem(s); problem != "" {
		return paramErr(check, param, "%s", strings.Replace(problem, "tool name", "state name", 1))
	}
	return nil
}

// WorkflowComplete passes when the workflow reached a terminal state, as
// the workflow engine recorded it (Workflow.Complete). The failure names
// the state the run ended in. Score is 1 or 0. A transcript without a
// workflow is an error wrapping ErrNotReported.
//
// Registry type "workflow_complete", no params. As PromptKit's
// workflow_complete.
type WorkflowComplete struct{}

func buildWorkflowComplete(*params) (Check, error) { return WorkflowComplete{}, nil }

// Check implements Check.
func (c WorkflowComplete) Check(_ context.Context, tr *evalkit.Transcript) (Result, error) {
	w, err := workflowOf("workflow_complete", tr)
	if err != nil {
		return Result{}, err
	}
	if w.Complete {
		return pass(1, fmt.Sprintf("workflow complete in state %s", quoteName(w.CurrentState()))), nil
	}
	return fail(0, fmt.Sprintf("workflow not complete: it ended in state %s", quoteName(w.CurrentState())), statesDetail(w)), nil
}

// WorkflowStateIs passes when the workflow ends in State
// (Workflow.CurrentState: the last transition's target, or the initial
// state). Score is 1 or 0. Errors: an empty State or one with surrounding
// white space (*ParamError); no workflow (ErrNotReported).
//
// Registry type "workflow_state_is", params: state. As PromptKit's
// workflow_state_is.
type WorkflowStateIs struct {
	State string
}

func buildWorkflowStateIs(p *params) (Check, error) {
	s, _, err := p.str(true, "state")
	return WorkflowStateIs{State: s}, err
}

func (c WorkflowStateIs) validate() error { return stateProblem("workflow_state_is", "state", c.State) }

// Check implements Check.
func (c WorkflowStateIs) Check(_ context.Context, tr *evalkit.Transcript) (Result, error) {
	if err := c.validate(); err != nil {
		return Result{}, err
	}
	w, err := workflowOf("workflow_state_is", tr)
	if err != nil {
		return Result{}, err
	}
	got := w.CurrentState()
	if got == c.State {
		return pass(1, fmt.Sprintf("workflow in state %s", quoteName(got))), nil
	}
	return fail(0, fmt.Sprintf("workflow in state %s, want %s", quoteName(got), quoteName(c.State)), statesDetail(w)), nil
}

// WorkflowTransitionedTo passes when some transition entered State (the
// initial state is not a transition). Score is 1 or 0. Errors are
// WorkflowStateIs's.
//
// Registry type "workflow_transitioned_to", params: state. As PromptKit's
// workflow_transitioned_to.
type WorkflowTransitionedTo struct {
	State string
}

func buildWorkflowTransitionedTo(p *params) (Check, error) {
	s, _, err := p.str(true, "state")
	return WorkflowTransitionedTo{State: s}, err
}

func (c WorkflowTransitionedTo) validate() error {
	return stateProblem("workflow_transitioned_to", "state", c.State)
}

// Check implements Check.
func (c WorkflowTransitionedTo) Check(_ context.Context, tr *evalkit.Transcript) (Result, error) {
	if err := c.validate(); err != nil {
		return Result{}, err
	}
	w, err := workflowOf("workflow_transitioned_to", tr)
	if err != nil {
		return Result{}, err
	}
	for i, t := range w.Transitions {
		if t.To == c.State {
			return pass(1, fmt.Sprintf("transition %d entered %s from %s", i+1, quoteName(c.State), quoteName(t.From))), nil
		}
	}
	summary := fmt.Sprintf("never transitioned to %s", quoteName(c.State))
	if w.Initial == c.State {
		summary += " (it is the initial state, which no transition entered)"
	}
	return fail(0, summary, statesDetail(w)), nil
}

// WorkflowTransitionOrder passes when the states of Sequence appear in that
// order among the states the workflow was in (Workflow.States: the initial
// state, then each transition's target), others allowed in between. Score
// is the matched prefix of Sequence over its length.
//
//	step 2 "billing" not entered after step 1 "triage" (state 2)
//	states: start → billing → triage
//
// Errors: an empty Sequence or state name (*ParamError); no workflow
// (ErrNotReported).
//
// Registry type "workflow_transition_order", params: sequence. As
// PromptKit's workflow_transition_order.
type WorkflowTransitionOrder struct {
	Sequence []string
}

func buildWorkflowTransitionOrder(p *params) (Check, error) {
	seq, _, err := p.strs(true, "sequence")
	return WorkflowTransitionOrder{Sequence: seq}, err
}

func (c WorkflowTransitionOrder) validate() error {
	const check = "workflow_transition_order"
	if len(c.Sequence) == 0 {
		return paramErr(check, "sequence", "empty list: give at least one state")
	}
	for i, s := range c.Sequence {
		if err := stateProblem(check, "sequence", s); err != nil {
			return paramErr(check, "sequence", "item %d: %s", i, err.(*ParamError).Msg)
		}
	}
	return nil
}

// Check implements Check.
func (c WorkflowTransitionOrder) Check(_ context.Context, tr *evalkit.Transcript) (Result, error) {
	if err := c.validate(); err != nil {
		return Result{}, err
	}
	w, err := workflowOf("workflow_transition_order", tr)
	if err != nil {
		return Result{}, err
	}
	res := subsequence(c.Sequence, w.States(), "entered", "state")
	if !res.Passed {
		res.Details = []Detail{statesDetail(w)}
	}
	return res, nil
}

// StateRule says which tools may be called in a workflow state.
type StateRule struct {
	// State is the workflow state the rule governs.
	State string
	// Allowed are the tools that may be called in it; empty allows none.
	Allowed []string
}

// WorkflowToolAccess passes when every tool call was made in a state that
// permits it: a call's state is the Message.State of the assistant message
// that made it, and a call in a state with a rule must be to one of the
// rule's Allowed tools. A state without a rule allows every tool. Score is
// 1 − violations/calls. Scope defaults to Session.
//
//	2 of 5 calls break the state rules
//	violation: call 3 "issue_refund" in state "triage" (allowed: "get_order")
//
// Errors: no rules, a rule without a state or with a state given twice, an
// empty or padded tool name, a rule state that is a near miss of a state
// the run was in (a typo that would make its rule vacuous) (*ParamError);
// no workflow and no message state (ErrNotReported); a tool call made by a
// message that records no state, when the run records states at all — its
// state, and so its rule, cannot be known.
//
// Registry type "workflow_tool_access", params: rules (a list of {state,
// allowed}), scope. As PromptKit's workflow_tool_access.
type WorkflowToolAccess struct {
	Rules []StateRule
	Scope Scope
}

func buildWorkflowToolAccess(p *params) (Check, error) {
	var c WorkflowToolAccess
	v, ok, err := p.value("rules")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, p.required("rules", "required: want a list of {state, allowed} rules")
	}
	items, isList := v.([]any)
	if !isList {
		return nil, p.err("rules", "want a list of {state, allowed} rules, got %s", kindOf(v))
	}
	for i, it := range items {
		m, isMap := it.(map[string]any)
		if !isMap {
			return nil, p.err("rules", "item %d: want an object {state, allowed}, got %s", i, kindOf(it))
		}
		var r StateRule
		for k, val := range m {
			switch k {
			case "state":
				s, isStr := val.(string)
				if !isStr {
					return nil, p.err("rules", "item %d: state: want a string, got %s", i, kindOf(val))
				}
				r.State = s
			case "allowed":
				list, err := paramStrings(val)
				if err != nil {
					return nil, p.err("rules", "item %d: allowed: %v", i, err)
				}
				r.Allowed = list
			default:
				return nil, p.err("rules", "item %d: unknown field %q (known: allowed, state)", i, k)
			}
		}
		if _, has := m["allowed"]; !has {
			return nil, p.err("rules", "item %d: allowed: required (an empty list allows no tool)", i)
		}
		c.Rules = append(c.Rules, r)
	}
	c.Scope, err = p.scope()
	return c, err
}

// stringList reads a JSON list of strings.
func paramStrings(v any) ([]string, error) {
	switch v := v.(type) {
	case []string:
		return v, nil
	case []any:
		out := make([]string, len(v))
		for i, it := range v {
			s, ok := it.(string)
			if !ok {
				return nil, fmt.Errorf("item %d: want a string, got %s", i, kindOf(it))
			}
			out[i] = s
		}
		return out, nil
	}
	return nil, fmt.Errorf("want a list of strings, got %s", kindOf(v))
}

func (c WorkflowToolAccess) validate() error {
	const check = "workflow_tool_access"
	if len(c.Rules) == 0 {
		return paramErr(check, "rules", "empty list: give at least one {state, allowed} rule")
	}
	seen := map[string]bool{}
	for i, r := range c.Rules {
		if r.State == "" {
			return paramErr(check, "rules", "item %d: state: required", i)
		}
		if err := stateProblem(check, "rules", r.State); err != nil {
			return paramErr(check, "rules", "item %d: state %s", i, err.(*ParamError).Msg)
		}
		if seen[r.State] {
			return paramErr(check, "rules", "item %d: state %s has a rule already: give one rule per state", i, quoteName(r.State))
		}
		seen[r.State] = true
		for j, t := range r.Allowed {
			if problem := toolNameProblem(t); problem != "" {
				return paramErr(check, "rules", "item %d: allowed: item %d %s", i, j, problem)
			}
		}
	}
	return checkScope(check, c.Scope)
}

// Check implements Check.
func (c WorkflowToolAccess) Check(_ context.Context, tr *evalkit.Transcript) (Result, error) {
	const check = "workflow_tool_access"
	if err := c.validate(); err != nil {
		return Result{}, err
	}
	if tr == nil {
		return Result{}, fmt.Errorf("%s: %w: the transcript is nil", check, ErrNoOutput)
	}
	known := map[string]bool{}
	for _, s := range tr.Workflow.States() {
		known[s] = true
	}
	for _, m := range tr.Messages {
		if m.State != "" {
			known[m.State] = true
		}
	}
	if len(known) == 0 {
		return Result{}, fmt.Errorf("%s: %w: the transcript records no workflow and no message records a state (Message.State)", check, ErrNotReported)
	}
	rules := map[string]StateRule{}
	for _, r := range c.Rules {
		rules[r.State] = r
		if !known[r.State] {
			if near := nearestName(r.State, known); near != "" {
				return Result{}, paramErr(check, "rules", "state %s is not a state of this run (did you mean %s?)", quoteName(r.State), quoteName(near))
			}
		}
	}
	sp := scopeSpan(tr, c.Scope.or(Session))
	var calls []evalkit.ToolCall
	for _, call := range tr.ToolCalls() {
		if sp.has(call.MessageIndex) {
			calls = append(calls, call)
		}
	}
	violations := bounded{max: maxProblems}
	for i, call := range calls {
		state := tr.Messages[call.MessageIndex].State
		if state == "" {
			return Result{}, fmt.Errorf("%s: %w: call %d %s (messages[%d]) records no workflow state, so which rule applies cannot be known",
				check, ErrNotReported, i+1, quoteName(call.Name), call.MessageIndex)
		}
		r, ruled := rules[state]
		if !ruled || inList(r.Allowed, call.Name) {
			continue
		}
		allowed := "none"
		if len(r.Allowed) > 0 {
			allowed = quoteList(r.Allowed)
		}
		violations.add("call %d %s in state %s (allowed: %s)", i+1, quoteName(call.Name), quoteName(state), allowed)
	}
	score := 1 - ratio(violations.len(), len(calls))
	if violations.empty() {
		return pass(score, fmt.Sprintf("all %s within the state rules", plural(len(calls), "call"))), nil
	}
	details := make([]Detail, 0, violations.len()+1)
	for _, v := range violations.list() {
		details = append(details, Detail{"violation", v})
	}
	return fail(score, fmt.Sprintf("%d of %s break the state rules", violations.len(), plural(len(calls), "call")), sp.withScope(details)...), nil
}

func inList(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// SpokeInState passes when an assistant message produced in State
// (Message.State) has output: text that is not only white space, or media
// parts. A state that was entered but produced no output — no assistant
// message, or only tool calls — fails it; this is the check that catches a
// hand-off whose target state never spoke, which the other workflow checks,
// reading only the state machine, pass. Score is 1 or 0. Scope defaults to
// Session; Turn reads the last turn's messages.
//
//	state "billing" was entered 1 time and produced no assistant message
//
// Errors: an empty or padded State (*ParamError); a transcript in which no
// message records a state (ErrNotReported): whether any state spoke cannot
// be known.
//
// Registry type "spoke_in_state" (alias "workflow_spoke_in_state"),
// params: state, scope. As PromptKit's spoke_in_state.
type SpokeInState struct {
	State string
	Scope Scope
}

func buildSpokeInState(p *params) (Check, error) {
	var c SpokeInState
	var err error
	if c.State, _, err = p.str(true, "state"); err != nil {
		return nil, err
	}
	c.Scope, err = p.scope()
	return c, err
}

func (c SpokeInState) validate() error {
	if err := stateProblem("spoke_in_state", "state", c.State); err != nil {
		return err
	}
	return checkScope("spoke_in_state", c.Scope)
}

// Check implements Check.
func (c SpokeInState) Check(_ context.Context, tr *evalkit.Transcript) (Result, error) {
	const check = "spoke_in_state"
	if err := c.validate(); err != nil {
		return Result{}, err
	}
	if tr == nil {
		return Result{}, fmt.Errorf("%s: %w: the transcript is nil", check, ErrNoOutput)
	}
	recorded := false
	for _, m := range tr.Messages {
		recorded = recorded || m.State != ""
	}
	if !recorded {
		return Result{}, fmt.Errorf("%s: %w: no message records the workflow state it was produced in (Message.State)", check, ErrNotReported)
	}
	sp := scopeSpan(tr, c.Scope.or(Session))
	inState, toolsOnly := 0, 0
	for i, m := range tr.Messages {
		if !sp.has(i) || m.Role != evalkit.RoleAssistant || m.State != c.State {
			continue
		}
		inState++
		if strings.TrimSpace(m.Content) != "" || len(m.Parts) > 0 {
			return pass(1, fmt.Sprintf("state %s spoke at messages[%d]", quoteName(c.State), i)), nil
		}
		if len(m.ToolCalls) > 0 {
			toolsOnly++
		}
	}
	entered := 0
	for _, s := range tr.Workflow.States() {
		if s == c.State {
			entered++
		}
	}
	var summary string
	switch {
	case inState > 0 && toolsOnly == inState:
		summary = fmt.Sprintf("state %s produced %s with no output (tool calls only)", quoteName(c.State), plural(inState, "assistant message"))
	case inState > 0:
		summary = fmt.Sprintf("state %s produced %s with no output", quoteName(c.State), plural(inState, "assistant message"))
	case entered > 0 && !sp.turn:
		summary = fmt.Sprintf("state %s was entered %s and produced no assistant message", quoteName(c.State), times(entered))
	default:
		summary = fmt.Sprintf("state %s produced no assistant message", quoteName(c.State))
	}
	var details []Detail
	if tr.Workflow != nil {
		details = append(details, statesDetail(tr.Workflow))
	}
	details = append(details, spokeDetail(tr, sp))
	return fail(0, summary, sp.withScope(details)...), nil
}

// spokeDetail lists the states whose assistant messages have output.
func spokeDetail(tr *evalkit.Transcript, sp msgSpan) Detail {
	seen := map[string]bool{}
	var spoke []string
	for i, m := range tr.Messages {
		if !sp.has(i) || m.Role != evalkit.RoleAssistant || m.State == "" || seen[m.State] {
			continue
		}
		if strings.TrimSpace(m.Content) != "" || len(m.Parts) > 0 {
			seen[m.State] = true
			spoke = append(spoke, m.State)
		}
	}
	if len(spoke) == 0 {
		return Detail{"spoke in", "no state"}
	}
	sort.Strings(spoke)
	return Detail{"spoke in", quoteList(spoke)}
}
