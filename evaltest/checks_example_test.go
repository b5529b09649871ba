package evaltest_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
	"github.com/evalkit-go/evalkit/evaltest"
)

// printTB prints what a test would report, for the examples: a stand-in
// for the *testing.T of a real test.
type printTB struct{ testing.TB }

func (printTB) Helper()                  {}
func (printTB) Context() context.Context { return context.Background() }
func (printTB) Errorf(format string, args ...any) {
	fmt.Println(strings.ReplaceAll(fmt.Sprintf(format, args...), "\u00a0", " "))
}

func ExampleT_ExpectStream() {
	et := evaltest.New(printTB{}) // in a test: evaltest.New(t)
	deltas := []string{"Sure! Your new pass", "word is hunter2."}
	et.ExpectStream(deltas).
		Excludes("password").
		MaxLength(100)
	// Output:
	// Excludes("password"): found "password" at chunks[0], byte 15 (byte 15 of the stream)
	// match: "password" in chunks[0] "Sure! Your new pass" + chunks[1] "word is hunter2."
	// stream: 2 chunks, 35 bytes
}

func ExampleExpectation_Equals() {
	et := evaltest.New(printTB{})
	tr := &evalkit.Transcript{Messages: []evalkit.Message{
		{Role: evalkit.RoleUser, Content: "Where is my order?"},
		{Role: evalkit.RoleAssistant, Content: `{"order": {"status": "Shipped "}}`},
	}}
	et.Expect(tr).
		Equals("shipped", assert.At("order.status"), assert.CaseInsensitive(), assert.Trim()).
		Equals(assert.AnyOf{"delivered", "returned"}, assert.At("order.status"))
	// Output:
	// Equals(assert.AnyOf{"delivered", "returned"}, At("order.status")): got "Shipped ", want one of "delivered", "returned"
	// diff (-want +got):
	//   string(
	// - 	"delivered",
	// + 	"Shipped ",
	//   )
	// transcript: 2 messages
}

// sentences is a user's own check: a Check and a Describe method.
type sentences struct{ max int }

func (s sentences) Describe() string { return fmt.Sprintf("at most %d sentences", s.max) }

func (s sentences) Check(_ context.Context, tr *evalkit.Transcript) (assert.Result, error) {
	m, ok := tr.LastAssistant()
	if !ok {
		return assert.Result{}, assert.ErrNoOutput
	}
	n := strings.Count(m.Content, ".")
	return assert.Result{Passed: n <= s.max, Summary: fmt.Sprintf("%d sentences", n)}, nil
}

func ExampleExpectation_Check_custom() {
	et := evaltest.New(printTB{})
	tr := &evalkit.Transcript{Messages: []evalkit.Message{{Role: evalkit.RoleAssistant, Content: "One. Two. Three."}}}
	et.Expect(tr).Check(sentences{max: 2})
	// Output:
	// Check(at most 2 sentences): 3 sentences
	// transcript: 1 message
}
