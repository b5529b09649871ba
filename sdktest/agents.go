// Package sdktest holds agents written with the Go SDKs and frameworks
// evalkit's users write theirs with — openai-go v3 (Chat Completions and
// Responses), anthropic-sdk-go, sashabaranov/go-openai and langchaingo —
// each the smallest tool-using loop: ask, run the tool the model calls,
// send its result, return the answer. Its tests record and replay them
// through evaltest.HTTPClient, streamed and not. It is a module of its
// own, so the SDKs never enter evalkit's module graph.
package sdktest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/anthropics/anthropic-sdk-go/v2"
	anthropicoption "github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/openai/openai-go/v3"
	openaioption "github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"
	"github.com/openai/openai-go/v3/shared"
	goopenai "github.com/sashabaranov/go-openai"
	"github.com/tmc/langchaingo/llms"
	lcanthropic "github.com/tmc/langchaingo/llms/anthropic"
	lcopenai "github.com/tmc/langchaingo/llms/openai"
)

// Doer is what the SDKs send requests with: an *http.Client, or
// evaltest's HTTPRecording.
type Doer = openaioption.HTTPClient

// The tool every agent offers: the weather in a city.
const (
	toolName        = "get_weather"
	toolDescription = "Get the current weather in a city."
)

var toolSchema = map[string]any{
	"type":                 "object",
	"properties":           map[string]any{"city": map[string]any{"type": "string"}},
	"required":             []string{"city"},
	"additionalProperties": false,
}

// Weather runs the tool: the weather in the city its arguments name.
func Weather(args string) string {
	var in struct {
		City string `json:"city"`
	}
	if err := json.Unmarshal([]byte(args), &in); err != nil || in.City == "" {
		return "error: want {\"city\": ...}"
	}
	return "sunny in " + in.City
}

// maxTurns bounds an agent's loop.
const maxTurns = 4

var errTurns = errors.New("the model asked for tools more than 4 times")

// OpenAIChat is an agent over openai-go's Chat Completions, streamed
// (with the SDK's ChatCompletionAccumulator) or not.
func OpenAIChat(ctx context.Context, client openai.Client, question string, stream bool) (string, error) {
	params := openai.ChatCompletionNewParams{
		Model:    "gpt-4o",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage(question)},
		Tools: []openai.ChatCompletionToolUnionParam{openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
			Name: toolName, Description: openai.String(toolDescription), Parameters: toolSchema,
		})},
	}
	if stream {
		params.StreamOptions = openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)}
	}
	for range maxTurns {
		var msg openai.ChatCompletionMessage
		if stream {
			s := client.Chat.Completions.NewStreaming(ctx, params)
			var acc openai.ChatCompletionAccumulator
			for s.Next() {
				acc.AddChunk(s.Current())
			}
			if err := s.Err(); err != nil {
				return "", err
			}
			if len(acc.Choices) == 0 {
				return "", errors.New("the stream had no choice")
			}
			msg = acc.Choices[0].Message
		} else {
			resp, err := client.Chat.Completions.New(ctx, params)
			if err != nil {
				return "", err
			}
			msg = resp.Choices[0].Message
		}
		if len(msg.ToolCalls) == 0 {
			return msg.Content, nil
		}
		params.Messages = append(params.Messages, msg.ToParam())
		for _, c := range msg.ToolCalls {
			params.Messages = append(params.Messages, openai.ToolMessage(Weather(c.Function.Arguments), c.ID))
		}
	}
	return "", errTurns
}

// OpenAIResponses is an agent over openai-go's Responses API, the
// conversation kept by the server (previous_response_id), streamed or
// not.
func OpenAIResponses(ctx context.Context, client openai.Client, question string, stream bool) (string, error) {
	params := responses.ResponseNewParams{
		Model: "gpt-4.1",
		Input: responses.ResponseNewParamsInputUnion{OfString: openai.String(question)},
		Tools: []responses.ToolUnionParam{responses.ToolParamOfFunction(toolName, toolSchema, true)},
	}
	for range maxTurns {
		var resp *responses.Response
		if stream {
			s := client.Responses.NewStreaming(ctx, params)
			for s.Next() {
				if ev := s.Current(); ev.Type == "response.completed" {
					r := ev.Response
					resp = &r
				}
			}
			if err := s.Err(); err != nil {
				return "", err
			}
			if resp == nil {
				return "", errors.New("the stream ended without response.completed")
			}
		} else {
			var err error
			if resp, err = client.Responses.New(ctx, params); err != nil {
				return "", err
			}
		}
		var outputs responses.ResponseInputParam
		for _, item := range resp.Output {
			if item.Type != "function_call" {
				continue
			}
			out := responses.ResponseInputItemParamOfFunctionCallOutput(Weather(item.Arguments.OfString))
			out.OfFunctionCallOutput.CallID = openai.String(item.CallID)
			outputs = append(outputs, out)
		}
		if len(outputs) == 0 {
			return resp.OutputText(), nil
		}
		params.PreviousResponseID = openai.String(resp.ID)
		params.Input = responses.ResponseNewParamsInputUnion{OfInputItemList: outputs}
	}
	return "", errTurns
}

// Anthropic is an agent over anthropic-sdk-go's Messages API, streamed
// (with the SDK's Message.Accumulate) or not.
func Anthropic(ctx context.Context, client anthropic.Client, question string, stream bool) (string, error) {
	params := anthropic.MessageNewParams{
		Model:     "claude-sonnet-4-5",
		MaxTokens: 1024,
		Messages:  []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock(question))},
		Tools: []anthropic.ToolUnionParam{{OfTool: &anthropic.ToolParam{
			Name: toolName, Description: anthropic.String(toolDescription),
			InputSchema: anthropic.ToolInputSchemaParam{Properties: toolSchema["properties"], Required: []string{"city"}},
		}}},
	}
	for range maxTurns {
		var msg anthropic.Message
		if stream {
			s := client.Messages.NewStreaming(ctx, params)
			for s.Next() {
				if err := msg.Accumulate(s.Current()); err != nil {
					return "", err
				}
			}
			if err := s.Err(); err != nil {
				return "", err
			}
		} else {
			resp, err := client.Messages.New(ctx, params)
			if err != nil {
				return "", err
			}
			msg = *resp
		}
		var results []anthropic.ContentBlockParamUnion
		var text strings.Builder
		for _, b := range msg.Content {
			switch b.Type {
			case "text":
				text.WriteString(b.Text)
			case "tool_use":
				results = append(results, anthropic.NewToolResultBlock(b.ID, Weather(string(b.Input)), false))
			}
		}
		if len(results) == 0 {
			return text.String(), nil
		}
		params.Messages = append(params.Messages, msg.ToParam(), anthropic.NewUserMessage(results...))
	}
	return "", errTurns
}

// GoOpenAI is an agent over sashabaranov/go-openai, streamed or not.
func GoOpenAI(ctx context.Context, client *goopenai.Client, question string, stream bool) (string, error) {
	req := goopenai.ChatCompletionRequest{
		Model:    "gpt-4o",
		Messages: []goopenai.ChatCompletionMessage{{Role: goopenai.ChatMessageRoleUser, Content: question}},
		Tools: []goopenai.Tool{{Type: goopenai.ToolTypeFunction, Function: &goopenai.FunctionDefinition{
			Name: toolName, Description: toolDescription, Parameters: toolSchema,
		}}},
	}
	for range maxTurns {
		var msg goopenai.ChatCompletionMessage
		if stream {
			s, err := client.CreateChatCompletionStream(ctx, req)
			if err != nil {
				return "", err
			}
			msg, err = collect(s)
			s.Close()
			if err != nil {
				return "", err
			}
		} else {
			resp, err := client.CreateChatCompletion(ctx, req)
			if err != nil {
				return "", err
			}
			msg = resp.Choices[0].Message
		}
		if len(msg.ToolCalls) == 0 {
			return msg.Content, nil
		}
		req.Messages = append(req.Messages, msg)
		for _, c := range msg.ToolCalls {
			req.Messages = append(req.Messages, goopenai.ChatCompletionMessage{Role: goopenai.ChatMessageRoleTool, ToolCallID: c.ID, Content: Weather(c.Function.Arguments)})
		}
	}
	return "", errTurns
}

// collect joins a go-openai stream's deltas into a message, as its users
// must: tool calls by index, their id and name from the first delta.
func collect(s *goopenai.ChatCompletionStream) (goopenai.ChatCompletionMessage, error) {
	msg := goopenai.ChatCompletionMessage{Role: goopenai.ChatMessageRoleAssistant}
	for {
		chunk, err := s.Recv()
		if errors.Is(err, io.EOF) {
			return msg, nil
		}
		if err != nil {
			return msg, err
		}
		if len(chunk.Choices) == 0 {
			continue
		}
		d := chunk.Choices[0].Delta
		msg.Content += d.Content
		for _, tc := range d.ToolCalls {
			i := 0
			if tc.Index != nil {
				i = *tc.Index
			}
			for len(msg.ToolCalls) <= i {
				msg.ToolCalls = append(msg.ToolCalls, goopenai.ToolCall{Type: goopenai.ToolTypeFunction})
			}
			c := &msg.ToolCalls[i]
			if tc.ID != "" {
				c.ID = tc.ID
			}
			if tc.Function.Name != "" {
				c.Function.Name = tc.Function.Name
			}
			c.Function.Arguments += tc.Function.Arguments
		}
	}
}

// LangChain is an agent over langchaingo's llms.Model — its OpenAI or
// Anthropic provider — streamed (llms.WithStreamingFunc) or not.
func LangChain(ctx context.Context, model llms.Model, question string, stream bool) (string, error) {
	msgs := []llms.MessageContent{llms.TextParts(llms.ChatMessageTypeHuman, question)}
	opts := []llms.CallOption{llms.WithTools([]llms.Tool{{Type: "function", Function: &llms.FunctionDefinition{
		Name: toolName, Description: toolDescription, Parameters: toolSchema,
	}}})}
	if stream {
		opts = append(opts, llms.WithStreamingFunc(func(context.Context, []byte) error { return nil }))
	}
	for range maxTurns {
		resp, err := model.GenerateContent(ctx, msgs, opts...)
		if err != nil {
			return "", err
		}
		if len(resp.Choices) == 0 {
			return "", errors.New("no choice")
		}
		choice := resp.Choices[0]
		if len(choice.ToolCalls) == 0 {
			return choice.Content, nil
		}
		ai := llms.MessageContent{Role: llms.ChatMessageTypeAI}
		if choice.Content != "" {
			ai.Parts = append(ai.Parts, llms.TextContent{Text: choice.Content})
		}
		results := llms.MessageContent{Role: llms.ChatMessageTypeTool}
		for _, c := range choice.ToolCalls {
			ai.Parts = append(ai.Parts, c)
			results.Parts = append(results.Parts, llms.ToolCallResponse{ToolCallID: c.ID, Name: c.FunctionCall.Name, Content: Weather(c.FunctionCall.Arguments)})
		}
		msgs = append(msgs, ai, results)
	}
	return "", errTurns
}

// Clients, each built as its SDK's users build it, with key and doer.

// NewOpenAI is an openai-go client.
func NewOpenAI(key string, doer Doer, opts ...openaioption.RequestOption) openai.Client {
	return openai.NewClient(append([]openaioption.RequestOption{openaioption.WithAPIKey(key), openaioption.WithHTTPClient(doer)}, opts...)...)
}

// NewAnthropic is an anthropic-sdk-go client.
func NewAnthropic(key string, doer anthropicoption.HTTPClient, opts ...anthropicoption.RequestOption) anthropic.Client {
	return anthropic.NewClient(append([]anthropicoption.RequestOption{anthropicoption.WithAPIKey(key), anthropicoption.WithHTTPClient(doer)}, opts...)...)
}

// NewGoOpenAI is a go-openai client.
func NewGoOpenAI(key string, doer goopenai.HTTPDoer) *goopenai.Client {
	cfg := goopenai.DefaultConfig(key)
	cfg.HTTPClient = doer
	return goopenai.NewClientWithConfig(cfg)
}

// NewLangChainOpenAI is langchaingo's OpenAI provider.
func NewLangChainOpenAI(key string, doer Doer) (llms.Model, error) {
	return lcopenai.New(lcopenai.WithToken(key), lcopenai.WithModel("gpt-4o"), lcopenai.WithHTTPClient(doer))
}

// NewLangChainAnthropic is langchaingo's Anthropic provider.
func NewLangChainAnthropic(key string, doer Doer) (llms.Model, error) {
	m, err := lcanthropic.New(lcanthropic.WithToken(key), lcanthropic.WithModel("claude-sonnet-4-5"), lcanthropic.WithHTTPClient(doer))
	if err != nil {
		return nil, fmt.Errorf("langchaingo anthropic: %w", err)
	}
	return m, nil
}
