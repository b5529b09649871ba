package anthropicjudge_test

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

// Chat sends a Messages request without tools — the system prompt apart,
// the judge's settings — and returns the text with its usage and cost.
func TestAnthropicjudgeChat(t *testing.T) {
	j, tr := newJudge(t, []judgefake.Reply{{Text: "It is omar_rossi_1241.", InputTokens: 1000, OutputTokens: 10}})
	m, err := j.Chat(context.Background(), "Play the user.", conversation)
	require.NoError(t, err)
	require.NoError(t, tr.Err())
	assert.Equal(t, "It is omar_rossi_1241.", m.Content)
	assert.Equal(t, "end_turn", m.FinishReason)
	require.NotNil(t, m.Usage)
	assert.Equal(t, 1010, m.Usage.InputTokens+m.Usage.OutputTokens)
	assert.Positive(t, m.Usage.CostUSD)

	b := body(t, tr.Requests()[0])
	assert.Equal(t, map[string]any{
		"model": "claude-haiku-4-5-20251001", "max_tokens": 1024.0, "temperature": 0.0, "system": "Play the user.",
		"messages": []any{
			map[string]any{"role": "user", "content": "Hi! How can I help you today?"},
			map[string]any{"role": "assistant", "content": "I want to cancel my trip."},
			map[string]any{"role": "user", "content": "What is your user id?"},
		},
	}, b)
}

// What a simulated user cannot use is an error, never an empty message.
func TestAnthropicjudgeChatErrors(t *testing.T) {
	for name, c := range map[string]struct {
		reply judgefake.Reply
		msgs  []evalkit.Message
		want  string
	}{
		"cut off":        {reply: judgefake.Reply{Text: "I want", StopReason: "max_tokens"}, want: "anthropicjudge: 1 attempt: HTTP 200: the reply was cut off (stop_reason \"max_tokens\") after 6 bytes"},
		"refused":        {reply: judgefake.Reply{Text: "no", StopReason: "refusal"}, want: "the model refused"},
		"empty":          {reply: judgefake.Text(" "), want: "the reply has no text"},
		"assistant 1st":  {msgs: conversation[1:], want: `the first message has role "assistant": the Messages API wants the user's first`},
		"system message": {msgs: []evalkit.Message{{Role: evalkit.RoleSystem, Content: "x"}}, want: `message 1 has role "system"`},
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
