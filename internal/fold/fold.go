// Package fold compares text as a reader would: Unicode NFC, no invisible
// format characters, and full case folding. It is the one evalkit package
// that needs golang.org/x/text, kept apart so the packages that only need to
// bound or normalize line endings stay standard-library only.
package fold

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

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
