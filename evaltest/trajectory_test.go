package evaltest_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	evalassert "github.com/evalkit-go/evalkit/assert"
	"github.com/evalkit-go/evalkit/evaltest"
)

// The trajectory methods' failure messages, exactly, on refundRun: the
// lookup succeeded, the refund went to the wrong order and failed.
func TestTrajectoryFailureMessages(t *testing.T) {
	tests := []struct {
		name  string
		chain func(e *evaltest.Expectation)
		want  string
	}{
		{"ToolCallChain", func(e *evaltest.Expectation) {
			e.ToolCallChain(evalassert.ExpectedCall{Tool: "get_order_details"}, evalassert.ExpectedCall{Tool: "issue_refund", Args: map[string]any{"order_id": "#W123"}, NoError: true})
		}, "ToolCallChain(get_order_details({}), issue_refund({\"order_id\":\"#W123\"}, NoError)): matched 1 of 2 steps in order\n" +
			"unmatched: step 2 issue_refund {\"order_id\":\"#W123\"}, no error: issue_refund (call 2): order_id: got \"#W124\", want \"#W123\" (and 1 more difference)\n" +
			"args: call 2: {\"order_id\":\"#W124\",\"amount\":42}\n" +
			"called: get_order_details → issue_refund\n" +
			"diff (-want +got):\n" +
			"  map[string]any{\n" +
			"- \t\"order_id\": string(\"#W123\"),\n" +
			"+ \t\"order_id\": string(\"#W124\"),\n" +
			"  }"},
		{"ToolCallsWithArgs", func(e *evaltest.Expectation) {
			e.ToolCallsWithArgs(evalassert.ExpectedCall{Tool: "issue_refund", ArgsMatch: map[string]string{"order_id": `^#W123$`}})
		}, "ToolCallsWithArgs(issue_refund({}, ArgsMatch: {\"order_id\":\"^#W123$\"})): 1 of 1 call to issue_refund falls short\n" +
			"short: call 2: order_id: got \"#W124\", want a match of \"^#W123$\"\n" +
			"args: call 2: {\"order_id\":\"#W124\",\"amount\":42}"},
		{"ToolArgsExcluded", func(e *evaltest.Expectation) { e.ToolArgsExcluded("issue_refund", map[string]any{"order_id": "#W124"}) }, "ToolArgsExcluded(\"issue_refund\", {\"order_id\":\"#W124\"}): 1 of 1 call to issue_refund used an excluded value\n" +
			"excluded: call 2: order_id: \"#W124\", excluded"},
		{"ToolAntiPattern", func(e *evaltest.Expectation) { e.ToolAntiPattern("get_order_details", "issue_refund") }, "ToolAntiPattern(\"get_order_details\", \"issue_refund\"): found 1 of 1 anti-pattern\n" +
			"found: pattern 1 get_order_details → issue_refund found at calls 1, 2\n" +
			"called: get_order_details → issue_refund"},
		{"MaxToolCalls", func(e *evaltest.Expectation) { e.MaxToolCalls(1) }, "MaxToolCalls(1): 2 calls, want at most 1\n" +
			"counted: 2 calls, 1 error (error rate 0.50)\n" +
			"called: get_order_details ×1, issue_refund ×1"},
		{"ToolResultIncludes", func(e *evaltest.Expectation) { e.ToolResultIncludes("issue_refund", "refunded") }, "ToolResultIncludes(\"issue_refund\", \"refunded\"): 0 of 1 result of issue_refund include \"refunded\", want at least 1\n" +
			"result: call 2: missing \"refunded\": \"Error: order not found\""},
		{"ToolResultMatches", func(e *evaltest.Expectation) { e.ToolResultMatches("", `refunded`) }, "ToolResultMatches(\"\", \"refunded\"): 0 of 2 tool results match \"refunded\", want at least 1\n" +
			"result: call 1: no match: \"{\\\"total\\\": 42}\"\n" +
			"result: call 2: no match: \"Error: order not found\""},
		{"Eval bad step", func(e *evaltest.Expectation) {
			e.Eval("tool_call_chain", map[string]any{"steps": []any{map[string]any{"tool": "issue_refund", "no_eror": true}}})
		}, "Eval(\"tool_call_chain\", {\"steps\":[{\"no_eror\":true,\"tool\":\"issue_refund\"}]}): error: tool_call_chain: param \"steps[0].no_eror\": unknown parameter: did you mean \"no_error\"? (known: args, args_match, expected_args, ignore_fields, match, name, no_error, result_includes, result_matches, tool, tool_name)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := report(func(et *evaltest.T) { tt.chain(et.Expect(refundRun())) })
			assert.Equal(t, []string{normalizeSpace(tt.want + "\ntranscript: 6 messages")}, normalizeAll(tb.errors))
		})
	}
}

func TestTrajectoryPassing(t *testing.T) {
	tb := report(func(et *evaltest.T) {
		et.Expect(refundRun()).
			ToolCallChain(evalassert.ExpectedCall{Tool: "get_order_details", Args: map[string]any{"order_id": "#W123"}, ResultIncludes: []string{"TOTAL"}},
				evalassert.ExpectedCall{Tool: "issue_refund", ArgsMatch: map[string]string{"amount": `^42$`}}).
			ToolCallsWithArgs(evalassert.ExpectedCall{ArgsMatch: map[string]string{"order_id": `^#W\d+$`}}).
			ToolArgsExcluded("issue_refund", map[string]any{"amount": 0}).
			ToolAntiPattern("issue_refund", "issue_refund").
			ToolNoRepeat().
			MaxToolCalls(2).
			ToolResultIncludes("get_order_details", "42").
			ToolResultMatches("issue_refund", `^Error: `).
			Eval("tool_efficiency", map[string]any{"max_errors": 1})
	})
	assert.Empty(t, tb.errors)
}
