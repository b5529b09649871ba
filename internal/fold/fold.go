// Package fold compares text as a reader would: Unicode NFC, no invisible
// format characters, and full case folding. It holds evalkit's Unicode
// folding (through golang.org/x/text) in one place, apart from the packages
// that only bound text or normalize line endings, which stay standard-library
// only; the text checks and the label rules both fold through it.
package fold

import (
	"encoding/binary"
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
	if lower, ok := lowerASCII(s); ok {
		return lower // what CaseFold(Canonical(s)) is, read once
	}
	return CaseFold(Canonical(s))
}

// lowerASCII returns strings.ToLower(s) and true when s is ASCII (s itself
// when it has no upper-case letter), or "" and false. It reads and writes
// eight bytes at a time: Fold runs on every answer a text check reads,
// and strings.ToLower scans ASCII text twice, then lowers it a byte at a
// time.
func lowerASCII(s string) (string, bool) {
	const high = 0x8080808080808080
	i := 0 // where lowering starts: the first word with an upper-case letter, else the tail
	for ; i+8 <= len(s); i += 8 {
		w := word(s, i)
		if w&high != 0 {
			return "", false
		}
		if upperBytes(w) != 0 {
			break
		}
	}
	if tail := s[i:]; len(tail) < 8 && !strings.ContainsFunc(tail, func(r rune) bool { return 'A' <= r && r <= 'Z' }) {
		if !isASCII(tail) {
			return "", false
		}
		return s, true
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:i])
	var buf [8]byte
	for ; i+8 <= len(s); i += 8 {
		w := word(s, i)
		if w&high != 0 {
			return "", false
		}
		binary.LittleEndian.PutUint64(buf[:], w|upperBytes(w)>>2) // 0x80>>2 is 'a'-'A'
		b.Write(buf[:])
	}
	for ; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			return "", false
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		b.WriteByte(c)
	}
	return b.String(), true
}

// word reads bytes [i, i+8) of s as a little-endian word.
func word(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// upperBytes returns 0x80 in each byte of w that is an ASCII upper-case
// letter, 0 in the others; every byte of w must be ASCII (below 0x80), so
// the additions carry into no other byte.
func upperBytes(w uint64) uint64 {
	const (
		fromA = 0x3f3f3f3f3f3f3f3f // a byte plus 0x3f reaches 0x80 from 'A' (0x41) up
		pastZ = 0x2525252525252525 // a byte plus 0x25 reaches 0x80 from '[' (0x5b) up
		high  = 0x8080808080808080
	)
	return (w + fromA) &^ (w + pastZ) & high
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

// Original maps bytes [i, j) of Fold(s) — of Canonical(s) when caseless
// is false — back to s: it returns the bytes [oi, oj) of s whose folding
// holds them, whole normalization segments (a letter with its combining
// marks), so a message can quote what the text says where the folded
// text matched. ok is false when s folds otherwise segment by segment
// than whole (no text met yet), or [i, j) is not within the folded text.
// ASCII text maps to itself.
func Original(s string, caseless bool, i, j int) (oi, oj int, ok bool) {
	if i < 0 || j < i {
		return 0, 0, false
	}
	if isASCII(s) {
		if j > len(s) {
			return 0, 0, false
		}
		return i, j, true
	}
	f := Canonical
	if caseless {
		f = Fold
	}
	var whole strings.Builder
	oi, oj = -1, -1
	for pos := 0; pos < len(s); {
		n := norm.NFC.NextBoundaryInString(s[pos:], true)
		if n <= 0 {
			n = len(s) - pos
		}
		seg := f(s[pos : pos+n])
		from, to := whole.Len(), whole.Len()+len(seg)
		if oi < 0 && i < to {
			oi = pos
		}
		if oj < 0 && j <= to && (j > from || i == j) {
			oj = pos + n
		}
		whole.WriteString(seg)
		pos += n
	}
	if oi < 0 || oj < 0 || whole.String() != f(s) {
		return 0, 0, false
	}
	return oi, oj, true
}
