//go:build unix

package golden_test

import (
	"context"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/golden"
)

// within runs f and fails the test if it has not returned in 5s: the
// hostile journals below hung New, Save, Verify and JournalEntries.
func within(t *testing.T, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatalf("%s: still waiting after 5s", what)
	}
}

// A journal that is a FIFO, a directory or a symbolic link was not written
// by evalkit: New (in every mode), Verify and JournalEntries refuse it with
// an error naming it, never waiting on a FIFO nor reading or appending
// through a link to another file.
func TestJournalNotARegularFile(t *testing.T) {
	for _, kind := range []string{"fifo", "dir", "link"} {
		t.Run(kind, func(t *testing.T) {
			path := recordingPath(t)
			jp := path + golden.JournalSuffix
			require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
			target := filepath.Join(t.TempDir(), "elsewhere")
			require.NoError(t, os.WriteFile(target, []byte("not evalkit's\n"), 0o644))
			switch kind {
			case "fifo":
				require.NoError(t, syscall.Mkfifo(jp, 0o644))
				// A writer that never closes would keep a reader waiting
				// for ever; none is needed for os.Open to block.
			case "dir":
				require.NoError(t, os.Mkdir(jp, 0o755))
			case "link":
				require.NoError(t, os.Symlink(target, jp))
			}
			for _, mode := range []golden.Mode{golden.ModeReplay, golden.ModeRecord, golden.ModeRefresh} {
				within(t, "New in "+mode.String(), func() {
					_, err := golden.New(path, newLive(testIdentity), golden.WithMode(mode))
					require.Error(t, err, mode.String())
					assert.Contains(t, err.Error(), jp)
					assert.Contains(t, err.Error(), "not a regular file")
				})
			}
			within(t, "Verify", func() {
				err := golden.Verify(path)
				require.Error(t, err)
				assert.Contains(t, err.Error(), "not a regular file")
			})
			within(t, "JournalEntries", func() {
				_, exists, err := golden.JournalEntries(path)
				assert.True(t, exists)
				require.Error(t, err)
			})
			data, err := os.ReadFile(target)
			require.NoError(t, err)
			assert.Equal(t, "not evalkit's\n", string(data), "nothing written through the link")
		})
	}
}

// A recording run whose journal became a FIFO or a link while it ran (or
// that started beside one) does not append to it: the verdict is returned
// with a note, and the file behind the link is untouched.
func TestJournalAppendRefusesLink(t *testing.T) {
	path := recordingPath(t)
	rec, err := golden.New(path, newLive(testIdentity), golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	target := filepath.Join(t.TempDir(), "elsewhere")
	require.NoError(t, os.WriteFile(target, []byte("x\n"), 0o644))
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.Symlink(target, path+golden.JournalSuffix))
	within(t, "Judge", func() {
		_, err := rec.Judge(context.Background(), numbered(0))
		require.NoError(t, err)
	})
	data, err := os.ReadFile(target)
	require.NoError(t, err)
	assert.Equal(t, "x\n", string(data))
	assert.Contains(t, strings.Join(rec.Notes(), "\n"), "not a regular file")
}

// unwritable makes the recording at path impossible to lock, as a
// read-only checkout does (the lock file cannot be made): a directory
// stands in the lock file's place, since the tests may run as root, for
// whom a read-only mode bit changes nothing.
func unwritable(t *testing.T, path string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(path+".lock", 0o755))
}

// Replay beside a journal it cannot merge (a read-only checkout of a
// commit that holds one) replays the recording and the journal, read in
// memory, with a note saying it could not merge them: replay reads, and
// must not fail because it cannot write. Recording modes still fail.
func TestJournalReplayReadOnly(t *testing.T) {
	path := recordingPath(t)
	rec, err := golden.New(path, newLive(testIdentity), golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	_, err = rec.Judge(context.Background(), numbered(0))
	require.NoError(t, err)
	require.NoError(t, rec.Save())
	_, err = rec.Judge(context.Background(), numbered(1)) // journaled, never saved
	require.NoError(t, err)
	before, err := os.ReadFile(path)
	require.NoError(t, err)
	unwritable(t, path)

	replay, err := golden.New(path, mustNotCall(t))
	require.NoError(t, err)
	for i := range 2 {
		_, err := replay.Judge(context.Background(), numbered(i))
		require.NoError(t, err, "verdict %d replays", i)
	}
	notes := strings.Join(replay.Notes(), "\n")
	assert.Contains(t, notes, "TestX.judge.json.journal: 1 entry replayed from the journal, read in memory: it could not be merged into the recording")
	require.NoError(t, replay.Save())
	after, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, string(before), string(after), "nothing written")
	_, err = os.Stat(path + golden.JournalSuffix)
	require.NoError(t, err, "the journal stays for a run that can merge it")

	_, err = golden.New(path, newLive(testIdentity), golden.WithMode(golden.ModeRecord))
	assert.Error(t, err, "a recording run that cannot write fails at once")
}

// The same for an HTTP recording.
func TestJournalReplayReadOnlyHTTP(t *testing.T) {
	path := httpPath(t)
	live, _ := echoLive()
	tr, err := golden.NewTransport(path, live, golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	status, _, err := chat(t, tr.Client(), "https://api.openai.com/v1/chat/completions", chatBody, nil)
	require.NoError(t, err)
	require.Equal(t, 200, status)
	unwritable(t, path)

	replay, err := golden.NewTransport(path, rtFunc(func(*http.Request) (*http.Response, error) {
		return nil, errors.New("replay sent a request")
	}))
	require.NoError(t, err)
	status, _, err = chat(t, replay.Client(), "https://api.openai.com/v1/chat/completions", chatBody, nil)
	require.NoError(t, err)
	assert.Equal(t, 200, status)
	assert.Contains(t, strings.Join(replay.Notes(), "\n"), "1 entry replayed from the journal, read in memory")
	require.NoError(t, replay.Save())
	_, err = os.Stat(path)
	assert.True(t, os.IsNotExist(err), "nothing written")
}

// A journal entry under a key the recording holds with another verdict (a
// refresh run that died before saving) replaces it, as the newer; the note
// says how many it replaced, so the change is not mistaken for additions.
func TestJournalReplacingEntriesSaysSo(t *testing.T) {
	path := recordingPath(t)
	rec, err := golden.New(path, newLive(testIdentity), golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	for i := range 2 {
		_, err = rec.Judge(context.Background(), numbered(i))
		require.NoError(t, err)
	}
	require.NoError(t, rec.Save())

	changed := newLive(testIdentity)
	inner := changed.judge
	changed.judge = func(req evalkit.JudgeRequest) (evalkit.Verdict, error) {
		v, err := inner(req)
		v.Reasoning = "judged again, differently"
		return v, err
	}
	refresh, err := golden.New(path, changed, golden.WithMode(golden.ModeRefresh))
	require.NoError(t, err)
	_, err = refresh.Judge(context.Background(), numbered(0)) // journaled; the run dies
	require.NoError(t, err)
	_, err = refresh.Judge(context.Background(), numbered(2))
	require.NoError(t, err)

	replay, err := golden.New(path, mustNotCall(t))
	require.NoError(t, err)
	assert.Contains(t, strings.Join(replay.Notes(), "\n"), "recovered 2 entries from its journal, 1 of them replacing the recording's entry under its key with the newer one")
	v, err := replay.Judge(context.Background(), numbered(0))
	require.NoError(t, err)
	assert.Equal(t, "judged again, differently", v.Reasoning, "the journal's, the newer")
}

// Two recording runs appending to one journal at once (two Recorders on
// one file, each with its own descriptor and lock, as two processes have)
// lose no entry and tear no line.
func TestJournalConcurrentAppends(t *testing.T) {
	path := recordingPath(t)
	const each = 40
	// Both opened first: a New while the other appends would merge what
	// it finds of the journal into the recording (as another process
	// would), and this test counts journal lines.
	var recs []*golden.Recorder
	for range 2 {
		rec, err := golden.New(path, newLive(testIdentity), golden.WithMode(golden.ModeRecord))
		require.NoError(t, err)
		recs = append(recs, rec)
	}
	var wg sync.WaitGroup
	for r, rec := range recs {
		wg.Go(func() {
			for i := range each {
				_, err := rec.Judge(context.Background(), numbered(r*each+i))
				assert.NoError(t, err)
			}
		})
	}
	wg.Wait()
	assert.Len(t, journalLines(t, path), 2*each)
	replay, err := golden.New(path, mustNotCall(t))
	require.NoError(t, err)
	notes := strings.Join(replay.Notes(), "\n")
	assert.Contains(t, notes, "recovered 80 entries")
	assert.NotContains(t, notes, "cut off")
	for i := range 2 * each {
		_, err := replay.Judge(context.Background(), numbered(i))
		require.NoError(t, err, "verdict %d", i)
	}
}

// A recording run opened while another appends to the journal merges what
// it finds into the recording and removes the journal, under the lock;
// the other's later verdicts start a new journal. Nothing is lost.
func TestJournalMergedWhileAppending(t *testing.T) {
	path := recordingPath(t)
	const n = 40
	rec, err := golden.New(path, newLive(testIdentity), golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := range n {
			_, err := rec.Judge(context.Background(), numbered(i))
			assert.NoError(t, err)
		}
	})
	for range 10 {
		_, err := golden.New(path, newLive(testIdentity), golden.WithMode(golden.ModeRecord))
		require.NoError(t, err)
	}
	wg.Wait()
	replay, err := golden.New(path, mustNotCall(t))
	require.NoError(t, err)
	assert.NotContains(t, strings.Join(replay.Notes(), "\n"), "cut off")
	for i := range n {
		_, err := replay.Judge(context.Background(), numbered(i))
		require.NoError(t, err, "verdict %d", i)
	}
}
