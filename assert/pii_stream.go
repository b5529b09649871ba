package assert

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// NewStream implements StreamCheck, as the PII streaming hook a guardrail
// needs: the stream settles as failed at the first finding, its position
// the finding's first byte, with the value masked in a "pii" detail.
// Findings are Check's, chunk boundaries never hide one (a card number
// split across three chunks is found), and a candidate is decided once
// the three bytes after it arrive, or at the end: "415-555-2671" is not
// reported while "4155" could still be the start of something else. The
// stream keeps a window of the last few hundred bytes (the longest
// candidate, an e-mail address, is at most 254), never the whole prefix.
func (c PIIPatterns) NewStream() (Stream, error) {
	if err := c.validate(); err != nil {
		return nil, err
	}
	return &piiStream{kinds: c.kinds()}, nil
}

// piiWindow is how many bytes of the stream a PII stream rescans on each
// chunk: more than the longest candidate and its lookahead. piiContext
// bytes before the window are kept for the boundary rules.
const (
	piiWindow  = 320
	piiContext = 2
	// piiMaxRaw bounds the window in the stream's own bytes, whatever
	// share of them is invisible (each chunk rescans the window): a
	// candidate padded with more than this of invisible characters is
	// Check's to find, not the stream's.
	piiMaxRaw = 8 << 10
)

type piiStream struct {
	kinds  []string
	buf    []byte    // buf[:from] is context; candidates start at from or after
	from   int       // see buf
	base   int       // the stream offset of buf[0]
	chunks []chunkAt // the chunks overlapping buf, in order
	count  int       // chunks fed
	res    *StreamResult
	ended  bool
}

// chunkAt is where a chunk starts in the stream.
type chunkAt struct{ index, offset int }

func (s *piiStream) Feed(chunk string) bool {
	if s.res != nil || s.ended {
		return s.res != nil
	}
	s.chunks = append(s.chunks, chunkAt{s.count, s.base + len(s.buf)})
	s.count++
	s.buf = append(s.buf, chunk...)
	s.scan(false)
	if s.res == nil && len(s.buf)-s.from > 2*piiWindow {
		cut := s.windowStart()
		if cut <= s.from {
			return false // the window is all invisible characters: keep it whole, up to piiMaxRaw
		}
		s.buf = append(s.buf[:0], s.buf[cut:]...)
		s.base += cut
		s.from = piiContext
		k := 0
		for k+1 < len(s.chunks) && s.chunks[k+1].offset <= s.base {
			k++
		}
		s.chunks = append(s.chunks[:0], s.chunks[k:]...)
	}
	return s.res != nil
}

// windowStart is where the window kept after a chunk starts: piiWindow
// and piiContext bytes of the text as the patterns read it (piiFold), so
// that invisible characters, which they read as nothing, cannot push a
// candidate out of it — but at most piiMaxRaw bytes of the stream.
func (s *piiStream) windowStart() int {
	folded, i := 0, len(s.buf)
	for i > 0 && folded < piiWindow+piiContext && len(s.buf)-i < piiMaxRaw {
		r, size := utf8.DecodeLastRune(s.buf[:i])
		if rep, changed := foldPIIRune(r); changed {
			folded += len(rep)
		} else {
			folded += size
		}
		i -= size
	}
	return i
}

func (s *piiStream) End() (StreamResult, error) {
	if s.count == 0 {
		return StreamResult{}, noChunks("pii_leakage")
	}
	if !s.ended && s.res == nil {
		s.scan(true)
	}
	s.ended = true
	if s.res != nil {
		return *s.res, nil
	}
	return StreamResult{Result: pass(1, fmt.Sprintf("no PII pattern (%s) in the stream", strings.Join(s.kinds, ", ")))}, nil
}

func (s *piiStream) scan(final bool) {
	found := findPII(string(s.buf), s.from, s.kinds, final)
	if len(found) == 0 {
		return
	}
	f := found[0]
	at := s.pos(s.base + f.start)
	r := fail(0, fmt.Sprintf("found %s at %s", piiNoun(f.kind), at))
	r.Details = []Detail{{"pii", maskPII(f.kind, f.text)}}
	s.res = &StreamResult{Result: r, At: &at}
}

// pos is the stream offset off as a StreamPos.
func (s *piiStream) pos(off int) StreamPos {
	c := s.chunks[0]
	for _, k := range s.chunks {
		if k.offset > off {
			break
		}
		c = k
	}
	return StreamPos{Chunk: c.index, Offset: off, ChunkOffset: off - c.offset}
}

// piiNoun names a kind in a sentence: "a card number".
func piiNoun(kind string) string {
	switch kind {
	case PIIEmail:
		return "an e-mail address"
	case PIIPhone:
		return "a phone number"
	case PIICard:
		return "a card number"
	case PIISSN:
		return "a US Social Security number"
	case PIIIBAN:
		return "an IBAN"
	}
	return kind
}
