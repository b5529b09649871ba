package assert_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	testify "github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
)

// toolStep is one tool call in a test transcript and the tool's answer.
type toolStep struct {
	name string
	// args is the arguments as the model wrote them (may be invalid JSON);
	// "" for none.
	args    string
	result  string // "ok" when empty
	isError bool
	// noResult leaves the call unanswered.
	noResult bool
}

// toolTranscript is one turn: a user message, then each step as an
// assistant call answered by its tool, then a closing assistant message.
func toolTranscript(steps ...toolStep) *evalkit.Transcript {
	return toolTurns(steps)
}

// toolTurns is a transcript of several turns, one per list of steps.
func toolTurns(turns ...[]toolStep) *evalkit.Transcript {
	tr := &evalkit.Transcript{}
	n := 0
	for t, steps := range turns {
		tr.Messages = append(tr.Messages, evalkit.Message{Role: evalkit.RoleUser, Content: fmt.Sprintf("request %d", t+1)})
		for _, s := range steps {
			n++
			id := fmt.Sprintf("call_%d", n)
			call := evalkit.ToolCall{ID: id, Name: s.name}
			if s.args != "" {
				call.Args = []byte(s.args)
			}
			tr.Messages = append(tr.Messages, evalkit.Message{Role: evalkit.RoleAssistant, ToolCalls: []evalkit.ToolCall{call}})
			if s.noResult {
				continue
			}
			result := s.result
			if result == "" {
				result = "ok"
			}
			tr.Messages = append(tr.Messages, evalkit.Message{Role: evalkit.RoleTool, ToolCallID: id, Name: s.name, Content: result, IsError: s.isError})
		}
		tr.Messages = append(tr.Messages, evalkit.Message{Role: evalkit.RoleAssistant, Content: "Done."})
	}
	return tr
}

// toolCalls is a transcript calling each named tool once, without arguments.
func toolCalls(names ...string) *evalkit.Transcript {
	steps := make([]toolStep, len(names))
	for i, n := range names {
		steps[i] = toolStep{name: n}
	}
	return toolTranscript(steps...)
}

func toolInt(n int) *int { return &n }

func TestToolsCalled(t *testing.T) {
	refund := toolTranscript(
		toolStep{name: "get_user_details", args: `{"user_id":"u1"}`},
		toolStep{name: "get_order_details", args: `{"order_id":"#W123"}`},
		toolStep{name: "get_user_details", args: `{"user_id":"u1"}`},
	)
	runCases(t, []evalCase{
		{name: "all called", tr: refund, check: "tools_called",
			params: map[string]any{"tool_names": []any{"get_order_details", "get_user_details"}}, want: PASS,
			summary: "called get_order_details ×1, get_user_details ×2", score: ptr(1)},
		{name: "one missing", tr: refund, check: "tools_called",
			params: map[string]any{"tool_names": []any{"get_order_details", "issue_refund"}}, want: FAIL,
			summary: `missing "issue_refund"`, score: ptr(0.5),
			details: []assert.Detail{{Label: "called", Text: "get_order_details ×1, get_user_details ×2"}}},
		{name: "tools alias, one string", tr: refund, check: "tools_called", params: map[string]any{"tools": "get_order_details"}, want: PASS},
		{name: "tool_called alias", tr: refund, check: "tool_called", params: map[string]any{"tools": []any{"issue_refund"}}, want: FAIL, summary: `missing "issue_refund"`},
		{name: "no calls fails, not an error", tr: toolCalls(), check: "tools_called",
			params: map[string]any{"tools": []any{"search"}}, want: FAIL, summary: `missing "search"`, score: ptr(0),
			details: []assert.Detail{{Label: "called", Text: "none"}}},
		{name: "an errored call counts", tr: toolTranscript(toolStep{name: "search", result: "Error: timeout", isError: true}),
			check: "tools_called", params: map[string]any{"tools": []any{"search"}}, want: PASS},
		{name: "under min_calls", tr: toolCalls("search"), check: "tools_called",
			params: map[string]any{"tools": []any{"search"}, "min_calls": 2}, want: FAIL,
			summary: `"search" called 1 time, want at least 2`, score: ptr(0)},
		{name: "over max_calls zeroes the score", tr: toolCalls("search", "search", "search", "book"), check: "tools_called",
			params: map[string]any{"tools": []any{"search", "book"}, "max_calls": 2}, want: FAIL,
			summary: `"search" called 3 times, want at most 2`, score: ptr(0)},
		{name: "within min and max", tr: toolCalls("search", "search"), check: "tools_called",
			params: map[string]any{"tools": []any{"search"}, "min_calls": 1, "max_calls": 2}, want: PASS},
		{name: "two problems", tr: toolCalls("search", "search", "search"), check: "tools_called",
			params: map[string]any{"tools": []any{"search", "book"}, "max_calls": 2}, want: FAIL,
			summary: `"search" called 3 times, want at most 2; missing "book"`},
		{name: "min 0 max 0 forbids, not called", tr: toolCalls("search"), check: "tools_called",
			params: map[string]any{"tools": []any{"delete"}, "min_calls": 0, "max_calls": 0}, want: PASS},
		{name: "min 0 max 0 forbids, called", tr: toolCalls("delete"), check: "tools_called",
			params: map[string]any{"tools": []any{"delete"}, "min_calls": 0, "max_calls": 0}, want: FAIL,
			summary: `"delete" called 1 time, want at most 0`},
		{name: "listed twice needs two calls", tr: toolCalls("search"), check: "tools_called",
			params: map[string]any{"tools": []any{"search", "search"}}, want: FAIL,
			summary: `"search" called 1 time, want at least 2`, score: ptr(0.5)},
		{name: "listed twice, called twice", tr: toolCalls("search", "search"), check: "tools_called",
			params: map[string]any{"tools": []any{"search", "search"}}, want: PASS, score: ptr(1)},
		{name: "require_args skips calls without arguments", check: "tools_called",
			tr:     toolTranscript(toolStep{name: "list_open_tickets", args: "{}"}, toolStep{name: "search", args: `{"q":"x"}`}),
			params: map[string]any{"tools": []any{"list_open_tickets", "search"}, "require_args": true}, want: FAIL,
			summary: `missing "list_open_tickets"`, score: ptr(0.5),
			details: []assert.Detail{
				{Label: "called", Text: "list_open_tickets ×1, search ×1"},
				{Label: "note", Text: `"list_open_tickets": 1 call without arguments not counted (require_args)`},
			}},
		{name: "require_args skips cut-off arguments", check: "tools_called",
			tr:     toolTranscript(toolStep{name: "get_forecast", args: `{"city": "Ly`, noResult: true}),
			params: map[string]any{"tools": []any{"get_forecast"}, "require_args": true}, want: FAIL},

		{name: "empty list", tr: refund, check: "tools_called", params: map[string]any{"tools": []any{}}, want: ERROR, param: "tool_names",
			summary: `tools_called: param "tool_names": empty list: give at least one tool name`},
		{name: "empty name", tr: refund, check: "tools_called", params: map[string]any{"tools": []any{"search", ""}}, want: ERROR, param: "tool_names"},
		{name: "no names", tr: refund, check: "tools_called", params: map[string]any{}, want: ERROR, param: "tool_names"},
		{name: "both aliases", tr: refund, check: "tools_called", params: map[string]any{"tools": "a", "tool_names": "b"}, want: ERROR},
		{name: "min above max", tr: refund, check: "tools_called", params: map[string]any{"tools": "a", "min_calls": 3, "max_calls": 2}, want: ERROR,
			summary: `tools_called: param "min_calls": min_calls 3 is more than max_calls 2`},
		{name: "max 0 forbids, as PromptKit's", tr: refund, check: "tools_called", params: map[string]any{"tools": "a", "max_calls": 0}, want: PASS},
		{name: "max 0 fails a call", tr: refund, check: "tools_called", params: map[string]any{"tools": "get_user_details", "max_calls": 0}, want: FAIL,
			summary: `"get_user_details" called 2 times, want at most 0`, score: ptr(0)},
		{name: "max 1 under the default min", tr: refund, check: "tools_called", params: map[string]any{"tools": []any{"a", "a"}, "max_calls": 1}, want: ERROR, param: "max_calls"},
		{name: "min 0 alone checks nothing", tr: refund, check: "tools_called", params: map[string]any{"tools": "a", "min_calls": 0}, want: ERROR, param: "min_calls"},
		{name: "listed twice over max", tr: refund, check: "tools_called", params: map[string]any{"tools": []any{"a", "a"}, "max_calls": 1}, want: ERROR,
			summary: `tools_called: param "max_calls": "a" is listed 2 times, so it needs at least 2 calls, more than max_calls 1`},
		{name: "negative min", tr: refund, check: "tools_called", params: map[string]any{"tools": "a", "min_calls": -1}, want: ERROR, param: "min_calls"},
		{name: "fractional max", tr: refund, check: "tools_called", params: map[string]any{"tools": "a", "max_calls": 1.5}, want: ERROR, param: "max_calls"},
		{name: "require_args not a bool", tr: refund, check: "tools_called", params: map[string]any{"tools": "a", "require_args": "yes"}, want: ERROR, param: "require_args"},
		{name: "unknown param", tr: refund, check: "tools_called", params: map[string]any{"tools": "a", "min_call": 2}, want: ERROR, param: "min_call"},
		{name: "PromptKit's ignore_validation true", tr: refund, check: "tools_called", params: map[string]any{"tools": "get_order_details", "ignore_validation": true}, want: PASS},
		{name: "PromptKit's ignore_validation false", tr: refund, check: "tools_called", params: map[string]any{"tools": "get_order_details", "ignore_validation": false}, want: ERROR, param: "ignore_validation"},
		{name: "nil transcript", tr: nil, check: "tools_called", params: map[string]any{"tools": "a"}, want: ERROR},
	})
}

func TestToolsCalledTyped(t *testing.T) {
	ctx := context.Background()
	res, err := assert.ToolsCalled{Tools: []string{"search"}, MinCalls: toolInt(2), MaxCalls: toolInt(3)}.Check(ctx, toolCalls("search", "search"))
	require.NoError(t, err)
	testify.True(t, res.Passed)

	_, err = assert.ToolsCalled{}.Check(ctx, toolCalls("search"))
	var pe *assert.ParamError
	require.True(t, errors.As(err, &pe), "an empty check is a parameter error: %v", err)
	testify.Equal(t, "tool_names", pe.Param)

	_, err = assert.ToolsCalled{Tools: []string{"search"}}.Check(ctx, nil)
	testify.ErrorIs(t, err, assert.ErrNoOutput)
	testify.EqualError(t, err, "tools_called: no assistant output: the transcript is nil")

	_, err = assert.ToolsCalled{Tools: []string{"search"}, Scope: assert.Scope(9)}.Check(ctx, toolCalls("search"))
	testify.Error(t, err)
}

// TestToolScope covers the scope every tool check shares: Session by
// default, Turn for the calls of the last turn, and the _session aliases.
func TestToolScope(t *testing.T) {
	tr := toolTurns(
		[]toolStep{{name: "get_order_details"}, {name: "issue_refund"}},
		[]toolStep{{name: "send_email"}},
	)
	runCases(t, []evalCase{
		{name: "session by default", tr: tr, check: "tools_called", params: map[string]any{"tools": "issue_refund"}, want: PASS},
		{name: "turn reads the last turn", tr: tr, check: "tools_called", params: map[string]any{"tools": "issue_refund", "scope": "turn"}, want: FAIL,
			summary: `missing "issue_refund"`,
			details: []assert.Detail{{Label: "called", Text: "send_email ×1"}, {Label: "scope", Text: "last turn (messages 6-9)"}}},
		{name: "turn: the last turn's call", tr: tr, check: "tools_called", params: map[string]any{"tools": "send_email", "scope": "turn"}, want: PASS},
		{name: "_session alias", tr: tr, check: "tools_called_session", params: map[string]any{"tools": "issue_refund"}, want: PASS},
		{name: "_session alias, scope session", tr: tr, check: "tools_called_session", params: map[string]any{"tools": "issue_refund", "scope": "session"}, want: PASS},
		{name: "_session alias contradicted", tr: tr, check: "tools_called_session", params: map[string]any{"tools": "issue_refund", "scope": "turn"}, want: ERROR, param: "scope"},
		{name: "tools_not_called_session contradicted", tr: tr, check: "tools_not_called_session", params: map[string]any{"tools": "x", "scope": "turn"}, want: ERROR, param: "scope"},
		{name: "tool_args_session contradicted", tr: tr, check: "tool_args_session", params: map[string]any{"tool_name": "x", "expected_args": map[string]any{}, "scope": "turn"}, want: ERROR, param: "scope"},
		{name: "bad scope", tr: tr, check: "no_tool_errors", params: map[string]any{"scope": "all"}, want: ERROR, param: "scope"},
		{name: "not called in the last turn", tr: tr, check: "tools_not_called", params: map[string]any{"tools": "issue_refund", "scope": "turn"}, want: PASS},
		{name: "sequence within the last turn", tr: tr, check: "tool_call_sequence", params: map[string]any{"sequence": []any{"get_order_details", "send_email"}, "scope": "turn"}, want: FAIL,
			summary: `step 1 "get_order_details" never called`},
		{name: "count in the last turn", tr: tr, check: "tool_call_count", params: map[string]any{"max": 1, "scope": "turn"}, want: PASS, summary: "1 tool call, want at most 1"},
	})

	// An agent that did nothing — no assistant message, no tool result —
	// is no output to check, in either scope: never a pass of what it
	// must not do (C24 d's kind), never a failure of what it must.
	noAssistant := &evalkit.Transcript{Messages: []evalkit.Message{{Role: evalkit.RoleUser, Content: "hi"}}}
	for _, c := range []assert.Check{
		assert.ToolsCalled{Tools: []string{"x"}, Scope: assert.Turn}, assert.ToolsCalled{Tools: []string{"x"}},
		assert.NoToolErrors{Scope: assert.Turn}, assert.NoToolErrors{}, assert.ToolsNotCalled{Tools: []string{"x"}},
	} {
		_, err := c.Check(context.Background(), noAssistant)
		require.ErrorIs(t, err, assert.ErrNoOutput, "%T", c)
		testify.Contains(t, err.Error(), "the transcript has 1 message and none is from the assistant: the agent did nothing to check")
	}
	// The last turn of a run that answered before is its own scope.
	answered := &evalkit.Transcript{Messages: []evalkit.Message{{Role: evalkit.RoleAssistant, Content: "Hello"}, {Role: evalkit.RoleUser, Content: "hi"}}}
	res, err := assert.NoToolErrors{Scope: assert.Turn}.Check(context.Background(), answered)
	require.NoError(t, err)
	testify.True(t, res.Passed)
}

func TestToolsNotCalled(t *testing.T) {
	tr := toolCalls("get_order_details", "delete_account", "delete_account")
	runCases(t, []evalCase{
		{name: "none called", tr: tr, check: "tools_not_called", params: map[string]any{"tool_names": []any{"drop_table", "issue_refund"}}, want: PASS,
			summary: `none of "drop_table", "issue_refund" called (3 calls in the transcript)`, score: ptr(1)},
		{name: "one called", tr: tr, check: "tools_not_called", params: map[string]any{"tools": []any{"delete_account", "issue_refund"}}, want: FAIL,
			summary: `"delete_account" called 2 times, want none`, score: ptr(0.5),
			details: []assert.Detail{{Label: "called", Text: "delete_account ×2, get_order_details ×1"}}},
		{name: "no calls", tr: toolCalls(), check: "tools_not_called", params: map[string]any{"tools": "x"}, want: PASS},
		{name: "session alias", tr: tr, check: "tools_not_called_session", params: map[string]any{"tools": "delete_account"}, want: FAIL},
		{name: "empty list is an error, not a vacuous pass", tr: tr, check: "tools_not_called_session", params: map[string]any{"tools": []any{}}, want: ERROR, param: "tool_names"},
		{name: "missing list", tr: tr, check: "tools_not_called", params: nil, want: ERROR, param: "tool_names"},
		{name: "unknown param", tr: tr, check: "tools_not_called", params: map[string]any{"tools": "x", "max_calls": 1}, want: ERROR, param: "max_calls"},
	})
}

func TestToolCallSequence(t *testing.T) {
	tr := toolCalls("get_user_details", "issue_refund", "get_order_details", "think", "issue_refund")
	runCases(t, []evalCase{
		{name: "in order with gaps", tr: tr, check: "tool_call_sequence", params: map[string]any{"sequence": []any{"get_user_details", "get_order_details", "issue_refund"}}, want: PASS,
			summary: "sequence of 3 steps found at calls 1, 3, 5", score: ptr(1)},
		{name: "out of order", tr: toolCalls("get_user_details", "issue_refund", "get_order_details"), check: "tool_call_sequence",
			params: map[string]any{"sequence": []any{"get_order_details", "issue_refund"}}, want: FAIL,
			summary: `step 2 "issue_refund" not called after step 1 "get_order_details" (call 3)`, score: ptr(0.5),
			details: []assert.Detail{{Label: "called", Text: "get_user_details → issue_refund → get_order_details"}}},
		{name: "never called", tr: tr, check: "tool_call_sequence", params: map[string]any{"sequence": []any{"get_user_details", "send_email"}}, want: FAIL,
			summary: `step 2 "send_email" never called`, score: ptr(0.5)},
		{name: "a repeated step needs two calls", tr: toolCalls("search", "book"), check: "tool_call_sequence", params: map[string]any{"sequence": []any{"search", "search"}}, want: FAIL,
			summary: `step 2 "search" not called after step 1 "search" (call 1)`},
		{name: "no calls", tr: toolCalls(), check: "tool_call_sequence", params: map[string]any{"sequence": []any{"search"}}, want: FAIL,
			summary: `step 1 "search" never called`, score: ptr(0), details: []assert.Detail{{Label: "called", Text: "none"}}},
		{name: "empty sequence", tr: tr, check: "tool_call_sequence", params: map[string]any{"sequence": []any{}}, want: ERROR, param: "sequence"},
		{name: "empty step", tr: tr, check: "tool_call_sequence", params: map[string]any{"sequence": []any{"a", ""}}, want: ERROR, param: "sequence"},
		{name: "steps not strings", tr: tr, check: "tool_call_sequence", params: map[string]any{"sequence": []any{"a", 2}}, want: ERROR, param: "sequence"},
	})

	long := make([]string, 35)
	for i := range long {
		long[i] = "t"
	}
	res, err := assert.ToolCallSequence{Sequence: []string{"x"}}.Check(context.Background(), toolCalls(long...))
	require.NoError(t, err)
	testify.Equal(t, "t → t → t → t → t → t → t → t → t → t → t → t → t → t → t → t → t → t → t → t → t → t → t → t → t → t → t → t → t → t → … (5 more)", res.Details[0].Text)
}

func TestToolCallCount(t *testing.T) {
	tr := toolCalls("search", "search", "search", "book")
	runCases(t, []evalCase{
		{name: "within", tr: tr, check: "tool_call_count", params: map[string]any{"tool": "search", "min": 1, "max": 3}, want: PASS,
			summary: `"search" called 3 times, want 1..3`, score: ptr(1)},
		{name: "over max", tr: tr, check: "tool_call_count", params: map[string]any{"tool": "search", "min": 1, "max": 2}, want: FAIL,
			summary: `"search" called 3 times, want 1..2`, score: ptr(2.0 / 3),
			details: []assert.Detail{{Label: "called", Text: "book ×1, search ×3"}}},
		{name: "under min", tr: tr, check: "tool_call_count", params: map[string]any{"tool": "book", "min": 2}, want: FAIL,
			summary: `"book" called 1 time, want at least 2`, score: ptr(0.5)},
		{name: "exactly", tr: tr, check: "tool_call_count", params: map[string]any{"tool": "book", "min": 1, "max": 1}, want: PASS, summary: `"book" called 1 time, want exactly 1`},
		{name: "max 0", tr: tr, check: "tool_call_count", params: map[string]any{"tool": "delete", "max": 0}, want: PASS, summary: `"delete" called 0 times, want at most 0`},
		{name: "max 0, called", tr: tr, check: "tool_call_count", params: map[string]any{"tool": "book", "max": 0}, want: FAIL, score: ptr(0)},
		{name: "all calls", tr: tr, check: "tool_call_count", params: map[string]any{"max": 3}, want: FAIL, summary: "4 tool calls, want at most 3", score: ptr(0.75)},
		{name: "all calls, none made", tr: toolCalls(), check: "tool_call_count", params: map[string]any{"min": 1}, want: FAIL, summary: "0 tool calls, want at least 1", score: ptr(0)},
		{name: "no bounds", tr: tr, check: "tool_call_count", params: map[string]any{"tool": "search"}, want: ERROR, param: "min"},
		{name: "min above max", tr: tr, check: "tool_call_count", params: map[string]any{"min": 3, "max": 1}, want: ERROR, param: "min"},
		{name: "negative", tr: tr, check: "tool_call_count", params: map[string]any{"max": -1}, want: ERROR, param: "max"},
		{name: "tool not a string", tr: tr, check: "tool_call_count", params: map[string]any{"tool": 3, "max": 1}, want: ERROR, param: "tool"},
	})

	_, err := assert.ToolCallCount{Tool: "search"}.Check(context.Background(), tr)
	testify.Error(t, err, "a typed check without bounds is an error too")
}

func TestNoToolErrors(t *testing.T) {
	tr := toolTranscript(
		toolStep{name: "search_flights"},
		toolStep{name: "get_user_details"},
		toolStep{name: "book_reservation", result: "Error: not enough seats", isError: true},
		toolStep{name: "book_reservation"},
		toolStep{name: "send_email", noResult: true},
	)
	runCases(t, []evalCase{
		{name: "one failed", tr: tr, check: "no_tool_errors", params: nil, want: FAIL,
			summary: "1 of 5 tool calls failed", score: ptr(0.8),
			details: []assert.Detail{{Label: "error", Text: `book_reservation (call 3): "Error: not enough seats"`}}},
		{name: "filter: denominator is the filtered calls", tr: tr, check: "no_tool_errors", params: map[string]any{"tools": []any{"book_reservation"}}, want: FAIL,
			summary: `1 of 2 tool calls to "book_reservation" failed`, score: ptr(0.5)},
		{name: "filter excludes the failure", tr: tr, check: "no_tool_errors", params: map[string]any{"tool_names": []any{"search_flights", "send_email"}}, want: PASS,
			summary: `no errors in 2 tool calls to "search_flights", "send_email" (1 without a result)`, score: ptr(1)},
		{name: "no calls", tr: toolCalls(), check: "no_tool_errors", params: map[string]any{}, want: PASS, summary: "no errors in 0 tool calls"},
		{name: "unanswered call is not an error", tr: toolTranscript(toolStep{name: "x", noResult: true}), check: "no_tool_errors", want: PASS},
		{name: "empty filter name", tr: tr, check: "no_tool_errors", params: map[string]any{"tools": []any{""}}, want: ERROR, param: "tools"},
		{name: "unknown param", tr: tr, check: "no_tool_errors", params: map[string]any{"tool": "x"}, want: ERROR, param: "tool"},
		{name: "bad error_pattern", tr: tr, check: "no_tool_errors", params: map[string]any{"error_pattern": "("}, want: ERROR, param: "error_pattern"},
	})

	// OpenAI chat messages carry no error flag: the tool's own convention
	// is given as a pattern.
	unflagged := toolTranscript(
		toolStep{name: "search_flights", result: "[]"},
		toolStep{name: "book_reservation", result: "Error: not enough seats"},
	)
	runCases(t, []evalCase{
		{name: "unflagged error is invisible without a pattern", tr: unflagged, check: "no_tool_errors", want: PASS},
		{name: "error_pattern finds it", tr: unflagged, check: "no_tool_errors", params: map[string]any{"error_pattern": "^Error: "}, want: FAIL,
			summary: "1 of 2 tool calls failed",
			details: []assert.Detail{{Label: "error", Text: `book_reservation (call 2): "Error: not enough seats"`}}},
	})

	// A real τ-bench retail run, stored as OpenAI chat messages: both of its
	// exchange attempts failed (it scored reward 1 all the same, as τ-bench
	// compares database states and the failed calls changed nothing).
	retail, err := evalkit.LoadAll("../testdata/tau_bench/retail_gpt4o_conversations.jsonl")
	require.NoError(t, err)
	res, err := assert.NoToolErrors{ErrorPattern: "^Error: "}.Check(context.Background(), retail[5])
	require.NoError(t, err)
	testify.False(t, res.Passed)
	testify.Equal(t, "2 of 8 tool calls failed", res.Summary)

	var steps []toolStep
	for i := range 13 {
		steps = append(steps, toolStep{name: "search", result: fmt.Sprintf("Error: failure %d", i+1), isError: true})
	}
	res, err = assert.NoToolErrors{}.Check(context.Background(), toolTranscript(steps...))
	require.NoError(t, err)
	require.Len(t, res.Details, 11)
	testify.Equal(t, assert.Detail{Label: "error", Text: `search (call 10): "Error: failure 10"`}, res.Details[9])
	testify.Equal(t, assert.Detail{Label: "error", Text: "… and 3 more"}, res.Details[10])
	testify.Equal(t, 0.0, res.Score)
}

// withMessages returns a copy of tr with msgs appended, for transcripts the
// step builders cannot make: orphan tool results, second answers.
func withMessages(tr *evalkit.Transcript, msgs ...evalkit.Message) *evalkit.Transcript {
	return &evalkit.Transcript{Messages: append(slices.Clone(tr.Messages), msgs...), Tools: tr.Tools}
}

// orphan is a tool message; isError flags it.
func orphan(id, name, content string, isError bool) evalkit.Message {
	return evalkit.Message{Role: evalkit.RoleTool, ToolCallID: id, Name: name, Content: content, IsError: isError}
}

// TestNoToolErrorsOrphanResults: a tool message that answers no call is
// still a tool result, and an error in it fails the check instead of being
// ignored.
func TestNoToolErrorsOrphanResults(t *testing.T) {
	user := evalkit.Message{Role: evalkit.RoleUser, Content: "refund #W1"}
	done := evalkit.Message{Role: evalkit.RoleAssistant, Content: "Done."}
	unknownID := withMessages(toolCalls("search"), orphan("call_2", "", "Error: boom", true))
	runCases(t, []evalCase{
		{name: "unknown id", tr: unknownID, check: "no_tool_errors", want: FAIL,
			summary: "1 of 1 tool call and 1 orphan result failed", score: ptr(0.5),
			details: []assert.Detail{{Label: "error", Text: `orphan result (tool_call_id "call_2", answers no call): "Error: boom"`}}},
		{name: "result before any call", check: "no_tool_errors", want: FAIL,
			tr:      &evalkit.Transcript{Messages: []evalkit.Message{user, orphan("call_0", "issue_refund", "Error: no such order", true), done}},
			summary: "1 of 1 orphan result failed", score: ptr(0),
			details: []assert.Detail{{Label: "error", Text: `orphan result of issue_refund (tool_call_id "call_0", answers no call): "Error: no such order"`}}},
		{name: "second answer to a call", check: "no_tool_errors", want: FAIL,
			tr:      withMessages(toolCalls("search"), orphan("call_1", "search", "Error: timeout", true)),
			summary: "1 of 1 tool call and 1 orphan result failed",
			details: []assert.Detail{{Label: "error", Text: `orphan result of search (tool_call_id "call_1", answers no call): "Error: timeout"`}}},
		{name: "no ids, more results than calls", check: "no_tool_errors", want: FAIL,
			tr:      &evalkit.Transcript{Messages: []evalkit.Message{user, orphan("", "", "Error: boom", true)}},
			summary: "1 of 1 orphan result failed",
			details: []assert.Detail{{Label: "error", Text: `orphan result (no tool_call_id, answers no call): "Error: boom"`}}},
		{name: "error_pattern reads orphans", check: "no_tool_errors", want: FAIL, params: map[string]any{"error_pattern": "^Error: "},
			tr:      withMessages(toolCalls("search"), orphan("call_9", "search", "Error: boom", false)),
			summary: "1 of 1 tool call and 1 orphan result failed"},
		{name: "an orphan that is no error counts in the denominator", check: "no_tool_errors", want: PASS,
			tr:      withMessages(toolCalls("search"), orphan("call_9", "search", "[]", false)),
			summary: "no errors in 1 tool call and 1 orphan result", score: ptr(1)},
		{name: "the Tools filter reads an orphan's name", check: "no_tool_errors", want: PASS, params: map[string]any{"tools": "search"},
			tr:      withMessages(toolCalls("search"), orphan("call_9", "book", "Error: boom", true)),
			summary: `no errors in 1 tool call to "search"`},
		{name: "an orphan of a filtered tool", check: "no_tool_errors", want: FAIL, params: map[string]any{"tools": "book"},
			tr:      withMessages(toolCalls("search"), orphan("call_9", "book", "Error: boom", true)),
			summary: `1 of 0 tool calls to "book" and 1 orphan result failed`},
		{name: "an orphan without a name counts under a filter", check: "no_tool_errors", want: FAIL, params: map[string]any{"tools": "search"},
			tr:      withMessages(toolCalls("search"), orphan("call_9", "", "Error: boom", true)),
			summary: `1 of 1 tool call to "search" and 1 orphan result failed`},
		{name: "turn scope: an orphan of the last turn", check: "no_tool_errors", want: FAIL, params: map[string]any{"scope": "turn"},
			tr:      withMessages(toolCalls("search"), user, orphan("call_1", "search", "Error: late", true), done),
			summary: "1 of 1 orphan result failed"},
		{name: "turn scope: an orphan of an earlier turn", check: "no_tool_errors", want: PASS, params: map[string]any{"scope": "turn"},
			tr:      withMessages(unknownID, user, done),
			summary: "no errors in 0 tool calls"},
		{name: "session scope: an orphan of an earlier turn", check: "no_tool_errors", want: FAIL,
			tr:      withMessages(withMessages(toolCalls("search"), orphan("call_2", "", "Error: boom", true)), user, done),
			summary: "1 of 1 tool call and 1 orphan result failed"},
	})
}

// TestToolChecksVacuousParams: parameters that would make a tool check
// pass whatever the agent did are errors, not verdicts.
func TestToolChecksVacuousParams(t *testing.T) {
	tr := toolCalls("search", "book")
	runCases(t, []evalCase{
		{name: "count: min 0 alone", tr: tr, check: "tool_call_count", params: map[string]any{"min": 0}, want: ERROR, param: "min",
			summary: `tool_call_count: param "min": 0 without max checks nothing: give max (max 0 forbids the calls)`},
		{name: "count: min 0 alone, one tool", tr: tr, check: "tool_call_count", params: map[string]any{"tool": "search", "min": 0}, want: ERROR, param: "min",
			summary: `tool_call_count: param "min": 0 without max checks nothing: give max, or use tools_not_called`},
		{name: "count: min 0 with max", tr: tr, check: "tool_call_count", params: map[string]any{"tool": "search", "min": 0, "max": 1}, want: PASS},

		{name: "tools_called: leading space", tr: tr, check: "tools_called", params: map[string]any{"tools": []any{"search", " issue_refund"}}, want: ERROR, param: "tool_names",
			summary: `tools_called: param "tool_names": item 1 " issue_refund" has leading or trailing whitespace: tool names match exactly`},
		{name: "tools_not_called: trailing newline", tr: tr, check: "tools_not_called", params: map[string]any{"tools": "issue_refund\n"}, want: ERROR, param: "tool_names",
			summary: `tools_not_called: param "tool_names": item 0 "issue_refund\n" has leading or trailing whitespace: tool names match exactly`},
		{name: "no_tool_errors: no-break space", tr: tr, check: "no_tool_errors", params: map[string]any{"tools": "search\u00a0"}, want: ERROR, param: "tools"},
		{name: "tool_call_sequence: tab", tr: tr, check: "tool_call_sequence", params: map[string]any{"sequence": []any{"search", "\tbook"}}, want: ERROR, param: "sequence"},
		{name: "tool_call_count: space", tr: tr, check: "tool_call_count", params: map[string]any{"tool": "search ", "max": 1}, want: ERROR, param: "tool",
			summary: `tool_call_count: param "tool": "search " has leading or trailing whitespace: tool names match exactly`},
		{name: "tool_args: space", tr: tr, check: "tool_args", params: map[string]any{"tool_name": " search", "expected_args": map[string]any{}}, want: ERROR, param: "tool_name",
			summary: `tool_args: param "tool_name": " search" has leading or trailing whitespace: tool names match exactly`},
		{name: "tool_args list: space", tr: tr, check: "tool_args", want: ERROR, param: "calls[1].tool_name", params: map[string]any{"calls": []any{
			map[string]any{"name": "search", "args": map[string]any{}}, map[string]any{"name": "book ", "args": map[string]any{}}}}},
	})
}

// declaring returns a copy of tr that declares the named tools.
func declaring(tr *evalkit.Transcript, names ...string) *evalkit.Transcript {
	tr = withMessages(tr)
	for _, n := range names {
		tr.Tools = append(tr.Tools, evalkit.ToolSpec{Name: n})
	}
	return tr
}

// TestToolChecksUndeclaredTools: when the transcript declares its tools, a
// tool name a check gives that is neither declared nor called is a typo, and
// an error: "not called" would otherwise pass forever.
func TestToolChecksUndeclaredTools(t *testing.T) {
	retail := []string{
		"calculate", "cancel_pending_order", "exchange_delivered_order_items", "find_user_id_by_email",
		"find_user_id_by_name_zip", "get_order_details", "get_product_details", "get_user_details",
		"issue_refund", "list_all_product_types", "modify_pending_order_address", "modify_pending_order_items",
		"modify_pending_order_payment", "modify_user_address", "return_delivered_order_items", "transfer_to_human_agents",
	}
	tr := declaring(toolCalls("get_user_details", "get_order_details", "lookup_order_v2"), retail...)
	typo := `"issue_refnd" is not among the transcript's 16 tools and was never called (did you mean "issue_refund"?)`
	runCases(t, []evalCase{
		{name: "tools_not_called", tr: tr, check: "tools_not_called", params: map[string]any{"tool_names": "issue_refnd"}, want: ERROR, param: "tool_names",
			summary: `tools_not_called: param "tool_names": ` + typo},
		{name: "tools_called", tr: tr, check: "tools_called", params: map[string]any{"tools": []any{"get_user_details", "issue_refnd"}}, want: ERROR, param: "tool_names",
			summary: `tools_called: param "tool_names": ` + typo},
		{name: "no_tool_errors filter", tr: tr, check: "no_tool_errors", params: map[string]any{"tools": "issue_refnd"}, want: ERROR, param: "tools",
			summary: `no_tool_errors: param "tools": ` + typo},
		{name: "tool_call_count", tr: tr, check: "tool_call_count", params: map[string]any{"tool": "issue_refnd", "max": 0}, want: ERROR, param: "tool",
			summary: `tool_call_count: param "tool": ` + typo},
		{name: "tool_call_sequence", tr: tr, check: "tool_call_sequence", params: map[string]any{"sequence": []any{"get_user_details", "issue_refnd"}}, want: ERROR, param: "sequence",
			summary: `tool_call_sequence: param "sequence": ` + typo},
		{name: "tool_args", tr: tr, check: "tool_args", params: map[string]any{"tool_name": "issue_refnd", "expected_args": map[string]any{}}, want: ERROR, param: "tool_name",
			summary: `tool_args: param "tool_name": ` + typo},
		{name: "tool_args list", tr: tr, check: "tool_args", want: ERROR, param: "calls[1].tool_name", params: map[string]any{"calls": []any{
			map[string]any{"name": "get_user_details", "args": map[string]any{}}, map[string]any{"name": "issue_refnd", "args": map[string]any{}}}}},
		// Tool names are case-sensitive: a case variant of a known name
		// never matches, so it is a near miss too, however many letters
		// differ in case.
		{name: "a case variant of a called name", tr: declaring(toolCalls("issue_refund"), retail...), check: "tools_not_called",
			params: map[string]any{"tool_names": []any{"ISSUE_REFUND"}}, want: ERROR, param: "tool_names",
			summary: `tools_not_called: param "tool_names": "ISSUE_REFUND" is not among the transcript's 16 tools and was never called (did you mean "issue_refund"?)`},
		{name: "a case variant of a declared name", tr: tr, check: "tools_called", params: map[string]any{"tools": "Modify_Pending_Order_Address"}, want: ERROR, param: "tool_names"},
		{name: "a case variant with a typo", tr: tr, check: "tool_call_count", params: map[string]any{"tool": "Issue_Refnd", "max": 0}, want: ERROR, param: "tool"},
		// A name far from every known one may be deliberate: a tool the
		// model must not invent, or a check shared across agent setups.
		{name: "no close name: a deliberate guard", tr: tr, check: "tools_not_called", params: map[string]any{"tools": "drop_database"}, want: PASS},
		{name: "no close name: missing is a failure", tr: tr, check: "tools_called", params: map[string]any{"tools": "web_search"}, want: FAIL},
		{name: "an invisible character is an error", tr: toolCalls("issue_refund"), check: "tools_not_called", params: map[string]any{"tools": "issue\u200b_refund"}, want: ERROR, param: "tool_names"},

		{name: "declared, not called", tr: tr, check: "tools_not_called", params: map[string]any{"tools": "issue_refund"}, want: PASS},
		{name: "declared, not called, missing", tr: tr, check: "tools_called", params: map[string]any{"tools": "issue_refund"}, want: FAIL},
		{name: "called but not declared (a hallucinated tool)", tr: tr, check: "tools_called", params: map[string]any{"tools": "lookup_order_v2"}, want: PASS},
		{name: "called in an earlier turn, turn scope", check: "tools_not_called", want: PASS,
			tr:     declaring(toolTurns([]toolStep{{name: "lookup_order_v2"}}, []toolStep{{name: "get_user_details"}}), retail...),
			params: map[string]any{"tools": "lookup_order_v2", "scope": "turn"}},
		{name: "named by a tool message only", check: "no_tool_errors", want: PASS, params: map[string]any{"tools": "legacy_refund"},
			tr: withMessages(tr, orphan("call_9", "legacy_refund", "ok", false))},
		{name: "no declared tools, no cross-check", tr: toolCalls("search"), check: "tools_not_called", params: map[string]any{"tools": "issue_refnd"}, want: PASS},
	})

	// The typed checks are cross-checked too: it happens in Check.
	_, err := assert.ToolsNotCalled{Tools: []string{"issue_refnd"}}.Check(context.Background(), tr)
	var pe *assert.ParamError
	require.True(t, errors.As(err, &pe), "want a *ParamError, got %v", err)
	testify.Equal(t, "tool_names", pe.Param)
	// Building from params cannot know the transcript, so it succeeds.
	_, err = assert.NewRegistry().Build("tools_not_called", map[string]any{"tools": "issue_refnd"})
	testify.NoError(t, err)
}

// toolTauRun loads one real τ-bench airline run by task id and trial.
func toolTauRun(t testing.TB, task, trial int) *evalkit.Transcript {
	t.Helper()
	runs, err := evalkit.LoadAll("../testdata/tau_bench/airline_gpt4o_trajectories.json")
	require.NoError(t, err)
	for _, tr := range runs {
		if tr.Metadata["task_id"] == float64(task) && tr.Metadata["trial"] == float64(trial) {
			return tr
		}
	}
	t.Fatalf("no τ-bench run for task %d trial %d", task, trial)
	return nil
}

// TestToolChecksTauBench asserts what is true of a real GPT-4o airline run
// (task 0, trial 0): the agent booked twice; the first booking failed with
// "payment amount does not add up" (paid 250+5 of 305), the second paid
// 250+55 and succeeded, in the last turn.
func TestToolChecksTauBench(t *testing.T) {
	ctx := context.Background()
	tr := toolTauRun(t, 0, 0)
	booked := map[string]any{
		"user_id": "mia_li_3668", "origin": "JFK", "destination": "SEA", "flight_type": "one_way", "cabin": "economy",
		"flights": []any{
			map[string]any{"flight_number": "HAT136", "date": "2024-05-20"},
			map[string]any{"flight_number": "HAT039", "date": "2024-05-20"},
		},
		"passengers": []any{map[string]any{"first_name": "Mia", "last_name": "Li", "dob": "1990-04-05"}},
		"payment_methods": []any{
			map[string]any{"payment_id": "certificate_7504069", "amount": 250},
			map[string]any{"payment_id": "credit_card_4421486", "amount": 55},
		},
		"total_baggages": 3, "nonfree_baggages": 1, "insurance": "no",
	}
	res, err := assert.ToolArgs{Tool: "book_reservation", Args: booked}.Check(ctx, tr)
	require.NoError(t, err)
	testify.True(t, res.Passed)
	testify.Equal(t, "book_reservation (call 8) matches", res.Summary)

	res, err = assert.ToolArgs{Tool: "book_reservation", Args: map[string]any{"cabin": "economy", "flights": booked["flights"]}, Scope: assert.Turn}.Check(ctx, tr)
	require.NoError(t, err)
	testify.True(t, res.Passed, "the successful booking is the last turn's call: %s", res.Summary)

	booked["payment_methods"] = []any{
		map[string]any{"payment_id": "certificate_7504069", "amount": 250},
		map[string]any{"payment_id": "credit_card_4421486", "amount": 56},
	}
	res, err = assert.ToolArgs{Tool: "book_reservation", Args: booked}.Check(ctx, tr)
	require.NoError(t, err)
	testify.False(t, res.Passed)
	testify.Equal(t, "book_reservation (call 8): payment_methods[1].amount: got 55, want 56", res.Summary, "both bookings differ once; the latest is shown")
	testify.Contains(t, res.DiffText(), "56")

	res, err = assert.NoToolErrors{}.Check(ctx, tr)
	require.NoError(t, err)
	testify.False(t, res.Passed)
	testify.Equal(t, "1 of 8 tool calls failed", res.Summary)
	testify.InDelta(t, 0.875, res.Score, 1e-9)
	testify.Equal(t, []assert.Detail{{Label: "error", Text: `book_reservation (call 5): "Error: payment amount does not add up, total price is 305, but paid 255"`}}, res.Details)

	res, err = assert.NoToolErrors{Scope: assert.Turn}.Check(ctx, tr)
	require.NoError(t, err)
	testify.True(t, res.Passed, "the last turn's booking succeeded: %s", res.Summary)

	for name, c := range map[string]assert.Check{
		"both bookings count":  assert.ToolsCalled{Tools: []string{"book_reservation", "book_reservation"}},
		"looked before booked": assert.ToolCallSequence{Sequence: []string{"get_user_details", "search_onestop_flight", "calculate", "book_reservation"}},
		"calculated twice":     assert.ToolCallCount{Tool: "calculate", Min: toolInt(2), Max: toolInt(2)},
		"no cancellation":      assert.ToolsNotCalled{Tools: []string{"cancel_reservation", "transfer_to_human_agents"}},
	} {
		res, err := c.Check(ctx, tr)
		require.NoError(t, err, name)
		testify.True(t, res.Passed, "%s: %s", name, res.Summary)
	}
}

// TestToolChecksOnEveryTauBenchRun runs every tool check over every real
// τ-bench run: each gives a verdict, none errors or panics.
func TestToolChecksOnEveryTauBenchRun(t *testing.T) {
	var runs []*evalkit.Transcript
	for _, f := range []string{"airline_gpt4o_trajectories.json", "retail_gpt4o_conversations.jsonl"} {
		trs, err := evalkit.LoadAll("../testdata/tau_bench/" + f)
		require.NoError(t, err)
		runs = append(runs, trs...)
	}
	checks := []assert.Check{
		assert.ToolsCalled{Tools: []string{"get_user_details"}},
		assert.ToolsNotCalled{Tools: []string{"transfer_to_human_agents"}},
		assert.ToolArgs{Tool: "get_user_details", Args: map[string]any{"user_id": "x"}},
		assert.ToolArgs{Calls: []assert.ExpectedCall{{Tool: "think"}, {Tool: "think"}, {Tool: "calculate"}}},
		assert.ToolCallSequence{Sequence: []string{"get_user_details", "think"}},
		assert.ToolCallCount{Max: toolInt(10)},
		assert.NoToolErrors{Scope: assert.Turn},
	}
	for i, tr := range runs {
		for _, c := range checks {
			res, err := c.Check(context.Background(), tr)
			require.NoError(t, err, "run %d, %T", i, c)
			require.True(t, res.Score >= 0 && res.Score <= 1, "run %d, %T: score %v", i, c, res.Score)
			require.NotEmpty(t, res.Summary, "run %d, %T", i, c)
		}
	}
}

// requireBounded fails when a result or error could flood a test log: every
// line short, the whole bounded.
func requireBounded(t *testing.T, what string, res assert.Result, err error) {
	t.Helper()
	const line, total = 4 << 10, 16 << 10
	texts := []string{res.Summary, res.DiffText()}
	if err != nil {
		texts = append(texts, err.Error())
	}
	for _, d := range res.Details {
		texts = append(texts, d.Label+": "+d.Text)
	}
	n := 0
	for _, s := range texts {
		require.LessOrEqual(t, len(s), line, "%s: a line of %d bytes: %.300s", what, len(s), s)
		n += len(s)
	}
	require.LessOrEqual(t, len(res.Details), 40, "%s: %d details", what, len(res.Details))
	require.LessOrEqual(t, n, total, "%s: %d bytes in all", what, n)
}

// TestToolChecksBoundedOutput: hostile sizes (100k tool names, 20k calls, a
// 10 MB argument, name or result) give summaries and details of bounded
// length.
func TestToolChecksBoundedOutput(t *testing.T) {
	ctx := context.Background()
	const many, calls = 100_000, 20_000 // tool names a check lists; calls a transcript makes
	called, uncalled := make([]string, calls), make([]string, many)
	steps := make([]toolStep, calls)
	expected := make([]assert.ExpectedCall, calls)
	for i := range many {
		uncalled[i] = fmt.Sprintf("other_%d", i)
	}
	for i := range calls {
		called[i] = fmt.Sprintf("tool_%d", i)
		steps[i] = toolStep{name: called[i], args: fmt.Sprintf(`{"id":%d}`, i), result: "Error: no", isError: true}
		expected[i] = assert.ExpectedCall{Tool: called[i], Args: map[string]any{"id": i}}
	}
	manyCalls, small := toolTranscript(steps...), toolCalls("search")
	huge := strings.Repeat("x", 1<<20) // names, results, ids
	hugeName := toolTranscript(toolStep{name: "n" + huge, args: `{"id":1}`, result: "Error: " + huge, isError: true})
	bigArgs := toolTranscript(toolStep{name: "note", args: `{"text":"` + huge + `Y","list":[` + strings.Repeat(`"`+huge[:300]+`",`, 1000) + `1],"n":` + strings.Repeat("9", 10000) + `}`})
	orphans := withMessages(small, orphan(huge, "o"+huge, huge, true))
	var longNames []toolStep
	for i := range 40 {
		longNames = append(longNames, toolStep{name: fmt.Sprintf("%d%s", i, huge[:100_000]), result: "Error: " + huge[:100_000], isError: true})
	}
	manyLongNames := toolTranscript(longNames...)
	for name, c := range map[string]struct {
		check assert.Check
		tr    *evalkit.Transcript
	}{
		"tools_called, all called":        {assert.ToolsCalled{Tools: called}, manyCalls},
		"tools_called, none called":       {assert.ToolsCalled{Tools: uncalled}, small},
		"tools_called, over max":          {assert.ToolsCalled{Tools: called, MaxCalls: toolInt(0), MinCalls: toolInt(0)}, manyCalls},
		"tools_called, huge name":         {assert.ToolsCalled{Tools: []string{"m" + huge}}, hugeName},
		"tools_not_called, none called":   {assert.ToolsNotCalled{Tools: uncalled}, small},
		"tools_not_called, all called":    {assert.ToolsNotCalled{Tools: called}, manyCalls},
		"tools_not_called, huge name":     {assert.ToolsNotCalled{Tools: []string{"n" + huge}}, hugeName},
		"tool_call_count, huge name":      {assert.ToolCallCount{Tool: "n" + huge, Max: toolInt(0)}, hugeName},
		"tool_call_sequence, all found":   {assert.ToolCallSequence{Sequence: called}, manyCalls},
		"tool_call_sequence, huge name":   {assert.ToolCallSequence{Sequence: []string{"m" + huge}}, hugeName},
		"tool_args, all matched":          {assert.ToolArgs{Calls: expected}, manyCalls},
		"tool_args, none matched":         {assert.ToolArgs{Calls: expected}, small},
		"tool_args, huge name":            {assert.ToolArgs{Tool: "n" + huge, Args: map[string]any{"id": 2}}, hugeName},
		"tool_args, huge name, not found": {assert.ToolArgs{Tool: "m" + huge}, hugeName},
		"tool_args, big values":           {assert.ToolArgs{Tool: "note", Args: map[string]any{"text": huge + "X", "list": []any{1}, "n": 1}}, bigArgs},
		"tool_args, big values, shapes":   {assert.ToolArgs{Tool: "note", Args: map[string]any{"text": map[string]any{"a": 1}, "list": "x", "n": []any{1}}}, bigArgs},
		"no_tool_errors, many":            {assert.NoToolErrors{Tools: called}, manyCalls},
		"no_tool_errors, huge name":       {assert.NoToolErrors{}, hugeName},
		"no_tool_errors, huge orphan":     {assert.NoToolErrors{}, orphans},
		"tools_called, long names":        {assert.ToolsCalled{Tools: []string{"search"}}, manyLongNames},
		"tool_call_sequence, long names":  {assert.ToolCallSequence{Sequence: []string{"search"}}, manyLongNames},
		"no_tool_errors, long names":      {assert.NoToolErrors{}, manyLongNames},
		"tool_args, long names":           {assert.ToolArgs{Tool: "search"}, manyLongNames},
	} {
		res, err := c.check.Check(ctx, c.tr)
		requireBounded(t, name, res, err)
	}

	// A 10 MB argument that differs from the expected value only at its
	// end: the summary shows where.
	text := strings.Repeat("x", 10<<20)
	res, err := assert.ToolArgs{Tool: "note", Args: map[string]any{"text": text + "X"}}.Check(ctx, toolTranscript(toolStep{name: "note", args: `{"text":"` + text + `Y"}`}))
	require.NoError(t, err)
	requireBounded(t, "tool_args, 10 MB value", res, err)
	testify.Equal(t, `note (call 1): text: got [10485740 bytes]…"xxxxxxxxxxxxxxxxxxxxY", want [10485740 bytes]…"xxxxxxxxxxxxxxxxxxxxX"`, res.Summary)
	testify.Contains(t, cmpText(res.DiffText()), `[10485694 bytes]…xxx`, "the diff shows the strings from near their difference")
	testify.Contains(t, cmpText(res.DiffText()), "- \t\"text\": string(\"[10485694 bytes]…xxx", "the expected string on a - line")
	testify.Contains(t, cmpText(res.DiffText()), "xxxX\"),\n+ \t\"text\": string(\"[10485694 bytes]…xxx", "then the call's on a + line")
	testify.Contains(t, cmpText(res.DiffText()), "xxxY\"),\n")

	// Errors name bounded values too.
	for name, c := range map[string]assert.Check{
		"whitespace":     assert.ToolsCalled{Tools: []string{" " + huge}},
		"count":          assert.ToolCallCount{Tool: huge + " ", Max: toolInt(1)},
		"listed twice":   assert.ToolsCalled{Tools: []string{huge, huge}, MaxCalls: toolInt(1)},
		"invisible":      assert.ToolsNotCalled{Tools: []string{huge + "\u200b" + huge}},
		"args, tool":     assert.ToolArgs{Tool: huge + "\n"},
		"sequence, tool": assert.ToolCallSequence{Sequence: []string{"\t" + huge}},
	} {
		res, err := c.Check(ctx, declaring(small, "search"))
		require.Error(t, err, name)
		requireBounded(t, name, res, err)
	}
}
