package judgefake_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"testing"

	testify "github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit/judgefake"
)

// The fake embeddings API answers in OpenAI's shape and refuses what the
// real one refuses, each refusal a problem Err reports.
func TestEmbeddingsServer(t *testing.T) {
	srv := judgefake.NewEmbeddingsServer(judgefake.BagOfWords(4), judgefake.RateLimited(0))
	defer srv.Close()
	post := func(path, body string) (int, map[string]any) {
		resp, err := http.Post(srv.URL+path, "application/json", bytes.NewReader([]byte(body)))
		require.NoError(t, err)
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		var m map[string]any
		require.NoError(t, json.Unmarshal(data, &m), string(data))
		return resp.StatusCode, m
	}
	status, _ := post("/v1/embeddings", `{"model": "m", "input": "refund"}`)
	testify.Equal(t, 429, status, "the scripted fault first")
	status, m := post("/v1/embeddings", `{"model": "m", "input": "refund"}`)
	require.Equal(t, 200, status)
	testify.Equal(t, "list", m["object"])
	testify.Equal(t, "m", m["model"])
	data := m["data"].([]any)
	require.Len(t, data, 1)
	testify.Len(t, data[0].(map[string]any)["embedding"], 4)
	testify.NoError(t, srv.Err())

	for _, body := range []string{`[]`, `{"input": "x"}`, `{"model": "m", "input": [1, 2]}`, `{"model": "m", "input": ["a", ""]}`, `{"model": "m", "input": "x", "encoding_format": "base64"}`} {
		status, m := post("/v1/embeddings", body)
		testify.Equal(t, 400, status, body)
		testify.Contains(t, m, "error")
	}
	status, _ = post("/v1/chat/completions", `{}`)
	testify.Equal(t, 404, status)
	testify.Error(t, srv.Err())
	testify.Len(t, srv.Requests(), 8)
}
