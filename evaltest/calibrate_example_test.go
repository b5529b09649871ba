package evaltest_test

import (
	"fmt"
	"strings"

	"github.com/evalkit-go/evalkit/calibrate"
	"github.com/evalkit-go/evalkit/evaltest"
	"github.com/evalkit-go/evalkit/judgefake"
)

// loggingTB is printingTB that prints Calibrate's summary, as go test
// shows a failing test's log.
type loggingTB struct{ printingTB }

func (loggingTB) Logf(format string, args ...any) {
	fmt.Println("LOG: " + strings.ReplaceAll(fmt.Sprintf(format, args...), "\n", "\n    "))
}

// A judge that passes every answer looks half right on ten labelled
// replies; its canary and its kappa say it cannot tell good from bad.
func ExampleT_Calibrate() {
	gold, err := calibrate.Load("testdata/gold/refunds.jsonl")
	if err != nil {
		fmt.Println(err)
		return
	}
	// In a test: evaltest.New(t, evaltest.WithJudge(openaijudge.FromEnv())).
	et := evaltest.New(loggingTB{}, evaltest.WithJudge(judgefake.Pass()))
	c := et.Calibrate(gold).AtLeastKappa(0.6)
	fmt.Println("ok:", c.OK())
	// Output:
	// LOG: Calibrate("refunds.jsonl"):
	//     refunds.jsonl: 10 of 10 items judged
	//     agreement: accuracy 0.500 (5 of 10), kappa 0.000, TPR 1.000 (5 of 5 passes), TNR 0.000 (0 of 5 fails)
	//     confusion: people pass: judge pass 5, judge fail 0; people fail: judge pass 5, judge fail 0
	//     annotators: 3; Krippendorff's alpha 0.240 with the judge, 0.517 among themselves
	//     canaries: 1 of 2 as they must be; canary "canary-bad": the judge passed a known-bad answer
	// FAIL: Calibrate("refunds.jsonl"): 1 of 2 canaries wrong
	//     canary: "canary-bad": the judge passed a known-bad answer
	// FAIL: Calibrate("refunds.jsonl").AtLeastKappa(0.60): kappa 0.000, want >= 0.60
	// ok: false
}
