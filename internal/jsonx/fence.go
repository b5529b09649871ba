package jsonx

import (
	"strings"
)

// fence is one markdown code fence found in model output.
type fence struct {
	start, end int    // the whole fence, fence markers included
	body       string // the text between the opening and closing markers
	bodyStart  int    // offset of body in the text
	tag        string // the first word of the info string, as written ("json", "ts", "")
	marker     byte   // '`' or '~'
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

// fences finds the code fences of text in one pass, at most maxFences of
// them (more reports false). A fence opens with a run of three or more
// backticks or tildes (CommonMark's two kinds) and closes with a run of the
// same character at least as long. It is more forgiving than CommonMark, as
// model output needs: a backtick fence may open mid-line, a closing run may
// end a line that has other text ("}```"), and a fence may sit on one line
// ("```json {"ok": true}```"). A tilde fence opens only at the start of a
// line (after indentation), since "~~~" mid-line is prose. A run closes a
// fence when only spaces follow it on its line, so backticks inside a JSON
// string ("Use ```go") do not. A fence left open runs to the end of the
// text.
func fences(text string) (fs []fence, ok bool) {
	var out []fence
	pos := 0
	for {
		open, n := nextOpener(text, pos)
		if open < 0 {
			return out, true
		}
		if len(out) == maxFences {
			return out, false
		}
		f := fence{start: open, marker: text[open]}
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
		if rest != "" && (rest[0] == '{' || rest[0] == '[' || rest[0] == '"' || closerOnLine(text[i:lineEnd], f.marker, n) >= 0) {
			f.bodyStart = i
		}
		bodyEnd, closeEnd := findCloser(text, f.bodyStart, f.marker, n)
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

// nextOpener returns the offset and length of the first run at or after pos
// that can open a fence: three or more backticks anywhere, or three or more
// tildes at the start of a line (after spaces or tabs); -1 when there is
// none. Each byte is read once.
func nextOpener(text string, pos int) (at, n int) {
	for pos < len(text) {
		k := strings.IndexAny(text[pos:], "`~")
		if k < 0 {
			return -1, 0
		}
		start := pos + k
		m := runLen(text, start, text[start])
		if m >= 3 && (text[start] == '`' || atLineStart(text, start)) {
			return start, m
		}
		pos = start + m
	}
	return -1, 0
}

// atLineStart reports whether only spaces and tabs precede text[i] on its line.
func atLineStart(text string, i int) bool {
	for i--; i >= 0 && text[i] != '\n'; i-- {
		if text[i] != ' ' && text[i] != '\t' {
			return false
		}
	}
	return true
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
