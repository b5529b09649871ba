package anthropicjudge

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/internal/judgehttp"
	"github.com/evalkit-go/evalkit/internal/judgeprompt"
)

// messagesRequest is the body of POST /v1/messages.
type messagesRequest struct {
	Model       string      `json:"model"`
	MaxTokens   int         `json:"max_tokens"`
	System      string      `json:"system,omitempty"`
	Messages    []message   `json:"messages"`
	Temperature *float64    `json:"temperature,omitempty"`
	Tools       []tool      `json:"tools,omitempty"`
	ToolChoice  *toolChoice `json:"tool_choice,omitempty"`
}

type message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type tool struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
}

type toolChoice struct {
	Type string `json:"type"`
	Name string `json:"name"`
}

// toolDescription tells the model what the verdict tool is for; the
// prompt itself says how to grade.
const toolDescription = "Record your verdict on the content under review: your assessment first, then the score, in the shape the schema gives."

func (j *Judge) request(model string, msgs judgeprompt.Messages, schema json.RawMessage, format evalkit.Format) messagesRequest {
	r := messagesRequest{
		Model:       model,
		MaxTokens:   j.maxTokens,
		System:      msgs.System,
		Messages:    []message{{Role: "user", Content: msgs.User}},
		Temperature: j.temperature,
	}
	if format == nil { // a declared verdict format is text: no tool
		r.Tools = []tool{{Name: judgeprompt.SchemaName, Description: toolDescription, InputSchema: schema}}
		r.ToolChoice = &toolChoice{Type: "tool", Name: judgeprompt.SchemaName}
	}
	return r
}

// messagesResponse is the part of a Messages reply the judge reads.
type messagesResponse struct {
	Type    string `json:"type"`
	Model   string `json:"model"`
	Content []struct {
		Type  string          `json:"type"`
		Text  string          `json:"text"`
		Name  string          `json:"name"`
		Input json.RawMessage `json:"input"`
	} `json:"content"`
	StopReason string `json:"stop_reason"`
	Usage      *struct {
		InputTokens              int `json:"input_tokens"`
		OutputTokens             int `json:"output_tokens"`
		CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
		CacheReadInputTokens     int `json:"cache_read_input_tokens"`
	} `json:"usage"`
}

// verdict reads a 2xx response into a verdict. The answer is the input of
// the one call of the verdict tool. A reply with no tool_use block at all
// (a proxy that dropped the tools) is read from its text blocks instead,
// which the prompt asks to be the same JSON object; a reply that calls the
// verdict tool and also has text is read from the tool call alone.
//
// Every error names the attempts the call made, as an HTTP failure's does:
// "anthropicjudge: 2 attempts: HTTP 200: the reply is empty". A reply that
// reports usage is metered (judgehttp.Spend) before its answer is read, so
// an unreadable answer is paid for too.
func (j *Judge) verdict(ctx context.Context, resp *judgehttp.Response, req evalkit.JudgeRequest, model string) (evalkit.Verdict, error) {
	tries := attempts(resp.Attempts)
	fail := func(format string, args ...any) (evalkit.Verdict, error) {
		return evalkit.Verdict{}, fmt.Errorf("anthropicjudge: %s: HTTP %d: "+format, append([]any{tries, resp.Status}, args...)...)
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
	answered := model
	if mr.Model != "" {
		answered = mr.Model
	}
	var usage evalkit.Usage
	if u := mr.Usage; u != nil {
		usage = evalkit.Usage{
			InputTokens:  u.InputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens,
			OutputTokens: u.OutputTokens,
		}
		p, priced := judgehttp.LookupPrice(j.prices, mr.Model, model)
		if priced {
			usage.CostUSD = p.cost(usage)
		}
		judgehttp.Spend(ctx, judgehttp.Cost{Client: "anthropicjudge", Model: answered, USD: usage.CostUSD, Priced: priced})
	}
	unreadable := func(format string, args ...any) (evalkit.Verdict, error) {
		return evalkit.Verdict{}, fmt.Errorf("anthropicjudge: %s: %s: %w: "+format, append([]any{tries, answered, evalkit.ErrUnreadableVerdict}, args...)...)
	}
	var calls []json.RawMessage // the verdict tool's inputs
	var other []string          // the names of other tools called
	var text strings.Builder
	for _, block := range mr.Content {
		switch block.Type {
		case "tool_use":
			if block.Name == judgeprompt.SchemaName {
				calls = append(calls, block.Input)
			} else {
				other = append(other, block.Name)
			}
		case "text":
			text.WriteString(block.Text)
		}
	}
	answer := text.String()
	if len(calls) > 0 {
		answer = string(calls[0])
	}
	switch mr.StopReason {
	case "max_tokens", "length":
		// "length" is how an OpenAI-minded proxy may write it.
		return unreadable("the reply was cut off at max_tokens (%d) after %d bytes (stop_reason %q)", j.maxTokens, len(answer), mr.StopReason)
	case "model_context_window_exceeded":
		return unreadable("the reply was cut off at the model's context window after %d bytes (stop_reason %q)", len(answer), mr.StopReason)
	case "refusal":
		return fail("the model refused to judge (stop_reason \"refusal\")")
	}
	// Any other stop_reason ("tool_use", "end_turn", "pause_turn", a
	// proxy's own) lets the answer be read; what follows refuses an answer
	// that is not one verdict.
	switch {
	case len(other) > 0:
		return unreadable("the model called the tool %q, which the judge did not offer (it offers only %q)", judgehttp.Bound(other[0], 100), judgeprompt.SchemaName)
	case len(calls) > 1:
		return unreadable("the reply calls the %s tool %d times, and which is the verdict is not knowable", judgeprompt.SchemaName, len(calls))
	case len(calls) == 1 && (len(calls[0]) == 0 || string(calls[0]) == "null"):
		return unreadable("the reply calls the %s tool with no input", judgeprompt.SchemaName)
	}
	// Redacted before it is read: ParseVerdict's errors quote the answer
	// cut to a length, and a credential cut there would escape Judge's
	// redaction of the error.
	answer = judgehttp.Redact(answer, j.client.Secrets)
	v, err := evalkit.ParseVerdictFor(req, answer)
	if err != nil {
		return evalkit.Verdict{}, fmt.Errorf("anthropicjudge: %s: %s: %w", tries, answered, err)
	}
	v.Model = answered
	if v.Raw == "" {
		v.Raw = answer
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
