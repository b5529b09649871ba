package golden

import (
	"bytes"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
)

// maxDecodeError bounds the text of an error reading a recording: it
// names the file and the problem, and quotes no more than a fragment.
const maxDecodeError = 1024

// recordingSeeds adds the first entry (or interaction) of each of the
// repository's real recordings to f, as written, with CRLF line endings
// and after a byte order mark: small seeds the fuzzer mutates quickly (a
// whole 140 KB recording runs a few executions a second).
func recordingSeeds(f *testing.F, paths ...string) {
	f.Helper()
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		end := bytes.Index(data, []byte("\n    }\n  ]"))
		if j := bytes.Index(data, []byte("\n    },\n")); j > 0 && (end < 0 || j < end) {
			end = j
		}
		if end < 0 {
			f.Fatalf("%s: no entry", p)
		}
		first := append(append([]byte(nil), data[:end+6]...), "\n  ]\n}\n"...)
		f.Add(first)
		f.Add(bytes.ReplaceAll(first, []byte("\n"), []byte("\r\n")))
		f.Add(append([]byte("\xef\xbb\xbf"), first...))
	}
	for _, s := range []string{`{}`, `{"version": 1}`, `{"version": 1, "entries": []}`, `{"version": 2}`, `{"version": 1, "interactions": null}`, ``, `[`} {
		f.Add([]byte(s))
	}
}

// FuzzDecode: any bytes read as a judge recording give a recording or an
// error naming the file, bounded — never a panic; a recording read writes
// bytes that read back to the same recording and the same bytes, and its
// verdicts copy out whole. Seeds are the repository's real recordings.
func FuzzDecode(f *testing.F) {
	recordingSeeds(f, "../testdata/evalkit/TestMTBenchJudgments.judge.json", "../examples/agent/testdata/evalkit/TestAgent.judge.json")
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Decode("fuzz.judge.json", data)
		if err != nil {
			checkDecodeError(t, file == nil, err)
			return
		}
		out, err := file.Marshal()
		if err != nil {
			t.Fatalf("a recording read cannot be written: %v", err)
		}
		again, err := Decode("again.judge.json", out)
		if err != nil {
			t.Fatalf("what Marshal wrote does not read: %v\n%s", err, out)
		}
		twice, err := again.Marshal()
		if err != nil || !bytes.Equal(out, twice) {
			t.Fatalf("not a fixed point (%v):\n%s\n%s", err, out, twice)
		}
		for _, e := range file.Entries {
			if _, err := e.verdict(); err != nil {
				t.Fatalf("entry %s: %v", e.Key, err)
			}
		}
	})
}

// FuzzDecodeHTTP: any bytes read as an HTTP recording give a recording or
// an error naming the file, bounded — never a panic; a recording read
// writes bytes that read back the same, and every interaction replays a
// response whose body reads to its end.
func FuzzDecodeHTTP(f *testing.F) {
	recordingSeeds(f, "../examples/agent/testdata/evalkit/TestAgent.http.json")
	f.Add([]byte(`{"version": 1, "interactions": [{"key": "sha256:` + strings.Repeat("a", 64) + `", "occurrence": 1, "request": {"method": "POST", "path": "/v1/messages"},
		"response": {"status": 200, "header": {"Content-Type": ["text/event-stream"]}, "events": [{"event": "ping", "data": {}}, {"data_text": "[DONE]"}, {"raw": ": c\n\n"}, {"raw_base64": "/w=="}]}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := DecodeHTTP("fuzz.http.json", data)
		if err != nil {
			checkDecodeError(t, file == nil, err)
			return
		}
		out, err := file.Marshal()
		if err != nil {
			t.Fatalf("a recording read cannot be written: %v", err)
		}
		again, err := DecodeHTTP("again.http.json", out)
		if err != nil {
			t.Fatalf("what Marshal wrote does not read: %v\n%s", err, out)
		}
		if twice, err := again.Marshal(); err != nil || !bytes.Equal(out, twice) {
			t.Fatalf("not a fixed point (%v):\n%s\n%s", err, out, twice)
		}
		for _, in := range file.Interactions {
			req, err := http.NewRequest(in.Request.Method, "http://judge.test/", nil)
			if err != nil {
				continue // a method net/http refuses is never sent, so never replayed
			}
			resp := in.response(req)
			if _, err := io.ReadAll(resp.Body); err != nil {
				t.Fatalf("interaction %s: reading the replayed body: %v", in.ID(), err)
			}
		}
	})
}

func checkDecodeError(t *testing.T, noFile bool, err error) {
	t.Helper()
	if !noFile {
		t.Fatalf("a recording beside an error: %v", err)
	}
	msg := err.Error()
	if !strings.Contains(msg, "fuzz.") {
		t.Fatalf("the error does not name the file: %v", err)
	}
	if len(msg) > maxDecodeError {
		t.Fatalf("the error is %d bytes: %.200s…", len(msg), msg)
	}
}
