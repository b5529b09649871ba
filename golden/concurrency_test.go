package golden_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/golden"
)

// Many goroutines recording through two judges into one file lose
// nothing, and ask the live judge once per key.
func TestGoldenConcurrentRecording(t *testing.T) {
	path := recordingPath(t)
	mini, max := newLive(testIdentity), newLive(evalkit.Identity{Provider: "test", Model: "judge-max"})
	rec, err := golden.New(path, mini, golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	other, err := rec.For(max)
	require.NoError(t, err)

	const keys, callers = 10, 8
	var wg sync.WaitGroup
	for c := range callers {
		for k := range keys {
			wg.Add(1)
			go func() {
				defer wg.Done()
				req := refundRequest()
				req.Content = fmt.Sprintf("answer %d", k)
				r := rec
				if c%2 == 1 {
					r = other
				}
				_, err := r.Judge(context.Background(), req)
				assert.NoError(t, err)
				if k == 0 {
					assert.NoError(t, r.Save(), "saving while others record")
				}
			}()
		}
	}
	wg.Wait()
	require.NoError(t, other.Save())
	assert.EqualValues(t, keys, mini.calls.Load(), "one live call per key")
	assert.EqualValues(t, keys, max.calls.Load(), "one live call per key")
	f, err := golden.Load(path)
	require.NoError(t, err)
	assert.Len(t, f.Entries, 2*keys)
	assert.NoError(t, golden.Verify(path))
}
