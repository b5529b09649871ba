package assert_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
)

// toolBenchRuns are the transcripts the tool-check benchmarks read: a real
// τ-bench airline run (task 8, trial 1: 16 calls, three failed bookings) and
// a synthetic long session of 200 calls over 10 tools.
func toolBenchRuns(b *testing.B) []toolBenchRun {
	b.Helper()
	var steps []toolStep
	for i := range 200 {
		steps = append(steps, toolStep{
			name:    fmt.Sprintf("tool_%d", i%10),
			args:    fmt.Sprintf(`{"id":%d,"query":"item %d","filters":{"page":%d,"tags":["a","b"]}}`, i, i, i%5),
			isError: i%17 == 0,
		})
	}
	return []toolBenchRun{
		{"tau_bench", toolTauRun(b, 8, 1)},
		{"200_calls", toolTranscript(steps...)},
	}
}

type toolBenchRun struct {
	name string
	tr   *evalkit.Transcript
}

func benchToolCheck(b *testing.B, checks map[string]assert.Check) {
	ctx := context.Background()
	for _, run := range toolBenchRuns(b) {
		c, tr := checks[run.name], run.tr
		b.Run(run.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := c.Check(ctx, tr); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkChecksToolsCalled(b *testing.B) {
	benchToolCheck(b, map[string]assert.Check{
		"tau_bench": assert.ToolsCalled{Tools: []string{"get_user_details", "book_reservation"}},
		"200_calls": assert.ToolsCalled{Tools: []string{"tool_1", "tool_9", "missing"}},
	})
}

func BenchmarkChecksToolsArgs(b *testing.B) {
	benchToolCheck(b, map[string]assert.Check{
		"tau_bench": assert.ToolArgs{Tool: "book_reservation", Args: map[string]any{
			"cabin": "business", "passengers": []any{map[string]any{"first_name": "Mohamed"}, map[string]any{}, map[string]any{}},
		}},
		"200_calls": assert.ToolArgs{Tool: "tool_3", Args: map[string]any{"id": 193, "filters": map[string]any{"page": 3}}},
	})
}

// BenchmarkChecksToolsArgsMatching measures several expected calls competing
// for the same calls, where the bipartite matching does real work: ten alike
// expected calls over the twenty calls of tool_4, and on τ-bench five
// expected calls over its three bookings and two calculations.
func BenchmarkChecksToolsArgsMatching(b *testing.B) {
	var many []assert.ExpectedCall
	for range 10 {
		many = append(many, assert.ExpectedCall{Tool: "tool_4", Args: map[string]any{"filters": map[string]any{"page": 4, "tags": []any{"a", "b"}}}})
	}
	benchToolCheck(b, map[string]assert.Check{
		"tau_bench": assert.ToolArgs{Calls: []assert.ExpectedCall{
			{Tool: "book_reservation", Args: map[string]any{"cabin": "business"}},
			{Tool: "book_reservation", Args: map[string]any{"cabin": "business"}},
			{Tool: "book_reservation", Args: map[string]any{"insurance": "no"}},
			{Tool: "calculate"}, {Tool: "calculate"},
		}},
		"200_calls": assert.ToolArgs{Calls: many},
	})
}

func BenchmarkChecksToolsSequence(b *testing.B) {
	benchToolCheck(b, map[string]assert.Check{
		"tau_bench": assert.ToolCallSequence{Sequence: []string{"get_user_details", "cancel_reservation", "book_reservation", "transfer_to_human_agents"}},
		"200_calls": assert.ToolCallSequence{Sequence: []string{"tool_0", "tool_5", "tool_9", "tool_0", "tool_9"}},
	})
}

func BenchmarkChecksToolsNoErrors(b *testing.B) {
	benchToolCheck(b, map[string]assert.Check{
		"tau_bench": assert.NoToolErrors{},
		"200_calls": assert.NoToolErrors{Tools: []string{"tool_0", "tool_7"}},
	})
}

// BenchmarkChecksToolsArgsScale measures tool_args as the number of expected
// calls n grows, each against n calls of one tool: "alike" expects the same
// arguments n times (every expected call matches every call), "distinct"
// expects each call's own id (in reverse order), "unmatched" expects ids no
// call has, so every expected call needs an explanation.
func BenchmarkChecksToolsArgsScale(b *testing.B) {
	ctx := context.Background()
	for _, n := range []int{100, 1000, 3000} {
		steps := make([]toolStep, n)
		for i := range steps {
			steps[i] = toolStep{name: "lookup", args: fmt.Sprintf(`{"kind":"order","id":%d,"page":{"n":%d}}`, i, i%7)}
		}
		tr := toolTranscript(steps...)
		alike, distinct, unmatched := make([]assert.ExpectedCall, n), make([]assert.ExpectedCall, n), make([]assert.ExpectedCall, n)
		for i := range n {
			alike[i] = assert.ExpectedCall{Tool: "lookup", Args: map[string]any{"kind": "order"}}
			distinct[i] = assert.ExpectedCall{Tool: "lookup", Args: map[string]any{"kind": "order", "id": n - 1 - i}}
			unmatched[i] = assert.ExpectedCall{Tool: "lookup", Args: map[string]any{"id": n + i}}
		}
		for _, c := range []struct {
			name  string
			calls []assert.ExpectedCall
			pass  bool
		}{{"alike", alike, true}, {"distinct", distinct, true}, {"unmatched", unmatched, false}} {
			check := assert.ToolArgs{Calls: c.calls}
			b.Run(fmt.Sprintf("%s/n=%d", c.name, n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					res, err := check.Check(ctx, tr)
					if err != nil || res.Passed != c.pass {
						b.Fatal(res.Summary, err)
					}
				}
			})
		}
	}
}
