package evalkit_test

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
)

// scaleTranscript is an agent session of about n messages in OpenAI Chat
// Completions JSON: turns of a user request, an assistant tool call (ten
// tools, arguments an object), the tool's JSON result and the assistant's
// answer; the last answer is a JSON object, as a structured-output agent
// gives it.
func scaleTranscript(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"messages": [{"role": "system", "content": "You are a booking agent. Answer in JSON."}`)
	for i := 0; i < n/4; i++ {
		fmt.Fprintf(&b, `, {"role": "user", "content": "Please look up reservation R%06d and tell me its status."}`, i)
		fmt.Fprintf(&b, `, {"role": "assistant", "content": null, "tool_calls": [{"id": "call_%d", "type": "function", "function": {"name": "tool_%d", "arguments": "{\"reservation_id\": \"R%06d\", \"page\": %d}"}}]}`, i, i%10, i, i%5)
		fmt.Fprintf(&b, `, {"role": "tool", "tool_call_id": "call_%d", "content": "{\"reservation_id\": \"R%06d\", \"status\": \"confirmed\", \"flights\": [{\"flight_number\": \"HAT%03d\", \"price\": %d}]}"}`, i, i, i%1000, 100+i%300)
		answer := fmt.Sprintf("Reservation R%06d is confirmed.", i)
		if i == n/4-1 {
			answer = fmt.Sprintf(`{"summary": "Reservation R%06d is confirmed.", "status": "confirmed", "reservation": {"reservation_id": "R%06d", "total_baggages": 2, "flights": [{"flight_number": "HAT%03d", "price": 120}]}}`, i, i, i%1000)
		}
		q, _ := json.Marshal(answer)
		fmt.Fprintf(&b, `, {"role": "assistant", "content": %s}`, q)
	}
	b.WriteString("]}")
	return []byte(b.String())
}

// scaleChecks are the common deterministic checks on scaleTranscript: the
// text and JSON checks read the last answer, the tool checks every call.
func scaleChecks() []assert.Check {
	return []assert.Check{
		assert.Contains{Patterns: []string{"confirmed"}},
		assert.Regex{Pattern: `R\d{6}`},
		assert.JSONPath{Expression: "status", Expected: "confirmed"},
		assert.JSONPath{Expression: "reservation.total_baggages", Expected: 2},
		assert.JSONPath{Expression: "reservation.flights[0].price", Expected: 120},
		assert.JSONSchema{Schema: map[string]any{"type": "object", "required": []any{"summary", "status", "reservation"}}},
		assert.ToolsCalled{Tools: []string{"tool_0", "tool_9"}},
		assert.ToolArgs{Tool: "tool_3", Args: map[string]any{"reservation_id": "R000003"}},
		assert.ToolCallSequence{Sequence: []string{"tool_0", "tool_5", "tool_9"}},
		assert.NoToolErrors{},
	}
}

// BenchmarkScale decodes a transcript of 100 to 100,000 messages and runs
// the common checks on it: ns/msg (and B/msg) stay flat, within ±25%,
// when cost grows with the transcript and no faster (issue 8's target 5).
// heap-B/msg is the decoded transcript's live heap per message: memory
// proportional to the transcript.
func BenchmarkScale(b *testing.B) {
	ctx := context.Background()
	for _, n := range []int{100, 1_000, 10_000, 100_000} {
		data := scaleTranscript(n)
		tr, err := evalkit.Decode(data)
		if err != nil {
			b.Fatal(err)
		}
		msgs := len(tr.Messages)
		b.Run(fmt.Sprintf("decode/messages=%d", n), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := evalkit.Decode(data); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(msgs), "ns/msg")
			b.ReportMetric(heapPerMessage(b, data, msgs), "heap-B/msg")
		})
		checks := scaleChecks()
		b.Run(fmt.Sprintf("checks/messages=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, c := range checks {
					if res, err := c.Check(ctx, tr); err != nil || !res.Passed {
						b.Fatalf("%T: %s %v", c, res.Summary, err)
					}
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(msgs), "ns/msg")
		})
	}
}

// heapPerMessage is the heap a decoded transcript keeps alive, per
// message.
func heapPerMessage(b *testing.B, data []byte, msgs int) float64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	tr, err := evalkit.Decode(data)
	if err != nil {
		b.Fatal(err)
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(tr)
	return float64(after.HeapAlloc-before.HeapAlloc) / float64(msgs)
}
