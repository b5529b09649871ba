package evaltest_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	evalassert "github.com/evalkit-go/evalkit/assert"
	"github.com/evalkit-go/evalkit/evaltest"
)

// refundRun is an agent run that looked up the order, tried a refund for the
// wrong order id (the tool failed), then answered in JSON with the wrong amount.
func refundRun() *evalkit.Transcript {
	return &evalkit.Transcript{Messages: []evalkit.Message{
		{Role: evalkit.RoleUser, Content: "Refund order #W123"},
		{Role: evalkit.RoleAssistant, ToolCalls: []evalkit.ToolCall{{ID: "1", Name: "get_order_details", Args: json.RawMessage(`{"order_id":"#W123"}`)}}},
		{Role: evalkit.RoleTool, ToolCallID: "1", Content: `{"total": 42}`},
		{Role: evalkit.RoleAssistant, ToolCalls: []evalkit.ToolCall{{ID: "2", Name: "issue_refund", Args: json.RawMessage(`{"order_id":"#W124","amount":42}`)}}},
		{Role: evalkit.RoleTool, ToolCallID: "2", Content: "Error: order not found", IsError: true},
		{Role: evalkit.RoleAssistant, Content: `{"refund": {"amount": 41.5, "currency": "EUR"}}`},
	}}
}

// Each fluent method's failure message, exactly: the call as written, got
// before want, labelled lines, a diff only for structures.
func TestFailureMessages(t *testing.T) {
	tests := []struct {
		name  string
		chain func(e *evaltest.Expectation)
		want  string
	}{
		{"ToolsCalled", func(e *evaltest.Expectation) { e.ToolsCalled("get_order_details", "send_email") },
			`ToolsCalled("get_order_details", "send_email"): missing "send_email"
called: get_order_details ×1, issue_refund ×1`},
		{"ToolsNotCalled", func(e *evaltest.Expectation) { e.ToolsNotCalled("issue_refund") },
			`ToolsNotCalled("issue_refund"): "issue_refund" called 1 time, want none
called: get_order_details ×1, issue_refund ×1`},
		{"ToolArgs", func(e *evaltest.Expectation) { e.ToolArgs("issue_refund", map[string]any{"order_id": "#W123"}) },
			`ToolArgs("issue_refund", {"order_id":"#W123"}): issue_refund (call 2): order_id: got "#W124", want "#W123"
args: call 2: {"order_id":"#W124","amount":42}
called: get_order_details ×1, issue_refund ×1
diff (-want +got):
  map[string]any{
- 	"order_id": string("#W123"),
+ 	"order_id": string("#W124"),
  }`},
		{"ToolCalls", func(e *evaltest.Expectation) {
			e.ToolCalls(evalassert.ExpectedCall{Tool: "get_order_details", Args: map[string]any{"order_id": "#W123"}}, evalassert.ExpectedCall{Tool: "get_order_details"})
		},
			`ToolCalls(get_order_details({"order_id":"#W123"}), get_order_details({})): matched 1 of 2 expected calls
unmatched: get_order_details {}: its only matching call (call 1) is taken by get_order_details {"order_id":"#W123"}; each expected call needs a call of its own
called: get_order_details ×1, issue_refund ×1`},
		{"ToolCallSequence", func(e *evaltest.Expectation) { e.ToolCallSequence("issue_refund", "get_order_details") },
			`ToolCallSequence("issue_refund", "get_order_details"): step 2 "get_order_details" not called after step 1 "issue_refund" (call 2)
called: get_order_details → issue_refund`},
		{"ToolCallCount", func(e *evaltest.Expectation) { e.ToolCallCount("issue_refund", 2) },
			`ToolCallCount("issue_refund", 2): "issue_refund" called 1 time, want exactly 2
called: get_order_details ×1, issue_refund ×1`},
		{"NoToolErrors", func(e *evaltest.Expectation) { e.NoToolErrors() },
			`NoToolErrors(): 1 of 2 tool calls failed
error: issue_refund (call 2): "Error: order not found"`},
		{"JSONPath scalar", func(e *evaltest.Expectation) { e.JSONPath("refund.amount", 42.0) },
			`JSONPath("refund.amount", 42.0): got 41.5, want 42`},
		{"JSONPath object", func(e *evaltest.Expectation) { e.JSONPath("refund", map[string]any{"amount": 42, "currency": "EUR"}) },
			`JSONPath("refund", {"amount":42,"currency":"EUR"}): got {"amount":41.5,"currency":"EUR"}, want {"amount":42,"currency":"EUR"}
diff (-want +got):
  map[string]any{
- 	"amount":   float64(42),
+ 	"amount":   float64(41.5),
  	"currency": string("EUR"),
  }`},
		{"JSONSchema", func(e *evaltest.Expectation) {
			e.JSONSchema(map[string]any{"type": "object", "required": []any{"status"}})
		},
			`JSONSchema({"required":["status"],"type":"object"}): does not match the schema: at (root): missing property 'status'`},
		{"FieldPresence", func(e *evaltest.Expectation) { e.FieldPresence("refund.amount", "status") },
			`FieldPresence("refund.amount", "status"): missing "status"`},
		{"ToolCallCount negative", func(e *evaltest.Expectation) { e.ToolCallCount("issue_refund", -1) },
			`ToolCallCount("issue_refund", -1): error: ToolCallCount: n is -1, want a count >= 0`},
		{"Check with options", func(e *evaltest.Expectation) {
			e.Check(evalassert.Contains{Patterns: []string{"eur"}, CaseSensitive: true, Scope: evalassert.Session})
		},
			`Check(assert.Contains{Patterns: ["eur"], CaseSensitive: true, Scope: assert.Session}): missing "eur"
searched: 3 assistant messages (1 with text, the others only called tools)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := report(func(et *evaltest.T) { tt.chain(et.Expect(refundRun())) })
			// go-cmp varies the spacing of its diffs on purpose; compare with
			// runs of spaces and non-breaking spaces folded.
			assert.Equal(t, []string{normalizeSpace(tt.want + "\ntranscript: 6 messages")}, normalizeAll(tb.errors))
		})
	}
}

func TestPassingJSONAndToolChain(t *testing.T) {
	tr := refundRun()
	tr.Messages[3].ToolCalls[0].Args = json.RawMessage(`{"order_id":"#W123","amount":42}`)
	tr.Messages[4].IsError, tr.Messages[4].Content = false, `{"status": "refunded"}`
	tr.Messages[5].Content = "```json\n{\"refund\": {\"amount\": 42, \"currency\": \"EUR\"}}\n```"
	tb := report(func(et *evaltest.T) {
		et.Expect(tr).
			ToolsCalled("get_order_details", "issue_refund").
			ToolsNotCalled("send_email").
			ToolArgs("issue_refund", map[string]any{"order_id": "#W123", "amount": 42}).
			ToolCallSequence("get_order_details", "issue_refund").
			ToolCallCount("", 2).
			NoToolErrors().
			Check(evalassert.JSONPath{Expression: "refund.amount", Expected: 42, AllowWrapped: true}).
			Eval("field_presence", map[string]any{"fields": []any{"refund.currency"}, "allow_wrapped": true})
	})
	assert.Empty(t, tb.errors)
}

// panickyCheck's String and Check both dereference a nil receiver.
type panickyCheck struct{ name string }

func (p *panickyCheck) String() string { return p.name }
func (p *panickyCheck) Check(context.Context, *evalkit.Transcript) (evalassert.Result, error) {
	return evalassert.Result{Summary: p.name}, nil
}

func TestPanickingChecksAreErrors(t *testing.T) {
	tb := report(func(et *evaltest.T) {
		et.Expect(refundRun()).
			Check((*evalassert.Contains)(nil)).
			Check((*panickyCheck)(nil)).
			Contains("refund")
	})
	require.Len(t, tb.errors, 2)
	assert.True(t, strings.HasPrefix(tb.errors[0], "Check(*assert.Contains): error: the check panicked: "), tb.errors[0])
	assert.True(t, strings.HasPrefix(tb.errors[1], "Check(*evaltest_test.panickyCheck): error: the check panicked: "), tb.errors[1])
}

func TestManyDetailsAreCapped(t *testing.T) {
	details := make([]evalassert.Detail, 1000)
	for i := range details {
		details[i] = evalassert.Detail{Label: "line", Text: strings.Repeat("x", 5000)}
	}
	tb := report(func(et *evaltest.T) {
		et.Expect(refundRun()).Check(evalassert.CheckFunc(func(context.Context, *evalkit.Transcript) (evalassert.Result, error) {
			return evalassert.Result{Summary: "many", Details: details}, nil
		}))
	})
	require.Len(t, tb.errors, 1)
	assert.Less(t, len(tb.errors[0]), 40_000)
	assert.Contains(t, tb.errors[0], "\n… and 976 more lines\n")
}

// Messages quote the answer as written: a case-insensitive match in
// "İİ ERROR CODE…" is shown as the answer says it, not as the folded
// "i̇i̇ error code…" the search read.
func TestMessagesQuoteTheAnswerAsWritten(t *testing.T) {
	tb := report(func(et *evaltest.T) {
		et.Expect(chat("İİ ERROR CODE 42: the Straße refund failed")).Excludes("error code", "STRASSE")
	})
	require.Len(t, tb.errors, 1)
	assert.Contains(t, tb.errors[0], `found: "error code" in messages[1]: "İİ ERROR CODE 42: the Straße refund failed"`)
	assert.Contains(t, tb.errors[0], `found: "STRASSE" in messages[1]: "İİ ERROR CODE 42: the Straße refund failed"`)
	assert.NotContains(t, tb.errors[0], "i̇i̇ error code")

	res, err := evalassert.Eval(context.Background(), "contains_any", chat("Your REFUND of €42 is on its way."), map[string]any{"patterns": []any{"refund"}})
	require.NoError(t, err)
	require.True(t, res.Passed)
	assert.Equal(t, []evalassert.Detail{{Label: "found", Text: `"Your REFUND of €42 is on its way."`}}, res.Details, "what it matched, as written")
}
