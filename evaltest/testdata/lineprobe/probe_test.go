// Package lineprobe is run by evaltest's tests as a real test binary, to see
// at which line failures are reported. Its test fails on purpose.
package lineprobe

import (
	"testing"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/evaltest"
)

func TestProbe(t *testing.T) {
	tr := &evalkit.Transcript{Messages: []evalkit.Message{
		{Role: evalkit.RoleUser, Content: "hi"},
		{Role: evalkit.RoleAssistant, Content: "hello"},
	}}
	et := evaltest.New(t)
	et.Expect(tr).
		Contains("hello").
		Contains("absent"). // reported here
		Regex("(")          // reported here
	et.Expect(tr).Eval("contains", map[string]any{"patterns": []any{"nope"}}) // reported here
}
