// Package airline is a small airline-service agent with tools over an
// in-memory database: the kind of code an evalkit user tests with a
// simulated customer. Its test (airline_test.go) shows the whole workflow
// on a real τ-bench task: simulate the conversation (evaltest.Simulate),
// assert on the tool calls and on the database the agent left behind
// (StateEquals, τ-bench's reward on a small scale), and judge the
// conversation — every model call recorded, so
//
//	EVALKIT_MODE=record go test ./examples/airline   # asks the models (fakes here), writes testdata/evalkit/
//	go test ./examples/airline                       # replays: no network, no key
//
// The agent answers one user message per call of Reply (a
// simulate.Agent): it sends the conversation to its model over the OpenAI
// Chat Completions wire format (plain net/http, no SDK), runs the tools
// the model calls on its DB and asks again with their results, until the
// model answers in text.
package airline

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/evalkit-go/evalkit"
)

// Agent is the agent's configuration.
type Agent struct {
	// BaseURL is the model API's base URL, before /chat/completions.
	BaseURL string
	// APIKey is sent as "Authorization: Bearer <key>" when set.
	APIKey string
	// Model is the model asked: "gpt-4o".
	Model string
	// DB is the database its tools read and change.
	DB *DB
	// Client sends the requests (http.DefaultClient when nil). In a test:
	// evaltest.HTTPClient(t).
	Client *http.Client
	// MaxSteps bounds the model calls per user message (default 8).
	MaxSteps int
}

// ErrTooManySteps is what Reply's error wraps when the model still calls
// tools after MaxSteps calls.
var ErrTooManySteps = errors.New("airline: too many steps")

type chatMessage struct {
	Role       string     `json:"role"`
	Content    *string    `json:"content"`
	ToolCalls  []toolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
	Name       string     `json:"name,omitempty"`
}

type toolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// Reply answers the conversation's last user message: the assistant and
// tool messages of the agent's turn, the last one its answer in text (see
// simulate.Agent). The conversation's system message is the agent's
// policy.
func (a *Agent) Reply(ctx context.Context, tr *evalkit.Transcript) ([]evalkit.Message, error) {
	msgs := chatMessages(tr.Messages)
	var out []evalkit.Message
	steps := a.MaxSteps
	if steps <= 0 {
		steps = 8
	}
	for range steps {
		reply, err := a.complete(ctx, append(msgs, chatMessages(out)...))
		if err != nil {
			return nil, err
		}
		m := evalkit.Message{Role: evalkit.RoleAssistant}
		if reply.Content != nil {
			m.Content = *reply.Content
		}
		for _, c := range reply.ToolCalls {
			m.ToolCalls = append(m.ToolCalls, evalkit.ToolCall{ID: c.ID, Name: c.Function.Name, Args: json.RawMessage(c.Function.Arguments)})
		}
		out = append(out, m)
		if len(m.ToolCalls) == 0 {
			return out, nil
		}
		for _, c := range m.ToolCalls {
			result := a.DB.Call(c.Name, c.Args)
			out = append(out, evalkit.Message{Role: evalkit.RoleTool, ToolCallID: c.ID, Name: c.Name, Content: result, IsError: strings.HasPrefix(result, "Error: ")})
		}
	}
	return nil, fmt.Errorf("%w: the model still calls tools after %d calls", ErrTooManySteps, steps)
}

// chatMessages writes evalkit messages in the Chat Completions format.
func chatMessages(ms []evalkit.Message) []chatMessage {
	out := make([]chatMessage, 0, len(ms))
	for _, m := range ms {
		c := chatMessage{Role: string(m.Role), ToolCallID: m.ToolCallID, Name: m.Name}
		if m.Role == evalkit.RoleTool {
			c.Name = ""
		}
		if m.Content != "" || len(m.ToolCalls) == 0 {
			text := m.Content
			c.Content = &text
		}
		for _, tc := range m.ToolCalls {
			var call toolCall
			call.ID, call.Type = tc.ID, "function"
			call.Function.Name, call.Function.Arguments = tc.Name, string(tc.Args)
			c.ToolCalls = append(c.ToolCalls, call)
		}
		out = append(out, c)
	}
	return out
}

type toolSpec struct {
	Type     string `json:"type"`
	Function struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Parameters  json.RawMessage `json:"parameters"`
	} `json:"function"`
}

// complete asks the model for the next message.
func (a *Agent) complete(ctx context.Context, msgs []chatMessage) (chatMessage, error) {
	var tools []toolSpec
	for _, t := range ToolSpecs() {
		var s toolSpec
		s.Type = "function"
		s.Function.Name, s.Function.Description, s.Function.Parameters = t.Name, t.Description, t.Parameters
		tools = append(tools, s)
	}
	body, err := json.Marshal(map[string]any{"model": a.Model, "messages": msgs, "tools": tools, "temperature": 0})
	if err != nil {
		return chatMessage{}, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimSuffix(a.BaseURL, "/")+"/chat/completions", bytes.NewReader(body))
	if err != nil {
		return chatMessage{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	if a.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+a.APIKey)
	}
	client := a.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return chatMessage{}, fmt.Errorf("airline: asking the model: %w", err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return chatMessage{}, fmt.Errorf("airline: reading the model's answer: %w", err)
	}
	var out struct {
		Choices []struct {
			Message chatMessage `json:"message"`
		} `json:"choices"`
	}
	if resp.StatusCode != http.StatusOK {
		return chatMessage{}, fmt.Errorf("airline: the model API answered %d: %.200s", resp.StatusCode, data)
	}
	if err := json.Unmarshal(data, &out); err != nil || len(out.Choices) == 0 {
		return chatMessage{}, fmt.Errorf("airline: the model's answer is not a chat completion with a choice: %.200s", data)
	}
	return out.Choices[0].Message, nil
}
