// Package evaltest is evalkit's fluent test API, and the only evalkit package
// that imports testing. Run the agent inside an ordinary Go test, then assert
// on its transcript:
//
//	func TestRefund(t *testing.T) {
//		tr := runAgent(t, "I want a refund for order #W123") // your own code
//		et := evaltest.New(t)
//		et.Expect(tr).
//			ToolsCalled("get_order_details", "issue_refund").
//			ToolArgs("issue_refund", map[string]any{"order_id": "#W123"}).
//			NoToolErrors().
//			Contains("refund")
//	}
//
// Expect keeps going after a failure; Require stops the test at the first.
// Each failure is reported at the user's line in one format: the check in Go
// call syntax, what was got before what was wanted, labelled lines, a go-cmp
// diff for structures:
//
//	refund_test.go:14: ToolsCalled("get_order_details", "issue_refund"): missing "issue_refund"
//	    called: get_order_details ×1, get_user_details ×2
//	    transcript: 9 messages (artifact: _artifacts/3889060661/transcript.json)
//
// A check that cannot be evaluated (a bad parameter, no assistant output)
// reads "error:" instead of a summary: it fails the test, but it is never
// charged to the agent as a failed check, and never passes.
//
// LLM-as-judge steps ask the T's judge (WithJudge) and grade its verdict; the
// threshold lives on the step, never in the judge's prompt:
//
//	et := evaltest.New(t, evaltest.WithJudge(openaijudge.FromEnv()))
//	et.Expect(tr).Judge("Confirms the refund and states the amount", assert.MinScore(0.8))
//
//	refund_test.go:17: Judge("Confirms the refund and states the a…", MinScore(0.80)): score 0.55, want >= 0.80
//	    reasoning: the reply never states the amount
//	    raw score: 5.5 on 0–10
//	    judge: gpt-4.1-mini
//	    transcript: 9 messages
//
// A judge that cannot give a verdict (an unreadable answer, an API failure)
// is an evaluation error, never a failure or a pass. Package judgefake has
// fake judges for testing this wiring without a model. Until recorded
// verdicts land, a live judge such as openaijudge.FromEnv() calls its API on
// every run: keep live judges out of the default go test (behind a build tag
// or an environment variable), and use judgefake there.
//
// With go test -artifacts (Go 1.26+), the transcript of a failed check is
// written to the test's artifact directory.
package evaltest
