// Package agent is a small tool-using agent over the OpenAI Chat
// Completions wire format, in plain net/http with no SDK: the kind of code
// an evalkit user tests. Its test (agent_test.go) shows the whole
// workflow: the agent's model calls go through evaltest.HTTPClient and the
// judge's through a recorded openaijudge, so
//
//	EVALKIT_MODE=record go test ./examples/agent   # asks the model API and the judge, writes testdata/evalkit/
//	go test ./examples/agent                       # replays both: no network, no key
//
// The agent takes a conversation's user turns one by one; for each, it
// asks the model, runs the tools the model calls and asks again with
// their results, until the model answers in text. Run returns the whole
// conversation as an evalkit.Transcript.
package agent

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

// Tool is a function the model may call.
type Tool struct {
	// Name and Description are what the model is told of the tool.
	Name, Description string
	// Parameters is the JSON Schema of the tool's arguments object.
	Parameters json.RawMessage
	// Run runs the tool with the arguments the model wrote (a JSON
	// object) and returns what the model is told: its result, or, for an
	// error, "Error: " and the error's text, as τ-bench's tools report
	// them.
	Run func(ctx context.Context, args json.RawMessage) (string, error)
}

// Agent is the agent's configuration.
type Agent struct {
	// BaseURL is the API's base URL, the part before /chat/completions:
	// "https://api.openai.com/v1".
	BaseURL string
	// APIKey is sent as "Authorization: Bearer <key>" when set.
	APIKey string
	// Model is the model asked: "gpt-4o".
	Model string
	// SystemPrompt is the agent's prompt, the conversation's first
	// message.
	SystemPrompt string
	// Tools are the tools the model may call.
	Tools []Tool
	// Client sends the requests (http.DefaultClient when nil). In a test:
	// evaltest.HTTPClient(t).
	Client *http.Client
	// MaxSteps bounds the model calls per user turn (default 8): a model
	// that keeps calling tools is an error, never an endless loop.
	MaxSteps int
}

// ErrTooManySteps is what Run's error wraps when the model still calls
// tools after MaxSteps calls in one turn.
var ErrTooManySteps = errors.New("agent: too many steps")

// message is an OpenAI chat message as the agent sends and receives it.
type message struct {
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

type toolSpec struct {
	Type     string `json:"type"`
	Function struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Parameters  json.RawMessage `json:"parameters"`
	} `json:"function"`
}

// Run plays a conversation: each of userTurns in order, the model and the
// tools answering each (see the package doc). It returns the transcript
// of everything said — system prompt, user turns, model answers, tool
// calls and results — or an error: the request's (a replay miss, a
// network error, ctx's), a non-200 status with the API's error message, a
// response with no choice, ErrTooManySteps. What was said before an error
// is not returned.
func (a *Agent) Run(ctx context.Context, userTurns []string) (*evalkit.Transcript, error) {
	msgs := []message{{Role: "system", Content: &a.SystemPrompt}}
	for _, turn := range userTurns {
		msgs = append(msgs, message{Role: "user", Content: &turn})
		for step := 0; ; step++ {
			if step == a.maxSteps() {
				return nil, fmt.Errorf("%w: the model still calls tools after %d calls in one turn", ErrTooManySteps, step)
			}
			reply, err := a.complete(ctx, msgs)
			if err != nil {
				return nil, err
			}
			msgs = append(msgs, reply)
			if len(reply.ToolCalls) == 0 {
				break
			}
			for _, c := range reply.ToolCalls {
				result := a.call(ctx, c.Function.Name, c.Function.Arguments)
				msgs = append(msgs, message{Role: "tool", Content: &result, ToolCallID: c.ID, Name: c.Function.Name})
			}
		}
	}
	data, err := json.Marshal(map[string]any{"messages": msgs, "tools": a.toolSpecs()})
	if err != nil {
		return nil, err
	}
	return evalkit.Decode(data)
}

func (a *Agent) maxSteps() int {
	if a.MaxSteps > 0 {
		return a.MaxSteps
	}
	return 8
}

func (a *Agent) toolSpecs() []toolSpec {
	specs := make([]toolSpec, len(a.Tools))
	for i, t := range a.Tools {
		specs[i].Type = "function"
		specs[i].Function.Name, specs[i].Function.Description, specs[i].Function.Parameters = t.Name, t.Description, t.Parameters
	}
	return specs
}

// call runs one tool call and returns what the model is told.
func (a *Agent) call(ctx context.Context, name, args string) string {
	for _, t := range a.Tools {
		if t.Name != name {
			continue
		}
		if !json.Valid([]byte(args)) {
			return "Error: the arguments are not JSON: " + args
		}
		out, err := t.Run(ctx, json.RawMessage(args))
		if err != nil {
			return "Error: " + err.Error()
		}
		return out
	}
	return "Error: unknown tool " + name
}

// complete asks the model for the next message of the conversation.
func (a *Agent) complete(ctx context.Context, msgs []message) (message, error) {
	body, err := json.Marshal(map[string]any{
		"model":       a.Model,
		"messages":    msgs,
		"tools":       a.toolSpecs(),
		"temperature": 0,
	})
	if err != nil {
		return message{}, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimSuffix(a.BaseURL, "/")+"/chat/completions", bytes.NewReader(body))
	if err != nil {
		return message{}, err
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
		return message{}, fmt.Errorf("agent: asking the model: %w", err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return message{}, fmt.Errorf("agent: reading the model's answer: %w", err)
	}
	var out struct {
		Choices []struct {
			Message message `json:"message"`
		} `json:"choices"`
		Error *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(data, &out); err != nil {
		return message{}, fmt.Errorf("agent: the model's answer (status %d) is not JSON: %w", resp.StatusCode, err)
	}
	switch {
	case resp.StatusCode != http.StatusOK && out.Error != nil:
		return message{}, fmt.Errorf("agent: the model API answered %d: %s", resp.StatusCode, out.Error.Message)
	case resp.StatusCode != http.StatusOK:
		return message{}, fmt.Errorf("agent: the model API answered %d", resp.StatusCode)
	case len(out.Choices) == 0:
		return message{}, errors.New("agent: the model's answer has no choices")
	}
	m := out.Choices[0].Message
	m.Role = "assistant"
	return m, nil
}
