package assert_test

import (
	"strings"
	"testing"

	testify "github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit/assert"
	"github.com/evalkit-go/evalkit/internal/secret"
	"github.com/evalkit-go/evalkit/internal/secret/secrettest"
)

// Regression test of the fourth hostile review of issue 15: a stream
// check's excerpt quoted each chunk's part on its own
// (chunks[3] "k-pro" + chunks[4] "j-iK2"), so a key the chunks cut — as
// a model streams one, across SSE deltas — reached the failure message in
// pieces the redactor that cleans it whole could not tell from text.
func TestReview4StreamExcerptRedactsAcrossChunks(t *testing.T) {
	for _, f := range secrettest.All() {
		text := "Sure. " + f.Text + " Anything else?"
		for _, size := range []int{3, 5, 8, 16, 24} {
			var chunks []string
			for i := 0; i < len(text); i += size {
				chunks = append(chunks, text[i:min(len(text), i+size)])
			}
			for _, c := range []assert.StreamCheck{
				assert.ContentExcludes{Patterns: []string{"anything"}},
				assert.ContentExcludes{Patterns: []string{"sure"}},
				assert.MaxLength{Max: len("Sure. ") + len(f.Text)/2},
			} {
				res := streamOf(t, c, chunks)
				require.False(t, res.Passed)
				var msg strings.Builder
				msg.WriteString(res.Summary)
				for _, d := range res.Details {
					msg.WriteString("\n" + d.Label + ": " + d.Text)
				}
				out := secret.Clean(msg.String()) // as evaltest reports it
				for _, p := range f.Fragments() {
					testify.NotContains(t, out, p, "%s in chunks of %d: %s", f.Label, size, out)
				}
			}
		}
	}
}
