package query

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// shared builds a value of n levels, each holding the level below twice:
// n+1 values in memory, 2^(n+1) − 1 as a tree.
func shared(n int, pair func(any) any) any {
	var v any = 1.0
	for range n {
		v = pair(v)
	}
	return v
}

func pairList(v any) any { return []any{v, v} }
func pairMap(v any) any  { return map[string]any{"x": v, "y": v} }

// TestCheckSize counts values as a tree, so a value sharing its parts
// counts as the JSON it would make, and stops at the first limit: the walk
// of a value of 2^40 as a tree, or of a cycle, ends at once.
func TestCheckSize(t *testing.T) {
	type typed struct {
		Items []map[string]int
		Next  *typed
	}
	cycle := []any{nil}
	cycle[0] = cycle
	deep := any(1.0)
	for range MaxDepth + 1 {
		deep = []any{deep}
	}
	over := map[string]struct {
		v   any
		msg string
	}{ // at most 1000 values, 1000 bytes for the strings, MaxDepth for the deep
		"a shared list":     {shared(40, pairList), "holds more than 1000 values, counted as a tree"},
		"a shared map":      {shared(40, pairMap), "holds more than 1000 values, counted as a tree"},
		"a cycle":           {cycle, "holds itself"},
		"typed values":      {[]typed{{Items: make([]map[string]int, 2000)}}, "holds more than 1000 values"},
		"shared strings":    {[]any{strings.Repeat("x", 600), strings.Repeat("x", 600)}, "is more than 1000 bytes as JSON, counted as a tree"},
		"too deep":          {deep, "nests deeper than 10000 levels"},
		"a pointer's cycle": {func() any { p := &typed{}; p.Next = p; return p }(), "holds itself"},
		"a map's cycle":     {func() any { m := map[string]any{}; m["m"] = []any{m}; return m }(), "holds itself"},
		"shared, deep":      {shared(40, func(v any) any { return []any{[]any{[]any{v}}, v} }), "holds more than 1000 values"},
		"shared past the depth": {func() any {
			v := any(1.0) // 6000 levels: within the depth once, past it a second time 5000 levels down
			for range 6000 {
				v = []any{v}
			}
			w := v
			for range 5000 {
				w = []any{w}
			}
			return []any{v, w}
		}(), "nests deeper than 10000 levels"},
	}
	for name, tt := range over {
		t.Run(name, func(t *testing.T) {
			values, bytes := 1000, 1<<30
			switch {
			case strings.HasPrefix(tt.msg, "is more than"):
				values, bytes = 1<<20, 1000
			case strings.HasPrefix(tt.msg, "nests"), strings.HasPrefix(tt.msg, "holds itself"):
				values = 1 << 30
			}
			err := CheckSize(tt.v, values, bytes)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.msg)
		})
	}
	for name, v := range map[string]any{
		"a small shared list": shared(8, pairList), // 511 values
		"typed values":        typed{Items: []map[string]int{{"a": 1}}},
		"nil":                 nil,
		"a string":            strings.Repeat("x", 1<<19),
	} {
		assert.NoError(t, CheckSize(v, 1000, 1<<20), name)
	}
}

// TestNormalizeShared: Normalize used to walk a shared value as a tree
// (2^31 values for thirty levels) without end; past MaxResultValues it is
// an error.
func TestNormalizeShared(t *testing.T) {
	lowerBudgets(t, MaxSteps, 1<<12)
	for _, v := range []any{shared(30, pairList), shared(30, pairMap), []int{1: 0, 5000: 0}} {
		_, err := Normalize(v)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "holds more than 4096 values, counted as a tree")
	}
	got, err := Normalize(shared(3, pairList))
	require.NoError(t, err)
	assert.Len(t, got, 2)
}
