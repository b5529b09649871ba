package assert

import (
	"context"
	"fmt"
	"strings"

	"github.com/evalkit-go/evalkit"
)

// ToolCallSequence passes when the tools of Sequence were called in that
// order, other calls allowed in between (an ordered subsequence of the
// calls). Score is the length of the longest matched prefix of Sequence over
// its length. The failure names the first step not found — never called, or
// called only before the step it should follow — and shows the calls in order:
//
//	step 2 "issue_refund" not called after step 1 "get_order_details" (call 3)
//	called: get_user_details → issue_refund → get_order_details
//
// Scope defaults to Session. An empty sequence or name, a name with leading
// or trailing whitespace, or, when the transcript declares its tools, a name
// that is a near miss of a declared tool (see ToolsNotCalled) is an error
// (*ParamError).
//
// Registry type "tool_call_sequence", params: sequence, scope. As PromptKit's
// tool_call_sequence.
type ToolCallSequence struct {
	Sequence []string
	Scope    Scope
}

func buildToolCallSequence(p *params) (Check, error) {
	var c ToolCallSequence
	var err error
	if c.Sequence, _, err = p.strs(true, "sequence"); err != nil {
		return nil, err
	}
	c.Scope, err = p.scope()
	return c, err
}

func (c ToolCallSequence) validate() error {
	if err := toolNames("tool_call_sequence", "sequence", c.Sequence, true); err != nil {
		return err
	}
	return checkScope("tool_call_sequence", c.Scope)
}

// Check implements Check.
func (c ToolCallSequence) Check(_ context.Context, tr *evalkit.Transcript) (Result, error) {
	if err := c.validate(); err != nil {
		return Result{}, err
	}
	sc, err := scopedCalls("tool_call_sequence", tr, c.Scope)
	if err != nil {
		return Result{}, err
	}
	if err := undeclared("tool_call_sequence", tr, toolRef{"sequence", c.Sequence}); err != nil {
		return Result{}, err
	}
	// Taking the earliest call for each step is optimal for subsequences:
	// it leaves the most calls for the steps that follow.
	at := make([]int, 0, len(c.Sequence)) // call index of each matched step
	for i, call := range sc.calls {
		if len(at) < len(c.Sequence) && call.Name == c.Sequence[len(at)] {
			at = append(at, i)
		}
	}
	score := ratio(len(at), len(c.Sequence))
	if len(at) == len(c.Sequence) {
		return pass(score, "sequence of "+plural(len(at), "step")+" found at calls "+callNumbers(at)), nil
	}
	step := len(at)
	name := c.Sequence[step]
	var summary string
	switch {
	case callCounts(sc.calls)[name] == 0:
		summary = fmt.Sprintf("step %d %s never called", step+1, quoteName(name))
	default: // called, but only before the previous step's call
		summary = fmt.Sprintf("step %d %s not called after step %d %s (call %d)", step+1, quoteName(name), step, quoteName(c.Sequence[step-1]), at[step-1]+1)
	}
	return fail(score, summary, sc.withScope([]Detail{sequenceDetail(sc.calls)})...), nil
}

// sequenceDetail lists the calls in order: "a → b → c", bounded.
func sequenceDetail(calls []evalkit.ToolCall) Detail {
	if len(calls) == 0 {
		return Detail{"called", "none"}
	}
	const maxSteps = 30
	parts := make([]string, 0, min(len(calls), maxSteps)+1)
	for i, c := range calls {
		if i == maxSteps {
			parts = append(parts, fmt.Sprintf("… (%d more)", len(calls)-maxSteps))
			break
		}
		parts = append(parts, shortName(c.Name))
	}
	return Detail{"called", strings.Join(parts, " → ")}
}
