package evaltest_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	evalassert "github.com/evalkit-go/evalkit/assert"
	"github.com/evalkit-go/evalkit/evaltest"
)

// deltas is a streamed answer that leaks a password split across chunks,
// and an SSN split inside a number.
var deltas = []string{"Sure! Your new ", "pass", "word is hunter2. ", "Your SSN is 123-4", "5-6789."}

// Each stream check's failure message, exactly: the call as written, where
// the stream settled (chunk, byte in it, byte of the stream), the matched
// text across its chunks, and the stream's size.
func TestStreamMessages(t *testing.T) {
	tests := []struct {
		name  string
		chain func(s *evaltest.StreamExpectation)
		want  string
	}{
		{"Excludes", func(s *evaltest.StreamExpectation) { s.Excludes("api key", "PASSWORD") },
			`Excludes("api key", "PASSWORD"): found "PASSWORD" at chunks[1], byte 0 (byte 15 of the stream)
match: "password" in chunks[1] "pass" + chunks[2] "word is hunter2. "`},
		{"banned regex", func(s *evaltest.StreamExpectation) {
			s.Check(evalassert.Regex{Pattern: `\b\d{3}-\d{2}-\d{4}\b`, NoMatch: true})
		},
			`Check(assert.Regex{Pattern: "\\b\\d{3}-\\d{2}-\\d{4}\\b", NoMatch: true}): pattern matched at chunks[3], byte 12 (byte 48 of the stream), want no match
match: "123-45-6789" in chunks[3] "Your SSN is 123-4" + chunks[4] "5-6789."`},
		{"Regex never matches", func(s *evaltest.StreamExpectation) { s.Regex(`(?i)refund`) },
			`Regex("(?i)refund"): no match in the stream`},
		{"MaxLength", func(s *evaltest.StreamExpectation) { s.MaxLength(20) },
			`MaxLength(20): over 20 characters: character 21 is at chunks[2], byte 1 (byte 20 of the stream)
at: "o" in chunks[2] "word is hunter"…`},
		{"whole words", func(s *evaltest.StreamExpectation) {
			s.Check(evalassert.ContentExcludes{Patterns: []string{"ssn"}, MatchWords: true})
		},
			`Check(assert.ContentExcludes{Patterns: ["ssn"], MatchWords: true}): found "ssn" at chunks[3], byte 5 (byte 41 of the stream)
match: "SSN" in chunks[3] "Your SSN is 123-4"`},
		{"bad parameter", func(s *evaltest.StreamExpectation) { s.Excludes() },
			`Excludes(): error: content_excludes: param "patterns": empty list: give at least one pattern`},
		{"nil check", func(s *evaltest.StreamExpectation) { s.Check(nil) }, `Check(nil): error: nil check`},
		{"panicking check", func(s *evaltest.StreamExpectation) { s.Check((*evalassert.Regex)(nil)) },
			`Check(*assert.Regex): error: the check panicked: value method github.com/evalkit-go/evalkit/assert.Regex.NewStream called using nil *Regex pointer`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := report(func(et *evaltest.T) { tt.chain(et.ExpectStream(deltas)) })
			assert.Equal(t, []string{tt.want + "\nstream: 5 chunks, 60 bytes"}, tb.errors)
		})
	}
}

func TestStreamChain(t *testing.T) {
	var ok bool
	tb := report(func(et *evaltest.T) {
		ok = et.ExpectStream(deltas).
			Regex(`hunter\d`).
			MaxLength(100).
			Excludes("password").
			Check(evalassert.ContentExcludes{Patterns: []string{"hunter"}, CaseSensitive: true}).
			OK()
	})
	assert.False(t, ok)
	assert.Len(t, tb.errors, 2, "Expect keeps going")
	assert.False(t, tb.fatal)

	tb = report(func(et *evaltest.T) {
		et.RequireStream(deltas).Excludes("password").MaxLength(1)
	})
	assert.True(t, tb.fatal)
	assert.Len(t, tb.errors, 1, "Require stops at the first failure")

	tb = report(func(et *evaltest.T) { et.ExpectStream(nil).Excludes("password") })
	assert.Equal(t, []string{"Excludes(\"password\"): error: content_excludes: no assistant output: the stream ended before its first chunk\nstream: 0 chunks, 0 bytes"}, tb.errors)

	tb = report(func(et *evaltest.T) {
		ok = et.ExpectStream([]string{"All ", "good."}).Excludes("password").Regex(`good\.$`).MaxLength(9).OK()
	})
	assert.True(t, ok)
	assert.Empty(t, tb.errors)
	assert.Positive(t, tb.helpers)
}
