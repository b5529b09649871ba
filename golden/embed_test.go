package golden_test

import (
	"context"
	"errors"
	"math"
	"os"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/golden"
)

// liveEmbedder embeds each text as {len, words}, counting its calls.
type liveEmbedder struct {
	id    evalkit.Identity
	calls atomic.Int64
	bad   [][]float64 // returned instead, when set
	err   error
}

func (e *liveEmbedder) Identity() evalkit.Identity { return e.id }

func (e *liveEmbedder) Embed(_ context.Context, texts []string) ([][]float64, error) {
	e.calls.Add(1)
	if e.err != nil || e.bad != nil {
		return e.bad, e.err
	}
	out := make([][]float64, len(texts))
	for i, t := range texts {
		out[i] = []float64{float64(len(t)), 0.1234567890123, -1e-7}
	}
	return out, nil
}

var embedID = evalkit.Identity{Provider: "openai", Model: "text-embedding-3-small"}

// An embedder's vectors share the judges' recording: recorded once,
// replayed exactly with no live call, beside a judge's verdicts, and the
// file verifies.
func TestEmbedRecordThenReplay(t *testing.T) {
	path := recordingPath(t)
	ctx := context.Background()
	base, err := golden.Open(path, golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	_, err = base.Judge(ctx, refundRequest())
	assert.ErrorContains(t, err, "made by Open and has no live judge")
	live := &liveEmbedder{id: embedID}
	rec, err := base.Embedder(live)
	require.NoError(t, err)
	judge, err := base.For(newLive(testIdentity))
	require.NoError(t, err)
	vecs, origin, err := rec.EmbedOrigin(ctx, []string{"refund", "Bearer sk-abc123def456ghi789jkl0"})
	require.NoError(t, err)
	assert.Equal(t, golden.OriginRecorded, origin)
	_, err = judge.Judge(ctx, refundRequest())
	require.NoError(t, err)
	require.NoError(t, base.Save())
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.NotContains(t, string(data), "sk-abc123def456ghi789jkl0", "texts are redacted in the summary")
	require.NoError(t, golden.Verify(path))
	f, err := golden.Load(path)
	require.NoError(t, err)
	require.Len(t, f.Entries, 2)

	replay, err := golden.Open(path)
	require.NoError(t, err)
	again, err := replay.Embedder(&liveEmbedder{id: embedID, err: errors.New("must not be called")})
	require.NoError(t, err)
	got, origin, err := again.EmbedOrigin(ctx, []string{"refund", "Bearer sk-abc123def456ghi789jkl0"})
	require.NoError(t, err)
	assert.Equal(t, golden.OriginReplayed, origin)
	assert.Equal(t, vecs, got, "every digit of every component")

	// Another model misses, naming what differs.
	other, err := replay.Embedder(&liveEmbedder{id: evalkit.Identity{Provider: "openai", Model: "text-embedding-3-large"}})
	require.NoError(t, err)
	_, err = other.Embed(ctx, []string{"refund", "Bearer sk-abc123def456ghi789jkl0"})
	var nr *golden.NotRecordedError
	require.True(t, errors.As(err, &nr), "%v", err)
	assert.Equal(t, 2, nr.Texts)
	assert.Equal(t, []golden.Difference{{Field: "judge.model", Now: `"text-embedding-3-large"`, Recorded: `"text-embedding-3-small"`}}, nr.Differs)
}

// Concurrent calls with the same texts make one live call; an embedder
// that breaks its contract or fails records nothing.
func TestEmbedRecordFaults(t *testing.T) {
	path := recordingPath(t)
	ctx := context.Background()
	base, err := golden.Open(path, golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	live := &liveEmbedder{id: embedID}
	rec, err := base.Embedder(live)
	require.NoError(t, err)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			_, err := rec.Embed(ctx, []string{"same"})
			assert.NoError(t, err)
		})
	}
	wg.Wait()
	assert.EqualValues(t, 1, live.calls.Load())

	for _, bad := range []*liveEmbedder{
		{id: embedID, bad: [][]float64{{1}}},
		{id: embedID, bad: [][]float64{{1}, {math.NaN()}}},
		{id: embedID, bad: [][]float64{{1}, {1, 2}}},
		{id: embedID, err: errors.New("HTTP 500")},
	} {
		r, err := base.Embedder(bad)
		require.NoError(t, err)
		_, err = r.Embed(ctx, []string{"a", "b"})
		assert.Error(t, err)
	}
	require.NoError(t, base.Save())
	f, err := golden.Load(path)
	require.NoError(t, err)
	assert.Len(t, f.Entries, 1, "only the good call is recorded")

	_, err = base.Embedder(evalkit.EmbedderFunc(func(context.Context, []string) ([][]float64, error) { return nil, nil }))
	assert.ErrorContains(t, err, "has no Identity")
}
