package evalkit

// Decoding message content: a string, or a list of content blocks in the
// shapes of OpenAI Chat Completions, OpenAI Responses, Anthropic Messages
// and evalkit's own Part. See Decode.

import (
	"encoding/base64"
	"encoding/json"
	"net/url"
	"strings"
)

// content is what a message's content holds, sorted by kind.
type content struct {
	text      string
	parts     []Part
	calls     []ToolCall  // Anthropic tool_use blocks
	results   []Message   // Anthropic tool_result blocks, as tool messages
	reasoning []Reasoning // Anthropic thinking and redacted_thinking blocks
}

// decodeContent reads null, a string, or an array of content blocks of a
// message with the given role. Text blocks join with "\n".
func decodeContent(raw json.RawMessage, at *loc, role Role) (content, error) {
	var c content
	switch firstByte(raw) {
	case 0, 'n':
		if len(raw) > 0 && !isNull(raw) {
			return c, errAt(at, "want a string, an array of parts or null, got %s", rawKind(raw))
		}
		return c, nil
	case '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return c, errAt(at, "invalid JSON string: %v", err)
		}
		c.text = s
		return c, nil
	case '[':
	default:
		return c, errAt(at, "want a string, an array of parts or null, got %s", rawKind(raw))
	}
	elems, err := rawArray(raw, at)
	if err != nil {
		return c, err
	}
	var texts []string
	for i, e := range elems {
		text, isText, err := decodeBlock(e, at.elem(i), role, &c)
		if err != nil {
			return c, err
		}
		if isText {
			texts = append(texts, text)
		}
	}
	c.text = strings.Join(texts, "\n")
	return c, nil
}

// decodeParts reads evalkit's "parts" list of a message with the given
// role: media parts only.
func decodeParts(raw json.RawMessage, at *loc, role Role) ([]Part, error) {
	elems, err := rawArray(raw, at)
	if err != nil {
		return nil, err
	}
	var c content
	for i, e := range elems {
		_, isText, err := decodeBlock(e, at.elem(i), role, &c)
		if err != nil {
			return nil, err
		}
		if isText || len(c.results)+len(c.calls)+len(c.reasoning) > 0 {
			return nil, errAt(at.elem(i), "want a media part {type, mime_type, url, data, ...}: text, tool calls, results and reasoning have fields of their own")
		}
	}
	return c.parts, nil
}

// wireBlock covers the content blocks of OpenAI Chat Completions and
// Responses, Anthropic Messages and evalkit's own Part.
type wireBlock struct {
	Type     string          `json:"type"`
	Text     json.RawMessage `json:"text"`
	Refusal  json.RawMessage `json:"refusal"`
	ImageURL json.RawMessage `json:"image_url"`
	// InputAudio is OpenAI Chat's {data, format}.
	InputAudio *struct {
		Data   string `json:"data"`
		Format string `json:"format"`
	} `json:"input_audio"`
	// File is OpenAI Chat's {file_data, file_id, filename}.
	File *struct {
		FileData string `json:"file_data"`
		FileID   string `json:"file_id"`
		Filename string `json:"filename"`
	} `json:"file"`
	// Source is Anthropic's media source: {type: base64, media_type, data},
	// {type: url, url}, {type: file, file_id} or {type: text, media_type,
	// data}. It is read only for media blocks (a search_result block's
	// source is a string).
	Source json.RawMessage `json:"source"`
	// OpenAI Responses' input_file: file_data (base64 or a data: URL),
	// file_url, filename; and evalkit's and Responses' file_id.
	FileData string `json:"file_data"`
	FileURL  string `json:"file_url"`
	Filename string `json:"filename"`
	FileID   string `json:"file_id"`
	// evalkit's Part.
	MIMEType   string          `json:"mime_type"`
	URL        string          `json:"url"`
	Data       string          `json:"data"`
	Name       json.RawMessage `json:"name"`
	Width      json.RawMessage `json:"width"`
	Height     json.RawMessage `json:"height"`
	DurationMS json.RawMessage `json:"duration_ms"`
	// Anthropic's tool_result: {tool_use_id, content, is_error}.
	ToolUseID json.RawMessage `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   json.RawMessage `json:"is_error"`
	// Anthropic's thinking block: {thinking, signature}.
	Thinking json.RawMessage `json:"thinking"`
}

// decodeBlock reads one content block of a message with the given role:
// text (returned, isText), or a media part, tool call, tool result or
// reasoning block (added to c).
func decodeBlock(raw json.RawMessage, at *loc, role Role, c *content) (text string, isText bool, err error) {
	if firstByte(raw) == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return "", false, errAt(at, "invalid JSON string: %v", err)
		}
		return s, true, nil
	}
	if firstByte(raw) != '{' {
		return "", false, errAt(at, "want a content part object, got %s", rawKind(raw))
	}
	var w wireBlock
	if err := json.Unmarshal(raw, &w); err != nil {
		return "", false, errAt(at, "invalid content part: %s", jsonMsg(err))
	}
	if err := dupKeys(raw, at); err != nil {
		return "", false, err
	}
	switch w.Type {
	case "text", "input_text", "output_text":
		text, err := rawString(w.Text, at.field("text"))
		return text, true, err
	case "refusal":
		text, err := rawString(w.Refusal, at.field("refusal"))
		return text, true, err
	case "image_url", "input_image", "image":
		return "", false, addMedia(&w, at, "image", true, c)
	case "input_audio", "audio":
		return "", false, addMedia(&w, at, "audio", true, c)
	case "video":
		return "", false, addMedia(&w, at, "video", true, c)
	case "file", "input_file", "document":
		return "", false, addMedia(&w, at, "file", true, c)
	case "tool_use":
		if role != RoleAssistant {
			return "", false, errAt(at.field("type"), "only assistant messages make tool calls (tool_use), this one has role %q", role)
		}
		call, err := decodeToolCall(raw, at)
		if err != nil {
			return "", false, err
		}
		if call.ID == "" {
			return "", false, errAt(at.field("id"), "a tool_use block needs an id: its tool_result names it")
		}
		c.calls = append(c.calls, call)
		return "", false, nil
	case "tool_result":
		if role != RoleUser {
			return "", false, errAt(at.field("type"), "tool_result blocks belong in user messages (Anthropic Messages), this one has role %q", role)
		}
		m, err := decodeToolResultBlock(&w, at)
		if err != nil {
			return "", false, err
		}
		c.results = append(c.results, m)
		return "", false, nil
	case "thinking", "redacted_thinking":
		if role != RoleAssistant {
			return "", false, errAt(at.field("type"), "only assistant messages hold %s blocks, this one has role %q", w.Type, role)
		}
		var r Reasoning
		if w.Type == "thinking" {
			if r.Text, err = rawString(w.Thinking, at.field("thinking")); err != nil {
				return "", false, err
			}
		} else {
			r.Redacted = true
		}
		c.reasoning = append(c.reasoning, r)
		return "", false, nil
	case "":
		return "", false, errAt(at.field("type"), "a content part needs a type")
	}
	if holdsToolCall(w.Type) {
		// Server-side tools (Anthropic's server_tool_use, mcp_tool_use,
		// web_search_tool_result; OpenAI Responses items): read as an
		// unknown part they would silently drop a tool call or its result.
		return "", false, errAt(at.field("type"), "%q blocks are not supported: the tool call or result they hold would be lost", w.Type)
	}
	// A part type evalkit does not know: kept with what evalkit's own Part
	// fields say of it, so it round-trips. Text it holds ("Text", a
	// misspelt type) has no place in a Part: dropping it would hide model
	// output from every check.
	for _, f := range []struct {
		key string
		raw json.RawMessage
	}{{"text", w.Text}, {"refusal", w.Refusal}} {
		if len(f.raw) > 0 && !isNull(f.raw) {
			return "", false, errAt(at.field("type"), "unknown part type %q holding %q: its text would be lost (text parts have type \"text\")", w.Type, f.key)
		}
	}
	w.ImageURL, w.InputAudio, w.File, w.Source, w.FileData, w.FileURL = nil, nil, nil, nil, "", ""
	return "", false, addMedia(&w, at, w.Type, false, c)
}

// holdsToolCall tells the block and item types that carry a tool call or a
// tool result evalkit does not decode.
func holdsToolCall(typ string) bool {
	for _, suffix := range []string{"tool_use", "tool_result", "_call", "_call_output"} {
		if strings.HasSuffix(typ, suffix) {
			return true
		}
	}
	return false
}

// decodeToolResultBlock turns an Anthropic tool_result block into a tool
// message: its content (a string or text and image blocks) as the message's
// text and parts, is_error as IsError.
func decodeToolResultBlock(w *wireBlock, at *loc) (Message, error) {
	m := Message{Role: RoleTool}
	var err error
	if m.ToolCallID, err = rawString(w.ToolUseID, at.field("tool_use_id")); err != nil {
		return m, err
	}
	if m.ToolCallID == "" {
		return m, errAt(at.field("tool_use_id"), "a tool_result needs the tool_use_id of the call it answers")
	}
	c, err := decodeContent(w.Content, at.field("content"), RoleTool)
	if err != nil {
		return m, err
	}
	m.Content, m.Parts = c.text, c.parts
	if len(w.IsError) > 0 && !isNull(w.IsError) {
		if err := json.Unmarshal(w.IsError, &m.IsError); err != nil {
			return m, errAt(at.field("is_error"), "want true or false, got %s", rawKind(w.IsError))
		}
	}
	return m, nil
}

// addMedia reads an image, audio, video or file part from any of the
// shapes wireBlock knows, and adds it to c. located requires the media's
// URL, data or file id.
func addMedia(w *wireBlock, at *loc, kind string, located bool, c *content) error {
	p := Part{Type: kind, MIMEType: w.MIMEType, FileID: w.FileID, Name: w.Filename}
	var err error
	if p.Name == "" {
		if p.Name, err = rawString(w.Name, at.field("name")); err != nil {
			return err
		}
	}
	if w.Data != "" {
		if p.Data, err = decodeBase64(w.Data, at.field("data")); err != nil {
			return err
		}
	}
	if err := setURL(&p, w.URL, at.field("url")); err != nil {
		return err
	}
	switch firstByte(w.ImageURL) {
	case '{': // Chat Completions: {"url": ..., "detail": ...}
		var u struct {
			URL json.RawMessage `json:"url"`
		}
		if err := json.Unmarshal(w.ImageURL, &u); err != nil {
			return errAt(at.field("image_url"), "want {url}: %s", jsonMsg(err))
		}
		s, err := rawString(u.URL, at.field("image_url").field("url"))
		if err != nil {
			return err
		}
		if err := setURL(&p, s, at.field("image_url").field("url")); err != nil {
			return err
		}
	case '"': // Responses: "image_url": "https://..." or a data: URL
		s, _ := rawString(w.ImageURL, at.field("image_url"))
		if err := setURL(&p, s, at.field("image_url")); err != nil {
			return err
		}
	case 0, 'n':
	default:
		return errAt(at.field("image_url"), "want {url} or a URL string, got %s", rawKind(w.ImageURL))
	}
	if a := w.InputAudio; a != nil {
		if p.Data, err = decodeBase64(a.Data, at.field("input_audio").field("data")); err != nil {
			return err
		}
		if a.Format != "" {
			p.MIMEType = audioMIME(a.Format)
		}
	}
	if f := w.File; f != nil {
		p.FileID, p.Name = firstNonEmpty(f.FileID, p.FileID), firstNonEmpty(f.Filename, p.Name)
		if err := setFileData(&p, f.FileData, at.field("file").field("file_data")); err != nil {
			return err
		}
	}
	if err := setFileData(&p, w.FileData, at.field("file_data")); err != nil {
		return err
	}
	if err := setURL(&p, w.FileURL, at.field("file_url")); err != nil {
		return err
	}
	if len(w.Source) > 0 && !isNull(w.Source) {
		sAt := at.field("source")
		if firstByte(w.Source) != '{' {
			return errAt(sAt, "want a media source object {type, media_type, data, url, file_id}, got %s", rawKind(w.Source))
		}
		var s struct {
			Type      string `json:"type"`
			MediaType string `json:"media_type"`
			Data      string `json:"data"`
			URL       string `json:"url"`
			FileID    string `json:"file_id"`
		}
		if err := json.Unmarshal(w.Source, &s); err != nil {
			return errAt(sAt, "invalid media source: %s", jsonMsg(err))
		}
		p.MIMEType = firstNonEmpty(s.MediaType, p.MIMEType)
		switch s.Type {
		case "base64", "":
			if s.Data != "" {
				if p.Data, err = decodeBase64(s.Data, sAt.field("data")); err != nil {
					return err
				}
			}
			if err := setURL(&p, s.URL, sAt.field("url")); err != nil {
				return err
			}
			p.FileID = firstNonEmpty(s.FileID, p.FileID)
		case "url":
			if err := setURL(&p, s.URL, sAt.field("url")); err != nil {
				return err
			}
		case "file":
			p.FileID = s.FileID
		case "text": // a plain-text document: data is the text itself
			p.Data = []byte(s.Data)
			p.MIMEType = firstNonEmpty(p.MIMEType, "text/plain")
		default:
			return errAt(sAt.field("type"), "unknown source type %q: want base64, url, file or text", s.Type)
		}
	}
	if p.Width, err = decodeCount(w.Width, at.field("width"), "pixels"); err != nil {
		return err
	}
	if p.Height, err = decodeCount(w.Height, at.field("height"), "pixels"); err != nil {
		return err
	}
	if p.DurationMS, err = decodeMillis(w.DurationMS, at.field("duration_ms")); err != nil {
		return err
	}
	if located && p.URL == "" && len(p.Data) == 0 && p.FileID == "" {
		return errAt(at, "%s part needs a URL, data or a file id", kindWord(kind))
	}
	c.parts = append(c.parts, p)
	return nil
}

// kindWord names a media kind with its article: "an image", "a video".
func kindWord(kind string) string {
	switch kind {
	case "file":
		return "a file (document)"
	case "image", "audio":
		return "an " + kind
	}
	return "a " + kind
}

// setURL sets the part's URL, decoding a data: URL into Data and MIMEType.
func setURL(p *Part, u string, at *loc) error {
	if u == "" {
		return nil
	}
	if !isDataURL(u) {
		p.URL = u
		return nil
	}
	if len(p.Data) > 0 {
		return errAt(at, "a data: URL beside inline data: which holds the media is ambiguous")
	}
	data, mime, err := decodeDataURL(u, at)
	if err != nil {
		return err
	}
	p.Data, p.MIMEType = data, firstNonEmpty(p.MIMEType, mime)
	return nil
}

// setFileData reads OpenAI's file_data: a data: URL, or plain base64.
func setFileData(p *Part, s string, at *loc) error {
	if s == "" {
		return nil
	}
	if isDataURL(s) {
		return setURL(p, s, at)
	}
	data, err := decodeBase64(s, at)
	if err != nil {
		return err
	}
	p.Data = data
	return nil
}

// decodeDataURL reads "data:[<media type>][;base64],<data>" (RFC 2397).
func decodeDataURL(u string, at *loc) (data []byte, mime string, err error) {
	meta, payload, ok := strings.Cut(u[len("data:"):], ",")
	if !ok {
		return nil, "", errAt(at, "invalid data: URL: no comma before the data")
	}
	params := strings.Split(meta, ";")
	mime = strings.ToLower(strings.TrimSpace(params[0]))
	isBase64 := false
	for _, p := range params[1:] {
		if strings.EqualFold(strings.TrimSpace(p), "base64") {
			isBase64 = true
		}
	}
	if isBase64 {
		data, err = decodeBase64(payload, at)
		return data, mime, err
	}
	text, err := url.PathUnescape(payload)
	if err != nil {
		return nil, "", errAt(at, "invalid data: URL: %v", err)
	}
	return []byte(text), mime, nil
}

// decodeBase64 reads base64 in the standard or URL alphabet, padded or not,
// ignoring line breaks and spaces (MIME-style wrapping).
func decodeBase64(s string, at *loc) ([]byte, error) {
	s = strings.Map(func(r rune) rune {
		switch r {
		case ' ', '\t', '\r', '\n':
			return -1
		}
		return r
	}, s)
	enc := base64.StdEncoding
	if strings.ContainsAny(s, "-_") {
		enc = base64.URLEncoding
	}
	if !strings.HasSuffix(s, "=") {
		enc = enc.WithPadding(base64.NoPadding)
	}
	data, err := enc.DecodeString(s)
	if err != nil {
		return nil, errAt(at, "want base64 data: %v", err)
	}
	return data, nil
}

// audioMIME maps OpenAI's input_audio formats to media types.
func audioMIME(format string) string {
	switch strings.ToLower(format) {
	case "mp3":
		return "audio/mpeg"
	case "wav":
		return "audio/wav"
	}
	return "audio/" + strings.ToLower(format)
}

// decodeReasoningField reads a message's reasoning: evalkit's list of
// {text, redacted}, or one string (the "reasoning" or "reasoning_content"
// field some OpenAI-compatible servers add to chat messages).
func decodeReasoningField(raw json.RawMessage, at *loc) ([]Reasoning, error) {
	switch firstByte(raw) {
	case 0, 'n':
		return nil, nil
	case '"':
		s, err := rawString(raw, at)
		if err != nil || s == "" {
			return nil, err
		}
		return []Reasoning{{Text: s}}, nil
	case '[':
	default:
		return nil, errAt(at, "want a list of {text, redacted} or a string, got %s", rawKind(raw))
	}
	elems, err := rawArray(raw, at)
	if err != nil {
		return nil, err
	}
	out := make([]Reasoning, 0, len(elems))
	for i, e := range elems {
		eAt := at.elem(i)
		if firstByte(e) != '{' {
			return nil, errAt(eAt, "want a reasoning object {text, redacted}, got %s", rawKind(e))
		}
		var r Reasoning
		if err := json.Unmarshal(e, &r); err != nil {
			return nil, errAt(eAt, "want {text, redacted}: %s", jsonMsg(err))
		}
		out = append(out, r)
	}
	return out, nil
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// isDataURL tells a data: URL (RFC 2397; the scheme is case-insensitive).
func isDataURL(s string) bool { return len(s) >= 5 && strings.EqualFold(s[:5], "data:") }
