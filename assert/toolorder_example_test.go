package assert_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
)

// cancellationRun is a real τ-bench airline run (task 1, trial 1, GPT-4o): the
// agent looked the user up, then three reservations, then cancelled one.
func cancellationRun() *evalkit.Transcript {
	runs, err := evalkit.LoadAll("../testdata/tau_bench/airline_gpt4o_trajectories.json")
	if err != nil {
		panic(err)
	}
	for _, r := range runs {
		if r.Metadata["task_id"] == 1.0 && r.Metadata["trial"] == 1.0 {
			return r
		}
	}
	panic("no task 1, trial 1")
}

// A partial order: the user and the reservation looked up in any order,
// both before the cancellation. The real run meets it; a run that cancels
// before it has looked the reservation up does not, with Strict.
func ExampleToolCallOrder() {
	order := assert.ToolCallOrder{Stages: [][]assert.ExpectedCall{
		{{Tool: "get_reservation_details", Args: map[string]any{"reservation_id": "Z7GOZK"}}, {Tool: "get_user_details"}},
		{{Tool: "cancel_reservation", Args: map[string]any{"reservation_id": "Z7GOZK"}}},
	}}
	res, err := order.Check(context.Background(), cancellationRun())
	fmt.Println(res.Passed, res.Summary, err)

	hasty := &evalkit.Transcript{Messages: []evalkit.Message{{Role: evalkit.RoleAssistant, ToolCalls: []evalkit.ToolCall{
		{Name: "get_user_details", Args: []byte(`{"user_id": "olivia_gonzalez_2305"}`)},
		{Name: "cancel_reservation", Args: []byte(`{"reservation_id": "Z7GOZK"}`)},
		{Name: "get_reservation_details", Args: []byte(`{"reservation_id": "Z7GOZK"}`)},
		{Name: "cancel_reservation", Args: []byte(`{"reservation_id": "Z7GOZK"}`)},
	}}}}
	order.Strict = true
	res, _ = order.Check(context.Background(), hasty)
	fmt.Println(res.Passed, res.Summary)
	fmt.Println(res.Details[0].Label+":", res.Details[0].Text)
	// Output:
	// true all 3 expected calls in 2 stages matched in order (calls 1, 2, 5) <nil>
	// false stage 2 of 2 [cancel_reservation] begins before stage 1 is done
	// order: call 2 meets stage 2's cancel_reservation {"reservation_id":"Z7GOZK"} but comes before stage 1 is done (call 3)
}

// An anti-pattern with a condition on the arguments: a shell command
// matching rm -rf, anywhere before a backup, or at all. The calls are
// what a coding agent ran.
func ExampleToolAntiPattern_argumentConditions() {
	tr := &evalkit.Transcript{Messages: []evalkit.Message{{Role: evalkit.RoleAssistant, ToolCalls: []evalkit.ToolCall{
		{Name: "run_shell", Args: []byte(`{"command": "ls -la build/"}`)},
		{Name: "run_shell", Args: []byte(`{"command": "rm -rf build/"}`)},
		{Name: "run_shell", Args: []byte(`{"command": "make"}`)},
	}}}}
	rmrf := assert.ExpectedCall{Tool: "run_shell", ArgsMatch: map[string]string{"command": `\brm\s+-(rf|fr)\b`}}
	res, err := assert.ToolAntiPattern{Patterns: []assert.AntiPattern{
		{Steps: []assert.ExpectedCall{rmrf}, Message: "never delete recursively"},
		{Steps: []assert.ExpectedCall{rmrf, {Tool: "backup"}}},
	}}.Check(context.Background(), tr)
	fmt.Println(res.Passed, res.Summary, err)
	fmt.Println(res.Details[0].Text)
	// Output:
	// false found 1 of 2 anti-patterns <nil>
	// pattern 1 run_shell command~"\\brm\\s+-(rf|fr)\\b" found at calls 2: never delete recursively
}

// Typed arguments: the cancellation decoded into the application's own
// struct and compared with go-cmp, here ignoring case.
func ExampleToolArgsAs() {
	type Cancel struct {
		ReservationID string `json:"reservation_id"`
	}
	lower := cmpopts.AcyclicTransformer("lower", strings.ToLower)
	res, err := assert.ToolArgsAs("cancel_reservation", Cancel{ReservationID: "z7gozk"}, lower).Check(context.Background(), cancellationRun())
	fmt.Println(res.Passed, res.Summary, err)

	ids, err := assert.ToolArgsOf[Cancel](cancellationRun(), "cancel_reservation")
	fmt.Println(ids, err)
	// Output:
	// true cancel_reservation (call 5) has these arguments, as assert_test.Cancel <nil>
	// [{Z7GOZK}] <nil>
}
