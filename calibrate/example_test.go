package calibrate_test

import (
	"fmt"

	"github.com/evalkit-go/evalkit/calibrate"
)

// Four answers people labelled, and what a judge said of them.
func ExampleMeasure() {
	gold, err := calibrate.New("refunds", []calibrate.Item{
		{ID: "a", Criteria: "States the amount", Content: "Refunded $42.", Label: "pass"},
		{ID: "b", Criteria: "States the amount", Content: "Refunded.", Label: "fail"},
		{ID: "c", Criteria: "States the amount", Content: "We sent back 42 euros.", Label: "pass"},
		{ID: "d", Criteria: "States the amount", Content: "Thanks for writing!", Label: "fail", Canary: true},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	r, err := calibrate.Measure(gold, []calibrate.Outcome{{Passed: true, Score: 1}, {Passed: false}, {Passed: false}, {Passed: false}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(r.Summary())
	// Output:
	// refunds: 4 of 4 items judged
	// agreement: accuracy 0.750 (3 of 4), kappa 0.500, TPR 0.500 (1 of 2 passes), TNR 1.000 (2 of 2 fails)
	// confusion: people pass: judge pass 1, judge fail 1; people fail: judge pass 0, judge fail 2
	// canaries: 1 of 1 as they must be
}
