package verdicts

import (
	"strings"
	"unicode/utf8"
)

// Design: the Prometheus and inspect rules are regular expressions with
// (?i) and alternatives that give Go's regexp no literal prefix to skip
// to, so it ran its NFA over every byte of the answer (2 MB of "Result: A"
// lines took 2.7 s, and answers over 256 KiB were refused unread). The
// scanners below read the same matches in one pass each: they look only
// where a match can end (a line's end, the answer's end) or start (a
// "[", a "GRADE"), and check the few bytes around. The expressions stay
// in scan_test.go as the reference, and a differential test and a fuzz
// target hold the scanners to them.

// isSpace is regexp's \s: [\t\n\f\r ].
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// isWord is regexp's \w: [0-9A-Za-z_].
func isWord(c byte) bool { return isDigit(c) || isLetter(c) || c == '_' }

// foldEq reports whether r matches the ASCII byte c under (?i): the same
// letter in either case, and "ſ" (U+017F) for s and the Kelvin sign
// (U+212A) for k, the only non-ASCII runes that fold to ASCII letters.
func foldEq(r rune, c byte) bool {
	if r < utf8.RuneSelf {
		return lower(byte(r)) == lower(c)
	}
	switch r {
	case 'ſ':
		return lower(c) == 's'
	case '\u212A':
		return lower(c) == 'k'
	}
	return false
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// foldPrefix reports whether s starts with word under (?i), and how many
// bytes of s it spans.
func foldPrefix(s, word string) (int, bool) {
	n := 0
	for i := 0; i < len(word); i++ {
		if n >= len(s) {
			return 0, false
		}
		r, size := utf8.DecodeRuneInString(s[n:])
		if !foldEq(r, word[i]) {
			return 0, false
		}
		n += size
	}
	return n, true
}

// foldSuffix reports whether s ends with word under (?i), and how many
// bytes of s it spans.
func foldSuffix(s, word string) (int, bool) {
	n := 0
	for i := len(word) - 1; i >= 0; i-- {
		if n >= len(s) {
			return 0, false
		}
		r, size := utf8.DecodeLastRuneInString(s[:len(s)-n])
		if !foldEq(r, word[i]) {
			return 0, false
		}
		n += size
	}
	return n, true
}

// skipBack returns the index before which s[:i] ends in a run of bytes
// keep accepts: the run's start.
func skipBack(s string, i int, keep func(byte) bool) int {
	for i > 0 && keep(s[i-1]) {
		i--
	}
	return i
}

func skipFwd(s string, i int, keep func(byte) bool) int {
	for i < len(s) && keep(s[i]) {
		i++
	}
	return i
}

func isOpenOrSpace(c byte) bool { return c == '(' || c == '[' || isSpace(c) }

func isHSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' }

// promAbsEnd reads Prometheus' absolute result at the end of the answer:
// the digits of
//
//	(?i)(?:\[RESULT\]|\[SCORE\]|Score:?|Result:?|\[Result\]:?|score\s+of)\s*(?:[(\[]|\s)*(\d+)(?:(?:[)\]]|\s)|/\s*5|\s*out\s*of\s*5)?\s*$
//
// and whether it matched. The end is one of four shapes (nothing or a
// bracket after the digits, "/5", "out of 5"), and at most one of them
// has its marker before the digits.
func promAbsEnd(raw string) (string, bool) {
	t := skipBack(raw, len(raw), isSpace)
	if t == 0 {
		return "", false
	}
	var ends []int // where the digits may end
	switch c := raw[t-1]; {
	case isDigit(c):
		ends = append(ends, t)
	case c == ')' || c == ']':
		ends = append(ends, t-1)
	}
	if raw[t-1] == '5' {
		q := skipBack(raw, t-1, isSpace)
		if q > 0 && raw[q-1] == '/' {
			ends = append(ends, q-1)
		}
		if n, ok := foldSuffix(raw[:q], "of"); ok {
			q = skipBack(raw, q-n, isSpace)
			if n, ok := foldSuffix(raw[:q], "out"); ok {
				ends = append(ends, skipBack(raw, q-n, isSpace))
			}
		}
	}
	for _, de := range ends {
		ds := skipBack(raw, de, isDigit)
		if ds == de {
			continue
		}
		if promAbsMarker(raw[:skipBack(raw, ds, isOpenOrSpace)]) {
			return raw[ds:de], true
		}
	}
	return "", false
}

// promAbsMarker reports whether s ends with one of the absolute rule's
// markers.
func promAbsMarker(s string) bool {
	for _, m := range []string{"[RESULT]", "[SCORE]", "Score:", "Score", "Result:", "Result", "[Result]:"} {
		if _, ok := foldSuffix(s, m); ok {
			return true
		}
	}
	if n, ok := foldSuffix(s, "of"); ok {
		q := skipBack(s, len(s)-n, isSpace)
		if q < len(s)-n {
			_, ok := foldSuffix(s[:q], "score")
			return ok
		}
	}
	return false
}

// promAbsAll returns the digits of every match, in order, of
//
//	(?i)\[RESULT\]\s*(?:[(\[]|\s)*(\d+)
func promAbsAll(raw string) []string {
	var out []string
	for i := 0; i < len(raw); {
		k := strings.IndexByte(raw[i:], '[')
		if k < 0 {
			break
		}
		i += k
		n, ok := foldPrefix(raw[i+1:], "RESULT]")
		if !ok {
			i++
			continue
		}
		ds := skipFwd(raw, i+1+n, isOpenOrSpace)
		de := skipFwd(raw, ds, isDigit)
		if de == ds {
			i++
			continue
		}
		out = append(out, raw[ds:de])
		i = de
	}
	return out
}

// promRel returns the letter, in upper case, of every match, in order, of
//
//	(?im)(?:\[RESULT\]|\[RESULT:\s*|\[Response\s+|\[Result\](?:\s+Response)?|\[Result:\s*|(?:^|\n)Result:?\s*)\s*(A|B)\]?[ \t\r]*$
//
// Every match ends at a line's end, right after its letter (and a "]" and
// spaces), and its marker stands before the letter with only white space
// between; no match can hold another's letter, so the matches are the
// line ends whose letter has a marker before it.
func promRel(raw string) []string {
	var out []string
	for start := 0; start <= len(raw); {
		e := strings.IndexByte(raw[start:], '\n')
		if e < 0 {
			e = len(raw)
		} else {
			e += start
		}
		next := e + 1
		j := skipBack(raw, e, isHSpace)
		if j > 0 && raw[j-1] == ']' {
			j--
		}
		if l := j - 1; l >= 0 {
			switch c := raw[l]; c {
			case 'A', 'a', 'B', 'b':
				if promRelMarker(raw, l) {
					w := "B"
					if c == 'A' || c == 'a' {
						w = "A"
					}
					out = append(out, w)
				}
			}
		}
		start = next
	}
	return out
}

// promRelMarker reports whether a relative rule's marker stands before
// the letter at l, with only white space between.
func promRelMarker(raw string, l int) bool {
	q := skipBack(raw, l, isSpace)
	s := raw[:q]
	for _, m := range []string{"[RESULT]", "[RESULT:"} {
		if _, ok := foldSuffix(s, m); ok {
			return true
		}
	}
	if _, ok := foldSuffix(s, "[Response"); ok && q < l {
		return true
	}
	if n, ok := foldSuffix(s, "Response"); ok {
		r := skipBack(s, q-n, isSpace)
		if r < q-n {
			if _, ok := foldSuffix(s[:r], "[Result]"); ok {
				return true
			}
		}
	}
	for _, m := range []string{"Result:", "Result"} {
		if n, ok := foldSuffix(s, m); ok {
			if at := q - n; at == 0 || s[at-1] == '\n' {
				return true
			}
		}
	}
	return false
}

// gradeAt reads "GRADE\s*:\s*[CPI]" at i (GRADE in any case): the
// letter's index, or -1.
func gradeAt(raw string, i int) int {
	if n, ok := foldPrefix(raw[i:], "GRADE"); !ok || n != 5 {
		return -1
	}
	j := skipFwd(raw, i+5, isSpace)
	if j >= len(raw) || raw[j] != ':' {
		return -1
	}
	p := skipFwd(raw, j+1, isSpace)
	if p >= len(raw) {
		return -1
	}
	switch raw[p] {
	case 'C', 'P', 'I', 'c', 'p', 'i':
		return p
	}
	return -1
}

// nextGrade returns the index of the next "grade" (any case) at or after
// i, or -1.
func nextGrade(raw string, i int) int {
	for ; i+5 <= len(raw); i++ {
		if lower(raw[i]) == 'g' {
			if _, ok := foldPrefix(raw[i:i+5], "GRADE"); ok {
				return i
			}
		}
	}
	return -1
}

// inspectLast returns the grade letter and the rest of its line of the
// match of
//
//	(?i)GRADE\s*:\s*([CPI])([^\n]*)\n?$
//
// and whether there is one: the first GRADE whose letter stands on the
// answer's last line.
func inspectLast(raw string) (letter, rest string, ok bool) {
	e := len(raw)
	if e > 0 && raw[e-1] == '\n' {
		e--
	}
	ls := strings.LastIndexByte(raw[:e], '\n') + 1
	// A match's letter is on the last line; its GRADE may stand before it
	// with only white space and the colon between.
	from := max(0, skipBack(raw, ls, func(c byte) bool { return isSpace(c) || c == ':' })-5)
	for i := nextGrade(raw, from); i >= 0; i = nextGrade(raw, i+1) {
		if p := gradeAt(raw, i); p >= ls && p < e {
			return raw[p : p+1], raw[p+1 : e], true
		}
	}
	return "", "", false
}

// inspectAll returns the letter of every match, in order, of
//
//	(?i)GRADE\s*:\s*([CPI])\b
func inspectAll(raw string) []string {
	var out []string
	for i := nextGrade(raw, 0); i >= 0; {
		p := gradeAt(raw, i)
		if p >= 0 && (p+1 == len(raw) || !isWord(raw[p+1])) {
			out = append(out, raw[p:p+1])
			i = nextGrade(raw, p+1)
			continue
		}
		i = nextGrade(raw, i+1)
	}
	return out
}
