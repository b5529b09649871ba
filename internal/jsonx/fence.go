package jsonx

import (
	"fmt"
	"strings"

	"github.com/evalkit-go/evalkit/internal/textnorm"
)

// Fence is one markdown code fence in model output, as Fences reads it.
// Offsets are bytes of the text Fences read.
type Fence struct {
	// text[Start:End] is the fence: from its opening run of backticks or
	// tildes to the end of its closing run, or to the end of the text when
	// it is never closed. Only spaces and tabs follow End on its line.
	Start, End int
	// text[BodyStart:BodyEnd] is the body, between the markers.
	BodyStart, BodyEnd int
	// Tag is the first word of the info string, as written ("json", "ts",
	// ""): letters, digits and _-+#. (so "c++", "objective-c").
	Tag string
	// Marker is '`' or '~'.
	Marker byte
	// Closed reports a closing run; a fence never closed runs to the end.
	Closed bool
	// MidLine reports a backtick fence opened after other text on its
	// line ("Here it is: ```python"), which Markdown would not render as a
	// fence.
	MidLine bool
}

// FenceKind classifies a fence by its tag.
type FenceKind int

const (
	// Untagged is a fence with no tag: it may hold JSON.
	Untagged FenceKind = iota
	// JSONTagged is a fence tagged json, jsonc or json5 (any case).
	JSONTagged
	// OtherTagged is a fence tagged with another language: its body is
	// that language's code, never JSON.
	OtherTagged
)

// Kind classifies the fence by its tag.
func (f Fence) Kind() FenceKind {
	switch strings.ToLower(f.Tag) {
	case "":
		return Untagged
	case "json", "jsonc", "json5":
		return JSONTagged
	}
	return OtherTagged
}

// Name names the fence for messages: "the ```json fence at line 4", "the
// untagged fence at line 2". text is the text Fences read.
func (f Fence) Name(text string) string {
	line := strings.Count(text[:f.Start], "\n") + 1
	if f.Tag == "" {
		return fmt.Sprintf("the untagged fence at line %d", line)
	}
	return fmt.Sprintf("the %s%s fence at line %d", strings.Repeat(string(f.Marker), 3), textnorm.Excerpt(f.Tag, maxTag), line)
}

func (f Fence) body(text string) string { return text[f.BodyStart:f.BodyEnd] }

// maxFences bounds the fences Fences reads: model output holds a handful,
// and a text of millions ("```\n```\n…") must not cost their memory.
const maxFences = 1000

// Fences finds the code fences of text, left to right, in one pass. It is
// the one reading of fences in this module: Extract, Objects and the
// verdict parser all use it, so they agree on what is code.
//
// The model is CommonMark's, loosened where model output needs it:
//
//   - A fence opens with a run of three or more backticks or tildes at the
//     start of a line, after any spaces or tabs (CommonMark allows three
//     spaces; fences nested in list items are indented further, and a line
//     reader does not track lists). The rest of the line is the info
//     string; its first word is the tag.
//   - A backtick opener's info string holds no backtick, as in CommonMark
//     ("```foo``` bar" is inline code, not a fence), except a closing run
//     that ends the line: then the fence is on one line
//     ("```json {"ok": true}```"), its body between the runs.
//   - A backtick fence may also open after other text on its line, when
//     its run is the line's only run of three or more backticks and only
//     a tag may follow it: "Here it is: ```python". Such a fence is
//     MidLine: Markdown renders it as text, but models write it as a fence.
//     A tilde run after text is prose, as are "Use ```json``` here" (inline
//     code) and "Use ``` to open a fence" (more than a tag follows).
//   - The body starts on the line after the opening one, or on the opening
//     line when the info string starts a JSON value after the tag
//     ("```json {" ...) or the fence is on one line.
//   - A fence closes with the first run of the same character, at least
//     as long as the opening one, that only spaces or tabs follow on its
//     line: a line of its own, as in CommonMark, or the end of a line of
//     other text ("}```", an inline close, which CommonMark would not
//     close on). A run inside a JSON string ("Use ```go") is followed by
//     more text, so it closes nothing. A fence never closed runs to the end
//     of the text.
//
// So a fence always covers whole lines, except for the text before a
// MidLine opener on its line. More than maxFences fences is an error, an
// *Error with GaveUp.
func Fences(text string) ([]Fence, error) {
	var out []Fence
	for pos := 0; pos < len(text); {
		k := strings.IndexAny(text[pos:], "`~")
		if k < 0 {
			break
		}
		at := pos + k
		ls := pos + strings.LastIndexByte(text[pos:at], '\n') + 1 // pos is always a line start
		le := lineEnd(text, at)
		f, ok := opener(text, ls, le)
		if !ok {
			pos = le + 1
			continue
		}
		if len(out) == maxFences {
			return out, &Error{GaveUp: true, Msg: fmt.Sprintf("the text holds more than %d code fences", maxFences)}
		}
		runEnd := f.Start + runLen(text, f.Start, f.Marker)
		n := runEnd - f.Start
		bodyEnd, closeEnd := findCloser(text, f.BodyStart, f.Marker, n)
		if f.Closed = closeEnd >= 0; !f.Closed {
			bodyEnd, closeEnd = len(text), len(text)
		}
		f.BodyEnd, f.End = bodyEnd, closeEnd
		out = append(out, f)
		pos = lineEnd(text, closeEnd) + 1
	}
	return out, nil
}

// opener reads the line text[ls:le] as a fence's opening line. It sets
// every field but BodyEnd, End and Closed.
func opener(text string, ls, le int) (Fence, bool) {
	i := ls
	for i < le && (text[i] == ' ' || text[i] == '\t') {
		i++
	}
	if i < le && (text[i] == '`' || text[i] == '~') {
		marker := text[i]
		n := runLen(text, i, marker)
		if n >= 3 {
			info := text[i+n : le]
			oneLine := closerOnLine(info, marker, n) >= 0
			if marker == '~' || !strings.Contains(info, "`") || oneLine {
				f := Fence{Start: i, Marker: marker}
				j := skipBlanks(text, i+n, le)
				tagEnd := j
				for tagEnd < le && isTagByte(text[tagEnd]) {
					tagEnd++
				}
				f.Tag = text[j:tagEnd]
				f.BodyStart = min(le+1, len(text))
				rest := skipBlanks(text, tagEnd, le)
				if oneLine || (rest < le && (text[rest] == '{' || text[rest] == '[' || text[rest] == '"')) {
					f.BodyStart = tagEnd
				}
				return f, true
			}
		}
	}
	// A mid-line opener: the line's only run of three or more backticks,
	// followed by at most a tag.
	start, count := -1, 0
	for j := ls; j < le; {
		k := strings.IndexByte(text[j:le], '`')
		if k < 0 {
			break
		}
		at := j + k
		n := runLen(text, at, '`')
		if n >= 3 {
			start, count = at, count+1
		}
		j = at + n
	}
	if count != 1 {
		return Fence{}, false
	}
	j := start + runLen(text, start, '`')
	tagEnd := j
	for tagEnd < le && isTagByte(text[tagEnd]) {
		tagEnd++
	}
	if skipBlanks(text, tagEnd, le) != le {
		return Fence{}, false
	}
	return Fence{Start: start, Marker: '`', Tag: text[j:tagEnd], BodyStart: min(le+1, len(text)), MidLine: true}, true
}

// lineEnd returns the offset of the '\n' ending the line that holds
// text[i], or len(text).
func lineEnd(text string, i int) int {
	if k := strings.IndexByte(text[i:], '\n'); k >= 0 {
		return i + k
	}
	return len(text)
}

// skipBlanks skips spaces, tabs and a carriage return from i, up to end.
func skipBlanks(text string, i, end int) int {
	for i < end && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r') {
		i++
	}
	return i
}

// findCloser returns the offsets of the first closing run of at least n
// marker bytes at or after from (the start of the run and the end of it),
// or -1, -1.
func findCloser(text string, from int, marker byte, n int) (runStart, runEnd int) {
	run := strings.Repeat(string(marker), 3)
	pos := from
	for pos < len(text) {
		at := strings.Index(text[pos:], run)
		if at < 0 {
			return -1, -1
		}
		start := pos + at
		m := runLen(text, start, marker)
		end := start + m
		if m >= n && onlySpacesToEOL(text, end) {
			return start, end
		}
		pos = end
	}
	return -1, -1
}

// closerOnLine is findCloser within one line.
func closerOnLine(line string, marker byte, n int) int {
	start, _ := findCloser(line, 0, marker, n)
	return start
}

func runLen(text string, i int, marker byte) int {
	j := i
	for j < len(text) && text[j] == marker {
		j++
	}
	return j - i
}

func onlySpacesToEOL(text string, i int) bool {
	for ; i < len(text); i++ {
		switch text[i] {
		case ' ', '\t', '\r':
		case '\n':
			return true
		default:
			return false
		}
	}
	return true
}

// isTagByte reports whether c can be part of a fence's language tag
// ("json", "c++", "objective-c", "jsonc", "f#").
func isTagByte(c byte) bool {
	return ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9') ||
		c == '_' || c == '-' || c == '+' || c == '#' || c == '.'
}
