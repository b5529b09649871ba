package evaltest_test

import (
	"testing"

	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/stretchr/testify/assert"

	"github.com/evalkit-go/evalkit"
	evalassert "github.com/evalkit-go/evalkit/assert"
	"github.com/evalkit-go/evalkit/evaltest"
)

// The fluent trajectory steps: a partial order, an argument-conditioned
// anti-pattern, typed arguments, schema validity and acceptable values,
// each failure first line in call syntax.
func TestFluentTrajectories(t *testing.T) {
	tr := &evalkit.Transcript{
		Tools: []evalkit.ToolSpec{
			{Name: "get_order", Parameters: []byte(`{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}`)},
			{Name: "refund", Parameters: []byte(`{"type":"object","properties":{"id":{"type":"string"},"amount":{"type":"number"}},"required":["id","amount"]}`)},
		},
		Messages: []evalkit.Message{
			{Role: evalkit.RoleUser, Content: "Refund #W1"},
			{Role: evalkit.RoleAssistant, ToolCalls: []evalkit.ToolCall{
				{ID: "1", Name: "refund", Args: []byte(`{"id": "#W1", "amount": 41.99}`)},
				{ID: "2", Name: "get_order", Args: []byte(`{"id": "#W1"}`)},
			}},
		},
	}
	type Refund struct {
		ID     string  `json:"id"`
		Amount float64 `json:"amount"`
	}
	tb := run("TestRefund", nil, func(et *evaltest.T) {
		et.Expect(tr).
			ToolCallsValid().
			ToolArgsAs("refund", Refund{ID: "#W1", Amount: 42}, cmpopts.EquateApprox(0, 0.05)).
			ToolCallsAcceptable(
				evalassert.AcceptableCall{Tool: "get_order", Args: evalassert.Acceptable{"id": {"#W1", "W1"}}},
				evalassert.AcceptableCall{Tool: "refund", Args: evalassert.Acceptable{"id": {"#W1"}, "amount": {41.99, 42}}},
			).
			ToolCallOrder([]string{"get_order"}, []string{"refund"}).
			ToolAntiPatternSteps(evalassert.ExpectedCall{Tool: "refund", ArgsMatch: map[string]string{"amount": `^4\d\.`}})
	})
	assert.Equal(t, []string{
		`ToolCallOrder(["get_order"], ["refund"]): stage 2 of 2 [refund] is not met after stage 1's calls (calls 2)
unmatched: refund {}: its calls (1) come before stage 1 is done
called: refund → get_order
transcript: 2 messages`,
		`ToolAntiPatternSteps(refund({}, ArgsMatch: {"amount":"^4\\d\\."})): found 1 of 1 anti-pattern
found: pattern 1 refund amount~"^4\\d\\." found at calls 1
called: refund → get_order
transcript: 2 messages`,
	}, tb.errors)
}
