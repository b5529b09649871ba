package evalkit_test

import (
	"bytes"
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
)

// cassette is one file of testdata/api_samples: recorded exchanges with a
// real API, request and response bodies as they were sent.
type cassette struct {
	Interactions []struct {
		Request struct {
			URI  string          `json:"uri"`
			Body json.RawMessage `json:"body"`
		} `json:"request"`
		Response struct {
			Status int             `json:"status"`
			Body   json.RawMessage `json:"body"`
		} `json:"response"`
	} `json:"interactions"`
}

func loadCassettes(t testing.TB) map[string]cassette {
	t.Helper()
	files, err := filepath.Glob("testdata/api_samples/*.json")
	require.NoError(t, err)
	require.Len(t, files, 5)
	out := map[string]cassette{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		var c cassette
		require.NoError(t, json.Unmarshal(data, &c), f)
		require.Len(t, c.Interactions, 2, f)
		out[strings.TrimSuffix(filepath.Base(f), ".json")] = c
	}
	return out
}

// wireCall is a tool call with its result as the recorded request body
// shows them, read straight from the JSON without evalkit.
type wireCall struct {
	ID, Name, Args string // Args as compact JSON
	Result         *wireResult
}

type wireResult struct {
	Content string
	IsError bool
}

// recordedCalls reads the tool calls and results of a request body in any
// of the three wire formats, pairing results to calls by id (unique in
// these samples).
func recordedCalls(t *testing.T, body json.RawMessage) []wireCall {
	t.Helper()
	var doc struct {
		Messages []struct {
			Role       string          `json:"role"`
			Content    json.RawMessage `json:"content"`
			ToolCallID string          `json:"tool_call_id"`
			ToolCalls  []struct {
				ID       string `json:"id"`
				Function struct {
					Name      string `json:"name"`
					Arguments string `json:"arguments"`
				} `json:"function"`
			} `json:"tool_calls"`
		} `json:"messages"`
		Input []struct {
			Type      string `json:"type"`
			CallID    string `json:"call_id"`
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
			Output    string `json:"output"`
		} `json:"input"`
	}
	require.NoError(t, json.Unmarshal(body, &doc))
	var calls []wireCall
	results := map[string]wireResult{}
	for _, m := range doc.Messages {
		for _, c := range m.ToolCalls { // OpenAI Chat Completions
			calls = append(calls, wireCall{ID: c.ID, Name: c.Function.Name, Args: compact(t, c.Function.Arguments)})
		}
		if m.Role == "tool" {
			var s string
			require.NoError(t, json.Unmarshal(m.Content, &s))
			results[m.ToolCallID] = wireResult{Content: s}
		}
		var blocks []struct { // Anthropic Messages
			Type      string          `json:"type"`
			ID        string          `json:"id"`
			Name      string          `json:"name"`
			Input     json.RawMessage `json:"input"`
			ToolUseID string          `json:"tool_use_id"`
			Content   string          `json:"content"`
			IsError   bool            `json:"is_error"`
		}
		if json.Unmarshal(m.Content, &blocks) != nil {
			continue
		}
		for _, b := range blocks {
			switch b.Type {
			case "tool_use":
				calls = append(calls, wireCall{ID: b.ID, Name: b.Name, Args: compact(t, string(b.Input))})
			case "tool_result":
				results[b.ToolUseID] = wireResult{Content: b.Content, IsError: b.IsError}
			}
		}
	}
	for _, it := range doc.Input { // OpenAI Responses
		switch it.Type {
		case "function_call":
			calls = append(calls, wireCall{ID: it.CallID, Name: it.Name, Args: compact(t, it.Arguments)})
		case "function_call_output":
			results[it.CallID] = wireResult{Content: it.Output}
		}
	}
	for i := range calls {
		if r, ok := results[calls[i].ID]; ok {
			calls[i].Result = &r
		}
	}
	require.Len(t, results, countAnswered(calls), "every recorded result answers a recorded call")
	return calls
}

func countAnswered(calls []wireCall) int {
	n := 0
	for _, c := range calls {
		if c.Result != nil {
			n++
		}
	}
	return n
}

func compact(t *testing.T, s string) string {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, json.Compact(&b, []byte(s)), s)
	return b.String()
}

// decodedCalls is the same view of a decoded transcript.
func decodedCalls(t *testing.T, calls []evalkit.ToolCall) []wireCall {
	t.Helper()
	var out []wireCall
	for _, c := range calls {
		w := wireCall{ID: c.ID, Name: c.Name, Args: compact(t, string(c.Args))}
		if c.Result != nil {
			w.Result = &wireResult{Content: c.Result.Content, IsError: c.Result.IsError}
			assert.Equal(t, c.Name, c.Result.Name, "a result takes its call's name")
		}
		out = append(out, w)
	}
	return out
}

// Every recorded request and response body decodes; the tool calls and
// results decoded from each request are the ones its JSON holds (names, ids,
// arguments, is_error); and the calls decoded from each response are the
// ones the next request sends back.
func TestAPISamplesDecode(t *testing.T) {
	cs := loadCassettes(t)
	for _, name := range slices.Sorted(maps.Keys(cs)) {
		c := cs[name]
		t.Run(name, func(t *testing.T) {
			for i, in := range c.Interactions {
				require.Equal(t, 200, in.Response.Status)
				req, err := evalkit.Decode(in.Request.Body)
				require.NoError(t, err, "request %d", i)
				resp, err := evalkit.Decode(in.Response.Body)
				require.NoError(t, err, "response %d", i)

				assert.Equal(t, recordedCalls(t, in.Request.Body), decodedCalls(t, req.ToolCalls()), "request %d", i)
				assert.Empty(t, req.OrphanResults(), "request %d", i)

				require.Len(t, resp.Messages, 1, "a response is one assistant message")
				answer := resp.Messages[0]
				assert.Equal(t, evalkit.RoleAssistant, answer.Role)
				require.NotNil(t, answer.Usage, "response %d carries its usage", i)
				assert.Positive(t, answer.Usage.InputTokens)
				assert.Positive(t, answer.Usage.OutputTokens)
				if len(answer.ToolCalls) > 0 {
					assert.Equal(t, "tool_calls", answer.FinishReason)
				} else {
					assert.Equal(t, "stop", answer.FinishReason)
					assert.NotEmpty(t, answer.Content)
				}
				if i+1 == len(c.Interactions) {
					continue
				}
				next, err := evalkit.Decode(c.Interactions[i+1].Request.Body)
				require.NoError(t, err)
				sentBack, ok := next.LastAssistant()
				require.True(t, ok, "request %d sends the answer back", i+1)
				assert.Equal(t, decodedCalls(t, answer.ToolCalls), stripResults(decodedCalls(t, sentBack.ToolCalls)))
				assert.Equal(t, answer.Content, sentBack.Content)
			}
		})
	}
}

func stripResults(calls []wireCall) []wireCall {
	for i := range calls {
		calls[i].Result = nil
	}
	return calls
}

// What each sample holds, spelled out: the parallel calls, the top-level
// system prompt, the answers and their usage.
func TestAPISamplesContent(t *testing.T) {
	cs := loadCassettes(t)
	decode := func(t *testing.T, name string, i int, response bool) *evalkit.Transcript {
		t.Helper()
		in := cs[name].Interactions[i]
		body := in.Request.Body
		if response {
			body = in.Response.Body
		}
		tr, err := evalkit.Decode(body)
		require.NoError(t, err)
		return tr
	}

	t.Run("anthropic parallel tool calls", func(t *testing.T) {
		const name = "anthropic_messages__test_multiple_parallel_tool_calls"
		req := decode(t, name, 1, false)
		require.Len(t, req.Messages, 7, "system, user, assistant, four tool results")
		assert.Equal(t, evalkit.RoleSystem, req.Messages[0].Role)
		assert.Contains(t, req.Messages[0].Content, "Use the `retrieve_entity_info` tool")
		assert.Equal(t, "I'll help you find out who is the youngest by retrieving information about each family member. I'll retrieve their entity information to compare their ages.", req.Messages[2].Content)
		var who []string
		for _, c := range req.ToolCalls() {
			args, err := c.Arguments()
			require.NoError(t, err)
			who = append(who, args["name"].(string)+": "+c.Result.Content)
			assert.False(t, c.Result.IsError)
		}
		assert.Equal(t, []string{"Alice: alice is bob's wife", "Bob: bob is alice's husband", "Charlie: charlie is alice's son", "Daisy: daisy is bob's daughter and charlie's younger sister"}, who)
		require.Len(t, req.Tools, 1)
		assert.Equal(t, "retrieve_entity_info", req.Tools[0].Name)
		assert.JSONEq(t, `{"additionalProperties": false, "properties": {"name": {"type": "string"}}, "required": ["name"], "type": "object"}`, string(req.Tools[0].Parameters))

		resp := decode(t, name, 1, true)
		assert.Contains(t, resp.AssistantText(), "Daisy is the youngest")
		assert.Equal(t, &evalkit.Usage{InputTokens: 771, OutputTokens: 77}, resp.Messages[0].Usage)
	})
	t.Run("anthropic tool output", func(t *testing.T) {
		resp := decode(t, "anthropic_messages__test_anthropic_tool_output", 1, true)
		calls := resp.ToolCalls()
		require.Len(t, calls, 1)
		assert.Equal(t, "final_result", calls[0].Name)
		assert.JSONEq(t, `{"city": "Mexico City", "country": "Mexico"}`, string(calls[0].Args))
		assert.Nil(t, calls[0].Result)
	})
	t.Run("openai chat", func(t *testing.T) {
		const name = "openai_chat_completions__test_openai_instructions_with_tool_calls_keep_instructions"
		resp := decode(t, name, 0, true)
		assert.Equal(t, &evalkit.Usage{InputTokens: 50, OutputTokens: 15}, resp.Messages[0].Usage)
		req := decode(t, name, 1, false)
		calls := req.ToolCalls()
		require.Len(t, calls, 1)
		assert.Equal(t, "20.0", calls[0].Result.Content)
		assert.Equal(t, "The temperature in Tokyo is currently 20.0 degrees Celsius.", decode(t, name, 1, true).AssistantText())
	})
	t.Run("openai responses", func(t *testing.T) {
		const name = "openai_responses__test_openai_responses_model_simple_response_with_tool_call"
		first := decode(t, name, 0, true)
		require.Len(t, first.Messages, 1)
		require.Len(t, first.Messages[0].ToolCalls, 1)
		assert.Equal(t, "call_YfwRsW8sUxDKipwyhWTzOXCA", first.Messages[0].ToolCalls[0].ID, "the call_id, not the item id")
		require.Len(t, first.Tools, 1)
		assert.Equal(t, "get_capital", first.Tools[0].Name)

		req := decode(t, name, 1, false)
		roles := []evalkit.Role{}
		for _, m := range req.Messages {
			roles = append(roles, m.Role)
		}
		assert.Equal(t, []evalkit.Role{evalkit.RoleUser, evalkit.RoleAssistant, evalkit.RoleTool}, roles)
		assert.Equal(t, "Potato City", req.ToolCalls()[0].Result.Content)

		resp := decode(t, name, 1, true)
		assert.Equal(t, "The capital of PotatoLand is Potato City.", resp.AssistantText())
		assert.Equal(t, &evalkit.Usage{InputTokens: 67, OutputTokens: 11}, resp.Messages[0].Usage)
	})
}
