package agent_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/evalkit-go/evalkit/evaltest"
	"github.com/evalkit-go/evalkit/examples/agent"
	"github.com/evalkit-go/evalkit/golden"
)

// exampleT stands in for the *testing.T of TestAgent, which an example
// cannot have: evaltest.HTTPClient finds the test's recording by its name.
type exampleT struct {
	testing.TB
	cleanups []func()
}

func (*exampleT) Name() string                 { return "TestAgent" }
func (*exampleT) Helper()                      {}
func (t *exampleT) Cleanup(f func())           { t.cleanups = append(t.cleanups, f) }
func (*exampleT) Failed() bool                 { return false }
func (*exampleT) Skipped() bool                { return false }
func (*exampleT) Errorf(f string, args ...any) { fmt.Printf("FAIL: "+f+"\n", args...) }

// The agent's ten model calls replay from TestAgent's recording,
// testdata/evalkit/TestAgent.http.json: no server, no key.
func Example_replay() {
	t := &exampleT{}
	r := loadRun(t)
	a := &agent.Agent{
		BaseURL:      "http://model.invalid/v1", // never dialled in replay
		Model:        "gpt-4o",
		SystemPrompt: r.system,
		Tools:        tools(t, r),
		Client:       evaltest.HTTPClient(t, golden.WithMode(golden.ModeReplay)).Client,
	}
	tr, err := a.Run(context.Background(), r.users)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range tr.ToolCalls() {
		fmt.Println(c.Name, string(c.Args))
	}
	last, _ := tr.LastAssistant()
	fmt.Println(last.Content[:58])
	for _, f := range t.cleanups {
		f()
	}
	// Output:
	// get_user_details {"user_id":"olivia_gonzalez_2305"}
	// get_reservation_details {"reservation_id": "Z7GOZK"}
	// get_reservation_details {"reservation_id":"K67C4W"}
	// get_reservation_details {"reservation_id":"THY2DG"}
	// cancel_reservation {"reservation_id":"Z7GOZK"}
	// Your reservation with ID **Z7GOZK** has been successfully
}
