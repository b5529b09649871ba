package golden_test

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/golden"
)

func TestGoldenPrune(t *testing.T) {
	path, logs := recordingPath(t), t.TempDir()
	a, b := refundRequest(), refundRequest()
	b.Criteria = "Is polite"
	record(t, path, newLive(testIdentity), a, b)

	_, err := golden.Prune(path, logs, false)
	assert.ErrorIs(t, err, golden.ErrNoEvidence, "no run, no log")

	run := func(partial bool, reqs ...evalkit.JudgeRequest) {
		rec, err := golden.New(path, mustNotCall(t), golden.WithUsageLog(logs))
		require.NoError(t, err)
		for _, req := range reqs {
			_, err := rec.Judge(context.Background(), req)
			require.NoError(t, err)
		}
		if partial {
			rec.MarkPartial()
		}
		require.NoError(t, rec.Save())
	}
	run(true, a)
	_, err = golden.Prune(path, logs, false)
	assert.ErrorIs(t, err, golden.ErrNoEvidence, "a partial run says nothing of what it did not run")

	run(false, a)
	u, err := golden.ReadUsage(logs, path)
	require.NoError(t, err)
	keyA, _ := golden.Key(testIdentity, a)
	keyB, _ := golden.Key(testIdentity, b)
	assert.Equal(t, []string{keyA}, u.Keys)

	dropped, err := golden.Prune(path, logs, true)
	require.NoError(t, err)
	require.Len(t, dropped, 1)
	assert.Equal(t, keyB, dropped[0].Key)
	f, _ := golden.Load(path)
	assert.Len(t, f.Entries, 2, "a dry run writes nothing")

	dropped, err = golden.Prune(path, logs, false)
	require.NoError(t, err)
	assert.Len(t, dropped, 1)
	f, _ = golden.Load(path)
	require.Len(t, f.Entries, 1)
	assert.Equal(t, keyA, f.Entries[0].Key)
	dropped, err = golden.Prune(path, logs, false)
	require.NoError(t, err, "the log follows the pruned file")
	assert.Empty(t, dropped)

	data, _ := os.ReadFile(path)
	require.NoError(t, os.WriteFile(path, []byte(strings.Replace(string(data), "Cites", "Quotes", 1)), 0o644))
	_, err = golden.Prune(path, logs, false)
	assert.ErrorIs(t, err, golden.ErrNoEvidence, "the file changed since the run")
}

func TestGoldenVerifyListsEveryProblem(t *testing.T) {
	path := recordingPath(t)
	a, b := refundRequest(), refundRequest()
	b.Criteria = "Is polite"
	record(t, path, newLive(testIdentity), a, b)
	require.NoError(t, golden.Verify(path))

	f, err := golden.Load(path)
	require.NoError(t, err)
	data, _ := os.ReadFile(path)
	text := string(data)
	// Swap the entries, leak a key into a reasoning, drop a date.
	first, second := f.Entries[0].Key, f.Entries[1].Key
	text = strings.Replace(text, first, "KEY-A", 1)
	text = strings.Replace(text, second, first, 1)
	text = strings.Replace(text, "KEY-A", second, 1)
	text = strings.Replace(text, `"reasoning": "Cites`, `"reasoning": "Authorization: Bearer sk-live-9f8e7d6c5b4a3f2e1d0c Cites`, 1)
	require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
	err = golden.Verify(path)
	var ve *golden.VerifyError
	require.ErrorAs(t, err, &ve)
	assert.Equal(t, []string{
		"line 38: looks like an OpenAI API key (sk-…): sk-l (4 of 28 bytes)",
		"entries are not sorted by key: entry 2 (" + golden.ShortKey(first) + ") comes after " + golden.ShortKey(second),
	}, ve.Problems)
	assert.NotContains(t, err.Error(), "9f8e7d6c5b4a", "a problem never shows the secret")

	require.NoError(t, os.WriteFile(path, []byte(`{"version": 9}`), 0o644))
	assert.ErrorContains(t, golden.Verify(path), "1 problem:\n\tformat version 9")
}

// A score edited by hand no longer matches its raw score; a file of a
// thousand leaked keys is 1,000 problems, the first MaxProblems listed.
func TestGoldenVerifyEditedScoresAndManyProblems(t *testing.T) {
	path := recordingPath(t)
	record(t, path, newLive(testIdentity), refundRequest())
	data, _ := os.ReadFile(path)
	edited := strings.Replace(string(data), `"score": 0.9,`, `"score": 0.3,`, 1)
	require.NotEqual(t, string(data), edited)
	require.NoError(t, os.WriteFile(path, []byte(edited), 0o644))
	f, err := golden.Load(path)
	require.NoError(t, err)
	var ve *golden.VerifyError
	require.ErrorAs(t, golden.Verify(path), &ve)
	assert.Equal(t, []string{"entry 1 (" + golden.ShortKey(f.Entries[0].Key) + "): score 0.3 is not raw_score 9 on the scale [0, 10] (one was edited?)"}, ve.Problems)

	// A raw score of 0 outside the scale (MT-Bench's 1 to 10) is checked.
	mtBench, err := os.ReadFile("../testdata/evalkit/TestMTBenchJudgments.judge.json")
	require.NoError(t, err)
	edited = strings.Replace(string(mtBench), `"raw_score": 8`, `"raw_score": 0`, 1)
	require.NotEqual(t, string(mtBench), edited)
	require.NoError(t, os.WriteFile(path, []byte(edited), 0o644))
	require.ErrorAs(t, golden.Verify(path), &ve)
	require.Len(t, ve.Problems, 1)
	assert.Contains(t, ve.Problems[0], "is not raw_score 0 on the scale [1, 10] (one was edited?)")

	keys := strings.Repeat("Authorization: Bearer sk-live-9f8e7d6c5b4a3f2e1d0c\n", 1000)
	require.NoError(t, os.WriteFile(path, []byte(keys), 0o644))
	err = golden.Verify(path)
	require.ErrorAs(t, err, &ve)
	assert.Len(t, ve.Problems, golden.MaxProblems)
	assert.Equal(t, 1001-golden.MaxProblems, ve.More, "the keys, and the file not reading as a recording")
	assert.True(t, strings.HasPrefix(err.Error(), "golden: "+path+": 1001 problems:\n\tline 1: looks like"), err.Error()[:80])
	assert.True(t, strings.HasSuffix(err.Error(), "\n\t… and 901 more"))
}
