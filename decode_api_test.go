package evalkit_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
)

// call is a decoded tool call with its result, compared field by field.
type call struct {
	ID, Name, Args string
	Result         string
	IsError        bool
	Answered       bool
	MessageIndex   int
}

func calls(t *testing.T, tr *evalkit.Transcript) []call {
	t.Helper()
	var out []call
	for _, c := range tr.ToolCalls() {
		got := call{ID: c.ID, Name: c.Name, Args: string(c.Args), MessageIndex: c.MessageIndex}
		if c.Result != nil {
			got.Result, got.IsError, got.Answered = c.Result.Content, c.Result.IsError, true
		}
		out = append(out, got)
	}
	return out
}

func roles(tr *evalkit.Transcript) []evalkit.Role {
	var out []evalkit.Role
	for _, m := range tr.Messages {
		out = append(out, m.Role)
	}
	return out
}

func TestDecodeAnthropicMessages(t *testing.T) {
	tests := []struct {
		name      string
		input     string
		roles     []evalkit.Role
		calls     []call
		check     func(t *testing.T, tr *evalkit.Transcript)
		assistant string // AssistantText
	}{
		{
			name: "request: system blocks, thinking, parallel calls, failed result, text after results",
			input: `{"model": "claude-sonnet-4-5", "max_tokens": 1024,
				"system": [{"type": "text", "text": "You are a refund agent."}, {"type": "text", "text": "Be brief."}],
				"messages": [
					{"role": "user", "content": "Refund order W1"},
					{"role": "assistant", "content": [
						{"type": "thinking", "thinking": "The user wants a refund; look the order up.", "signature": "c2ln"},
						{"type": "redacted_thinking", "data": "ZW5j"},
						{"type": "text", "text": "Looking it up."},
						{"type": "tool_use", "id": "tu_1", "name": "get_order", "input": {"order_id": "W1"}},
						{"type": "tool_use", "id": "tu_2", "name": "get_customer", "input": {}}
					]},
					{"role": "user", "content": [
						{"type": "tool_result", "tool_use_id": "tu_2", "content": [{"type": "text", "text": "customer 7"}]},
						{"type": "tool_result", "tool_use_id": "tu_1", "content": "order not found", "is_error": true},
						{"type": "text", "text": "Hurry, please."}
					]},
					{"role": "assistant", "content": "I could not find order W1."}
				],
				"tools": [{"name": "get_order", "description": "Looks an order up", "input_schema": {"type": "object"}}]}`,
			roles: []evalkit.Role{"system", "user", "assistant", "tool", "tool", "user", "assistant"},
			calls: []call{
				{ID: "tu_1", Name: "get_order", Args: `{"order_id": "W1"}`, Result: "order not found", IsError: true, Answered: true, MessageIndex: 2},
				{ID: "tu_2", Name: "get_customer", Args: `{}`, Result: "customer 7", Answered: true, MessageIndex: 2},
			},
			assistant: "Looking it up.\nI could not find order W1.",
			check: func(t *testing.T, tr *evalkit.Transcript) {
				assert.Equal(t, "You are a refund agent.\nBe brief.", tr.Messages[0].Content)
				assert.Equal(t, []evalkit.Reasoning{{Text: "The user wants a refund; look the order up."}, {Redacted: true}}, tr.Messages[2].Reasoning)
				assert.Equal(t, "Hurry, please.", tr.Messages[5].Content)
				require.Len(t, tr.Tools, 1)
				assert.JSONEq(t, `{"type": "object"}`, string(tr.Tools[0].Parameters))
				assert.Len(t, tr.Turns(), 3, "tool results stay in the turn of their calls")
			},
		},
		{
			name: "media blocks: image base64, image url, document, tool result image",
			input: `{"messages": [
				{"role": "user", "content": [
					{"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}},
					{"type": "image", "source": {"type": "url", "url": "https://example.test/cat.jpg"}},
					{"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": "The policy."}},
					{"type": "document", "source": {"type": "file", "file_id": "file_01"}},
					{"type": "text", "text": "Compare these."}
				]},
				{"role": "assistant", "content": [{"type": "tool_use", "id": "tu_1", "name": "screenshot", "input": {}}]},
				{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "tu_1", "content": [
					{"type": "text", "text": "here"},
					{"type": "image", "source": {"type": "base64", "media_type": "image/jpeg", "data": "/9j/4A=="}}
				]}]}
			]}`,
			roles: []evalkit.Role{"user", "assistant", "tool"},
			calls: []call{{ID: "tu_1", Name: "screenshot", Args: `{}`, Result: "here", Answered: true, MessageIndex: 1}},
			check: func(t *testing.T, tr *evalkit.Transcript) {
				assert.Equal(t, "Compare these.", tr.Messages[0].Content)
				assert.Equal(t, []evalkit.Part{
					{Type: "image", MIMEType: "image/png", Data: []byte("\x89PNG\r\n\x1a\n")},
					{Type: "image", URL: "https://example.test/cat.jpg"},
					{Type: "file", MIMEType: "text/plain", Data: []byte("The policy.")},
					{Type: "file", FileID: "file_01"},
				}, tr.Messages[0].Parts)
				res := tr.ToolCalls()[0].Result
				assert.Equal(t, []evalkit.Part{{Type: "image", MIMEType: "image/jpeg", Data: []byte{0xff, 0xd8, 0xff, 0xe0}}}, res.Parts)
				assert.Equal(t, 2, res.MessageIndex)
			},
		},
		{
			name: "response: thinking is not output, stop_reason, usage with cache",
			input: `{"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
				"content": [
					{"type": "thinking", "thinking": "2 + 2 is 4.", "signature": "c2ln"},
					{"type": "text", "text": "The answer is 4."}
				],
				"stop_reason": "max_tokens", "stop_sequence": null,
				"usage": {"input_tokens": 10, "cache_creation_input_tokens": 5, "cache_read_input_tokens": 100, "output_tokens": 7, "service_tier": "standard"}}`,
			roles:     []evalkit.Role{"assistant"},
			assistant: "The answer is 4.",
			check: func(t *testing.T, tr *evalkit.Transcript) {
				m := tr.Messages[0]
				assert.Equal(t, "The answer is 4.", m.Content)
				assert.Equal(t, []evalkit.Reasoning{{Text: "2 + 2 is 4."}}, m.Reasoning)
				assert.Equal(t, "length", m.FinishReason)
				assert.Equal(t, &evalkit.Usage{InputTokens: 115, OutputTokens: 7, CachedInputTokens: 100}, m.Usage)
			},
		},
		{
			name: "response: thinking only, tool_use",
			input: `{"type": "message", "role": "assistant", "content": [
					{"type": "redacted_thinking", "data": "ZW5j"},
					{"type": "tool_use", "id": "tu_9", "name": "lookup", "input": {"q": "x"}}
				], "stop_reason": "tool_use", "usage": {"input_tokens": 3, "output_tokens": 2}}`,
			roles: []evalkit.Role{"assistant"},
			calls: []call{{ID: "tu_9", Name: "lookup", Args: `{"q": "x"}`}},
			check: func(t *testing.T, tr *evalkit.Transcript) {
				m := tr.Messages[0]
				assert.Empty(t, m.Content, "thinking never becomes output text")
				assert.Equal(t, "tool_calls", m.FinishReason)
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := evalkit.Decode([]byte(tt.input))
			require.NoError(t, err)
			assert.Equal(t, tt.roles, roles(tr))
			assert.Equal(t, tt.calls, calls(t, tr))
			assert.Equal(t, tt.assistant, tr.AssistantText())
			if tt.check != nil {
				tt.check(t, tr)
			}
		})
	}
}

func TestDecodeOpenAIResponses(t *testing.T) {
	tests := []struct {
		name      string
		input     string
		roles     []evalkit.Role
		calls     []call
		assistant string
		check     func(t *testing.T, tr *evalkit.Transcript)
	}{
		{
			name:  "request: instructions, input string",
			input: `{"model": "gpt-4.1", "instructions": "Be brief.", "input": "Hi"}`,
			roles: []evalkit.Role{"system", "user"},
		},
		{
			name: "request: items, reasoning joins the calls after it, outputs pair by call_id",
			input: `{"input": [
				{"role": "developer", "content": "Rules."},
				{"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Weather in Lyon and Oslo?"}]},
				{"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "Two cities:"}, {"type": "summary_text", "text": "call twice."}]},
				{"type": "function_call", "id": "fc_1", "call_id": "call_a", "name": "weather", "arguments": "{\"city\":\"Lyon\"}"},
				{"type": "function_call", "id": "fc_2", "call_id": "call_b", "name": "weather", "arguments": "{\"city\":\"Oslo\"}"},
				{"type": "function_call_output", "call_id": "call_b", "output": "-3C"},
				{"type": "function_call_output", "call_id": "call_a", "output": [{"type": "input_text", "text": "12C"}, {"type": "input_image", "image_url": "data:image/png;base64,iVBORw0KGgo="}]},
				{"type": "reasoning", "id": "rs_2", "summary": [], "encrypted_content": "gAAAA"},
				{"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Lyon 12C, Oslo -3C.", "annotations": []}]}
			]}`,
			roles: []evalkit.Role{"system", "user", "assistant", "tool", "tool", "assistant"},
			calls: []call{
				{ID: "call_a", Name: "weather", Args: `{"city":"Lyon"}`, Result: "12C", Answered: true, MessageIndex: 2},
				{ID: "call_b", Name: "weather", Args: `{"city":"Oslo"}`, Result: "-3C", Answered: true, MessageIndex: 2},
			},
			assistant: "Lyon 12C, Oslo -3C.",
			check: func(t *testing.T, tr *evalkit.Transcript) {
				assert.Equal(t, []evalkit.Reasoning{{Text: "Two cities:\ncall twice."}}, tr.Messages[2].Reasoning)
				assert.Empty(t, tr.Messages[2].Content)
				assert.Equal(t, []evalkit.Reasoning{{Redacted: true}}, tr.Messages[5].Reasoning)
				assert.Equal(t, []evalkit.Part{{Type: "image", MIMEType: "image/png", Data: []byte("\x89PNG\r\n\x1a\n")}}, tr.Messages[4].Parts)
			},
		},
		{
			name: "response: reasoning, text and a call are one message; status completed",
			input: `{"object": "response", "status": "completed", "error": null, "instructions": null, "output": [
				{"type": "reasoning", "id": "rs_1", "summary": [], "content": [{"type": "reasoning_text", "text": "Look it up."}]},
				{"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Checking."}]},
				{"type": "function_call", "call_id": "call_1", "name": "lookup", "arguments": ""}
			], "usage": {"input_tokens": 30, "input_tokens_details": {"cached_tokens": 20}, "output_tokens": 9, "output_tokens_details": {"reasoning_tokens": 4}},
			"tools": [{"type": "function", "name": "lookup", "description": null, "parameters": {"type": "object"}}, {"type": "web_search"}]}`,
			roles:     []evalkit.Role{"assistant"},
			calls:     []call{{ID: "call_1", Name: "lookup"}},
			assistant: "Checking.",
			check: func(t *testing.T, tr *evalkit.Transcript) {
				m := tr.Messages[0]
				assert.Equal(t, []evalkit.Reasoning{{Text: "Look it up."}}, m.Reasoning)
				assert.Equal(t, "tool_calls", m.FinishReason)
				assert.Equal(t, &evalkit.Usage{InputTokens: 30, OutputTokens: 9, CachedInputTokens: 20}, m.Usage)
				require.Len(t, tr.Tools, 2)
				assert.Equal(t, "web_search", tr.Tools[1].Name, "a built-in tool is named by its type")
			},
		},
		{
			name: "response cut off by max_output_tokens",
			input: `{"status": "incomplete", "incomplete_details": {"reason": "max_output_tokens"}, "output": [
				{"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "The refund is"}]}]}`,
			roles:     []evalkit.Role{"assistant"},
			assistant: "The refund is",
			check: func(t *testing.T, tr *evalkit.Transcript) {
				assert.Equal(t, "length", tr.Messages[0].FinishReason)
			},
		},
		{
			name: "input and output in one object, and a bare item list",
			input: `{"input": [{"role": "user", "content": "2+2?"}], "output": [
				{"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "4"}]},
				{"type": "message", "role": "assistant", "content": [{"type": "refusal", "refusal": "No more."}]}]}`,
			roles:     []evalkit.Role{"user", "assistant", "assistant"},
			assistant: "4\nNo more.",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := evalkit.Decode([]byte(tt.input))
			require.NoError(t, err)
			assert.Equal(t, tt.roles, roles(tr))
			assert.Equal(t, tt.calls, calls(t, tr))
			assert.Equal(t, tt.assistant, tr.AssistantText())
			if tt.check != nil {
				tt.check(t, tr)
			}
		})
	}

	t.Run("a bare item list", func(t *testing.T) {
		tr, err := evalkit.Decode([]byte(`[{"role": "user", "content": "x"},
			{"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"},
			{"type": "function_call_output", "call_id": "c", "output": "ok"}]`))
		require.NoError(t, err)
		assert.Equal(t, []call{{ID: "c", Name: "f", Args: "{}", Result: "ok", Answered: true, MessageIndex: 1}}, calls(t, tr))
	})
}

func TestDecodeChatCompletionsResponse(t *testing.T) {
	tr, err := evalkit.Decode([]byte(`{"object": "chat.completion", "choices": [{"index": 0, "finish_reason": "tool_calls",
		"message": {"role": "assistant", "content": null, "refusal": null, "tool_calls": [
			{"id": "call_1", "type": "function", "function": {"name": "lookup", "arguments": "{\"q\":1}"}}]}}],
		"usage": {"prompt_tokens": 50, "completion_tokens": 15, "prompt_tokens_details": {"cached_tokens": 10}}}`))
	require.NoError(t, err)
	assert.Equal(t, []call{{ID: "call_1", Name: "lookup", Args: `{"q":1}`}}, calls(t, tr))
	assert.Equal(t, "tool_calls", tr.Messages[0].FinishReason)
	assert.Equal(t, &evalkit.Usage{InputTokens: 50, OutputTokens: 15, CachedInputTokens: 10}, tr.Messages[0].Usage)

	refusal, err := evalkit.Decode([]byte(`{"choices": [{"finish_reason": "stop", "message": {"role": "assistant", "content": null, "refusal": "I can't help with that."}}]}`))
	require.NoError(t, err)
	assert.Equal(t, "I can't help with that.", refusal.AssistantText(), "a refusal is the model's answer")
}

// A Chat Completions message's refusal and the transcript of its audio
// answer are model output: they join Content, so text checks see them.
// A refusal beside content, and audio.transcript, used to be dropped, and
// content_excludes passed on a message that said the excluded words.
func TestDecodeRefusalAndAudio(t *testing.T) {
	reads := []struct {
		name, message, content string
		audio                  []byte // the audio part's data, when one is kept
	}{
		{"a refusal alone", `{"role": "assistant", "content": null, "refusal": "I'm sorry, I can't help."}`, "I'm sorry, I can't help.", nil},
		{"a refusal beside content", `{"role": "assistant", "content": "Here is part of it.", "refusal": "I can't do the rest."}`, "Here is part of it.\nI can't do the rest.", nil},
		{"a refusal beside text parts", `{"role": "assistant", "content": [{"type": "text", "text": "a"}], "refusal": "no"}`, "a\nno", nil},
		{"a null refusal", `{"role": "assistant", "content": "ok", "refusal": null}`, "ok", nil},
		{"an audio answer", `{"role": "assistant", "content": null, "audio": {"id": "audio_1", "expires_at": 1, "data": "aGk=", "transcript": "banned words here"}}`, "banned words here", []byte("hi")},
		{"an audio answer sent back by id", `{"role": "assistant", "audio": {"id": "audio_1"}}`, "", nil},
		{"all three", `{"role": "assistant", "content": "x", "refusal": "y", "audio": {"transcript": "z"}}`, "x\ny\nz", nil},
	}
	for _, tt := range reads {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := evalkit.Decode([]byte(`[{"role": "user", "content": "q"}, ` + tt.message + `]`))
			require.NoError(t, err)
			assert.Equal(t, tt.content, tr.Messages[1].Content)
			assert.Equal(t, tt.content, tr.AssistantText())
			var data []byte
			for _, p := range tr.Messages[1].Parts {
				if p.Type == "audio" {
					data = p.Data
				}
			}
			assert.Equal(t, tt.audio, data)
		})
	}
	errs := map[string]struct{ message, want string }{
		"refusal not a string":    {`{"role": "assistant", "refusal": 5}`, "evalkit: [0].refusal: want a string, got a number"},
		"audio not an object":     {`{"role": "assistant", "audio": "hi"}`, "evalkit: [0].audio: want an audio object {id, data, transcript}, got a string"},
		"transcript not a string": {`{"role": "assistant", "audio": {"transcript": ["a"]}}`, "evalkit: [0].audio.transcript: want a string, got an array"},
		"audio data not base64":   {`{"role": "assistant", "audio": {"data": "!!", "transcript": "a"}}`, "evalkit: [0].audio.data: "},
	}
	for name, tt := range errs {
		t.Run(name, func(t *testing.T) {
			_, err := evalkit.Decode([]byte(`[` + tt.message + `]`))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

// Each error names the JSON location and what was expected there; input
// whose meaning is ambiguous is an error too.
func TestDecodeAPIErrors(t *testing.T) {
	tests := []struct {
		name, input, want string
	}{
		// Which conversation, which answer.
		{"messages and input", `{"messages": [], "input": []}`, `evalkit: both "messages" and "input": which holds the conversation is ambiguous`},
		{"choices and output", `{"choices": [], "output": []}`, `evalkit: both "output" and "choices": which holds the conversation is ambiguous`},
		{"several choices", `{"choices": [{"message": {"role": "assistant", "content": "a"}}, {"message": {"role": "assistant", "content": "b"}}]}`,
			"evalkit: choices: 2 choices: which one is the transcript is ambiguous; decode each choice's message on its own"},
		{"no choices", `{"choices": []}`, "evalkit: choices: no choices: the response holds no answer"},
		{"streaming chunk", `{"object": "chat.completion.chunk", "choices": [{"delta": {"content": "Hel"}}]}`,
			"evalkit: choices[0].delta: a streaming chunk, not a message: decode the assembled response"},
		{"choice from the user", `{"choices": [{"message": {"role": "user", "content": "a"}}]}`,
			`evalkit: choices[0].message.role: a response's message is the model's: want role assistant, got "user"`},
		{"tool_calls beside tool_use", `[{"role": "assistant", "tool_calls": [{"id": "1", "function": {"name": "f"}}], "content": [{"type": "tool_use", "id": "2", "name": "g", "input": {}}]}]`,
			`evalkit: [0]: both "tool_calls" and tool_use blocks in "content": which lists the calls is ambiguous`},
		{"one message object", `{"role": "user", "content": "hi"}`, `evalkit: one message object, not a transcript: wrap it in a list, [{"role": ...}]`},
		{"one message item", `{"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hi"}]}`,
			`evalkit: role: an object with "type": "message" is read as an Anthropic Messages response, which is the model's: want role assistant, got "user" (a lone message goes in a list)`},

		// API error bodies and unfinished responses.
		{"openai error body", `{"error": {"message": "Incorrect API key provided", "type": "invalid_request_error", "code": "invalid_api_key"}}`,
			"evalkit: error: the body reports an API error, not a transcript: invalid_request_error: Incorrect API key provided"},
		{"anthropic error body", `{"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}`,
			"evalkit: error: the body reports an API error, not a transcript: overloaded_error: Overloaded"},
		{"failed response", `{"status": "failed", "error": {"code": "server_error", "message": "boom"}, "output": []}`,
			"evalkit: error: the body reports an API error, not a transcript: boom"},
		{"unfinished response", `{"status": "in_progress", "output": [{"type": "message", "role": "assistant", "content": []}]}`,
			`evalkit: status: status "in_progress": the response has not finished; decode a completed or incomplete one`},
		{"empty output", `{"status": "completed", "output": []}`, "evalkit: output: empty: the response holds nothing from the model"},

		// Anthropic blocks.
		{"tool_use from the user", `{"messages": [{"role": "user", "content": [{"type": "tool_use", "id": "1", "name": "f", "input": {}}]}]}`,
			`evalkit: messages[0].content[0].type: only assistant messages make tool calls (tool_use), this one has role "user"`},
		{"tool_use without id", `{"messages": [{"role": "assistant", "content": [{"type": "tool_use", "name": "f", "input": {}}]}]}`,
			"evalkit: messages[0].content[0].id: a tool_use block needs an id: its tool_result names it"},
		{"tool_use without name", `{"messages": [{"role": "assistant", "content": [{"type": "tool_use", "id": "1", "input": {}}]}]}`,
			"evalkit: messages[0].content[0].name: a tool call needs a name"},
		{"tool_result from the assistant", `{"messages": [{"role": "assistant", "content": [{"type": "tool_result", "tool_use_id": "1", "content": "x"}]}]}`,
			`evalkit: messages[0].content[0].type: tool_result blocks belong in user messages (Anthropic Messages), this one has role "assistant"`},
		{"tool_result without id", `{"messages": [{"role": "user", "content": [{"type": "tool_result", "content": "x"}]}]}`,
			"evalkit: messages[0].content[0].tool_use_id: a tool_result needs the tool_use_id of the call it answers"},
		{"tool_result is_error not a boolean", `{"messages": [{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "1", "is_error": "yes"}]}]}`,
			"evalkit: messages[0].content[0].is_error: want true or false, got a string"},
		{"tool_result inside a tool_result", `{"messages": [{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "1", "content": [{"type": "tool_result", "tool_use_id": "2"}]}]}]}`,
			`evalkit: messages[0].content[0].content[0].type: tool_result blocks belong in user messages (Anthropic Messages), this one has role "tool"`},
		{"thinking from the user", `{"messages": [{"role": "user", "content": [{"type": "thinking", "thinking": "hm"}]}]}`,
			`evalkit: messages[0].content[0].type: only assistant messages hold thinking blocks, this one has role "user"`},
		{"thinking not a string", `{"messages": [{"role": "assistant", "content": [{"type": "thinking", "thinking": 3}]}]}`,
			"evalkit: messages[0].content[0].thinking: want a string, got a number"},
		{"image with bad base64", `{"messages": [{"role": "user", "content": [{"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "abc$"}}]}]}`,
			"evalkit: messages[0].content[0].source.data: want base64 data: illegal base64 data at input byte 3"},
		{"image source of an unknown type", `{"messages": [{"role": "user", "content": [{"type": "image", "source": {"type": "s3", "url": "s3://x"}}]}]}`,
			`evalkit: messages[0].content[0].source.type: unknown source type "s3": want base64, url, file or text`},
		{"server tool use", `{"type": "message", "role": "assistant", "content": [{"type": "server_tool_use", "id": "s", "name": "web_search", "input": {}}]}`,
			`evalkit: content[0].type: "server_tool_use" blocks are not supported: the tool call or result they hold would be lost`},
		{"system with an image", `{"system": [{"type": "image", "source": {"type": "url", "url": "https://x.test/a.png"}}], "messages": []}`,
			"evalkit: system: a system prompt holds text only, this one has an image part"},
		{"usage not a count", `{"type": "message", "role": "assistant", "content": [], "usage": {"input_tokens": 1.5}}`,
			"evalkit: usage.input_tokens: want a whole number of tokens, not negative, got 1.5"},
		{"tool with both schemas", `{"messages": [], "tools": [{"name": "f", "parameters": {}, "input_schema": {}}]}`,
			`evalkit: tools[0]: both "parameters" and "input_schema": which is the tool's schema is ambiguous`},

		// OpenAI Responses items.
		{"function_call without call_id", `{"input": [{"type": "function_call", "id": "fc_1", "name": "f", "arguments": "{}"}]}`,
			"evalkit: input[0].call_id: a function_call needs a call_id: its function_call_output names it"},
		{"function_call without name", `{"input": [{"type": "function_call", "call_id": "c"}]}`,
			"evalkit: input[0].name: a tool call needs a name"},
		{"function_call_output without call_id", `{"input": [{"type": "function_call_output", "output": "x"}]}`,
			"evalkit: input[0].call_id: a function_call_output needs the call_id of the call it answers"},
		{"function_call_output without output", `{"input": [{"type": "function_call_output", "call_id": "c"}]}`,
			"evalkit: input[0].output: missing output: want a string or a list of parts"},
		{"function_call_output in output", `{"output": [{"type": "function_call_output", "call_id": "c", "output": "x"}]}`,
			"evalkit: output[0].type: a function_call_output is input sent to the model, not its output"},
		{"user message in output", `{"output": [{"type": "message", "role": "user", "content": "x"}]}`,
			`evalkit: output[0].role: an output item is the model's: want role assistant, got "user"`},
		{"hosted tool call", `{"output": [{"type": "web_search_call", "id": "ws_1", "status": "completed"}]}`,
			`evalkit: output[0].type: "web_search_call" items are not supported: the tool call or result they hold would be lost`},
		{"unknown item", `{"input": [{"type": "bogus"}]}`,
			`evalkit: input[0].type: unknown item type "bogus": want message, function_call, function_call_output or reasoning`},
		{"item reference", `{"input": [{"type": "item_reference", "id": "msg_1"}]}`,
			"evalkit: input[0].type: an item_reference points at an item OpenAI stored, which evalkit cannot see: decode the items themselves"},
		{"item without type or role", `[{"type": "message", "role": "user", "content": "x"}, {"content": "y"}]`,
			"evalkit: [1].type: an item needs a type (or a role, for a message)"},
		{"input of the wrong type", `{"input": 3}`, "evalkit: input: want a string or a list of items, got a number"},
		{"reasoning summary not a list", `{"input": [{"type": "reasoning", "summary": "x"}]}`, "evalkit: input[0].summary: want an array, got a string"},
		{"input_image data URL without comma", `{"input": [{"role": "user", "content": [{"type": "input_image", "image_url": "data:image/png;base64"}]}]}`,
			"evalkit: input[0].content[0].image_url: invalid data: URL: no comma before the data"},
		{"input_image with nothing", `{"input": [{"role": "user", "content": [{"type": "input_image", "detail": "auto"}]}]}`,
			"evalkit: input[0].content[0]: an image part needs a URL, data or a file id"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := evalkit.Decode([]byte(tt.input))
			assert.Nil(t, tr)
			require.Error(t, err)
			assert.Equal(t, tt.want, err.Error())
			var de *evalkit.DecodeError
			assert.True(t, errors.As(err, &de), "error is a *DecodeError")
		})
	}
}

// A JSON array of API bodies decodes with DecodeAll, one transcript each.
func TestDecodeAllAPIBodies(t *testing.T) {
	trs, err := evalkit.DecodeAll([]byte(`[
		{"input": [{"role": "user", "content": "a"}]},
		{"output": [{"type": "function_call", "call_id": "c", "name": "f", "arguments": "{}"}]},
		{"choices": [{"message": {"role": "assistant", "content": "b"}}]}
	]`))
	require.NoError(t, err)
	require.Len(t, trs, 3)
	assert.Equal(t, "f", trs[1].ToolCalls()[0].Name)

	items, err := evalkit.DecodeAll([]byte(`[{"type": "function_call_output", "call_id": "c", "output": "x"}]`))
	require.NoError(t, err, "an item list is one transcript, not a list of them")
	require.Len(t, items, 1)
	assert.Equal(t, []evalkit.ToolResult{{CallID: "c", Content: "x"}}, items[0].OrphanResults())
}
