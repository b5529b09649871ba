// Package textnorm normalizes line endings and bounds text quoted in
// failure messages. Standard library only; Unicode folding is package fold.
package textnorm

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Newlines turns CRLF line endings into LF, so a line-anchored pattern or an
// expected multi-line string means the same on text from any platform.
func Newlines(s string) string {
	if !strings.Contains(s, "\r\n") {
		return s
	}
	return strings.ReplaceAll(s, "\r\n", "\n")
}

// Excerpt bounds s to about max bytes for a failure message, cutting on a rune
// boundary, never inside what looks like a key (see Cut), and saying how much
// was left out.
func Excerpt(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	cut = Cut(s, cut, false)
	return s[:cut] + fmt.Sprintf("… [%d more bytes]", len(s)-cut)
}

// Quote is strconv.Quote of Excerpt(s, max), the marker kept outside the quotes.
func Quote(s string, max int) string {
	if len(s) <= max {
		return strconv.Quote(s)
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	cut = Cut(s, cut, false)
	return strconv.Quote(s[:cut]) + fmt.Sprintf("… [%d more bytes]", len(s)-cut)
}

// keyByte reports whether c may be part of a key or token: what Excerpt
// and the context windows of failure messages never cut through.
func keyByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("_+/=.-", c) >= 0
}

// maxKeyRun is the longest run Cut moves a cut out of: past it, the run is
// cut where it falls (and the redactor reads a long cut run as a key's).
const maxKeyRun = 512

// Cut moves a cut at s[i] out of a run of characters that looks like a
// key or token — 16 or more letters, digits and _+/=.- holding a letter
// and a digit, or 8 or more holding both cases and a digit — so a failure
// message never shows part of a credential, which the redactor (package
// internal/secret) could then not tell from text: to the run's start when
// the text after i is left out (forward false), to its end when the text
// before i is (forward true). Any other cut stays where it is.
func Cut(s string, i int, forward bool) int {
	if i <= 0 || i >= len(s) || !keyByte(s[i-1]) || !keyByte(s[i]) {
		return i
	}
	start, end := i, i
	for start > 0 && i-start < maxKeyRun && keyByte(s[start-1]) {
		start--
	}
	for end < len(s) && end-i < maxKeyRun && keyByte(s[end]) {
		end++
	}
	if !keyRun(s[start:end]) || start > 0 && keyByte(s[start-1]) || end < len(s) && keyByte(s[end]) {
		return i
	}
	if forward {
		return end
	}
	return start
}

// keyRun reports whether a run of key characters looks like a key (see
// Cut).
func keyRun(r string) bool {
	var letter, digit, up, lo bool
	for i := 0; i < len(r); i++ {
		c := r[i]
		up = up || 'A' <= c && c <= 'Z'
		lo = lo || 'a' <= c && c <= 'z'
		digit = digit || '0' <= c && c <= '9'
	}
	letter = up || lo
	return letter && digit && (len(r) >= 16 || len(r) >= 8 && up && lo)
}

// EditDistance is the Levenshtein distance between a and b, in bytes:
// the insertions, deletions and substitutions that turn one into the
// other. It costs len(a)·len(b) steps; callers bound their inputs.
func EditDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
