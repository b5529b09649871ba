package query

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func mustDecode(t *testing.T, text string, useNumber bool) any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(text))
	if useNumber {
		dec.UseNumber()
	}
	var v any
	require.NoError(t, dec.Decode(&v))
	return v
}

func search(t *testing.T, expr string, data any) any {
	t.Helper()
	q, err := Compile(expr)
	require.NoError(t, err)
	got, err := q.Search(data)
	require.NoError(t, err)
	return got
}

func TestRootPrefix(t *testing.T) {
	data := map[string]any{"a": map[string]any{"b": []any{1, 2}}}
	for _, expr := range []string{"a.b[1]", "$.a.b[1]", "$.a | b[1]"} {
		assert.Equal(t, 2.0, search(t, expr, data), expr)
	}
	assert.Equal(t, mustDecode(t, `{"a": {"b": [1, 2]}}`, false), search(t, "$", data))
}

// TestNumbers is field case C13: numbers compare by value whatever their Go
// or JSON representation.
func TestNumbers(t *testing.T) {
	goInts := map[string]any{"min_size": 2, "max_size": 7}
	useNumber := mustDecode(t, `{"min_size": 2, "max_size": 7}`, true)
	for name, data := range map[string]any{"a Go ints": goInts, "b UseNumber": useNumber} {
		t.Run(name, func(t *testing.T) {
			assert.Equal(t, true, search(t, "max_size > min_size", data))
			assert.Equal(t, 7.0, search(t, "max_size", data))
			assert.Equal(t, true, search(t, "max_size >= `5` && max_size <= `10`", data))
		})
	}
	t.Run("c filter on 20.0", func(t *testing.T) {
		data := map[string]any{"fees": []any{map[string]any{"fee": 20.0}, map[string]any{"fee": 5}}}
		got := search(t, "fees[?fee == `20`]", data)
		assert.Equal(t, []any{map[string]any{"fee": 20.0}}, got)
	})
	t.Run("d exponent form", func(t *testing.T) {
		for _, useNumber := range []bool{false, true} {
			got := search(t, "ts", mustDecode(t, `{"ts": 1.476857243e+09}`, useNumber))
			assert.Equal(t, 1476857243.0, got)
		}
	})
	t.Run("e string is not a number", func(t *testing.T) {
		got := search(t, "n", map[string]any{"n": "1"})
		assert.Equal(t, "1", got)
		assert.Equal(t, false, search(t, "n == `1`", map[string]any{"n": "1"}))
	})
}

// TestPanicsBecomeErrors is field case C14e: a U+0080 after an identifier
// panics the library's lexer.
func TestPanicsBecomeErrors(t *testing.T) {
	for _, expr := range []string{"tags.a\u0080", "a\u0080", "$.x.a\u0080"} {
		q, err := Compile(expr)
		assert.Nil(t, q)
		var se *SyntaxError
		require.True(t, errors.As(err, &se), "%q: got %v", expr, err)
		assert.Equal(t, expr, se.Expr)
		assert.Contains(t, err.Error(), "the JMESPath parser crashed")
	}
	_, err := Compile("a.b\u00ff") // other non-ASCII characters are plain syntax errors
	assert.ErrorContains(t, err, `Unknown char: '\u00ff'`)
}

func TestSyntaxErrors(t *testing.T) {
	tests := map[string]string{
		"tags.v1.2": `invalid JMESPath "tags.v1.2": Expected identifier, lbracket, or lbrace (at offset 8)`,
		"":          `invalid JMESPath "": empty expression`,
		"a.":        `invalid JMESPath "a.": Expected identifier, lbracket, or lbrace`,
		"foo bar":   `invalid JMESPath "foo bar": Unexpected token at the end of the expression: TOKUnquotedIdentifier`,
	}
	for expr, want := range tests {
		_, err := Compile(expr)
		var se *SyntaxError
		require.True(t, errors.As(err, &se), "%q: got %v", expr, err)
		assert.Contains(t, err.Error(), want)
	}
}

func TestQuotedKeys(t *testing.T) {
	data := map[string]any{"tags": map[string]any{"created-by": "ops-bot", "v1.2": "ok"}}
	assert.Equal(t, "ops-bot", search(t, `tags."created-by"`, data))
	assert.Equal(t, "ok", search(t, `tags."v1.2"`, data))
	// The community library reads '-' as subtraction: this is tags.created
	// minus by, which is null. Checks add a hint for it.
	assert.Nil(t, search(t, "tags.created-by", data))
}

func TestSearchErrors(t *testing.T) {
	q, err := Compile("abs(name)")
	require.NoError(t, err)
	_, err = q.Search(map[string]any{"name": "Ann"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `evaluating "abs(name)"`)

	q, err = Compile("a")
	require.NoError(t, err)
	_, err = q.Search(map[string]any{"a": math.NaN()})
	assert.Error(t, err)
	_, err = q.Search(map[string]any{"a": make(chan int)})
	assert.Error(t, err)
}

func TestCompileCaches(t *testing.T) {
	q1, err := Compile("cache.test")
	require.NoError(t, err)
	q2, err := Compile("cache.test")
	require.NoError(t, err)
	assert.Same(t, q1, q2)
	assert.Equal(t, "cache.test", q1.String())

	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			q, err := Compile("cache.concurrent[0]")
			assert.NoError(t, err)
			_, err = q.Search(map[string]any{"cache": 1})
			assert.NoError(t, err)
		})
	}
	wg.Wait()
}

func TestNormalize(t *testing.T) {
	type point struct {
		X int     `json:"x"`
		Y float32 `json:"y"`
	}
	tests := []struct {
		in   any
		want any
	}{
		{7, 7.0},
		{int64(7), 7.0},
		{uint8(7), 7.0},
		{json.Number("7"), 7.0},
		{json.Number("7e0"), 7.0},
		{json.Number("-0.5"), -0.5},
		{float32(0.1), 0.1}, // as encoding/json writes it, not float64(float32(0.1))
		{"7", "7"},
		{nil, nil},
		{[]int{1, 2}, []any{1.0, 2.0}},
		{map[string]int{"a": 1}, map[string]any{"a": 1.0}},
		{point{1, 2.5}, map[string]any{"x": 1.0, "y": 2.5}},
		{map[string]any{"p": []any{json.Number("1"), 2}}, map[string]any{"p": []any{1.0, 2.0}}},
	}
	for _, tt := range tests {
		got, err := Normalize(tt.in)
		require.NoError(t, err, "%#v", tt.in)
		assert.Equal(t, tt.want, got, "%#v", tt.in)
	}
	for _, bad := range []any{math.Inf(1), json.Number("Inf"), json.Number("0x10"), json.Number("1e400"), json.Number(""), make(chan int), []any{math.NaN()}} {
		_, err := Normalize(bad)
		assert.Error(t, err, "%#v", bad)
	}
}

func TestNormalizeKeepsNormalValues(t *testing.T) {
	m := map[string]any{"a": []any{1.0, "x", nil, true, map[string]any{}}}
	got, err := Normalize(m)
	require.NoError(t, err)
	got.(map[string]any)["marker"] = true
	assert.Equal(t, true, m["marker"], "a value already normal is returned as is, not copied")
}

// FuzzCompileSearch checks that no expression makes Compile or Search panic.
func FuzzCompileSearch(f *testing.F) {
	for _, s := range []string{"a.b", "tags.a\u0080", "$.a[?b > `1`]", "a-b", "let $x = a in $x", "items(@)", "a[::-1]", "`{}`"} {
		f.Add(s)
	}
	data := map[string]any{"a": map[string]any{"b": []any{1.0, "x", nil}}, "tags": map[string]any{"created-by": "x"}}
	f.Fuzz(func(t *testing.T, expr string) {
		q, err := Compile(expr)
		if err != nil {
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("Compile(%q): %T, want *SyntaxError", expr, err)
			}
			return
		}
		_, _ = q.Search(data)
	})
}
