package golden_test

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalkit-go/evalkit/golden"
	"github.com/evalkit-go/evalkit/judgefake"
)

// agentRequest is an agent-sized chat request: a 6 kB policy prompt, as
// τ-bench's airline agent has, and a conversation of n turns.
func agentRequest(n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, `{"model": "gpt-4o", "temperature": 0, "messages": [{"role": "system", "content": %q}`, strings.Repeat("Policy line about refunds and reservations. ", 140))
	for i := range n {
		fmt.Fprintf(&b, `, {"role": "user", "content": "turn %d: please cancel reservation Z7GOZK"}, {"role": "assistant", "content": "Turn %d done."}`, i, i)
	}
	b.WriteString(`]}`)
	return b.String()
}

func send(b *testing.B, tr http.RoundTripper, body string) {
	req, _ := http.NewRequest(http.MethodPost, "http://fake/v1/chat/completions", strings.NewReader(body))
	resp, err := tr.RoundTrip(req)
	if err != nil {
		b.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
}

// BenchmarkTransportReplayVsFakeServer: one replayed model call of an
// agent-sized request from a 200-interaction recording, against the
// baseline of judgefake.NewTransport answering it in memory (no keying,
// no recording).
func BenchmarkTransportReplayVsFakeServer(b *testing.B) {
	path := filepath.Join(b.TempDir(), "Bench.http.json")
	rec, err := golden.NewTransport(path, judgefake.NewTransport(judgefake.Texts(make([]string, 200)...)...), golden.WithMode(golden.ModeRecord))
	if err != nil {
		b.Fatal(err)
	}
	for i := range 200 {
		send(b, rec, agentRequest(i%20)+strings.Repeat(" ", i/20))
	}
	if err := rec.Save(); err != nil {
		b.Fatal(err)
	}
	if info, err := os.Stat(path); err == nil {
		b.Logf("200 interactions: %d bytes", info.Size())
	}
	body := agentRequest(10)
	b.Run("replay", func(b *testing.B) {
		for b.Loop() {
			tr, err := golden.NewTransport(path, nil) // a fresh count each call: the first occurrence
			if err != nil {
				b.Fatal(err)
			}
			send(b, tr, body)
		}
	})
	b.Run("fake", func(b *testing.B) {
		for b.Loop() {
			send(b, judgefake.NewTransport(judgefake.Text("")), body)
		}
	})
}

// BenchmarkTransportMiss: a replay miss on a 200-interaction recording,
// the nearest found and described.
func BenchmarkTransportMiss(b *testing.B) {
	path := filepath.Join(b.TempDir(), "Bench.http.json")
	rec, err := golden.NewTransport(path, judgefake.NewTransport(judgefake.Texts(make([]string, 200)...)...), golden.WithMode(golden.ModeRecord))
	if err != nil {
		b.Fatal(err)
	}
	for i := range 200 {
		send(b, rec, agentRequest(i%20)+strings.Repeat(" ", i/20))
	}
	if err := rec.Save(); err != nil {
		b.Fatal(err)
	}
	tr, err := golden.NewTransport(path, nil)
	if err != nil {
		b.Fatal(err)
	}
	body := strings.Replace(agentRequest(10), "Policy line", "A changed line", 1)
	for b.Loop() {
		req, _ := http.NewRequest(http.MethodPost, "http://fake/v1/chat/completions", strings.NewReader(body))
		if _, err := tr.RoundTrip(req); err == nil {
			b.Fatal("no miss")
		}
	}
}

// BenchmarkStreamLongEvent passes one 4 MB event with no blank line until
// its end through a recording stream in 4 KB reads: searched once for its
// end, not once per read (which was quadratic: 8 MB took 1.35 s).
func BenchmarkStreamLongEvent(b *testing.B) {
	event := "data: " + strings.Repeat("x", 4<<20) + "\n\n"
	for b.Loop() {
		path := filepath.Join(b.TempDir(), "long.http.json")
		tr, err := golden.NewTransport(path, rtFunc(func(r *http.Request) (*http.Response, error) {
			return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"text/event-stream"}}, Body: io.NopCloser(strings.NewReader(event))}, nil
		}), golden.WithMode(golden.ModeRecord))
		if err != nil {
			b.Fatal(err)
		}
		req, _ := http.NewRequest(http.MethodPost, "http://fake/v1/chat", strings.NewReader(`{"stream": true}`))
		resp, err := tr.RoundTrip(req)
		if err != nil {
			b.Fatal(err)
		}
		if n, _ := io.Copy(io.Discard, resp.Body); n != int64(len(event)) {
			b.Fatalf("read %d bytes, want %d", n, len(event))
		}
		resp.Body.Close()
	}
}
