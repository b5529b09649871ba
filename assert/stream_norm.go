package assert

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/evalkit-go/evalkit/internal/fold"
	"github.com/evalkit-go/evalkit/internal/secret"
	"github.com/evalkit-go/evalkit/internal/textnorm"
)

// How a stream check reads text as its batch check does, incrementally:
// normalization stages that keep back only what a later byte could change,
// with every normalized byte's origin in the stream; and the end of the
// stream as given, for excerpts.

// A span maps bytes of a normalized buffer back to the stream as given:
// from index at on (up to the next span), byte at+i came from stream
// offset raw+i when the span is one to one, and every byte from raw when
// it is a unit (a CRLF read as LF, a character composed or case-folded).
// A one-to-one span never crosses a chunk boundary.
type span struct {
	at         int
	raw        int
	chunk      int
	chunkStart int // the stream offset of the chunk's first byte
	unit       bool
}

// spanBuf is a buffer of normalized bytes with their origins.
type spanBuf struct {
	b     []byte
	spans []span
}

// spanIndex is the index of the span holding byte i.
func (s *spanBuf) spanIndex(i int) int {
	return sort.Search(len(s.spans), func(k int) bool { return s.spans[k].at > i }) - 1
}

// origin is the span describing byte i alone.
func (s *spanBuf) origin(i int) span {
	sp := s.spans[s.spanIndex(i)]
	if !sp.unit {
		sp.raw += i - sp.at
	}
	sp.at = i
	return sp
}

// pos is the stream position byte i came from.
func (s *spanBuf) pos(i int) StreamPos { return s.origin(i).pos() }

func (sp span) pos() StreamPos {
	return StreamPos{Chunk: sp.chunk, Offset: sp.raw, ChunkOffset: sp.raw - sp.chunkStart}
}

// addSpan starts a span at the end of the buffer; call it before
// appending the span's bytes.
func (s *spanBuf) addSpan(sp span) {
	sp.at = len(s.b)
	if n := len(s.spans); n > 0 {
		last := s.spans[n-1]
		switch {
		case last.at == sp.at: // the last span holds no byte
			s.spans[n-1] = sp
			return
		case !last.unit && !sp.unit && last.chunk == sp.chunk && last.raw+(sp.at-last.at) == sp.raw:
			return // it continues the last span
		}
	}
	s.spans = append(s.spans, sp)
}

// copyFrom appends src.b[i:j], byte for byte, with the bytes' origins.
func (s *spanBuf) copyFrom(src *spanBuf, i, j int) {
	for k := src.spanIndex(i); i < j; k++ {
		end := j
		if k+1 < len(src.spans) && src.spans[k+1].at < end {
			end = src.spans[k+1].at
		}
		sp := src.spans[k]
		if !sp.unit {
			sp.raw += i - sp.at
		}
		s.addSpan(sp)
		s.b = append(s.b, src.b[i:end]...)
		i = end
	}
}

// appendUnit appends out, every byte of it from where src byte i came from.
func (s *spanBuf) appendUnit(out []byte, src *spanBuf, i int) {
	sp := src.origin(i)
	sp.unit = true
	s.addSpan(sp)
	s.b = append(s.b, out...)
}

// drop removes the first n bytes.
func (s *spanBuf) drop(n int) {
	switch {
	case n <= 0:
		return
	case n >= len(s.b):
		s.b, s.spans = s.b[:0], s.spans[:0]
		return
	}
	k := s.spanIndex(n)
	first := s.origin(n)
	kept := append(s.spans[:0], first)
	for _, sp := range s.spans[k+1:] {
		kept = append(kept, sp)
	}
	for i := range kept {
		kept[i].at -= n
	}
	s.spans = kept
	s.b = append(s.b[:0], s.b[n:]...)
}

// normMode is how far a stream normalizes text before judging it: as
// the batch checks read it, no more.
type normMode int

const (
	// normNewlines reads CRLF as LF, as every text check does (regex,
	// lengths).
	normNewlines normMode = iota
	// normCanonical also applies fold.Canonical (NFC, no format
	// characters), as a case-sensitive pattern search does.
	normCanonical
	// normFold also case-folds (fold.Fold), as the default pattern search
	// does.
	normFold
)

// normPipe normalizes a stream incrementally, each stage keeping back
// only what a later byte could still change: a final "\r" (of a CRLF), an
// incomplete UTF-8 sequence, a last character a combining mark could still
// join. Each stage works on whole normalization segments, so the output is
// the batch normalization of the whole text (NFC, stripping and case
// folding are segment-local), with every byte's origin.
type normPipe struct {
	mode       normMode
	canonical  segTransform // fold.Canonical, for normCanonical and normFold
	folded     segTransform // fold.CaseFold, for normFold
	raw        spanBuf      // chunks not yet through the newline stage
	lf, canon  spanBuf      // output of the newline and canonical stages, pending the next
	offset     int          // stream bytes fed
	chunks     int          // chunks fed
	lastChunk  int          // the last chunk's index and start, for the end position
	lastOffset int
}

// push feeds a chunk, appending what is now normalized to out.
func (p *normPipe) push(out *spanBuf, chunk string) {
	p.lastChunk, p.lastOffset = p.chunks, p.offset
	p.raw.addSpan(span{raw: p.offset, chunk: p.chunks, chunkStart: p.offset})
	p.raw.b = append(p.raw.b, chunk...)
	p.offset += len(chunk)
	p.chunks++
	p.run(out, false)
}

// flush ends the stream, appending the rest to out.
func (p *normPipe) flush(out *spanBuf) { p.run(out, true) }

// next is the stream offset of the first byte not yet normalized: held
// back by a stage, or not yet fed.
func (p *normPipe) next() int {
	for _, b := range []*spanBuf{&p.canon, &p.lf, &p.raw} {
		if len(b.b) > 0 {
			return b.origin(0).raw
		}
	}
	return p.offset
}

// end is the position just past the last byte.
func (p *normPipe) end() StreamPos {
	return StreamPos{Chunk: max(p.lastChunk, 0), Offset: p.offset, ChunkOffset: p.offset - p.lastOffset}
}

func (p *normPipe) run(out *spanBuf, atEOF bool) {
	switch p.mode {
	case normNewlines:
		newlines(out, &p.raw, atEOF)
	case normCanonical:
		newlines(&p.lf, &p.raw, atEOF)
		p.canonical.f = fold.Canonical
		segments(out, &p.lf, atEOF, &p.canonical)
	case normFold:
		newlines(&p.lf, &p.raw, atEOF)
		p.canonical.f = fold.Canonical
		segments(&p.canon, &p.lf, atEOF, &p.canonical)
		p.folded.f, p.folded.lower = fold.CaseFold, true
		segments(out, &p.canon, atEOF, &p.folded)
	}
}

// segTransform is what a stage does to a normalization segment: f, and
// for ASCII nothing or lowering. Segments repeat (most are one
// character), so their results are kept, up to maxSegCache of them.
type segTransform struct {
	f     func(string) string
	lower bool
	cache map[string][]byte // segment -> result; nil when f leaves it as is
}

const maxSegCache = 4096

func (t *segTransform) apply(seg []byte) (out []byte, same bool) {
	if o, ok := t.cache[string(seg)]; ok {
		return o, o == nil
	}
	s := string(seg)
	var o []byte
	if r := t.f(s); r != s {
		o = []byte(r)
	}
	if t.cache == nil {
		t.cache = map[string][]byte{}
	}
	if len(t.cache) < maxSegCache {
		t.cache[s] = o
	}
	return o, o == nil
}

// newlines moves src to dst with CRLF read as LF (textnorm.Newlines),
// keeping back, unless atEOF, a final "\r" and a final incomplete UTF-8
// sequence.
func newlines(dst, src *spanBuf, atEOF bool) {
	n := len(src.b)
	if !atEOF {
		n -= heldBack(src.b)
	}
	i := 0
	for i < n {
		j := bytes.IndexByte(src.b[i:n], '\r')
		if j < 0 {
			dst.copyFrom(src, i, n)
			i = n
			break
		}
		j += i
		if j+1 < len(src.b) && src.b[j+1] == '\n' {
			dst.copyFrom(src, i, j)
			dst.appendUnit([]byte{'\n'}, src, j)
			i = j + 2
			continue
		}
		dst.copyFrom(src, i, j+1)
		i = j + 1
	}
	src.drop(i)
}

// heldBack is how many final bytes of b the next chunk could still change:
// a "\r" (a "\n" may follow) or an incomplete UTF-8 sequence.
func heldBack(b []byte) int {
	n := len(b)
	if n == 0 {
		return 0
	}
	if b[n-1] == '\r' {
		return 1
	}
	k := n - 1
	for k > 0 && k > n-utf8.UTFMax && !utf8.RuneStart(b[k]) {
		k--
	}
	if !utf8.FullRune(b[k:]) {
		return n - k
	}
	return 0
}

// segments moves src's complete normalization segments to dst, each
// transformed by t, keeping back, unless atEOF, a last segment a later byte
// could still extend. Runs of ASCII take a fast path: copied, or lowered
// when t.lower is set (what t.f does to ASCII).
func segments(dst, src *spanBuf, atEOF bool, t *segTransform) {
	b := src.b
	i := 0
	for i < len(b) {
		if b[i] < utf8.RuneSelf {
			j := i + 1
			for j < len(b) && b[j] < utf8.RuneSelf {
				j++
			}
			end := j
			if j < len(b) || !atEOF {
				end-- // a combining mark after it could join its last byte
			}
			if end == i && j == len(b) {
				break // only its last byte is left, and a later one could join it
			}
			if end > i {
				start := len(dst.b)
				dst.copyFrom(src, i, end)
				if t.lower {
					lowerASCII(dst.b[start:])
				}
				i = end
				continue
			}
		}
		n := norm.NFC.NextBoundary(b[i:], atEOF)
		if n <= 0 {
			break
		}
		if out, same := t.apply(b[i : i+n]); same {
			dst.copyFrom(src, i, i+n)
		} else {
			dst.appendUnit(out, src, i)
		}
		i += n
	}
	src.drop(i)
}

func lowerASCII(b []byte) {
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
}

// rawTail keeps the end of the stream as given, for the excerpt a failure
// shows: the current chunk whole and at least tailKeep bytes before it.
type rawTail struct {
	b      []byte
	start  int   // the stream offset of b[0]
	chunks []int // stream offsets of the chunks starting in b (or holding b[0])
	first  int   // the index of chunks[0]
}

const tailKeep = 4096

func (t *rawTail) add(chunk string) {
	if len(t.b) > 2*tailKeep { // trim now and then, not on every chunk
		cut := len(t.b) - tailKeep
		t.b = append(t.b[:0], t.b[cut:]...)
		t.start += cut
		k := 0
		for k+1 < len(t.chunks) && t.chunks[k+1] <= t.start {
			k++
		}
		t.chunks = append(t.chunks[:0], t.chunks[k:]...)
		t.first += k
	}
	t.chunks = append(t.chunks, t.start+len(t.b))
	t.b = append(t.b, chunk...)
}

// text is the stream's bytes [from, to), as far as they are kept.
func (t *rawTail) text(from, to int) string {
	from, to = max(from, t.start), min(to, t.start+len(t.b))
	if from >= to {
		return ""
	}
	return string(t.b[from-t.start : to-t.start])
}

// redacted returns the kept bytes as a settled secret.Stream: Text gives
// any span of them redacted as the whole is, so a secret the chunks cut
// is its label in the part where it starts and nothing in the others.
// They are read as an excerpt cut at their end ("…"): a check settles
// before the stream ends, and a key the model was still writing is then
// cut there (MaxLength's excerpt reaches 12 bytes past its character).
func (t *rawTail) redacted() *secret.Stream {
	var rs secret.Stream
	rs.Write(t.b)
	rs.WriteString("…")
	rs.Settle(true)
	return &rs
}

// cleanText is text, redacted as the kept bytes are whole (see redacted).
func (t *rawTail) cleanText(rs *secret.Stream, from, to int) string {
	from, to = max(from, t.start), min(to, t.start+len(t.b))
	if from >= to {
		return ""
	}
	return rs.Text(from-t.start, to-t.start)
}

// excerpt shows the stream's bytes [from, to) in the chunks holding them,
// with up to ctx bytes of context each side within those chunks, each
// part prefixed with its chunk: chunks[2] "…your pass" + chunks[3] "word is…".
// Each part is redacted as the text is whole: quoted one by one, the
// parts of a key the chunks cut would be pieces the redactor that cleans
// the message cannot tell from text.
func (t *rawTail) excerpt(from, to, ctx int) string {
	const maxParts = 6
	rs := t.redacted()
	last := max(to-1, from)
	var parts []string
	for k, cs := range t.chunks {
		ce := t.start + len(t.b)
		if k+1 < len(t.chunks) {
			ce = t.chunks[k+1]
		}
		if ce <= from && !(cs == ce && cs == from) || cs > last {
			continue // outside the match
		}
		s, e := max(cs, from-ctx, t.start), min(ce, last+1+ctx)
		s, e = runeCut(t, s, e)
		part := textnorm.Quote(t.cleanText(rs, s, e), 80)
		if s > max(cs, t.start) {
			part = "…" + part
		}
		if e < ce {
			part += "…"
		}
		parts = append(parts, fmt.Sprintf("chunks[%d] %s", t.first+k, part))
	}
	if len(parts) > maxParts {
		parts = append(append(parts[:maxParts/2:maxParts/2], fmt.Sprintf("… %d more chunks …", len(parts)-maxParts+1)), parts[len(parts)-maxParts/2+1:]...)
	}
	return strings.Join(parts, " + ")
}

// runeCut moves an excerpt's edges off the middle of characters.
func runeCut(t *rawTail, s, e int) (int, int) {
	for s > t.start && s < t.start+len(t.b) && !utf8.RuneStart(t.b[s-t.start]) {
		s--
	}
	for e < t.start+len(t.b) && !utf8.RuneStart(t.b[e-t.start]) {
		e++
	}
	return s, e
}
