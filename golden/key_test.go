package golden_test

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/golden"
	"github.com/evalkit-go/evalkit/openaijudge"
)

// Field failure C20: a key that leaves out what changes a verdict replays
// a stale one; a key that minds JSON key order or credentials misses.
// Record judge-mini at temperature 0 and max_tokens 512 once, then look
// every variant up in replay-only mode.
func TestGoldenKeyC20(t *testing.T) {
	path := recordingPath(t)
	recorded := evalkit.Identity{Provider: "test", Model: "judge-mini",
		Settings: map[string]any{"temperature": 0, "max_tokens": 512, "api_key": "key-one-111111"}}
	req := evalkit.JudgeRequest{
		Criteria:      "Grades the answer",
		Rubric:        "Must cite the refund window.",
		Content:       "Answer: Refunds within 30 days.",
		VerdictSchema: json.RawMessage(`{"type": "object", "required": ["pass"], "properties": {"pass": {"type": "boolean"}}}`),
	}
	yes := true
	pass := &liveJudge{id: recorded, judge: func(evalkit.JudgeRequest) (evalkit.Verdict, error) { return evalkit.Verdict{Passed: &yes}, nil }}
	rec, err := golden.New(path, pass, golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	_, err = rec.Judge(context.Background(), req)
	require.NoError(t, err)
	require.NoError(t, rec.Save())

	with := func(f func(id *evalkit.Identity, r *evalkit.JudgeRequest)) (evalkit.Identity, evalkit.JudgeRequest) {
		id := recorded
		id.Settings = map[string]any{}
		for k, v := range recorded.Settings {
			id.Settings[k] = v
		}
		r := req
		f(&id, &r)
		return id, r
	}
	lookup := func(id evalkit.Identity, r evalkit.JudgeRequest) (evalkit.Verdict, error) {
		replay, err := golden.New(path, &liveJudge{id: id, judge: func(evalkit.JudgeRequest) (evalkit.Verdict, error) {
			t.Error("replay called the live judge")
			return evalkit.Verdict{}, nil
		}})
		require.NoError(t, err)
		return replay.Judge(context.Background(), r)
	}

	misses := map[string]func(id *evalkit.Identity, r *evalkit.JudgeRequest){
		"r2 other model":         func(id *evalkit.Identity, _ *evalkit.JudgeRequest) { id.Model = "judge-max" },
		"r3 temperature omitted": func(id *evalkit.Identity, _ *evalkit.JudgeRequest) { delete(id.Settings, "temperature") },
		"r4 max_tokens 16":       func(id *evalkit.Identity, _ *evalkit.JudgeRequest) { id.Settings["max_tokens"] = 16 },
		"r5 rubric changed":      func(_ *evalkit.Identity, r *evalkit.JudgeRequest) { r.Rubric = "Must cite the refund window and fees." },
		"other criteria":         func(_ *evalkit.Identity, r *evalkit.JudgeRequest) { r.Criteria = "Grades the tone" },
		"other prompt version":   func(id *evalkit.Identity, _ *evalkit.JudgeRequest) { id.PromptVersion = "v2" },
		"other provider":         func(id *evalkit.Identity, _ *evalkit.JudgeRequest) { id.Provider = "vllm" },
		"other scale":            func(_ *evalkit.Identity, r *evalkit.JudgeRequest) { r.Scale = evalkit.Scale{Min: 1, Max: 5} },
		"other labels":           func(_ *evalkit.Identity, r *evalkit.JudgeRequest) { r.Labels = []string{"yes", "no"} },
		"labels reordered":       func(_ *evalkit.Identity, r *evalkit.JudgeRequest) { r.Labels = []string{"no", "yes"} },
		"a request model":        func(_ *evalkit.Identity, r *evalkit.JudgeRequest) { r.Model = "judge-max" },
		"a context document":     func(_ *evalkit.Identity, r *evalkit.JudgeRequest) { r.Context = []string{"Refund policy: 30 days."} },
		"another verdict schema": func(_ *evalkit.Identity, r *evalkit.JudgeRequest) {
			r.VerdictSchema = json.RawMessage(`{"type": "object"}`)
		},
		"temperature 0.2":         func(id *evalkit.Identity, _ *evalkit.JudgeRequest) { id.Settings["temperature"] = 0.2 },
		"a system prompt":         func(_ *evalkit.Identity, r *evalkit.JudgeRequest) { r.SystemPrompt = "Be strict." },
		"whole transcript judged": func(_ *evalkit.Identity, r *evalkit.JudgeRequest) { r.Kind = evalkit.ContentTranscript },
	}
	for name, change := range misses {
		v, err := lookup(with(change))
		assert.ErrorIs(t, err, golden.ErrNotRecorded, name)
		assert.Equal(t, evalkit.Verdict{}, v, "%s: never the recorded pass", name)
	}

	hits := map[string]func(id *evalkit.Identity, r *evalkit.JudgeRequest){
		"r6 key order": func(id *evalkit.Identity, r *evalkit.JudgeRequest) {
			r.VerdictSchema = json.RawMessage(`{ "properties": {"pass": {"type": "boolean"}},
				"required": ["pass"], "type": "object" }`)
		},
		"r7 new api key":         func(id *evalkit.Identity, _ *evalkit.JudgeRequest) { id.Settings["api_key"] = "key-two-222222" },
		"api key left out":       func(id *evalkit.Identity, _ *evalkit.JudgeRequest) { delete(id.Settings, "api_key") },
		"7 and 7.0 and 7e0":      func(id *evalkit.Identity, _ *evalkit.JudgeRequest) { id.Settings["max_tokens"] = 512.0 },
		"the zero scale":         func(_ *evalkit.Identity, r *evalkit.JudgeRequest) { r.Scale = evalkit.DefaultScale },
		"a json.Number setting":  func(id *evalkit.Identity, _ *evalkit.JudgeRequest) { id.Settings["max_tokens"] = json.Number("5.12e2") },
		"an empty context slice": func(_ *evalkit.Identity, r *evalkit.JudgeRequest) { r.Context = []string{} },
	}
	for name, change := range hits {
		v, err := lookup(with(change))
		if assert.NoError(t, err, name) {
			assert.True(t, *v.Passed, name)
		}
	}
}

// The real judges' identities key what changes a verdict and nothing else:
// model, temperature, seed and token cap miss; the key, headers, base URL
// and HTTP client hit.
func TestGoldenKeyOpenAIJudge(t *testing.T) {
	req := refundRequest()
	key := func(opts ...openaijudge.Option) string {
		k, err := golden.Key(openaijudge.New(opts...).Identity(), req)
		require.NoError(t, err)
		return k
	}
	base := key(openaijudge.WithAPIKey("sk-one-1111111111111111111111"))
	for name, opts := range map[string][]openaijudge.Option{
		"another key":      {openaijudge.WithAPIKey("sk-two-2222222222222222222222")},
		"no key":           nil,
		"a header":         {openaijudge.WithHeader("api-key", "azure-key-3333")},
		"another base URL": {openaijudge.WithBaseURL("https://gateway.example.test/v1?token=tok-44444444")},
	} {
		assert.Equal(t, base, key(opts...), name)
	}
	for name, opts := range map[string][]openaijudge.Option{
		"another model":       {openaijudge.WithModel("gpt-4.1")},
		"temperature 0.7":     {openaijudge.WithTemperature(0.7)},
		"temperature omitted": {openaijudge.WithoutTemperature()},
		"no seed":             {openaijudge.WithoutSeed()},
		"max tokens 16":       {openaijudge.WithMaxTokens(16)},
		"another provider":    {openaijudge.WithProvider("ollama")},
	} {
		assert.NotEqual(t, base, key(opts...), name)
	}
}

// The key is plain SHA-256 over canonical JSON, reproducible by any tool.
func TestGoldenKeyIsCanonicalJSON(t *testing.T) {
	k, err := golden.Key(evalkit.Identity{Provider: "p", Settings: map[string]any{"b": 1.0, "a": "<x>"}},
		evalkit.JudgeRequest{Criteria: "c", Content: "d"})
	require.NoError(t, err)
	canonical := `{"identity":{"provider":"p","settings":{"a":"<x>","b":1}},"request":{"content":"d","criteria":"c","scale":{"max":10,"min":0}}}`
	assert.Equal(t, fmt.Sprintf("sha256:%x", sha256.Sum256([]byte(canonical))), k, "printf '%%s' '%s' | sha256sum", canonical)
}

func TestGoldenKeyErrors(t *testing.T) {
	_, err := golden.Key(testIdentity, evalkit.JudgeRequest{Criteria: "c", VerdictSchema: json.RawMessage(`{not json`)})
	assert.ErrorContains(t, err, "golden: the judge request does not encode as JSON")
	_, err = golden.Key(evalkit.Identity{Provider: "p", Settings: map[string]any{"f": func() {}}}, refundRequest())
	assert.ErrorContains(t, err, "golden: the judge's Identity does not encode as JSON")
}

// Integers past int64 key by their digits: two that one float64 holds
// alike (an order id, a seed) are two requests; a number and the same
// number written otherwise are one.
func TestGoldenKeyBigIntegers(t *testing.T) {
	key := func(seed json.Number) string {
		k, err := golden.Key(evalkit.Identity{Provider: "p", Settings: map[string]any{"seed": seed}}, evalkit.JudgeRequest{Criteria: "c", Content: "d"})
		require.NoError(t, err)
		return k
	}
	assert.NotEqual(t, key("12345678901234567890123"), key("12345678901234567890124"))
	assert.NotEqual(t, key("-9223372036854775809"), key("-9223372036854775810"))
	assert.Equal(t, key("100"), key("1e2"))
	assert.Equal(t, key("1"), key("1.0"))
	assert.Equal(t, key("0"), key("-0"))
}
