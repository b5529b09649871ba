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
// boundary and saying how much was left out.
func Excerpt(s string, max int) string {
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
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
	return strconv.Quote(s[:cut]) + fmt.Sprintf("… [%d more bytes]", len(s)-cut)
}
