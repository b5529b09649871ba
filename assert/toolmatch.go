package assert

// Matching expected calls to actual calls: candidate lists, an index of
// argument values for many expected calls, and a maximum bipartite matching.

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"

	"github.com/evalkit-go/evalkit"
)

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
		if perTool[w.tool] > 1 {
			key := w.canonicalKey()
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
			if w.accepts(ix.calls[i], ix.args(i)) {
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
	diff    *lazyText // the call's diff, built when read (Result.DiffText)
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
		nums.addText(strconv.Itoa(a + 1))
	}
	return nums.join(", ")
}

// closestExplanation explains an expected call that no call matches, from
// the call to its tool that comes closest: the fewest shortfalls (see
// wantCall.callProblems), the latest on a tie, a call with readable
// arguments before one without.
func (ix *callIndex) closestExplanation(w wantCall, sc toolScope) explanation {
	calls := ix.byTool[w.tool]
	best, bestN, unreadable := -1, 0, 0
	for _, i := range calls {
		d := ix.args(i)
		if d.err != nil {
			unreadable++
			if best < 0 || ix.args(best).err != nil {
				best = i
			}
			continue
		}
		n := w.problemCount(ix.calls[i], d)
		if best < 0 || ix.args(best).err != nil || n <= bestN {
			best, bestN = i, n
		}
	}
	if best < 0 {
		return explanation{reason: fmt.Sprintf("%s was not called", quoteName(w.tool))}
	}
	x := ix.callExplanation(w, best, sc)
	if len(calls) > 1 {
		note := fmt.Sprintf("%d calls to %s, none matches; showing call %d", len(calls), shortName(w.tool), best+1)
		if unreadable > 0 {
			note += fmt.Sprintf(" (%d with unreadable arguments)", unreadable)
		}
		x.details = append(x.details, Detail{"note", note})
	}
	return x
}

// callExplanation says how call i falls short of w: the first shortfall,
// how many more, the call's arguments and a diff of them.
func (ix *callIndex) callExplanation(w wantCall, i int, sc toolScope) explanation {
	call := sc.calls[i]
	n, first := w.callProblems(ix.calls[i], ix.args(i))
	d := ix.args(i)
	x := explanation{reason: fmt.Sprintf("%s (call %d): %s", shortName(call.Name), i+1, first)}
	if w.argsDiffer(d) {
		x.diff = deferText(func() string { return w.argsDiff(d) })
	}
	if more := n - 1; more > 0 {
		x.reason += " (and " + plural(more, "more difference") + ")"
	}
	x.details = append(x.details, Detail{"args", fmt.Sprintf("call %d: %s", i+1, rawArgs(call.Args))})
	if m, ok := sc.message(i); ok && m.FinishReason == "length" {
		x.details = append(x.details, Detail{"finish reason", "length: the model hit its token limit in this message"})
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
