package evalkit

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/evalkit-go/evalkit/internal/inputs"
	"github.com/evalkit-go/evalkit/internal/jsonx"
	"github.com/evalkit-go/evalkit/internal/textnorm"
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
	b.WriteString(textnorm.Excerpt(e.Msg, maxDecodeMsg))
	return b.String()
}

// Load reads one transcript from a file; see Decode for the formats. Errors
// are *DecodeError values naming the file, or the error from reading it:
// the file must be a regular file (a FIFO is refused, never waited on) of
// at most 32 MiB (EVALKIT_MAX_TRANSCRIPT_BYTES raises it).
func Load(path string) (*Transcript, error) {
	data, err := inputs.ReadFile(path, inputs.Transcript)
	if err != nil {
		return nil, fmt.Errorf("evalkit: %w", err)
	}
	tr, err := Decode(data)
	return tr, withFile(err, path)
}

// LoadAll reads every transcript from a file; see DecodeAll. The file is
// held to Load's limits: all its transcripts together at most 32 MiB.
func LoadAll(path string) ([]*Transcript, error) {
	data, err := inputs.ReadFile(path, inputs.Transcript)
	if err != nil {
		return nil, fmt.Errorf("evalkit: %w", err)
	}
	trs, err := DecodeAll(data)
	return trs, withFile(err, path)
}

// checkSize refuses input past the limit of a transcript (32 MiB, or
// EVALKIT_MAX_TRANSCRIPT_BYTES): decoding costs several times the input's
// size, and a hundred megabytes took seconds.
func checkSize(data []byte) error {
	if err := inputs.Check("the input", int64(len(data)), inputs.Transcript); err != nil {
		var le *inputs.LimitError
		if errors.As(err, &le) {
			return &DecodeError{Msg: fmt.Sprintf("the input is %s, past the limit of %s for a transcript (%s raises it)", inputs.Size(le.Got), inputs.Size(le.Max), le.Limit.Env)}
		}
		return &DecodeError{Msg: err.Error()}
	}
	return nil
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
//     object {"messages": [...], "tools": [...]} such as a request body (tools
//     optional);
//   - an OpenAI Chat Completions response body {"choices": [{"message",
//     "finish_reason"}], "usage"}, with exactly one choice;
//   - an OpenAI Responses request or response body: {"instructions",
//     "input": [...] or a string, "tools"}, {"output": [...], "status",
//     "usage"}, or both lists in one object; or a bare item list. Items are
//     messages, function_call (paired with its function_call_output by
//     call_id) and reasoning (kept in Message.Reasoning, never as text).
//     The assistant items of one model turn become one assistant message;
//   - an Anthropic Messages request body {"system", "messages", "tools"} or
//     response body {"type": "message", "role": "assistant", "content",
//     "stop_reason", "usage"}: content is a string or blocks; tool_use
//     blocks are tool calls, each tool_result block (with is_error) a tool
//     message of its own before the rest of its user message, thinking and
//     redacted_thinking blocks Message.Reasoning, image and document blocks
//     Parts; the top-level system prompt is the first message;
//   - evalkit's own JSON, as written by encoding/json from a Transcript:
//     {"messages", "tools", "agents", "workflow", "composition",
//     "prior_results", "metadata"};
//   - a τ-bench record {"task_id", "trial", "reward", "info", "traj": [...]},
//     whose task id, trial and reward go to Metadata ("task_id", "trial",
//     "reward") and whose tool results starting with "Error: " are marked
//     IsError, as τ-bench's environment reports a failed tool that way.
//
// Messages may mix the OpenAI, Anthropic and evalkit shapes. Content may be
// null, a string or an array of parts (text parts join with "\n"; images,
// audio, video and files go to Parts, base64 and data: URLs decoded into
// Part.Data). Tool-call arguments may be a JSON string, an object, "" or
// null; a tool message may lack its name, which then comes from the call it
// answers. Finish reasons use Chat Completions' words: Anthropic's end_turn
// and stop_sequence read "stop", max_tokens "length", tool_use
// "tool_calls"; a completed Responses body "stop" or "tool_calls", one cut
// off by max_output_tokens "length". Provider usage maps onto Usage (see
// Usage.InputTokens). Unknown fields are ignored.
//
// Input that is none of these is a *DecodeError naming the JSON location
// and what was expected, and so is input whose meaning is ambiguous: an
// object holding two conversations ("messages" beside "input"), a Chat
// response with several choices, a message with both "tool_calls" and
// tool_use blocks, a key of a message, tool call or content part given
// twice with different values (keys match ignoring case, as encoding/json
// matches them), a tool call whose name or arguments are written in two
// places that disagree ("name" and "function.name", "args" and
// "arguments"), media parts both in "content" and in "parts". API error
// bodies, unfinished responses, and tool calls evalkit cannot decode
// (hosted tools such as web_search_call, Anthropic's server_tool_use) are
// errors too, never a transcript that silently lacks them. So are a key
// given twice with different values in any object of the input (a usage
// count, a tool's input: the error names its JSON path, line and column),
// and input past 32 MiB (EVALKIT_MAX_TRANSCRIPT_BYTES raises the limit).
func Decode(data []byte) (*Transcript, error) {
	if err := checkSize(data); err != nil {
		return nil, err
	}
	return decodeOne(trimBOM(data))
}

// decodeOne is Decode past its size check and byte order mark: a byte
// order mark begins a file, not a record inside one.
func decodeOne(data []byte) (*Transcript, error) {
	if tr, ok := decodeFast(data); ok {
		return tr, nil
	}
	return decodePrecise(data)
}

// decodePrecise is Decode for any input, with the location of every
// error: what decodeFast leaves to it.
func decodePrecise(data []byte) (*Transcript, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, &DecodeError{Msg: "empty input: want a transcript (a JSON message list or object)"}
	}
	var doc json.RawMessage
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, syntaxError(data, err)
	}
	tr, err := decodeDocument(doc, nil)
	if err != nil {
		return nil, err
	}
	if err := conflict(doc); err != nil {
		return nil, err
	}
	return tr, nil
}

// conflict refuses a document that gives a key twice in one object with
// different values, at any depth (a usage count, a tool's input, a
// metadata field): encoding/json keeps the last, another reader the first,
// so what the transcript says cannot be told. The decoders' own check of
// a message's fields (keys compared as encoding/json matches them to
// fields, ignoring case) runs first, with its own message.
func conflict(doc []byte) error {
	var ce *jsonx.ConflictError
	if err := jsonx.Conflicts(doc); errors.As(err, &ce) {
		return &DecodeError{Path: ce.Path, Line: ce.Line, Column: ce.Column, Msg: "given twice, with different values: which is meant is ambiguous"}
	}
	return nil
}

// DecodeAll reads many transcripts: JSON Lines with one transcript per line
// in any of Decode's forms (blank lines skipped), or a JSON array whose
// elements are transcript objects ({"messages": ...} or τ-bench records). A
// single transcript, even pretty-printed over many lines, decodes as a list
// of one.
// Errors name the line or array index of the record at fault.
func DecodeAll(data []byte) ([]*Transcript, error) {
	if err := checkSize(data); err != nil {
		return nil, err
	}
	data = trimBOM(data)
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return nil, &DecodeError{Msg: "empty input: want transcripts (JSON Lines or a JSON array)"}
	}
	if trimmed[0] == '[' {
		if trs, ok := decodeAllFast(trimmed); ok {
			return trs, nil
		}
	}
	return decodeAllPrecise(trimmed)
}

// decodeAllPrecise is DecodeAll past its fast path, for trimmed input.
func decodeAllPrecise(trimmed []byte) ([]*Transcript, error) {
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
					if err == nil {
						if err = conflict(e); err != nil {
							// Its line and column would be the record's own.
							err.(*DecodeError).Line, err.(*DecodeError).Column = 0, 0
						}
					}
					if err != nil {
						return nil, withRecord(err, "["+strconv.Itoa(i)+"]")
					}
					out = append(out, tr)
				}
				return out, nil
			}
		}
		tr, err := decodeOne(trimmed)
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
		tr, err := decodeOne(line)
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

// The input's own text an error quotes (a role, a type, a name) is cut to
// maxQuoted bytes, and a message to maxDecodeMsg: a megabyte "role" must not
// make a megabyte error.
const (
	maxQuoted    = 120
	maxDecodeMsg = 1024
)

func errAt(at *loc, format string, args ...any) error {
	for i, a := range args {
		if s, ok := a.(string); ok && len(s) > maxQuoted {
			args[i] = textnorm.Excerpt(s, maxQuoted)
		}
	}
	return &DecodeError{Path: at.String(), Msg: textnorm.Excerpt(fmt.Sprintf(format, args...), maxDecodeMsg)}
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
		if isItemList(elems) {
			msgs, err := decodeItems(elems, at, false)
			if err != nil {
				return nil, err
			}
			return &Transcript{Messages: msgs}, nil
		}
		msgs, err := decodeMessages(elems, at, 0)
		if err != nil {
			return nil, err
		}
		return &Transcript{Messages: msgs}, nil
	case '{':
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(doc, &obj); err != nil {
			return nil, errAt(at, "invalid JSON: %v", err)
		}
		form, err := documentForm(obj, at)
		if err != nil {
			return nil, err
		}
		switch form {
		case formTauBench:
			return decodeTauBench(obj, obj["traj"], at)
		case formMessages:
			return decodeChatObject(obj, obj["messages"], at)
		case formResponses:
			return decodeResponses(obj, at)
		case formChatResponse:
			return decodeChatResponse(obj, at)
		case formAnthropicResponse:
			return decodeAnthropicResponse(doc, obj, at)
		}
		if _, ok := obj["role"]; ok {
			return nil, errAt(at, "one message object, not a transcript: wrap it in a list, [{\"role\": ...}]")
		}
		return nil, errAt(at, "want a message list, or an object with \"messages\" (Chat Completions, Anthropic Messages, evalkit), \"input\" or \"output\" (OpenAI Responses), \"choices\" (a Chat Completions response), \"type\": \"message\" (an Anthropic Messages response) or \"traj\" (τ-bench); got an object with keys %s", keyList(obj))
	default:
		return nil, errAt(at, "want a transcript (a JSON array of messages or an object), got %s", rawKind(doc))
	}
}

// decodeChatObject reads {"messages": [...]} with its optional "tools": an
// OpenAI Chat Completions or Anthropic Messages request body (Anthropic's
// top-level "system" becomes the first message), or evalkit's own JSON with
// its "agents", "workflow", "composition", "prior_results" and "metadata".
func decodeChatObject(obj map[string]json.RawMessage, rawMsgs json.RawMessage, at *loc) (*Transcript, error) {
	elems, err := rawArray(rawMsgs, at.field("messages"))
	if err != nil {
		return nil, err
	}
	msgs, err := decodeMessages(elems, at.field("messages"), 0)
	if err != nil {
		return nil, err
	}
	tr := &Transcript{Messages: msgs}
	if raw, ok := obj["system"]; ok && !isNull(raw) {
		c, err := decodeContent(raw, at.field("system"), RoleSystem)
		if err != nil {
			return nil, err
		}
		if len(c.parts) > 0 {
			return nil, errAt(at.field("system"), "a system prompt holds text only, this one has %s part", kindWord(c.parts[0].Type))
		}
		tr.Messages = append([]Message{{Role: RoleSystem, Content: c.text}}, tr.Messages...)
	}
	if raw, ok := obj["tools"]; ok && !isNull(raw) {
		if tr.Tools, err = decodeTools(raw, at.field("tools")); err != nil {
			return nil, err
		}
	}
	if raw, ok := obj["agents"]; ok && !isNull(raw) {
		if tr.Agents, err = decodeAgents(raw, at.field("agents")); err != nil {
			return nil, err
		}
	}
	if raw, ok := obj["workflow"]; ok && !isNull(raw) {
		if tr.Workflow, err = decodeWorkflow(raw, at.field("workflow")); err != nil {
			return nil, err
		}
	}
	if raw, ok := obj["composition"]; ok && !isNull(raw) {
		if tr.Composition, err = decodeComposition(raw, at.field("composition")); err != nil {
			return nil, err
		}
	}
	if raw, ok := obj["prior_results"]; ok && !isNull(raw) {
		if tr.PriorResults, err = decodePriorResults(raw, at.field("prior_results")); err != nil {
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
	msgs, err := decodeMessages(elems, at.field("traj"), tauBenchErrors)
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
	if s, ok := plainString(raw); ok {
		return s, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", errAt(at, "invalid JSON string: %v", err)
	}
	return s, nil
}

// plainString reads a JSON string that needs no unescaping — quotes at
// both ends, no backslash, quote or control character between them, valid
// UTF-8 — as encoding/json would, without its reflection: the decoders
// read every field of every message through rawString.
func plainString(raw json.RawMessage) (string, bool) {
	n := len(raw)
	if n < 2 || raw[0] != '"' || raw[n-1] != '"' {
		return "", false
	}
	body := raw[1 : n-1]
	for _, c := range body {
		if c < 0x20 || c == '"' || c == '\\' {
			return "", false
		}
	}
	if !utf8.Valid(body) {
		return "", false // encoding/json writes U+FFFD for what is not UTF-8
	}
	return string(body), true
}

// dupKeys rejects an object that gives a key twice with different values:
// encoding/json keeps the last one silently, and which the producer meant
// cannot be told ({"content": "shown", "content": "hidden"}). Keys compare
// as encoding/json matches them to fields, ignoring case, so "content" and
// "Content" are one key. raw must be valid JSON (it has been decoded); its
// values are compared as written.
func dupKeys(raw json.RawMessage, at *loc) error {
	type member struct {
		key string
		val []byte
	}
	var seen []member         // each key's first member, in order
	var byFold map[string]int // folded key -> its member in seen, past 16
	i := skipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return nil
	}
	for i = skipSpace(raw, i+1); i < len(raw) && raw[i] == '"'; {
		keyEnd := skipJSONString(raw, i)
		key := string(raw[i+1 : keyEnd-1])
		if strings.IndexByte(key, '\\') >= 0 {
			if json.Unmarshal(raw[i:keyEnd], &key) != nil {
				return nil
			}
		}
		i = skipSpace(raw, keyEnd)
		if i >= len(raw) || raw[i] != ':' {
			return nil
		}
		i = skipSpace(raw, i+1)
		valEnd := skipJSONValue(raw, i)
		val := raw[i:valEnd]
		// A key's first member stands for its later ones: each of those
		// has its value, or was an error. Past a few keys they are found
		// by their folded form: comparing each key with every other made
		// an object of 40,000 keys take 22s.
		var first *member
		if byFold != nil {
			if k, ok := byFold[foldKey([]byte(key))]; ok {
				first = &seen[k]
			}
		} else {
			for k := range seen {
				if strings.EqualFold(seen[k].key, key) {
					first = &seen[k]
					break
				}
			}
		}
		if first != nil {
			if !bytes.Equal(first.val, val) {
				also := ""
				if first.key != key {
					also = fmt.Sprintf(" (also as %q)", first.key)
				}
				return errAt(at.field(key), "given twice%s, with different values: which is meant is ambiguous", also)
			}
		} else {
			seen = append(seen, member{key, val})
			switch {
			case byFold != nil:
				byFold[foldKey([]byte(key))] = len(seen) - 1
			case len(seen) > 16:
				byFold = make(map[string]int, 2*len(seen))
				for k, m := range seen {
					byFold[foldKey([]byte(m.key))] = k
				}
			}
		}
		if i = skipSpace(raw, valEnd); i < len(raw) && raw[i] == ',' {
			i = skipSpace(raw, i+1)
		}
	}
	return nil
}

func skipSpace(raw []byte, i int) int {
	for i < len(raw) && (raw[i] == ' ' || raw[i] == '\t' || raw[i] == '\r' || raw[i] == '\n') {
		i++
	}
	return i
}

// skipJSONString returns the offset just past the string that opens at
// raw[i].
func skipJSONString(raw []byte, i int) int {
	for j := i + 1; j < len(raw); {
		k := bytes.IndexByte(raw[j:], '"')
		if k < 0 {
			return len(raw)
		}
		q := j + k
		bs := 0
		for b := q - 1; b > i && raw[b] == '\\'; b-- {
			bs++
		}
		if bs%2 == 0 {
			return q + 1
		}
		j = q + 1
	}
	return len(raw)
}

// skipJSONValue returns the offset just past the value that starts at
// raw[i].
func skipJSONValue(raw []byte, i int) int {
	if i >= len(raw) {
		return i
	}
	switch raw[i] {
	case '"':
		return skipJSONString(raw, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(raw); j++ {
			switch raw[j] {
			case '"':
				j = skipJSONString(raw, j) - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1
				}
			}
		}
		return len(raw)
	}
	j := i
	for j < len(raw) && raw[j] != ',' && raw[j] != '}' && raw[j] != ']' && raw[j] != ' ' && raw[j] != '\t' && raw[j] != '\r' && raw[j] != '\n' {
		j++
	}
	return j
}

// looksLikeRecord tells a transcript object (evalkit JSON, a τ-bench
// record, an API request or response body) from a message object.
func looksLikeRecord(raw json.RawMessage) bool {
	if firstByte(raw) != '{' {
		return false
	}
	var probe struct {
		Role     json.RawMessage `json:"role"`
		Messages json.RawMessage `json:"messages"`
		Traj     json.RawMessage `json:"traj"`
		Input    json.RawMessage `json:"input"`
		Output   json.RawMessage `json:"output"`
		Choices  json.RawMessage `json:"choices"`
		Type     json.RawMessage `json:"type"` // a Responses item ({"type": "function_call_output", "output": ...})
	}
	return json.Unmarshal(raw, &probe) == nil && len(probe.Role) == 0 && len(probe.Type) == 0 &&
		(len(probe.Messages) > 0 || len(probe.Traj) > 0 || len(probe.Input) > 0 || len(probe.Output) > 0 || len(probe.Choices) > 0)
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
