package openaijudge_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
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
	"github.com/evalkit-go/evalkit/internal/judgeprompt"
	"github.com/evalkit-go/evalkit/judgefake"
	"github.com/evalkit-go/evalkit/openaijudge"
)

const (
	testKey   = "sk-test-AAAA1111"
	testBase  = "http://judge.test/v1"
	goodReply = `{"reasoning": "States $42.", "score": 8}`
)

var refundRequest = evalkit.JudgeRequest{
	Criteria: "States the refund amount",
	Input:    "Where is my refund?",
	Content:  "Your refund of $42 is on its way.",
}

// newJudge returns a judge that talks to an in-memory fake with script.
func newJudge(t *testing.T, script []judgefake.Reply, opts ...openaijudge.Option) (*openaijudge.Judge, *judgefake.Transport) {
	t.Helper()
	tr := judgefake.NewTransport(script...)
	base := []openaijudge.Option{openaijudge.WithBaseURL(testBase), openaijudge.WithAPIKey(testKey), openaijudge.WithHTTPClient(tr.Client())}
	return openaijudge.New(append(base, opts...)...), tr
}

// body decodes a recorded request body.
func body(t *testing.T, r judgefake.Request) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal(r.Body, &m))
	return m
}

func TestOpenaijudgeRequestWireShape(t *testing.T) {
	j, tr := newJudge(t, []judgefake.Reply{judgefake.Text(goodReply)})
	v, err := j.Judge(context.Background(), refundRequest)
	require.NoError(t, err)
	require.NoError(t, tr.Err())

	reqs := tr.Requests()
	require.Len(t, reqs, 1)
	r := reqs[0]
	assert.Equal(t, judgefake.APIOpenAI, r.API)
	assert.Equal(t, "POST", r.Method)
	assert.Equal(t, "/v1/chat/completions", r.Path)
	assert.Equal(t, "Bearer "+judgefake.Redacted, r.Header.Get("Authorization"))
	assert.Equal(t, "application/json", r.Header.Get("Content-Type"))

	msgs, err := judgeprompt.Render(refundRequest)
	require.NoError(t, err)
	schema, err := judgeprompt.Schema(refundRequest)
	require.NoError(t, err)
	want := map[string]any{
		"model": "gpt-4.1-mini",
		"messages": []any{
			map[string]any{"role": "system", "content": msgs.System},
			map[string]any{"role": "user", "content": msgs.User},
		},
		"temperature": 0.0,
		"seed":        1.0,
		"response_format": map[string]any{
			"type": "json_schema",
			"json_schema": map[string]any{
				"name":   "evalkit_verdict",
				"strict": true,
				"schema": decode(t, schema),
			},
		},
	}
	assert.Equal(t, want, body(t, r))

	assert.True(t, v.Scored)
	assert.Equal(t, 8.0, v.RawScore)
	assert.InDelta(t, 0.8, v.Score, 1e-12)
	assert.Equal(t, "States $42.", v.Reasoning)
	assert.Equal(t, goodReply, v.Raw)
	assert.Equal(t, "gpt-4.1-mini", v.Model)
}

func decode(t *testing.T, raw []byte) any {
	t.Helper()
	var v any
	require.NoError(t, json.Unmarshal(raw, &v))
	return v
}

// TestOpenaijudgeSettings: each option changes exactly the field it names,
// in the request and in the Identity alike.
func TestOpenaijudgeSettings(t *testing.T) {
	tests := []struct {
		name     string
		opts     []openaijudge.Option
		settings map[string]any // the Identity's, and the request's fields
	}{
		{"defaults", nil, map[string]any{"temperature": 0.0, "seed": int64(1)}},
		{"temperature", []openaijudge.Option{openaijudge.WithTemperature(0.7)}, map[string]any{"temperature": 0.7, "seed": int64(1)}},
		{"no temperature", []openaijudge.Option{openaijudge.WithoutTemperature()}, map[string]any{"seed": int64(1)}},
		{"seed", []openaijudge.Option{openaijudge.WithSeed(99)}, map[string]any{"temperature": 0.0, "seed": int64(99)}},
		{"no seed", []openaijudge.Option{openaijudge.WithoutSeed()}, map[string]any{"temperature": 0.0}},
		{"max_tokens", []openaijudge.Option{openaijudge.WithMaxTokens(512)}, map[string]any{"temperature": 0.0, "seed": int64(1), "max_tokens": 512}},
		{"max_completion_tokens", []openaijudge.Option{openaijudge.WithMaxCompletionTokens(2048), openaijudge.WithoutTemperature()}, map[string]any{"seed": int64(1), "max_completion_tokens": 2048}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j, tr := newJudge(t, []judgefake.Reply{judgefake.Text(goodReply)}, tt.opts...)
			_, err := j.Judge(context.Background(), refundRequest)
			require.NoError(t, err)
			id := j.Identity()
			assert.Equal(t, tt.settings, id.Settings)

			sent := body(t, tr.Requests()[0])
			for _, field := range []string{"temperature", "seed", "max_tokens", "max_completion_tokens"} {
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

func TestOpenaijudgeIdentity(t *testing.T) {
	j := openaijudge.New(openaijudge.WithBaseURL("https://user:pw-secret@gateway.example/v1"), openaijudge.WithAPIKey(testKey),
		openaijudge.WithHeader("api-key", "azure-secret"))
	id := j.Identity()
	assert.Equal(t, evalkit.Identity{
		Provider:      "openai",
		Model:         "gpt-4.1-mini",
		Settings:      map[string]any{"temperature": 0.0, "seed": int64(1)},
		PromptVersion: "evalkit-judge/1",
	}, id)
	raw, err := json.Marshal(id)
	require.NoError(t, err)
	for _, secret := range []string{testKey, "pw-secret", "azure-secret", "gateway.example"} {
		assert.NotContains(t, string(raw), secret)
	}

	local := openaijudge.New(openaijudge.WithModel("qwen3:8b"), openaijudge.WithProvider("ollama"))
	assert.Equal(t, "ollama", local.Identity().Provider)
	assert.Equal(t, "qwen3:8b", local.Identity().Model)
}

// TestOpenaijudgeRequestOverrides: a request's Model and SystemPrompt win
// over the judge's; the Identity keeps the judge's model (the request is
// keyed on separately).
func TestOpenaijudgeRequestOverrides(t *testing.T) {
	j, tr := newJudge(t, []judgefake.Reply{{Text: goodReply, Model: "gpt-5.4-mini-2026-03-17"}})
	req := refundRequest
	req.Model = "gpt-5.4-mini"
	req.SystemPrompt = "You grade refunds."
	v, err := j.Judge(context.Background(), req)
	require.NoError(t, err)
	sent := body(t, tr.Requests()[0])
	assert.Equal(t, "gpt-5.4-mini", sent["model"])
	assert.Equal(t, "You grade refunds.", sent["messages"].([]any)[0].(map[string]any)["content"])
	assert.Equal(t, "gpt-5.4-mini-2026-03-17", v.Model, "the model the reply names")
	assert.Equal(t, "gpt-4.1-mini", j.Identity().Model)
}

func TestOpenaijudgeVerdictSchema(t *testing.T) {
	schema := `{"type":"object","properties":{"grade":{"type":"string","enum":["C","I"]},"reasoning":{"type":"string"}},"required":["reasoning","grade"],"additionalProperties":false}`
	j, tr := newJudge(t, []judgefake.Reply{judgefake.Text(`{"reasoning": "all facts match", "grade": "C"}`)})
	req := refundRequest
	req.VerdictSchema = json.RawMessage(schema)
	v, err := j.Judge(context.Background(), req)
	require.NoError(t, err)
	assert.Equal(t, "C", v.Label)
	assert.False(t, v.Scored)
	rf := body(t, tr.Requests()[0])["response_format"].(map[string]any)
	assert.Equal(t, decode(t, []byte(schema)), rf["json_schema"].(map[string]any)["schema"])
}

// TestOpenaijudgeFormatFallback: a server without JSON-schema output is
// asked again with json_object, then without response_format; the judge
// remembers where it landed.
func TestOpenaijudgeFormatFallback(t *testing.T) {
	noSchema := judgefake.Reply{Status: 400, Text: "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model."}
	noObject := judgefake.Reply{Status: 400, Text: "json_object is not supported by this server"}
	vllmStyle := judgefake.Reply{Status: 422, Text: "Unknown field: json_schema"}
	formats := func(tr *judgefake.Transport) []any {
		var out []any
		for _, r := range tr.Requests() {
			var b struct {
				ResponseFormat *struct {
					Type string `json:"type"`
				} `json:"response_format"`
			}
			require.NoError(t, json.Unmarshal(r.Body, &b))
			if b.ResponseFormat == nil {
				out = append(out, nil)
			} else {
				out = append(out, b.ResponseFormat.Type)
			}
		}
		return out
	}

	t.Run("to json_object", func(t *testing.T) {
		j, tr := newJudge(t, []judgefake.Reply{noSchema, judgefake.Text(goodReply), judgefake.Text(goodReply)})
		for range 2 {
			v, err := j.Judge(context.Background(), refundRequest)
			require.NoError(t, err)
			assert.Equal(t, 8.0, v.RawScore)
		}
		assert.Equal(t, []any{"json_schema", "json_object", "json_object"}, formats(tr))
	})
	t.Run("to the prompt alone", func(t *testing.T) {
		j, tr := newJudge(t, []judgefake.Reply{noSchema, noObject, judgefake.Text("```json\n" + goodReply + "\n```"), judgefake.Text(goodReply)})
		for range 2 {
			_, err := j.Judge(context.Background(), refundRequest)
			require.NoError(t, err)
		}
		assert.Equal(t, []any{"json_schema", "json_object", nil, nil}, formats(tr))
	})
	t.Run("422", func(t *testing.T) {
		j, tr := newJudge(t, []judgefake.Reply{vllmStyle, judgefake.Text(goodReply)})
		_, err := j.Judge(context.Background(), refundRequest)
		require.NoError(t, err)
		assert.Equal(t, []any{"json_schema", "json_object"}, formats(tr))
	})
	t.Run("other 400s are errors", func(t *testing.T) {
		j, tr := newJudge(t, []judgefake.Reply{{Status: 400, Text: "The model `gpt-9` does not exist"}})
		_, err := j.Judge(context.Background(), refundRequest)
		assert.EqualError(t, err, "openaijudge: 1 attempt: HTTP 400 Bad Request: The model `gpt-9` does not exist")
		assert.Equal(t, []any{"json_schema"}, formats(tr))
	})
	t.Run("a failure after the downgrade is reported, with the attempts of both levels", func(t *testing.T) {
		j, _ := newJudge(t, []judgefake.Reply{noSchema, judgefake.Status(401)}, openaijudge.WithMaxRetries(0))
		_, err := j.Judge(context.Background(), refundRequest)
		assert.EqualError(t, err, "openaijudge: 2 attempts: HTTP 401 Unauthorized: judgefake: scripted 401 Unauthorized")
	})
}

// TestOpenaijudgeFaults: every fault the fake can make, with the retries
// it deserves and the error it ends in, in virtual time.
func TestOpenaijudgeFaults(t *testing.T) {
	v := judgefake.Text(goodReply)
	tests := []struct {
		name     string
		script   []judgefake.Reply
		err      string // "" for a verdict
		requests int
		elapsed  time.Duration
		unread   bool // the error wraps evalkit.ErrUnreadableVerdict
	}{
		{"429 with Retry-After, then an answer", []judgefake.Reply{judgefake.RateLimited(20 * time.Second), v}, "", 2, 20 * time.Second, false},
		{"429 without Retry-After, then an answer", []judgefake.Reply{judgefake.RateLimited(0), v}, "", 2, 500 * time.Millisecond, false},
		{"429 until the retries run out",
			[]judgefake.Reply{judgefake.RateLimited(2 * time.Second), judgefake.RateLimited(2 * time.Second), judgefake.RateLimited(2 * time.Second), judgefake.RateLimited(2 * time.Second)},
			"openaijudge: 4 attempts: HTTP 429 rate limited (Retry-After 2s): judgefake: scripted 429 Too Many Requests", 4, 6 * time.Second, false},
		{"5xx, backing off", []judgefake.Reply{judgefake.Status(500), judgefake.Status(502), judgefake.Status(503), v}, "", 4, 3500 * time.Millisecond, false},
		{"5xx until the retries run out",
			[]judgefake.Reply{judgefake.Status(503), judgefake.Status(503), judgefake.Status(503), judgefake.Status(503)},
			"openaijudge: 4 attempts: HTTP 503 Service Unavailable: judgefake: scripted 503 Service Unavailable", 4, 3500 * time.Millisecond, false},
		{"400 is not retried", []judgefake.Reply{judgefake.Status(400)}, "openaijudge: 1 attempt: HTTP 400 Bad Request: judgefake: scripted 400 Bad Request", 1, 0, false},
		{"401 is not retried", []judgefake.Reply{judgefake.Status(401)}, "openaijudge: 1 attempt: HTTP 401 Unauthorized: judgefake: scripted 401 Unauthorized", 1, 0, false},
		{"stall, then an answer", []judgefake.Reply{judgefake.Stall(), v}, "", 2, 2*time.Minute + 500*time.Millisecond, false},
		{"stalls until the retries run out",
			[]judgefake.Reply{judgefake.Stall(), judgefake.Stall(), judgefake.Stall(), judgefake.Stall()},
			"openaijudge: 4 attempts: timeout: no complete response within 2m0s", 4, 8*time.Minute + 3500*time.Millisecond, false},
		{"connection reset, then an answer", []judgefake.Reply{judgefake.ConnReset(), v}, "", 2, 500 * time.Millisecond, false},
		{"malformed body", []judgefake.Reply{judgefake.Malformed()},
			`openaijudge: 1 attempt: HTTP 200: the reply is not a chat completion: invalid character ',' looking for beginning of object key string`, 1, 0, false},
		{"cut-off body", []judgefake.Reply{judgefake.CutOff(goodReply)},
			`openaijudge: 1 attempt: HTTP 200: the reply is not a chat completion: unexpected end of JSON input`, 1, 0, false},
		{"empty body", []judgefake.Reply{judgefake.EmptyBody()}, "openaijudge: 1 attempt: HTTP 200: the reply is empty", 1, 0, false},
		{"wrong schema", []judgefake.Reply{judgefake.WrongSchema(goodReply)},
			`openaijudge: 1 attempt: HTTP 200: the reply is not a chat completion: it has no "choices"`, 1, 0, false},
		{"cut off at the token limit", []judgefake.Reply{{Text: `{"reasoning": "The answer states`, StopReason: "length"}},
			`openaijudge: 1 attempt: gpt-4.1-mini: evalkit: unreadable judge verdict: the reply was cut off at the token limit (finish_reason "length") after 32 bytes`, 1, 0, true},
		{"content filter", []judgefake.Reply{{Text: "", StopReason: "content_filter"}},
			`openaijudge: 1 attempt: HTTP 200: the reply was withheld by the content filter (finish_reason "content_filter")`, 1, 0, false},
		{"prose, no verdict", []judgefake.Reply{judgefake.Text("I would rate it a 10")}, "openaijudge: 1 attempt: gpt-4.1-mini: evalkit: unreadable judge verdict", 1, 0, true},
		{"score outside the scale", []judgefake.Reply{judgefake.Text(`{"reasoning": "great", "score": 11}`)}, "openaijudge: 1 attempt: gpt-4.1-mini: evalkit: unreadable judge verdict", 1, 0, true},
		{"empty answer", []judgefake.Reply{judgefake.Text("")}, "openaijudge: 1 attempt: gpt-4.1-mini: evalkit: unreadable judge verdict: the answer is empty", 1, 0, true},
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

// TestOpenaijudgeDeadline: a Retry-After that would outlast the context
// fails the call at once, naming the deadline.
func TestOpenaijudgeDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		j, tr := newJudge(t, []judgefake.Reply{judgefake.RateLimited(20 * time.Second), judgefake.Text(goodReply)})
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		start := time.Now()
		_, err := j.Judge(ctx, refundRequest)
		assert.EqualError(t, err, "openaijudge: 1 attempt: HTTP 429 rate limited (Retry-After 20s): judgefake: scripted 429 Too Many Requests; not retrying: waiting 20s would pass the context deadline (5s left)")
		assert.ErrorIs(t, err, context.DeadlineExceeded)
		assert.Equal(t, time.Duration(0), time.Since(start))
		assert.Equal(t, 1, len(tr.Requests()))
	})
	synctest.Test(t, func(t *testing.T) {
		j, _ := newJudge(t, []judgefake.Reply{judgefake.Stall()})
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		start := time.Now()
		_, err := j.Judge(ctx, refundRequest)
		assert.EqualError(t, err, "openaijudge: 1 attempt: context deadline exceeded")
		assert.ErrorIs(t, err, context.DeadlineExceeded)
		assert.Equal(t, 30*time.Second, time.Since(start))
	})
}

func TestOpenaijudgeCancelled(t *testing.T) {
	j, tr := newJudge(t, []judgefake.Reply{judgefake.Text(goodReply)})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := j.Judge(ctx, refundRequest)
	assert.ErrorIs(t, err, context.Canceled)
	assert.Empty(t, tr.Requests())
}

func TestOpenaijudgeUsageAndCost(t *testing.T) {
	tests := []struct {
		name  string
		reply judgefake.Reply
		opts  []openaijudge.Option
		cost  float64
	}{
		{"snapshot priced by its alias", judgefake.Reply{Text: goodReply, Model: "gpt-4.1-mini-2025-04-14", InputTokens: 1000, OutputTokens: 100}, nil, (1000*0.40 + 100*1.60) / 1e6},
		{"unknown model costs 0", judgefake.Reply{Text: goodReply, Model: "qwen3:8b", InputTokens: 1000, OutputTokens: 100}, []openaijudge.Option{openaijudge.WithModel("qwen3:8b")}, 0},
		{"a price of the user's", judgefake.Reply{Text: goodReply, Model: "qwen3:8b", InputTokens: 2_000_000, OutputTokens: 1_000_000}, []openaijudge.Option{openaijudge.WithModel("qwen3:8b"), openaijudge.WithPrices(map[string]openaijudge.Price{"qwen3:8b": {Input: 0.5, Output: 1}})}, 2},
		{"an override of a built-in price", judgefake.Reply{Text: goodReply, InputTokens: 1_000_000, OutputTokens: 1}, []openaijudge.Option{openaijudge.WithPrices(map[string]openaijudge.Price{"gpt-4.1-mini": {Input: 0.1}})}, 0.1},
		{"a deployment name priced by the model the reply names", judgefake.Reply{Text: goodReply, Model: "gpt-4.1-2025-04-14", InputTokens: 1_000_000, OutputTokens: 1_000_000}, []openaijudge.Option{openaijudge.WithModel("my-deployment")}, 10},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j, _ := newJudge(t, []judgefake.Reply{tt.reply}, tt.opts...)
			v, err := j.Judge(context.Background(), refundRequest)
			require.NoError(t, err)
			assert.Equal(t, tt.reply.InputTokens, v.Usage.InputTokens)
			assert.Equal(t, tt.reply.OutputTokens, v.Usage.OutputTokens)
			assert.InDelta(t, tt.cost, v.Usage.CostUSD, 1e-12)
		})
	}
	assert.Equal(t, openaijudge.Price{Input: 0.40, Output: 1.60}, openaijudge.DefaultPrices()["gpt-4.1-mini"])
	openaijudge.DefaultPrices()["gpt-4.1-mini"] = openaijudge.Price{}
	assert.Equal(t, openaijudge.Price{Input: 0.40, Output: 1.60}, openaijudge.DefaultPrices()["gpt-4.1-mini"], "a copy")
}

func TestOpenaijudgeFromEnv(t *testing.T) {
	t.Run("missing key", func(t *testing.T) {
		t.Setenv("OPENAI_API_KEY", "")
		t.Setenv("OPENAI_BASE_URL", "")
		t.Setenv("EVALKIT_JUDGE_MODEL", "gpt-5.4-mini")
		tr := judgefake.NewTransport()
		j := openaijudge.FromEnv(openaijudge.WithHTTPClient(tr.Client()))
		require.NotNil(t, j)
		_, err := j.Judge(context.Background(), refundRequest)
		assert.EqualError(t, err, "openaijudge: OPENAI_API_KEY is not set: the judge needs an API key to call https://api.openai.com/v1/chat/completions (for a local server that needs none, set it to any value)")
		assert.Empty(t, tr.Requests(), "nothing is sent")
		assert.Equal(t, "gpt-5.4-mini", j.Identity().Model, "the identity works without a key")
	})
	t.Run("from the environment", func(t *testing.T) {
		t.Setenv("OPENAI_API_KEY", testKey)
		t.Setenv("OPENAI_BASE_URL", "http://localhost:11434/v1/")
		t.Setenv("EVALKIT_JUDGE_MODEL", "")
		tr := judgefake.NewTransport(judgefake.Text(goodReply))
		j := openaijudge.FromEnv(openaijudge.WithHTTPClient(tr.Client()))
		_, err := j.Judge(context.Background(), refundRequest)
		require.NoError(t, err)
		r := tr.Requests()[0]
		assert.Equal(t, "/v1/chat/completions", r.Path)
		assert.Equal(t, "Bearer "+judgefake.Redacted, r.Header.Get("Authorization"))
		assert.Equal(t, "gpt-4.1-mini", body(t, r)["model"])
	})
	t.Run("options win over the environment", func(t *testing.T) {
		t.Setenv("OPENAI_API_KEY", "")
		t.Setenv("EVALKIT_JUDGE_MODEL", "from-env")
		tr := judgefake.NewTransport(judgefake.Text(goodReply))
		j := openaijudge.FromEnv(openaijudge.WithAPIKey("ollama"), openaijudge.WithModel("llama3"), openaijudge.WithBaseURL(testBase), openaijudge.WithHTTPClient(tr.Client()))
		_, err := j.Judge(context.Background(), refundRequest)
		require.NoError(t, err)
		assert.Equal(t, "llama3", body(t, tr.Requests()[0])["model"])
	})
}

func TestOpenaijudgeBadConfig(t *testing.T) {
	tests := []struct {
		opts []openaijudge.Option
		err  string
	}{
		{[]openaijudge.Option{openaijudge.WithBaseURL("localhost:11434")}, `openaijudge: base URL "localhost:11434": want an http:// or https:// URL with a host`},
		{[]openaijudge.Option{openaijudge.WithBaseURL("http://a b")}, `openaijudge: the base URL does not parse (it is not shown, as it may hold a credential): invalid character " " in host name`},
		{[]openaijudge.Option{openaijudge.WithModel("")}, "openaijudge: no model: set WithModel or EVALKIT_JUDGE_MODEL"},
		{[]openaijudge.Option{openaijudge.WithMaxTokens(0)}, "openaijudge: max_tokens must be positive, got 0"},
	}
	for _, tt := range tests {
		j := openaijudge.New(tt.opts...)
		_, err := j.Judge(context.Background(), refundRequest)
		assert.EqualError(t, err, tt.err)
	}
	_, err := openaijudge.New().Judge(context.Background(), evalkit.JudgeRequest{Content: "x"})
	assert.EqualError(t, err, "openaijudge: evalkit: judge request has no criteria")
}

// TestOpenaijudgeAzure: a deployment URL keeps its api-version query, and
// the api-key header goes out while staying out of errors.
func TestOpenaijudgeAzure(t *testing.T) {
	tr := judgefake.NewTransport(judgefake.Reply{Status: 401, Text: "Access denied due to invalid subscription key azure-secret-123."})
	j := openaijudge.New(
		openaijudge.WithBaseURL("https://res.openai.azure.com/openai/deployments/judge?api-version=2024-10-21"),
		openaijudge.WithHeader("api-key", "azure-secret-123"),
		openaijudge.WithModel("judge"),
		openaijudge.WithHTTPClient(tr.Client()),
	)
	_, err := j.Judge(context.Background(), refundRequest)
	assert.EqualError(t, err, "openaijudge: 1 attempt: HTTP 401 Unauthorized: Access denied due to invalid subscription key [redacted:header:api-key].")
	r := tr.Requests()[0]
	assert.Equal(t, "/openai/deployments/judge/chat/completions", r.Path)
	assert.Equal(t, "2024-10-21", r.Query.Get("api-version"))
	assert.Equal(t, judgefake.Redacted, r.Header.Get("Api-Key"))
	assert.Empty(t, r.Header.Values("Authorization"), "no key, no Authorization header")
}

// TestOpenaijudgeKeyNeverInErrors: a server that echoes the key, and a
// transport error that quotes the URL, leave no credential in the error.
func TestOpenaijudgeKeyNeverInErrors(t *testing.T) {
	j, _ := newJudge(t, []judgefake.Reply{{Status: 401, Text: "Incorrect API key provided: " + testKey + "."}})
	_, err := j.Judge(context.Background(), refundRequest)
	assert.EqualError(t, err, "openaijudge: 1 attempt: HTTP 401 Unauthorized: Incorrect API key provided: [redacted:openai-key].")

	failing := &http.Client{Transport: roundTrip(func(r *http.Request) (*http.Response, error) {
		return nil, &net.DNSError{Err: "no such host", Name: r.URL.Host, IsNotFound: true}
	})}
	j = openaijudge.New(openaijudge.WithBaseURL("http://user:pw-secret@judge.test/v1"), openaijudge.WithAPIKey(testKey), openaijudge.WithHTTPClient(failing))
	_, err = j.Judge(context.Background(), refundRequest)
	require.Error(t, err)
	assert.NotContains(t, err.Error(), "pw-secret")
	assert.NotContains(t, err.Error(), testKey)
}

// TestOpenaijudgeConcurrent shares one judge between goroutines, while the
// server makes it downgrade its output format (run with -race).
func TestOpenaijudgeConcurrent(t *testing.T) {
	const n = 32
	script := []judgefake.Reply{{Status: 400, Text: "'response_format' of type 'json_schema' is not supported"}}
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
	assert.Equal(t, n+1, len(tr.Requests()))
	assert.NoError(t, tr.Err())
}

// TestOpenaijudgeRealServer runs the judge over a real socket.
func TestOpenaijudgeRealServer(t *testing.T) {
	srv := judgefake.NewServer(judgefake.RateLimited(0), judgefake.ConnReset(), judgefake.Text(goodReply))
	defer srv.Close()
	j := openaijudge.New(openaijudge.WithBaseURL(srv.URL+"/v1"), openaijudge.WithAPIKey(testKey), openaijudge.WithHTTPClient(srv.Client()))
	v, err := j.Judge(context.Background(), refundRequest)
	require.NoError(t, err)
	assert.Equal(t, 8.0, v.RawScore)
	assert.Equal(t, 3, len(srv.Requests()))
	require.NoError(t, srv.Err())
}

type roundTrip func(*http.Request) (*http.Response, error)

func (f roundTrip) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// TestOpenaijudgeReplyShapes: content as a list of parts (some servers),
// a refusal, a missing message, several choices, and finish reasons.
func TestOpenaijudgeReplyShapes(t *testing.T) {
	tests := []struct {
		name, reply, err string
		raw              float64
	}{
		{"content parts", `{"object": "chat.completion", "model": "m", "choices": [{"message": {"role": "assistant", "content": [{"type": "text", "text": "{\"reasoning\": \"ok\", "}, {"type": "image_url"}, {"type": "text", "text": "\"score\": 4}"}]}, "finish_reason": "stop"}]}`, "", 4},
		{"refusal", `{"object": "chat.completion", "choices": [{"message": {"role": "assistant", "content": null, "refusal": "I can't help with that."}, "finish_reason": "stop"}]}`,
			"openaijudge: 1 attempt: HTTP 200: the model refused to judge: I can't help with that.", 0},
		{"no message", `{"object": "chat.completion", "choices": [{"finish_reason": "stop"}]}`, "openaijudge: 1 attempt: HTTP 200: the reply's first choice has no message", 0},
		{"empty choices", `{"object": "chat.completion", "choices": []}`, "openaijudge: 1 attempt: HTTP 200: the reply has no choices", 0},
		{"content of another type", `{"object": "chat.completion", "choices": [{"message": {"content": 7}}]}`, "openaijudge: 1 attempt: HTTP 200: the message content is neither text nor a list of parts", 0},
		{"two choices that disagree", `{"object": "chat.completion", "model": "m", "choices": [{"index": 0, "message": {"content": "{\"score\": 10}"}, "finish_reason": "stop"}, {"index": 1, "message": {"content": "{\"score\": 1}"}, "finish_reason": "stop"}]}`,
			"openaijudge: 1 attempt: m: evalkit: unreadable judge verdict: the reply has 2 choices where the judge asked for one, and which is the verdict is not knowable", 0},
		{"two choices that agree", `{"object": "chat.completion", "model": "m", "choices": [{"message": {"content": "{\"score\": 4}"}}, {"message": {"content": "{\"score\": 4}"}}]}`,
			"openaijudge: 1 attempt: m: evalkit: unreadable judge verdict: the reply has 2 choices where the judge asked for one, and which is the verdict is not knowable", 0},
		{"cut off, as some servers write it", `{"object": "chat.completion", "model": "m", "choices": [{"message": {"content": "{\"score\": 4"}, "finish_reason": "max_tokens"}]}`,
			"openaijudge: 1 attempt: m: evalkit: unreadable judge verdict: the reply was cut off at the token limit (finish_reason \"max_tokens\") after 11 bytes", 0},
		{"a finish_reason of its own is read", `{"object": "chat.completion", "model": "m", "choices": [{"message": {"content": "{\"score\": 4}"}, "finish_reason": "eos"}]}`, "", 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			client := &http.Client{Transport: roundTrip(func(r *http.Request) (*http.Response, error) {
				return &http.Response{StatusCode: 200, Header: http.Header{}, Body: io.NopCloser(strings.NewReader(tt.reply))}, nil
			})}
			j := openaijudge.New(openaijudge.WithBaseURL(testBase), openaijudge.WithHTTPClient(client))
			v, err := j.Judge(context.Background(), refundRequest)
			if tt.err != "" {
				assert.EqualError(t, err, tt.err)
				assert.Equal(t, strings.Contains(tt.err, "unreadable judge verdict"), errors.Is(err, evalkit.ErrUnreadableVerdict))
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.raw, v.RawScore)
			assert.Zero(t, v.Usage, "no usage reported, none invented")
		})
	}
}

// TestOpenaijudgeHints: a 400 that names a setting the model does not take
// says which option to use.
func TestOpenaijudgeHints(t *testing.T) {
	tests := []struct{ msg, hint string }{
		{"Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported.", "; hint: for a model that takes no temperature, use openaijudge.WithoutTemperature()"},
		{"Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", "; hint: use openaijudge.WithMaxCompletionTokens instead of WithMaxTokens"},
		{"Unrecognized request argument supplied: seed", "; hint: for a server that takes no seed, use openaijudge.WithoutSeed()"},
		{"The model `gpt-9` does not exist", ""},
	}
	for _, tt := range tests {
		j, _ := newJudge(t, []judgefake.Reply{{Status: 400, Text: tt.msg}})
		_, err := j.Judge(context.Background(), refundRequest)
		assert.EqualError(t, err, "openaijudge: 1 attempt: HTTP 400 Bad Request: "+tt.msg+tt.hint)
		var e interface{ Status() int }
		if assert.ErrorAs(t, err, &e) {
			assert.Equal(t, 400, e.Status())
		}
	}
}

// TestOpenaijudgeNeverFollowsRedirects: a base URL that redirects — to
// another host, where net/http would forward Azure's api-key header — is
// an error, and the redirect's target receives nothing.
func TestOpenaijudgeNeverFollowsRedirects(t *testing.T) {
	for _, code := range []int{http.StatusTemporaryRedirect, http.StatusPermanentRedirect} {
		var stolen atomic.Int32
		evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { stolen.Add(1) }))
		origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, evil.URL+r.URL.Path, code)
		}))
		j := openaijudge.New(openaijudge.WithBaseURL(origin.URL+"/v1"), openaijudge.WithAPIKey(testKey), openaijudge.WithHeader("api-key", "azure-secret-123"))
		_, err := j.Judge(context.Background(), refundRequest)
		assert.EqualError(t, err, fmt.Sprintf("openaijudge: 1 attempt: HTTP %d %s to %s: not followed: a judge sends its credentials only to its base URL; set the base URL to the API's own address", code, http.StatusText(code), evil.URL))
		assert.Zero(t, stolen.Load(), "HTTP %d: the redirect's target got a request", code)
		origin.Close()
		evil.Close()
	}
}

// TestOpenaijudgeRetriesAreCapped: WithMaxRetries(1<<30) against a server
// that is always rate limited makes MaxRetries retries, not a billion.
func TestOpenaijudgeRetriesAreCapped(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var script []judgefake.Reply
		for range openaijudge.MaxRetries + 1 {
			script = append(script, judgefake.RateLimited(time.Second))
		}
		j, tr := newJudge(t, script, openaijudge.WithMaxRetries(1<<30))
		ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
		defer cancel()
		_, err := j.Judge(ctx, refundRequest)
		assert.EqualError(t, err, "openaijudge: 11 attempts: HTTP 429 rate limited (Retry-After 1s): judgefake: scripted 429 Too Many Requests; not retrying: 10 retries is the most a judge makes")
		assert.Equal(t, openaijudge.MaxRetries+1, len(tr.Requests()))
		assert.NoError(t, tr.Err())
	})
}
