package assert_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	testify "github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
)

// Field case C14: keys holding '-' or '.'.
const c14 = `{"tags": {"created-by": "ops-bot", "v1.2": "ok"}}`

func TestJSONPath(t *testing.T) {
	order := jsonAnswer(`{"refund": {"amount": 41.5, "currency": "EUR"}, "items": ["a", "b", {"sku": 7}], "note": null, "n": "1"}`)
	runCases(t, []evalCase{
		// Field case C01a: the JSON is the json fence, not the ts one.
		{name: "C01a status from the json fence", tr: jsonAnswer(c01a), check: "json_path",
			params: map[string]any{"expression": "status", "expected": "shipped", "allow_wrapped": true}, want: PASS, summary: `got "shipped"`},

		// Field case C13: numbers compare by value.
		{name: "C13a greater-than", tr: jsonAnswer(`{"min_size": 2, "max_size": 7}`), check: "json_path",
			params: map[string]any{"expression": "max_size > min_size", "expected": true}, want: PASS},
		{name: "C13a expected Go int", tr: jsonAnswer(`{"min_size": 2, "max_size": 7}`), check: "json_path",
			params: map[string]any{"expression": "max_size", "expected": 7}, want: PASS, summary: "got 7"},
		{name: "C13a range", tr: jsonAnswer(`{"min_size": 2, "max_size": 7}`), check: "json_path",
			params: map[string]any{"expression": "max_size", "min": 5, "max": 10}, want: PASS},
		{name: "C13b json.Number expected", tr: jsonAnswer(`{"max_size": 7.0}`), check: "json_path",
			params: map[string]any{"expression": "$.max_size", "expected": json.Number("7")}, want: PASS},
		{name: "C13c filter on 20.0", tr: jsonAnswer(`{"fees": [{"fee": 20.0}, {"fee": 5}]}`), check: "json_path",
			params: map[string]any{"expression": "fees[?fee == `20`]", "min_results": 1}, want: PASS},
		{name: "C13c exactly one", tr: jsonAnswer(`{"fees": [{"fee": 20.0}, {"fee": 5}]}`), check: "json_path",
			params: map[string]any{"expression": "fees[?fee == `20`]", "min_results": 1, "max_results": 1}, want: PASS,
			summary: `got [{"fee":20}]`},
		{name: "C13d exponent form", tr: jsonAnswer(`{"ts": 1.476857243e+09}`), check: "json_path",
			params: map[string]any{"expression": "ts", "expected": 1476857243}, want: PASS},
		{name: "C13e string is not a number", tr: jsonAnswer(`{"n": "1"}`), check: "json_path",
			params: map[string]any{"expression": "n", "expected": 1}, want: FAIL, summary: `got "1", want 1`},

		// Field case C14.
		{name: "C14a quoted hyphen key", tr: jsonAnswer(c14), check: "json_path",
			params: map[string]any{"expression": `tags."created-by"`, "expected": "ops-bot"}, want: PASS},
		{name: "C14b unquoted hyphen is subtraction", tr: jsonAnswer(c14), check: "json_path",
			params: map[string]any{"expression": "tags.created-by", "expected": "ops-bot"}, want: ERROR, param: "expression",
			summary: `json_path: param "expression": invalid JMESPath "tags.created-by": '-' is subtraction in JMESPath: quote the key, tags."created-by" (write "a - b" with spaces to subtract) (at offset 12)`},
		{name: "C14b expected null would pass on the subtraction", tr: jsonAnswer(c14), check: "json_path",
			params: map[string]any{"expression": "tags.created-by", "expected": nil}, want: ERROR, param: "expression"},
		{name: "C14b x-y would select the subtraction's null", tr: jsonAnswer(`{"x-y": 5}`), check: "json_path",
			params: map[string]any{"expression": "x-y", "expected": nil}, want: ERROR, param: "expression"},
		{name: "C14b subtraction with spaces", tr: jsonAnswer(`{"a": 5, "b": 2}`), check: "json_path",
			params: map[string]any{"expression": "a - b", "expected": 3}, want: PASS},
		{name: "C14c quoted dotted key", tr: jsonAnswer(c14), check: "json_path",
			params: map[string]any{"expression": `tags."v1.2"`, "expected": "ok"}, want: PASS},
		{name: "C14d unquoted dotted key", tr: jsonAnswer(c14), check: "json_path",
			params: map[string]any{"expression": "tags.v1.2", "expected": "ok"}, want: ERROR, param: "expression",
			summary: `json_path: param "expression": invalid JMESPath "tags.v1.2": Expected identifier, lbracket, or lbrace (at offset 8)`},
		{name: "C14e U+0080 panics the lexer", tr: jsonAnswer(c14), check: "json_path",
			params: map[string]any{"expression": "tags.a\u0080"}, want: ERROR, param: "expression"},

		// Constraints.
		{name: "selects something", tr: order, check: "json_path", params: map[string]any{"expression": "refund.currency"}, want: PASS, summary: `got "EUR"`},
		{name: "selects nothing", tr: order, check: "json_path", params: map[string]any{"expression": "refund.reason"}, want: FAIL,
			summary: "no value at refund.reason", score: ptr(0)},
		{name: "explicit null selects nothing", tr: order, check: "json_path", params: map[string]any{"expression": "note"}, want: FAIL,
			summary: "note selected nothing (null)"},
		{name: "expected null passes on null", tr: order, check: "json_path", params: map[string]any{"expression": "note", "expected": nil}, want: PASS,
			summary: "got null"},
		{name: "expected null fails on a value", tr: order, check: "json_path", params: map[string]any{"expression": "n", "expected": nil}, want: FAIL,
			summary: `got "1", want null`},
		{name: "scalar mismatch: the summary says it all", tr: order, check: "json_path", params: map[string]any{"expression": "refund.amount", "expected": 42},
			want: FAIL, summary: "got 41.5, want 42", score: ptr(0)},
		{name: "deep expected object, alias jmespath_expression", tr: order, check: "json_path",
			params: map[string]any{"jmespath_expression": "refund", "expected": map[string]any{"amount": 41.5, "currency": "EUR"}}, want: PASS},
		{name: "deep expected mismatch", tr: order, check: "json_path",
			params: map[string]any{"expression": "items", "expected": []any{"a", "b", map[string]any{"sku": 8}}}, want: FAIL,
			diff: "float64(8)"},
		{name: "contains", tr: order, check: "json_path", params: map[string]any{"expression": "items", "contains": []any{"b", map[string]any{"sku": 7.0}}}, want: PASS},
		{name: "contains missing", tr: order, check: "json_path", params: map[string]any{"expression": "items", "contains": []any{"b", "z", 3}}, want: FAIL,
			summary: `missing "z", 3 in ["a","b",{"sku":7}]`},
		{name: "contains on a non-array", tr: order, check: "json_path", params: map[string]any{"expression": "refund", "contains": []any{"EUR"}}, want: FAIL,
			summary: `got {"amount":41.5,"currency":"EUR"}, want an array containing "EUR"`},
		{name: "result count", tr: order, check: "json_path", params: map[string]any{"expression": "items", "max_results": 2}, want: FAIL,
			summary: "got 3 results, want <= 2"},
		{name: "result count on null", tr: order, check: "json_path", params: map[string]any{"expression": "lines", "min_results": 1}, want: FAIL,
			summary: "no value at lines, want an array with >= 1 items"},
		{name: "numeric range", tr: order, check: "json_path", params: map[string]any{"expression": "refund.amount", "min": 0, "max": 40}, want: FAIL,
			summary: "got 41.5, want in [0, 40]"},
		{name: "numeric range on a string", tr: order, check: "json_path", params: map[string]any{"expression": "n", "min": 1}, want: FAIL,
			summary: `got "1", want a number >= 1`},
		{name: "constraints are ANDed", tr: order, check: "json_path",
			params: map[string]any{"expression": "refund.amount", "expected": 41.5, "min": 42}, want: FAIL, score: ptr(0.5),
			summary: "got 41.5, want >= 42"},
		{name: "every failure is reported", tr: order, check: "json_path",
			params: map[string]any{"expression": "refund.amount", "expected": 42, "max": 40}, want: FAIL,
			summary: "got 41.5, want 42; got 41.5, want <= 40"},
		{name: "root prefix", tr: order, check: "json_path", params: map[string]any{"expression": "$.items[2].sku", "expected": 7}, want: PASS},
		{name: "function error fails", tr: order, check: "json_path", params: map[string]any{"expression": "abs(n)"}, want: FAIL},
		{name: "not JSON", tr: jsonAnswer("The refund is 42 EUR."), check: "json_path", params: map[string]any{"expression": "refund"}, want: FAIL,
			summary: "not valid JSON: invalid character 'T' looking for beginning of value at line 1, column 1"},
		{name: "session", tr: jsonChat(
			evalkit.Message{Role: evalkit.RoleAssistant, Content: `{"status": "ok"}`},
			evalkit.Message{Role: evalkit.RoleAssistant, Content: `{"status": "failed"}`},
		), check: "json_path", params: map[string]any{"expression": "status", "expected": "ok", "scope": "session"}, want: FAIL,
			summary: "1 of 2 assistant messages fail", hasDetails: []assert.Detail{{Label: "messages[2]", Text: `got "failed", want "ok"`}}},

		// Parameter errors.
		{name: "missing expression", tr: order, check: "json_path", params: map[string]any{"expected": 1}, want: ERROR, param: "expression"},
		{name: "empty expression", tr: order, check: "json_path", params: map[string]any{"expression": ""}, want: ERROR, param: "expression"},
		{name: "expression and alias", tr: order, check: "json_path", params: map[string]any{"expression": "a", "jmespath_expression": "a"},
			want: ERROR, param: "jmespath_expression"},
		{name: "empty contains", tr: order, check: "json_path", params: map[string]any{"expression": "items", "contains": []any{}}, want: ERROR, param: "contains"},
		{name: "contains not a list", tr: order, check: "json_path", params: map[string]any{"expression": "items", "contains": "a"}, want: ERROR, param: "contains"},
		{name: "min above max", tr: order, check: "json_path", params: map[string]any{"expression": "n", "min": 5, "max": 1}, want: ERROR, param: "max"},
		{name: "min_results above max_results", tr: order, check: "json_path",
			params: map[string]any{"expression": "items", "min_results": 5, "max_results": 1}, want: ERROR, param: "max_results"},
		{name: "negative min_results", tr: order, check: "json_path", params: map[string]any{"expression": "items", "min_results": -1}, want: ERROR, param: "min_results"},
		{name: "min not a number", tr: order, check: "json_path", params: map[string]any{"expression": "n", "min": "5"}, want: ERROR, param: "min"},
		{name: "unknown param", tr: order, check: "json_path", params: map[string]any{"expression": "n", "expect": 1}, want: ERROR, param: "expect"},
	})
}

func TestJSONPathTyped(t *testing.T) {
	ctx := context.Background()
	tr := jsonAnswer(`{"min_size": 2, "max_size": 7, "tags": {"created-by": "ops-bot"}, "none": null}`)
	for _, c := range []assert.JSONPath{
		{Expression: "max_size", Expected: 7},                           // C13a: a Go int
		{Expression: "max_size", Expected: json.Number("7")},            // C13b
		{Expression: "max_size", Min: ptr(5), Max: ptr(10)},             // C13a range
		{Expression: "max_size > min_size", Expected: true},             // C13a
		{Expression: "[min_size, max_size]", Contains: []any{int64(2)}}, // contains, normalized
		{Expression: "[min_size, max_size]", MinResults: jsonInt(2), MaxResults: jsonInt(2)},
		{Expression: `tags."created-by"`, Expected: "ops-bot"},
		{Expression: "none", ExpectNull: true},
	} {
		res, err := c.Check(ctx, tr)
		require.NoError(t, err, "%+v", c)
		testify.True(t, res.Passed, "%+v: %+v", c, res)
	}
	for _, c := range []assert.JSONPath{
		{Expression: "none"},
		{Expression: "max_size", ExpectNull: true},
		{Expression: "max_size", MaxResults: jsonInt(0)},
	} {
		res, err := c.Check(ctx, tr)
		require.NoError(t, err, "%+v", c)
		testify.False(t, res.Passed, "%+v: %+v", c, res)
	}
	for _, tt := range []struct {
		param string
		c     assert.JSONPath
	}{
		{"expression", assert.JSONPath{Expression: "tags.a\u0080"}},
		{"expression", assert.JSONPath{Expression: "tags.created-by", Expected: "ops-bot"}},
		{"expression", assert.JSONPath{Expression: "x-y"}}, // C14b: would select the subtraction's null
		{"expression", assert.JSONPath{Expression: "tags.created-by", ExpectNull: true}},
		{"expected", assert.JSONPath{Expression: "a", Expected: 1, ExpectNull: true}},
		{"contains", assert.JSONPath{Expression: "a", Contains: []any{}}},
		{"max_results", assert.JSONPath{Expression: "a", MinResults: jsonInt(3), MaxResults: jsonInt(1)}},
		{"min_results", assert.JSONPath{Expression: "a", MinResults: jsonInt(-1)}},
		{"max", assert.JSONPath{Expression: "a", Min: ptr(1), Max: ptr(0)}},
	} {
		_, err := tt.c.Check(ctx, tr)
		var pe *assert.ParamError
		require.True(t, errors.As(err, &pe), "%+v: %v", tt.c, err)
		testify.Equal(t, tt.param, pe.Param)
	}
}

// TestJSONPathBigIntegers: JMESPath compares numbers as float64, so
// 9007199254740993 and 9007199254740992 would compare equal. A parameter
// holding a number of magnitude 2^53 or more is an error, never a pass on a
// different number.
func TestJSONPathBigIntegers(t *testing.T) {
	ctx := context.Background()
	tr := jsonAnswer(`{"id": 9007199254740992, "ids": [9007199254740992], "safe": 9007199254740991}`)
	for _, tt := range []struct {
		param string
		c     assert.JSONPath
	}{
		{"expected", assert.JSONPath{Expression: "id", Expected: int64(9007199254740993)}},
		{"expected", assert.JSONPath{Expression: "id", Expected: uint64(9007199254740993)}},
		{"expected", assert.JSONPath{Expression: "id", Expected: json.Number("9007199254740993")}},
		{"expected", assert.JSONPath{Expression: "id", Expected: 9007199254740992.0}},
		{"expected", assert.JSONPath{Expression: "@", Expected: map[string]any{"id": int64(-9007199254740993)}}},
		{"expected", assert.JSONPath{Expression: "id", Expected: struct{ N int64 }{1 << 60}}},
		{"contains", assert.JSONPath{Expression: "ids", Contains: []any{int64(9007199254740993)}}},
		{"min", assert.JSONPath{Expression: "id", Min: ptr(9007199254740992)}},
		{"max", assert.JSONPath{Expression: "id", Max: ptr(1e300)}},
		{"expression", assert.JSONPath{Expression: "id == `9007199254740993`", Expected: true}},
	} {
		_, err := tt.c.Check(ctx, tr)
		var pe *assert.ParamError
		require.True(t, errors.As(err, &pe), "%+v: %v", tt.c, err)
		testify.Equal(t, tt.param, pe.Param)
		testify.Contains(t, err.Error(), "beyond ±(2^53 − 1): JMESPath compares numbers as float64")
	}
	_, err := assert.JSONPath{Expression: "id", Expected: int64(9007199254740993)}.Check(ctx, tr)
	testify.EqualError(t, err, `json_path: param "expected": "9007199254740993" is beyond ±(2^53 − 1): JMESPath compares numbers as float64, `+
		`so it would also match its neighbours (9007199254740993 reads as 9007199254740992); `+
		`check it with json_schema's "const", which compares numbers exactly, or have the output write it as a string`)

	// Up to 2^53 − 1 every integer is exact: these compare right.
	res, err := assert.JSONPath{Expression: "safe", Expected: int64(9007199254740991)}.Check(ctx, tr)
	require.NoError(t, err)
	testify.True(t, res.Passed, "%+v", res)
	res, err = assert.JSONPath{Expression: "safe", Expected: int64(9007199254740990)}.Check(ctx, tr)
	require.NoError(t, err)
	testify.False(t, res.Passed, "%+v", res)
	res, err = assert.JSONPath{Expression: "id", Max: ptr(9007199254740991)}.Check(ctx, tr)
	require.NoError(t, err)
	testify.False(t, res.Passed, "an output number beyond 2^53 is never below a safe bound: %+v", res)

	// From the registry, as a YAML or JSON case file gives it.
	_, err = assert.Eval(ctx, "json_path", tr, map[string]any{"expression": "id", "expected": 9007199254740993})
	var pe *assert.ParamError
	require.True(t, errors.As(err, &pe), "%v", err)
	testify.Equal(t, "expected", pe.Param)
}

// TestJSONPathHostileExpressions: expressions that would overflow the
// JMESPath library's stack (a fatal error that kills the test binary) are
// parameter errors with a bounded message.
func TestJSONPathHostileExpressions(t *testing.T) {
	ctx := context.Background()
	tr := jsonAnswer(`{"a": {"a": 1}}`)
	for name, expr := range map[string]string{
		"400k nots":       strings.Repeat("!", 400_000) + "a",
		"800 KB of a.a.a": "a" + strings.Repeat(".a", 400_000),
		"deep brackets":   strings.Repeat("(", 300) + "a" + strings.Repeat(")", 300),
		"long pipe":       "a" + strings.Repeat("|a", 2000),
	} {
		_, err := assert.JSONPath{Expression: expr}.Check(ctx, tr)
		var pe *assert.ParamError
		require.True(t, errors.As(err, &pe), "%s: %v", name, err)
		testify.Equal(t, "expression", pe.Param)
		testify.Less(t, len(err.Error()), 500, name)

		_, err = assert.FieldPresence{Fields: []string{"a", expr}}.Check(ctx, tr)
		require.True(t, errors.As(err, &pe), "%s: %v", name, err)
		testify.Equal(t, "fields", pe.Param)
		testify.Less(t, len(err.Error()), 800, name)
	}
}

// TestJSONPathOverBudget: an expression asking a function to build more
// than one evaluation may (pad_right to a terabyte used to crash the test
// binary out of memory), or doing more work or yielding a bigger result
// ("@ | [@, @]" 28 times, 253 bytes, used to hang), is a parameter error
// on the expression, whether the width is a literal, refused before any
// output is read, or comes from the output; never a failure charged to the
// output, never a pass.
func TestJSONPathOverBudget(t *testing.T) {
	ctx := context.Background()
	tr := jsonAnswer(`{"s": "x", "w": 1099511627776, "a": [1, 2, 3]}`)
	for name, tt := range map[string]struct{ expr, msg string }{
		"literal width":   {"length(pad_right(s, `1099511627776`))", "width 1.099511627776e+12 is past the 67108864 bytes"},
		"width from data": {"length(pad_left(s, w))", "pad_left would build 1099511627776 bytes"},
		"replace":         {"length(replace(pad_left(s, `10000000`), '', 'xxxxxxxxxx'))", "replace would build"},
		"split":           {"length(split(pad_left(s, `10000000`), ''))", "split would build 320000000 bytes"},
		"doubling":        {"@" + strings.Repeat(" | [@, @]", 28), "the result holds more than 4194304 values"},
		"doubling, count": {"length(@" + strings.Repeat(" | [@, @]", 40) + " | [@ == @])", "the evaluation takes more than 4194304 steps"},
	} {
		t.Run(name, func(t *testing.T) {
			for _, c := range []assert.Check{
				assert.JSONPath{Expression: tt.expr, Expected: 1.0},
				assert.JSONPath{Expression: tt.expr, MinResults: new(int)},
				assert.JSONPath{Expression: tt.expr, Contains: []any{1.0}},
				assert.Equals{Expression: tt.expr, Expected: 1.0},
			} {
				_, err := c.Check(ctx, tr)
				var pe *assert.ParamError
				require.True(t, errors.As(err, &pe), "%T: %v", c, err)
				testify.Equal(t, "expression", pe.Param)
				testify.Contains(t, err.Error(), tt.msg)
				testify.Less(t, len(err.Error()), 600)
			}
			_, err := assert.FieldPresence{Fields: []string{"s", tt.expr}}.Check(ctx, tr)
			var pe *assert.ParamError
			require.True(t, errors.As(err, &pe), "%v", err)
			testify.Equal(t, "fields", pe.Param)
			testify.Contains(t, err.Error(), tt.msg)
		})
	}
}

// TestJSONBoundedMessages: however many fields are missing or items are
// absent, and however long the expression, a failure stays short.
func TestJSONBoundedMessages(t *testing.T) {
	ctx := context.Background()
	tr := jsonAnswer(`{"items": [1, 2]}`)
	var fields []string
	var items []any
	for i := range 20_000 {
		fields = append(fields, fmt.Sprintf("field_%d", i))
		items = append(items, fmt.Sprintf("item-%d", i))
	}
	fields = append(fields, "f"+strings.Repeat("x", 5000))
	res, err := assert.FieldPresence{Fields: fields}.Check(ctx, tr)
	require.NoError(t, err)
	testify.False(t, res.Passed)
	testify.Equal(t, `missing "field_0", "field_1", "field_2", "field_3", "field_4", "field_5", "field_6", "field_7", "field_8", "field_9", … and 19991 more`, res.Summary)

	res, err = assert.JSONPath{Expression: "items", Contains: items}.Check(ctx, tr)
	require.NoError(t, err)
	testify.False(t, res.Passed)
	testify.Less(t, resultSize(res), 1000, "%+v", res)

	long := "a" + strings.Repeat(" || a", 500)
	res, err = assert.JSONPath{Expression: long}.Check(ctx, tr)
	require.NoError(t, err)
	testify.False(t, res.Passed)
	testify.Less(t, resultSize(res), 1000, "%+v", res)

	var lines []string
	for i := range 20_000 {
		lines = append(lines, fmt.Sprintf(`{"sku": "SKU-%05d", "qty": %d}`, i, i%7))
	}
	res, err = assert.JSONPath{Expression: "items", Expected: []any{map[string]any{"sku": "SKU-00000", "qty": 1}}}.Check(ctx,
		jsonAnswer(`{"items": [`+strings.Join(lines, ", ")+`]}`))
	require.NoError(t, err)
	testify.False(t, res.Passed)
	testify.NotEmpty(t, res.DiffText())
	testify.Less(t, resultSize(res), 5000, "the diff is cut: %d bytes", len(res.DiffText()))

	res, err = assert.JSONPath{Expression: "abs(@)"}.Check(ctx, jsonAnswer(`{"big": "`+strings.Repeat("x", 1<<20)+`"}`))
	require.NoError(t, err)
	testify.False(t, res.Passed)
	testify.Less(t, resultSize(res), 1000, "%+v", res)
}

// resultSize is the length of everything a result would print.
func resultSize(res assert.Result) int {
	n := len(res.Summary) + len(res.DiffText())
	for _, d := range res.Details {
		n += len(d.Label) + len(d.Text)
	}
	return n
}

func TestFieldPresence(t *testing.T) {
	customer := jsonAnswer(`{"id": 7, "username": "ann", "customer": {"email": "a@example.com", "phone": null}, "tags": {"created-by": "ops"}, "items": [{"sku": "x"}]}`)
	runCases(t, []evalCase{
		{name: "all present", tr: customer, check: "field_presence",
			params: map[string]any{"fields": []any{"id", "customer.email", `tags."created-by"`, "items[0].sku"}}, want: PASS,
			summary: "all 4 fields present", score: ptr(1)},
		{name: "missing fields", tr: customer, check: "field_presence",
			params: map[string]any{"fields": []any{"id", "name", "customer.address"}}, want: FAIL,
			summary: `missing "name", "customer.address"`, score: ptr(1.0 / 3)},
		{name: "name is not found in username", tr: customer, check: "required_fields",
			params: map[string]any{"fields": "name"}, want: FAIL, summary: `missing "name"`},
		{name: "explicit null counts as absent", tr: customer, check: "field_presence",
			params: map[string]any{"fields": []any{"customer.phone"}}, want: FAIL},
		{name: "C14b unquoted hyphen", tr: customer, check: "field_presence",
			params: map[string]any{"fields": []any{"id", "tags.created-by"}}, want: ERROR, param: "fields",
			summary: `field_presence: param "fields": item 1, "tags.created-by": invalid JMESPath "tags.created-by": '-' is subtraction in JMESPath: quote the key, tags."created-by" (write "a - b" with spaces to subtract) (at offset 12)`},
		{name: "a bare key name with '-' is that key", tr: jsonAnswer(`{"x-request-id": "r1", "order id": 7}`), check: "required_fields",
			params: map[string]any{"fields": []any{"x-request-id", "order id"}}, want: PASS},
		{name: "a bare key name with '-' can be missing", tr: customer, check: "field_presence",
			params: map[string]any{"fields": []any{"x-request-id"}}, want: FAIL, summary: `missing "x-request-id"`},
		{name: "C14e U+0080", tr: customer, check: "field_presence",
			params: map[string]any{"fields": []any{"id", "tags.a\u0080"}}, want: ERROR, param: "fields"},
		{name: "C14d unquoted dotted key", tr: customer, check: "field_presence",
			params: map[string]any{"fields": []any{"tags.v1.2"}}, want: ERROR, param: "fields",
			summary: `field_presence: param "fields": item 0, "tags.v1.2": invalid JMESPath "tags.v1.2": Expected identifier, lbracket, or lbrace (at offset 8)`},
		{name: "wrapped", tr: jsonAnswer("```json\n{\"id\": 1}\n```"), check: "field_presence",
			params: map[string]any{"fields": []any{"id"}, "allow_wrapped": true}, want: PASS},
		{name: "not JSON", tr: jsonAnswer("id: 7, name: Ann"), check: "field_presence",
			params: map[string]any{"fields": []any{"id"}}, want: FAIL},
		{name: "empty list", tr: customer, check: "field_presence", params: map[string]any{"fields": []any{}}, want: ERROR, param: "fields"},
		{name: "empty field", tr: customer, check: "field_presence", params: map[string]any{"fields": []any{"id", ""}}, want: ERROR, param: "fields"},
		{name: "missing fields param", tr: customer, check: "field_presence", want: ERROR, param: "fields"},
		{name: "unknown param", tr: customer, check: "field_presence", params: map[string]any{"fields": []any{"id"}, "case_sensitive": true},
			want: ERROR, param: "case_sensitive"},
	})
}

func TestFieldPresenceTyped(t *testing.T) {
	ctx := context.Background()
	res, err := assert.FieldPresence{Fields: []string{"id", "$.customer.email"}}.Check(ctx, jsonAnswer(`{"id": 1, "customer": {"email": "x"}}`))
	require.NoError(t, err)
	testify.True(t, res.Passed)
	_, err = assert.FieldPresence{}.Check(ctx, jsonAnswer(`{}`))
	var pe *assert.ParamError
	require.True(t, errors.As(err, &pe))
	testify.Equal(t, "fields", pe.Param)
}

// TestJSONTypedMatchesRegistry checks that a check built in Go and the same
// check built from parameters give the same result.
func TestJSONTypedMatchesRegistry(t *testing.T) {
	ctx := context.Background()
	tr := jsonAnswer("Answer:\n```json\n{\"refund\": {\"amount\": 41.5}, \"when\": \"soon\"}\n```")
	pairs := []struct {
		typed  assert.Check
		check  string
		params map[string]any
	}{
		{assert.JSONValid{AllowWrapped: true}, "json_valid", map[string]any{"allow_wrapped": true}},
		{assert.JSONPath{Expression: "refund.amount", Expected: 42, AllowWrapped: true}, "json_path",
			map[string]any{"expression": "refund.amount", "expected": 42, "allow_wrapped": true}},
		{assert.JSONSchema{Schema: c16Schema, ExtractJSON: true}, "json_schema", map[string]any{"schema": c16Schema, "extract_json": true}},
		{assert.FieldPresence{Fields: []string{"refund.amount", "when"}, AllowWrapped: true}, "field_presence",
			map[string]any{"fields": []any{"refund.amount", "when"}, "allow_wrapped": true}},
	}
	for _, p := range pairs {
		want, err := p.typed.Check(ctx, tr)
		require.NoError(t, err)
		got, err := assert.Eval(ctx, p.check, tr, p.params)
		require.NoError(t, err)
		testify.Equal(t, want, got, p.check)
	}
}

func TestJSONRegistryNames(t *testing.T) {
	names := assert.NewRegistry().Names()
	for _, n := range []string{"json_valid", "valid_json", "is_valid_json", "json_schema", "json_path", "field_presence", "required_fields"} {
		testify.Contains(t, names, n)
	}
}

// TestSharedParams: a Go value that shares its parts (the same subschema
// under "allOf" twice at every level, an expected value reusing one
// subtree) is exponentially bigger walked as a tree; every check that
// walks its parameters used to hang on one. It is an error naming the
// parameter, from the registry and from the typed checks alike.
func TestSharedParams(t *testing.T) {
	ctx := context.Background()
	tr := jsonAnswer(`{"a": [1, 2, 3]}`)
	tr.Messages[len(tr.Messages)-1].ToolCalls = []evalkit.ToolCall{{ID: "1", Name: "x", Args: json.RawMessage(`{"a": 1}`)}}
	schemaOf := func(levels int, key string) map[string]any {
		s := map[string]any{"type": "object"}
		for range levels {
			s = map[string]any{key: []any{s, s}}
		}
		return s
	}
	args := map[string]any{"a": 1}
	var value any = 1.0
	for range 30 {
		args = map[string]any{"x": args, "y": args}
		value = []any{value, value}
	}
	registry := map[string]struct {
		check, param string
		params       map[string]any
	}{
		"allOf, 5000 levels": {"json_schema", "schema", map[string]any{"schema": schemaOf(5000, "allOf")}},
		"anyOf, 40 levels":   {"json_schema", "schema", map[string]any{"schema": schemaOf(40, "anyOf")}},
		"expected_args":      {"tool_args", "expected_args", map[string]any{"tool_name": "x", "expected_args": args}},
		"expected":           {"json_path", "expected", map[string]any{"expression": "a", "expected": value}},
		"contains":           {"json_path", "contains", map[string]any{"expression": "a", "contains": []any{value}}},
		"equals":             {"equals", "expected", map[string]any{"expected": value}},
		"equals any_of":      {"equals", "any_of", map[string]any{"any_of": []any{value}}},
	}
	for name, tt := range registry {
		t.Run(name, func(t *testing.T) {
			_, err := assert.Eval(ctx, tt.check, tr, tt.params)
			var pe *assert.ParamError
			require.True(t, errors.As(err, &pe), "%v", err)
			testify.Equal(t, tt.param, pe.Param)
			// 5000 levels of {"allOf": [s, s]} nest 10,001 deep: measured
			// once per level, the depth is what it passes first.
			testify.Regexp(t, "counted as a tree|nests deeper than 10000 levels", err.Error())
		})
	}
	typed := map[string]struct {
		c     assert.Check
		param string
	}{
		"schema":   {assert.JSONSchema{Schema: schemaOf(40, "anyOf")}, "schema"},
		"deep":     {assert.JSONSchema{Schema: schemaOf(5000, "allOf")}, "schema"},
		"args":     {assert.ToolArgs{Tool: "x", Args: args}, "expected_args"},
		"expected": {assert.JSONPath{Expression: "a", Expected: value}, "expected"},
		"contains": {assert.JSONPath{Expression: "a", Contains: []any{value}}, "contains"},
		"equals":   {assert.Equals{Expected: value}, "expected"},
	}
	for name, tt := range typed {
		t.Run("typed "+name, func(t *testing.T) {
			_, err := tt.c.Check(ctx, tr)
			var pe *assert.ParamError
			require.True(t, errors.As(err, &pe), "%v", err)
			testify.Equal(t, tt.param, pe.Param)
		})
	}
	_, err := assert.GradeVerdict(evalkit.Verdict{Fields: map[string]any{"a": 1}}, assert.Passing{Schema: schemaOf(40, "anyOf")})
	var pe *assert.ParamError
	require.True(t, errors.As(err, &pe), "%v", err)
	testify.Equal(t, "passing_schema", pe.Param)
}

// A path that is not there is told from a null that is: JMESPath reads
// both as null, and "got null" for a missing field sent users looking for
// a null in their JSON.
func TestJSONPathMissingIsNotNull(t *testing.T) {
	tr := jsonAnswer(`{"a": {"b": null, "list": [1]}, "n": 3}`)
	for _, c := range []struct {
		expr    string
		want    any
		summary string
	}{
		{"a.b", 42.0, "got null, want 42"},
		{"a.c", 42.0, "no value at a.c, want 42"},
		{"x.y", 42.0, "no value at x"},
		{"$.a.list[3]", 1.0, "no value at a.list[3], want 1"},
		{"n.m", 1.0, "no value at n.m, want 1"},
		{"a.c", nil, "no value at a.c"},
		{"a.b", nil, "a.b selected nothing (null)"},
		{"a.*.c | [0]", 1.0, "got null, want 1"}, // not a plain path: JMESPath's null
	} {
		params := map[string]any{"expression": c.expr}
		if c.want != nil {
			params["expected"] = c.want
		}
		res, err := assert.Eval(context.Background(), "json_path", tr, params)
		require.NoError(t, err, c.expr)
		testify.False(t, res.Passed, c.expr)
		testify.True(t, strings.HasPrefix(res.Summary, c.summary), "%s: %q", c.expr, res.Summary)
	}
}
