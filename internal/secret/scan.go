package secret

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// Design: one pass over the text finds every anchor — a shape's prefix or
// word, or a known value's first bytes — through a table of the byte
// pairs anchors start with (a bit per pair, 8 KiB), so a megabyte of
// prose costs about a millisecond whatever the number of shapes and
// values; only at a pair in the table are the anchors starting with it
// compared, and a shape's matcher runs only where its anchor is. The
// regexps this replaced cost 40 ms a megabyte of plain prose and a second
// a megabyte of prose that names tokens and keys.

// anchor is one literal the scan looks for.
type anchor struct {
	lit   string // as written; lower case for a word
	fold  bool   // a word: any case, ſ for s and K for k
	shape int    // index in shapes, or -1 for a value
	value int    // index in the table's values
}

// table is what a scan looks anchors up in: the shapes' anchors and the
// known values', by the pair of bytes they start with.
type table struct {
	bits    [1 << 10]uint64 // pair → may an anchor start with it
	byPair  map[uint16][]anchor
	values  []known
	longest int // the longest value, in bytes
}

// known is a secret value the process knows, and its label.
type known struct {
	value, label string
}

func pair(a, b byte) uint16 { return uint16(a)<<8 | uint16(b) }

func (t *table) add(p uint16, a anchor) {
	t.bits[p>>6] |= 1 << (p & 63)
	if t.byPair == nil {
		t.byPair = map[uint16][]anchor{}
	}
	t.byPair[p] = append(t.byPair[p], a)
}

// variants lists how a lower-case letter may be written under (?i): its
// cases, and ſ for s and the Kelvin sign for k.
func variants(c byte) []string {
	switch {
	case c == 's':
		return []string{"s", "S", "ſ"}
	case c == 'k':
		return []string{"k", "K", "\u212a"}
	case 'a' <= c && c <= 'z':
		return []string{string(c), string(c - 'a' + 'A')}
	}
	return []string{string(c)}
}

// newTable builds the table of vals and, withShapes, of the shapes.
func newTable(vals []known, withShapes bool) *table {
	t := &table{values: vals}
	for si, sh := range shapes {
		if !withShapes {
			break
		}
		for _, p := range sh.prefixes {
			t.add(pair(p[0], p[1]), anchor{lit: p, shape: si})
		}
		for _, w := range sh.words {
			seen := map[uint16]bool{}
			for _, a := range variants(w[0]) {
				firsts := []string{a}
				if len(a) == 1 {
					firsts = variants(w[1])
				}
				for _, b := range firsts {
					k := a + b
					p := pair(k[0], k[1])
					if !seen[p] {
						seen[p] = true
						t.add(p, anchor{lit: w, fold: true, shape: si})
					}
				}
			}
		}
	}
	for vi, v := range vals {
		t.add(pair(v.value[0], v.value[1]), anchor{lit: v.value, shape: -1, value: vi})
		t.longest = max(t.longest, len(v.value))
	}
	return t
}

// foldWord returns the length in s of word (lower-case ASCII) at s[at:],
// read as (?i) reads it, or 0.
func foldWord(s string, at int, word string) int {
	i := at
	for j := 0; j < len(word); j++ {
		if i >= len(s) {
			return 0
		}
		c, w := word[j], s[i]
		switch {
		case w == c || w+'a'-'A' == c && 'A' <= w && w <= 'Z':
			i++
		case c == 's' && strings.HasPrefix(s[i:], "ſ"):
			i += len("ſ")
		case c == 'k' && strings.HasPrefix(s[i:], "\u212a"):
			i += len("\u212a")
		default:
			return 0
		}
	}
	return i - at
}

// scan returns what t finds in s: every anchor's hits, unsorted.
func (t *table) scan(s string) []hit {
	var hits []hit
	for i := 0; i+1 < len(s); i++ {
		p := pair(s[i], s[i+1])
		if t.bits[p>>6]&(1<<(p&63)) == 0 {
			continue
		}
		for _, a := range t.byPair[p] {
			n := len(a.lit)
			if a.fold {
				if n = foldWord(s, i, a.lit); n == 0 {
					continue
				}
			} else if !strings.HasPrefix(s[i:], a.lit) {
				if a.shape < 0 {
					t.cutValue(s, i, a.value, &hits)
				}
				continue
			}
			if a.shape < 0 {
				hits = append(hits, hit{start: i, end: i + n, label: t.values[a.value].label, prio: valuePrio})
				continue
			}
			from := len(hits)
			shapes[a.shape].match(s, i, n, &hits)
			for k := from; k < len(hits); k++ {
				hits[k].prio = a.shape
			}
		}
	}
	return hits
}

// cutValue adds a hit for the head of a known value cut short by a
// failure message's excerpt marker: at least 4 of its bytes, then "…".
func (t *table) cutValue(s string, at, vi int, hits *[]hit) {
	v := t.values[vi].value
	k := 0
	for k < len(v) && at+k < len(s) && s[at+k] == v[k] {
		k++
	}
	if k >= 4 && cutAt(s, at+k) {
		*hits = append(*hits, hit{start: at, end: at + k, label: t.values[vi].label, prio: valuePrio})
	}
}

// find returns the secrets in s, sorted and apart: hits that overlap are
// one, named by the first (by start, then by prio). Secrets written
// percent-encoded or JSON-escaped ("%2D", "\u002d", "\/") are found in
// the text decoded, and their encoded runs returned.
func (t *table) find(s string) []hit {
	hits := t.scan(s)
	if hasEscape(s) {
		from := make([]int, 0, len(s)+1)
		dec := decodeEscapes(s, &from)
		from = append(from, len(s))
		if dec != s {
			for _, h := range t.scan(dec) {
				h.start, h.end = from[h.start], from[h.end]
				hits = append(hits, h)
			}
		}
	}
	return merge(hits)
}

// merge sorts hits by start, then prio, and joins the overlapping ones.
func merge(hits []hit) []hit {
	if len(hits) < 2 {
		return hits
	}
	slices.SortFunc(hits, func(a, b hit) int {
		if a.start != b.start {
			return a.start - b.start
		}
		return a.prio - b.prio
	})
	out := hits[:1]
	for _, h := range hits[1:] {
		last := &out[len(out)-1]
		if h.start < last.end {
			last.end = max(last.end, h.end)
			continue
		}
		out = append(out, h)
	}
	return out
}

// apply returns s with each hit replaced by its label.
func apply(s string, hits []hit) string {
	if len(hits) == 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	at := 0
	for _, h := range hits {
		b.WriteString(s[at:h.start])
		b.WriteString(Label(h.label))
		at = h.end
	}
	b.WriteString(s[at:])
	return b.String()
}

// hasEscape reports whether s holds a percent or JSON escape that
// decodes: "%2D", "\u002d", "\/", "\\" or "\"".
func hasEscape(s string) bool {
	for i := strings.IndexAny(s, `%\`); i >= 0 && i < len(s); {
		if n, _ := escape(s, i); n > 0 {
			return true
		}
		j := strings.IndexAny(s[i+1:], `%\`)
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}

// decodeEscapes returns s with its percent and JSON escapes decoded, and
// appends to from, for each decoded byte, the offset in s where it
// starts.
func decodeEscapes(s string, from *[]int) string {
	dec := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		n, b := escape(s, i)
		if n == 0 {
			*from = append(*from, i)
			dec = append(dec, s[i])
			i++
			continue
		}
		for range b {
			*from = append(*from, i)
		}
		dec = append(dec, b...)
		i += n
	}
	return string(dec)
}

// escape reads the escape at s[i], if one starts there: "%2D", or JSON's
// "\u002d", "\/", "\\" and "\"". It returns its length in s, 0 when there
// is none, and the bytes it stands for.
func escape(s string, i int) (int, []byte) {
	switch {
	case s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
		return 3, []byte{unhex(s[i+1])<<4 | unhex(s[i+2])}
	case s[i] != '\\' || i+1 >= len(s):
		return 0, nil
	}
	switch c := s[i+1]; c {
	case '/', '\\', '"':
		return 2, []byte{c}
	case 'u':
		if i+5 < len(s) && isHex(s[i+2]) && isHex(s[i+3]) && isHex(s[i+4]) && isHex(s[i+5]) {
			r := rune(unhex(s[i+2]))<<12 | rune(unhex(s[i+3]))<<8 | rune(unhex(s[i+4]))<<4 | rune(unhex(s[i+5]))
			return 6, utf8.AppendRune(nil, r)
		}
	}
	return 0, nil
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}
