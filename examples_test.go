package evalkit_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/evaltest"
)

// printingTB stands in for the *testing.T an example cannot have: it prints
// what evaltest reports, indented as go test indents a multi-line failure.
type printingTB struct{ testing.TB }

func (printingTB) Helper()                  {}
func (printingTB) Context() context.Context { return context.Background() }
func (printingTB) Errorf(format string, args ...any) {
	fmt.Println("FAIL: " + strings.ReplaceAll(fmt.Sprintf(format, args...), "\n", "\n    "))
}

// airlineRun loads one real τ-bench airline run by task id and trial.
func airlineRun(taskID, trial float64) *evalkit.Transcript {
	runs, err := evalkit.LoadAll("testdata/tau_bench/airline_gpt4o_trajectories.json")
	if err != nil {
		panic(err)
	}
	for _, tr := range runs {
		if tr.Metadata["task_id"] == taskID && tr.Metadata["trial"] == trial {
			return tr
		}
	}
	panic("no such run")
}

// A real GPT-4o run that cancelled the right reservation (τ-bench airline
// task 1, trial 1, reward 1): every check of the chain passes.
func Example_passingChain() {
	tr := airlineRun(1, 1)
	t := printingTB{} // in a test: the *testing.T

	ok := evaltest.New(t).Expect(tr).
		ToolsCalled("get_user_details", "cancel_reservation").
		ToolArgs("cancel_reservation", map[string]any{"reservation_id": "Z7GOZK"}).
		ToolCallSequence("get_reservation_details", "cancel_reservation").
		NoToolErrors().
		Contains("Z7GOZK", "successfully cancelled").
		OK()
	fmt.Println("passed:", ok)
	// Output: passed: true
}

// The same task, trial 0 (reward 0): the agent never found the reservation
// and cancelled nothing. Expect reports each failed check and goes on.
func Example_failingChain() {
	tr := airlineRun(1, 0)
	t := printingTB{} // in a test: the *testing.T

	evaltest.New(t).Expect(tr).
		ToolsCalled("cancel_reservation").
		Excludes("cancelled").
		Contains("refund")
	// Output:
	// FAIL: ToolsCalled("cancel_reservation"): missing "cancel_reservation"
	//     called: none
	//     transcript: 12 messages
	// FAIL: Contains("refund"): missing "refund"
	//     output: "You're welcome! If you have any other questions or need further assistance, feel free to reach out. Safe travels, and I hope you feel better soon!"
	//     transcript: 12 messages
}

// Decode reads an OpenAI Chat Completions message list; each tool call is
// linked to the tool message that answered it.
func ExampleDecode() {
	tr, err := evalkit.Decode([]byte(`[
		{"role": "user", "content": "Weather in Lyon?"},
		{"role": "assistant", "content": null, "tool_calls": [
			{"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Lyon\"}"}}]},
		{"role": "tool", "tool_call_id": "c1", "content": "12C, rain"},
		{"role": "assistant", "content": "It is 12C and raining."}
	]`))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range tr.ToolCalls() {
		fmt.Printf("%s(%s) -> %s\n", c.Name, c.Args, c.Result.Content)
	}
	last, _ := tr.LastAssistant()
	fmt.Println(last.Content)
	// Output:
	// get_weather({"city":"Lyon"}) -> 12C, rain
	// It is 12C and raining.
}

// Decode errors name the JSON location and what was expected there.
func ExampleDecode_error() {
	_, err := evalkit.Decode([]byte(`{"messages": [{"role": "assistant", "tool_calls": [{"function": {"name": 7}}]}]}`))
	fmt.Println(err)
	// Output: evalkit: messages[0].tool_calls[0].function.name: want a string, got a number
}
