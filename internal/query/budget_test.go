package query

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestQueryFunctionsBounded checks that every function whose output size an
// argument drives refuses, before building it, more than MaxBuiltBytes:
// pad_right(s, `1099511627776`) used to ask strings.Repeat for a terabyte,
// an out-of-memory crash of the whole test binary.
func TestQueryFunctionsBounded(t *testing.T) {
	data := map[string]any{
		"s":     "x",
		"w":     float64(1 << 40),
		"big":   strings.Repeat("ab", 4<<20), // 8 MiB
		"count": float64(3),
	}
	over := map[string]struct{ expr, msg string }{
		"pad_left from data":     {"length(pad_left(s, w))", "pad_left would build 1099511627776 bytes"},
		"pad_right from data":    {"length(pad_right(s, w, '-'))", "pad_right would build 1099511627776 bytes"},
		"pad width computed":     {"length(pad_left(s, `70000000` + `1`))", "pad_left would build 70000001 bytes"},
		"replace grows":          {"length(replace(big, '', 'xxxxxxxxxx'))", "replace would build"},
		"replace grows per hit":  {"length(replace(big, 'a', 'aaaaaaaaaaaaaaaaaaaa'))", "replace would build 88080384 bytes"},
		"split into runes":       {"length(split(big, ''))", "split would build 268435456 bytes"},
		"join of many":           {"length(join('', [big, big, big, big, big, big, big, big, big]))", "join would build 75497472 bytes"},
		"to_string of many":      {"length(to_string([big, big, big, big, big, big, big, big, big]))", "to_string would build"},
		"cumulative":             {"[pad_left(s, `40000000`), pad_left(s, `40000000`)] | length([0])", "pad_left would build 40000000 bytes; one evaluation may build at most 67108864 (27108864 left)"},
		"cumulative, projection": {"[big, big, big, big, big, big, big, big, big][*].upper(@) | length(@)", "upper built 8388608 bytes, past the 67108864 bytes"},
	}
	for name, tt := range over {
		t.Run(name, func(t *testing.T) {
			q, err := Compile(tt.expr)
			require.NoError(t, err)
			got, err := q.Search(data)
			var le *LimitError
			require.True(t, errors.As(err, &le), "got %v, %v", got, err)
			assert.Equal(t, tt.expr, le.Expr)
			assert.Contains(t, err.Error(), tt.msg)
			assert.Contains(t, err.Error(), "is over a limit")
			assert.Less(t, len(err.Error()), 600)
		})
	}
	within := map[string]struct {
		expr string
		want any
	}{
		"pad_left":         {"pad_left(s, `3`)", "  x"},
		"pad_right":        {"pad_right(s, `3`, '-')", "x--"},
		"pad narrower":     {"pad_left('abc', `1`)", "abc"},
		"pad a megabyte":   {"length(pad_left(s, `1000000`))", 1e6},
		"replace":          {"replace('aaa', 'a', 'bb')", "bbbbbb"},
		"replace counted":  {"replace('aaa', 'a', 'bb', count)", "bbbbbb"},
		"replace shrinks":  {"length(replace(big, 'ab', ''))", 0.0},
		"split":            {"split('a,b,c', ',')", []any{"a", "b", "c"}},
		"split counted":    {"split('a,b,c', ',', `1`)", []any{"a", "b,c"}},
		"split into runes": {"split('héllo', '')", []any{"h", "é", "l", "l", "o"}},
		"join":             {"join('-', ['a', 'b'])", "a-b"},
		"to_string":        {"to_string(`[1, \"a\"]`)", `[1,"a"]`},
		"big data, upper":  {"length(upper(big))", float64(8 << 20)},
	}
	for name, tt := range within {
		t.Run(name, func(t *testing.T) {
			assert.Equal(t, tt.want, search(t, tt.expr, data))
		})
	}
	// The library's own errors stay what they were.
	q, err := Compile("pad_left(s, `-1`)")
	require.NoError(t, err)
	_, err = q.Search(data)
	var le *LimitError
	assert.False(t, errors.As(err, &le))
	assert.ErrorContains(t, err, "pad_left")
}

// TestQueryLiteralWidths checks that a literal width no evaluation could
// build is refused when the expression compiles, before any data is read.
func TestQueryLiteralWidths(t *testing.T) {
	for _, expr := range []string{
		"length(pad_right(s, `1099511627776`))",
		"pad_left(s, `67108865`)",
		"a[*].pad_left(@, `1e10`, '0')",
	} {
		_, err := Compile(expr)
		var se *SyntaxError
		require.True(t, errors.As(err, &se), "%q: %v", expr, err)
		assert.Contains(t, se.Msg, "width", expr)
		assert.Contains(t, se.Msg, "past the 67108864 bytes one evaluation may build", expr)
	}
	_, err := Compile("pad_left(s, `67108864`)")
	assert.NoError(t, err)
}

// doubling is "@ | [@, @]" n times: n steps build an array of 2^n values
// that share their halves.
func doubling(n int) string { return "@" + strings.Repeat(" | [@, @]", n) }

// lowerBudgets lowers the step and result budgets for one test, so that
// reaching them takes milliseconds, not a second each (many more under
// the race detector).
func lowerBudgets(t *testing.T, steps, values int) {
	saved := [2]int{maxSteps, maxResultValues}
	maxSteps, maxResultValues = steps, values
	t.Cleanup(func() { maxSteps, maxResultValues = saved[0], saved[1] })
}

// TestQueryWorkBounded checks that an evaluation doing more work than
// MaxSteps, or yielding a result of more than MaxResultValues values
// counted as a tree, stops with a *LimitError naming the expression:
// doubling(28) is 253 bytes, within every limit Compile checks, and used
// to hang whatever walked its result. The budgets are the real ones for
// the reviewer's expression and lowered to 2^16 for the rest.
func TestQueryWorkBounded(t *testing.T) {
	data := map[string]any{"a": []any{1.0, 2.0, 3.0}, "s": "x"}
	big := make([]any, 1<<16)
	for i := range big {
		big[i] = float64(i)
	}
	data["b"] = big
	check := func(t *testing.T, expr, msg string) {
		t.Helper()
		q, err := Compile(expr)
		require.NoError(t, err)
		_, err = q.SearchDecoded(data)
		var le *LimitError
		require.True(t, errors.As(err, &le), "%v", err)
		assert.Equal(t, expr, le.Expr)
		assert.Contains(t, err.Error(), msg)
		assert.Less(t, len(err.Error()), 700)
	}
	t.Run("real budgets", func(t *testing.T) {
		check(t, doubling(28), "the result holds more than 4194304 values, counted as a tree")
		check(t, doubling(24)+strings.Repeat("[]", 24), "the evaluation takes more than 4194304 steps")
	})

	lowerBudgets(t, 1<<16, 1<<16)
	steps := "the evaluation takes more than 65536 steps"
	values := "the result holds more than 65536 values, counted as a tree"
	over := map[string]struct{ expr, msg string }{
		"result shares its halves": {doubling(17), values},
		"result, far past":         {doubling(300), values},
		"flatten":                  {doubling(24) + strings.Repeat("[]", 24), steps},
		"projection":               {doubling(24) + strings.Repeat("[*]", 24), steps},
		"value projection":         {"@" + strings.Repeat(" | {a: @, b: @}", 24) + " | *" + strings.Repeat(".*", 23), steps},
		"filter":                   {doubling(24) + strings.Repeat("[]", 23) + "[?@ == `1`]", steps},
		"length of a flatten":      {"length(" + doubling(30) + strings.Repeat("[]", 30) + ")", steps},
		"map":                      {"map(&@, " + doubling(24) + strings.Repeat("[]", 23) + ")", steps},
		"sort_by":                  {"sort_by(" + doubling(24) + strings.Repeat("[]", 23) + ", &to_string(@))", steps},
		"equality walks both":      {"[" + doubling(40) + ", " + doubling(40) + " | [@]] | [0] == [1][0]", steps},
		"to_string":                {"to_string(" + doubling(40) + ")", "to_string would build"},
		"join":                     {"join(',', " + doubling(30) + strings.Repeat("[]", 30) + " | [*].to_string(@))", steps},
		"slices in a projection":   {doubling(6) + strings.Repeat("[]", 6) + " | [*].[$.b[::1]]", steps},
		"a function per element":   {doubling(6) + strings.Repeat("[]", 6) + " | [*].length(sort($.b))", steps},
		"left side of a flatten":   {"(" + doubling(24) + strings.Repeat("[]", 24) + ")[]", steps},
		"left side of a filter":    {"(" + doubling(24) + strings.Repeat("[]", 24) + ")[?@]", steps},
		"let":                      {"let $x = " + doubling(28) + " in length($x" + strings.Repeat("[]", 28) + ")", steps},
	}
	for name, tt := range over {
		t.Run(name, func(t *testing.T) { check(t, tt.expr, tt.msg) })
	}
}

// TestQueryWorkWithinBudget checks that work in proportion to the data
// stays within the real budgets: a filter and a projection over 65,536
// values, a sort, the whole data, a shared result too small to matter.
func TestQueryWorkWithinBudget(t *testing.T) {
	big := make([]any, 1<<16)
	for i := range big {
		big[i] = float64(i)
	}
	data := map[string]any{"b": big}
	for expr, want := range map[string]any{
		"length(" + doubling(28) + ")":              2.0,
		"length(b[?@ > `10`])":                      float64(1<<16 - 11),
		"b[*].to_string(@) | length(@)":             float64(1 << 16),
		"length(sort(b))":                           float64(1 << 16),
		"sum(b[::1024])":                            float64(2064384),
		"length(" + doubling(8) + "[][][][][][][])": 256.0,
		"length(@.b)":                               float64(1 << 16),
	} {
		t.Run(expr, func(t *testing.T) {
			q, err := Compile(expr)
			require.NoError(t, err)
			got, err := q.SearchDecoded(data)
			require.NoError(t, err)
			assert.Equal(t, want, got)
		})
	}
}
