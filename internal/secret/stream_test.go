package secret_test

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit/internal/secret"
	"github.com/evalkit-go/evalkit/internal/secret/secrettest"
)

// streamed writes text to a Stream in the pieces cuts makes, settling
// after each, and joins what it gives.
func streamed(text string, cuts []int) string {
	var s secret.Stream
	var out strings.Builder
	at, done := 0, 0
	for _, c := range append(cuts, len(text)) {
		s.WriteString(text[at:c])
		at = c
		end := s.Settle(c == len(text))
		out.WriteString(s.Text(done, end))
		done = end
		s.Discard(done)
	}
	return out.String()
}

// Text redacted in pieces is the text redacted whole, wherever it is cut:
// every fake, cut at every byte, and at random cuts in a long text of
// them.
func TestStreamCutAnywhere(t *testing.T) {
	secret.Learn("secret:stream-test", "Lk3Jh5Gf7Ds9Aq1Wz2Xc")
	for _, f := range append(secrettest.All(), secrettest.Fake{Label: "secret:stream-test", Text: "db Lk3Jh5Gf7Ds9Aq1Wz2Xc ok", Secret: "Lk3Jh5Gf7Ds9Aq1Wz2Xc"}) {
		want := secret.Clean(f.Text)
		for i := 0; i <= len(f.Text); i++ {
			require.Equal(t, want, streamed(f.Text, []int{i}), "%s cut at %d", f.Label, i)
		}
	}
	var all []string
	for _, f := range secrettest.All() {
		all = append(all, f.Text)
	}
	long := strings.Repeat(strings.Join(all, "\nThe assistant refunded order #W2378156 and said so.\n"), 4)
	want := secret.Clean(long)
	r := rand.New(rand.NewPCG(1, 2))
	for range 50 {
		var cuts []int
		for i := 0; i < len(long); i += 1 + r.IntN(64) {
			cuts = append(cuts, i)
		}
		require.Equal(t, want, streamed(long, cuts))
	}
}

// A Writer writes what is settled — up to the last white space — and
// holds back the run after it until more comes or Flush, so a key written
// in two Writes is redacted whole.
func TestStreamWriter(t *testing.T) {
	var b bytes.Buffer
	w := secret.NewWriter(&b)
	key := "sk-proj-" + strings.Repeat("Ab3dEf6h", 6)
	for _, part := range []string{"line one\nthe key is ", key[:12]} {
		_, err := w.Write([]byte(part))
		require.NoError(t, err)
	}
	assert.Equal(t, "line one\nthe key is ", b.String(), "the key's head is held back")
	for _, part := range []string{key[12:], " end\nlast"} {
		_, err := w.Write([]byte(part))
		require.NoError(t, err)
	}
	assert.Equal(t, "line one\nthe key is [redacted:openai-key] end\n", b.String())
	require.NoError(t, w.Flush())
	assert.Equal(t, "line one\nthe key is [redacted:openai-key] end\nlast", b.String())

	b.Reset()
	w = secret.NewWriter(&b)
	long := strings.Repeat("x", 3*secret.Holdback)
	_, err := w.Write([]byte(long))
	require.NoError(t, err)
	assert.NotEmpty(t, b.String(), "a run longer than the holdback is not held whole")
	require.NoError(t, w.Flush())
	assert.Equal(t, long, b.String())
}
