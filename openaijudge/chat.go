package openaijudge

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/internal/judgehttp"
)

// Chat asks the judge's model for a free-text reply, not a verdict: the
// system prompt, then msgs (roles user and assistant, their text), with
// the judge's model, temperature, seed and token cap and no response
// format. It is what makes a Judge a simulate.Model, so one configured
// client plays a simulated user (package simulate) as well as judging.
//
// It returns an assistant message with the reply's text and its usage,
// cost in USD from the price table. Errors: a message of another role or
// no messages; a missing key (FromEnv); an HTTP failure after retries (see
// the package doc); a reply that is not a chat completion, has no choice
// or more than one, was refused or filtered, was cut off at the token
// limit, or is empty. Credentials are redacted from errors and from the
// reply as Judge redacts them.
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
		return evalkit.Message{}, fmt.Errorf("openaijudge: %s is not set: the model needs an API key to call %s (for a local server that needs none, set it to any value)", j.missingKey, judgehttp.RedactURL(j.endpoint))
	}
	if len(msgs) == 0 {
		return evalkit.Message{}, fmt.Errorf("openaijudge: Chat: no messages")
	}
	r := chatRequest{Model: j.model, Temperature: j.temperature, Seed: j.seed}
	switch j.maxTokensField {
	case "max_tokens":
		r.MaxTokens = j.maxTokens
	case "max_completion_tokens":
		r.MaxCompletion = j.maxTokens
	}
	if system != "" {
		r.Messages = append(r.Messages, chatMessage{Role: "system", Content: system})
	}
	for i, m := range msgs {
		if m.Role != evalkit.RoleUser && m.Role != evalkit.RoleAssistant {
			return evalkit.Message{}, fmt.Errorf("openaijudge: Chat: message %d has role %q: want user or assistant (the system prompt is its own argument)", i+1, m.Role)
		}
		r.Messages = append(r.Messages, chatMessage{Role: string(m.Role), Content: m.Content})
	}
	body, err := json.Marshal(r)
	if err != nil {
		return evalkit.Message{}, fmt.Errorf("openaijudge: encoding the request: %w", err)
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
		return evalkit.Message{}, fmt.Errorf("openaijudge: %s: HTTP %d: "+format, append([]any{attempts(resp.Attempts), resp.Status}, args...)...)
	}
	if len(resp.Body) == 0 {
		return fail("the reply is empty")
	}
	var cr chatResponse
	if err := json.Unmarshal(resp.Body, &cr); err != nil {
		return fail("the reply is not a chat completion: %v", err)
	}
	if len(cr.Choices) == 0 {
		return fail("the reply has no choices")
	}
	var usage *evalkit.Usage
	if cr.Usage != nil {
		usage = &evalkit.Usage{InputTokens: cr.Usage.PromptTokens, OutputTokens: cr.Usage.CompletionTokens}
		answered := j.model
		if cr.Model != "" {
			answered = cr.Model
		}
		p, priced := judgehttp.LookupPrice(j.prices, cr.Model, j.model)
		if priced {
			usage.CostUSD = p.cost(*usage)
		}
		judgehttp.Spend(ctx, judgehttp.Cost{Client: "openaijudge", Model: answered, USD: usage.CostUSD, Priced: priced})
	}
	if len(cr.Choices) > 1 {
		return fail("the reply has %d choices where one was asked for", len(cr.Choices))
	}
	choice := cr.Choices[0]
	if choice.Message == nil {
		return fail("the reply's first choice has no message")
	}
	if choice.Message.Refusal != "" {
		return fail("the model refused: %s", judgehttp.Bound(judgehttp.Redact(choice.Message.Refusal, j.client.Secrets), judgehttp.MaxMessage))
	}
	content, err := messageText(choice.Message.Content)
	if err != nil {
		return fail("%v", err)
	}
	switch choice.FinishReason {
	case "length", "max_tokens":
		return fail("the reply was cut off at the token limit (finish_reason %q) after %d bytes", choice.FinishReason, len(content))
	case "content_filter":
		return fail("the reply was withheld by the content filter (finish_reason \"content_filter\")")
	}
	if content == "" {
		return fail("the reply has no text")
	}
	return evalkit.Message{Role: evalkit.RoleAssistant, Content: content, FinishReason: choice.FinishReason, Usage: usage}, nil
}
