package golden

// Assembling a streamed reply into the body its API sends unstreamed, so
// the root's decoders read it: OpenAI Chat Completions chunks, Anthropic
// Messages events and OpenAI Responses events, as each provider's API
// reference documents its stream ("Streaming", "Stream events").
//
// Design: the assembly is by index, never by arrival order, so deltas of
// parallel tool calls may interleave; a stream that ends before its API's
// end (no finish_reason or [DONE], no message_stop, no response.completed)
// or that orders events as no API does is an error naming the event, not a
// transcript that silently lacks a call.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// sse is one server-sent event's name and data.
type sse struct {
	name string
	data []byte
	n    int // 1-based position in the stream
}

// sseOf reads an event as a recording keeps it. Comments and events with
// no data (pings with a name only, retry or id fields) have no data.
func sseOf(ev Event, n int) sse {
	out := sse{name: ev.Event, n: n}
	switch {
	case ev.Data != nil:
		out.data = ev.Data
		return out
	case ev.DataText != "":
		out.data = []byte(ev.DataText)
		return out
	}
	raw := ev.Raw
	if ev.RawBase64 != nil {
		raw = string(ev.RawBase64)
	}
	if n == 1 {
		raw = strings.TrimPrefix(raw, "\ufeff") // a stream may begin with a byte order mark (the SSE standard)
	}
	var data []string
	hasData := false
	for _, line := range strings.FieldsFunc(raw, func(r rune) bool { return r == '\n' || r == '\r' }) {
		field, value, _ := strings.Cut(line, ":")
		value = strings.TrimPrefix(value, " ")
		switch field {
		case "event":
			out.name = value
		case "data":
			data, hasData = append(data, value), true
		}
	}
	if hasData {
		out.data = []byte(strings.Join(data, "\n"))
	}
	return out
}

// unterminated reports whether an event is a stream's tail that no blank
// line ended.
func unterminated(ev Event) bool {
	raw := ev.Raw
	if ev.RawBase64 != nil {
		raw = string(ev.RawBase64)
	}
	return raw != "" && !strings.HasSuffix(raw, "\n\n") && !strings.HasSuffix(raw, "\r\n\r\n") && !strings.HasSuffix(raw, "\r\r")
}

// streamError is an assembly error naming the event at fault.
func streamError(ev sse, format string, args ...any) error {
	return fmt.Errorf("the stream's event %d: %s", ev.n, fmt.Sprintf(format, args...))
}

// assembleStream returns the body api's call would have returned
// unstreamed, from its stream's events.
func assembleStream(api string, events []Event) ([]byte, error) {
	list := make([]sse, 0, len(events))
	for i, ev := range events {
		s := sseOf(ev, i+1)
		if i == len(events)-1 && unterminated(ev) && !json.Valid(s.data) && string(bytes.TrimSpace(s.data)) != "[DONE]" {
			return nil, fmt.Errorf("the stream ended in the middle of its event %d: %s (cut off?)", i+1, excerptBytes([]byte(ev.Raw)))
		}
		if len(bytes.TrimSpace(s.data)) == 0 {
			continue // a comment, a ping without data, a keep-alive
		}
		list = append(list, s)
	}
	if len(list) == 0 {
		return nil, errors.New("the stream has no events with data")
	}
	switch api {
	case apiChat:
		return assembleChat(list)
	case apiMessages:
		return assembleMessages(list)
	case apiResponses:
		return assembleResponses(list)
	}
	return nil, fmt.Errorf("no stream assembly for API %q", api)
}

// object decodes an event's data as a JSON object.
func object(ev sse) (map[string]json.RawMessage, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(ev.data, &m); err != nil || m == nil {
		return nil, streamError(ev, "data is not a JSON object: %s", excerptBytes(ev.data))
	}
	return m, nil
}

func excerptBytes(b []byte) string {
	const max = 120
	s := string(b)
	if len(s) > max {
		s = s[:max] + "…"
	}
	return fmt.Sprintf("%q", s)
}

// str reads an optional string field; null and absent are "".
func str(m map[string]json.RawMessage, key string) (string, bool) {
	raw, ok := m[key]
	if !ok || string(raw) == "null" {
		return "", true
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", false
	}
	return s, true
}

// integer reads an optional whole-number field; present reports whether
// it was there.
func integer(m map[string]json.RawMessage, key string) (n int, present, ok bool) {
	raw, has := m[key]
	if !has || string(raw) == "null" {
		return 0, false, true
	}
	if err := json.Unmarshal(raw, &n); err != nil || n < 0 {
		return 0, true, false
	}
	return n, true, true
}

// apiErrorEvent reads an error event's message, when ev is one.
func apiErrorEvent(m map[string]json.RawMessage) (string, bool) {
	raw, ok := m["error"]
	if !ok || string(raw) == "null" {
		return "", false
	}
	var e struct {
		Type    string `json:"type"`
		Code    any    `json:"code"`
		Message string `json:"message"`
	}
	json.Unmarshal(raw, &e)
	return strings.TrimSpace(fmt.Sprintf("%s %s", e.Type, e.Message)), true
}

// OpenAI Chat Completions: chat.completion.chunk objects, then "[DONE]".

type chatCall struct {
	index int
	id    string
	typ   string
	name  string
	args  strings.Builder
}

type chatChoice struct {
	index     int
	role      string
	content   strings.Builder
	hasText   bool
	refusal   strings.Builder
	reasoning strings.Builder
	calls     []*chatCall
	byIndex   map[int]*chatCall
	finish    string
}

func assembleChat(events []sse) ([]byte, error) {
	var (
		id, model, fingerprint string
		created                json.RawMessage
		usage                  json.RawMessage
		choices                = map[int]*chatChoice{}
		done                   bool
	)
	for _, ev := range events {
		if done {
			return nil, streamError(ev, "data after [DONE]")
		}
		if string(bytes.TrimSpace(ev.data)) == "[DONE]" {
			done = true
			continue
		}
		m, err := object(ev)
		if err != nil {
			return nil, err
		}
		if msg, isErr := apiErrorEvent(m); isErr {
			return nil, streamError(ev, "the API sent an error: %s", msg)
		}
		if ev.name == "error" { // servers that name the event, its data the error itself
			return nil, streamError(ev, "the API sent an error: %s", excerptBytes(ev.data))
		}
		if s, _ := str(m, "object"); s != "" && s != "chat.completion.chunk" {
			return nil, streamError(ev, "object %q is not a chat.completion.chunk", s)
		}
		if id == "" {
			id, _ = str(m, "id")
		}
		if model == "" {
			model, _ = str(m, "model")
		}
		if fingerprint == "" {
			fingerprint, _ = str(m, "system_fingerprint")
		}
		if created == nil && m["created"] != nil {
			created = m["created"]
		}
		if raw := m["usage"]; raw != nil && string(raw) != "null" {
			usage = raw // cumulative where sent on every chunk: the last wins
		}
		var list []map[string]json.RawMessage
		if raw := m["choices"]; raw != nil && string(raw) != "null" {
			if err := json.Unmarshal(raw, &list); err != nil {
				return nil, streamError(ev, "choices is not a list of objects")
			}
		}
		for _, c := range list {
			index, _, ok := integer(c, "index")
			if !ok {
				return nil, streamError(ev, "a choice's index is not a whole number")
			}
			ch := choices[index]
			if ch == nil {
				ch = &chatChoice{index: index, byIndex: map[int]*chatCall{}}
				choices[index] = ch
			}
			if fr, ok := str(c, "finish_reason"); !ok {
				return nil, streamError(ev, "choice %d's finish_reason is not a string", index)
			} else if fr != "" {
				ch.finish = fr // a later null never clears it
			}
			raw := c["delta"]
			if raw == nil || string(raw) == "null" {
				continue
			}
			var delta map[string]json.RawMessage
			if err := json.Unmarshal(raw, &delta); err != nil {
				return nil, streamError(ev, "choice %d's delta is not an object", index)
			}
			if err := ch.add(ev, delta); err != nil {
				return nil, err
			}
		}
	}
	if !done {
		return nil, errors.New("the stream ended before its end: no [DONE] (cut off?)")
	}
	if len(choices) == 0 {
		return nil, errors.New("the stream has no choices")
	}
	out := map[string]any{"id": id, "object": "chat.completion", "model": model}
	if created != nil {
		out["created"] = created
	}
	if fingerprint != "" {
		out["system_fingerprint"] = fingerprint
	}
	if usage != nil {
		out["usage"] = usage
	}
	var list []any
	for _, index := range sortedIndexes(choices) {
		ch := choices[index]
		if ch.finish == "" {
			return nil, fmt.Errorf("choice %d has no finish_reason", index)
		}
		m, err := ch.message()
		if err != nil {
			return nil, err
		}
		list = append(list, m)
	}
	out["choices"] = list
	return json.Marshal(out)
}

// add applies one delta to the choice.
func (ch *chatChoice) add(ev sse, delta map[string]json.RawMessage) error {
	role, ok := str(delta, "role")
	if !ok {
		return streamError(ev, "choice %d's role is not a string", ch.index)
	}
	if role != "" {
		ch.role = role
	}
	for _, f := range []struct {
		key string
		b   *strings.Builder
	}{{"content", &ch.content}, {"refusal", &ch.refusal}, {"reasoning_content", &ch.reasoning}} {
		s, ok := str(delta, f.key)
		if !ok {
			return streamError(ev, "choice %d's %s is not a string", ch.index, f.key)
		}
		f.b.WriteString(s)
		if f.key == "content" && delta["content"] != nil && string(delta["content"]) != "null" {
			ch.hasText = true
		}
	}
	if raw := delta["function_call"]; raw != nil && string(raw) != "null" {
		return streamError(ev, "choice %d streams a legacy function_call; only tool_calls are assembled", ch.index)
	}
	raw := delta["tool_calls"]
	if raw == nil || string(raw) == "null" {
		return nil
	}
	var calls []map[string]json.RawMessage
	if err := json.Unmarshal(raw, &calls); err != nil {
		return streamError(ev, "choice %d's tool_calls is not a list of objects", ch.index)
	}
	for k, c := range calls {
		index, present, ok := integer(c, "index")
		if !ok {
			return streamError(ev, "choice %d's tool call delta %d has an index that is not a whole number", ch.index, k)
		}
		id, ok := str(c, "id")
		if !ok {
			return streamError(ev, "choice %d's tool call %d has an id that is not a string", ch.index, index)
		}
		typ, _ := str(c, "type")
		var fn map[string]json.RawMessage
		if raw := c["function"]; raw != nil && string(raw) != "null" {
			if err := json.Unmarshal(raw, &fn); err != nil {
				return streamError(ev, "choice %d's tool call %d's function is not an object", ch.index, index)
			}
		}
		name, ok := str(fn, "name")
		if !ok {
			return streamError(ev, "choice %d's tool call %d's name is not a string", ch.index, index)
		}
		args, ok := str(fn, "arguments")
		if !ok {
			return streamError(ev, "choice %d's tool call %d's arguments are not a string", ch.index, index)
		}
		if !present { // servers that leave index out send each call whole or by id
			index = noIndex + len(ch.calls)
			for _, prev := range ch.calls {
				if id == "" || prev.id == id {
					index = prev.index
				}
			}
		}
		call := ch.byIndex[index]
		if call != nil && id != "" && call.id != "" && id != call.id {
			call = nil // a new call at an index in use: servers that number every call 0
		}
		if call == nil {
			call = &chatCall{index: index}
			ch.calls = append(ch.calls, call)
			ch.byIndex[index] = call
		}
		if id != "" {
			call.id = id
		}
		if typ != "" {
			call.typ = typ
		}
		switch {
		case name == "", name == call.name:
		case call.name == "":
			call.name = name
		default:
			return streamError(ev, "choice %d's tool call %d is named %q, then %q", ch.index, index, call.name, name)
		}
		call.args.WriteString(args)
	}
	return nil
}

// noIndex numbers the tool calls of servers that give none, after the
// numbered ones.
const noIndex = 1 << 30

// message is the choice as a Chat Completions response writes it, its tool
// calls in the order of their index (calls at one index, from servers that
// number every call 0, in the order they came).
func (ch *chatChoice) message() (map[string]any, error) {
	role := ch.role
	if role == "" {
		role = "assistant"
	}
	msg := map[string]any{"role": role, "content": nil}
	if ch.hasText || ch.content.Len() > 0 {
		msg["content"] = ch.content.String()
	}
	if ch.refusal.Len() > 0 {
		msg["refusal"] = ch.refusal.String()
	}
	if ch.reasoning.Len() > 0 {
		msg["reasoning_content"] = ch.reasoning.String()
	}
	if len(ch.calls) > 0 {
		sorted := slices.Clone(ch.calls)
		slices.SortStableFunc(sorted, func(a, b *chatCall) int { return a.index - b.index })
		calls := make([]any, len(sorted))
		for i, c := range sorted {
			if c.name == "" {
				return nil, fmt.Errorf("choice %d's tool call %d has no name: the stream never sent it", ch.index, i)
			}
			typ := c.typ
			if typ == "" {
				typ = "function"
			}
			calls[i] = map[string]any{"id": c.id, "type": typ, "function": map[string]any{"name": c.name, "arguments": c.args.String()}}
		}
		msg["tool_calls"] = calls
	}
	return map[string]any{"index": ch.index, "message": msg, "finish_reason": ch.finish}, nil
}

func sortedIndexes[V any](m map[int]V) []int {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// Anthropic Messages: message_start, content_block_start/_delta/_stop by
// index, message_delta, message_stop; ping and error events.

type messageBlock struct {
	start   map[string]json.RawMessage // the block as content_block_start gave it
	typ     string
	text    strings.Builder
	json    strings.Builder // input_json_delta
	jsonSet bool
	think   strings.Builder
	sig     strings.Builder
	cites   []json.RawMessage
	stopped bool
}

func assembleMessages(events []sse) ([]byte, error) {
	var (
		message map[string]json.RawMessage
		usage   = map[string]json.RawMessage{}
		blocks  = map[int]*messageBlock{}
		stop    json.RawMessage
		stopSeq json.RawMessage
		stopped bool
	)
	for _, ev := range events {
		m, err := object(ev)
		if err != nil {
			return nil, err
		}
		typ, _ := str(m, "type")
		if typ == "" {
			typ = ev.name
		}
		if stopped && typ != "ping" {
			return nil, streamError(ev, "%s after message_stop", typ)
		}
		if typ != "message_start" && typ != "ping" && typ != "error" && message == nil {
			return nil, streamError(ev, "%s before message_start", typ)
		}
		switch typ {
		case "ping":
		case "error":
			msg, _ := apiErrorEvent(m)
			return nil, streamError(ev, "the API sent an error: %s", msg)
		case "message_start":
			if message != nil {
				return nil, streamError(ev, "a second message_start")
			}
			if err := json.Unmarshal(m["message"], &message); err != nil || message == nil {
				return nil, streamError(ev, "message_start has no message object")
			}
			mergeUsage(usage, message["usage"])
		case "content_block_start":
			index, present, ok := integer(m, "index")
			if !ok || !present {
				return nil, streamError(ev, "content_block_start has no index")
			}
			if blocks[index] != nil {
				return nil, streamError(ev, "content block %d starts twice", index)
			}
			b := &messageBlock{}
			if err := json.Unmarshal(m["content_block"], &b.start); err != nil || b.start == nil {
				return nil, streamError(ev, "content block %d has no content_block object", index)
			}
			b.typ, _ = str(b.start, "type")
			if b.typ == "" {
				return nil, streamError(ev, "content block %d has no type", index)
			}
			s, _ := str(b.start, "text")
			b.text.WriteString(s)
			s, _ = str(b.start, "thinking")
			b.think.WriteString(s)
			s, _ = str(b.start, "signature")
			b.sig.WriteString(s)
			blocks[index] = b
		case "content_block_delta":
			index, present, ok := integer(m, "index")
			if !ok || !present {
				return nil, streamError(ev, "content_block_delta has no index")
			}
			b := blocks[index]
			switch {
			case b == nil:
				return nil, streamError(ev, "a delta for content block %d before it starts", index)
			case b.stopped:
				return nil, streamError(ev, "a delta for content block %d after it stopped", index)
			}
			var d map[string]json.RawMessage
			if err := json.Unmarshal(m["delta"], &d); err != nil || d == nil {
				return nil, streamError(ev, "content block %d's delta is not an object", index)
			}
			if err := b.add(ev, index, d); err != nil {
				return nil, err
			}
		case "content_block_stop":
			index, present, ok := integer(m, "index")
			if !ok || !present {
				return nil, streamError(ev, "content_block_stop has no index")
			}
			b := blocks[index]
			if b == nil {
				return nil, streamError(ev, "content block %d stops before it starts", index)
			}
			b.stopped = true
		case "message_delta":
			var d map[string]json.RawMessage
			json.Unmarshal(m["delta"], &d)
			if raw := d["stop_reason"]; raw != nil && string(raw) != "null" {
				stop = raw
			}
			if raw := d["stop_sequence"]; raw != nil {
				stopSeq = raw
			}
			mergeUsage(usage, m["usage"])
		case "message_stop":
			stopped = true
		default:
			return nil, streamError(ev, "unknown event type %q", typ)
		}
	}
	if message == nil {
		return nil, errors.New("the stream has no message_start")
	}
	if !stopped {
		return nil, errors.New("the stream ended before its end: no message_stop (cut off?)")
	}
	content := make([]any, 0, len(blocks))
	for _, index := range sortedIndexes(blocks) {
		b, err := blocks[index].block(index)
		if err != nil {
			return nil, err
		}
		content = append(content, b)
	}
	out := map[string]any{}
	for k, v := range message {
		out[k] = v
	}
	out["content"] = content
	if stop != nil {
		out["stop_reason"] = stop
	}
	if stopSeq != nil {
		out["stop_sequence"] = stopSeq
	}
	if len(usage) > 0 {
		out["usage"] = usage
	}
	return json.Marshal(out)
}

// mergeUsage sets the usage fields raw gives that are not null: message_delta's
// counts are cumulative and replace message_start's.
func mergeUsage(usage map[string]json.RawMessage, raw json.RawMessage) {
	var u map[string]json.RawMessage
	if json.Unmarshal(raw, &u) != nil {
		return
	}
	for k, v := range u {
		if string(v) != "null" {
			usage[k] = v
		}
	}
}

// add applies one content_block_delta.
func (b *messageBlock) add(ev sse, index int, d map[string]json.RawMessage) error {
	typ, _ := str(d, "type")
	want := map[string]string{
		"text_delta": "text", "input_json_delta": "", "thinking_delta": "thinking",
		"signature_delta": "thinking", "citations_delta": "text",
	}
	kind, known := want[typ]
	if !known {
		return streamError(ev, "content block %d gets a delta of unknown type %q", index, typ)
	}
	if kind != "" && kind != b.typ {
		return streamError(ev, "content block %d, a %s block, gets a %s", index, b.typ, typ)
	}
	switch typ {
	case "text_delta":
		s, ok := str(d, "text")
		if !ok {
			return streamError(ev, "content block %d's text is not a string", index)
		}
		b.text.WriteString(s)
	case "input_json_delta":
		if b.typ != "tool_use" && b.typ != "server_tool_use" && b.typ != "mcp_tool_use" {
			return streamError(ev, "content block %d, a %s block, gets an input_json_delta", index, b.typ)
		}
		s, ok := str(d, "partial_json")
		if !ok {
			return streamError(ev, "content block %d's partial_json is not a string", index)
		}
		b.json.WriteString(s)
		b.jsonSet = true
	case "thinking_delta":
		s, _ := str(d, "thinking")
		b.think.WriteString(s)
	case "signature_delta":
		s, _ := str(d, "signature")
		b.sig.WriteString(s)
	case "citations_delta":
		if raw := d["citation"]; raw != nil {
			b.cites = append(b.cites, raw)
		}
	}
	return nil
}

// block is the content block as a Messages response writes it.
func (b *messageBlock) block(index int) (map[string]any, error) {
	out := map[string]any{}
	for k, v := range b.start {
		out[k] = v
	}
	switch b.typ {
	case "text":
		out["text"] = b.text.String()
		if len(b.cites) > 0 {
			out["citations"] = b.cites
		}
	case "thinking":
		out["thinking"] = b.think.String()
		out["signature"] = b.sig.String()
	}
	if b.jsonSet {
		text := strings.TrimSpace(b.json.String())
		if text == "" {
			text = "{}"
		}
		if !json.Valid([]byte(text)) {
			return nil, fmt.Errorf("content block %d's input (its input_json_delta parts joined) is not JSON: %s", index, excerptBytes([]byte(text)))
		}
		out["input"] = json.RawMessage(text)
	}
	return out, nil
}

// OpenAI Responses: response.created, output items by output_index with
// their deltas, then response.completed (or incomplete, or failed).

type responsesItem struct {
	item    map[string]json.RawMessage
	args    strings.Builder
	argsSet bool
	texts   map[int]*strings.Builder // content_index → output text
	textAt  map[int]sse              // content_index → the event that first gave it
	done    bool                     // output_item.done gave the whole item
}

// text is the output text of the item's content part ci, first given by ev.
func (it *responsesItem) text(ev sse, ci int) *strings.Builder {
	b := it.texts[ci]
	if b == nil {
		b = &strings.Builder{}
		it.texts[ci] = b
		it.textAt[ci] = ev
	}
	return b
}

func assembleResponses(events []sse) ([]byte, error) {
	var (
		final map[string]json.RawMessage
		items = map[int]*responsesItem{}
		byID  = map[string]int{}
	)
	itemFor := func(ev sse, m map[string]json.RawMessage) (*responsesItem, error) {
		index, present, ok := integer(m, "output_index")
		if !ok {
			return nil, streamError(ev, "output_index is not a whole number")
		}
		if !present {
			id, _ := str(m, "item_id")
			i, known := byID[id]
			if !known {
				return nil, streamError(ev, "%s names no output_index and an unknown item_id %q", ev.name, id)
			}
			index = i
		}
		it := items[index]
		if it == nil {
			return nil, streamError(ev, "a delta for output item %d before response.output_item.added", index)
		}
		return it, nil
	}
	for _, ev := range events {
		if final != nil {
			return nil, streamError(ev, "an event after the response ended")
		}
		if string(bytes.TrimSpace(ev.data)) == "[DONE]" {
			continue
		}
		m, err := object(ev)
		if err != nil {
			return nil, err
		}
		typ, _ := str(m, "type")
		if typ == "" {
			typ = ev.name
		}
		switch typ {
		case "error":
			msg, _ := apiErrorEvent(m)
			if msg == "" {
				code, _ := str(m, "code")
				text, _ := str(m, "message")
				msg = strings.TrimSpace(code + " " + text)
			}
			return nil, streamError(ev, "the API sent an error: %s", msg)
		case "response.completed", "response.incomplete", "response.failed":
			if err := json.Unmarshal(m["response"], &final); err != nil || final == nil {
				return nil, streamError(ev, "%s has no response object", typ)
			}
		case "response.output_item.added", "response.output_item.done":
			index, present, ok := integer(m, "output_index")
			if !ok || !present {
				return nil, streamError(ev, "%s has no output_index", typ)
			}
			var item map[string]json.RawMessage
			if err := json.Unmarshal(m["item"], &item); err != nil || item == nil {
				return nil, streamError(ev, "%s has no item object", typ)
			}
			it := items[index]
			if typ == "response.output_item.added" {
				if it != nil {
					return nil, streamError(ev, "output item %d is added twice", index)
				}
				it = &responsesItem{texts: map[int]*strings.Builder{}, textAt: map[int]sse{}}
				items[index] = it
			} else if it == nil {
				it = &responsesItem{texts: map[int]*strings.Builder{}, textAt: map[int]sse{}}
				items[index] = it
			}
			it.item = item
			it.done = typ == "response.output_item.done"
			if id, _ := str(item, "id"); id != "" {
				byID[id] = index
			}
		case "response.output_text.delta", "response.function_call_arguments.delta", "response.refusal.delta":
			it, err := itemFor(ev, m)
			if err != nil {
				return nil, err
			}
			delta, ok := str(m, "delta")
			if !ok {
				return nil, streamError(ev, "%s's delta is not a string", typ)
			}
			if typ == "response.function_call_arguments.delta" {
				it.args.WriteString(delta)
				it.argsSet = true
				continue
			}
			ci, _, ok := integer(m, "content_index")
			if !ok {
				return nil, streamError(ev, "%s's content_index is not a whole number", typ)
			}
			it.text(ev, ci).WriteString(delta)
		case "response.function_call_arguments.done":
			it, err := itemFor(ev, m)
			if err != nil {
				return nil, err
			}
			if args, ok := str(m, "arguments"); ok && m["arguments"] != nil {
				it.args.Reset()
				it.args.WriteString(args)
				it.argsSet = true
			}
		case "response.output_text.done":
			it, err := itemFor(ev, m)
			if err != nil {
				return nil, err
			}
			if text, ok := str(m, "text"); ok && m["text"] != nil {
				ci, _, ok := integer(m, "content_index")
				if !ok {
					return nil, streamError(ev, "%s's content_index is not a whole number", typ)
				}
				b := it.text(ev, ci)
				b.Reset()
				b.WriteString(text)
			}
		}
	}
	if final == nil {
		return nil, errors.New("the stream ended before its end: no response.completed, response.incomplete or response.failed (cut off?)")
	}
	var output []json.RawMessage
	json.Unmarshal(final["output"], &output)
	if len(output) == 0 && len(items) > 0 {
		list := make([]any, 0, len(items))
		for _, index := range sortedIndexes(items) {
			item, err := items[index].whole(index)
			if err != nil {
				return nil, err
			}
			list = append(list, item)
		}
		out := map[string]any{}
		for k, v := range final {
			out[k] = v
		}
		out["output"] = list
		return json.Marshal(out)
	}
	return json.Marshal(final)
}

// whole is an output item as the response lists it: output_item.done's,
// or the added item with its deltas applied. Content parts are numbered
// from 0 with no gap: a text at a content_index past the parts before it
// is an error naming its event, never empty parts made up to fill the gap
// (a content_index of 10⁸ took all memory).
func (it *responsesItem) whole(index int) (map[string]any, error) {
	out := map[string]any{}
	for k, v := range it.item {
		out[k] = v
	}
	if it.done {
		return out, nil
	}
	if it.argsSet {
		out["arguments"] = it.args.String()
	}
	if len(it.texts) > 0 {
		var content []map[string]any
		if raw := it.item["content"]; raw != nil && string(raw) != "null" {
			if err := json.Unmarshal(raw, &content); err != nil || slices.ContainsFunc(content, func(p map[string]any) bool { return p == nil }) {
				return nil, fmt.Errorf("output item %d's content is not a list of objects: %s", index, excerptBytes(raw))
			}
		}
		for _, ci := range sortedIndexes(it.texts) {
			if ci > len(content) {
				return nil, streamError(it.textAt[ci], "output item %d's text at content_index %d follows no content part %d", index, ci, len(content))
			}
			if ci == len(content) {
				content = append(content, map[string]any{"type": "output_text", "annotations": []any{}})
			}
			content[ci]["text"] = it.texts[ci].String()
		}
		out["content"] = content
	}
	return out, nil
}
