package assert

// Expected calls given as sets of acceptable values per parameter, as the
// Berkeley Function-Calling Leaderboard's possible answers give them.

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/evalkit-go/evalkit"
)

// Acceptable lists, per parameter, the values a call may pass: a call
// passes a parameter with one of its values, or leaves it out when Omitted
// is among them; a parameter not listed must not be passed. As a value in
// another Acceptable, it stands for an object whose keys follow the same
// rules (BFCL's nested possible answers).
type Acceptable map[string][]any

// omitted is Omitted's type.
type omitted struct{}

// Omitted, among a parameter's acceptable values, lets a call leave the
// parameter out (BFCL writes "").
var Omitted = omitted{}

// AcceptableCall is one call a ToolCallsAcceptable expects: its tool and
// its acceptable arguments.
type AcceptableCall struct {
	Tool string
	Args Acceptable
}

// ToolCallsAcceptable passes when the calls of the scope are the expected
// Calls, in any order, one call each, every argument one of its acceptable
// values: the parallel and multiple function calls of BFCL's AST checker.
// A call passes a parameter the expectation does not list: not acceptable
// ("unexpected parameter"); it leaves out one whose values do not include
// Omitted: not acceptable ("missing"). Values compare by value: numbers
// as numbers (5 is 5.0), lists item by item, objects key by key, nothing
// coerced ("5" is not 5). With NormalizeStrings, strings compare as BFCL
// standardizes them: in lower case, without spaces and , . / - _ * ^, '
// as ". With AllowOtherCalls, other calls may be made too; by default
// there must be as many calls as Calls.
//
// Score is the fraction of expected calls matched. The failure names each
// expected call without a call and why the closest call of its tool is
// not acceptable, and the calls left over:
//
//	matched 1 of 2 expected calls
//	unmatched: calculate_area: call 2: base: got 12, want one of 10
//	extra: call 3 get_weather is none of the expected calls
//
// Scope defaults to the last turn (BFCL judges one answer). Errors
// (*ParamError): no calls, an empty tool name, a parameter with no
// acceptable value, a value JSON cannot hold.
//
// Registry type "tool_calls_acceptable" (alias "bfcl_ast"), params:
// ground_truth (BFCL's [{tool: {param: [values]}}], "" among values for
// "may be omitted", objects of lists for nested possible answers),
// normalize_strings, allow_other_calls, scope.
type ToolCallsAcceptable struct {
	Calls            []AcceptableCall
	NormalizeStrings bool
	AllowOtherCalls  bool
	Scope            Scope
}

func buildToolCallsAcceptable(p *params) (Check, error) {
	var c ToolCallsAcceptable
	var err error
	if c.NormalizeStrings, _, err = p.boolean("normalize_strings"); err != nil {
		return nil, err
	}
	if c.AllowOtherCalls, _, err = p.boolean("allow_other_calls"); err != nil {
		return nil, err
	}
	if c.Scope, err = p.scope(); err != nil {
		return nil, err
	}
	v, ok, err := p.value("ground_truth")
	if err != nil {
		return nil, err
	}
	if err := p.finish(); err != nil {
		return nil, err
	}
	if !ok {
		return nil, p.err("ground_truth", "required: want BFCL's list of {tool: {param: [acceptable values]}}")
	}
	c.Calls, err = GroundTruth(v)
	if err != nil {
		return nil, p.err("ground_truth", "%v", err)
	}
	return c, nil
}

// GroundTruth reads BFCL's possible answers — a list of {tool: {param:
// [acceptable values]}}, as JSON decodes it — into expected calls: "" among
// a parameter's values is Omitted ("" as an item of a list value is the
// empty string), and an object whose every value is a list is a nested
// Acceptable. Errors name the entry at fault: a parameter with no
// acceptable value among them.
func GroundTruth(v any) ([]AcceptableCall, error) {
	norm, err := normalizeArgs(v)
	if err != nil {
		return nil, err
	}
	list, ok := norm.([]any)
	if !ok || len(list) == 0 {
		return nil, fmt.Errorf("want a non-empty list of {tool: {param: [values]}}, got %s", kindOf(v))
	}
	var out []AcceptableCall
	for i, entry := range list {
		m, ok := entry.(map[string]any)
		if !ok || len(m) != 1 {
			return nil, fmt.Errorf("entry %d: want one {tool: {param: [values]}}, got %s", i, kindOf(entry))
		}
		for tool, params := range m {
			pm, ok := params.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("entry %d (%s): want {param: [values]}, got %s", i, tool, kindOf(params))
			}
			args, err := groundTruthArgs(pm)
			if err != nil {
				return nil, fmt.Errorf("entry %d (%s): %v", i, tool, err)
			}
			out = append(out, AcceptableCall{Tool: tool, Args: args})
		}
	}
	return out, nil
}

func groundTruthArgs(pm map[string]any) (Acceptable, error) {
	out := make(Acceptable, len(pm))
	for _, k := range slices.Sorted(maps.Keys(pm)) {
		vals, ok := pm[k].([]any)
		if !ok {
			return nil, fmt.Errorf("%s: want a list of acceptable values, got %s", k, kindOf(pm[k]))
		}
		if len(vals) == 0 {
			return nil, fmt.Errorf("%s: no acceptable value (list \"\" when it may be omitted)", k)
		}
		for _, v := range vals {
			a, err := groundTruthValue(v, false)
			if err != nil {
				return nil, fmt.Errorf("%s: %v", k, err)
			}
			out[k] = append(out[k], a)
		}
	}
	return out, nil
}

// groundTruthValue reads one acceptable value: "" is Omitted, an object of
// lists a nested Acceptable, a list item by item. An item of a list is
// the value itself: "" there is the empty string, not Omitted.
func groundTruthValue(v any, item bool) (any, error) {
	switch v := v.(type) {
	case string:
		if v == "" && !item {
			return Omitted, nil
		}
	case map[string]any:
		nested := len(v) > 0
		for _, x := range v {
			if _, isList := x.([]any); !isList {
				nested = false
			}
		}
		if nested {
			return groundTruthArgs(v)
		}
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			var err error
			if out[i], err = groundTruthValue(x, true); err != nil {
				return nil, fmt.Errorf("item %d: %v", i, err)
			}
		}
		return out, nil
	}
	return v, nil
}

// normalizeAcceptable maps a Go acceptable value to the JSON shapes
// arguments decode into, keeping Omitted and nested Acceptables.
func normalizeAcceptable(v any) (any, error) {
	switch v := v.(type) {
	case omitted:
		return v, nil
	case Acceptable:
		out := make(Acceptable, len(v))
		for k, vals := range v {
			if len(vals) == 0 {
				return nil, fmt.Errorf("%s: no acceptable value", k)
			}
			for _, x := range vals {
				n, err := normalizeAcceptable(x)
				if err != nil {
					return nil, fmt.Errorf("%s: %v", k, err)
				}
				out[k] = append(out[k], n)
			}
		}
		return out, nil
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			n, err := normalizeAcceptable(x)
			if err != nil {
				return nil, err
			}
			out[i] = n
		}
		return out, nil
	}
	return normalizeArgs(v)
}

func (c ToolCallsAcceptable) expected() ([]AcceptableCall, error) {
	const check = "tool_calls_acceptable"
	if err := checkScope(check, c.Scope); err != nil {
		return nil, err
	}
	if len(c.Calls) == 0 {
		return nil, paramErr(check, "ground_truth", "empty: give at least one expected call")
	}
	out := make([]AcceptableCall, len(c.Calls))
	for i, ec := range c.Calls {
		if ec.Tool == "" {
			return nil, paramErr(check, "ground_truth", "entry %d: empty tool name", i)
		}
		args, err := normalizeAcceptable(ec.Args)
		if err != nil {
			return nil, paramErr(check, "ground_truth", "entry %d (%s): %v", i, ec.Tool, err)
		}
		if ec.Args == nil {
			args = Acceptable{}
		}
		out[i] = AcceptableCall{Tool: ec.Tool, Args: args.(Acceptable)}
	}
	return out, nil
}

func (c ToolCallsAcceptable) validate() error {
	_, err := c.expected()
	return err
}

// Check implements Check.
func (c ToolCallsAcceptable) Check(_ context.Context, tr *evalkit.Transcript) (Result, error) {
	const check = "tool_calls_acceptable"
	want, err := c.expected()
	if err != nil {
		return Result{}, err
	}
	sc, err := scopedCalls(check, tr, c.Scope.or(Turn))
	if err != nil {
		return Result{}, err
	}
	args := make([]map[string]any, len(sc.calls))
	argErr := make([]error, len(sc.calls))
	for i, call := range sc.calls {
		args[i], argErr[i] = decodeArgs(call)
	}
	accepts := func(e, i int) bool {
		return sc.calls[i].Name == want[e].Tool && argErr[i] == nil && c.argsProblem(want[e].Args, args[i]) == ""
	}
	owner := map[int]int{}
	assigned := make([]int, len(want))
	var try func(e int, seen map[int]bool) bool
	try = func(e int, seen map[int]bool) bool {
		for i := range sc.calls {
			if seen[i] || !accepts(e, i) {
				continue
			}
			seen[i] = true
			if o, taken := owner[i]; !taken || try(o, seen) {
				owner[i], assigned[e] = e, i
				return true
			}
		}
		return false
	}
	matched := 0
	for e := range want {
		assigned[e] = -1
		if try(e, map[int]bool{}) {
			matched++
		}
	}
	extra := 0
	for i := range sc.calls {
		if _, ok := owner[i]; !ok {
			extra++
		}
	}
	score := ratio(matched, len(want))
	if matched == len(want) && (extra == 0 || c.AllowOtherCalls) {
		return pass(score, fmt.Sprintf("the calls are the %s, each argument acceptable", plural(len(want), "expected call"))), nil
	}
	var details []Detail
	for e, w := range want {
		if assigned[e] >= 0 {
			continue
		}
		details = append(details, Detail{"unmatched", shortName(w.Tool) + ": " + c.closest(w, sc, args, argErr, owner)})
	}
	if !c.AllowOtherCalls {
		for i, call := range sc.calls {
			if _, ok := owner[i]; !ok {
				details = append(details, Detail{"extra", fmt.Sprintf("call %d %s is none of the expected calls", i+1, shortName(call.Name))})
			}
		}
	}
	if len(details) > maxProblems {
		details = append(details[:maxProblems], Detail{"more", fmt.Sprintf("… and %d more", len(details)-maxProblems)})
	}
	summary := fmt.Sprintf("matched %d of %s", matched, plural(len(want), "expected call"))
	if matched == len(want) {
		summary = fmt.Sprintf("%s beyond the %s", plural(extra, "call"), plural(len(want), "expected call"))
	}
	return fail(score, summary, sc.withScope(append(details, calledDetail(sc.calls)))...), nil
}

// closest says why no call meets w: no call of its tool, or the first
// call of its tool and what in it is not acceptable.
func (c ToolCallsAcceptable) closest(w AcceptableCall, sc toolScope, args []map[string]any, argErr []error, owner map[int]int) string {
	for _, free := range []bool{true, false} {
		for i, call := range sc.calls {
			if call.Name != w.Tool {
				continue
			}
			if _, taken := owner[i]; taken && free {
				continue
			}
			if argErr[i] != nil {
				return fmt.Sprintf("call %d: %v", i+1, argErr[i])
			}
			if why := c.argsProblem(w.Args, args[i]); why != "" {
				return fmt.Sprintf("call %d: %s", i+1, why)
			}
			return fmt.Sprintf("call %d is acceptable but another expected call took it", i+1)
		}
	}
	return "not called"
}

// argsProblem says why arguments are not acceptable, or "".
func (c ToolCallsAcceptable) argsProblem(want Acceptable, got map[string]any) string {
	for _, k := range slices.Sorted(maps.Keys(got)) {
		if _, ok := want[k]; !ok {
			return fmt.Sprintf("unexpected parameter %s", quoteName(k))
		}
	}
	for _, k := range slices.Sorted(maps.Keys(want)) {
		vals := want[k]
		g, present := got[k]
		if !present {
			if !slices.ContainsFunc(vals, func(v any) bool { _, o := v.(omitted); return o }) {
				return fmt.Sprintf("%s: missing, want one of %s", k, acceptableList(vals))
			}
			continue
		}
		if !slices.ContainsFunc(vals, func(v any) bool { return c.acceptable(v, g) }) {
			return fmt.Sprintf("%s: got %s, want one of %s", k, jsonValue(g, 60), acceptableList(vals))
		}
	}
	return ""
}

// acceptable reports whether got is the acceptable value want.
func (c ToolCallsAcceptable) acceptable(want, got any) bool {
	switch w := want.(type) {
	case omitted:
		return false
	case Acceptable:
		g, ok := got.(map[string]any)
		return ok && c.argsProblem(w, g) == ""
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok || len(g) != len(w) {
			return false
		}
		for k, wv := range w {
			gv, present := g[k]
			if !present || !c.acceptable(wv, gv) {
				return false
			}
		}
		return true
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return false
		}
		for i := range w {
			if !c.acceptable(w[i], g[i]) {
				return false
			}
		}
		return true
	case string:
		g, ok := got.(string)
		if !ok {
			return false
		}
		return g == w || (c.NormalizeStrings && bfclString(g) == bfclString(w))
	}
	return scalarEqual(want, got)
}

// bfclString standardizes a string as BFCL's AST checker does.
func bfclString(s string) string {
	s = strings.Map(func(r rune) rune {
		if strings.ContainsRune(" ,./-_*^", r) {
			return -1
		}
		return r
	}, s)
	return strings.ReplaceAll(strings.ToLower(s), "'", `"`)
}

func acceptableList(vals []any) string {
	parts := make([]string, 0, len(vals))
	for _, v := range vals {
		switch v := v.(type) {
		case omitted:
			parts = append(parts, "(omitted)")
		case Acceptable:
			data, _ := json.Marshal(map[string][]any(v))
			parts = append(parts, string(data))
		default:
			parts = append(parts, jsonValue(v, 60))
		}
	}
	return strings.Join(parts, ", ")
}

// Describe implements Describer.
func (c ToolCallsAcceptable) Describe() string {
	names := make([]string, len(c.Calls))
	for i, w := range c.Calls {
		names[i] = quoteName(w.Tool)
	}
	return describeLine(fmt.Sprintf("the calls are %s, in any order, each argument one of its acceptable values%s", strings.Join(names, ", "), callsScope(c.Scope.or(Turn))))
}
