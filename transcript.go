package evalkit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/evalkit-go/evalkit/internal/jsonx"
)

// Role is who produced a message: the system prompt, the user, the assistant
// (the model or agent under test), or a tool answering a call.
type Role string

// The roles a transcript holds. Decoders map OpenAI's "developer" role to
// RoleSystem and the legacy "function" role to RoleTool.
const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
)

// Transcript is one conversation between a user, an assistant and its tools:
// the single source of truth every check reads. Views such as ToolCalls,
// LastAssistant and Turns are computed from Messages on each call and never
// stored beside them, so editing Messages can never leave a stale copy behind.
type Transcript struct {
	// Messages in the order they were exchanged.
	Messages []Message `json:"messages"`
	// Tools are the tool definitions offered to the model, when known.
	Tools []ToolSpec `json:"tools,omitempty"`
	// Agents are the agents the assistant may hand a task to by calling
	// them as tools (see Handoffs); empty when the run has no sub-agents.
	Agents []AgentSpec `json:"agents,omitempty"`
	// Workflow is the run's state machine, when the agent runs in one: its
	// initial state, the transitions it took, and whether it finished. Each
	// message's Message.State says which state produced it.
	Workflow *Workflow `json:"workflow,omitempty"`
	// Composition is the run's pipeline of steps, when the agent is a
	// composition of steps, branches and parallel groups.
	Composition *Composition `json:"composition,omitempty"`
	// PriorResults are the results of evaluations that already ran on this
	// run before the checks do (a runtime's own evals, say), in the order
	// they ran. Guardrail firings are on the messages they judged
	// (Message.Guardrails), not here.
	PriorResults []PriorResult `json:"prior_results,omitempty"`
	// Metadata holds facts about the run that are not messages: for a τ-bench
	// record the task id, trial and reward; for a user's own runs anything
	// they want reported. Values are JSON-shaped (string, float64, bool,
	// nil, []any, map[string]any).
	Metadata map[string]any `json:"metadata,omitempty"`
}

// Message is one message of a transcript.
type Message struct {
	Role Role `json:"role"`
	// Content is the message's text. When the source gave an array of content
	// parts, the text parts are joined with "\n" here and the other parts
	// (images, audio, files) are kept in Parts. An OpenAI Chat Completions
	// message's refusal and the transcript of its audio answer
	// (audio.transcript) are model output too: they follow the text here,
	// each after a "\n", so every text check and AssistantText see them
	// (the audio itself, when its data is given, is an audio part). It
	// never holds the model's reasoning: that is in Reasoning.
	Content string `json:"content,omitempty"`
	// Parts holds the non-text content parts, in order.
	Parts []Part `json:"parts,omitempty"`
	// Reasoning holds what the model thought before it answered, on an
	// assistant message: Anthropic's thinking and redacted_thinking blocks,
	// OpenAI Responses' reasoning items. It is kept for checks that look at
	// it and is never the message's output: Content, AssistantText and
	// RenderTranscript leave it out.
	Reasoning []Reasoning `json:"reasoning,omitempty"`
	// Name is the tool's name on a tool message, or the participant's name
	// when the source gave one.
	Name string `json:"name,omitempty"`
	// ToolCalls are the calls an assistant message made, as the model wrote
	// them. Their Result field is always nil here: use Transcript.ToolCalls
	// or Turn.ToolCalls to get each call linked to its result.
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	// ToolCallID is, on a tool message, the id of the call it answers
	// (empty when the source did not give ids).
	ToolCallID string `json:"tool_call_id,omitempty"`
	// IsError marks a tool message that reports a failed call, when the
	// source format says so: evalkit JSON's is_error (also read on chat
	// messages), τ-bench records' "Error: " results. OpenAI Chat Completions
	// has no such flag.
	IsError bool `json:"is_error,omitempty"`
	// FinishReason is why the model stopped producing this message, when
	// known ("stop", "length", "tool_calls", ...). "length" means the text or
	// the tool-call arguments were cut off by the token limit.
	FinishReason string `json:"finish_reason,omitempty"`
	// Usage is the token usage and cost of producing this message, when known.
	Usage *Usage `json:"usage,omitempty"`
	// LatencyMS is how long the message took, in milliseconds, when known:
	// on an assistant message the model's time to produce it, on a tool
	// message the tool's time to run. Zero means unknown.
	LatencyMS float64 `json:"latency_ms,omitempty"`
	// State is the workflow state the message was produced in (see
	// Transcript.Workflow), when the run has a workflow; empty otherwise.
	State string `json:"state,omitempty"`
	// Guardrails are the guardrails that judged this message, in the order
	// they ran: input guardrails on the user message they screened, output
	// guardrails on the assistant message. Transcript.Guardrails lists them
	// all with their message's index.
	Guardrails []GuardrailResult `json:"guardrails,omitempty"`
}

// Reasoning is one block of a model's reasoning: an Anthropic thinking or
// redacted_thinking block, or an OpenAI Responses reasoning item (its
// reasoning texts, or else its summary texts, joined with "\n").
type Reasoning struct {
	// Text is the reasoning as the provider returned it; empty when it was
	// redacted or encrypted.
	Text string `json:"text,omitempty"`
	// Redacted marks reasoning whose text the provider withheld:
	// Anthropic's redacted_thinking (encrypted), or a Responses reasoning
	// item with neither text nor summary.
	Redacted bool `json:"redacted,omitempty"`
}

// Part is a non-text content part of a message or tool result: an image, an
// audio clip, a video, a file, or a part type evalkit does not know (kept
// with its type only). Decode requires one of Data, URL and FileID to
// locate the media of an image, audio, video or file part.
type Part struct {
	// Type is "image", "audio", "video", "file" (a document such as a PDF;
	// PromptKit calls it "document"), or the source's own type name.
	Type string `json:"type"`
	// MIMEType is the media type when known, such as "image/png". A data:
	// URL's media type lands here.
	MIMEType string `json:"mime_type,omitempty"`
	// URL is where the media lives (http, https or another scheme the
	// source used). A data: URL is decoded into Data and MIMEType instead.
	URL string `json:"url,omitempty"`
	// FileID is the provider's id of an uploaded file (OpenAI's file_id,
	// Anthropic's file source), when the media was sent by reference.
	FileID string `json:"file_id,omitempty"`
	// Name is the file name the source gave, such as "invoice.pdf".
	Name string `json:"name,omitempty"`
	// Data is the media's bytes when they were inlined; in JSON a base64
	// string (standard alphabet, padded), as encoding/json writes []byte.
	Data []byte `json:"data,omitempty"`
	// Width and Height are an image's or video's dimensions in pixels, as
	// the source reported them; zero when unknown. They are not read from
	// Data: the media checks do that.
	Width  int `json:"width,omitempty"`
	Height int `json:"height,omitempty"`
	// DurationMS is an audio or video clip's length in milliseconds, as
	// the source reported it; zero when unknown.
	DurationMS float64 `json:"duration_ms,omitempty"`
}

// Usage is the token usage and cost of one model response.
type Usage struct {
	// InputTokens counts every token the model read, cached or not
	// (Anthropic's input_tokens plus its cache creation and cache read
	// tokens; OpenAI's prompt_tokens or input_tokens).
	InputTokens int `json:"input_tokens,omitempty"`
	// OutputTokens counts the tokens the model wrote, reasoning included.
	OutputTokens int `json:"output_tokens,omitempty"`
	// CachedInputTokens is the part of InputTokens read from the
	// provider's prompt cache (OpenAI's cached_tokens, Anthropic's
	// cache_read_input_tokens).
	CachedInputTokens int `json:"cached_input_tokens,omitempty"`
	// CostUSD is the price of the response in US dollars. The API bodies
	// do not carry it: it is known when the run recorded it.
	CostUSD float64 `json:"cost_usd,omitempty"`
}

// TotalTokens is InputTokens plus OutputTokens.
func (u Usage) TotalTokens() int { return u.InputTokens + u.OutputTokens }

// add sums two usages.
func (u Usage) add(v Usage) Usage {
	return Usage{
		InputTokens:       u.InputTokens + v.InputTokens,
		OutputTokens:      u.OutputTokens + v.OutputTokens,
		CachedInputTokens: u.CachedInputTokens + v.CachedInputTokens,
		CostUSD:           u.CostUSD + v.CostUSD,
	}
}

// ToolSpec is a tool offered to the model.
type ToolSpec struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	// Parameters is the tool's JSON Schema for its arguments, as given.
	Parameters json.RawMessage `json:"parameters,omitempty"`
}

// ToolCall is one call the assistant made to a tool.
type ToolCall struct {
	// ID is the call id the model gave (may be empty, and real runs reuse ids).
	ID   string `json:"id,omitempty"`
	Name string `json:"name"`
	// Args holds the arguments as the model wrote them: the bytes of a JSON
	// object, or whatever text the model produced when it is not valid JSON
	// (a call cut off by the token limit, say). Nil when the model sent no
	// arguments ("", null or nothing). Use Arguments to decode them.
	Args json.RawMessage `json:"args,omitempty"`
	// Result is the tool's answer to this call, or nil when none arrived.
	// It is set only on calls returned by Transcript.ToolCalls and
	// Turn.ToolCalls.
	Result *ToolResult `json:"-"`
	// MessageIndex is the index in Transcript.Messages of the assistant
	// message that made the call (its State, LatencyMS and Usage are the
	// call's). Like Result, it is set only on calls returned by the views;
	// a stored call's is 0.
	MessageIndex int `json:"-"`
}

// ToolResult is a tool's answer to a call.
type ToolResult struct {
	CallID string
	// Name is the tool's name; when the tool message lacked one, the name of
	// the call it answers.
	Name string
	// Content is the tool message's text, as the model saw it.
	Content string
	// Parts is the media the tool returned, such as a screenshot: the tool
	// message's Parts, shared with it, not copied.
	Parts   []Part
	IsError bool
	// MessageIndex is the index in Transcript.Messages of the tool message.
	MessageIndex int
}

// Arguments decodes the call's arguments as a JSON object. No arguments
// ("", null or absent) decode to an empty map. It returns an error when the
// arguments are not valid JSON (for example cut off by the token limit), are
// valid JSON but not an object, or give a key twice in an object with
// different values (encoding/json would keep the last, the tool may have
// used the first). Numbers decode as float64.
func (c ToolCall) Arguments() (map[string]any, error) {
	if len(bytes.TrimSpace(c.Args)) == 0 {
		return map[string]any{}, nil
	}
	var v any
	if err := json.Unmarshal(c.Args, &v); err != nil {
		return nil, fmt.Errorf("arguments of %s are not valid JSON: %w", c.Name, jsonErrorText(err))
	}
	if err := jsonx.Conflicts(c.Args); err != nil {
		return nil, fmt.Errorf("arguments of %s: %w", c.Name, err)
	}
	switch v := v.(type) {
	case map[string]any:
		return v, nil
	case nil:
		return map[string]any{}, nil
	default:
		return nil, fmt.Errorf("arguments of %s are valid JSON but not an object (%s)", c.Name, jsonKind(v))
	}
}

// MarshalJSON writes the call in evalkit's JSON form. Arguments that are not
// valid JSON are written as a JSON string, so the call round-trips through
// Decode unchanged instead of failing to encode.
func (c ToolCall) MarshalJSON() ([]byte, error) {
	type wire struct {
		ID   string          `json:"id,omitempty"`
		Name string          `json:"name"`
		Args json.RawMessage `json:"args,omitempty"`
	}
	w := wire{ID: c.ID, Name: c.Name}
	if len(bytes.TrimSpace(c.Args)) > 0 {
		if json.Valid(c.Args) {
			w.Args = c.Args
		} else {
			quoted, err := json.Marshal(string(c.Args))
			if err != nil {
				return nil, err
			}
			w.Args = quoted
		}
	}
	return json.Marshal(w)
}

// ToolCalls returns every tool call of the transcript in order, each linked to
// its result. A tool message answers the most recent call with its id that has
// no result yet (real runs reuse ids, so "the last call with this id" would
// hand one call another's result); when ids are empty, results answer calls in
// order. A result whose tool message lacks a name takes the call's name.
func (t *Transcript) ToolCalls() []ToolCall {
	if t == nil {
		return nil
	}
	calls, _ := linkToolCalls(t.Messages, 0)
	return calls
}

// OrphanResults returns the tool messages that answer no call, in order: a
// result before any call, one whose id no unanswered call carries, a second
// answer to a call. They are signs of a cut or garbled transcript, and a
// check that judges tool results must not ignore them (an orphan error is
// still an error). Name is the tool message's own, possibly empty.
func (t *Transcript) OrphanResults() []ToolResult {
	if t == nil {
		return nil
	}
	_, orphans := linkToolCalls(t.Messages, 0)
	return orphans
}

// LastAssistant returns the last message with RoleAssistant, and false when
// there is none.
func (t *Transcript) LastAssistant() (Message, bool) {
	if t == nil {
		return Message{}, false
	}
	for i := len(t.Messages) - 1; i >= 0; i-- {
		if t.Messages[i].Role == RoleAssistant {
			return t.Messages[i], true
		}
	}
	return Message{}, false
}

// AssistantText returns the text of every assistant message, in order, joined
// with "\n"; messages without text (tool-call-only turns) are skipped.
func (t *Transcript) AssistantText() string {
	if t == nil {
		return ""
	}
	var b strings.Builder
	for _, m := range t.Messages {
		if m.Role != RoleAssistant || m.Content == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(m.Content)
	}
	return b.String()
}

// Turn is one exchange of a transcript: a user message and every message that
// follows it up to the next user message. Messages is a sub-slice of the
// transcript's Messages, not a copy.
type Turn struct {
	// Index is the turn's position in Transcript.Turns.
	Index int
	// Start is the index in Transcript.Messages of the turn's first message.
	Start    int
	Messages []Message
}

// ToolCalls returns the turn's tool calls, each linked to its result within
// the turn, by the same rules as Transcript.ToolCalls.
func (u Turn) ToolCalls() []ToolCall {
	calls, _ := linkToolCalls(u.Messages, u.Start)
	return calls
}

// OrphanResults returns the turn's tool messages that answer no call of the
// turn, by the same rules as Transcript.OrphanResults.
func (u Turn) OrphanResults() []ToolResult {
	_, orphans := linkToolCalls(u.Messages, u.Start)
	return orphans
}

// Usage sums the usage of the turn's messages, by the rules of
// Transcript.Usage.
func (u Turn) Usage() (Usage, bool) { return sumUsage(u.Messages) }

// LatencyMS sums the latency of the turn's messages in milliseconds, by the
// rules of Transcript.LatencyMS.
func (u Turn) LatencyMS() (float64, bool) { return sumLatency(u.Messages) }

// Turns splits the transcript at each user message. Messages before the first
// user message (a system prompt, an opening greeting) form a turn of their
// own without a user message.
func (t *Transcript) Turns() []Turn {
	if t == nil || len(t.Messages) == 0 {
		return nil
	}
	var turns []Turn
	start := 0
	for i, m := range t.Messages {
		if m.Role == RoleUser && i > start {
			turns = append(turns, Turn{Index: len(turns), Start: start, Messages: t.Messages[start:i]})
			start = i
		}
	}
	return append(turns, Turn{Index: len(turns), Start: start, Messages: t.Messages[start:]})
}

// LastTurn returns the turn holding the last assistant message, and false when
// the transcript has no assistant message. A trailing user message (a
// simulated user's goodbye, say) does not make an empty last turn.
func (t *Transcript) LastTurn() (Turn, bool) {
	turns := t.Turns()
	for i := len(turns) - 1; i >= 0; i-- {
		for _, m := range turns[i].Messages {
			if m.Role == RoleAssistant {
				return turns[i], true
			}
		}
	}
	return Turn{}, false
}

// Usage sums the token usage and cost of every message that reports one
// (Message.Usage). It returns false when none does: a budget check must then
// report that it cannot tell, not pass on a total of zero. Messages without
// usage add nothing, so with partial reporting the total is a lower bound.
func (t *Transcript) Usage() (Usage, bool) {
	if t == nil {
		return Usage{}, false
	}
	return sumUsage(t.Messages)
}

// LatencyMS sums Message.LatencyMS over the transcript, in milliseconds:
// the model's time on assistant messages plus the tools' time on tool
// messages. It returns false when no message reports a latency; messages
// without one add nothing.
func (t *Transcript) LatencyMS() (float64, bool) {
	if t == nil {
		return 0, false
	}
	return sumLatency(t.Messages)
}

func sumUsage(msgs []Message) (total Usage, ok bool) {
	for _, m := range msgs {
		if m.Usage != nil {
			total, ok = total.add(*m.Usage), true
		}
	}
	return total, ok
}

func sumLatency(msgs []Message) (total float64, ok bool) {
	for _, m := range msgs {
		if m.LatencyMS > 0 {
			total, ok = total+m.LatencyMS, true
		}
	}
	return total, ok
}

// linkToolCalls pairs tool messages with the calls they answer, in one pass:
// a tool message answers the most recent unanswered call with its id; one
// without an id (or with an id no call carries, when some calls came without
// ids) answers the earliest unanswered call, pairing by order. offset is the
// index in the transcript of msgs[0], for MessageIndex.
//
// The work is linear in the calls and messages. Each id's unanswered calls
// are kept oldest first, and a call only ever leaves them from one end: an
// answer by id takes the most recent (the last), and an answer by order
// takes the earliest unanswered call of all, which is the oldest of its
// id's (the first), as is the earliest unanswered call without an id.
func linkToolCalls(msgs []Message, offset int) (calls []ToolCall, orphans []ToolResult) {
	return linkCalls(msgs, offset, smallLink)
}

// smallLink is the number of calls up to which linkCalls finds the
// unanswered calls with an id by looking back through the calls (those
// without a Result), which is what its map holds and costs less than
// building it; past it, the map keeps the work linear.
const smallLink = 32

// linkCalls is linkToolCalls, using the map past small calls.
func linkCalls(msgs []Message, offset, small int) (calls []ToolCall, orphans []ToolResult) {
	n, answers := 0, 0
	for k := range msgs {
		switch msgs[k].Role {
		case RoleAssistant:
			n += len(msgs[k].ToolCalls)
		case RoleTool:
			answers++
		}
	}
	if n == 0 && answers == 0 {
		return nil, nil
	}
	calls = make([]ToolCall, 0, n)
	// The results live in one array, made once: at most one per tool
	// message, so appending never moves the ones calls point to.
	results := make([]ToolResult, 0, min(answers, n))
	var open map[string][]int // id -> unanswered calls with that id, oldest first
	if n > small {
		open = make(map[string][]int, min(n, 64))
	}
	byOrder := 0 // every call before this index has a result
	for k := range msgs {
		m := &msgs[k]
		switch m.Role {
		case RoleAssistant:
			for _, c := range m.ToolCalls {
				c.Result = nil // stored calls never carry one, but a user's might
				c.MessageIndex = offset + k
				if open != nil {
					open[c.ID] = append(open[c.ID], len(calls))
				}
				calls = append(calls, c)
			}
		case RoleTool:
			id := m.ToolCallID
			var i int
			if open != nil {
				i = openCall(open, calls, id, &byOrder)
			} else {
				i = unansweredCall(calls, id, &byOrder)
			}
			res := ToolResult{CallID: m.ToolCallID, Name: m.Name, Content: m.Content, Parts: m.Parts, IsError: m.IsError, MessageIndex: offset + k}
			if i < 0 {
				orphans = append(orphans, res)
				continue
			}
			if res.Name == "" {
				res.Name = calls[i].Name
			}
			results = append(results, res)
			calls[i].Result = &results[len(results)-1]
		}
	}
	if len(calls) == 0 {
		calls = nil
	}
	return calls, orphans
}

// openCall finds, and takes from open, the call a tool message with id
// answers, or returns -1.
func openCall(open map[string][]int, calls []ToolCall, id string, byOrder *int) int {
	i := -1
	switch stack := open[id]; {
	case id != "" && len(stack) > 0: // the most recent call with its id
		i = stack[len(stack)-1]
		open[id] = stack[:len(stack)-1]
	case id == "": // the earliest unanswered call
		for *byOrder < len(calls) && calls[*byOrder].Result != nil {
			*byOrder++
		}
		if *byOrder < len(calls) {
			i = *byOrder
			open[calls[i].ID] = open[calls[i].ID][1:]
		}
	case len(open[""]) > 0: // an unknown id: the earliest call without one
		i = open[""][0]
		open[""] = open[""][1:]
	}
	return i
}

// unansweredCall is openCall without the map: the calls without a Result
// are the unanswered ones.
func unansweredCall(calls []ToolCall, id string, byOrder *int) int {
	if id == "" { // the earliest unanswered call
		for *byOrder < len(calls) && calls[*byOrder].Result != nil {
			*byOrder++
		}
		if *byOrder < len(calls) {
			return *byOrder
		}
		return -1
	}
	for j := len(calls) - 1; j >= 0; j-- { // the most recent call with its id
		if calls[j].Result == nil && calls[j].ID == id {
			return j
		}
	}
	for j := *byOrder; j < len(calls); j++ { // an unknown id: the earliest call without one
		if calls[j].Result == nil && calls[j].ID == "" {
			return j
		}
	}
	return -1
}

func jsonKind(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case float64, json.Number:
		return "a number"
	case bool:
		return "a boolean"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	case nil:
		return "null"
	}
	return fmt.Sprintf("%T", v)
}

// jsonErrorText turns encoding/json's terse "unexpected end of JSON input"
// into words a test reader recognizes, keeping other errors as they are.
func jsonErrorText(err error) error {
	if err != nil && strings.HasSuffix(err.Error(), "unexpected end of JSON input") {
		return fmt.Errorf("unexpected end of input (cut off?)")
	}
	return err
}
