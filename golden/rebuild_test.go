package golden_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/golden"
)

// A request short enough to be recorded whole is rebuilt from its entry
// exactly — it keys to the entry's key — and one recorded as an excerpt
// says which fields were cut.
func TestEntryRebuild(t *testing.T) {
	path := recordingPath(t)
	rec, err := golden.New(path, newLive(testIdentity), golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	whole := refundRequest()
	whole.Labels = []string{"pass", "fail"}
	whole.Context = []string{"Refunds take 30 days."}
	whole.VerdictSchema = json.RawMessage(`{"type": "object", "required": ["score"]}`)
	long := refundRequest()
	long.Content = strings.Repeat("Your refund is on its way. ", 40)
	for _, req := range []evalkit.JudgeRequest{whole, long} {
		_, err := rec.Judge(context.Background(), req)
		require.NoError(t, err)
	}
	require.NoError(t, rec.Save())
	f, err := golden.Load(path)
	require.NoError(t, err)
	require.Len(t, f.Entries, 2)
	wholeKey, err := golden.Key(testIdentity, whole)
	require.NoError(t, err)
	for _, e := range f.Entries {
		got, err := e.Rebuild()
		if e.Key == wholeKey {
			require.NoError(t, err)
			k, err := golden.Key(testIdentity, got)
			require.NoError(t, err)
			assert.Equal(t, wholeKey, k)
			assert.Equal(t, whole.Content, got.Content)
			continue
		}
		assert.True(t, errors.Is(err, golden.ErrExcerpt))
		assert.EqualError(t, err, "golden: entry "+golden.ShortKey(e.Key)+": the recording holds an excerpt of the request, not the request: content cut")
	}
}

// The bundled MT-Bench recording holds excerpts of long answers: those
// entries cannot be asked again from the recording alone.
func TestEntryRebuildMTBench(t *testing.T) {
	f, err := golden.Load("../testdata/evalkit/TestMTBenchJudgments.judge.json")
	require.NoError(t, err)
	whole := 0
	for _, e := range f.Entries {
		if _, err := e.Rebuild(); err == nil {
			whole++
		} else {
			assert.ErrorIs(t, err, golden.ErrExcerpt)
		}
	}
	assert.Equal(t, 4, whole, "of %d MT-Bench entries, the four with short answers rebuild whole", len(f.Entries))
}

// Recorded WithWholeRequests, a long request — and a metric step's — is
// held whole, and rebuilds; the key is the same either way, so the
// recording replays for a Recorder without the option.
func TestEntryRebuildWholeRequests(t *testing.T) {
	path := recordingPath(t)
	rec, err := golden.New(path, newLive(testIdentity), golden.WithMode(golden.ModeRecord), golden.WithWholeRequests())
	require.NoError(t, err)
	long := refundRequest()
	long.Content = strings.Repeat("Your refund is on its way. ", 40)
	long.Context = []string{strings.Repeat("Refund policy. ", 30)}
	metric := refundRequest()
	metric.Metric = "faithfulness.verdicts/1"
	metric.VerdictSchema = json.RawMessage(`{"type": "object"}`)
	for _, req := range []evalkit.JudgeRequest{long, metric} {
		_, err := rec.Judge(context.Background(), req)
		require.NoError(t, err)
	}
	require.NoError(t, rec.Save())
	f, err := golden.Load(path)
	require.NoError(t, err)
	require.Len(t, f.Entries, 2)
	for _, e := range f.Entries {
		req, err := e.Rebuild()
		require.NoError(t, err)
		k, err := golden.Key(testIdentity, req)
		require.NoError(t, err)
		assert.Equal(t, e.Key, k)
	}
	replay, err := golden.New(path, mustNotCall(t))
	require.NoError(t, err)
	_, origin, err := replay.JudgeOrigin(context.Background(), long)
	require.NoError(t, err)
	assert.Equal(t, golden.OriginReplayed, origin)
}
