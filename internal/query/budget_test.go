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
