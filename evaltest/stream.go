package evaltest

import (
	"fmt"

	"github.com/evalkit-go/evalkit/assert"
	"github.com/evalkit-go/evalkit/internal/textnorm"
)

// StreamExpectation is a chain of stream checks on one streamed answer,
// started by T.ExpectStream or T.RequireStream. Each method feeds the
// chunks, in order, to its check's stream (assert.StreamCheck) as a
// guardrail would while the answer streams, stops at the chunk that
// settles it, and reports a failure or an error at the caller's line with
// where it was settled:
//
//	Excludes("password"): found "password" at chunks[1], byte 0 (byte 15 of the stream)
//	match: "password" in chunks[0] "Sure! Your new " + chunks[1] "pass" + chunks[2] "word is hunter2."
//	stream: 3 chunks, 35 bytes
type StreamExpectation struct {
	t      *T
	chunks []string
	fatal  bool
	ok     bool
}

// ExpectStream starts a chain of stream checks on one streamed answer,
// given as its chunks in order (the text deltas of a streaming API; a
// chunk may end inside a character). It keeps going after a failure, as
// Expect does. Every check of the chain reads the same chunks, so they are
// a slice: collect a live stream first (slices.Collect of an iter.Seq, or
// appending deltas as they arrive). A pattern split across chunks is found;
// the failure names the chunk and byte where it begins. No chunks at all is
// no output, which every check reports as an error (as a transcript without
// an assistant message); one empty chunk is an empty answer.
//
//	et.ExpectStream(deltas).
//		Excludes("password", "api key").
//		Check(assert.Regex{Pattern: `\b\d{3}-\d{2}-\d{4}\b`, NoMatch: true}).
//		MaxLength(2000)
func (t *T) ExpectStream(chunks []string) *StreamExpectation {
	return &StreamExpectation{t: t, chunks: chunks, ok: true}
}

// RequireStream is ExpectStream that stops the test at the first failure
// or error (tb.Fatalf), as Require does.
func (t *T) RequireStream(chunks []string) *StreamExpectation {
	return &StreamExpectation{t: t, chunks: chunks, ok: true, fatal: true}
}

// OK reports whether every check of the chain so far passed.
func (s *StreamExpectation) OK() bool { return s.ok }

// Excludes checks that the stream never contains any of the patterns,
// ignoring case (assert.ContentExcludes as a stream). It fails at the
// first pattern to appear.
func (s *StreamExpectation) Excludes(patterns ...string) *StreamExpectation {
	s.t.tb.Helper()
	s.report(call("Excludes", strArgs(patterns)...), assert.ContentExcludes{Patterns: patterns})
	return s
}

// Regex checks that the stream matches pattern, in Go RE2 syntax
// (assert.Regex as a stream): it passes at the first match. For a banned
// pattern use Check(assert.Regex{Pattern: p, NoMatch: true}), which fails
// at the first match.
func (s *StreamExpectation) Regex(pattern string) *StreamExpectation {
	s.t.tb.Helper()
	s.report(call("Regex", pattern), assert.Regex{Pattern: pattern})
	return s
}

// MaxLength checks that the stream has at most n characters
// (assert.MaxLength as a stream). It fails at the first character past n.
func (s *StreamExpectation) MaxLength(n int) *StreamExpectation {
	s.t.tb.Helper()
	s.report(call("MaxLength", n), assert.MaxLength{Max: n})
	return s
}

// Check runs any stream check, such as an assert value with options:
//
//	et.ExpectStream(deltas).Check(assert.ContentExcludes{Patterns: []string{"ass"}, MatchWords: true})
//
// The failure message names it as Expectation.Check does.
func (s *StreamExpectation) Check(c assert.StreamCheck) *StreamExpectation {
	s.t.tb.Helper()
	label := textnorm.Excerpt("Check("+describe(c)+")", maxLabel)
	if c == nil {
		s.fail(label, assert.StreamResult{}, fmt.Errorf("nil check"))
		return s
	}
	s.report(label, c)
	return s
}

func (s *StreamExpectation) report(label string, c assert.StreamCheck) {
	s.t.tb.Helper()
	res, err := runStream(c, s.chunks)
	if err == nil && !res.Passed && res.Summary == "" {
		res.Summary = "failed"
	}
	if err == nil && res.Passed {
		s.t.observe(label, checkType(label, c), res.Result, nil, nil, "", nil, false)
		return
	}
	s.fail(label, res, err)
}

func (s *StreamExpectation) fail(label string, res assert.StreamResult, err error) {
	s.t.tb.Helper()
	s.ok = false
	msg := outcome(label, res.Result, err) + "\n" + streamLine(s.chunks)
	s.t.observe(label, checkType(label, nil), res.Result, err, nil, msg, nil, false)
	s.t.fail(msg, err != nil, s.fatal)
}

// runStream feeds the chunks to a new stream of c until it settles, then
// ends it; a panic (a user's stream check) is an evaluation error.
func runStream(c assert.StreamCheck, chunks []string) (res assert.StreamResult, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = assert.StreamResult{}, fmt.Errorf("the check panicked: %v", r)
		}
	}()
	st, err := c.NewStream()
	if err != nil {
		return assert.StreamResult{}, err
	}
	if st == nil {
		return assert.StreamResult{}, fmt.Errorf("NewStream returned no stream and no error")
	}
	for _, ch := range chunks {
		if st.Feed(ch) {
			break
		}
	}
	return st.End()
}

// streamLine says how big the stream is, as the transcript line does for
// a transcript.
func streamLine(chunks []string) string {
	n := 0
	for _, c := range chunks {
		n += len(c)
	}
	noun := "chunks"
	if len(chunks) == 1 {
		noun = "chunk"
	}
	return fmt.Sprintf("stream: %d %s, %d bytes", len(chunks), noun, n)
}
