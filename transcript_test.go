package evalkit_test

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
)

// pairByRule pairs tool messages with calls as the documentation says,
// call by call and without any bookkeeping: the oracle the one-pass
// pairing is checked against. It returns, per call in order, the index of
// the message answering it, or -1.
func pairByRule(msgs []evalkit.Message) []int {
	type call struct {
		id     string
		answer int
	}
	var calls []call
	for k, m := range msgs {
		switch m.Role {
		case evalkit.RoleAssistant:
			for _, c := range m.ToolCalls {
				calls = append(calls, call{id: c.ID, answer: -1})
			}
		case evalkit.RoleTool:
			pick := -1
			if m.ToolCallID != "" { // the most recent unanswered call with the id
				for j := len(calls) - 1; j >= 0; j-- {
					if calls[j].answer < 0 && calls[j].id == m.ToolCallID {
						pick = j
						break
					}
				}
			}
			if pick < 0 {
				for j := range calls { // by order: any call, or one without an id
					if calls[j].answer < 0 && (m.ToolCallID == "" || calls[j].id == "") {
						pick = j
						break
					}
				}
			}
			if pick >= 0 {
				calls[pick].answer = k
			}
		}
	}
	out := make([]int, len(calls))
	for i, c := range calls {
		out[i] = c.answer
	}
	return out
}

// TestToolResultPairingMatchesTheRule checks the one-pass pairing against
// the rule on random transcripts mixing ids, reused ids, empty ids and
// unknown ids.
func TestToolResultPairingMatchesTheRule(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	ids := []string{"", "", "a", "b", "c"}
	for n := range 3000 {
		var msgs []evalkit.Message
		for range 1 + rng.IntN(12) {
			if rng.IntN(2) == 0 {
				var calls []evalkit.ToolCall
				for range 1 + rng.IntN(3) {
					calls = append(calls, evalkit.ToolCall{ID: ids[rng.IntN(len(ids))], Name: "t"})
				}
				msgs = append(msgs, evalkit.Message{Role: evalkit.RoleAssistant, ToolCalls: calls})
				continue
			}
			id := append(ids, "zz")[rng.IntN(len(ids)+1)]
			msgs = append(msgs, evalkit.Message{Role: evalkit.RoleTool, ToolCallID: id, Content: "r"})
		}
		want := pairByRule(msgs)
		tr := &evalkit.Transcript{Messages: msgs}
		calls := tr.ToolCalls()
		require.Len(t, calls, len(want), "transcript %d", n)
		answered := 0
		for i, c := range calls {
			got := -1
			if c.Result != nil {
				got = c.Result.MessageIndex
				answered++
			}
			require.Equal(t, want[i], got, "transcript %d, call %d: %+v", n, i, msgs)
		}
		tools := 0
		for _, m := range msgs {
			if m.Role == evalkit.RoleTool {
				tools++
			}
		}
		assert.Len(t, tr.OrphanResults(), tools-answered, "transcript %d", n)
	}
}

// pairingShapes are transcripts of n calls in one message answered by n
// tool messages: without ids; with one id reused by all; with distinct
// ids; with half the calls without ids and every result naming an id no
// call carries. The first and the last took 5.5 s and 18.7 s at 40,000
// calls when each answer searched the calls before it.
var pairingShapes = []struct {
	name       string
	id, result func(i, n int) string
}{
	{"no ids", func(int, int) string { return "" }, func(int, int) string { return "" }},
	{"one id reused", func(int, int) string { return "a" }, func(int, int) string { return "a" }},
	{"distinct ids", func(i, _ int) string { return strconv.Itoa(i) }, func(i, _ int) string { return strconv.Itoa(i) }},
	{"half without ids, unknown ids", func(i, n int) string {
		if i < n/2 {
			return "x" + strconv.Itoa(i)
		}
		return ""
	}, func(i, _ int) string { return "zz" + strconv.Itoa(i) }},
}

func pairingTranscript(n int, id, result func(i, n int) string) *evalkit.Transcript {
	calls := make([]evalkit.ToolCall, n)
	for i := range calls {
		calls[i] = evalkit.ToolCall{ID: id(i, n), Name: "t"}
	}
	msgs := []evalkit.Message{{Role: evalkit.RoleAssistant, ToolCalls: calls}}
	for i := range n {
		msgs = append(msgs, evalkit.Message{Role: evalkit.RoleTool, ToolCallID: result(i, n), Content: "r"})
	}
	return &evalkit.Transcript{Messages: msgs}
}

// BenchmarkToolCallsPairing pairs 1,000, 10,000 and 100,000 calls of each
// shape; the cost per call (ns/call) stays flat as n grows.
func BenchmarkToolCallsPairing(b *testing.B) {
	for _, shape := range pairingShapes {
		for _, n := range []int{1_000, 10_000, 100_000} {
			tr := pairingTranscript(n, shape.id, shape.result)
			b.Run(fmt.Sprintf("%s/%d", shape.name, n), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if len(tr.ToolCalls()) != n {
						b.Fatal("lost calls")
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/call")
			})
		}
	}
}
