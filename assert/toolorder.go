package assert

// A partial order of expected calls: stages in sequence, the calls of a
// stage in any order among themselves.

import (
	"context"
	"fmt"
	"strings"

	"github.com/evalkit-go/evalkit"
)

// ToolCallOrder passes when the calls of the scope meet a partial order:
// each stage's expected calls are each met by a call of their own, in any
// order among themselves, and every call of a stage comes before every
// call of the next — "get_user and get_order in any order, both before
// issue_refund" is two stages, [get_user, get_order] then [issue_refund].
// Other calls may come before, between and after. An expected call is an
// ExpectedCall (a tool and, optionally, arguments, patterns on them and
// its result), as a ToolCallChain step. With Strict, a call that meets an
// expected call of a later stage must not come before the earlier stages
// are done (BeforeOrder's rule, stage by stage): a refund before both
// lookups fails even if a later refund follows.
//
// Each stage takes the calls that end it soonest, which leaves the most
// calls to the stages after it, so an assignment is found whenever one
// exists. Score is the fraction of expected calls matched. The failure
// names the first stage not met and why, and lists the calls:
//
//	stage 2 of 2 [issue_refund] is not met after stage 1's calls (calls 1, 3)
//	unmatched: issue_refund {}: issue_refund (call 2) comes before stage 1 is done
//	called: get_user → issue_refund → get_order
//
// Scope defaults to Session. Errors (*ParamError, naming the stage and
// step: stages[1][0].tool): no stages, an empty stage, and the errors of
// ToolCallChain's steps.
//
// Registry type "tool_call_order", params: stages (a list of stages, each
// a list of steps — a tool name or {tool, expected_args, args_match, ...}
// as in tool_call_chain — or a single step), strict, scope. The partial
// order of agent-evaluation suites ("these in any order, then that"); as
// PromptKit's tool_call_chain, one stage per step.
type ToolCallOrder struct {
	Stages [][]ExpectedCall
	Strict bool
	Scope  Scope
}

func buildToolCallOrder(p *params) (Check, error) {
	var c ToolCallOrder
	var err error
	if c.Strict, _, err = p.boolean("strict"); err != nil {
		return nil, err
	}
	if c.Scope, err = p.scope(); err != nil {
		return nil, err
	}
	v, ok, err := p.value("stages")
	if err != nil {
		return nil, err
	}
	if err := p.finish(); err != nil {
		return nil, err
	}
	if !ok {
		return nil, p.err("stages", "required: want a list of stages, each a list of steps")
	}
	norm, err := normalizeArgs(v)
	stages, isList := norm.([]any)
	switch {
	case err != nil || !isList:
		return nil, p.err("stages", "want a list of stages, got %s", kindOf(v))
	case len(stages) == 0:
		return nil, p.err("stages", "empty list: give at least one stage")
	}
	for i, st := range stages {
		steps, isList := st.([]any)
		if !isList {
			steps = []any{st} // a stage of one step
		}
		for k, s := range steps {
			if name, isName := s.(string); isName {
				steps[k] = map[string]any{"tool": name}
			}
		}
		calls, err := readSpecs(p, fmt.Sprintf("stages[%d]", i), steps, "tool", "tool_name", "name")
		if err != nil {
			return nil, err
		}
		c.Stages = append(c.Stages, calls)
	}
	return c, nil
}

func (c ToolCallOrder) wants() ([][]wantCall, error) {
	const check = "tool_call_order"
	if err := checkScope(check, c.Scope); err != nil {
		return nil, err
	}
	if len(c.Stages) == 0 {
		return nil, paramErr(check, "stages", "empty list: give at least one stage")
	}
	out := make([][]wantCall, len(c.Stages))
	for i, st := range c.Stages {
		if len(st) == 0 {
			return nil, paramErr(check, fmt.Sprintf("stages[%d]", i), "empty stage: give at least one step")
		}
		w, err := wantList(check, fmt.Sprintf("stages[%d][%%d].", i), "tool", st, wantOpts{})
		if err != nil {
			return nil, err
		}
		out[i] = w
	}
	return out, nil
}

func (c ToolCallOrder) validate() error {
	_, err := c.wants()
	return err
}

// Check implements Check.
func (c ToolCallOrder) Check(_ context.Context, tr *evalkit.Transcript) (Result, error) {
	const check = "tool_call_order"
	stages, err := c.wants()
	if err != nil {
		return Result{}, err
	}
	sc, err := scopedCalls(check, tr, c.Scope)
	if err != nil {
		return Result{}, err
	}
	var refs []toolRef
	total := 0
	for i, st := range stages {
		for k, w := range st {
			refs = append(refs, toolRef{fmt.Sprintf("stages[%d][%d].tool", i, k), []string{w.tool}})
		}
		total += len(st)
	}
	if err := undeclared(check, tr, refs...); err != nil {
		return Result{}, err
	}
	ix := newCallIndex(sc.calls)
	meets := func(w wantCall, i int) bool { return w.meets(sc.calls[i], ix.args(i)) }
	after, matched := -1, 0
	var all []int
	for s, st := range stages {
		end, assigned := stageWindow(st, len(sc.calls), after, meets)
		if end < 0 {
			return c.stageFailure(s, st, stages, sc, ix, after, matched, total, all, meets), nil
		}
		if c.Strict && s > 0 {
			for i := 0; i < after; i++ {
				if contains(all, i) {
					continue
				}
				for k, w := range st {
					if meets(w, i) {
						detail := fmt.Sprintf("call %d meets stage %d's %s but comes before stage %d is done (call %d)", i+1, s+1, w.label(), s, after+1)
						_ = k
						return fail(ratio(matched, total), fmt.Sprintf("stage %d of %d %s begins before stage %d is done", s+1, len(stages), stageLabel(st), s),
							sc.withScope([]Detail{{"order", detail}, sequenceDetail(sc.calls)})...), nil
					}
				}
			}
		}
		matched += len(st)
		all = append(all, assigned...)
		after = end
	}
	return pass(1, fmt.Sprintf("all %s in %s matched in order (calls %s)", plural(total, "expected call"), plural(len(stages), "stage"), callNumbers(sortedInts(all)))), nil
}

// stageFailure explains why stage s found no calls after call after.
func (c ToolCallOrder) stageFailure(s int, st []wantCall, stages [][]wantCall, sc toolScope, ix *callIndex, after, matched, total int, used []int, meets func(wantCall, int) bool) Result {
	where := "in the calls"
	if s > 0 {
		where = fmt.Sprintf("after stage %d's calls (calls %s)", s, callNumbers(sortedInts(used)))
	}
	summary := fmt.Sprintf("stage %d of %d %s is not met %s", s+1, len(stages), stageLabel(st), where)
	var details []Detail
	// Which steps find no call at all after the window start, and which
	// only before it.
	for _, w := range st {
		var later, earlier []int
		for i := range sc.calls {
			if !meets(w, i) {
				continue
			}
			if i > after {
				later = append(later, i)
			} else {
				earlier = append(earlier, i)
			}
		}
		switch {
		case len(later) == 0 && len(earlier) > 0:
			details = append(details, Detail{"unmatched", fmt.Sprintf("%s: its calls (%s) come before stage %d is done", w.label(), callNumbers(earlier), s)})
		case len(later) == 0:
			x := ix.closestExplanation(w, sc)
			details = append(details, Detail{"unmatched", w.label() + ": " + x.reason})
		}
	}
	if len(details) == 0 {
		details = append(details, Detail{"unmatched", "its steps compete for the same calls: not enough calls meet them after stage " + fmt.Sprint(s)})
	}
	return fail(ratio(matched, total), summary, sc.withScope(append(details, sequenceDetail(sc.calls)))...)
}

// stageWindow finds the smallest end such that every expected call of the
// stage is met by a distinct call in (after, end]; it returns end and the
// calls assigned, or -1.
func stageWindow(st []wantCall, n, after int, meets func(wantCall, int) bool) (int, []int) {
	for end := after + len(st); end < n; end++ {
		if assigned, ok := matchWindow(st, after+1, end, meets); ok {
			return end, assigned
		}
	}
	return -1, nil
}

// matchWindow matches the expected calls to distinct calls in [lo, hi]
// (augmenting paths: a stage is small).
func matchWindow(st []wantCall, lo, hi int, meets func(wantCall, int) bool) ([]int, bool) {
	owner := map[int]int{}
	assigned := make([]int, len(st))
	var try func(e int, seen map[int]bool) bool
	try = func(e int, seen map[int]bool) bool {
		for i := lo; i <= hi; i++ {
			if seen[i] || !meets(st[e], i) {
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
	for e := range st {
		if !try(e, map[int]bool{}) {
			return nil, false
		}
	}
	return assigned, true
}

func stageLabel(st []wantCall) string {
	names := make([]string, len(st))
	for i, w := range st {
		names[i] = shortName(w.tool)
	}
	return "[" + strings.Join(names, ", ") + "]"
}

func contains(list []int, x int) bool {
	for _, v := range list {
		if v == x {
			return true
		}
	}
	return false
}

func sortedInts(list []int) []int {
	out := append([]int(nil), list...)
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// Describe implements Describer.
func (c ToolCallOrder) Describe() string {
	parts := make([]string, len(c.Stages))
	for i, st := range c.Stages {
		steps := make([]string, len(st))
		for k, s := range st {
			steps[k] = describeWant(s)
		}
		parts[i] = strings.Join(steps, " and ")
		if len(st) > 1 {
			parts[i] += " (in any order)"
		}
	}
	strict := ""
	if c.Strict {
		strict = ", none of a stage before the one it follows is done"
	}
	return describeLine(fmt.Sprintf("the calls include %s%s%s", strings.Join(parts, ", then "), strict, callsScope(c.Scope)))
}

// meets reports whether call (its arguments decoded as d) is a call of w's
// tool (any tool, when w names none) that w accepts.
func (w wantCall) meets(call evalkit.ToolCall, d decodedArgs) bool {
	return (w.tool == "" || call.Name == w.tool) && w.accepts(call, d)
}
