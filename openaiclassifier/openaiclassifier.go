package openaiclassifier

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/internal/judgehttp"
)

// API names the wire format a Classifier speaks.
type API int

const (
	// Moderations is OpenAI's POST {base}/moderations: text or an image in,
	// one result's category_scores out.
	Moderations API = iota
	// Predict is Text Embeddings Inference's POST {base}/predict (and the
	// Hugging Face Inference API's text classification): {"inputs": text}
	// in, [{"label", "score"}, ...] out.
	Predict
)

// Defaults.
const (
	DefaultBaseURL    = "https://api.openai.com/v1"
	DefaultModel      = "omni-moderation-latest"
	DefaultMaxRetries = 2
)

// Classifier is an evalkit.Classifier over HTTP. Make one with New or
// FromEnv; it is safe for concurrent use.
type Classifier struct {
	api            API
	baseURL        string
	endpoint       string
	apiKey         string
	missingKey     string
	model          string
	header         http.Header
	httpClient     *http.Client
	maxRetries     int
	attemptTimeout time.Duration
	configErr      error
	client         judgehttp.Client
}

// Option configures a Classifier.
type Option func(*Classifier)

// WithAPI sets the wire format (default Moderations).
func WithAPI(api API) Option { return func(c *Classifier) { c.api = api } }

// WithBaseURL sets the server's base URL (default DefaultBaseURL); the
// API's path is joined to it.
func WithBaseURL(u string) Option { return func(c *Classifier) { c.baseURL = u } }

// WithEndpoint sets the whole URL to POST to, for a server whose path is
// not the API's (a Hugging Face Inference model URL, a gateway's route).
func WithEndpoint(u string) Option { return func(c *Classifier) { c.endpoint = u } }

// WithAPIKey sets the key sent as "Authorization: Bearer …".
func WithAPIKey(key string) Option { return func(c *Classifier) { c.apiKey = key } }

// WithModel sets the model: for Moderations the default the request's
// Model overrides (default DefaultModel); for Predict the model the server
// runs, which a request's Model must match.
func WithModel(m string) Option { return func(c *Classifier) { c.model = m } }

// WithHeader adds a header to every request.
func WithHeader(key, value string) Option { return func(c *Classifier) { c.header.Add(key, value) } }

// WithHTTPClient sets the HTTP client (a replaying transport, a proxy).
func WithHTTPClient(hc *http.Client) Option { return func(c *Classifier) { c.httpClient = hc } }

// WithMaxRetries sets how many times a failed call is retried (default
// DefaultMaxRetries).
func WithMaxRetries(n int) Option { return func(c *Classifier) { c.maxRetries = n } }

// WithAttemptTimeout bounds one attempt (default two minutes).
func WithAttemptTimeout(d time.Duration) Option { return func(c *Classifier) { c.attemptTimeout = d } }

// New returns a classifier configured by opts. A bad option is reported
// by every call to Classify, so New never fails.
func New(opts ...Option) *Classifier {
	c := &Classifier{baseURL: DefaultBaseURL, header: http.Header{}, maxRetries: DefaultMaxRetries}
	for _, o := range opts {
		o(c)
	}
	c.finish()
	return c
}

// FromEnv returns a Moderations classifier configured from OPENAI_API_KEY
// and OPENAI_BASE_URL, then by opts. With OPENAI_API_KEY unset every call
// returns an error naming it.
func FromEnv(opts ...Option) *Classifier {
	c := &Classifier{baseURL: DefaultBaseURL, header: http.Header{}, maxRetries: DefaultMaxRetries}
	if key := os.Getenv("OPENAI_API_KEY"); key != "" {
		c.apiKey = key
	} else {
		c.missingKey = "OPENAI_API_KEY"
	}
	if base := os.Getenv("OPENAI_BASE_URL"); base != "" {
		c.baseURL = base
	}
	for _, o := range opts {
		o(c)
	}
	if c.apiKey != "" {
		c.missingKey = ""
	}
	c.finish()
	return c
}

func (c *Classifier) finish() {
	if c.api == Moderations && c.model == "" {
		c.model = DefaultModel
	}
	raw, path := c.endpoint, "moderations"
	if c.api == Predict {
		path = "predict"
	}
	if raw == "" {
		raw = c.baseURL
	}
	u, err := judgehttp.ParseBaseURL(raw)
	switch {
	case c.api != Moderations && c.api != Predict:
		c.configErr = fmt.Errorf("openaiclassifier: unknown API %d", c.api)
	case err != nil:
		c.configErr = fmt.Errorf("openaiclassifier: %w", err)
	case u.Scheme != "http" && u.Scheme != "https" || u.Host == "":
		c.configErr = fmt.Errorf("openaiclassifier: URL %q: want an http:// or https:// URL with a host", judgehttp.RedactedURL(u))
	case c.api == Predict && c.model == "":
		c.configErr = fmt.Errorf("openaiclassifier: the predict API needs WithModel: the model the server runs, which checks name")
	case c.endpoint == "":
		c.endpoint = u.JoinPath(path).String()
	}
	c.client = judgehttp.Client{Name: "openaiclassifier", HTTP: c.httpClient, MaxRetries: c.maxRetries, AttemptTimeout: c.attemptTimeout,
		Secrets: judgehttp.Secrets(c.apiKey, u, c.header)}
}

// Classify implements evalkit.Classifier.
func (c *Classifier) Classify(ctx context.Context, req evalkit.ClassifyRequest) (evalkit.Classification, error) {
	cl, err := c.classify(ctx, req)
	if err != nil {
		return evalkit.Classification{}, judgehttp.RedactError(err, c.client.Secrets)
	}
	cl.Model = judgehttp.Redact(cl.Model, c.client.Secrets)
	return cl, nil
}

func (c *Classifier) classify(ctx context.Context, req evalkit.ClassifyRequest) (evalkit.Classification, error) {
	if c.configErr != nil {
		return evalkit.Classification{}, c.configErr
	}
	if c.missingKey != "" {
		return evalkit.Classification{}, fmt.Errorf("openaiclassifier: %s is not set: the classifier needs an API key to call %s", c.missingKey, judgehttp.RedactURL(c.endpoint))
	}
	if err := req.Validate(); err != nil {
		return evalkit.Classification{}, fmt.Errorf("openaiclassifier: %w", err)
	}
	if len(req.Labels) > 0 {
		return evalkit.Classification{}, fmt.Errorf("openaiclassifier: the request lists candidate labels (%s), but the %s API scores its model's own labels and cannot choose among others", strings.Join(req.Labels, ", "), c.apiName())
	}
	var body any
	model := c.model
	switch c.api {
	case Moderations:
		if req.Model != "" {
			model = req.Model
		}
		input, err := moderationInput(req)
		if err != nil {
			return evalkit.Classification{}, err
		}
		body = map[string]any{"model": model, "input": input}
	case Predict:
		if req.Kind != evalkit.InputText {
			return evalkit.Classification{}, fmt.Errorf("openaiclassifier: the predict API classifies text, not %s", req.Kind)
		}
		if req.Model != "" && req.Model != c.model {
			return evalkit.Classification{}, fmt.Errorf("openaiclassifier: the check asks for the model %q, but the predict server runs %q (WithModel)", req.Model, c.model)
		}
		body = map[string]any{"inputs": req.Text}
	}
	data, err := json.Marshal(body)
	if err != nil {
		return evalkit.Classification{}, fmt.Errorf("openaiclassifier: encoding the request: %w", err)
	}
	h := c.header.Clone()
	if c.apiKey != "" {
		h.Set("Authorization", "Bearer "+c.apiKey)
	}
	h.Set("Accept", "application/json")
	resp, err := c.client.Post(ctx, c.endpoint, h, data)
	if err != nil {
		return evalkit.Classification{}, err
	}
	if c.api == Predict {
		return readPredict(resp.Body, model)
	}
	return readModeration(resp.Body, model)
}

func (c *Classifier) apiName() string {
	if c.api == Predict {
		return "predict"
	}
	return "moderations"
}

// moderationInput is the moderation request's input: the text, or an
// image as an image_url part (a data: URL for inlined bytes).
func moderationInput(req evalkit.ClassifyRequest) (any, error) {
	switch req.Kind {
	case evalkit.InputText:
		return req.Text, nil
	case evalkit.InputImage:
		m := req.Media
		url := m.URL
		switch {
		case len(m.Data) > 0:
			mime := m.MIMEType
			if mime == "" {
				mime = http.DetectContentType(m.Data)
			}
			url = "data:" + mime + ";base64," + base64.StdEncoding.EncodeToString(m.Data)
		case url == "":
			return nil, fmt.Errorf("openaiclassifier: the image is a file id (%q); the moderations API needs its URL or its bytes", m.FileID)
		}
		return []any{map[string]any{"type": "image_url", "image_url": map[string]any{"url": url}}}, nil
	}
	return nil, fmt.Errorf("openaiclassifier: the moderations API classifies text and images, not %s: give this check a classifier of your own", req.Kind)
}

// readModeration reads a moderation response: exactly one result, its
// category scores each in [0,1], sorted by category.
func readModeration(body []byte, model string) (evalkit.Classification, error) {
	var r struct {
		Model   string `json:"model"`
		Results []struct {
			Flagged        *bool              `json:"flagged"`
			CategoryScores map[string]float64 `json:"category_scores"`
		} `json:"results"`
	}
	if err := json.Unmarshal(body, &r); err != nil {
		return evalkit.Classification{}, fmt.Errorf("openaiclassifier: the reply is not a moderation response: %v", err)
	}
	if len(r.Results) != 1 {
		return evalkit.Classification{}, fmt.Errorf("openaiclassifier: the reply has %d results, want 1", len(r.Results))
	}
	res := r.Results[0]
	if len(res.CategoryScores) == 0 {
		return evalkit.Classification{}, fmt.Errorf("openaiclassifier: the reply's result has no category_scores")
	}
	cl := evalkit.Classification{Model: firstOf(r.Model, model), Flagged: res.Flagged}
	for label, score := range res.CategoryScores {
		cl.Scores = append(cl.Scores, evalkit.LabelScore{Label: label, Score: score})
	}
	sort.Slice(cl.Scores, func(i, j int) bool { return cl.Scores[i].Label < cl.Scores[j].Label })
	if err := validate(cl); err != nil {
		return evalkit.Classification{}, err
	}
	return cl, nil
}

// readPredict reads a predict response: [{"label", "score"}, ...], or
// that list inside a list of one (the Hugging Face Inference API's
// shape).
func readPredict(body []byte, model string) (evalkit.Classification, error) {
	type item struct {
		Label *string  `json:"label"`
		Score *float64 `json:"score"`
	}
	var items []item
	if err := json.Unmarshal(body, &items); err != nil {
		var nested [][]item
		if err2 := json.Unmarshal(body, &nested); err2 != nil {
			return evalkit.Classification{}, fmt.Errorf("openaiclassifier: the reply is not a list of label scores: %v", err)
		}
		if len(nested) != 1 {
			return evalkit.Classification{}, fmt.Errorf("openaiclassifier: the reply has %d lists of label scores, want 1", len(nested))
		}
		items = nested[0]
	}
	if len(items) == 0 {
		return evalkit.Classification{}, fmt.Errorf("openaiclassifier: the reply has no label scores")
	}
	cl := evalkit.Classification{Model: model}
	for i, it := range items {
		if it.Label == nil || it.Score == nil {
			return evalkit.Classification{}, fmt.Errorf("openaiclassifier: label score %d has no label or no score", i)
		}
		cl.Scores = append(cl.Scores, evalkit.LabelScore{Label: *it.Label, Score: *it.Score})
	}
	if err := validate(cl); err != nil {
		return evalkit.Classification{}, err
	}
	return cl, nil
}

func validate(cl evalkit.Classification) error {
	if err := cl.Validate(); err != nil {
		return fmt.Errorf("openaiclassifier: %w", err)
	}
	return nil
}

func firstOf(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
