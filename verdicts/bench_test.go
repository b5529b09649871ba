package verdicts_test

import (
	"regexp"
	"testing"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/verdicts"
)

// BenchmarkArenaHardRealJudgments reads the 154 real Arena-Hard games in
// testdata once per iteration; the baseline is the benchmark's own rule,
// findall of \[\[([AB<>=]+)\]\] and a set of the matches.
func BenchmarkArenaHardRealJudgments(b *testing.B) {
	var texts []string
	var size int64
	for _, p := range []string{"testdata/arena_hard/el_claude-3.5-sonnet-v2.jsonl", "testdata/arena_hard/el_gpt-4o.jsonl", "testdata/arena_hard/en_gpt-3.5-turbo-0125.jsonl"} {
		for _, it := range arenaHard(b, p) {
			texts = append(texts, it.text)
			size += int64(len(it.text))
		}
	}
	b.Run("verdicts.ArenaHard", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			for _, s := range texts {
				_, _ = verdicts.ArenaHard.Parse(s, evalkit.Scale{})
			}
		}
	})
	b.Run("official_get_score", func(b *testing.B) {
		pattern := regexp.MustCompile(`\[\[([AB<>=]+)\]\]`)
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			for _, s := range texts {
				set := map[string]bool{}
				for _, m := range pattern.FindAllStringSubmatch(s, -1) {
					set[m[1]] = true
				}
			}
		}
	})
}
