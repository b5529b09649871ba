package openaijudge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"sync/atomic"
	"time"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/internal/judgehttp"
	"github.com/evalkit-go/evalkit/internal/judgeprompt"
)

// Defaults of a Judge that sets nothing.
const (
	// DefaultModel is gpt-4.1-mini: cheap, fast, and — unlike the GPT-5
	// reasoning family — it accepts temperature 0 and a seed and supports
	// strict JSON-schema output on chat completions. OpenAI still names it
	// as the substitute for the models it retired in 2026 (deprecations
	// page, notice of 2026-04-22).
	DefaultModel = "gpt-4.1-mini"
	// DefaultBaseURL is OpenAI's API.
	DefaultBaseURL = "https://api.openai.com/v1"
	// DefaultSeed is the seed sent unless WithSeed or WithoutSeed says
	// otherwise: a fixed value, so servers that honour seeds sample a rerun
	// alike.
	DefaultSeed = 1
	// DefaultMaxRetries is how many times a failed call is retried.
	DefaultMaxRetries = 3
	// MaxRetries is the most retries a call makes, whatever WithMaxRetries
	// asks: eleven attempts at the 30 s backoff ceiling already span
	// minutes.
	MaxRetries = judgehttp.MaxRetries
)

// Judge is an evalkit.Judge backed by an OpenAI-compatible chat-completions
// server. Build it with New or FromEnv. It is safe for concurrent use.
type Judge struct {
	model          string
	baseURL        string
	apiKey         string
	provider       string
	httpClient     *http.Client
	temperature    *float64
	seed           *int64
	maxTokens      int
	maxTokensField string
	maxRetries     int
	attemptTimeout time.Duration
	prices         map[string]Price
	header         http.Header

	missingKey string // the environment variable FromEnv found empty
	configErr  error  // a bad option, reported by every call
	endpoint   string // baseURL + /chat/completions
	client     judgehttp.Client

	// format is the structured-output level this judge has settled on:
	// it only grows, when a server rejects a level (see Judge.Judge).
	format atomic.Int32
}

// Option configures a Judge.
type Option func(*Judge)

// WithModel sets the model asked to judge (default DefaultModel). A
// request's Model, when set, overrides it for that request.
func WithModel(model string) Option { return func(j *Judge) { j.model = model } }

// WithBaseURL sets the API's base URL, the part before /chat/completions:
// "https://api.openai.com/v1", "http://localhost:11434/v1" (Ollama),
// "http://localhost:8000/v1" (vLLM), "http://localhost:8080/v1" (llama.cpp),
// "http://localhost:1234/v1" (LM Studio), "https://openrouter.ai/api/v1",
// "https://RESOURCE.openai.azure.com/openai/v1" (Azure OpenAI; a
// deployment URL with "?api-version=..." works too, its query is kept).
func WithBaseURL(baseURL string) Option { return func(j *Judge) { j.baseURL = baseURL } }

// WithAPIKey sets the key sent as "Authorization: Bearer <key>". With no
// key no Authorization header is sent (a local server needs none; Azure
// takes WithHeader("api-key", key)).
func WithAPIKey(key string) Option {
	return func(j *Judge) { j.apiKey = key; j.missingKey = "" }
}

// WithHTTPClient sets the client that sends requests (default
// http.DefaultClient): for a proxy, custom TLS, or a test's transport. The
// judge sends through a copy that never follows a redirect, whatever c's
// CheckRedirect says: a 3xx from the API is an error (see the package doc).
func WithHTTPClient(c *http.Client) Option { return func(j *Judge) { j.httpClient = c } }

// WithTemperature sets the sampling temperature (default 0).
func WithTemperature(t float64) Option { return func(j *Judge) { j.temperature = &t } }

// WithoutTemperature sends no temperature, for models that reject one
// (OpenAI's reasoning models accept only their default).
func WithoutTemperature() Option { return func(j *Judge) { j.temperature = nil } }

// WithSeed sets the sampling seed (default DefaultSeed).
func WithSeed(seed int64) Option { return func(j *Judge) { j.seed = &seed } }

// WithoutSeed sends no seed, for servers that reject the field.
func WithoutSeed() Option { return func(j *Judge) { j.seed = nil } }

// WithMaxTokens caps the reply's length, sent as "max_tokens": the field
// every OpenAI-compatible server reads. By default no cap is sent and the
// server's default applies. A reply cut off at the cap is an error, never
// a verdict.
func WithMaxTokens(n int) Option {
	return func(j *Judge) { j.maxTokens, j.maxTokensField = n, "max_tokens" }
}

// WithMaxCompletionTokens caps the reply's length, sent as
// "max_completion_tokens": OpenAI's newer name for the cap, the only one
// its reasoning models accept (where it also counts reasoning tokens).
func WithMaxCompletionTokens(n int) Option {
	return func(j *Judge) { j.maxTokens, j.maxTokensField = n, "max_completion_tokens" }
}

// WithMaxRetries sets how many times a failed call is retried (default
// DefaultMaxRetries; 0 never retries), at most MaxRetries (10): a larger n
// counts as 10. The package doc says what is retried: 408, 429, 5xx,
// timeouts and connection failures.
func WithMaxRetries(n int) Option { return func(j *Judge) { j.maxRetries = n } }

// WithAttemptTimeout bounds one HTTP attempt, from request to the last
// byte of the reply (default two minutes). A call's context bounds the
// whole call, retries included.
func WithAttemptTimeout(d time.Duration) Option { return func(j *Judge) { j.attemptTimeout = d } }

// WithPrices adds to or overrides the price table used for Usage.CostUSD,
// by model name (see DefaultPrices).
func WithPrices(prices map[string]Price) Option {
	return func(j *Judge) {
		for m, p := range prices {
			j.prices[m] = p
		}
	}
}

// WithHeader adds a header to every request: "api-key" for Azure OpenAI,
// "HTTP-Referer" or "X-Title" for OpenRouter, a gateway's own. Headers are
// transport, never part of the Identity.
func WithHeader(key, value string) Option {
	return func(j *Judge) { j.header.Add(key, value) }
}

// WithProvider sets the Identity's Provider (default "openai"). Recordings
// key on it: name the serving stack ("ollama", "vllm") when the same model
// name could mean different weights on different servers.
func WithProvider(name string) Option { return func(j *Judge) { j.provider = name } }

// New returns a judge configured by opts: DefaultModel at DefaultBaseURL,
// temperature 0, seed DefaultSeed, no API key. A bad option (an
// unparseable base URL) is reported by every call to Judge, so New never
// fails.
func New(opts ...Option) *Judge {
	j := defaults()
	for _, opt := range opts {
		opt(j)
	}
	j.finish()
	return j
}

// FromEnv returns a judge configured from the environment, then by opts:
// OPENAI_API_KEY, OPENAI_BASE_URL (default DefaultBaseURL) and
// EVALKIT_JUDGE_MODEL (default DefaultModel). It never fails and never
// returns nil: with OPENAI_API_KEY unset, every call to Judge returns an
// error naming the variable, while Identity works — so tests that replay
// recorded verdicts, and never call the judge, run without a key. For a
// local server that needs no key, set OPENAI_API_KEY to any value, or pass
// WithAPIKey.
func FromEnv(opts ...Option) *Judge {
	j := defaults()
	if key := os.Getenv("OPENAI_API_KEY"); key != "" {
		j.apiKey = key
	} else {
		j.missingKey = "OPENAI_API_KEY"
	}
	if base := os.Getenv("OPENAI_BASE_URL"); base != "" {
		j.baseURL = base
	}
	if model := os.Getenv("EVALKIT_JUDGE_MODEL"); model != "" {
		j.model = model
	}
	for _, opt := range opts {
		opt(j)
	}
	j.finish()
	return j
}

func defaults() *Judge {
	temperature := 0.0
	seed := int64(DefaultSeed)
	return &Judge{
		model:       DefaultModel,
		baseURL:     DefaultBaseURL,
		provider:    "openai",
		temperature: &temperature,
		seed:        &seed,
		maxRetries:  DefaultMaxRetries,
		prices:      DefaultPrices(),
		header:      http.Header{},
	}
}

func (j *Judge) finish() {
	u, err := judgehttp.ParseBaseURL(j.baseURL)
	switch {
	case err != nil:
		j.configErr = fmt.Errorf("openaijudge: %w", err)
	case u.Scheme != "http" && u.Scheme != "https" || u.Host == "":
		j.configErr = fmt.Errorf("openaijudge: base URL %q: want an http:// or https:// URL with a host", judgehttp.RedactedURL(u))
	default:
		j.endpoint = u.JoinPath("chat", "completions").String()
	}
	if j.model == "" {
		j.configErr = fmt.Errorf("openaijudge: no model: set WithModel or EVALKIT_JUDGE_MODEL")
	}
	if j.maxTokensField != "" && j.maxTokens <= 0 {
		j.configErr = fmt.Errorf("openaijudge: %s must be positive, got %d", j.maxTokensField, j.maxTokens)
	}
	secrets := judgehttp.Secrets(j.apiKey, u, j.header)
	j.client = judgehttp.Client{
		Name:           "openaijudge",
		HTTP:           j.httpClient,
		MaxRetries:     j.maxRetries,
		AttemptTimeout: j.attemptTimeout,
		Secrets:        secrets,
	}
}

// Identity returns what recordings key on: Provider "openai" (or
// WithProvider's name), the model, the settings sent with every request
// (temperature, seed, max_tokens or max_completion_tokens — each present
// only when sent), and judgeprompt.Version.
//
// The base URL is not part of it, by decision: the same model behind a
// proxy, a gateway or Azure gives the same verdicts, a developer who
// records through a company gateway must replay in CI without it, and URLs
// can carry credentials. Where one model name means different weights on
// different servers, WithProvider tells them apart. Which structured-output
// level the server accepted (see Judge.Judge) is not part of it either.
func (j *Judge) Identity() evalkit.Identity {
	settings := map[string]any{}
	if j.temperature != nil {
		settings["temperature"] = *j.temperature
	}
	if j.seed != nil {
		settings["seed"] = *j.seed
	}
	if j.maxTokensField != "" {
		settings[j.maxTokensField] = j.maxTokens
	}
	return evalkit.Identity{
		Provider:      j.provider,
		Model:         j.model,
		Settings:      settings,
		PromptVersion: judgeprompt.Version,
	}
}

// Judge asks the model to grade req and reads its answer with
// evalkit.ParseVerdictFor (ParseVerdict on req.Scale.OrDefault(); with a
// VerdictSchema, a whole-object answer needs no score). req.Model, when set,
// replaces the judge's model; req.SystemPrompt replaces evalkit's system
// prompt (see package judgeprompt).
//
// Structured output: the request carries response_format json_schema
// (strict) with the verdict schema — req.VerdictSchema when set, else
// evalkit's {"reasoning", "score"}. A server that rejects it (HTTP 400 or
// 422 whose error names response_format or json_schema) is asked again
// with response_format json_object, and one that rejects that too, with no
// response_format at all; the prompt asks for the JSON either way. The
// judge remembers the level the server accepted and starts there on later
// calls. A VerdictSchema that OpenAI's strict mode refuses (strict wants
// every object closed with additionalProperties false and every property
// required) downgrades the judge the same way.
//
// Errors: an invalid request; a missing key (FromEnv); an HTTP failure
// after retries (see package doc); a reply that is not a chat completion,
// has no choices, was filtered or refused; and, wrapping
// evalkit.ErrUnreadableVerdict, a reply with more than one choice (the
// judge asks for one; it never guesses which of several is the verdict),
// one cut off (finish_reason "length", or "max_tokens" as some servers
// write it), and an answer ParseVerdict cannot read. Never a verdict with
// an error.
//
// Credentials never leave the judge. The API key, the base URL's
// password, and the values of the base URL's query parameters and of
// WithHeader's headers whose names hold "key", "auth", "token", "secret",
// "password", "cookie" or "signature" are replaced by "[redacted]" in
// every error and in the verdict's Model, Raw, Reasoning (the criteria's
// too) and Fields; values shorter than 8 bytes are placeholders, not
// credentials, and are left alone. A URL in an error shows neither its
// user information nor any query value.
func (j *Judge) Judge(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
	v, err := j.judge(ctx, req)
	if err != nil {
		return evalkit.Verdict{}, judgehttp.RedactError(err, j.client.Secrets)
	}
	judgehttp.RedactVerdict(&v, j.client.Secrets)
	return v, nil
}

func (j *Judge) judge(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
	if j.configErr != nil {
		return evalkit.Verdict{}, j.configErr
	}
	if j.missingKey != "" {
		return evalkit.Verdict{}, fmt.Errorf("openaijudge: %s is not set: the judge needs an API key to call %s (for a local server that needs none, set it to any value)", j.missingKey, judgehttp.RedactURL(j.endpoint))
	}
	msgs, err := judgeprompt.Render(req)
	if err != nil {
		return evalkit.Verdict{}, fmt.Errorf("openaijudge: %w", err)
	}
	schema, err := judgeprompt.Schema(req)
	if err != nil {
		return evalkit.Verdict{}, fmt.Errorf("openaijudge: %w", err)
	}
	model := j.model
	if req.Model != "" {
		model = req.Model
	}
	level := formatLevel(j.format.Load())
	if req.Format != nil {
		level = formatNone // a declared verdict format is text, not JSON
	}
	sent := 0 // attempts of the levels the server refused
	var tl toolLoop
	for {
		r := j.request(model, msgs, schema, level)
		r.Messages = append(r.Messages, tl.messages...)
		r.Tools = wireTools(req.Tools)
		body, err := json.Marshal(r)
		if err != nil {
			return evalkit.Verdict{}, fmt.Errorf("openaijudge: encoding the request: %w", err)
		}
		resp, err := j.client.Post(ctx, j.endpoint, j.headers(), body)
		if err != nil {
			var e *judgehttp.Error
			if errors.As(err, &e) {
				e.Attempts += sent
				if level < formatNone && rejectsFormat(err, level) {
					sent = e.Attempts
					level++
					j.raiseFormat(level)
					continue
				}
			}
			return evalkit.Verdict{}, withHint(err)
		}
		resp.Attempts += sent
		if len(req.Tools) > 0 {
			called, err := tl.round(ctx, j, resp, req, model)
			if err != nil {
				return evalkit.Verdict{}, err
			}
			if called {
				continue // the tools' results go back to the model
			}
		}
		v, err := j.verdict(ctx, resp, req, model)
		if err == nil && len(req.Tools) > 0 {
			v.ToolCalls = tl.calls
			v.Usage.InputTokens += tl.usage.InputTokens
			v.Usage.OutputTokens += tl.usage.OutputTokens
			v.Usage.CostUSD += tl.usage.CostUSD
		}
		return v, err
	}
}

// raiseFormat records that the server rejected the levels below level.
func (j *Judge) raiseFormat(level formatLevel) {
	for {
		cur := j.format.Load()
		if int32(level) <= cur || j.format.CompareAndSwap(cur, int32(level)) {
			return
		}
	}
}

func (j *Judge) headers() http.Header {
	h := j.header.Clone()
	if j.apiKey != "" {
		h.Set("Authorization", "Bearer "+j.apiKey)
	}
	h.Set("Accept", "application/json")
	return h
}
