package assert_test

import (
	"context"
	"strings"
	"testing"

	"github.com/evalkit-go/evalkit/assert"
)

// BenchmarkChecksText runs each text check on a short answer and on a 1 MB
// one (ASCII and non-ASCII), to show cost grows with the text, not worse.
// Numbers and baselines come with the performance issue.
func BenchmarkChecksText(b *testing.B) {
	answers := map[string]string{
		"short":       "Your refund of $42.00 for order #W123 was issued today.",
		"1MB_ascii":   strings.Repeat("The refund was issued. ", 1<<20/23),
		"1MB_unicode": strings.Repeat("Die Rückerstattung ist erfolgt. ", 1<<20/33),
	}
	checks := map[string]assert.Check{
		"contains":         assert.Contains{Patterns: []string{"refund", "#w123"}},
		"content_excludes": assert.ContentExcludes{Patterns: []string{"password"}},
		"regex":            assert.Regex{Pattern: `#W\d+`},
		"max_length":       assert.MaxLength{Max: 500},
	}
	ctx := context.Background()
	for _, size := range []string{"short", "1MB_ascii", "1MB_unicode"} {
		tr := textChat(answers[size])
		for _, name := range []string{"contains", "content_excludes", "regex", "max_length"} {
			c := checks[name]
			b.Run(name+"/"+size, func(b *testing.B) {
				b.SetBytes(int64(len(answers[size])))
				b.ReportAllocs()
				for b.Loop() {
					if _, err := c.Check(ctx, tr); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
