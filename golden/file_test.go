package golden_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/golden"
	"github.com/evalkit-go/evalkit/judgefake"
)

// record records reqs with live in ModeRecord and saves.
func record(t *testing.T, path string, live evalkit.Judge, reqs ...evalkit.JudgeRequest) {
	t.Helper()
	rec, err := golden.New(path, live, golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	for _, req := range reqs {
		_, err := rec.Judge(context.Background(), req)
		require.NoError(t, err)
	}
	require.NoError(t, rec.Save())
}

// Field failure C17: a recording checked out with CRLF line endings (git
// autocrlf on Windows) replays, and recording writes LF only.
func TestGoldenCRLFC17(t *testing.T) {
	path := recordingPath(t)
	yes := true
	live := &liveJudge{id: testIdentity, judge: func(evalkit.JudgeRequest) (evalkit.Verdict, error) {
		return evalkit.Verdict{Passed: &yes, Score: 0.9, Scored: true, RawScore: 9, Reasoning: "Cites the refund window."}, nil
	}}
	req := refundRequest()
	record(t, path, live, req)
	lf, err := os.ReadFile(path)
	require.NoError(t, err)
	crlf := bytes.ReplaceAll(lf, []byte("\n"), []byte("\r\n"))
	require.NoError(t, os.WriteFile(path, crlf, 0o644))
	assert.NoError(t, golden.Verify(path), "CRLF alone is no problem")

	replay, err := golden.New(path, mustNotCall(t))
	require.NoError(t, err)
	v, err := replay.Judge(context.Background(), req)
	require.NoError(t, err, "replay hit")
	assert.True(t, *v.Passed)
	assert.Equal(t, 0.9, v.Score)
	assert.Equal(t, "Cites the refund window.", v.Reasoning)

	// Replaying changes nothing; recording a new verdict writes LF only.
	require.NoError(t, replay.Save())
	after, _ := os.ReadFile(path)
	assert.Equal(t, crlf, after, "a replay run leaves the checkout alone")
	other := req
	other.Criteria = "States the amount"
	record(t, path, live, req, other)
	after, _ = os.ReadFile(path)
	assert.NotContains(t, string(after), "\r")
	assert.True(t, bytes.HasPrefix(after, lf[:bytes.Index(lf, []byte(`"entries"`))]))
	f, err := golden.Load(path)
	require.NoError(t, err)
	assert.Len(t, f.Entries, 2)
}

// The same verdicts make the same bytes, whatever the order they were
// recorded in; recording again with nothing new writes nothing.
func TestGoldenDeterministicBytes(t *testing.T) {
	reqs := make([]evalkit.JudgeRequest, 12)
	for i := range reqs {
		reqs[i] = refundRequest()
		reqs[i].Content = strings.Repeat("x", i)
	}
	// write records reqs in order, at once, in a bubble of its own (whose
	// clock starts at 2000-01-01), and records them again an hour later.
	write := func(order []int) (first []byte) {
		synctest.Test(t, func(t *testing.T) {
			path := recordingPath(t)
			rec, err := golden.New(path, newLive(testIdentity), golden.WithMode(golden.ModeRecord))
			require.NoError(t, err)
			done := make(chan struct{})
			for _, i := range order {
				go func() {
					defer func() { done <- struct{}{} }()
					_, err := rec.Judge(context.Background(), reqs[i])
					assert.NoError(t, err)
				}()
			}
			for range order {
				<-done
			}
			require.NoError(t, rec.Save())
			first, err = os.ReadFile(path)
			require.NoError(t, err)
			info, _ := os.Stat(path)

			time.Sleep(time.Hour) // virtual: a later run records nothing new
			again, err := golden.New(path, mustNotCall(t), golden.WithMode(golden.ModeRecord))
			require.NoError(t, err)
			for _, req := range reqs {
				_, err := again.Judge(context.Background(), req)
				require.NoError(t, err)
			}
			require.NoError(t, again.Save())
			second, _ := os.ReadFile(path)
			assert.Equal(t, first, second)
			info2, _ := os.Stat(path)
			assert.Equal(t, info.ModTime(), info2.ModTime(), "not rewritten")
		})
		return first
	}
	a := write([]int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11})
	b := write([]int{11, 3, 7, 0, 9, 1, 5, 10, 2, 8, 4, 6})
	assert.Equal(t, string(a), string(b))
	assert.Contains(t, string(a), `"recorded_at": "2000-01-01T00:00:00Z"`)
}

// ModeRefresh asks the live judge again, keeps only what it asked, and
// keeps the date of a verdict that came back the same.
func TestGoldenRefresh(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		path := recordingPath(t)
		a, b := refundRequest(), refundRequest()
		b.Criteria = "Is polite"
		record(t, path, newLive(testIdentity), a, b)
		time.Sleep(24 * time.Hour)

		live := newLive(testIdentity)
		rec, err := golden.New(path, live, golden.WithMode(golden.ModeRefresh))
		require.NoError(t, err)
		for range 3 {
			_, origin, err := rec.JudgeOrigin(context.Background(), a)
			require.NoError(t, err)
			_ = origin
		}
		assert.EqualValues(t, 1, live.calls.Load(), "asked once, then replayed")
		require.NoError(t, rec.Save())
		f, err := golden.Load(path)
		require.NoError(t, err)
		require.Len(t, f.Entries, 1, "the entry no request used is dropped")
		assert.Equal(t, time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC), f.Entries[0].RecordedAt, "the same verdict keeps its date")

		changed := &liveJudge{id: testIdentity, judge: func(req evalkit.JudgeRequest) (evalkit.Verdict, error) {
			return evalkit.Verdict{Score: 0.2, RawScore: 2, Scored: true, Reasoning: "worse"}, nil
		}}
		rec, err = golden.New(path, changed, golden.WithMode(golden.ModeRefresh))
		require.NoError(t, err)
		v, err := rec.Judge(context.Background(), a)
		require.NoError(t, err)
		assert.Equal(t, "worse", v.Reasoning)
		require.NoError(t, rec.Save())
		f, err = golden.Load(path)
		require.NoError(t, err)
		assert.Equal(t, "worse", f.Entries[0].Verdict.Reasoning)
		assert.Equal(t, time.Date(2000, 1, 2, 0, 0, 0, 0, time.UTC), f.Entries[0].RecordedAt)

		// A refresh that judged nothing writes nothing.
		idle, err := golden.New(path, changed, golden.WithMode(golden.ModeRefresh))
		require.NoError(t, err)
		require.NoError(t, idle.Save())
		g, err := golden.Load(path)
		require.NoError(t, err)
		assert.Len(t, g.Entries, 1)
	})
}

// Two runs recording into one file keep both runs' verdicts: Save merges
// what is on disk.
func TestGoldenRecordMergesWhatIsOnDisk(t *testing.T) {
	path := recordingPath(t)
	a, b := refundRequest(), refundRequest()
	b.Criteria = "Is polite"
	first, err := golden.New(path, newLive(testIdentity), golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	second, err := golden.New(path, newLive(testIdentity), golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	_, err = first.Judge(context.Background(), a)
	require.NoError(t, err)
	_, err = second.Judge(context.Background(), b)
	require.NoError(t, err)
	require.NoError(t, first.Save())
	require.NoError(t, second.Save())
	f, err := golden.Load(path)
	require.NoError(t, err)
	assert.Len(t, f.Entries, 2)

	// A file broken meanwhile is an error, and is not overwritten.
	third, err := golden.New(path, newLive(testIdentity), golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	c := a
	c.Criteria = "Is short"
	_, err = third.Judge(context.Background(), c)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, []byte("{broken"), 0o644))
	assert.ErrorContains(t, third.Save(), "(not overwritten)")
	data, _ := os.ReadFile(path)
	assert.Equal(t, "{broken", string(data))
}

// A run killed in the middle of writing a recording leaves the old one
// whole. The child is this test binary, killed once half of the new
// file's bytes are written.
func TestGoldenKilledMidWrite(t *testing.T) {
	if path := os.Getenv("GOLDEN_KILLED_CHILD"); path != "" {
		golden.SetTestHookMidWrite(func() {
			os.Stdout.WriteString("\nhalf written\n")
			select {} // until killed
		})
		more := refundRequest()
		more.Criteria = "Is polite"
		record(t, path, newLive(testIdentity), more)
		t.Fatal("the hook never ran")
	}
	path := recordingPath(t)
	record(t, path, newLive(testIdentity), refundRequest())
	before, err := os.ReadFile(path)
	require.NoError(t, err)

	cmd := exec.Command(os.Args[0], "-test.run=^TestGoldenKilledMidWrite$", "-test.count=1")
	cmd.Env = append(os.Environ(), "GOLDEN_KILLED_CHILD="+path)
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	sc := bufio.NewScanner(out)
	seen := false
	for sc.Scan() {
		if sc.Text() == "half written" {
			seen = true
			break
		}
	}
	require.True(t, seen, "the child never wrote half a file")
	require.NoError(t, cmd.Process.Kill())
	err = cmd.Wait()
	var exit *exec.ExitError
	require.True(t, errors.As(err, &exit), "killed: %v", err)

	after, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, before, after, "the old recording is whole")
	temps, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".TestX.judge.json.tmp-*"))
	assert.Len(t, temps, 1, "the half-written file is beside it, under another name")
	replay, err := golden.New(path, mustNotCall(t))
	require.NoError(t, err)
	_, err = replay.Judge(context.Background(), refundRequest())
	assert.NoError(t, err)
}

// A Recorder in record mode keeps the judge contract judgefake.TestJudge
// checks.
func TestGoldenRecorderConformance(t *testing.T) {
	hash := judgefake.Hash("golden")
	live := &liveJudge{id: testIdentity, judge: func(req evalkit.JudgeRequest) (evalkit.Verdict, error) {
		return hash.Judge(context.Background(), req)
	}}
	rec, err := golden.New(recordingPath(t), live, golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	require.NoError(t, judgefake.TestJudge(rec))
}
