package openaiembedder

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/internal/judgehttp"
)

// Defaults.
const (
	DefaultBaseURL = "https://api.openai.com/v1"
	// DefaultModel is text-embedding-3-small: 1536 dimensions, OpenAI's
	// cheapest current embedding model.
	DefaultModel      = "text-embedding-3-small"
	DefaultBatchSize  = 256
	DefaultMaxRetries = 3
	// MaxBatchSize is the most inputs OpenAI takes in one request.
	MaxBatchSize = 2048
)

// Price is what a model costs, in US dollars per million input tokens.
type Price struct {
	Input float64
}

// defaultPrices are OpenAI's standard-tier embedding prices, USD per 1M
// tokens, from OpenAI's pricing page as of 2026-11.
var defaultPrices = map[string]Price{
	"text-embedding-3-small": {Input: 0.02},
	"text-embedding-3-large": {Input: 0.13},
	"text-embedding-ada-002": {Input: 0.10},
}

// DefaultPrices returns a copy of the built-in price table (USD per 1M
// tokens). A model in no table costs 0 (unknown, not free): under
// EVALKIT_MAX_COST_USD its replies exceed the budget.
func DefaultPrices() map[string]Price { return maps.Clone(defaultPrices) }

// Embedder is an evalkit.Embedder for an OpenAI-compatible embeddings
// API. Make one with New or FromEnv; it is safe for concurrent use.
type Embedder struct {
	model          string
	baseURL        string
	apiKey         string
	provider       string
	dimensions     int
	batch          int
	header         http.Header
	httpClient     *http.Client
	maxRetries     int
	attemptTimeout time.Duration
	prices         map[string]Price

	missingKey string
	configErr  error
	endpoint   string
	client     judgehttp.Client
}

// Option configures an Embedder.
type Option func(*Embedder)

// WithModel sets the model (default DefaultModel).
func WithModel(m string) Option { return func(e *Embedder) { e.model = m } }

// WithBaseURL sets the API's base URL, the part before /embeddings
// (default DefaultBaseURL): "http://localhost:11434/v1" (Ollama),
// "http://localhost:8000/v1" (vLLM), an Azure deployment URL with its
// "?api-version=..." query, a LiteLLM proxy.
func WithBaseURL(u string) Option { return func(e *Embedder) { e.baseURL = u } }

// WithAPIKey sets the key sent as "Authorization: Bearer <key>".
func WithAPIKey(key string) Option { return func(e *Embedder) { e.apiKey = key; e.missingKey = "" } }

// WithDimensions asks the model for n dimensions (OpenAI's text-embedding-3
// models shorten their vectors); 0 sends none. Vectors of another length
// (a server that ignores the parameter) are an error.
func WithDimensions(n int) Option { return func(e *Embedder) { e.dimensions = n } }

// WithBatchSize sets how many texts one request carries (default
// DefaultBatchSize, at most MaxBatchSize).
func WithBatchSize(n int) Option { return func(e *Embedder) { e.batch = n } }

// WithHeader adds a header to every request ("api-key" for Azure OpenAI).
func WithHeader(key, value string) Option { return func(e *Embedder) { e.header.Add(key, value) } }

// WithHTTPClient sets the HTTP client (a proxy, a test server's client).
func WithHTTPClient(hc *http.Client) Option { return func(e *Embedder) { e.httpClient = hc } }

// WithMaxRetries sets how many times a failed call is retried (default
// DefaultMaxRetries, at most judgehttp's 10).
func WithMaxRetries(n int) Option { return func(e *Embedder) { e.maxRetries = n } }

// WithAttemptTimeout bounds one HTTP attempt (default two minutes).
func WithAttemptTimeout(d time.Duration) Option { return func(e *Embedder) { e.attemptTimeout = d } }

// WithProvider sets the Identity's Provider (default "openai"): name the
// serving stack ("ollama", "vllm") when one model name may mean different
// weights on different servers.
func WithProvider(name string) Option { return func(e *Embedder) { e.provider = name } }

// WithPrices adds to or overrides the price table, by model name.
func WithPrices(p map[string]Price) Option {
	return func(e *Embedder) { maps.Copy(e.prices, p) }
}

func defaults() *Embedder {
	return &Embedder{model: DefaultModel, baseURL: DefaultBaseURL, provider: "openai", batch: DefaultBatchSize,
		header: http.Header{}, maxRetries: DefaultMaxRetries, prices: DefaultPrices()}
}

// New returns an embedder configured by opts. A bad option is reported by
// every call to Embed, so New never fails.
func New(opts ...Option) *Embedder {
	e := defaults()
	for _, o := range opts {
		o(e)
	}
	e.finish()
	return e
}

// FromEnv returns an embedder configured from OPENAI_API_KEY,
// OPENAI_BASE_URL and EVALKIT_EMBEDDING_MODEL, then by opts. With
// OPENAI_API_KEY unset every call to Embed returns an error naming it,
// while Identity works: a test that replays recorded vectors needs no key.
func FromEnv(opts ...Option) *Embedder {
	e := defaults()
	if key := os.Getenv("OPENAI_API_KEY"); key != "" {
		e.apiKey = key
	} else {
		e.missingKey = "OPENAI_API_KEY"
	}
	if base := os.Getenv("OPENAI_BASE_URL"); base != "" {
		e.baseURL = base
	}
	if m := os.Getenv("EVALKIT_EMBEDDING_MODEL"); m != "" {
		e.model = m
	}
	for _, o := range opts {
		o(e)
	}
	e.finish()
	return e
}

func (e *Embedder) finish() {
	u, err := judgehttp.ParseBaseURL(e.baseURL)
	switch {
	case err != nil:
		e.configErr = fmt.Errorf("openaiembedder: %w", err)
	case u.Scheme != "http" && u.Scheme != "https" || u.Host == "":
		e.configErr = fmt.Errorf("openaiembedder: base URL %q: want an http:// or https:// URL with a host", judgehttp.RedactedURL(u))
	default:
		e.endpoint = u.JoinPath("embeddings").String()
	}
	switch {
	case strings.TrimSpace(e.model) == "":
		e.configErr = fmt.Errorf("openaiembedder: no model: set WithModel or EVALKIT_EMBEDDING_MODEL")
	case e.dimensions < 0:
		e.configErr = fmt.Errorf("openaiembedder: dimensions must be positive, got %d", e.dimensions)
	case e.batch < 1 || e.batch > MaxBatchSize:
		e.configErr = fmt.Errorf("openaiembedder: the batch size must be 1 to %d, got %d", MaxBatchSize, e.batch)
	}
	e.client = judgehttp.Client{Name: "openaiembedder", HTTP: e.httpClient, MaxRetries: e.maxRetries,
		AttemptTimeout: e.attemptTimeout, Secrets: judgehttp.Secrets(e.apiKey, u, e.header)}
}

// Identity returns what recordings key on: the provider, the model and,
// when sent, the dimensions. The base URL, keys and headers are not part
// of it: the same model behind a gateway gives the same vectors.
func (e *Embedder) Identity() evalkit.Identity {
	id := evalkit.Identity{Provider: e.provider, Model: e.model}
	if e.dimensions > 0 {
		id.Settings = map[string]any{"dimensions": e.dimensions}
	}
	return id
}

// Embed implements evalkit.Embedder: one vector per text, in order.
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float64, error) {
	vecs, err := e.embed(ctx, texts)
	if err != nil {
		return nil, judgehttp.RedactError(err, e.client.Secrets)
	}
	return vecs, nil
}

func (e *Embedder) embed(ctx context.Context, texts []string) ([][]float64, error) {
	if e.configErr != nil {
		return nil, e.configErr
	}
	if e.missingKey != "" {
		return nil, fmt.Errorf("openaiembedder: %s is not set: the embedder needs an API key to call %s (for a local server that needs none, set it to any value)", e.missingKey, judgehttp.RedactURL(e.endpoint))
	}
	if len(texts) == 0 {
		return nil, fmt.Errorf("openaiembedder: no texts to embed")
	}
	for i, t := range texts {
		if strings.TrimSpace(t) == "" {
			return nil, fmt.Errorf("openaiembedder: text %d is empty: the API refuses an empty input, and no vector can stand for it", i)
		}
	}
	out := make([][]float64, 0, len(texts))
	for start := 0; start < len(texts); start += e.batch {
		batch := texts[start:min(start+e.batch, len(texts))]
		vecs, err := e.call(ctx, batch, start)
		if err != nil {
			return nil, err
		}
		out = append(out, vecs...)
	}
	for i, v := range out {
		if len(v) != len(out[0]) {
			return nil, fmt.Errorf("openaiembedder: the vector of text %d has %d dimensions, text 0's %d", i, len(v), len(out[0]))
		}
	}
	if e.dimensions > 0 && len(out[0]) != e.dimensions {
		// The identity (and a recording's key) says e.dimensions: vectors
		// of another length are not what was asked for.
		return nil, fmt.Errorf("openaiembedder: asked for %d dimensions, the server answered %d (it may not support the dimensions parameter for %s)", e.dimensions, len(out[0]), e.model)
	}
	return out, nil
}

// call embeds one batch; first is its first text's index, for errors.
func (e *Embedder) call(ctx context.Context, batch []string, first int) ([][]float64, error) {
	body := map[string]any{"model": e.model, "input": batch, "encoding_format": "float"}
	if e.dimensions > 0 {
		body["dimensions"] = e.dimensions
	}
	data, err := json.Marshal(body)
	if err != nil {
		return nil, fmt.Errorf("openaiembedder: encoding the request: %w", err)
	}
	h := e.header.Clone()
	if e.apiKey != "" {
		h.Set("Authorization", "Bearer "+e.apiKey)
	}
	h.Set("Accept", "application/json")
	resp, err := e.client.Post(ctx, e.endpoint, h, data)
	if err != nil {
		return nil, err
	}
	vecs, model, tokens, err := readEmbeddings(resp.Body, len(batch), first)
	if err != nil {
		return nil, err
	}
	if tokens >= 0 {
		p, ok := judgehttp.LookupPrice(e.prices, model, e.model)
		judgehttp.Spend(ctx, judgehttp.Cost{Client: "openaiembedder", Model: firstOf(model, e.model),
			USD: math.Round(float64(tokens)*p.Input/1e6*1e12) / 1e12, Priced: ok})
	}
	return vecs, nil
}

// readEmbeddings reads {"data": [{"index", "embedding"}], "model",
// "usage": {"prompt_tokens"}}: exactly one finite, non-empty vector for
// each index from 0 to n-1, in any order. tokens is -1 when the reply
// reports no usage.
func readEmbeddings(body []byte, n, first int) (vecs [][]float64, model string, tokens int, err error) {
	var r struct {
		Data []struct {
			Index     *int            `json:"index"`
			Embedding json.RawMessage `json:"embedding"`
		} `json:"data"`
		Model string `json:"model"`
		Usage *struct {
			PromptTokens int `json:"prompt_tokens"`
		} `json:"usage"`
	}
	if err := json.Unmarshal(body, &r); err != nil {
		return nil, "", 0, fmt.Errorf("openaiembedder: the reply is not an embeddings response: %v", err)
	}
	if len(r.Data) != n {
		return nil, "", 0, fmt.Errorf("openaiembedder: the reply has %d embeddings for %d texts", len(r.Data), n)
	}
	vecs = make([][]float64, n)
	for i, d := range r.Data {
		if d.Index == nil || *d.Index < 0 || *d.Index >= n {
			return nil, "", 0, fmt.Errorf("openaiembedder: embedding %d of the reply has no index from 0 to %d", i, n-1)
		}
		k := *d.Index
		if vecs[k] != nil {
			return nil, "", 0, fmt.Errorf("openaiembedder: the reply gives index %d twice", k)
		}
		var v []float64
		if err := json.Unmarshal(d.Embedding, &v); err != nil {
			return nil, "", 0, fmt.Errorf("openaiembedder: the embedding of text %d is not a list of numbers (encoding_format float): %v", first+k, err)
		}
		if len(v) == 0 {
			return nil, "", 0, fmt.Errorf("openaiembedder: the embedding of text %d is empty", first+k)
		}
		for j, f := range v {
			if math.IsNaN(f) || math.IsInf(f, 0) {
				return nil, "", 0, fmt.Errorf("openaiembedder: the embedding of text %d has component %d %v", first+k, j, f)
			}
		}
		vecs[k] = v
	}
	tokens = -1
	if r.Usage != nil {
		tokens = r.Usage.PromptTokens
	}
	return vecs, r.Model, tokens, nil
}

func firstOf(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

var _ evalkit.Identifier = (*Embedder)(nil)
