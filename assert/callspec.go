package assert

// Expected calls with constraints beyond a subset of arguments — exact
// arguments, ignored fields, patterns on arguments, constraints on the
// result — and the orders in which a list of them may be matched. One
// implementation for tool_args, tool_calls_with_args and tool_call_chain:
// the candidates of each expected call come from callIndex.matches, the
// assignment from matchCalls (any order) or matchOrdered (the others).

import (
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/evalkit-go/evalkit"
)

// Order says how a list of expected calls must line up with the calls made.
// Whatever the order, each expected call consumes a call of its own: two
// expected searches need two searches.
type Order int

const (
	// DefaultOrder (the zero value) lets each check use its own default,
	// documented on the check.
	DefaultOrder Order = iota
	// AnyOrder matches each expected call to a distinct call, in any order
	// (a maximum bipartite matching, so an assignment is found whenever one
	// exists). Registry value "any".
	AnyOrder
	// InOrder matches the expected calls in the order listed, other calls
	// allowed before, between and after them: an ordered subsequence of the
	// calls. Registry value "subsequence" (or "in_order").
	InOrder
	// ExactOrder requires the calls of the scope to be exactly the expected
	// calls, one for one, in order, with no other call. Registry value
	// "exact".
	ExactOrder
	// BeforeOrder is InOrder, and also no call that would match an
	// expected call comes before the call matched to an earlier expected
	// call: with [get_order_details, issue_refund], a refund before the
	// first lookup fails even if a later lookup and refund follow ("A
	// before B": B never happens until A has). Registry value "before".
	BeforeOrder
)

// String returns the registry value: "any", "subsequence", "exact",
// "before" or "default".
func (o Order) String() string {
	switch o {
	case DefaultOrder:
		return "default"
	case AnyOrder:
		return "any"
	case InOrder:
		return "subsequence"
	case ExactOrder:
		return "exact"
	case BeforeOrder:
		return "before"
	}
	return fmt.Sprintf("Order(%d)", int(o))
}

func (o Order) or(def Order) Order {
	if o == DefaultOrder {
		return def
	}
	return o
}

func checkOrder(check string, o Order) error {
	if o < DefaultOrder || o > BeforeOrder {
		return paramErr(check, "order", "want AnyOrder, InOrder, ExactOrder or BeforeOrder, got %v", o)
	}
	return nil
}

// order reads the optional "order" parameter.
func (p *params) order() (Order, error) {
	s, ok, err := p.str(false, "order")
	if err != nil || !ok {
		return DefaultOrder, err
	}
	switch s {
	case "any":
		return AnyOrder, nil
	case "subsequence", "in_order":
		return InOrder, nil
	case "exact":
		return ExactOrder, nil
	case "before":
		return BeforeOrder, nil
	}
	return DefaultOrder, p.err("order", "want \"any\", \"subsequence\", \"exact\" or \"before\", got %q", s)
}

// wantOpts are a check's settings for its expected calls.
type wantOpts struct {
	// anyTool lets an expected call leave its tool out: it then stands for
	// a call of any tool (tool_calls_with_args without tool_name).
	anyTool bool
	// errorPattern marks results matching it as errors too (see
	// NoToolErrors.ErrorPattern).
	errorPattern string
	// caseSensitive makes result_includes case-sensitive.
	caseSensitive bool
	// errParam names the parameter errorPattern came from.
	errParam string
}

// argPattern is one args_match entry: the argument at path must match re.
type argPattern struct {
	path    string
	segs    []string
	pattern string
	re      *regexp.Regexp
}

// resultWant holds an expected call's constraints on its result.
type resultWant struct {
	includes  []string
	match     matcher
	matches   *regexp.Regexp
	pattern   string
	noError   bool
	errorText *regexp.Regexp
}

// isError reports whether a result is an error: flagged by its format, or
// matching the check's error pattern.
func isErrorResult(r *evalkit.ToolResult, errorText *regexp.Regexp) bool {
	return r.IsError || (errorText != nil && errorText.MatchString(r.Content))
}

// newWant validates an ExpectedCall and normalizes it for matching. at
// prefixes its parameters in errors ("steps[2]."), toolParam names the
// tool's parameter ("tool_name" or "tool").
func newWant(check, at, toolParam string, ec ExpectedCall, ro wantOpts) (wantCall, error) {
	switch problem := toolNameProblem(ec.Tool); {
	case ec.Tool == "" && ro.anyTool:
	case ec.Tool == "":
		return wantCall{}, paramErr(check, at+toolParam, "empty: want a tool name")
	case problem != "":
		return wantCall{}, paramErr(check, at+toolParam, "%s", problem)
	}
	w := wantCall{tool: ec.Tool, param: at + toolParam, args: map[string]any{}, exact: ec.ExactArgs}
	for i, f := range ec.IgnoreFields {
		segs, err := argPath(f)
		if err != nil {
			return wantCall{}, paramErr(check, at+"ignore_fields", "item %d: %v", i, err)
		}
		w.ignore = append(w.ignore, segs)
	}
	if len(ec.Args) > 0 {
		norm, err := normalizeArgs(ec.Args)
		if err != nil {
			return wantCall{}, paramErr(check, at+"expected_args", "not representable as JSON: %v", err)
		}
		w.args = stripPaths(norm, w.ignore).(map[string]any) // a non-empty map encodes as an object
	}
	for _, k := range slices.Sorted(maps.Keys(ec.ArgsMatch)) {
		segs, err := argPath(k)
		if err != nil {
			return wantCall{}, paramErr(check, at+"args_match", "key %q: %v", k, err)
		}
		pat := ec.ArgsMatch[k]
		if pat == "" {
			return wantCall{}, paramErr(check, at+"args_match", "%q: empty pattern: it matches any value", k)
		}
		re, err := compileRegex(check, at+"args_match", pat)
		if err != nil {
			pe := err.(*ParamError)
			pe.Msg = fmt.Sprintf("%q: %s", k, pe.Msg)
			return wantCall{}, pe
		}
		w.argsMatch = append(w.argsMatch, argPattern{path: k, segs: segs, pattern: pat, re: re})
	}
	var errorText *regexp.Regexp
	if ro.errorPattern != "" {
		re, err := compileRegex(check, ro.errParam, ro.errorPattern)
		if err != nil {
			return wantCall{}, err
		}
		errorText = re
	}
	if len(ec.ResultIncludes) > 0 || ec.ResultMatches != "" || ec.NoError {
		r := &resultWant{noError: ec.NoError, errorText: errorText, pattern: ec.ResultMatches}
		for i, s := range ec.ResultIncludes {
			if s == "" {
				return wantCall{}, paramErr(check, at+"result_includes", "item %d is empty: an empty pattern matches any text", i)
			}
		}
		if len(ec.ResultIncludes) > 0 {
			r.includes = ec.ResultIncludes
			r.match = newMatcher(ec.ResultIncludes, ro.caseSensitive)
		}
		if ec.ResultMatches != "" {
			re, err := compileRegex(check, at+"result_matches", ec.ResultMatches)
			if err != nil {
				return wantCall{}, err
			}
			if canMatchEmpty(ec.ResultMatches) {
				return wantCall{}, paramErr(check, at+"result_matches", "%q can match an empty string, so it matches any result: require at least one character", ec.ResultMatches)
			}
			r.matches = re
		}
		w.result = r
	}
	return w, nil
}

// canonicalKey identifies what an expected call accepts: identical expected
// calls share one candidate list.
func (w wantCall) canonicalKey() string {
	canon, _ := json.Marshal(w.args) // cannot fail: w.args came from JSON; keys sorted
	var b strings.Builder
	b.WriteString(w.tool)
	b.WriteByte(0)
	b.Write(canon)
	if w.exact {
		b.WriteString("\x00exact")
	}
	for _, p := range w.ignore {
		b.WriteString("\x00ignore:" + strings.Join(p, "\x01"))
	}
	for _, p := range w.argsMatch {
		b.WriteString("\x00match:" + p.path + "\x01" + p.pattern)
	}
	if r := w.result; r != nil {
		fmt.Fprintf(&b, "\x00result:%q %q %v %v %p", r.includes, r.pattern, r.noError, r.match.fold, r.errorText)
	}
	return b.String()
}

// argPath splits an argument path: "order_id", "payment.method",
// "passengers.dob" (a list on the way stands for each of its items).
func argPath(path string) ([]string, error) {
	if path == "" {
		return nil, fmt.Errorf("empty path")
	}
	segs := strings.Split(path, ".")
	for _, s := range segs {
		if s == "" {
			return nil, fmt.Errorf("%q has an empty segment: write paths as a.b.c", path)
		}
	}
	return segs, nil
}

// valuesAt returns the values at path in v: through objects by key, through
// lists item by item. A missing key yields nothing.
func valuesAt(v any, segs []string) []any {
	if len(segs) == 0 {
		return []any{v}
	}
	switch v := v.(type) {
	case map[string]any:
		if e, ok := v[segs[0]]; ok {
			return valuesAt(e, segs[1:])
		}
	case []any:
		var out []any
		for _, e := range v {
			out = append(out, valuesAt(e, segs)...)
		}
		return out
	}
	return nil
}

// stripPaths returns v without the fields at paths (copying only what it
// changes); a list on the way has the field removed from each item.
func stripPaths(v any, paths [][]string) any {
	for _, p := range paths {
		v = stripPath(v, p)
	}
	return v
}

func stripPath(v any, segs []string) any {
	switch v := v.(type) {
	case map[string]any:
		e, ok := v[segs[0]]
		if !ok {
			return v
		}
		out := maps.Clone(v)
		if len(segs) == 1 {
			delete(out, segs[0])
		} else {
			out[segs[0]] = stripPath(e, segs[1:])
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = stripPath(e, segs)
		}
		return out
	}
	return v
}

// exactEqual reports whether got equals want: objects with the same keys,
// lists item by item, scalars by scalarEqual (numbers by value).
func exactEqual(want, got any) bool {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok || len(g) != len(w) {
			return false
		}
		for k, wv := range w {
			gv, present := g[k]
			if !present || !exactEqual(wv, gv) {
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
			if !exactEqual(w[i], g[i]) {
				return false
			}
		}
		return true
	}
	return scalarEqual(want, got)
}

// argText is an argument value as args_match reads it: a string as it is,
// anything else as compact JSON (numbers as the model wrote them).
func argText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	if n, ok := v.(json.Number); ok {
		return string(n)
	}
	return jsonValue(v, 1<<20)
}

// accepts reports whether call i (its arguments decoded as d) meets w.
func (w wantCall) accepts(call evalkit.ToolCall, d decodedArgs) bool {
	if d.err != nil {
		return false
	}
	if w.exact {
		if !exactEqual(w.args, stripPaths(d.args, w.ignore)) {
			return false
		}
	} else if !subset(w.args, d.args) {
		return false
	}
	for _, p := range w.argsMatch {
		if !patternHolds(p, d.args) {
			return false
		}
	}
	return w.result.problem(call.Result) == ""
}

func patternHolds(p argPattern, args map[string]any) bool {
	vals := valuesAt(args, p.segs)
	if len(vals) == 0 {
		return false
	}
	for _, v := range vals {
		if v == nil || !p.re.MatchString(argText(v)) {
			return false
		}
	}
	return true
}

// patternProblem says why an args_match entry fails, or "".
func patternProblem(p argPattern, args map[string]any) string {
	vals := valuesAt(args, p.segs)
	if len(vals) == 0 {
		return fmt.Sprintf("%s: missing, want a match of %s", p.path, quoteName(p.pattern))
	}
	for _, v := range vals {
		if v == nil || !p.re.MatchString(argText(v)) {
			return fmt.Sprintf("%s: got %s, want a match of %s", p.path, jsonValue(v, 60), quoteName(p.pattern))
		}
	}
	return ""
}

// problem says how a result falls short of r, or "" when it meets it (or r
// is nil). A call without a result meets no result constraint.
func (r *resultWant) problem(res *evalkit.ToolResult) string {
	if r == nil {
		return ""
	}
	if res == nil {
		return "no result"
	}
	if r.noError && isErrorResult(res, r.errorText) {
		return "result is an error: " + excerpt(res.Content)
	}
	if len(r.includes) > 0 {
		hay := r.match.prepare(res.Content)
		for i, p := range r.includes {
			if r.match.index(hay, i) < 0 {
				return fmt.Sprintf("result does not include %s: %s", quoteName(p), excerpt(res.Content))
			}
		}
	}
	if r.matches != nil && !r.matches.MatchString(res.Content) {
		return fmt.Sprintf("result does not match %s: %s", quoteName(r.pattern), excerpt(res.Content))
	}
	return ""
}

// problemCount is the n of callProblems, counted without describing
// anything: how the closest call is found among many before the one shown
// is explained (a go-cmp diff costs a hundred times the count).
func (w wantCall) problemCount(call evalkit.ToolCall, d decodedArgs) int {
	if d.err != nil {
		return 1
	}
	ad := argDiff{exact: w.exact}
	ad.walk(w.args, w.gotArgs(d))
	n := ad.n
	for _, p := range w.argsMatch {
		if !patternHolds(p, d.args) {
			n++
		}
	}
	if w.result.problem(call.Result) != "" {
		n++
	}
	return n
}

// callProblems counts how call falls short of w and describes the first
// shortfall, got before want. n is 0 when the call meets w, and equals
// problemCount.
func (w wantCall) callProblems(call evalkit.ToolCall, d decodedArgs) (n int, first string) {
	if d.err != nil {
		return 1, strings.Replace(d.err.Error(), "arguments of "+call.Name+" are", "arguments are", 1)
	}
	got := w.gotArgs(d)
	ad := argDiff{exact: w.exact}
	ad.walk(w.args, got)
	if ad.n > 0 {
		n = ad.n
		first = firstArgDiff(w.args, got, w.exact)
	}
	for _, p := range w.argsMatch {
		if pr := patternProblem(p, d.args); pr != "" {
			if n == 0 {
				first = pr
			}
			n++
		}
	}
	if pr := w.result.problem(call.Result); pr != "" {
		if n == 0 {
			first = pr
		}
		n++
	}
	return n, first
}

// gotArgs is what of a call's readable arguments w compares: all of them,
// or with ExactArgs those IgnoreFields leaves.
func (w wantCall) gotArgs(d decodedArgs) map[string]any {
	if w.exact {
		return stripPaths(d.args, w.ignore).(map[string]any)
	}
	return d.args
}

// argsDiffer reports whether a call's readable arguments differ from
// w's, which argsDiff then shows.
func (w wantCall) argsDiffer(d decodedArgs) bool {
	if d.err != nil {
		return false
	}
	ad := argDiff{exact: w.exact}
	ad.walk(w.args, w.gotArgs(d))
	return ad.n > 0
}

// argsDiff is the diff (showArgsDiff, in go-cmp's notation) of w's arguments against a call's (see
// argsDiffer). It is built only for the call a failure shows, and only
// when the diff is read (Result.DiffText): one diff costs more than the
// rest of the check.
func (w wantCall) argsDiff(d decodedArgs) string {
	got := w.gotArgs(d)
	if w.exact {
		return boundDiff(diffExact(w.args, got))
	}
	return boundDiff(diffSubset(w.args, got))
}

// firstArgDiff is firstDiff, with keys beyond want's counted when exact.
func firstArgDiff(want, got any, exact bool) string {
	d := argDiff{first: true, exact: exact}
	d.walk(want, got)
	return d.text
}

// label names an expected call in a failure: its tool and what it asks of
// the arguments and result.
func (w wantCall) label() string {
	var parts []string
	if len(w.args) > 0 || w.exact || (len(w.argsMatch) == 0 && w.result == nil) {
		args := jsonValue(w.args, 120)
		if w.exact {
			args += " exactly"
		}
		parts = append(parts, args)
	}
	for _, p := range w.argsMatch {
		parts = append(parts, p.path+"~"+quoteName(p.pattern))
	}
	if r := w.result; r != nil {
		if r.noError {
			parts = append(parts, "no error")
		}
		if len(r.includes) > 0 {
			parts = append(parts, "result includes "+joinQuoted(r.includes, "and"))
		}
		if r.matches != nil {
			parts = append(parts, "result matches "+quoteName(r.pattern))
		}
	}
	return shortName(w.tool) + " " + strings.Join(parts, ", ")
}

// describeWant says what an expected call asks, for Describe.
func describeWant(w ExpectedCall) string {
	var parts []string
	switch {
	case len(w.Args) > 0 && w.ExactArgs:
		parts = append(parts, "arguments exactly "+jsonValue(w.Args, 80))
	case len(w.Args) > 0:
		parts = append(parts, "arguments including "+jsonValue(w.Args, 80))
	case w.ExactArgs:
		parts = append(parts, "no arguments")
	}
	for _, k := range slices.Sorted(maps.Keys(w.ArgsMatch)) {
		parts = append(parts, fmt.Sprintf("%s matching %s", k, quoteName(w.ArgsMatch[k])))
	}
	if len(w.IgnoreFields) > 0 {
		parts = append(parts, "ignoring "+quoteList(w.IgnoreFields))
	}
	if w.NoError {
		parts = append(parts, "no error")
	}
	if len(w.ResultIncludes) > 0 {
		parts = append(parts, "a result including "+joinQuoted(w.ResultIncludes, "and"))
	}
	if w.ResultMatches != "" {
		parts = append(parts, "a result matching "+quoteName(w.ResultMatches))
	}
	if len(parts) == 0 {
		return quoteName(w.Tool)
	}
	return quoteName(w.Tool) + " with " + strings.Join(parts, ", ")
}

// diffSubset is the diff ToolArgs shows (showArgsDiff): the expected arguments
// against the call's, projected onto the expected keys.
func diffSubset(want map[string]any, got map[string]any) string {
	wv, gv := diffViews(want, project(want, got), 0)
	return argViewsDiff(wv, gv)
}

// diffExact diffs the expected arguments against all of the call's.
func diffExact(want map[string]any, got map[string]any) string {
	wv, gv := diffViewsAll(want, got, 0)
	return argViewsDiff(wv, gv)
}

// diffViewsAll is diffViews keeping the keys of got that want lacks.
func diffViewsAll(want, got any, depth int) (any, any) {
	w, wok := want.(map[string]any)
	g, gok := got.(map[string]any)
	if !wok || !gok || depth >= maxViewDepth {
		if wl, ok := want.([]any); ok {
			if gl, ok := got.([]any); ok && len(gl) == len(wl) && depth < maxViewDepth {
				wv, gv := make([]any, len(wl)), make([]any, len(wl))
				for i := range wl {
					wv[i], gv[i] = diffViewsAll(wl[i], gl[i], depth+1)
				}
				return wv, gv
			}
		}
		return diffViews(want, got, depth)
	}
	wv, gv := make(map[string]any, len(w)), make(map[string]any, len(g))
	keys := sortedKeys(g)
	extra := 0
	for _, k := range keys {
		if _, ok := w[k]; ok {
			continue
		}
		if extra++; extra > maxViewItems {
			continue
		}
		gv[k] = diffView(g[k], depth+1)
	}
	if extra > maxViewItems {
		gv["…"] = fmt.Sprintf("and %d more keys", extra-maxViewItems)
	}
	for k, we := range w {
		if ge, ok := g[k]; ok {
			wv[k], gv[k] = diffViewsAll(we, ge, depth+1)
		} else {
			wv[k] = diffView(we, depth+1)
		}
	}
	return wv, gv
}
