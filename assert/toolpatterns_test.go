package assert_test

import (
	"testing"

	"github.com/evalkit-go/evalkit/assert"
)

func TestToolArgsExcluded(t *testing.T) {
	tr := refundTrajectory()
	runCases(t, []evalCase{
		{name: "excluded value used", tr: tr, check: "tool_args_excluded",
			params: map[string]any{"tool_name": "issue_refund", "excluded_args": map[string]any{"amount": 41.5}}, want: FAIL, score: ptr(0.5),
			summary: "1 of 2 calls to issue_refund used an excluded value",
			details: []assert.Detail{{Label: "excluded", Text: "call 2: amount: 41.5, excluded"}}},
		{name: "by value: 42 excludes 42.0", tr: tr, check: "tool_args_excluded_session",
			params: map[string]any{"tool_name": "issue_refund", "excluded_args": map[string]any{"amount": "42.0"}}, want: PASS,
			summary: "no excluded value in 2 calls to issue_refund"},
		{name: "numbers by value", tr: tr, check: "tool_args_excluded",
			params: map[string]any{"tool_name": "issue_refund", "excluded_args": `{"amount": 42.0}`}, want: FAIL},
		{name: "legacy forbidden_args lists", tr: tr, check: "tools_not_called_with_args",
			params: map[string]any{"tool_name": "get_order_details", "forbidden_args": map[string]any{"order_id": []any{"#W999", "#W123"}}}, want: FAIL,
			details: []assert.Detail{{Label: "excluded", Text: `call 1: order_id: "#W123", excluded`}}},
		{name: "forbidden_args single value", tr: tr, check: "tools_not_called_with_args",
			params: map[string]any{"tool_name": "get_order_details", "forbidden_args": map[string]any{"order_id": "#W999"}}, want: PASS},
		{name: "tool not called passes", tr: tr, check: "tool_args_excluded",
			params: map[string]any{"tool_name": "cancel_order", "excluded_args": map[string]any{"order_id": "#W123"}}, want: PASS, summary: `"cancel_order" was not called`},
		{name: "unreadable arguments cannot be cleared", check: "tool_args_excluded",
			tr:     toolTranscript(toolStep{name: "issue_refund", args: `{"amount": 4`}),
			params: map[string]any{"tool_name": "issue_refund", "excluded_args": map[string]any{"amount": 41.5}}, want: FAIL,
			details: []assert.Detail{{Label: "excluded", Text: "call 1: arguments are not valid JSON: unexpected end of input (cut off?), so no excluded value can be ruled out"}}},
		{name: "nothing excluded", tr: tr, check: "tool_args_excluded", params: map[string]any{"tool_name": "x"}, want: ERROR, param: "excluded_args"},
		{name: "no tool", tr: tr, check: "tool_args_excluded", params: map[string]any{"excluded_args": map[string]any{"a": 1}}, want: ERROR, param: "tool_name"},
		{name: "empty forbidden list", tr: tr, check: "tool_args_excluded", params: map[string]any{"tool_name": "x", "forbidden_args": map[string]any{"a": []any{}}}, want: ERROR, param: "forbidden_args"},
		{name: "session alias rejects turn", tr: tr, check: "tool_args_excluded_session",
			params: map[string]any{"tool_name": "x", "excluded_args": map[string]any{"a": 1}, "scope": "turn"}, want: ERROR, param: "scope"},
	})
}

func TestToolAntiPattern(t *testing.T) {
	tr := toolCalls("search", "book", "search", "book")
	runCases(t, []evalCase{
		{name: "subsequence found", tr: tr, check: "tool_anti_pattern",
			params: map[string]any{"patterns": []any{map[string]any{"sequence": []any{"book", "book"}, "message": "book once"}}}, want: FAIL, score: ptr(0),
			summary: "found 1 of 1 anti-pattern",
			details: []assert.Detail{
				{Label: "found", Text: "pattern 1 book → book found at calls 2, 4: book once"},
				{Label: "called", Text: "search → book → search → book"},
			}},
		{name: "contiguous not found", tr: tr, check: "tool_anti_pattern",
			params: map[string]any{"patterns": []any{map[string]any{"sequence": []any{"book", "book"}, "contiguous": true}}}, want: PASS,
			summary: "none of 1 anti-pattern found in 4 calls"},
		{name: "contiguous found", tr: toolCalls("search", "book", "book"), check: "tool_anti_pattern",
			params: map[string]any{"patterns": []any{map[string]any{"sequence": []any{"book", "book"}, "contiguous": true}}}, want: FAIL},
		{name: "one of two", tr: tr, check: "tool_anti_pattern",
			params: map[string]any{"patterns": []any{map[string]any{"sequence": []any{"cancel"}}, map[string]any{"sequence": []any{"book", "search"}}}}, want: FAIL, score: ptr(0.5)},
		{name: "no calls pass", tr: toolCalls(), check: "tool_anti_pattern",
			params: map[string]any{"patterns": []any{map[string]any{"sequence": []any{"book"}}}}, want: PASS},
		{name: "no patterns", tr: tr, check: "tool_anti_pattern", params: map[string]any{"patterns": []any{}}, want: ERROR, param: "patterns"},
		{name: "empty sequence", tr: tr, check: "tool_anti_pattern", params: map[string]any{"patterns": []any{map[string]any{"sequence": []any{}}}}, want: ERROR, param: "patterns[0].sequence"},
		{name: "misspelt key", tr: tr, check: "tool_anti_pattern", params: map[string]any{"patterns": []any{map[string]any{"sequence": []any{"a"}, "mesage": "x"}}}, want: ERROR, param: "patterns[0].mesage"},
		{name: "not a list", tr: tr, check: "tool_anti_pattern", params: map[string]any{"patterns": "book"}, want: ERROR, param: "patterns"},
	})
}

func TestToolNoRepeat(t *testing.T) {
	polling := toolTranscript(
		toolStep{name: "status", args: `{"id": 1, "ts": "10:00"}`},
		toolStep{name: "status", args: `{"ts": "10:01", "id": 1.0}`},
		toolStep{name: "search", args: `{"q": "a"}`},
		toolStep{name: "status", args: `{"id": 1, "ts": "10:02"}`},
	)
	runCases(t, []evalCase{
		{name: "generated field differs: no repeat", tr: polling, check: "tool_no_repeat", params: map[string]any{}, want: PASS,
			summary: "no identical call repeated in a row (4 calls)"},
		{name: "ignoring it, a repeat by value", tr: polling, check: "tool_no_repeat", params: map[string]any{"ignore_fields": []any{"ts"}}, want: FAIL, score: ptr(0.75),
			details: []assert.Detail{
				{Label: "repeat", Text: `status {"id":1,"ts":"10:00"} called 2 times in a row (calls 1-2), want at most 1`},
				{Label: "called", Text: "status → status → search → status"},
			}},
		{name: "anywhere", tr: polling, check: "tool_no_repeat", params: map[string]any{"ignore_fields": []any{"ts"}, "consecutive": false, "max_repeats": 2}, want: FAIL,
			hasDetails: []assert.Detail{{Label: "repeat", Text: `status {"id":1,"ts":"10:00"} called 3 times (calls 1, 2, 4), want at most 2`}}},
		{name: "PromptKit's name-only", tr: polling, check: "tool_no_repeat", params: map[string]any{"same_args": false}, want: FAIL},
		{name: "name-only within max", tr: polling, check: "tool_no_repeat", params: map[string]any{"same_args": false, "max_repeats": 2}, want: PASS,
			summary: "no call of one tool made more than 2 times in a row (4 calls)"},
		{name: "tools filter", tr: polling, check: "tool_no_repeat", params: map[string]any{"same_args": false, "tools": []any{"search"}}, want: PASS},
		{name: "max_repeats 0", tr: polling, check: "tool_no_repeat", params: map[string]any{"max_repeats": 0}, want: ERROR, param: "max_repeats"},
		{name: "ignore with name-only", tr: polling, check: "tool_no_repeat", params: map[string]any{"same_args": false, "ignore_fields": []any{"ts"}}, want: ERROR, param: "ignore_fields"},
		{name: "empty tool name", tr: polling, check: "tool_no_repeat", params: map[string]any{"tools": []any{""}}, want: ERROR, param: "tools"},
	})
}

func TestToolEfficiency(t *testing.T) {
	tr := refundTrajectory() // 3 calls, 1 error
	runCases(t, []evalCase{
		{name: "within budget", tr: tr, check: "tool_efficiency", params: map[string]any{"max_calls": 3, "max_errors": 1, "max_error_rate": 0.5}, want: PASS, score: ptr(1),
			summary: "3 calls, 1 error (error rate 0.33)"},
		{name: "over every bound", tr: tr, check: "tool_efficiency", params: map[string]any{"max_calls": 2, "max_errors": 0, "max_error_rate": 0.2}, want: FAIL, score: ptr(0),
			summary: "3 calls, want at most 2; 1 error, want at most 0; error rate 0.33 (1 of 3), want at most 0.20",
			details: []assert.Detail{{Label: "counted", Text: "3 calls, 1 error (error rate 0.33)"}, {Label: "called", Text: "get_order_details ×1, issue_refund ×2"}}},
		{name: "one of two bounds", tr: tr, check: "tool_efficiency", params: map[string]any{"max_calls": 10, "max_errors": 0}, want: FAIL, score: ptr(0.5)},
		{name: "error_pattern for chat formats", tr: toolTranscript(toolStep{name: "a", result: "Error: x"}), check: "tool_efficiency",
			params: map[string]any{"max_errors": 0, "error_pattern": "^Error: "}, want: FAIL},
		{name: "orphan errors count", check: "tool_efficiency", tr: withMessages(toolCalls("a"), orphan("call_9", "", "Error: boom", true)),
			params: map[string]any{"max_errors": 0}, want: FAIL, summary: "1 error, want at most 0"},
		{name: "no calls", tr: toolCalls(), check: "tool_efficiency", params: map[string]any{"max_error_rate": 0}, want: PASS, summary: "0 calls, 0 errors (error rate 0.00)"},
		{name: "no bound", tr: tr, check: "tool_efficiency", params: map[string]any{}, want: ERROR, param: "max_calls"},
		{name: "rate above 1", tr: tr, check: "tool_efficiency", params: map[string]any{"max_error_rate": 1.5}, want: ERROR, param: "max_error_rate"},
		{name: "negative", tr: tr, check: "tool_efficiency", params: map[string]any{"max_calls": -1}, want: ERROR, param: "max_calls"},
	})
}

func TestInvariantFieldsPreserved(t *testing.T) {
	tr := toolTranscript(
		toolStep{name: "update_cart", args: `{"cart_id": "c1", "item": "a"}`},
		toolStep{name: "update_cart", args: `{"cart_id": "c1", "item": "b", "coupon": "X"}`},
		toolStep{name: "update_cart", args: `{"cart_id": "c2", "item": "c", "coupon": null}`},
	)
	runCases(t, []evalCase{
		{name: "kept", tr: tr, check: "invariant_fields_preserved", params: map[string]any{"tool": "update_cart", "fields": []any{"cart_id"}}, want: PASS,
			summary: "1 field preserved across 3 calls to update_cart"},
		{name: "lost (null is lost)", tr: tr, check: "invariant_fields_preserved", params: map[string]any{"tool": "update_cart", "fields": []any{"cart_id", "coupon"}}, want: FAIL, score: ptr(0.5),
			summary: "1 of 2 fields not preserved across 3 calls to update_cart",
			details: []assert.Detail{{Label: "lost", Text: `"coupon" lost at call 3 (present since call 2)`}}},
		{name: "same_value", tr: tr, check: "invariant_fields_preserved", params: map[string]any{"tool": "update_cart", "fields": []any{"cart_id"}, "same_value": true}, want: FAIL,
			details: []assert.Detail{{Label: "lost", Text: `"cart_id" changed at call 3: got "c2", want "c1" (as at call 1)`}}},
		{name: "unreadable later call", check: "invariant_fields_preserved",
			tr:     toolTranscript(toolStep{name: "u", args: `{"id": 1}`}, toolStep{name: "u", args: `{"id"`}),
			params: map[string]any{"tool": "u", "fields": []any{"id"}}, want: FAIL},
		{name: "one call: nothing to compare", tr: toolCalls("u"), check: "invariant_fields_preserved", params: map[string]any{"tool": "u", "fields": []any{"id"}}, want: PASS,
			summary: "1 call to u: nothing to compare"},
		{name: "no fields", tr: tr, check: "invariant_fields_preserved", params: map[string]any{"tool": "u", "fields": []any{}}, want: ERROR, param: "fields"},
		{name: "no tool", tr: tr, check: "invariant_fields_preserved", params: map[string]any{"fields": []any{"a"}}, want: ERROR, param: "tool"},
		{name: "bad path", tr: tr, check: "invariant_fields_preserved", params: map[string]any{"tool": "u", "fields": []any{"a."}}, want: ERROR, param: "fields"},
	})
}
