package judgefake_test

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit/judgefake"
)

func do(t *testing.T, client *http.Client, url, body string, header map[string]string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	require.NoError(t, err)
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := client.Do(req)
	require.NoError(t, err)
	data, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	resp.Body.Close()
	return resp, string(data)
}

// A streamed Chat Completions answer, exactly: the role, the content word
// by word, a tool call's id and name on its first delta and its arguments
// in two, the finish reason, the usage asked for, [DONE]; "created" is
// Created, not the clock.
func TestStreamChatCompletions(t *testing.T) {
	tr := judgefake.NewTransport(judgefake.Reply{Text: "Let me check.", ToolCalls: []judgefake.ToolCall{{ID: "call_1", Name: "get_order", Args: `{"id":"W1"}`}}, InputTokens: 9, OutputTokens: 4})
	resp, body := do(t, tr.Client(), "http://fake/v1/chat/completions", `{"model":"gpt-4o","stream":true,"stream_options":{"include_usage":true},"messages":[{"role":"user","content":"order W1?"}]}`, nil)
	assert.Equal(t, "text/event-stream; charset=utf-8", resp.Header.Get("Content-Type"))
	head := `{"id":"chatcmpl-judgefake-1","object":"chat.completion.chunk","created":1700000000,"model":"gpt-4o",`
	want := []string{
		`"choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}],"usage":null}`,
		`"choices":[{"index":0,"delta":{"content":"Let"},"finish_reason":null}],"usage":null}`,
		`"choices":[{"index":0,"delta":{"content":" me"},"finish_reason":null}],"usage":null}`,
		`"choices":[{"index":0,"delta":{"content":" check."},"finish_reason":null}],"usage":null}`,
		`"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"get_order","arguments":""}}]},"finish_reason":null}],"usage":null}`,
		`"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\"id\""}}]},"finish_reason":null}],"usage":null}`,
		`"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":":\"W1\"}"}}]},"finish_reason":null}],"usage":null}`,
		`"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}],"usage":null}`,
		`"choices":[],"usage":{"prompt_tokens":9,"completion_tokens":4,"total_tokens":13}}`,
	}
	var b strings.Builder
	for _, w := range want {
		b.WriteString("data: " + head + w + "\n\n")
	}
	b.WriteString("data: [DONE]\n\n")
	assert.Equal(t, b.String(), body)
	require.NoError(t, tr.Err())
}

// The Responses API, whole and streamed (from a real socket, event by
// event), and Anthropic's stream: the events their references name, in
// order.
func TestStreamResponsesAndMessages(t *testing.T) {
	srv := judgefake.NewServer(
		judgefake.Reply{Text: "Paris.", InputTokens: 5, OutputTokens: 2},
		judgefake.Reply{ToolCalls: []judgefake.ToolCall{{Name: "get_capital", Args: `{"country":"France"}`}}},
		judgefake.Reply{Text: "Hi there"},
	)
	defer srv.Close()
	_, body := do(t, srv.Client(), srv.URL+"/v1/responses", `{"model":"gpt-4.1","input":"Capital of France?"}`, nil)
	assert.JSONEq(t, `{"id":"resp_judgefake_1","object":"response","created_at":1700000000,"status":"completed","model":"gpt-4.1",
		"output":[{"type":"message","id":"msg_judgefake_1","status":"completed","role":"assistant","content":[{"type":"output_text","text":"Paris.","annotations":[]}]}],
		"usage":{"input_tokens":5,"output_tokens":2,"total_tokens":7}}`, body)

	_, body = do(t, srv.Client(), srv.URL+"/v1/responses", `{"model":"gpt-4.1","stream":true,"input":[{"role":"user","content":"Capital of France?"}]}`, nil)
	assert.Equal(t, []string{"response.created", "response.in_progress", "response.output_item.added", "response.function_call_arguments.delta",
		"response.function_call_arguments.delta", "response.function_call_arguments.done", "response.output_item.done", "response.completed"}, eventNames(body))
	assert.Contains(t, body, `"call_id":"call_judgefake_2_1"`)

	_, body = do(t, srv.Client(), srv.URL+"/v1/messages", `{"model":"claude-sonnet-4-5","max_tokens":100,"stream":true,"messages":[{"role":"user","content":"hello"}]}`, map[string]string{"anthropic-version": "2023-06-01"})
	assert.Equal(t, []string{"message_start", "content_block_start", "ping", "content_block_delta", "content_block_delta", "content_block_stop", "message_delta", "message_stop"}, eventNames(body))
	require.NoError(t, srv.Err())
}

func eventNames(stream string) []string {
	var out []string
	for _, line := range strings.Split(stream, "\n") {
		if name, ok := strings.CutPrefix(line, "event: "); ok {
			out = append(out, name)
		}
	}
	return out
}
