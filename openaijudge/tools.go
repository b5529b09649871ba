package openaijudge

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/internal/judgehttp"
)

// MaxToolRounds bounds how many times a judge given tools
// (JudgeRequest.Tools) answers with tool calls before its verdict: past it,
// the call is an error, never a verdict.
const MaxToolRounds = 8

// MaxToolCalls bounds the tool calls of one judge call, over all its
// rounds: a reply that would pass it is an error, and none of its calls
// run.
const MaxToolCalls = 64

type chatTool struct {
	Type     string       `json:"type"`
	Function chatFunction `json:"function"`
}

type chatFunction struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters,omitempty"`
}

type chatToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

func wireTools(tools []evalkit.JudgeTool) []chatTool {
	out := make([]chatTool, len(tools))
	for i, t := range tools {
		params := t.Parameters
		if len(params) == 0 {
			params = json.RawMessage(`{"type":"object","properties":{}}`)
		}
		out[i] = chatTool{Type: "function", Function: chatFunction{Name: t.Name, Description: t.Description, Parameters: params}}
	}
	return out
}

// toolLoop is a judge call's conversation with its tools: the messages
// sent after the prompt, the calls made, and the usage of the replies that
// called them.
type toolLoop struct {
	messages []chatMessage
	calls    []evalkit.JudgeToolCall
	usage    evalkit.Usage
	rounds   int
}

// round reads a reply: when it calls tools, runs them, keeps the calls and
// the messages that answer them, and reports true; a reply without tool
// calls is the verdict's, for Judge.verdict to read.
func (tl *toolLoop) round(ctx context.Context, j *Judge, resp *judgehttp.Response, req evalkit.JudgeRequest, model string) (bool, error) {
	var cr chatResponse
	if err := json.Unmarshal(resp.Body, &cr); err != nil || len(cr.Choices) != 1 || cr.Choices[0].Message == nil {
		return false, nil // Judge.verdict says what is wrong
	}
	msg := cr.Choices[0].Message
	if len(msg.ToolCalls) == 0 {
		return false, nil
	}
	tl.rounds++
	if tl.rounds > MaxToolRounds {
		return false, fmt.Errorf("openaijudge: the judge called tools %d times without giving a verdict (at most %d)", tl.rounds, MaxToolRounds)
	}
	if n := len(tl.calls) + len(msg.ToolCalls); n > MaxToolCalls {
		return false, fmt.Errorf("openaijudge: the judge asked for %d tool calls in one reply, %d in all (at most %d): none of them was run", len(msg.ToolCalls), n, MaxToolCalls)
	}
	if cr.Usage != nil {
		u := evalkit.Usage{InputTokens: cr.Usage.PromptTokens, OutputTokens: cr.Usage.CompletionTokens}
		p, priced := judgehttp.LookupPrice(j.prices, cr.Model, model)
		if priced {
			u.CostUSD = p.cost(u)
		}
		judgehttp.Spend(ctx, judgehttp.Cost{Client: "openaijudge", Model: firstNonEmpty(cr.Model, model), USD: u.CostUSD, Priced: priced})
		tl.usage.InputTokens += u.InputTokens
		tl.usage.OutputTokens += u.OutputTokens
		tl.usage.CostUSD += u.CostUSD
	}
	text, _ := messageText(msg.Content)
	asked := chatMessage{Role: "assistant", Content: text}
	var answers []chatMessage
	for i, c := range msg.ToolCalls {
		if c.ID == "" {
			c.ID = "call_" + strconv.Itoa(tl.rounds) + "_" + strconv.Itoa(i)
		}
		if c.Type == "" {
			c.Type = "function"
		}
		asked.ToolCalls = append(asked.ToolCalls, c)
		call := evalkit.JudgeToolCall{Name: c.Function.Name}
		var compact bytes.Buffer
		if json.Compact(&compact, []byte(c.Function.Arguments)) == nil {
			call.Args = compact.Bytes()
		} else {
			quoted, _ := json.Marshal(c.Function.Arguments)
			call.Args = quoted
		}
		result, err := runTool(ctx, req.Tools, c.Function.Name, call.Args)
		content := result
		if err != nil {
			call.Error = err.Error()
			content = "error: " + call.Error
		}
		call.Result = result
		tl.calls = append(tl.calls, call)
		answers = append(answers, chatMessage{Role: "tool", Content: content, ToolCallID: c.ID})
	}
	tl.messages = append(append(tl.messages, asked), answers...)
	return true, nil
}

// runTool runs the named tool, turning a panic into an error.
func runTool(ctx context.Context, tools []evalkit.JudgeTool, name string, args json.RawMessage) (out string, err error) {
	for _, t := range tools {
		if t.Name != name {
			continue
		}
		defer func() {
			if p := recover(); p != nil {
				out, err = "", fmt.Errorf("the tool panicked: %v", p)
			}
		}()
		return t.Run(ctx, args)
	}
	return "", fmt.Errorf("no tool named %q", name)
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
