package golden_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/golden"
	"github.com/evalkit-go/evalkit/judgefake"
	"github.com/evalkit-go/evalkit/openaijudge"
)

// Regression tests for issue 15's finding 2: recordings kept some
// credentials.

// assertNone fails for each of secrets, or its last 8 bytes, in text.
func assertNone(t *testing.T, text string, secrets ...string) {
	t.Helper()
	for _, s := range secrets {
		assert.NotContains(t, text, s)
		if len(s) > 8 {
			assert.NotContains(t, text, s[len(s)-8:], "the tail of %.12s…", s)
		}
	}
}

// The value of a credential-named request header that has no key shape
// (Azure's "api-key: <32 hex digits>"), echoed in a response body, is
// not written.
func TestIssue15EchoedHeaderValue(t *testing.T) {
	const azureKey = "9f8e7d6c5b4a39281706f5e4d3c2b1a0"
	live := rtFunc(func(r *http.Request) (*http.Response, error) {
		io.Copy(io.Discard, r.Body)
		body := `{"error": {"code": "401", "message": "Access denied due to invalid subscription key ` + r.Header.Get("api-key") + `."}}`
		return &http.Response{StatusCode: 401, Header: http.Header{"Content-Type": {"application/json"}}, Body: io.NopCloser(strings.NewReader(body))}, nil
	})
	path := httpPath(t)
	rec, err := golden.NewTransport(path, live, golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	req, err := http.NewRequest(http.MethodPost, "https://res.openai.azure.com/openai/deployments/d/chat/completions?api-version=2024-10-21", strings.NewReader(`{"messages": []}`))
	require.NoError(t, err)
	req.Header.Set("api-key", azureKey)
	resp, err := rec.RoundTrip(req)
	require.NoError(t, err)
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.NoError(t, rec.Save())
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	assertNone(t, string(data), azureKey)
	assertNone(t, string(got), azureKey)
	assert.Contains(t, string(data), "invalid subscription key [redacted:header:api-key].")
}

// The judge recording's request summary is cleaned with the judge's own
// secret header value, which has no key shape.
func TestIssue15JudgeHeaderValueInSummary(t *testing.T) {
	const headerKey = "0a1b2c3d4e5f60718293a4b5c6d7e8f9"
	srv := judgefake.NewServer(judgefake.Text(`{"reasoning": "fine", "score": 8}`))
	defer srv.Close()
	judge := openaijudge.New(openaijudge.WithBaseURL(srv.URL+"/v1"), openaijudge.WithAPIKey("local"), openaijudge.WithModel("j1"),
		openaijudge.WithHeader("api-key", headerKey), openaijudge.WithHTTPClient(srv.Client()))
	path := recordingPath(t)
	rec, err := golden.New(path, judge, golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	_, err = rec.Judge(context.Background(), evalkit.JudgeRequest{Criteria: "Grade it.", Content: "The agent printed its config: api-key " + headerKey})
	require.NoError(t, err)
	require.NoError(t, rec.Save())
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	assertNone(t, string(data), headerKey)
}

// Key shapes that were missing from the list — Stripe, Groq, SendGrid,
// Google OAuth, npm — are not written by either recording.
func TestIssue15ShapesOnceMissing(t *testing.T) {
	keys := []string{
		"sk_live_" + strings.Repeat("4eC39HqLyjWDarjtT1zdp7dc", 2),
		"gsk_" + strings.Repeat("Wq8Zr2Lp5Xn7Tb4Vc1Hs9", 3)[:52],
		"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",
		"ya29.a0AfH6SMBx3k9Wq2Lp5Xn7Tb4Vc1Hs9Rz0Jd8Kf6Mg3Ny2Pa7Qe5",
		"npm_" + strings.Repeat("a1B2c3D4e5F6", 3),
	}
	text := "keys: " + strings.Join(keys, " ; ")
	live := rtFunc(func(r *http.Request) (*http.Response, error) {
		io.Copy(io.Discard, r.Body)
		body, _ := json.Marshal(map[string]any{"choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": text}}}})
		return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}}, Body: io.NopCloser(strings.NewReader(string(body)))}, nil
	})
	httpFile := httpPath(t)
	tr, err := golden.NewTransport(httpFile, live, golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	req, err := http.NewRequest(http.MethodPost, "http://model/v1/chat/completions", strings.NewReader(`{"messages": [{"role": "user", "content": "`+text+`"}]}`))
	require.NoError(t, err)
	resp, err := tr.RoundTrip(req)
	require.NoError(t, err)
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	require.NoError(t, tr.Save())

	judgeFile := recordingPath(t)
	live2 := newLive(evalkit.Identity{Provider: "test", Model: "m"})
	live2.judge = func(req evalkit.JudgeRequest) (evalkit.Verdict, error) {
		return evalkit.Verdict{Score: 1, Scored: true, Reasoning: "it echoed " + text}, nil
	}
	rec, err := golden.New(judgeFile, live2, golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	_, err = rec.Judge(context.Background(), evalkit.JudgeRequest{Criteria: "c", Content: text})
	require.NoError(t, err)
	require.NoError(t, rec.Save())
	for _, f := range []string{httpFile, judgeFile} {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		assertNone(t, string(data), keys...)
		require.NoError(t, golden.Verify(f))
	}
}

// A key the model streams across events — cut inside a JSON-escaped
// delta, its pieces escaped as a JSON encoder may (\u002d for "-") — is
// not in the recording, whole or in part; the client reads what replay
// gives.
func TestIssue15KeySplitAcrossStreamEvents(t *testing.T) {
	key := "sk-proj-Zr8Lq2Wx5Tn7Vb4Kc1Hs9Md3Pf6Jg0Ya"
	delta := func(s string) string {
		data, _ := json.Marshal(map[string]any{"choices": []any{map[string]any{"index": 0, "delta": map[string]any{"content": s}}}})
		return "data: " + strings.ReplaceAll(string(data), "-", `\u002d`) + "\n\n"
	}
	stream := delta("Your key is ") + delta(key[:11]) + delta(key[11:25]) + delta(key[25:]+" — keep it safe.") + "data: [DONE]\n\n"
	live := rtFunc(func(r *http.Request) (*http.Response, error) {
		io.Copy(io.Discard, r.Body)
		return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"text/event-stream"}}, Body: io.NopCloser(strings.NewReader(stream))}, nil
	})
	path := httpPath(t)
	rec, err := golden.NewTransport(path, live, golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	send := func(tr http.RoundTripper) string {
		req, err := http.NewRequest(http.MethodPost, "http://model/v1/chat/completions", strings.NewReader(`{"stream": true}`))
		require.NoError(t, err)
		resp, err := tr.RoundTrip(req)
		require.NoError(t, err)
		got, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		resp.Body.Close()
		return string(got)
	}
	recorded := send(rec)
	require.NoError(t, rec.Save())
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	for _, text := range []string{string(data), recorded} {
		assertNone(t, text, key[8:], key[11:25], key[25:])
	}
	replay, err := golden.NewTransport(path, neverLive(t))
	require.NoError(t, err)
	assert.Equal(t, recorded, send(replay), "the client read in record mode what replay gives")
	assert.Contains(t, recorded, `[redacted:openai-key]`)
}
