package judgefake

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The wire formats, as the providers document them (OpenAI's API
// reference, "Create chat completion" and "Error codes"; Anthropic's API
// reference, "Messages" and "Errors").

// API names of a recorded Request.
const (
	APIOpenAI    = "openai"    // Chat Completions: POST …/chat/completions
	APIAnthropic = "anthropic" // Messages: POST /v1/messages
	APIResponses = "responses" // OpenAI Responses: POST …/responses
)

// Created is the creation time every response says it was made at
// ("created", "created_at": 2023-11-14T22:13:20Z, in Unix seconds), so two
// recordings of one script are byte for byte the same.
const Created = 1700000000

type openaiResponse struct {
	ID      string         `json:"id"`
	Object  string         `json:"object"`
	Created int64          `json:"created"`
	Model   string         `json:"model"`
	Choices []openaiChoice `json:"choices"`
	Usage   openaiUsage    `json:"usage"`
}

type openaiChoice struct {
	Index        int           `json:"index"`
	Message      openaiMessage `json:"message"`
	FinishReason string        `json:"finish_reason"`
}

type openaiMessage struct {
	Role      string           `json:"role"`
	Content   *string          `json:"content"`
	ToolCalls []openaiToolCall `json:"tool_calls,omitempty"`
}

type openaiToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

type openaiUsage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
	TotalTokens      int `json:"total_tokens"`
}

type openaiError struct {
	Error struct {
		Message string  `json:"message"`
		Type    string  `json:"type"`
		Param   *string `json:"param"`
		Code    *string `json:"code"`
	} `json:"error"`
}

type anthropicResponse struct {
	ID           string           `json:"id"`
	Type         string           `json:"type"`
	Role         string           `json:"role"`
	Model        string           `json:"model"`
	Content      []anthropicBlock `json:"content"`
	StopReason   string           `json:"stop_reason"`
	StopSequence *string          `json:"stop_sequence"`
	Usage        anthropicUsage   `json:"usage"`
}

type anthropicBlock struct {
	Type  string          `json:"type"`
	Text  *string         `json:"text,omitempty"`
	ID    string          `json:"id,omitempty"`
	Name  string          `json:"name,omitempty"`
	Input json.RawMessage `json:"input,omitempty"`
}

type anthropicUsage struct {
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
}

type anthropicError struct {
	Type  string `json:"type"`
	Error struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"error"`
}

// script is the state a Server and a Transport share: the replies, what
// was asked, and what went wrong.
type script struct {
	closed <-chan struct{} // closed when a Server closes; nil for a Transport

	// pick, when set, chooses the reply from the request's body instead
	// of the next of replies: the reply, its number (for ids), or a
	// problem (see NewUserServer).
	pick func(body []byte) (Reply, int, string)

	mu       sync.Mutex
	replies  []Reply
	next     int
	requests []Request
	problems []error
}

func newScript(replies []Reply, closed <-chan struct{}) *script {
	return &script{replies: slices.Clone(replies), closed: closed}
}

// outcome is what a request gets: a response, a reset connection, or
// nothing because its context ended first (err).
type outcome struct {
	status int
	header http.Header
	body   []byte
	events [][]byte // a stream's events, each whole; body is them joined
	reset  bool
	err    error
}

func (s *script) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Request, len(s.requests))
	for i, r := range s.requests {
		out[i] = r.clone()
	}
	return out
}

func (s *script) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return errors.Join(s.problems...)
}

// serve answers one request. It records the request, checks it is one the
// provider would accept, takes the next reply and builds the response.
func (s *script) serve(ctx context.Context, method string, u *url.URL, header http.Header, body []byte) outcome {
	rec := Request{
		Method: method,
		Path:   u.Path,
		Query:  redactQuery(u.Query()),
		Header: redactHeader(header),
		Body:   slices.Clone(body),
	}
	switch {
	case strings.HasSuffix(u.Path, "/chat/completions"):
		rec.API = APIOpenAI
	case u.Path == "/v1/messages":
		rec.API = APIAnthropic
	case strings.HasSuffix(u.Path, "/responses"):
		rec.API = APIResponses
	}
	s.mu.Lock()
	s.requests = append(s.requests, rec.clone())
	n := len(s.requests)
	s.mu.Unlock()
	what := fmt.Sprintf("request %d (%s %s)", n, method, u.Path)

	if rec.API == "" {
		return s.refuse(rec.API, http.StatusNotFound, what, "unknown path; judgefake serves POST /v1/chat/completions, POST /chat/completions (any path ending so), POST /v1/responses (any path ending in /responses) and POST /v1/messages")
	}
	if method != http.MethodPost {
		return s.refuse(rec.API, http.StatusMethodNotAllowed, what, "method "+method+" is not POST")
	}
	req, msg := parseRequest(rec.API, header, body)
	if msg != "" {
		return s.refuse(rec.API, http.StatusBadRequest, what, msg)
	}

	var r Reply
	var i int
	if s.pick != nil {
		var problem string
		if r, i, problem = s.pick(body); problem != "" {
			return s.refuse(rec.API, scriptProblem, what, problem)
		}
		i-- // the reply's number, from 0 as below
	} else {
		s.mu.Lock()
		i = s.next
		if i < len(s.replies) {
			s.next++
		}
		s.mu.Unlock()
		if i >= len(s.replies) {
			return s.refuse(rec.API, scriptProblem, what,
				fmt.Sprintf("script exhausted: %d replies were scripted and all are used", len(s.replies)))
		}
		r = s.replies[i]
	}
	what = fmt.Sprintf("%s, reply %d", what, i+1)

	if r.Fault == FaultStall {
		select {
		case <-ctx.Done():
			return outcome{err: ctxErr(ctx)}
		case <-s.closed:
			return outcome{reset: true}
		}
	}
	if r.Delay > 0 {
		t := time.NewTimer(r.Delay)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
			return outcome{err: ctxErr(ctx)}
		case <-s.closed:
			return outcome{reset: true}
		}
	}
	return s.respond(r, i+1, rec, req, what)
}

// refuse answers with an error the script did not ask for, and records it
// as a problem.
func (s *script) refuse(api string, status int, what, msg string) outcome {
	s.mu.Lock()
	s.problems = append(s.problems, fmt.Errorf("judgefake: %s: %s", what, msg))
	s.mu.Unlock()
	return errorOutcome(api, status, "judgefake: "+msg, 0)
}

// request is what a reply needs from a request body.
type request struct {
	model     string
	forceTool string // the tool an Anthropic request forces, if any
	stream    bool   // "stream": true
	usage     bool   // Chat Completions' stream_options.include_usage
}

// parseRequest reads the fields a reply depends on and checks those the
// provider requires, returning a message for a request the provider would
// refuse with a 400.
func parseRequest(api string, header http.Header, body []byte) (request, string) {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(body, &fields); err != nil || fields == nil {
		return request{}, fmt.Sprintf("request body is not a JSON object: %s", excerpt(string(body), 80))
	}
	var req request
	if err := json.Unmarshal(fields["model"], &req.model); err != nil || req.model == "" {
		return request{}, `request has no "model"`
	}
	if api == APIResponses {
		var text string
		var items []json.RawMessage
		if json.Unmarshal(fields["input"], &text) != nil && (json.Unmarshal(fields["input"], &items) != nil || len(items) == 0) {
			return request{}, `request has no "input" (a string or a list of items)`
		}
	} else {
		var msgs []json.RawMessage
		if err := json.Unmarshal(fields["messages"], &msgs); err != nil || len(msgs) == 0 {
			return request{}, `request has no "messages"`
		}
	}
	if raw, ok := fields["stream"]; ok && string(raw) != "null" {
		if json.Unmarshal(raw, &req.stream) != nil {
			return request{}, `request's "stream" is not true or false`
		}
	}
	var opts struct {
		IncludeUsage bool `json:"include_usage"`
	}
	json.Unmarshal(fields["stream_options"], &opts)
	req.usage = opts.IncludeUsage
	if api != APIAnthropic {
		return req, ""
	}
	if header.Get("Anthropic-Version") == "" {
		return request{}, "request has no anthropic-version header"
	}
	var maxTokens float64
	if err := json.Unmarshal(fields["max_tokens"], &maxTokens); err != nil || maxTokens < 1 {
		return request{}, `request has no positive "max_tokens"`
	}
	var choice struct {
		Type string `json:"type"`
		Name string `json:"name"`
	}
	if raw, ok := fields["tool_choice"]; ok {
		if err := json.Unmarshal(raw, &choice); err != nil {
			return request{}, `request's "tool_choice" is not an object`
		}
	}
	var tools []struct {
		Name string `json:"name"`
	}
	hasTool := func(name string) bool {
		for _, t := range tools {
			if t.Name == name {
				return true
			}
		}
		return false
	}
	if raw, ok := fields["tools"]; ok {
		if err := json.Unmarshal(raw, &tools); err != nil {
			return request{}, `request's "tools" is not a list of tools`
		}
	}
	switch choice.Type {
	case "tool":
		if !hasTool(choice.Name) {
			return request{}, fmt.Sprintf(`request's "tool_choice" forces tool %q, which is not in "tools"`, choice.Name)
		}
		req.forceTool = choice.Name
	case "any":
		if len(tools) == 0 {
			return request{}, `request's "tool_choice" is "any" but it has no "tools"`
		}
		if len(tools) == 1 {
			req.forceTool = tools[0].Name
		}
	}
	return req, ""
}

// respond builds the response reply r makes for the request.
func (s *script) respond(r Reply, id int, rec Request, req request, what string) outcome {
	if r.Status != 0 && r.Status != http.StatusOK {
		if r.Status < 400 || r.Status > 599 {
			return s.refuse(rec.API, scriptProblem, what,
				fmt.Sprintf("scripted status %d is not 200 or 400–599", r.Status))
		}
		msg := r.Text
		if msg == "" {
			msg = fmt.Sprintf("judgefake: scripted %d %s", r.Status, http.StatusText(r.Status))
		}
		return errorOutcome(rec.API, r.Status, msg, r.RetryAfter)
	}
	if r.Fault == FaultReset {
		return outcome{reset: true}
	}
	if r.Fault == FaultEmpty {
		return jsonOutcome(http.StatusOK, nil, r.RetryAfter)
	}

	model := r.Model
	if model == "" {
		model = req.model
	}
	in, out := r.InputTokens, r.OutputTokens
	if in == 0 {
		in = tokens(rec.Prompt())
	}
	if out == 0 {
		out = tokens(r.Text)
	}

	var body []byte
	var events [][]byte
	var err error
	openai := func() ([]byte, error) {
		stop := "stop"
		text := r.Text
		msg := openaiMessage{Role: "assistant", Content: &text}
		for i, c := range r.ToolCalls {
			args, ok := toolArgs(c.Args)
			if !ok {
				return nil, fmt.Errorf("tool call %d's arguments are not a JSON object: %s", i+1, excerpt(c.Args, 80))
			}
			tc := openaiToolCall{ID: c.ID, Type: "function"}
			if tc.ID == "" {
				tc.ID = fmt.Sprintf("call_judgefake_%d_%d", id, i+1)
			}
			tc.Function.Name, tc.Function.Arguments = c.Name, string(args)
			if strings.TrimSpace(c.Args) != "" {
				tc.Function.Arguments = c.Args // the string as the model wrote it
			}
			msg.ToolCalls = append(msg.ToolCalls, tc)
		}
		if len(r.ToolCalls) > 0 {
			stop = "tool_calls"
			if text == "" {
				msg.Content = nil
			}
		}
		if r.StopReason != "" {
			stop = r.StopReason
		}
		resp := openaiResponse{
			ID:      "chatcmpl-judgefake-" + strconv.Itoa(id),
			Object:  "chat.completion",
			Created: Created,
			Model:   model,
			Choices: []openaiChoice{{Message: msg, FinishReason: stop}},
			Usage:   openaiUsage{PromptTokens: in, CompletionTokens: out, TotalTokens: in + out},
		}
		if req.stream {
			events = openaiStream(resp, req.usage)
		}
		return json.Marshal(resp)
	}
	anthropic := func(forceTool string) ([]byte, error) {
		text := r.Text
		blocks := []anthropicBlock{{Type: "text", Text: &text}}
		stop := "end_turn"
		if len(r.ToolCalls) > 0 {
			if text == "" {
				blocks = nil
			}
			for i, c := range r.ToolCalls {
				input, ok := toolArgs(c.Args)
				if !ok {
					return nil, fmt.Errorf("tool call %d's arguments are not a JSON object: %s", i+1, excerpt(c.Args, 80))
				}
				callID := c.ID
				if callID == "" {
					callID = fmt.Sprintf("toolu_judgefake_%d_%d", id, i+1)
				}
				blocks = append(blocks, anthropicBlock{Type: "tool_use", ID: callID, Name: c.Name, Input: input})
			}
			stop = "tool_use"
		} else if forceTool != "" {
			input, ok := jsonObject(r.Text)
			if !ok {
				return nil, fmt.Errorf("the request forces tool %q, but the reply's text is not a JSON object to be its input: %s", forceTool, excerpt(r.Text, 80))
			}
			blocks = []anthropicBlock{{Type: "tool_use", ID: "toolu_judgefake_" + strconv.Itoa(id), Name: forceTool, Input: input}}
			stop = "tool_use"
		}
		if r.StopReason != "" {
			stop = r.StopReason
		}
		resp := anthropicResponse{
			ID:         "msg_judgefake_" + strconv.Itoa(id),
			Type:       "message",
			Role:       "assistant",
			Model:      model,
			Content:    blocks,
			StopReason: stop,
			Usage:      anthropicUsage{InputTokens: in, OutputTokens: out},
		}
		if req.stream {
			events = anthropicStream(resp)
		}
		return json.Marshal(resp)
	}
	responses := func() ([]byte, error) {
		resp, err := responsesReply(r, id, model, in, out)
		if err != nil {
			return nil, err
		}
		if req.stream {
			events = responsesStream(resp)
		}
		return json.Marshal(resp)
	}
	switch {
	case rec.API == APIOpenAI && r.Fault == FaultWrongSchema:
		body, err = anthropic("")
	case rec.API == APIOpenAI:
		body, err = openai()
	case rec.API == APIResponses && r.Fault == FaultWrongSchema:
		body, err = openai()
	case rec.API == APIResponses:
		body, err = responses()
	case r.Fault == FaultWrongSchema:
		body, err = openai()
	default:
		body, err = anthropic(req.forceTool)
	}
	if err != nil {
		return s.refuse(rec.API, scriptProblem, what, err.Error())
	}

	if events != nil {
		switch r.Fault {
		case FaultNone, FaultWrongSchema:
		case FaultMalformed:
			events[len(events)/2] = []byte("data: {,\n\n")
		case FaultCutOff:
			events = events[:len(events)/2]
		default:
			return s.refuse(rec.API, scriptProblem, what, fmt.Sprintf("unknown fault %v", r.Fault))
		}
		return streamOutcome(events, r.RetryAfter)
	}
	switch r.Fault {
	case FaultNone, FaultWrongSchema:
	case FaultMalformed:
		body = append([]byte("{,"), body[1:]...)
	case FaultCutOff:
		body = body[:len(body)/2]
	default:
		return s.refuse(rec.API, scriptProblem, what, fmt.Sprintf("unknown fault %v", r.Fault))
	}
	return jsonOutcome(http.StatusOK, body, r.RetryAfter)
}

// errorOutcome is an error response in api's shape (OpenAI's for an
// unknown API).
func errorOutcome(api string, status int, msg string, retryAfter time.Duration) outcome {
	var body []byte
	if api == APIAnthropic {
		var e anthropicError
		e.Type = "error"
		e.Error.Type = anthropicErrorType(status)
		e.Error.Message = msg
		body, _ = json.Marshal(e)
	} else {
		var e openaiError
		e.Error.Message = msg
		e.Error.Type, e.Error.Code = openaiErrorType(status)
		body, _ = json.Marshal(e)
	}
	return jsonOutcome(status, body, retryAfter)
}

// openaiErrorType returns the error type and code OpenAI gives a status.
func openaiErrorType(status int) (string, *string) {
	switch {
	case status == http.StatusTooManyRequests:
		return "requests", ptr("rate_limit_exceeded")
	case status == http.StatusUnauthorized:
		return "invalid_request_error", ptr("invalid_api_key")
	case status >= 500:
		return "server_error", nil
	}
	return "invalid_request_error", nil
}

// anthropicErrorType returns the error type Anthropic gives a status.
func anthropicErrorType(status int) string {
	switch status {
	case http.StatusUnauthorized:
		return "authentication_error"
	case http.StatusForbidden:
		return "permission_error"
	case http.StatusNotFound:
		return "not_found_error"
	case http.StatusRequestEntityTooLarge:
		return "request_too_large"
	case http.StatusTooManyRequests:
		return "rate_limit_error"
	case 529:
		return "overloaded_error"
	}
	if status >= 500 {
		return "api_error"
	}
	return "invalid_request_error"
}

func jsonOutcome(status int, body []byte, retryAfter time.Duration) outcome {
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(body)))
	if retryAfter > 0 {
		secs := (retryAfter + time.Second - 1) / time.Second
		h.Set("Retry-After", strconv.FormatInt(int64(secs), 10))
	}
	return outcome{status: status, header: h, body: body}
}

// jsonObject returns text compacted when it is one JSON object.
func jsonObject(text string) (json.RawMessage, bool) {
	var obj map[string]any
	if err := json.Unmarshal([]byte(text), &obj); err != nil || obj == nil {
		return nil, false
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, []byte(text)); err != nil {
		return nil, false
	}
	return buf.Bytes(), true
}

// toolArgs returns a tool call's arguments compacted: "" is {}, and
// anything else must be one JSON object.
func toolArgs(args string) (json.RawMessage, bool) {
	if strings.TrimSpace(args) == "" {
		return json.RawMessage("{}"), true
	}
	return jsonObject(args)
}

// tokens estimates a token count: one per 4 bytes, at least 1.
func tokens(s string) int {
	return max(1, (len(s)+3)/4)
}

// scriptProblem is the status of a reply the script cannot give: the script
// is used up, or a reply cannot be built for the request. It is a 4xx that
// real judges do not retry, so a scripting mistake shows at once in Err and
// never makes a judge retry into the next scripted reply.
const scriptProblem = http.StatusBadRequest
