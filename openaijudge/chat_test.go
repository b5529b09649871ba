package openaijudge_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/judgefake"
)

var conversation = []evalkit.Message{
	{Role: evalkit.RoleUser, Content: "Hi! How can I help you today?"},
	{Role: evalkit.RoleAssistant, Content: "I want to cancel my trip."},
	{Role: evalkit.RoleUser, Content: "What is your user id?"},
}

// Chat sends a plain chat completion — the system prompt, then the
// messages, with the judge's settings and no response format — and
// returns the text with its usage and cost.
func TestOpenaijudgeChat(t *testing.T) {
	j, tr := newJudge(t, []judgefake.Reply{{Text: "It is omar_rossi_1241.", Model: "gpt-4.1-mini-2025-04-14", InputTokens: 1000, OutputTokens: 10}})
	m, err := j.Chat(context.Background(), "Play the user.", conversation)
	require.NoError(t, err)
	require.NoError(t, tr.Err())
	assert.Equal(t, evalkit.RoleAssistant, m.Role)
	assert.Equal(t, "It is omar_rossi_1241.", m.Content)
	assert.Equal(t, "stop", m.FinishReason)
	require.NotNil(t, m.Usage)
	assert.Equal(t, 1000, m.Usage.InputTokens)
	assert.InDelta(t, 0.000416, m.Usage.CostUSD, 1e-9, "gpt-4.1-mini: $0.40 in, $1.60 out per 1M")

	b := body(t, tr.Requests()[0])
	assert.Equal(t, map[string]any{
		"model": "gpt-4.1-mini", "temperature": 0.0, "seed": 1.0,
		"messages": []any{
			map[string]any{"role": "system", "content": "Play the user."},
			map[string]any{"role": "user", "content": "Hi! How can I help you today?"},
			map[string]any{"role": "assistant", "content": "I want to cancel my trip."},
			map[string]any{"role": "user", "content": "What is your user id?"},
		},
	}, b)
}

// What a simulated user cannot use is an error, never an empty message.
func TestOpenaijudgeChatErrors(t *testing.T) {
	for name, c := range map[string]struct {
		reply judgefake.Reply
		msgs  []evalkit.Message
		want  string
	}{
		"cut off":   {reply: judgefake.Reply{Text: "I want", StopReason: "length"}, want: "openaijudge: 1 attempt: HTTP 200: the reply was cut off at the token limit (finish_reason \"length\") after 6 bytes"},
		"empty":     {reply: judgefake.Text(""), want: "openaijudge: 1 attempt: HTTP 200: the reply has no text"},
		"filtered":  {reply: judgefake.Reply{Text: "x", StopReason: "content_filter"}, want: "withheld by the content filter"},
		"status":    {reply: judgefake.Status(401), want: "HTTP 401"},
		"bad role":  {msgs: []evalkit.Message{{Role: evalkit.RoleTool, Content: "x"}}, want: `openaijudge: Chat: message 1 has role "tool": want user or assistant`},
		"no thread": {msgs: []evalkit.Message{}, want: "openaijudge: Chat: no messages"},
	} {
		t.Run(name, func(t *testing.T) {
			j, _ := newJudge(t, []judgefake.Reply{c.reply})
			msgs := conversation
			if c.msgs != nil {
				msgs = c.msgs
			}
			_, err := j.Chat(context.Background(), "s", msgs)
			assert.ErrorContains(t, err, c.want)
		})
	}
}
