package golden_test

// The recording field failures of ../testdata/field-failures.json, read
// from the file, for both kinds of recording: the judge recordings'
// tests are TestGoldenCRLFC17, TestGoldenSecretsC19 and TestGoldenKeyC20;
// these add the HTTP recordings of the agent's own model calls
// (golden.Transport), which meet the same faults.

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit/golden"
)

func fieldInput(t *testing.T, id string) map[string]any {
	t.Helper()
	data, err := os.ReadFile("../testdata/field-failures.json")
	require.NoError(t, err)
	var cases []struct {
		ID    string         `json:"id"`
		Input map[string]any `json:"input"`
	}
	require.NoError(t, json.Unmarshal(data, &cases))
	for _, c := range cases {
		if c.ID == id {
			return c.Input
		}
	}
	t.Fatalf("no case %s", id)
	return nil
}

// okLive answers every request with a chat completion that passes.
func okLive() *countingLive {
	return &countingLive{next: rtFunc(func(r *http.Request) (*http.Response, error) {
		io.Copy(io.Discard, r.Body)
		return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(strings.NewReader(`{"choices": [{"message": {"role": "assistant", "content": "{\"pass\": true, \"score\": 0.9}"}}]}`))}, nil
	})}
}

// post sends a JSON body with headers to url through rt.
func post(t *testing.T, rt http.RoundTripper, url string, body any, header map[string]string) (*http.Response, error) {
	t.Helper()
	data, err := json.Marshal(body)
	require.NoError(t, err)
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, url, bytes.NewReader(data))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := rt.RoundTrip(req)
	if err == nil {
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
	return resp, err
}

// C17: an HTTP recording checked out with CRLF line endings replays, is
// no problem to Verify, and recording writes LF only. (The case's text
// golden is package assert's TestFieldCaseC17TextGolden.)
func TestFieldCaseC17(t *testing.T) {
	path := httpPath(t)
	body := map[string]any{"model": "judge-mini", "messages": []any{map[string]any{"role": "user", "content": "R (identical to the recorded request)"}}}
	rec, err := golden.NewTransport(path, okLive(), golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	_, err = post(t, rec, "http://judge.test/v1/chat/completions", body, nil)
	require.NoError(t, err)
	require.NoError(t, rec.Save())
	lf, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NotContains(t, string(lf), "\r")
	require.NoError(t, os.WriteFile(path, bytes.ReplaceAll(lf, []byte("\n"), []byte("\r\n")), 0o644))
	assert.NoError(t, golden.Verify(path), "CRLF alone is no problem")

	replay, err := golden.NewTransport(path, neverLive(t))
	require.NoError(t, err)
	resp, err := post(t, replay, "http://judge.test/v1/chat/completions", body, nil)
	require.NoError(t, err, "replay hit")
	assert.Equal(t, 200, resp.StatusCode)

	again := okLive()
	rerecord, err := golden.NewTransport(path, again, golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	_, err = post(t, rerecord, "http://judge.test/v1/chat/completions", body, nil)
	require.NoError(t, err)
	body["temperature"] = 0
	_, err = post(t, rerecord, "http://judge.test/v1/chat/completions", body, nil)
	require.NoError(t, err)
	require.NoError(t, rerecord.Save())
	after, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.NotContains(t, string(after), "\r", "recording writes LF only")
	assert.EqualValues(t, 1, again.calls.Load(), "the CRLF entry replayed while recording; only the new request asked")
	f, err := golden.LoadHTTP(path)
	require.NoError(t, err)
	assert.Len(t, f.Interactions, 2, "the CRLF entry kept")
}

// C19, for HTTP recordings: the case's credentials — a Bearer token, an
// X-Api-Key, Basic proxy credentials, a key query parameter and an
// api_key body field — never reach the file, and the same request with
// every credential rotated replays.
func TestFieldCaseC19(t *testing.T) {
	in := fieldInput(t, "C19")
	req := in["record_request"].(map[string]any)
	headers := map[string]string{}
	for k, v := range req["headers"].(map[string]any) {
		headers[k] = v.(string)
	}
	path := httpPath(t)
	live := okLive()
	rec, err := golden.NewTransport(path, live, golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	_, err = post(t, rec, req["url"].(string), req["body"], headers)
	require.NoError(t, err)
	require.NoError(t, rec.Save())
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	for _, secret := range []string{"sk-test-AAAA1111", "ak-test-2222", "AIzaTEST3333", "body-secret-4444", "c3ZjOmh1bnRlcjItdGVzdA=="} {
		assert.NotContains(t, string(data), secret)
	}
	assert.NoError(t, golden.Verify(path))

	// Replay with every secret replaced, as the case's replay_request says.
	rotated := map[string]string{"Authorization": "Bearer sk-test-ZZZZ9999", "X-Api-Key": "ak-test-8888", "Proxy-Authorization": "Basic b3RoZXI6Y3JlZGVudGlhbHM="}
	body := map[string]any{}
	for k, v := range req["body"].(map[string]any) {
		body[k] = v
	}
	body["api_key"] = "body-secret-5555"
	url := strings.Replace(req["url"].(string), "AIzaTEST3333", "AIzaTEST7777", 1)
	replay, err := golden.NewTransport(path, neverLive(t))
	require.NoError(t, err)
	resp, err := post(t, replay, url, body, rotated)
	require.NoError(t, err, "rotated credentials replay")
	assert.Equal(t, 200, resp.StatusCode)
	assert.EqualValues(t, 1, live.calls.Load())
}

// C20, for HTTP recordings: what changes a model's answer — the model,
// temperature given or left out, max_tokens, the rubric in the prompt —
// misses in replay; the same fields in another key order, or other
// credentials, hit.
func TestFieldCaseC20(t *testing.T) {
	in := fieldInput(t, "C20")
	rec := in["recorded"].(map[string]any)
	request := func(change func(m map[string]any)) map[string]any {
		m := map[string]any{"model": rec["model"], "temperature": rec["temperature"], "max_tokens": rec["max_tokens"],
			"messages": []any{map[string]any{"role": "system", "content": rec["rubric"]}, map[string]any{"role": "user", "content": rec["prompt"]}}}
		if change != nil {
			change(m)
		}
		return m
	}
	path := httpPath(t)
	recorder, err := golden.NewTransport(path, okLive(), golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	_, err = post(t, recorder, "http://judge.test/v1/chat/completions", request(nil), map[string]string{"Authorization": "Bearer sk-test-key-one-1111"})
	require.NoError(t, err)
	require.NoError(t, recorder.Save())

	lookup := func(body any, header map[string]string) error {
		replay, err := golden.NewTransport(path, neverLive(t))
		require.NoError(t, err)
		_, err = post(t, replay, "http://judge.test/v1/chat/completions", body, header)
		return err
	}
	for name, change := range map[string]func(m map[string]any){
		"r2 other model":         func(m map[string]any) { m["model"] = "judge-max" },
		"r3 temperature omitted": func(m map[string]any) { delete(m, "temperature") },
		"r4 max_tokens 16":       func(m map[string]any) { m["max_tokens"] = 16 },
		"r5 rubric changed": func(m map[string]any) {
			m["messages"].([]any)[0] = map[string]any{"role": "system", "content": "Must cite the refund window and fees."}
		},
		"temperature 0.0 is 0": nil, // the same number: a hit, below
	} {
		if change == nil {
			continue
		}
		t.Run(name, func(t *testing.T) {
			err := lookup(request(change), nil)
			var nr *golden.NotRecordedError
			require.ErrorAs(t, err, &nr, "a miss is an error, never the recorded answer")
			assert.ErrorIs(t, err, golden.ErrNotRecorded)
		})
	}
	t.Run("r6 key order", func(t *testing.T) {
		reordered := `{"messages": [{"content": "Must cite the refund window.", "role": "system"}, {"content": "Answer: Refunds within 30 days.", "role": "user"}], "max_tokens": 512, "temperature": 0.0, "model": "judge-mini"}`
		assert.NoError(t, lookup(json.RawMessage(reordered), nil))
	})
	t.Run("r7 new api key", func(t *testing.T) {
		assert.NoError(t, lookup(request(nil), map[string]string{"Authorization": "Bearer sk-test-key-two-2222", "X-Api-Key": "other-key-3333"}))
	})
}
