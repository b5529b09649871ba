// Package textnorm normalizes text before checks compare it: line endings,
// Unicode case folding and bounded excerpts for failure messages.
package textnorm

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// Newlines turns CRLF line endings into LF, so a line-anchored pattern or an
// expected multi-line string means the same on text from any platform.
func Newlines(s string) string {
	if !strings.Contains(s, "\r\n") {
		return s
	}
	return strings.ReplaceAll(s, "\r\n", "\n")
}

// Canonical returns s in Unicode NFC ("e\u0301" and "é" read alike) with
// invisible format characters removed (zero-width spaces and joiners, soft
// hyphens, bidi marks: category Cf), so text that renders the same compares
// the same and "pass\u200bword" cannot slip past a search for "password".
// ASCII text is returned as is.
func Canonical(s string) string {
	if isASCII(s) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Cf, r) {
			return -1
		}
		return r
	}, norm.NFC.String(s))
}

// Fold returns Canonical(s) with full Unicode case folding applied ("Straße"
// and "STRASSE" fold alike), for case-insensitive comparison. ASCII text
// takes a fast path.
func Fold(s string) string {
	if isASCII(s) {
		return strings.ToLower(s)
	}
	return cases.Fold().String(Canonical(s))
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
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
