package golden_test

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/golden"
	"github.com/evalkit-go/evalkit/judgefake"
	"github.com/evalkit-go/evalkit/openaijudge"
)

// bodyKeyJudge is a judge that keys a credential in its identity, as a
// user's own judge might: "api_key" in its settings.
type bodyKeyJudge struct {
	openai *openaijudge.Judge
	key    string
}

func (j bodyKeyJudge) Judge(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
	return j.openai.Judge(ctx, req)
}

func (j bodyKeyJudge) Identity() evalkit.Identity {
	id := j.openai.Identity()
	id.Settings["api_key"] = j.key
	return id
}

// Field failure C19: credentials leak into recordings (headers, Basic
// auth, query keys, body fields), and scrubbing them breaks replay. Record
// through openaijudge against a fake server with every kind of credential,
// the server echoing all of them back in its verdict; then replay with
// every credential rotated and no server at all.
func TestGoldenSecretsC19(t *testing.T) {
	leaked := []string{"sk-test-AAAA1111", "ak-test-2222", "AIzaTEST3333", "body-secret-4444", "c3ZjOmh1bnRlcjItdGVzdA=="}
	srv := judgefake.NewServer(judgefake.Text(`{"reasoning": "Grades it. Echo: Authorization: Bearer sk-test-AAAA1111, X-Api-Key: ak-test-2222, ` +
		`https://judge.example.test/v1/models/j1:generate?key=AIzaTEST3333&alt=json, {\"api_key\": \"body-secret-4444\"}, ` +
		`Proxy-Authorization: Basic c3ZjOmh1bnRlcjItdGVzdA==", "score": 8}`))
	defer srv.Close()
	judge := func(base, apiKey, xKey, basic, bodyKey string, client *openaijudge.Option) bodyKeyJudge {
		opts := []openaijudge.Option{
			openaijudge.WithBaseURL(base), openaijudge.WithAPIKey(apiKey), openaijudge.WithModel("j1"),
			openaijudge.WithHeader("X-Api-Key", xKey), openaijudge.WithHeader("Proxy-Authorization", "Basic "+basic),
		}
		if client != nil {
			opts = append(opts, *client)
		}
		return bodyKeyJudge{openai: openaijudge.New(opts...), key: bodyKey}
	}
	client := openaijudge.WithHTTPClient(srv.Client())
	live := judge(srv.URL+"/v1/models/j1:generate?key=AIzaTEST3333&alt=json", "sk-test-AAAA1111", "ak-test-2222", "c3ZjOmh1bnRlcjItdGVzdA==", "body-secret-4444", &client)

	path := recordingPath(t)
	req := evalkit.JudgeRequest{Criteria: "Grade this answer.", Content: "Refunds within 30 days."}
	rec, err := golden.New(path, live, golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	recorded, err := rec.Judge(context.Background(), req)
	require.NoError(t, err)
	require.NoError(t, rec.Save())
	require.NoError(t, srv.Err())

	data, err := os.ReadFile(path)
	require.NoError(t, err)
	for _, s := range leaked {
		assert.NotContains(t, string(data), s, "the recording holds a credential")
		assert.NotContains(t, recorded.Reasoning, s, "the verdict holds a credential")
	}
	assert.Contains(t, string(data), "Grades it. Echo: Authorization: Bearer [redacted:")
	require.NoError(t, golden.Verify(path))

	srv.Close()
	rotated := judge("https://judge.example.test/v1/models/j1:generate?key=AIzaTEST7777&alt=json", "sk-test-ZZZZ9999", "ak-test-8888", "b3RoZXI6Y3JlZGVudGlhbHM=", "body-secret-5555", nil)
	replay, err := golden.New(path, rotated)
	require.NoError(t, err)
	v, err := replay.Judge(context.Background(), req)
	require.NoError(t, err, "rotated credentials replay")
	assert.Equal(t, recorded, v)
	assert.Equal(t, 8.0, v.RawScore)
}

// WithRedact takes a user's own credential shapes out of everything
// written, and keys stay as they were.
func TestGoldenWithRedact(t *testing.T) {
	path := recordingPath(t)
	custom := regexp.MustCompile(`cust-\d{6}`)
	live := &liveJudge{id: evalkit.Identity{Provider: "test", Model: "m cust-000001"}, judge: func(req evalkit.JudgeRequest) (evalkit.Verdict, error) {
		return evalkit.Verdict{Score: 1, Scored: true, Reasoning: "customer cust-123456 is happy", Fields: map[string]any{"id": "cust-123456"}}, nil
	}}
	hook := golden.WithRedact(func(s string) string { return custom.ReplaceAllString(s, "cust-XXXXXX") })
	rec, err := golden.New(path, live, golden.WithMode(golden.ModeRecord), hook)
	require.NoError(t, err)
	req := evalkit.JudgeRequest{Criteria: "Is the customer happy?", Content: "cust-123456: thanks!"}
	v, err := rec.Judge(context.Background(), req)
	require.NoError(t, err)
	assert.Equal(t, "customer cust-XXXXXX is happy", v.Reasoning, "the verdict returned is the verdict recorded")
	require.NoError(t, rec.Save())
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.NotRegexp(t, custom, string(data))

	replay, err := golden.New(path, &liveJudge{id: live.id})
	require.NoError(t, err)
	_, err = replay.Judge(context.Background(), req)
	assert.NoError(t, err, "the hook changes what is written, not the key")
}

// Every recording committed to this repository, of judge verdicts and of
// HTTP exchanges, is a valid recording with nothing in it that looks like
// a credential.
func TestGoldenRepositoryRecordingsHoldNoSecrets(t *testing.T) {
	var found []string
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if !d.IsDir() && (strings.HasSuffix(path, golden.JudgeSuffix) || strings.HasSuffix(path, golden.HTTPSuffix)) {
			found = append(found, path)
			assert.NoError(t, golden.Verify(path))
		}
		return nil
	})
	require.NoError(t, err)
	assert.NotEmpty(t, found, "the repository's recordings were not found: the scan would pass vacuously")
	assert.True(t, slices.ContainsFunc(found, func(p string) bool { return strings.HasSuffix(p, golden.HTTPSuffix) }),
		"the repository's HTTP recordings were not found: the scan would pass them vacuously")
	t.Logf("verified %d recordings", len(found))
}
