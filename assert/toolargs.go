package assert

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/google/go-cmp/cmp"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/internal/textnorm"
)

// ExpectedCall is one call ToolArgs looks for: a tool and a subset of the
// arguments it must have been called with.
type ExpectedCall struct {
	// Tool is the tool's name.
	Tool string
	// Args holds the arguments the call must have, JSON-shaped: any value
	// encoding/json can encode, compared after a round trip through it.
	// Nil or empty matches a call with any arguments that decode to an
	// object, including none ("", "{}" or null).
	Args map[string]any
}

// ToolArgs passes when the tool Tool was called with arguments that include
// Args, or, with Calls, when each expected call matches its own actual call.
//
// Matching is by subset: every key of the expected arguments must be present
// with an equal value; keys the call has beyond them are ignored. Values are
// compared after normalization through encoding/json, nothing coerced: "5" is
// not 5 and "true" is not true. Numbers compare by value and exactly, as the
// model wrote them and not as float64 (which cannot tell 1234567890123456789
// from 1234567890123456788, an order id say): two integers (5, 5.0, 1e3,
// -0: any literal whose value is whole) are equal when they are the same
// integer, an integer never equals a fraction, and two fractions compare as
// float64, so 5 == 5.0, 1e3 == 1000 and 0.1 == 0.1 hold. Nested objects match by the same
// subset rule; arrays must have the same length and order, element by element
// matched by the same rule. A call whose arguments are not valid JSON (cut
// off by the token limit, say) or are valid JSON but not an object can match
// nothing, not even empty Args.
//
// With several expected calls each must consume a distinct actual call, so
// two expected searches need two searches, however alike (matching calls by
// value would count one call twice). The assignment is a maximum bipartite
// matching, so it is found whenever one exists, whatever the order of the
// calls. Score is the fraction of expected calls matched.
//
// A failure says why for each unmatched expected call: the tool was never
// called; its matching calls are taken by other expected calls; or, for the
// closest call to the tool (fewest differences, the latest on a tie), what
// differs, got before want, with a go-cmp diff of the expected arguments
// against that call's arguments projected onto the expected keys:
//
//	issue_refund (call 4): order_id: got "#W124", want "#W123"
//	get_forecast (call 1): arguments are not valid JSON: unexpected end of input (cut off?)
//
// Scope defaults to Session. Errors (*ParamError): no tool name, a name with
// leading or trailing whitespace, both Tool and Calls, an empty Calls entry,
// expected arguments that encoding/json cannot encode, or, when the
// transcript declares its tools, a tool neither declared nor called in it
// (see ToolsNotCalled).
//
// Registry type "tool_args" ("tool_args_session" fixes Session scope),
// params: tool_name with expected_args (required; {} matches any arguments),
// or calls: a list of {tool_name (or name), expected_args (or args)}; scope.
// After PromptKit's tool_args and tool_args_session, which look for a
// single matching call.
type ToolArgs struct {
	Tool  string
	Args  map[string]any
	Calls []ExpectedCall
	Scope Scope
}

func buildToolArgs(p *params) (Check, error) {
	var c ToolArgs
	var hasTool, hasArgs bool
	var err error
	if c.Tool, hasTool, err = p.str(false, "tool_name"); err != nil {
		return nil, err
	}
	if c.Args, hasArgs, err = argsObject(p, false, "expected_args"); err != nil {
		return nil, err
	}
	list, hasCalls, err := p.value("calls")
	if err != nil {
		return nil, err
	}
	if c.Scope, err = p.scope(); err != nil {
		return nil, err
	}
	// An unknown name (say "args" for expected_args) explains a missing
	// parameter better than "required" does, so report it first.
	if err := p.finish(); err != nil {
		return nil, err
	}
	switch {
	case hasCalls && (hasTool || hasArgs):
		return nil, p.err("calls", "give either tool_name with expected_args, or calls, not both")
	case hasCalls:
		if c.Calls, err = expectedCalls(p, list); err != nil {
			return nil, err
		}
	case !hasTool:
		return nil, p.err("tool_name", "required: want a tool name (or give calls)")
	case !hasArgs:
		return nil, p.err("expected_args", "required: want an object ({} matches any arguments)")
	}
	return c, nil
}

// argsObject reads expected arguments as params.object does (a map, any
// map type encoding/json can encode, or a JSON object as text), keeping
// every digit of their numbers: they are decoded with json.Number, not
// float64.
func argsObject(p *params, required bool, names ...string) (map[string]any, bool, error) {
	_, v, ok, err := p.lookup(names...)
	if err == nil && ok {
		var norm any
		switch v := v.(type) {
		case map[string]any:
			return v, true, nil
		case string:
			norm, err = decodeNumbersJSON([]byte(v))
		default:
			norm, err = normalizeArgs(v)
		}
		if m, isMap := norm.(map[string]any); err == nil && isMap {
			return m, true, nil
		}
	}
	return p.object(required, names...) // its error says what is wrong
}

// expectedCalls reads the list form of tool_args; errors name the entry, as
// in calls[1].expected_args.
func expectedCalls(p *params, v any) ([]ExpectedCall, error) {
	norm, err := normalizeArgs(v) // YAML and Go-typed lists become []any of map[string]any
	items, ok := norm.([]any)
	switch {
	case err != nil || !ok:
		return nil, p.err("calls", "want a list of {tool_name, expected_args}, got %s", kindOf(v))
	case len(items) == 0:
		return nil, p.err("calls", "empty list: give at least one expected call")
	}
	calls := make([]ExpectedCall, len(items))
	for i, it := range items {
		entry := fmt.Sprintf("calls[%d]", i)
		m, ok := it.(map[string]any)
		if !ok {
			return nil, p.err(entry, "want an object {tool_name, expected_args}, got %s", kindOf(it))
		}
		sub := newParams(p.check, m)
		if calls[i].Tool, _, err = sub.str(true, "tool_name", "name"); err == nil {
			if calls[i].Args, _, err = argsObject(sub, true, "expected_args", "args"); err == nil {
				err = sub.finish()
			}
		}
		if pe, ok := err.(*ParamError); ok {
			pe.Param = entry + "." + pe.Param
			if strings.HasPrefix(pe.Msg, "required: want an object") {
				pe.Msg += " ({} matches any arguments)"
			}
		}
		if err != nil {
			return nil, err
		}
	}
	return calls, nil
}

func (c ToolArgs) validate() error {
	_, err := c.expected()
	return err
}

// wantCall is an expected call with its arguments normalized.
type wantCall struct {
	tool  string
	param string // the parameter that names the tool: tool_name or calls[i].tool_name
	args  map[string]any
}

func (w wantCall) label() string { return w.tool + " " + jsonValue(w.args, 120) }

// expected validates the check and normalizes its expected calls.
func (c ToolArgs) expected() ([]wantCall, error) {
	const check = "tool_args"
	if err := checkScope(check, c.Scope); err != nil {
		return nil, err
	}
	if len(c.Calls) > 0 && (c.Tool != "" || c.Args != nil) {
		return nil, paramErr(check, "calls", "give either Tool with Args, or Calls, not both")
	}
	calls, prefix := c.Calls, "calls[%d]."
	if len(calls) == 0 {
		if c.Tool == "" {
			return nil, paramErr(check, "tool_name", "required: want a tool name (or give calls)")
		}
		calls, prefix = []ExpectedCall{{Tool: c.Tool, Args: c.Args}}, ""
	}
	want := make([]wantCall, len(calls))
	for i, ec := range calls {
		at := prefix
		if at != "" {
			at = fmt.Sprintf(prefix, i)
		}
		switch problem := toolNameProblem(ec.Tool); {
		case ec.Tool == "":
			return nil, paramErr(check, at+"tool_name", "empty: want a tool name")
		case problem != "":
			return nil, paramErr(check, at+"tool_name", "%s", problem)
		}
		want[i] = wantCall{tool: ec.Tool, param: at + "tool_name", args: map[string]any{}}
		if len(ec.Args) == 0 {
			continue
		}
		norm, err := normalizeArgs(ec.Args)
		if err != nil {
			return nil, paramErr(check, at+"expected_args", "not representable as JSON: %v", err)
		}
		want[i].args = norm.(map[string]any) // a non-empty map encodes as an object
	}
	return want, nil
}

// normalizeArgs maps a Go value to its encoding/json shape (map[string]any,
// []any, string, bool, nil) with numbers as json.Number, so no digit of an
// int64 or uint64 is lost. Values JSON cannot hold are an error.
func normalizeArgs(v any) (any, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return decodeNumbersJSON(data)
}

// decodeNumbersJSON decodes one JSON value, numbers as json.Number; trailing data
// is an error, as with json.Unmarshal.
func decodeNumbersJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("invalid JSON after the top-level value")
	}
	return v, nil
}

// decodeArgs decodes a call's arguments as ToolCall.Arguments does, with the
// same errors, but numbers as json.Number.
func decodeArgs(c evalkit.ToolCall) (map[string]any, error) {
	if len(bytes.TrimSpace(c.Args)) == 0 {
		return map[string]any{}, nil
	}
	if v, err := decodeNumbersJSON(c.Args); err == nil {
		switch v := v.(type) {
		case map[string]any:
			return v, nil
		case nil:
			return map[string]any{}, nil
		}
	}
	if _, err := c.Arguments(); err != nil { // says why, in the transcript's words
		return nil, err
	}
	return nil, fmt.Errorf("arguments of %s are not a JSON object", c.Name)
}

// decimal is a JSON number literal reduced to its value: digits × 10^exp,
// negated when neg, with digits free of leading and trailing zeros ("" and
// exp 0 for zero, whatever its sign). Two literals have the same value
// exactly when their decimals are equal: 1e3, 1000 and 1000.0 all reduce to
// {digits "1", exp 3}.
type decimal struct {
	neg    bool
	digits string
	exp    int64
}

// integer reports whether the value is whole.
func (d decimal) integer() bool { return d.digits == "" || d.exp >= 0 }

// parseDecimal reduces a JSON number literal; false for anything else, and
// for exponents beyond ±2^50 (no float64 comes near, and the arithmetic on
// them must not overflow).
func parseDecimal(s string) (decimal, bool) {
	var d decimal
	if rest, ok := strings.CutPrefix(s, "-"); ok {
		d.neg, s = true, rest
	}
	mant, expText, hasExp := s, "", false
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant, expText, hasExp = s[:i], s[i+1:], true
	}
	if hasExp {
		e, err := strconv.ParseInt(expText, 10, 64)
		if err != nil || e > 1<<50 || e < -1<<50 {
			return decimal{}, false
		}
		d.exp = e
	}
	whole, frac, _ := strings.Cut(mant, ".")
	if whole == "" || !allDigits(whole) || !allDigits(frac) {
		return decimal{}, false
	}
	digits := strings.TrimLeft(whole+frac, "0")
	d.exp -= int64(len(frac))
	trimmed := strings.TrimRight(digits, "0")
	d.exp += int64(len(digits) - len(trimmed))
	if trimmed == "" {
		return decimal{}, true
	}
	d.digits = trimmed
	return d, true
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// numbersEqual compares two JSON number literals by value: exactly when
// either is whole (an integer equals only the same integer), as float64 when
// both are fractions. A literal that does not parse equals only itself.
func numbersEqual(a, b json.Number) bool {
	if a == b {
		return true
	}
	da, okA := parseDecimal(string(a))
	db, okB := parseDecimal(string(b))
	switch {
	case !okA || !okB:
		return false
	case da == db:
		return true
	case da.integer() || db.integer():
		return false
	}
	fa, errA := strconv.ParseFloat(string(a), 64)
	fb, errB := strconv.ParseFloat(string(b), 64)
	return errA == nil && errB == nil && fa == fb
}

// numberView is how a diff shows a number: a float64 when that holds it
// exactly (an integer within ±2^53) or when it is a fraction (fractions
// compare as float64); a larger integer as int64 or uint64; anything larger
// still as the literal.
func numberView(n json.Number) any {
	d, ok := parseDecimal(string(n))
	switch {
	case !ok:
		return n
	case !d.integer():
		if f, err := strconv.ParseFloat(string(n), 64); err == nil {
			return f
		}
		return n
	case d.digits == "":
		return 0.0
	case int64(len(d.digits))+d.exp > 20: // beyond uint64
		return n
	}
	whole := d.digits + strings.Repeat("0", int(d.exp))
	if d.neg {
		whole = "-" + whole
	}
	if i, err := strconv.ParseInt(whole, 10, 64); err == nil {
		if i >= -1<<53 && i <= 1<<53 {
			return float64(i)
		}
		return i
	}
	if u, err := strconv.ParseUint(whole, 10, 64); err == nil {
		return u
	}
	return n
}

// diffView is a JSON-shaped value as a go-cmp diff shows it: numbers by
// numberView, so they print as numbers and not as json.Number strings.
func diffView(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = diffView(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = diffView(e)
		}
		return out
	case json.Number:
		return numberView(v)
	}
	return v
}

// decodedArgs is a call's arguments decoded once per check.
type decodedArgs struct {
	args map[string]any
	err  error
	done bool
}

// Check implements Check.
func (c ToolArgs) Check(_ context.Context, tr *evalkit.Transcript) (Result, error) {
	want, err := c.expected()
	if err != nil {
		return Result{}, err
	}
	sc, err := scopedCalls("tool_args", tr, c.Scope)
	if err != nil {
		return Result{}, err
	}
	refs := make([]toolRef, len(want))
	for i, w := range want {
		refs[i] = toolRef{w.param, []string{w.tool}}
	}
	if err := undeclared("tool_args", tr, refs...); err != nil {
		return Result{}, err
	}
	decoded := make([]decodedArgs, len(sc.calls))
	args := func(i int) decodedArgs {
		if d := &decoded[i]; !d.done {
			d.args, d.err = decodeArgs(sc.calls[i])
			d.done = true
		}
		return decoded[i]
	}
	adj := make([][]int, len(want)) // expected call -> the calls it matches
	for e, w := range want {
		for i, call := range sc.calls {
			if call.Name != w.tool {
				continue
			}
			if d := args(i); d.err == nil && subset(w.args, d.args) {
				adj[e] = append(adj[e], i)
			}
		}
	}
	assigned, owner := matchCalls(adj, len(sc.calls))
	matched := 0
	for _, a := range assigned {
		if a >= 0 {
			matched++
		}
	}
	score := ratio(matched, len(want))
	if matched == len(want) {
		if len(want) == 1 {
			return pass(score, fmt.Sprintf("%s (call %d) matches", want[0].tool, assigned[0]+1)), nil
		}
		return pass(score, fmt.Sprintf("all %d expected calls matched (calls %s)", len(want), callNumbers(assigned))), nil
	}

	var (
		summary string
		details []Detail
		diff    string
		shown   bool // whether the details already show a call's arguments
	)
	if len(want) > 1 {
		summary = fmt.Sprintf("matched %d of %d expected calls", matched, len(want))
	}
	for e, w := range want {
		if assigned[e] >= 0 {
			continue
		}
		var x explanation
		switch {
		case len(adj[e]) > 0:
			x = takenExplanation(adj[e], want, owner)
		default:
			x = closestExplanation(w, sc, args)
		}
		if len(want) == 1 {
			summary = x.reason
		} else {
			details = append(details, Detail{"unmatched", w.label() + ": " + x.reason})
		}
		if !shown && len(x.details) > 0 {
			details = append(details, x.details...)
			diff, shown = x.diff, true
		}
	}
	res := fail(score, summary, sc.withScope(append(details, calledDetail(sc.calls)))...)
	res.Diff = diff
	return res, nil
}

// explanation says why an expected call matched no call.
type explanation struct {
	reason  string
	details []Detail
	diff    string
}

// takenExplanation explains an expected call whose matching calls all went
// to other expected calls.
func takenExplanation(calls []int, want []wantCall, owner []int) explanation {
	const own = "; each expected call needs a call of its own"
	if len(calls) == 1 {
		return explanation{reason: fmt.Sprintf("its only matching call (call %d) is taken by %s", calls[0]+1, want[owner[calls[0]]].label()) + own}
	}
	return explanation{reason: fmt.Sprintf("its matching calls (calls %s) are taken by other expected calls", callNumbers(calls)) + own}
}

// callNumbers lists call indexes as the failure messages number them, from 1.
func callNumbers(calls []int) string {
	nums := make([]string, len(calls))
	for i, a := range calls {
		nums[i] = strconv.Itoa(a + 1)
	}
	return strings.Join(nums, ", ")
}

// closestExplanation explains an expected call that no call matches, from
// the call to its tool that comes closest.
func closestExplanation(w wantCall, sc toolScope, args func(int) decodedArgs) explanation {
	best, bestDiffs, unreadable, candidates := -1, []string(nil), 0, 0
	for i, call := range sc.calls {
		if call.Name != w.tool {
			continue
		}
		candidates++
		d := args(i)
		if d.err != nil {
			unreadable++
			if best < 0 || args(best).err != nil {
				best = i
			}
			continue
		}
		diffs := argDiffs(w.args, d.args, "", nil)
		if best < 0 || args(best).err != nil || len(diffs) <= len(bestDiffs) {
			best, bestDiffs = i, diffs
		}
	}
	if best < 0 {
		return explanation{reason: fmt.Sprintf("%q was not called", w.tool)}
	}
	call := sc.calls[best]
	subject := fmt.Sprintf("%s (call %d)", w.tool, best+1)
	var x explanation
	if d := args(best); d.err != nil {
		x.reason = subject + ": " + strings.Replace(d.err.Error(), "arguments of "+call.Name+" are", "arguments are", 1)
	} else {
		x.reason = subject + ": " + bestDiffs[0]
		if more := len(bestDiffs) - 1; more > 0 {
			x.reason += " (and " + plural(more, "more difference") + ")"
		}
		x.diff = cmp.Diff(diffView(w.args), diffView(project(w.args, d.args)))
	}
	x.details = append(x.details, Detail{"args", fmt.Sprintf("call %d: %s", best+1, rawArgs(call.Args))})
	if m, ok := sc.message(best); ok && m.FinishReason == "length" {
		x.details = append(x.details, Detail{"finish reason", "length: the model hit its token limit in this message"})
	}
	if candidates > 1 {
		note := fmt.Sprintf("%d calls to %s, none matches; showing call %d", candidates, w.tool, best+1)
		if unreadable > 0 {
			note += fmt.Sprintf(" (%d with unreadable arguments)", unreadable)
		}
		x.details = append(x.details, Detail{"note", note})
	}
	return x
}

// matchCalls finds a maximum matching between expected calls and actual
// calls by augmenting paths (Kuhn's algorithm): adj[e] lists the calls
// expected call e matches. It returns, for each expected call, its call (or
// -1) and, for each call, its expected call (or -1). Expected calls are
// served in order and calls tried in order, so the assignment is stable.
func matchCalls(adj [][]int, n int) (assigned, owner []int) {
	assigned, owner = make([]int, len(adj)), make([]int, n)
	for i := range owner {
		owner[i] = -1
	}
	for e := range assigned {
		assigned[e] = -1
	}
	seen := make([]bool, n)
	var augment func(e int) bool
	augment = func(e int) bool {
		for _, a := range adj[e] {
			if seen[a] {
				continue
			}
			seen[a] = true
			if owner[a] < 0 || augment(owner[a]) {
				owner[a] = e
				return true
			}
		}
		return false
	}
	for e := range adj {
		clear(seen)
		augment(e)
	}
	for a, e := range owner {
		if e >= 0 {
			assigned[e] = a
		}
	}
	return assigned, owner
}

// subset reports whether got holds want: objects by subset, arrays element
// by element, scalars by equality without coercion. Both are JSON-shaped
// with json.Number numbers (nil, bool, json.Number, string, []any,
// map[string]any).
func subset(want, got any) bool {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return false
		}
		for k, wv := range w {
			gv, present := g[k]
			if !present || !subset(wv, gv) {
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
			if !subset(w[i], g[i]) {
				return false
			}
		}
		return true
	}
	return scalarEqual(want, got)
}

func scalarEqual(want, got any) bool {
	switch w := want.(type) {
	case nil:
		return got == nil
	case string:
		g, ok := got.(string)
		return ok && g == w
	case json.Number:
		g, ok := got.(json.Number)
		return ok && numbersEqual(w, g)
	case bool:
		g, ok := got.(bool)
		return ok && g == w
	}
	return false
}

// argDiffs appends to out how got falls short of want, one line per
// difference, got before want: `order_id: got "#W124", want "#W123"`.
func argDiffs(want, got any, path string, out []string) []string {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return append(out, fmt.Sprintf("%s: got %s, want an object", pathText(path), jsonValue(got, 60)))
		}
		keys := make([]string, 0, len(w))
		for k := range w {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			at := k
			if path != "" {
				at = path + "." + k
			}
			gv, present := g[k]
			if !present {
				out = append(out, fmt.Sprintf("%s: missing, want %s", at, jsonValue(w[k], 60)))
				continue
			}
			out = argDiffs(w[k], gv, at, out)
		}
		return out
	case []any:
		g, ok := got.([]any)
		switch {
		case !ok:
			return append(out, fmt.Sprintf("%s: got %s, want a list of %d", pathText(path), jsonValue(got, 60), len(w)))
		case len(g) != len(w):
			return append(out, fmt.Sprintf("%s: got %d items, want %d", pathText(path), len(g), len(w)))
		}
		for i := range w {
			out = argDiffs(w[i], g[i], fmt.Sprintf("%s[%d]", path, i), out)
		}
		return out
	}
	if !scalarEqual(want, got) {
		out = append(out, fmt.Sprintf("%s: got %s, want %s", pathText(path), jsonValue(got, 60), jsonValue(want, 60)))
	}
	return out
}

func pathText(path string) string {
	if path == "" {
		return "arguments"
	}
	return path
}

// project keeps of got what want speaks about: an object's expected keys,
// recursively, so a diff shows the differences and not the call's other
// arguments.
func project(want, got any) any {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return got
		}
		out := make(map[string]any, len(w))
		for k, wv := range w {
			if gv, present := g[k]; present {
				out[k] = project(wv, gv)
			}
		}
		return out
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return got
		}
		out := make([]any, len(g))
		for i := range g {
			out[i] = project(w[i], g[i])
		}
		return out
	}
	return got
}

// jsonValue renders a JSON-shaped value compactly (keys sorted, no HTML
// escaping), bounded to about max bytes.
func jsonValue(v any, max int) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprintf("%v", v)
	}
	return textnorm.Excerpt(strings.TrimSuffix(b.String(), "\n"), max)
}

// message returns the assistant message that made call i of the scope.
func (s toolScope) message(i int) (evalkit.Message, bool) {
	for _, m := range s.msgs {
		if m.Role != evalkit.RoleAssistant {
			continue
		}
		if i < len(m.ToolCalls) {
			return m, true
		}
		i -= len(m.ToolCalls)
	}
	return evalkit.Message{}, false
}

// rawArgs shows a call's arguments as the model wrote them: valid JSON
// compacted, anything else quoted so a cut-off or odd value shows exactly.
func rawArgs(raw json.RawMessage) string {
	var b bytes.Buffer
	switch {
	case len(bytes.TrimSpace(raw)) == 0:
		return "none"
	case json.Compact(&b, raw) == nil:
		return textnorm.Excerpt(b.String(), maxQuote)
	}
	return excerpt(string(raw))
}

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
// neither declared nor called in it (see ToolsNotCalled) is an error
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
		return pass(score, fmt.Sprintf("sequence of %s found at calls %s", plural(len(at), "step"), callNumbers(at))), nil
	}
	step := len(at)
	name := c.Sequence[step]
	var summary string
	switch {
	case callCounts(sc.calls)[name] == 0:
		summary = fmt.Sprintf("step %d %q never called", step+1, name)
	default: // called, but only before the previous step's call
		summary = fmt.Sprintf("step %d %q not called after step %d %q (call %d)", step+1, name, step, c.Sequence[step-1], at[step-1]+1)
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
		parts = append(parts, toolName(c.Name))
	}
	return Detail{"called", strings.Join(parts, " → ")}
}
