package assert

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

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
// calls. It is computed by Hopcroft–Karp after a greedy pass, each expected
// call compared only with the calls of its tool that share one of its
// argument values: 3000 expected calls take tens of milliseconds (see
// BenchmarkChecksToolsArgsScale). Score is the fraction of expected calls
// matched.
//
// A failure says why for each unmatched expected call (the first 10, then
// how many more): the tool was never
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

func (w wantCall) label() string { return shortName(w.tool) + " " + jsonValue(w.args, 120) }

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
	if len(bytes.TrimSpace(data[dec.InputOffset():])) > 0 {
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

// Bounds on what a diff shows of values the model wrote.
const (
	maxViewItems = 20   // list items and object keys shown of a value that has no counterpart
	maxViewDepth = 8    // nesting shown before a value is summarized as JSON
	maxDiff      = 4000 // bytes of a diff, cut at a line
)

// diffViews are want and got as a go-cmp diff shows them: numbers by
// numberView, so they print as numbers and not as json.Number strings, and
// everything bounded. Values that pair up (an object's keys, equal-length
// lists' items) are walked together, so two long strings are cut at the
// same place, around their first difference; go-cmp leaves out equal
// entries by itself.
func diffViews(want, got any, depth int) (any, any) {
	if depth < maxViewDepth {
		switch w := want.(type) {
		case map[string]any:
			if g, ok := got.(map[string]any); ok {
				wv, gv := make(map[string]any, len(w)), make(map[string]any, len(w))
				for k, we := range w {
					if ge, present := g[k]; present {
						wv[k], gv[k] = diffViews(we, ge, depth+1)
					} else {
						wv[k] = diffView(we, depth+1)
					}
				}
				return wv, gv
			}
		case []any:
			if g, ok := got.([]any); ok && len(g) == len(w) {
				wv, gv := make([]any, len(w)), make([]any, len(w))
				for i := range w {
					wv[i], gv[i] = diffViews(w[i], g[i], depth+1)
				}
				return wv, gv
			}
		case string:
			if g, ok := got.(string); ok {
				return stringPair(w, g, maxQuote)
			}
		}
	}
	return diffView(want, depth), diffView(got, depth)
}

// diffView is one value as a diff shows it, bounded: at most maxViewItems
// keys or items, maxQuote bytes of a string, maxViewDepth levels.
func diffView(v any, depth int) any {
	switch v := v.(type) {
	case map[string]any:
		if depth >= maxViewDepth {
			return jsonValue(v, maxQuote)
		}
		keys := slices.Sorted(maps.Keys(v))
		out := make(map[string]any, min(len(keys), maxViewItems+1))
		for i, k := range keys {
			if i == maxViewItems {
				out["…"] = fmt.Sprintf("and %d more keys", len(keys)-maxViewItems)
				break
			}
			out[textnorm.Excerpt(k, maxQuote)] = diffView(v[k], depth+1)
		}
		return out
	case []any:
		if depth >= maxViewDepth {
			return jsonValue(v, maxQuote)
		}
		out := make([]any, 0, min(len(v), maxViewItems+1))
		for i, e := range v {
			if i == maxViewItems {
				out = append(out, fmt.Sprintf("… and %d more items", len(v)-maxViewItems))
				break
			}
			out = append(out, diffView(e, depth+1))
		}
		return out
	case string:
		return textnorm.Excerpt(v, maxQuote)
	case json.Number:
		if n, ok := numberView(v).(json.Number); ok {
			return textnorm.Excerpt(string(n), maxQuote) // too large for any Go number
		}
		return numberView(v)
	}
	return v
}

// pairStart is where to start showing two strings side by side, each cut
// to about max bytes: a little before their first difference when they
// agree beyond the first third of max, so the difference shows; 0
// otherwise.
func pairStart(a, b string, max int) int {
	if len(a) <= max && len(b) <= max {
		return 0
	}
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	start := p - max/3
	if start <= 0 {
		return 0
	}
	for start > 0 && !utf8.RuneStart(a[start]) { // a and b agree up to p
		start--
	}
	return start
}

// skipped marks the bytes left out before a window into a string.
func skipped(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("[%d bytes]…", n)
}

// stringPair bounds two strings for a diff, cut alike around their first
// difference (see pairStart): [10485740 bytes]…xxxxY.
func stringPair(a, b string, max int) (string, string) {
	start := pairStart(a, b, max)
	return skipped(start) + textnorm.Excerpt(a[start:], max), skipped(start) + textnorm.Excerpt(b[start:], max)
}

// quotePair is stringPair with each string Go-quoted, markers outside the
// quotes, as summaries show strings: [10485740 bytes]…"xxxxY".
func quotePair(a, b string, max int) (string, string) {
	start := pairStart(a, b, max)
	return skipped(start) + textnorm.Quote(a[start:], max), skipped(start) + textnorm.Quote(b[start:], max)
}

// boundDiff cuts a diff at a line boundary once it passes maxDiff bytes.
func boundDiff(diff string) string {
	if len(diff) <= maxDiff {
		return diff
	}
	cut := strings.LastIndexByte(diff[:maxDiff], '\n') + 1
	return diff[:cut] + fmt.Sprintf("… [%d more bytes of diff]\n", len(diff)-cut)
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
	ix := newCallIndex(sc.calls)
	lists, of := ix.matches(want)
	assigned, owner := matchCalls(lists, of, len(sc.calls))
	matched := 0
	for _, a := range assigned {
		if a >= 0 {
			matched++
		}
	}
	score := ratio(matched, len(want))
	if matched == len(want) {
		if len(want) == 1 {
			return pass(score, fmt.Sprintf("%s (call %d) matches", shortName(want[0].tool), assigned[0]+1)), nil
		}
		return pass(score, fmt.Sprintf("all %d expected calls matched (calls %s)", len(want), callNumbers(assigned))), nil
	}

	const maxUnmatched = 10 // unmatched expected calls explained in a failure
	var (
		summary   string
		details   []Detail
		diff      string
		shown     bool // whether the details already show a call's arguments
		unmatched int
	)
	if len(want) > 1 {
		summary = fmt.Sprintf("matched %d of %d expected calls", matched, len(want))
	}
	for e, w := range want {
		if assigned[e] >= 0 {
			continue
		}
		if unmatched++; unmatched > maxUnmatched {
			continue
		}
		var x explanation
		switch {
		case len(lists[of[e]]) > 0:
			x = takenExplanation(lists[of[e]], want, owner)
		default:
			x = ix.closestExplanation(w, sc)
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
	if more := unmatched - maxUnmatched; more > 0 {
		details = append(details, Detail{"unmatched", fmt.Sprintf("… and %d more", more)})
	}
	res := fail(score, summary, sc.withScope(append(details, calledDetail(sc.calls)))...)
	res.Diff = diff
	return res, nil
}

// callIndex holds a check's calls with their arguments decoded once, the
// calls of each tool, and indexes of the calls of a tool by the value of an
// argument, built on demand, so that many expected calls need not each be
// compared with every call.
type callIndex struct {
	calls   []evalkit.ToolCall
	decoded []decodedArgs
	byTool  map[string][]int // calls of each tool, in order
	byValue map[[2]string]*valueIndex
}

// decodedArgs is a call's arguments decoded once per check.
type decodedArgs struct {
	args map[string]any
	err  error
	done bool
}

// valueIndex is the calls of a tool by the value of one top-level argument:
// calls whose value has a key (see scalarKeyOf) under it, calls whose
// scalar value has none in other. Calls without the argument, or with an
// object or list for it, are in neither: they cannot match an expected
// scalar.
type valueIndex struct {
	byKey map[scalarKey][]int
	other []int
}

func newCallIndex(calls []evalkit.ToolCall) *callIndex {
	ix := &callIndex{calls: calls, decoded: make([]decodedArgs, len(calls)), byTool: map[string][]int{}}
	for i, c := range calls {
		ix.byTool[c.Name] = append(ix.byTool[c.Name], i)
	}
	return ix
}

// args returns call i's arguments, decoding them on first use.
func (ix *callIndex) args(i int) decodedArgs {
	if d := &ix.decoded[i]; !d.done {
		d.args, d.err = decodeArgs(ix.calls[i])
		d.done = true
	}
	return ix.decoded[i]
}

// minIndexed is the number of expected calls of one tool from which indexing
// the tool's calls by argument value pays for itself; below it, each
// expected call is compared with each call of its tool.
const minIndexed = 8

// matches returns, for each distinct expected call, the calls it matches
// (lists), and which list each expected call has (of). Identical expected
// calls share one list.
func (ix *callIndex) matches(want []wantCall) (lists [][]int, of []int) {
	perTool := map[string]int{}
	for _, w := range want {
		perTool[w.tool]++
	}
	of = make([]int, len(want))
	seen := map[string]int{} // tool and canonical arguments -> list
	for e, w := range want {
		var key string
		if perTool[w.tool] > 1 {
			canon, _ := json.Marshal(w.args) // cannot fail: w.args came from JSON; keys sorted
			key = w.tool + "\x00" + string(canon)
			if l, ok := seen[key]; ok {
				of[e] = l
				continue
			}
			seen[key] = len(lists)
		}
		candidates := ix.byTool[w.tool]
		if perTool[w.tool] >= minIndexed {
			candidates = ix.candidates(w)
		}
		var list []int
		for _, i := range candidates {
			if d := ix.args(i); d.err == nil && subset(w.args, d.args) {
				list = append(list, i)
			}
		}
		of[e] = len(lists)
		lists = append(lists, list)
	}
	return lists, of
}

// candidates returns the calls of w's tool that may match w, in order: for
// the scalar argument of w that narrows them most, the calls with an equal
// value there (and those whose value has no key); all calls of the tool when
// w has no scalar argument.
func (ix *callIndex) candidates(w wantCall) []int {
	best := ix.byTool[w.tool]
	for name, v := range w.args {
		k, ok := scalarKeyOf(v)
		if !ok {
			continue
		}
		vi := ix.valueIndex(w.tool, name)
		hits := vi.byKey[k]
		if len(hits)+len(vi.other) >= len(best) {
			continue
		}
		if len(vi.other) == 0 {
			best = hits
			continue
		}
		best = append(append(make([]int, 0, len(hits)+len(vi.other)), hits...), vi.other...)
		slices.Sort(best)
	}
	return best
}

func (ix *callIndex) valueIndex(tool, arg string) *valueIndex {
	if ix.byValue == nil {
		ix.byValue = map[[2]string]*valueIndex{}
	}
	if vi, ok := ix.byValue[[2]string{tool, arg}]; ok {
		return vi
	}
	vi := &valueIndex{byKey: map[scalarKey][]int{}}
	for _, i := range ix.byTool[tool] {
		d := ix.args(i)
		if d.err != nil {
			continue
		}
		v, present := d.args[arg]
		switch v.(type) {
		case map[string]any, []any:
			continue
		}
		if !present {
			continue
		}
		if k, ok := scalarKeyOf(v); ok {
			vi.byKey[k] = append(vi.byKey[k], i)
		} else {
			vi.other = append(vi.other, i)
		}
	}
	ix.byValue[[2]string{tool, arg}] = vi
	return vi
}

// scalarKey is a scalar JSON value as a map key, such that values equal by
// scalarEqual have equal keys: numbers by value (integers exactly, fractions
// as float64).
type scalarKey struct {
	kind byte // 'n'ull, 't'rue, 'f'alse, 's'tring, 'i'nteger, 'r'eal
	s    string
}

// scalarKeyOf returns v's key, and false for objects, lists and numbers that
// have none (a fraction beyond float64, an exponent beyond ±2^50).
func scalarKeyOf(v any) (scalarKey, bool) {
	switch v := v.(type) {
	case nil:
		return scalarKey{kind: 'n'}, true
	case bool:
		if v {
			return scalarKey{kind: 't'}, true
		}
		return scalarKey{kind: 'f'}, true
	case string:
		return scalarKey{kind: 's', s: v}, true
	case json.Number:
		d, ok := parseDecimal(string(v))
		switch {
		case !ok:
			return scalarKey{}, false
		case d.integer():
			sign := ""
			if d.neg {
				sign = "-"
			}
			return scalarKey{kind: 'i', s: sign + d.digits + "e" + strconv.FormatInt(d.exp, 10)}, true
		}
		f, err := strconv.ParseFloat(string(v), 64)
		if err != nil {
			return scalarKey{}, false
		}
		return scalarKey{kind: 'r', s: strconv.FormatFloat(f, 'g', -1, 64)}, true
	}
	return scalarKey{}, false
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

// callNumbers lists call indexes as the failure messages number them, from
// 1, at most listLimit of them.
func callNumbers(calls []int) string {
	nums := bounded{max: listLimit}
	for _, a := range calls {
		nums.add("%d", a+1)
	}
	return nums.join(", ")
}

// closestExplanation explains an expected call that no call matches, from
// the call to its tool that comes closest.
func (ix *callIndex) closestExplanation(w wantCall, sc toolScope) explanation {
	calls := ix.byTool[w.tool]
	best, bestDiffs, unreadable := -1, 0, 0
	for _, i := range calls {
		d := ix.args(i)
		if d.err != nil {
			unreadable++
			if best < 0 || ix.args(best).err != nil {
				best = i
			}
			continue
		}
		n := countDiffs(w.args, d.args)
		if best < 0 || ix.args(best).err != nil || n <= bestDiffs {
			best, bestDiffs = i, n
		}
	}
	if best < 0 {
		return explanation{reason: fmt.Sprintf("%s was not called", quoteName(w.tool))}
	}
	call := sc.calls[best]
	subject := fmt.Sprintf("%s (call %d)", shortName(w.tool), best+1)
	var x explanation
	if d := ix.args(best); d.err != nil {
		x.reason = subject + ": " + strings.Replace(d.err.Error(), "arguments of "+call.Name+" are", "arguments are", 1)
	} else {
		x.reason = subject + ": " + firstDiff(w.args, d.args)
		if more := bestDiffs - 1; more > 0 {
			x.reason += " (and " + plural(more, "more difference") + ")"
		}
		x.diff = boundDiff(cmp.Diff(diffViews(w.args, project(w.args, d.args), 0)))
	}
	x.details = append(x.details, Detail{"args", fmt.Sprintf("call %d: %s", best+1, rawArgs(call.Args))})
	if m, ok := sc.message(best); ok && m.FinishReason == "length" {
		x.details = append(x.details, Detail{"finish reason", "length: the model hit its token limit in this message"})
	}
	if len(calls) > 1 {
		note := fmt.Sprintf("%d calls to %s, none matches; showing call %d", len(calls), shortName(w.tool), best+1)
		if unreadable > 0 {
			note += fmt.Sprintf(" (%d with unreadable arguments)", unreadable)
		}
		x.details = append(x.details, Detail{"note", note})
	}
	return x
}

// matchCalls finds a maximum matching between expected calls and actual
// calls (n of them): expected call e matches the calls lists[of[e]], in
// call order. It returns, for each expected call, its call (or -1) and, for
// each call, its expected call (or -1).
//
// A greedy pass first gives each expected call, in order, its first free
// call; expected calls sharing a list share a cursor into it, so n alike
// expected calls cost O(n), not O(n²). Hopcroft–Karp then grows the
// matching along shortest augmenting paths until none is left, in
// O(E·√V) for E candidate pairs. Both go in order, so the assignment is
// deterministic.
func matchCalls(lists [][]int, of []int, n int) (assigned, owner []int) {
	assigned, owner = make([]int, len(of)), make([]int, n)
	for i := range owner {
		owner[i] = -1
	}
	cursor := make([]int, len(lists))
	free := 0
	for e := range of {
		assigned[e] = -1
		l := lists[of[e]]
		for ; cursor[of[e]] < len(l); cursor[of[e]]++ {
			if a := l[cursor[of[e]]]; owner[a] < 0 {
				owner[a], assigned[e] = e, a
				break
			}
		}
		if assigned[e] < 0 {
			free++
		}
	}
	if free == 0 {
		return assigned, owner
	}
	const far = math.MaxInt
	dist := make([]int, len(of))
	next := make([]int, len(of)) // the next candidate augment tries, per phase
	var queue []int
	var augment func(e int) bool
	augment = func(e int) bool {
		l := lists[of[e]]
		for ; next[e] < len(l); next[e]++ {
			a := l[next[e]]
			if o := owner[a]; o < 0 || (dist[o] == dist[e]+1 && augment(o)) {
				owner[a], assigned[e] = e, a
				next[e]++
				return true
			}
		}
		dist[e] = far
		return false
	}
	for {
		// Layer the expected calls by their distance from a free one along
		// alternating paths; stop at the first layer that reaches a free call.
		queue = queue[:0]
		for e := range of {
			dist[e] = far
			if assigned[e] < 0 && len(lists[of[e]]) > 0 {
				dist[e] = 0
				queue = append(queue, e)
			}
		}
		found := far
		for h := 0; h < len(queue); h++ {
			e := queue[h]
			if dist[e] >= found {
				break
			}
			for _, a := range lists[of[e]] {
				switch o := owner[a]; {
				case o < 0:
					found = dist[e]
				case dist[o] == far:
					dist[o] = dist[e] + 1
					queue = append(queue, o)
				}
			}
		}
		if found == far {
			return assigned, owner
		}
		clear(next)
		grew := false
		for e := range of {
			if assigned[e] < 0 && dist[e] == 0 && augment(e) {
				grew = true
			}
		}
		if !grew { // cannot happen when a free call was reached; never loop
			return assigned, owner
		}
	}
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

// countDiffs counts the ways got falls short of want: each expected key
// missing or with a different value, each list of another length.
func countDiffs(want, got any) int {
	d := argDiff{}
	d.walk(want, got)
	return d.n
}

// firstDiff says how got first falls short of want, keys in sorted order,
// got before want: `order_id: got "#W124", want "#W123"`.
func firstDiff(want, got any) string {
	d := argDiff{first: true}
	d.walk(want, got)
	return d.text
}

// argDiff walks want against got, counting differences or, with first,
// describing the first one.
type argDiff struct {
	first bool
	path  []any // the keys (string) and list indexes (int) to the value compared
	n     int
	text  string
}

func (d *argDiff) walk(want, got any) {
	if d.first && d.n > 0 {
		return
	}
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			d.add(func() string { return fmt.Sprintf("got %s, want an object", jsonValue(got, 60)) })
			return
		}
		var keys []string
		if d.first {
			keys = slices.Sorted(maps.Keys(w))
		}
		visit := func(k string) {
			d.path = append(d.path, k)
			if gv, present := g[k]; present {
				d.walk(w[k], gv)
			} else {
				d.add(func() string { return "missing, want " + jsonValue(w[k], 60) })
			}
			d.path = d.path[:len(d.path)-1]
		}
		if d.first {
			for _, k := range keys {
				visit(k)
			}
		} else {
			for k := range w {
				visit(k)
			}
		}
	case []any:
		g, ok := got.([]any)
		switch {
		case !ok:
			d.add(func() string { return fmt.Sprintf("got %s, want a list of %d", jsonValue(got, 60), len(w)) })
			return
		case len(g) != len(w):
			d.add(func() string { return fmt.Sprintf("got %d items, want %d", len(g), len(w)) })
			return
		}
		for i := range w {
			d.path = append(d.path, i)
			d.walk(w[i], g[i])
			d.path = d.path[:len(d.path)-1]
		}
	default:
		if scalarEqual(want, got) {
			return
		}
		d.add(func() string {
			w, wok := want.(string)
			g, gok := got.(string)
			if wok && gok { // show where they differ, however long
				gq, wq := quotePair(g, w, 60)
				return fmt.Sprintf("got %s, want %s", gq, wq)
			}
			return fmt.Sprintf("got %s, want %s", jsonValue(got, 60), jsonValue(want, 60))
		})
	}
}

// add counts a difference and, for the first one, describes it at the
// current path.
func (d *argDiff) add(what func() string) {
	if d.first && d.n == 0 {
		d.text = d.at() + ": " + what()
	}
	d.n++
}

// at renders the current path as "items[0].sku", or "arguments" at the top.
func (d *argDiff) at() string {
	if len(d.path) == 0 {
		return "arguments"
	}
	var b strings.Builder
	for _, p := range d.path {
		switch p := p.(type) {
		case string:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(p)
		case int:
			fmt.Fprintf(&b, "[%d]", p)
		}
	}
	return b.String()
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
