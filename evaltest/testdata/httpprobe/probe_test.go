// Package httpprobe is run by evaltest's TestHTTPClientEndToEnd with a
// real go test: parallel, same-named subtests whose agent calls a model
// API through evaltest.HTTPTransport and whose answers a judge grades, so
// one EVALKIT_MODE records both. It runs in $PROBE_DIR, so its recordings
// are written there; its model API and judge refuse to be asked when
// $PROBE_NO_LIVE is set.
package httpprobe

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/evaltest"
	"github.com/evalkit-go/evalkit/judgefake"
)

func TestMain(m *testing.M) {
	if dir := os.Getenv("PROBE_DIR"); dir != "" {
		if err := os.Chdir(dir); err != nil {
			panic(err)
		}
	}
	os.Exit(m.Run())
}

// model is a deterministic model API: it answers a chat request with a
// digest of its body, as an OpenAI chat completion.
type model struct{}

func (model) RoundTrip(r *http.Request) (*http.Response, error) {
	if os.Getenv("PROBE_NO_LIVE") != "" {
		return nil, errors.New("the live model API was asked")
	}
	body, _ := io.ReadAll(r.Body)
	sum := sha256.Sum256(body)
	answer := `{"choices": [{"message": {"role": "assistant", "content": "answer ` + hex.EncodeToString(sum[:3]) + `"}}]}`
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}}, Body: io.NopCloser(strings.NewReader(answer))}, nil
}

// judge is a deterministic fake with a real judge's identity.
type judge struct{}

func (judge) Judge(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
	if os.Getenv("PROBE_NO_LIVE") != "" {
		return evalkit.Verdict{}, errors.New("the live judge was asked")
	}
	return judgefake.Pass().Judge(ctx, req)
}

func (judge) Identity() evalkit.Identity {
	return evalkit.Identity{Provider: "openai", Model: "gpt-4.1-mini"}
}

// ask is the smallest agent: one chat completion, its answer back.
func ask(t *testing.T, client *http.Client, question string) string {
	t.Helper()
	body := fmt.Sprintf(`{"model": "gpt-4o", "messages": [{"role": "user", "content": %q}]}`, question)
	resp, err := client.Post("https://api.openai.example/v1/chat/completions", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out struct {
		Choices []struct {
			Message struct{ Content string } `json:"message"`
		} `json:"choices"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || len(out.Choices) == 0 {
		t.Fatalf("no answer: %v", err)
	}
	return out.Choices[0].Message.Content
}

func TestAgent(t *testing.T) {
	for i := range 6 {
		t.Run("case", func(t *testing.T) { // case, case#01, ... case#05
			t.Parallel()
			client := &http.Client{Transport: evaltest.HTTPTransport(t, model{})}
			question := fmt.Sprintf("Refund order #W%d", i%3)
			first := ask(t, client, question)
			again := ask(t, client, question) // an identical request: the second recorded answer
			tr := &evalkit.Transcript{Messages: []evalkit.Message{
				{Role: evalkit.RoleUser, Content: question},
				{Role: evalkit.RoleAssistant, Content: first + " / " + again},
			}}
			evaltest.New(t, evaltest.WithJudge(judge{})).Expect(tr).Judge("Answers the request")
		})
	}
}
