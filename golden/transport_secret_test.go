package golden_test

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
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
	assert.Contains(t, err.Error(), "looks like an OpenAI API key (sk-…): sk-p (4 of 23 bytes)")
	assert.NotContains(t, err.Error(), "sk-pasted0123456789abcd")
}

func gzipped(t *testing.T, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	_, err := io.WriteString(zw, s)
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	return b.Bytes()
}

func deflated(t *testing.T, s string, raw bool) []byte {
	t.Helper()
	var b bytes.Buffer
	var zw io.WriteCloser = zlib.NewWriter(&b)
	if raw {
		fw, err := flate.NewWriter(&b, flate.DefaultCompression)
		require.NoError(t, err)
		zw = fw
	}
	_, err := io.WriteString(zw, s)
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	return b.Bytes()
}

// A compressed body — a response the client asked gzip for itself, or a
// request it compressed — is decoded before it is redacted and keyed: the
// recording holds it plain and redacted, and it replays decoded with no
// Content-Encoding. A coding that cannot be decoded records nothing.
func TestTransportCompressedBodies(t *testing.T) {
	const leaked = "sk-proj-LEAKEDLEAKEDLEAKED1234567890"
	reply := `{"echo":"your key is ` + leaked + `","password":"hunter2hunter2"}`
	request := `{"api_key":"` + leaked + `","messages":[{"role":"user","content":"hi"}]}`
	tests := []struct {
		name            string
		reqCoding       string
		reqBody         []byte
		respCoding      string
		respBody        []byte
		wantErr         string
		wantReqInFile   string
		wantReplayedRaw string
	}{
		{name: "gzip response", respCoding: "gzip", respBody: gzipped(t, reply), reqBody: []byte(`{"a":1}`), wantReqInFile: `"a": 1`},
		{name: "x-gzip response", respCoding: "x-gzip", respBody: gzipped(t, reply), reqBody: []byte(`{"a":1}`), wantReqInFile: `"a": 1`},
		{name: "zlib deflate response", respCoding: "deflate", respBody: deflated(t, reply, false), reqBody: []byte(`{"a":1}`), wantReqInFile: `"a": 1`},
		{name: "raw deflate response", respCoding: "deflate", respBody: deflated(t, reply, true), reqBody: []byte(`{"a":1}`), wantReqInFile: `"a": 1`},
		{name: "gzip request", reqCoding: "gzip", reqBody: gzipped(t, request), respBody: []byte(reply), wantReqInFile: `"content": "hi"`},
		{name: "deflate request", reqCoding: "deflate", reqBody: deflated(t, request, false), respBody: []byte(reply), wantReqInFile: `"content": "hi"`},
		{name: "br response", respCoding: "br", respBody: []byte("\x0b\x02\x80"), reqBody: []byte(`{"a":1}`),
			wantErr: `golden: the live response to POST /v1/chat: Content-Encoding "br", which a recording cannot decode to redact: ask for gzip, deflate or identity (Accept-Encoding)`},
		{name: "zstd request", reqCoding: "zstd", reqBody: []byte("\x28\xb5\x2f\xfd"), respBody: []byte(reply),
			wantErr: `golden: the body of POST /v1/chat: Content-Encoding "zstd", which a recording cannot decode to redact: ask for gzip, deflate or identity (Accept-Encoding)`},
		{name: "corrupt gzip response", respCoding: "gzip", respBody: []byte("not gzip at all"), reqBody: []byte(`{"a":1}`),
			wantErr: "golden: the live response to POST /v1/chat: decoding its gzip Content-Encoding: gzip: invalid header"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			live := rtFunc(func(r *http.Request) (*http.Response, error) {
				got, _ := io.ReadAll(r.Body)
				assert.Equal(t, tc.reqBody, got, "the live API gets the request as it was sent")
				h := http.Header{"Content-Type": {"application/json"}}
				if tc.respCoding != "" {
					h.Set("Content-Encoding", tc.respCoding)
				}
				return &http.Response{StatusCode: 200, Header: h, Body: io.NopCloser(bytes.NewReader(tc.respBody))}, nil
			})
			path := httpPath(t)
			send := func(tr http.RoundTripper) (*http.Response, error) {
				req, err := http.NewRequest(http.MethodPost, "http://fake/v1/chat", bytes.NewReader(tc.reqBody))
				require.NoError(t, err)
				req.Header.Set("Accept-Encoding", "gzip, deflate")
				if tc.reqCoding != "" {
					req.Header.Set("Content-Encoding", tc.reqCoding)
				}
				return tr.RoundTrip(req)
			}
			rec, err := golden.NewTransport(path, live, golden.WithMode(golden.ModeRecord))
			require.NoError(t, err)
			resp, err := send(rec)
			if tc.wantErr != "" {
				require.EqualError(t, err, tc.wantErr)
				require.NoError(t, rec.Save())
				assert.NoFileExists(t, path, "nothing is recorded")
				return
			}
			require.NoError(t, err)
			got, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			assert.Empty(t, resp.Header.Get("Content-Encoding"))
			assert.NotContains(t, string(got), leaked)
			require.NoError(t, rec.Save())

			data, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.NotContains(t, string(data), leaked)
			assert.NotContains(t, string(data), "hunter2")
			assert.NotContains(t, string(data), "body_base64")
			assert.NotContains(t, string(data), "Content-Encoding")
			assert.Contains(t, string(data), tc.wantReqInFile, "the request is recorded decoded")
			assert.NoError(t, golden.Verify(path))

			replay, err := golden.NewTransport(path, neverLive(t))
			require.NoError(t, err)
			resp, err = send(replay)
			require.NoError(t, err, "a compressed request replays: it keys decoded")
			replayed, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			assert.Equal(t, string(got), string(replayed), "replay is what record gave the client")
			assert.Empty(t, resp.Header.Get("Content-Encoding"))
		})
	}
}

// A gzip-compressed event stream is recorded decoded, event by event.
func TestTransportCompressedStream(t *testing.T) {
	const leaked = "sk-proj-STREAMLEAK1234567890abcdef"
	stream := "data: {\"a\":\"" + leaked + "\"}\n\ndata: [DONE]\n\n"
	live := rtFunc(func(r *http.Request) (*http.Response, error) {
		h := http.Header{"Content-Type": {"text/event-stream"}, "Content-Encoding": {"gzip"}}
		return &http.Response{StatusCode: 200, Header: h, Body: io.NopCloser(bytes.NewReader(gzipped(t, stream)))}, nil
	})
	path := httpPath(t)
	rec, err := golden.NewTransport(path, live, golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	req, err := http.NewRequest(http.MethodPost, "http://fake/v1/chat", strings.NewReader(`{"stream":true}`))
	require.NoError(t, err)
	resp, err := rec.RoundTrip(req)
	require.NoError(t, err)
	got, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.NoError(t, resp.Body.Close())
	assert.Equal(t, "data: {\"a\":\"[redacted:openai-key]\"}\n\ndata: [DONE]\n\n", string(got))
	require.NoError(t, rec.Save())
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.NotContains(t, string(data), leaked)
	assert.Contains(t, string(data), `"data_text": "[DONE]"`)
}

// Verify reads bodies and events held as base64, compressed or not: a
// recording made before bodies were decoded, or edited by hand, may hold a
// credential there.
func TestVerifyHTTPScansBase64Bodies(t *testing.T) {
	const key = "sk-proj-HIDDENHIDDEN1234567890abc"
	for _, tc := range []struct {
		name, field string
		value       []byte
		header      string
		want        string
	}{
		{"gzip response", "body_base64", gzipped(t, `{"k":"`+key+`"}`), `"header": {"Content-Encoding": ["gzip"]}, `,
			"interaction 1 (sha256:000000000000 #1): the response's body_base64 (gzip-decoded): looks like an OpenAI API key (sk-…): sk-p (4 of 33 bytes)"},
		{"gzip by its magic", "body_base64", gzipped(t, `{"k":"`+key+`"}`), "",
			"interaction 1 (sha256:000000000000 #1): the response's body_base64 (gzip-decoded): looks like an OpenAI API key (sk-…): sk-p (4 of 33 bytes)"},
		{"binary", "body_base64", append([]byte{0xff, 0xfe}, key...), "",
			"interaction 1 (sha256:000000000000 #1): the response's body_base64: looks like an OpenAI API key (sk-…): sk-p (4 of 33 bytes)"},
		{"deflate response", "body_base64", deflated(t, key, false), `"header": {"Content-Encoding": ["deflate"]}, `,
			"interaction 1 (sha256:000000000000 #1): the response's body_base64 (deflate-decoded): looks like an OpenAI API key (sk-…): sk-p (4 of 33 bytes)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b64, _ := json.Marshal(tc.value)
			file := `{"version": 1, "interactions": [{"key": "sha256:` + strings.Repeat("0", 64) + `", "occurrence": 1,
				"request": {"method": "POST", "path": "/v1"}, "response": {"status": 200, ` + tc.header + `"` + tc.field + `": ` + string(b64) + `},
				"recorded_at": "2026-01-01T00:00:00Z"}]}`
			path := httpPath(t)
			require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
			require.NoError(t, os.WriteFile(path, []byte(file), 0o644))
			err := golden.Verify(path)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.NotContains(t, err.Error(), key)
		})
	}
}
