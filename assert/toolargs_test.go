package assert_test

import (
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	testify "github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
)

// toolDecode decodes an OpenAI-style message list, failing the test on error.
func toolDecode(t testing.TB, data string) *evalkit.Transcript {
	t.Helper()
	tr, err := evalkit.Decode([]byte(data))
	require.NoError(t, err)
	return tr
}

func TestToolArgs(t *testing.T) {
	refund := toolTranscript(
		toolStep{name: "get_order_details", args: `{"order_id":"#W123"}`},
		toolStep{name: "issue_refund", args: `{"order_id":"#W123","amount":42,"reason":"damaged","express":true,
			"address":{"city":"Lyon","zip":"69001"},"items":[{"sku":"A","qty":1},{"sku":"B","qty":2}],"note":null}`},
	)
	called := assert.Detail{Label: "called", Text: "get_order_details ×1, issue_refund ×1"}
	args := func(m map[string]any) map[string]any {
		return map[string]any{"tool_name": "issue_refund", "expected_args": m}
	}
	runCases(t, []evalCase{
		{name: "subset", tr: refund, check: "tool_args", params: args(map[string]any{"order_id": "#W123"}), want: PASS,
			summary: "issue_refund (call 2) matches", score: ptr(1)},
		{name: "empty subset", tr: refund, check: "tool_args", params: args(map[string]any{}), want: PASS},
		{name: "expected_args null", tr: refund, check: "tool_args", params: map[string]any{"tool_name": "issue_refund", "expected_args": nil}, want: ERROR, param: "expected_args"},
		{name: "int equals JSON number", tr: refund, check: "tool_args", params: args(map[string]any{"amount": 42}), want: PASS},
		{name: "float equals JSON number", tr: refund, check: "tool_args", params: args(map[string]any{"amount": 42.0}), want: PASS},
		{name: "json.Number equals JSON number", tr: refund, check: "tool_args", params: args(map[string]any{"amount": json.Number("42.0")}), want: PASS},
		{name: "string is not a number", tr: refund, check: "tool_args", params: args(map[string]any{"amount": "42"}), want: FAIL,
			summary: `issue_refund (call 2): amount: got 42, want "42"`, score: ptr(0)},
		{name: "string is not a boolean", tr: refund, check: "tool_args", params: args(map[string]any{"express": "true"}), want: FAIL,
			summary: `issue_refund (call 2): express: got true, want "true"`},
		{name: "nested subset", tr: refund, check: "tool_args", params: args(map[string]any{"address": map[string]any{"city": "Lyon"}}), want: PASS},
		{name: "nested mismatch", tr: refund, check: "tool_args", params: args(map[string]any{"address": map[string]any{"city": "Paris"}}), want: FAIL,
			summary: `issue_refund (call 2): address.city: got "Lyon", want "Paris"`},
		{name: "objects in arrays match by subset", tr: refund, check: "tool_args",
			params: args(map[string]any{"items": []any{map[string]any{"sku": "A"}, map[string]any{"sku": "B"}}}), want: PASS},
		{name: "array order matters", tr: refund, check: "tool_args",
			params: args(map[string]any{"items": []any{map[string]any{"sku": "B"}, map[string]any{"sku": "A"}}}), want: FAIL,
			summary: `issue_refund (call 2): items[0].sku: got "A", want "B" (and 1 more difference)`},
		{name: "array length matters", tr: refund, check: "tool_args", params: args(map[string]any{"items": []any{map[string]any{"sku": "A"}}}), want: FAIL,
			summary: `issue_refund (call 2): items: got 2 items, want 1`},
		{name: "null matches null", tr: refund, check: "tool_args", params: args(map[string]any{"note": nil}), want: PASS},
		{name: "null is not absent", tr: refund, check: "tool_args", params: args(map[string]any{"coupon": nil}), want: FAIL,
			summary: `issue_refund (call 2): coupon: missing, want null`},
		{name: "object wanted, scalar got", tr: refund, check: "tool_args", params: args(map[string]any{"reason": map[string]any{"code": 1}}), want: FAIL,
			summary: `issue_refund (call 2): reason: got "damaged", want an object`},
		{name: "mismatch details", tr: refund, check: "tool_args", params: args(map[string]any{"order_id": "#W124", "amount": 42}), want: FAIL,
			summary: `issue_refund (call 2): order_id: got "#W123", want "#W124"`,
			details: []assert.Detail{
				{Label: "args", Text: `call 2: {"order_id":"#W123","amount":42,"reason":"damaged","express":true,"address":{"city":"Lyon","zip":"69001"},"items":[{"sku":"A","qty":1},{"sku":"B","qty":2}],"note":null}`},
				called,
			}},
		{name: "never called", tr: refund, check: "tool_args", params: map[string]any{"tool_name": "cancel_order", "expected_args": map[string]any{}}, want: FAIL,
			summary: `"cancel_order" was not called`, score: ptr(0), details: []assert.Detail{called}},
		{name: "session alias", tr: refund, check: "tool_args_session", params: args(map[string]any{"order_id": "#W123"}), want: PASS},

		{name: "list form", tr: refund, check: "tool_args", want: PASS, summary: "all 2 expected calls matched (calls 1, 2)", params: map[string]any{"calls": []any{
			map[string]any{"tool_name": "get_order_details", "expected_args": map[string]any{"order_id": "#W123"}},
			map[string]any{"name": "issue_refund", "args": map[string]any{"amount": 42}},
		}}},
		{name: "list form, one unmatched", tr: refund, check: "tool_args", want: FAIL, score: ptr(0.5), summary: "matched 1 of 2 expected calls", params: map[string]any{"calls": []any{
			map[string]any{"name": "get_order_details", "args": map[string]any{}},
			map[string]any{"name": "send_email", "args": map[string]any{}},
		}}, details: []assert.Detail{{Label: "unmatched", Text: `send_email {}: "send_email" was not called`}, called}},
		{name: "list and tool_name", tr: refund, check: "tool_args", want: ERROR, param: "calls", params: map[string]any{
			"tool_name": "x", "calls": []any{map[string]any{"name": "x", "args": map[string]any{}}}}},
		{name: "empty list", tr: refund, check: "tool_args", want: ERROR, param: "calls", params: map[string]any{"calls": []any{}}},
		{name: "list not a list", tr: refund, check: "tool_args", want: ERROR, param: "calls", params: map[string]any{"calls": "issue_refund"}},
		{name: "entry not an object", tr: refund, check: "tool_args", want: ERROR, param: "calls[0]", params: map[string]any{"calls": []any{"issue_refund"}}},
		{name: "entry without a name", tr: refund, check: "tool_args", want: ERROR, param: "calls[1].tool_name", params: map[string]any{"calls": []any{
			map[string]any{"name": "a", "args": map[string]any{}}, map[string]any{"args": map[string]any{}}}}},
		{name: "entry without args", tr: refund, check: "tool_args", want: ERROR, param: "calls[0].expected_args", params: map[string]any{"calls": []any{
			map[string]any{"name": "a"}}},
			summary: `tool_args: param "calls[0].expected_args": required: want an object ({} matches any arguments)`},
		{name: "entry with an unknown key", tr: refund, check: "tool_args", want: ERROR, param: "calls[0].argz", params: map[string]any{"calls": []any{
			map[string]any{"name": "a", "args": map[string]any{}, "argz": 1}}}},
		{name: "typed entries in a typed list", tr: refund, check: "tool_args", want: PASS, params: map[string]any{"calls": []map[string]any{
			{"name": "issue_refund", "args": map[string]string{"reason": "damaged"}}}}},
		{name: "no expected_args", tr: refund, check: "tool_args", want: ERROR, param: "expected_args", params: map[string]any{"tool_name": "issue_refund"},
			summary: `tool_args: param "expected_args": required: want an object ({} matches any arguments)`},
		{name: "no tool_name", tr: refund, check: "tool_args", want: ERROR, param: "tool_name", params: map[string]any{"expected_args": map[string]any{}}},
		{name: "empty tool_name", tr: refund, check: "tool_args", want: ERROR, param: "tool_name", params: map[string]any{"tool_name": "", "expected_args": map[string]any{}}},
		{name: "expected_args a list", tr: refund, check: "tool_args", want: ERROR, param: "expected_args", params: map[string]any{"tool_name": "x", "expected_args": []any{1}}},
		{name: "expected_args as JSON text", tr: refund, check: "tool_args", want: PASS, params: map[string]any{"tool_name": "issue_refund", "expected_args": `{"amount": 42}`}},
		{name: "unknown param", tr: refund, check: "tool_args", want: ERROR, param: "args", params: map[string]any{"tool_name": "x", "args": map[string]any{}},
			summary: `tool_args: param "args": unknown parameter (known: calls, expected_args, scope, tool_name)`},
	})
}

func TestToolArgsTyped(t *testing.T) {
	ctx := context.Background()
	tr := toolTranscript(toolStep{name: "issue_refund", args: `{"order_id":"#W123","amount":42}`})

	res, err := assert.ToolArgs{Tool: "issue_refund"}.Check(ctx, tr)
	require.NoError(t, err)
	testify.True(t, res.Passed, "nil Args match any object arguments")

	res, err = assert.ToolArgs{Tool: "issue_refund", Args: map[string]any{"amount": int64(43)}}.Check(ctx, tr)
	require.NoError(t, err)
	testify.False(t, res.Passed)
	testify.Equal(t, "issue_refund (call 1): amount: got 42, want 43", res.Summary)
	testify.Contains(t, res.DiffText(), "amount")
	testify.NotContains(t, res.DiffText(), "order_id", "the diff shows the expected keys only")

	for name, c := range map[string]assert.ToolArgs{
		"calls[0].tool_name":     {Calls: []assert.ExpectedCall{{Args: map[string]any{"a": 1}}}},
		"calls":                  {Tool: "x", Calls: []assert.ExpectedCall{{Tool: "x"}}},
		"tool_name":              {Args: map[string]any{"a": 1}},
		"expected_args":          {Tool: "x", Args: map[string]any{"c": make(chan int)}},
		"calls[1].expected_args": {Calls: []assert.ExpectedCall{{Tool: "x"}, {Tool: "y", Args: map[string]any{"f": func() {}}}}},
		"scope":                  {Tool: "x", Scope: assert.Scope(-1)},
	} {
		_, err := c.Check(ctx, tr)
		var pe *assert.ParamError
		if testify.True(t, errors.As(err, &pe), "%s: want a *ParamError, got %v", name, err) {
			testify.Equal(t, name, pe.Param)
		}
	}

	_, err = assert.ToolArgs{Tool: "x"}.Check(ctx, nil)
	testify.ErrorIs(t, err, assert.ErrNoOutput)
}

// TestToolArgsClosest: with several calls to the tool and none matching, the
// failure shows the call with the fewest differences, the latest on a tie.
func TestToolArgsClosest(t *testing.T) {
	tr := toolTranscript(
		toolStep{name: "issue_refund", args: `{"order_id":"#W1","amount":1}`},
		toolStep{name: "issue_refund", args: `{"order_id":"#W2","amount":42}`},
		toolStep{name: "issue_refund", args: `{"order_id":`, noResult: true},
		toolStep{name: "issue_refund", args: `{"order_id":"#W3","amount":42}`},
	)
	res, err := assert.ToolArgs{Tool: "issue_refund", Args: map[string]any{"order_id": "#W2", "amount": 43}}.Check(context.Background(), tr)
	require.NoError(t, err)
	testify.Equal(t, "issue_refund (call 2): amount: got 42, want 43", res.Summary)
	testify.Equal(t, []assert.Detail{
		{Label: "args", Text: `call 2: {"order_id":"#W2","amount":42}`},
		{Label: "note", Text: "4 calls to issue_refund, none matches; showing call 2 (1 with unreadable arguments)"},
		{Label: "called", Text: "issue_refund ×4"},
	}, res.Details)

	res, err = assert.ToolArgs{Tool: "issue_refund", Args: map[string]any{"amount": 7}}.Check(context.Background(), tr)
	require.NoError(t, err)
	testify.Equal(t, "issue_refund (call 4): amount: got 42, want 7", res.Summary, "a tie goes to the latest call")
}

// TestToolArgsFieldC03: arguments cut off by the token limit match nothing,
// and the failure says so; the call still counts as made.
func TestToolArgsFieldC03(t *testing.T) {
	tr := toolDecode(t, `[
		{"role": "user", "content": "Weather in Lyon tonight?"},
		{"role": "assistant", "content": null, "finish_reason": "length", "tool_calls": [
			{"id": "call_1", "type": "function", "function": {"name": "get_forecast", "arguments": "{\"city\": \"Ly"}}]}
	]`)
	ctx := context.Background()
	for _, want := range []map[string]any{{"city": "Lyon"}, {"city": "Ly"}, {}} {
		res, err := assert.Eval(ctx, "tool_args", tr, map[string]any{"tool_name": "get_forecast", "expected_args": want})
		require.NoError(t, err, "no panic, no error: a verdict on the output")
		testify.False(t, res.Passed, "no partial match on %v", want)
		testify.Equal(t, "get_forecast (call 1): arguments are not valid JSON: unexpected end of input (cut off?)", res.Summary)
		testify.Equal(t, []assert.Detail{
			{Label: "args", Text: `call 1: "{\"city\": \"Ly"`},
			{Label: "finish reason", Text: "length: the model hit its token limit in this message"},
			{Label: "called", Text: "get_forecast ×1"},
		}, res.Details)
	}
	for check, params := range map[string]map[string]any{
		"tools_called":    {"tools": "get_forecast"},
		"no_tool_errors":  nil,
		"tool_call_count": {"tool": "get_forecast", "min": 1, "max": 1},
	} {
		res, err := assert.Eval(ctx, check, tr, params)
		require.NoError(t, err, check)
		testify.True(t, res.Passed, "%s: %s", check, res.Summary)
	}
}

// TestToolArgsFieldC09: repeated calls are counted as calls, not as values,
// and each expected call consumes a call of its own.
func TestToolArgsFieldC09(t *testing.T) {
	ctx := context.Background()
	both := toolTranscript(
		toolStep{name: "search_flights", args: `{"from":"OSL","to":"BCN"}`},
		toolStep{name: "search_flights", args: `{"from":"BCN","to":"OSL"}`},
	)
	identical := toolTranscript(
		toolStep{name: "search_flights", args: `{"from":"OSL","to":"BCN"}`},
		toolStep{name: "search_flights", args: `{"from":"OSL","to":"BCN"}`},
	)
	firstOnly := toolTranscript(toolStep{name: "search_flights", args: `{"from":"OSL","to":"BCN"}`})
	expected := []assert.ExpectedCall{
		{Tool: "search_flights", Args: map[string]any{"from": "OSL"}},
		{Tool: "search_flights", Args: map[string]any{"from": "BCN"}},
	}
	twice := assert.ToolsCalled{Tools: []string{"search_flights", "search_flights"}}

	res, err := assert.Eval(ctx, "tool_call_count", both, map[string]any{"tool": "search_flights", "min": 2, "max": 2})
	require.NoError(t, err)
	testify.True(t, res.Passed, res.Summary)

	res, err = assert.ToolArgs{Calls: expected}.Check(ctx, both)
	require.NoError(t, err)
	testify.True(t, res.Passed, res.Summary)
	testify.Equal(t, 1.0, res.Score)

	res, err = twice.Check(ctx, both)
	require.NoError(t, err)
	testify.True(t, res.Passed, res.Summary)
	testify.Equal(t, 1.0, res.Score)

	// Only the first call made: the missing repeat is caught.
	res, err = assert.ToolArgs{Calls: expected}.Check(ctx, firstOnly)
	require.NoError(t, err)
	testify.False(t, res.Passed)
	testify.Equal(t, 0.5, res.Score)
	testify.Equal(t, "matched 1 of 2 expected calls", res.Summary)
	testify.Equal(t, assert.Detail{Label: "unmatched", Text: `search_flights {"from":"BCN"}: search_flights (call 1): from: got "OSL", want "BCN"`}, res.Details[0])
	res, err = twice.Check(ctx, firstOnly)
	require.NoError(t, err)
	testify.False(t, res.Passed)
	testify.Equal(t, 0.5, res.Score)

	// The same expected call twice needs two calls, however alike.
	same := []assert.ExpectedCall{expected[0], expected[0]}
	res, err = assert.ToolArgs{Calls: same}.Check(ctx, identical)
	require.NoError(t, err)
	testify.True(t, res.Passed, res.Summary)
	res, err = assert.ToolArgs{Calls: same}.Check(ctx, firstOnly)
	require.NoError(t, err)
	testify.False(t, res.Passed)
	testify.Equal(t, 0.5, res.Score)
	testify.Equal(t, assert.Detail{Label: "unmatched", Text: `search_flights {"from":"OSL"}: its only matching call (call 1) is taken by search_flights {"from":"OSL"}; each expected call needs a call of its own`}, res.Details[0])

	res, err = assert.ToolArgs{Calls: expected}.Check(ctx, identical)
	require.NoError(t, err)
	testify.False(t, res.Passed, "two OSL searches are not an OSL and a BCN search")
}

// TestToolArgsMatchingIsNotGreedy: a first-fit assignment would give the
// first expected call the only call the second can use.
func TestToolArgsMatchingIsNotGreedy(t *testing.T) {
	tr := toolTranscript(
		toolStep{name: "search_flights", args: `{"from":"OSL","to":"BCN"}`},
		toolStep{name: "search_flights", args: `{"from":"OSL","to":"LIS"}`},
		toolStep{name: "search_flights", args: `{"from":"BER","to":"LIS"}`},
	)
	res, err := assert.ToolArgs{Calls: []assert.ExpectedCall{
		{Tool: "search_flights", Args: map[string]any{"from": "OSL"}},
		{Tool: "search_flights", Args: map[string]any{"to": "LIS"}},
		{Tool: "search_flights", Args: map[string]any{"to": "BCN"}},
	}}.Check(context.Background(), tr)
	require.NoError(t, err)
	testify.True(t, res.Passed, res.Summary)
	testify.Equal(t, "all 3 expected calls matched (calls 2, 3, 1)", res.Summary)
}

// TestToolArgsFieldC12: arguments in every shape the wire formats use.
func TestToolArgsFieldC12(t *testing.T) {
	ctx := context.Background()
	weather := func(arguments string) *evalkit.Transcript {
		return toolDecode(t, `[{"role": "user", "content": "Weather?"},
			{"role": "assistant", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": `+arguments+`}}]},
			{"role": "tool", "tool_call_id": "c1", "content": "rain"}]`)
	}
	lyon := map[string]any{"tool_name": "get_weather", "expected_args": map[string]any{"city": "Lyon"}}
	for _, tc := range []struct {
		name, arguments string
		pass            bool
		summary         string
	}{
		{"a: JSON string", `"{\"city\":\"Lyon\",\"units\":\"metric\"}"`, true, "get_weather (call 1) matches"},
		{"b: object", `{"city": "Lyon", "units": "metric"}`, true, "get_weather (call 1) matches"},
		{"c: a JSON string value", `"\"Lyon\""`, false, "get_weather (call 1): arguments are valid JSON but not an object (a string)"},
		{"d: a JSON array", `"[\"Lyon\"]"`, false, "get_weather (call 1): arguments are valid JSON but not an object"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := assert.Eval(ctx, "tool_args", weather(tc.arguments), lyon)
			require.NoError(t, err)
			testify.Equal(t, tc.pass, res.Passed)
			testify.Contains(t, res.Summary, tc.summary)
		})
	}

	t.Run("e: no arguments", func(t *testing.T) {
		var calls []string
		for i, arguments := range []string{`""`, `"{}"`, `null`} {
			calls = append(calls, `{"id": "t`+string(rune('1'+i))+`", "type": "function", "function": {"name": "list_open_tickets", "arguments": `+arguments+`}}`)
		}
		for i, call := range calls {
			one := toolDecode(t, `[{"role": "user", "content": "Tickets?"}, {"role": "assistant", "tool_calls": [`+call+`]}]`)
			res, err := assert.Eval(ctx, "tool_args", one, map[string]any{"tool_name": "list_open_tickets", "expected_args": map[string]any{}})
			require.NoError(t, err)
			testify.True(t, res.Passed, "call shape %d: %s", i, res.Summary)
		}
		all := toolDecode(t, `[{"role": "user", "content": "Tickets?"}, {"role": "assistant", "tool_calls": [`+calls[0]+`,`+calls[1]+`,`+calls[2]+`]},
			{"role": "tool", "tool_call_id": "t1", "content": "[]"}, {"role": "tool", "tool_call_id": "t2", "content": "[]"}]`)
		for check, params := range map[string]map[string]any{
			"tools_called":   {"tools": "list_open_tickets", "min_calls": 3},
			"no_tool_errors": nil,
			"tool_args": {"calls": []any{
				map[string]any{"name": "list_open_tickets", "args": map[string]any{}},
				map[string]any{"name": "list_open_tickets", "args": map[string]any{}},
				map[string]any{"name": "list_open_tickets", "args": map[string]any{}},
			}},
		} {
			res, err := assert.Eval(ctx, check, all, params)
			require.NoError(t, err, check)
			testify.True(t, res.Passed, "%s: %s", check, res.Summary)
		}
	})
}

// FuzzToolArgs: no arguments the model can write, and no expected subset,
// make the check panic or error.
func FuzzToolArgs(f *testing.F) {
	for _, seed := range [][2]string{
		{`{"city":"Lyon"}`, `{"city":"Lyon"}`},
		{`{"city": "Ly`, `{"city":"Lyon"}`},
		{`"Lyon"`, `{}`},
		{`["Lyon"]`, `{"0":"Lyon"}`},
		{`null`, `{}`},
		{``, `{"a":null}`},
		{`{"a":[1,{"b":[true,null]}]}`, `{"a":[1,{"b":[true,null]}]}`},
		{`{"a":{"b":1}}`, `{"a":[1]}`},
		{`{"a":1e400}`, `{"a":1}`},
		{`{"a":1234567890123456789}`, `{"a":1234567890123456788}`},
		{`{"a":-0.0e-99999999999999999999}`, `{"a":0}`},
		{`{"a":1e1125899906842624}`, `{"a":1e1125899906842625}`},
		{`{"a":9007199254740992.5}`, `{"a":9007199254740993}`},
	} {
		f.Add(seed[0], seed[1])
	}
	f.Fuzz(func(t *testing.T, args, want string) {
		var expected map[string]any
		if json.Unmarshal([]byte(want), &expected) != nil {
			return
		}
		tr := toolTranscript(toolStep{name: "t", args: args}, toolStep{name: "t", args: want})
		res, err := assert.ToolArgs{Calls: []assert.ExpectedCall{{Tool: "t", Args: expected}, {Tool: "t", Args: expected}}}.Check(context.Background(), tr)
		if err != nil {
			t.Fatalf("args %q, want %q: %v", args, want, err)
		}
		if res.Score < 0 || res.Score > 1 || res.Passed != (res.Score == 1) {
			t.Fatalf("args %q, want %q: %+v", args, want, res)
		}
	})
}

// TestToolArgsExactNumbers: numbers compare exactly, not as float64, which
// cannot tell integers beyond 2^53 apart.
func TestToolArgsExactNumbers(t *testing.T) {
	ctx := context.Background()
	call := func(args string) *evalkit.Transcript { return toolTranscript(toolStep{name: "lookup", args: args}) }
	for _, tc := range []struct {
		name string
		args string // the call's arguments
		want any    // the expected value of "n"
		pass bool
	}{
		{"beyond 2^53, differ", `{"n":1234567890123456789}`, int64(1234567890123456788), false},
		{"beyond 2^53, equal", `{"n":1234567890123456789}`, int64(1234567890123456789), true},
		{"2^53+1 is not 2^53", `{"n":9007199254740993}`, 9007199254740992, false},
		{"uint64 max", `{"n":18446744073709551615}`, uint64(18446744073709551615), true},
		{"uint64 max - 1", `{"n":18446744073709551614}`, uint64(18446744073709551615), false},
		{"beyond uint64", `{"n":123456789012345678901234567890}`, json.Number("123456789012345678901234567890"), true},
		{"beyond uint64, differ", `{"n":123456789012345678901234567891}`, json.Number("123456789012345678901234567890"), false},
		{"1e3 is 1000", `{"n":1e3}`, 1000, true},
		{"1000 is 1E+3", `{"n":1000}`, json.Number("1E+3"), true},
		{"1.5e3 is 1500", `{"n":1.5e3}`, 1500, true},
		{"12e-1 is not 1", `{"n":12e-1}`, 1, false},
		{"7.0 is 7", `{"n":7.0}`, 7, true},
		{"7.000 is 7", `{"n":7.000}`, json.Number("7"), true},
		{"-0 is 0", `{"n":-0}`, 0, true},
		{"-0.0e5 is 0", `{"n":-0.0e5}`, 0.0, true},
		{"5 is 5.0", `{"n":5}`, 5.0, true},
		{"an integer is no fraction near it", `{"n":9007199254740992.5}`, int64(9007199254740993), false},
		{"fractions compare as float64", `{"n":0.1}`, 0.1, true},
		{"0.3 is not 0.30000000000000004", `{"n":0.3}`, 0.30000000000000004, false},
		{"fractions beyond 2^53", `{"n":1.5e300}`, 1.5e300, true},
		{"1e400 decodes and compares", `{"n":1e400}`, json.Number("1e400"), true},
		{"1e400 is not 1e401", `{"n":1e400}`, json.Number("1e401"), false},
		{"-5 is not 5", `{"n":-5}`, 5, false},
		{"a string is not a number", `{"n":"5"}`, 5, false},
		{"a number is not a string", `{"n":5}`, "5", false},
		{"nested and in lists", `{"n":[{"id":1234567890123456789}]}`, []any{map[string]any{"id": int64(1234567890123456789)}}, true},
		{"nested and in lists, differ", `{"n":[{"id":1234567890123456789}]}`, []any{map[string]any{"id": int64(1234567890123456788)}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := assert.ToolArgs{Tool: "lookup", Args: map[string]any{"n": tc.want}}.Check(ctx, call(tc.args))
			require.NoError(t, err)
			testify.Equal(t, tc.pass, res.Passed, res.Summary)
		})
	}

	res, err := assert.ToolArgs{Tool: "lookup", Args: map[string]any{"order_id": int64(1234567890123456788)}}.Check(ctx, call(`{"order_id":1234567890123456789}`))
	require.NoError(t, err)
	testify.Equal(t, "lookup (call 1): order_id: got 1234567890123456789, want 1234567890123456788", res.Summary)
	testify.Equal(t, "  map[string]any{\n- \t\"order_id\": int64(1234567890123456788),\n+ \t\"order_id\": int64(1234567890123456789),\n  }\n", cmpText(res.DiffText()),
		"numbers show as numbers in the diff, exactly")

	res, err = assert.ToolArgs{Tool: "lookup", Args: map[string]any{"amount": 43, "rate": 0.25}}.Check(ctx, call(`{"amount":42.0,"rate":0.5}`))
	require.NoError(t, err)
	testify.Equal(t, "lookup (call 1): amount: got 42.0, want 43 (and 1 more difference)", res.Summary)
	testify.Equal(t, "  map[string]any{\n- \t\"amount\": float64(43),\n+ \t\"amount\": float64(42),\n- \t\"rate\":   float64(0.25),\n+ \t\"rate\":   float64(0.5),\n  }\n", cmpText(res.DiffText()))

	// Arguments float64 cannot hold still decode, for every check.
	res, err = assert.ToolsCalled{Tools: []string{"lookup"}, RequireArgs: true}.Check(ctx, call(`{"n":1e400}`))
	require.NoError(t, err)
	testify.True(t, res.Passed, res.Summary)

	// Declarative params keep every digit too: as a map, as JSON text, in a list.
	for name, params := range map[string]map[string]any{
		"map":             {"tool_name": "lookup", "expected_args": map[string]any{"order_id": int64(1234567890123456788)}},
		"JSON text":       {"tool_name": "lookup", "expected_args": `{"order_id": 1234567890123456788}`},
		"typed map":       {"tool_name": "lookup", "expected_args": map[string]int64{"order_id": 1234567890123456788}},
		"list":            {"calls": []any{map[string]any{"name": "lookup", "args": map[string]any{"order_id": int64(1234567890123456788)}}}},
		"list, JSON text": {"calls": []any{map[string]any{"name": "lookup", "args": `{"order_id": 1234567890123456788}`}}},
	} {
		res, err := assert.Eval(ctx, "tool_args", call(`{"order_id":1234567890123456789}`), params)
		require.NoError(t, err, name)
		testify.False(t, res.Passed, "%s: %s", name, res.Summary)
		res, err = assert.Eval(ctx, "tool_args", call(`{"order_id":1234567890123456788}`), params)
		require.NoError(t, err, name)
		testify.True(t, res.Passed, "%s: %s", name, res.Summary)
	}
}

// cmpText undoes go-cmp's deliberate instability (it randomly writes
// no-break spaces for spaces), so a diff can be compared as text.
func cmpText(diff string) string { return strings.ReplaceAll(diff, "\u00a0", " ") }

// TestToolArgsMatchingIsMaximum checks the matching against a plain
// augmenting-path search on random small cases, with enough expected calls
// of one tool that calls are indexed by argument value.
func TestToolArgsMatchingIsMaximum(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	type flat = map[string]int
	matches := func(want, got flat) bool {
		for k, v := range want {
			if g, ok := got[k]; !ok || g != v {
				return false
			}
		}
		return true
	}
	for round := range 300 {
		var steps []toolStep
		var gots []flat
		var names []string
		for range 1 + rng.IntN(14) {
			g, name := flat{}, []string{"a", "b"}[rng.IntN(2)]
			for _, k := range []string{"x", "y"} {
				if rng.IntN(4) > 0 {
					g[k] = rng.IntN(3)
				}
			}
			args, _ := json.Marshal(g)
			steps = append(steps, toolStep{name: name, args: string(args)})
			gots, names = append(gots, g), append(names, name)
		}
		var expected []assert.ExpectedCall
		var wants []flat
		var wantNames []string
		for range 1 + rng.IntN(14) {
			w, name := flat{}, []string{"a", "b"}[rng.IntN(2)]
			args := map[string]any{}
			for _, k := range []string{"x", "y"} {
				if rng.IntN(2) > 0 {
					w[k] = rng.IntN(3)
					args[k] = float64(w[k]) // a float64 must match the integer the call has
				}
			}
			expected = append(expected, assert.ExpectedCall{Tool: name, Args: args})
			wants, wantNames = append(wants, w), append(wantNames, name)
		}
		// The reference: Kuhn's augmenting paths, tried from every expected call.
		owner := make([]int, len(gots))
		for i := range owner {
			owner[i] = -1
		}
		var try func(e int, seen []bool) bool
		try = func(e int, seen []bool) bool {
			for a := range gots {
				if seen[a] || names[a] != wantNames[e] || !matches(wants[e], gots[a]) {
					continue
				}
				seen[a] = true
				if owner[a] < 0 || try(owner[a], seen) {
					owner[a] = e
					return true
				}
			}
			return false
		}
		best := 0
		for e := range wants {
			if try(e, make([]bool, len(gots))) {
				best++
			}
		}
		res, err := assert.ToolArgs{Calls: expected}.Check(context.Background(), toolTranscript(steps...))
		require.NoError(t, err)
		require.InDelta(t, float64(best)/float64(len(wants)), res.Score, 1e-9, "round %d: %s", round, res.Summary)
	}
}

// TestToolArgsManyUnmatched: a failure explains the first 10 unmatched
// expected calls and counts the rest.
func TestToolArgsManyUnmatched(t *testing.T) {
	var expected []assert.ExpectedCall
	for i := range 13 {
		expected = append(expected, assert.ExpectedCall{Tool: "lookup", Args: map[string]any{"id": i}})
	}
	res, err := assert.ToolArgs{Calls: expected}.Check(context.Background(), toolTranscript(toolStep{name: "lookup", args: `{"id":0}`}))
	require.NoError(t, err)
	testify.Equal(t, "matched 1 of 13 expected calls", res.Summary)
	var unmatched []string
	for _, d := range res.Details {
		if d.Label == "unmatched" {
			unmatched = append(unmatched, d.Text)
		}
	}
	require.Len(t, unmatched, 11)
	testify.Equal(t, `lookup {"id":1}: lookup (call 1): id: got 0, want 1`, unmatched[0])
	testify.Equal(t, "… and 2 more", unmatched[10])
}
