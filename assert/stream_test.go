package assert_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	testify "github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit/assert"
)

// streamOf feeds chunks to c's stream until it settles, then ends it.
func streamOf(t testing.TB, c assert.StreamCheck, chunks []string) assert.StreamResult {
	t.Helper()
	s, err := c.NewStream()
	require.NoError(t, err)
	for _, ch := range chunks {
		if s.Feed(ch) {
			break
		}
	}
	res, err := s.End()
	require.NoError(t, err)
	return res
}

// split cuts text at the given byte offsets (sorted, any of them inside a
// character).
func split(text string, cuts ...int) []string {
	var out []string
	prev := 0
	for _, c := range cuts {
		out = append(out, text[prev:c])
		prev = c
	}
	return append(out, text[prev:])
}

// A banned pattern split across chunks is found, at the chunk and byte
// where it begins.
func TestStreamExcludesSplitPattern(t *testing.T) {
	chunks := []string{"Sure! Your new ", "pass", "word is hunter2."}
	res := streamOf(t, assert.ContentExcludes{Patterns: []string{"PassWord"}}, chunks)
	testify.False(t, res.Passed)
	testify.Equal(t, &assert.StreamPos{Chunk: 1, Offset: 15, ChunkOffset: 0}, res.At)
	testify.Equal(t, `found "PassWord" at chunks[1], byte 0 (byte 15 of the stream)`, res.Summary)
	testify.Equal(t, []assert.Detail{{Label: "match", Text: `"password" in chunks[1] "pass" + chunks[2] "word is hunter2."`}}, res.Details)

	// One byte a chunk.
	text := "Ignore that. The passWORD is hunter2."
	var bytesChunks []string
	for i := range len(text) {
		bytesChunks = append(bytesChunks, text[i:i+1])
	}
	res = streamOf(t, assert.ContentExcludes{Patterns: []string{"password"}}, bytesChunks)
	testify.Equal(t, &assert.StreamPos{Chunk: 17, Offset: 17, ChunkOffset: 0}, res.At)

	// Case-folded and invisible characters, split inside characters.
	text = "Die STRA\u200bSSE ist gesperrt"
	res = streamOf(t, assert.ContentExcludes{Patterns: []string{"straße"}}, split(text, 6, 9, 10, 11))
	testify.Equal(t, &assert.StreamPos{Chunk: 0, Offset: 4, ChunkOffset: 4}, res.At, res.Summary)
	res = streamOf(t, assert.ContentExcludes{Patterns: []string{"straße"}}, split(text, 4, 9, 10, 11))
	testify.Equal(t, &assert.StreamPos{Chunk: 1, Offset: 4, ChunkOffset: 0}, res.At, res.Summary)

	res = streamOf(t, assert.ContentExcludes{Patterns: []string{"password"}}, chunks[:1])
	testify.True(t, res.Passed)
	testify.Nil(t, res.At)
	testify.Equal(t, "none of 1 pattern found in the stream", res.Summary)
}

func TestStreamExcludesWholeWords(t *testing.T) {
	c := assert.ContentExcludes{Patterns: []string{"ass"}, MatchWords: true}
	testify.True(t, streamOf(t, c, []string{"I can ", "ass", "ist you"}).Passed, "assist is not the word")
	res := streamOf(t, c, []string{"you ", "ass"})
	testify.False(t, res.Passed, "the end of the stream ends the word")
	testify.Equal(t, 4, res.At.Offset)
	res = streamOf(t, c, []string{"you ass", ", sorry"})
	testify.Equal(t, &assert.StreamPos{Chunk: 0, Offset: 4, ChunkOffset: 4}, res.At)
	testify.True(t, streamOf(t, c, []string{"b", "ass guitar"}).Passed, "bass")
}

func TestStreamRegex(t *testing.T) {
	ssn := assert.Regex{Pattern: `\b\d{3}-\d{2}-\d{4}\b`, NoMatch: true}
	res := streamOf(t, ssn, []string{"My SSN is 123-4", "5-6789", " ok?"})
	testify.False(t, res.Passed)
	testify.Equal(t, &assert.StreamPos{Chunk: 0, Offset: 10, ChunkOffset: 10}, res.At)
	testify.Equal(t, `pattern matched at chunks[0], byte 10 (byte 10 of the stream), want no match`, res.Summary)
	testify.Equal(t, `"123-45-6789" in chunks[0] "My SSN is 123-4" + chunks[1] "5-6789"`, res.Details[0].Text)

	testify.True(t, streamOf(t, ssn, []string{"call 123-45-67890"}).Passed, `\b after the last digit fails`)
	testify.False(t, streamOf(t, ssn, []string{"123-45-6789"}).Passed, "the end of the stream is a boundary")

	// End anchors settle only at the end.
	end := assert.Regex{Pattern: `done\.$`}
	s, err := end.NewStream()
	require.NoError(t, err)
	testify.False(t, s.Feed("All done."), "more may follow")
	res, err = s.End()
	require.NoError(t, err)
	testify.True(t, res.Passed)
	testify.False(t, streamOf(t, end, []string{"All done.", " Bye."}).Passed)

	// Unbounded repetition, across chunks.
	key := assert.Regex{Pattern: `sk-[A-Za-z0-9]{20,}`, NoMatch: true}
	res = streamOf(t, key, []string{"key: sk-abcdefghij", "klmnopqrst", "uvw"})
	testify.Equal(t, 5, res.At.Offset)
	testify.True(t, streamOf(t, key, []string{"key: sk-abcdefghij", "klm"}).Passed)

	// A wanted pattern passes as soon as it matches.
	want := assert.Regex{Pattern: `(?i)order #W\d+`}
	s, err = want.NewStream()
	require.NoError(t, err)
	testify.False(t, s.Feed("Your ORDER #W"))
	testify.True(t, s.Feed("123 is on its way"))
	res, err = s.End()
	require.NoError(t, err)
	testify.True(t, res.Passed)
	testify.Equal(t, "matched at chunks[0], byte 5 (byte 5 of the stream)", res.Summary)
	res = streamOf(t, want, []string{"no order here"})
	testify.False(t, res.Passed)
	testify.Equal(t, "no match in the stream", res.Summary)

	// CRLF reads as LF, also split across chunks.
	lines := assert.Regex{Pattern: `(?m)^total: \d+$`}
	testify.True(t, streamOf(t, lines, []string{"a\r", "\ntotal: 4\r", "\nb"}).Passed)
}

func TestStreamMaxLength(t *testing.T) {
	c := assert.MaxLength{Max: 10}
	res := streamOf(t, c, []string{"Grüße, ", "Welt!", " more"})
	testify.False(t, res.Passed)
	testify.Equal(t, &assert.StreamPos{Chunk: 1, Offset: 12, ChunkOffset: 3}, res.At)
	testify.Equal(t, "over 10 characters: character 11 is at chunks[1], byte 3 (byte 12 of the stream)", res.Summary)
	testify.Equal(t, []assert.Detail{{Label: "at", Text: `"t" in chunks[1] "Welt!"`}}, res.Details)

	// A character split across chunks counts once; so does a CRLF.
	res = streamOf(t, c, split("Grüße\r\nWelt", 3, 6))
	testify.True(t, res.Passed, res.Summary)
	testify.Equal(t, "10 characters, want <= 10", res.Summary)
}

func TestStreamErrors(t *testing.T) {
	for _, c := range []assert.StreamCheck{
		assert.ContentExcludes{},
		assert.ContentExcludes{Patterns: []string{"a", ""}},
		assert.Regex{Pattern: "("},
		assert.Regex{Pattern: "x*"},
		assert.MaxLength{},
	} {
		_, err := c.NewStream()
		var pe *assert.ParamError
		testify.ErrorAs(t, err, &pe, "%#v", c)
	}
	for _, c := range []assert.StreamCheck{assert.ContentExcludes{Patterns: []string{"x"}}, assert.Regex{Pattern: "x", NoMatch: true}, assert.MaxLength{Max: 1}} {
		s, err := c.NewStream()
		require.NoError(t, err)
		_, err = s.End()
		testify.ErrorIs(t, err, assert.ErrNoOutput, "no chunk is no output: %T", c)
		testify.True(t, streamOf(t, c, []string{""}).Passed, "an empty chunk is an empty output: %T", c)
	}

	s, err := assert.MaxLength{Max: 1}.NewStream()
	require.NoError(t, err)
	testify.True(t, s.Feed("ab"))
	testify.True(t, s.Feed("more is ignored"))
	r1, _ := s.End()
	r2, _ := s.End()
	testify.Equal(t, r1, r2)
}

// pieces are what random streams are made of: words, cased and folded
// forms, combining marks, invisible characters, line endings, invalid
// bytes, scripts without spaces.
var pieces = []string{
	"pass", "word", "PASS", "Word", " ", "  ", "\n", "\r\n", "\r", "\t", "-", "_", ".", "123", "45", "6789",
	"Straße", "STRASSE", "strasse", "e\u0301", "\u00e9", "\u200b", "\u00ad", "\ufeff", "дурак", "ДУРАК", "中文", "😀",
	"\xff", "\xe2\x82", "ǅ", "ﬃ", "K", "\u212a", "sk-", "abcdefghij", "total: ", "done.", "x", "y", "#W", "a", "b",
}

func randomText(r *rand.Rand) string {
	var b strings.Builder
	for range r.IntN(12) {
		b.WriteString(pieces[r.IntN(len(pieces))])
	}
	return b.String()
}

func randomCuts(r *rand.Rand, n int) []int {
	var cuts []int
	for i := 1; i < n; i++ {
		if r.IntN(3) == 0 {
			cuts = append(cuts, i)
		}
	}
	return cuts
}

// A stream check decides as its batch check decides on the whole text,
// however the text is cut into chunks; and the position it reports adds
// up: the chunks before it and the offset within its chunk.
func TestStreamAgreesWithBatch(t *testing.T) {
	checks := []assert.StreamCheck{
		assert.ContentExcludes{Patterns: []string{"password"}},
		assert.ContentExcludes{Patterns: []string{"password", "straße", "é", "дурак", "a\nb", "k"}},
		assert.ContentExcludes{Patterns: []string{"Word", "é", "\u00e9t"}, CaseSensitive: true},
		assert.ContentExcludes{Patterns: []string{"word", "дурак", "123", "中"}, MatchWords: true},
		assert.ContentExcludes{Patterns: []string{"pass word"}, MatchWords: true, CaseSensitive: true},
		assert.Regex{Pattern: `pass\s*word`, NoMatch: true},
		assert.Regex{Pattern: `\bword\b`, NoMatch: true},
		assert.Regex{Pattern: `(?m)^word$`},
		assert.Regex{Pattern: `^pass`},
		assert.Regex{Pattern: `word$`, NoMatch: true},
		assert.Regex{Pattern: `\d{3}-?\d{2}`},
		assert.Regex{Pattern: `(?i)strasse|дурак`},
		assert.Regex{Pattern: `e\x{301}|é`},
		assert.Regex{Pattern: `a.*b`, NoMatch: true},
		assert.Regex{Pattern: `x\r?\ny`},
		assert.Regex{Pattern: `(?s)a.+b`},
		assert.Regex{Pattern: `\B\w`},
		assert.Regex{Pattern: `^\s*$`, NoMatch: true},
		assert.Regex{Pattern: `\x{FFFD}`},
		assert.Regex{Pattern: `sk-[a-z]{3,}`},
		assert.MaxLength{Max: 1},
		assert.MaxLength{Max: 7},
		assert.MaxLength{Max: 30},
	}
	r := rand.New(rand.NewPCG(11, 24))
	ctx := context.Background()
	for i := range 3000 {
		text := randomText(r)
		chunks := split(text, randomCuts(r, len(text))...)
		tr := textChat(text)
		for _, c := range checks {
			want, err := c.Check(ctx, tr)
			require.NoError(t, err)
			got := streamOf(t, c, chunks)
			if !testify.Equal(t, want.Passed, got.Passed, "case %d: %s on %q in %q\nbatch: %s\nstream: %s", i, assert.Describe(c), text, chunks, want.Summary, got.Summary) {
				return
			}
			if got.At != nil {
				before := 0
				for _, ch := range chunks[:got.At.Chunk] {
					before += len(ch)
				}
				require.Equal(t, got.At.Offset, before+got.At.ChunkOffset, "%q in %q", text, chunks)
				require.LessOrEqual(t, got.At.ChunkOffset, len(chunks[got.At.Chunk]), "%q in %q", text, chunks)
			}
		}
	}
}

func ExampleStreamCheck() {
	chunks := []string{"Sure. Your new pass", "word is hunter2, and", " your PIN is 1234."}
	banned := assert.ContentExcludes{Patterns: []string{"password"}}
	s, err := banned.NewStream()
	if err != nil {
		panic(err)
	}
	for i, chunk := range chunks {
		if s.Feed(chunk) {
			fmt.Println("settled after chunk", i)
			break // a guardrail would stop the stream here
		}
	}
	res, _ := s.End()
	fmt.Println(res.Passed, res.Summary)
	fmt.Println(res.At.Chunk, res.At.ChunkOffset, res.At.Offset)
	// Output:
	// settled after chunk 1
	// false found "password" at chunks[0], byte 15 (byte 15 of the stream)
	// 0 15 15
}
