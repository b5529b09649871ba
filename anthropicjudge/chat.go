package anthropicjudge

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/internal/judgehttp"
)

// chatRequest is the body of a free-text POST /v1/messages: no tools.
type chatRequest struct {
	Model       string    `json:"model"`
	MaxTokens   int       `json:"max_tokens"`
	System      string    `json:"system,omitempty"`
	Messages    []message `json:"messages"`
	Temperature *float64  `json:"temperature,omitempty"`
}

// Chat asks the judge's model for a free-text reply, not a verdict: the
// system prompt, then msgs (roles user and assistant, their text; the
// first must be the user's, as the Messages API requires), with the
// judge's model, temperature and max_tokens and no tools. It is what makes
// a Judge a simulate.Model, so one configured client plays a simulated
// user (package simulate) as well as judging.
//
// It returns an assistant message with the reply's text blocks joined and
// its usage, cost in USD from the price table. Errors: a message of
// another role, no messages, a first message that is not the user's; a
// missing key (FromEnv); an HTTP failure after retries (see the package
// doc); a reply that is not a message, was refused, was cut off
// (stop_reason "max_tokens" or "model_context_window_exceeded"), or has no
// text. Credentials are redacted from errors and from the reply as Judge
// redacts them.
func (j *Judge) Chat(ctx context.Context, system string, msgs []evalkit.Message) (evalkit.Message, error) {
	m, err := j.chat(ctx, system, msgs)
	if err != nil {
		return evalkit.Message{}, judgehttp.RedactError(err, j.client.Secrets)
	}
	m.Content = judgehttp.Redact(m.Content, j.client.Secrets)
	return m, nil
}

func (j *Judge) chat(ctx context.Context, system string, msgs []evalkit.Message) (evalkit.Message, error) {
	if j.configErr != nil {
		return evalkit.Message{}, j.configErr
	}
	if j.missingKey != "" {
		return evalkit.Message{}, fmt.Errorf("anthropicjudge: %s is not set: the model needs an API key to call %s", j.missingKey, judgehttp.RedactURL(j.endpoint))
	}
	if len(msgs) == 0 {
		return evalkit.Message{}, fmt.Errorf("anthropicjudge: Chat: no messages")
	}
	r := chatRequest{Model: j.model, MaxTokens: j.maxTokens, System: system, Temperature: j.temperature}
	for i, m := range msgs {
		if m.Role != evalkit.RoleUser && m.Role != evalkit.RoleAssistant {
			return evalkit.Message{}, fmt.Errorf("anthropicjudge: Chat: message %d has role %q: want user or assistant (the system prompt is its own argument)", i+1, m.Role)
		}
		r.Messages = append(r.Messages, message{Role: string(m.Role), Content: m.Content})
	}
	if r.Messages[0].Role != "user" {
		return evalkit.Message{}, fmt.Errorf("anthropicjudge: Chat: the first message has role %q: the Messages API wants the user's first", r.Messages[0].Role)
	}
	body, err := json.Marshal(r)
	if err != nil {
		return evalkit.Message{}, fmt.Errorf("anthropicjudge: encoding the request: %w", err)
	}
	resp, err := j.client.Post(ctx, j.endpoint, j.headers(), body)
	if err != nil {
		return evalkit.Message{}, withHint(err)
	}
	return j.reply(ctx, resp)
}

// reply reads a 2xx response into the model's message.
func (j *Judge) reply(ctx context.Context, resp *judgehttp.Response) (evalkit.Message, error) {
	fail := func(format string, args ...any) (evalkit.Message, error) {
		return evalkit.Message{}, fmt.Errorf("anthropicjudge: %s: HTTP %d: "+format, append([]any{attempts(resp.Attempts), resp.Status}, args...)...)
	}
	if len(resp.Body) == 0 {
		return fail("the reply is empty")
	}
	var mr messagesResponse
	if err := json.Unmarshal(resp.Body, &mr); err != nil {
		return fail("the reply is not a message: %v", err)
	}
	if mr.Type != "message" || mr.Content == nil {
		return fail("the reply is not a message: want \"type\": \"message\" with a \"content\" list")
	}
	var usage *evalkit.Usage
	if u := mr.Usage; u != nil {
		usage = &evalkit.Usage{
			InputTokens:       u.InputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens,
			OutputTokens:      u.OutputTokens,
			CachedInputTokens: u.CacheReadInputTokens,
		}
		answered := j.model
		if mr.Model != "" {
			answered = mr.Model
		}
		p, priced := judgehttp.LookupPrice(j.prices, mr.Model, j.model)
		if priced {
			usage.CostUSD = p.cost(*usage)
		}
		judgehttp.Spend(ctx, judgehttp.Cost{Client: "anthropicjudge", Model: answered, USD: usage.CostUSD, Priced: priced})
	}
	var text strings.Builder
	for _, block := range mr.Content {
		if block.Type == "text" {
			text.WriteString(block.Text)
		}
	}
	switch mr.StopReason {
	case "max_tokens", "length", "model_context_window_exceeded":
		return fail("the reply was cut off (stop_reason %q) after %d bytes", mr.StopReason, text.Len())
	case "refusal":
		return fail("the model refused (stop_reason \"refusal\")")
	}
	if strings.TrimSpace(text.String()) == "" {
		return fail("the reply has no text")
	}
	return evalkit.Message{Role: evalkit.RoleAssistant, Content: text.String(), FinishReason: mr.StopReason, Usage: usage}, nil
}
