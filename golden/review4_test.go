package golden_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/golden"
	"github.com/evalkit-go/evalkit/internal/secret/secrettest"
)

// Regression tests of the fourth hostile review of issue 15.

// A journal holds what the recording would, redacted: a verdict's
// criterion names, panel members' names and tool names were not cleaned
// string by string, only by Save's pass over the whole file, which a
// journal left by a kill (beside the recording, where git add takes it)
// never had.
func TestReview4JournalRedactsEveryString(t *testing.T) {
	path := recordingPath(t)
	key := secrettest.All()[2].Secret // an OpenAI key
	live := &liveJudge{id: testIdentity, judge: func(req evalkit.JudgeRequest) (evalkit.Verdict, error) {
		v := richVerdict(req)
		v.Criteria[0].Name = "never repeats " + key
		v.Votes = []evalkit.Vote{{Judge: "judge " + key, Verdict: richVerdict(req)}}
		v.ToolCalls = []evalkit.JudgeToolCall{{Name: "lookup " + key, Result: "ok"}}
		return v, nil
	}}
	rec, err := golden.New(path, live, golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	_, err = rec.Judge(context.Background(), refundRequest())
	require.NoError(t, err)
	data, err := os.ReadFile(path + golden.JournalSuffix)
	require.NoError(t, err)
	assertNone(t, string(data), key)
	assert.Contains(t, string(data), "[redacted:openai-key]")
	require.NoError(t, rec.Save())
	data, err = os.ReadFile(path)
	require.NoError(t, err)
	assertNone(t, string(data), key)
}

// echoPlain answers every request with what it was sent — the URL, the
// body as plain text — as a server's error or debug page does; gz sends
// it as a gzip payload with no Content-Encoding (a .gz download).
func echoPlain(gz bool) http.RoundTripper {
	return rtFunc(func(r *http.Request) (*http.Response, error) {
		body, _ := io.ReadAll(r.Body)
		text := "you asked " + r.URL.String() + " with " + string(body)
		h := http.Header{"Content-Type": {"text/plain"}}
		out := []byte(text)
		if gz {
			var b bytes.Buffer
			zw := gzip.NewWriter(&b)
			zw.Write(out)
			zw.Close()
			out, h = b.Bytes(), http.Header{"Content-Type": {"application/octet-stream"}}
		}
		return &http.Response{StatusCode: 200, Header: h, Body: io.NopCloser(bytes.NewReader(out))}, nil
	})
}

// What the HTTP recording wrote plain: a Telegram bot token in the URL's
// path (and the response that echoes it), a credential sent as a
// multipart field or JSON field and echoed back in another form, and any
// of them in a gzip payload the server sent with no Content-Encoding,
// which the recording kept base64, compressed, past the redactor.
func TestReview4HTTPRecordingHoldsNoEcho(t *testing.T) {
	telegram := "7012345678:AAH" + secrettest.All()[5].Secret[4:36] // a bot id, ":", 35
	pw, field := "Pq8Wm2Zr5Tx9Lk3Nv7Hc", "Zy4Lm8Rt2Qv6Xb0Nc3Hj5Kd"
	for _, gz := range []bool{false, true} {
		path := httpPath(t)
		rec, err := golden.NewTransport(path, echoPlain(gz), golden.WithMode(golden.ModeRecord))
		require.NoError(t, err)
		client := &http.Client{Transport: rec}
		var mb bytes.Buffer
		mw := multipart.NewWriter(&mb)
		mw.WriteField("password", pw)
		mw.WriteField("model", "whisper-1")
		mw.Close()
		for _, req := range []*http.Request{
			mustRequest(t, http.MethodGet, "https://api.telegram.org/bot"+telegram+"/getMe", "", ""),
			mustRequest(t, http.MethodPost, "https://api.example.com/upload", mw.FormDataContentType(), mb.String()),
			mustRequest(t, http.MethodPost, "https://api.example.com/v1/login", "application/json", `{"user": "ada", "auth": {"client_secret": "`+field+`"}}`),
		} {
			resp, err := client.Do(req)
			require.NoError(t, err)
			io.ReadAll(resp.Body)
			resp.Body.Close()
		}
		require.NoError(t, rec.Save())
		data, err := os.ReadFile(path)
		require.NoError(t, err)
		text := string(data)
		f, err := golden.LoadHTTP(path)
		require.NoError(t, err)
		for _, in := range f.Interactions {
			if len(in.Response.BodyBase64) > 0 {
				zr, err := gzip.NewReader(bytes.NewReader(in.Response.BodyBase64))
				require.NoError(t, err)
				plain, err := io.ReadAll(zr)
				require.NoError(t, err)
				text += "\n" + string(plain)
			}
		}
		assertNone(t, text, telegram, pw, field)
		assert.Contains(t, text, "[redacted:field:password]")
		assert.Contains(t, text, "/bot[redacted:telegram-bot-token]/getMe")
	}
}

func mustRequest(t *testing.T, method, url, contentType, body string) *http.Request {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	require.NoError(t, err)
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	return req
}
