package assert

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/evalkit-go/evalkit"
)

// The trajectory checks: expected calls with constraints on their
// arguments and results (tool_calls_with_args), chains of them in order
// (tool_call_chain), and the patterns a run's calls must not show
// (toolpatterns.go). They share tool_args' matcher (callspec.go,
// toolmatch.go): each expected call consumes a call of its own, numbers
// compare by value, and a failure names the expected call that found no
// partner with the closest call and a go-cmp diff of its arguments.

// addTrajectoryChecks registers the trajectory checks, their aliases and
// their "_session" variants on r. It keeps them in one place so the
// built-in table in NewRegistry stays a list of families.
func addTrajectoryChecks(r *Registry) {
	for name, build := range map[string]func(*params) (Check, error){
		"tool_call_chain":            buildToolCallChain,
		"tool_call_order":            buildToolCallOrder,
		"tool_calls_valid":           buildToolCallsValid,
		"tool_calls_acceptable":      buildToolCallsAcceptable,
		"tool_calls_with_args":       buildToolCallsWithArgs,
		"tool_args_excluded":         buildToolArgsExcluded,
		"tool_anti_pattern":          buildToolAntiPattern,
		"tool_no_repeat":             buildToolNoRepeat,
		"tool_efficiency":            buildToolEfficiency,
		"invariant_fields_preserved": buildInvariantFieldsPreserved,
		"tool_result_includes":       buildToolResultIncludes,
		"tool_result_matches":        buildToolResultMatches,
		"tool_result_has_media":      buildToolResultHasMedia,
		"tool_result_media_type":     buildToolResultMediaType,
		"tool_exec":                  buildToolExec,
	} {
		r.entries[name] = entry{build: build, target: name}
	}
	// PromptKit registers the excluded-arguments check under its session
	// name, with the old validator's name as an alias.
	excluded := r.entries["tool_args_excluded"]
	r.entries["tool_args_excluded_session"] = entry{build: excluded.build, target: "tool_args_excluded", scope: Session}
	r.entries["tools_not_called_with_args"] = entry{build: excluded.build, target: "tool_args_excluded", scope: Session}
	// promptfoo's is-valid-openai-tools-call, BFCL's AST checker.
	r.entries["is_valid_openai_tools_call"] = entry{build: buildToolCallsValid, target: "tool_calls_valid"}
	r.entries["bfcl_ast"] = entry{build: buildToolCallsAcceptable, target: "tool_calls_acceptable"}
}

// ToolCallChain passes when each of Steps was matched by a call of its own,
// in the order Order says (InOrder by default: the steps in the order
// listed, other calls allowed between them). A step is an ExpectedCall: a
// tool and what its call must show — arguments (a subset, or exactly),
// args_match patterns, and, on the call's result, result_includes,
// result_matches and no_error — so a chain states a dependency: look the
// order up and get its total, then refund that total without error.
//
// Unlike PromptKit's tool_call_chain, which judges the first call of each
// step's tool and fails the chain when that call falls short, a step here
// is met by any later call that meets it: an agent that retries a failed
// booking and succeeds meets "book_reservation, no_error" (add
// no_tool_errors to forbid the failure too). Score is the fraction of steps
// matched (in order, the length of the matched prefix).
//
// A failure names the first step without a call, and why: no call after
// the previous step's, or the closest call of its tool, what differs, got
// before want, and a go-cmp diff of its arguments:
//
//	matched 1 of 2 steps in order
//	unmatched: step 2 issue_refund {"amount":42}: issue_refund (call 3): amount: got 41.5, want 42
//	args: call 3: {"amount":41.5,"order_id":"#W123"}
//	called: get_order_details → issue_refund
//
// Scope defaults to Session. ErrorPattern marks results matching it as
// errors for no_error (see NoToolErrors); CaseSensitive makes
// result_includes case-sensitive (by default it ignores case, as
// PromptKit's).
//
// Errors (*ParamError, naming the step: steps[1].result_matches): no steps,
// a step without a tool or with a name that has whitespace, arguments JSON
// cannot hold, an invalid pattern (a result pattern that matches the empty
// string is one: it would match any result), an empty path or
// result_includes item, an unknown order, or, when the transcript declares
// its tools, a near miss of a declared tool (see ToolsNotCalled).
//
// Registry type "tool_call_chain", params: steps (a list of {tool (or
// tool_name), expected_args (or args), match ("subset" or "exact"),
// args_match, ignore_fields, result_includes, result_matches, no_error}),
// order ("subsequence", "any", "exact" or "before"), error_pattern,
// case_sensitive, scope. As PromptKit's tool_call_chain.
type ToolCallChain struct {
	Steps         []ExpectedCall
	Order         Order
	ErrorPattern  string
	CaseSensitive bool
	Scope         Scope
}

func buildToolCallChain(p *params) (Check, error) {
	var c ToolCallChain
	var err error
	if c.Order, err = p.order(); err != nil {
		return nil, err
	}
	if c.ErrorPattern, _, err = p.str(false, "error_pattern"); err != nil {
		return nil, err
	}
	if c.CaseSensitive, _, err = p.boolean("case_sensitive"); err != nil {
		return nil, err
	}
	if c.Scope, err = p.scope(); err != nil {
		return nil, err
	}
	list, ok, err := p.value("steps")
	if err != nil {
		return nil, err
	}
	if err := p.finish(); err != nil {
		return nil, err
	}
	if !ok {
		return nil, p.err("steps", "required: want a list of {tool, ...} steps")
	}
	c.Steps, err = readSpecs(p, "steps", list, "tool", "tool_name", "name")
	return c, err
}

func (c ToolCallChain) opts() wantOpts {
	return wantOpts{errorPattern: c.ErrorPattern, errParam: "error_pattern", caseSensitive: c.CaseSensitive}
}

func (c ToolCallChain) wants() ([]wantCall, error) {
	const check = "tool_call_chain"
	if err := checkScope(check, c.Scope); err != nil {
		return nil, err
	}
	if err := checkOrder(check, c.Order); err != nil {
		return nil, err
	}
	if len(c.Steps) == 0 {
		return nil, paramErr(check, "steps", "empty list: give at least one step")
	}
	return wantList(check, "steps[%d].", "tool", c.Steps, c.opts())
}

func (c ToolCallChain) validate() error {
	_, err := c.wants()
	return err
}

// Check implements Check.
func (c ToolCallChain) Check(_ context.Context, tr *evalkit.Transcript) (Result, error) {
	want, err := c.wants()
	if err != nil {
		return Result{}, err
	}
	return expectCalls("tool_call_chain", tr, c.Scope, want, c.Order.or(InOrder), "step")
}

// Describe implements Describer.
func (c ToolCallChain) Describe() string {
	steps := make([]string, len(c.Steps))
	for i, s := range c.Steps {
		steps[i] = describeWant(s)
	}
	return describeLine(fmt.Sprintf("the calls include the steps %s%s%s", strings.Join(steps, " → "), orderWords(c.Order.or(InOrder)), callsScope(c.Scope)))
}

func orderWords(o Order) string {
	switch o {
	case AnyOrder:
		return " (in any order)"
	case ExactOrder:
		return " (exactly these calls, in order)"
	case BeforeOrder:
		return " (in order, none before the step it follows)"
	}
	return " (in order, other calls between allowed)"
}

// ToolCallsWithArgs checks calls against an ExpectedCall's constraints on
// their arguments and results, in one of two forms.
//
// With Every (PromptKit's form), every call of Every.Tool in the scope —
// every call, when Every.Tool is "" — must meet Every: arguments that
// include Every.Args (or equal them, with ExactArgs), values matching
// ArgsMatch, and a result meeting ResultIncludes, ResultMatches and
// NoError. No such call fails ("was not called"): a check that judged no
// call proves nothing. Score is the fraction of those calls that meet it;
// the failure lists each call that does not (the first 10), with what
// differs, and a go-cmp diff of the first one's arguments:
//
//	2 of 3 calls to search fall short
//	call 1: query: got "refnd", want a match of "(?i)refund"
//
// With Calls, each expected call must be met by a call of its own, in the
// order Order says (AnyOrder by default; see ToolCallChain for the
// failure), so two expected searches need two searches.
//
// Values compare by value and exactly as tool_args compares them, nothing
// coerced ("5" is not 5, 5 is 5.0); PromptKit compares their text, and
// treats an expected null as "present with any value" (here it is null).
// Scope defaults to Session; ErrorPattern and CaseSensitive are
// ToolCallChain's.
//
// Errors (*ParamError): both or neither form; an Every that asks nothing of
// the calls (use tools_called); and the errors of ToolCallChain's steps.
//
// Registry type "tool_calls_with_args", params: tool_name, expected_args,
// match ("subset" or "exact"), args_match, ignore_fields, result_includes,
// result_matches, no_error; or calls (a list of such entries, each with a
// tool_name) with order ("any", "subsequence", "exact" or "before");
// error_pattern, case_sensitive, scope. As PromptKit's
// tool_calls_with_args; calls, order, match and ignore_fields are
// evalkit's.
type ToolCallsWithArgs struct {
	Every         ExpectedCall
	Calls         []ExpectedCall
	Order         Order
	ErrorPattern  string
	CaseSensitive bool
	Scope         Scope
}

func buildToolCallsWithArgs(p *params) (Check, error) {
	var c ToolCallsWithArgs
	var err error
	if c.Order, err = p.order(); err != nil {
		return nil, err
	}
	if c.ErrorPattern, _, err = p.str(false, "error_pattern"); err != nil {
		return nil, err
	}
	if c.CaseSensitive, _, err = p.boolean("case_sensitive"); err != nil {
		return nil, err
	}
	if c.Scope, err = p.scope(); err != nil {
		return nil, err
	}
	list, hasCalls, err := p.value("calls")
	if err != nil {
		return nil, err
	}
	c.Every, err = readSpec(p, false, "tool_name")
	if err != nil {
		return nil, err
	}
	if err := p.finish(); err != nil {
		return nil, err
	}
	if hasCalls {
		if !c.Every.isZero() {
			return nil, p.err("calls", "give either calls, or tool_name with its constraints at the top level, not both")
		}
		if c.Calls, err = readSpecs(p, "calls", list, "tool_name", "tool", "name"); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// isZero reports whether the call asks nothing at all.
func (ec ExpectedCall) isZero() bool {
	return ec.Tool == "" && !ec.asksSomething()
}

// asksSomething reports whether the call asks anything of a call beyond its
// tool.
func (ec ExpectedCall) asksSomething() bool {
	return len(ec.Args) > 0 || ec.ExactArgs || len(ec.ArgsMatch) > 0 || len(ec.ResultIncludes) > 0 || ec.ResultMatches != "" || ec.NoError
}

func (c ToolCallsWithArgs) opts() wantOpts {
	return wantOpts{errorPattern: c.ErrorPattern, errParam: "error_pattern", caseSensitive: c.CaseSensitive}
}

// wants validates the check: for Calls the expected calls, for Every one
// (whose tool may be "").
func (c ToolCallsWithArgs) wants() ([]wantCall, error) {
	const check = "tool_calls_with_args"
	if err := checkScope(check, c.Scope); err != nil {
		return nil, err
	}
	if err := checkOrder(check, c.Order); err != nil {
		return nil, err
	}
	switch {
	case len(c.Calls) > 0 && !c.Every.isZero():
		return nil, paramErr(check, "calls", "give either Every or Calls, not both")
	case len(c.Calls) > 0:
		return wantList(check, "calls[%d].", "tool_name", c.Calls, c.opts())
	case c.Order != DefaultOrder:
		return nil, paramErr(check, "order", "an order applies to calls: give calls, or leave order out")
	case !c.Every.asksSomething():
		return nil, paramErr(check, "expected_args", "nothing asked of the calls: give expected_args, args_match, result_includes, result_matches or no_error (to check only that a tool was called, use tools_called)")
	}
	ro := c.opts()
	ro.anyTool = true
	w, err := newWant(check, "", "tool_name", c.Every, ro)
	return []wantCall{w}, err
}

func (c ToolCallsWithArgs) validate() error {
	_, err := c.wants()
	return err
}

// Check implements Check.
func (c ToolCallsWithArgs) Check(_ context.Context, tr *evalkit.Transcript) (Result, error) {
	const check = "tool_calls_with_args"
	want, err := c.wants()
	if err != nil {
		return Result{}, err
	}
	if len(c.Calls) > 0 {
		return expectCalls(check, tr, c.Scope, want, c.Order.or(AnyOrder), "expected call")
	}
	w := want[0]
	sc, err := scopedCalls(check, tr, c.Scope)
	if err != nil {
		return Result{}, err
	}
	if w.tool != "" {
		if err := undeclared(check, tr, toolRef{"tool_name", []string{w.tool}}); err != nil {
			return Result{}, err
		}
	}
	ix := newCallIndex(sc.calls)
	considered := ix.byTool[w.tool]
	calls := func(n int) string { return plural(n, "call") + " to " + shortName(w.tool) }
	if w.tool == "" {
		considered = make([]int, len(sc.calls))
		for i := range considered {
			considered[i] = i
		}
		calls = func(n int) string { return plural(n, "tool call") }
	}
	if len(considered) == 0 {
		summary := fmt.Sprintf("%s was not called", quoteName(w.tool))
		if w.tool == "" {
			summary = "no tool calls"
		}
		return fail(0, summary, sc.withScope([]Detail{calledDetail(sc.calls)})...), nil
	}
	problems := bounded{max: maxProblems}
	var details []Detail
	var diff *lazyText
	short := 0
	for _, i := range considered {
		if err := conflictOf(check, ix.args(i).err); err != nil {
			return Result{}, err
		}
		n, first := w.callProblems(sc.calls[i], ix.args(i))
		if n == 0 {
			continue
		}
		short++
		problems.add("call %d: %s", i+1, first)
		if short == 1 {
			details = append(details, Detail{"args", fmt.Sprintf("call %d: %s", i+1, rawArgs(sc.calls[i].Args))})
			if d := ix.args(i); w.argsDiffer(d) {
				diff = deferText(func() string { return w.argsDiff(d) })
			}
		}
	}
	score := 1 - ratio(short, len(considered))
	if short == 0 {
		return pass(score, fmt.Sprintf("all %s meet it", calls(len(considered)))), nil
	}
	lines := make([]Detail, 0, problems.len()+len(details))
	for _, pr := range problems.list() {
		lines = append(lines, Detail{"short", pr})
	}
	res := fail(score, fmt.Sprintf("%d of %s %s short", short, calls(len(considered)), verb(short, "falls", "fall")), sc.withScope(append(lines, details...))...)
	res.lazyDiff = diff
	return res, nil
}

// Describe implements Describer.
func (c ToolCallsWithArgs) Describe() string {
	if len(c.Calls) > 0 {
		calls := make([]string, len(c.Calls))
		for i, e := range c.Calls {
			calls[i] = describeWant(e)
		}
		return describeLine(fmt.Sprintf("each of these calls was made, a call for each: %s%s%s", strings.Join(calls, "; "), orderWords(c.Order.or(AnyOrder)), callsScope(c.Scope)))
	}
	subject := "every tool call"
	if c.Every.Tool != "" {
		subject = "every call to " + quoteName(c.Every.Tool)
	}
	desc := strings.TrimPrefix(describeWant(c.Every), quoteName(c.Every.Tool))
	return describeLine(fmt.Sprintf("%s was made%s (and there is one)%s", subject, desc, callsScope(c.Scope)))
}

// wantList validates a list of expected calls, at naming each entry
// ("steps[%d].").
func wantList(check, at, toolParam string, calls []ExpectedCall, ro wantOpts) ([]wantCall, error) {
	want := make([]wantCall, len(calls))
	for i, ec := range calls {
		w, err := newWant(check, fmt.Sprintf(at, i), toolParam, ec, ro)
		if err != nil {
			return nil, err
		}
		want[i] = w
	}
	return want, nil
}

// readSpecs reads a list of expected calls (steps, calls); errors name the
// entry, as in steps[1].result_matches.
func readSpecs(p *params, param string, v any, toolNames ...string) ([]ExpectedCall, error) {
	norm, err := normalizeArgs(v) // YAML and Go-typed lists become []any of map[string]any
	items, ok := norm.([]any)
	switch {
	case err != nil || !ok:
		return nil, p.err(param, "want a list of {%s, ...}, got %s", toolNames[0], kindOf(v))
	case len(items) == 0:
		return nil, p.err(param, "empty list: give at least one entry")
	}
	out := make([]ExpectedCall, len(items))
	for i, it := range items {
		entry := fmt.Sprintf("%s[%d]", param, i)
		m, ok := it.(map[string]any)
		if !ok {
			return nil, p.err(entry, "want an object {%s, ...}, got %s", toolNames[0], kindOf(it))
		}
		sub := newParams(p.check, m)
		out[i], err = readSpec(sub, true, toolNames...)
		if err == nil {
			err = sub.finish()
		}
		if pe, ok := err.(*ParamError); ok {
			pe.Param = entry + "." + pe.Param
		}
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// readSpec reads one expected call's parameters.
func readSpec(p *params, toolRequired bool, toolNames ...string) (ExpectedCall, error) {
	var ec ExpectedCall
	var err error
	name, v, hasTool, err := p.lookup(toolNames...)
	if err != nil {
		return ec, err
	}
	if hasTool {
		s, isStr := v.(string)
		switch {
		case !isStr:
			return ec, p.err(name, "want a string, got %s", kindOf(v))
		case s == "" && !toolRequired:
			return ec, p.err(name, "empty: leave %s out to check every call", name)
		case s == "":
			return ec, p.err(name, "empty: want a tool name")
		}
		ec.Tool = s
	} else if toolRequired {
		if err := p.missing(toolNames...); err != nil {
			return ec, err
		}
		return ec, p.err(toolNames[0], "required: want a tool name")
	}
	if ec.Args, _, err = argsObject(p, false, "expected_args", "args"); err != nil {
		return ec, err
	}
	match, ok, err := p.str(false, "match")
	if err != nil {
		return ec, err
	}
	switch {
	case !ok, match == "subset":
	case match == "exact":
		ec.ExactArgs = true
	default:
		return ec, p.err("match", "want \"subset\" or \"exact\", got %q", match)
	}
	am, ok, err := p.object(false, "args_match")
	if err != nil {
		return ec, err
	}
	if ok {
		ec.ArgsMatch = make(map[string]string, len(am))
		for _, k := range slices.Sorted(maps.Keys(am)) { // the first bad one, always the same
			v := am[k]
			s, isStr := v.(string)
			if !isStr {
				return ec, p.err("args_match", "%q: want a pattern string, got %s", k, kindOf(v))
			}
			ec.ArgsMatch[k] = s
		}
	}
	if ec.IgnoreFields, _, err = p.strs(false, "ignore_fields"); err != nil {
		return ec, err
	}
	if ec.ResultIncludes, _, err = p.strs(false, "result_includes"); err != nil {
		return ec, err
	}
	rm, ok, err := p.str(false, "result_matches")
	if err != nil {
		return ec, err
	}
	if ok && rm == "" {
		return ec, p.err("result_matches", "empty: an empty pattern matches any result")
	}
	ec.ResultMatches = rm
	if ec.NoError, _, err = p.boolean("no_error"); err != nil {
		return ec, err
	}
	return ec, nil
}

// verb picks the verb form that agrees with a count: "1 of 2 calls falls
// short", "2 of 3 calls fall short".
func verb(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
