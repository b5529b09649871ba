package golden

import (
	"bytes"
	"encoding/json"
	"io"
	"testing"
)

// rewriteJSON with the identity writes what json.Compact writes, for
// every valid JSON value: key order, numbers and escapes kept.
func FuzzRewriteJSON(f *testing.F) {
	for _, s := range []string{
		`{"b": 1, "a": [1, 2.50, {"c": null, "d": true}], "e": "x<y>&\u00e9\n"}`,
		`[[], {}, [{}], {"a": {"b": {"c": []}}}]`,
		`"top"`, `7e3`, `null`, `  {"a" : "b" }  `,
		`{"choices":[{"message":{"content":null,"tool_calls":[{"function":{"arguments":"{\"x\": 1}"}}]}}]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !json.Valid(data) {
			return
		}
		var want bytes.Buffer
		if err := json.Compact(&want, data); err != nil {
			t.Skip()
		}
		got, err := rewriteJSON(data, func(_, s string) string { return s })
		if err != nil {
			t.Fatalf("rewriteJSON(%q): %v", data, err)
		}
		a, errA := decodeJSON(got)
		b, errB := decodeJSON(want.Bytes())
		if errA != nil || errB != nil {
			t.Fatalf("rewriteJSON(%q) = %q, not JSON", data, got)
		}
		if !bytes.Equal(canonicalOrDie(t, a), canonicalOrDie(t, b)) {
			t.Fatalf("rewriteJSON(%q) = %q, want %q", data, got, want.Bytes())
		}
		if !isCompact(string(got)) {
			t.Fatalf("rewriteJSON(%q) = %q, not compact", data, got)
		}
	})
}

func canonicalOrDie(t *testing.T, v any) []byte {
	data, err := canonical(v)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// A string passes through f with the name of the field that holds it, and
// keys keep their order.
func TestRewriteJSONFields(t *testing.T) {
	got, err := rewriteJSON([]byte(`{"z": "a", "api_key": "sk-x", "list": ["b", {"k": "c"}]}`), func(field, s string) string { return field + "=" + s })
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"z":"z=a","api_key":"api_key=sk-x","list":["=b",{"k":"k=c"}]}`; string(got) != want {
		t.Fatalf("got %s, want %s", got, want)
	}
}

// chunked reads data n bytes at a time, as a network delivers a stream.
type chunked struct {
	data []byte
	n    int
}

func (c *chunked) Read(p []byte) (int, error) {
	if len(c.data) == 0 {
		return 0, io.EOF
	}
	k := min(c.n, len(c.data), len(p))
	copy(p, c.data[:k])
	c.data = c.data[k:]
	return k, nil
}

func (c *chunked) Close() error { return nil }

// Any event stream, however the network cuts it, passes to the client and
// into the recording byte for byte, and replays so.
func FuzzStreamEvents(f *testing.F) {
	f.Add([]byte("event: a\ndata: {\"x\":1}\n\ndata: [DONE]\n\n"), uint8(3))
	f.Add([]byte("data: {\"a\": 1}\r\n\r\n: ping\n\nid: 1\ndata: x\n\ndata: tail"), uint8(1))
	f.Add([]byte("\n\n\r\r\n\r\n"), uint8(2))
	f.Fuzz(func(t *testing.T, data []byte, n uint8) {
		var got Interaction
		s := &streamBody{src: &chunked{data: data, n: int(n%64) + 1},
			done: func(in Interaction, err error) {
				if err != nil {
					t.Fatal(err)
				}
				got = in
			}}
		out, err := io.ReadAll(s)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out, data) {
			t.Fatalf("the client read %q, want %q", out, data)
		}
		replayed, _ := io.ReadAll(&eventReader{events: got.Response.Events})
		if !bytes.Equal(replayed, data) {
			t.Fatalf("replay gives %q, want %q (events %+v)", replayed, data, got.Response.Events)
		}
		// And through the file's encoding.
		raw, err := json.Marshal(got.Response.Events)
		if err != nil {
			t.Fatal(err)
		}
		var back []Event
		if err := json.Unmarshal(raw, &back); err != nil {
			t.Fatal(err)
		}
		replayed, _ = io.ReadAll(&eventReader{events: back})
		if !bytes.Equal(replayed, data) {
			t.Fatalf("replay from the file gives %q, want %q", replayed, data)
		}
	})
}
