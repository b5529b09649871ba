package evaltest

import (
	"context"
	"fmt"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
)

// Fluent methods for the agent, skill, workflow, guardrail, budget and
// similarity checks most tests use; Eval(type, params) reaches the rest
// (composition_*, workflow_tool_access, outcome_equivalent, directional,
// the media checks with a registry from package assert/media).

// AgentInvoked checks that each agent was called anywhere in the
// transcript: a hand-off to a declared agent (Transcript.Agents), or a
// tool call named as the agent (assert.AgentInvoked).
func (e *Expectation) AgentInvoked(agents ...string) *Expectation {
	e.t.tb.Helper()
	e.report(call("AgentInvoked", strArgs(agents)...), assert.AgentInvoked{Agents: agents})
	return e
}

// AgentNotInvoked checks that none of the agents was called
// (assert.AgentNotInvoked).
func (e *Expectation) AgentNotInvoked(agents ...string) *Expectation {
	e.t.tb.Helper()
	e.report(call("AgentNotInvoked", strArgs(agents)...), assert.AgentNotInvoked{Agents: agents})
	return e
}

// AgentResponseContains checks that a response of agent — the result of a
// call to it — contains text, ignoring case (assert.AgentResponseContains).
func (e *Expectation) AgentResponseContains(agent, text string) *Expectation {
	e.t.tb.Helper()
	e.report(call("AgentResponseContains", agent, text), assert.AgentResponseContains{Agent: agent, Contains: text})
	return e
}

// SkillActivated checks that each skill was activated (a skill__activate
// call naming it) anywhere in the transcript (assert.SkillActivated).
func (e *Expectation) SkillActivated(skills ...string) *Expectation {
	e.t.tb.Helper()
	e.report(call("SkillActivated", strArgs(skills)...), assert.SkillActivated{Skills: skills})
	return e
}

// SkillNotActivated checks that none of the skills was activated
// (assert.SkillNotActivated).
func (e *Expectation) SkillNotActivated(skills ...string) *Expectation {
	e.t.tb.Helper()
	e.report(call("SkillNotActivated", strArgs(skills)...), assert.SkillNotActivated{Skills: skills})
	return e
}

// WorkflowComplete checks that the workflow reached a terminal state
// (assert.WorkflowComplete).
func (e *Expectation) WorkflowComplete() *Expectation {
	e.t.tb.Helper()
	e.report(call("WorkflowComplete"), assert.WorkflowComplete{})
	return e
}

// WorkflowStateIs checks that the workflow ends in state
// (assert.WorkflowStateIs).
func (e *Expectation) WorkflowStateIs(state string) *Expectation {
	e.t.tb.Helper()
	e.report(call("WorkflowStateIs", state), assert.WorkflowStateIs{State: state})
	return e
}

// TransitionedTo checks that the workflow transitioned to state
// (assert.WorkflowTransitionedTo).
func (e *Expectation) TransitionedTo(state string) *Expectation {
	e.t.tb.Helper()
	e.report(call("TransitionedTo", state), assert.WorkflowTransitionedTo{State: state})
	return e
}

// SpokeInState checks that state produced assistant output, not only tool
// calls (assert.SpokeInState).
func (e *Expectation) SpokeInState(state string) *Expectation {
	e.t.tb.Helper()
	e.report(call("SpokeInState", state), assert.SpokeInState{State: state})
	return e
}

// GuardrailTriggered checks that the guardrail of validatorType fired,
// on either side (assert.GuardrailTriggered); a guardrail that never ran is
// an error, not a failure.
func (e *Expectation) GuardrailTriggered(validatorType string) *Expectation {
	e.t.tb.Helper()
	e.report(call("GuardrailTriggered", validatorType), assert.GuardrailTriggered{ValidatorType: validatorType})
	return e
}

// GuardrailNotTriggered checks that the guardrail of validatorType ran and
// did not fire (assert.GuardrailTriggered with ShouldTrigger false).
func (e *Expectation) GuardrailNotTriggered(validatorType string) *Expectation {
	e.t.tb.Helper()
	no := false
	e.report(call("GuardrailNotTriggered", validatorType), assert.GuardrailTriggered{ValidatorType: validatorType, ShouldTrigger: &no})
	return e
}

// MaxCost checks that the run cost at most usd US dollars, summed over
// the messages' usage (assert.CostBudget); a run that reports no cost is
// an error.
func (e *Expectation) MaxCost(usd float64) *Expectation {
	e.t.tb.Helper()
	e.report(call("MaxCost", usd), assert.CostBudget{MaxCostUSD: &usd})
	return e
}

// MaxTokens checks that the run used at most n tokens, input and output
// together (assert.CostBudget's MaxTotalTokens).
func (e *Expectation) MaxTokens(n int) *Expectation {
	e.t.tb.Helper()
	e.report(call("MaxTokens", n), assert.CostBudget{MaxTotalTokens: &n})
	return e
}

// MaxLatency checks that the run took at most ms milliseconds, summed over
// the messages' latencies (assert.LatencyBudget); a run that reports none
// is an error.
func (e *Expectation) MaxLatency(ms float64) *Expectation {
	e.t.tb.Helper()
	e.report(call("MaxLatency", ms), assert.LatencyBudget{MaxMS: ms})
	return e
}

// Similar checks that the last assistant message is at least min similar
// to reference, the cosine of their embeddings by the T's embedder
// (WithEmbedder), an assert.Assertion over assert.CosineSimilarity. A
// failure reads:
//
//	Similar("Your refund of $42 is on its way", 0.80): score 0.31, want >= 0.80
//	check: cosine similarity 0.3100
func (e *Expectation) Similar(reference string, min float64) *Expectation {
	e.t.tb.Helper()
	label := call("Similar", reference, rawLabel(fmt.Sprintf("%.2f", min)))
	if e.t.x.embedder == nil {
		e.report(label, assert.CheckFunc(func(context.Context, *evalkit.Transcript) (assert.Result, error) {
			return assert.Result{}, fmt.Errorf("%w: give evaltest.New the option evaltest.WithEmbedder(e)", assert.ErrNoEmbedder)
		}))
		return e
	}
	e.report(label, assert.Assertion{Eval: assert.CosineSimilarity{ReferenceText: reference, Embedder: e.t.embedder()}, MinScore: &min})
	return e
}
