// Package tbprobe is run by evaltest's tests as a real test binary, to see
// at which line a *evaltest.T used as a testing.TB reports: in a test, in
// a Repeat's attempt and in a case file's run function. Its tests fail on
// purpose.
package tbprobe

import (
	"os"
	"testing"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/evaltest"
)

// helper is what a user writes for any testing.TB.
func helper(tb testing.TB, msg string) {
	tb.Helper()
	tb.Errorf("helper: %s", msg)
}

func answer(text string) *evalkit.Transcript {
	return &evalkit.Transcript{Messages: []evalkit.Message{
		{Role: evalkit.RoleUser, Content: "Where is my refund?"},
		{Role: evalkit.RoleAssistant, Content: text},
	}}
}

func TestDirect(t *testing.T) {
	et := evaltest.New(t)
	et.Log("logged")          // reported here
	et.Errorf("failed %d", 1) // reported here
	helper(et, "direct")      // reported here
	if _, err := os.Stat(et.TempDir()); err != nil {
		et.Fatal(err)
	}
	et.Expect(answer("Refunded.")).Contains("never said") // reported here
}

func TestRepeat(t *testing.T) {
	et := evaltest.New(t)
	et.Repeat(2, func(et *evaltest.T) { // reported here
		et.Logf("attempt %d", et.Attempt()) // reported here
		et.Logf("attempt %d", et.Attempt()) // reported here
		if et.Attempt() == 2 {
			helper(et, "attempt two") // in the Repeat's message
			et.Fatal("not reached by the message")
		}
	}, evaltest.All())
}

func TestCases(t *testing.T) {
	evaltest.RunCases(t, "cases.yaml", func(et *evaltest.T, c evaltest.Case) *evalkit.Transcript {
		if c.Name == "broken" {
			et.Fatalf("no agent for %q", c.Input) // reported here
		}
		return answer("Your refund is on its way.")
	})
}
