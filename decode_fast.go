package evalkit

// A fast path for the transcripts most often decoded: OpenAI Chat
// Completions messages (a list, or {"messages", "tools"}), τ-bench records
// and evalkit's own JSON, read in one pass over the bytes straight into a
// Transcript. It reads only input it is sure of — strict JSON, the fields
// and value types it knows, no key given twice — and gives up on anything
// else (any error, any other field or shape, a duplicate key), so that
// Decode's precise path reads that input instead, with its errors and
// their locations: the fast path never reports an error, and whatever it
// returns is what the precise path returns (TestDecodeFastAsPrecise,
// FuzzDecodeFast).
//
// Why: the precise path reads each value several times (encoding/json
// validates the document, splits it into raw values, decodes each object
// into a struct of raw values, then each field), which made a message
// cost five times what encoding/json into a plain struct costs.
//
// Duplicate keys: every object the fast path reads has its keys compared
// (keys matching ignoring case, as encoding/json matches them) in
// fastDec.member; a key given twice sends the input to the precise path,
// which decides whether that is an error (dupKeys). A rule that makes
// every duplicate an error belongs in the precise path; the fast path
// needs no change for it.

import (
	"bytes"
	"strings"
)

// fastDec is the fast path's reader: the input and the offset read to.
type fastDec struct {
	data []byte
	i    int
	buf  []byte // scratch for unescaping strings
}

// maxFastDepth bounds the nesting the fast path follows; deeper input goes
// to the precise path (encoding/json's own limit is 10000).
const maxFastDepth = 200

// decodeFast reads data as Decode does, or returns false when it cannot
// be sure of it.
func decodeFast(data []byte) (*Transcript, bool) {
	d := fastDec{data: data}
	d.space()
	var tr *Transcript
	switch d.peek() {
	case '[':
		msgs, ok := d.messages(true)
		if !ok {
			return nil, false
		}
		tr = &Transcript{Messages: msgs}
	case '{':
		var ok bool
		if tr, ok = d.document(); !ok {
			return nil, false
		}
	default:
		return nil, false
	}
	d.space()
	return tr, d.i == len(d.data)
}

// decodeAllFast reads data as DecodeAll reads a JSON array of transcript
// objects, or returns false.
func decodeAllFast(data []byte) ([]*Transcript, bool) {
	d := fastDec{data: data}
	d.space()
	if !d.eat('[') {
		return nil, false
	}
	var out []*Transcript
	for first := true; ; first = false {
		d.space()
		if d.eat(']') {
			if first { // [] is no transcripts; left to the precise path
				return nil, false
			}
			break
		}
		if !first && (!d.eat(',') || !d.spaceThen()) {
			return nil, false
		}
		if d.peek() != '{' {
			return nil, false
		}
		tr, ok := d.document()
		if !ok {
			return nil, false
		}
		out = append(out, tr)
		d.space()
		if d.peek() != ',' && d.peek() != ']' {
			return nil, false
		}
	}
	d.space()
	return out, d.i == len(d.data)
}

// documentKeys are the keys of a transcript object that decide its form
// or are read by the precise path: one of them given in another case than
// the fast path reads, or not read by it at all, goes to the precise path.
var documentKeys = []string{"messages", "traj", "tools", "metadata", "task_id", "trial", "reward",
	"input", "output", "choices", "type", "content", "error", "role", "system", "agents", "workflow",
	"composition", "prior_results", "instructions", "status", "usage", "stop_reason"}

// document reads a transcript object: {"messages", "tools", "metadata"}
// (Chat Completions request bodies, evalkit's JSON) or a τ-bench record
// {"task_id", "trial", "reward", "traj"}.
func (d *fastDec) document() (*Transcript, bool) {
	var (
		keys                  keySet
		msgs                  []Message
		hasMsgs, hasTraj      bool
		tools                 []ToolSpec
		metadata              []byte
		taskID, trial, reward []byte
	)
	ok := d.members(&keys, func(key []byte) bool {
		var ok bool
		switch string(key) {
		case "messages", "traj":
			if d.null() {
				return false
			}
			hasMsgs, hasTraj = hasMsgs || key[0] == 'm', hasTraj || key[0] == 't'
			msgs, ok = d.messages(false)
		case "tools":
			if d.null() {
				return true
			}
			tools, ok = d.tools()
		case "metadata":
			metadata, ok = d.skip(1)
		case "task_id":
			taskID, ok = d.skip(1)
		case "trial":
			trial, ok = d.skip(1)
		case "reward":
			reward, ok = d.skip(1)
		default:
			if foldsTo(key, documentKeys...) {
				return false
			}
			_, ok = d.skip(1)
		}
		return ok
	})
	if !ok || hasMsgs == hasTraj {
		return nil, false
	}
	tr := &Transcript{Messages: msgs}
	if hasTraj {
		// decodeTauBench: its results starting "Error: " are failed
		// tools; task id, trial and reward are the metadata; "tools" and
		// "metadata" are not read.
		for i := range tr.Messages {
			if m := &tr.Messages[i]; m.Role == RoleTool && strings.HasPrefix(m.Content, "Error: ") {
				m.IsError = true
			}
		}
		tr.Metadata = map[string]any{"source": "tau-bench"}
		for _, f := range []struct {
			key string
			raw []byte
		}{{"task_id", taskID}, {"trial", trial}, {"reward", reward}} {
			if f.raw == nil || string(f.raw) == "null" {
				continue
			}
			v, ok := scalar(f.raw)
			if !ok {
				return nil, false
			}
			tr.Metadata[f.key] = v
		}
		return tr, true
	}
	tr.Tools = tools
	if metadata != nil && string(metadata) != "null" {
		if metadata[0] != '{' {
			return nil, false
		}
		v, ok := objectValue(metadata)
		if !ok {
			return nil, false
		}
		tr.Metadata = v
	}
	return tr, true
}

// scalar decodes a JSON string, number or boolean as encoding/json does
// into an any.
func scalar(raw []byte) (any, bool) {
	d := fastDec{data: raw}
	switch raw[0] {
	case '"':
		return d.str()
	case 't', 'f':
		return raw[0] == 't', true
	case '{', '[', 'n':
		return nil, false
	}
	return d.float()
}

// objectValue decodes a JSON object of scalars as encoding/json does into
// a map[string]any; objects holding anything else return false.
func objectValue(raw []byte) (map[string]any, bool) {
	d := fastDec{data: raw}
	m := map[string]any{}
	var keys keySet
	ok := d.members(&keys, func(key []byte) bool {
		v, ok := d.skip(1)
		if !ok {
			return false
		}
		if string(v) == "null" {
			m[string(key)] = nil
			return true
		}
		s, ok := scalar(v)
		m[string(key)] = s
		return ok
	})
	return m, ok
}

// messages reads a list of messages. top is a document that is the list
// itself, where a message with a "type" would make the list a Responses
// item list, for the precise path.
func (d *fastDec) messages(top bool) ([]Message, bool) {
	if !d.eat('[') {
		return nil, false
	}
	msgs := make([]Message, 0, 16)
	d.space()
	if d.eat(']') {
		return msgs, true
	}
	for {
		m, ok := d.message(top)
		if !ok {
			return nil, false
		}
		msgs = append(msgs, m)
		d.space()
		if d.eat(']') {
			if cap(msgs)-len(msgs) > len(msgs)/8 {
				// A transcript is kept, often for the whole test: its
				// memory is its messages, not the room append left.
				msgs = append(make([]Message, 0, len(msgs)), msgs...)
			}
			return msgs, true
		}
		if !d.eat(',') {
			return nil, false
		}
		d.space()
	}
}

// messageKeys are the keys decodeMessage reads (wireMessage's), and
// "type", which makes a list of messages a Responses item list.
var messageKeys = []string{"role", "content", "parts", "name", "tool_calls", "function_call", "tool_call_id",
	"is_error", "finish_reason", "usage", "latency_ms", "state", "reasoning", "reasoning_content",
	"guardrails", "refusal", "audio", "type"}

// message reads a message object as decodeMessage does, for messages of
// text (or text parts), tool calls, a tool call id, a name, is_error,
// finish_reason, latency_ms and state; other fields the precise path reads
// must be absent or null.
func (d *fastDec) message(top bool) (Message, bool) {
	var m Message
	var keys keySet
	var role string
	hasRole := false
	ok := d.members(&keys, func(key []byte) bool {
		var ok bool
		switch string(key) {
		case "role":
			var r []byte
			if r, ok = d.strBytes(); ok {
				role, hasRole = roleName(r)
				ok = hasRole
			}
		case "content":
			m.Content, ok = d.content()
		case "name":
			m.Name, ok = d.nullableStr()
		case "tool_call_id":
			m.ToolCallID, ok = d.nullableStr()
		case "finish_reason":
			m.FinishReason, ok = d.nullableStr()
		case "state":
			m.State, ok = d.nullableStr()
		case "is_error":
			switch {
			case d.null():
				ok = true
			case bytes.HasPrefix(d.data[d.i:], []byte("true")):
				m.IsError, ok = true, true
				d.i += 4
			case bytes.HasPrefix(d.data[d.i:], []byte("false")):
				d.i += 5
				ok = true
			}
		case "latency_ms":
			if d.null() {
				return true
			}
			m.LatencyMS, ok = d.float()
			ok = ok && m.LatencyMS >= 0
		case "tool_calls":
			if d.null() {
				return true
			}
			m.ToolCalls, ok = d.toolCalls()
		case "type":
			if top {
				return false
			}
			_, ok = d.skip(1)
		case "parts", "function_call", "usage", "reasoning", "reasoning_content", "guardrails", "refusal", "audio":
			ok = d.null()
		default:
			if foldsTo(key, messageKeys...) {
				return false
			}
			_, ok = d.skip(1)
		}
		return ok
	})
	if !ok || !hasRole {
		return m, false
	}
	m.Role = Role(role)
	if len(m.ToolCalls) > 0 && m.Role != RoleAssistant {
		return m, false
	}
	return m, true
}

// roleName maps a message's role as decodeMessage does, or returns false.
func roleName(r []byte) (string, bool) {
	switch string(r) {
	case "system", "developer":
		return string(RoleSystem), true
	case "user":
		return string(RoleUser), true
	case "assistant":
		return string(RoleAssistant), true
	case "tool", "function":
		return string(RoleTool), true
	}
	return "", false
}

// content reads null, a string, or a list of text parts (strings, or
// {"type": "text", "input_text" or "output_text", "text"}) joined with
// "\n", as decodeContent does.
func (d *fastDec) content() (string, bool) {
	switch d.peek() {
	case 'n':
		return "", d.null()
	case '"':
		return d.str()
	case '[':
	default:
		return "", false
	}
	d.i++
	var texts []string
	d.space()
	if d.eat(']') {
		return "", true
	}
	for {
		t, ok := d.textPart()
		if !ok {
			return "", false
		}
		texts = append(texts, t)
		d.space()
		if d.eat(']') {
			return strings.Join(texts, "\n"), true
		}
		if !d.eat(',') {
			return "", false
		}
		d.space()
	}
}

// blockKeys are the keys of a content block decodeBlock reads (wireBlock's).
var blockKeys = []string{"type", "text", "refusal", "image_url", "input_audio", "file", "source", "file_data",
	"file_url", "filename", "file_id", "mime_type", "url", "data", "name", "width", "height", "duration_ms",
	"tool_use_id", "content", "is_error", "thinking"}

// textPart reads a string or a text block of a content list.
func (d *fastDec) textPart() (string, bool) {
	if d.peek() == '"' {
		return d.str()
	}
	var keys keySet
	var text string
	isText := false
	ok := d.members(&keys, func(key []byte) bool {
		switch string(key) {
		case "type":
			t, ok := d.strBytes()
			switch string(t) {
			case "text", "input_text", "output_text":
				isText = ok
				return ok
			}
			return false
		case "text":
			var ok bool
			text, ok = d.nullableStr()
			return ok
		}
		if foldsTo(key, blockKeys...) {
			return false
		}
		_, ok := d.skip(1)
		return ok
	})
	return text, ok && isText
}

// toolCalls reads a message's tool_calls list.
func (d *fastDec) toolCalls() ([]ToolCall, bool) {
	if !d.eat('[') {
		return nil, false
	}
	var calls []ToolCall
	d.space()
	if d.eat(']') {
		return nil, true
	}
	for {
		c, ok := d.toolCall()
		if !ok {
			return nil, false
		}
		calls = append(calls, c)
		d.space()
		if d.eat(']') {
			return calls, true
		}
		if !d.eat(',') {
			return nil, false
		}
		d.space()
	}
}

// callKeys are the keys decodeToolCall reads (wireToolCall's).
var callKeys = []string{"id", "function", "name", "args", "arguments", "input"}

// toolCall reads a tool call as decodeToolCall does: OpenAI's {"id",
// "function": {"name", "arguments"}} or evalkit's {"id", "name", "args"}
// (or "arguments", "input"), with one name and one set of arguments.
func (d *fastDec) toolCall() (ToolCall, bool) {
	var c ToolCall
	var keys keySet
	names, args := 0, 0
	readArgs := func() bool {
		if d.null() {
			return true
		}
		a, ok := d.args()
		c.Args = a
		args++
		return ok
	}
	readName := func() bool {
		if d.null() {
			return true
		}
		var ok bool
		c.Name, ok = d.str()
		names++
		return ok
	}
	ok := d.members(&keys, func(key []byte) bool {
		switch string(key) {
		case "id":
			var ok bool
			c.ID, ok = d.nullableStr()
			return ok
		case "name":
			return readName()
		case "args", "arguments", "input":
			return readArgs()
		case "function":
			if d.null() {
				return true
			}
			var fkeys keySet
			return d.members(&fkeys, func(key []byte) bool {
				switch string(key) {
				case "name":
					return readName()
				case "args", "arguments", "input":
					return readArgs()
				}
				if foldsTo(key, callKeys...) || string(key) == "id" || string(key) == "function" {
					return false
				}
				_, ok := d.skip(1)
				return ok
			})
		}
		if foldsTo(key, callKeys...) {
			return false
		}
		_, ok := d.skip(1)
		return ok
	})
	return c, ok && names == 1 && c.Name != "" && args <= 1
}

// args reads a call's arguments as decodeArgs does: a string's contents,
// nil for one of white space only, any other value as written.
func (d *fastDec) args() ([]byte, bool) {
	if d.peek() == '"' {
		s, ok := d.strBytes()
		if !ok {
			return nil, false
		}
		if len(bytes.TrimSpace(s)) == 0 {
			return nil, true
		}
		return copyOf(s), true
	}
	raw, ok := d.skip(1)
	return copyOf(raw), ok
}

// toolKeys are the keys decodeTools reads of a tool.
var toolKeys = []string{"type", "function", "name", "description", "parameters", "input_schema"}

// tools reads tool definitions as decodeTools does: {"type": "function",
// "function": {name, description, parameters}}, or the flat {type, name,
// description, parameters or input_schema}.
func (d *fastDec) tools() ([]ToolSpec, bool) {
	if !d.eat('[') {
		return nil, false
	}
	specs := []ToolSpec{}
	d.space()
	if d.eat(']') {
		return specs, true
	}
	for {
		s, ok := d.tool()
		if !ok {
			return nil, false
		}
		specs = append(specs, s)
		d.space()
		if d.eat(']') {
			return specs, true
		}
		if !d.eat(',') {
			return nil, false
		}
		d.space()
	}
}

func (d *fastDec) tool() (ToolSpec, bool) {
	var s ToolSpec
	var keys keySet
	var typ string
	var params, schema []byte
	fn, flat := false, false
	field := func(key []byte) bool {
		var ok bool
		switch string(key) {
		case "name":
			s.Name, ok = d.nullableStr()
		case "description":
			s.Description, ok = d.nullableStr()
		case "parameters":
			params, ok = d.skip(1)
		case "input_schema":
			schema, ok = d.skip(1)
		default:
			return false
		}
		return ok
	}
	ok := d.members(&keys, func(key []byte) bool {
		switch string(key) {
		case "type":
			var ok bool
			typ, ok = d.nullableStr()
			return ok
		case "function":
			if d.null() {
				return true
			}
			fn = true
			var fkeys keySet
			return d.members(&fkeys, func(key []byte) bool {
				switch string(key) {
				case "name", "description", "parameters":
					return field(key)
				}
				if foldsTo(key, toolKeys...) || string(key) == "type" || string(key) == "function" || string(key) == "input_schema" {
					return false
				}
				_, ok := d.skip(1)
				return ok
			})
		case "name", "description", "parameters", "input_schema":
			flat = true
			return field(key)
		}
		if foldsTo(key, toolKeys...) {
			return false
		}
		_, ok := d.skip(1)
		return ok
	})
	if !ok || fn && flat {
		return s, false
	}
	if s.Name == "" && typ != "" && typ != "function" && typ != "custom" {
		s.Name = typ
	}
	hasParams, hasSchema := params != nil && string(params) != "null", schema != nil && string(schema) != "null"
	switch {
	case s.Name == "", hasParams && hasSchema:
		return s, false
	case hasParams:
		s.Parameters = copyOf(params)
	case hasSchema:
		s.Parameters = copyOf(schema)
	}
	return s, true
}
