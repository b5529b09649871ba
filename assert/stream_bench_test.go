package assert_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/evalkit-go/evalkit/assert"
)

// BenchmarkStreamVsWholeText feeds a 1 MB answer in 16-byte chunks (about
// a token each) to each stream check, against the baselines of searching
// the whole text once (strings.Contains, regexp.MatchString: what a check
// after the stream costs) and, on 64 KB, of re-scanning every prefix as
// each chunk arrives (what a naive partial evaluation costs: quadratic).
func BenchmarkStreamVsWholeText(b *testing.B) {
	texts := map[string]string{
		"ascii":   strings.Repeat("The refund was issued to your card. ", 1<<20/36),
		"unicode": strings.Repeat("Die Rückerstattung ist erfolgt. ", 1<<20/33),
	}
	const chunk = 16
	chunksOf := func(s string) []string {
		var out []string
		for i := 0; i < len(s); i += chunk {
			out = append(out, s[i:min(i+chunk, len(s))])
		}
		return out
	}
	for _, kind := range []string{"ascii", "unicode"} {
		text := texts[kind]
		chunks := chunksOf(text)
		for _, bc := range []struct {
			name string
			c    assert.StreamCheck
		}{
			{"content_excludes", assert.ContentExcludes{Patterns: []string{"password", "passwort"}}},
			{"content_excludes_words", assert.ContentExcludes{Patterns: []string{"password"}, MatchWords: true}},
			{"regex_no_match", assert.Regex{Pattern: `\b\d{3}-\d{2}-\d{4}\b`, NoMatch: true}},
			{"regex_literal", assert.Regex{Pattern: `password: \S+`, NoMatch: true}},
			{"max_length", assert.MaxLength{Max: 2 << 20}},
		} {
			b.Run(bc.name+"/"+kind, func(b *testing.B) {
				b.SetBytes(int64(len(text)))
				b.ReportAllocs()
				for b.Loop() {
					s, err := bc.c.NewStream()
					if err != nil {
						b.Fatal(err)
					}
					for _, ch := range chunks {
						s.Feed(ch)
					}
					if res, err := s.End(); err != nil || !res.Passed {
						b.Fatal(res, err)
					}
				}
			})
		}
		b.Run("baseline=strings.Contains/"+kind, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				if strings.Contains(strings.ToLower(text), "password") {
					b.Fatal("found")
				}
			}
		})
		ssn := regexp.MustCompile(`\b\d{3}-\d{2}-\d{4}\b`)
		b.Run("baseline=regexp.MatchString/"+kind, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				if ssn.MatchString(text) {
					b.Fatal("found")
				}
			}
		})
		small := text[:64<<10]
		smallChunks := chunksOf(small)
		b.Run("baseline=rescan_each_prefix_64KB/"+kind, func(b *testing.B) {
			b.SetBytes(int64(len(small)))
			for b.Loop() {
				n := 0
				for _, ch := range smallChunks {
					n += len(ch)
					if strings.Contains(strings.ToLower(small[:n]), "password") {
						b.Fatal("found")
					}
				}
			}
		})
		b.Run("content_excludes_64KB/"+kind, func(b *testing.B) {
			c := assert.ContentExcludes{Patterns: []string{"password"}}
			b.SetBytes(int64(len(small)))
			for b.Loop() {
				s, _ := c.NewStream()
				for _, ch := range smallChunks {
					s.Feed(ch)
				}
				s.End()
			}
		})
	}
}
