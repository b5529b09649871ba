package evaltest_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/evaltest"
	"github.com/evalkit-go/evalkit/internal/secret/secrettest"
)

// Regression tests of the fourth hostile review of issue 15.

// pieces are the parts of a secret a leak shows: whole, and every run of
// 8 of its bytes.
func pieces(s string) []string {
	out := []string{s}
	for i := 0; i+8 <= len(s); i += 4 {
		out = append(out, s[i:i+8])
	}
	return out
}

type account struct {
	Name  string
	Notes string
	Token []byte
}

// StateEquals' diff was go-cmp's, of the states as they are: go-cmp cuts
// a long string into lines of 64 bytes, and a key cut so was shown in
// pieces, past the redactor (183 of 200 placements of an OpenAI key in
// a long note). The states still compare as they are: a difference inside
// a secret fails, and says so.
func TestReview4StateEqualsDiffRedacted(t *testing.T) {
	key := secrettest.All()[2].Secret // an OpenAI key, 164 bytes
	for pad := 0; pad < 70; pad += 3 {
		note := strings.Repeat("w", pad) + " the key is " + key
		want := account{Name: "ada", Notes: note + " and more", Token: []byte("tok " + key)}
		got := account{Name: "ada", Notes: note + " and more!", Token: []byte("tok " + key + "?")}
		tb := report(func(et *evaltest.T) {
			et.Expect(&evalkit.Transcript{}).StateEquals(want, got)
		})
		require.Len(t, tb.errors, 1)
		for _, p := range pieces(key) {
			require.NotContains(t, tb.errors[0], p, "pad %d", pad)
		}
		assert.Contains(t, tb.errors[0], "[redacted:openai-key]")
		assert.Contains(t, tb.errors[0], `and more!`)
	}
	// A difference inside the secret alone: a failure, not a pass.
	tb := report(func(et *evaltest.T) {
		et.Expect(&evalkit.Transcript{}).StateEquals(account{Notes: key}, account{Notes: key[:len(key)-1] + "Z"})
	})
	require.Len(t, tb.errors, 1)
	assert.Contains(t, tb.errors[0], "differs from the expected one inside a secret")
	for _, p := range pieces(key) {
		assert.NotContains(t, tb.errors[0], p)
	}
}
