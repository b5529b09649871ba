package assert

// Budgets on a run's calls and the argument fields that must survive from
// call to call.

import (
	"context"
	"fmt"
	"math"
	"regexp"
	"strings"

	"github.com/evalkit-go/evalkit"
)

// ToolEfficiency passes when the calls of the scope stay within the bounds
// set: MaxCalls calls, MaxErrors error results, and an error rate (errors
// over results considered) of at most MaxErrorRate, in [0,1]. Errors are
// counted as NoToolErrors counts them, orphan error results included, with
// ErrorPattern marking matching results as errors; a call without a result
// is not an error. No calls have an error rate of 0.
//
// Score is the fraction of the bounds set that are met. The summary gives
// the counts; the failure names each bound passed:
//
//	16 calls, want at most 10; 3 errors, want at most 1
//
// Scope defaults to Session. Errors (*ParamError): no bound set, a
// negative bound, a rate outside [0,1], an invalid ErrorPattern.
//
// Registry type "tool_efficiency", params: max_calls, max_errors,
// max_error_rate, error_pattern, scope. As PromptKit's tool_efficiency.
type ToolEfficiency struct {
	MaxCalls     *int
	MaxErrors    *int
	MaxErrorRate *float64
	ErrorPattern string
	Scope        Scope
}

func buildToolEfficiency(p *params) (Check, error) {
	var c ToolEfficiency
	var err error
	if c.MaxCalls, err = optCount(p, "max_calls"); err != nil {
		return nil, err
	}
	if c.MaxErrors, err = optCount(p, "max_errors"); err != nil {
		return nil, err
	}
	if r, ok, err := p.num("max_error_rate"); err != nil {
		return nil, err
	} else if ok {
		c.MaxErrorRate = &r
	}
	if c.ErrorPattern, _, err = p.str(false, "error_pattern"); err != nil {
		return nil, err
	}
	c.Scope, err = p.scope()
	return c, err
}

func (c ToolEfficiency) validate() error {
	const check = "tool_efficiency"
	if c.MaxCalls == nil && c.MaxErrors == nil && c.MaxErrorRate == nil {
		return paramErr(check, "max_calls", "give max_calls, max_errors, max_error_rate or several: without a bound the check passes whatever was called")
	}
	if err := bounds(check, "max_calls", "max_calls", nil, c.MaxCalls); err != nil {
		return err
	}
	if err := bounds(check, "max_errors", "max_errors", nil, c.MaxErrors); err != nil {
		return err
	}
	if r := c.MaxErrorRate; r != nil && (math.IsNaN(*r) || *r < 0 || *r > 1) {
		return paramErr(check, "max_error_rate", "want a rate in [0,1], got %v", *r)
	}
	if c.ErrorPattern != "" {
		if _, err := compileRegex(check, "error_pattern", c.ErrorPattern); err != nil {
			return err
		}
	}
	return checkScope(check, c.Scope)
}

// Check implements Check.
func (c ToolEfficiency) Check(_ context.Context, tr *evalkit.Transcript) (Result, error) {
	const check = "tool_efficiency"
	if err := c.validate(); err != nil {
		return Result{}, err
	}
	sc, err := scopedCalls(check, tr, c.Scope)
	if err != nil {
		return Result{}, err
	}
	var errorText *regexp.Regexp
	if c.ErrorPattern != "" {
		errorText, _ = compileRegex(check, "error_pattern", c.ErrorPattern)
	}
	errs, results := 0, len(sc.calls)
	for _, call := range sc.calls {
		if call.Result != nil && isErrorResult(call.Result, errorText) {
			errs++
		}
	}
	for _, r := range sc.orphans() {
		results++
		if isErrorResult(&r, errorText) {
			errs++
		}
	}
	rate := ratio(errs, results)
	summary := fmt.Sprintf("%s, %s (error rate %.2f)", plural(len(sc.calls), "call"), plural(errs, "error"), rate)
	problems := bounded{max: maxProblems}
	set, met := 0, 0
	if c.MaxCalls != nil {
		set++
		if len(sc.calls) > *c.MaxCalls {
			problems.add("%s, want at most %d", plural(len(sc.calls), "call"), *c.MaxCalls)
		} else {
			met++
		}
	}
	if c.MaxErrors != nil {
		set++
		if errs > *c.MaxErrors {
			problems.add("%s, want at most %d", plural(errs, "error"), *c.MaxErrors)
		} else {
			met++
		}
	}
	if c.MaxErrorRate != nil {
		set++
		if rate > *c.MaxErrorRate {
			problems.add("error rate %.2f (%d of %d), want at most %.2f", rate, errs, results, *c.MaxErrorRate)
		} else {
			met++
		}
	}
	score := ratio(met, set)
	if problems.empty() {
		return pass(score, summary), nil
	}
	return fail(score, problems.join("; "), sc.withScope([]Detail{{"counted", summary}, calledDetail(sc.calls)})...), nil
}

// Describe implements Describer.
func (c ToolEfficiency) Describe() string {
	var parts []string
	if c.MaxCalls != nil {
		parts = append(parts, "at most "+plural(*c.MaxCalls, "call"))
	}
	if c.MaxErrors != nil {
		parts = append(parts, "at most "+plural(*c.MaxErrors, "error"))
	}
	if c.MaxErrorRate != nil {
		parts = append(parts, fmt.Sprintf("an error rate of at most %.2f", *c.MaxErrorRate))
	}
	return describeLine(fmt.Sprintf("the tools were used with %s%s", strings.Join(parts, ", "), callsScope(c.Scope)))
}

// InvariantFieldsPreserved passes when each of Fields, once present in the
// arguments of a call of Tool, is present in every later call of Tool: an
// agent that carried the order id through its first calls must not drop
// it. A field whose value is null counts as absent. With SameValue the
// value must also stay what it first was. Fields are argument paths as
// ExpectedCall's. A later call whose arguments cannot be read loses every
// field it should carry. Fewer than two calls of Tool pass: there is
// nothing to compare.
//
// Score is the fraction of Fields preserved. The failure names, for each
// field lost, the first call that lost it:
//
//	"order_id" lost at call 5 (present since call 2)
//
// Scope defaults to Session. Errors (*ParamError): no tool, no fields, an
// empty path, a name with whitespace, a near miss of a declared tool.
//
// Registry type "invariant_fields_preserved", params: tool, fields,
// same_value, scope. As PromptKit's invariant_fields_preserved; same_value
// is evalkit's.
type InvariantFieldsPreserved struct {
	Tool      string
	Fields    []string
	SameValue bool
	Scope     Scope
}

func buildInvariantFieldsPreserved(p *params) (Check, error) {
	var c InvariantFieldsPreserved
	var err error
	if c.Tool, _, err = p.str(true, "tool", "tool_name"); err != nil {
		return nil, err
	}
	if c.Fields, _, err = p.strs(true, "fields"); err != nil {
		return nil, err
	}
	if c.SameValue, _, err = p.boolean("same_value"); err != nil {
		return nil, err
	}
	c.Scope, err = p.scope()
	return c, err
}

func (c InvariantFieldsPreserved) validate() error {
	const check = "invariant_fields_preserved"
	switch problem := toolNameProblem(c.Tool); {
	case c.Tool == "":
		return paramErr(check, "tool", "required: want a tool name")
	case problem != "":
		return paramErr(check, "tool", "%s", problem)
	}
	if len(c.Fields) == 0 {
		return paramErr(check, "fields", "empty list: give at least one field")
	}
	for i, f := range c.Fields {
		if _, err := argPath(f); err != nil {
			return paramErr(check, "fields", "item %d: %v", i, err)
		}
	}
	return checkScope(check, c.Scope)
}

// Check implements Check.
func (c InvariantFieldsPreserved) Check(_ context.Context, tr *evalkit.Transcript) (Result, error) {
	const check = "invariant_fields_preserved"
	if err := c.validate(); err != nil {
		return Result{}, err
	}
	sc, err := scopedCalls(check, tr, c.Scope)
	if err != nil {
		return Result{}, err
	}
	if err := undeclared(check, tr, toolRef{"tool", []string{c.Tool}}); err != nil {
		return Result{}, err
	}
	ix := newCallIndex(sc.calls)
	calls := ix.byTool[c.Tool]
	if len(calls) < 2 {
		return pass(1, fmt.Sprintf("%s to %s: nothing to compare", plural(len(calls), "call"), shortName(c.Tool))), nil
	}
	lost := bounded{max: maxProblems}
	for _, f := range c.Fields {
		segs, _ := argPath(f) // validated above
		since, first := -1, ""
	scan:
		for _, i := range calls {
			d := ix.args(i)
			if err := conflictOf(check, d.err); err != nil {
				return Result{}, err
			}
			if d.err != nil {
				if since >= 0 {
					lost.add("%s lost at call %d, whose arguments cannot be read (present since call %d)", quoteName(f), i+1, since+1)
					break scan
				}
				continue
			}
			vals := presentValues(valuesAt(d.args, segs))
			switch {
			case len(vals) == 0 && since >= 0:
				lost.add("%s lost at call %d (present since call %d)", quoteName(f), i+1, since+1)
			case len(vals) == 0:
				continue
			case since < 0:
				since, first = i, canonicalText(vals)
				continue
			case c.SameValue && canonicalText(vals) != first:
				lost.add("%s changed at call %d: got %s, want %s (as at call %d)", quoteName(f), i+1, jsonValue(oneOrList(vals), 60), jsonValue(oneOrList(presentValues(valuesAt(ix.args(since).args, segs))), 60), since+1)
			default:
				continue
			}
			break scan
		}
	}
	n := lost.len()
	score := 1 - ratio(n, len(c.Fields))
	if n == 0 {
		return pass(score, fmt.Sprintf("%s preserved across %s to %s", plural(len(c.Fields), "field"), plural(len(calls), "call"), shortName(c.Tool))), nil
	}
	details := make([]Detail, 0, n)
	for _, l := range lost.list() {
		details = append(details, Detail{"lost", l})
	}
	return fail(score, fmt.Sprintf("%d of %s not preserved across %s to %s", n, plural(len(c.Fields), "field"), plural(len(calls), "call"), shortName(c.Tool)), sc.withScope(details)...), nil
}

// presentValues drops nulls.
func presentValues(vals []any) []any {
	out := vals[:0:0]
	for _, v := range vals {
		if v != nil {
			out = append(out, v)
		}
	}
	return out
}

func oneOrList(vals []any) any {
	if len(vals) == 1 {
		return vals[0]
	}
	return vals
}

func canonicalText(vals []any) string {
	var b strings.Builder
	canonicalValue(&b, vals)
	return b.String()
}

// Describe implements Describer.
func (c InvariantFieldsPreserved) Describe() string {
	how := "kept"
	if c.SameValue {
		how = "kept unchanged"
	}
	return describeLine(fmt.Sprintf("once set, %s %s in every later call to %s%s", quoteList(c.Fields), wasWere(len(c.Fields))+" "+how, quoteName(c.Tool), callsScope(c.Scope)))
}
