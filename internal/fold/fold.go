// Package fold compares text as a reader would: Unicode NFC, no invisible
// format characters, and full case folding. It holds evalkit's Unicode
// folding (through golang.org/x/text) in one place, apart from the packages
// that only bound text or normalize line endings, which stay standard-library
// only; the text checks and the label rules both fold through it.
package fold

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// Canonical returns s in Unicode NFC ("e\u0301" and "é" read alike) with
// invisible format characters removed (see StripFormat), so text that
// renders the same compares the same and "pass\u200bword" cannot slip past a
// search for "password". ASCII text is returned as is.
func Canonical(s string) string {
	if isASCII(s) {
		return s
	}
	return StripFormat(norm.NFC.String(s))
}

// Fold returns CaseFold(Canonical(s)): the form case-insensitive matching
// compares ("Straße" and "STRASSE" fold alike). ASCII text takes a fast path.
func Fold(s string) string {
	if isASCII(s) {
		return strings.ToLower(s) // what CaseFold(Canonical(s)) is, read once
	}
	return CaseFold(Canonical(s))
}

// CaseFold is Unicode's canonical caseless form: NFC, full case folding,
// NFC again (folding can decompose). It keeps format characters; ASCII
// text is lowered.
func CaseFold(s string) string {
	if isASCII(s) {
		return strings.ToLower(s)
	}
	return norm.NFC.String(cases.Fold().String(norm.NFC.String(s)))
}

// StripFormat removes invisible format characters (Unicode category Cf:
// zero-width spaces and joiners, soft hyphens, bidi marks).
func StripFormat(s string) string {
	if isASCII(s) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Cf, r) {
			return -1
		}
		return r
	}, s)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
