package assert

// Checks on the shape of a run's calls: arguments it must never pass,
// sequences it must never make, repeats, efficiency budgets, and argument
// fields that must survive from call to call.

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/evalkit-go/evalkit"
)

// ToolArgsExcluded passes when no call of Tool in the scope was made with
// an excluded argument value: the value Excluded gives for an argument
// path, or any of the values Forbidden lists for it. One excluded value is
// enough for a violation (the arguments are judged one by one, not as a
// combination). Values compare by value, exactly, nothing coerced: "5" is
// not 5, 5 is 5.0, an object equals only an object with the same keys and
// values. Paths are as ExpectedCall's ("payment.method"; a list on the way
// stands for each item). A call whose arguments cannot be read cannot be
// cleared, and fails the check. No call of Tool passes.
//
// Score is the fraction of Tool's calls without an excluded value. The
// failure lists each violation (the first 10), call by call:
//
//	call 3: payment_method_id: "credit_card_7815826", excluded
//
// Scope defaults to Session. Errors (*ParamError): no tool, no excluded
// values, an empty path, a value JSON cannot hold, a name with whitespace,
// or a near miss of a declared tool (see ToolsNotCalled).
//
// Registry type "tool_args_excluded" ("tool_args_excluded_session" and
// PromptKit's older name "tools_not_called_with_args" fix Session scope),
// params: tool_name (or tool), excluded_args ({path: value}),
// forbidden_args ({path: [values]}), scope. As PromptKit's
// tool_args_excluded_session.
type ToolArgsExcluded struct {
	Tool      string
	Excluded  map[string]any
	Forbidden map[string][]any
	Scope     Scope
}

func buildToolArgsExcluded(p *params) (Check, error) {
	var c ToolArgsExcluded
	var err error
	if c.Tool, _, err = p.str(true, "tool_name", "tool"); err != nil {
		return nil, err
	}
	if c.Excluded, _, err = argsObject(p, false, "excluded_args"); err != nil {
		return nil, err
	}
	forbidden, ok, err := argsObject(p, false, "forbidden_args")
	if err != nil {
		return nil, err
	}
	if ok {
		c.Forbidden = make(map[string][]any, len(forbidden))
		for k, v := range forbidden {
			if list, isList := v.([]any); isList {
				c.Forbidden[k] = list
			} else {
				c.Forbidden[k] = []any{v}
			}
		}
	}
	c.Scope, err = p.scope()
	return c, err
}

// excludedValue is one value an argument must not have.
type excludedValue struct {
	path  string
	segs  []string
	value any
}

func (c ToolArgsExcluded) values() ([]excludedValue, error) {
	const check = "tool_args_excluded"
	if err := checkScope(check, c.Scope); err != nil {
		return nil, err
	}
	switch problem := toolNameProblem(c.Tool); {
	case c.Tool == "":
		return nil, paramErr(check, "tool_name", "required: want a tool name")
	case problem != "":
		return nil, paramErr(check, "tool_name", "%s", problem)
	}
	var out []excludedValue
	add := func(param, path string, v any) error {
		segs, err := argPath(path)
		if err != nil {
			return paramErr(check, param, "%v", err)
		}
		norm, err := normalizeArgs(v)
		if err != nil {
			return paramErr(check, param, "%q: not representable as JSON: %v", path, err)
		}
		out = append(out, excludedValue{path: path, segs: segs, value: norm})
		return nil
	}
	for _, k := range slices.Sorted(maps.Keys(c.Excluded)) {
		if err := add("excluded_args", k, c.Excluded[k]); err != nil {
			return nil, err
		}
	}
	for _, k := range slices.Sorted(maps.Keys(c.Forbidden)) {
		if len(c.Forbidden[k]) == 0 {
			return nil, paramErr(check, "forbidden_args", "%q: empty list: give the values to forbid", k)
		}
		for _, v := range c.Forbidden[k] {
			if err := add("forbidden_args", k, v); err != nil {
				return nil, err
			}
		}
	}
	if len(out) == 0 {
		return nil, paramErr(check, "excluded_args", "required: give excluded_args or forbidden_args, with at least one value")
	}
	return out, nil
}

func (c ToolArgsExcluded) validate() error {
	_, err := c.values()
	return err
}

// Check implements Check.
func (c ToolArgsExcluded) Check(_ context.Context, tr *evalkit.Transcript) (Result, error) {
	const check = "tool_args_excluded"
	excluded, err := c.values()
	if err != nil {
		return Result{}, err
	}
	sc, err := scopedCalls(check, tr, c.Scope)
	if err != nil {
		return Result{}, err
	}
	if err := undeclared(check, tr, toolRef{"tool_name", []string{c.Tool}}); err != nil {
		return Result{}, err
	}
	ix := newCallIndex(sc.calls)
	calls := ix.byTool[c.Tool]
	if len(calls) == 0 {
		return pass(1, fmt.Sprintf("%s was not called", quoteName(c.Tool))), nil
	}
	problems := bounded{max: maxProblems}
	bad := 0
	for _, i := range calls {
		d := ix.args(i)
		if err := conflictOf(check, d.err); err != nil {
			return Result{}, err
		}
		if d.err != nil {
			bad++
			problems.add("call %d: %s, so no excluded value can be ruled out", i+1, strings.Replace(d.err.Error(), "arguments of "+c.Tool+" are", "arguments are", 1))
			continue
		}
		found := false
		for _, x := range excluded {
			for _, v := range valuesAt(d.args, x.segs) {
				if exactEqual(x.value, v) {
					found = true
					problems.add("call %d: %s: %s, excluded", i+1, x.path, jsonValue(v, 60))
					break
				}
			}
		}
		if found {
			bad++
		}
	}
	score := 1 - ratio(bad, len(calls))
	if bad == 0 {
		return pass(score, fmt.Sprintf("no excluded value in %s to %s", plural(len(calls), "call"), shortName(c.Tool))), nil
	}
	details := make([]Detail, 0, problems.len())
	for _, pr := range problems.list() {
		details = append(details, Detail{"excluded", pr})
	}
	return fail(score, fmt.Sprintf("%d of %s to %s used an excluded value", bad, plural(len(calls), "call"), shortName(c.Tool)), sc.withScope(details)...), nil
}

// Describe implements Describer.
func (c ToolArgsExcluded) Describe() string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(c.Excluded)) {
		parts = append(parts, k+" "+jsonValue(c.Excluded[k], 40))
	}
	for _, k := range slices.Sorted(maps.Keys(c.Forbidden)) {
		vals := make([]string, len(c.Forbidden[k]))
		for i, v := range c.Forbidden[k] {
			vals[i] = jsonValue(v, 40)
		}
		parts = append(parts, k+" "+strings.Join(vals, " or "))
	}
	return describeLine(fmt.Sprintf("%s was never called with %s%s", quoteName(c.Tool), strings.Join(parts, ", "), callsScope(c.Scope)))
}

// AntiPattern is a sequence of tool calls a run must not make.
type AntiPattern struct {
	// Sequence is the tools in order. By default other calls may come
	// between them (a subsequence, as PromptKit's); with Contiguous they
	// must follow one another.
	Sequence []string
	// Steps is the sequence with conditions on each call, instead of
	// Sequence: a tool and the arguments, patterns on them (ArgsMatch) or
	// result that make the call part of the pattern — "run_shell whose
	// command matches rm -rf", a refund above 500 after no lookup.
	Steps      []ExpectedCall
	Contiguous bool
	// Message says why the pattern is bad; failures show it.
	Message string
}

// ToolAntiPattern passes when the calls of the scope show none of Patterns.
// Score is the fraction of patterns not found. The failure names each
// pattern found, its message and the calls that form it (the earliest
// such calls):
//
//	pattern 1 book_reservation → book_reservation found at calls 4, 7: book once, then confirm
//
// Scope defaults to Session. Errors (*ParamError): no patterns, an empty
// sequence, an empty name or one with whitespace, a near miss of a
// declared tool (see ToolsNotCalled).
//
// Registry type "tool_anti_pattern", params: patterns (a list of
// {sequence, message, contiguous}), scope. As PromptKit's
// tool_anti_pattern; contiguous is evalkit's.
type ToolAntiPattern struct {
	Patterns []AntiPattern
	Scope    Scope
}

func buildToolAntiPattern(p *params) (Check, error) {
	var c ToolAntiPattern
	var err error
	list, ok, err := p.value("patterns")
	if err != nil {
		return nil, err
	}
	if c.Scope, err = p.scope(); err != nil {
		return nil, err
	}
	if err := p.finish(); err != nil {
		return nil, err
	}
	if !ok {
		return nil, p.err("patterns", "required: want a list of {sequence, message}")
	}
	norm, err := normalizeArgs(list)
	items, isList := norm.([]any)
	if err != nil || !isList {
		return nil, p.err("patterns", "want a list of {sequence, message}, got %s", kindOf(list))
	}
	for i, it := range items {
		entry := fmt.Sprintf("patterns[%d]", i)
		m, ok := it.(map[string]any)
		if !ok {
			return nil, p.err(entry, "want an object {sequence, message}, got %s", kindOf(it))
		}
		sub := newParams(p.check, m)
		var ap AntiPattern
		ap.Sequence, ap.Steps, err = patternSequence(sub)
		if err == nil {
			ap.Message, _, err = sub.str(false, "message")
		}
		if err == nil {
			ap.Contiguous, _, err = sub.boolean("contiguous")
		}
		if err == nil {
			err = sub.finish()
		}
		if pe, ok := err.(*ParamError); ok {
			pe.Param = entry + "." + pe.Param
		}
		if err != nil {
			return nil, err
		}
		c.Patterns = append(c.Patterns, ap)
	}
	return c, nil
}

// patternSequence reads a pattern's sequence: tool names, or steps with
// conditions (objects as tool_call_chain's steps), which may mix.
func patternSequence(p *params) ([]string, []ExpectedCall, error) {
	v, ok, err := p.value("sequence")
	if err != nil {
		return nil, nil, err
	}
	if !ok {
		return nil, nil, p.err("sequence", "required: want a list of tool names or {tool, args_match, ...} steps")
	}
	norm, err := normalizeArgs(v)
	items, isList := norm.([]any)
	if err != nil || !isList {
		return nil, nil, p.err("sequence", "want a list of tool names or steps, got %s", kindOf(v))
	}
	names := make([]string, 0, len(items))
	conditioned := false
	for _, it := range items {
		switch it := it.(type) {
		case string:
			names = append(names, it)
		case map[string]any:
			conditioned = true
		default:
			return nil, nil, p.err("sequence", "want tool names or {tool, ...} steps, got %s", kindOf(it))
		}
	}
	if !conditioned {
		return names, nil, nil
	}
	for i, it := range items {
		if name, isName := it.(string); isName {
			items[i] = map[string]any{"tool": name}
		}
	}
	steps, err := readSpecs(p, "sequence", items, "tool", "tool_name", "name")
	return nil, steps, err
}

// steps is the pattern as expected calls: its Steps, or its Sequence's
// tools with no condition.
func (ap AntiPattern) steps() []ExpectedCall {
	if len(ap.Steps) > 0 {
		return ap.Steps
	}
	out := make([]ExpectedCall, len(ap.Sequence))
	for i, name := range ap.Sequence {
		out[i] = ExpectedCall{Tool: name}
	}
	return out
}

func (ap AntiPattern) names() []string {
	out := make([]string, 0, len(ap.Sequence)+len(ap.Steps))
	out = append(out, ap.Sequence...)
	for _, s := range ap.Steps {
		out = append(out, s.Tool)
	}
	return out
}

func (c ToolAntiPattern) validate() error {
	_, err := c.wants()
	return err
}

// wants validates the patterns and returns each one's steps.
func (c ToolAntiPattern) wants() ([][]wantCall, error) {
	const check = "tool_anti_pattern"
	if len(c.Patterns) == 0 {
		return nil, paramErr(check, "patterns", "empty list: give at least one pattern")
	}
	out := make([][]wantCall, len(c.Patterns))
	for i, ap := range c.Patterns {
		at := fmt.Sprintf("patterns[%d].sequence", i)
		switch {
		case len(ap.Sequence) > 0 && len(ap.Steps) > 0:
			return nil, paramErr(check, at, "give Sequence or Steps, not both")
		case len(ap.Steps) == 0:
			if err := toolNames(check, at, ap.Sequence, true); err != nil {
				return nil, err
			}
		}
		w, err := wantList(check, at+"[%d].", "tool", ap.steps(), wantOpts{})
		if err != nil {
			return nil, err
		}
		out[i] = w
	}
	return out, checkScope(check, c.Scope)
}

// Check implements Check.
func (c ToolAntiPattern) Check(_ context.Context, tr *evalkit.Transcript) (Result, error) {
	const check = "tool_anti_pattern"
	wants, err := c.wants()
	if err != nil {
		return Result{}, err
	}
	sc, err := scopedCalls(check, tr, c.Scope)
	if err != nil {
		return Result{}, err
	}
	refs := make([]toolRef, len(c.Patterns))
	for i, ap := range c.Patterns {
		refs[i] = toolRef{fmt.Sprintf("patterns[%d].sequence", i), ap.names()}
	}
	if err := undeclared(check, tr, refs...); err != nil {
		return Result{}, err
	}
	ix := newCallIndex(sc.calls)
	found := bounded{max: maxProblems}
	for i, ap := range c.Patterns {
		at := findPattern(sc.calls, wants[i], ap.Contiguous, func(w wantCall, k int) bool { return w.meets(sc.calls[k], ix.args(k)) })
		if at == nil {
			continue
		}
		line := fmt.Sprintf("pattern %d %s found at calls %s", i+1, patternLabel(ap, wants[i]), callNumbers(at))
		if ap.Message != "" {
			line += ": " + ap.Message
		}
		found.add("%s", line)
	}
	n := found.len()
	score := 1 - ratio(n, len(c.Patterns))
	if n == 0 {
		return pass(score, fmt.Sprintf("none of %s found in %s", plural(len(c.Patterns), "anti-pattern"), plural(len(sc.calls), "call"))), nil
	}
	details := make([]Detail, 0, n+1)
	for _, f := range found.list() {
		details = append(details, Detail{"found", f})
	}
	return fail(score, fmt.Sprintf("found %d of %s", n, plural(len(c.Patterns), "anti-pattern")), sc.withScope(append(details, sequenceDetail(sc.calls)))...), nil
}

// findPattern returns the calls that form the steps, earliest first, or
// nil: one after another when contiguous, else a subsequence.
func findPattern(calls []evalkit.ToolCall, steps []wantCall, contiguous bool, meets func(wantCall, int) bool) []int {
	if contiguous {
		for i := 0; i+len(steps) <= len(calls); i++ {
			at := make([]int, 0, len(steps))
			for k, w := range steps {
				if !meets(w, i+k) {
					break
				}
				at = append(at, i+k)
			}
			if len(at) == len(steps) {
				return at
			}
		}
		return nil
	}
	at := make([]int, 0, len(steps))
	for i := range calls {
		if len(at) < len(steps) && meets(steps[len(at)], i) {
			at = append(at, i)
		}
	}
	if len(at) < len(steps) {
		return nil
	}
	return at
}

// patternLabel names a pattern in a failure: its tools, with each step's
// conditions when it has them.
func patternLabel(ap AntiPattern, steps []wantCall) string {
	if len(ap.Steps) == 0 {
		return arrowNames(ap.Sequence)
	}
	parts := make([]string, len(steps))
	for i, w := range steps {
		parts[i] = strings.TrimSpace(w.label())
	}
	return strings.Join(parts, " → ")
}

func arrowNames(names []string) string {
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = shortName(n)
	}
	return strings.Join(parts, " → ")
}

// Describe implements Describer.
func (c ToolAntiPattern) Describe() string {
	parts := make([]string, len(c.Patterns))
	for i, ap := range c.Patterns {
		parts[i] = arrowNames(ap.Sequence)
		if len(ap.Steps) > 0 {
			steps := make([]string, len(ap.Steps))
			for k, st := range ap.Steps {
				steps[k] = describeWant(st)
			}
			parts[i] = strings.Join(steps, " → ")
		}
		if ap.Contiguous {
			parts[i] += " (in a row)"
		}
	}
	return describeLine(fmt.Sprintf("the calls never show %s%s", strings.Join(parts, "; "), callsScope(c.Scope)))
}

// ToolNoRepeat passes when no call is repeated more than MaxRepeats times
// in a row (1 when 0: no call repeated). A repeat is a call of the same
// tool with the same arguments, compared by value (5 is 5.0, key order
// does not matter) with IgnoreFields left out: a search for a different
// query is not a repeat, the same search twice is. NameOnly counts calls of
// the same tool as repeats whatever their arguments (PromptKit's
// tool_no_repeat); Anywhere counts identical calls anywhere in the scope,
// not only in a row. Tools, when given, limits the check to those tools,
// and Calls to the calls that meet one of its expected calls (a tool with
// conditions on its arguments: "charge_card whose amount is over 100",
// "run_shell whose command matches rm"); calls of other tools still break
// a run. Arguments that cannot be read compare by their text.
//
// Score is the fraction of calls that are not excess repeats. The failure
// lists each repeat (the first 10):
//
//	search {"q":"refund"} called 3 times in a row (calls 2-4), want at most 1
//
// Scope defaults to Session. Errors (*ParamError): MaxRepeats below 0, an
// empty tool name or one with whitespace, an empty ignore path, a near
// miss of a declared tool.
//
// Registry type "tool_no_repeat", params: tools, max_repeats (default 1),
// same_args (default true; false is NameOnly), consecutive (default true;
// false is Anywhere), ignore_fields, calls (a list of {tool, expected_args,
// args_match, ...} as tool_call_chain's steps), scope. As PromptKit's
// tool_no_repeat, which counts a call of the same tool as a repeat
// whatever its arguments.
type ToolNoRepeat struct {
	Tools        []string
	Calls        []ExpectedCall
	MaxRepeats   int
	NameOnly     bool
	Anywhere     bool
	IgnoreFields []string
	Scope        Scope
}

func buildToolNoRepeat(p *params) (Check, error) {
	var c ToolNoRepeat
	var err error
	if c.Tools, _, err = p.strs(false, "tools", "tool_names"); err != nil {
		return nil, err
	}
	n, ok, err := p.count("max_repeats")
	if err != nil {
		return nil, err
	}
	if ok && n == 0 {
		return nil, p.err("max_repeats", "0 forbids every call: want 1 or more (1: no call repeated)")
	}
	c.MaxRepeats = n
	if same, ok, err := p.boolean("same_args"); err != nil {
		return nil, err
	} else if ok {
		c.NameOnly = !same
	}
	if consecutive, ok, err := p.boolean("consecutive"); err != nil {
		return nil, err
	} else if ok {
		c.Anywhere = !consecutive
	}
	if c.IgnoreFields, _, err = p.strs(false, "ignore_fields"); err != nil {
		return nil, err
	}
	if v, ok, err := p.value("calls"); err != nil {
		return nil, err
	} else if ok {
		if c.Calls, err = readSpecs(p, "calls", v, "tool", "tool_name", "name"); err != nil {
			return nil, err
		}
	}
	c.Scope, err = p.scope()
	return c, err
}

func (c ToolNoRepeat) validate() error {
	const check = "tool_no_repeat"
	if c.MaxRepeats < 0 {
		return paramErr(check, "max_repeats", "want a whole number >= 1, got %d", c.MaxRepeats)
	}
	if err := toolNames(check, "tools", c.Tools, false); err != nil {
		return err
	}
	if c.NameOnly && len(c.IgnoreFields) > 0 {
		return paramErr(check, "ignore_fields", "arguments are not compared when same_args is false")
	}
	for i, f := range c.IgnoreFields {
		if _, err := argPath(f); err != nil {
			return paramErr(check, "ignore_fields", "item %d: %v", i, err)
		}
	}
	if _, err := wantList(check, "calls[%d].", "tool", c.Calls, wantOpts{}); err != nil {
		return err
	}
	return checkScope(check, c.Scope)
}

// Check implements Check.
func (c ToolNoRepeat) Check(_ context.Context, tr *evalkit.Transcript) (Result, error) {
	const check = "tool_no_repeat"
	if err := c.validate(); err != nil {
		return Result{}, err
	}
	sc, err := scopedCalls(check, tr, c.Scope)
	if err != nil {
		return Result{}, err
	}
	if err := undeclared(check, tr, toolRef{"tools", c.Tools}); err != nil {
		return Result{}, err
	}
	limit := max(c.MaxRepeats, 1)
	var ignore [][]string
	for _, f := range c.IgnoreFields {
		segs, _ := argPath(f) // validated above
		ignore = append(ignore, segs)
	}
	only := map[string]bool{}
	for _, t := range c.Tools {
		only[t] = true
	}
	conds, _ := wantList(check, "calls[%d].", "tool", c.Calls, wantOpts{}) // validated above
	ix := newCallIndex(sc.calls)
	keys := make([]string, len(sc.calls))
	for i, call := range sc.calls {
		keys[i] = c.callKey(call, ignore)
	}
	counted := func(i int) bool {
		if len(only) > 0 && !only[sc.calls[i].Name] {
			return false
		}
		if len(conds) == 0 {
			return true
		}
		for _, w := range conds {
			if w.meets(sc.calls[i], ix.args(i)) {
				return true
			}
		}
		return false
	}
	repeats := bounded{max: maxProblems}
	excess := 0
	report := func(at []int) {
		excess += len(at) - limit
		how := "in a row (calls " + strconv.Itoa(at[0]+1) + "-" + strconv.Itoa(at[len(at)-1]+1) + ")"
		if c.Anywhere {
			how = "(calls " + callNumbers(at) + ")"
		}
		repeats.add("%s called %s %s, want at most %d", c.callLabel(sc.calls[at[0]]), times(len(at)), how, limit)
	}
	if c.Anywhere {
		groups := map[string][]int{}
		var order []string
		for i, k := range keys {
			if !counted(i) {
				continue
			}
			if _, seen := groups[k]; !seen {
				order = append(order, k)
			}
			groups[k] = append(groups[k], i)
		}
		for _, k := range order {
			if len(groups[k]) > limit {
				report(groups[k])
			}
		}
	} else {
		for i := 0; i < len(keys); {
			j := i + 1
			for j < len(keys) && keys[j] == keys[i] {
				j++
			}
			if j-i > limit && counted(i) {
				run := make([]int, 0, j-i)
				for k := i; k < j; k++ {
					run = append(run, k)
				}
				report(run)
			}
			i = j
		}
	}
	score := 1 - ratio(excess, len(sc.calls))
	what := "identical call"
	if c.NameOnly {
		what = "call of one tool"
	}
	if repeats.empty() {
		where := "in a row"
		if c.Anywhere {
			where = "in all"
		}
		how := "repeated"
		if limit > 1 {
			how = fmt.Sprintf("made more than %s %s", times(limit), where)
		} else if !c.Anywhere {
			how = "repeated in a row"
		}
		return pass(score, fmt.Sprintf("no %s %s (%s)", what, how, plural(len(sc.calls), "call"))), nil
	}
	details := make([]Detail, 0, repeats.len()+1)
	for _, r := range repeats.list() {
		details = append(details, Detail{"repeat", r})
	}
	return fail(score, fmt.Sprintf("%s repeated", plural(repeats.len(), "call")), sc.withScope(append(details, sequenceDetail(sc.calls)))...), nil
}

// callKey identifies a call for repeats: its tool, and unless NameOnly its
// arguments in canonical form.
func (c ToolNoRepeat) callKey(call evalkit.ToolCall, ignore [][]string) string {
	if c.NameOnly {
		return call.Name
	}
	args, err := decodeArgs(call)
	if err != nil {
		return call.Name + "\x00raw:" + string(call.Args)
	}
	var b strings.Builder
	b.WriteString(call.Name)
	b.WriteByte(0)
	canonicalValue(&b, stripPaths(args, ignore))
	return b.String()
}

func (c ToolNoRepeat) callLabel(call evalkit.ToolCall) string {
	if c.NameOnly {
		return shortName(call.Name)
	}
	return shortName(call.Name) + " " + rawArgs(call.Args)
}

// canonicalValue writes a JSON-shaped value so that values equal by value
// (numbers by scalarKeyOf, keys in any order) write the same.
func canonicalValue(b *strings.Builder, v any) {
	switch v := v.(type) {
	case map[string]any:
		b.WriteByte('{')
		for i, k := range slices.Sorted(maps.Keys(v)) {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(strconv.Quote(k))
			b.WriteByte(':')
			canonicalValue(b, v[k])
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			canonicalValue(b, e)
		}
		b.WriteByte(']')
	default:
		if k, ok := scalarKeyOf(v); ok {
			b.WriteByte(k.kind)
			b.WriteString(strconv.Quote(k.s))
			return
		}
		fmt.Fprintf(b, "?%v", v)
	}
}

// Describe implements Describer.
func (c ToolNoRepeat) Describe() string {
	what := "identical call (same tool and arguments)"
	if c.NameOnly {
		what = "call of the same tool"
	}
	where := "in a row"
	if c.Anywhere {
		where = "in all"
	}
	which := ""
	if len(c.Tools) > 0 {
		which = " of " + joinQuoted(c.Tools, "or")
	}
	if len(c.Calls) > 0 {
		calls := make([]string, len(c.Calls))
		for i, w := range c.Calls {
			calls[i] = describeWant(w)
		}
		which += " among calls of " + strings.Join(calls, " or ")
	}
	how := fmt.Sprintf("made more than %s %s", times(max(c.MaxRepeats, 1)), where)
	if c.MaxRepeats <= 1 {
		how = "repeated " + where
		if c.Anywhere {
			how = "made twice"
		}
	}
	return describeLine(fmt.Sprintf("no %s%s is %s%s", what, which, how, callsScope(c.Scope)))
}
