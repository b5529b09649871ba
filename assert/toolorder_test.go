package assert_test

import (
	"context"
	"testing"

	testify "github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
)

func callsOf(calls ...evalkit.ToolCall) *evalkit.Transcript {
	return &evalkit.Transcript{Messages: []evalkit.Message{{Role: evalkit.RoleUser, Content: "go"}, {Role: evalkit.RoleAssistant, ToolCalls: calls}}}
}

func tc(name, args string) evalkit.ToolCall { return evalkit.ToolCall{Name: name, Args: []byte(args)} }

// A stage whose call comes only before the previous stage is done, a
// stage whose call is missing, and stages that compete for calls: each
// failure says which stage and why; the registry form takes tool names
// and steps.
func TestToolCallOrderFailures(t *testing.T) {
	ctx := context.Background()
	order := assert.ToolCallOrder{Stages: [][]assert.ExpectedCall{{{Tool: "a"}, {Tool: "b"}}, {{Tool: "c"}}}}

	res, err := order.Check(ctx, callsOf(tc("c", "{}"), tc("b", "{}"), tc("a", "{}")))
	require.NoError(t, err)
	testify.False(t, res.Passed)
	testify.Equal(t, "stage 2 of 2 [c] is not met after stage 1's calls (calls 2, 3)", res.Summary)
	testify.Equal(t, "c {}: its calls (1) come before stage 1 is done", res.Details[0].Text)
	testify.InDelta(t, 2.0/3, res.Score, 1e-9)

	res, err = order.Check(ctx, callsOf(tc("a", "{}"), tc("c", "{}")))
	require.NoError(t, err)
	testify.Equal(t, "stage 1 of 2 [a, b] is not met in the calls", res.Summary)
	testify.Contains(t, res.Details[0].Text, "b {}: ")

	res, err = order.Check(ctx, callsOf(tc("b", "{}"), tc("x", "{}"), tc("a", "{}"), tc("c", "{}")))
	require.NoError(t, err)
	testify.True(t, res.Passed, res.Summary)

	two := assert.ToolCallOrder{Stages: [][]assert.ExpectedCall{{{Tool: "a"}, {Tool: "a"}}}}
	res, err = two.Check(ctx, callsOf(tc("a", "{}")))
	require.NoError(t, err)
	testify.False(t, res.Passed, "two expected calls need two calls")

	res, err = assert.Eval(ctx, "tool_call_order", callsOf(tc("a", `{"q":1}`), tc("b", "{}"), tc("c", "{}")),
		map[string]any{"stages": []any{[]any{"b", map[string]any{"tool": "a", "args": map[string]any{"q": 1}}}, "c"}, "strict": true})
	require.NoError(t, err)
	testify.True(t, res.Passed, res.Summary)

	_, err = assert.Eval(ctx, "tool_call_order", callsOf(tc("a", "{}")), map[string]any{"stages": []any{[]any{}}})
	testify.EqualError(t, err, `tool_call_order: param "stages[0]": empty list: give at least one entry`)
}

// tool_no_repeat limited by argument conditions: only the charges above
// 100 count, so the repeated small charge is not reported.
func TestToolNoRepeatConditions(t *testing.T) {
	tr := callsOf(tc("charge", `{"amount": 5}`), tc("charge", `{"amount": 5}`), tc("charge", `{"amount": 500}`), tc("charge", `{"amount": 500}`))
	res, err := assert.Eval(context.Background(), "tool_no_repeat", tr, map[string]any{
		"calls": []any{map[string]any{"tool": "charge", "args_match": map[string]any{"amount": `^\d{3,}$`}}},
	})
	require.NoError(t, err)
	testify.False(t, res.Passed)
	require.Len(t, res.Details, 2)
	testify.Equal(t, `charge {"amount":500} called 2 times in a row (calls 3-4), want at most 1`, res.Details[0].Text)

	res, err = assert.ToolNoRepeat{Calls: []assert.ExpectedCall{{Tool: "charge", Args: map[string]any{"amount": 7}}}}.Check(context.Background(), tr)
	require.NoError(t, err)
	testify.True(t, res.Passed, res.Summary)
}

// Typed arguments that differ show go-cmp's diff of the closest call;
// arguments that do not decode into the type say why; Strict refuses a
// field the type lacks.
func TestToolArgsTypedFailures(t *testing.T) {
	type Refund struct {
		OrderID string  `json:"order_id"`
		Amount  float64 `json:"amount"`
	}
	tr := callsOf(tc("issue_refund", `{"order_id": "#W1", "amount": "41.5"}`), tc("issue_refund", `{"order_id": "#W1", "amount": 41.5, "reason": "late"}`))
	res, err := assert.ToolArgsAs("issue_refund", Refund{OrderID: "#W1", Amount: 42}).Check(context.Background(), tr)
	require.NoError(t, err)
	testify.False(t, res.Passed)
	testify.Equal(t, "no call of issue_refund has these arguments, as assert_test.Refund (2 calls)", res.Summary)
	testify.Regexp(t, `(?m)^-.{0,4}Amount:.{0,4}42,$`, res.Diff) // go-cmp varies its spacing
	testify.Regexp(t, `(?m)^\+.{0,4}Amount:.{0,4}41\.5,$`, res.Diff)
	testify.Equal(t, assert.Detail{Label: "decode", Text: "call 1: json: cannot unmarshal string into Go struct field Refund.amount of type float64"}, res.Details[1])

	res, err = assert.ToolArgsAs("issue_refund", Refund{OrderID: "#W1", Amount: 41.5}).Check(context.Background(), tr)
	require.NoError(t, err)
	testify.True(t, res.Passed, res.Summary)
	strict := assert.ToolArgsAs("issue_refund", Refund{OrderID: "#W1", Amount: 41.5})
	strict.Strict = true
	res, err = strict.Check(context.Background(), tr)
	require.NoError(t, err)
	testify.False(t, res.Passed)
	testify.Contains(t, res.Details[1].Text, `json: unknown field "reason"`)

	_, err = assert.ToolArgsTyped{Tool: "issue_refund"}.Check(context.Background(), tr)
	testify.EqualError(t, err, `tool_args_typed: param "want": nil: want a value of the type the arguments decode into`)
}
