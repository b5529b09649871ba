package assert_test

import (
	"context"
	"encoding/json"
	"testing"

	testify "github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
)

// A key given twice with different values in what a check reads — a tool
// call's arguments, a JSON answer — was read last-wins: a tool server that
// takes the first value refunded 42 while the check passed on 4200. Each
// is now an error naming the key and its place, never a pass or a fail.
func TestDuplicateKeysAreErrors(t *testing.T) {
	ctx := context.Background()
	call := func(args string) *evalkit.Transcript {
		return &evalkit.Transcript{Messages: []evalkit.Message{
			{Role: evalkit.RoleUser, Content: "Refund order #W123"},
			{Role: evalkit.RoleAssistant, ToolCalls: []evalkit.ToolCall{{ID: "c1", Name: "issue_refund", Args: json.RawMessage(args)}}},
			{Role: evalkit.RoleTool, ToolCallID: "c1", Name: "issue_refund", Content: "ok"},
			{Role: evalkit.RoleAssistant, Content: "Refunded."},
		}}
	}
	answer := func(text string) *evalkit.Transcript {
		return &evalkit.Transcript{Messages: []evalkit.Message{{Role: evalkit.RoleUser, Content: "Total?"}, {Role: evalkit.RoleAssistant, Content: text}}}
	}
	const argsMsg = `key "amount" is given twice, with different values (at amount, line 1, column 39): which is meant cannot be told`
	for _, tc := range []struct {
		name, check string
		tr          *evalkit.Transcript
		params      map[string]any
		want        string
	}{
		// The common shape of arguments, which a fast path decodes.
		{"tool_args", "tool_args", call(`{"order_id": "#W123", "amount": 4200, "amount": 42}`),
			map[string]any{"tool_name": "issue_refund", "expected_args": map[string]any{"amount": 42}}, argsMsg},
		// An escape sends the arguments down encoding/json's path.
		{"tool_args, escaped", "tool_args", call(`{"order_id": "#W\u0031", "amount": 4200, "amount": 42}`),
			map[string]any{"tool_name": "issue_refund", "expected_args": map[string]any{"amount": 42}},
			`key "amount" is given twice, with different values (at amount, line 1, column 42): which is meant cannot be told`},
		{"tool_args, nested", "tool_args", call(`{"order": {"id": "#W123", "id": "#W999"}}`),
			map[string]any{"tool_name": "issue_refund", "expected_args": map[string]any{"order": map[string]any{"id": "#W123"}}},
			`key "id" is given twice, with different values (at order.id, line 1, column 27): which is meant cannot be told`},
		{"tool_calls_with_args", "tool_calls_with_args", call(`{"order_id": "#W123", "amount": 4200, "amount": 42}`),
			map[string]any{"tool_name": "issue_refund", "expected_args": map[string]any{"order_id": "#W123"}}, argsMsg},
		// An excluded value behind a key given twice was ruled out or not
		// as the last value said.
		{"tool_args_excluded", "tool_args_excluded", call(`{"order_id": "#W123", "amount": 4200, "amount": 42}`),
			map[string]any{"tool_name": "issue_refund", "excluded_args": map[string]any{"amount": 4200}}, argsMsg},
		{"json_path", "json_path", answer(`{"refund": {"amount": 4200, "amount": 42}}`),
			map[string]any{"expression": "refund.amount", "expected": 42},
			`key "amount" is given twice, with different values (at refund.amount, line 1, column 29): which is meant cannot be told`},
		{"json_schema", "json_schema", answer(`{"status": "denied", "status": "approved"}`),
			map[string]any{"schema": map[string]any{"type": "object", "properties": map[string]any{"status": map[string]any{"const": "approved"}}}},
			`key "status" is given twice, with different values (at status, line 1, column 22): which is meant cannot be told`},
		{"field_presence", "field_presence", answer("```json\n{\"id\": null, \"id\": 7}\n```"),
			map[string]any{"fields": []any{"id"}, "allow_wrapped": true},
			`key "id" is given twice, with different values (at id, line 1, column 14): which is meant cannot be told`},
		{"equals on JSON", "equals", answer(`{"answer": "no", "answer": "yes"}`),
			map[string]any{"expression": "answer", "expected": "yes"},
			`key "answer" is given twice, with different values (at answer, line 1, column 18): which is meant cannot be told`},
		{"json_valid", "json_valid", answer(`{"a": 1, "a": 2}`), map[string]any{},
			`key "a" is given twice, with different values (at a, line 1, column 10): which is meant cannot be told`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := assert.Eval(ctx, tc.check, tc.tr, tc.params)
			require.Error(t, err, "passed %v: %s", res.Passed, res.Summary)
			testify.Contains(t, err.Error(), tc.want)
		})
	}

	// The same value twice is read alike by every parser: no error.
	res, err := assert.Eval(ctx, "tool_args", call(`{"order_id": "#W123", "amount": 42, "amount": 42}`),
		map[string]any{"tool_name": "issue_refund", "expected_args": map[string]any{"amount": 42}})
	require.NoError(t, err)
	testify.True(t, res.Passed)
	res, err = assert.Eval(ctx, "json_path", answer(`{"amount": 42, "amount": 42}`), map[string]any{"expression": "amount", "expected": 42})
	require.NoError(t, err)
	testify.True(t, res.Passed)

	// Expected arguments written as JSON text are held to the same rule.
	err = assert.Validate("tool_args", map[string]any{"tool_name": "issue_refund", "expected_args": `{"amount": 42, "amount": 4200}`})
	testify.ErrorContains(t, err, `param "expected_args": key "amount" is given twice, with different values`)
}
