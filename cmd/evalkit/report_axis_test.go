package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A count axis has whole-number ticks only, at most about ten, up to the
// largest count or just past it: 0.5 of a check means nothing.
func TestReportCountAxisTicks(t *testing.T) {
	text := regexp.MustCompile(`<text[^>]*>([^<]*)</text>`)
	for _, tc := range []struct {
		counts [10]int
		want   string
	}{
		{[10]int{0, 0, 1, 0, 0, 3, 0, 0, 0, 1}, "3 2 1 0"},
		{[10]int{0, 0, 17, 0, 0, 33, 0, 0, 0, 1}, "36 32 28 24 20 16 12 8 4 0"},
		{[10]int{}, "1 0"},
	} {
		h, err := histogramChart(histogram{Type: "llm_judge", Counts: tc.counts})
		require.NoError(t, err)
		var ticks []string
		for _, m := range text.FindAllStringSubmatch(string(h), -1) {
			if m[1] == "score (bins of 0.1, from)" {
				break // the category axis follows
			}
			if !strings.HasPrefix(m[1], "Scores of") {
				ticks = append(ticks, m[1])
			}
		}
		assert.Equal(t, tc.want, strings.Join(ticks, " "), "%v", tc.counts)
	}
}
