package evalkit

// Agents, skills, guardrails and prior results: what a multi-agent or
// guarded run records beside its messages, and the views that read it.

import (
	"fmt"
	"strings"
)

// AgentSpec is an agent the assistant may hand a task to. Multi-agent
// runtimes expose each sub-agent to the model as a tool: a call to that
// tool is a hand-off, and the tool's result is the agent's response.
type AgentSpec struct {
	// Name is the agent's name, as checks such as agent_invoked name it.
	Name string `json:"name"`
	// Description says what the agent does, when known.
	Description string `json:"description,omitempty"`
	// Tool is the name of the tool that hands off to the agent, when it
	// differs from Name (OpenAI's Agents SDK calls it "transfer_to_<name>");
	// empty means the tool is named Name.
	Tool string `json:"tool,omitempty"`
}

// toolName is the tool that hands off to the agent.
func (a AgentSpec) toolName() string {
	if a.Tool != "" {
		return a.Tool
	}
	return a.Name
}

// Handoff is one call of a declared agent (see Transcript.Handoffs).
type Handoff struct {
	// Agent is the AgentSpec.Name of the agent called.
	Agent string
	// Call is the tool call that handed off, linked to its result (the
	// agent's response, as PromptKit's agent_response_contains reads it)
	// and to the message that made it.
	Call ToolCall
}

// Handoffs returns, in order, every tool call whose name is the tool of an
// agent in Transcript.Agents, each linked to its result as ToolCalls links
// them. It returns nil when the transcript declares no agents: a check that
// is given agent names without declarations matches tool names itself.
func (t *Transcript) Handoffs() []Handoff {
	if t == nil || len(t.Agents) == 0 {
		return nil
	}
	byTool := make(map[string]string, len(t.Agents))
	for _, a := range t.Agents {
		if _, seen := byTool[a.toolName()]; !seen {
			byTool[a.toolName()] = a.Name
		}
	}
	var out []Handoff
	for _, c := range t.ToolCalls() {
		if agent, ok := byTool[c.Name]; ok {
			out = append(out, Handoff{Agent: agent, Call: c})
		}
	}
	return out
}

// SkillActivateTool is the tool through which an agent activates a skill:
// a call skill__activate({"name": "<skill>"}), as PromptKit's runtime
// records it and its skill_activated check reads it.
const SkillActivateTool = "skill__activate"

// SkillActivation is one call of SkillActivateTool.
type SkillActivation struct {
	// Skill is the call's "name" argument: the skill activated.
	Skill string
	// Call is the skill__activate call, linked to its result and message.
	Call ToolCall
}

// SkillActivations returns every skill__activate call in order with the
// skill it names. A skill__activate call whose arguments are not an object
// with a non-empty string "name" is an error naming the call: which skill
// it activated cannot be known, so no skill check may pass or fail on it.
func (t *Transcript) SkillActivations() ([]SkillActivation, error) {
	if t == nil {
		return nil, nil
	}
	var out []SkillActivation
	for i, c := range t.ToolCalls() {
		if c.Name != SkillActivateTool {
			continue
		}
		args, err := c.Arguments()
		if err != nil {
			return nil, fmt.Errorf("tool call %d (messages[%d]): %w", i+1, c.MessageIndex, err)
		}
		name, ok := args["name"].(string)
		if !ok || strings.TrimSpace(name) == "" {
			return nil, fmt.Errorf("tool call %d (messages[%d]): %s arguments have no skill name: want {\"name\": \"<skill>\"}", i+1, c.MessageIndex, SkillActivateTool)
		}
		out = append(out, SkillActivation{Skill: name, Call: c})
	}
	return out, nil
}

// Guardrail directions: which side of the model call a guardrail judged.
const (
	// GuardrailInput is a guardrail that screened the user's message before
	// the model saw it.
	GuardrailInput = "input"
	// GuardrailOutput is a guardrail that judged the assistant's response.
	GuardrailOutput = "output"
)

// GuardrailResult is one guardrail's verdict on a message, fired or not:
// what PromptKit's guardrail_triggered reads.
type GuardrailResult struct {
	// Type is the guardrail's validator type, such as "pii_leakage" or
	// "banned_words" (PromptKit's validator_type).
	Type string `json:"type"`
	// Direction is GuardrailInput or GuardrailOutput; empty when the
	// runtime did not record the side.
	Direction string `json:"direction,omitempty"`
	// Triggered reports whether the guardrail fired (found a violation).
	Triggered bool `json:"triggered"`
	// Reason is the guardrail's explanation, when it gave one.
	Reason string `json:"reason,omitempty"`
	// MessageIndex is the index in Transcript.Messages of the message the
	// guardrail judged. It is set only on results returned by
	// Transcript.Guardrails; a stored result's is 0.
	MessageIndex int `json:"-"`
}

// Guardrails returns every guardrail result of every message, in message
// order, each with its message's index.
func (t *Transcript) Guardrails() []GuardrailResult {
	if t == nil {
		return nil
	}
	var out []GuardrailResult
	for i, m := range t.Messages {
		for _, g := range m.Guardrails {
			g.MessageIndex = i
			out = append(out, g)
		}
	}
	return out
}

// PriorResult is the outcome of an evaluation that ran on the run before
// evalkit's checks did, as PromptKit's EvalContext.PriorResults holds them.
// It has one of three outcomes, like every check: passed, failed, or
// Error (could not be evaluated).
type PriorResult struct {
	// ID is the evaluation's own id, when it had one (PromptKit's EvalID).
	ID string `json:"id,omitempty"`
	// Type is the evaluation's type name, such as "content_excludes".
	Type string `json:"type"`
	// Passed reports whether the evaluation passed. It is false when
	// Error is set.
	Passed bool `json:"passed"`
	// Score is the evaluation's score in [0,1], when it gave one.
	Score *float64 `json:"score,omitempty"`
	// Summary is the evaluation's explanation, when it gave one.
	Summary string `json:"summary,omitempty"`
	// Error says why the evaluation could not be evaluated; empty when it
	// could.
	Error string `json:"error,omitempty"`
}
