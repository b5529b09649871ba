package judgefake_test

import (
	"context"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit/judgefake"
)

func cos(a, b []float64) float64 {
	var dot, na, nb float64
	for i := range a {
		dot += a[i] * b[i]
		na += a[i] * a[i]
		nb += b[i] * b[i]
	}
	return dot / math.Sqrt(na*nb)
}

func TestBagOfWords(t *testing.T) {
	e := judgefake.BagOfWords(256)
	texts := []string{
		"Your refund of $42 has been issued.",
		"Refund issued: $42, your refund is on its way.",
		"The weather in Paris is sunny today.",
		"issued been has 42 of refund your",
		"",
	}
	vecs, err := e.Embed(context.Background(), texts)
	require.NoError(t, err)
	require.Len(t, vecs, len(texts))
	for i, v := range vecs[:4] {
		require.Len(t, v, 256, "text %d", i)
		norm := 0.0
		for _, f := range v {
			norm += f * f
		}
		assert.InDelta(t, 1, norm, 1e-9, "text %d is unit length", i)
	}
	// Shared words point the same way; word order and case are ignored.
	assert.Greater(t, cos(vecs[0], vecs[1]), cos(vecs[0], vecs[2]))
	assert.InDelta(t, 1, cos(vecs[0], vecs[3]), 1e-9)
	// A text without words is the zero vector, which checks must refuse.
	for _, f := range vecs[4] {
		assert.Zero(t, f)
	}

	// Deterministic: the same texts embed the same, call after call.
	again, err := e.Embed(context.Background(), texts)
	require.NoError(t, err)
	assert.Equal(t, vecs, again)

	// Pinned: one component of a known text, so a change of hashing shows.
	one, err := judgefake.BagOfWords(4).Embed(context.Background(), []string{"refund"})
	require.NoError(t, err)
	assert.Equal(t, 1.0, math.Abs(one[0][0])+math.Abs(one[0][1])+math.Abs(one[0][2])+math.Abs(one[0][3]))
}

func TestBagOfWordsCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := judgefake.BagOfWords(8).Embed(ctx, []string{"x"})
	assert.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, "judgefake.BagOfWords(8)", judgefake.BagOfWords(8).(interface{ String() string }).String())
	v, err := judgefake.BagOfWords(0).Embed(context.Background(), []string{"a b"})
	require.NoError(t, err)
	assert.Len(t, v[0], 1, "dim below 1 is 1")
}
