package evaltest

import (
	"fmt"
	"strings"

	"github.com/google/go-cmp/cmp"

	"github.com/evalkit-go/evalkit/assert"
)

// Fluent methods for the trajectory checks most tests need; Eval reaches
// every registered type, and Check any assert value with other options.

// ToolCallChain checks that each step was met by a call of its own, in
// order, other calls allowed between (assert.ToolCallChain, as PromptKit's
// tool_call_chain): a step asks for a tool and, optionally, arguments,
// patterns on them and a result without error or with given text. A
// failure names the first step with no call, the closest call and a diff
// of its arguments:
//
//	ToolCallChain(get_order_details({}), issue_refund({"amount":42}, NoError)): matched 1 of 2 steps in order
//	unmatched: step 2 issue_refund {"amount":42}, no error: issue_refund (call 2): amount: got 41.5, want 42
func (e *Expectation) ToolCallChain(steps ...assert.ExpectedCall) *Expectation {
	e.t.tb.Helper()
	e.report(call("ToolCallChain", expectedLabels(steps)...), assert.ToolCallChain{Steps: steps})
	return e
}

// ToolCallsWithArgs checks that every call of every.Tool (every call, when
// Tool is "") meets every — its arguments, patterns and result — and that
// there is one (assert.ToolCallsWithArgs, as PromptKit's
// tool_calls_with_args).
func (e *Expectation) ToolCallsWithArgs(every assert.ExpectedCall) *Expectation {
	e.t.tb.Helper()
	e.report(call("ToolCallsWithArgs", expectedLabels([]assert.ExpectedCall{every})...), assert.ToolCallsWithArgs{Every: every})
	return e
}

// ToolArgsExcluded checks that tool was never called with any of the
// argument values excluded gives, by value (assert.ToolArgsExcluded, as
// PromptKit's tool_args_excluded_session).
func (e *Expectation) ToolArgsExcluded(tool string, excluded map[string]any) *Expectation {
	e.t.tb.Helper()
	e.report(call("ToolArgsExcluded", tool, excluded), assert.ToolArgsExcluded{Tool: tool, Excluded: excluded})
	return e
}

// ToolAntiPattern checks that the calls never show the tools of sequence in
// that order, other calls between allowed (assert.ToolAntiPattern).
func (e *Expectation) ToolAntiPattern(sequence ...string) *Expectation {
	e.t.tb.Helper()
	e.report(call("ToolAntiPattern", strArgs(sequence)...), assert.ToolAntiPattern{Patterns: []assert.AntiPattern{{Sequence: sequence}}})
	return e
}

// ToolNoRepeat checks that no call is made twice in a row with the same
// arguments, compared by value (assert.ToolNoRepeat).
func (e *Expectation) ToolNoRepeat() *Expectation {
	e.t.tb.Helper()
	e.report(call("ToolNoRepeat"), assert.ToolNoRepeat{})
	return e
}

// MaxToolCalls checks that at most n tool calls were made
// (assert.ToolEfficiency with MaxCalls, as PromptKit's tool_efficiency).
func (e *Expectation) MaxToolCalls(n int) *Expectation {
	e.t.tb.Helper()
	e.report(call("MaxToolCalls", n), assert.ToolEfficiency{MaxCalls: &n})
	return e
}

// ToolResultIncludes checks that a result of tool ("" for any tool)
// contains every pattern, ignoring case (assert.ToolResultIncludes).
func (e *Expectation) ToolResultIncludes(tool string, patterns ...string) *Expectation {
	e.t.tb.Helper()
	e.report(call("ToolResultIncludes", append([]any{tool}, strArgs(patterns)...)...), assert.ToolResultIncludes{Tool: tool, Patterns: patterns})
	return e
}

// ToolResultMatches checks that a result of tool ("" for any tool) matches
// the RE2 pattern (assert.ToolResultMatches).
func (e *Expectation) ToolResultMatches(tool, pattern string) *Expectation {
	e.t.tb.Helper()
	e.report(call("ToolResultMatches", tool, pattern), assert.ToolResultMatches{Tool: tool, Pattern: pattern})
	return e
}

// expectedLabels renders expected calls as the first line shows them:
// tool(args) with the constraints beyond them, issue_refund({"amount":42},
// NoError).
func expectedLabels(calls []assert.ExpectedCall) []any {
	out := make([]any, len(calls))
	for i, c := range calls {
		parts := []string{"{}"}
		if len(c.Args) > 0 {
			parts[0] = goValue(c.Args)
		}
		if c.ExactArgs {
			parts = append(parts, "ExactArgs")
		}
		if len(c.ArgsMatch) > 0 {
			parts = append(parts, "ArgsMatch: "+goValue(c.ArgsMatch))
		}
		if len(c.IgnoreFields) > 0 {
			parts = append(parts, "IgnoreFields: "+goValue(c.IgnoreFields))
		}
		if len(c.ResultIncludes) > 0 {
			parts = append(parts, "ResultIncludes: "+goValue(c.ResultIncludes))
		}
		if c.ResultMatches != "" {
			parts = append(parts, "ResultMatches: "+goValue(c.ResultMatches))
		}
		if c.NoError {
			parts = append(parts, "NoError")
		}
		tool := c.Tool
		if tool == "" {
			tool = "any tool"
		}
		out[i] = rawLabel(tool + "(" + strings.Join(parts, ", ") + ")")
	}
	return out
}

// ToolCallOrder checks a partial order of tool names: each stage's tools
// called in any order, every call of a stage before every call of the
// next (assert.ToolCallOrder): ToolCallOrder([]string{"get_user",
// "get_order"}, []string{"issue_refund"}) is "get_user and get_order in
// any order, both before issue_refund". For conditions on the calls'
// arguments, Check(assert.ToolCallOrder{...}).
func (e *Expectation) ToolCallOrder(stages ...[]string) *Expectation {
	e.t.tb.Helper()
	c := assert.ToolCallOrder{Stages: make([][]assert.ExpectedCall, len(stages))}
	labels := make([]any, len(stages))
	for i, st := range stages {
		for _, name := range st {
			c.Stages[i] = append(c.Stages[i], assert.ExpectedCall{Tool: name})
		}
		labels[i] = rawLabel("[" + strings.Join(quoted(st), ", ") + "]")
	}
	e.report(call("ToolCallOrder", labels...), c)
	return e
}

// ToolAntiPatternSteps checks that the calls never show steps in that
// order, other calls between allowed, each step a tool with conditions on
// its arguments (assert.AntiPattern.Steps): ToolAntiPatternSteps(
// assert.ExpectedCall{Tool: "run_shell", ArgsMatch: map[string]string{
// "command": `rm\s+-rf`}}) forbids a recursive delete.
func (e *Expectation) ToolAntiPatternSteps(steps ...assert.ExpectedCall) *Expectation {
	e.t.tb.Helper()
	e.report(call("ToolAntiPatternSteps", expectedLabels(steps)...), assert.ToolAntiPattern{Patterns: []assert.AntiPattern{{Steps: steps}}})
	return e
}

// ToolArgsAs checks that a call of tool has arguments that, decoded into a
// new value of want's type (the application's own struct), equal want
// under go-cmp with opts (assert.ToolArgsTyped; assert.ToolArgsAs is its
// generic form). A failure shows go-cmp's diff of the closest call.
func (e *Expectation) ToolArgsAs(tool string, want any, opts ...cmp.Option) *Expectation {
	e.t.tb.Helper()
	e.report(call("ToolArgsAs", tool, rawLabel(fmt.Sprintf("%#v", want))), assert.ToolArgsTyped{Tool: tool, Want: want, Options: opts})
	return e
}

// ToolCallsValid checks that every tool call is valid against its tool's
// declared JSON Schema — a declared tool, an object of arguments, required
// parameters present, types right — and passes no parameter its tool does
// not declare (assert.ToolCallsValid with NoExtraArgs; promptfoo's
// is-valid-openai-tools-call).
func (e *Expectation) ToolCallsValid() *Expectation {
	e.t.tb.Helper()
	e.report(call("ToolCallsValid"), assert.ToolCallsValid{NoExtraArgs: true})
	return e
}

// ToolCallsAcceptable checks that the last turn's calls are calls, in any
// order, one each, every argument one of its acceptable values
// (assert.ToolCallsAcceptable; BFCL's possible answers, assert.Omitted for
// a parameter that may be left out).
func (e *Expectation) ToolCallsAcceptable(calls ...assert.AcceptableCall) *Expectation {
	e.t.tb.Helper()
	labels := make([]any, len(calls))
	for i, c := range calls {
		labels[i] = rawLabel(c.Tool + goValue(map[string][]any(c.Args)))
	}
	e.report(call("ToolCallsAcceptable", labels...), assert.ToolCallsAcceptable{Calls: calls})
	return e
}

func quoted(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = fmt.Sprintf("%q", n)
	}
	return out
}
