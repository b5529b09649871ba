package evaltest_test

import (
	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
	"github.com/evalkit-go/evalkit/evaltest"
	"github.com/evalkit-go/evalkit/judgefake"
)

// A RAG answer checked for faithfulness to its retrieved chunks and for
// PII. The judge here is a fake scripted per step — the claims, then a
// verdict per claim; in a real test it is openaijudge.FromEnv(), recorded
// once and replayed.
func ExampleExpectation_Faithfulness() {
	judge := judgefake.Sequence(
		evalkit.Verdict{Fields: map[string]any{"claims": []any{"Refunds take five business days.", "Refunds are sent by cheque."}}},
		evalkit.Verdict{Fields: map[string]any{"verdicts": []any{
			map[string]any{"verdict": "yes", "reason": "chunk 1 says so"},
			map[string]any{"verdict": "no", "reason": "chunk 2 says refunds go back to the card"},
		}}},
	)
	et := evaltest.New(printTB{}, evaltest.WithJudge(judge))
	tr := &evalkit.Transcript{Messages: []evalkit.Message{
		{Role: evalkit.RoleUser, Content: "How do refunds work?"},
		{Role: evalkit.RoleAssistant, Content: "Refunds take five business days and are sent by cheque."},
	}}
	et.Expect(tr).
		Faithfulness(assert.Context("Refunds are issued within five business days.", "Refunds go back to the card used to pay."), assert.MinScore(0.8)).
		NoPII(assert.PatternsOnly())
	// Output:
	// Faithfulness(Context("Refunds are issued withi…", "Refunds go back to the c…"), MinScore(0.80)): score 0.50, want >= 0.80
	// check: faithfulness 0.50: 1 of 2 claims supported by the context
	// claim 2: no: "Refunds are sent by cheque." — chunk 2 says refunds go back to the card
	// claim 1: yes: "Refunds take five business days." — chunk 1 says so
	// transcript: 2 messages
}
