package evalkit

// Decoding messages, tool calls, content parts and tool definitions, each
// field checked at its own JSON location. See Decode.

import (
	"encoding/json"
	"math"
	"strings"
)

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
