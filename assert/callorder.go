package assert

// Lining expected calls up with the calls made, in each Order, and the
// verdict that says how they line up.

import (
	"fmt"
	"slices"
	"sort"
	"strconv"

	"github.com/evalkit-go/evalkit"
)

// expectCalls matches expected calls to the calls of the scope in order
// and says how they line up; noun names an expected call in messages
// ("expected call", "step").
func expectCalls(check string, tr *evalkit.Transcript, s Scope, want []wantCall, order Order, noun string) (Result, error) {
	sc, err := scopedCalls(check, tr, s)
	if err != nil {
		return Result{}, err
	}
	refs := make([]toolRef, len(want))
	for i, w := range want {
		refs[i] = toolRef{w.param, []string{w.tool}}
	}
	if err := undeclared(check, tr, refs...); err != nil {
		return Result{}, err
	}
	ix := newCallIndex(sc.calls)
	if order == AnyOrder {
		return anyOrderResult(want, ix, sc, noun), nil
	}
	return orderedResult(want, ix, sc, order, noun), nil
}

// anyOrderResult is the verdict of expected calls matched in any order:
// tool_args' and tool_calls_with_args' calls.
func anyOrderResult(want []wantCall, ix *callIndex, sc toolScope, noun string) Result {
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
			return pass(score, shortName(want[0].tool)+" (call "+strconv.Itoa(assigned[0]+1)+") matches")
		}
		return pass(score, "all "+strconv.Itoa(len(want))+" "+noun+"s matched (calls "+callNumbers(assigned)+")")
	}

	const maxUnmatched = 10 // unmatched expected calls explained in a failure
	var (
		summary   string
		details   []Detail
		diff      *lazyText
		shown     bool // whether the details already show a call's arguments
		unmatched int
	)
	if len(want) > 1 {
		summary = fmt.Sprintf("matched %d of %d %ss", matched, len(want), noun)
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
	res.lazyDiff = diff
	return res
}

// orderedResult is the verdict of expected calls matched InOrder,
// BeforeOrder or ExactOrder.
func orderedResult(want []wantCall, ix *callIndex, sc toolScope, order Order, noun string) Result {
	lists, of := ix.matches(want)
	assigned := matchOrdered(order, lists, of, len(sc.calls))
	if order == ExactOrder {
		return exactResult(want, ix, sc, lists, of, assigned, noun)
	}
	k := 0 // the matched prefix
	for k < len(want) && assigned[k] >= 0 {
		k++
	}
	steps := plural(len(want), noun)
	if k == len(want) {
		if order == BeforeOrder {
			if e, c, earlier := beforeViolation(lists, of, assigned); e >= 0 {
				detail := fmt.Sprintf("call %d matches %s %d %s but comes before %s %d's call (call %d)", c+1, noun, e+1, want[e].label(), noun, earlier+1, assigned[earlier]+1)
				return fail(ratio(e, len(want)), fmt.Sprintf("%s %d happens before %s %d", noun, e+1, noun, earlier+1),
					sc.withScope([]Detail{{"order", detail}, sequenceDetail(sc.calls)})...)
			}
		}
		return pass(1, fmt.Sprintf("all %s matched in order (calls %s)", steps, callNumbers(assigned)))
	}
	w := want[k]
	var x explanation
	if cands := lists[of[k]]; len(cands) > 0 {
		x.reason = fmt.Sprintf("no matching call after %s %d's call (call %d); matching calls: %s", noun, k, assigned[k-1]+1, callNumbers(cands))
	} else {
		x = ix.closestExplanation(w, sc)
	}
	summary := fmt.Sprintf("matched %d of %s in order", k, steps)
	if len(want) == 1 {
		summary = x.reason
	}
	details := []Detail{{"unmatched", fmt.Sprintf("%s %d %s: %s", noun, k+1, w.label(), x.reason)}}
	if len(want) == 1 {
		details = nil
	}
	details = append(details, x.details...)
	res := fail(ratio(k, len(want)), summary, sc.withScope(append(details, sequenceDetail(sc.calls)))...)
	res.lazyDiff = x.diff
	return res
}

// exactResult is the verdict of ExactOrder: call i must meet expected call
// i, and there must be as many calls as expected calls.
func exactResult(want []wantCall, ix *callIndex, sc toolScope, lists [][]int, of []int, assigned []int, noun string) Result {
	n := len(sc.calls)
	matched := 0
	first := -1
	for e, a := range assigned {
		if a >= 0 {
			matched++
		} else if first < 0 && e < n {
			first = e
		}
	}
	score := ratio(matched, max(n, len(want)))
	if matched == len(want) && n == len(want) {
		return pass(score, fmt.Sprintf("the %s are the %s, in order", plural(n, "call"), plural(len(want), noun)))
	}
	summary := fmt.Sprintf("matched %d of %s in exact order", matched, plural(len(want), noun))
	var details []Detail
	var diff *lazyText
	switch {
	case first >= 0:
		w, call := want[first], sc.calls[first]
		if call.Name != w.tool && w.tool != "" {
			details = append(details, Detail{"unmatched", fmt.Sprintf("%s %d %s: call %d is %s", noun, first+1, w.label(), first+1, shortName(call.Name))})
		} else {
			x := ix.callExplanation(w, first, sc)
			details = append(details, Detail{"unmatched", fmt.Sprintf("%s %d %s: %s", noun, first+1, w.label(), x.reason)})
			details = append(details, x.details...)
			diff = x.diff
		}
	case n > len(want):
		details = append(details, Detail{"extra", fmt.Sprintf("%s after the last %s: calls %d-%d", plural(n-len(want), "call"), noun, len(want)+1, n)})
	default: // n < len(want): the calls there are matched; the rest are missing
		details = append(details, Detail{"missing", fmt.Sprintf("%s %d %s: only %s", noun, n+1, want[n].label(), plural(n, "call"))})
	}
	res := fail(score, summary, sc.withScope(append(details, sequenceDetail(sc.calls)))...)
	res.lazyDiff = diff
	return res
}

// matchOrdered assigns calls to expected calls in order (InOrder,
// BeforeOrder, ExactOrder): expected call e may take the calls lists[of[e]],
// which are in call order. For InOrder and BeforeOrder each expected call
// takes the earliest candidate after the previous one's call, which leaves
// the most calls for those that follow, so a subsequence is found whenever
// one exists; the first expected call without one ends the assignment. For
// ExactOrder expected call e takes call e when it may. assigned holds each
// expected call's call or -1.
func matchOrdered(order Order, lists [][]int, of []int, n int) (assigned []int) {
	assigned = make([]int, len(of))
	for e := range assigned {
		assigned[e] = -1
	}
	if order == ExactOrder {
		for e := range of {
			if e < n {
				if _, ok := slices.BinarySearch(lists[of[e]], e); ok {
					assigned[e] = e
				}
			}
		}
		return assigned
	}
	pos := -1
	for e := range of {
		l := lists[of[e]]
		k := sort.SearchInts(l, pos+1)
		if k == len(l) {
			break
		}
		assigned[e], pos = l[k], l[k]
	}
	return assigned
}

// beforeViolation finds, for BeforeOrder, the first expected call e with a
// candidate call that comes before the call of an earlier expected call
// and is no earlier expected call's: it returns e, that call and the earlier
// expected call, or -1.
func beforeViolation(lists [][]int, of []int, assigned []int) (e, call, earlier int) {
	taken := map[int]bool{}
	for j := range of {
		if assigned[j] < 0 {
			break
		}
		if j > 0 {
			for _, c := range lists[of[j]] {
				if c >= assigned[j-1] {
					break
				}
				if taken[c] {
					continue
				}
				// c comes before step j-1's call: find the first earlier
				// step whose call is after c.
				for i := 0; i < j; i++ {
					if assigned[i] > c {
						return j, c, i
					}
				}
			}
		}
		taken[assigned[j]] = true
	}
	return -1, -1, -1
}
