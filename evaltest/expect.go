package evaltest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
	"github.com/evalkit-go/evalkit/internal/textnorm"
)

// Expectation is a chain of checks on one transcript, started by T.Expect
// or T.Require. Each method runs its check at once, reports a failure or an
// evaluation error at the caller's line, and returns the Expectation so the
// chain goes on. Text and JSON checks read the last assistant message; tool
// checks read every tool call of the transcript. Other scopes and options
// are reached through Check with an assert value.
type Expectation struct {
	t     *T
	tr    *evalkit.Transcript
	fatal bool
	ok    bool
}

// OK reports whether every check of the chain so far passed.
func (e *Expectation) OK() bool { return e.ok }

// Check runs any check, such as an assert value with non-default options:
//
//	et.Expect(tr).Check(assert.Contains{Patterns: []string{"refund"}, Scope: assert.Session})
//
// Any type with a Check method is a check, a user's own included; with a
// Describe method too (assert.Describer, as promptum's validator protocol)
// it says its criteria in the failure message:
//
//	type wordLimit struct{ max int }
//
//	func (w wordLimit) Describe() string { return fmt.Sprintf("at most %d words", w.max) }
//	func (w wordLimit) Check(ctx context.Context, tr *evalkit.Transcript) (assert.Result, error) { ... }
//
//	et.Expect(tr).Check(wordLimit{max: 50}) // Check(at most 50 words): 61 words
//
// The failure message names the check by its String method when it has
// one; a check of package assert as a composite literal of its set fields,
// as written: assert.Contains{Patterns: ["eur"]}; any other check by its
// Describe method, else as a composite literal.
func (e *Expectation) Check(c assert.Check) *Expectation {
	e.t.tb.Helper()
	label := textnorm.Excerpt("Check("+describe(c)+")", maxLabel)
	if c == nil {
		e.report(label, assert.CheckFunc(func(ctx context.Context, tr *evalkit.Transcript) (assert.Result, error) {
			return assert.Result{}, fmt.Errorf("nil check")
		}))
		return e
	}
	e.report(label, c)
	return e
}

// Eval runs the check registered under checkType (PromptKit's type names and
// aliases, or the T's own registry) with declarative params:
//
//	et.Expect(tr).Eval("tool_call_count", map[string]any{"tool": "search", "max": 3})
//
// Judged types (llm_judge, llm_judge_session, llm_judge_tool_calls, an
// assertion wrapping them) ask the T's judge (WithJudge). An unknown type or
// a bad parameter is reported as an error naming it.
func (e *Expectation) Eval(checkType string, params map[string]any) *Expectation {
	if ran := e.runEval(checkType, params); ran.shown {
		// Marked once it will report, not on entry, as in reportLazy:
		// runEval reports nothing, and Helper (a walk of the stack) cost
		// 5% of a chain of checks that mostly pass.
		e.t.tb.Helper()
		e.settle(call("Eval", checkType, params), ran.check, ran.res, ran.err, ran.step)
	}
	return e
}

// eval is Eval reported under label (a case file's eval names its line).
func (e *Expectation) eval(label, checkType string, params map[string]any) {
	if ran := e.runEval(checkType, params); ran.shown {
		e.t.tb.Helper() // see Eval
		e.settle(label, ran.check, ran.res, ran.err, ran.step)
	}
}

// evalRun is one registered check run by runEval, before it is reported.
type evalRun struct {
	check assert.Check
	step  *stepJudge
	res   assert.Result
	err   error
	shown bool // something shows the outcome: settle it (see reportLazy)
}

// runEval runs the check registered under checkType and reports nothing:
// its caller settles the outcome when shown is set, the label rendered only
// then. Nothing here reports, so its callers mark themselves helpers only
// on that path (anything a check logs is under assert's frames, which no
// Helper mark of ours skips).
func (e *Expectation) runEval(checkType string, params map[string]any) evalRun {
	step := e.t.stepJudge()
	reg := e.t.evalRegistry(step)
	c := assert.CheckFunc(func(ctx context.Context, tr *evalkit.Transcript) (assert.Result, error) {
		if reg != nil {
			return reg.Eval(ctx, checkType, tr, params)
		}
		return assert.Eval(ctx, checkType, tr, params)
	})
	res, err := runCheck(e.t.Context(), c, e.tr)
	shown := err != nil || !res.Passed || step.asked() || e.t.resultsWriter() != nil
	return evalRun{check: c, step: step, res: res, err: err, shown: shown}
}

// Contains checks that the last assistant message contains every pattern,
// ignoring case (assert.Contains).
func (e *Expectation) Contains(patterns ...string) *Expectation {
	e.t.tb.Helper()
	e.reportCall(assert.Contains{Patterns: patterns}, "Contains", strArgs(patterns)...)
	return e
}

// ContainsAny checks that some assistant message contains at least one of
// the patterns, ignoring case (assert.ContainsAny).
func (e *Expectation) ContainsAny(patterns ...string) *Expectation {
	e.t.tb.Helper()
	e.reportCall(assert.ContainsAny{Patterns: patterns}, "ContainsAny", strArgs(patterns)...)
	return e
}

// Excludes checks that no assistant message contains any of the patterns,
// ignoring case (assert.ContentExcludes).
func (e *Expectation) Excludes(patterns ...string) *Expectation {
	e.t.tb.Helper()
	e.reportCall(assert.ContentExcludes{Patterns: patterns}, "Excludes", strArgs(patterns)...)
	return e
}

// Regex checks that the last assistant message matches pattern, in Go RE2
// syntax (assert.Regex).
func (e *Expectation) Regex(pattern string) *Expectation {
	e.t.tb.Helper()
	e.reportCall(assert.Regex{Pattern: pattern}, "Regex", pattern)
	return e
}

// MinLength checks that the last assistant message has at least n
// characters (assert.MinLength).
func (e *Expectation) MinLength(n int) *Expectation {
	e.t.tb.Helper()
	e.reportCall(assert.MinLength{Min: n}, "MinLength", n)
	return e
}

// MaxLength checks that the last assistant message has at most n characters
// (assert.MaxLength).
func (e *Expectation) MaxLength(n int) *Expectation {
	e.t.tb.Helper()
	e.reportCall(assert.MaxLength{Max: n}, "MaxLength", n)
	return e
}

func strArgs(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// call renders a check as the Go call the user wrote: Contains("a", "b").
func call(name string, args ...any) string {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = goValue(a)
	}
	return textnorm.Excerpt(name+"("+strings.Join(parts, ", ")+")", maxLabel)
}

// maxLabel bounds the first line's call syntax, in bytes.
const maxLabel = 160

// goValue renders an argument compactly: strings quoted, whole floats with
// ".0" as Go source has them, maps and slices as JSON with sorted keys.
func goValue(v any) string {
	switch v := v.(type) {
	case rawLabel:
		return string(v)
	case lazyArg:
		return v()
	case nil:
		return "nil"
	case string:
		return strconv.Quote(v)
	case float64:
		if v == float64(int64(v)) && v < 1e15 && v > -1e15 {
			return strconv.FormatFloat(v, 'f', 1, 64)
		}
		return strconv.FormatFloat(v, 'g', -1, 64)
	case int, int64, int32, bool:
		return fmt.Sprint(v)
	case []string:
		return "[" + strings.Join(quoteAll(v), ", ") + "]"
	case assert.AnyOf:
		items := make([]string, len(v))
		for i, it := range v {
			items[i] = goValue(it)
		}
		return "assert.AnyOf{" + strings.Join(items, ", ") + "}"
	case map[string]any:
		if b, ok := appendPlainJSON(make([]byte, 0, 128), v, 0); ok {
			return string(b)
		}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // "<" reads as "<" in a failure message
	if err := enc.Encode(v); err != nil {
		return fmt.Sprintf("%v", v)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strconv.Quote(s)
	}
	return out
}

// JSONValid checks that the last assistant message is valid JSON
// (assert.JSONValid); use Check(assert.JSONValid{AllowWrapped: true}) for
// JSON in a markdown fence.
func (e *Expectation) JSONValid() *Expectation {
	e.t.tb.Helper()
	e.reportCall(assert.JSONValid{}, "JSONValid")
	return e
}

// JSONSchema checks the last assistant message's JSON against schema: a
// map, a JSON string or anything that marshals to a schema object
// (assert.JSONSchema, formats asserted).
func (e *Expectation) JSONSchema(schema any) *Expectation {
	e.t.tb.Helper()
	e.reportCall(assert.JSONSchema{Schema: schema}, "JSONSchema", lazyArg(func() string { return goValue(schemaLabel(schema)) }))
	return e
}

// JSONPath checks that the JMESPath expression, evaluated on the last
// assistant message's JSON, equals expected; numbers compare by value, so
// 42 and 42.0 are equal, and nil expects null (assert.JSONPath).
func (e *Expectation) JSONPath(expression string, expected any) *Expectation {
	e.t.tb.Helper()
	c := assert.JSONPath{Expression: expression, Expected: expected, ExpectNull: expected == nil}
	e.reportCall(c, "JSONPath", expression, expected)
	return e
}

// Equals checks that the last assistant message equals expected once both
// are canonicalized by the options' rules (assert.Equals, as MindTrial's
// value match and promptum's ExactMatch): a string is compared with the
// text; a number, boolean, object, array or nil with the message's JSON,
// numbers by value; assert.AnyOf{...} accepts any one of its values.
// Options: assert.CaseInsensitive, assert.Trim, assert.CollapseWhitespace,
// assert.TrimLines, assert.IgnoreZeroWidth, and assert.At(expression) to
// compare the value a JMESPath expression selects from the JSON. A failure
// reads:
//
//	Equals("Paris", Trim()): got "Lyon\n", want "Paris"
//	diff (-want +got):
//	  string(
//	- 	"Paris",
//	+ 	"Lyon",
//	  )
func (e *Expectation) Equals(expected any, opts ...assert.EqualsOption) *Expectation {
	e.t.tb.Helper()
	args := []any{expected}
	for _, o := range opts {
		args = append(args, rawLabel(o.String()))
	}
	e.reportCall(assert.EqualsCheck(expected, opts...), "Equals", args...)
	return e
}

// FieldPresence checks that the last assistant message's JSON has every
// field, each a JMESPath path such as "customer.email" (assert.FieldPresence).
func (e *Expectation) FieldPresence(fields ...string) *Expectation {
	e.t.tb.Helper()
	e.reportCall(assert.FieldPresence{Fields: fields}, "FieldPresence", strArgs(fields)...)
	return e
}

// ToolsCalled checks that each tool was called at least once anywhere in
// the transcript; a name listed twice must be called twice (assert.ToolsCalled).
func (e *Expectation) ToolsCalled(names ...string) *Expectation {
	e.t.tb.Helper()
	e.reportCall(assert.ToolsCalled{Tools: names}, "ToolsCalled", strArgs(names)...)
	return e
}

// ToolsNotCalled checks that none of the tools was called (assert.ToolsNotCalled).
func (e *Expectation) ToolsNotCalled(names ...string) *Expectation {
	e.t.tb.Helper()
	e.reportCall(assert.ToolsNotCalled{Tools: names}, "ToolsNotCalled", strArgs(names)...)
	return e
}

// ToolArgs checks that tool was called with arguments including args, by
// value: extra arguments are allowed, 5 equals 5.0, "5" does not equal 5
// (assert.ToolArgs).
func (e *Expectation) ToolArgs(tool string, args map[string]any) *Expectation {
	e.t.tb.Helper()
	e.reportCall(assert.ToolArgs{Tool: tool, Args: args}, "ToolArgs", tool, args)
	return e
}

// ToolCalls checks that each expected call was made with arguments
// including its Args, each matched to a different actual call, so two
// expected searches need two searches (assert.ToolArgs with Calls).
func (e *Expectation) ToolCalls(calls ...assert.ExpectedCall) *Expectation {
	e.t.tb.Helper()
	args := make([]any, len(calls))
	for i, c := range calls {
		args[i] = lazyArg(func() string {
			if len(c.Args) == 0 {
				return c.Tool + "({})"
			}
			return c.Tool + "(" + goValue(c.Args) + ")"
		})
	}
	e.reportCall(assert.ToolArgs{Calls: calls}, "ToolCalls", args...)
	return e
}

// ToolCallSequence checks that the tools were called in this order, other
// calls allowed in between (assert.ToolCallSequence).
func (e *Expectation) ToolCallSequence(names ...string) *Expectation {
	e.t.tb.Helper()
	e.reportCall(assert.ToolCallSequence{Sequence: names}, "ToolCallSequence", strArgs(names)...)
	return e
}

// ToolCallCount checks that tool was called exactly n times, or that n
// calls were made in all when tool is "" (assert.ToolCallCount).
func (e *Expectation) ToolCallCount(tool string, n int) *Expectation {
	e.t.tb.Helper()
	label := call("ToolCallCount", tool, n)
	if n < 0 {
		e.report(label, assert.CheckFunc(func(context.Context, *evalkit.Transcript) (assert.Result, error) {
			return assert.Result{}, fmt.Errorf("ToolCallCount: n is %d, want a count >= 0", n)
		}))
		return e
	}
	e.report(label, assert.ToolCallCount{Tool: tool, Min: &n, Max: &n})
	return e
}

// NoToolErrors checks that no tool call got an error result
// (assert.NoToolErrors).
func (e *Expectation) NoToolErrors() *Expectation {
	e.t.tb.Helper()
	e.reportCall(assert.NoToolErrors{}, "NoToolErrors")
	return e
}

// rawLabel is a label fragment written as is.
type rawLabel string

// lazyArg is a label fragment written as it returns, called only when the
// label is rendered (see reportCall).
type lazyArg func() string

// schemaLabel keeps a schema argument short in the first line.
func schemaLabel(schema any) any {
	if s, ok := schema.(string); ok {
		return rawLabel(textnorm.Excerpt(s, 40))
	}
	return rawLabel(textnorm.Excerpt(goValue(schema), 40))
}

// describe renders a check for a failure message: by its String method, or
// as a composite literal of its non-zero exported fields.
func describe(c any) string { return describeDepth(c, 0) }

// describeDepth is describe for a value depth structs deep, cut at a few
// levels so a cycle of pointers cannot recurse forever.
func describeDepth(c any, depth int) (desc string) {
	defer func() {
		if r := recover(); r != nil { // a String method on a nil receiver, say
			desc = fmt.Sprintf("%T", c)
		}
	}()
	if s, ok := c.(fmt.Stringer); ok {
		return s.String()
	}
	v := reflect.ValueOf(c)
	if !v.IsValid() {
		return "nil"
	}
	if ck, ok := c.(assert.Check); ok && !fromAssert(v.Type()) {
		if _, ok := c.(assert.Describer); ok {
			return assert.Describe(ck) // bounded; the type when it says nothing
		}
	}
	typ := fmt.Sprintf("%T", c)
	for v.Kind() == reflect.Pointer && !v.IsNil() {
		v = v.Elem()
	}
	if v.Kind() != reflect.Struct {
		return typ
	}
	var fields []string
	for i := 0; i < v.NumField(); i++ {
		f, fv := v.Type().Field(i), v.Field(i)
		if !f.IsExported() || fv.IsZero() {
			continue
		}
		if fv.Kind() == reflect.Pointer {
			fv = fv.Elem()
		}
		val := fv.Interface()
		if sc, ok := val.(assert.Scope); ok {
			fields = append(fields, f.Name+": assert."+scopeName(sc))
			continue
		}
		if fv.Kind() == reflect.Struct { // assert.Rules, assert.Passing: a literal too
			if depth == 3 {
				fields = append(fields, f.Name+": "+fmt.Sprintf("%T{…}", val))
				continue
			}
			fields = append(fields, f.Name+": "+describeDepth(val, depth+1))
			continue
		}
		fields = append(fields, f.Name+": "+goValue(val))
	}
	return strings.TrimPrefix(typ, "*") + "{" + strings.Join(fields, ", ") + "}"
}

// fromAssert reports whether t (or what it points to) is a type of package
// assert, whose checks read best as the literal the user wrote.
func fromAssert(t reflect.Type) bool {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.PkgPath() == reflect.TypeFor[assert.Scope]().PkgPath()
}

func scopeName(s assert.Scope) string {
	switch s {
	case assert.Turn:
		return "Turn"
	case assert.Session:
		return "Session"
	}
	return "DefaultScope"
}
