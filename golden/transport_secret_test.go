package golden_test

import (
	"io"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit/golden"
)

// No credential is ever written: not the Authorization, api-key or
// x-api-key headers, not a key query parameter, not a key-shaped body
// field or string, not a cookie; the user's hook redacts their own
// patterns in requests, responses and streams alike, and rotating the key
// still replays.
func TestTransportSecretsNeverWritten(t *testing.T) {
	const (
		bearer   = "sk-proj-AbCdEf0123456789GhIjKl"
		azureKey = "0123456789abcdef0123456789abcdef"
		anthKey  = "sk-ant-api03-ZyXw9876543210VuTs"
		inBody   = "sk-body-key-5555aaaa6666bbbb"
		inReply  = "sk-echoed-7777cccc8888dddd"
	)
	customer := regexp.MustCompile(`cust-\d{6}`)
	hook := golden.WithRedact(func(s string) string { return customer.ReplaceAllString(s, "cust-XXXXXX") })
	live := rtFunc(func(r *http.Request) (*http.Response, error) {
		io.Copy(io.Discard, r.Body)
		h := http.Header{"Content-Type": {"application/json"}, "Set-Cookie": {"session=abcdef0123456789; HttpOnly"},
			"Openai-Organization": {"org-secret"}, "X-Request-Id": {"req_123"}}
		body := `{"choices": [{"message": {"role": "assistant", "content": "Your key ` + inReply + ` for cust-123456 works."}}], "api_key": "` + inReply + `"}`
		return &http.Response{StatusCode: 200, Header: h, Body: io.NopCloser(strings.NewReader(body))}, nil
	})
	path := httpPath(t)
	rec, err := golden.NewTransport(path, live, golden.WithMode(golden.ModeRecord), hook)
	require.NoError(t, err)
	send := func(tr http.RoundTripper, key string) (*http.Response, error) {
		body := `{"model": "gpt-4o", "api_key": "` + inBody + `", "messages": [{"role": "user", "content": "My key is ` + inBody + `, I am cust-123456."}]}`
		req, err := http.NewRequest(http.MethodPost, "https://example.openai.azure.com/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21&api-key="+key, strings.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Authorization", "Bearer "+bearer)
		req.Header.Set("api-key", key)
		req.Header.Set("x-api-key", anthKey)
		return tr.RoundTrip(req)
	}
	resp, err := send(rec, azureKey)
	require.NoError(t, err)
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.NotContains(t, string(got), inReply, "the client gets the response as it will replay")
	assert.Contains(t, string(got), "cust-XXXXXX")
	assert.Empty(t, resp.Header.Get("Set-Cookie"))
	require.NoError(t, rec.Save())

	data, err := os.ReadFile(path)
	require.NoError(t, err)
	for _, s := range []string{bearer, azureKey, anthKey, inBody, inReply, "cust-123456", "session=", "org-secret", "req_123", "Authorization", "x-api-key"} {
		assert.NotContains(t, string(data), s)
	}
	assert.Contains(t, string(data), `"api-version"`, "a query parameter that is no credential is kept")
	assert.NoError(t, golden.Verify(path))

	replay, err := golden.NewTransport(path, neverLive(t), hook)
	require.NoError(t, err)
	resp, err = send(replay, "fedcba9876543210fedcba9876543210")
	require.NoError(t, err, "a rotated key replays")
	resp.Body.Close()
}

// Verify finds a credential someone pasted into an HTTP recording, and
// says where without showing it.
func TestVerifyHTTPFindsSecrets(t *testing.T) {
	path := httpPath(t)
	rec, err := golden.NewTransport(path, rtFunc(func(r *http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"text/plain"}}, Body: io.NopCloser(strings.NewReader("ok"))}, nil
	}), golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	req, err := http.NewRequest(http.MethodGet, "http://fake/v1/models", nil)
	require.NoError(t, err)
	resp, err := rec.RoundTrip(req)
	require.NoError(t, err)
	resp.Body.Close()
	require.NoError(t, rec.Save())
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	pasted := strings.Replace(string(data), `"body_text": "ok"`, `"body_text": "Authorization: Bearer sk-pasted0123456789abcd"`, 1)
	require.NotEqual(t, string(data), pasted)
	require.NoError(t, os.WriteFile(path, []byte(pasted), 0o644))
	err = golden.Verify(path)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "looks like an OpenAI or Anthropic key (sk-…): sk-p… (23 bytes)")
	assert.NotContains(t, err.Error(), "sk-pasted0123456789abcd")
}
