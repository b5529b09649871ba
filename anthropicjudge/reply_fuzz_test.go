package anthropicjudge_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/anthropicjudge"
)

// maxJudgeError bounds a judge's error: the cause, the attempts and a
// fragment of what the server said.
const maxJudgeError = 2048

// FuzzAnthropicjudgeReply: whatever a server answers with status 200,
// the judge returns a verdict on the request's scale or an error that
// names it and the attempts, bounded, with no verdict — never a panic.
// Seeds are the real messages of testdata/api_samples and replies holding
// real verdict shapes, as a tool call and as text.
func FuzzAnthropicjudgeReply(f *testing.F) {
	files, _ := filepath.Glob("../testdata/api_samples/anthropic_*.json")
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		var c struct {
			Interactions []struct {
				Response struct {
					Body json.RawMessage `json:"body"`
				} `json:"response"`
			} `json:"interactions"`
		}
		if err := json.Unmarshal(data, &c); err != nil {
			f.Fatal(err)
		}
		for _, in := range c.Interactions {
			f.Add([]byte(in.Response.Body))
		}
	}
	for _, answer := range []string{goodReply, `{"score": 11}`, `{}`, `{"verdict":"FAIL","passed":true}`} {
		body, _ := json.Marshal(map[string]any{"type": "message", "role": "assistant", "model": "claude-haiku-4-5-20251001",
			"content":     []any{map[string]any{"type": "tool_use", "id": "toolu_1", "name": "evalkit_verdict", "input": json.RawMessage(answer)}},
			"stop_reason": "tool_use", "usage": map[string]any{"input_tokens": 90, "output_tokens": 4}})
		f.Add(body)
	}
	f.Add([]byte(`{"type":"message","content":[{"type":"text","text":"Rating: [[8]]"}],"stop_reason":"end_turn"}`))
	f.Add([]byte(`{"type":"message","content":[{"type":"text","text":"x"}],"stop_reason":"max_tokens"}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		judge := anthropicjudge.New(anthropicjudge.WithBaseURL(testBase), anthropicjudge.WithAPIKey(testKey), anthropicjudge.WithMaxRetries(0),
			anthropicjudge.WithHTTPClient(&http.Client{Transport: roundTrip(func(r *http.Request) (*http.Response, error) {
				return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}}, Body: io.NopCloser(bytes.NewReader(body)), Request: r}, nil
			})}))
		v, err := judge.Judge(context.Background(), refundRequest)
		checkReply(t, "anthropicjudge: 1 attempt: ", v, err)
	})
}

// checkReply holds a judge's answer to one reply to the judge contract.
func checkReply(t *testing.T, prefix string, v evalkit.Verdict, err error) {
	t.Helper()
	if err != nil {
		if !strings.HasPrefix(err.Error(), prefix) {
			t.Fatalf("the error does not name the judge and the attempts: %.300s", err)
		}
		if len(err.Error()) > maxJudgeError {
			t.Fatalf("the error is %d bytes: %.300s…", len(err.Error()), err)
		}
		if v.Raw != "" || v.Scored || v.Label != "" || v.Passed != nil || v.Fields != nil {
			t.Fatalf("a verdict beside an error: %+v", v)
		}
		if strings.Contains(err.Error(), testKey) {
			t.Fatalf("the key in the error: %s", err)
		}
		return
	}
	if !v.Scored && v.Label == "" && v.Passed == nil {
		t.Fatalf("a verdict with no score, label or pass: %+v", v)
	}
	if v.Scored && (math.IsNaN(v.Score) || v.Score < 0 || v.Score > 1) {
		t.Fatalf("score %v off [0,1]", v.Score)
	}
	if v.Usage.CostUSD < 0 || math.IsNaN(v.Usage.CostUSD) || v.Usage.InputTokens < 0 || v.Usage.OutputTokens < 0 {
		t.Fatalf("usage %+v", v.Usage)
	}
}
