package judgefake

// Streamed answers ("stream": true) and OpenAI's Responses API, as the
// providers document them (OpenAI's "Streaming responses" and "Responses
// streaming events"; Anthropic's "Streaming Messages"): the same answer a
// whole response would give, cut into the events a client reassembles.

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// sseEvent is one server-sent event: an optional name and its data as
// JSON.
func sseEvent(name string, v any) []byte {
	data, err := json.Marshal(v)
	if err != nil {
		panic("judgefake: an event that does not encode: " + err.Error())
	}
	var b strings.Builder
	if name != "" {
		b.WriteString("event: " + name + "\n")
	}
	b.WriteString("data: ")
	b.Write(data)
	b.WriteString("\n\n")
	return []byte(b.String())
}

// words cuts text where a word starts, as models stream tokens: "The
// capital" → "The", " capital". An empty text is one empty piece.
func words(text string) []string {
	if text == "" {
		return []string{""}
	}
	var out []string
	start := 0
	prevSpace := false
	for i, r := range text {
		space := unicode.IsSpace(r)
		if i > start && space && !prevSpace {
			out = append(out, text[start:i])
			start = i
		}
		prevSpace = space
	}
	return append(out, text[start:])
}

// halves cuts s in two at a rune boundary: a tool call's arguments in two
// deltas.
func halves(s string) []string {
	if len(s) < 2 {
		return []string{s}
	}
	i := len(s) / 2
	for i > 0 && !isRuneStart(s[i]) {
		i--
	}
	return []string{s[:i], s[i:]}
}

// openaiStream is resp as Chat Completions streams it: a first chunk with
// the role, the content word by word, each tool call (its id, type and
// name on its first delta, its arguments in two more), a chunk with the
// finish reason, a chunk with the usage when the request asked for it
// (stream_options.include_usage), then [DONE].
func openaiStream(resp openaiResponse, usage bool) [][]byte {
	type fn struct {
		Name      string `json:"name,omitempty"`
		Arguments string `json:"arguments"`
	}
	type call struct {
		Index    int    `json:"index"`
		ID       string `json:"id,omitempty"`
		Type     string `json:"type,omitempty"`
		Function fn     `json:"function"`
	}
	type delta struct {
		Role      string  `json:"role,omitempty"`
		Content   *string `json:"content,omitempty"`
		ToolCalls []call  `json:"tool_calls,omitempty"`
	}
	type choice struct {
		Index        int     `json:"index"`
		Delta        delta   `json:"delta"`
		FinishReason *string `json:"finish_reason"`
	}
	type chunk struct {
		ID      string       `json:"id"`
		Object  string       `json:"object"`
		Created int64        `json:"created"`
		Model   string       `json:"model"`
		Choices []choice     `json:"choices"`
		Usage   *openaiUsage `json:"usage"`
	}
	c := resp.Choices[0]
	mk := func(d delta, finish *string) []byte {
		return sseEvent("", chunk{ID: resp.ID, Object: "chat.completion.chunk", Created: resp.Created, Model: resp.Model, Choices: []choice{{Delta: d, FinishReason: finish}}})
	}
	empty := ""
	events := [][]byte{mk(delta{Role: "assistant", Content: &empty}, nil)}
	if c.Message.Content != nil && *c.Message.Content != "" {
		for _, w := range words(*c.Message.Content) {
			events = append(events, mk(delta{Content: &w}, nil))
		}
	}
	for i, tc := range c.Message.ToolCalls {
		events = append(events, mk(delta{ToolCalls: []call{{Index: i, ID: tc.ID, Type: "function", Function: fn{Name: tc.Function.Name}}}}, nil))
		for _, part := range halves(tc.Function.Arguments) {
			events = append(events, mk(delta{ToolCalls: []call{{Index: i, Function: fn{Arguments: part}}}}, nil))
		}
	}
	finish := c.FinishReason
	events = append(events, mk(delta{}, &finish))
	if usage {
		u := resp.Usage
		events = append(events, sseEvent("", chunk{ID: resp.ID, Object: "chat.completion.chunk", Created: resp.Created, Model: resp.Model, Choices: []choice{}, Usage: &u}))
	}
	return append(events, []byte("data: [DONE]\n\n"))
}

// anthropicStream is resp as Messages streams it: message_start (the input
// tokens, one output token so far), each content block's start, deltas
// (text word by word, a tool call's input JSON in two parts) and stop, a
// ping after the first block's start, message_delta with the stop reason
// and the output tokens, message_stop.
func anthropicStream(resp anthropicResponse) [][]byte {
	type message struct {
		ID           string           `json:"id"`
		Type         string           `json:"type"`
		Role         string           `json:"role"`
		Model        string           `json:"model"`
		Content      []anthropicBlock `json:"content"`
		StopReason   *string          `json:"stop_reason"`
		StopSequence *string          `json:"stop_sequence"`
		Usage        anthropicUsage   `json:"usage"`
	}
	start := message{ID: resp.ID, Type: "message", Role: "assistant", Model: resp.Model, Content: []anthropicBlock{}, Usage: anthropicUsage{InputTokens: resp.Usage.InputTokens, OutputTokens: 1}}
	events := [][]byte{sseEvent("message_start", map[string]any{"type": "message_start", "message": start})}
	for i, b := range resp.Content {
		skeleton := b
		var deltas []map[string]any
		switch b.Type {
		case "text":
			empty := ""
			skeleton.Text = &empty
			for _, w := range words(*b.Text) {
				deltas = append(deltas, map[string]any{"type": "text_delta", "text": w})
			}
		case "tool_use":
			skeleton.Input = json.RawMessage(`{}`)
			for _, part := range halves(string(b.Input)) {
				deltas = append(deltas, map[string]any{"type": "input_json_delta", "partial_json": part})
			}
		}
		events = append(events, sseEvent("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": skeleton}))
		if i == 0 {
			events = append(events, sseEvent("ping", map[string]any{"type": "ping"}))
		}
		for _, d := range deltas {
			events = append(events, sseEvent("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": d}))
		}
		events = append(events, sseEvent("content_block_stop", map[string]any{"type": "content_block_stop", "index": i}))
	}
	events = append(events,
		sseEvent("message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": resp.StopReason, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": resp.Usage.OutputTokens}}),
		sseEvent("message_stop", map[string]any{"type": "message_stop"}))
	return events
}

type responsesResponse struct {
	ID        string          `json:"id"`
	Object    string          `json:"object"`
	CreatedAt int64           `json:"created_at"`
	Status    string          `json:"status"`
	Model     string          `json:"model"`
	Output    []responsesItem `json:"output"`
	Usage     *responsesUsage `json:"usage"`
}

type responsesItem struct {
	Type      string          `json:"type"`
	ID        string          `json:"id"`
	Status    string          `json:"status"`
	Role      string          `json:"role,omitempty"`
	Content   []responsesPart `json:"content,omitempty"`
	CallID    string          `json:"call_id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Arguments *string         `json:"arguments,omitempty"`
}

type responsesPart struct {
	Type        string `json:"type"`
	Text        string `json:"text"`
	Annotations []any  `json:"annotations"`
}

type responsesUsage struct {
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
	TotalTokens  int `json:"total_tokens"`
}

// responsesReply is reply r as the Responses API answers: a message item
// with the text (when there is text or no tool call), then a
// function_call item per tool call.
func responsesReply(r Reply, id int, model string, in, out int) (responsesResponse, error) {
	resp := responsesResponse{
		ID: "resp_judgefake_" + strconv.Itoa(id), Object: "response", CreatedAt: Created, Status: "completed", Model: model,
		Usage: &responsesUsage{InputTokens: in, OutputTokens: out, TotalTokens: in + out},
	}
	if r.Text != "" || len(r.ToolCalls) == 0 {
		resp.Output = append(resp.Output, responsesItem{
			Type: "message", ID: "msg_judgefake_" + strconv.Itoa(id), Status: "completed", Role: "assistant",
			Content: []responsesPart{{Type: "output_text", Text: r.Text, Annotations: []any{}}},
		})
	}
	for i, c := range r.ToolCalls {
		args, ok := toolArgs(c.Args)
		if !ok {
			return resp, fmt.Errorf("tool call %d's arguments are not a JSON object: %s", i+1, excerpt(c.Args, 80))
		}
		callID := c.ID
		if callID == "" {
			callID = fmt.Sprintf("call_judgefake_%d_%d", id, i+1)
		}
		text := string(args)
		if strings.TrimSpace(c.Args) != "" {
			text = c.Args
		}
		resp.Output = append(resp.Output, responsesItem{
			Type: "function_call", ID: fmt.Sprintf("fc_judgefake_%d_%d", id, i+1), Status: "completed",
			CallID: callID, Name: c.Name, Arguments: &text,
		})
	}
	if r.StopReason == "length" {
		resp.Status = "incomplete"
	}
	return resp, nil
}

// responsesStream is resp as the Responses API streams it: response.created
// and response.in_progress (no output yet), each item added, its deltas
// (output text word by word, a call's arguments in two parts) and their
// done events, the item done, then response.completed with the whole
// response; every event numbered by sequence_number.
func responsesStream(resp responsesResponse) [][]byte {
	var events [][]byte
	seq := 0
	emit := func(name string, fields map[string]any) {
		fields["type"] = name
		fields["sequence_number"] = seq
		seq++
		events = append(events, sseEvent(name, fields))
	}
	pending := resp
	pending.Status, pending.Output, pending.Usage = "in_progress", []responsesItem{}, nil
	emit("response.created", map[string]any{"response": pending})
	emit("response.in_progress", map[string]any{"response": pending})
	for i, it := range resp.Output {
		skeleton := it
		skeleton.Status = "in_progress"
		switch it.Type {
		case "message":
			skeleton.Content = []responsesPart{}
			emit("response.output_item.added", map[string]any{"output_index": i, "item": skeleton})
			for ci, part := range it.Content {
				emit("response.content_part.added", map[string]any{"item_id": it.ID, "output_index": i, "content_index": ci, "part": responsesPart{Type: part.Type, Annotations: []any{}}})
				for _, w := range words(part.Text) {
					emit("response.output_text.delta", map[string]any{"item_id": it.ID, "output_index": i, "content_index": ci, "delta": w})
				}
				emit("response.output_text.done", map[string]any{"item_id": it.ID, "output_index": i, "content_index": ci, "text": part.Text})
				emit("response.content_part.done", map[string]any{"item_id": it.ID, "output_index": i, "content_index": ci, "part": part})
			}
		case "function_call":
			empty := ""
			skeleton.Arguments = &empty
			emit("response.output_item.added", map[string]any{"output_index": i, "item": skeleton})
			for _, part := range halves(*it.Arguments) {
				emit("response.function_call_arguments.delta", map[string]any{"item_id": it.ID, "output_index": i, "delta": part})
			}
			emit("response.function_call_arguments.done", map[string]any{"item_id": it.ID, "output_index": i, "arguments": *it.Arguments})
		}
		emit("response.output_item.done", map[string]any{"output_index": i, "item": it})
	}
	end := "response.completed"
	if resp.Status == "incomplete" {
		end = "response.incomplete"
	}
	emit(end, map[string]any{"response": resp})
	return events
}

// streamOutcome is a 200 event stream of events.
func streamOutcome(events [][]byte, retryAfter time.Duration) outcome {
	h := http.Header{}
	h.Set("Content-Type", "text/event-stream; charset=utf-8")
	h.Set("Cache-Control", "no-cache")
	if retryAfter > 0 {
		secs := (retryAfter + time.Second - 1) / time.Second
		h.Set("Retry-After", strconv.FormatInt(int64(secs), 10))
	}
	var body []byte
	for _, ev := range events {
		body = append(body, ev...)
	}
	return outcome{status: http.StatusOK, header: h, body: body, events: events}
}
