package openaijudge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/internal/judgehttp"
	"github.com/evalkit-go/evalkit/internal/judgeprompt"
)

// formatLevel is how the judge asks for structured output, from the
// strongest guarantee down.
type formatLevel int32

const (
	formatSchema formatLevel = iota // response_format json_schema, strict
	formatObject                    // response_format json_object
	formatNone                      // no response_format: the prompt alone
)

// chatRequest is the body of POST /chat/completions.
type chatRequest struct {
	Model          string          `json:"model"`
	Messages       []chatMessage   `json:"messages"`
	Temperature    *float64        `json:"temperature,omitempty"`
	Seed           *int64          `json:"seed,omitempty"`
	MaxTokens      int             `json:"max_tokens,omitempty"`
	MaxCompletion  int             `json:"max_completion_tokens,omitempty"`
	ResponseFormat *responseFormat `json:"response_format,omitempty"`
	Tools          []chatTool      `json:"tools,omitempty"`
}

type chatMessage struct {
	Role       string         `json:"role"`
	Content    string         `json:"content"`
	ToolCalls  []chatToolCall `json:"tool_calls,omitempty"`
	ToolCallID string         `json:"tool_call_id,omitempty"`
}

type responseFormat struct {
	Type       string      `json:"type"`
	JSONSchema *jsonSchema `json:"json_schema,omitempty"`
}

type jsonSchema struct {
	Name   string          `json:"name"`
	Strict bool            `json:"strict"`
	Schema json.RawMessage `json:"schema"`
}

func (j *Judge) request(model string, msgs judgeprompt.Messages, schema json.RawMessage, level formatLevel) chatRequest {
	r := chatRequest{
		Model: model,
		Messages: []chatMessage{
			{Role: "system", Content: msgs.System},
			{Role: "user", Content: msgs.User},
		},
		Temperature: j.temperature,
		Seed:        j.seed,
	}
	switch j.maxTokensField {
	case "max_tokens":
		r.MaxTokens = j.maxTokens
	case "max_completion_tokens":
		r.MaxCompletion = j.maxTokens
	}
	switch level {
	case formatSchema:
		r.ResponseFormat = &responseFormat{Type: "json_schema", JSONSchema: &jsonSchema{Name: judgeprompt.SchemaName, Strict: true, Schema: schema}}
	case formatObject:
		r.ResponseFormat = &responseFormat{Type: "json_object"}
	}
	return r
}

// rejectsFormat reports whether err is a server refusing the
// response_format of the given level: HTTP 400 or 422 whose error names
// response_format (OpenAI's "param", or the message) or the format's type.
// Servers word this differently — OpenAI "Invalid parameter:
// 'response_format' of type 'json_schema' is not supported with this
// model", vLLM and llama.cpp name the field or the type — so the match is
// on those names, not on a sentence.
func rejectsFormat(err error, level formatLevel) bool {
	var e *judgehttp.Error
	if !errors.As(err, &e) || (e.Status() != 400 && e.Status() != 422) {
		return false
	}
	if e.Param() == "response_format" || strings.HasPrefix(e.Param(), "response_format.") {
		return true
	}
	msg := strings.ToLower(e.Message())
	if strings.Contains(msg, "response_format") || strings.Contains(msg, "response format") {
		return true
	}
	switch level {
	case formatSchema:
		return strings.Contains(msg, "json_schema")
	case formatObject:
		return strings.Contains(msg, "json_object")
	}
	return false
}

// withHint adds the option to try to a 400 that names a setting the model
// does not take: "temperature" (reasoning models), "seed", "max_tokens".
// The error still unwraps to the *judgehttp.Error.
func withHint(err error) error {
	var e *judgehttp.Error
	if !errors.As(err, &e) || e.Status() != 400 {
		return err
	}
	text := strings.ToLower(e.Param() + " " + e.Message())
	switch {
	case strings.Contains(text, "temperature"):
		return fmt.Errorf("%w; hint: for a model that takes no temperature, use openaijudge.WithoutTemperature()", err)
	case strings.Contains(text, "max_tokens") && strings.Contains(text, "max_completion_tokens"):
		return fmt.Errorf("%w; hint: use openaijudge.WithMaxCompletionTokens instead of WithMaxTokens", err)
	case strings.Contains(text, "seed"):
		return fmt.Errorf("%w; hint: for a server that takes no seed, use openaijudge.WithoutSeed()", err)
	}
	return err
}

// chatResponse is the part of a chat completion the judge reads.
type chatResponse struct {
	Object  string `json:"object"`
	Model   string `json:"model"`
	Choices []struct {
		Message *struct {
			Content   json.RawMessage `json:"content"`
			Refusal   string          `json:"refusal"`
			ToolCalls []chatToolCall  `json:"tool_calls"`
		} `json:"message"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Usage *struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
	} `json:"usage"`
}

// verdict reads a 2xx response into a verdict.
//
// Every error names the attempts the call made, as an HTTP failure's does:
// "openaijudge: 2 attempts: HTTP 200: the reply is empty". A reply that
// reports usage is metered (judgehttp.Spend) before its answer is read, so
// an unreadable answer is paid for too.
func (j *Judge) verdict(ctx context.Context, resp *judgehttp.Response, req evalkit.JudgeRequest, model string) (evalkit.Verdict, error) {
	tries := attempts(resp.Attempts)
	fail := func(format string, args ...any) (evalkit.Verdict, error) {
		return evalkit.Verdict{}, fmt.Errorf("openaijudge: %s: HTTP %d: "+format, append([]any{tries, resp.Status}, args...)...)
	}
	if len(resp.Body) == 0 {
		return fail("the reply is empty")
	}
	var cr chatResponse
	if err := json.Unmarshal(resp.Body, &cr); err != nil {
		return fail("the reply is not a chat completion: %v", err)
	}
	if len(cr.Choices) == 0 {
		if cr.Choices == nil && cr.Object != "chat.completion" {
			return fail("the reply is not a chat completion: it has no \"choices\"")
		}
		return fail("the reply has no choices")
	}
	answered := model
	if cr.Model != "" {
		answered = cr.Model
	}
	var usage evalkit.Usage
	if cr.Usage != nil {
		usage = evalkit.Usage{InputTokens: cr.Usage.PromptTokens, OutputTokens: cr.Usage.CompletionTokens}
		p, priced := judgehttp.LookupPrice(j.prices, cr.Model, model)
		if priced {
			usage.CostUSD = p.cost(usage)
		}
		judgehttp.Spend(ctx, judgehttp.Cost{Client: "openaijudge", Model: answered, USD: usage.CostUSD, Priced: priced})
	}
	unreadable := func(format string, args ...any) (evalkit.Verdict, error) {
		return evalkit.Verdict{}, fmt.Errorf("openaijudge: %s: %s: %w: "+format, append([]any{tries, answered, evalkit.ErrUnreadableVerdict}, args...)...)
	}
	if len(cr.Choices) > 1 {
		// The judge never sends n, so one choice is what it asked for;
		// taking the first of several would pick a verdict silently.
		return unreadable("the reply has %d choices where the judge asked for one, and which is the verdict is not knowable", len(cr.Choices))
	}
	choice := cr.Choices[0]
	if choice.Message == nil {
		return fail("the reply's first choice has no message")
	}
	if choice.Message.Refusal != "" {
		return fail("the model refused to judge: %s", judgehttp.Bound(judgehttp.Redact(choice.Message.Refusal, j.client.Secrets), judgehttp.MaxMessage))
	}
	content, err := messageText(choice.Message.Content)
	if err != nil {
		return fail("%v", err)
	}
	// Redacted before it is read: ParseVerdict's errors quote the answer
	// cut to a length, and a credential cut there would escape Judge's
	// redaction of the error.
	content = judgehttp.Redact(content, j.client.Secrets)
	switch choice.FinishReason {
	case "length", "max_tokens":
		// "length" is OpenAI's; "max_tokens" some compatible servers'.
		return unreadable("the reply was cut off at the token limit (finish_reason %q) after %d bytes", choice.FinishReason, len(content))
	case "content_filter":
		return fail("the reply was withheld by the content filter (finish_reason \"content_filter\")")
	}
	// Any other finish_reason ("stop", "tool_calls", a server's own) lets
	// the answer be read: ParseVerdict refuses one it cannot read whole.
	v, err := evalkit.ParseVerdictFor(req, content)
	if err != nil {
		return evalkit.Verdict{}, fmt.Errorf("openaijudge: %s: %s: %w", tries, answered, err)
	}
	v.Model = answered
	if v.Raw == "" {
		v.Raw = content
	}
	v.Usage = usage
	return v, nil
}

// attempts says how many attempts a call made: "1 attempt", "3 attempts".
func attempts(n int) string {
	if n == 1 {
		return "1 attempt"
	}
	return fmt.Sprintf("%d attempts", n)
}

// messageText reads a message's content: a string, or (as some servers
// send it) a list of parts whose text parts are joined.
func messageText(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, nil
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", fmt.Errorf("the message content is neither text nor a list of parts")
	}
	var b strings.Builder
	for _, p := range parts {
		if p.Type == "text" || p.Type == "output_text" {
			b.WriteString(p.Text)
		}
	}
	return b.String(), nil
}
