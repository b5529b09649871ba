package golden_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
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

// Two processes recording one file — two test binaries of one go test
// run — each read, merge and write it under its lock: nothing is lost.
func TestGoldenTwoProcessesRecordOneFile(t *testing.T) {
	if os.Getenv("GOLDEN_LOCK_CHILD") != "" {
		t.Skip("the parent's test")
	}
	for _, kind := range []string{"judge", "http"} {
		t.Run(kind, func(t *testing.T) {
			path := recordingPath(t)
			if kind == "http" {
				path = httpPath(t)
			}
			var wg sync.WaitGroup
			for _, who := range []string{"A", "B"} {
				wg.Go(func() {
					cmd := exec.Command(os.Args[0], "-test.run=^TestGoldenLockChild$", "-test.count=1")
					cmd.Env = append(os.Environ(), "GOLDEN_LOCK_CHILD="+kind, "GOLDEN_LOCK_PATH="+path, "GOLDEN_LOCK_WHO="+who)
					out, err := cmd.CombinedOutput()
					assert.NoError(t, err, "%s: %s", who, out)
				})
			}
			wg.Wait()
			if kind == "judge" {
				f, err := golden.Load(path)
				require.NoError(t, err)
				assert.Equal(t, 200, len(f.Entries), "entries on disk")
			} else {
				f, err := golden.LoadHTTP(path)
				require.NoError(t, err)
				assert.Equal(t, 200, len(f.Interactions), "interactions on disk")
			}
			assert.NoError(t, golden.Verify(path))
			assert.NoFileExists(t, path+".lock", "the lock file is removed once done")
		})
	}
}

// TestGoldenLockChild is one of TestGoldenTwoProcessesRecordOneFile's
// processes: it records 100 entries, saving after each, as 100 tests do.
func TestGoldenLockChild(t *testing.T) {
	kind, path, who := os.Getenv("GOLDEN_LOCK_CHILD"), os.Getenv("GOLDEN_LOCK_PATH"), os.Getenv("GOLDEN_LOCK_WHO")
	if kind == "" {
		t.Skip("run by TestGoldenTwoProcessesRecordOneFile")
	}
	live := rtFunc(func(r *http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"text/plain"}}, Body: io.NopCloser(strings.NewReader("ok"))}, nil
	})
	for i := range 100 {
		if kind == "judge" {
			r, err := golden.New(path, newLive(testIdentity), golden.WithMode(golden.ModeRecord))
			require.NoError(t, err)
			req := refundRequest()
			req.Criteria = fmt.Sprintf("%s-%d", who, i)
			_, err = r.Judge(context.Background(), req)
			require.NoError(t, err)
			require.NoError(t, r.Save())
			continue
		}
		tr, err := golden.NewTransport(path, live, golden.WithMode(golden.ModeRecord))
		require.NoError(t, err)
		req, err := http.NewRequest(http.MethodPost, "http://fake/v1/chat", strings.NewReader(fmt.Sprintf(`{"who": %q, "i": %d}`, who, i)))
		require.NoError(t, err)
		resp, err := tr.RoundTrip(req)
		require.NoError(t, err)
		resp.Body.Close()
		require.NoError(t, tr.Save())
	}
}

// Recorders opened separately on one file in one process — a user's own,
// beside evaltest's — and saving at once each read, merge and write it
// under its lock: 64 of them keep all 64 entries.
func TestGoldenSeparateRecordersOnOneFile(t *testing.T) {
	path := recordingPath(t)
	var wg sync.WaitGroup
	for i := range 64 {
		wg.Go(func() {
			r, err := golden.New(path, newLive(testIdentity), golden.WithMode(golden.ModeRecord))
			if !assert.NoError(t, err) {
				return
			}
			req := refundRequest()
			req.Criteria = fmt.Sprintf("criterion %d", i)
			_, err = r.Judge(context.Background(), req)
			assert.NoError(t, err)
			assert.NoError(t, r.Save())
		})
	}
	wg.Wait()
	f, err := golden.Load(path)
	require.NoError(t, err)
	assert.Len(t, f.Entries, 64)
	assert.NoError(t, golden.Verify(path))
}

// A recording reached through a symbolic link (one file shared by two
// packages' testdata) is written where the link points, and the link
// stays a link; a link to nothing is an error naming it.
func TestGoldenRecordingThroughASymlink(t *testing.T) {
	dir := t.TempDir()
	shared := dir + "/shared/refund.judge.json"
	record(t, shared, newLive(testIdentity), refundRequest())
	link := dir + "/pkg/testdata/refund.judge.json"
	require.NoError(t, os.MkdirAll(dir+"/pkg/testdata", 0o755))
	if err := os.Symlink("../../shared/refund.judge.json", link); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}

	req := refundRequest()
	req.Criteria = "Is polite"
	record(t, link, newLive(testIdentity), req)
	fi, err := os.Lstat(link)
	require.NoError(t, err)
	assert.NotZero(t, fi.Mode()&os.ModeSymlink, "the link is still a link")
	f, err := golden.Load(shared)
	require.NoError(t, err)
	assert.Len(t, f.Entries, 2, "the shared file holds both")

	dangling := dir + "/pkg/testdata/gone.judge.json"
	require.NoError(t, os.Symlink("../../shared/gone.judge.json", dangling))
	rec, err := golden.New(dangling, newLive(testIdentity), golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	_, err = rec.Judge(context.Background(), refundRequest())
	require.NoError(t, err)
	assert.EqualError(t, rec.Save(), "golden: "+dangling+" is a symbolic link to ../../shared/gone.judge.json, which does not exist: make the file, or remove the link")
}

// A record run saves what it recorded, and keeps what another writer did
// to the entries it only read: evalkit golden audit -update rewrote an
// entry while a long EVALKIT_MODE=record run had the file open, and the
// run's save wrote its stale copy of that entry back.
func TestGoldenRecordKeepsAnotherWritersEntries(t *testing.T) {
	path := recordingPath(t)
	ctx := context.Background()
	seed, err := golden.New(path, newLive(testIdentity), golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	old := refundRequest()
	_, err = seed.Judge(ctx, old)
	require.NoError(t, err)
	require.NoError(t, seed.Save())

	run, err := golden.New(path, newLive(testIdentity), golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	_, err = run.Judge(ctx, old) // replayed: only read
	require.NoError(t, err)

	f, err := golden.Load(path) // another writer, as audit -update writes
	require.NoError(t, err)
	require.Len(t, f.Entries, 1)
	f.Entries[0].Verdict.Reasoning = "asked again: the judge changed its mind"
	require.NoError(t, golden.WriteFile(path, f))

	fresh := refundRequest()
	fresh.Content += " (a new case)"
	_, err = run.Judge(ctx, fresh)
	require.NoError(t, err)
	require.NoError(t, run.Save())

	after, err := golden.Load(path)
	require.NoError(t, err)
	require.Len(t, after.Entries, 2)
	for _, e := range after.Entries {
		if e.Key == f.Entries[0].Key {
			assert.Equal(t, "asked again: the judge changed its mind", e.Verdict.Reasoning, "the other writer's entry stands")
		}
	}
}
