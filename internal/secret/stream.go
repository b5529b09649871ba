package secret

import (
	"bytes"
	"io"
	"sync"
)

// Holdback bounds how much of the text received last a Stream keeps
// unsettled (see Settle), beyond the longest value the process knows. A
// Stream settles text up to the last run without white space — a key, or
// the head of one, is such a run: "Bearer ", "api_key = " and "-----BEGIN
// PRIVATE KEY-----" end before theirs starts — and never holds back more
// than this. Every shape is decided within it: the longest prefix and
// minimum body (an Atlassian token, 192 bytes), or the farthest a secret
// starts before its anchor (an AWS secret key up to 256 bytes before its
// key id, on the same run of text).
const Holdback = 1024

// lookback is how far before the settled end a Stream scans again: at
// least the farthest a secret starts before the anchor that finds it.
const lookback = 512

// Stream redacts text that arrives in pieces — a streamed response, a
// command's output — as Clean would redact the whole: a key split
// across two pieces is found whole. Write adds text; Settle decides the
// text up to its last run without white space (see Holdback), or all of
// it at the end; Text returns settled text redacted.
// A secret that starts in settled text and goes on in text settled later
// is its label where it starts and nothing after: redacting the pieces
// and joining them gives what Clean gives the whole. Offsets count bytes
// from the first written. A Stream is not safe for concurrent use.
type Stream struct {
	text    []byte // received, from base on
	base    int    // offset of text[0]
	settled int    // text before it is decided
	resume  int    // the next Settle scans from here
	hits    []hit  // absolute offsets, sorted, apart
}

// Write adds text.
func (s *Stream) Write(p []byte) { s.text = append(s.text, p...) }

// WriteString adds text.
func (s *Stream) WriteString(p string) { s.text = append(s.text, p...) }

// Len is the bytes written so far.
func (s *Stream) Len() int { return s.base + len(s.text) }

// Settle looks for secrets in what was written since the last Settle (and
// the lookback before it), and returns the end of the settled text: the
// whole text when final.
func (s *Stream) Settle(final bool) int {
	t := tableNow()
	from := max(s.resume, s.base)
	found := t.find(string(s.text[from-s.base:]))
	kept := s.hits[:0]
	for _, h := range s.hits {
		if h.start < from {
			kept = append(kept, h)
		}
	}
	for _, h := range found {
		h.start += from
		h.end += from
		kept = append(kept, h)
	}
	s.hits = merge(kept)
	end := s.Len()
	if !final {
		// Up to the last run of text without white space (a key, or the
		// head of one, is such a run), or the holdback, the nearer.
		floor := max(s.settled, end-Holdback-t.longest)
		i := end
		for i > floor && !isSpace(s.text[i-1-s.base]) {
			i--
		}
		// A private key's header has spaces: not before it is whole.
		tail := s.text[floor-s.base : end-s.base]
		if j := bytes.LastIndex(tail, []byte("-----BEGIN ")); j >= 0 && !bytes.Contains(tail[j+11:], []byte("-----")) {
			i = min(i, floor+j)
		}
		end = max(floor, i)
	}
	s.settled = end
	// Scan again from before the settled end, or from the start of a
	// secret that reaches past it (so it is found whole, and grows).
	s.resume = max(s.base, end-lookback)
	for _, h := range s.hits {
		if h.start < end && h.end >= end {
			s.resume = min(s.resume, h.start)
		}
	}
	return end
}

// Text returns the text in [from, to) redacted: a secret starting there
// is its label; the part of one that started before from is left out.
// to must not pass the settled end, nor from be discarded.
func (s *Stream) Text(from, to int) string {
	if from < s.base || to > s.settled || from > to {
		panic("secret: Stream.Text out of range")
	}
	var out []byte
	at := from
	for _, h := range s.hits {
		if h.end <= from || h.start >= to {
			continue
		}
		if h.start > at {
			out = append(out, s.text[at-s.base:h.start-s.base]...)
		}
		if h.start >= from {
			out = append(out, Label(h.label)...)
		}
		at = min(h.end, to)
	}
	if at < to {
		out = append(out, s.text[at-s.base:to-s.base]...)
	}
	return string(out)
}

// Discard lets the Stream forget the text before offset (no later Text
// reads it), keeping what the next scan needs.
func (s *Stream) Discard(offset int) {
	cut := min(offset, s.resume, s.settled) - s.base
	if cut <= 0 {
		return
	}
	s.text = append(s.text[:0], s.text[cut:]...)
	s.base += cut
	kept := s.hits[:0]
	for _, h := range s.hits {
		if h.end > s.base {
			kept = append(kept, h)
		}
	}
	s.hits = kept
}

// Writer is an io.Writer that redacts what passes through it to w, as a
// Stream does: it holds back the last Holdback bytes (and the longest
// known value) until more come or Flush. Safe for concurrent use.
type Writer struct {
	mu  sync.Mutex
	w   io.Writer
	s   Stream
	out int // written to w up to here
	err error
}

// NewWriter returns a Writer to w.
func NewWriter(w io.Writer) *Writer { return &Writer{w: w} }

// Write redacts p with what came before it, and writes what is settled.
// It reports len(p) written unless an earlier write to w failed.
func (w *Writer) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return 0, w.err
	}
	w.s.Write(p)
	w.emit(w.s.Settle(false))
	return len(p), w.err
}

// Flush writes everything held back.
func (w *Writer) Flush() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return w.err
	}
	w.emit(w.s.Settle(true))
	return w.err
}

func (w *Writer) emit(end int) {
	if end <= w.out {
		return
	}
	text := w.s.Text(w.out, end)
	w.out = end
	w.s.Discard(end)
	if _, err := io.WriteString(w.w, text); err != nil {
		w.err = err
	}
}
