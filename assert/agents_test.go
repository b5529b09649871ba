package assert_test

import (
	"encoding/json"
	"testing"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
)

// agentParams are minimal valid parameters of the types in agents.go ...
// similarity.go, part of minimalParams (validate_test.go), so the walks
// over every registered type cover them too.
var agentParams = map[string]map[string]any{
	"agent_invoked":                 {"agents": []any{"billing"}},
	"agent_not_invoked":             {"agents": []any{"billing"}},
	"agent_response_contains":       {"agent": "billing", "contains": "refund"},
	"skill_activated":               {"skill_names": []any{"refunds"}},
	"skill_not_activated":           {"skill_names": []any{"refunds"}},
	"skill_activation_order":        {"sequence": []any{"lookup", "refunds"}},
	"workflow_complete":             {},
	"workflow_state_is":             {"state": "done"},
	"workflow_transitioned_to":      {"state": "billing"},
	"state_is":                      {"state": "done"},
	"transitioned_to":               {"state": "billing"},
	"workflow_transition_order":     {"sequence": []any{"triage", "billing"}},
	"workflow_tool_access":          {"rules": []any{map[string]any{"state": "triage", "allowed": []any{"lookup"}}}},
	"spoke_in_state":                {"state": "billing"},
	"workflow_spoke_in_state":       {"state": "billing"},
	"composition_step_output":       {"step": "plan", "contains": "refund"},
	"composition_branch_taken":      {"branch": "route", "expected": "billing"},
	"composition_parallel_complete": {"parallel": "fetch"},
	"composition_output":            {"contains": "refund"},
	"guardrail_triggered":           {"validator_type": "pii_leakage"},
	"cost_budget":                   {"max_cost_usd": 0.05},
	"latency_budget":                {"max_ms": 2000},
	"sentence_count":                {"scope": "turn"},
	"max_sentences":                 {"max": 3},
	"outcome_equivalent":            {"metric": "final_state", "expected_state": "done"},
	"directional":                   {"check": "same_outcome", "baseline_state": "done"},
	"cosine_similarity":             {"reference": []any{0.1, 0.2}},
}

// handoffRun: triage hands off to billing, which answers; the agents are
// declared when declare is set.
func handoffRun(declare bool) *evalkit.Transcript {
	tr := &evalkit.Transcript{Messages: []evalkit.Message{
		{Role: evalkit.RoleUser, Content: "I was charged twice"},
		{Role: evalkit.RoleAssistant, ToolCalls: []evalkit.ToolCall{{ID: "1", Name: "triage", Args: json.RawMessage(`{"q":"charged twice"}`)}}},
		{Role: evalkit.RoleTool, ToolCallID: "1", Content: "route to billing"},
		{Role: evalkit.RoleAssistant, ToolCalls: []evalkit.ToolCall{{ID: "2", Name: "transfer_to_billing"}}},
		{Role: evalkit.RoleTool, ToolCallID: "2", Content: "Refund issued for the duplicate charge."},
		{Role: evalkit.RoleUser, Content: "Thanks. And my address?"},
		{Role: evalkit.RoleAssistant, ToolCalls: []evalkit.ToolCall{{ID: "3", Name: "triage"}}},
		{Role: evalkit.RoleAssistant, Content: "Done."},
	}}
	if declare {
		tr.Agents = []evalkit.AgentSpec{{Name: "triage"}, {Name: "billing", Tool: "transfer_to_billing"}, {Name: "shipping"}}
	}
	return tr
}

func TestAgentInvoked(t *testing.T) {
	runCases(t, []evalCase{
		{name: "declared, both invoked", tr: handoffRun(true), check: "agent_invoked", params: map[string]any{"agents": []any{"triage", "billing"}},
			want: PASS, summary: `invoked "triage" and "billing"`, score: ptr(1)},
		{name: "declared, one missing", tr: handoffRun(true), check: "agent_invoked", params: map[string]any{"agents": []any{"billing", "shipping"}},
			want: FAIL, summary: `missing agent "shipping"`, score: ptr(0.5),
			details: []assert.Detail{{Label: "invoked", Text: "billing ×1, triage ×2"}}},
		{name: "undeclared: tool names are agent names", tr: handoffRun(false), check: "agent_invoked", params: map[string]any{"agents": []any{"triage"}}, want: PASS},
		{name: "undeclared: the hand-off tool is not the agent's name", tr: handoffRun(false), check: "agent_invoked", params: map[string]any{"agents": []any{"billing"}},
			want: FAIL, summary: `missing agent "billing"`, details: []assert.Detail{{Label: "invoked", Text: "none"}}},
		{name: "turn scope reads the last turn", tr: handoffRun(true), check: "agent_invoked", params: map[string]any{"agents": []any{"billing"}, "scope": "turn"},
			want: FAIL, details: []assert.Detail{{Label: "invoked", Text: "triage ×1"}, {Label: "scope", Text: "last turn (messages 5-7)"}}},
		{name: "turn scope, invoked in the last turn", tr: handoffRun(true), check: "agent_invoked", params: map[string]any{"agents": []any{"triage"}, "scope": "turn"}, want: PASS},
		{name: "undeclared name", tr: handoffRun(true), check: "agent_invoked", params: map[string]any{"agents": []any{"biling"}}, want: ERROR, param: "agents",
			summary: `agent_invoked: param "agents": "biling" is not among the transcript's declared agents, "triage", "billing", "shipping" (did you mean "billing"?)`},
		{name: "empty list", tr: handoffRun(true), check: "agent_invoked", params: map[string]any{"agents": []any{}}, want: ERROR, param: "agents"},
		{name: "padded name", tr: handoffRun(true), check: "agent_invoked", params: map[string]any{"agents": []any{"billing "}}, want: ERROR, param: "agents"},
		{name: "nil transcript", tr: nil, check: "agent_invoked", params: map[string]any{"agents": []any{"billing"}}, want: ERROR},
	})
}

func TestAgentNotInvoked(t *testing.T) {
	runCases(t, []evalCase{
		{name: "not invoked", tr: handoffRun(true), check: "agent_not_invoked", params: map[string]any{"agents": []any{"shipping"}}, want: PASS, score: ptr(1)},
		{name: "invoked", tr: handoffRun(true), check: "agent_not_invoked", params: map[string]any{"agents": []any{"shipping", "triage"}},
			want: FAIL, summary: `agent "triage" invoked 2 times, want none`, score: ptr(0.5)},
		{name: "turn scope: billing only earlier", tr: handoffRun(true), check: "agent_not_invoked", params: map[string]any{"agents": []any{"billing"}, "scope": "turn"}, want: PASS},
		{name: "undeclared typo", tr: handoffRun(true), check: "agent_not_invoked", params: map[string]any{"agents": []any{"shiping"}}, want: ERROR, param: "agents"},
		{name: "no names", tr: handoffRun(true), check: "agent_not_invoked", params: map[string]any{}, want: ERROR, param: "agents"},
	})
}

func TestAgentResponseContains(t *testing.T) {
	unanswered := handoffRun(true)
	unanswered.Messages = unanswered.Messages[:4]
	runCases(t, []evalCase{
		{name: "contains, ignoring case", tr: handoffRun(true), check: "agent_response_contains", params: map[string]any{"agent": "billing", "contains": "REFUND ISSUED"},
			want: PASS, summary: `response of agent "billing" (call 1) contains "REFUND ISSUED"`},
		{name: "case_sensitive", tr: handoffRun(true), check: "agent_response_contains", params: map[string]any{"agent": "billing", "contains": "REFUND", "case_sensitive": true},
			want: FAIL, summary: `no response of agent "billing" contains "REFUND"`,
			details: []assert.Detail{{Label: "response", Text: `call 1: "Refund issued for the duplicate charge."`}}},
		{name: "not invoked", tr: handoffRun(true), check: "agent_response_contains", params: map[string]any{"agent": "shipping", "contains": "x"},
			want: FAIL, summary: `agent "shipping" was not invoked`},
		{name: "never answered", tr: unanswered, check: "agent_response_contains", params: map[string]any{"agent": "billing", "contains": "refund"},
			want: FAIL, summary: `agent "billing" was invoked 1 time and never responded`},
		{name: "undeclared", tr: handoffRun(false), check: "agent_response_contains", params: map[string]any{"agent": "triage", "contains": "billing"}, want: PASS},
		{name: "turn scope", tr: handoffRun(true), check: "agent_response_contains", params: map[string]any{"agent": "billing", "contains": "refund", "scope": "turn"},
			want: FAIL, summary: `agent "billing" was not invoked`},
		{name: "empty contains", tr: handoffRun(true), check: "agent_response_contains", params: map[string]any{"agent": "billing", "contains": ""}, want: ERROR, param: "contains"},
		{name: "no agent", tr: handoffRun(true), check: "agent_response_contains", params: map[string]any{"contains": "x"}, want: ERROR, param: "agent"},
	})
}

// skillRun activates lookup, refunds, lookup; the last turn activates
// only lookup.
func skillRun(extra ...evalkit.ToolCall) *evalkit.Transcript {
	act := func(id, skill string) evalkit.Message {
		return evalkit.Message{Role: evalkit.RoleAssistant, ToolCalls: []evalkit.ToolCall{{ID: id, Name: evalkit.SkillActivateTool, Args: json.RawMessage(`{"name":"` + skill + `"}`)}}}
	}
	tr := &evalkit.Transcript{Messages: []evalkit.Message{
		{Role: evalkit.RoleUser, Content: "refund please"},
		act("1", "lookup"),
		{Role: evalkit.RoleTool, ToolCallID: "1", Content: "ok"},
		act("2", "refunds"),
		{Role: evalkit.RoleTool, ToolCallID: "2", Content: "ok"},
		{Role: evalkit.RoleUser, Content: "and my order?"},
		act("3", "lookup"),
		{Role: evalkit.RoleTool, ToolCallID: "3", Content: "ok"},
		{Role: evalkit.RoleAssistant, Content: "Here it is."},
	}}
	if len(extra) > 0 {
		tr.Messages = append(tr.Messages, evalkit.Message{Role: evalkit.RoleAssistant, ToolCalls: extra})
	}
	return tr
}

func TestSkillActivated(t *testing.T) {
	bad := skillRun(evalkit.ToolCall{ID: "9", Name: evalkit.SkillActivateTool, Args: json.RawMessage(`{"skill":"x"}`)})
	runCases(t, []evalCase{
		{name: "activated", tr: skillRun(), check: "skill_activated", params: map[string]any{"skill_names": []any{"lookup", "refunds"}}, want: PASS, score: ptr(1)},
		{name: "missing", tr: skillRun(), check: "skill_activated", params: map[string]any{"skill_names": []any{"refunds", "escalate"}},
			want: FAIL, summary: `missing skill "escalate"`, score: ptr(0.5),
			details: []assert.Detail{{Label: "activated", Text: "lookup → refunds → lookup"}}},
		{name: "min_calls", tr: skillRun(), check: "skill_activated", params: map[string]any{"skill_names": []any{"refunds"}, "min_calls": 2},
			want: FAIL, summary: `skill "refunds" activated 1 time, want at least 2`},
		{name: "min_calls met", tr: skillRun(), check: "skill_activated", params: map[string]any{"skill_names": []any{"lookup"}, "min_calls": 2}, want: PASS},
		{name: "turn scope", tr: skillRun(), check: "skill_activated", params: map[string]any{"skill_names": []any{"refunds"}, "scope": "turn"},
			want: FAIL, details: []assert.Detail{{Label: "activated", Text: "lookup"}, {Label: "scope", Text: "last turn (messages 5-8)"}}},
		{name: "an activation without a name", tr: bad, check: "skill_activated", params: map[string]any{"skill_names": []any{"lookup"}}, want: ERROR},
		{name: "min_calls 0", tr: skillRun(), check: "skill_activated", params: map[string]any{"skill_names": []any{"lookup"}, "min_calls": 0}, want: ERROR, param: "min_calls"},
		{name: "no names", tr: skillRun(), check: "skill_activated", params: map[string]any{"skill_names": []any{}}, want: ERROR, param: "skill_names"},
	})
}

func TestSkillNotActivated(t *testing.T) {
	runCases(t, []evalCase{
		{name: "not activated", tr: skillRun(), check: "skill_not_activated", params: map[string]any{"skill_names": []any{"escalate"}}, want: PASS},
		{name: "activated", tr: skillRun(), check: "skill_not_activated", params: map[string]any{"skill_names": []any{"refunds"}},
			want: FAIL, summary: `skill "refunds" activated 1 time, want none`, score: ptr(0)},
		{name: "turn scope", tr: skillRun(), check: "skill_not_activated", params: map[string]any{"skill_names": []any{"refunds"}, "scope": "turn"}, want: PASS},
		{name: "empty name", tr: skillRun(), check: "skill_not_activated", params: map[string]any{"skill_names": []any{""}}, want: ERROR, param: "skill_names"},
	})
}

func TestSkillActivationOrder(t *testing.T) {
	runCases(t, []evalCase{
		{name: "in order", tr: skillRun(), check: "skill_activation_order", params: map[string]any{"sequence": []any{"refunds", "lookup"}},
			want: PASS, summary: "sequence of 2 steps found at activations 2, 3"},
		{name: "out of order", tr: skillRun(), check: "skill_activation_order", params: map[string]any{"sequence": []any{"refunds", "lookup", "refunds"}},
			want: FAIL, summary: `step 3 "refunds" not activated after step 2 "lookup" (activation 3)`, score: ptr(2.0 / 3),
			details: []assert.Detail{{Label: "activated", Text: "lookup → refunds → lookup"}}},
		{name: "never", tr: skillRun(), check: "skill_activation_order", params: map[string]any{"sequence": []any{"escalate"}},
			want: FAIL, summary: `step 1 "escalate" never activated`},
		{name: "turn scope", tr: skillRun(), check: "skill_activation_order", params: map[string]any{"sequence": []any{"lookup"}, "scope": "turn"}, want: PASS},
		{name: "empty", tr: skillRun(), check: "skill_activation_order", params: map[string]any{"sequence": []any{}}, want: ERROR, param: "sequence"},
	})
}
