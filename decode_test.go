package evalkit_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
)

func TestDecodeOpenAIChatList(t *testing.T) {
	tr, err := evalkit.Decode([]byte(`[
		{"role": "system", "content": "Be brief."},
		{"role": "user", "content": "Weather in Lyon?"},
		{"role": "assistant", "content": null, "tool_calls": [
			{"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Lyon\"}"}}
		]},
		{"role": "tool", "tool_call_id": "c1", "content": "12C, rain"},
		{"role": "assistant", "content": "It is 12C and raining in Lyon."}
	]`))
	require.NoError(t, err)
	require.Len(t, tr.Messages, 5)
	calls := tr.ToolCalls()
	require.Len(t, calls, 1)
	assert.Equal(t, "get_weather", calls[0].Name)
	assert.JSONEq(t, `{"city":"Lyon"}`, string(calls[0].Args))
	require.NotNil(t, calls[0].Result)
	assert.Equal(t, "get_weather", calls[0].Result.Name, "name resolved through tool_call_id")
	assert.Equal(t, "12C, rain", calls[0].Result.Content)
	last, ok := tr.LastAssistant()
	require.True(t, ok)
	assert.Equal(t, "It is 12C and raining in Lyon.", last.Content)
	assert.Nil(t, tr.Messages[2].ToolCalls[0].Result, "stored calls never carry a copy of the result")
}

func TestDecodeMessagesObjectWithTools(t *testing.T) {
	tr, err := evalkit.Decode([]byte(`{"messages": [
		{"role": "developer", "content": [{"type": "text", "text": "Rules."}]},
		{"role": "user", "content": [{"type": "text", "text": "What is this?"}, {"type": "image_url", "image_url": {"url": "https://example.test/cat.png"}}]},
		{"role": "assistant", "content": "A cat.", "tool_calls": null, "function_call": null}
	], "tools": [{"type": "function", "function": {"name": "lookup", "description": "Looks up", "parameters": {"type": "object"}}}]}`))
	require.NoError(t, err)
	assert.Equal(t, evalkit.RoleSystem, tr.Messages[0].Role)
	assert.Equal(t, "Rules.", tr.Messages[0].Content)
	assert.Equal(t, "What is this?", tr.Messages[1].Content)
	assert.Equal(t, []evalkit.Part{{Type: "image", URL: "https://example.test/cat.png"}}, tr.Messages[1].Parts)
	assert.Empty(t, tr.ToolCalls())
	require.Len(t, tr.Tools, 1)
	assert.Equal(t, "lookup", tr.Tools[0].Name)
	assert.JSONEq(t, `{"type":"object"}`, string(tr.Tools[0].Parameters))
}

// C12: arguments arrive as a JSON string, an object, "", null or non-object JSON.
func TestDecodeToolArgumentShapes(t *testing.T) {
	tr, err := evalkit.Decode([]byte(`[
		{"role": "assistant", "tool_calls": [
			{"id": "a", "function": {"name": "get_weather", "arguments": "{\"city\":\"Lyon\",\"units\":\"metric\"}"}},
			{"id": "b", "function": {"name": "get_weather", "arguments": {"city": "Lyon", "units": "metric"}}},
			{"id": "c", "function": {"name": "get_weather", "arguments": "\"Lyon\""}},
			{"id": "d", "function": {"name": "get_weather", "arguments": "[\"Lyon\"]"}},
			{"id": "e1", "function": {"name": "list_open_tickets", "arguments": ""}},
			{"id": "e2", "function": {"name": "list_open_tickets", "arguments": "{}"}},
			{"id": "e3", "function": {"name": "list_open_tickets", "arguments": null}},
			{"id": "f", "function": {"name": "get_forecast", "arguments": "{\"city\": \"Ly"}}
		]}
	]`))
	require.NoError(t, err)
	calls := tr.ToolCalls()
	require.Len(t, calls, 8)
	for _, i := range []int{0, 1} {
		args, err := calls[i].Arguments()
		require.NoError(t, err)
		assert.Equal(t, map[string]any{"city": "Lyon", "units": "metric"}, args)
	}
	for _, i := range []int{2, 3} {
		_, err := calls[i].Arguments()
		assert.ErrorContains(t, err, "valid JSON but not an object")
	}
	for _, i := range []int{4, 5, 6} {
		args, err := calls[i].Arguments()
		require.NoError(t, err, calls[i].ID)
		assert.Empty(t, args)
	}
	_, err = calls[7].Arguments()
	assert.ErrorContains(t, err, "arguments of get_forecast are not valid JSON: unexpected end of input")
}

func TestToolCallMarshalRoundTrip(t *testing.T) {
	in := &evalkit.Transcript{Messages: []evalkit.Message{
		{Role: evalkit.RoleAssistant, ToolCalls: []evalkit.ToolCall{
			{ID: "1", Name: "ok", Args: json.RawMessage(`{"a":1}`)},
			{ID: "2", Name: "cut", Args: json.RawMessage(`{"a": "tru`)},
			{ID: "3", Name: "none"},
		}},
		{Role: evalkit.RoleTool, ToolCallID: "2", Content: "Error: bad args", IsError: true},
	}}
	data, err := json.Marshal(in)
	require.NoError(t, err)
	out, err := evalkit.Decode(data)
	require.NoError(t, err)
	assert.Equal(t, in.Messages, out.Messages)
	calls := out.ToolCalls()
	require.NotNil(t, calls[1].Result)
	assert.True(t, calls[1].Result.IsError)
	assert.Equal(t, "cut", calls[1].Result.Name)
}

func TestToolResultPairing(t *testing.T) {
	call := func(id, name string) evalkit.ToolCall { return evalkit.ToolCall{ID: id, Name: name} }
	tests := []struct {
		name string
		msgs []evalkit.Message
		want []string // result content per call, "" for none
	}{
		{
			name: "reused id answers the most recent unanswered call",
			msgs: []evalkit.Message{
				{Role: evalkit.RoleAssistant, ToolCalls: []evalkit.ToolCall{call("x", "book")}},
				{Role: evalkit.RoleTool, ToolCallID: "x", Content: "first"},
				{Role: evalkit.RoleAssistant, ToolCalls: []evalkit.ToolCall{call("x", "book")}},
				{Role: evalkit.RoleTool, ToolCallID: "x", Content: "second"},
			},
			want: []string{"first", "second"},
		},
		{
			name: "reused id in one message pairs latest first",
			msgs: []evalkit.Message{
				{Role: evalkit.RoleAssistant, ToolCalls: []evalkit.ToolCall{call("x", "a"), call("x", "b")}},
				{Role: evalkit.RoleTool, ToolCallID: "x", Content: "to b"},
				{Role: evalkit.RoleTool, ToolCallID: "x", Content: "to a"},
			},
			want: []string{"to a", "to b"},
		},
		{
			name: "empty ids pair by order",
			msgs: []evalkit.Message{
				{Role: evalkit.RoleAssistant, ToolCalls: []evalkit.ToolCall{call("", "a"), call("", "b")}},
				{Role: evalkit.RoleTool, Content: "ra"},
				{Role: evalkit.RoleTool, Content: "rb"},
			},
			want: []string{"ra", "rb"},
		},
		{
			name: "a result never answers a later call",
			msgs: []evalkit.Message{
				{Role: evalkit.RoleTool, ToolCallID: "x", Content: "orphan"},
				{Role: evalkit.RoleAssistant, ToolCalls: []evalkit.ToolCall{call("x", "a")}},
			},
			want: []string{""},
		},
		{
			name: "a second answer to a call is an orphan",
			msgs: []evalkit.Message{
				{Role: evalkit.RoleAssistant, ToolCalls: []evalkit.ToolCall{call("x", "a")}},
				{Role: evalkit.RoleTool, ToolCallID: "x", Content: "first"},
				{Role: evalkit.RoleTool, ToolCallID: "x", Content: "again", IsError: true},
			},
			want: []string{"first"},
		},
		{
			name: "unknown id is left unpaired",
			msgs: []evalkit.Message{
				{Role: evalkit.RoleAssistant, ToolCalls: []evalkit.ToolCall{call("x", "a")}},
				{Role: evalkit.RoleTool, ToolCallID: "y", Content: "other"},
			},
			want: []string{""},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr := &evalkit.Transcript{Messages: tt.msgs}
			orphans := 0
			for _, m := range tt.msgs {
				if m.Role == evalkit.RoleTool {
					orphans++
				}
			}
			calls := tr.ToolCalls()
			for _, c := range calls {
				if c.Result != nil {
					orphans--
				}
			}
			assert.Len(t, tr.OrphanResults(), orphans, "every tool message is either linked or an orphan")
			require.Len(t, calls, len(tt.want))
			for i, want := range tt.want {
				if want == "" {
					assert.Nil(t, calls[i].Result, "call %d", i)
					continue
				}
				require.NotNil(t, calls[i].Result, "call %d", i)
				assert.Equal(t, want, calls[i].Result.Content, "call %d", i)
			}
		})
	}
}

func TestTurns(t *testing.T) {
	tr := &evalkit.Transcript{Messages: []evalkit.Message{
		{Role: evalkit.RoleSystem, Content: "sys"},
		{Role: evalkit.RoleUser, Content: "u1"},
		{Role: evalkit.RoleAssistant, Content: "a1"},
		{Role: evalkit.RoleUser, Content: "u2"},
		{Role: evalkit.RoleAssistant, ToolCalls: []evalkit.ToolCall{{ID: "1", Name: "t"}}},
		{Role: evalkit.RoleTool, ToolCallID: "1", Content: "r"},
		{Role: evalkit.RoleAssistant, Content: "a2"},
		{Role: evalkit.RoleUser, Content: "bye ###STOP###"},
	}}
	turns := tr.Turns()
	require.Len(t, turns, 4)
	assert.Equal(t, []int{0, 1, 3, 7}, []int{turns[0].Start, turns[1].Start, turns[2].Start, turns[3].Start})
	last, ok := tr.LastTurn()
	require.True(t, ok)
	assert.Equal(t, 2, last.Index, "a trailing user message does not make the last turn")
	calls := last.ToolCalls()
	require.Len(t, calls, 1)
	assert.Equal(t, "r", calls[0].Result.Content)
	assert.Equal(t, "a1\na2", tr.AssistantText())

	_, ok = (&evalkit.Transcript{Messages: []evalkit.Message{{Role: evalkit.RoleUser}}}).LastTurn()
	assert.False(t, ok)
}

func TestDecodeErrorsNameTheLocation(t *testing.T) {
	tests := []struct {
		name, input, want string
	}{
		{"empty", "  ", "evalkit: empty input: want a transcript (a JSON message list or object)"},
		{"syntax", "[\n  {\"role\": \"user\",}\n]", "evalkit: line 2, column 19: invalid JSON: invalid character '}' looking for beginning of object key string"},
		{"cut off", `[{"role": "user"`, "evalkit: line 1, column 16: invalid JSON: unexpected end of input (cut off?)"},
		{"scalar", `42`, "evalkit: want a transcript (a JSON array of messages or an object), got a number"},
		{"unknown object", `{"foo": 1, "bar": 2}`, `evalkit: want a message list, or an object with "messages" (Chat Completions, Anthropic Messages, evalkit), "input" or "output" (OpenAI Responses), "choices" (a Chat Completions response), "type": "message" (an Anthropic Messages response) or "traj" (τ-bench); got an object with keys "bar", "foo"`},
		{"missing role", `[{"content": "hi"}]`, "evalkit: [0].role: missing role: want system, developer, user, assistant or tool"},
		{"bad role", `{"messages": [{"role": "bot"}]}`, `evalkit: messages[0].role: unknown role "bot": want system, developer, user, assistant or tool`},
		{"bad content", `{"messages": [{"role": "user", "content": 3}]}`, "evalkit: messages[0].content: want a string, an array of parts or null, got a number"},
		{"bad tool name", `[{"role": "assistant", "tool_calls": [{"id": "1", "function": {"name": 7}}]}]`, "evalkit: [0].tool_calls[0].function.name: want a string, got a number"},
		{"nameless call", `[{"role": "assistant", "tool_calls": [{"id": "1", "function": {"arguments": "{}"}}]}]`, "evalkit: [0].tool_calls[0].function.name: a tool call needs a name"},
		{"tool calls not array", `[{"role": "assistant", "tool_calls": {}}]`, "evalkit: [0].tool_calls: want an array, got an object"},
		{"user makes calls", `[{"role": "user", "tool_calls": [{"name": "x"}]}]`, `evalkit: [0].tool_calls: only assistant messages make tool calls, this one has role "user"`},
		{"records given to Decode", `[{"traj": []}, {"traj": []}]`, "evalkit: a JSON array of 2 transcripts, not of messages: use DecodeAll or LoadAll for many transcripts"},
		{"traj not array", `{"traj": "x"}`, "evalkit: traj: want an array, got a string"},
		{"bad tools", `{"messages": [], "tools": [{"type": "function", "function": {"description": "d"}}]}`, "evalkit: tools[0].function.name: a tool needs a name"},
		{"bad metadata", `{"messages": [], "metadata": []}`, "evalkit: metadata: want an object, got an array"},
		{"traj and messages", `{"traj": [], "messages": []}`, `evalkit: both "messages" and "traj": which holds the conversation is ambiguous`},
		{"image_url of the wrong type", `[{"role": "user", "content": [{"type": "image_url", "image_url": 5}]}]`,
			"evalkit: [0].content[0].image_url: want {url} or a URL string, got a number"},
		{"image without a URL", `[{"role": "user", "content": [{"type": "image_url", "image_url": {"url": ""}}]}]`,
			"evalkit: [0].content[0]: an image part needs a URL, data or a file id"},
		{"input_audio of the wrong type", `[{"role": "user", "content": [{"type": "input_audio", "input_audio": 5}]}]`,
			"evalkit: [0].content[0]: invalid content part: input_audio: want an object, got a number"},
		{"fractional tokens", `{"messages": [{"role": "assistant", "content": "x", "usage": {"input_tokens": 10.5}}]}`,
			"evalkit: messages[0].usage: token counts must be whole numbers"},
		{"tool function of the wrong type", `{"messages": [], "tools": [{"type": "function", "function": 5}]}`,
			"evalkit: tools[0].function: want an object {name, description, parameters}, got a number"},
		{"negative usage", `{"messages": [{"role": "assistant", "content": "x", "usage": {"input_tokens": -3}}]}`,
			"evalkit: messages[0].usage: token counts and cost must not be negative"},
		{"usage of the wrong type", `{"messages": [{"role": "assistant", "content": "x", "usage": {"cost_usd": "cheap"}}]}`,
			"evalkit: messages[0].usage: want {input_tokens, output_tokens, cached_input_tokens, cost_usd}: cost_usd: want a number, got a string"},
		// A field given twice, or in two places, with different values:
		// encoding/json would keep one silently.
		{"role given twice", `[{"role": "user", "role": "assistant", "content": "hi"}]`,
			"evalkit: [0].role: given twice, with different values: which is meant is ambiguous"},
		{"content given twice", `[{"role": "assistant", "content": "good", "content": "bad"}]`,
			"evalkit: [0].content: given twice, with different values: which is meant is ambiguous"},
		{"content given twice, in another case", `[{"role": "assistant", "content": "good", "Content": "bad"}]`,
			`evalkit: [0].Content: given twice (also as "content"), with different values: which is meant is ambiguous`},
		{"content after parts", `[{"role": "assistant", "content": "shown", "parts": [], "content": "hidden"}]`,
			"evalkit: [0].content: given twice, with different values: which is meant is ambiguous"},
		{"a text part's text given twice", `[{"role": "assistant", "content": [{"type": "text", "text": "a", "text": "b"}]}]`,
			"evalkit: [0].content[0].text: given twice, with different values: which is meant is ambiguous"},
		{"a function's name given twice", `[{"role": "assistant", "tool_calls": [{"id": "1", "function": {"name": "a", "name": "b"}}]}]`,
			"evalkit: [0].tool_calls[0].function.name: given twice, with different values: which is meant is ambiguous"},
		{"name and function.name", `[{"role": "assistant", "tool_calls": [{"name": "safe", "function": {"name": "issue_refund", "arguments": "{}"}}]}]`,
			`evalkit: [0].tool_calls[0].name: "safe", but [0].tool_calls[0].function.name is "issue_refund": which names the call is ambiguous`},
		{"args and arguments", `[{"role": "assistant", "tool_calls": [{"name": "x", "args": {"a": 1}, "arguments": "{\"a\":2}"}]}]`,
			"evalkit: [0].tool_calls[0].arguments: differs from [0].tool_calls[0].args: which arguments the call was made with is ambiguous"},
		{"args and function.arguments", `[{"role": "assistant", "tool_calls": [{"args": {"a": 1}, "function": {"name": "x", "arguments": "{\"a\":2}"}}]}]`,
			"evalkit: [0].tool_calls[0].args: differs from [0].tool_calls[0].function.arguments: which arguments the call was made with is ambiguous"},
		{"input and arguments", `[{"role": "assistant", "tool_calls": [{"name": "x", "input": {"a": 1}, "arguments": ""}]}]`,
			"evalkit: [0].tool_calls[0].input: differs from [0].tool_calls[0].arguments: which arguments the call was made with is ambiguous"},
		{"media in content and parts", `[{"role": "user", "content": [{"type": "image_url", "image_url": {"url": "http://x.test/a.png"}}], "parts": [{"type": "image", "url": "http://x.test/b.png"}]}]`,
			`evalkit: [0]: media parts both in "content" and in "parts": which lists the message's media is ambiguous`},
		{"text under an unknown part type", `[{"role": "assistant", "content": [{"type": "Text", "text": "banned"}]}]`,
			`evalkit: [0].content[0].type: unknown part type "Text" holding "text": its text would be lost (text parts have type "text")`},
		{"server tool in chat content", `[{"role": "assistant", "content": [{"type": "text", "text": "Looking."}, {"type": "server_tool_use", "id": "s1", "name": "web_search", "input": {}}]}]`,
			`evalkit: [0].content[1].type: "server_tool_use" blocks are not supported: the tool call or result they hold would be lost`},
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

// A field given twice or in two places with the same value is no
// conflict: it decodes as given once.
func TestDecodeSameValueTwice(t *testing.T) {
	for name, in := range map[string]string{
		"role twice":                     `[{"role": "assistant", "role": "assistant", "content": "hi", "tool_calls": [{"id": "1", "name": "x", "args": {"a": 1}}]}]`,
		"name and function.name":         `[{"role": "assistant", "content": "hi", "tool_calls": [{"id": "1", "name": "x", "function": {"name": "x", "arguments": "{\"a\": 1}"}}]}]`,
		"args as an object and a string": `[{"role": "assistant", "content": "hi", "tool_calls": [{"id": "1", "name": "x", "args": {"a": 1}, "arguments": "{\"a\":1}"}]}]`,
		"text content and media parts":   `[{"role": "assistant", "content": [{"type": "text", "text": "hi"}], "tool_calls": [{"id": "1", "name": "x", "input": {"a": 1}}], "parts": []}]`,
	} {
		t.Run(name, func(t *testing.T) {
			tr, err := evalkit.Decode([]byte(in))
			require.NoError(t, err)
			require.Len(t, tr.Messages, 1)
			assert.Equal(t, "hi", tr.Messages[0].Content)
			require.Len(t, tr.Messages[0].ToolCalls, 1)
			assert.Equal(t, "x", tr.Messages[0].ToolCalls[0].Name)
			assert.JSONEq(t, `{"a": 1}`, string(tr.Messages[0].ToolCalls[0].Args))
		})
	}
}

func TestLoadNamesTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "run.json")
	require.NoError(t, os.WriteFile(path, []byte(`[{"role": 1}]`), 0o644))
	_, err := evalkit.Load(path)
	assert.EqualError(t, err, "evalkit: "+path+": [0].role: want a string, got a number")

	_, err = evalkit.Load(filepath.Join(t.TempDir(), "missing.json"))
	assert.ErrorIs(t, err, os.ErrNotExist)
}

func TestDecodeAll(t *testing.T) {
	t.Run("json lines name the line", func(t *testing.T) {
		_, err := evalkit.DecodeAll([]byte("{\"messages\": []}\n\n{\"messages\": [{\"role\": \"x\"}]}\n"))
		assert.EqualError(t, err, `evalkit: line 3: messages[0].role: unknown role "x": want system, developer, user, assistant or tool`)
	})
	t.Run("a syntax error names the file's line", func(t *testing.T) {
		_, err := evalkit.DecodeAll([]byte("{\"messages\": []}\n{\"messages\": [}\n"))
		assert.EqualError(t, err, "evalkit: line 2, column 15: invalid JSON: invalid character '}' looking for beginning of value")
	})
	t.Run("array names the index", func(t *testing.T) {
		_, err := evalkit.DecodeAll([]byte(`[{"traj": []}, {"traj": [{"role": "user", "content": 1}]}]`))
		assert.EqualError(t, err, "evalkit: [1]: traj[0].content: want a string, an array of parts or null, got a number")
	})
	t.Run("pretty-printed single transcript", func(t *testing.T) {
		trs, err := evalkit.DecodeAll([]byte("{\n  \"messages\": [\n    {\"role\": \"user\", \"content\": \"hi\"}\n  ]\n}\n"))
		require.NoError(t, err)
		require.Len(t, trs, 1)
		assert.Equal(t, "hi", trs[0].Messages[0].Content)
	})
	t.Run("json lines of bare message lists", func(t *testing.T) {
		trs, err := evalkit.DecodeAll([]byte("[{\"role\": \"user\", \"content\": \"a\"}]\n[{\"role\": \"user\", \"content\": \"b\"}]\n"))
		require.NoError(t, err)
		require.Len(t, trs, 2)
		assert.Equal(t, "b", trs[1].Messages[0].Content)
	})
	t.Run("empty array", func(t *testing.T) {
		trs, err := evalkit.DecodeAll([]byte(`[]`))
		require.NoError(t, err)
		assert.Empty(t, trs)
	})
	t.Run("a byte order mark begins the file only", func(t *testing.T) {
		bom := "\xef\xbb\xbf"
		trs, err := evalkit.DecodeAll([]byte(bom + "{\"messages\": []}\n{\"messages\": []}\n"))
		require.NoError(t, err)
		assert.Len(t, trs, 2)
		// As Decode refuses a second one, so does DecodeAll, in a file of
		// one transcript or at a line of many.
		for _, in := range []string{bom + bom + `{"messages": []}`, bom + "{\"messages\": []}\n" + bom + "{\"messages\": []}\n"} {
			_, errAll := evalkit.DecodeAll([]byte(in))
			assert.ErrorContains(t, errAll, "invalid JSON", "%q", in)
		}
		_, err = evalkit.Decode([]byte(bom + bom + `{"messages": []}`))
		assert.ErrorContains(t, err, "invalid JSON")
	})
}

// The bundled τ-bench runs decode, link every tool message to a call, and
// keep the record's task id, trial and reward.
func TestLoadTauBench(t *testing.T) {
	airline, err := evalkit.LoadAll("testdata/tau_bench/airline_gpt4o_trajectories.json")
	require.NoError(t, err)
	require.Len(t, airline, 14)
	retail, err := evalkit.LoadAll("testdata/tau_bench/retail_gpt4o_conversations.jsonl")
	require.NoError(t, err)
	require.Len(t, retail, 8)

	for i, tr := range append(airline, retail...) {
		results := 0
		for _, m := range tr.Messages {
			if m.Role == evalkit.RoleTool {
				results++
			}
		}
		linked := 0
		for _, c := range tr.ToolCalls() {
			if c.Result != nil {
				linked++
				assert.NotEmpty(t, c.Result.Name, "run %d: result name resolved", i)
				assert.Equal(t, c.Name, c.Result.Name, "run %d: result paired with a call of the same tool", i)
			}
		}
		assert.Equal(t, results, linked, "run %d: every tool message answers a call", i)
	}
	assert.Equal(t, map[string]any{"source": "tau-bench", "task_id": 0.0, "trial": 0.0, "reward": 0.0}, airline[0].Metadata)
	require.Len(t, retail[0].Tools, 16)
}

func TestDecodeMediaParts(t *testing.T) {
	tr, err := evalkit.Decode([]byte(`{"messages": [{"role": "user", "content": [
		{"type": "text", "text": "What is this?"},
		{"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "AAAA"}},
		{"type": "document", "source": {"type": "url", "url": "https://example.test/a.pdf"}},
		{"type": "input_audio", "input_audio": {"data": "UklG", "format": "wav"}}
	]}, {"role": "assistant", "content": "A cat.", "usage": {"input_tokens": 10.0, "output_tokens": 3, "cost_usd": 0.0001}}]}`))
	require.NoError(t, err)
	assert.Equal(t, []evalkit.Part{
		{Type: "image", MIMEType: "image/png", Data: []byte{0, 0, 0}},
		{Type: "file", URL: "https://example.test/a.pdf"},
		{Type: "audio", MIMEType: "audio/wav", Data: []byte("RIF")},
	}, tr.Messages[0].Parts)
	assert.Equal(t, &evalkit.Usage{InputTokens: 10, OutputTokens: 3, CostUSD: 0.0001}, tr.Messages[1].Usage)
}

// TestPlainStringAsEncodingJSON: the decoders' fast reading of a JSON
// string gives what encoding/json gives, and leaves it what needs it.
func TestPlainStringAsEncodingJSON(t *testing.T) {
	for _, raw := range []string{`""`, `"refund"`, `"Rückerstattung 42 €"`, `"a\"b"`, `"tab\tx"`, `"\u00e9"`, "\"bad \xff utf-8\"", `"back\\slash"`, `"<html> & 'x'"`} {
		var want string
		require.NoError(t, json.Unmarshal([]byte(raw), &want), raw)
		got, err := evalkit.Decode([]byte(`[{"role": "user", "content": ` + raw + `}]`))
		require.NoError(t, err, raw)
		assert.Equal(t, want, got.Messages[0].Content, raw)
	}
}
