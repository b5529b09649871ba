package evaltest_test

import (
	"fmt"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
	"github.com/evalkit-go/evalkit/evaltest"
	"github.com/evalkit-go/evalkit/judgefake"
	"github.com/evalkit-go/evalkit/judgeset"
)

// Judges selected by name from a judge set: the failure names the judge
// and its variant; an unknown name lists the set's judges. The set here
// has fakes of a provider of the test's own; from a config file, judgeset.Load.
func ExampleWithJudgeSet() {
	set, err := judgeset.New([]judgeset.Spec{
		{Name: "strict", Provider: "fake", Variants: []judgeset.Variant{{Name: "cheap"}}},
		{Name: "lenient", Provider: "fake"},
	}, judgeset.WithDefault("strict"), judgeset.WithProvider("fake", func(c judgeset.Config) (evalkit.Judge, error) {
		if c.Name == "lenient" {
			return judgefake.Pass(), nil
		}
		return judgefake.Fail("the reply never states the amount"), nil
	}))
	if err != nil {
		fmt.Println(err)
		return
	}
	et := evaltest.New(printTB{}, evaltest.WithJudgeSet(set)) // in a test: evaltest.New(t, ...)
	tr := &evalkit.Transcript{Messages: []evalkit.Message{
		{Role: evalkit.RoleUser, Content: "Refund order #W123"},
		{Role: evalkit.RoleAssistant, Content: "Your refund was issued."},
	}}
	et.Expect(tr).
		Judge("Is polite", assert.UseJudge("lenient", "")).
		Judge("States the refund amount", assert.UseJudge("strict", "cheap")).
		Eval("llm_judge", map[string]any{"criteria": "States the refund amount", "judge": "strikt"})
	// Output:
	// Judge("States the refund amount", UseJudge("strict", "cheap")): judge's pass/fail: fail, want pass
	// reasoning: the reply never states the amount
	// judge: strict/cheap
	// transcript: 2 messages
	// Eval("llm_judge", {"criteria":"States the refund amount","judge":"strikt"}): error: llm_judge: param "judge": judgeset: judge not found: "strikt" (did you mean "strict"? judges: lenient, strict)
	// transcript: 2 messages
}
