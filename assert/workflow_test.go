package assert_test

import (
	"testing"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
)

// workflowRun: triage → billing → done; billing only called a tool, done
// answered. complete marks the workflow finished.
func workflowRun(complete bool) *evalkit.Transcript {
	return &evalkit.Transcript{
		Workflow: &evalkit.Workflow{Initial: "triage", Complete: complete, Transitions: []evalkit.Transition{
			{From: "triage", To: "billing", Event: "charge_issue"},
			{From: "billing", To: "done"},
		}},
		Messages: []evalkit.Message{
			{Role: evalkit.RoleUser, Content: "charged twice", State: "triage"},
			{Role: evalkit.RoleAssistant, Content: "Let me route you.", State: "triage", ToolCalls: []evalkit.ToolCall{{ID: "1", Name: "lookup"}}},
			{Role: evalkit.RoleTool, ToolCallID: "1", Content: "ok", State: "triage"},
			{Role: evalkit.RoleAssistant, State: "billing", ToolCalls: []evalkit.ToolCall{{ID: "2", Name: "issue_refund"}}},
			{Role: evalkit.RoleTool, ToolCallID: "2", Content: "ok", State: "billing"},
			{Role: evalkit.RoleUser, Content: "thanks", State: "done"},
			{Role: evalkit.RoleAssistant, Content: "  \n", State: "done", ToolCalls: []evalkit.ToolCall{{ID: "3", Name: "lookup"}}},
			{Role: evalkit.RoleTool, ToolCallID: "3", Content: "ok", State: "done"},
			{Role: evalkit.RoleAssistant, Content: "Refunded. Anything else?", State: "done"},
		},
	}
}

var noWorkflow = &evalkit.Transcript{Messages: []evalkit.Message{{Role: evalkit.RoleUser, Content: "hi"}, {Role: evalkit.RoleAssistant, Content: "Hello."}}}

func TestWorkflowComplete(t *testing.T) {
	runCases(t, []evalCase{
		{name: "complete", tr: workflowRun(true), check: "workflow_complete", want: PASS, summary: `workflow complete in state "done"`},
		{name: "not complete", tr: workflowRun(false), check: "workflow_complete", want: FAIL,
			summary: `workflow not complete: it ended in state "done"`, details: []assert.Detail{{Label: "states", Text: "triage → billing → done"}}},
		{name: "no workflow", tr: noWorkflow, check: "workflow_complete", want: ERROR,
			summary: "workflow_complete: not reported: the transcript records no workflow (Transcript.Workflow)"},
		{name: "a parameter", tr: workflowRun(true), check: "workflow_complete", params: map[string]any{"state": "done"}, want: ERROR, param: "state"},
	})
}

func TestWorkflowStateIs(t *testing.T) {
	runCases(t, []evalCase{
		{name: "in state", tr: workflowRun(true), check: "workflow_state_is", params: map[string]any{"state": "done"}, want: PASS},
		{name: "other state", tr: workflowRun(true), check: "workflow_state_is", params: map[string]any{"state": "billing"}, want: FAIL,
			summary: `workflow in state "done", want "billing"`},
		{name: "initial state without transitions", tr: &evalkit.Transcript{Workflow: &evalkit.Workflow{Initial: "start"}}, check: "workflow_state_is", params: map[string]any{"state": "start"}, want: PASS},
		{name: "no workflow", tr: noWorkflow, check: "workflow_state_is", params: map[string]any{"state": "done"}, want: ERROR},
		{name: "padded state", tr: workflowRun(true), check: "workflow_state_is", params: map[string]any{"state": "done "}, want: ERROR, param: "state"},
		{name: "no state", tr: workflowRun(true), check: "workflow_state_is", params: map[string]any{}, want: ERROR, param: "state"},
	})
}

func TestWorkflowTransitionedTo(t *testing.T) {
	runCases(t, []evalCase{
		{name: "transitioned", tr: workflowRun(true), check: "workflow_transitioned_to", params: map[string]any{"state": "billing"}, want: PASS,
			summary: `transition 1 entered "billing" from "triage"`},
		{name: "never", tr: workflowRun(true), check: "workflow_transitioned_to", params: map[string]any{"state": "shipping"}, want: FAIL,
			summary: `never transitioned to "shipping"`},
		{name: "the initial state is no transition", tr: workflowRun(true), check: "workflow_transitioned_to", params: map[string]any{"state": "triage"}, want: FAIL,
			summary: `never transitioned to "triage" (it is the initial state, which no transition entered)`},
		{name: "no workflow", tr: noWorkflow, check: "workflow_transitioned_to", params: map[string]any{"state": "x"}, want: ERROR},
		{name: "empty state", tr: workflowRun(true), check: "workflow_transitioned_to", params: map[string]any{"state": ""}, want: ERROR, param: "state"},
	})
}

func TestWorkflowTransitionOrder(t *testing.T) {
	runCases(t, []evalCase{
		{name: "in order, initial included", tr: workflowRun(true), check: "workflow_transition_order", params: map[string]any{"sequence": []any{"triage", "done"}}, want: PASS,
			summary: "sequence of 2 steps found at states 1, 3"},
		{name: "out of order", tr: workflowRun(true), check: "workflow_transition_order", params: map[string]any{"sequence": []any{"billing", "triage"}}, want: FAIL,
			summary: `step 2 "triage" not entered after step 1 "billing" (state 2)`, score: ptr(0.5),
			details: []assert.Detail{{Label: "states", Text: "triage → billing → done"}}},
		{name: "never", tr: workflowRun(true), check: "workflow_transition_order", params: map[string]any{"sequence": []any{"escalated"}}, want: FAIL,
			summary: `step 1 "escalated" never entered`},
		{name: "no workflow", tr: noWorkflow, check: "workflow_transition_order", params: map[string]any{"sequence": []any{"a"}}, want: ERROR},
		{name: "empty item", tr: workflowRun(true), check: "workflow_transition_order", params: map[string]any{"sequence": []any{"a", ""}}, want: ERROR, param: "sequence"},
	})
}

func rule(state string, allowed ...any) map[string]any {
	if allowed == nil {
		allowed = []any{}
	}
	return map[string]any{"state": state, "allowed": allowed}
}

func TestWorkflowToolAccess(t *testing.T) {
	stateless := workflowRun(true)
	stateless.Messages[3].State = ""
	noStates := &evalkit.Transcript{Messages: []evalkit.Message{{Role: evalkit.RoleAssistant, ToolCalls: []evalkit.ToolCall{{Name: "x"}}}}}
	runCases(t, []evalCase{
		{name: "allowed", tr: workflowRun(true), check: "workflow_tool_access",
			params: map[string]any{"rules": []any{rule("triage", "lookup"), rule("billing", "issue_refund")}}, want: PASS, summary: "all 3 calls within the state rules"},
		{name: "a state without a rule allows all", tr: workflowRun(true), check: "workflow_tool_access",
			params: map[string]any{"rules": []any{rule("billing", "issue_refund")}}, want: PASS},
		{name: "violation", tr: workflowRun(true), check: "workflow_tool_access",
			params: map[string]any{"rules": []any{rule("triage", "lookup"), rule("done")}}, want: FAIL,
			summary: "1 of 3 calls break the state rules", score: ptr(2.0 / 3),
			details: []assert.Detail{{Label: "violation", Text: `call 3 "lookup" in state "done" (allowed: none)`}}},
		{name: "turn scope", tr: workflowRun(true), check: "workflow_tool_access",
			params: map[string]any{"rules": []any{rule("billing", "lookup")}, "scope": "turn"}, want: PASS},
		{name: "a call with no state", tr: stateless, check: "workflow_tool_access",
			params: map[string]any{"rules": []any{rule("triage", "lookup")}}, want: ERROR,
			summary: `workflow_tool_access: not reported: call 2 "issue_refund" (messages[3]) records no workflow state, so which rule applies cannot be known`},
		{name: "no workflow, no states", tr: noStates, check: "workflow_tool_access", params: map[string]any{"rules": []any{rule("a")}}, want: ERROR},
		{name: "typo in a rule's state", tr: workflowRun(true), check: "workflow_tool_access", params: map[string]any{"rules": []any{rule("biling", "x")}}, want: ERROR, param: "rules",
			summary: `workflow_tool_access: param "rules": state "biling" is not a state of this run (did you mean "billing"?)`},
		{name: "duplicate state", tr: workflowRun(true), check: "workflow_tool_access", params: map[string]any{"rules": []any{rule("a"), rule("a")}}, want: ERROR, param: "rules"},
		{name: "no allowed", tr: workflowRun(true), check: "workflow_tool_access", params: map[string]any{"rules": []any{map[string]any{"state": "a"}}}, want: ERROR, param: "rules"},
		{name: "unknown field", tr: workflowRun(true), check: "workflow_tool_access", params: map[string]any{"rules": []any{map[string]any{"state": "a", "allowed": []any{}, "deny": 1}}}, want: ERROR, param: "rules"},
		{name: "empty rules", tr: workflowRun(true), check: "workflow_tool_access", params: map[string]any{"rules": []any{}}, want: ERROR, param: "rules"},
		{name: "not a list", tr: workflowRun(true), check: "workflow_tool_access", params: map[string]any{"rules": "triage"}, want: ERROR, param: "rules"},
	})
}

func TestSpokeInState(t *testing.T) {
	runCases(t, []evalCase{
		{name: "spoke", tr: workflowRun(true), check: "spoke_in_state", params: map[string]any{"state": "done"}, want: PASS, summary: `state "done" spoke at messages[8]`},
		{name: "alias", tr: workflowRun(true), check: "workflow_spoke_in_state", params: map[string]any{"state": "triage"}, want: PASS},
		{name: "tool calls only", tr: workflowRun(true), check: "spoke_in_state", params: map[string]any{"state": "billing"}, want: FAIL,
			summary: `state "billing" produced 1 assistant message with no output (tool calls only)`,
			details: []assert.Detail{{Label: "states", Text: "triage → billing → done"}, {Label: "spoke in", Text: `"done", "triage"`}}},
		{name: "entered, never spoke", tr: func() *evalkit.Transcript {
			tr := workflowRun(true)
			tr.Messages = append(tr.Messages[:3], tr.Messages[5:]...)
			return tr
		}(), check: "spoke_in_state", params: map[string]any{"state": "billing"}, want: FAIL,
			summary: `state "billing" was entered 1 time and produced no assistant message`},
		{name: "turn scope", tr: workflowRun(true), check: "spoke_in_state", params: map[string]any{"state": "triage", "scope": "turn"}, want: FAIL,
			summary: `state "triage" produced no assistant message`},
		{name: "no message records a state", tr: noWorkflow, check: "spoke_in_state", params: map[string]any{"state": "done"}, want: ERROR},
		{name: "no state", tr: workflowRun(true), check: "spoke_in_state", params: map[string]any{}, want: ERROR, param: "state"},
	})
}

func compositionRun(output string) *evalkit.Transcript {
	return &evalkit.Transcript{
		Messages: []evalkit.Message{{Role: evalkit.RoleUser, Content: "refund"}, {Role: evalkit.RoleAssistant, Content: output}},
		Composition: &evalkit.Composition{Output: output, Steps: []evalkit.CompositionStep{
			{Name: "plan", Status: evalkit.StepCompleted, Output: "Plan: look up the order, then refund it."},
			{Name: "route", Kind: evalkit.StepKindBranch, Status: evalkit.StepCompleted, BranchTaken: "billing"},
			{Name: "fetch", Kind: evalkit.StepKindParallel, Status: evalkit.StepCompleted, Steps: []evalkit.CompositionStep{
				{Name: "fetch_order", Status: evalkit.StepCompleted},
				{Name: "fetch_user", Status: evalkit.StepCompleted},
			}},
			{Name: "enrich", Kind: evalkit.StepKindParallel, Steps: []evalkit.CompositionStep{
				{Name: "prices", Status: evalkit.StepFailed, Error: "timeout"},
				{Name: "stock"},
				{Name: "tax", Status: evalkit.StepCompleted},
			}},
			{Name: "notify", Status: evalkit.StepSkipped},
			{Name: "audit", Status: evalkit.StepFailed, Error: "disk full"},
			{Name: "empty_group", Kind: evalkit.StepKindParallel},
		}},
	}
}

func TestCompositionStepOutput(t *testing.T) {
	runCases(t, []evalCase{
		{name: "contains", tr: compositionRun("Done."), check: "composition_step_output", params: map[string]any{"step": "plan", "contains": "REFUND"}, want: PASS},
		{name: "equals", tr: compositionRun("Done."), check: "composition_step_output", params: map[string]any{"step": "plan", "equals": "Plan: look up the order, then refund it."}, want: PASS},
		{name: "does not contain", tr: compositionRun("Done."), check: "composition_step_output", params: map[string]any{"step": "plan", "contains": "cancel"}, want: FAIL,
			summary: `step "plan" output does not contain "cancel"`},
		{name: "case_sensitive", tr: compositionRun("Done."), check: "composition_step_output", params: map[string]any{"step": "plan", "contains": "REFUND", "case_sensitive": true}, want: FAIL},
		{name: "equals differs", tr: compositionRun("Done."), check: "composition_step_output", params: map[string]any{"step": "plan", "equals": "Plan"}, want: FAIL,
			summary: `step "plan" output is "Plan: look up the order, then refund it.", want "Plan"`},
		{name: "skipped", tr: compositionRun("Done."), check: "composition_step_output", params: map[string]any{"step": "notify", "contains": "x"}, want: FAIL, summary: `step "notify" was skipped`},
		{name: "failed", tr: compositionRun("Done."), check: "composition_step_output", params: map[string]any{"step": "audit", "contains": "x"}, want: FAIL, summary: `step "audit" failed: "disk full"`},
		{name: "no such step", tr: compositionRun("Done."), check: "composition_step_output", params: map[string]any{"step": "plann", "contains": "x"}, want: FAIL,
			summary: `no step named "plann" ran`, hasDetails: []assert.Detail{{Label: "hint", Text: `did you mean "plan"?`}}},
		{name: "no composition", tr: noWorkflow, check: "composition_step_output", params: map[string]any{"step": "plan", "contains": "x"}, want: ERROR},
		{name: "both contains and equals", tr: compositionRun("x"), check: "composition_step_output", params: map[string]any{"step": "plan", "contains": "x", "equals": "y"}, want: ERROR, param: "equals"},
		{name: "neither", tr: compositionRun("x"), check: "composition_step_output", params: map[string]any{"step": "plan"}, want: ERROR, param: "contains"},
		{name: "case_sensitive with equals", tr: compositionRun("x"), check: "composition_step_output", params: map[string]any{"step": "plan", "equals": "y", "case_sensitive": true}, want: ERROR, param: "case_sensitive"},
	})
}

func TestCompositionBranchTaken(t *testing.T) {
	runCases(t, []evalCase{
		{name: "taken", tr: compositionRun("x"), check: "composition_branch_taken", params: map[string]any{"branch": "route", "expected": "billing"}, want: PASS},
		{name: "other target", tr: compositionRun("x"), check: "composition_branch_taken", params: map[string]any{"branch": "route", "expected": "shipping"}, want: FAIL,
			summary: `branch "route" took "billing", want "shipping"`},
		{name: "no such branch", tr: compositionRun("x"), check: "composition_branch_taken", params: map[string]any{"branch": "router", "expected": "billing"}, want: FAIL},
		{name: "not a branch", tr: compositionRun("x"), check: "composition_branch_taken", params: map[string]any{"branch": "plan", "expected": "billing"}, want: ERROR, param: "branch",
			summary: `composition_branch_taken: param "branch": step "plan" is a step step, not a branch`},
		{name: "no expected", tr: compositionRun("x"), check: "composition_branch_taken", params: map[string]any{"branch": "route"}, want: ERROR, param: "expected"},
	})
}

func TestCompositionParallelComplete(t *testing.T) {
	runCases(t, []evalCase{
		{name: "complete", tr: compositionRun("x"), check: "composition_parallel_complete", params: map[string]any{"parallel": "fetch"}, want: PASS,
			summary: `parallel "fetch" complete: 2 steps`},
		{name: "incomplete", tr: compositionRun("x"), check: "composition_parallel_complete", params: map[string]any{"parallel": "enrich"}, want: FAIL,
			summary: `parallel "enrich" incomplete: 2 of 3 steps did not complete`, score: ptr(1.0 / 3),
			details: []assert.Detail{{Label: "step", Text: `"prices" failed: "timeout"`}, {Label: "step", Text: `"stock" has no recorded status`}}},
		{name: "no members", tr: compositionRun("x"), check: "composition_parallel_complete", params: map[string]any{"parallel": "empty_group"}, want: FAIL},
		{name: "not a group", tr: compositionRun("x"), check: "composition_parallel_complete", params: map[string]any{"parallel": "plan"}, want: ERROR, param: "parallel"},
		{name: "no composition", tr: noWorkflow, check: "composition_parallel_complete", params: map[string]any{"parallel": "fetch"}, want: ERROR},
	})
}

func TestCompositionOutput(t *testing.T) {
	runCases(t, []evalCase{
		{name: "contains", tr: compositionRun("Refund of $42 issued."), check: "composition_output", params: map[string]any{"contains": "refund"}, want: PASS},
		{name: "equals", tr: compositionRun("Done."), check: "composition_output", params: map[string]any{"equals": "Done."}, want: PASS},
		{name: "does not contain", tr: compositionRun("Done."), check: "composition_output", params: map[string]any{"contains": "refund"}, want: FAIL,
			summary: `the composition's output does not contain "refund"`},
		{name: "no output recorded", tr: compositionRun(""), check: "composition_output", params: map[string]any{"contains": "x"}, want: ERROR,
			summary: "composition_output: not reported: the composition recorded no final output (Composition.Output)"},
		{name: "empty contains", tr: compositionRun("x"), check: "composition_output", params: map[string]any{"contains": ""}, want: ERROR, param: "contains"},
	})
}

func guardRun() *evalkit.Transcript {
	return &evalkit.Transcript{
		Messages: []evalkit.Message{
			{Role: evalkit.RoleUser, Content: "my SSN is 123-45-6789", Guardrails: []evalkit.GuardrailResult{{Type: "pii_leakage", Direction: evalkit.GuardrailInput, Triggered: true}}},
			{Role: evalkit.RoleAssistant, Content: "I can't store that.", Guardrails: []evalkit.GuardrailResult{{Type: "pii_leakage", Direction: evalkit.GuardrailOutput}, {Type: "toxicity"}}},
			{Role: evalkit.RoleUser, Content: "ok"},
			{Role: evalkit.RoleAssistant, Content: "Anything else?", Guardrails: []evalkit.GuardrailResult{{Type: "banned_words", Direction: evalkit.GuardrailOutput}}},
		},
		PriorResults: []evalkit.PriorResult{
			{Type: "content_excludes", ID: "no-competitors", Passed: false},
			{Type: "json_valid", Passed: true},
			{Type: "flaky_check", Error: "timeout"},
		},
	}
}

func TestGuardrailTriggered(t *testing.T) {
	runCases(t, []evalCase{
		{name: "triggered in either direction", tr: guardRun(), check: "guardrail_triggered", params: map[string]any{"validator_type": "pii_leakage"}, want: PASS,
			summary: `guardrail "pii_leakage" triggered`},
		{name: "input side", tr: guardRun(), check: "guardrail_triggered", params: map[string]any{"validator_type": "pii_leakage", "direction": "input"}, want: PASS},
		{name: "output side did not", tr: guardRun(), check: "guardrail_triggered", params: map[string]any{"validator_type": "pii_leakage", "direction": "output"}, want: FAIL,
			summary: `guardrail "pii_leakage" (output) did not trigger, want it to`, details: []assert.Detail{{Label: "ran", Text: "messages[1] (output): not triggered"}}},
		{name: "should not trigger, did not", tr: guardRun(), check: "guardrail_triggered", params: map[string]any{"validator_type": "banned_words", "should_trigger": false}, want: PASS,
			summary: `guardrail "banned_words" did not trigger`},
		{name: "should not trigger, did", tr: guardRun(), check: "guardrail_triggered", params: map[string]any{"validator_type": "pii_leakage", "should_trigger": false}, want: FAIL,
			summary: `guardrail "pii_leakage" triggered, want it not to`},
		{name: "a failed prior result fired", tr: guardRun(), check: "guardrail_triggered", params: map[string]any{"validator_type": "content_excludes"}, want: PASS},
		{name: "prior result by id", tr: guardRun(), check: "guardrail_triggered", params: map[string]any{"validator_type": "no-competitors"}, want: PASS},
		{name: "a passed prior result did not", tr: guardRun(), check: "guardrail_triggered", params: map[string]any{"validator_type": "json_valid", "should_trigger": false}, want: PASS},
		{name: "turn scope: the last turn's guardrails", tr: guardRun(), check: "guardrail_triggered", params: map[string]any{"validator_type": "banned_words", "scope": "turn"}, want: FAIL},
		{name: "turn scope reads no prior results", tr: guardRun(), check: "guardrail_triggered", params: map[string]any{"validator_type": "json_valid", "scope": "turn"}, want: ERROR},
		{name: "never ran", tr: guardRun(), check: "guardrail_triggered", params: map[string]any{"validator_type": "pii_leakge", "should_trigger": false}, want: ERROR,
			summary: `guardrail_triggered: not reported: no result of the guardrail "pii_leakge" in the transcript (guardrails in the run: "banned_words", "content_excludes", "flaky_check", "json_valid", "pii_leakage", "toxicity")`},
		{name: "a result without a direction", tr: guardRun(), check: "guardrail_triggered", params: map[string]any{"validator_type": "toxicity", "direction": "output"}, want: ERROR},
		{name: "a prior result has no side", tr: guardRun(), check: "guardrail_triggered", params: map[string]any{"validator_type": "content_excludes", "direction": "output"}, want: ERROR},
		{name: "a prior result that errored", tr: guardRun(), check: "guardrail_triggered", params: map[string]any{"validator_type": "flaky_check"}, want: ERROR,
			summary: `guardrail_triggered: guardrail "flaky_check": prior result 3: could not be evaluated: "timeout"`},
		{name: "bad direction", tr: guardRun(), check: "guardrail_triggered", params: map[string]any{"validator_type": "pii_leakage", "direction": "outbound"}, want: ERROR, param: "direction"},
		{name: "no validator_type", tr: guardRun(), check: "guardrail_triggered", params: map[string]any{}, want: ERROR, param: "validator_type"},
		{name: "should_trigger not a bool", tr: guardRun(), check: "guardrail_triggered", params: map[string]any{"validator_type": "x", "should_trigger": "no"}, want: ERROR, param: "should_trigger"},
	})
}
