package judgefake_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/judgefake"
)

// Script reads its next turn from the conversation, so one Script serves
// many runs; it stops once every turn is said.
func TestScript(t *testing.T) {
	s := judgefake.Script{"one", "two"}
	tr := &evalkit.Transcript{}
	for _, want := range []string{"one", "two"} {
		text, stop, err := s.Next(context.Background(), tr)
		require.NoError(t, err)
		assert.False(t, stop)
		assert.Equal(t, want, text)
		tr.Messages = append(tr.Messages, evalkit.Message{Role: evalkit.RoleUser, Content: text}, evalkit.Message{Role: evalkit.RoleAssistant, Content: "ok"})
	}
	text, stop, err := s.Next(context.Background(), tr)
	require.NoError(t, err)
	assert.True(t, stop)
	assert.Empty(t, text)
	text, _, _ = s.Next(context.Background(), &evalkit.Transcript{})
	assert.Equal(t, "one", text, "a new conversation starts again")
	assert.Equal(t, "judgefake.Script(2 turns)", s.String())
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, _, err = s.Next(ctx, tr)
	assert.ErrorIs(t, err, context.Canceled)
}

// The user server answers each request with the turn after the model's
// own earlier lines, in either wire format, whatever the order requests
// come in; a turn past the script is a 400 and a problem.
func TestUserServer(t *testing.T) {
	srv := judgefake.NewUserServer("I want to cancel.", "It is Z7GOZK.")
	defer srv.Close()
	post := func(path string, body string, header ...string) (int, string) {
		req, err := http.NewRequest(http.MethodPost, srv.URL+path, bytes.NewBufferString(body))
		require.NoError(t, err)
		for i := 0; i+1 < len(header); i += 2 {
			req.Header.Set(header[i], header[i+1])
		}
		resp, err := srv.Client().Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		data, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return resp.StatusCode, string(data)
	}
	text := func(data string) string {
		var r struct {
			Choices []struct{ Message struct{ Content string } }
			Content []struct{ Text string }
		}
		require.NoError(t, json.Unmarshal([]byte(data), &r))
		if len(r.Choices) > 0 {
			return r.Choices[0].Message.Content
		}
		return r.Content[0].Text
	}
	second := `{"model": "gpt-4", "messages": [{"role": "system", "content": "play"}, {"role": "user", "content": "Hi!"}, {"role": "assistant", "content": "I want to cancel."}, {"role": "user", "content": "Which one?"}]}`
	status, data := post("/v1/chat/completions", second)
	require.Equal(t, 200, status, data)
	assert.Equal(t, "It is Z7GOZK.", text(data))
	status, data = post("/v1/messages", `{"model": "claude", "max_tokens": 100, "messages": [{"role": "user", "content": "Hi!"}]}`, "anthropic-version", "2023-06-01")
	require.Equal(t, 200, status, data)
	assert.Equal(t, "I want to cancel.", text(data))
	require.NoError(t, srv.Err())

	third := strings.Replace(second, `"content": "Which one?"}`, `"content": "Which one?"}, {"role": "assistant", "content": "It is Z7GOZK."}, {"role": "user", "content": "Done."}`, 1)
	status, _ = post("/v1/chat/completions", third)
	assert.Equal(t, 400, status)
	assert.ErrorContains(t, srv.Err(), "script exhausted: the model was asked for turn 3, and 2 turns were scripted")
}
