package assert_test

import (
	"context"
	"testing"

	testify "github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
)

// refundTrajectory looked the order up, tried a refund of the wrong amount
// (the tool refused), then refunded the right amount with a generated
// request id.
func refundTrajectory() *evalkit.Transcript {
	return toolTranscript(
		toolStep{name: "get_order_details", args: `{"order_id":"#W123"}`, result: `{"total": 42, "status": "delivered"}`},
		toolStep{name: "issue_refund", args: `{"order_id":"#W123","amount":41.5}`, result: "Error: amount mismatch", isError: true},
		toolStep{name: "issue_refund", args: `{"order_id":"#W123","amount":42,"request_id":"r-1"}`, result: `{"status":"refunded"}`},
	)
}

func step(tool string, kv ...any) map[string]any {
	m := map[string]any{"tool": tool}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return m
}

func steps(s ...map[string]any) []any {
	out := make([]any, len(s))
	for i, m := range s {
		out[i] = m
	}
	return out
}

func TestToolCallChain(t *testing.T) {
	tr := refundTrajectory()
	lookupThenRefund := steps(
		step("get_order_details", "result_includes", []any{"DELIVERED"}),
		step("issue_refund", "expected_args", map[string]any{"amount": 42.0}, "no_error", true),
	)
	runCases(t, []evalCase{
		{name: "dependency chain met, a retry allowed", tr: tr, check: "tool_call_chain",
			params: map[string]any{"steps": lookupThenRefund}, want: PASS, score: ptr(1),
			summary: "all 2 steps matched in order (calls 1, 3)"},
		{name: "numbers by value: 42 is 42.0 is 4.2e1", tr: tr, check: "tool_call_chain",
			params: map[string]any{"steps": steps(step("issue_refund", "expected_args", `{"amount": 4.2e1}`))}, want: PASS},
		{name: "out of order", tr: tr, check: "tool_call_chain",
			params: map[string]any{"steps": steps(step("issue_refund", "no_error", true), step("get_order_details"))}, want: FAIL, score: ptr(0.5),
			summary: "matched 1 of 2 steps in order",
			details: []assert.Detail{
				{Label: "unmatched", Text: "step 2 get_order_details {}: no matching call after step 1's call (call 3); matching calls: 1"},
				{Label: "called", Text: "get_order_details → issue_refund → issue_refund"},
			}},
		{name: "closest call and its diff", tr: tr, check: "tool_call_chain",
			params: map[string]any{"steps": steps(step("get_order_details"), step("issue_refund", "expected_args", map[string]any{"amount": 43}))}, want: FAIL,
			summary: "matched 1 of 2 steps in order",
			details: []assert.Detail{
				{Label: "unmatched", Text: `step 2 issue_refund {"amount":43}: issue_refund (call 3): amount: got 42, want 43`},
				{Label: "args", Text: `call 3: {"order_id":"#W123","amount":42,"request_id":"r-1"}`},
				{Label: "note", Text: "2 calls to issue_refund, none matches; showing call 3"},
				{Label: "called", Text: "get_order_details → issue_refund → issue_refund"},
			},
			diff: `"amount": float64(43),`},
		{name: "result constraint explains", tr: tr, check: "tool_call_chain",
			params: map[string]any{"steps": steps(step("issue_refund", "result_matches", `refunded \d+`))}, want: FAIL,
			summary: `issue_refund (call 3): result does not match "refunded \\d+": "{\"status\":\"refunded\"}"`},
		{name: "no_error on an errored call", check: "tool_call_chain",
			tr:     toolTranscript(toolStep{name: "book", result: "Error: no seats", isError: true}),
			params: map[string]any{"steps": steps(step("book", "no_error", true))}, want: FAIL,
			summary: `book (call 1): result is an error: "Error: no seats"`},
		{name: "no_error with error_pattern for chat formats", check: "tool_call_chain",
			tr:     toolTranscript(toolStep{name: "book", result: "Error: no seats"}),
			params: map[string]any{"steps": steps(step("book", "no_error", true)), "error_pattern": "^Error: "}, want: FAIL},
		{name: "a call without a result meets no result constraint", check: "tool_call_chain",
			tr:     toolTranscript(toolStep{name: "book", noResult: true}),
			params: map[string]any{"steps": steps(step("book", "no_error", true))}, want: FAIL,
			summary: "book (call 1): no result"},
		{name: "args_match", tr: tr, check: "tool_call_chain",
			params: map[string]any{"steps": steps(step("issue_refund", "args_match", map[string]any{"order_id": `^#W\d{3}$`, "amount": `^4\d$`}))}, want: PASS},
		{name: "args_match on a missing argument", tr: tr, check: "tool_call_chain",
			params: map[string]any{"steps": steps(step("get_order_details", "args_match", map[string]any{"user_id": `.`}))}, want: FAIL,
			summary: `get_order_details (call 1): user_id: missing, want a match of "."`},
		{name: "any order", tr: tr, check: "tool_call_chain",
			params: map[string]any{"order": "any", "steps": steps(step("issue_refund"), step("get_order_details"))}, want: PASS,
			summary: "all 2 steps matched (calls 2, 1)"},
		{name: "exact order with ignored generated id", tr: tr, check: "tool_call_chain",
			params: map[string]any{"order": "exact", "steps": steps(step("get_order_details"), step("issue_refund"),
				step("issue_refund", "expected_args", map[string]any{"order_id": "#W123", "amount": 42}, "match", "exact", "ignore_fields", []any{"request_id"}))},
			want: PASS, summary: "the 3 calls are the 3 steps, in order"},
		{name: "exact arguments find the extra key", tr: tr, check: "tool_call_chain",
			params: map[string]any{"order": "exact", "steps": steps(step("get_order_details"), step("issue_refund"),
				step("issue_refund", "expected_args", map[string]any{"order_id": "#W123", "amount": 42}, "match", "exact"))},
			want: FAIL, score: ptr(2.0 / 3), summary: "matched 2 of 3 steps in exact order",
			hasDetails: []assert.Detail{{Label: "unmatched", Text: `step 3 issue_refund {"amount":42,"order_id":"#W123"} exactly: issue_refund (call 3): request_id: unexpected, got "r-1"`}},
			diff:       `"request_id": string("r-1"),`},
		{name: "exact order, an extra call", tr: tr, check: "tool_call_chain",
			params: map[string]any{"order": "exact", "steps": steps(step("get_order_details"), step("issue_refund"))}, want: FAIL,
			hasDetails: []assert.Detail{{Label: "extra", Text: "1 call after the last step: calls 3-3"}}},
		{name: "exact order, a missing call", tr: tr, check: "tool_call_chain",
			params: map[string]any{"order": "exact", "steps": steps(step("get_order_details"), step("issue_refund"), step("issue_refund"), step("send_email"))}, want: FAIL,
			hasDetails: []assert.Detail{{Label: "missing", Text: "step 4 send_email {}: only 3 calls"}}},
		{name: "exact order, wrong tool at a position", tr: tr, check: "tool_call_chain",
			params: map[string]any{"order": "exact", "steps": steps(step("issue_refund"), step("issue_refund"), step("issue_refund"))}, want: FAIL,
			hasDetails: []assert.Detail{{Label: "unmatched", Text: "step 1 issue_refund {}: call 1 is get_order_details"}}},
		{name: "before: a refund before any lookup", check: "tool_call_chain",
			tr:     toolCalls("issue_refund", "get_order_details", "issue_refund"),
			params: map[string]any{"order": "before", "steps": steps(step("get_order_details"), step("issue_refund"))}, want: FAIL, score: ptr(0.5),
			summary: "step 2 happens before step 1",
			details: []assert.Detail{
				{Label: "order", Text: "call 1 matches step 2 issue_refund {} but comes before step 1's call (call 2)"},
				{Label: "called", Text: "issue_refund → get_order_details → issue_refund"},
			}},
		{name: "subsequence allows that refund", check: "tool_call_chain",
			tr:     toolCalls("issue_refund", "get_order_details", "issue_refund"),
			params: map[string]any{"steps": steps(step("get_order_details"), step("issue_refund"))}, want: PASS},
		{name: "before holds", check: "tool_call_chain",
			tr:     toolCalls("get_order_details", "issue_refund", "get_order_details", "issue_refund"),
			params: map[string]any{"order": "before", "steps": steps(step("get_order_details"), step("issue_refund"))}, want: PASS},
		{name: "before with alike steps", check: "tool_call_chain",
			tr:     toolCalls("search", "search", "book"),
			params: map[string]any{"order": "before", "steps": steps(step("search"), step("search"), step("book"))}, want: PASS},
		{name: "turn scope", check: "tool_call_chain",
			tr:     toolTurns([]toolStep{{name: "get_order_details"}}, []toolStep{{name: "issue_refund"}}),
			params: map[string]any{"scope": "turn", "steps": steps(step("get_order_details"), step("issue_refund"))}, want: FAIL,
			hasDetails: []assert.Detail{{Label: "scope", Text: "last turn (messages 4-7)"}}},
		{name: "no calls fails", tr: toolCalls(), check: "tool_call_chain",
			params: map[string]any{"steps": steps(step("search"))}, want: FAIL, summary: `"search" was not called`},

		{name: "no steps", tr: tr, check: "tool_call_chain", params: map[string]any{"steps": []any{}}, want: ERROR, param: "steps"},
		{name: "steps missing", tr: tr, check: "tool_call_chain", params: map[string]any{}, want: ERROR, param: "steps"},
		{name: "step without tool", tr: tr, check: "tool_call_chain", params: map[string]any{"steps": steps(map[string]any{"no_error": true})}, want: ERROR,
			param: "steps[0].tool", summary: `tool_call_chain: param "steps[0].tool": required: want a tool name`},
		{name: "misspelt step key", tr: tr, check: "tool_call_chain", params: map[string]any{"steps": steps(step("x", "no_eror", true))}, want: ERROR,
			param: "steps[0].no_eror"},
		{name: "bad result pattern", tr: tr, check: "tool_call_chain", params: map[string]any{"steps": steps(step("x"), step("y", "result_matches", "("))}, want: ERROR,
			param: "steps[1].result_matches"},
		{name: "result pattern matching anything", tr: tr, check: "tool_call_chain", params: map[string]any{"steps": steps(step("y", "result_matches", ".*"))}, want: ERROR,
			param: "steps[0].result_matches"},
		{name: "bad args pattern", tr: tr, check: "tool_call_chain", params: map[string]any{"steps": steps(step("y", "args_match", map[string]any{"q": "["}))}, want: ERROR,
			param: "steps[0].args_match"},
		{name: "args_match not a string", tr: tr, check: "tool_call_chain", params: map[string]any{"steps": steps(step("y", "args_match", map[string]any{"q": 5}))}, want: ERROR,
			summary: `tool_call_chain: param "steps[0].args_match": "q": want a pattern string, got a number`},
		{name: "bad match", tr: tr, check: "tool_call_chain", params: map[string]any{"steps": steps(step("y", "match", "fuzzy"))}, want: ERROR, param: "steps[0].match"},
		{name: "bad order", tr: tr, check: "tool_call_chain", params: map[string]any{"order": "sorted", "steps": steps(step("y"))}, want: ERROR, param: "order"},
		{name: "empty ignore path", tr: tr, check: "tool_call_chain", params: map[string]any{"steps": steps(step("y", "ignore_fields", []any{"a..b"}))}, want: ERROR, param: "steps[0].ignore_fields"},
		{name: "typo of a declared tool", tr: withTools(tr, "get_order_details", "issue_refund"), check: "tool_call_chain",
			params: map[string]any{"steps": steps(step("issue_refnd"))}, want: ERROR, param: "steps[0].tool"},
	})
}

// withTools declares tools on a copy of tr.
func withTools(tr *evalkit.Transcript, names ...string) *evalkit.Transcript {
	out := *tr
	out.Tools = nil
	for _, n := range names {
		out.Tools = append(out.Tools, evalkit.ToolSpec{Name: n})
	}
	return &out
}

func TestToolCallsWithArgs(t *testing.T) {
	tr := refundTrajectory()
	runCases(t, []evalCase{
		{name: "every call meets a pattern", tr: tr, check: "tool_calls_with_args",
			params: map[string]any{"tool_name": "issue_refund", "args_match": map[string]any{"order_id": `^#W\d+$`}}, want: PASS,
			summary: "all 2 calls to issue_refund meet it"},
		{name: "one call falls short", tr: tr, check: "tool_calls_with_args",
			params: map[string]any{"tool_name": "issue_refund", "expected_args": map[string]any{"amount": 42}}, want: FAIL, score: ptr(0.5),
			summary: "1 of 2 calls to issue_refund falls short",
			details: []assert.Detail{
				{Label: "short", Text: "call 2: amount: got 41.5, want 42"},
				{Label: "args", Text: `call 2: {"order_id":"#W123","amount":41.5}`},
			},
			diff: `"amount": float64(41.5),`},
		{name: "every call of every tool", tr: tr, check: "tool_calls_with_args",
			params: map[string]any{"args_match": map[string]any{"order_id": "#W123"}}, want: PASS, summary: "all 3 tool calls meet it"},
		{name: "result constraints on every call", tr: tr, check: "tool_calls_with_args",
			params: map[string]any{"tool_name": "issue_refund", "no_error": true}, want: FAIL,
			summary: "1 of 2 calls to issue_refund falls short"},
		{name: "nothing coerced: \"42\" is not 42", tr: tr, check: "tool_calls_with_args",
			params: map[string]any{"tool_name": "get_order_details", "expected_args": map[string]any{"order_id": "#W123"}}, want: PASS},
		{name: "the tool was not called", tr: tr, check: "tool_calls_with_args",
			params: map[string]any{"tool_name": "send_email", "no_error": true}, want: FAIL, summary: `"send_email" was not called`, score: ptr(0)},
		{name: "calls: duplicate-aware", tr: tr, check: "tool_calls_with_args",
			params: map[string]any{"calls": []any{map[string]any{"tool_name": "issue_refund", "no_error": true}, map[string]any{"tool_name": "issue_refund", "no_error": true}}},
			want:   FAIL, score: ptr(0.5), summary: "matched 1 of 2 expected calls",
			hasDetails: []assert.Detail{{Label: "unmatched", Text: "issue_refund no error: its only matching call (call 3) is taken by issue_refund no error; each expected call needs a call of its own"}}},
		{name: "calls in order", tr: tr, check: "tool_calls_with_args",
			params: map[string]any{"order": "subsequence", "calls": []any{map[string]any{"tool_name": "issue_refund"}, map[string]any{"tool_name": "get_order_details"}}},
			want:   FAIL, summary: "matched 1 of 2 expected calls in order"},
		{name: "exact arguments", tr: tr, check: "tool_calls_with_args",
			params: map[string]any{"tool_name": "get_order_details", "expected_args": map[string]any{"order_id": "#W123"}, "match": "exact"}, want: PASS},

		{name: "nothing asked", tr: tr, check: "tool_calls_with_args", params: map[string]any{"tool_name": "search"}, want: ERROR, param: "expected_args"},
		{name: "both forms", tr: tr, check: "tool_calls_with_args",
			params: map[string]any{"tool_name": "search", "calls": []any{map[string]any{"tool_name": "x"}}}, want: ERROR, param: "calls"},
		{name: "order without calls", tr: tr, check: "tool_calls_with_args",
			params: map[string]any{"tool_name": "search", "no_error": true, "order": "exact"}, want: ERROR, param: "order"},
		{name: "empty tool_name", tr: tr, check: "tool_calls_with_args",
			params: map[string]any{"tool_name": "", "no_error": true}, want: ERROR, param: "tool_name"},
		{name: "calls entry without tool", tr: tr, check: "tool_calls_with_args",
			params: map[string]any{"calls": []any{map[string]any{"no_error": true}}}, want: ERROR, param: "calls[0].tool_name"},
		{name: "empty result_includes item", tr: tr, check: "tool_calls_with_args",
			params: map[string]any{"result_includes": []any{"ok", ""}}, want: ERROR, param: "result_includes"},
		{name: "empty result_matches", tr: tr, check: "tool_calls_with_args",
			params: map[string]any{"result_matches": ""}, want: ERROR, param: "result_matches"},
		{name: "bad error_pattern", tr: tr, check: "tool_calls_with_args",
			params: map[string]any{"no_error": true, "error_pattern": "("}, want: ERROR, param: "error_pattern"},
		{name: "nil transcript", tr: nil, check: "tool_calls_with_args",
			params: map[string]any{"no_error": true}, want: ERROR},
	})
}

// C09: matching is by call, not by value. Two expected searches need two
// searches; the same name with other arguments is no repeat.
func TestFieldFailureC09(t *testing.T) {
	outbound := toolStep{name: "search_flights", args: `{"from":"OSL","to":"BCN"}`}
	back := toolStep{name: "search_flights", args: `{"from":"BCN","to":"OSL"}`}
	given := toolTranscript(outbound, back)
	identical := toolTranscript(outbound, outbound)
	onlyFirst := toolTranscript(outbound)
	expected := []any{
		map[string]any{"tool_name": "search_flights", "expected_args": map[string]any{"from": "OSL"}},
		map[string]any{"tool_name": "search_flights", "expected_args": map[string]any{"from": "BCN"}},
	}
	runCases(t, []evalCase{
		{name: "count is 2", tr: given, check: "tool_call_count", params: map[string]any{"tool": "search_flights", "min": 2, "max": 2}, want: PASS},
		{name: "both expected calls, score 1", tr: given, check: "tool_calls_with_args", params: map[string]any{"calls": expected}, want: PASS, score: ptr(1)},
		{name: "chain of both", tr: given, check: "tool_call_chain", params: map[string]any{"steps": expected}, want: PASS, score: ptr(1)},
		{name: "tool_args calls", tr: given, check: "tool_args", params: map[string]any{"calls": expected}, want: PASS, score: ptr(1)},
		{name: "no repeat: other args", tr: given, check: "tool_no_repeat", params: map[string]any{}, want: PASS},
		{name: "no repeat: identical twice", tr: identical, check: "tool_no_repeat", params: map[string]any{}, want: FAIL,
			summary:    "1 call repeated",
			hasDetails: []assert.Detail{{Label: "repeat", Text: `search_flights {"from":"OSL","to":"BCN"} called 2 times in a row (calls 1-2), want at most 1`}}},
		{name: "a missing repeat is caught", tr: onlyFirst, check: "tool_calls_with_args", params: map[string]any{"calls": expected}, want: FAIL, score: ptr(0.5)},
		{name: "a missing repeat, chain", tr: onlyFirst, check: "tool_call_chain", params: map[string]any{"steps": expected}, want: FAIL, score: ptr(0.5)},
	})
}

// C12: arguments as a JSON string, an object, a non-object, or nothing.
func TestFieldFailureC12(t *testing.T) {
	weather := func(args string) *evalkit.Transcript {
		return toolTranscript(toolStep{name: "get_weather", args: args})
	}
	lyon := map[string]any{"tool_name": "get_weather", "expected_args": map[string]any{"city": "Lyon"}}
	chain := map[string]any{"steps": []any{map[string]any{"tool": "get_weather", "expected_args": map[string]any{"city": "Lyon"}}}}
	tickets := toolTranscript(toolStep{name: "list_open_tickets", args: ""}, toolStep{name: "list_open_tickets", args: "{}"}, toolStep{name: "list_open_tickets", args: "null"})
	runCases(t, []evalCase{
		{name: "a: string args", tr: weather(`{"city":"Lyon","units":"metric"}`), check: "tool_calls_with_args", params: lyon, want: PASS},
		{name: "a: chain", tr: weather(`{"city":"Lyon","units":"metric"}`), check: "tool_call_chain", params: chain, want: PASS},
		{name: "c: a JSON string is not an object", tr: weather(`"Lyon"`), check: "tool_calls_with_args", params: lyon, want: FAIL,
			hasDetails: []assert.Detail{{Label: "short", Text: "call 1: arguments are valid JSON but not an object (a string)"}}},
		{name: "c: chain", tr: weather(`"Lyon"`), check: "tool_call_chain", params: chain, want: FAIL,
			summary: "get_weather (call 1): arguments are valid JSON but not an object (a string)"},
		{name: "d: a list is not an object", tr: weather(`["Lyon"]`), check: "tool_call_chain", params: chain, want: FAIL,
			summary: "get_weather (call 1): arguments are valid JSON but not an object (an array)"},
		{name: "cut-off args match nothing", tr: weather(`{"city": "Ly`), check: "tool_call_chain", params: chain, want: FAIL,
			summary: "get_weather (call 1): arguments are not valid JSON: unexpected end of input (cut off?)"},
		{name: "e: '', {} and null are no arguments", tr: tickets, check: "tool_calls_with_args",
			params: map[string]any{"tool_name": "list_open_tickets", "expected_args": map[string]any{}, "match": "exact"}, want: PASS, summary: "all 3 calls to list_open_tickets meet it"},
		{name: "e: no repeat across forms", tr: tickets, check: "tool_no_repeat", params: map[string]any{"max_repeats": 2}, want: FAIL},
	})
}

// The Go form of the checks validates as the registry does.
func TestTrajectoryGoAPI(t *testing.T) {
	ctx := context.Background()
	tr := refundTrajectory()
	res, err := assert.ToolCallChain{Steps: []assert.ExpectedCall{
		{Tool: "get_order_details", Args: map[string]any{"order_id": "#W123"}},
		{Tool: "issue_refund", Args: map[string]any{"amount": 42}, NoError: true, IgnoreFields: []string{"request_id"}, ExactArgs: false},
	}}.Check(ctx, tr)
	require.NoError(t, err)
	testify.True(t, res.Passed, res.Summary)

	_, err = assert.ToolCallChain{Steps: []assert.ExpectedCall{{Tool: " x"}}}.Check(ctx, tr)
	assertParamErr(t, err, "steps[0].tool", "leading or trailing whitespace")
	_, err = assert.ToolCallChain{Steps: []assert.ExpectedCall{{Tool: "x"}}, Order: assert.Order(9)}.Check(ctx, tr)
	assertParamErr(t, err, "order", "want AnyOrder")
	_, err = assert.ToolCallsWithArgs{Every: assert.ExpectedCall{Tool: "x", NoError: true}, Calls: []assert.ExpectedCall{{Tool: "y"}}}.Check(ctx, tr)
	assertParamErr(t, err, "calls", "not both")
	_, err = assert.ToolCallsWithArgs{Every: assert.ExpectedCall{Args: map[string]any{"c": make(chan int)}}}.Check(ctx, tr)
	assertParamErr(t, err, "expected_args", "not representable as JSON")

	// ToolArgs reads the same ExpectedCall, constraints on results included.
	res, err = assert.ToolArgs{Calls: []assert.ExpectedCall{{Tool: "issue_refund", NoError: true}}}.Check(ctx, tr)
	require.NoError(t, err)
	testify.Equal(t, "issue_refund (call 3) matches", res.Summary)

	for o, s := range map[assert.Order]string{assert.DefaultOrder: "default", assert.AnyOrder: "any", assert.InOrder: "subsequence", assert.ExactOrder: "exact", assert.BeforeOrder: "before", assert.Order(7): "Order(7)"} {
		testify.Equal(t, s, o.String())
	}
}

// Paths reach into nested objects and through lists.
func TestArgumentPaths(t *testing.T) {
	tr := toolTranscript(toolStep{name: "book", args: `{"payment":{"method":"card","id":"pm_1"},"passengers":[{"name":"Ana","dob":"1990-01-01"},{"name":"Bo","dob":"1991-02-02"}],"ts":"2024-05-01T10:00:00Z"}`})
	runCases(t, []evalCase{
		{name: "nested args_match", tr: tr, check: "tool_calls_with_args",
			params: map[string]any{"tool_name": "book", "args_match": map[string]any{"payment.method": "^card$", "passengers.dob": `^\d{4}-`}}, want: PASS},
		{name: "through a list, every item", tr: tr, check: "tool_calls_with_args",
			params: map[string]any{"tool_name": "book", "args_match": map[string]any{"passengers.name": "^A"}}, want: FAIL,
			hasDetails: []assert.Detail{{Label: "short", Text: `call 1: passengers.name: got "Bo", want a match of "^A"`}}},
		{name: "exact, ignoring generated fields in list items", tr: tr, check: "tool_calls_with_args",
			params: map[string]any{"tool_name": "book", "match": "exact", "ignore_fields": []any{"ts", "payment.id", "passengers.dob"},
				"expected_args": map[string]any{"payment": map[string]any{"method": "card"}, "passengers": []any{map[string]any{"name": "Ana"}, map[string]any{"name": "Bo"}}}},
			want: PASS},
		{name: "subset ignores the expected value of an ignored field", tr: tr, check: "tool_calls_with_args",
			params: map[string]any{"tool_name": "book", "ignore_fields": []any{"ts"}, "expected_args": map[string]any{"ts": "whenever"}}, want: PASS},
	})
}
