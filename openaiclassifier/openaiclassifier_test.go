package openaiclassifier_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	testify "github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
	"github.com/evalkit-go/evalkit/openaiclassifier"
)

const testKey = "sk-test-classify-0001"

// server answers with body (status 200 unless status is given) and keeps
// what it was sent.
type server struct {
	*httptest.Server
	mu      sync.Mutex
	paths   []string
	bodies  []map[string]any
	headers []http.Header
}

func newServer(t *testing.T, status int, body string) *server {
	t.Helper()
	s := &server{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, _ := io.ReadAll(r.Body)
		var m map[string]any
		_ = json.Unmarshal(data, &m)
		s.mu.Lock()
		s.paths, s.bodies, s.headers = append(s.paths, r.URL.Path), append(s.bodies, m), append(s.headers, r.Header.Clone())
		s.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		if status != 0 {
			w.WriteHeader(status)
		}
		_, _ = io.WriteString(w, body)
	}))
	t.Cleanup(s.Close)
	return s
}

const moderation = `{"id": "modr-1", "model": "omni-moderation-2024-09-26", "results": [{"flagged": true,
	"categories": {"harassment": true, "violence": false},
	"category_scores": {"violence": 0.02, "harassment": 0.93, "hate": 0.01}}]}`

func Example() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, `[{"label": "positive", "score": 0.91}, {"label": "negative", "score": 0.09}]`)
	}))
	defer srv.Close()
	c := openaiclassifier.New(openaiclassifier.WithAPI(openaiclassifier.Predict), openaiclassifier.WithBaseURL(srv.URL),
		openaiclassifier.WithModel("cardiffnlp/twitter-roberta-base-sentiment-latest"))
	cl, err := c.Classify(context.Background(), evalkit.ClassifyRequest{Kind: evalkit.InputText, Text: "Thanks, that fixed it!"})
	score, _ := cl.Score("positive")
	fmt.Println(score, cl.Model, err)
	// Output: 0.91 cardiffnlp/twitter-roberta-base-sentiment-latest <nil>
}

func TestModerationsText(t *testing.T) {
	srv := newServer(t, 0, moderation)
	c := openaiclassifier.New(openaiclassifier.WithBaseURL(srv.URL+"/v1"), openaiclassifier.WithAPIKey(testKey))
	cl, err := c.Classify(context.Background(), evalkit.ClassifyRequest{Kind: evalkit.InputText, Text: "You idiot.", Model: "omni-moderation-latest"})
	require.NoError(t, err)
	testify.Equal(t, []evalkit.LabelScore{{Label: "harassment", Score: 0.93}, {Label: "hate", Score: 0.01}, {Label: "violence", Score: 0.02}}, cl.Scores)
	testify.Equal(t, "omni-moderation-2024-09-26", cl.Model)
	require.NotNil(t, cl.Flagged)
	testify.True(t, *cl.Flagged)
	testify.Equal(t, "/v1/moderations", srv.paths[0])
	testify.Equal(t, map[string]any{"model": "omni-moderation-latest", "input": "You idiot."}, srv.bodies[0])
	testify.Equal(t, "Bearer "+testKey, srv.headers[0].Get("Authorization"))
}

func TestModerationsImage(t *testing.T) {
	srv := newServer(t, 0, moderation)
	c := openaiclassifier.New(openaiclassifier.WithBaseURL(srv.URL), openaiclassifier.WithAPIKey(testKey), openaiclassifier.WithModel("omni-x"))
	png := []byte("\x89PNG\r\n\x1a\n0000")
	_, err := c.Classify(context.Background(), evalkit.ClassifyRequest{Kind: evalkit.InputImage, Media: &evalkit.Part{Type: "image", Data: png}})
	require.NoError(t, err)
	input := srv.bodies[0]["input"].([]any)[0].(map[string]any)
	testify.Equal(t, "image_url", input["type"])
	testify.Equal(t, "data:image/png;base64,iVBORw0KGgowMDAw", input["image_url"].(map[string]any)["url"])
	testify.Equal(t, "omni-x", srv.bodies[0]["model"])

	_, err = c.Classify(context.Background(), evalkit.ClassifyRequest{Kind: evalkit.InputImage, Media: &evalkit.Part{Type: "image", URL: "https://cdn.test/a.png"}})
	require.NoError(t, err)
	testify.Equal(t, "https://cdn.test/a.png", srv.bodies[1]["input"].([]any)[0].(map[string]any)["image_url"].(map[string]any)["url"])
}

func TestPredict(t *testing.T) {
	srv := newServer(t, 0, `[[{"label": "toxic", "score": 0.97}, {"label": "insult", "score": 0.61}]]`)
	c := openaiclassifier.New(openaiclassifier.WithAPI(openaiclassifier.Predict), openaiclassifier.WithEndpoint(srv.URL+"/models/unitary/toxic-bert"),
		openaiclassifier.WithModel("unitary/toxic-bert"))
	cl, err := c.Classify(context.Background(), evalkit.ClassifyRequest{Kind: evalkit.InputText, Text: "You idiot.", Model: "unitary/toxic-bert"})
	require.NoError(t, err)
	testify.Equal(t, []evalkit.LabelScore{{Label: "toxic", Score: 0.97}, {Label: "insult", Score: 0.61}}, cl.Scores, "the Hugging Face Inference API's nested list")
	testify.Equal(t, "/models/unitary/toxic-bert", srv.paths[0])
	testify.Equal(t, map[string]any{"inputs": "You idiot."}, srv.bodies[0])
	testify.Empty(t, srv.headers[0].Get("Authorization"))
}

// A classifier that cannot classify returns an error, never scores, and
// no error holds the key.
func TestClassifyErrors(t *testing.T) {
	ctx := context.Background()
	text := evalkit.ClassifyRequest{Kind: evalkit.InputText, Text: "hi"}
	audio := evalkit.ClassifyRequest{Kind: evalkit.InputAudio, Media: &evalkit.Part{Type: "audio", Data: []byte("RIFF")}}
	predict := func(url string) *openaiclassifier.Classifier {
		return openaiclassifier.New(openaiclassifier.WithAPI(openaiclassifier.Predict), openaiclassifier.WithBaseURL(url), openaiclassifier.WithModel("m"))
	}
	moderations := func(url string) *openaiclassifier.Classifier {
		return openaiclassifier.New(openaiclassifier.WithBaseURL(url), openaiclassifier.WithAPIKey(testKey), openaiclassifier.WithMaxRetries(0))
	}
	tests := []struct {
		name string
		c    func(url string) *openaiclassifier.Classifier
		req  evalkit.ClassifyRequest
		body string
		code int
		want string
	}{
		{"audio", moderations, audio, moderation, 0, "openaiclassifier: the moderations API classifies text and images, not audio: give this check a classifier of your own"},
		{"labels", moderations, evalkit.ClassifyRequest{Kind: evalkit.InputText, Text: "hi", Labels: []string{"billing"}}, moderation, 0,
			"openaiclassifier: the request lists candidate labels (billing), but the moderations API scores its model's own labels and cannot choose among others"},
		{"two results", moderations, text, `{"results": [{"category_scores": {"a": 0.1}}, {"category_scores": {"a": 0.1}}]}`, 0, "openaiclassifier: the reply has 2 results, want 1"},
		{"no scores", moderations, text, `{"results": [{"flagged": false}]}`, 0, "openaiclassifier: the reply's result has no category_scores"},
		{"score range", moderations, text, `{"results": [{"category_scores": {"a": 1.5}}]}`, 0, `openaiclassifier: evalkit: classification label "a" has score 1.5, want a number in [0,1]`},
		{"not json", moderations, text, `<html>`, 0, "openaiclassifier: the reply is not a moderation response"},
		{"status", moderations, text, `{"error": {"message": "Incorrect API key provided: ` + testKey + `"}}`, 401, "openaiclassifier: 1 attempt: HTTP 401 Unauthorized: Incorrect API key provided: [redacted:openai-key]"},
		{"predict image", predict, evalkit.ClassifyRequest{Kind: evalkit.InputImage, Media: &evalkit.Part{Type: "image", URL: "https://x.test/a.png"}}, `[]`, 0, "openaiclassifier: the predict API classifies text, not image"},
		{"predict model", predict, evalkit.ClassifyRequest{Kind: evalkit.InputText, Text: "hi", Model: "other"}, `[]`, 0, `openaiclassifier: the check asks for the model "other", but the predict server runs "m" (WithModel)`},
		{"predict empty", predict, text, `[]`, 0, "openaiclassifier: the reply has no label scores"},
		{"predict shape", predict, text, `{"label": "x"}`, 0, "openaiclassifier: the reply is not a list of label scores"},
		{"predict no score", predict, text, `[{"label": "x"}]`, 0, "openaiclassifier: label score 0 has no label or no score"},
		{"invalid request", predict, evalkit.ClassifyRequest{Kind: evalkit.InputText}, `[]`, 0, "openaiclassifier: evalkit: classify request has no text"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newServer(t, tt.code, tt.body)
			cl, err := tt.c(srv.URL).Classify(ctx, tt.req)
			require.Error(t, err)
			testify.Equal(t, evalkit.Classification{}, cl)
			testify.Contains(t, err.Error(), tt.want)
			testify.NotContains(t, err.Error(), testKey)
		})
	}

	_, err := openaiclassifier.New(openaiclassifier.WithAPI(openaiclassifier.Predict)).Classify(ctx, text)
	testify.EqualError(t, err, "openaiclassifier: the predict API needs WithModel: the model the server runs, which checks name")
	_, err = openaiclassifier.New(openaiclassifier.WithBaseURL("ftp://x")).Classify(ctx, text)
	testify.ErrorContains(t, err, "want an http:// or https:// URL with a host")
	t.Setenv("OPENAI_API_KEY", "")
	_, err = openaiclassifier.FromEnv().Classify(ctx, text)
	testify.EqualError(t, err, "openaiclassifier: OPENAI_API_KEY is not set: the classifier needs an API key to call https://api.openai.com/v1/moderations")
}

// End to end: PromptKit's text_toxicity on a moderation server, the
// threshold on the assertion.
func TestWithRegistry(t *testing.T) {
	srv := newServer(t, 0, moderation)
	c := openaiclassifier.New(openaiclassifier.WithBaseURL(srv.URL), openaiclassifier.WithAPIKey(testKey))
	tr := &evalkit.Transcript{Messages: []evalkit.Message{{Role: evalkit.RoleUser, Content: "Help?"}, {Role: evalkit.RoleAssistant, Content: "Figure it out yourself, idiot."}}}
	res, err := assert.NewRegistry().WithClassifier(c).Eval(context.Background(), "assertion", tr, map[string]any{
		"eval_type": "text_toxicity", "max_score": 0.3,
		"eval_params": map[string]any{"model": "omni-moderation-latest", "expected_label": "harassment"},
	})
	require.NoError(t, err)
	testify.False(t, res.Passed)
	testify.Equal(t, "score 0.93, want <= 0.30", res.Summary)
	testify.Equal(t, "Figure it out yourself, idiot.", srv.bodies[0]["input"])
}
