package golden_test

import (
	"context"
	"errors"
	"net/http"
	"os"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/golden"
)

// journalLines returns the lines of the journal beside path.
func journalLines(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path + golden.JournalSuffix)
	require.NoError(t, err)
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

// A verdict is in the journal, redacted as the recording writes it, as
// soon as the Recorder returns it; a run that never saves loses none of
// them: the next Recorder on the file, in any mode, merges them into the
// recording, removes the journal, says so, and replays them.
func TestJournalHoldsEveryVerdictAsObtained(t *testing.T) {
	path := recordingPath(t)
	const key = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD"
	live := &liveJudge{id: testIdentity, judge: func(req evalkit.JudgeRequest) (evalkit.Verdict, error) {
		v := richVerdict(req)
		v.Reasoning = "the reply leaks " + key
		return v, nil
	}}
	rec, err := golden.New(path, live, golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	for i := range 3 {
		_, err := rec.Judge(context.Background(), numbered(i))
		require.NoError(t, err)
		assert.Len(t, journalLines(t, path), i+1, "journaled before the verdict is returned")
	}
	_, err = os.Stat(path)
	require.True(t, os.IsNotExist(err), "nothing saved: the run ends here, as a killed one does")
	data, err := os.ReadFile(path + golden.JournalSuffix)
	require.NoError(t, err)
	assert.NotContains(t, string(data), key, "the journal holds what the recording would: redacted")
	assert.Contains(t, string(data), "[redacted")

	// The next run, in replay mode.
	replay, err := golden.New(path, mustNotCall(t))
	require.NoError(t, err)
	notes := replay.Notes()
	require.Len(t, notes, 1)
	assert.Contains(t, notes[0], "TestX.judge.json: recovered 3 entries from its journal, left by a recording run that ended before it saved")
	assert.Empty(t, replay.Notes(), "each note once")
	for i := range 3 {
		_, err := replay.Judge(context.Background(), numbered(i))
		require.NoError(t, err, "verdict %d replays", i)
	}
	_, err = os.Stat(path + golden.JournalSuffix)
	assert.True(t, os.IsNotExist(err), "merged, then removed")
	require.NoError(t, golden.Verify(path), "sorted, and written as evalkit writes it")
}

// Save merges the journal into the recording and removes it; later
// verdicts start a new one.
func TestJournalMergedAtSave(t *testing.T) {
	path := recordingPath(t)
	rec, err := golden.New(path, newLive(testIdentity), golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	for i := range 2 {
		_, err := rec.Judge(context.Background(), numbered(i))
		require.NoError(t, err)
	}
	require.NoError(t, rec.Save())
	_, err = os.Stat(path + golden.JournalSuffix)
	assert.True(t, os.IsNotExist(err))
	_, err = rec.Judge(context.Background(), numbered(2))
	require.NoError(t, err)
	assert.Len(t, journalLines(t, path), 1)
	require.NoError(t, rec.Save())
	f, err := golden.Load(path)
	require.NoError(t, err)
	assert.Len(t, f.Entries, 3)
	require.NoError(t, golden.Verify(path))
}

// A recording recovered from a journal is byte for byte the one Save
// would have written for the same verdicts.
func TestJournalRecoveryWritesSaveBytes(t *testing.T) {
	synctest.Test(t, func(t *testing.T) { // one clock, so one recorded_at
		saved, journaled := recordingPath(t), recordingPath(t)
		for _, p := range []string{saved, journaled} {
			rec, err := golden.New(p, newLive(testIdentity), golden.WithMode(golden.ModeRecord))
			require.NoError(t, err)
			for i := range 5 {
				_, err := rec.Judge(context.Background(), numbered(4-i))
				require.NoError(t, err)
			}
			if p == saved {
				require.NoError(t, rec.Save())
			}
		}
		_, err := golden.New(journaled, mustNotCall(t))
		require.NoError(t, err)
		want, err := os.ReadFile(saved)
		require.NoError(t, err)
		got, err := os.ReadFile(journaled)
		require.NoError(t, err)
		assert.Equal(t, string(want), string(got))
	})
}

// A run killed while writing a journal line leaves it cut off: the next
// line written starts on a line of its own, and reading skips the cut
// one with a note naming it.
func TestJournalCutLineSkipped(t *testing.T) {
	path := recordingPath(t)
	rec, err := golden.New(path, newLive(testIdentity), golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	_, err = rec.Judge(context.Background(), numbered(0))
	require.NoError(t, err)
	whole := journalLines(t, path)[0]
	// Another run, killed halfway through its line.
	f, err := os.OpenFile(path+golden.JournalSuffix, os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString(whole[:len(whole)/2])
	require.NoError(t, err)
	require.NoError(t, f.Close())
	_, err = rec.Judge(context.Background(), numbered(1))
	require.NoError(t, err)
	lines := journalLines(t, path)
	require.Len(t, lines, 3, "the cut line ended, the new one after it")
	assert.Equal(t, whole[:len(whole)/2], lines[1])

	replay, err := golden.New(path, mustNotCall(t))
	require.NoError(t, err)
	notes := replay.Notes()
	require.Len(t, notes, 2)
	assert.Contains(t, notes[0], "TestX.judge.json.journal: line 2 is cut off (a run killed while writing it): skipped")
	assert.Contains(t, notes[1], "recovered 2 entries")
	for i := range 2 {
		_, err := replay.Judge(context.Background(), numbered(i))
		require.NoError(t, err)
	}

	// Cut off at the very end of the file, with nothing after it.
	rec2, err := golden.New(path, newLive(testIdentity), golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	_, err = rec2.Judge(context.Background(), numbered(2))
	require.NoError(t, err)
	data, err := os.ReadFile(path + golden.JournalSuffix)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path+golden.JournalSuffix, append(data, data[:10]...), 0o644))
	again, err := golden.New(path, mustNotCall(t))
	require.NoError(t, err)
	assert.Contains(t, strings.Join(again.Notes(), "\n"), "line 2 is cut off at the end of the file")
	f2, err := golden.Load(path)
	require.NoError(t, err)
	assert.Len(t, f2.Entries, 3)
}

// A journal line that is JSON but no entry was not written by evalkit: an
// error naming the journal and the line, and neither file is changed.
func TestJournalForeignLineIsAnError(t *testing.T) {
	path := recordingPath(t)
	require.NoError(t, os.MkdirAll(strings.TrimSuffix(path, "TestX.judge.json"), 0o755))
	bad := []byte(`{"key": "sha256:nothex", "verdict": {}}` + "\n")
	require.NoError(t, os.WriteFile(path+golden.JournalSuffix, bad, 0o644))
	_, err := golden.New(path, mustNotCall(t))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "TestX.judge.json.journal: line 1: not a journal entry: key \"sha256:nothex\" is not sha256: and 64 hex digits (remove the file to drop what it holds)")
	data, err := os.ReadFile(path + golden.JournalSuffix)
	require.NoError(t, err)
	assert.Equal(t, bad, data)
	_, err = os.Stat(path)
	assert.True(t, os.IsNotExist(err))
}

// Another run's journal is merged by this run's Save, in record and in
// refresh mode, so the journal's removal loses nothing that run obtained.
func TestJournalOfAnotherRunMergedAtSave(t *testing.T) {
	for _, mode := range []golden.Mode{golden.ModeRecord, golden.ModeRefresh} {
		t.Run(mode.String(), func(t *testing.T) {
			path := recordingPath(t)
			mine, err := golden.New(path, newLive(testIdentity), golden.WithMode(mode))
			require.NoError(t, err)
			other, err := golden.New(path, newLive(testIdentity), golden.WithMode(golden.ModeRecord))
			require.NoError(t, err)
			_, err = other.Judge(context.Background(), numbered(1)) // journaled; that run goes on, or dies
			require.NoError(t, err)
			_, err = mine.Judge(context.Background(), numbered(0))
			require.NoError(t, err)
			require.NoError(t, mine.Save())
			f, err := golden.Load(path)
			require.NoError(t, err)
			assert.Len(t, f.Entries, 2, "the other run's verdict is kept")
			_, err = os.Stat(path + golden.JournalSuffix)
			assert.True(t, os.IsNotExist(err))
		})
	}
}

// HTTP exchanges are journaled as they are obtained and recovered the
// same way.
func TestJournalHoldsEveryExchange(t *testing.T) {
	path := httpPath(t)
	live, calls := echoLive()
	tr, err := golden.NewTransport(path, live, golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	bodies := []string{chatBody, strings.Replace(chatBody, "Z7GOZK", "K1NW8N", 1)}
	for i, body := range bodies {
		status, _, err := chat(t, tr.Client(), "https://api.openai.com/v1/chat/completions", body, map[string]string{"Authorization": "Bearer sk-proj-abcdefghijklmnopqrstuvwxyz0123456789"})
		require.NoError(t, err)
		require.Equal(t, 200, status)
		assert.Len(t, journalLines(t, path), i+1)
	}
	data, err := os.ReadFile(path + golden.JournalSuffix)
	require.NoError(t, err)
	assert.NotContains(t, string(data), "sk-proj-")
	replay, err := golden.NewTransport(path, rtFunc(func(*http.Request) (*http.Response, error) {
		return nil, errors.New("replay sent a request")
	}))
	require.NoError(t, err)
	assert.Contains(t, strings.Join(replay.Notes(), "\n"), "recovered 2 entries")
	for _, body := range bodies {
		status, _, err := chat(t, replay.Client(), "https://api.openai.com/v1/chat/completions", body, nil)
		require.NoError(t, err)
		assert.Equal(t, 200, status)
	}
	assert.Equal(t, 2, calls())
	require.NoError(t, golden.Verify(path))
}

// verify reports a journal beside a recording, and one with no recording
// yet; prune leaves such a recording alone.
func TestJournalVerifyAndPrune(t *testing.T) {
	path := recordingPath(t)
	rec, err := golden.New(path, newLive(testIdentity), golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	_, err = rec.Judge(context.Background(), numbered(0))
	require.NoError(t, err)
	err = golden.Verify(path)
	require.Error(t, err)
	assert.Equal(t, "golden: "+path+": 1 problem:\n\tTestX.judge.json.journal holds 1 entry not merged into the recording, left by a recording run that ended before it saved: run the test again (any mode merges it), and never commit the journal", err.Error())

	require.NoError(t, rec.Save())
	require.NoError(t, golden.Verify(path))
	_, err = rec.Judge(context.Background(), numbered(1))
	require.NoError(t, err)
	_, err = golden.Prune(path, t.TempDir(), false)
	assert.ErrorIs(t, err, golden.ErrNoEvidence)
	assert.Contains(t, err.Error(), "a journal is beside")
	n, exists, err := golden.JournalEntries(path)
	require.NoError(t, err)
	assert.True(t, exists)
	assert.Equal(t, 1, n)
}
