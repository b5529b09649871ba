package evaltest_test

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/evaltest"
	"github.com/evalkit-go/evalkit/golden"
	"github.com/evalkit-go/evalkit/judgefake"
	"github.com/evalkit-go/evalkit/openaiembedder"
	"github.com/evalkit-go/evalkit/openaijudge"
)

func embedAnswer(text string) *evalkit.Transcript {
	return &evalkit.Transcript{Messages: []evalkit.Message{
		{Role: evalkit.RoleUser, Content: "How long do refunds take?"},
		{Role: evalkit.RoleAssistant, Content: text},
	}}
}

// EVALKIT_MODE=record against a wire-level fake embeddings API, then a
// replay with no server and no key: the embedding client's vectors are
// recorded beside the judges' verdicts and replayed, and the checks that
// embed (Similar, Consistent, cosine_similarity, consistent) give the same
// results.
func TestEmbeddingRecordReplay(t *testing.T) {
	isolate(t)
	srv := judgefake.NewEmbeddingsServer(judgefake.BagOfWords(64))
	defer srv.Close()
	const key = "sk-embed-test-0123456789abcdef"
	answers := []*evalkit.Transcript{
		embedAnswer("Refunds take 30 days to reach your card."),
		embedAnswer("Your refund reaches your card within 30 days."),
		embedAnswer("A refund takes 30 days."),
	}
	body := func(et *evaltest.T) {
		et.Expect(answers[0]).
			Similar("refunds take 30 days", 0.5).
			Eval("cosine_similarity", map[string]any{"reference_text": "the store opens at nine", "min_similarity": 0.9})
		et.ExpectAll(answers...).Consistent(1.2).Eval("consistent", map[string]any{"max_distance": 1.2})
	}

	t.Setenv("EVALKIT_MODE", "record")
	rec := run("TestRefundAnswers", []evaltest.Option{evaltest.WithEmbedder(openaiembedder.New(
		openaiembedder.WithBaseURL(srv.URL+"/v1"), openaiembedder.WithAPIKey(key)))}, body)
	require.NoError(t, srv.Err())
	calls := len(srv.Requests())
	require.Positive(t, calls)
	require.Len(t, rec.errors, 1, "the cosine_similarity with min_similarity 0.9 fails: %v", rec.errors)
	assert.Contains(t, rec.errors[0], "cosine similarity")
	assert.Contains(t, rec.errors[0], "want >= 0.9")

	path := "testdata/evalkit/TestRefundAnswers.judge.json"
	f, err := golden.Load(path)
	require.NoError(t, err)
	require.NotEmpty(t, f.Entries)
	for _, e := range f.Entries {
		require.NotNil(t, e.Embedding, "an embedding entry")
		assert.Equal(t, golden.KindEmbedding, e.Request.Kind)
		assert.Equal(t, "text-embedding-3-small", e.Judge.Model)
		assert.Len(t, e.Embedding.Vectors, len(e.Request.Texts))
	}
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.NotContains(t, string(data), key, "no credential is written")
	require.NoError(t, golden.Verify(path))

	// Replay: no server, no key.
	srv.Close()
	t.Setenv("EVALKIT_MODE", "")
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("OPENAI_BASE_URL", srv.URL+"/v1") // closed: a call would fail
	replay := run("TestRefundAnswers", []evaltest.Option{evaltest.WithEmbedder(openaiembedder.FromEnv())}, body)
	assert.Equal(t, rec.errors, replay.errors, "the same results, replayed")
	assert.Len(t, srv.Requests(), calls, "the server was not asked")

	// A text not recorded is a miss naming the command that records it.
	miss := run("TestRefundAnswers", []evaltest.Option{evaltest.WithEmbedder(openaiembedder.FromEnv())}, func(et *evaltest.T) {
		et.Expect(answers[0]).Similar("refunds take 31 days", 0.5)
	})
	require.Len(t, miss.errors, 1)
	assert.Contains(t, miss.errors[0], "golden: not recorded: testdata/evalkit/TestRefundAnswers.judge.json has no embeddings for these 2 texts")
	assert.Contains(t, miss.errors[0], `texts[1]: now "refunds take 31 days", recorded "refunds take 30 days"`)
	assert.Contains(t, miss.errors[0], "EVALKIT_MODE=record go test")
	assert.True(t, strings.Contains(miss.errors[0], "-run '^TestRefundAnswers$'"), miss.errors[0])
}

// A fake embedder has no identity: it is asked directly, never recorded.
func TestEmbeddingFakeNotRecorded(t *testing.T) {
	isolate(t)
	t.Setenv("EVALKIT_MODE", "record")
	tb := run("TestFake", []evaltest.Option{evaltest.WithEmbedder(judgefake.BagOfWords(64))}, func(et *evaltest.T) {
		et.Expect(embedAnswer("Refunds take 30 days.")).Similar("refunds take 30 days", 0.9)
	})
	assert.Empty(t, tb.errors)
	_, err := os.Stat("testdata")
	assert.True(t, os.IsNotExist(err), "nothing recorded")
}

// An embedder the user already records (a golden.EmbedRecorder of a
// recording of their own) is asked as it is: its vectors come from that
// recording, and the test's own recording is not written.
func TestEmbeddingOwnRecorder(t *testing.T) {
	isolate(t)
	srv := judgefake.NewEmbeddingsServer(judgefake.BagOfWords(64))
	defer srv.Close()
	live := openaiembedder.New(openaiembedder.WithBaseURL(srv.URL+"/v1"), openaiembedder.WithAPIKey("sk-own"))
	rec, err := golden.New("own.judge.json", openaijudge.New(), golden.WithMode(golden.ModeRecord)) // a Recorder needs a judge with an identity
	require.NoError(t, err)
	own, err := rec.Embedder(live)
	require.NoError(t, err)
	t.Setenv("EVALKIT_MODE", "record")
	tb := run("TestOwn", []evaltest.Option{evaltest.WithEmbedder(own)}, func(et *evaltest.T) {
		et.Expect(embedAnswer("Refunds take 30 days.")).Similar("refunds take 30 days", 0.5)
	})
	assert.Empty(t, tb.errors)
	require.NoError(t, rec.Save())
	f, err := golden.Load("own.judge.json")
	require.NoError(t, err)
	assert.Len(t, f.Entries, 1, "recorded once, in the user's recording")
	_, err = os.Stat("testdata/evalkit/TestOwn.judge.json")
	assert.True(t, os.IsNotExist(err), "not recorded twice")
}
