package evalkit

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// DecodeError reports input that is not a transcript evalkit can read. Its
// message names the file (when there is one), the record (for multi-record
// input), the location in the JSON and what was expected there:
//
//	evalkit: runs.jsonl: line 4: messages[2].tool_calls[0].function.name: want a string, got a number
type DecodeError struct {
	// File is the path given to Load or LoadAll; empty for Decode.
	File string
	// Record locates the transcript in a JSON array of transcripts: "[3]";
	// empty otherwise (JSON Lines records are located by Line).
	Record string
	// Path is the JSON location, such as "messages[3].role"; empty when
	// the problem is the document as a whole.
	Path string
	// Line locates the error in the input (1-based): the line of a JSON
	// syntax error, or of the JSON Lines record at fault; 0 when unknown.
	// Column is the 1-based column of a syntax error, else 0.
	Line, Column int
	// Msg says what was expected and what was found.
	Msg string
}

func (e *DecodeError) Error() string {
	var b strings.Builder
	b.WriteString("evalkit: ")
	for _, s := range []string{e.File, e.Record} {
		if s != "" {
			b.WriteString(s)
			b.WriteString(": ")
		}
	}
	switch {
	case e.Line > 0 && e.Column > 0:
		fmt.Fprintf(&b, "line %d, column %d: ", e.Line, e.Column)
	case e.Line > 0:
		fmt.Fprintf(&b, "line %d: ", e.Line)
	}
	if e.Path != "" {
		b.WriteString(e.Path)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Load reads one transcript from a file; see Decode for the formats. Errors
// are *DecodeError values naming the file, or the error from reading it.
func Load(path string) (*Transcript, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("evalkit: %w", err)
	}
	tr, err := Decode(data)
	return tr, withFile(err, path)
}

// LoadAll reads every transcript from a file; see DecodeAll.
func LoadAll(path string) ([]*Transcript, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("evalkit: %w", err)
	}
	trs, err := DecodeAll(data)
	return trs, withFile(err, path)
}

func withFile(err error, path string) error {
	var de *DecodeError
	if errors.As(err, &de) {
		de.File = path
	}
	return err
}

// Decode reads one transcript, detecting its format:
//
//   - an OpenAI Chat Completions message list: a JSON array of messages, or an
//     object {"messages": [...], "tools": [...]} (tools optional);
//   - evalkit's own JSON, as written by encoding/json from a Transcript:
//     {"messages": [...], "tools": [...], "metadata": {...}};
//   - a τ-bench record {"task_id", "trial", "reward", "info", "traj": [...]},
//     whose task id, trial and reward go to Metadata ("task_id", "trial",
//     "reward") and whose tool results starting with "Error: " are marked
//     IsError, as τ-bench's environment reports a failed tool that way.
//
// Messages may mix the OpenAI and evalkit shapes. Content may be null, a
// string or an array of parts (text parts join with "\n"; images, audio and
// files go to Parts). Tool-call arguments may be a JSON string, an object,
// "" or null; a tool message may lack its name, which then comes from the
// call it answers. Unknown fields are ignored. Input that is none of these is
// a *DecodeError naming the JSON location and what was expected.
func Decode(data []byte) (*Transcript, error) {
	data = trimBOM(data)
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, &DecodeError{Msg: "empty input: want a transcript (a JSON message list or object)"}
	}
	var doc json.RawMessage
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, syntaxError(data, err)
	}
	return decodeDocument(doc, nil)
}

// DecodeAll reads many transcripts: JSON Lines with one transcript per line
// in any of Decode's forms (blank lines skipped), or a JSON array whose
// elements are transcript objects ({"messages": ...} or τ-bench records). A
// single transcript, even pretty-printed over many lines, decodes as a list
// of one.
// Errors name the line or array index of the record at fault.
func DecodeAll(data []byte) ([]*Transcript, error) {
	data = trimBOM(data)
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return nil, &DecodeError{Msg: "empty input: want transcripts (JSON Lines or a JSON array)"}
	}
	if json.Valid(trimmed) { // one JSON document: an array of transcripts, or one transcript
		var elems []json.RawMessage
		if trimmed[0] == '[' && json.Unmarshal(trimmed, &elems) == nil {
			if len(elems) == 0 {
				return nil, nil
			}
			if looksLikeRecord(elems[0]) {
				out := make([]*Transcript, 0, len(elems))
				for i, e := range elems {
					tr, err := decodeDocument(e, nil)
					if err != nil {
						return nil, withRecord(err, "["+strconv.Itoa(i)+"]")
					}
					out = append(out, tr)
				}
				return out, nil
			}
		}
		tr, err := Decode(trimmed)
		if err != nil {
			return nil, err
		}
		return []*Transcript{tr}, nil
	}
	// JSON Lines: each line one transcript in any of Decode's forms.
	var out []*Transcript
	sc := bufio.NewScanner(bytes.NewReader(trimmed))
	sc.Buffer(nil, len(trimmed)+1)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		tr, err := Decode(line)
		if err != nil {
			var de *DecodeError
			if errors.As(err, &de) {
				de.Line = n // a record is one line: its own line 1 is the file's line n
			}
			return nil, err
		}
		out = append(out, tr)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("evalkit: %w", err)
	}
	return out, nil
}

func withRecord(err error, record string) error {
	var de *DecodeError
	if errors.As(err, &de) {
		de.Record = record
	}
	return err
}

func trimBOM(data []byte) []byte { return bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) }

// syntaxError locates a JSON syntax error by line and column.
func syntaxError(data []byte, err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		line, col := lineCol(data, se.Offset)
		return &DecodeError{Line: line, Column: col, Msg: "invalid JSON: " + jsonErrorText(se).Error()}
	}
	return &DecodeError{Msg: "invalid JSON: " + jsonErrorText(err).Error()}
}

func lineCol(data []byte, offset int64) (line, col int) {
	if offset > int64(len(data)) {
		offset = int64(len(data))
	}
	before := data[:offset]
	line = bytes.Count(before, []byte("\n")) + 1
	col = int(offset) - (bytes.LastIndexByte(before, '\n') + 1)
	if col < 1 {
		col = 1
	}
	return line, col
}

// loc is a JSON location, formatted only when an error needs it.
type loc struct {
	parent *loc
	key    string
	index  int // used when key == ""
}

func (l *loc) field(key string) *loc { return &loc{parent: l, key: key} }
func (l *loc) elem(i int) *loc       { return &loc{parent: l, index: i} }

func (l *loc) String() string {
	if l == nil {
		return ""
	}
	p := l.parent.String()
	if l.key == "" {
		return p + "[" + strconv.Itoa(l.index) + "]"
	}
	if p == "" {
		return l.key
	}
	return p + "." + l.key
}

func errAt(at *loc, format string, args ...any) error {
	return &DecodeError{Path: at.String(), Msg: fmt.Sprintf(format, args...)}
}

func decodeDocument(doc json.RawMessage, at *loc) (*Transcript, error) {
	switch firstByte(doc) {
	case '[':
		var elems []json.RawMessage
		if err := json.Unmarshal(doc, &elems); err != nil {
			return nil, errAt(at, "invalid JSON: %v", err)
		}
		if len(elems) > 0 && looksLikeRecord(elems[0]) {
			return nil, errAt(at, "a JSON array of %d transcripts, not of messages: use DecodeAll or LoadAll for many transcripts", len(elems))
		}
		msgs, err := decodeMessages(elems, at, false)
		if err != nil {
			return nil, err
		}
		return &Transcript{Messages: msgs}, nil
	case '{':
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(doc, &obj); err != nil {
			return nil, errAt(at, "invalid JSON: %v", err)
		}
		traj, hasTraj := obj["traj"]
		if _, hasMessages := obj["messages"]; hasTraj && hasMessages {
			return nil, errAt(at, `both "messages" and "traj": which holds the conversation is ambiguous`)
		}
		if hasTraj {
			return decodeTauBench(obj, traj, at)
		}
		if msgs, ok := obj["messages"]; ok {
			return decodeChatObject(obj, msgs, at)
		}
		return nil, errAt(at, "want a message list, an object with \"messages\", or a τ-bench record with \"traj\"; got an object with keys %s", keyList(obj))
	default:
		return nil, errAt(at, "want a transcript (a JSON array of messages or an object), got %s", rawKind(doc))
	}
}

func decodeChatObject(obj map[string]json.RawMessage, rawMsgs json.RawMessage, at *loc) (*Transcript, error) {
	elems, err := rawArray(rawMsgs, at.field("messages"))
	if err != nil {
		return nil, err
	}
	msgs, err := decodeMessages(elems, at.field("messages"), false)
	if err != nil {
		return nil, err
	}
	tr := &Transcript{Messages: msgs}
	if raw, ok := obj["tools"]; ok && !isNull(raw) {
		if tr.Tools, err = decodeTools(raw, at.field("tools")); err != nil {
			return nil, err
		}
	}
	if raw, ok := obj["metadata"]; ok && !isNull(raw) {
		if firstByte(raw) != '{' {
			return nil, errAt(at.field("metadata"), "want an object, got %s", rawKind(raw))
		}
		if err := json.Unmarshal(raw, &tr.Metadata); err != nil {
			return nil, errAt(at.field("metadata"), "invalid JSON: %s", jsonMsg(err))
		}
	}
	return tr, nil
}

func decodeTauBench(obj map[string]json.RawMessage, traj json.RawMessage, at *loc) (*Transcript, error) {
	elems, err := rawArray(traj, at.field("traj"))
	if err != nil {
		return nil, err
	}
	msgs, err := decodeMessages(elems, at.field("traj"), true)
	if err != nil {
		return nil, err
	}
	tr := &Transcript{Messages: msgs, Metadata: map[string]any{"source": "tau-bench"}}
	for _, key := range []string{"task_id", "trial", "reward"} {
		raw, ok := obj[key]
		if !ok || isNull(raw) {
			continue
		}
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			return nil, errAt(at.field(key), "invalid JSON: %v", err)
		}
		tr.Metadata[key] = v
	}
	return tr, nil
}

// wireMessage holds a message's fields undecoded, so each can be checked
// and reported at its own location.
type wireMessage struct {
	Role         json.RawMessage `json:"role"`
	Content      json.RawMessage `json:"content"`
	Parts        json.RawMessage `json:"parts"`
	Name         json.RawMessage `json:"name"`
	ToolCalls    json.RawMessage `json:"tool_calls"`
	FunctionCall json.RawMessage `json:"function_call"`
	ToolCallID   json.RawMessage `json:"tool_call_id"`
	IsError      json.RawMessage `json:"is_error"`
	FinishReason json.RawMessage `json:"finish_reason"`
	Usage        json.RawMessage `json:"usage"`
}

func decodeMessages(elems []json.RawMessage, at *loc, tauBench bool) ([]Message, error) {
	msgs := make([]Message, 0, len(elems))
	for i, raw := range elems {
		m, err := decodeMessage(raw, at.elem(i), tauBench)
		if err != nil {
			return nil, err
		}
		msgs = append(msgs, m)
	}
	return msgs, nil
}

func decodeMessage(raw json.RawMessage, at *loc, tauBench bool) (Message, error) {
	if firstByte(raw) != '{' {
		return Message{}, errAt(at, "want a message object, got %s", rawKind(raw))
	}
	var w wireMessage
	if err := json.Unmarshal(raw, &w); err != nil {
		return Message{}, errAt(at, "invalid message: %s", jsonMsg(err))
	}
	var m Message
	role, err := rawString(w.Role, at.field("role"))
	if err != nil {
		return m, err
	}
	switch role {
	case "system", "developer":
		m.Role = RoleSystem
	case "user", "assistant", "tool":
		m.Role = Role(role)
	case "function":
		m.Role = RoleTool
	case "":
		return m, errAt(at.field("role"), "missing role: want system, developer, user, assistant or tool")
	default:
		return m, errAt(at.field("role"), "unknown role %q: want system, developer, user, assistant or tool", role)
	}
	if m.Content, m.Parts, err = decodeContent(w.Content, at.field("content")); err != nil {
		return m, err
	}
	if len(w.Parts) > 0 && !isNull(w.Parts) {
		if err := json.Unmarshal(w.Parts, &m.Parts); err != nil {
			return m, errAt(at.field("parts"), "want a list of {type, mime_type, url, data}: %s", jsonMsg(err))
		}
	}
	if m.Name, err = rawString(w.Name, at.field("name")); err != nil {
		return m, err
	}
	if m.ToolCallID, err = rawString(w.ToolCallID, at.field("tool_call_id")); err != nil {
		return m, err
	}
	if m.FinishReason, err = rawString(w.FinishReason, at.field("finish_reason")); err != nil {
		return m, err
	}
	if len(w.IsError) > 0 && !isNull(w.IsError) {
		if err := json.Unmarshal(w.IsError, &m.IsError); err != nil {
			return m, errAt(at.field("is_error"), "want true or false, got %s", rawKind(w.IsError))
		}
	}
	if len(w.Usage) > 0 && !isNull(w.Usage) {
		// Token counts are read as numbers, so 10.0 is 10; a fraction is not.
		var u struct {
			InputTokens  float64 `json:"input_tokens"`
			OutputTokens float64 `json:"output_tokens"`
			CostUSD      float64 `json:"cost_usd"`
		}
		if err := json.Unmarshal(w.Usage, &u); err != nil {
			return m, errAt(at.field("usage"), "want {input_tokens, output_tokens, cost_usd}: %s", jsonMsg(err))
		}
		if u.InputTokens < 0 || u.OutputTokens < 0 || u.CostUSD < 0 {
			return m, errAt(at.field("usage"), "token counts and cost must not be negative")
		}
		if u.InputTokens != math.Trunc(u.InputTokens) || u.OutputTokens != math.Trunc(u.OutputTokens) || u.InputTokens > math.MaxInt32*1e3 || u.OutputTokens > math.MaxInt32*1e3 {
			return m, errAt(at.field("usage"), "token counts must be whole numbers")
		}
		m.Usage = &Usage{InputTokens: int(u.InputTokens), OutputTokens: int(u.OutputTokens), CostUSD: u.CostUSD}
	}
	if len(w.ToolCalls) > 0 && !isNull(w.ToolCalls) {
		elems, err := rawArray(w.ToolCalls, at.field("tool_calls"))
		if err != nil {
			return m, err
		}
		for j, rc := range elems {
			c, err := decodeToolCall(rc, at.field("tool_calls").elem(j))
			if err != nil {
				return m, err
			}
			m.ToolCalls = append(m.ToolCalls, c)
		}
	}
	if len(w.FunctionCall) > 0 && !isNull(w.FunctionCall) {
		c, err := decodeToolCall(w.FunctionCall, at.field("function_call"))
		if err != nil {
			return m, err
		}
		m.ToolCalls = append(m.ToolCalls, c)
	}
	if len(m.ToolCalls) > 0 && m.Role != RoleAssistant {
		return m, errAt(at.field("tool_calls"), "only assistant messages make tool calls, this one has role %q", m.Role)
	}
	if tauBench && m.Role == RoleTool && strings.HasPrefix(m.Content, "Error: ") {
		m.IsError = true
	}
	return m, nil
}

// wireToolCall accepts both OpenAI's {"id", "type", "function": {"name",
// "arguments"}} and evalkit's {"id", "name", "args"} (also "arguments" or
// Anthropic-style "input").
type wireToolCall struct {
	ID        json.RawMessage `json:"id"`
	Function  json.RawMessage `json:"function"`
	Name      json.RawMessage `json:"name"`
	Args      json.RawMessage `json:"args"`
	Arguments json.RawMessage `json:"arguments"`
	Input     json.RawMessage `json:"input"`
}

func decodeToolCall(raw json.RawMessage, at *loc) (ToolCall, error) {
	var c ToolCall
	if firstByte(raw) != '{' {
		return c, errAt(at, "want a tool call object, got %s", rawKind(raw))
	}
	var w wireToolCall
	if err := json.Unmarshal(raw, &w); err != nil {
		return c, errAt(at, "invalid tool call: %s", jsonMsg(err))
	}
	var err error
	if c.ID, err = rawString(w.ID, at.field("id")); err != nil {
		return c, err
	}
	nameAt, argsAt, name, args := at.field("name"), at.field("args"), w.Name, firstPresent(w.Args, w.Arguments, w.Input)
	if len(w.Function) > 0 && !isNull(w.Function) {
		var f wireToolCall
		fnAt := at.field("function")
		if firstByte(w.Function) != '{' {
			return c, errAt(fnAt, "want an object {name, arguments}, got %s", rawKind(w.Function))
		}
		if err := json.Unmarshal(w.Function, &f); err != nil {
			return c, errAt(fnAt, "invalid function: %s", jsonMsg(err))
		}
		nameAt, argsAt, name, args = fnAt.field("name"), fnAt.field("arguments"), f.Name, firstPresent(f.Arguments, f.Args, f.Input)
	}
	if c.Name, err = rawString(name, nameAt); err != nil {
		return c, err
	}
	if c.Name == "" {
		return c, errAt(nameAt, "a tool call needs a name")
	}
	if c.Args, err = decodeArgs(args, argsAt); err != nil {
		return c, err
	}
	return c, nil
}

// decodeArgs keeps arguments as raw JSON: a string's contents (OpenAI sends
// arguments as a JSON string, which may be cut off and invalid), an object or
// other JSON value as it is; "" and null mean no arguments (nil).
func decodeArgs(raw json.RawMessage, at *loc) (json.RawMessage, error) {
	if len(raw) == 0 || isNull(raw) {
		return nil, nil
	}
	if firstByte(raw) == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, errAt(at, "invalid JSON string: %v", err)
		}
		if strings.TrimSpace(s) == "" {
			return nil, nil
		}
		return json.RawMessage(s), nil
	}
	return raw, nil
}

func firstPresent(raws ...json.RawMessage) json.RawMessage {
	for _, r := range raws {
		if len(r) > 0 {
			return r
		}
	}
	return nil
}

// decodeContent reads null, a string, or an array of content parts.
func decodeContent(raw json.RawMessage, at *loc) (string, []Part, error) {
	switch firstByte(raw) {
	case 0, 'n':
		if len(raw) > 0 && !isNull(raw) {
			return "", nil, errAt(at, "want a string, an array of parts or null, got %s", rawKind(raw))
		}
		return "", nil, nil
	case '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", nil, errAt(at, "invalid JSON string: %v", err)
		}
		return s, nil, nil
	case '[':
	default:
		return "", nil, errAt(at, "want a string, an array of parts or null, got %s", rawKind(raw))
	}
	elems, err := rawArray(raw, at)
	if err != nil {
		return "", nil, err
	}
	var texts []string
	var parts []Part
	for i, e := range elems {
		text, part, err := decodePart(e, at.elem(i))
		if err != nil {
			return "", nil, err
		}
		if part != nil {
			parts = append(parts, *part)
		} else {
			texts = append(texts, text)
		}
	}
	return strings.Join(texts, "\n"), parts, nil
}

// wirePart covers the content-part shapes of OpenAI Chat Completions and
// Responses and evalkit's own Part.
type wirePart struct {
	Type       string          `json:"type"`
	Text       json.RawMessage `json:"text"`
	Refusal    string          `json:"refusal"`
	ImageURL   json.RawMessage `json:"image_url"`
	InputAudio *struct {
		Data   string `json:"data"`
		Format string `json:"format"`
	} `json:"input_audio"`
	File *struct {
		FileData string `json:"file_data"`
		FileID   string `json:"file_id"`
		Filename string `json:"filename"`
	} `json:"file"`
	// Source is Anthropic's media source: {type: base64, media_type, data}
	// or {type: url, url}.
	Source *struct {
		MediaType string `json:"media_type"`
		Data      string `json:"data"`
		URL       string `json:"url"`
	} `json:"source"`
	MIMEType string `json:"mime_type"`
	URL      string `json:"url"`
	Data     string `json:"data"`
}

// decodePart returns either text (part == nil) or a non-text part.
func decodePart(raw json.RawMessage, at *loc) (string, *Part, error) {
	if firstByte(raw) == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", nil, errAt(at, "invalid JSON string: %v", err)
		}
		return s, nil, nil
	}
	if firstByte(raw) != '{' {
		return "", nil, errAt(at, "want a content part object, got %s", rawKind(raw))
	}
	var w wirePart
	if err := json.Unmarshal(raw, &w); err != nil {
		return "", nil, errAt(at, "invalid content part: %s", jsonMsg(err))
	}
	switch w.Type {
	case "text", "input_text", "output_text":
		text, err := rawString(w.Text, at.field("text"))
		return text, nil, err
	case "refusal":
		return w.Refusal, nil, nil
	case "image_url", "input_image", "image":
		p := &Part{Type: "image", MIMEType: w.MIMEType, URL: w.URL, Data: w.Data}
		if w.Source != nil {
			p.MIMEType, p.URL, p.Data = w.Source.MediaType, w.Source.URL, w.Source.Data
		}
		switch firstByte(w.ImageURL) {
		case '{':
			var u struct {
				URL json.RawMessage `json:"url"`
			}
			if err := json.Unmarshal(w.ImageURL, &u); err != nil {
				return "", nil, errAt(at.field("image_url"), "want {url}: %s", jsonMsg(err))
			}
			url, err := rawString(u.URL, at.field("image_url").field("url"))
			if err != nil {
				return "", nil, err
			}
			p.URL = url
		case '"':
			p.URL, _ = rawString(w.ImageURL, at.field("image_url"))
		case 0, 'n':
		default:
			return "", nil, errAt(at.field("image_url"), "want {url} or a URL string, got %s", rawKind(w.ImageURL))
		}
		if p.URL == "" && p.Data == "" {
			return "", nil, errAt(at, "an image part needs a URL or data")
		}
		return "", p, nil
	case "input_audio", "audio":
		p := &Part{Type: "audio", MIMEType: w.MIMEType, URL: w.URL, Data: w.Data}
		if w.InputAudio != nil {
			p.Data = w.InputAudio.Data
			if w.InputAudio.Format != "" {
				p.MIMEType = "audio/" + w.InputAudio.Format
			}
		}
		return "", p, nil
	case "file", "input_file", "document":
		p := &Part{Type: "file", MIMEType: w.MIMEType, URL: w.URL, Data: w.Data}
		if w.File != nil {
			p.Data = w.File.FileData
		}
		if w.Source != nil {
			p.MIMEType, p.URL, p.Data = w.Source.MediaType, w.Source.URL, w.Source.Data
		}
		return "", p, nil
	case "tool_use", "server_tool_use", "tool_result", "function_call", "function_call_output":
		// Anthropic Messages and OpenAI Responses blocks: read as an unknown
		// part they would silently drop a tool call or its result.
		return "", nil, errAt(at.field("type"), "%q blocks (Anthropic Messages or OpenAI Responses) are not supported in chat messages yet: the tool call or result they hold would be lost", w.Type)
	case "":
		return "", nil, errAt(at.field("type"), "a content part needs a type")
	default:
		return "", &Part{Type: w.Type, MIMEType: w.MIMEType, URL: w.URL, Data: w.Data}, nil
	}
}

func decodeTools(raw json.RawMessage, at *loc) ([]ToolSpec, error) {
	elems, err := rawArray(raw, at)
	if err != nil {
		return nil, err
	}
	specs := make([]ToolSpec, 0, len(elems))
	for i, e := range elems {
		eAt := at.elem(i)
		if firstByte(e) != '{' {
			return nil, errAt(eAt, "want a tool object, got %s", rawKind(e))
		}
		var w struct {
			Function    json.RawMessage `json:"function"`
			Name        json.RawMessage `json:"name"`
			Description json.RawMessage `json:"description"`
			Parameters  json.RawMessage `json:"parameters"`
		}
		if err := json.Unmarshal(e, &w); err != nil {
			return nil, errAt(eAt, "invalid tool: %s", jsonMsg(err))
		}
		switch firstByte(w.Function) {
		case 0, 'n':
		case '{':
			eAt = eAt.field("function")
			if err := json.Unmarshal(w.Function, &w); err != nil {
				return nil, errAt(eAt, "invalid function: %s", jsonMsg(err))
			}
		default:
			return nil, errAt(eAt.field("function"), "want an object {name, description, parameters}, got %s", rawKind(w.Function))
		}
		var s ToolSpec
		if s.Name, err = rawString(w.Name, eAt.field("name")); err != nil {
			return nil, err
		}
		if s.Name == "" {
			return nil, errAt(eAt.field("name"), "a tool needs a name")
		}
		if s.Description, err = rawString(w.Description, eAt.field("description")); err != nil {
			return nil, err
		}
		if len(w.Parameters) > 0 && !isNull(w.Parameters) {
			s.Parameters = w.Parameters
		}
		specs = append(specs, s)
	}
	return specs, nil
}

func rawArray(raw json.RawMessage, at *loc) ([]json.RawMessage, error) {
	if firstByte(raw) != '[' {
		return nil, errAt(at, "want an array, got %s", rawKind(raw))
	}
	var elems []json.RawMessage
	if err := json.Unmarshal(raw, &elems); err != nil {
		return nil, errAt(at, "invalid array: %v", err)
	}
	return elems, nil
}

// rawString reads a JSON string; absent and null read as "".
func rawString(raw json.RawMessage, at *loc) (string, error) {
	if len(raw) == 0 || isNull(raw) {
		return "", nil
	}
	if firstByte(raw) != '"' {
		return "", errAt(at, "want a string, got %s", rawKind(raw))
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", errAt(at, "invalid JSON string: %v", err)
	}
	return s, nil
}

// looksLikeRecord tells a transcript object from a message object.
func looksLikeRecord(raw json.RawMessage) bool {
	if firstByte(raw) != '{' {
		return false
	}
	var probe struct {
		Role     json.RawMessage `json:"role"`
		Messages json.RawMessage `json:"messages"`
		Traj     json.RawMessage `json:"traj"`
	}
	return json.Unmarshal(raw, &probe) == nil && len(probe.Role) == 0 && (len(probe.Messages) > 0 || len(probe.Traj) > 0)
}

func firstByte(raw []byte) byte {
	for _, c := range raw {
		switch c {
		case ' ', '\t', '\r', '\n':
			continue
		}
		return c
	}
	return 0
}

func isNull(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }

// rawKind names the JSON type of a raw value for error messages.
func rawKind(raw json.RawMessage) string {
	switch firstByte(raw) {
	case 0:
		return "nothing"
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	default:
		return "a number"
	}
}

func keyList(obj map[string]json.RawMessage) string {
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, strconv.Quote(k))
	}
	sort.Strings(keys)
	if len(keys) > 8 {
		keys = append(keys[:8], "...")
	}
	if len(keys) == 0 {
		return "(none)"
	}
	return strings.Join(keys, ", ")
}

// jsonMsg words an encoding/json error for a reader of the input, not of
// evalkit's Go types: "input_audio: want an object, got a number".
func jsonMsg(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		field := te.Field
		if i := strings.LastIndexByte(field, '.'); i >= 0 {
			field = field[i+1:]
		}
		msg := fmt.Sprintf("want %s, got %s", goKindName(te.Type), withArticle(te.Value))
		if field != "" {
			msg = field + ": " + msg
		}
		return msg
	}
	return jsonErrorText(err).Error()
}

func goKindName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Pointer:
		return goKindName(t.Elem())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64, reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "a whole number"
	case reflect.Float32, reflect.Float64:
		return "a number"
	}
	return "another type"
}

// withArticle turns encoding/json's value words ("number", "object",
// "number 1.5") into "a number", "an object", "a number (1.5)".
func withArticle(v string) string {
	word, rest, _ := strings.Cut(v, " ")
	if word == "" {
		return v
	}
	art := "a "
	if strings.ContainsRune("aeiou", rune(word[0])) {
		art = "an "
	}
	if rest != "" {
		return art + word + " (" + rest + ")"
	}
	return art + word
}
