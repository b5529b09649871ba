package main

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A count axis has whole-number ticks only, at most about ten, up to past
// the largest count (a histogram leaves room over its tallest bar for its
// count): 0.5 of a check means nothing.
func TestReportCountAxisTicks(t *testing.T) {
	text := regexp.MustCompile(`<text[^>]*>([^<]*)</text>`)
	for _, tc := range []struct {
		counts [10]int
		want   string
	}{
		{[10]int{0, 0, 1, 0, 0, 3, 0, 0, 0, 1}, "4 3 2 1 0"},
		{[10]int{0, 0, 17, 0, 0, 33, 0, 0, 0, 1}, "40 36 32 28 24 20 16 12 8 4 0"},
		{[10]int{}, "1 0"},
	} {
		h, err := histogramChart(histogram{Type: "llm_judge", Counts: tc.counts})
		require.NoError(t, err)
		var ticks []string
		for _, m := range text.FindAllStringSubmatch(string(h), -1) {
			if strings.HasPrefix(m[1], "score (bins of 0.1") {
				break // the category axis follows
			}
			if !strings.HasPrefix(m[1], "Scores of") {
				ticks = append(ticks, m[1])
			}
		}
		assert.Equal(t, tc.want, strings.Join(ticks, " "), "%v", tc.counts)
	}
}

// The cost axis's ticks are unique and round, whatever the spend: a judge
// that cost $0.0003 had its axis read "$0.0000 $0.0001 $0.0001 $0.0002 …".
func TestReportCostAxisTicksAreUnique(t *testing.T) {
	text := regexp.MustCompile(`<text[^>]*>(\$[^<]*)</text>`)
	for _, most := range []float64{0.0000004, 0.000012, 0.00005, 0.0001, 0.0003, 0.00071, 0.0026, 0.0198, 0.31, 4.2, 57, 1250} {
		c, err := costChart([]judgeRow{{Judge: "gpt-4.1-mini", CostLive: most * 0.6, CostReplayed: most * 0.4}, {Judge: "claude-haiku-4-5", CostLive: most / 3}})
		require.NoError(t, err)
		var ticks []string
		for _, m := range text.FindAllStringSubmatch(string(c), -1) {
			ticks = append(ticks, m[1])
		}
		require.GreaterOrEqual(t, len(ticks), 2, "%v: %v", most, ticks)
		assert.Len(t, slices.Compact(slices.Clone(ticks)), len(ticks), "%v: ticks %v", most, ticks)
		top, err := strconv.ParseFloat(strings.TrimPrefix(ticks[len(ticks)-1], "$"), 64)
		require.NoError(t, err)
		assert.GreaterOrEqual(t, top, most*(1-1e-9), "%v: the axis reaches the largest cost (%v)", most, ticks)
		assert.LessOrEqual(t, len(ticks), 8, "%v: %v", most, ticks)
	}
}
