package golden_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit/golden"
)

// echoLive answers every request with a digest of its body, so equal
// requests get equal answers, and counts what it is asked.
func echoLive() (http.RoundTripper, func() int) {
	var mu sync.Mutex
	calls := 0
	return rtFunc(func(r *http.Request) (*http.Response, error) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		calls++
		mu.Unlock()
		sum := sha256.Sum256(body)
		return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(strings.NewReader(`{"echo": "` + hex.EncodeToString(sum[:4]) + `"}`))}, nil
	}), func() int { mu.Lock(); defer mu.Unlock(); return calls }
}

// Parallel tests, each with its own Transport on one file, record every
// exchange once and lose none; recording again asks nothing and writes
// the same bytes; refreshing against the same answers writes them too.
func TestTransportParallelRecording(t *testing.T) {
	path := httpPath(t)
	live, calls := echoLive()
	run := func(mode golden.Mode) {
		t.Run(mode.String(), func(t *testing.T) {
			for i := range 16 {
				t.Run(fmt.Sprint(i), func(t *testing.T) {
					t.Parallel()
					tr, err := golden.NewTransport(path, live, golden.WithMode(mode))
					require.NoError(t, err)
					for _, body := range []string{
						fmt.Sprintf(`{"model": "m", "messages": [{"role": "user", "content": "case %d"}]}`, i%8),
						`{"model": "m", "messages": [{"role": "user", "content": "shared"}]}`,
						`{"model": "m", "messages": [{"role": "user", "content": "shared"}]}`,
					} {
						status, _, err := chat(t, tr.Client(), "http://fake/v1/chat/completions", body, nil)
						require.NoError(t, err)
						assert.Equal(t, 200, status)
					}
					require.NoError(t, tr.Save())
				})
			}
		})
	}
	run(golden.ModeRecord)
	assert.Equal(t, 10, calls(), "8 distinct requests, and the shared one twice in a row")
	f, err := golden.LoadHTTP(path)
	require.NoError(t, err)
	assert.Len(t, f.Interactions, 10)
	first, err := os.ReadFile(path)
	require.NoError(t, err)

	run(golden.ModeRecord)
	assert.Equal(t, 10, calls(), "recording again asks nothing")
	second, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, string(first), string(second))

	run(golden.ModeRefresh)
	assert.Equal(t, 20, calls(), "refresh asks every exchange once again")
	third, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, string(first), string(third), "the same answers keep their bytes and dates")

	run(golden.ModeReplay)
	assert.Equal(t, 20, calls())
}

// Two identical requests at once through two Transports make one live
// request; both get its response.
func TestTransportInflightShared(t *testing.T) {
	path := httpPath(t)
	release := make(chan struct{})
	started := make(chan struct{}, 2)
	calls := 0
	var mu sync.Mutex
	live := rtFunc(func(r *http.Request) (*http.Response, error) {
		mu.Lock()
		calls++
		mu.Unlock()
		started <- struct{}{}
		<-release
		return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}}, Body: io.NopCloser(strings.NewReader(`{"ok": true}`))}, nil
	})
	a, err := golden.NewTransport(path, live, golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	b, err := golden.NewTransport(path, live, golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	var wg sync.WaitGroup
	results := make([]string, 2)
	for i, tr := range []*golden.Transport{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, got, err := chat(t, tr.Client(), "http://fake/v1/chat/completions", chatBody, nil)
			assert.NoError(t, err)
			results[i] = got
		}()
	}
	<-started
	close(release)
	wg.Wait()
	assert.Equal(t, 1, calls)
	assert.Equal(t, results[0], results[1])
}
