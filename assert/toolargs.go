package assert

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/internal/textnorm"
)

// ExpectedCall is one call ToolArgs, ToolCallsWithArgs and ToolCallChain
// look for: a tool, a subset of the arguments it must have been called
// with (or all of them, with ExactArgs), and optionally patterns on the
// arguments and constraints on the call's result.
//
// Paths (ArgsMatch, IgnoreFields) are keys joined with dots, such as
// "payment.method"; a list on the way stands for each of its items, so
// "passengers.dob" is the dob of every passenger. A call without a result
// meets no result constraint (ResultIncludes, ResultMatches, NoError).
type ExpectedCall struct {
	// Tool is the tool's name.
	Tool string
	// Args holds the arguments the call must have, JSON-shaped: any value
	// encoding/json can encode, compared after a round trip through it.
	// Nil or empty matches a call with any arguments that decode to an
	// object, including none ("", "{}" or null).
	Args map[string]any
	// ExactArgs requires the call's arguments to equal Args exactly, with
	// no key Args lacks (at any depth), IgnoreFields aside; by default
	// Args is a subset. Registry param match: "exact" (or "subset").
	ExactArgs bool
	// ArgsMatch maps argument paths to RE2 patterns the values there must
	// match: a string as it is, any other value as its JSON text (numbers
	// as the model wrote them). A missing or null value matches nothing.
	// Registry param args_match. As PromptKit's args_match.
	ArgsMatch map[string]string
	// IgnoreFields are argument paths left out of the comparison, such as
	// generated ids and timestamps: removed from Args, and with ExactArgs
	// from the call's arguments too. Registry param ignore_fields.
	IgnoreFields []string
	// ResultIncludes are texts the call's result must contain (ignoring
	// case unless the check is case-sensitive). Registry param
	// result_includes.
	ResultIncludes []string
	// ResultMatches is an RE2 pattern the call's result must match.
	// Registry param result_matches.
	ResultMatches string
	// NoError requires the call's result not to be an error (see
	// NoToolErrors for what an error is). Registry param no_error.
	NoError bool
}

// ToolArgs passes when the tool Tool was called with arguments that include
// Args, or, with Calls, when each expected call matches its own actual call
// (an ExpectedCall's other constraints, such as NoError, are met too: the
// matcher is ToolCallsWithArgs').
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
// transcript declares its tools, a tool that is a near miss of a declared tool
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

// wantCall is an expected call validated and normalized (see newWant).
type wantCall struct {
	tool  string
	param string // the parameter that names the tool: tool_name or calls[i].tool_name
	args  map[string]any
	// What ExpectedCall asks beyond a subset of arguments.
	exact     bool
	ignore    [][]string
	argsMatch []argPattern
	result    *resultWant // nil: nothing asked of the result
}

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
		w, err := newWant(check, at, "tool_name", ec, wantOpts{})
		if err != nil {
			return nil, err
		}
		want[i] = w
	}
	return want, nil
}

// Check implements Check.
func (c ToolArgs) Check(_ context.Context, tr *evalkit.Transcript) (Result, error) {
	want, err := c.expected()
	if err != nil {
		return Result{}, err
	}
	return c.checkWant(tr, want)
}

// preparedToolArgs is a ToolArgs whose expected calls were validated and
// normalized once, when Registry.Eval's cache built it (builtCache): its
// params are the cache's private copy, which nothing writes, and the
// checks only read the expected calls. Normalizing them was 5% of the
// corpus chain's assert.Eval.
type preparedToolArgs struct {
	c    ToolArgs
	want []wantCall
}

func (p preparedToolArgs) Check(_ context.Context, tr *evalkit.Transcript) (Result, error) {
	return p.c.checkWant(tr, p.want)
}

// checkWant is Check with the expected calls normalized.
func (c ToolArgs) checkWant(tr *evalkit.Transcript, want []wantCall) (Result, error) {
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
	return ix.verdict("tool_args", anyOrderResult(want, ix, sc, "expected call"))
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
