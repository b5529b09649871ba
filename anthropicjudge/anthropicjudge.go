package anthropicjudge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/internal/judgehttp"
	"github.com/evalkit-go/evalkit/internal/judgeprompt"
)

// Defaults of a Judge that sets nothing.
const (
	// DefaultModel is Claude Haiku 4.5, pinned to its snapshot: the
	// cheapest current Claude model, fast, and it accepts temperature 0.
	DefaultModel = "claude-haiku-4-5-20251001"
	// DefaultBaseURL is Anthropic's API; requests go to {base}/v1/messages.
	DefaultBaseURL = "https://api.anthropic.com"
	// DefaultMaxTokens is the reply cap sent when WithMaxTokens is not: the
	// API requires one, and a verdict with a few sentences of reasoning
	// needs a few hundred tokens.
	DefaultMaxTokens = 1024
	// DefaultMaxRetries is how many times a failed call is retried.
	DefaultMaxRetries = 3
	// MaxRetries is the most retries a call makes, whatever WithMaxRetries
	// asks: eleven attempts at the 30 s backoff ceiling already span
	// minutes.
	MaxRetries = judgehttp.MaxRetries
	// APIVersion is the anthropic-version header sent with every request.
	APIVersion = "2023-06-01"
)

// Judge is an evalkit.Judge backed by Anthropic's Messages API. Build it
// with New or FromEnv. It is safe for concurrent use.
type Judge struct {
	model          string
	baseURL        string
	apiKey         string
	provider       string
	httpClient     *http.Client
	temperature    *float64
	maxTokens      int
	maxRetries     int
	attemptTimeout time.Duration
	prices         map[string]Price
	header         http.Header

	missingKey string
	configErr  error
	endpoint   string
	client     judgehttp.Client
}

// Option configures a Judge.
type Option func(*Judge)

// WithModel sets the model asked to judge (default DefaultModel). A
// request's Model, when set, overrides it for that request.
func WithModel(model string) Option { return func(j *Judge) { j.model = model } }

// WithBaseURL sets the API's base URL (default DefaultBaseURL); requests go
// to {base}/v1/messages, and a base that already ends in /v1 is not given a
// second one.
func WithBaseURL(baseURL string) Option { return func(j *Judge) { j.baseURL = baseURL } }

// WithAPIKey sets the key sent as the x-api-key header. With no key the
// header is not sent (a gateway may authenticate with WithHeader instead).
func WithAPIKey(key string) Option {
	return func(j *Judge) { j.apiKey = key; j.missingKey = "" }
}

// WithHTTPClient sets the client that sends requests (default
// http.DefaultClient). The judge sends through a copy that never follows a
// redirect, whatever c's CheckRedirect says: a 3xx from the API is an error
// (see the package doc).
func WithHTTPClient(c *http.Client) Option { return func(j *Judge) { j.httpClient = c } }

// WithTemperature sets the sampling temperature (default 0).
func WithTemperature(t float64) Option { return func(j *Judge) { j.temperature = &t } }

// WithoutTemperature sends no temperature, for models that reject one
// (Claude Opus 4.7 removed the sampling parameters).
func WithoutTemperature() Option { return func(j *Judge) { j.temperature = nil } }

// WithMaxTokens sets the reply cap, max_tokens (default DefaultMaxTokens).
// A reply cut off at the cap is an error, never a verdict.
func WithMaxTokens(n int) Option { return func(j *Judge) { j.maxTokens = n } }

// WithMaxRetries sets how many times a failed call is retried (default
// DefaultMaxRetries; 0 never retries), at most MaxRetries (10): a larger n
// counts as 10. The package doc says what is retried: 408, 429, 5xx, 529,
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

// WithHeader adds a header to every request: "anthropic-beta", a gateway's
// own. Headers are transport, never part of the Identity.
func WithHeader(key, value string) Option {
	return func(j *Judge) { j.header.Add(key, value) }
}

// WithProvider sets the Identity's Provider (default "anthropic").
func WithProvider(name string) Option { return func(j *Judge) { j.provider = name } }

// New returns a judge configured by opts: DefaultModel at DefaultBaseURL,
// temperature 0, max_tokens DefaultMaxTokens, no API key. A bad option is
// reported by every call to Judge, so New never fails.
func New(opts ...Option) *Judge {
	j := defaults()
	for _, opt := range opts {
		opt(j)
	}
	j.finish()
	return j
}

// FromEnv returns a judge configured from the environment, then by opts:
// ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL (default DefaultBaseURL) and
// EVALKIT_JUDGE_MODEL (default DefaultModel). It never fails and never
// returns nil: with ANTHROPIC_API_KEY unset, every call to Judge returns an
// error naming the variable, while Identity works — so tests that replay
// recorded verdicts, and never call the judge, run without a key.
func FromEnv(opts ...Option) *Judge {
	j := defaults()
	if key := os.Getenv("ANTHROPIC_API_KEY"); key != "" {
		j.apiKey = key
	} else {
		j.missingKey = "ANTHROPIC_API_KEY"
	}
	if base := os.Getenv("ANTHROPIC_BASE_URL"); base != "" {
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
	return &Judge{
		model:       DefaultModel,
		baseURL:     DefaultBaseURL,
		provider:    "anthropic",
		temperature: &temperature,
		maxTokens:   DefaultMaxTokens,
		maxRetries:  DefaultMaxRetries,
		prices:      DefaultPrices(),
		header:      http.Header{},
	}
}

func (j *Judge) finish() {
	u, err := judgehttp.ParseBaseURL(j.baseURL)
	switch {
	case err != nil:
		j.configErr = fmt.Errorf("anthropicjudge: %w", err)
	case u.Scheme != "http" && u.Scheme != "https" || u.Host == "":
		j.configErr = fmt.Errorf("anthropicjudge: base URL %q: want an http:// or https:// URL with a host", judgehttp.RedactedURL(u))
	case strings.HasSuffix(strings.TrimSuffix(u.Path, "/"), "/v1"):
		j.endpoint = u.JoinPath("messages").String()
	default:
		j.endpoint = u.JoinPath("v1", "messages").String()
	}
	if j.model == "" {
		j.configErr = fmt.Errorf("anthropicjudge: no model: set WithModel or EVALKIT_JUDGE_MODEL")
	}
	if j.maxTokens <= 0 {
		j.configErr = fmt.Errorf("anthropicjudge: max_tokens must be positive, got %d", j.maxTokens)
	}
	secrets := judgehttp.Secrets(j.apiKey, u, j.header)
	j.client = judgehttp.Client{
		Name:           "anthropicjudge",
		HTTP:           j.httpClient,
		MaxRetries:     j.maxRetries,
		AttemptTimeout: j.attemptTimeout,
		Secrets:        secrets,
	}
}

// Identity returns what recordings key on: Provider "anthropic" (or
// WithProvider's name), the model, the settings sent with every request
// (temperature when sent, max_tokens), and judgeprompt.Version. The base
// URL, the API version header and other headers are transport, not part
// of it (see openaijudge's Identity for the reasoning).
func (j *Judge) Identity() evalkit.Identity {
	settings := map[string]any{"max_tokens": j.maxTokens}
	if j.temperature != nil {
		settings["temperature"] = *j.temperature
	}
	return evalkit.Identity{
		Provider:      j.provider,
		Model:         j.model,
		Settings:      settings,
		PromptVersion: judgeprompt.Version,
	}
}

// Judge asks the model to grade req through a forced tool call (see the
// package doc) and reads the tool's input with evalkit.ParseVerdictFor
// (ParseVerdict on req.Scale.OrDefault(); with a VerdictSchema, a
// whole-object answer needs no score). req.Model, when set, replaces the judge's model;
// req.SystemPrompt replaces evalkit's system prompt. A req.VerdictSchema
// becomes the tool's input_schema, so it must describe an object.
//
// The answer is the input of the reply's one call of the verdict tool. A
// reply with no tool call at all — a proxy that dropped the tools — is
// read from its text blocks, which the prompt asks to hold the same JSON
// object; text beside a verdict call is ignored.
//
// Errors: an invalid request; a missing key (FromEnv); an HTTP failure
// after retries (see the package doc); a reply that is not a message or
// was refused; and, wrapping evalkit.ErrUnreadableVerdict, a reply that is
// not one verdict (the verdict tool called twice, a tool the judge did not
// offer called, the verdict tool called with no input), one cut off
// (stop_reason "max_tokens" or "model_context_window_exceeded"), and an
// answer ParseVerdict cannot read. Never a verdict with an error.
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
		return evalkit.Verdict{}, fmt.Errorf("anthropicjudge: %s is not set: the judge needs an API key to call %s", j.missingKey, judgehttp.RedactURL(j.endpoint))
	}
	if len(req.Tools) > 0 {
		return evalkit.Verdict{}, fmt.Errorf("anthropicjudge: the request gives the judge tools (JudgeRequest.Tools), which this judge does not run: use openaijudge for a tool-using judge")
	}
	msgs, err := judgeprompt.Render(req)
	if err != nil {
		return evalkit.Verdict{}, fmt.Errorf("anthropicjudge: %w", err)
	}
	schema, err := judgeprompt.Schema(req)
	if err != nil {
		return evalkit.Verdict{}, fmt.Errorf("anthropicjudge: %w", err)
	}
	if err := objectSchema(schema); err != nil {
		return evalkit.Verdict{}, err
	}
	model := j.model
	if req.Model != "" {
		model = req.Model
	}
	body, err := json.Marshal(j.request(model, msgs, schema, req.Format))
	if err != nil {
		return evalkit.Verdict{}, fmt.Errorf("anthropicjudge: encoding the request: %w", err)
	}
	resp, err := j.client.Post(ctx, j.endpoint, j.headers(), body)
	if err != nil {
		return evalkit.Verdict{}, withHint(err)
	}
	return j.verdict(ctx, resp, req, model)
}

// objectSchema checks that a verdict schema can be a tool's input_schema,
// which the API requires to be {"type": "object", ...}.
func objectSchema(schema json.RawMessage) error {
	var s struct {
		Type json.RawMessage `json:"type"`
	}
	if err := json.Unmarshal(schema, &s); err != nil || string(s.Type) != `"object"` {
		return fmt.Errorf("anthropicjudge: verdict schema: the verdict is a tool's input, so its schema needs \"type\": \"object\"")
	}
	return nil
}

// withHint adds the option to try to a 400 that names the temperature,
// which some models reject (Claude Opus 4.7: "temperature is deprecated
// for this model"). The error still unwraps to the *judgehttp.Error.
func withHint(err error) error {
	var e *judgehttp.Error
	if errors.As(err, &e) && e.Status() == 400 && strings.Contains(strings.ToLower(e.Message()), "temperature") {
		return fmt.Errorf("%w; hint: for a model that takes no temperature, use anthropicjudge.WithoutTemperature()", err)
	}
	return err
}

func (j *Judge) headers() http.Header {
	h := j.header.Clone()
	if j.apiKey != "" {
		h.Set("X-Api-Key", j.apiKey)
	}
	h.Set("Anthropic-Version", APIVersion)
	h.Set("Accept", "application/json")
	return h
}
