package evalkit_test

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/evalkit-go/evalkit"
)

// A real Anthropic Messages request (recorded by pydantic-ai's tests):
// the parallel tool_use blocks are tool calls, each linked to the
// tool_result block that answered it.
func ExampleDecode_anthropicMessages() {
	data, err := os.ReadFile("testdata/api_samples/anthropic_messages__test_multiple_parallel_tool_calls.json")
	if err != nil {
		fmt.Println(err)
		return
	}
	var c struct {
		Interactions []struct {
			Request struct {
				Body json.RawMessage `json:"body"`
			} `json:"request"`
		} `json:"interactions"`
	}
	if err := json.Unmarshal(data, &c); err != nil {
		fmt.Println(err)
		return
	}
	tr, err := evalkit.Decode(c.Interactions[1].Request.Body)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, call := range tr.ToolCalls() {
		args, _ := call.Arguments()
		fmt.Printf("%s(%v) -> %s (error: %v)\n", call.Name, args["name"], call.Result.Content, call.Result.IsError)
	}
	// Output:
	// retrieve_entity_info(Alice) -> alice is bob's wife (error: false)
	// retrieve_entity_info(Bob) -> bob is alice's husband (error: false)
	// retrieve_entity_info(Charlie) -> charlie is alice's son (error: false)
	// retrieve_entity_info(Daisy) -> daisy is bob's daughter and charlie's younger sister (error: false)
}

// An OpenAI Responses body: reasoning is kept beside the answer, never in
// it.
func ExampleDecode_openAIResponses() {
	tr, err := evalkit.Decode([]byte(`{"status": "completed", "output": [
		{"type": "reasoning", "summary": [{"type": "summary_text", "text": "Simple arithmetic."}]},
		{"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "4"}]}
	], "usage": {"input_tokens": 12, "output_tokens": 5}}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	m := tr.Messages[0]
	fmt.Printf("answer %q, reasoning %q, finish %s, %d tokens\n", m.Content, m.Reasoning[0].Text, m.FinishReason, m.Usage.TotalTokens())
	// Output: answer "4", reasoning "Simple arithmetic.", finish stop, 17 tokens
}

// An agent run in evalkit's JSON: the workflow's states, the hand-off to a
// declared sub-agent and the skill it activated are views of it.
func ExampleTranscript_Handoffs() {
	tr, err := evalkit.Decode([]byte(`{
		"messages": [
			{"role": "user", "content": "Refund order W1", "state": "intake"},
			{"role": "assistant", "state": "intake", "tool_calls": [
				{"id": "1", "name": "skill__activate", "args": {"name": "refunds"}},
				{"id": "2", "name": "transfer_to_billing", "args": {"order": "W1"}}]},
			{"role": "tool", "tool_call_id": "1", "content": "ok"},
			{"role": "tool", "tool_call_id": "2", "content": "refund issued"},
			{"role": "assistant", "state": "billing", "content": "Your refund is on its way.", "latency_ms": 420}
		],
		"agents": [{"name": "billing", "tool": "transfer_to_billing"}],
		"workflow": {"initial": "intake", "transitions": [{"to": "billing"}], "complete": true}
	}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, h := range tr.Handoffs() {
		fmt.Printf("handed off to %s: %s\n", h.Agent, h.Call.Result.Content)
	}
	skills, _ := tr.SkillActivations()
	fmt.Println("skill:", skills[0].Skill)
	fmt.Println("states:", tr.Workflow.States(), "now:", tr.Workflow.CurrentState())
	ms, _ := tr.LatencyMS()
	fmt.Println("latency:", ms, "ms")
	// Output:
	// handed off to billing: refund issued
	// skill: refunds
	// states: [intake billing] now: billing
	// latency: 420 ms
}
