package evalkit_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
)

// agentRun is an evalkit JSON transcript with every field of the extended
// model: a workflow, a composition, sub-agents, a skill, guardrails, prior
// results, media with dimensions, latency, usage and cost.
const agentRun = `{
  "messages": [
    {"role": "system", "content": "You triage support requests.", "state": "intake"},
    {"role": "user", "content": "My card number is 4111 1111 1111 1111, refund me", "state": "intake", "guardrails": [
      {"type": "pii_leakage", "direction": "input", "triggered": true, "reason": "card number"}
    ]},
    {"role": "assistant", "state": "intake", "latency_ms": 820.5, "usage": {"input_tokens": 120, "output_tokens": 30, "cached_input_tokens": 100, "cost_usd": 0.0012},
     "reasoning": [{"text": "A refund: activate the refunds skill."}],
     "tool_calls": [
      {"id": "c1", "name": "skill__activate", "args": {"name": "refunds"}},
      {"id": "c2", "name": "transfer_to_billing", "args": {"reason": "refund"}}
    ]},
    {"role": "tool", "tool_call_id": "c1", "content": "skill refunds active", "latency_ms": 3},
    {"role": "tool", "tool_call_id": "c2", "content": "Billing: refund of $42 issued", "latency_ms": 1500,
     "parts": [{"type": "image", "mime_type": "image/png", "data": "iVBORw0KGgo=", "width": 640, "height": 480, "name": "receipt.png"}]},
    {"role": "assistant", "state": "billing", "latency_ms": 400, "usage": {"input_tokens": 200, "output_tokens": 20, "cost_usd": 0.002},
     "content": "Your refund of $42 is on its way.", "parts": [{"type": "audio", "mime_type": "audio/wav", "url": "https://example.test/a.wav", "duration_ms": 2500}],
     "guardrails": [{"type": "banned_words", "direction": "output", "triggered": false}]},
    {"role": "user", "content": "thanks"},
    {"role": "assistant", "state": "done", "content": "You're welcome."}
  ],
  "agents": [{"name": "billing", "description": "Handles refunds", "tool": "transfer_to_billing"}, {"name": "search"}],
  "workflow": {"initial": "intake", "transitions": [{"from": "intake", "to": "billing", "event": "refund_requested"}, {"to": "done"}], "complete": true},
  "composition": {"output": "refund issued", "steps": [
    {"name": "classify", "status": "completed", "output": "refund"},
    {"name": "route", "kind": "branch", "status": "completed", "branch_taken": "billing"},
    {"name": "notify", "kind": "parallel", "status": "completed", "steps": [
      {"name": "email", "status": "completed", "output": "sent"},
      {"name": "sms", "status": "failed", "error": "no phone number"}
    ]}
  ]},
  "prior_results": [
    {"id": "tone-1", "type": "llm_judge", "passed": true, "score": 0.9, "summary": "polite"},
    {"type": "content_excludes", "passed": false},
    {"type": "toxicity", "error": "judge unavailable"}
  ]
}`

func TestDecodeExtendedModel(t *testing.T) {
	tr, err := evalkit.Decode([]byte(agentRun))
	require.NoError(t, err)

	t.Run("messages", func(t *testing.T) {
		assert.Equal(t, "intake", tr.Messages[2].State)
		assert.Equal(t, 820.5, tr.Messages[2].LatencyMS)
		assert.Equal(t, []evalkit.Reasoning{{Text: "A refund: activate the refunds skill."}}, tr.Messages[2].Reasoning)
		assert.Empty(t, tr.Messages[2].Content, "reasoning is not output")
		assert.Equal(t, "Your refund of $42 is on its way.\nYou're welcome.", tr.AssistantText())
		assert.Equal(t, []evalkit.Part{{Type: "audio", MIMEType: "audio/wav", URL: "https://example.test/a.wav", DurationMS: 2500}}, tr.Messages[5].Parts)
	})
	t.Run("tool results carry media and their message", func(t *testing.T) {
		cs := tr.ToolCalls()
		require.Len(t, cs, 2)
		assert.Equal(t, 2, cs[1].MessageIndex)
		require.NotNil(t, cs[1].Result)
		assert.Equal(t, 4, cs[1].Result.MessageIndex)
		assert.Equal(t, []evalkit.Part{{Type: "image", MIMEType: "image/png", Name: "receipt.png", Data: []byte("\x89PNG\r\n\x1a\n"), Width: 640, Height: 480}}, cs[1].Result.Parts)
	})
	t.Run("usage and latency", func(t *testing.T) {
		u, ok := tr.Usage()
		require.True(t, ok)
		assert.Equal(t, 320, u.InputTokens)
		assert.Equal(t, 50, u.OutputTokens)
		assert.Equal(t, 100, u.CachedInputTokens)
		assert.Equal(t, 370, u.TotalTokens())
		assert.InDelta(t, 0.0032, u.CostUSD, 1e-12)
		ms, ok := tr.LatencyMS()
		require.True(t, ok)
		assert.Equal(t, 2723.5, ms)

		turns := tr.Turns()
		require.Len(t, turns, 3)
		_, ok = turns[2].Usage()
		assert.False(t, ok, "the last turn reports no usage: unknown, not zero")
		_, ok = turns[2].LatencyMS()
		assert.False(t, ok)
		ms, _ = turns[1].LatencyMS()
		assert.Equal(t, 2723.5, ms)
		assert.Equal(t, 2, turns[1].ToolCalls()[0].MessageIndex, "a turn's calls know their index in the transcript")

		_, ok = (&evalkit.Transcript{}).Usage()
		assert.False(t, ok)
	})
	t.Run("hand-offs and skills", func(t *testing.T) {
		hs := tr.Handoffs()
		require.Len(t, hs, 1)
		assert.Equal(t, "billing", hs[0].Agent)
		assert.Equal(t, "Billing: refund of $42 issued", hs[0].Call.Result.Content)

		skills, err := tr.SkillActivations()
		require.NoError(t, err)
		require.Len(t, skills, 1)
		assert.Equal(t, "refunds", skills[0].Skill)
		assert.Equal(t, "skill refunds active", skills[0].Call.Result.Content)
	})
	t.Run("workflow", func(t *testing.T) {
		w := tr.Workflow
		assert.Equal(t, "done", w.CurrentState())
		assert.Equal(t, []string{"intake", "billing", "done"}, w.States())
		assert.Equal(t, evalkit.Transition{From: "billing", To: "done"}, w.Transitions[1], "from filled in from the history")
		assert.True(t, w.Complete)
	})
	t.Run("composition", func(t *testing.T) {
		c := tr.Composition
		assert.Equal(t, "refund issued", c.Output)
		route, ok := c.Step("route")
		require.True(t, ok)
		assert.Equal(t, "billing", route.BranchTaken)
		sms, ok := c.Step("sms")
		require.True(t, ok, "nested steps are found")
		assert.Equal(t, evalkit.StepFailed, sms.Status)
		_, ok = c.Step("nope")
		assert.False(t, ok)
	})
	t.Run("guardrails and prior results", func(t *testing.T) {
		assert.Equal(t, []evalkit.GuardrailResult{
			{Type: "pii_leakage", Direction: evalkit.GuardrailInput, Triggered: true, Reason: "card number", MessageIndex: 1},
			{Type: "banned_words", Direction: evalkit.GuardrailOutput, MessageIndex: 5},
		}, tr.Guardrails())
		score := 0.9
		assert.Equal(t, []evalkit.PriorResult{
			{ID: "tone-1", Type: "llm_judge", Passed: true, Score: &score, Summary: "polite"},
			{Type: "content_excludes"},
			{Type: "toxicity", Error: "judge unavailable"},
		}, tr.PriorResults)
	})
	t.Run("round trip through encoding/json", func(t *testing.T) {
		// encoding/json compacts the arguments' raw JSON once; from then
		// on the transcript is a fixed point of Marshal and Decode.
		tr, err := evalkit.Decode([]byte(agentRun)) // a copy of its own: this test edits it
		require.NoError(t, err)
		data, err := json.Marshal(tr)
		require.NoError(t, err)
		once, err := evalkit.Decode(data)
		require.NoError(t, err)
		assert.JSONEq(t, string(tr.Messages[2].ToolCalls[0].Args), string(once.Messages[2].ToolCalls[0].Args))
		data, err = json.Marshal(once)
		require.NoError(t, err)
		twice, err := evalkit.Decode(data)
		require.NoError(t, err)
		assert.Equal(t, once, twice)
		once.Messages[2].ToolCalls, tr.Messages[2].ToolCalls = nil, nil
		assert.Equal(t, tr, once, "every other field survives as it was")
	})
}

func TestViewsOfNilAndEmpty(t *testing.T) {
	var tr *evalkit.Transcript
	assert.Nil(t, tr.Handoffs())
	assert.Nil(t, tr.Guardrails())
	skills, err := tr.SkillActivations()
	assert.NoError(t, err)
	assert.Nil(t, skills)
	_, ok := tr.LatencyMS()
	assert.False(t, ok)
	var w *evalkit.Workflow
	assert.Equal(t, "", w.CurrentState())
	assert.Nil(t, w.States())
	var c *evalkit.Composition
	_, ok = c.Step("x")
	assert.False(t, ok)
	assert.Equal(t, "start", (&evalkit.Workflow{Initial: "start"}).CurrentState())

	// Without declared agents there are no hand-offs, whatever the calls.
	plain := &evalkit.Transcript{Messages: []evalkit.Message{{Role: evalkit.RoleAssistant, ToolCalls: []evalkit.ToolCall{{Name: "billing"}}}}}
	assert.Nil(t, plain.Handoffs())
	// An agent without a tool name is called by its name.
	plain.Agents = []evalkit.AgentSpec{{Name: "billing"}}
	require.Len(t, plain.Handoffs(), 1)
}

func TestSkillActivationErrors(t *testing.T) {
	tests := []struct{ name, args, want string }{
		{"no name", `{}`, `tool call 2 (messages[1]): skill__activate arguments have no skill name: want {"name": "<skill>"}`},
		{"name not a string", `{"name": 3}`, `tool call 2 (messages[1]): skill__activate arguments have no skill name: want {"name": "<skill>"}`},
		{"cut off", `{"name": "ref`, "tool call 2 (messages[1]): arguments of skill__activate are not valid JSON: unexpected end of input (cut off?)"},
		{"not an object", `["refunds"]`, "tool call 2 (messages[1]): arguments of skill__activate are valid JSON but not an object (an array)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := &evalkit.Transcript{Messages: []evalkit.Message{
				{Role: evalkit.RoleAssistant, ToolCalls: []evalkit.ToolCall{{Name: "skill__activate", Args: json.RawMessage(`{"name": "search"}`)}}},
				{Role: evalkit.RoleAssistant, ToolCalls: []evalkit.ToolCall{{Name: "skill__activate", Args: json.RawMessage(tt.args)}}},
			}}
			skills, err := tr.SkillActivations()
			assert.Nil(t, skills, "no partial list: a check must not pass on what it could read")
			assert.EqualError(t, err, tt.want)
		})
	}
}

func TestDecodeExtendedModelErrors(t *testing.T) {
	msg := func(fields string) string {
		return `{"messages": [{"role": "assistant", "content": "x", ` + fields + `}]}`
	}
	tests := []struct{ name, input, want string }{
		{"negative latency", msg(`"latency_ms": -1`), "evalkit: messages[0].latency_ms: want a number of milliseconds, not negative, got -1"},
		{"latency as text", msg(`"latency_ms": "fast"`), "evalkit: messages[0].latency_ms: want a number of milliseconds, got a string"},
		{"state not a string", msg(`"state": 1`), "evalkit: messages[0].state: want a string, got a number"},
		{"cached over input", msg(`"usage": {"input_tokens": 5, "cached_input_tokens": 6}`),
			"evalkit: messages[0].usage: cached_input_tokens (6) must not exceed input_tokens (5): cached tokens are part of the input"},
		{"reasoning from the user", `{"messages": [{"role": "user", "reasoning": "hm"}]}`,
			`evalkit: messages[0].reasoning: only assistant messages hold reasoning, this one has role "user"`},
		{"reasoning of the wrong shape", msg(`"reasoning": [3]`), "evalkit: messages[0].reasoning[0]: want a reasoning object {text, redacted}, got a number"},
		{"guardrail without triggered", msg(`"guardrails": [{"type": "pii"}]`), "evalkit: messages[0].guardrails[0].triggered: missing triggered: want true or false"},
		{"guardrail without type", msg(`"guardrails": [{"triggered": true}]`), "evalkit: messages[0].guardrails[0].type: missing type: want a non-empty string"},
		{"guardrail direction", msg(`"guardrails": [{"type": "pii", "triggered": true, "direction": "both"}]`),
			`evalkit: messages[0].guardrails[0].direction: unknown direction "both": want "input" or "output"`},
		{"guardrails not a list", msg(`"guardrails": {}`), "evalkit: messages[0].guardrails: want an array, got an object"},
		{"part width fraction", msg(`"parts": [{"type": "image", "url": "https://x.test/a.png", "width": 1.5}]`),
			"evalkit: messages[0].parts[0].width: want a whole number of pixels, not negative, got 1.5"},
		{"part duration negative", msg(`"parts": [{"type": "video", "url": "https://x.test/a.mp4", "duration_ms": -2}]`),
			"evalkit: messages[0].parts[0].duration_ms: want a number of milliseconds, not negative, got -2"},
		{"part data not base64", msg(`"parts": [{"type": "image", "data": "%%%"}]`),
			"evalkit: messages[0].parts[0].data: want base64 data: illegal base64 data at input byte 0"},
		{"video without media", msg(`"parts": [{"type": "video", "mime_type": "video/mp4"}]`),
			"evalkit: messages[0].parts[0]: a video part needs a URL, data or a file id"},
		{"text in parts", msg(`"parts": [{"type": "text", "text": "x"}]`),
			`evalkit: messages[0].parts[0]: want a media part {type, mime_type, url, data, ...}: text, tool calls, results and reasoning have fields of their own`},
		{"data URL beside data", msg(`"parts": [{"type": "image", "data": "AAAA", "url": "data:image/png;base64,AAAA"}]`),
			"evalkit: messages[0].parts[0].url: a data: URL beside inline data: which holds the media is ambiguous"},

		{"workflow without initial", `{"messages": [], "workflow": {"transitions": []}}`, "evalkit: workflow.initial: missing initial: want a non-empty string"},
		{"workflow history that does not chain", `{"messages": [], "workflow": {"initial": "a", "transitions": [{"from": "a", "to": "b"}, {"from": "a", "to": "c"}]}}`,
			`evalkit: workflow.transitions[1].from: from "a", but the workflow was in "b": the history does not chain`},
		{"transition without to", `{"messages": [], "workflow": {"initial": "a", "transitions": [{"from": "a"}]}}`,
			"evalkit: workflow.transitions[0].to: missing to: want a non-empty string"},
		{"workflow complete not a boolean", `{"messages": [], "workflow": {"initial": "a", "complete": "yes"}}`,
			"evalkit: workflow.complete: want true or false, got a string"},

		{"duplicate step", `{"messages": [], "composition": {"steps": [{"name": "a"}, {"name": "g", "kind": "parallel", "steps": [{"name": "a"}]}]}}`,
			"evalkit: composition.steps[1].steps[0].name: step \"a\" is also at composition.steps[0]: a lookup by name would be ambiguous"},
		{"step kind", `{"messages": [], "composition": {"steps": [{"name": "a", "kind": "loop"}]}}`,
			`evalkit: composition.steps[0].kind: unknown kind "loop": want step, branch or parallel`},
		{"step status", `{"messages": [], "composition": {"steps": [{"name": "a", "status": "done"}]}}`,
			`evalkit: composition.steps[0].status: unknown status "done": want completed, failed or skipped`},
		{"branch taken on a plain step", `{"messages": [], "composition": {"steps": [{"name": "a", "branch_taken": "b"}]}}`,
			`evalkit: composition.steps[0].branch_taken: only a branch step takes a branch, this one has kind "step"`},
		{"step without name", `{"messages": [], "composition": {"steps": [{"status": "completed"}]}}`,
			"evalkit: composition.steps[0].name: missing name: want a non-empty string"},

		{"agent twice", `{"messages": [], "agents": [{"name": "a"}, {"name": "a"}]}`, `evalkit: agents[1].name: agent "a" is declared twice (agents[0])`},
		{"two agents one tool", `{"messages": [], "agents": [{"name": "a", "tool": "t"}, {"name": "t"}]}`,
			`evalkit: agents[1]: tool "t" hands off to two agents (agents[0] too): which one a call reaches is ambiguous`},

		{"prior result without passed", `{"messages": [], "prior_results": [{"type": "x"}]}`,
			"evalkit: prior_results[0].passed: missing passed: want true or false (or an error saying why there is no outcome)"},
		{"prior result passed with an error", `{"messages": [], "prior_results": [{"type": "x", "passed": true, "error": "boom"}]}`,
			"evalkit: prior_results[0].passed: passed is true beside an error: a result that could not be evaluated did not pass"},
		{"prior result score out of range", `{"messages": [], "prior_results": [{"type": "x", "passed": true, "score": 8}]}`,
			"evalkit: prior_results[0].score: want a number in [0,1], got 8"},
		{"prior result without type", `{"messages": [], "prior_results": [{"passed": true}]}`,
			"evalkit: prior_results[0].type: missing type: want a non-empty string"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := evalkit.Decode([]byte(tt.input))
			assert.Nil(t, tr)
			require.Error(t, err)
			assert.Equal(t, tt.want, err.Error())
			var de *evalkit.DecodeError
			assert.True(t, errors.As(err, &de))
		})
	}
}

// Media in the shapes of every format, with data: URLs decoded.
func TestDecodeMediaShapes(t *testing.T) {
	tr, err := evalkit.Decode([]byte(`[{"role": "user", "content": [
		{"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo=", "detail": "low"}},
		{"type": "input_image", "file_id": "file_7"},
		{"type": "input_audio", "input_audio": {"data": "SUQz", "format": "mp3"}},
		{"type": "file", "file": {"filename": "a.pdf", "file_data": "data:application/pdf;base64,JVBERi0="}},
		{"type": "input_file", "filename": "b.txt", "file_data": "aGk"},
		{"type": "input_file", "file_url": "https://example.test/c.pdf"},
		{"type": "video", "url": "https://example.test/v.mp4", "mime_type": "video/mp4", "width": 1920, "height": 1080, "duration_ms": 12000},
		{"type": "sticker", "data": "AQID"}
	]}]`))
	require.NoError(t, err)
	assert.Equal(t, []evalkit.Part{
		{Type: "image", MIMEType: "image/png", Data: []byte("\x89PNG\r\n\x1a\n")},
		{Type: "image", FileID: "file_7"},
		{Type: "audio", MIMEType: "audio/mpeg", Data: []byte("ID3")},
		{Type: "file", MIMEType: "application/pdf", Name: "a.pdf", Data: []byte("%PDF-")},
		{Type: "file", Name: "b.txt", Data: []byte("hi")},
		{Type: "file", URL: "https://example.test/c.pdf"},
		{Type: "video", MIMEType: "video/mp4", URL: "https://example.test/v.mp4", Width: 1920, Height: 1080, DurationMS: 12000},
		{Type: "sticker", Data: []byte{1, 2, 3}},
	}, tr.Messages[0].Parts)
}
