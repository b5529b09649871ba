package openaiembedder_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	testify "github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/internal/judgehttp"
	"github.com/evalkit-go/evalkit/judgefake"
	"github.com/evalkit-go/evalkit/openaiembedder"
)

const testKey = "sk-test-embed-000111222333"

func Example() {
	srv := judgefake.NewEmbeddingsServer(judgefake.BagOfWords(8))
	defer srv.Close()
	e := openaiembedder.New(openaiembedder.WithBaseURL(srv.URL+"/v1"), openaiembedder.WithAPIKey("local"))
	vecs, err := e.Embed(context.Background(), []string{"refund issued", "the refund was issued"})
	fmt.Println(len(vecs), len(vecs[0]), err)
	// Output: 2 8 <nil>
}

// Batches keep the texts' order, and the vectors come back in it.
func TestEmbedBatches(t *testing.T) {
	srv := judgefake.NewEmbeddingsServer(judgefake.BagOfWords(16))
	defer srv.Close()
	texts := []string{"one refund", "two refunds", "three", "four", "five refunds"}
	e := openaiembedder.New(openaiembedder.WithBaseURL(srv.URL+"/v1"), openaiembedder.WithAPIKey(testKey),
		openaiembedder.WithBatchSize(2), openaiembedder.WithDimensions(16))
	got, err := e.Embed(context.Background(), texts)
	require.NoError(t, err)
	want, err := judgefake.BagOfWords(16).Embed(context.Background(), texts)
	require.NoError(t, err)
	testify.Equal(t, want, got)
	require.NoError(t, srv.Err())
	reqs := srv.Requests()
	require.Len(t, reqs, 3, "5 texts in batches of 2")
	var body map[string]any
	require.NoError(t, json.Unmarshal(reqs[2].Body, &body))
	testify.Equal(t, map[string]any{"model": "text-embedding-3-small", "input": []any{"five refunds"}, "encoding_format": "float", "dimensions": 16.0}, body)
	testify.Equal(t, "Bearer [REDACTED]", reqs[0].Header.Get("Authorization"))
	testify.Equal(t, evalkit.Identity{Provider: "openai", Model: "text-embedding-3-small", Settings: map[string]any{"dimensions": 16}}, e.Identity())
}

// A server listing the vectors out of order is read by index.
func TestEmbedReordersByIndex(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"data": [{"index": 1, "embedding": [0, 1]}, {"index": 0, "embedding": [1, 0]}], "model": "m", "usage": {"prompt_tokens": 4}}`)
	}))
	defer srv.Close()
	got, err := openaiembedder.New(openaiembedder.WithBaseURL(srv.URL), openaiembedder.WithAPIKey(testKey)).Embed(context.Background(), []string{"a", "b"})
	require.NoError(t, err)
	testify.Equal(t, [][]float64{{1, 0}, {0, 1}}, got)
}

// Every answer that does not hold one finite vector per text is an
// error, never a vector; and the key never shows.
func TestEmbedErrors(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		name, body, want string
	}{
		{"too few", `{"data": [{"index": 0, "embedding": [1]}]}`, "openaiembedder: the reply has 1 embeddings for 2 texts"},
		{"an index twice", `{"data": [{"index": 0, "embedding": [1]}, {"index": 0, "embedding": [1]}]}`, "openaiembedder: the reply gives index 0 twice"},
		{"no index", `{"data": [{"embedding": [1]}, {"index": 0, "embedding": [1]}]}`, "openaiembedder: embedding 0 of the reply has no index from 0 to 1"},
		{"base64", `{"data": [{"index": 0, "embedding": "AAAA"}, {"index": 1, "embedding": [1]}]}`, "openaiembedder: the embedding of text 0 is not a list of numbers"},
		{"empty vector", `{"data": [{"index": 0, "embedding": []}, {"index": 1, "embedding": [1]}]}`, "openaiembedder: the embedding of text 0 is empty"},
		{"lengths differ", `{"data": [{"index": 0, "embedding": [1, 2]}, {"index": 1, "embedding": [1]}]}`, "openaiembedder: the vector of text 1 has 1 dimensions, text 0's 2"},
		{"not JSON", `<html>`, "openaiembedder: the reply is not an embeddings response"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, tt.body) }))
			defer srv.Close()
			_, err := openaiembedder.New(openaiembedder.WithBaseURL(srv.URL), openaiembedder.WithAPIKey(testKey)).Embed(ctx, []string{"a", "b"})
			require.Error(t, err)
			testify.Contains(t, err.Error(), tt.want)
		})
	}

	t.Setenv("OPENAI_API_KEY", "")
	_, err := openaiembedder.FromEnv().Embed(ctx, []string{"a"})
	testify.EqualError(t, err, "openaiembedder: OPENAI_API_KEY is not set: the embedder needs an API key to call https://api.openai.com/v1/embeddings (for a local server that needs none, set it to any value)")
	e := openaiembedder.New(openaiembedder.WithAPIKey(testKey))
	_, err = e.Embed(ctx, []string{"a", " "})
	testify.EqualError(t, err, "openaiembedder: text 1 is empty: the API refuses an empty input, and no vector can stand for it")
	_, err = e.Embed(ctx, nil)
	testify.EqualError(t, err, "openaiembedder: no texts to embed")
	_, err = openaiembedder.New(openaiembedder.WithBatchSize(5000)).Embed(ctx, []string{"a"})
	testify.EqualError(t, err, "openaiembedder: the batch size must be 1 to 2048, got 5000")

	// A server that ignores the dimensions asked for: its vectors are not
	// what the identity (and a recording's key) says.
	fake := judgefake.NewEmbeddingsServer(judgefake.BagOfWords(8))
	defer fake.Close()
	_, err = openaiembedder.New(openaiembedder.WithBaseURL(fake.URL+"/v1"), openaiembedder.WithAPIKey(testKey), openaiembedder.WithDimensions(256)).Embed(ctx, []string{"a", "b"})
	testify.EqualError(t, err, "openaiembedder: asked for 256 dimensions, the server answered 8 (it may not support the dimensions parameter for text-embedding-3-small)")

	// A server echoing the key in its error page: redacted.
	srv := judgefake.NewEmbeddingsServer(judgefake.BagOfWords(4), judgefake.Reply{Status: 401, Text: "bad key " + testKey})
	defer srv.Close()
	_, err = openaiembedder.New(openaiembedder.WithBaseURL(srv.URL+"/v1"), openaiembedder.WithAPIKey(testKey)).Embed(ctx, []string{"a"})
	require.Error(t, err)
	testify.NotContains(t, err.Error(), testKey)
	testify.Contains(t, err.Error(), "HTTP 401")
}

// A 503 is retried, as a judge's call is.
func TestEmbedRetries(t *testing.T) {
	srv := judgefake.NewEmbeddingsServer(judgefake.BagOfWords(4), judgefake.Status(503))
	defer srv.Close()
	got, err := openaiembedder.New(openaiembedder.WithBaseURL(srv.URL+"/v1"), openaiembedder.WithAPIKey(testKey)).Embed(context.Background(), []string{"refund"})
	require.NoError(t, err)
	testify.Len(t, got, 1)
	testify.Len(t, srv.Requests(), 2)
}

type meter struct {
	attempts int
	costs    []judgehttp.Cost
}

func (m *meter) Attempt(string, int) error { m.attempts++; return nil }
func (m *meter) Spend(c judgehttp.Cost)    { m.costs = append(m.costs, c) }

// Calls count against a judge budget: every attempt, and each reply's
// cost from its prompt tokens.
func TestEmbedMetered(t *testing.T) {
	srv := judgefake.NewEmbeddingsServer(judgefake.BagOfWords(4))
	defer srv.Close()
	m := &meter{}
	ctx := judgehttp.WithMeter(context.Background(), m)
	_, err := openaiembedder.New(openaiembedder.WithBaseURL(srv.URL+"/v1"), openaiembedder.WithAPIKey(testKey),
		openaiembedder.WithModel("text-embedding-3-large")).Embed(ctx, []string{"a refund of forty-two dollars"})
	require.NoError(t, err)
	testify.Equal(t, 1, m.attempts)
	// judgefake counts a token per 4 bytes: 7 tokens at $0.13 per million.
	testify.Equal(t, []judgehttp.Cost{{Client: "openaiembedder", Model: "text-embedding-3-large", USD: 7 * 0.13 / 1e6, Priced: true}}, m.costs)
}
