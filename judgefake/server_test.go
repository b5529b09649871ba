package judgefake_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit/internal/secret"
	"github.com/evalkit-go/evalkit/judgefake"
)

// backend is a Server or a Transport, seen from a client: every wire test
// runs against both, so the two can never drift apart.
type backend struct {
	name     string
	client   *http.Client
	url      string
	requests func() []judgefake.Request
	err      func() error
}

func forEachBackend(t *testing.T, script []judgefake.Reply, f func(t *testing.T, b backend)) {
	t.Helper()
	t.Run("Server", func(t *testing.T) {
		srv := judgefake.NewServer(script...)
		t.Cleanup(srv.Close)
		f(t, backend{"Server", srv.Client(), srv.URL, srv.Requests, srv.Err})
	})
	t.Run("Transport", func(t *testing.T) {
		tr := judgefake.NewTransport(script...)
		f(t, backend{"Transport", tr.Client(), "http://judge.invalid", tr.Requests, tr.Err})
	})
}

const (
	openaiBody    = `{"model":"gpt-4o","messages":[{"role":"system","content":"You are a judge."},{"role":"user","content":"Rate the answer: 2+2=4"}],"temperature":0,"seed":7}`
	anthropicBody = `{"model":"claude-sonnet-4-5","max_tokens":512,"system":"You are a judge.","messages":[{"role":"user","content":"Rate the answer: 2+2=4"}],"temperature":0}`
)

// call is one response as a client saw it.
type call struct {
	status int
	header http.Header
	body   []byte
}

func post(ctx context.Context, b backend, path, body string, header map[string]string) (call, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, b.url+path, strings.NewReader(body))
	if err != nil {
		return call{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := b.client.Do(req)
	if err != nil {
		return call{}, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	return call{resp.StatusCode, resp.Header, data}, err
}

func postOpenAI(t *testing.T, b backend, body string) call {
	t.Helper()
	c, err := post(context.Background(), b, "/v1/chat/completions", body, map[string]string{"Authorization": "Bearer sk-test-secret"})
	require.NoError(t, err)
	return c
}

var anthropicHeader = map[string]string{"x-api-key": "sk-ant-test-secret", "anthropic-version": "2023-06-01"}

func postAnthropic(t *testing.T, b backend, body string) call {
	t.Helper()
	c, err := post(context.Background(), b, "/v1/messages", body, anthropicHeader)
	require.NoError(t, err)
	return c
}

// decode decodes a JSON body, dropping OpenAI's "created" timestamp.
func decode(t *testing.T, body []byte) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal(body, &m), "body: %s", body)
	delete(m, "created")
	return m
}

func TestJudgefakeServerOpenAI(t *testing.T) {
	script := []judgefake.Reply{
		judgefake.Text(`{"score": 8, "reasoning": "correct"}`),
		{Text: "Rating: [[9]]", Model: "gpt-4-0613", InputTokens: 900, OutputTokens: 40, StopReason: "length"},
	}
	forEachBackend(t, script, func(t *testing.T, b backend) {
		c := postOpenAI(t, b, openaiBody)
		assert.Equal(t, http.StatusOK, c.status)
		assert.Equal(t, "application/json", c.header.Get("Content-Type"))
		assert.Equal(t, map[string]any{
			"id":     "chatcmpl-judgefake-1",
			"object": "chat.completion",
			"model":  "gpt-4o",
			"choices": []any{map[string]any{
				"index":         0.0,
				"message":       map[string]any{"role": "assistant", "content": `{"score": 8, "reasoning": "correct"}`},
				"finish_reason": "stop",
			}},
			// Estimated: 39 bytes of prompt, 36 of answer, 4 bytes a token.
			"usage": map[string]any{"prompt_tokens": 10.0, "completion_tokens": 9.0, "total_tokens": 19.0},
		}, decode(t, c.body))

		// Any path ending in /chat/completions: OpenAI-compatible servers, Azure.
		c, err := post(context.Background(), b, "/openai/deployments/judge/chat/completions", openaiBody, nil)
		require.NoError(t, err)
		assert.Equal(t, map[string]any{
			"id":     "chatcmpl-judgefake-2",
			"object": "chat.completion",
			"model":  "gpt-4-0613",
			"choices": []any{map[string]any{
				"index":         0.0,
				"message":       map[string]any{"role": "assistant", "content": "Rating: [[9]]"},
				"finish_reason": "length",
			}},
			"usage": map[string]any{"prompt_tokens": 900.0, "completion_tokens": 40.0, "total_tokens": 940.0},
		}, decode(t, c.body))

		reqs := b.requests()
		require.Len(t, reqs, 2)
		assert.Equal(t, judgefake.APIOpenAI, reqs[0].API)
		assert.Equal(t, "POST", reqs[0].Method)
		assert.Equal(t, "/v1/chat/completions", reqs[0].Path)
		assert.JSONEq(t, openaiBody, string(reqs[0].Body))
		assert.Equal(t, "/openai/deployments/judge/chat/completions", reqs[1].Path)
		assert.NoError(t, b.err())
	})
}

func TestJudgefakeServerOpenAIBaseURLWithoutV1(t *testing.T) {
	forEachBackend(t, judgefake.Texts("[[5]]"), func(t *testing.T, b backend) {
		c, err := post(context.Background(), b, "/chat/completions", openaiBody, nil)
		require.NoError(t, err)
		assert.Equal(t, http.StatusOK, c.status)
		assert.NoError(t, b.err())
	})
}

func TestJudgefakeServerAnthropic(t *testing.T) {
	script := []judgefake.Reply{
		judgefake.Text("Score: 4/5"),
		{Text: `{"score": 4, "reasoning": "fine"}`, Model: "claude-opus-4-1", InputTokens: 1200, OutputTokens: 30},
		judgefake.Text(`{"score": 2}`),
		judgefake.Text(`{"score": 3}`),
		{Text: `{"score": 1`, StopReason: "max_tokens"},
	}
	forEachBackend(t, script, func(t *testing.T, b backend) {
		c := postAnthropic(t, b, anthropicBody)
		assert.Equal(t, http.StatusOK, c.status)
		assert.Equal(t, map[string]any{
			"id":            "msg_judgefake_1",
			"type":          "message",
			"role":          "assistant",
			"model":         "claude-sonnet-4-5",
			"content":       []any{map[string]any{"type": "text", "text": "Score: 4/5"}},
			"stop_reason":   "end_turn",
			"stop_sequence": nil,
			"usage":         map[string]any{"input_tokens": 10.0, "output_tokens": 3.0},
		}, decode(t, c.body))

		// A forced tool gets a tool_use block whose input is the text.
		forced := `{"model":"claude-sonnet-4-5","max_tokens":512,"messages":[{"role":"user","content":"Rate"}],
			"tools":[{"name":"record_verdict","input_schema":{"type":"object"}}],"tool_choice":{"type":"tool","name":"record_verdict"}}`
		c = postAnthropic(t, b, forced)
		assert.Equal(t, map[string]any{
			"id":    "msg_judgefake_2",
			"type":  "message",
			"role":  "assistant",
			"model": "claude-opus-4-1",
			"content": []any{map[string]any{
				"type":  "tool_use",
				"id":    "toolu_judgefake_2",
				"name":  "record_verdict",
				"input": map[string]any{"score": 4.0, "reasoning": "fine"},
			}},
			"stop_reason":   "tool_use",
			"stop_sequence": nil,
			"usage":         map[string]any{"input_tokens": 1200.0, "output_tokens": 30.0},
		}, decode(t, c.body))

		// "any" with a single tool forces that tool.
		anyTool := `{"model":"m","max_tokens":5,"messages":[{"role":"user","content":"Rate"}],
			"tools":[{"name":"verdict","input_schema":{"type":"object"}}],"tool_choice":{"type":"any"}}`
		c = postAnthropic(t, b, anyTool)
		m := decode(t, c.body)
		assert.Equal(t, []any{map[string]any{"type": "tool_use", "id": "toolu_judgefake_3", "name": "verdict", "input": map[string]any{"score": 2.0}}}, m["content"])

		// Structured output answers with text, as the model writes it.
		structured := `{"model":"m","max_tokens":5,"messages":[{"role":"user","content":"Rate"}],
			"output_format":{"type":"json_schema","schema":{"type":"object","properties":{"score":{"type":"number"}}}}}`
		c = postAnthropic(t, b, structured)
		m = decode(t, c.body)
		assert.Equal(t, []any{map[string]any{"type": "text", "text": `{"score": 3}`}}, m["content"])
		assert.Equal(t, "end_turn", m["stop_reason"])

		c = postAnthropic(t, b, anthropicBody)
		m = decode(t, c.body)
		assert.Equal(t, "max_tokens", m["stop_reason"])

		reqs := b.requests()
		require.Len(t, reqs, 5)
		assert.Equal(t, judgefake.APIAnthropic, reqs[0].API)
		assert.Equal(t, "2023-06-01", reqs[0].Header.Get("Anthropic-Version"))
		assert.NoError(t, b.err())
	})
}

func TestJudgefakeServerForcedToolNeedsJSONText(t *testing.T) {
	forced := `{"model":"m","max_tokens":5,"messages":[{"role":"user","content":"Rate"}],
		"tools":[{"name":"verdict","input_schema":{"type":"object"}}],"tool_choice":{"type":"tool","name":"verdict"}}`
	forEachBackend(t, judgefake.Texts("Rating: [[7]]"), func(t *testing.T, b backend) {
		c := postAnthropic(t, b, forced)
		assert.Equal(t, http.StatusBadRequest, c.status)
		assert.Equal(t, map[string]any{"type": "error", "error": map[string]any{
			"type":    "invalid_request_error",
			"message": `judgefake: the request forces tool "verdict", but the reply's text is not a JSON object to be its input: "Rating: [[7]]"`,
		}}, decode(t, c.body))
		assert.EqualError(t, b.err(), `judgefake: request 1 (POST /v1/messages), reply 1: the request forces tool "verdict", but the reply's text is not a JSON object to be its input: "Rating: [[7]]"`)
	})
}

func TestJudgefakeServerErrorBodies(t *testing.T) {
	script := []judgefake.Reply{
		judgefake.RateLimited(1500 * time.Millisecond),
		judgefake.RateLimited(0),
		judgefake.Status(500),
		judgefake.Status(502),
		{Status: 503, RetryAfter: 3 * time.Second, Text: "upstream is down"},
		judgefake.Status(529),
		judgefake.Status(400),
		judgefake.Status(401),
	}
	type want struct {
		status     int
		retryAfter string
		openai     map[string]any
		anthropic  map[string]any
	}
	oe := func(msg, typ string, code any) map[string]any {
		return map[string]any{"error": map[string]any{"message": msg, "type": typ, "param": nil, "code": code}}
	}
	ae := func(msg, typ string) map[string]any {
		return map[string]any{"type": "error", "error": map[string]any{"type": typ, "message": msg}}
	}
	wants := []want{
		{429, "2", oe("judgefake: scripted 429 Too Many Requests", "requests", "rate_limit_exceeded"), ae("judgefake: scripted 429 Too Many Requests", "rate_limit_error")},
		{429, "", oe("judgefake: scripted 429 Too Many Requests", "requests", "rate_limit_exceeded"), ae("judgefake: scripted 429 Too Many Requests", "rate_limit_error")},
		{500, "", oe("judgefake: scripted 500 Internal Server Error", "server_error", nil), ae("judgefake: scripted 500 Internal Server Error", "api_error")},
		{502, "", oe("judgefake: scripted 502 Bad Gateway", "server_error", nil), ae("judgefake: scripted 502 Bad Gateway", "api_error")},
		{503, "3", oe("upstream is down", "server_error", nil), ae("upstream is down", "api_error")},
		{529, "", oe("judgefake: scripted 529 ", "server_error", nil), ae("judgefake: scripted 529 ", "overloaded_error")},
		{400, "", oe("judgefake: scripted 400 Bad Request", "invalid_request_error", nil), ae("judgefake: scripted 400 Bad Request", "invalid_request_error")},
		{401, "", oe("judgefake: scripted 401 Unauthorized", "invalid_request_error", "invalid_api_key"), ae("judgefake: scripted 401 Unauthorized", "authentication_error")},
	}
	t.Run("OpenAI", func(t *testing.T) {
		forEachBackend(t, script, func(t *testing.T, b backend) {
			for _, w := range wants {
				c := postOpenAI(t, b, openaiBody)
				assert.Equal(t, w.status, c.status)
				assert.Equal(t, w.retryAfter, c.header.Get("Retry-After"), "status %d", w.status)
				assert.Equal(t, w.openai, decode(t, c.body))
			}
		})
	})
	t.Run("Anthropic", func(t *testing.T) {
		forEachBackend(t, script, func(t *testing.T, b backend) {
			for _, w := range wants {
				c := postAnthropic(t, b, anthropicBody)
				assert.Equal(t, w.status, c.status)
				assert.Equal(t, w.retryAfter, c.header.Get("Retry-After"), "status %d", w.status)
				assert.Equal(t, w.anthropic, decode(t, c.body))
			}
			assert.NoError(t, b.err())
		})
	})
}

func TestJudgefakeServerBrokenBodies(t *testing.T) {
	script := []judgefake.Reply{
		judgefake.Malformed(),
		judgefake.CutOff(`{"score": 8, "reasoning": "a long enough answer to be cut"}`),
		judgefake.EmptyBody(),
		judgefake.WrongSchema(`{"score": 8}`),
	}
	check := func(t *testing.T, api string, calls []call) {
		var v any
		malformed := calls[0]
		assert.Equal(t, http.StatusOK, malformed.status)
		var syntax *json.SyntaxError
		assert.ErrorAs(t, json.Unmarshal(malformed.body, &v), &syntax)
		assert.True(t, bytes.HasPrefix(malformed.body, []byte("{,")), "%s", malformed.body)

		cut := calls[1]
		assert.Equal(t, http.StatusOK, cut.status)
		assert.Equal(t, "application/json", cut.header.Get("Content-Type"))
		assert.EqualError(t, json.Unmarshal(cut.body, &v), "unexpected end of JSON input")

		empty := calls[2]
		assert.Equal(t, http.StatusOK, empty.status)
		assert.Empty(t, empty.body)

		wrong := decode(t, calls[3].body)
		switch api {
		case judgefake.APIOpenAI:
			assert.NotContains(t, wrong, "choices")
			assert.Equal(t, "message", wrong["type"])
		case judgefake.APIAnthropic:
			assert.NotContains(t, wrong, "content")
			assert.Equal(t, "chat.completion", wrong["object"])
		}
		assert.Contains(t, string(calls[3].body), `{\"score\": 8}`)
	}
	t.Run("OpenAI", func(t *testing.T) {
		forEachBackend(t, script, func(t *testing.T, b backend) {
			var calls []call
			for range script {
				calls = append(calls, postOpenAI(t, b, openaiBody))
			}
			check(t, judgefake.APIOpenAI, calls)
			assert.NoError(t, b.err())
		})
	})
	t.Run("Anthropic", func(t *testing.T) {
		forEachBackend(t, script, func(t *testing.T, b backend) {
			var calls []call
			for range script {
				calls = append(calls, postAnthropic(t, b, anthropicBody))
			}
			check(t, judgefake.APIAnthropic, calls)
			assert.NoError(t, b.err())
		})
	})
}

func TestJudgefakeServerConnReset(t *testing.T) {
	forEachBackend(t, []judgefake.Reply{judgefake.ConnReset(), judgefake.Text("[[6]]")}, func(t *testing.T, b backend) {
		_, err := post(context.Background(), b, "/v1/chat/completions", openaiBody, nil)
		require.Error(t, err)
		if b.name == "Transport" || runtime.GOOS == "linux" {
			assert.ErrorIs(t, err, syscall.ECONNRESET)
		}
		// The next request still gets its reply.
		c := postOpenAI(t, b, openaiBody)
		assert.Equal(t, http.StatusOK, c.status)
		assert.Len(t, b.requests(), 2)
		assert.NoError(t, b.err())
	})
}

func TestJudgefakeServerStallEndsWithTheRequest(t *testing.T) {
	forEachBackend(t, []judgefake.Reply{judgefake.Stall(), judgefake.Text("[[6]]")}, func(t *testing.T, b backend) {
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		defer cancel()
		_, err := post(ctx, b, "/v1/chat/completions", openaiBody, nil)
		assert.ErrorIs(t, err, context.DeadlineExceeded)
		c := postOpenAI(t, b, openaiBody)
		assert.Equal(t, http.StatusOK, c.status)
		assert.NoError(t, b.err())
	})
}

func TestJudgefakeServerDelay(t *testing.T) {
	forEachBackend(t, []judgefake.Reply{{Text: "late", Delay: time.Hour}, {Text: "soon", Delay: time.Millisecond}}, func(t *testing.T, b backend) {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
		defer cancel()
		_, err := post(ctx, b, "/v1/chat/completions", openaiBody, nil)
		assert.ErrorIs(t, err, context.DeadlineExceeded)
		c := postOpenAI(t, b, openaiBody)
		assert.Contains(t, string(c.body), `"content":"soon"`)
	})
}

func TestJudgefakeServerCloseEndsStalls(t *testing.T) {
	srv := judgefake.NewServer(judgefake.Stall(), judgefake.Reply{Text: "x", Delay: time.Hour})
	var wg sync.WaitGroup
	errs := make(chan error, 2)
	for range 2 {
		wg.Go(func() {
			_, err := post(context.Background(), backend{client: srv.Client(), url: srv.URL}, "/v1/chat/completions", openaiBody, nil)
			errs <- err
		})
	}
	// Close must not wait for the held requests; they end with it.
	for len(srv.Requests()) < 2 {
		time.Sleep(time.Millisecond)
	}
	srv.Close()
	srv.Close()
	wg.Wait()
	close(errs)
	for err := range errs {
		assert.Error(t, err)
	}
}

func TestJudgefakeServerScriptExhausted(t *testing.T) {
	forEachBackend(t, judgefake.Texts("[[8]]"), func(t *testing.T, b backend) {
		postOpenAI(t, b, openaiBody)
		c := postOpenAI(t, b, openaiBody)
		assert.Equal(t, http.StatusBadRequest, c.status)
		assert.Equal(t, map[string]any{"error": map[string]any{
			"message": "judgefake: script exhausted: 1 replies were scripted and all are used",
			"type":    "invalid_request_error", "param": nil, "code": nil,
		}}, decode(t, c.body))
		c = postAnthropic(t, b, anthropicBody)
		assert.Equal(t, http.StatusBadRequest, c.status)
		assert.Equal(t, map[string]any{"type": "error", "error": map[string]any{
			"type": "invalid_request_error", "message": "judgefake: script exhausted: 1 replies were scripted and all are used",
		}}, decode(t, c.body))
		assert.EqualError(t, b.err(), strings.Join([]string{
			"judgefake: request 2 (POST /v1/chat/completions): script exhausted: 1 replies were scripted and all are used",
			"judgefake: request 3 (POST /v1/messages): script exhausted: 1 replies were scripted and all are used",
		}, "\n"))
	})
}

func TestJudgefakeServerRefusesWhatTheProviderWould(t *testing.T) {
	type refusal struct {
		method, path, body string
		header             map[string]string
		status             int
		problem            string
	}
	refusals := []refusal{
		{"POST", "/v1/completions", openaiBody, nil, 404, "unknown path; judgefake serves POST /v1/chat/completions, POST /chat/completions (any path ending so), POST /v1/responses (any path ending in /responses) and POST /v1/messages"},
		{"GET", "/v1/chat/completions", "", nil, 405, "method GET is not POST"},
		{"POST", "/v1/chat/completions", "not json", nil, 400, `request body is not a JSON object: "not json"`},
		{"POST", "/v1/chat/completions", `{"messages":[{"role":"user","content":"x"}]}`, nil, 400, `request has no "model"`},
		{"POST", "/v1/chat/completions", `{"model":"m","messages":[]}`, nil, 400, `request has no "messages"`},
		{"POST", "/v1/chat/completions", `{"model":"m","messages":[{"role":"user","content":"x"}],"stream":"yes"}`, nil, 400, `request's "stream" is not true or false`},
		{"POST", "/v1/responses", `{"model":"m","input":[]}`, nil, 400, `request has no "input" (a string or a list of items)`},
		{"POST", "/v1/messages", anthropicBody, map[string]string{"x-api-key": "k"}, 400, "request has no anthropic-version header"},
		{"POST", "/v1/messages", `{"model":"m","messages":[{"role":"user","content":"x"}]}`, anthropicHeader, 400, `request has no positive "max_tokens"`},
		{"POST", "/v1/messages", `{"model":"m","max_tokens":9,"messages":[{"role":"user","content":"x"}],"tool_choice":{"type":"tool","name":"verdict"}}`, anthropicHeader, 400, `request's "tool_choice" forces tool "verdict", which is not in "tools"`},
		{"POST", "/v1/messages", `{"model":"m","max_tokens":9,"messages":[{"role":"user","content":"x"}],"tool_choice":{"type":"any"}}`, anthropicHeader, 400, `request's "tool_choice" is "any" but it has no "tools"`},
	}
	forEachBackend(t, judgefake.Texts("[[8]]"), func(t *testing.T, b backend) {
		var problems []string
		for i, r := range refusals {
			req, err := http.NewRequest(r.method, b.url+r.path, strings.NewReader(r.body))
			require.NoError(t, err)
			for k, v := range r.header {
				req.Header.Set(k, v)
			}
			resp, err := b.client.Do(req)
			require.NoError(t, err)
			body, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			require.NoError(t, err)
			assert.Equal(t, r.status, resp.StatusCode, r.problem)
			assert.Contains(t, string(body), jsonString(t, "judgefake: "+r.problem))
			problems = append(problems, "judgefake: request "+strconv.Itoa(i+1)+" ("+r.method+" "+r.path+"): "+r.problem)
		}
		// None took the script's only reply.
		c := postOpenAI(t, b, openaiBody)
		assert.Contains(t, string(c.body), `"content":"[[8]]"`)
		assert.EqualError(t, b.err(), strings.Join(problems, "\n"))
	})
}

func jsonString(t *testing.T, s string) string {
	t.Helper()
	b, err := json.Marshal(s)
	require.NoError(t, err)
	return string(b[1 : len(b)-1])
}

func TestJudgefakeServerBadStatusIsAProblem(t *testing.T) {
	forEachBackend(t, []judgefake.Reply{judgefake.Status(302)}, func(t *testing.T, b backend) {
		c := postOpenAI(t, b, openaiBody)
		assert.Equal(t, http.StatusBadRequest, c.status)
		assert.EqualError(t, b.err(), "judgefake: request 1 (POST /v1/chat/completions), reply 1: scripted status 302 is not 200 or 400–599")
	})
}

func TestJudgefakeServerRedactsCredentials(t *testing.T) {
	forEachBackend(t, judgefake.Texts("a", "b"), func(t *testing.T, b backend) {
		_, err := post(context.Background(), b, "/v1/chat/completions?api-version=2024-10-21&api-key=sk-query-secret&sas-signature=sig-query-secret", openaiBody, map[string]string{
			"Authorization":   "Bearer sk-test-secret",
			"Api-Key":         "azure-secret",
			"X-Session-Token": "tok-secret",
			"Cookie":          "session=cookie-secret",
			"Idempotency-Key": "retry-1",
			"X-Request-Id":    "req-1",

			"Ocp-Apim-Subscription-Key": "apim-secret",
			"Helicone-Auth":             "Bearer helicone-secret",
			"X-Amz-Security-Token":      "amz-secret",
			"X-Goog-Signature":          "sig-secret",
			"X-Password":                "pw-secret",
		})
		require.NoError(t, err)
		_, err = post(context.Background(), b, "/v1/messages", anthropicBody, map[string]string{
			"x-api-key": "sk-ant-test-secret", "anthropic-version": "2023-06-01", "Authorization": "",
		})
		require.NoError(t, err)

		reqs := b.requests()
		require.Len(t, reqs, 2)
		h := reqs[0].Header
		assert.Equal(t, "Bearer [REDACTED]", h.Get("Authorization"))
		assert.Equal(t, judgefake.Redacted, h.Get("Api-Key"))
		assert.Equal(t, judgefake.Redacted, h.Get("X-Session-Token"))
		assert.Equal(t, judgefake.Redacted, h.Get("Cookie"))
		assert.Equal(t, judgefake.Redacted, h.Get("Idempotency-Key"), "a name holding \"key\" is a credential's, as the judges read it")
		assert.Equal(t, "req-1", h.Get("X-Request-Id"))
		assert.Equal(t, judgefake.Redacted, h.Get("Ocp-Apim-Subscription-Key"))
		assert.Equal(t, "Bearer "+judgefake.Redacted, h.Get("Helicone-Auth"))
		assert.Equal(t, judgefake.Redacted, h.Get("X-Amz-Security-Token"))
		assert.Equal(t, judgefake.Redacted, h.Get("X-Goog-Signature"))
		assert.Equal(t, judgefake.Redacted, h.Get("X-Password"))
		assert.Equal(t, "2024-10-21", reqs[0].Query.Get("api-version"))
		assert.Equal(t, judgefake.Redacted, reqs[0].Query.Get("api-key"))
		assert.Equal(t, judgefake.Redacted, reqs[0].Query.Get("sas-signature"))
		assert.Equal(t, judgefake.Redacted, reqs[1].Header.Get("X-Api-Key"))
		assert.Equal(t, []string{""}, reqs[1].Header.Values("Authorization"), "an empty credential stays empty")

		// No secret survives anywhere in what was recorded.
		dump, err := json.Marshal(reqs)
		require.NoError(t, err)
		assert.NotContains(t, string(dump), "secret")
	})
}

func TestJudgefakeRequestPrompt(t *testing.T) {
	forEachBackend(t, judgefake.Texts("a", "b", "c"), func(t *testing.T, b backend) {
		postOpenAI(t, b, `{"model":"m","messages":[{"role":"system","content":"Judge fairly."},
			{"role":"user","content":[{"type":"text","text":"Question?"},{"type":"image_url","image_url":{"url":"data:,"}},{"type":"text","text":"Answer."}]}]}`)
		postAnthropic(t, b, `{"model":"m","max_tokens":9,"system":[{"type":"text","text":"Judge fairly."}],
			"messages":[{"role":"user","content":[{"type":"text","text":"Question?"}]},{"role":"assistant","content":"{"}]}`)
		reqs := b.requests()
		assert.Equal(t, "Judge fairly.\nQuestion?\nAnswer.", reqs[0].Prompt())
		assert.Equal(t, "Judge fairly.\nQuestion?\n{", reqs[1].Prompt())
		assert.Equal(t, "", judgefake.Request{Body: []byte("nope")}.Prompt())
	})
}

// TestJudgefakeServerServesRealJudgments serves the GPT-4 judgments of
// MT-Bench (testdata/mt_bench, Apache-2.0, FastChat) and reads each back.
func TestJudgefakeServerServesRealJudgments(t *testing.T) {
	f, err := os.Open("../testdata/mt_bench/gpt4_single_llama3_8b.jsonl")
	require.NoError(t, err)
	defer f.Close()
	var judgments []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var line struct {
			Judgment string `json:"judgment"`
		}
		require.NoError(t, json.Unmarshal(sc.Bytes(), &line))
		judgments = append(judgments, line.Judgment)
	}
	require.NoError(t, sc.Err())
	require.Len(t, judgments, 60)

	forEachBackend(t, judgefake.Texts(judgments...), func(t *testing.T, b backend) {
		for i, want := range judgments {
			c := postOpenAI(t, b, openaiBody)
			var resp struct {
				Choices []struct {
					Message struct{ Content string }
				}
			}
			require.NoError(t, json.Unmarshal(c.body, &resp))
			require.Len(t, resp.Choices, 1)
			assert.Equal(t, want, resp.Choices[0].Message.Content, "judgment %d", i)
		}
		assert.NoError(t, b.err())
	})
}

func TestJudgefakeServerIsSafeForConcurrentUse(t *testing.T) {
	const n = 32
	script := make([]judgefake.Reply, n)
	for i := range script {
		script[i] = judgefake.Text("[[" + strconv.Itoa(i) + "]]")
	}
	forEachBackend(t, script, func(t *testing.T, b backend) {
		var wg sync.WaitGroup
		seen := make(chan string, n)
		for range n {
			wg.Go(func() {
				c, err := post(context.Background(), b, "/v1/chat/completions", openaiBody, nil)
				if !assert.NoError(t, err) {
					return
				}
				var resp struct {
					Choices []struct{ Message struct{ Content string } }
				}
				assert.NoError(t, json.Unmarshal(c.body, &resp))
				seen <- resp.Choices[0].Message.Content
				_ = b.requests()
			})
		}
		wg.Wait()
		close(seen)
		distinct := map[string]bool{}
		for s := range seen {
			distinct[s] = true
		}
		assert.Len(t, distinct, n)
		assert.Len(t, b.requests(), n)
		assert.NoError(t, b.err())
	})
}

func TestJudgefakeFaultString(t *testing.T) {
	assert.Equal(t, "FaultCutOff", judgefake.FaultCutOff.String())
	assert.Equal(t, "Fault(42)", judgefake.Fault(42).String())
}

// TestJudgefakeRedactsWhatTheJudgesRedact: a header is recorded redacted
// exactly when the real judges treat its values as secrets.
func TestJudgefakeRedactsWhatTheJudgesRedact(t *testing.T) {
	names := []string{"Authorization", "Proxy-Authorization", "X-Api-Key", "Api-Key", "Ocp-Apim-Subscription-Key", "Helicone-Auth",
		"X-Amz-Security-Token", "X-Client-Secret", "X-Password", "Cookie", "X-Goog-Signature", "Idempotency-Key", "X-Auth-Token",
		"Accept", "Anthropic-Version", "Anthropic-Beta", "HTTP-Referer", "X-Title", "X-Request-Id", "User-Agent", "OpenAI-Organization"}
	header := map[string]string{}
	for _, n := range names {
		header[n] = "value-" + n
	}
	tr := judgefake.NewTransport(judgefake.Text("a"))
	_, err := post(context.Background(), backend{"Transport", tr.Client(), "http://judge.invalid", tr.Requests, tr.Err}, "/v1/chat/completions", openaiBody, header)
	require.NoError(t, err)
	h := tr.Requests()[0].Header
	for _, n := range names {
		assert.Equal(t, secret.Name(n), h.Get(n) != "value-"+n, "%s: recorded as %q", n, h.Get(n))
	}
}
