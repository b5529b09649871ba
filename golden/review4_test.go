package golden_test

import (
	"context"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/golden"
	"github.com/evalkit-go/evalkit/internal/secret/secrettest"
)

// Regression tests of the fourth hostile review of issue 15.

// A journal holds what the recording would, redacted: a verdict's
// criterion names, panel members' names and tool names were not cleaned
// string by string, only by Save's pass over the whole file, which a
// journal left by a kill (beside the recording, where git add takes it)
// never had.
func TestReview4JournalRedactsEveryString(t *testing.T) {
	path := recordingPath(t)
	key := secrettest.All()[2].Secret // an OpenAI key
	live := &liveJudge{id: testIdentity, judge: func(req evalkit.JudgeRequest) (evalkit.Verdict, error) {
		v := richVerdict(req)
		v.Criteria[0].Name = "never repeats " + key
		v.Votes = []evalkit.Vote{{Judge: "judge " + key, Verdict: richVerdict(req)}}
		v.ToolCalls = []evalkit.JudgeToolCall{{Name: "lookup " + key, Result: "ok"}}
		return v, nil
	}}
	rec, err := golden.New(path, live, golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	_, err = rec.Judge(context.Background(), refundRequest())
	require.NoError(t, err)
	data, err := os.ReadFile(path + golden.JournalSuffix)
	require.NoError(t, err)
	assertNone(t, string(data), key)
	assert.Contains(t, string(data), "[redacted:openai-key]")
	require.NoError(t, rec.Save())
	data, err = os.ReadFile(path)
	require.NoError(t, err)
	assertNone(t, string(data), key)
}
