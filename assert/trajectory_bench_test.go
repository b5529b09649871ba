package assert_test

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
)

// The trajectory benchmarks read the longest bundled τ-bench run, airline
// task 33 trial 0 (23 calls, 20 ground-truth actions), and compare each
// check with the loop a user would write by hand for the same question:
// json.Unmarshal each call's arguments, compare the expected keys with
// reflect.DeepEqual, take the first free call that fits. The baseline
// gives no explanation, matches greedily (so it can miss an assignment
// that exists) and compares numbers as float64.

func tauBenchLongest(b *testing.B) (*evalkit.Transcript, []assert.ExpectedCall) {
	b.Helper()
	for _, c := range loadTauCases(b) {
		if c.name != "airline/task_33/trial_0" {
			continue
		}
		var calls []assert.ExpectedCall
		for _, a := range c.actions {
			m := a.(map[string]any)
			calls = append(calls, assert.ExpectedCall{Tool: m["tool_name"].(string), Args: m["expected_args"].(map[string]any)})
		}
		return c.tr, calls
	}
	b.Fatal("no airline/task_33/trial_0")
	return nil, nil
}

// handwrittenMatch is the baseline: for each expected call in turn, the
// first unused call (after the previous one's, when ordered) whose tool
// and expected keys fit, and, when noError, whose result is no error.
func handwrittenMatch(tr *evalkit.Transcript, want []assert.ExpectedCall, ordered, noError bool) int {
	calls := tr.ToolCalls()
	used := make([]bool, len(calls))
	matched, pos := 0, -1
	for _, w := range want {
		for i := pos + 1; i < len(calls); i++ {
			c := calls[i]
			if used[i] || c.Name != w.Tool {
				continue
			}
			var args map[string]any
			if json.Unmarshal(c.Args, &args) != nil && len(c.Args) > 0 {
				continue
			}
			ok := true
			for k, v := range w.Args {
				wv, _ := json.Marshal(v)
				var norm any
				_ = json.Unmarshal(wv, &norm)
				if !reflect.DeepEqual(norm, args[k]) {
					ok = false
					break
				}
			}
			if ok && noError && (c.Result == nil || c.Result.IsError || strings.HasPrefix(c.Result.Content, "Error")) {
				ok = false
			}
			if ok {
				used[i] = true
				matched++
				if ordered {
					pos = i
				}
				break
			}
		}
	}
	return matched
}

func BenchmarkToolCallChain(b *testing.B) {
	tr, want := tauBenchLongest(b)
	steps := make([]assert.ExpectedCall, len(want))
	for i, w := range want {
		w.NoError = true
		steps[i] = w
	}
	ctx := context.Background()
	check := assert.ToolCallChain{Steps: steps}
	b.Run("evalkit", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := check.Check(ctx, tr); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("handwritten_loop", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			handwrittenMatch(tr, steps, true, true)
		}
	})
}

func BenchmarkToolCallsWithArgs(b *testing.B) {
	tr, want := tauBenchLongest(b)
	ctx := context.Background()
	check := assert.ToolCallsWithArgs{Calls: want}
	b.Run("evalkit", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := check.Check(ctx, tr); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("handwritten_loop", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			handwrittenMatch(tr, want, false, false)
		}
	})
}
