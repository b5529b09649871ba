package assert

import (
	"bytes"
	"fmt"
	"unicode"
	"unicode/utf8"

	"github.com/evalkit-go/evalkit/internal/textnorm"
)

// StreamCheck is a check that can judge an output while it streams, chunk
// by chunk, as PromptKit's partial evaluation (EvalPartial) does: a check
// whose failure a prefix can prove. ContentExcludes (a banned pattern has
// appeared), Regex (for NoMatch, a banned pattern has appeared; otherwise
// the pattern has matched) and MaxLength (the output is already too long)
// are stream checks. A stream check judges the concatenated chunks exactly
// as its Check judges that text as one assistant message (Scope does not
// apply: a stream is one message), and a chunk boundary never hides a
// match: a pattern split across chunks is found.
//
// Each chunk is read once: a stream keeps the state of its matchers and a
// bounded tail (the longest pattern and a character before it, and up to
// 8 KiB of the text as given, for a failure's excerpt), never the whole
// prefix. Regex runs its pattern incrementally (see regexStream), so any
// RE2 pattern streams, anchors and unbounded repetition included. A later check joins by implementing the
// interface; the PII pre-pass of a later issue is meant to, on the same
// incremental matchers.
type StreamCheck interface {
	Check
	// NewStream starts judging one streamed output. Its error is the
	// check's own (a bad parameter, an invalid pattern): the check cannot
	// be evaluated, on a stream or not.
	NewStream() (Stream, error)
}

// Stream judges one streamed output as it arrives. Feed each chunk in
// order, then call End. A Stream is not safe for concurrent use.
type Stream interface {
	// Feed reads the next chunk (a text delta of a streaming API; any
	// split, even inside a character, is read correctly). It reports
	// whether the outcome is settled: a banned pattern appeared, the
	// output grew too long, a wanted pattern matched. No later chunk can
	// change a settled outcome, so a guardrail may stop the stream there;
	// chunks fed after it are ignored.
	Feed(chunk string) (settled bool)
	// End marks the end of the output and returns the result on it, or on
	// the prefix that settled it. Calling it again returns the same. A
	// stream that ended before its first chunk is an error wrapping
	// ErrNoOutput, as a transcript without an assistant message is (an
	// empty chunk is an empty output).
	End() (StreamResult, error)
}

// StreamResult is a stream check's result, with where it was settled.
type StreamResult struct {
	Result
	// At is where the outcome was settled: where the banned or matched
	// text begins, or the first character past the maximum length. Nil
	// when only the end of the stream settled it (no banned text, a
	// wanted pattern never matched).
	At *StreamPos
}

// StreamPos is a place in a streamed output.
type StreamPos struct {
	// Chunk is the chunk's index, from 0.
	Chunk int
	// Offset is the byte offset from the start of the stream: the bytes
	// of every earlier chunk plus ChunkOffset.
	Offset int
	// ChunkOffset is the byte offset within the chunk.
	ChunkOffset int
}

// String writes the position as failure messages do:
// "chunks[3], byte 2 (byte 57 of the stream)".
func (p StreamPos) String() string {
	return fmt.Sprintf("chunks[%d], byte %d (byte %d of the stream)", p.Chunk, p.ChunkOffset, p.Offset)
}

// noChunks is the error of a stream ended before any chunk: no output,
// which must not pass an exclusion (an empty chunk is an empty output).
func noChunks(check string) error {
	return fmt.Errorf("%s: %w: the stream ended before its first chunk", check, ErrNoOutput)
}

// settledResult is the failure or pass a stream settled at pos, the
// matched stream bytes [from, to) quoted in a "match" detail.
func settledResult(passed bool, summary string, at StreamPos, tail *rawTail, from, to int) StreamResult {
	r := fail(0, summary)
	if passed {
		r = pass(1, summary)
	}
	if to > from {
		r.Details = append(r.Details, Detail{"match", textnorm.Quote(tail.cleanText(tail.redacted(), from, to), 80) + " in " + tail.excerpt(from, to, 24)})
	}
	return StreamResult{Result: r, At: &at}
}

// NewStream implements StreamCheck: the stream settles as failed at the
// first banned pattern to appear, its position the pattern's first byte.
// Matching is Check's (case folding, NFC, invisible characters ignored,
// whole words with MatchWords); a whole-word match at the end of a chunk
// waits for the next character, or the end.
func (c ContentExcludes) NewStream() (Stream, error) {
	if err := c.validate(); err != nil {
		return nil, err
	}
	m := newMatcher(c.Patterns, c.CaseSensitive)
	s := &excludeStream{c: c, atStart: true}
	for _, n := range m.needles {
		s.needles = append(s.needles, []byte(n))
		s.maxLen = max(s.maxLen, len(n))
	}
	s.pipe.mode = normFold
	if c.CaseSensitive {
		s.pipe.mode = normCanonical
	}
	return s, nil
}

type excludeStream struct {
	c       ContentExcludes
	needles [][]byte // prepared as the batch check prepares them
	maxLen  int
	pipe    normPipe
	win     spanBuf // the prepared tail of the stream
	atStart bool    // win begins at the stream's start
	tail    rawTail
	res     *StreamResult
	ended   bool
}

func (s *excludeStream) Feed(chunk string) bool {
	if s.res != nil || s.ended {
		return s.res != nil
	}
	s.tail.add(chunk)
	old := len(s.win.b)
	s.pipe.push(&s.win, chunk)
	s.scan(old, false)
	return s.res != nil
}

func (s *excludeStream) End() (StreamResult, error) {
	if s.pipe.chunks == 0 {
		return StreamResult{}, noChunks("content_excludes")
	}
	if !s.ended && s.res == nil {
		old := len(s.win.b)
		s.pipe.flush(&s.win)
		s.scan(old, true)
	}
	s.ended = true
	if s.res != nil {
		return *s.res, nil
	}
	return StreamResult{Result: pass(1, fmt.Sprintf("none of %s found in the stream", plural(len(s.needles), "pattern")))}, nil
}

// scan looks for the needles in what arrived after old, and in the tail
// before it that a needle ending in the new bytes could start in.
func (s *excludeStream) scan(old int, atEOF bool) {
	from := max(0, old-s.maxLen-utf8.UTFMax)
	best, bestAt := -1, 0
	for i, nd := range s.needles {
		for k := from; k <= len(s.win.b); {
			idx := bytes.Index(s.win.b[k:], nd)
			if idx < 0 {
				break
			}
			at := k + idx
			if !s.c.MatchWords || s.wholeWord(at, len(nd), atEOF) {
				if best < 0 || at < bestAt {
					best, bestAt = i, at
				}
				break
			}
			k = at + 1
		}
	}
	if best >= 0 {
		start, last := s.win.pos(bestAt), s.win.pos(bestAt+len(s.needles[best])-1)
		summary := fmt.Sprintf("found %s at %s", excerpt(s.c.Patterns[best]), start)
		to := s.pipe.next() // the needle ends the window: up to what is still pending
		if end := bestAt + len(s.needles[best]); end < len(s.win.b) {
			to = s.win.pos(end).Offset
		}
		r := settledResult(false, summary, start, &s.tail, start.Offset, max(to, last.Offset+1))
		s.res = &r
		return
	}
	// Keep what a needle ending in the next bytes could start in, and the
	// character before it.
	keep := s.maxLen + utf8.UTFMax
	if cut := len(s.win.b) - keep; cut > 0 {
		for cut > 0 && !utf8.RuneStart(s.win.b[cut]) {
			cut--
		}
		s.win.drop(cut)
		s.atStart = s.atStart && cut == 0
	}
}

// wholeWord reports whether the needle at [at, at+n) of the window stands
// as a whole word, as wordPattern decides: where it begins or ends with a
// word character, the character next to it must not be one. A needle
// ending the window is decided by the next character, or at the end.
func (s *excludeStream) wholeWord(at, n int, atEOF bool) bool {
	b := s.win.b
	if first, _ := utf8.DecodeRune(b[at:]); isWordRune(first) {
		if at > 0 {
			if prev, _ := utf8.DecodeLastRune(b[:at]); inWordClass(prev) {
				return false
			}
		} else if !s.atStart {
			return false // cannot happen: the window keeps a character before any match
		}
	}
	if last, _ := utf8.DecodeLastRune(b[:at+n]); isWordRune(last) {
		if at+n == len(b) {
			return atEOF
		}
		if next, _ := utf8.DecodeRune(b[at+n:]); inWordClass(next) {
			return false
		}
	}
	return true
}

// inWordClass is wordPattern's class of word characters: \p{L}, \p{N},
// \p{M} and "_".
func inWordClass(r rune) bool {
	return r == '_' || unicode.In(r, unicode.L, unicode.N, unicode.M)
}

// NewStream implements StreamCheck. With NoMatch the stream settles as
// failed at the first match to appear; otherwise as passed at it, and
// fails at the end when nothing matched. The pattern runs as its own
// incremental RE2 program (see regexStream): each character is read once,
// whatever the pattern, unbounded repetition and anchors included. A match
// is confirmed when the character after it arrives, or at the end, since
// \b and $ depend on it.
func (c Regex) NewStream() (Stream, error) {
	if err := c.validate(); err != nil {
		return nil, err
	}
	vm, err := newRegexStream("regex", "pattern", c.Pattern)
	if err != nil {
		return nil, err
	}
	return &patternStream{c: c, vm: vm}, nil
}

type patternStream struct {
	c     Regex
	vm    *regexStream
	pipe  normPipe // newlines only, as Check reads the text
	buf   spanBuf
	tail  rawTail
	res   *StreamResult
	ended bool
}

func (s *patternStream) Feed(chunk string) bool {
	if s.res != nil || s.ended {
		return s.res != nil
	}
	s.tail.add(chunk)
	s.pipe.push(&s.buf, chunk)
	s.run(false)
	return s.res != nil
}

func (s *patternStream) End() (StreamResult, error) {
	if s.pipe.chunks == 0 {
		return StreamResult{}, noChunks("regex")
	}
	if !s.ended && s.res == nil {
		s.pipe.flush(&s.buf)
		s.run(true)
	}
	s.ended = true
	if s.res != nil {
		return *s.res, nil
	}
	if s.c.NoMatch {
		return StreamResult{Result: pass(1, "no match in the stream")}, nil
	}
	return StreamResult{Result: fail(0, "no match in the stream")}, nil
}

func (s *patternStream) run(atEOF bool) {
	m, ok := s.vm.feed(&s.buf, atEOF, s.pipe.end())
	s.buf.drop(len(s.buf.b))
	if !ok {
		return
	}
	var r StreamResult
	if s.c.NoMatch {
		r = settledResult(false, fmt.Sprintf("pattern matched at %s, want no match", m.start), m.start, &s.tail, m.start.Offset, m.end.Offset)
	} else {
		r = settledResult(true, "matched at "+m.start.String(), m.start, &s.tail, m.start.Offset, m.end.Offset)
	}
	s.res = &r
}

// NewStream implements StreamCheck: the stream settles as failed at the
// first character past Max (counted as Check counts: code points, CRLF as
// one), and passes at the end otherwise. Its score is 1 or 0.
func (c MaxLength) NewStream() (Stream, error) {
	if err := c.validate(); err != nil {
		return nil, err
	}
	return &lengthStream{max: c.Max}, nil
}

type lengthStream struct {
	max   int
	n     int // characters so far
	pipe  normPipe
	buf   spanBuf
	tail  rawTail
	res   *StreamResult
	ended bool
}

func (s *lengthStream) Feed(chunk string) bool {
	if s.res != nil || s.ended {
		return s.res != nil
	}
	s.tail.add(chunk)
	s.pipe.push(&s.buf, chunk)
	s.count()
	return s.res != nil
}

func (s *lengthStream) End() (StreamResult, error) {
	if s.pipe.chunks == 0 {
		return StreamResult{}, noChunks("max_length")
	}
	if !s.ended && s.res == nil {
		s.pipe.flush(&s.buf)
		s.count()
	}
	s.ended = true
	if s.res != nil {
		return *s.res, nil
	}
	return StreamResult{Result: pass(1, fmt.Sprintf("%s, want <= %d", plural(s.n, "character"), s.max))}, nil
}

func (s *lengthStream) count() {
	b := s.buf.b
	if s.n+len(b) <= s.max { // even one byte a character stays within
		s.n += utf8.RuneCount(b)
		s.buf.drop(len(b))
		return
	}
	for i := 0; i < len(b); {
		_, w := utf8.DecodeRune(b[i:])
		s.n++
		if s.n > s.max {
			at := s.buf.pos(i)
			summary := fmt.Sprintf("over %s: character %d is at %s", plural(s.max, "character"), s.n, at)
			r := settledResult(false, summary, at, &s.tail, at.Offset, at.Offset)
			r.Details = []Detail{{"at", textnorm.Quote(s.tail.cleanText(s.tail.redacted(), at.Offset, at.Offset+w), 8) + " in " + s.tail.excerpt(at.Offset, at.Offset+w, 12)}}
			s.res = &r
			break
		}
		i += w
	}
	s.buf.drop(len(b))
}

// compile-time checks: the streamable checks.
var (
	_ StreamCheck = ContentExcludes{}
	_ StreamCheck = Regex{}
	_ StreamCheck = MaxLength{}
)
