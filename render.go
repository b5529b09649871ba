package evalkit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// RenderOptions selects what RenderTranscript shows and bounds its length.
// The zero value renders the whole transcript with the default bounds.
type RenderOptions struct {
	// ToolCallsOnly renders only the tool calls and their results, without
	// the messages' text (PromptKit's llm_judge_tool_calls).
	ToolCallsOnly bool
	// Tools, when not empty, keeps only the calls to these tools (and their
	// results); other messages are unaffected.
	Tools []string
	// MaxContent bounds each message text, each call's arguments and each
	// tool result, in bytes; longer ones keep their start and end around a
	// "[… N bytes cut …]" marker. Zero or less means 4000.
	MaxContent int
	// MaxTotal bounds the whole rendering to about that many bytes: when
	// it is longer, whole entries are cut from the middle (the first third
	// of the budget keeps the start, the rest the end, where the outcome
	// is) and a "[… N entries cut, M bytes …]" line marks the gap. Zero or
	// less means 64000.
	MaxTotal int
}

// Default bounds of RenderTranscript, in bytes.
const (
	defaultMaxContent = 4000
	defaultMaxTotal   = 64000
)

// RenderTranscript renders tr as plain text for a judge to read: each
// message with its role, each tool call with its name and arguments, and the
// call's result under it, in the order they happened. The rendering is a
// pure function of tr and opts (no ids, no times, no map order), so a
// recording keyed on it stays valid. The format below is stable: a change
// to it changes every recorded judge request's key, so it is made only on
// purpose, in a release that says so. (Changed twice so far. First, to
// close forgeries: arguments that are not JSON were written as is with
// their lines indented like a result line, roles kept their line breaks,
// and only CR and LF were line breaks. Second, to show what the extended
// transcript model adds: a tool result's media, a part's file name,
// dimensions and duration, the model's reasoning as a placeholder, and
// guardrails that triggered. Transcripts without such arguments, roles,
// characters or fields render as before.)
//
// The format, one entry per message or tool call:
//
//		system: You are a refund agent.
//		user: Refund order #W123
//		assistant: Let me look that order up.
//		  [thinking not shown]
//		tool call 1: get_order_details({"order_id":"#W123"})
//		  result: {"total": 42}
//		tool call 2: issue_refund({"order_id":"#W124","amount":42})
//		  result (error): Error: order not found
//		tool call 3: get_receipt({"order_id":"#W123"})
//		  result:
//		    [image "receipt.png" (image/png, 800x600 px) not shown]
//		assistant: I could not refund it.
//		  Please check the order number.
//		  [guardrail pii_leakage triggered (output): card number]
//
//	  - A message is "role: text"; a participant's name follows the role in
//	    parentheses ("user (alice): ..."). Lines after the first are indented
//	    by two spaces (four under a result), so no text can pass for an entry
//	    of its own. CRLF reads as LF, and so do the other line breaks a
//	    reader may honour (a lone CR, VT, FF, NEL, U+2028, U+2029); trailing
//	    line breaks are dropped. Roles, names, tool names, media types, file
//	    names, guardrail types and reasons are kept on their line: their
//	    line breaks read as spaces.
//	  - An empty message reads "(empty)". Media parts read "[image
//	    (image/png) not shown]", on lines of their own, with the file name
//	    (Go-quoted), dimensions ("640x480 px") and duration ("1500 ms") when
//	    known. The model's reasoning (Message.Reasoning) is never shown: a
//	    message that has some reads "[thinking not shown]", once. A guardrail
//	    that triggered on the message reads "[guardrail <type> triggered
//	    (<direction>): <reason>]"; one that did not trigger is not shown. An
//	    answer cut off by the token limit (finish reason "length") is marked
//	    "[cut off by the token limit]".
//	  - Tool calls follow the text of the assistant message that made them,
//	    numbered by their position among all the transcript's calls (so a
//	    filtered rendering shows gaps). Arguments are compact JSON (U+2028
//	    and U+2029 escaped), or, when they are not JSON (cut off, say), the
//	    text as written as one Go-quoted string, so that no line of it can
//	    pass for the call's result; no arguments read "()". Under each
//	    call, its result, marked "(error)" when the tool failed, with the
//	    media it returned on lines of their own; "(no result)" when none
//	    arrived. Call ids are not shown: they carry no meaning for a judge
//	    and differ between runs. Nor are latency, usage and cost, workflow
//	    states, or prior results: they differ between runs or are not the
//	    conversation.
//	  - Tool messages that answer no call (see Transcript.OrphanResults) come
//	    last, as "tool result answering no call (name): text".
//	  - With ToolCallsOnly, only the "tool call" entries and the orphan
//	    results are rendered, and "(no tool calls)" when there are none.
//	  - A transcript without messages, or nil, renders "(no messages)".
func RenderTranscript(tr *Transcript, opts RenderOptions) string {
	maxContent, maxTotal := opts.MaxContent, opts.MaxTotal
	if maxContent <= 0 {
		maxContent = defaultMaxContent
	}
	if maxTotal <= 0 {
		maxTotal = defaultMaxTotal
	}
	r := renderer{maxContent: maxContent, tools: opts.Tools}
	if tr == nil || len(tr.Messages) == 0 {
		return "(no messages)"
	}
	calls, orphans := linkToolCalls(tr.Messages, 0)
	next := 0 // the index in calls of the next message's first call
	for _, m := range tr.Messages {
		if m.Role == RoleTool {
			continue // rendered under the call it answers, or as an orphan
		}
		if !opts.ToolCallsOnly {
			r.message(m)
		}
		if m.Role == RoleAssistant {
			for i := range m.ToolCalls {
				r.call(next+i+1, calls[next+i])
			}
			next += len(m.ToolCalls)
		}
	}
	for _, o := range orphans {
		r.orphan(o)
	}
	if len(r.entries) == 0 {
		return "(no tool calls)"
	}
	return bound(r.entries, maxTotal)
}

type renderer struct {
	maxContent int
	tools      []string
	entries    []string
}

func (r *renderer) message(m Message) {
	var b strings.Builder
	text := r.text(m.Content)
	head := oneLineName(string(m.Role))
	if head == "" {
		head = "(no role)"
	}
	if m.Name != "" {
		head += " (" + oneLineName(m.Name) + ")"
	}
	var notes []string
	for _, p := range m.Parts {
		notes = append(notes, partLabel(p))
	}
	if len(m.Reasoning) > 0 {
		notes = append(notes, "[thinking not shown]")
	}
	for _, g := range m.Guardrails {
		if g.Triggered {
			notes = append(notes, guardrailLabel(g))
		}
	}
	switch {
	case text != "":
		b.WriteString(head + ": " + indent(text, "  "))
	case len(notes) > 0:
		b.WriteString(head + ":")
	case m.Role == RoleAssistant && len(m.ToolCalls) > 0:
		// An assistant message that only called tools: its calls speak.
	default:
		b.WriteString(head + ": (empty)")
	}
	for _, n := range notes {
		b.WriteString("\n  " + n)
	}
	if m.FinishReason == "length" {
		if b.Len() == 0 {
			b.WriteString(head + ":")
		}
		b.WriteString("\n  [cut off by the token limit]")
	}
	if b.Len() > 0 {
		r.entries = append(r.entries, b.String())
	}
}

func (r *renderer) call(n int, c ToolCall) {
	if len(r.tools) > 0 && !slices.Contains(r.tools, c.Name) {
		return
	}
	name := c.Name
	if name == "" {
		name = "(unnamed)"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "tool call %d: %s(%s)", n, oneLineName(name), r.args(c.Args))
	switch res := c.Result; {
	case res == nil:
		b.WriteString("\n  (no result)")
	default:
		b.WriteString("\n  result")
		if res.IsError {
			b.WriteString(" (error)")
		}
		b.WriteString(":")
		content := r.text(res.Content)
		if content == "" && len(res.Parts) == 0 {
			content = "(empty)"
		}
		if content != "" {
			b.WriteString(" " + indent(content, "    "))
		}
		for _, p := range res.Parts {
			b.WriteString("\n    " + partLabel(p))
		}
	}
	r.entries = append(r.entries, b.String())
}

func (r *renderer) orphan(o ToolResult) {
	if len(r.tools) > 0 && !slices.Contains(r.tools, o.Name) {
		return
	}
	what := o.Name
	if what == "" {
		what = "unnamed"
	}
	if o.IsError {
		what += ", error"
	}
	content := r.text(o.Content)
	if content == "" && len(o.Parts) == 0 {
		content = "(empty)"
	}
	entry := "tool result answering no call (" + oneLineName(what) + "):"
	if content != "" {
		entry += " " + indent(content, "  ")
	}
	for _, p := range o.Parts {
		entry += "\n  " + partLabel(p)
	}
	r.entries = append(r.entries, entry)
}

// partLabel is a media part's placeholder: its type, file name, media type,
// dimensions and duration, never its bytes or URL.
func partLabel(p Part) string {
	what := p.Type
	if what == "" {
		what = "part"
	}
	if p.Name != "" {
		what += " " + strconv.Quote(p.Name)
	}
	var details []string
	if p.MIMEType != "" {
		details = append(details, p.MIMEType)
	}
	if p.Width > 0 && p.Height > 0 {
		details = append(details, strconv.Itoa(p.Width)+"x"+strconv.Itoa(p.Height)+" px")
	}
	if p.DurationMS > 0 {
		details = append(details, strconv.FormatFloat(p.DurationMS, 'f', -1, 64)+" ms")
	}
	if len(details) > 0 {
		what += " (" + strings.Join(details, ", ") + ")"
	}
	return "[" + oneLineName(what) + " not shown]"
}

// guardrailLabel is a triggered guardrail's line.
func guardrailLabel(g GuardrailResult) string {
	s := "guardrail " + g.Type + " triggered"
	if g.Direction != "" {
		s += " (" + g.Direction + ")"
	}
	if g.Reason != "" {
		s += ": " + g.Reason
	}
	return "[" + oneLineName(s) + "]"
}

// lineBreaks turns every line break a reader may honour into LF.
var lineBreaks = strings.NewReplacer("\r\n", "\n", "\r", "\n", "\v", "\n", "\f", "\n",
	"\u0085", "\n", "\u2028", "\n", "\u2029", "\n")

// text is a message text or tool result as rendered: its line breaks read
// as LF (see lineBreaks), trailing ones dropped, bounded.
func (r *renderer) text(s string) string {
	s = strings.TrimRight(lineBreaks.Replace(s), "\n")
	return cutMiddle(s, r.maxContent)
}

// jsonSeparators escapes the two characters JSON allows raw inside strings
// that a reader may take for line breaks.
var jsonSeparators = strings.NewReplacer("\u2028", `\u2028`, "\u2029", `\u2029`)

// args renders a call's arguments on one line: compact JSON, or the text as
// written, Go-quoted, when it is not JSON.
func (r *renderer) args(raw json.RawMessage) string {
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || string(trimmed) == "null" {
		return ""
	}
	var buf bytes.Buffer
	if json.Valid(trimmed) && json.Compact(&buf, trimmed) == nil {
		return cutMiddle(jsonSeparators.Replace(buf.String()), r.maxContent)
	}
	return strconv.Quote(cutMiddle(string(trimmed), r.maxContent))
}

// indent puts prefix before every line of s after the first.
func indent(s, prefix string) string {
	if !strings.Contains(s, "\n") {
		return s
	}
	return strings.ReplaceAll(s, "\n", "\n"+prefix)
}

// oneLineName keeps a name, role or media type on its line: line breaks
// read as spaces, so a name cannot forge an entry.
func oneLineName(s string) string {
	return cutMiddle(lineSpaces.Replace(s), 200)
}

// lineSpaces turns each line break lineBreaks knows into a space (CRLF
// into two, as ever).
var lineSpaces = strings.NewReplacer("\n", " ", "\r", " ", "\v", " ", "\f", " ",
	"\u0085", " ", "\u2028", " ", "\u2029", " ")

// cutMiddle bounds s to about max bytes, keeping its start and end on rune
// boundaries around a marker saying how much was cut.
func cutMiddle(s string, max int) string {
	if len(s) <= max {
		return s
	}
	head, tail := max/2, max-max/2
	for head > 0 && !utf8.RuneStart(s[head]) {
		head--
	}
	start := len(s) - tail
	for start < len(s) && !utf8.RuneStart(s[start]) {
		start++
	}
	return s[:head] + "[… " + strconv.Itoa(start-head) + " bytes cut …]" + s[start:]
}

// bound joins entries with line breaks, cutting whole entries from the
// middle when the result would pass max bytes: the first third of the
// budget keeps the first entries, the rest the last ones.
func bound(entries []string, max int) string {
	total := len(entries) - 1
	for _, e := range entries {
		total += len(e)
	}
	if total <= max {
		return strings.Join(entries, "\n")
	}
	const markerRoom = 64 // "[… N entries cut, M bytes …]" and its line breaks
	budget := max - markerRoom
	head, used := 0, 0
	for head < len(entries) && used+len(entries[head])+1 <= budget/3 {
		used += len(entries[head]) + 1
		head++
	}
	tail := len(entries)
	for tail > head && used+len(entries[tail-1])+1 <= budget {
		used += len(entries[tail-1]) + 1
		tail--
	}
	if head == 0 && tail == len(entries) {
		// Not even one entry fits whole: cut the text itself.
		return cutMiddle(strings.Join(entries, "\n"), max)
	}
	cut := 0
	for _, e := range entries[head:tail] {
		cut += len(e) + 1
	}
	kept := slices.Concat(entries[:head], []string{fmt.Sprintf("[… %d entries cut, %d bytes …]", tail-head, cut)}, entries[tail:])
	return strings.Join(kept, "\n")
}
