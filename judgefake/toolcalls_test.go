package judgefake_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit/judgefake"
)

// A scripted agent turn calls tools in either wire format: OpenAI's
// tool_calls with string arguments and a null content, Anthropic's
// tool_use blocks after the text; a bad argument list is a script problem.
func TestReplyToolCalls(t *testing.T) {
	tr := judgefake.NewTransport(
		judgefake.Reply{ToolCalls: []judgefake.ToolCall{{ID: "call_1", Name: "get_user_details", Args: `{"user_id": "olivia_gonzalez_2305"}`}, {Name: "think"}}},
		judgefake.Reply{Text: "Let me look.", ToolCalls: []judgefake.ToolCall{{Name: "get_reservation_details", Args: `{"reservation_id":"Z7GOZK"}`}}},
		judgefake.Reply{ToolCalls: []judgefake.ToolCall{{Name: "x", Args: `[1]`}}},
	)
	post := func(path, body string, header map[string]string) (int, string) {
		req, err := http.NewRequest(http.MethodPost, "http://fake"+path, strings.NewReader(body))
		require.NoError(t, err)
		for k, v := range header {
			req.Header.Set(k, v)
		}
		resp, err := tr.Client().Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		data, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return resp.StatusCode, string(data)
	}

	status, body := post("/v1/chat/completions", `{"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}]}`, nil)
	require.Equal(t, 200, status, body)
	var oa struct {
		Choices []struct {
			Message struct {
				Content   *string `json:"content"`
				ToolCalls []struct {
					ID       string `json:"id"`
					Type     string `json:"type"`
					Function struct{ Name, Arguments string }
				} `json:"tool_calls"`
			} `json:"message"`
			FinishReason string `json:"finish_reason"`
		} `json:"choices"`
	}
	require.NoError(t, json.Unmarshal([]byte(body), &oa))
	msg := oa.Choices[0].Message
	assert.Nil(t, msg.Content, "content is null on a tool-calling turn")
	assert.Equal(t, "tool_calls", oa.Choices[0].FinishReason)
	require.Len(t, msg.ToolCalls, 2)
	assert.Equal(t, "call_1", msg.ToolCalls[0].ID)
	assert.Equal(t, "function", msg.ToolCalls[0].Type)
	assert.Equal(t, "get_user_details", msg.ToolCalls[0].Function.Name)
	assert.Equal(t, `{"user_id": "olivia_gonzalez_2305"}`, msg.ToolCalls[0].Function.Arguments, "arguments are a JSON string, as scripted")
	assert.Equal(t, "call_judgefake_1_2", msg.ToolCalls[1].ID)
	assert.Equal(t, `{}`, msg.ToolCalls[1].Function.Arguments)

	status, body = post("/v1/messages", `{"model": "claude-sonnet-4-5", "max_tokens": 100, "messages": [{"role": "user", "content": "hi"}]}`,
		map[string]string{"anthropic-version": "2023-06-01"})
	require.Equal(t, 200, status, body)
	assert.JSONEq(t, `[{"type": "text", "text": "Let me look."}, {"type": "tool_use", "id": "toolu_judgefake_2_1", "name": "get_reservation_details", "input": {"reservation_id": "Z7GOZK"}}]`,
		string(field(t, body, "content")))
	assert.JSONEq(t, `"tool_use"`, string(field(t, body, "stop_reason")))

	status, _ = post("/v1/chat/completions", `{"model": "gpt-4o", "messages": [{"role": "user", "content": "hi"}]}`, nil)
	assert.Equal(t, 400, status)
	require.Error(t, tr.Err())
	assert.Contains(t, tr.Err().Error(), "tool call 1's arguments are not a JSON object: \"[1]\"")
}

func field(t *testing.T, body, name string) json.RawMessage {
	t.Helper()
	var m map[string]json.RawMessage
	require.NoError(t, json.Unmarshal([]byte(body), &m))
	return m[name]
}
