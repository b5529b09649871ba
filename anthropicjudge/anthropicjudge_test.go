package anthropicjudge_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/anthropicjudge"
	"github.com/evalkit-go/evalkit/internal/judgeprompt"
	"github.com/evalkit-go/evalkit/judgefake"
)

const (
	testKey   = "sk-ant-test-AAAA1111"
	testBase  = "http://judge.test"
	goodReply = `{"reasoning": "States $42.", "score": 8}`
)

var refundRequest = evalkit.JudgeRequest{
	Criteria: "States the refund amount",
	Input:    "Where is my refund?",
	Content:  "Your refund of $42 is on its way.",
}

func newJudge(t *testing.T, script []judgefake.Reply, opts ...anthropicjudge.Option) (*anthropicjudge.Judge, *judgefake.Transport) {
	t.Helper()
	tr := judgefake.NewTransport(script...)
	base := []anthropicjudge.Option{anthropicjudge.WithBaseURL(testBase), anthropicjudge.WithAPIKey(testKey), anthropicjudge.WithHTTPClient(tr.Client())}
	return anthropicjudge.New(append(base, opts...)...), tr
}

func body(t *testing.T, r judgefake.Request) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal(r.Body, &m))
	return m
}

func decode(t *testing.T, raw []byte) any {
	t.Helper()
	var v any
	require.NoError(t, json.Unmarshal(raw, &v))
	return v
}

func TestAnthropicjudgeRequestWireShape(t *testing.T) {
	j, tr := newJudge(t, []judgefake.Reply{judgefake.Text(goodReply)})
	v, err := j.Judge(context.Background(), refundRequest)
	require.NoError(t, err)
	require.NoError(t, tr.Err())

	r := tr.Requests()[0]
	assert.Equal(t, judgefake.APIAnthropic, r.API)
	assert.Equal(t, "/v1/messages", r.Path)
	assert.Equal(t, judgefake.Redacted, r.Header.Get("X-Api-Key"))
	assert.Equal(t, "2023-06-01", r.Header.Get("Anthropic-Version"))
	assert.Equal(t, "application/json", r.Header.Get("Content-Type"))
	assert.Empty(t, r.Header.Values("Authorization"))

	msgs, err := judgeprompt.Render(refundRequest)
	require.NoError(t, err)
	schema, err := judgeprompt.Schema(refundRequest)
	require.NoError(t, err)
	want := map[string]any{
		"model":       "claude-haiku-4-5-20251001",
		"max_tokens":  1024.0,
		"system":      msgs.System,
		"messages":    []any{map[string]any{"role": "user", "content": msgs.User}},
		"temperature": 0.0,
		"tools": []any{map[string]any{
			"name":         "evalkit_verdict",
			"description":  "Record your verdict on the content under review: your assessment first, then the score, in the shape the schema gives.",
			"input_schema": decode(t, schema),
		}},
		"tool_choice": map[string]any{"type": "tool", "name": "evalkit_verdict"},
	}
	assert.Equal(t, want, body(t, r))

	assert.True(t, v.Scored)
	assert.Equal(t, 8.0, v.RawScore)
	assert.InDelta(t, 0.8, v.Score, 1e-12)
	assert.Equal(t, "States $42.", v.Reasoning)
	assert.JSONEq(t, goodReply, v.Raw, "the tool's input")
	assert.Equal(t, "claude-haiku-4-5-20251001", v.Model)
}

func TestAnthropicjudgeSettings(t *testing.T) {
	tests := []struct {
		name     string
		opts     []anthropicjudge.Option
		settings map[string]any
	}{
		{"defaults", nil, map[string]any{"temperature": 0.0, "max_tokens": 1024}},
		{"temperature", []anthropicjudge.Option{anthropicjudge.WithTemperature(0.5)}, map[string]any{"temperature": 0.5, "max_tokens": 1024}},
		{"no temperature", []anthropicjudge.Option{anthropicjudge.WithoutTemperature()}, map[string]any{"max_tokens": 1024}},
		{"max_tokens", []anthropicjudge.Option{anthropicjudge.WithMaxTokens(300)}, map[string]any{"temperature": 0.0, "max_tokens": 300}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j, tr := newJudge(t, []judgefake.Reply{judgefake.Text(goodReply)}, tt.opts...)
			_, err := j.Judge(context.Background(), refundRequest)
			require.NoError(t, err)
			assert.Equal(t, tt.settings, j.Identity().Settings)
			sent := body(t, tr.Requests()[0])
			for _, field := range []string{"temperature", "max_tokens"} {
				want, ok := tt.settings[field]
				got, sentIt := sent[field]
				assert.Equal(t, ok, sentIt, "%s sent", field)
				if ok {
					assert.EqualValues(t, want, got, field)
				}
			}
		})
	}
}

func TestAnthropicjudgeIdentity(t *testing.T) {
	j := anthropicjudge.New(anthropicjudge.WithAPIKey(testKey), anthropicjudge.WithBaseURL("https://gateway.example"))
	id := j.Identity()
	assert.Equal(t, evalkit.Identity{
		Provider:      "anthropic",
		Model:         "claude-haiku-4-5-20251001",
		Settings:      map[string]any{"temperature": 0.0, "max_tokens": 1024},
		PromptVersion: "evalkit-judge/1",
	}, id)
	raw, err := json.Marshal(id)
	require.NoError(t, err)
	assert.NotContains(t, string(raw), testKey)
	assert.NotContains(t, string(raw), "gateway.example")
}

func TestAnthropicjudgeRequestOverrides(t *testing.T) {
	j, tr := newJudge(t, []judgefake.Reply{judgefake.Text(goodReply)})
	req := refundRequest
	req.Model = "claude-sonnet-4-6"
	req.SystemPrompt = "You grade refunds."
	v, err := j.Judge(context.Background(), req)
	require.NoError(t, err)
	sent := body(t, tr.Requests()[0])
	assert.Equal(t, "claude-sonnet-4-6", sent["model"])
	assert.Equal(t, "You grade refunds.", sent["system"])
	assert.Equal(t, "claude-sonnet-4-6", v.Model)
	assert.Equal(t, "claude-haiku-4-5-20251001", j.Identity().Model)
}

func TestAnthropicjudgeVerdictSchema(t *testing.T) {
	schema := `{"type":"object","properties":{"grade":{"enum":["C","I"]}},"required":["grade"]}`
	j, tr := newJudge(t, []judgefake.Reply{judgefake.Text(`{"grade": "C"}`)})
	req := refundRequest
	req.VerdictSchema = json.RawMessage(schema)
	v, err := j.Judge(context.Background(), req)
	require.NoError(t, err)
	assert.Equal(t, "C", v.Label)
	tools := body(t, tr.Requests()[0])["tools"].([]any)
	assert.Equal(t, decode(t, []byte(schema)), tools[0].(map[string]any)["input_schema"])

	req.VerdictSchema = json.RawMessage(`{"type": "array"}`)
	_, err = j.Judge(context.Background(), req)
	assert.EqualError(t, err, `anthropicjudge: verdict schema: the verdict is a tool's input, so its schema needs "type": "object"`)
}

// TestAnthropicjudgeTextAnswer: a reply without the verdict tool's call (a
// proxy that dropped the tools) is read from its text blocks, which the
// prompt asks to hold the same JSON object.
func TestAnthropicjudgeTextAnswer(t *testing.T) {
	reply := `{"type": "message", "model": "claude-x", "stop_reason": "end_turn",
		"content": [{"type": "text", "text": "Verdict:\n"}, {"type": "text", "text": "` + "```json\\n" + `{\"reasoning\": \"ok\", \"score\": 3}` + "\\n```" + `"}],
		"usage": {"input_tokens": 10, "output_tokens": 5, "cache_read_input_tokens": 90}}`
	client := &http.Client{Transport: roundTrip(func(r *http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: 200, Header: http.Header{}, Body: io.NopCloser(strings.NewReader(reply))}, nil
	})}
	j := anthropicjudge.New(anthropicjudge.WithBaseURL(testBase), anthropicjudge.WithAPIKey(testKey), anthropicjudge.WithHTTPClient(client))
	v, err := j.Judge(context.Background(), refundRequest)
	require.NoError(t, err)
	assert.Equal(t, 3.0, v.RawScore)
	assert.Equal(t, "Verdict:\n```json\n{\"reasoning\": \"ok\", \"score\": 3}\n```", v.Raw)
	assert.Equal(t, "claude-x", v.Model)
	assert.Equal(t, 100, v.Usage.InputTokens, "cache reads are input tokens")
}

type roundTrip func(*http.Request) (*http.Response, error)

func (f roundTrip) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestAnthropicjudgeFaults(t *testing.T) {
	v := judgefake.Text(goodReply)
	tests := []struct {
		name     string
		script   []judgefake.Reply
		err      string
		requests int
		elapsed  time.Duration
		unread   bool
	}{
		{"429 with Retry-After, then an answer", []judgefake.Reply{judgefake.RateLimited(20 * time.Second), v}, "", 2, 20 * time.Second, false},
		{"529 overloaded, then an answer", []judgefake.Reply{judgefake.Status(529), v}, "", 2, 500 * time.Millisecond, false},
		{"529 until the retries run out",
			[]judgefake.Reply{judgefake.Status(529), judgefake.Status(529), judgefake.Status(529), judgefake.Status(529)},
			"anthropicjudge: 4 attempts: HTTP 529 overloaded: judgefake: scripted 529", 4, 3500 * time.Millisecond, false},
		{"400 is not retried", []judgefake.Reply{{Status: 400, Text: "max_tokens: 999999 > 64000, which is the maximum allowed"}},
			"anthropicjudge: 1 attempt: HTTP 400 Bad Request: max_tokens: 999999 > 64000, which is the maximum allowed", 1, 0, false},
		{"stall, then an answer", []judgefake.Reply{judgefake.Stall(), v}, "", 2, 2*time.Minute + 500*time.Millisecond, false},
		{"connection reset, then an answer", []judgefake.Reply{judgefake.ConnReset(), v}, "", 2, 500 * time.Millisecond, false},
		{"malformed body", []judgefake.Reply{{Text: goodReply, Fault: judgefake.FaultMalformed}},
			"anthropicjudge: 1 attempt: HTTP 200: the reply is not a message: invalid character ',' looking for beginning of object key string", 1, 0, false},
		{"cut-off body", []judgefake.Reply{judgefake.CutOff(goodReply)}, "anthropicjudge: 1 attempt: HTTP 200: the reply is not a message: unexpected end of JSON input", 1, 0, false},
		{"empty body", []judgefake.Reply{judgefake.EmptyBody()}, "anthropicjudge: 1 attempt: HTTP 200: the reply is empty", 1, 0, false},
		{"wrong schema", []judgefake.Reply{judgefake.WrongSchema(goodReply)},
			`anthropicjudge: 1 attempt: HTTP 200: the reply is not a message: want "type": "message" with a "content" list`, 1, 0, false},
		{"cut off at max_tokens", []judgefake.Reply{{Text: `{"reasoning": "The answer states"}`, StopReason: "max_tokens"}},
			"anthropicjudge: 1 attempt: claude-haiku-4-5-20251001: evalkit: unreadable judge verdict: the reply was cut off at max_tokens (1024)", 1, 0, true},
		{"refusal", []judgefake.Reply{{Text: `{}`, StopReason: "refusal"}}, `anthropicjudge: 1 attempt: HTTP 200: the model refused to judge (stop_reason "refusal")`, 1, 0, false},
		{"no score", []judgefake.Reply{judgefake.Text(`{"reasoning": "looks fine"}`)}, "anthropicjudge: 1 attempt: claude-haiku-4-5-20251001: evalkit: unreadable judge verdict", 1, 0, true},
		{"score outside the scale", []judgefake.Reply{judgefake.Text(`{"reasoning": "great", "score": 11}`)}, "anthropicjudge: 1 attempt: claude-haiku-4-5-20251001: evalkit: unreadable judge verdict", 1, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				j, tr := newJudge(t, tt.script)
				start := time.Now()
				v, err := j.Judge(context.Background(), refundRequest)
				elapsed := time.Since(start)
				if tt.err == "" {
					require.NoError(t, err)
					assert.Equal(t, 8.0, v.RawScore)
				} else {
					require.Error(t, err)
					assert.Equal(t, evalkit.Verdict{}, v, "no verdict with an error")
					if tt.unread {
						assert.ErrorIs(t, err, evalkit.ErrUnreadableVerdict)
						assert.True(t, strings.HasPrefix(err.Error(), tt.err), "%q\ndoes not start with\n%q", err, tt.err)
					} else {
						assert.NotErrorIs(t, err, evalkit.ErrUnreadableVerdict)
						assert.EqualError(t, err, tt.err)
					}
				}
				assert.Equal(t, tt.elapsed, elapsed, "virtual time spent")
				assert.Equal(t, tt.requests, len(tr.Requests()), "requests")
				assert.NoError(t, tr.Err())
			})
		})
	}
}

func TestAnthropicjudgeDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		j, tr := newJudge(t, []judgefake.Reply{judgefake.RateLimited(20 * time.Second), judgefake.Text(goodReply)})
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		start := time.Now()
		_, err := j.Judge(ctx, refundRequest)
		assert.EqualError(t, err, "anthropicjudge: 1 attempt: HTTP 429 rate limited (Retry-After 20s): judgefake: scripted 429 Too Many Requests; not retrying: waiting 20s would pass the context deadline (5s left)")
		assert.ErrorIs(t, err, context.DeadlineExceeded)
		assert.Equal(t, time.Duration(0), time.Since(start))
		assert.Equal(t, 1, len(tr.Requests()))
	})
}

func TestAnthropicjudgeUsageAndCost(t *testing.T) {
	j, _ := newJudge(t, []judgefake.Reply{{Text: goodReply, Model: "claude-haiku-4-5-20251001", InputTokens: 1000, OutputTokens: 100}})
	v, err := j.Judge(context.Background(), refundRequest)
	require.NoError(t, err)
	assert.Equal(t, evalkit.Usage{InputTokens: 1000, OutputTokens: 100, CostUSD: (1000*1.0 + 100*5.0) / 1e6}, v.Usage)

	j, _ = newJudge(t, []judgefake.Reply{{Text: goodReply, Model: "claude-next", InputTokens: 1000, OutputTokens: 100}}, anthropicjudge.WithModel("claude-next"))
	v, err = j.Judge(context.Background(), refundRequest)
	require.NoError(t, err)
	assert.Zero(t, v.Usage.CostUSD, "unknown model: 0, not a guess")

	j, _ = newJudge(t, []judgefake.Reply{{Text: goodReply, Model: "claude-next", InputTokens: 1_000_000, OutputTokens: 1_000_000}},
		anthropicjudge.WithModel("claude-next"), anthropicjudge.WithPrices(map[string]anthropicjudge.Price{"claude-next": {Input: 2, Output: 10}}))
	v, err = j.Judge(context.Background(), refundRequest)
	require.NoError(t, err)
	assert.InDelta(t, 12.0, v.Usage.CostUSD, 1e-12)
}

func TestAnthropicjudgeFromEnv(t *testing.T) {
	t.Run("missing key", func(t *testing.T) {
		t.Setenv("ANTHROPIC_API_KEY", "")
		t.Setenv("ANTHROPIC_BASE_URL", "")
		t.Setenv("EVALKIT_JUDGE_MODEL", "claude-sonnet-4-6")
		tr := judgefake.NewTransport()
		j := anthropicjudge.FromEnv(anthropicjudge.WithHTTPClient(tr.Client()))
		require.NotNil(t, j)
		_, err := j.Judge(context.Background(), refundRequest)
		assert.EqualError(t, err, "anthropicjudge: ANTHROPIC_API_KEY is not set: the judge needs an API key to call https://api.anthropic.com/v1/messages")
		assert.Empty(t, tr.Requests())
		assert.Equal(t, "claude-sonnet-4-6", j.Identity().Model)
	})
	t.Run("from the environment", func(t *testing.T) {
		t.Setenv("ANTHROPIC_API_KEY", testKey)
		t.Setenv("ANTHROPIC_BASE_URL", "https://proxy.example/anthropic/v1/")
		t.Setenv("EVALKIT_JUDGE_MODEL", "")
		tr := judgefake.NewTransport(judgefake.Text(goodReply))
		j := anthropicjudge.FromEnv(anthropicjudge.WithHTTPClient(tr.Client()))
		_, err := j.Judge(context.Background(), refundRequest)
		// The fake serves /v1/messages only; the path shows the base was
		// used with a single /v1.
		require.Error(t, err)
		assert.Equal(t, "/anthropic/v1/messages", tr.Requests()[0].Path)
	})
}

func TestAnthropicjudgeBadConfig(t *testing.T) {
	tests := []struct {
		opts []anthropicjudge.Option
		err  string
	}{
		{[]anthropicjudge.Option{anthropicjudge.WithBaseURL("api.anthropic.com")}, `anthropicjudge: base URL "api.anthropic.com": want an http:// or https:// URL with a host`},
		{[]anthropicjudge.Option{anthropicjudge.WithModel("")}, "anthropicjudge: no model: set WithModel or EVALKIT_JUDGE_MODEL"},
		{[]anthropicjudge.Option{anthropicjudge.WithMaxTokens(0)}, "anthropicjudge: max_tokens must be positive, got 0"},
	}
	for _, tt := range tests {
		_, err := anthropicjudge.New(tt.opts...).Judge(context.Background(), refundRequest)
		assert.EqualError(t, err, tt.err)
	}
}

func TestAnthropicjudgeKeyNeverInErrors(t *testing.T) {
	j, _ := newJudge(t, []judgefake.Reply{{Status: 401, Text: "invalid x-api-key " + testKey}})
	_, err := j.Judge(context.Background(), refundRequest)
	assert.EqualError(t, err, "anthropicjudge: 1 attempt: HTTP 401 Unauthorized: invalid x-api-key [redacted:openai-key]")
}

func TestAnthropicjudgeConcurrent(t *testing.T) {
	const n = 32
	var script []judgefake.Reply
	for range n {
		script = append(script, judgefake.Text(goodReply))
	}
	j, tr := newJudge(t, script)
	var wg sync.WaitGroup
	for range n {
		wg.Go(func() {
			v, err := j.Judge(context.Background(), refundRequest)
			if assert.NoError(t, err) {
				assert.Equal(t, 8.0, v.RawScore)
			}
		})
	}
	wg.Wait()
	assert.Equal(t, n, len(tr.Requests()))
}

func TestAnthropicjudgeRealServerAndConformance(t *testing.T) {
	var script []judgefake.Reply
	for range 200 {
		script = append(script, judgefake.Text(`{"reasoning": "Meets the criteria in part.", "score": 1}`))
	}
	srv := judgefake.NewServer(append([]judgefake.Reply{judgefake.Status(529), judgefake.ConnReset()}, script...)...)
	defer srv.Close()
	j := anthropicjudge.New(anthropicjudge.WithBaseURL(srv.URL), anthropicjudge.WithAPIKey(testKey), anthropicjudge.WithHTTPClient(srv.Client()))
	v, err := j.Judge(context.Background(), refundRequest)
	require.NoError(t, err)
	assert.Equal(t, 1.0, v.RawScore)
	assert.Equal(t, 3, len(srv.Requests()))
	require.NoError(t, judgefake.TestJudge(j))
	require.NoError(t, srv.Err())
}

func TestAnthropicjudgeTemperatureHint(t *testing.T) {
	j, _ := newJudge(t, []judgefake.Reply{{Status: 400, Text: "`temperature` is deprecated for this model."}}, anthropicjudge.WithModel("claude-opus-4-7"))
	_, err := j.Judge(context.Background(), refundRequest)
	assert.EqualError(t, err, "anthropicjudge: 1 attempt: HTTP 400 Bad Request: `temperature` is deprecated for this model.; hint: for a model that takes no temperature, use anthropicjudge.WithoutTemperature()")
}

// TestAnthropicjudgeNeverFollowsRedirects: a base URL that redirects — to
// another host, where net/http would forward x-api-key — is an error, and
// the redirect's target receives nothing.
func TestAnthropicjudgeNeverFollowsRedirects(t *testing.T) {
	for _, code := range []int{http.StatusTemporaryRedirect, http.StatusPermanentRedirect} {
		var stolen atomic.Int32
		evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { stolen.Add(1) }))
		origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, evil.URL+r.URL.Path, code)
		}))
		j := anthropicjudge.New(anthropicjudge.WithBaseURL(origin.URL), anthropicjudge.WithAPIKey(testKey))
		_, err := j.Judge(context.Background(), refundRequest)
		assert.EqualError(t, err, fmt.Sprintf("anthropicjudge: 1 attempt: HTTP %d %s to %s: not followed: a judge sends its credentials only to its base URL; set the base URL to the API's own address", code, http.StatusText(code), evil.URL))
		assert.Zero(t, stolen.Load(), "HTTP %d: the redirect's target got a request", code)
		origin.Close()
		evil.Close()
	}
}

// TestAnthropicjudgeRetriesAreCapped: WithMaxRetries(1<<30) against a
// server that is always overloaded makes MaxRetries retries.
func TestAnthropicjudgeRetriesAreCapped(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var script []judgefake.Reply
		for range anthropicjudge.MaxRetries + 1 {
			script = append(script, judgefake.Status(529))
		}
		j, tr := newJudge(t, script, anthropicjudge.WithMaxRetries(1<<30))
		_, err := j.Judge(context.Background(), refundRequest)
		assert.EqualError(t, err, "anthropicjudge: 11 attempts: HTTP 529 overloaded: judgefake: scripted 529; not retrying: 10 retries is the most a judge makes")
		assert.Equal(t, anthropicjudge.MaxRetries+1, len(tr.Requests()))
		assert.NoError(t, tr.Err())
	})
}

// TestAnthropicjudgeReplyShapes: a reply that is not one verdict — two
// calls of the verdict tool, a call of a tool the judge did not offer, a
// verdict call without input — is an error, never the first answer taken
// silently; text is read only when no tool was called at all; and the
// stop reasons that mean the answer was cut off are errors.
func TestAnthropicjudgeReplyShapes(t *testing.T) {
	const (
		unread   = "anthropicjudge: 1 attempt: m: evalkit: unreadable judge verdict: "
		verdict8 = `{"type": "tool_use", "id": "toolu_1", "name": "evalkit_verdict", "input": {"reasoning": "ok", "score": 8}}`
		verdict1 = `{"type": "tool_use", "id": "toolu_2", "name": "evalkit_verdict", "input": {"reasoning": "no", "score": 1}}`
		text10   = `{"type": "text", "text": "{\"reasoning\": \"fine\", \"score\": 10}"}`
	)
	reply := func(stop string, blocks ...string) string {
		return `{"type": "message", "model": "m", "stop_reason": "` + stop + `", "content": [` + strings.Join(blocks, ", ") + `]}`
	}
	tests := []struct {
		name, reply, err string
		raw              float64
	}{
		{"one verdict call", reply("tool_use", verdict8), "", 8},
		{"one verdict call beside text: the call is the answer", reply("tool_use", text10, verdict8), "", 8},
		{"text alone: a proxy that dropped the tools", reply("end_turn", text10), "", 10},
		{"pause_turn is read", reply("pause_turn", verdict8), "", 8},
		{"a stop reason of a proxy's own is read", reply("stop_sequence", verdict8), "", 8},
		{"two verdict calls that disagree", reply("tool_use", verdict8, verdict1),
			unread + "the reply calls the evalkit_verdict tool 2 times, and which is the verdict is not knowable", 0},
		{"two verdict calls that agree", reply("tool_use", verdict8, verdict8),
			unread + "the reply calls the evalkit_verdict tool 2 times, and which is the verdict is not knowable", 0},
		{"another tool and text", reply("tool_use", `{"type": "tool_use", "name": "other", "input": {"score": 1}}`, text10),
			unread + `the model called the tool "other", which the judge did not offer (it offers only "evalkit_verdict")`, 0},
		{"another tool beside the verdict", reply("tool_use", verdict8, `{"type": "tool_use", "name": "lookup", "input": {}}`),
			unread + `the model called the tool "lookup", which the judge did not offer (it offers only "evalkit_verdict")`, 0},
		{"a verdict call without input, and text", reply("tool_use", `{"type": "tool_use", "name": "evalkit_verdict"}`, text10),
			unread + "the reply calls the evalkit_verdict tool with no input", 0},
		{"a verdict call with null input, and text", reply("tool_use", `{"type": "tool_use", "name": "evalkit_verdict", "input": null}`, text10),
			unread + "the reply calls the evalkit_verdict tool with no input", 0},
		{"cut off at the context window", reply("model_context_window_exceeded", `{"type": "tool_use", "name": "evalkit_verdict", "input": {}}`),
			unread + `the reply was cut off at the model's context window after 2 bytes (stop_reason "model_context_window_exceeded")`, 0},
		{"cut off, as a proxy may write it", reply("length", text10),
			unread + `the reply was cut off at max_tokens (1024) after 34 bytes (stop_reason "length")`, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			client := &http.Client{Transport: roundTrip(func(r *http.Request) (*http.Response, error) {
				return &http.Response{StatusCode: 200, Header: http.Header{}, Body: io.NopCloser(strings.NewReader(tt.reply))}, nil
			})}
			j := anthropicjudge.New(anthropicjudge.WithBaseURL(testBase), anthropicjudge.WithAPIKey(testKey), anthropicjudge.WithHTTPClient(client))
			v, err := j.Judge(context.Background(), refundRequest)
			if tt.err != "" {
				assert.EqualError(t, err, tt.err)
				assert.ErrorIs(t, err, evalkit.ErrUnreadableVerdict)
				assert.Equal(t, evalkit.Verdict{}, v)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.raw, v.RawScore)
		})
	}
}
