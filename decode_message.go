package evalkit

// Decoding messages, tool calls and tool definitions, each field checked at
// its own JSON location. See Decode.

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
)

// wireMessage holds a message's fields undecoded, so each can be checked
// and reported at its own location.
type wireMessage struct {
	Role             json.RawMessage `json:"role"`
	Content          json.RawMessage `json:"content"`
	Parts            json.RawMessage `json:"parts"`
	Name             json.RawMessage `json:"name"`
	ToolCalls        json.RawMessage `json:"tool_calls"`
	FunctionCall     json.RawMessage `json:"function_call"`
	ToolCallID       json.RawMessage `json:"tool_call_id"`
	IsError          json.RawMessage `json:"is_error"`
	FinishReason     json.RawMessage `json:"finish_reason"`
	Usage            json.RawMessage `json:"usage"`
	LatencyMS        json.RawMessage `json:"latency_ms"`
	State            json.RawMessage `json:"state"`
	Reasoning        json.RawMessage `json:"reasoning"`
	ReasoningContent json.RawMessage `json:"reasoning_content"`
	Guardrails       json.RawMessage `json:"guardrails"`
	Refusal          json.RawMessage `json:"refusal"`
	Audio            json.RawMessage `json:"audio"`
}

// msgFlags adjusts decodeMessage to its source.
type msgFlags int

const (
	// tauBenchErrors marks tool results starting with "Error: " IsError.
	tauBenchErrors msgFlags = 1 << iota
	// providerUsage leaves "usage" alone: it is a provider's, read by
	// apiUsage, not evalkit's.
	providerUsage
)

func decodeMessages(elems []json.RawMessage, at *loc, flags msgFlags) ([]Message, error) {
	msgs := make([]Message, 0, len(elems))
	for i, raw := range elems {
		ms, err := decodeMessage(raw, at.elem(i), flags)
		if err != nil {
			return nil, err
		}
		msgs = append(msgs, ms...)
	}
	return msgs, nil
}

// decodeMessage reads one message object. It returns one message, except
// for an Anthropic user message holding tool_result blocks: each block
// becomes a tool message of its own, first, and the rest of the content (if
// any) the user message after them, since the results answer the calls
// before it.
func decodeMessage(raw json.RawMessage, at *loc, flags msgFlags) ([]Message, error) {
	if firstByte(raw) != '{' {
		return nil, errAt(at, "want a message object, got %s", rawKind(raw))
	}
	var w wireMessage
	if err := json.Unmarshal(raw, &w); err != nil {
		return nil, errAt(at, "invalid message: %s", jsonMsg(err))
	}
	if err := dupKeys(raw, at); err != nil {
		return nil, err
	}
	var m Message
	role, err := rawString(w.Role, at.field("role"))
	if err != nil {
		return nil, err
	}
	switch role {
	case "system", "developer":
		m.Role = RoleSystem
	case "user", "assistant", "tool":
		m.Role = Role(role)
	case "function":
		m.Role = RoleTool
	case "":
		return nil, errAt(at.field("role"), "missing role: want system, developer, user, assistant or tool")
	default:
		return nil, errAt(at.field("role"), "unknown role %q: want system, developer, user, assistant or tool", role)
	}
	c, err := decodeContent(w.Content, at.field("content"), m.Role)
	if err != nil {
		return nil, err
	}
	m.Content, m.Parts, m.Reasoning, m.ToolCalls = c.text, c.parts, c.reasoning, c.calls
	// What a Chat Completions message says beside its content is model
	// output too: its refusal (the answer when it declined) and the
	// transcript of its audio answer join the text, so no check reads past
	// them.
	refusal, err := rawString(w.Refusal, at.field("refusal"))
	if err != nil {
		return nil, err
	}
	transcript, audio, err := decodeAudioAnswer(w.Audio, at.field("audio"))
	if err != nil {
		return nil, err
	}
	m.Content = joinLines(m.Content, refusal, transcript)
	if audio != nil {
		m.Parts = append(m.Parts, *audio)
	}
	if len(w.Parts) > 0 && !isNull(w.Parts) {
		parts, err := decodeParts(w.Parts, at.field("parts"), m.Role)
		if err != nil {
			return nil, err
		}
		if len(parts) > 0 && len(c.parts) > 0 {
			// evalkit's JSON writes media in "parts" beside a text
			// "content"; media in both is two sources for one list.
			return nil, errAt(at, `media parts both in "content" and in "parts": which lists the message's media is ambiguous`)
		}
		m.Parts = append(m.Parts, parts...)
	}
	if m.Name, err = rawString(w.Name, at.field("name")); err != nil {
		return nil, err
	}
	if m.ToolCallID, err = rawString(w.ToolCallID, at.field("tool_call_id")); err != nil {
		return nil, err
	}
	if m.FinishReason, err = rawString(w.FinishReason, at.field("finish_reason")); err != nil {
		return nil, err
	}
	if m.State, err = rawString(w.State, at.field("state")); err != nil {
		return nil, err
	}
	if len(w.IsError) > 0 && !isNull(w.IsError) {
		if err := json.Unmarshal(w.IsError, &m.IsError); err != nil {
			return nil, errAt(at.field("is_error"), "want true or false, got %s", rawKind(w.IsError))
		}
	}
	if flags&providerUsage == 0 {
		if m.Usage, err = decodeUsage(w.Usage, at.field("usage")); err != nil {
			return nil, err
		}
	}
	if m.LatencyMS, err = decodeMillis(w.LatencyMS, at.field("latency_ms")); err != nil {
		return nil, err
	}
	if m.Guardrails, err = decodeGuardrails(w.Guardrails, at.field("guardrails")); err != nil {
		return nil, err
	}
	for _, f := range []struct {
		key string
		raw json.RawMessage
	}{{"reasoning", w.Reasoning}, {"reasoning_content", w.ReasoningContent}} {
		r, err := decodeReasoningField(f.raw, at.field(f.key))
		if err != nil {
			return nil, err
		}
		if len(r) > 0 && m.Role != RoleAssistant {
			return nil, errAt(at.field(f.key), "only assistant messages hold reasoning, this one has role %q", m.Role)
		}
		m.Reasoning = append(m.Reasoning, r...)
	}
	if len(w.ToolCalls) > 0 && !isNull(w.ToolCalls) {
		if len(c.calls) > 0 {
			return nil, errAt(at, `both "tool_calls" and tool_use blocks in "content": which lists the calls is ambiguous`)
		}
		elems, err := rawArray(w.ToolCalls, at.field("tool_calls"))
		if err != nil {
			return nil, err
		}
		for j, rc := range elems {
			call, err := decodeToolCall(rc, at.field("tool_calls").elem(j))
			if err != nil {
				return nil, err
			}
			m.ToolCalls = append(m.ToolCalls, call)
		}
	}
	if len(w.FunctionCall) > 0 && !isNull(w.FunctionCall) {
		call, err := decodeToolCall(w.FunctionCall, at.field("function_call"))
		if err != nil {
			return nil, err
		}
		m.ToolCalls = append(m.ToolCalls, call)
	}
	if len(m.ToolCalls) > 0 && m.Role != RoleAssistant {
		return nil, errAt(at.field("tool_calls"), "only assistant messages make tool calls, this one has role %q", m.Role)
	}
	if flags&tauBenchErrors != 0 && m.Role == RoleTool && strings.HasPrefix(m.Content, "Error: ") {
		m.IsError = true
	}
	if len(c.results) == 0 {
		return []Message{m}, nil
	}
	// Tool results first; the user's own content, if any, after them.
	out := c.results
	if m.Content != "" || len(m.Parts) > 0 || m.Name != "" || m.Usage != nil || m.LatencyMS > 0 || m.State != "" || len(m.Guardrails) > 0 {
		out = append(out, m)
	}
	return out, nil
}

// decodeAudioAnswer reads a Chat Completions message's "audio": {id,
// data, transcript, expires_at}, the model's spoken answer. It returns the
// transcript, and the audio as a part when the data is there (a message
// sent back to the API holds only the id, which names audio kept by the
// provider).
func decodeAudioAnswer(raw json.RawMessage, at *loc) (string, *Part, error) {
	if len(raw) == 0 || isNull(raw) {
		return "", nil, nil
	}
	if firstByte(raw) != '{' {
		return "", nil, errAt(at, "want an audio object {id, data, transcript}, got %s", rawKind(raw))
	}
	var w struct {
		Transcript json.RawMessage `json:"transcript"`
		Data       json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(raw, &w); err != nil {
		return "", nil, errAt(at, "invalid audio: %s", jsonMsg(err))
	}
	transcript, err := rawString(w.Transcript, at.field("transcript"))
	if err != nil {
		return "", nil, err
	}
	data, err := rawString(w.Data, at.field("data"))
	if err != nil || data == "" {
		return transcript, nil, err
	}
	b, err := decodeBase64(data, at.field("data"))
	if err != nil {
		return "", nil, err
	}
	return transcript, &Part{Type: "audio", Data: b}, nil
}

// joinLines joins the texts that are not empty with "\n".
func joinLines(texts ...string) string {
	var kept []string
	for _, t := range texts {
		if t != "" {
			kept = append(kept, t)
		}
	}
	return strings.Join(kept, "\n")
}

// decodeUsage reads evalkit's usage object: {input_tokens, output_tokens,
// cached_input_tokens, cost_usd}, all optional.
func decodeUsage(raw json.RawMessage, at *loc) (*Usage, error) {
	if len(raw) == 0 || isNull(raw) {
		return nil, nil
	}
	// Token counts are read as numbers, so 10.0 is 10; a fraction is not.
	var u struct {
		InputTokens       float64 `json:"input_tokens"`
		OutputTokens      float64 `json:"output_tokens"`
		CachedInputTokens float64 `json:"cached_input_tokens"`
		CostUSD           float64 `json:"cost_usd"`
	}
	if err := json.Unmarshal(raw, &u); err != nil {
		return nil, errAt(at, "want {input_tokens, output_tokens, cached_input_tokens, cost_usd}: %s", jsonMsg(err))
	}
	counts := []float64{u.InputTokens, u.OutputTokens, u.CachedInputTokens}
	for _, n := range counts {
		if n < 0 || u.CostUSD < 0 {
			return nil, errAt(at, "token counts and cost must not be negative")
		}
	}
	for _, n := range counts {
		if n != math.Trunc(n) || n > maxTokens {
			return nil, errAt(at, "token counts must be whole numbers")
		}
	}
	if u.CachedInputTokens > u.InputTokens {
		return nil, errAt(at, "cached_input_tokens (%v) must not exceed input_tokens (%v): cached tokens are part of the input", u.CachedInputTokens, u.InputTokens)
	}
	return &Usage{InputTokens: int(u.InputTokens), OutputTokens: int(u.OutputTokens), CachedInputTokens: int(u.CachedInputTokens), CostUSD: u.CostUSD}, nil
}

// maxTokens bounds a token count so it fits an int on every platform.
const maxTokens = math.MaxInt32

// decodeMillis reads a duration in milliseconds: a finite number, not
// negative; absent or null is 0.
func decodeMillis(raw json.RawMessage, at *loc) (float64, error) {
	if len(raw) == 0 || isNull(raw) {
		return 0, nil
	}
	var ms float64
	if firstByte(raw) == '"' || json.Unmarshal(raw, &ms) != nil {
		return 0, errAt(at, "want a number of milliseconds, got %s", rawKind(raw))
	}
	if ms < 0 {
		return 0, errAt(at, "want a number of milliseconds, not negative, got %v", ms)
	}
	return ms, nil
}

// decodeCount reads a whole number that is not negative (pixels, tokens);
// absent or null is 0.
func decodeCount(raw json.RawMessage, at *loc, what string) (int, error) {
	if len(raw) == 0 || isNull(raw) {
		return 0, nil
	}
	var n float64
	if firstByte(raw) == '"' || json.Unmarshal(raw, &n) != nil {
		return 0, errAt(at, "want a whole number of %s, got %s", what, rawKind(raw))
	}
	if n < 0 || n != math.Trunc(n) || n > maxTokens {
		return 0, errAt(at, "want a whole number of %s, not negative, got %v", what, n)
	}
	return int(n), nil
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
	if err := dupKeys(raw, at); err != nil {
		return c, err
	}
	var err error
	if c.ID, err = rawString(w.ID, at.field("id")); err != nil {
		return c, err
	}
	// The name and the arguments may each be written in more than one
	// place: OpenAI's function.name and function.arguments, evalkit's name
	// and args (or arguments, or Anthropic's input). The first given, the
	// function's first, is read; every other given must say the same, or
	// which one the call made is ambiguous.
	names := []located{{at.field("name"), w.Name}}
	args := []located{{at.field("args"), w.Args}, {at.field("arguments"), w.Arguments}, {at.field("input"), w.Input}}
	if len(w.Function) > 0 && !isNull(w.Function) {
		var f wireToolCall
		fnAt := at.field("function")
		if firstByte(w.Function) != '{' {
			return c, errAt(fnAt, "want an object {name, arguments}, got %s", rawKind(w.Function))
		}
		if err := json.Unmarshal(w.Function, &f); err != nil {
			return c, errAt(fnAt, "invalid function: %s", jsonMsg(err))
		}
		if err := dupKeys(w.Function, fnAt); err != nil {
			return c, err
		}
		names = append([]located{{fnAt.field("name"), f.Name}}, names...)
		args = append([]located{{fnAt.field("arguments"), f.Arguments}, {fnAt.field("args"), f.Args}, {fnAt.field("input"), f.Input}}, args...)
	}
	var nameAt *loc
	for _, n := range names {
		if !n.given() {
			continue
		}
		name, err := rawString(n.raw, n.at)
		if err != nil {
			return c, err
		}
		if nameAt == nil {
			c.Name, nameAt = name, n.at
		} else if name != c.Name {
			return c, errAt(n.at, "%q, but %s is %q: which names the call is ambiguous", name, nameAt, c.Name)
		}
	}
	if nameAt == nil {
		nameAt = names[0].at
	}
	if c.Name == "" {
		return c, errAt(nameAt, "a tool call needs a name")
	}
	var argsAt *loc
	for _, a := range args {
		if !a.given() {
			continue
		}
		v, err := decodeArgs(a.raw, a.at)
		if err != nil {
			return c, err
		}
		if argsAt == nil {
			c.Args, argsAt = v, a.at
		} else if !sameJSON(v, c.Args) {
			return c, errAt(a.at, "differs from %s: which arguments the call was made with is ambiguous", argsAt)
		}
	}
	return c, nil
}

// located is a field's raw value and its location.
type located struct {
	at  *loc
	raw json.RawMessage
}

func (l located) given() bool { return len(l.raw) > 0 && !isNull(l.raw) }

// sameJSON reports whether two JSON texts are the same value as written,
// white space aside; text that is not valid JSON (arguments cut off)
// compares as it is.
func sameJSON(a, b json.RawMessage) bool {
	var ca, cb bytes.Buffer
	if json.Compact(&ca, a) != nil || json.Compact(&cb, b) != nil {
		return bytes.Equal(a, b)
	}
	return bytes.Equal(ca.Bytes(), cb.Bytes())
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

// decodeTools reads tool definitions in OpenAI Chat Completions' shape
// ({"type": "function", "function": {name, description, parameters}}),
// OpenAI Responses' flat shape ({type, name, description, parameters}) and
// Anthropic's ({name, description, input_schema}). A provider's built-in
// tool without a name ({"type": "web_search"}) is named by its type.
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
			Type        json.RawMessage `json:"type"`
			Function    json.RawMessage `json:"function"`
			Name        json.RawMessage `json:"name"`
			Description json.RawMessage `json:"description"`
			Parameters  json.RawMessage `json:"parameters"`
			InputSchema json.RawMessage `json:"input_schema"`
		}
		if err := json.Unmarshal(e, &w); err != nil {
			return nil, errAt(eAt, "invalid tool: %s", jsonMsg(err))
		}
		typ, err := rawString(w.Type, eAt.field("type"))
		if err != nil {
			return nil, err
		}
		switch firstByte(w.Function) {
		case 0, 'n':
		case '{':
			eAt = eAt.field("function")
			w.Parameters, w.InputSchema = nil, nil
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
		if s.Name == "" && typ != "" && typ != "function" && typ != "custom" {
			s.Name = typ
		}
		if s.Name == "" {
			return nil, errAt(eAt.field("name"), "a tool needs a name")
		}
		if s.Description, err = rawString(w.Description, eAt.field("description")); err != nil {
			return nil, err
		}
		params, schema := len(w.Parameters) > 0 && !isNull(w.Parameters), len(w.InputSchema) > 0 && !isNull(w.InputSchema)
		switch {
		case params && schema:
			return nil, errAt(eAt, `both "parameters" and "input_schema": which is the tool's schema is ambiguous`)
		case params:
			s.Parameters = w.Parameters
		case schema:
			s.Parameters = w.InputSchema
		}
		specs = append(specs, s)
	}
	return specs, nil
}
