package evalkit

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// fastInputs are documents to decode both ways: every bundled real run
// (each τ-bench record and retail line alone, and the files whole), the
// recorded API bodies, evalkit's JSON of each of them, and edge cases of
// each rule the fast path keeps to (each named by what it holds).
func fastInputs(t testing.TB) (docs map[string][]byte, files map[string][]byte) {
	t.Helper()
	docs, files = map[string][]byte{}, map[string][]byte{}
	read := func(p string) []byte {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	airline := read("testdata/tau_bench/airline_gpt4o_trajectories.json")
	files["airline"] = airline
	var recs []json.RawMessage
	if err := json.Unmarshal(airline, &recs); err != nil {
		t.Fatal(err)
	}
	for i, r := range recs {
		docs["airline["+string(rune('a'+i))+"]"] = r
	}
	retail := read("testdata/tau_bench/retail_gpt4o_conversations.jsonl")
	files["retail"] = retail
	for i, l := range bytes.Split(bytes.TrimSpace(retail), []byte("\n")) {
		docs["retail["+string(rune('a'+i))+"]"] = l
	}
	samples, _ := filepath.Glob("testdata/api_samples/*.json")
	for _, f := range samples {
		var c struct {
			Interactions []struct {
				Request  struct{ Body json.RawMessage } `json:"request"`
				Response struct{ Body json.RawMessage } `json:"response"`
			} `json:"interactions"`
		}
		if err := json.Unmarshal(read(f), &c); err != nil {
			t.Fatal(err)
		}
		for i, in := range c.Interactions {
			docs[filepath.Base(f)+" request "+string(rune('0'+i))] = in.Request.Body
			docs[filepath.Base(f)+" response "+string(rune('0'+i))] = in.Response.Body
		}
	}
	for name, d := range docs {
		if tr, err := decodePrecise(d); err == nil {
			out, err := json.Marshal(tr)
			if err != nil {
				t.Fatal(err)
			}
			docs[name+" as evalkit JSON"] = out
		}
	}
	for name, d := range fastEdgeCases {
		docs[name] = []byte(d)
	}
	return docs, files
}

// fastEdgeCases hold what the fast path reads and what it must leave to
// the precise path, which then decodes it or reports the error.
var fastEdgeCases = map[string]string{
	"chat list":                 `[{"role": "system", "content": "be brief"}, {"role": "user", "content": "hi"}, {"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{\"a\": 1}"}}]}, {"role": "tool", "tool_call_id": "c1", "content": "ok"}]`,
	"empty list":                `[]`,
	"empty messages":            `{"messages": []}`,
	"escapes":                   `[{"role": "user", "content": "a\"b\\c\/d\b\f\n\r\t\u00e9\u0000\u2028"}]`,
	"escaped role":              `[{"role": "\u0075ser", "content": "x"}]`,
	"surrogate pair":            `[{"role": "user", "content": "\ud83d\ude00"}]`,
	"lone surrogate":            `[{"role": "user", "content": "\ud83d x"}]`,
	"invalid utf-8":             "[{\"role\": \"user\", \"content\": \"a\xffb\"}]",
	"invalid utf-8 skipped":     "[{\"role\": \"user\", \"content\": \"a\", \"x\": \"\xff\"}]",
	"control character":         "[{\"role\": \"user\", \"content\": \"a\x01b\"}]",
	"bad escape":                `[{"role": "user", "content": "\x"}]`,
	"short unicode escape":      `[{"role": "user", "content": "\u00"}]`,
	"duplicate key same":        `[{"role": "user", "content": "a", "content": "a"}]`,
	"duplicate key different":   `[{"role": "user", "content": "a", "content": "b"}]`,
	"duplicate key folded":      `[{"role": "user", "content": "a", "Content": "b"}]`,
	"folded key":                `[{"Role": "user", "content": "a"}]`,
	"kelvin key":                "[{\"role\": \"user\", \"content\": \"a\", \"\u212aey\": 1, \"to\u212a\": 2}]",
	"long s key":                "[{\"role\": \"user\", \"content\": \"a\", \"\u017ftate\": \"s\"}]",
	"kelvin task_id":            "{\"tas\u212a_id\": 5, \"traj\": [{\"role\": \"user\", \"content\": \"x\"}]}",
	"escaped key":               `[{"role": "user", "\u0063ontent": "a"}]`,
	"unknown keys":              `[{"role": "user", "content": "a", "x": {"y": [1, 2.5e3, -0, true, false, null, "z"]}}]`,
	"type key at top":           `[{"role": "user", "content": "a", "type": "message"}]`,
	"type key in messages":      `{"messages": [{"role": "user", "content": "a", "type": "message"}]}`,
	"no role":                   `[{"content": "a"}]`,
	"null role":                 `[{"role": null, "content": "a"}]`,
	"unknown role":              `[{"role": "bot", "content": "a"}]`,
	"developer and function":    `[{"role": "developer", "content": "a"}, {"role": "function", "name": "f", "content": "b"}]`,
	"content number":            `[{"role": "user", "content": 5}]`,
	"text parts":                `[{"role": "user", "content": ["a", {"type": "text", "text": "b"}, {"type": "input_text", "text": null, "cache_control": {"type": "ephemeral"}}]}]`,
	"empty parts":               `[{"role": "user", "content": []}]`,
	"image part":                `[{"role": "user", "content": [{"type": "image_url", "image_url": {"url": "https://x/y.png"}}]}]`,
	"text part without type":    `[{"role": "user", "content": [{"text": "b"}]}]`,
	"text part with file_data":  `[{"role": "user", "content": [{"type": "text", "text": "b", "file_data": 5}]}]`,
	"tool calls of user":        `[{"role": "user", "content": "a", "tool_calls": [{"id": "c", "function": {"name": "f", "arguments": "{}"}}]}]`,
	"evalkit call":              `[{"role": "assistant", "tool_calls": [{"id": "c", "name": "f", "args": {"a": [1, {"b": null}]}}]}]`,
	"arguments object":          `[{"role": "assistant", "tool_calls": [{"id": "c", "function": {"name": "f", "arguments": {"a": 1}}}]}]`,
	"arguments blank":           `[{"role": "assistant", "tool_calls": [{"id": "c", "function": {"name": "f", "arguments": " \n\u00a0"}}]}]`,
	"arguments cut off":         `[{"role": "assistant", "tool_calls": [{"id": "c", "function": {"name": "f", "arguments": "{\"a\": "}}]}]`,
	"arguments null":            `[{"role": "assistant", "tool_calls": [{"id": "c", "function": {"name": "f", "arguments": null}}]}]`,
	"arguments twice same":      `[{"role": "assistant", "tool_calls": [{"id": "c", "function": {"name": "f", "arguments": "{\"a\":1}"}, "args": {"a": 1}}]}]`,
	"arguments twice different": `[{"role": "assistant", "tool_calls": [{"id": "c", "function": {"name": "f", "arguments": "{\"a\":1}"}, "args": {"a": 2}}]}]`,
	"name twice":                `[{"role": "assistant", "tool_calls": [{"id": "c", "name": "f", "function": {"name": "g"}}]}]`,
	"name null":                 `[{"role": "assistant", "tool_calls": [{"id": "c", "function": {"name": null}, "name": "f"}]}]`,
	"name empty":                `[{"role": "assistant", "tool_calls": [{"id": "c", "function": {"name": ""}}]}]`,
	"name number":               `[{"role": "assistant", "tool_calls": [{"id": "c", "function": {"name": 5}}]}]`,
	"function id":               `[{"role": "assistant", "tool_calls": [{"id": "c", "function": {"id": "x", "name": "f"}}]}]`,
	"function not object":       `[{"role": "assistant", "tool_calls": [{"id": "c", "function": "f"}]}]`,
	"tool calls empty":          `[{"role": "assistant", "content": "a", "tool_calls": []}]`,
	"tool calls null":           `[{"role": "assistant", "content": "a", "tool_calls": null, "function_call": null}]`,
	"tool calls object":         `[{"role": "assistant", "content": "a", "tool_calls": {}}]`,
	"function call":             `[{"role": "assistant", "function_call": {"name": "f", "arguments": "{}"}}]`,
	"is_error":                  `[{"role": "tool", "content": "a", "is_error": true}, {"role": "tool", "content": "b", "is_error": false}, {"role": "tool", "content": "c", "is_error": null}]`,
	"is_error string":           `[{"role": "tool", "content": "a", "is_error": "yes"}]`,
	"latency":                   `[{"role": "assistant", "content": "a", "latency_ms": 12.5, "state": "s", "finish_reason": "stop", "name": "n"}]`,
	"latency negative":          `[{"role": "assistant", "content": "a", "latency_ms": -1}]`,
	"latency huge":              `[{"role": "assistant", "content": "a", "latency_ms": 1e999}]`,
	"latency string":            `[{"role": "assistant", "content": "a", "latency_ms": "5"}]`,
	"usage":                     `[{"role": "assistant", "content": "a", "usage": {"input_tokens": 5}}]`,
	"refusal null":              `[{"role": "assistant", "content": "a", "refusal": null, "audio": null, "parts": null}]`,
	"refusal":                   `[{"role": "assistant", "content": null, "refusal": "no"}]`,
	"reasoning":                 `[{"role": "assistant", "content": "a", "reasoning_content": "hm"}]`,
	"trailing comma":            `[{"role": "user", "content": "a"},]`,
	"trailing comma in object":  `[{"role": "user", "content": "a",}]`,
	"trailing data":             `[{"role": "user", "content": "a"}] x`,
	"two documents":             `[{"role": "user", "content": "a"}] []`,
	"leading zero":              `[{"role": "user", "content": "a", "x": 01}]`,
	"bad number":                `[{"role": "user", "content": "a", "x": 1.}]`,
	"bad literal":               `[{"role": "user", "content": "a", "x": nul}]`,
	"deep":                      `[{"role": "user", "content": "a", "x": ` + strings.Repeat("[", 300) + strings.Repeat("]", 300) + `}]`,
	"cut off":                   `[{"role": "user", "content": "a"`,
	"tau record":                `{"task_id": 3, "trial": 0, "reward": 1.0, "info": {"a": [1]}, "traj": [{"role": "user", "content": "x"}, {"role": "tool", "content": "Error: no"}]}`,
	"tau record string id":      `{"task_id": "t3", "reward": null, "traj": [{"role": "user", "content": "x"}]}`,
	"tau record object id":      `{"task_id": {"a": 1}, "traj": [{"role": "user", "content": "x"}]}`,
	"tau record with tools":     `{"traj": [{"role": "user", "content": "x"}], "tools": [{"name": "f"}], "metadata": [1]}`,
	"messages and traj":         `{"messages": [], "traj": []}`,
	"messages null":             `{"messages": null}`,
	"messages and input":        `{"messages": [], "input": "x"}`,
	"messages with system":      `{"system": "be brief", "messages": [{"role": "user", "content": "x"}]}`,
	"Messages":                  `{"Messages": [{"role": "user", "content": "x"}]}`,
	"messages with error":       `{"messages": [{"role": "user", "content": "x"}], "error": null}`,
	"metadata":                  `{"messages": [{"role": "user", "content": "x"}], "metadata": {"a": 1, "b": "c", "d": true, "e": null}}`,
	"metadata nested":           `{"messages": [{"role": "user", "content": "x"}], "metadata": {"a": {"b": 1}}}`,
	"metadata empty":            `{"messages": [{"role": "user", "content": "x"}], "metadata": {}}`,
	"metadata not object":       `{"messages": [{"role": "user", "content": "x"}], "metadata": "x"}`,
	"metadata duplicate":        `{"messages": [{"role": "user", "content": "x"}], "metadata": {"a": 1, "a": 2}}`,
	"tools":                     `{"messages": [{"role": "user", "content": "x"}], "tools": [{"type": "function", "function": {"name": "f", "description": "d", "parameters": {"type": "object"}, "strict": true}}, {"type": "web_search"}, {"name": "g", "input_schema": {"type": "object"}}]}`,
	"tools empty":               `{"messages": [], "tools": []}`,
	"tools null":                `{"messages": [], "tools": null}`,
	"tool without name":         `{"messages": [], "tools": [{"type": "function", "function": {"description": "d"}}]}`,
	"tool with both schemas":    `{"messages": [], "tools": [{"name": "f", "parameters": {}, "input_schema": {}}]}`,
	"tool flat and function":    `{"messages": [], "tools": [{"name": "f", "function": {"name": "g"}}]}`,
	"tool parameters null":      `{"messages": [], "tools": [{"type": "function", "function": {"name": "f", "parameters": null}}]}`,
	"tool not object":           `{"messages": [], "tools": ["f"]}`,
	"one message":               `{"role": "user", "content": "x"}`,
	"chat response":             `{"choices": [{"message": {"role": "assistant", "content": "x"}, "finish_reason": "stop"}]}`,
	"whitespace":                " \t\r\n[ { \"role\" : \"user\" , \"content\" : \"a\" } ] \n",
	"empty":                     ``,
	"not json":                  `hello`,
	"number":                    `5`,
	"tau records in array":      `[{"traj": [{"role": "user", "content": "x"}]}, {"messages": [{"role": "user", "content": "y"}]}]`,
	"record then message":       `[{"traj": [{"role": "user", "content": "x"}]}, {"role": "user", "content": "y"}]`,
	"record with role":          `[{"traj": [{"role": "user", "content": "x"}], "role": "user"}]`,
	"record with Type":          `[{"traj": [{"role": "user", "content": "x"}], "Type": null}]`,
}

// TestDecodeFastAsPrecise: on the real runs, the API bodies, evalkit's JSON
// of them and each edge case, whatever the fast path reads is exactly what
// the precise path reads, which reports no error for it; and the real runs
// and evalkit's JSON of them do take the fast path, which the benchmarks
// measure.
func TestDecodeFastAsPrecise(t *testing.T) {
	docs, files := fastInputs(t)
	fast := 0
	for name, d := range docs {
		got, ok := decodeFast(d)
		want, err := decodePrecise(d)
		switch {
		case ok && err != nil:
			t.Errorf("%s: the fast path read what the precise path rejects: %v", name, err)
		case ok && !reflect.DeepEqual(got, want):
			t.Errorf("%s: the fast path read\n%#v\nthe precise path\n%#v", name, got, want)
		case ok:
			fast++
		case strings.HasPrefix(name, "airline[") || strings.HasPrefix(name, "retail["):
			t.Errorf("%s: a real run does not take the fast path", name)
		}
		gotAll, okAll := decodeAllFast(d)
		wantAll, errAll := decodeAllPrecise(bytes.TrimSpace(d))
		switch {
		case okAll && errAll != nil:
			t.Errorf("%s: DecodeAll's fast path read what the precise path rejects: %v", name, errAll)
		case okAll && !reflect.DeepEqual(gotAll, wantAll):
			t.Errorf("%s: DecodeAll's fast path read\n%#v\nthe precise path\n%#v", name, gotAll, wantAll)
		}
	}
	for name, d := range files {
		got, ok := decodeAllFast(d)
		want, err := decodeAllPrecise(bytes.TrimSpace(d))
		if err != nil {
			t.Fatal(err)
		}
		if name == "airline" && !ok {
			t.Errorf("%s: the real runs do not take DecodeAll's fast path", name)
		}
		if ok && !reflect.DeepEqual(got, want) {
			t.Errorf("%s: DecodeAll's fast path differs from the precise path", name)
		}
	}
	for _, name := range []string{"chat list", "escapes", "text parts", "evalkit call", "tau record", "tools", "metadata", "is_error", "latency", "kelvin key"} {
		if _, ok := decodeFast([]byte(fastEdgeCases[name])); !ok {
			t.Errorf("%s: not read by the fast path", name)
		}
	}
	t.Logf("%d of %d documents read by the fast path", fast, len(docs))
}

// FuzzDecodeFast: whatever the input, what the fast path reads is exactly
// what the precise path reads, without an error; seeds are the inputs of
// TestDecodeFastAsPrecise.
func FuzzDecodeFast(f *testing.F) {
	docs, _ := fastInputs(f)
	for _, d := range docs {
		f.Add(d)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, ok := decodeFast(data); ok {
			want, err := decodePrecise(data)
			if err != nil {
				t.Fatalf("the fast path read what the precise path rejects: %v", err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("the fast path read\n%#v\nthe precise path\n%#v", got, want)
			}
		}
		if got, ok := decodeAllFast(data); ok {
			want, err := decodeAllPrecise(bytes.TrimSpace(data))
			if err != nil {
				t.Fatalf("DecodeAll's fast path read what the precise path rejects: %v", err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("DecodeAll's fast path read\n%#v\nthe precise path\n%#v", got, want)
			}
		}
	})
}
