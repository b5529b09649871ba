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
	shape int    // index in shapes, -1 for a value, -2 for an excerpt's "…"
	value int    // index in the table's values
}

// table is what a scan looks anchors up in: the shapes' anchors and the
// known values', by the pair of bytes they start with.
type table struct {
	bits    [1 << 10]uint64  // pair → may an anchor start with it
	short   [1 << 10]uint64  // pair → an anchor of two bytes is it
	bits3   [1 << 10]uint64  // hash of three bytes → may an anchor start with them
	idx     *[1 << 16]uint32 // pair → index in lists, from 1
	lists   [][]anchor
	values  []known
	longest int  // the longest value, in bytes
	quotes  bool // a value holds `"` or `\`: JSON's \" and \\ are decoded
	shapes  bool // the shapes are in it
}

// known is a secret value the process knows, and its label.
type known struct {
	value, label string
}

func pair(a, b byte) uint16 { return uint16(a)<<8 | uint16(b) }

// hash3 hashes three bytes into 16 bits.
func hash3(a, b, c byte) uint16 {
	return uint16((uint32(a)<<16 | uint32(b)<<8 | uint32(c)) * 2654435761 >> 16)
}

// add files a under the pair p its first bytes make, and under the
// hashes of the first three bytes it may start with (firsts), or as a
// two-byte anchor.
func (t *table) add(p uint16, a anchor, firsts []string) {
	t.bits[p>>6] |= 1 << (p & 63)
	for _, f := range firsts {
		if len(f) < 3 {
			t.short[p>>6] |= 1 << (p & 63)
			continue
		}
		h := hash3(f[0], f[1], f[2])
		t.bits3[h>>6] |= 1 << (h & 63)
	}
	if t.idx == nil {
		t.idx = new([1 << 16]uint32)
		t.lists = [][]anchor{nil}
	}
	if t.idx[p] == 0 {
		t.idx[p] = uint32(len(t.lists))
		t.lists = append(t.lists, nil)
	}
	t.lists[t.idx[p]] = append(t.lists[t.idx[p]], a)
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
			t.add(pair(p[0], p[1]), anchor{lit: p, shape: si}, []string{p[:min(3, len(p))]})
		}
		for _, w := range sh.words {
			// Every way the word's first three letters may be written,
			// filed by the pair of bytes each starts with.
			byPair := map[uint16][]string{}
			var order []uint16
			for _, v := range spellings(w[:3]) {
				p := pair(v[0], v[1])
				if _, ok := byPair[p]; !ok {
					order = append(order, p)
				}
				byPair[p] = append(byPair[p], v[:3])
			}
			for _, p := range order {
				t.add(p, anchor{lit: w, fold: true, shape: si}, byPair[p])
			}
		}
	}
	if withShapes {
		t.shapes = true
		t.add(pair("…"[0], "…"[1]), anchor{lit: "…", shape: -2}, []string{"…"})
	} else if len(vals) > 0 {
		t.add(pair("…"[0], "…"[1]), anchor{lit: "…", shape: -2}, []string{"…"})
	}
	for vi, v := range vals {
		t.quotes = t.quotes || strings.ContainsAny(v.value, `"\`)
		t.add(pair(v.value[0], v.value[1]), anchor{lit: v.value, shape: -1, value: vi}, []string{v.value[:3]})
		t.longest = max(t.longest, len(v.value))
	}
	return t
}

// spellings lists every way w (lower-case ASCII) may be written under
// (?i), letter by letter (see variants).
func spellings(w string) []string {
	out := []string{""}
	for i := 0; i < len(w); i++ {
		var next []string
		for _, o := range out {
			for _, v := range variants(w[i]) {
				next = append(next, o+v)
			}
		}
		out = next
	}
	return out
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

// scan returns what t finds in s: every anchor's hits, unsorted. Most
// strings hold no anchor, and scanFrom's hits live on the heap (the
// shapes append through a pointer): the first anchor is looked for
// without them. The anchor test is written out in both loops: as a
// function it is too big to be inlined.
func (t *table) scan(s string) []hit {
	for i := 0; i+1 < len(s); i++ {
		p := pair(s[i], s[i+1])
		if t.bits[p>>6]&(1<<(p&63)) == 0 {
			continue
		}
		if t.short[p>>6]&(1<<(p&63)) == 0 {
			if i+2 >= len(s) {
				continue
			}
			if h := hash3(s[i], s[i+1], s[i+2]); t.bits3[h>>6]&(1<<(h&63)) == 0 {
				continue
			}
		}
		return t.scanFrom(s, i)
	}
	return nil
}

// scanFrom is scan from s[from], where an anchor may start.
func (t *table) scanFrom(s string, from int) []hit {
	var hits []hit
	for i := from; i+1 < len(s); i++ {
		p := pair(s[i], s[i+1])
		if t.bits[p>>6]&(1<<(p&63)) == 0 {
			continue
		}
		if t.short[p>>6]&(1<<(p&63)) == 0 {
			if i+2 >= len(s) {
				continue
			}
			if h := hash3(s[i], s[i+1], s[i+2]); t.bits3[h>>6]&(1<<(h&63)) == 0 {
				continue
			}
		}
		for _, a := range t.lists[t.idx[p]] {
			n := len(a.lit)
			if a.fold {
				if n = foldWord(s, i, a.lit); n == 0 {
					continue
				}
			} else if !strings.HasPrefix(s[i:], a.lit) {
				if a.shape == -1 {
					t.cutValue(s, i, a.value, &hits)
				}
				continue
			}
			if a.shape == -2 {
				t.excerpt(s, i, &hits)
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

// cutRun is what a run cut by an excerpt's marker may hold of a key.
var cutRun = set("A-Za-z0-9_+/.-")

// excerpt adds hits around an excerpt's marker ("…"): a window cut out
// of a longer text may start with a secret's tail, and end with its head,
// whose shape (a prefix, or an anchor at its end) was cut away. At the
// start: the tail of a known value (4 bytes or more), or a run of at
// least 8 token characters that looks like part of a key (keyLike); at
// the end, such a run of at least 12.
func (t *table) excerpt(s string, at int, hits *[]hit) {
	// Before the marker, past a closing quote.
	end := at
	for _, q := range []string{`"`, `\"`, "&#34;", "'"} {
		if strings.HasSuffix(s[:at], q) {
			end = at - len(q)
			break
		}
	}
	start := end
	for start > 0 && cutRun.has(s[start-1]) {
		start--
	}
	if t.shapes && end-start >= 12 && keyLike(s[start:end]) {
		*hits = append(*hits, hit{start: start, end: end, label: "head", prio: len(shapes) + 1})
	}
	// After it, past an opening quote.
	i := at + len("…")
	if i < len(s) {
		i += quoteLen(s, i)
	}
	e := i
	for e < len(s) && cutRun.has(s[e]) {
		e++
	}
	run := s[i:e]
	for _, v := range t.values {
		for k := min(len(v.value)-1, len(run)); k >= 4; k-- {
			if strings.HasSuffix(v.value, run[:k]) {
				*hits = append(*hits, hit{start: i, end: i + k, label: v.label, prio: valuePrio})
				return
			}
		}
	}
	if t.shapes && len(run) >= 8 && keyLike(run) {
		*hits = append(*hits, hit{start: i, end: e, label: "tail", prio: len(shapes) + 1})
	}
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
// the text decoded, and their encoded runs returned; so are those written
// with HTML character references ("&#43;", as html/template writes "+").
func (t *table) find(s string) []hit {
	hits := t.scan(s)
	// Around each escape, the text decoded: a secret written with one is
	// found within escWindow of it.
	for _, w := range escapeWindows(s, t.quotes) {
		dec, esc := decodeEscapes(s[w[0]:w[1]], t.quotes)
		decs := []string{dec}
		if strings.IndexByte(dec, '+') >= 0 && strings.IndexByte(s[w[0]:w[1]], '%') >= 0 {
			// A form-encoded body writes a space "+": read it both ways
			// (a base64 key holds "+"). One byte for one: the map holds.
			decs = append(decs, strings.ReplaceAll(dec, "+", " "))
		}
		for _, dec := range decs {
			for _, h := range t.scan(dec) {
				h.start, h.end = w[0]+rawStart(esc, h.start), w[0]+rawEnd(esc, h.end)
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

// escWindow is how far around an escape the text is decoded and scanned
// again: farther than most secrets are long (a private key with escapes
// has them every line, so its windows join).
const escWindow = 2048

// nextEscape returns the offset of the next '%', '\' or '&' at or after
// i, or len(s); next remembers the next of each found so far (-1: none
// looked for yet), so each byte is searched once, by IndexByte.
func nextEscape(s string, i int, next *[3]int) int {
	at := len(s)
	for k, c := range [3]byte{'%', '\\', '&'} {
		if next[k] < i {
			if next[k] = strings.IndexByte(s[i:], c); next[k] >= 0 {
				next[k] += i
			} else {
				next[k] = len(s)
			}
		}
		at = min(at, next[k])
	}
	return at
}

// noNext is a nextEscape state that has looked for nothing yet.
var noNext = [3]int{-1, -1, -1}

// kept reports whether the escape at s[i] is left as written: JSON's \\
// and \" unless quotes (no credential shape holds them, only a value
// that has a quote or a backslash) — but not a run of backslashes that
// ends an escape escaped again (\\u002d, \\/: JSON inside JSON).
func kept(s string, i int, quotes bool) bool {
	return !quotes && s[i] == '\\' && (s[i+1] == '"' || s[i+1] == '\\' && !deepEscape(s, i))
}

// deepEscape reports whether the run of backslashes at s[i] ends in a
// JSON escape escaped again: \\u002d, \\\\\\/.
func deepEscape(s string, i int) bool {
	k := i
	for k < len(s) && s[k] == '\\' {
		k++
	}
	if k-i < 2 || k >= len(s) {
		return false
	}
	return s[k] == '/' || s[k] == 'u' && k+4 < len(s) && isHex(s[k+1]) && isHex(s[k+2]) && isHex(s[k+3]) && isHex(s[k+4])
}

// escapeWindows returns the spans of s, joined where they meet, within
// escWindow of a percent, JSON or HTML escape that decodes: "%2D",
// "\u002d", "\/", "&#43;", and with quotes "\\" and "\"".
func escapeWindows(s string, quotes bool) [][2]int {
	var out [][2]int
	next := noNext
	for i := 0; ; {
		if i = nextEscape(s, i, &next); i >= len(s) {
			return out
		}
		n, _ := escape(s, i)
		if n == 0 || kept(s, i, quotes) {
			i += max(n, 1)
			continue
		}
		lo, hi := max(0, i-escWindow), min(len(s), i+n+escWindow)
		if k := len(out) - 1; k >= 0 && lo <= out[k][1] {
			out[k][1] = hi
		} else {
			out = append(out, [2]int{lo, hi})
		}
		i += n
	}
}

// esc is one escape decoded: where it starts in the decoded text and in
// the raw, and its lengths in each.
type esc struct{ dec, raw, decLen, rawLen int }

// decodeEscapes returns s with its percent and JSON escapes decoded (but
// for those kept), and the escapes, in order: what maps an offset in the
// decoded text back to s (rawStart, rawEnd). Between escapes the two are
// alike, so the map is as small as the escapes are few.
func decodeEscapes(s string, quotes bool) (string, []esc) {
	dec := make([]byte, 0, len(s))
	var escs []esc
	next := noNext
	for i := 0; i < len(s); {
		j := nextEscape(s, i, &next)
		dec = append(dec, s[i:j]...)
		if i = j; i >= len(s) {
			break
		}
		n, d := escape(s, i)
		b := d.b[:d.n]
		switch {
		case n == 0:
			dec = append(dec, s[i])
			i++
		case kept(s, i, quotes):
			dec = append(dec, s[i:i+2]...)
			i += 2
		default:
			escs = append(escs, esc{dec: len(dec), raw: i, decLen: len(b), rawLen: n})
			dec = append(dec, b...)
			i += n
		}
	}
	return string(dec), escs
}

// rawStart maps a decoded offset where a secret starts to the raw text: a
// start inside an escape's bytes is the escape's start.
func rawStart(escs []esc, d int) int {
	k, _ := slices.BinarySearchFunc(escs, d, func(e esc, d int) int { return cmpInt(e.dec, d+1) })
	if k == 0 {
		return d
	}
	e := escs[k-1]
	if d < e.dec+e.decLen {
		return e.raw
	}
	return e.raw + e.rawLen + d - e.dec - e.decLen
}

// rawEnd maps a decoded offset where a secret ends to the raw text: an
// end inside an escape's bytes is the escape's end.
func rawEnd(escs []esc, d int) int {
	k, _ := slices.BinarySearchFunc(escs, d, func(e esc, d int) int { return cmpInt(e.dec, d) })
	if k == 0 {
		return d
	}
	e := escs[k-1]
	if d < e.dec+e.decLen {
		return e.raw + e.rawLen
	}
	return e.raw + e.rawLen + d - e.dec - e.decLen
}

func cmpInt(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// escape reads the escape at s[i], if one starts there: "%2D" (and
// "%252D", encoded twice), JSON's "\u002d", "\/", "\\" and "\"" (and
// "\\u002d", "\\/", escaped again), or an HTML character reference
// ("&#43;", "&#x2B;", "&quot;", "&amp;", "&lt;", "&gt;", "&apos;"). It
// returns its length in s, 0 when there is none, and the bytes it stands
// for.
func escape(s string, i int) (int, decoded) {
	var d decoded
	switch s[i] {
	case '%':
		k := i + 1 // past each "25" that encodes the '%' of one more level
		for k+3 < len(s) && s[k] == '2' && s[k+1] == '5' && isHex(s[k+2]) && isHex(s[k+3]) {
			k += 2
		}
		if k+1 < len(s) && isHex(s[k]) && isHex(s[k+1]) {
			d.b[0], d.n = unhex(s[k])<<4|unhex(s[k+1]), 1
			return k + 2 - i, d
		}
		return 0, d
	case '&':
		return entity(s, i)
	case '\\':
	default:
		return 0, d
	}
	if i+1 >= len(s) {
		return 0, d
	}
	k := i
	for k < len(s) && s[k] == '\\' {
		k++
	}
	if deepEscape(s, i) {
		if s[k] == '/' {
			d.b[0], d.n = '/', 1
			return k + 1 - i, d
		}
		d.n = utf8.EncodeRune(d.b[:], rune(unhex(s[k+1]))<<12|rune(unhex(s[k+2]))<<8|rune(unhex(s[k+3]))<<4|rune(unhex(s[k+4])))
		return k + 5 - i, d
	}
	switch c := s[i+1]; c {
	case '/', '\\', '"':
		d.b[0], d.n = c, 1
		return 2, d
	case 'u':
		if i+5 < len(s) && isHex(s[i+2]) && isHex(s[i+3]) && isHex(s[i+4]) && isHex(s[i+5]) {
			r := rune(unhex(s[i+2]))<<12 | rune(unhex(s[i+3]))<<8 | rune(unhex(s[i+4]))<<4 | rune(unhex(s[i+5]))
			d.n = utf8.EncodeRune(d.b[:], r)
			return 6, d
		}
	}
	return 0, d
}

// entity reads an HTML character reference at s[i] ('&'): decimal or
// hex, or one of the names html/template and html.EscapeString write.
func entity(s string, i int) (int, decoded) {
	var d decoded
	j := i + 1
	if j < len(s) && s[j] == '#' {
		j++
		hex := j < len(s) && (s[j] == 'x' || s[j] == 'X')
		if hex {
			j++
		}
		var r rune
		k := j
		for k < len(s) && k-j < 7 && (isDigit(s[k]) || hex && isHex(s[k])) {
			if hex {
				r = r<<4 | rune(unhex(s[k]))
			} else {
				r = r*10 + rune(s[k]-'0')
			}
			k++
		}
		if k == j || k >= len(s) || s[k] != ';' || r > utf8.MaxRune {
			return 0, d
		}
		d.n = utf8.EncodeRune(d.b[:], r)
		return k + 1 - i, d
	}
	for _, e := range [...]struct {
		name string
		c    byte
	}{{"&quot;", '"'}, {"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&apos;", '\''}} {
		if strings.HasPrefix(s[i:], e.name) {
			d.b[0], d.n = e.c, 1
			return len(e.name), d
		}
	}
	return 0, d
}

// decoded is the bytes an escape stands for.
type decoded struct {
	b [utf8.UTFMax]byte
	n int
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
