package evaltest

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/go-cmp/cmp"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
)

// StateEquals checks that got, the state the agent left behind — the
// in-memory database its tools changed — equals want, the state a correct
// run leaves, as τ-bench scores a run by comparing database states. It
// reads nothing of the transcript. Values compare with go-cmp: cmp.Diff
// with opts (cmpopts.IgnoreFields for what a run may set freely, such as
// ids and times; cmpopts.EquateEmpty; cmp.AllowUnexported). A failure
// reads:
//
//	StateEquals(airline.DB): the state differs from the expected one in 2 lines
//	diff (-want +got):
//	  airline.DB{
//	  	Reservations: map[string]*airline.Reservation{
//	  		"FQ8APE": &{
//	- 			TotalBaggages: 3,
//	+ 			TotalBaggages: 0,
//	...
//
// Values go-cmp cannot compare (unexported fields without an option, say)
// are an error with go-cmp's reason, never a pass.
func (e *Expectation) StateEquals(want, got any, opts ...cmp.Option) *Expectation {
	e.t.tb.Helper()
	label := fmt.Sprintf("StateEquals(%T)", want)
	if want == nil {
		label = "StateEquals(nil)"
	}
	e.report(label, assert.CheckFunc(func(context.Context, *evalkit.Transcript) (res assert.Result, err error) {
		defer func() {
			if p := recover(); p != nil {
				res, err = assert.Result{}, fmt.Errorf("go-cmp cannot compare the states: %v", p)
			}
		}()
		diff := cmp.Diff(want, got, opts...)
		if diff == "" {
			return assert.Result{Passed: true, Score: 1, Summary: "the state equals the expected one"}, nil
		}
		return assert.Result{Summary: fmt.Sprintf("the state differs from the expected one in %s", diffLines(diff)), Diff: diff}, nil
	}))
	return e
}

// diffLines counts the lines a go-cmp diff adds or removes: "2 lines".
func diffLines(diff string) string {
	n := 0
	for _, line := range strings.Split(diff, "\n") {
		if strings.HasPrefix(line, "-") || strings.HasPrefix(line, "+") {
			n++
		}
	}
	if n == 1 {
		return "1 line"
	}
	return fmt.Sprintf("%d lines", n)
}
