package evalkit

// Decoding provider API bodies: OpenAI Responses requests and responses
// (item lists), OpenAI Chat Completions responses (choices) and Anthropic
// Messages responses. Requests with "messages" (Chat Completions and
// Anthropic) are read by decodeChatObject. See Decode.

import (
	"encoding/json"
	"strings"
)

// docForm is the kind of transcript object a document is.
type docForm int

const (
	formUnknown docForm = iota
	formTauBench
	formMessages
	formResponses
	formChatResponse
	formAnthropicResponse
)

// documentForm tells which kind of transcript object obj is, from the keys
// that hold its conversation. Two such keys are ambiguous, and an API error
// body is no transcript: both are errors.
func documentForm(obj map[string]json.RawMessage, at *loc) (docForm, error) {
	_, hasMessages := obj["messages"]
	_, hasTraj := obj["traj"]
	if raw, ok := obj["error"]; ok && !isNull(raw) && !hasMessages && !hasTraj {
		return formUnknown, apiError(raw, at.field("error"))
	}
	var keys []string
	var forms []docForm
	add := func(present bool, key string, f docForm) {
		if present {
			keys, forms = append(keys, key), append(forms, f)
		}
	}
	_, hasInput := obj["input"]
	_, hasOutput := obj["output"]
	_, hasChoices := obj["choices"]
	_, hasContent := obj["content"]
	add(hasMessages, `"messages"`, formMessages)
	add(hasTraj, `"traj"`, formTauBench)
	add(hasInput && !hasOutput, `"input"`, formResponses)
	add(hasOutput && !hasInput, `"output"`, formResponses)
	add(hasInput && hasOutput, `"input" with "output"`, formResponses)
	add(hasChoices, `"choices"`, formChatResponse)
	add(string(obj["type"]) == `"message"` && hasContent, `"type": "message" with "content"`, formAnthropicResponse)
	switch len(forms) {
	case 0:
		return formUnknown, nil
	case 1:
		return forms[0], nil
	}
	return formUnknown, errAt(at, "both %s and %s: which holds the conversation is ambiguous", strings.Join(keys[:len(keys)-1], ", "), keys[len(keys)-1])
}

// apiError reports an API error body ({"error": {"type", "message"}}, as
// OpenAI and Anthropic send them, or a failed Responses body).
func apiError(raw json.RawMessage, at *loc) error {
	var e struct {
		Type    string `json:"type"`
		Code    any    `json:"code"`
		Message string `json:"message"`
	}
	msg := strings.TrimSpace(string(raw))
	if firstByte(raw) == '"' {
		msg, _ = rawString(raw, at)
	} else if json.Unmarshal(raw, &e) == nil && e.Message != "" {
		msg = e.Message
		if e.Type != "" {
			msg = e.Type + ": " + msg
		}
	}
	return errAt(at, "the body reports an API error, not a transcript: %s", oneLineName(msg))
}

// isItemList tells an OpenAI Responses item list from a chat message list:
// chat and evalkit messages have no "type", Responses items do (all but
// the easy input message {role, content}).
func isItemList(elems []json.RawMessage) bool {
	for _, e := range elems {
		if firstByte(e) != '{' {
			continue
		}
		var probe struct {
			Type json.RawMessage `json:"type"`
		}
		if json.Unmarshal(e, &probe) == nil && len(probe.Type) > 0 && !isNull(probe.Type) {
			return true
		}
	}
	return false
}

// decodeItems reads an OpenAI Responses item list into messages. The
// assistant-side items of one model turn (reasoning, an assistant message,
// function calls) become one assistant message: reasoning joins the
// message or calls after it, function calls join the message before them.
// A function_call_output becomes a tool message answering its call_id. In
// an output list (output is true) every item is the model's.
func decodeItems(elems []json.RawMessage, at *loc, output bool) ([]Message, error) {
	var msgs []Message
	cur := -1 // the assistant message items still join, or -1
	assistant := func(fresh bool) *Message {
		if cur < 0 || fresh {
			msgs = append(msgs, Message{Role: RoleAssistant})
			cur = len(msgs) - 1
		}
		return &msgs[cur]
	}
	for i, raw := range elems {
		iAt := at.elem(i)
		if firstByte(raw) != '{' {
			return nil, errAt(iAt, "want an item object, got %s", rawKind(raw))
		}
		var probe struct {
			Type json.RawMessage `json:"type"`
			Role json.RawMessage `json:"role"`
		}
		if err := json.Unmarshal(raw, &probe); err != nil {
			return nil, errAt(iAt, "invalid item: %s", jsonMsg(err))
		}
		typ, err := rawString(probe.Type, iAt.field("type"))
		if err != nil {
			return nil, err
		}
		if typ == "" && len(probe.Role) > 0 {
			typ = "message" // the easy input message {role, content}
		}
		switch typ {
		case "message":
			ms, err := decodeMessage(raw, iAt, 0)
			if err != nil {
				return nil, err
			}
			for _, m := range ms {
				if output && m.Role != RoleAssistant {
					return nil, errAt(iAt.field("role"), "an output item is the model's: want role assistant, got %q", m.Role)
				}
				if m.Role != RoleAssistant {
					msgs, cur = append(msgs, m), -1
					continue
				}
				if cur >= 0 && !spoke(msgs[cur]) && len(msgs[cur].ToolCalls) == 0 {
					// The message after its reasoning.
					m.Reasoning = append(msgs[cur].Reasoning, m.Reasoning...)
					msgs[cur] = m
					continue
				}
				msgs = append(msgs, m)
				cur = len(msgs) - 1
			}
		case "function_call":
			call, err := decodeFunctionCallItem(raw, iAt)
			if err != nil {
				return nil, err
			}
			a := assistant(false)
			a.ToolCalls = append(a.ToolCalls, call)
		case "function_call_output":
			if output {
				return nil, errAt(iAt.field("type"), "a function_call_output is input sent to the model, not its output")
			}
			m, err := decodeFunctionCallOutput(raw, iAt)
			if err != nil {
				return nil, err
			}
			msgs, cur = append(msgs, m), -1
		case "reasoning":
			r, err := decodeReasoningItem(raw, iAt)
			if err != nil {
				return nil, err
			}
			fresh := cur >= 0 && (spoke(msgs[cur]) || len(msgs[cur].ToolCalls) > 0)
			a := assistant(fresh)
			a.Reasoning = append(a.Reasoning, r)
		case "item_reference":
			return nil, errAt(iAt.field("type"), "an item_reference points at an item OpenAI stored, which evalkit cannot see: decode the items themselves")
		case "":
			return nil, errAt(iAt.field("type"), "an item needs a type (or a role, for a message)")
		default:
			if holdsToolCall(typ) {
				return nil, errAt(iAt.field("type"), "%q items are not supported: the tool call or result they hold would be lost", typ)
			}
			return nil, errAt(iAt.field("type"), "unknown item type %q: want message, function_call, function_call_output or reasoning", typ)
		}
	}
	return msgs, nil
}

// spoke tells an assistant message that has text or media.
func spoke(m Message) bool { return m.Content != "" || len(m.Parts) > 0 }

// decodeFunctionCallItem reads {type: function_call, call_id, name,
// arguments}. Its call_id, not its item id, is what the output names.
func decodeFunctionCallItem(raw json.RawMessage, at *loc) (ToolCall, error) {
	var w struct {
		CallID    json.RawMessage `json:"call_id"`
		Name      json.RawMessage `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	}
	var c ToolCall
	if err := json.Unmarshal(raw, &w); err != nil {
		return c, errAt(at, "invalid function_call: %s", jsonMsg(err))
	}
	var err error
	if c.ID, err = rawString(w.CallID, at.field("call_id")); err != nil {
		return c, err
	}
	if c.ID == "" {
		return c, errAt(at.field("call_id"), "a function_call needs a call_id: its function_call_output names it")
	}
	if c.Name, err = rawString(w.Name, at.field("name")); err != nil {
		return c, err
	}
	if c.Name == "" {
		return c, errAt(at.field("name"), "a tool call needs a name")
	}
	if c.Args, err = decodeArgs(w.Arguments, at.field("arguments")); err != nil {
		return c, err
	}
	return c, nil
}

// decodeFunctionCallOutput reads {type: function_call_output, call_id,
// output} into a tool message; output is a string or a list of input_text,
// input_image and input_file parts.
func decodeFunctionCallOutput(raw json.RawMessage, at *loc) (Message, error) {
	var w struct {
		CallID json.RawMessage `json:"call_id"`
		Output json.RawMessage `json:"output"`
	}
	m := Message{Role: RoleTool}
	if err := json.Unmarshal(raw, &w); err != nil {
		return m, errAt(at, "invalid function_call_output: %s", jsonMsg(err))
	}
	var err error
	if m.ToolCallID, err = rawString(w.CallID, at.field("call_id")); err != nil {
		return m, err
	}
	if m.ToolCallID == "" {
		return m, errAt(at.field("call_id"), "a function_call_output needs the call_id of the call it answers")
	}
	if len(w.Output) == 0 {
		return m, errAt(at.field("output"), "missing output: want a string or a list of parts")
	}
	c, err := decodeContent(w.Output, at.field("output"), RoleTool)
	if err != nil {
		return m, err
	}
	m.Content, m.Parts = c.text, c.parts
	return m, nil
}

// decodeReasoningItem reads {type: reasoning, summary: [{type:
// summary_text, text}], content: [{type: reasoning_text, text}],
// encrypted_content}: the reasoning text when the item holds it, else its
// summary; withheld (Redacted) when it holds neither.
func decodeReasoningItem(raw json.RawMessage, at *loc) (Reasoning, error) {
	var w struct {
		Summary json.RawMessage `json:"summary"`
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(raw, &w); err != nil {
		return Reasoning{}, errAt(at, "invalid reasoning item: %s", jsonMsg(err))
	}
	texts := func(raw json.RawMessage, key string) ([]string, error) {
		if len(raw) == 0 || isNull(raw) {
			return nil, nil
		}
		elems, err := rawArray(raw, at.field(key))
		if err != nil {
			return nil, err
		}
		var out []string
		for i, e := range elems {
			obj, err := rawObject(e, at.field(key).elem(i), "a text part {type, text}")
			if err != nil {
				return nil, err
			}
			s, err := rawString(obj["text"], at.field(key).elem(i).field("text"))
			if err != nil {
				return nil, err
			}
			if s != "" {
				out = append(out, s)
			}
		}
		return out, nil
	}
	full, err := texts(w.Content, "content")
	if err != nil {
		return Reasoning{}, err
	}
	summary, err := texts(w.Summary, "summary")
	if err != nil {
		return Reasoning{}, err
	}
	if len(full) == 0 {
		full = summary
	}
	r := Reasoning{Text: strings.Join(full, "\n")}
	r.Redacted = r.Text == ""
	return r, nil
}

// decodeResponses reads an OpenAI Responses request body ({"instructions",
// "input", "tools"}), a response body ({"output", "usage", "status"}), or
// both in one object. Instructions become a system message first; an input
// string is one user message. The response's usage and finish reason go on
// its last assistant message.
func decodeResponses(obj map[string]json.RawMessage, at *loc) (*Transcript, error) {
	tr := &Transcript{}
	for _, key := range []string{"instructions", "input"} {
		raw, ok := obj[key]
		if !ok || isNull(raw) {
			continue
		}
		kAt := at.field(key)
		switch firstByte(raw) {
		case '"':
			s, err := rawString(raw, kAt)
			if err != nil {
				return nil, err
			}
			role := RoleUser
			if key == "instructions" {
				role = RoleSystem
			}
			tr.Messages = append(tr.Messages, Message{Role: role, Content: s})
		case '[':
			elems, err := rawArray(raw, kAt)
			if err != nil {
				return nil, err
			}
			msgs, err := decodeItems(elems, kAt, false)
			if err != nil {
				return nil, err
			}
			tr.Messages = append(tr.Messages, msgs...)
		default:
			return nil, errAt(kAt, "want a string or a list of items, got %s", rawKind(raw))
		}
	}
	if raw, ok := obj["output"]; ok {
		elems, err := rawArray(raw, at.field("output"))
		if err != nil {
			return nil, err
		}
		if len(elems) == 0 {
			return nil, errAt(at.field("output"), "empty: the response holds nothing from the model")
		}
		msgs, err := decodeItems(elems, at.field("output"), true)
		if err != nil {
			return nil, err
		}
		last := &msgs[len(msgs)-1]
		if last.Usage, err = apiUsage(obj["usage"], at.field("usage"), usageResponses); err != nil {
			return nil, err
		}
		if last.FinishReason, err = responsesFinish(obj, at, *last); err != nil {
			return nil, err
		}
		tr.Messages = append(tr.Messages, msgs...)
	}
	if raw, ok := obj["tools"]; ok && !isNull(raw) {
		var err error
		if tr.Tools, err = decodeTools(raw, at.field("tools")); err != nil {
			return nil, err
		}
	}
	return tr, nil
}

// responsesFinish maps a Responses body's status onto FinishReason's
// vocabulary: completed is "tool_calls" or "stop", incomplete for
// max_output_tokens is "length"; a response that has not finished is an
// error. No status gives no finish reason.
func responsesFinish(obj map[string]json.RawMessage, at *loc, last Message) (string, error) {
	status, err := rawString(obj["status"], at.field("status"))
	if err != nil {
		return "", err
	}
	switch status {
	case "":
		return "", nil
	case "completed":
		if len(last.ToolCalls) > 0 {
			return "tool_calls", nil
		}
		return "stop", nil
	case "incomplete":
		var details struct {
			Reason string `json:"reason"`
		}
		if raw := obj["incomplete_details"]; len(raw) > 0 && !isNull(raw) {
			if err := json.Unmarshal(raw, &details); err != nil {
				return "", errAt(at.field("incomplete_details"), "want {reason}: %s", jsonMsg(err))
			}
		}
		switch details.Reason {
		case "max_output_tokens":
			return "length", nil
		case "":
			return "incomplete", nil
		}
		return details.Reason, nil
	}
	return "", errAt(at.field("status"), "status %q: the response has not finished; decode a completed or incomplete one", status)
}

// decodeChatResponse reads an OpenAI Chat Completions response body: its
// one choice's message, with the choice's finish_reason and the body's
// usage.
func decodeChatResponse(obj map[string]json.RawMessage, at *loc) (*Transcript, error) {
	cAt := at.field("choices")
	choices, err := rawArray(obj["choices"], cAt)
	if err != nil {
		return nil, err
	}
	switch len(choices) {
	case 0:
		return nil, errAt(cAt, "no choices: the response holds no answer")
	case 1:
	default:
		return nil, errAt(cAt, "%d choices: which one is the transcript is ambiguous; decode each choice's message on its own", len(choices))
	}
	cAt = cAt.elem(0)
	choice, err := rawObject(choices[0], cAt, "a choice {message, finish_reason}")
	if err != nil {
		return nil, err
	}
	msgRaw, ok := choice["message"]
	if !ok || isNull(msgRaw) {
		if _, chunk := choice["delta"]; chunk {
			return nil, errAt(cAt.field("delta"), "a streaming chunk, not a message: decode the assembled response")
		}
		return nil, errAt(cAt.field("message"), "missing message")
	}
	ms, err := decodeMessage(msgRaw, cAt.field("message"), 0)
	if err != nil {
		return nil, err
	}
	m := &ms[0]
	if m.Role != RoleAssistant {
		return nil, errAt(cAt.field("message").field("role"), "a response's message is the model's: want role assistant, got %q", m.Role)
	}
	finish, err := rawString(choice["finish_reason"], cAt.field("finish_reason"))
	if err != nil {
		return nil, err
	}
	if finish != "" {
		m.FinishReason = finish
	}
	if m.Usage, err = apiUsage(obj["usage"], at.field("usage"), usageChat); err != nil {
		return nil, err
	}
	return &Transcript{Messages: ms}, nil
}

// decodeAnthropicResponse reads an Anthropic Messages response body: one
// assistant message whose content blocks are text, tool_use, thinking and
// redacted_thinking, with its stop_reason and usage.
func decodeAnthropicResponse(raw json.RawMessage, obj map[string]json.RawMessage, at *loc) (*Transcript, error) {
	role, err := rawString(obj["role"], at.field("role"))
	if err != nil {
		return nil, err
	}
	if role != "assistant" {
		return nil, errAt(at.field("role"), "an object with \"type\": \"message\" is read as an Anthropic Messages response, which is the model's: want role assistant, got %q (a lone message goes in a list)", role)
	}
	ms, err := decodeMessage(raw, at, providerUsage)
	if err != nil {
		return nil, err
	}
	m := &ms[0]
	if m.Usage, err = apiUsage(obj["usage"], at.field("usage"), usageAnthropic); err != nil {
		return nil, err
	}
	stop, err := rawString(obj["stop_reason"], at.field("stop_reason"))
	if err != nil {
		return nil, err
	}
	m.FinishReason = anthropicFinish(stop)
	return &Transcript{Messages: ms}, nil
}

// anthropicFinish maps Anthropic's stop_reason onto FinishReason's
// vocabulary; reasons without a counterpart (pause_turn, refusal) are kept.
func anthropicFinish(stop string) string {
	switch stop {
	case "end_turn", "stop_sequence":
		return "stop"
	case "max_tokens", "model_context_window_exceeded":
		return "length"
	case "tool_use":
		return "tool_calls"
	}
	return stop
}

type usageDialect int

const (
	usageChat usageDialect = iota
	usageResponses
	usageAnthropic
)

// usageReader reads token counts from a usage object, keeping the first
// error.
type usageReader struct {
	obj map[string]json.RawMessage
	at  *loc
	err error
}

func (r *usageReader) count(key string) int {
	n, err := decodeCount(r.obj[key], r.at.field(key), "tokens")
	if r.err == nil {
		r.err = err
	}
	return n
}

// detail reads a count inside a details object ("prompt_tokens_details").
func (r *usageReader) detail(parent, key string) int {
	raw := r.obj[parent]
	if len(raw) == 0 || isNull(raw) || r.err != nil {
		return 0
	}
	sub, err := rawObject(raw, r.at.field(parent), "an object")
	if err != nil {
		r.err = err
		return 0
	}
	n, err := decodeCount(sub[key], r.at.field(parent).field(key), "tokens")
	r.err = err
	return n
}

// apiUsage reads a provider's usage object into a Usage: Chat Completions'
// prompt_tokens, completion_tokens and prompt_tokens_details.cached_tokens;
// Responses' input_tokens, output_tokens and
// input_tokens_details.cached_tokens; Anthropic's input_tokens,
// output_tokens, cache_creation_input_tokens and cache_read_input_tokens
// (Anthropic's input_tokens leaves the cached tokens out; InputTokens
// counts them). Absent or null is nil.
func apiUsage(raw json.RawMessage, at *loc, d usageDialect) (*Usage, error) {
	if len(raw) == 0 || isNull(raw) {
		return nil, nil
	}
	obj, err := rawObject(raw, at, "a usage object")
	if err != nil {
		return nil, err
	}
	r := usageReader{obj: obj, at: at}
	var u Usage
	switch d {
	case usageChat:
		u = Usage{InputTokens: r.count("prompt_tokens"), OutputTokens: r.count("completion_tokens"),
			CachedInputTokens: r.detail("prompt_tokens_details", "cached_tokens")}
	case usageResponses:
		u = Usage{InputTokens: r.count("input_tokens"), OutputTokens: r.count("output_tokens"),
			CachedInputTokens: r.detail("input_tokens_details", "cached_tokens")}
	case usageAnthropic:
		// Summed in int64: three counts below 2³¹ may pass it together.
		read := r.count("cache_read_input_tokens")
		in := int64(r.count("input_tokens")) + int64(r.count("cache_creation_input_tokens")) + int64(read)
		if in > maxTokens {
			return nil, errAt(at, "%d input tokens: more than one response can hold", in)
		}
		u = Usage{InputTokens: int(in), OutputTokens: r.count("output_tokens"), CachedInputTokens: read}
	}
	if r.err != nil {
		return nil, r.err
	}
	if u.CachedInputTokens > u.InputTokens {
		return nil, errAt(at, "%d cached input tokens but %d input tokens: cached tokens are part of the input", u.CachedInputTokens, u.InputTokens)
	}
	return &u, nil
}
