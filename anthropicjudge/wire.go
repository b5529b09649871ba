package anthropicjudge

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/internal/judgehttp"
	"github.com/evalkit-go/evalkit/internal/judgeprompt"
)

// messagesRequest is the body of POST /v1/messages.
type messagesRequest struct {
	Model       string     `json:"model"`
	MaxTokens   int        `json:"max_tokens"`
	System      string     `json:"system,omitempty"`
	Messages    []message  `json:"messages"`
	Temperature *float64   `json:"temperature,omitempty"`
	Tools       []tool     `json:"tools"`
	ToolChoice  toolChoice `json:"tool_choice"`
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

func (j *Judge) request(model string, msgs judgeprompt.Messages, schema json.RawMessage) messagesRequest {
	return messagesRequest{
		Model:       model,
		MaxTokens:   j.maxTokens,
		System:      msgs.System,
		Messages:    []message{{Role: "user", Content: msgs.User}},
		Temperature: j.temperature,
		Tools:       []tool{{Name: judgeprompt.SchemaName, Description: toolDescription, InputSchema: schema}},
		ToolChoice:  toolChoice{Type: "tool", Name: judgeprompt.SchemaName},
	}
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
// the verdict tool's call; a reply without one (a proxy that dropped the
// tools) is read from its text blocks instead, which the prompt asks to be
// the same JSON object.
func (j *Judge) verdict(resp *judgehttp.Response, req evalkit.JudgeRequest, model string) (evalkit.Verdict, error) {
	fail := func(format string, args ...any) (evalkit.Verdict, error) {
		return evalkit.Verdict{}, fmt.Errorf("anthropicjudge: HTTP %d: "+format, append([]any{resp.Status}, args...)...)
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
	var answer string
	var text strings.Builder
	for _, block := range mr.Content {
		switch {
		case block.Type == "tool_use" && block.Name == judgeprompt.SchemaName && answer == "":
			answer = string(block.Input)
		case block.Type == "text":
			text.WriteString(block.Text)
		}
	}
	if answer == "" {
		answer = text.String()
	}
	switch mr.StopReason {
	case "max_tokens":
		return evalkit.Verdict{}, fmt.Errorf("anthropicjudge: %s: %w: the reply was cut off at max_tokens (%d) after %d bytes", answered, evalkit.ErrUnreadableVerdict, j.maxTokens, len(answer))
	case "refusal":
		return fail("the model refused to judge (stop_reason \"refusal\")")
	}
	// Redacted before it is read: ParseVerdict's errors quote the answer
	// cut to a length, and a credential cut there would escape Judge's
	// redaction of the error.
	answer = judgehttp.Redact(answer, j.client.Secrets)
	v, err := evalkit.ParseVerdict(answer, req.Scale.OrDefault())
	if err != nil {
		return evalkit.Verdict{}, fmt.Errorf("anthropicjudge: %s: %w", answered, err)
	}
	v.Model = answered
	if v.Raw == "" {
		v.Raw = answer
	}
	if u := mr.Usage; u != nil {
		v.Usage = evalkit.Usage{
			InputTokens:  u.InputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens,
			OutputTokens: u.OutputTokens,
		}
		if p, ok := judgehttp.LookupPrice(j.prices, mr.Model, model); ok {
			v.Usage.CostUSD = p.cost(v.Usage)
		}
	}
	return v, nil
}
