package jsonx

import (
	"strings"
)

// fence is one markdown code fence found in model output.
type fence struct {
	start, end int    // the whole fence, backticks included
	body       string // the text between the opening and closing backticks
	bodyStart  int    // offset of body in the text
	tag        string // the first word of the info string, as written ("json", "ts", "")
	closed     bool
}

// kind classifies a fence by its tag.
func (f fence) kind() fenceKind {
	switch strings.ToLower(f.tag) {
	case "":
		return untagged
	case "json", "jsonc", "json5":
		return jsonTagged
	}
	return otherTagged
}

type fenceKind int

const (
	untagged fenceKind = iota
	jsonTagged
	otherTagged
)

// maxFences bounds the fences fences reads: model output holds a handful,
// and a text of millions ("```\n```\n…") must not cost their memory.
const maxFences = 1000

// fences finds the backtick code fences of text in one pass, at most
// maxFences of them (more reports false). It is more
// forgiving than CommonMark, as model output needs: an opening fence may
// start mid-line, a closing fence may end a line that has other text
// ("}```"), and a fence may sit on one line ("```json {"ok": true}```"). A
// run of backticks closes a fence when it is at least as long as the opening
// run and only spaces follow it on its line; so backticks inside a JSON string
// ("Use ```go") do not. A fence left open runs to the end of the text.
func fences(text string) (fs []fence, ok bool) {
	var out []fence
	pos := 0
	for {
		at := strings.Index(text[pos:], "```")
		if at < 0 {
			return out, true
		}
		if len(out) == maxFences {
			return out, false
		}
		open := pos + at
		n := runLen(text, open)
		f := fence{start: open}
		// The info string runs to the end of the line; its first word is the tag.
		i := open + n
		for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
			i++
		}
		tagStart := i
		for i < len(text) && isTagByte(text[i]) {
			i++
		}
		f.tag = text[tagStart:i]
		lineEnd := strings.IndexByte(text[i:], '\n')
		if lineEnd < 0 {
			lineEnd = len(text)
		} else {
			lineEnd += i
		}
		// The body starts on the next line, unless the rest of the opening
		// line holds the closing run (a one-line fence) or starts a JSON
		// value ("```json {").
		f.bodyStart = min(lineEnd+1, len(text))
		rest := strings.TrimLeft(text[i:lineEnd], " \t")
		if rest != "" && (rest[0] == '{' || rest[0] == '[' || rest[0] == '"' || closerOnLine(text[i:lineEnd], n) >= 0) {
			f.bodyStart = i
		}
		bodyEnd, closeEnd := findCloser(text, f.bodyStart, n)
		f.closed = closeEnd >= 0
		if !f.closed {
			bodyEnd, closeEnd = len(text), len(text)
		}
		f.body = text[f.bodyStart:bodyEnd]
		f.end = closeEnd
		out = append(out, f)
		if closeEnd >= len(text) {
			return out, true
		}
		pos = closeEnd
	}
}

// findCloser returns the offsets of the first closing run of at least n
// backticks at or after from (the start of the run and the end of it), or
// -1, -1.
func findCloser(text string, from, n int) (runStart, runEnd int) {
	pos := from
	for pos < len(text) {
		at := strings.Index(text[pos:], "```")
		if at < 0 {
			return -1, -1
		}
		start := pos + at
		m := runLen(text, start)
		end := start + m
		if m >= n && onlySpacesToEOL(text, end) {
			return start, end
		}
		pos = end
	}
	return -1, -1
}

// closerOnLine is findCloser within one line.
func closerOnLine(line string, n int) int {
	start, _ := findCloser(line, 0, n)
	return start
}

func runLen(text string, i int) int {
	j := i
	for j < len(text) && text[j] == '`' {
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
