package evaltest_test

import (
	"fmt"
	"math/rand/v2"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/evaltest"
	"github.com/evalkit-go/evalkit/judgefake"
)

// A non-deterministic agent, run 10 times: it must pass 8. This one
// answers correctly about 60% of the time, so the Repeat fails, listing
// the failing attempts, pass^k and pass@k; it stops at the third failure,
// when 8 passes are out of reach, and never runs the last 3.
func ExampleT_Repeat() {
	rng := rand.New(rand.NewPCG(1, 2)) // the agent's randomness, fixed for the example
	agent := func() *evalkit.Transcript {
		answer := "Sorry, I could not find that order."
		if rng.Float64() < 0.6 {
			answer = "Your refund for order #W123 was issued."
		}
		return &evalkit.Transcript{Messages: []evalkit.Message{
			{Role: evalkit.RoleUser, Content: "Refund order #W123"},
			{Role: evalkit.RoleAssistant, Content: answer},
		}}
	}
	et := evaltest.New(printTB{}) // in a test: evaltest.New(t)
	rep := et.Repeat(10, func(et *evaltest.T) {
		et.Expect(agent()).Contains("refund", "#W123")
	}, evaltest.PassRate(0.8))
	fmt.Println("attempts run:", len(rep.Attempts))
	// Output:
	// Repeat(10, PassRate(0.80)): 4 of 7 attempts passed, want at least 8 of 10
	// pass rate: 0.57 (95% two-sided Wilson interval 0.25–0.84)
	// pass^k: 0.57 (k=1), 0.29 (k=2), 0.03 (k=4)
	// pass@k: 0.57 (k=1), 0.86 (k=2), 1.00 (k=4)
	// attempt 1: Contains("refund", "#W123"): missing "refund", "#W123"
	// attempt 5: Contains("refund", "#W123"): missing "refund", "#W123"
	// attempt 7: Contains("refund", "#W123"): missing "refund", "#W123"
	// stopped: after 7 of 10 attempts, once the outcome was decided
	// attempts run: 7
}

// An agent asked the same question five times should say the same thing:
// Consistent embeds the answers and names the one far from the others.
func ExampleSetExpectation_Consistent() {
	answers := []string{
		"Refunds are accepted within 30 days of delivery.",
		"You can get a refund within 30 days of delivery.",
		"Refunds are accepted within 30 days of the delivery date.",
		"A refund is possible within 30 days of delivery.",
		"Our store opens at 9am on weekdays.",
	}
	// In a test: a real embedder, such as an embeddings API client.
	et := evaltest.New(printTB{}, evaltest.WithEmbedder(judgefake.BagOfWords(64)))
	rep := et.Repeat(5, func(et *evaltest.T) {
		et.Expect(chat(answers[et.Attempt()-1])).MinLength(10)
	}, evaltest.All())
	et.ExpectAll(rep.Transcripts()...).Consistent(0.8)
	// Output:
	// Consistent(0.8): 1 of 5 candidates lie farther than 0.8 from the centroid: candidate 5
	// consensus: candidate 1 (distance 0.48, confidence 0.72): "Refunds are accepted within 30 days of delivery."
	// outlier: candidate 5 (distance 1.07, confidence 0.38): "Our store opens at 9am on weekdays."
	// distances: 0.48, 0.58, 0.53, 0.51, 1.07
	// transcripts: 5
}

// LoadCases reads and validates case files without running them, as
// RunCases does first.
func ExampleLoadCases() {
	cases, err := evaltest.LoadCases("testdata/cases/refunds.yaml", nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range cases {
		fmt.Printf("%s:%d %q: %d evals, repeat %d, tags %v\n", c.File, c.Line, c.Name, len(c.Evals), c.Repeat, c.Tags)
	}
	_, err = evaltest.LoadCases("testdata/cases/bad/broken.yaml", nil)
	fmt.Println(err)
	// Output:
	// testdata/cases/refunds.yaml:4 "refund with amount": 2 evals, repeat 0, tags [refund smoke]
	// testdata/cases/refunds.yaml:15 "no order": 1 evals, repeat 0, tags [refund]
	// testdata/cases/refunds.yaml:25 "repeated answer": 2 evals, repeat 3, tags []
	// 6 problems in the case files:
	// testdata/cases/bad/broken.yaml:4: cases[0].evals[0].type: unknown check type "tools_caled" (did you mean "tools_called"?)
	// testdata/cases/bad/broken.yaml:7: cases[1]: field "tag": unknown (did you mean "tags"?)
	// testdata/cases/bad/broken.yaml:11: cases[1].evals[0].params.patern: contains: param "patern": unknown parameter: did you mean "patterns"?
	// testdata/cases/bad/broken.yaml:12: cases[2]: no evals: a case without checks would pass whatever the agent does
	// testdata/cases/bad/broken.yaml:15: cases[3].repeat: field "pass_rat": unknown (did you mean "pass_rate"?)
	// testdata/cases/bad/broken.yaml:18: case "typo in a type": the name is taken by the case at testdata/cases/bad/broken.yaml:1
}
