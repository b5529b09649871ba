package assert_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
)

// A dependency chain: the order was looked up, then refunded without error,
// each step by a call of its own and in order. The first refund failed and
// the agent retried: the retry meets the step.
func ExampleToolCallChain() {
	tr := refundTrajectory()
	res, err := assert.ToolCallChain{Steps: []assert.ExpectedCall{
		{Tool: "get_order_details", ResultIncludes: []string{"delivered"}},
		{Tool: "issue_refund", Args: map[string]any{"amount": 42}, NoError: true},
	}}.Check(context.Background(), tr)
	fmt.Println(res.Passed, res.Summary, err)
	// Output: true all 2 steps matched in order (calls 1, 3) <nil>
}

// A PromptKit-style list of {type, params}, parsed with its lines and run
// on a transcript: every spec runs, each with its own outcome.
func ExampleEvalAll() {
	specs, err := assert.ParseSpecs([]byte(`
- type: tool_calls_with_args
  params: {tool_name: issue_refund, args_match: {order_id: '^#W\d+$'}}
- type: tool_no_repeat
- type: tool_efficiency
  params: {max_errors: 0}
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	results, err := assert.EvalAll(context.Background(), refundTrajectory(), specs)
	for _, r := range results {
		fmt.Printf("line %d %s: %s: %s\n", r.Spec.Line, r.Spec.Type, r.Outcome(), r.Result.Summary)
	}
	fmt.Println(results.Passed(), err)
	// Output:
	// line 2 tool_calls_with_args: pass: all 2 calls to issue_refund meet it
	// line 4 tool_no_repeat: pass: no identical call repeated in a row (3 calls)
	// line 5 tool_efficiency: fail: 1 error, want at most 0
	// false <nil>
}

// tool_exec runs a tool through the application's own registry and passes
// when it succeeds; a tool that cannot run is an error, never a pass.
func ExampleToolExec() {
	tests := assert.ToolExecutorFunc(func(_ context.Context, tool string, _ json.RawMessage) (evalkit.ToolResult, error) {
		return evalkit.ToolResult{Name: tool, Content: "ok: 12 tests"}, nil
	})
	reg := assert.NewRegistry().WithTools(tests)
	res, err := reg.Eval(context.Background(), "tool_exec", nil, map[string]any{"tool": "run_tests", "timeout_seconds": 60})
	fmt.Println(res.Passed, res.Summary, err)
	// Output: true run_tests succeeded: "ok: 12 tests" <nil>
}
