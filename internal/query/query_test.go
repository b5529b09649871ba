package query

import (
	"encoding/json"
	"errors"
	"fmt"
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

func TestQueryRootPrefix(t *testing.T) {
	data := map[string]any{"a": map[string]any{"b": []any{1, 2}}}
	for _, expr := range []string{"a.b[1]", "$.a.b[1]", "$.a | b[1]"} {
		assert.Equal(t, 2.0, search(t, expr, data), expr)
	}
	assert.Equal(t, mustDecode(t, `{"a": {"b": [1, 2]}}`, false), search(t, "$", data))
}

// TestNumbers is field case C13: numbers compare by value whatever their Go
// or JSON representation.
func TestQueryNumbers(t *testing.T) {
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
func TestQueryPanicsBecomeErrors(t *testing.T) {
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

func TestQuerySyntaxErrors(t *testing.T) {
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

func TestQueryQuotedKeys(t *testing.T) {
	data := map[string]any{"tags": map[string]any{"created-by": "ops-bot", "v1.2": "ok"}}
	assert.Equal(t, "ops-bot", search(t, `tags."created-by"`, data))
	assert.Equal(t, "ok", search(t, `tags."v1.2"`, data))
	// The community library reads '-' as subtraction: tags.created-by would
	// be tags.created minus by, which is null. Compile refuses it (field
	// case C14b).
	_, err := Compile("tags.created-by")
	var se *SyntaxError
	require.True(t, errors.As(err, &se), "%v", err)
	assert.Equal(t, `invalid JMESPath "tags.created-by": '-' is subtraction in JMESPath: quote the key, tags."created-by" (write "a - b" with spaces to subtract) (at offset 12)`, err.Error())
}

// TestHyphenSubtraction is field case C14b: an unquoted identifier joined to
// another by '-' is refused; subtraction written with a space still works.
func TestQueryHyphenSubtraction(t *testing.T) {
	refused := map[string]string{
		"x-y":                         `"x-y"`,
		"tags.created-by":             `tags."created-by"`,
		"$.tags.created-by":           `$.tags."created-by"`,
		"a.x-request-id.b":            `a."x-request-id".b`,
		"v1-beta":                     `"v1-beta"`,
		"a-b-c.d || e-f":              `"a-b-c".d || "e-f"`,
		"items[?created-by == 'ops']": `items[?"created-by" == 'ops']`,
		"a-_b":                        `"a-_b"`,
		"tags.created\u2212by":        "tags.\"created\u2212by\"",
		"foo.bar-baz[0]":              `foo."bar-baz"[0]`,
	}
	for expr, quoted := range refused {
		_, err := Compile(expr)
		var se *SyntaxError
		require.True(t, errors.As(err, &se), "%q: %v", expr, err)
		assert.Contains(t, se.Msg, "'-' is subtraction in JMESPath: quote the key, "+quoted+" (write", expr)
	}
	data := map[string]any{"a": 5.0, "b": 2.0, "x": map[string]any{"y-z": 1.0}}
	for expr, want := range map[string]any{
		"a - b": 3.0, "a -b": 3.0, "a- b": 3.0, "a-`1`": 4.0, "a-(b)": 3.0, "`7`-a": 2.0, "-a": -5.0,
		"let $x = a in $x-b": 3.0, `x."y-z"`: 1.0, "'a-b'": "a-b", "`\"a-b\"`": "a-b", "[a,b][-1]": 2.0,
	} {
		assert.Equal(t, want, search(t, expr, data), expr)
	}
}

func TestQueryQuoteHyphenated(t *testing.T) {
	tests := []struct {
		expr, want string
		found      bool
	}{
		{"tags.created-by", `tags."created-by"`, true},
		{"a.x-request-id.b", `a."x-request-id".b`, true},
		{"created-by", `"created-by"`, true},
		{"a-b-c.d || e-f", `"a-b-c".d || "e-f"`, true},
		{`tags."created-by"`, "", false},
		{"a - b", "", false},
		{"a-1", "", false},
		{"items[?name == 'a-b']", "", false},
		{"items[?name == `\"a-b\"`]", "", false},
		{`"it's \"x-y\""`, "", false},
		{"$x-y", "", false},
		{"length(a)-b", "", false},
	}
	for _, tt := range tests {
		got, found := quoteHyphenated(tt.expr)
		if found != tt.found || (found && got != tt.want) {
			t.Errorf("quoteHyphenated(%q) = %q, %v; want %q, %v", tt.expr, got, found, tt.want, tt.found)
		}
	}
}

// TestLimits checks that expressions that would overflow the library's
// stack (a fatal error that kills the test binary, measured at about
// 350,000 levels) are refused with a *SyntaxError naming the limit, and
// that expressions at the limits still run.
func TestQueryLimits(t *testing.T) {
	refused := map[string]struct{ expr, msg string }{
		"400k nots":       {strings.Repeat("!", 400_000) + "a", "the expression is 400001 bytes long; the limit is 8192"},
		"800 KB of a.a.a": {"a" + strings.Repeat(".a", 400_000), "the expression is 800001 bytes long; the limit is 8192"},
		"one byte over":   {strings.Repeat("a", MaxExprLen+1), "the expression is 8193 bytes long; the limit is 8192"},
		"nesting":         {strings.Repeat("(", MaxNesting+1) + "a" + strings.Repeat(")", MaxNesting+1), "brackets nest deeper than 256 levels"},
		"nesting, mixed":  {strings.Repeat("[?(", 130) + "a" + strings.Repeat(")]", 130), "brackets nest deeper than 256 levels"},
		"nots":            {strings.Repeat("!", MaxOperators+1) + "a", "the expression has more than 1024 operators and brackets"},
		"dots":            {"a" + strings.Repeat(".a", MaxOperators+1), "the expression has more than 1024 operators and brackets"},
		"pipes":           {"a" + strings.Repeat(" | a", MaxOperators+1), "the expression has more than 1024 operators and brackets"},
		"indexes":         {"a" + strings.Repeat("[0]", MaxOperators), "the expression has more than 1024 operators and brackets"},
	}
	for name, tt := range refused {
		t.Run(name, func(t *testing.T) {
			_, err := Compile(tt.expr)
			var se *SyntaxError
			require.True(t, errors.As(err, &se), "%v", err)
			assert.Equal(t, tt.msg, se.Msg)
			assert.Less(t, len(err.Error()), 400, "the message quotes a bounded excerpt")
		})
	}
	data := map[string]any{"a": map[string]any{"a": true}}
	accepted := map[string]any{
		"nots":          strings.Repeat("!", MaxOperators-1) + "a", // an odd number of '!'
		"nesting":       strings.Repeat("(", MaxNesting) + "a" + strings.Repeat(")", MaxNesting),
		"longest":       strings.Repeat(" ", MaxExprLen-1) + "a",
		"quoted length": `"` + strings.Repeat("!(.", 2000) + `"`, // text in quotes is neither operators nor brackets
	}
	for name, expr := range accepted {
		t.Run(name, func(t *testing.T) {
			q, err := Compile(expr.(string))
			require.NoError(t, err)
			_, err = q.Search(data)
			require.NoError(t, err)
		})
	}
}

// TestBigLiterals checks that a literal number float64 cannot hold exactly
// is refused: `9007199254740993` would equal 9007199254740992.
func TestQueryBigLiterals(t *testing.T) {
	for _, expr := range []string{"n == `9007199254740993`", "n == `9007199254740992`", "[?n == `-9007199254740993`]", "contains(`[1, 12345678901234567890]`, n)", "n < `1e300`"} {
		_, err := Compile(expr)
		var se *SyntaxError
		require.True(t, errors.As(err, &se), "%q: %v", expr, err)
		assert.Contains(t, se.Msg, "beyond ±(2^53 − 1): JMESPath compares numbers as float64", expr)
	}
	for _, expr := range []string{"n == `9007199254740991`", "n == `-9007199254740991`", "n == `0.1`", "n == '9007199254740993'", "`\"9007199254740993\"`", "`{\"a\": 1}`"} {
		_, err := Compile(expr)
		assert.NoError(t, err, expr)
	}
}

func TestQueryUnsafeNumber(t *testing.T) {
	for _, v := range []any{json.Number("9007199254740992"), json.Number("1e400"), 9007199254740992.0, int64(1 << 60), uint64(1 << 63),
		[]any{1.0, map[string]any{"id": -1e17}}} {
		_, ok := UnsafeNumber(v)
		assert.True(t, ok, "%#v", v)
	}
	for _, v := range []any{json.Number("9007199254740991"), -9007199254740991.0, 1 << 40, "9007199254740993", []any{0.5}, nil} {
		_, ok := UnsafeNumber(v)
		assert.False(t, ok, "%#v", v)
	}
	n, _ := UnsafeNumber(map[string]any{"id": json.Number("9007199254740993")})
	assert.Equal(t, "9007199254740993", n)
}

func TestQuerySearchErrors(t *testing.T) {
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

	// The library prints the value it was given: the message stays bounded.
	q, err = Compile("abs(@)")
	require.NoError(t, err)
	_, err = q.Search(map[string]any{"big": strings.Repeat("x", 1<<20)})
	require.Error(t, err)
	assert.Less(t, len(err.Error()), 1000)
}

func TestQuerySearchDecoded(t *testing.T) {
	data := mustDecode(t, `{"a": {"b": [1, 2.5, "x"]}, "n": 7}`, false)
	for expr, want := range map[string]any{"a.b[1]": 2.5, "n": 7.0, "length(a.b)": 3.0, "a.c": nil, "keys(a)": []any{"b"}} {
		q, err := Compile(expr)
		require.NoError(t, err)
		got, err := q.SearchDecoded(data)
		require.NoError(t, err)
		assert.Equal(t, want, got, expr)
		viaSearch, err := q.Search(data)
		require.NoError(t, err)
		assert.Equal(t, viaSearch, got, expr)
	}
	q, err := Compile("abs(a)")
	require.NoError(t, err)
	_, err = q.SearchDecoded(data)
	assert.ErrorContains(t, err, `evaluating "abs(a)"`)
}

func TestQueryCompileCaches(t *testing.T) {
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

func TestQueryNormalize(t *testing.T) {
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

func TestQueryNormalizeKeepsNormalValues(t *testing.T) {
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

// TestCompileCacheBounded: past maxCached distinct expressions, queries
// still compile and run, and the cache stops growing.
func TestQueryCompileCacheBounded(t *testing.T) {
	for i := range maxCached + 10 {
		q, err := Compile(fmt.Sprintf("bounded.f%d", i))
		require.NoError(t, err)
		if i >= maxCached {
			got, err := q.Search(map[string]any{"bounded": map[string]any{fmt.Sprintf("f%d", i): 1}})
			require.NoError(t, err)
			require.Equal(t, 1.0, got)
		}
	}
	assert.LessOrEqual(t, cacheLen.Load(), int64(maxCached))
}

// TestQueryLeavesDataAlone: the data a query reads is shared by every check
// of one output (assert's parse cache), so no query may write it. The
// library's sort_by sorts the array it is given in place; it is given a
// copy.
func TestQueryLeavesDataAlone(t *testing.T) {
	data := mustDecode(t, `{"items": [{"sku": "c", "price": 3}, {"sku": "a", "price": 1}, {"sku": "b", "price": 2}]}`, false)
	before := mustDecode(t, `{"items": [{"sku": "c", "price": 3}, {"sku": "a", "price": 1}, {"sku": "b", "price": 2}]}`, false)
	for _, expr := range []string{
		"sort_by(items, &price)[0].sku", "sort_by(items, &sku)[0].sku", "reverse(items)[0].sku",
		"sort(items[*].sku)[0]", "max_by(items, &price).sku", "items | [sort_by(@, &price), @][1][0].sku",
	} {
		q, err := Compile(expr)
		require.NoError(t, err)
		_, err = q.SearchDecoded(data)
		require.NoError(t, err, expr)
		require.Equal(t, before, data, "%s changed the data", expr)
	}
	assert.Equal(t, "c", search(t, "items | [sort_by(@, &price), @][1][0].sku", data))
}
