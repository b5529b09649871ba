package assert

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/evalkit-go/evalkit"
)

// The tool-call checks read the calls of a transcript, each linked to its
// result. Unlike the text checks, their default scope is Session, the whole
// transcript: PromptKit's tools_called reads the current turn because it runs
// while a conversation is in progress, while evalkit checks a finished
// transcript, where "was the refund issued" means anywhere in the run. Turn
// scope reads the calls of the last turn (Transcript.LastTurn); a transcript
// without an assistant message has no last turn and so no calls in it.
//
// No calls at all is a verdict, never an error: ToolsCalled fails and
// ToolsNotCalled passes. A nil transcript is an error wrapping ErrNoOutput.
// Failure details number calls from 1 in the order they were made within the
// check's scope: "call 3" is the third call the check read.
//
// Summaries, details and diffs stay short whatever the transcript or the
// parameters hold: lists stop after 10 or 20 items with "… and N more",
// and names, results and argument values are cut to a few hundred bytes
// with the length left out said.
//
// A tool check given a tool name it could never see is an error, not a
// verdict: an empty name, one with leading or trailing whitespace, and, when
// the transcript declares its tools, a near miss of a declared or called
// name that is itself neither, case ignored (a typo such as "issue_refnd"
// or "ISSUE_REFUND" would make tools_not_called pass forever). That last
// cross-check needs the transcript, so Check makes it, not Registry.Build.

func toolChecks() map[string]func(*params) (Check, error) {
	return map[string]func(*params) (Check, error){
		"tools_called":       buildToolsCalled,
		"tools_not_called":   buildToolsNotCalled,
		"tool_args":          buildToolArgs,
		"tool_call_sequence": buildToolCallSequence,
		"tool_call_count":    buildToolCallCount,
		"no_tool_errors":     buildNoToolErrors,
	}
}

// ToolsCalled passes when each of Tools was called at least MinCalls times
// and, when MaxCalls is set, at most MaxCalls times (bounds inclusive).
// MinCalls nil means 1, MaxCalls nil no upper bound (MinCalls and MaxCalls
// both 0 forbid the tools, as ToolsNotCalled does). Every call counts, whether its tool reported an error
// or not: PromptKit's tools_called counts only successful calls, which mixes
// "did the agent try" with "did the tool work"; compose with NoToolErrors to
// require both. With RequireArgs only calls whose arguments decode to a
// non-empty JSON object count (arguments cut off mid-JSON do not).
//
// Listing a name n times asks for n×MinCalls calls of it, so a repeat the
// agent should have made but did not is caught (the fix for matching calls by
// value, which counts a repeated call once); MaxCalls bounds each name's total.
//
// Score is the fraction of listed entries met (a name listed twice and called
// once scores 0.5); any tool over MaxCalls makes it 0, as in PromptKit.
// Scope defaults to Session. The failure says what is missing or over the
// bound and lists every call in the scope:
//
//	missing "issue_refund"
//	called: get_order_details ×1, get_user_details ×2
//
// MaxCalls 0 forbids the tools (MinCalls then defaults to 0), as
// PromptKit's max_calls: 0.
//
// Errors (*ParamError): no tool names, an empty name or one with leading or
// trailing whitespace, a negative bound, MinCalls (1 when nil, 0 with
// MaxCalls 0) above MaxCalls, MinCalls 0 without MaxCalls (it would check nothing), or, when
// the transcript declares its tools, a name that is a near miss of a declared tool
// (see ToolsNotCalled).
//
// Registry type "tools_called" (alias "tool_called"; "tools_called_session"
// fixes Session scope), params: tool_names (or tools), min_calls, max_calls,
// require_args, scope; PromptKit's ignore_validation is accepted when true
// (what this check always does) and an error when false. As PromptKit's
// tools_called.
type ToolsCalled struct {
	Tools       []string
	MinCalls    *int
	MaxCalls    *int
	RequireArgs bool
	Scope       Scope
}

func buildToolsCalled(p *params) (Check, error) {
	var c ToolsCalled
	var err error
	if c.Tools, _, err = p.strs(true, "tool_names", "tools"); err != nil {
		return nil, err
	}
	if c.MinCalls, err = optCount(p, "min_calls"); err != nil {
		return nil, err
	}
	if c.MaxCalls, err = optCount(p, "max_calls"); err != nil {
		return nil, err
	}
	if c.RequireArgs, _, err = p.boolean("require_args"); err != nil {
		return nil, err
	}
	// PromptKit's ignore_validation: true counts failed calls too, which is
	// what this check always does; false asks for successful calls only.
	if ignore, ok, err := p.boolean("ignore_validation"); err != nil {
		return nil, err
	} else if ok && !ignore {
		return nil, p.err("ignore_validation", "false is not supported: tools_called counts every call; add no_tool_errors to require that calls succeed")
	}
	c.Scope, err = p.scope()
	return c, err
}

func (c ToolsCalled) validate() error {
	const check = "tools_called"
	if err := toolNames(check, "tool_names", c.Tools, true); err != nil {
		return err
	}
	if err := bounds(check, "min_calls", "max_calls", c.MinCalls, c.MaxCalls); err != nil {
		return err
	}
	lo := c.minCalls()
	if lo == 0 && c.MaxCalls == nil {
		return paramErr(check, "min_calls", "0 without max_calls checks nothing: give max_calls, or use tools_not_called")
	}
	if c.MaxCalls != nil {
		for _, t := range countNames(c.Tools) {
			switch {
			case t.n*lo <= *c.MaxCalls:
			case t.n > 1:
				return paramErr(check, "max_calls", "%s is listed %d times, so it needs at least %d calls, more than max_calls %d", quoteName(t.name), t.n, t.n*lo, *c.MaxCalls)
			case c.MinCalls == nil:
				return paramErr(check, "max_calls", "%d is less than min_calls 1 (the default): give min_calls, or max_calls 0 to forbid the tools", *c.MaxCalls)
			}
		}
	}
	return checkScope(check, c.Scope)
}

func (c ToolsCalled) minCalls() int {
	if c.MinCalls == nil {
		if c.MaxCalls != nil && *c.MaxCalls == 0 {
			return 0 // max_calls 0 forbids, as PromptKit's
		}
		return 1
	}
	return *c.MinCalls
}

// Check implements Check.
func (c ToolsCalled) Check(_ context.Context, tr *evalkit.Transcript) (Result, error) {
	if err := c.validate(); err != nil {
		return Result{}, err
	}
	sc, err := scopedCalls("tools_called", tr, c.Scope)
	if err != nil {
		return Result{}, err
	}
	if err := undeclared("tools_called", tr, toolRef{"tool_names", c.Tools}); err != nil {
		return Result{}, err
	}
	counted, skipped := map[string]int{}, map[string]int{}
	for _, call := range sc.calls {
		if c.RequireArgs && !hasArgs(call) {
			skipped[call.Name]++
			continue
		}
		counted[call.Name]++
	}
	lo := c.minCalls()
	problems, notes, got := bounded{max: maxProblems}, bounded{max: maxProblems}, bounded{max: listLimit}
	met, over := 0, false
	for _, t := range countNames(c.Tools) {
		n, want := counted[t.name], t.n*lo
		got.addText(shortName(t.name) + " ×" + strconv.Itoa(n))
		switch {
		case c.MaxCalls != nil && n > *c.MaxCalls:
			over = true
			problems.add("%s called %s, want at most %d", quoteName(t.name), times(n), *c.MaxCalls)
		case n >= want:
			met += t.n
		case n == 0:
			problems.add("missing %s", quoteName(t.name))
		default:
			problems.add("%s called %s, want at least %d", quoteName(t.name), times(n), want)
			met += n / lo // lo > 0 here: with lo == 0, n >= want always holds
		}
		if skipped[t.name] > 0 {
			notes.add("%s: %s without arguments not counted (require_args)", quoteName(t.name), plural(skipped[t.name], "call"))
		}
	}
	score := ratio(met, len(c.Tools))
	if over {
		score = 0
	}
	if problems.empty() {
		return pass(score, "called "+got.join(", ")), nil
	}
	details := []Detail{calledDetail(sc.calls)}
	for _, n := range notes.list() {
		details = append(details, Detail{"note", n})
	}
	return fail(score, problems.join("; "), sc.withScope(details)...), nil
}

// ToolsNotCalled passes when none of Tools was called. Score is the fraction
// of the listed tools that were not called. Scope defaults to Session, so a
// forbidden call anywhere in the run fails it. The failure names each
// forbidden tool with its number of calls and lists every call in the scope.
//
// Unlike PromptKit's session variant, an empty list is an error
// (*ParamError), never a vacuous pass; so is an empty name, or one with
// leading or trailing whitespace (" issue_refund" matches no call, so the
// check could never fail). When the transcript declares its tools
// (Transcript.Tools), a name that is neither declared nor called anywhere in
// the transcript but is within a few edits of one that is, case ignored
// (so "ISSUE_REFUND" for "issue_refund"), is a typo, and Check returns a
// *ParamError with the nearest known name:
//
//	tools_not_called: param "tool_names": "issue_refnd" is not among the transcript's 16 tools and was never called (did you mean "issue_refund"?)
//
// A tool called without being declared is fine (models call tools that do
// not exist), and so is a name far from every known one (a guard against a
// tool the model must not invent); without declared tools there is no
// cross-check. The other
// tool checks cross-check the names they are given the same way.
//
// Registry type "tools_not_called" ("tools_not_called_session" fixes Session
// scope), params: tool_names (or tools), scope. As PromptKit's
// tools_not_called.
type ToolsNotCalled struct {
	Tools []string
	Scope Scope
}

func buildToolsNotCalled(p *params) (Check, error) {
	var c ToolsNotCalled
	var err error
	if c.Tools, _, err = p.strs(true, "tool_names", "tools"); err != nil {
		return nil, err
	}
	c.Scope, err = p.scope()
	return c, err
}

func (c ToolsNotCalled) validate() error {
	if err := toolNames("tools_not_called", "tool_names", c.Tools, true); err != nil {
		return err
	}
	return checkScope("tools_not_called", c.Scope)
}

// Check implements Check.
func (c ToolsNotCalled) Check(_ context.Context, tr *evalkit.Transcript) (Result, error) {
	if err := c.validate(); err != nil {
		return Result{}, err
	}
	sc, err := scopedCalls("tools_not_called", tr, c.Scope)
	if err != nil {
		return Result{}, err
	}
	if err := undeclared("tools_not_called", tr, toolRef{"tool_names", c.Tools}); err != nil {
		return Result{}, err
	}
	counts := callCounts(sc.calls)
	var names []string
	problems := bounded{max: maxProblems}
	for _, t := range countNames(c.Tools) {
		names = append(names, t.name)
		if n := counts[t.name]; n > 0 {
			problems.add("%s called %s, want none", quoteName(t.name), times(n))
		}
	}
	score := ratio(len(names)-problems.len(), len(names))
	if problems.empty() {
		return pass(score, fmt.Sprintf("none of %s called (%s in %s)", quoteList(names), plural(len(sc.calls), "call"), sc.label())), nil
	}
	return fail(score, problems.join("; "), sc.withScope([]Detail{calledDetail(sc.calls)})...), nil
}

// ToolCallCount passes when the number of calls to Tool — or of all calls
// when Tool is empty — is within Min and Max, both inclusive; either may be
// nil for no bound. Score is 1 within bounds; below Min it is count/Min and
// above Max it is Max/count (0 when Max is 0). Every call counts, errored or
// not. Scope defaults to Session.
//
// Errors (*ParamError): neither Min nor Max set, or only Min 0 (PromptKit
// passes such a check vacuously), a negative bound, Min above Max, a Tool
// with leading or trailing whitespace, or, when the transcript declares its
// tools, a Tool that is a near miss of a declared one (see ToolsNotCalled).
//
// Registry type "tool_call_count", params: tool, min, max, scope. As
// PromptKit's tool_call_count.
type ToolCallCount struct {
	Tool     string
	Min, Max *int
	Scope    Scope
}

func buildToolCallCount(p *params) (Check, error) {
	var c ToolCallCount
	var err error
	if c.Tool, _, err = p.str(false, "tool"); err != nil {
		return nil, err
	}
	if c.Min, err = optCount(p, "min"); err != nil {
		return nil, err
	}
	if c.Max, err = optCount(p, "max"); err != nil {
		return nil, err
	}
	c.Scope, err = p.scope()
	return c, err
}

func (c ToolCallCount) validate() error {
	const check = "tool_call_count"
	if c.Tool != "" {
		if problem := toolNameProblem(c.Tool); problem != "" {
			return paramErr(check, "tool", "%s", problem)
		}
	}
	if c.Min == nil && c.Max == nil {
		return paramErr(check, "min", "give min, max or both: without a bound the check passes whatever was called")
	}
	if err := bounds(check, "min", "max", c.Min, c.Max); err != nil {
		return err
	}
	if c.Max == nil && *c.Min == 0 {
		if c.Tool == "" {
			return paramErr(check, "min", "0 without max checks nothing: give max (max 0 forbids the calls)")
		}
		return paramErr(check, "min", "0 without max checks nothing: give max, or use tools_not_called")
	}
	return checkScope(check, c.Scope)
}

// Check implements Check.
func (c ToolCallCount) Check(_ context.Context, tr *evalkit.Transcript) (Result, error) {
	if err := c.validate(); err != nil {
		return Result{}, err
	}
	sc, err := scopedCalls("tool_call_count", tr, c.Scope)
	if err != nil {
		return Result{}, err
	}
	if c.Tool != "" {
		if err := undeclared("tool_call_count", tr, toolRef{"tool", []string{c.Tool}}); err != nil {
			return Result{}, err
		}
	}
	n := len(sc.calls)
	got := plural(n, "tool call")
	if c.Tool != "" {
		n = callCounts(sc.calls)[c.Tool]
		got = fmt.Sprintf("%s called %s", quoteName(c.Tool), times(n))
	}
	summary := got + ", want " + boundsText(c.Min, c.Max)
	score := 1.0
	switch {
	case c.Min != nil && n < *c.Min:
		score = ratio(n, *c.Min)
	case c.Max != nil && n > *c.Max:
		score = ratio(*c.Max, n)
	default:
		return pass(score, summary), nil
	}
	return fail(score, summary, sc.withScope([]Detail{calledDetail(sc.calls)})...), nil
}

// NoToolErrors passes when no tool result in the scope is an error: neither
// the result of a call nor an orphan result, a tool message that answers no
// call (a result before any call, one with an id no call carries, a second
// answer to a call: see Transcript.OrphanResults). An orphan is a sign of a
// cut or garbled transcript, and an error in it is still an error the agent
// saw. A result is an error when the transcript's format flags it
// (ToolResult.IsError: evalkit JSON's is_error, τ-bench records' "Error: "
// results) or, when ErrorPattern is set, when its content matches that RE2
// pattern. OpenAI Chat Completions messages carry no error flag, so for them
// the tool's own convention must be given, such as `^Error: ` for τ-bench
// runs stored as chat messages. A call without a result is not an error: the
// check judges what the tools answered, and a call cut off by the token
// limit, say, never reached its tool. No calls and no tool messages passes.
//
// Tools, when given, limits the check to calls of those tools and to orphan
// results whose tool message names one of them. An orphan without a name is
// always read, even under a filter: nothing shows it comes from a tool
// outside the filter, and failing closed beats ignoring an error.
//
// Score is 1 − errors/(calls + orphan results), over those considered (after
// the Tools filter; PromptKit divides by all calls). The failure lists each
// error, results of calls first, then orphans, at most 10, then how many
// more:
//
//	error: book_reservation (call 3): "Error: not enough seats"
//	error: orphan result (tool_call_id "call_9", answers no call): "Error: boom"
//
// Scope defaults to Session; Turn reads the last turn's calls and the last
// turn's tool messages that answer no call of that turn. An empty name in
// Tools, one with leading or trailing whitespace, one the transcript neither
// declares nor uses when it declares its tools (see ToolsNotCalled), or an
// ErrorPattern that is invalid or can match no text ("$x") is an error
// (*ParamError).
//
// Registry type "no_tool_errors", params: tools (or tool_names),
// error_pattern, scope. As PromptKit's no_tool_errors; error_pattern and the
// reading of orphan results are evalkit's.
type NoToolErrors struct {
	Tools        []string
	ErrorPattern string
	Scope        Scope
}

func buildNoToolErrors(p *params) (Check, error) {
	var c NoToolErrors
	var err error
	if c.Tools, _, err = p.strs(false, "tools", "tool_names"); err != nil {
		return nil, err
	}
	if c.ErrorPattern, _, err = p.str(false, "error_pattern"); err != nil {
		return nil, err
	}
	c.Scope, err = p.scope()
	return c, err
}

func (c NoToolErrors) validate() error {
	if err := toolNames("no_tool_errors", "tools", c.Tools, false); err != nil {
		return err
	}
	if c.ErrorPattern != "" {
		if _, err := compileRegex("no_tool_errors", "error_pattern", c.ErrorPattern); err != nil {
			return err
		}
		if err := matchable("no_tool_errors", "error_pattern", c.ErrorPattern); err != nil {
			return err
		}
	}
	return checkScope("no_tool_errors", c.Scope)
}

// Check implements Check.
func (c NoToolErrors) Check(_ context.Context, tr *evalkit.Transcript) (Result, error) {
	if err := c.validate(); err != nil {
		return Result{}, err
	}
	sc, err := scopedCalls("no_tool_errors", tr, c.Scope)
	if err != nil {
		return Result{}, err
	}
	if err := undeclared("no_tool_errors", tr, toolRef{"tools", c.Tools}); err != nil {
		return Result{}, err
	}
	only := map[string]bool{}
	for _, t := range c.Tools {
		only[t] = true
	}
	var errorText *regexp.Regexp
	if c.ErrorPattern != "" {
		errorText, _ = compileRegex("no_tool_errors", "error_pattern", c.ErrorPattern) // validated above
	}
	isError := func(r *evalkit.ToolResult) bool {
		return r.IsError || (errorText != nil && errorText.MatchString(r.Content))
	}
	const maxListed = 10
	var details []Detail
	considered, orphans, failed, noResult := 0, 0, 0, 0
	listError := func(text string) {
		failed++
		if failed <= maxListed {
			details = append(details, Detail{"error", text})
		}
	}
	for i, call := range sc.calls {
		if len(only) > 0 && !only[call.Name] {
			continue
		}
		considered++
		switch {
		case call.Result == nil:
			noResult++
		case isError(call.Result):
			listError(fmt.Sprintf("%s (call %d): %s", shortName(call.Name), i+1, excerpt(call.Result.Content)))
		}
	}
	for _, r := range sc.orphans() {
		if len(only) > 0 && r.Name != "" && !only[r.Name] {
			continue
		}
		orphans++
		if isError(&r) {
			listError(orphanLabel(r) + ": " + excerpt(r.Content))
		}
	}
	score := 1 - ratio(failed, considered+orphans)
	var parts []string
	if considered > 0 || orphans == 0 || len(only) > 0 {
		what := plural(considered, "tool call")
		if len(only) > 0 {
			what += " to " + quoteList(c.Tools)
		}
		parts = append(parts, what)
	}
	if orphans > 0 {
		parts = append(parts, plural(orphans, "orphan result"))
	}
	what := strings.Join(parts, " and ")
	if failed == 0 {
		summary := "no errors in " + what
		if noResult > 0 {
			summary += fmt.Sprintf(" (%d without a result)", noResult)
		}
		return pass(score, summary), nil
	}
	if failed > maxListed {
		details = append(details, Detail{"error", fmt.Sprintf("… and %d more", failed-maxListed)})
	}
	return fail(score, fmt.Sprintf("%d of %s failed", failed, what), sc.withScope(details)...), nil
}

// orphanLabel names a tool message that answers no call:
// `orphan result of search (tool_call_id "call_9", answers no call)`.
func orphanLabel(r evalkit.ToolResult) string {
	label := "orphan result"
	if r.Name != "" {
		label += " of " + shortName(r.Name)
	}
	id := "no tool_call_id"
	if r.CallID != "" {
		id = "tool_call_id " + quoteName(r.CallID)
	}
	return label + " (" + id + ", answers no call)"
}
