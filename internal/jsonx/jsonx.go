// Package jsonx finds the JSON value in model output: the whole text, a
// markdown code fence, or an object or array embedded in prose.
//
//	found, err := jsonx.Extract("Answer:\n```json\n{\"ok\": true}\n```", jsonx.Wrapped)
//	// found.JSON is {"ok": true}; found.From is "the ```json fence at line 2"
//
// Extraction is linear in the text for ordinary input and bounded for hostile
// input: it gives up, with an error saying so, after 1000 code fences, or
// when the prose scan has read about eight times the text's length (at least
// 64 MiB) from candidate starts. Giving up never finds JSON: it fails closed.
//
// Extract returns the JSON's text; callers decode it as they need (with
// json.Decoder.UseNumber where exact numbers matter, as JSON Schema
// validation does).
//
// Fences is the module's one reading of code fences, and Objects lists
// every JSON object outside code; a caller that needs both, and Extract,
// reads the fences once and passes them on (ExtractFenced).
package jsonx

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/evalkit-go/evalkit/internal/textnorm"
)

// Mode says where Extract looks for JSON.
type Mode int

const (
	// Strict requires the whole text, trimmed of white space, to be one JSON
	// value of any kind (scalars included). The trim is Unicode's white
	// space (unicode.IsSpace: JSON's space, tab, CR and LF, and also NBSP,
	// NEL, U+2028, U+3000, ...), applied the same way in every mode, to the
	// text and to fence bodies; inside the value only JSON's four are
	// allowed, as encoding/json requires. A byte order mark or a zero-width
	// space is not white space: text starting with one is not JSON.
	Strict Mode = iota
	// Wrapped also accepts JSON in a markdown code fence, ``` or ~~~
	// (PromptKit's allow_wrapped): the first fence tagged json (or jsonc,
	// json5; any case) is the answer, and when it does not parse Extract
	// fails with its reason rather than read another fence; with no json
	// fence, the first untagged fence whose body is a JSON object or array.
	// A fence tagged with another language (```ts, ```python) is never read
	// as JSON. Text that is JSON as a whole is accepted as in Strict.
	Wrapped
	// Prose does what Wrapped does and, failing that, takes the first JSON
	// object or array embedded in the text (PromptKit's extract_json). Bare
	// scalars in prose ("42", "true") are not taken as JSON; neither is
	// anything inside a fence tagged with another language.
	Prose
)

// String returns "strict", "wrapped" or "prose".
func (m Mode) String() string {
	switch m {
	case Strict:
		return "strict"
	case Wrapped:
		return "wrapped"
	case Prose:
		return "prose"
	}
	return fmt.Sprintf("Mode(%d)", int(m))
}

// Found is a JSON value Extract found.
type Found struct {
	// JSON is the value's text, exactly as it appears in the output.
	JSON json.RawMessage
	// From says where it was, for messages: "the whole text", "the ```json
	// fence at line 4", "the untagged fence at line 2", "the text at line 3,
	// column 10".
	From string
}

// Error is why Extract found no JSON. Its message says what was looked at
// and, for JSON that does not parse, encoding/json's reason with a line and
// column ("unexpected end of input (cut off?)" for truncated JSON).
type Error struct {
	// Msg is the whole message.
	Msg string
	// CutOff reports that the best candidate ended before its value did:
	// the output was likely truncated.
	CutOff bool
	// GaveUp reports that extraction hit a work limit (the prose scan's
	// budget, or more than 1000 code fences) and stopped: the text may
	// hold JSON further on, but it is not taken.
	GaveUp bool

	candidate bool // the prose scan found a '{' or '[' that did not parse
}

func (e *Error) Error() string { return e.Msg }

// Extract returns the JSON value text holds in mode. The error is always an
// *Error.
func Extract(text string, mode Mode) (Found, error) {
	return extract(text, mode, func() ([]Fence, error) { return Fences(text) })
}

// ExtractFenced is Extract for a caller that has read text's fences with
// Fences already: fs must be what Fences(text) returned.
func ExtractFenced(text string, fs []Fence, mode Mode) (Found, error) {
	return extract(text, mode, func() ([]Fence, error) { return fs, nil })
}

func extract(text string, mode Mode, readFences func() ([]Fence, error)) (Found, error) {
	trimmed := strings.TrimSpace(text)
	if trimmed == "" {
		return Found{}, &Error{Msg: "the output is empty"}
	}
	whole := parseErr(text, 0, len(text))
	if whole == nil {
		return Found{JSON: json.RawMessage(trimmed), From: "the whole text"}, nil
	}
	if mode == Strict {
		return Found{}, whole
	}

	fs, err := readFences()
	if err != nil {
		return Found{}, &Error{GaveUp: true, Msg: fmt.Sprintf("no JSON found: gave up after %d code fences", maxFences)}
	}
	var firstUntagged *Fence
	var others []string
	for i := range fs {
		f := &fs[i]
		switch f.Kind() {
		case JSONTagged:
			// The first json fence is the answer. When it does not parse,
			// the output's declared JSON is broken: a later json fence, an
			// untagged fence or prose is not a stand-in for it.
			if bodyIsJSON(f.body(text), true) {
				return f.found(text), nil
			}
			return Found{}, f.parseErr(text)
		case Untagged:
			if firstUntagged == nil {
				firstUntagged = f
			}
		case OtherTagged:
			others = append(others, f.Tag)
		}
	}
	for i := range fs {
		if f := &fs[i]; f.Kind() == Untagged && bodyIsJSON(f.body(text), false) {
			return f.found(text), nil
		}
	}
	var prose *Error
	if mode == Prose {
		found, err := scanProse(text, fs)
		if err == nil {
			return found, nil
		}
		if err.GaveUp {
			return Found{}, err
		}
		prose = err
	}

	// Nothing found: say what was looked at.
	var why []string
	cutOff := false
	if len(fs) == 0 && (prose == nil || !prose.candidate) {
		why = append(why, "the text is not JSON ("+whole.Msg+")")
		cutOff = whole.CutOff
	}
	if firstUntagged != nil {
		why = append(why, firstUntagged.parseErr(text).Msg)
	}
	switch {
	case len(others) == 1 && len(fs) == 1:
		why = append(why, "the only fence is tagged "+textnorm.Excerpt(others[0], maxTag))
	case len(others) > 0:
		why = append(why, "the fences tagged "+tagList(others)+" are not JSON")
	case len(fs) == 0 && mode == Wrapped:
		why = append(why, "there is no code fence")
	}
	if prose != nil {
		why = append(why, prose.Msg)
		cutOff = cutOff || prose.CutOff
	}
	return Found{}, &Error{Msg: "no JSON found: " + strings.Join(why, "; "), CutOff: cutOff}
}

// parseErr returns nil when text[start:end], trimmed, is one JSON value, or
// encoding/json's reason with its position in text.
func parseErr(text string, start, end int) *Error {
	part := text[start:end]
	body := strings.TrimSpace(part)
	ok, at := isValue(body)
	if ok {
		return nil
	}
	// encoding/json finds the same error reading only up to it: no need to
	// copy a 20 MB text to learn that its first byte is wrong.
	var raw json.RawMessage
	err := json.Unmarshal([]byte(body[:min(at+1, len(body))]), &raw)
	return syntaxError(text, start+len(part)-len(strings.TrimLeftFunc(part, unicode.IsSpace)), err)
}

// isValue reports whether s is exactly one JSON value (no surrounding
// space), as json.Valid does but without copying s; when it is not, at is
// the offset of the first byte that cannot continue it (len(s) when s ends
// first).
func isValue(s string) (ok bool, at int) {
	if s == "" {
		return false, 0
	}
	if isSpace(s[0]) {
		return false, 0 // a value begins at s[0]; callers trim first
	}
	end, ok := scanValue(s, 0)
	if !ok {
		return false, end
	}
	if end != len(s) {
		return false, skipSpace(s, end) // text after the value
	}
	return true, len(s)
}

// syntaxError renders encoding/json's error for JSON starting at offset in
// text, with the position in text.
func syntaxError(text string, offset int, err error) *Error {
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		msg := "not valid JSON"
		if err != nil {
			msg = err.Error()
		}
		return &Error{Msg: msg}
	}
	at := offset + int(se.Offset)
	msg := se.Error()
	cut := false
	if strings.HasPrefix(msg, "unexpected end of JSON input") {
		msg, cut = "unexpected end of input (cut off?)", true
		at = len(strings.TrimRight(text[:min(at, len(text))], " \t\r\n"))
	} else if at > 0 {
		at-- // encoding/json's offset is past the offending byte
		// encoding/json quotes the byte, which for a letter of more than
		// one byte is another letter ('Ä' for the 0xC4 that starts 'İ'):
		// quote the character the text has there.
		if r, n := utf8.DecodeRuneInString(text[at:]); n > 1 && r != utf8.RuneError {
			if i := strings.Index(msg, "invalid character '"); i >= 0 {
				if j := strings.Index(msg[i+len("invalid character '"):], "'"); j >= 0 {
					msg = msg[:i] + "invalid character " + strconv.QuoteRune(r) + msg[i+len("invalid character '")+j+1:]
				}
			}
		}
	}
	return &Error{Msg: msg + " at " + Position(text, at), CutOff: cut}
}

// Position renders a byte offset of text as "line L, column C", counting
// columns in characters from 1.
func Position(text string, offset int) string {
	offset = min(max(offset, 0), len(text))
	before := text[:offset]
	line := strings.Count(before, "\n") + 1
	col := utf8.RuneCountInString(before[strings.LastIndexByte(before, '\n')+1:]) + 1
	return fmt.Sprintf("line %d, column %d", line, col)
}

// bodyIsJSON reports whether a fence body is one JSON value; anyValue
// accepts scalars, otherwise only an object or array counts.
func bodyIsJSON(body string, anyValue bool) bool {
	b := strings.TrimSpace(body)
	if b == "" || (!anyValue && b[0] != '{' && b[0] != '[') {
		return false
	}
	ok, _ := isValue(b)
	return ok
}

// maxTag bounds a fence tag quoted in a message, in bytes.
const maxTag = 40

func (f *Fence) found(text string) Found {
	return Found{JSON: json.RawMessage(strings.TrimSpace(f.body(text))), From: f.Name(text)}
}

// parseErr says why the fence's body is not JSON.
func (f *Fence) parseErr(text string) *Error {
	name := f.Name(text)
	b := strings.TrimSpace(f.body(text))
	if b == "" {
		return &Error{Msg: name + " is empty"}
	}
	if f.Kind() == Untagged && b[0] != '{' && b[0] != '[' {
		return &Error{Msg: name + " does not hold a JSON object or array"}
	}
	e := parseErr(text, f.BodyStart, f.BodyEnd)
	if e == nil { // unreachable: the caller found the body invalid
		return &Error{Msg: name + " is not valid JSON"}
	}
	e.Msg = name + " is not valid JSON: " + e.Msg
	if !f.Closed {
		e.Msg += " (the fence is never closed)"
	}
	return e
}

// tagList lists distinct fence tags, each bounded, at most maxTags of them.
func tagList(tags []string) string {
	seen := map[string]bool{}
	var out []string
	for _, t := range tags {
		if seen[t] {
			continue
		}
		seen[t] = true
		if len(out) == maxTags {
			out = append(out, "…")
			break
		}
		out = append(out, textnorm.Excerpt(t, maxTag))
	}
	return strings.Join(out, ", ")
}

const maxTags = 10
