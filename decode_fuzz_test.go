package evalkit_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/evalkit-go/evalkit"
)

// FuzzDecode: whatever the input, Decode returns a transcript or a
// *DecodeError, never a panic; every view and the rendering of a decoded
// transcript run without one; and the JSON evalkit writes for it decodes
// again, to a fixed point. Seeds are the real API bodies of
// testdata/api_samples and one evalkit transcript of every model field.
func FuzzDecode(f *testing.F) {
	files, err := filepath.Glob("testdata/api_samples/*.json")
	if err != nil || len(files) == 0 {
		f.Fatalf("no API samples: %v", err)
	}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		var c cassette
		if err := json.Unmarshal(data, &c); err != nil {
			f.Fatal(err)
		}
		for _, in := range c.Interactions {
			f.Add([]byte(in.Request.Body))
			f.Add([]byte(in.Response.Body))
		}
	}
	f.Add([]byte(agentRun))
	f.Add([]byte(`[{"role": "user", "content": "x"}, {"type": "function_call", "call_id": "c", "name": "f", "arguments": "{\"a\":"}]`))
	f.Add([]byte(`{"messages": [{"role": "user", "content": [{"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}]}]}`))

	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := evalkit.Decode(data)
		if err != nil {
			var de *evalkit.DecodeError
			if !errors.As(err, &de) {
				t.Fatalf("error is not a *DecodeError: %v", err)
			}
			if tr != nil {
				t.Fatalf("a transcript beside an error: %v", err)
			}
			return
		}
		_ = tr.ToolCalls()
		_ = tr.OrphanResults()
		_ = tr.Handoffs()
		_ = tr.Guardrails()
		_, _ = tr.SkillActivations()
		_, _ = tr.Usage()
		_, _ = tr.LatencyMS()
		for _, u := range tr.Turns() {
			_ = u.ToolCalls()
		}
		_ = tr.Workflow.States()
		_ = evalkit.RenderTranscript(tr, evalkit.RenderOptions{})

		out, err := json.Marshal(tr)
		if err != nil {
			t.Fatalf("Marshal: %v", err)
		}
		once, err := evalkit.Decode(out)
		if err != nil {
			t.Fatalf("evalkit's own JSON does not decode: %v\n%s", err, out)
		}
		out, err = json.Marshal(once)
		if err != nil {
			t.Fatalf("Marshal: %v", err)
		}
		twice, err := evalkit.Decode(out)
		if err != nil {
			t.Fatalf("evalkit's own JSON does not decode: %v\n%s", err, out)
		}
		if !reflect.DeepEqual(once, twice) {
			t.Fatalf("not a fixed point:\n%#v\n%#v", once, twice)
		}
	})
}
