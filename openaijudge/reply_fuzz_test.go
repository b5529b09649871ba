package openaijudge_test

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
	"github.com/evalkit-go/evalkit/openaijudge"
)

// maxJudgeError bounds a judge's error: the cause, the attempts and a
// fragment of what the server said.
const maxJudgeError = 2048

// FuzzOpenaijudgeReply: whatever a server answers with status 200, the
// judge returns a verdict on the request's scale or an error that names
// it and the attempts, bounded, with no verdict — never a panic. Seeds
// are the real chat completions of testdata/api_samples and replies
// holding real verdict shapes.
func FuzzOpenaijudgeReply(f *testing.F) {
	files, _ := filepath.Glob("../testdata/api_samples/openai_chat_*.json")
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
	for _, answer := range []string{goodReply, "Rating: [[8]]", `{"score": 11}`, "", "```json\n{\"score\": 3}\n```", `{"verdict":"FAIL","passed":true}`} {
		body, _ := json.Marshal(map[string]any{"object": "chat.completion", "model": "gpt-4.1-mini",
			"choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": answer}, "finish_reason": "stop"}},
			"usage":   map[string]any{"prompt_tokens": 90, "completion_tokens": 4}})
		f.Add(body)
	}
	f.Add([]byte(`{"object":"chat.completion","choices":[{"message":{"content":[{"type":"text","text":"[[7]]"}],"refusal":""},"finish_reason":"length"}]}`))
	f.Fuzz(func(t *testing.T, body []byte) {
		judge := openaijudge.New(openaijudge.WithBaseURL(testBase), openaijudge.WithAPIKey(testKey), openaijudge.WithMaxRetries(0),
			openaijudge.WithHTTPClient(&http.Client{Transport: roundTrip(func(r *http.Request) (*http.Response, error) {
				return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}}, Body: io.NopCloser(bytes.NewReader(body)), Request: r}, nil
			})}))
		v, err := judge.Judge(context.Background(), refundRequest)
		checkReply(t, "openaijudge: 1 attempt: ", v, err)
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
