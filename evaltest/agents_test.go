package evaltest_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert/media"
	"github.com/evalkit-go/evalkit/evaltest"
	"github.com/evalkit-go/evalkit/judgefake"
)

// supportRun is a multi-agent run in a workflow: triage hands off to
// billing, whose state only called a tool; a PII guardrail screened the
// input; usage and latency are reported.
func supportRun() *evalkit.Transcript {
	return &evalkit.Transcript{
		Agents:   []evalkit.AgentSpec{{Name: "triage"}, {Name: "billing", Tool: "transfer_to_billing"}},
		Workflow: &evalkit.Workflow{Initial: "triage", Transitions: []evalkit.Transition{{From: "triage", To: "billing"}}},
		Messages: []evalkit.Message{
			{Role: evalkit.RoleUser, Content: "I was charged twice, card 4111 1111 1111 1111", State: "triage",
				Guardrails: []evalkit.GuardrailResult{{Type: "pii_leakage", Direction: evalkit.GuardrailInput, Triggered: true}}},
			{Role: evalkit.RoleAssistant, State: "triage", ToolCalls: []evalkit.ToolCall{{ID: "1", Name: "transfer_to_billing", Args: json.RawMessage(`{}`)}},
				LatencyMS: 700, Usage: &evalkit.Usage{InputTokens: 900, OutputTokens: 30, CostUSD: 0.004}},
			{Role: evalkit.RoleTool, ToolCallID: "1", Content: "Refund of the duplicate charge issued.", State: "billing"},
			{Role: evalkit.RoleAssistant, State: "billing", ToolCalls: []evalkit.ToolCall{{ID: "2", Name: "lookup_charge"}},
				LatencyMS: 800, Usage: &evalkit.Usage{InputTokens: 1000, OutputTokens: 20, CostUSD: 0.005}},
			{Role: evalkit.RoleTool, ToolCallID: "2", Content: "ok", State: "billing"},
		},
	}
}

func TestAgentFailureMessages(t *testing.T) {
	tests := []struct {
		name  string
		opts  []evaltest.Option
		chain func(e *evaltest.Expectation)
		want  string
	}{
		{name: "AgentInvoked", chain: func(e *evaltest.Expectation) { e.AgentInvoked("billing", "shipping") },
			want: `AgentInvoked("billing", "shipping"): error: agent_invoked: param "agents": "shipping" is not among the transcript's declared agents, "triage", "billing"`},
		{name: "AgentNotInvoked", chain: func(e *evaltest.Expectation) { e.AgentNotInvoked("billing") },
			want: `AgentNotInvoked("billing"): agent "billing" invoked 1 time, want none
invoked: billing ×1`},
		{name: "SpokeInState", chain: func(e *evaltest.Expectation) { e.SpokeInState("billing") },
			want: `SpokeInState("billing"): state "billing" produced 1 assistant message with no output (tool calls only)
states: triage → billing
spoke in: no state`},
		{name: "WorkflowComplete", chain: func(e *evaltest.Expectation) { e.WorkflowComplete() },
			want: `WorkflowComplete(): workflow not complete: it ended in state "billing"
states: triage → billing`},
		{name: "GuardrailNotTriggered", chain: func(e *evaltest.Expectation) { e.GuardrailNotTriggered("pii_leakage") },
			want: `GuardrailNotTriggered("pii_leakage"): guardrail "pii_leakage" triggered, want it not to
ran: messages[0] (input): triggered`},
		{name: "GuardrailTriggered never ran", chain: func(e *evaltest.Expectation) { e.GuardrailTriggered("toxicity") },
			want: `GuardrailTriggered("toxicity"): error: guardrail_triggered: not reported: no result of the guardrail "toxicity" in the transcript (guardrails in the run: "pii_leakage")`},
		{name: "MaxCost", chain: func(e *evaltest.Expectation) { e.MaxCost(0.005) },
			want: `MaxCost(0.005): cost $0.009, want at most $0.005
usage: 2 assistant messages, 1900 input + 50 output tokens, $0.009`},
		{name: "MaxLatency", chain: func(e *evaltest.Expectation) { e.MaxLatency(1000) },
			want: `MaxLatency(1000.0): latency 1500 ms, want at most 1000 ms
latency: 1500 ms over 2 messages`},
		{name: "Similar without an embedder", chain: func(e *evaltest.Expectation) { e.Similar("refund issued", 0.8) },
			want: `Similar("refund issued", 0.80): error: no embedder: give evaltest.New the option evaltest.WithEmbedder(e)`},
		{name: "Eval composition_output", chain: func(e *evaltest.Expectation) {
			e.Eval("composition_output", map[string]any{"contains": "refund"})
		},
			want: `Eval("composition_output", {"contains":"refund"}): error: composition_output: not reported: the transcript records no composition (Transcript.Composition)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := reportWith(tt.opts, func(et *evaltest.T) { tt.chain(et.Expect(supportRun())) })
			assert.Equal(t, []string{tt.want + "\ntranscript: 5 messages"}, tb.errors)
		})
	}
}

func TestAgentChainPasses(t *testing.T) {
	tr := supportRun()
	tr.Workflow.Complete = true
	tr.Messages = append(tr.Messages, evalkit.Message{Role: evalkit.RoleAssistant, State: "billing", Content: "Your refund of the duplicate charge is issued.",
		LatencyMS: 400, Usage: &evalkit.Usage{InputTokens: 20, OutputTokens: 15, CostUSD: 0.0004}})
	tb := reportWith([]evaltest.Option{evaltest.WithEmbedder(judgefake.BagOfWords(256))}, func(et *evaltest.T) {
		et.Expect(tr).
			AgentInvoked("billing").
			AgentNotInvoked("triage").
			AgentResponseContains("billing", "refund").
			SkillNotActivated("escalation").
			WorkflowComplete().
			WorkflowStateIs("billing").
			TransitionedTo("billing").
			SpokeInState("billing").
			GuardrailTriggered("pii_leakage").
			MaxCost(0.01).
			MaxTokens(2000).
			MaxLatency(2000).
			Similar("the refund of the duplicate charge is issued", 0.7).
			Eval("cosine_similarity", map[string]any{"reference_text": "refund issued"}).
			Eval("workflow_tool_access", map[string]any{"rules": []any{map[string]any{"state": "billing", "allowed": []any{"lookup_charge"}}}})
	})
	assert.Empty(t, tb.errors)
}

func TestSimilarFails(t *testing.T) {
	tb := reportWith([]evaltest.Option{evaltest.WithEmbedder(judgefake.BagOfWords(256))}, func(et *evaltest.T) {
		et.Expect(chat("The weather in Paris is sunny.")).Similar("Your refund of $42 is on its way", 0.8)
	})
	require.Len(t, tb.errors, 1)
	assert.Regexp(t, `^Similar\("Your refund of \$42 is on its way", 0\.80\): score 0\.\d\d, want >= 0\.80\ncheck: cosine similarity -?0\.\d{4}\n`, tb.errors[0])
}

// The media checks reach evaltest through a registry of the user's.
func TestMediaThroughEval(t *testing.T) {
	png, err := os.ReadFile("../assert/media/testdata/red_64x48.png")
	require.NoError(t, err)
	tr := chat("Here is the logo.")
	tr.Messages[1].Parts = []evalkit.Part{{Type: "image", MIMEType: "image/png", Data: png}}
	tb := reportWith([]evaltest.Option{evaltest.WithRegistry(media.NewRegistry())}, func(et *evaltest.T) {
		et.Expect(tr).
			Eval("image_format", map[string]any{"formats": []any{"png"}}).
			Eval("image_dimensions", map[string]any{"min_width": 512})
	})
	assert.Equal(t, []string{`Eval("image_dimensions", {"min_width":512}): 1 of 1 image fail
problem: messages[1] part 1: width 64 px, want at least 512
transcript: 2 messages`}, tb.errors)
}
