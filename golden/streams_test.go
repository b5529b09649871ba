package golden_test

// Streamed replies made from unstreamed ones, as each API streams (OpenAI
// Chat Completions chunks, Anthropic Messages events, OpenAI Responses
// events), with the parts of parallel calls and blocks interleaved in a
// random order an API could send or worse: the stream assembly must give
// back the reply whatever the order.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// sseWriter writes server-sent events.
type sseWriter struct{ b bytes.Buffer }

func (w *sseWriter) event(name string, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	if name != "" {
		w.b.WriteString("event: " + name + "\n")
	}
	w.b.WriteString("data: ")
	w.b.Write(data)
	w.b.WriteString("\n\n")
}

// pieces cuts s into 1 to 4 random pieces (one empty piece for "").
func pieces(rng *rand.Rand, s string) []string {
	if s == "" {
		return []string{""}
	}
	r := []rune(s)
	n := 1 + rng.IntN(4)
	var out []string
	for i := 0; i < n && len(r) > 0; i++ {
		k := len(r)
		if i < n-1 {
			k = 1 + rng.IntN(len(r))
		}
		out = append(out, string(r[:k]))
		r = r[k:]
	}
	if len(r) > 0 {
		out = append(out, string(r))
	}
	return out
}

// interleave merges sequences in a random order, keeping each one's own
// order.
func interleave[T any](rng *rand.Rand, seqs [][]T) []T {
	var out []T
	left := slices.Clone(seqs)
	for {
		var open []int
		for i, s := range left {
			if len(s) > 0 {
				open = append(open, i)
			}
		}
		if len(open) == 0 {
			return out
		}
		i := open[rng.IntN(len(open))]
		out = append(out, left[i][0])
		left[i] = left[i][1:]
	}
}

type obj = map[string]any

func decodeObj(t testing.TB, data []byte) obj {
	t.Helper()
	var m obj
	require.NoError(t, json.Unmarshal(data, &m))
	return m
}

// streamOf returns the stream api would send for the reply body.
func streamOf(t testing.TB, api string, body []byte, rng *rand.Rand) []byte {
	t.Helper()
	switch api {
	case "chat":
		return chatStream(t, body, rng)
	case "messages":
		return messagesStream(t, body, rng)
	case "responses":
		return responsesStream(t, body, rng)
	}
	t.Fatalf("no stream for %q", api)
	return nil
}

func chatStream(t testing.TB, body []byte, rng *rand.Rand) []byte {
	r := decodeObj(t, body)
	var w sseWriter
	chunk := func(choices []any, usage any) obj {
		return obj{"id": r["id"], "object": "chat.completion.chunk", "created": r["created"], "model": r["model"], "choices": choices, "usage": usage}
	}
	for _, c := range r["choices"].([]any) {
		choice := c.(obj)
		msg := choice["message"].(obj)
		index := choice["index"]
		delta := func(d obj) obj { return chunk([]any{obj{"index": index, "delta": d, "finish_reason": nil}}, nil) }
		w.event("", delta(obj{"role": msg["role"], "content": nil}))
		var seqs [][]obj
		if s, ok := msg["content"].(string); ok {
			var seq []obj
			for _, p := range pieces(rng, s) {
				seq = append(seq, delta(obj{"content": p}))
			}
			seqs = append(seqs, seq)
		}
		calls, _ := msg["tool_calls"].([]any)
		for i, call := range calls {
			tc := call.(obj)
			fn := tc["function"].(obj)
			seq := []obj{delta(obj{"tool_calls": []any{obj{"index": i, "id": tc["id"], "type": "function", "function": obj{"name": fn["name"], "arguments": ""}}}})}
			for _, p := range pieces(rng, fn["arguments"].(string)) {
				seq = append(seq, delta(obj{"tool_calls": []any{obj{"index": i, "function": obj{"arguments": p}}}}))
			}
			seqs = append(seqs, seq)
		}
		for _, c := range interleave(rng, seqs) {
			w.event("", c)
		}
		w.event("", chunk([]any{obj{"index": index, "delta": obj{}, "finish_reason": choice["finish_reason"]}}, nil))
	}
	w.event("", chunk([]any{}, r["usage"]))
	w.b.WriteString("data: [DONE]\n\n")
	return w.b.Bytes()
}

func messagesStream(t testing.TB, body []byte, rng *rand.Rand) []byte {
	r := decodeObj(t, body)
	var w sseWriter
	start := obj{}
	for k, v := range r {
		start[k] = v
	}
	usage := r["usage"].(obj)
	startUsage := obj{}
	for k, v := range usage {
		startUsage[k] = v
	}
	startUsage["output_tokens"] = 1
	start["content"], start["stop_reason"], start["stop_sequence"], start["usage"] = []any{}, nil, nil, startUsage
	w.event("message_start", obj{"type": "message_start", "message": start})
	var seqs [][]obj
	for i, b := range r["content"].([]any) {
		block := b.(obj)
		skeleton := obj{}
		for k, v := range block {
			skeleton[k] = v
		}
		var deltas []obj
		switch block["type"] {
		case "text":
			skeleton["text"] = ""
			for _, p := range pieces(rng, block["text"].(string)) {
				deltas = append(deltas, obj{"type": "text_delta", "text": p})
			}
		case "tool_use":
			skeleton["input"] = obj{}
			input, err := json.Marshal(block["input"])
			require.NoError(t, err)
			for _, p := range pieces(rng, string(input)) {
				deltas = append(deltas, obj{"type": "input_json_delta", "partial_json": p})
			}
		case "thinking":
			skeleton["thinking"], skeleton["signature"] = "", ""
			for _, p := range pieces(rng, block["thinking"].(string)) {
				deltas = append(deltas, obj{"type": "thinking_delta", "thinking": p})
			}
			deltas = append(deltas, obj{"type": "signature_delta", "signature": block["signature"]})
		}
		seq := []obj{{"type": "content_block_start", "index": i, "content_block": skeleton}}
		for _, d := range deltas {
			seq = append(seq, obj{"type": "content_block_delta", "index": i, "delta": d})
		}
		seq = append(seq, obj{"type": "content_block_stop", "index": i})
		seqs = append(seqs, seq)
	}
	for k, e := range interleave(rng, seqs) {
		if k == 1 {
			w.event("ping", obj{"type": "ping"})
		}
		w.event(e["type"].(string), e)
	}
	w.event("message_delta", obj{"type": "message_delta", "delta": obj{"stop_reason": r["stop_reason"], "stop_sequence": r["stop_sequence"]}, "usage": usage})
	w.event("message_stop", obj{"type": "message_stop"})
	return w.b.Bytes()
}

func responsesStream(t testing.TB, body []byte, rng *rand.Rand) []byte {
	r := decodeObj(t, body)
	var w sseWriter
	created := obj{}
	for k, v := range r {
		created[k] = v
	}
	created["output"], created["status"], created["usage"] = []any{}, "in_progress", nil
	w.event("response.created", obj{"type": "response.created", "response": created})
	var seqs [][]obj
	items := r["output"].([]any)
	keepDone := rng.IntN(2) == 0
	for i, it := range items {
		item := it.(obj)
		skeleton := obj{}
		for k, v := range item {
			skeleton[k] = v
		}
		seq := []obj{}
		switch item["type"] {
		case "message":
			skeleton["content"] = []any{}
			seq = append(seq, obj{"type": "response.output_item.added", "output_index": i, "item": skeleton})
			for ci, part := range item["content"].([]any) {
				p := part.(obj)
				text, _ := p["text"].(string)
				for _, piece := range pieces(rng, text) {
					seq = append(seq, obj{"type": "response.output_text.delta", "output_index": i, "item_id": item["id"], "content_index": ci, "delta": piece})
				}
			}
		case "function_call":
			skeleton["arguments"] = ""
			seq = append(seq, obj{"type": "response.output_item.added", "output_index": i, "item": skeleton})
			for _, piece := range pieces(rng, item["arguments"].(string)) {
				seq = append(seq, obj{"type": "response.function_call_arguments.delta", "item_id": item["id"], "delta": piece})
			}
			seq = append(seq, obj{"type": "response.function_call_arguments.done", "output_index": i, "item_id": item["id"], "arguments": item["arguments"]})
		default:
			seq = append(seq, obj{"type": "response.output_item.added", "output_index": i, "item": item})
		}
		if keepDone {
			seq = append(seq, obj{"type": "response.output_item.done", "output_index": i, "item": item})
		}
		seqs = append(seqs, seq)
	}
	for _, e := range interleave(rng, seqs) {
		w.event(e["type"].(string), e)
	}
	final := r
	if rng.IntN(2) == 0 {
		final = obj{}
		for k, v := range r {
			final[k] = v
		}
		final["output"] = []any{} // servers that leave the items to their events
	}
	w.event("response.completed", obj{"type": "response.completed", "response": final})
	return w.b.Bytes()
}

// apiOf names the API of a request URI's path.
func apiOf(t testing.TB, uri string) string {
	t.Helper()
	uri, _, _ = strings.Cut(uri, "?")
	switch {
	case bytes.HasSuffix([]byte(uri), []byte("/chat/completions")):
		return "chat"
	case bytes.HasSuffix([]byte(uri), []byte("/responses")):
		return "responses"
	case bytes.HasSuffix([]byte(uri), []byte("/messages")):
		return "messages"
	}
	t.Fatalf("no API for %s", uri)
	return ""
}

var _ = fmt.Sprint
