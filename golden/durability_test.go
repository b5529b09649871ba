package golden_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/golden"
)

// numbered is the i-th request of the durability tests.
func numbered(i int) evalkit.JudgeRequest {
	req := refundRequest()
	req.Content = fmt.Sprintf("answer %d", i)
	return req
}

// 64 parallel subtests recording into one file, through the one Recorder
// a test binary holds per file (as evaltest does) and a second judge's
// Recorder from For, each saving when done: every entry is kept, each key
// asked of its live judge once. Repeated runs on the file — a new
// Recorder each, as a new `go test` is — ask nothing and write the same
// bytes when nothing is new, keep every old entry when 64 are, and replay
// all of them.
func TestGoldenParallelSubtests(t *testing.T) {
	const subtests = 64
	path := recordingPath(t)
	mini, max := newLive(testIdentity), newLive(evalkit.Identity{Provider: "test", Model: "judge-max"})
	run := func(name string, mode golden.Mode, from int) {
		rec, err := golden.New(path, mini, golden.WithMode(mode))
		require.NoError(t, err)
		other, err := rec.For(max)
		require.NoError(t, err)
		t.Run(name, func(t *testing.T) {
			for i := range subtests {
				t.Run(strconv.Itoa(i), func(t *testing.T) {
					t.Parallel()
					r := rec
					if i%2 == 1 {
						r = other
					}
					for _, req := range []evalkit.JudgeRequest{numbered(from + i), refundRequest()} {
						_, err := r.Judge(context.Background(), req)
						require.NoError(t, err)
					}
					require.NoError(t, r.Save(), "saving while others record")
				})
			}
		})
	}
	entries := func() int {
		t.Helper()
		f, err := golden.Load(path)
		require.NoError(t, err)
		require.NoError(t, golden.Verify(path))
		return len(f.Entries)
	}

	run("first", golden.ModeRecord, 0)
	assert.Equal(t, subtests+2, entries(), "64 answers and the shared request, for two judges")
	assert.EqualValues(t, subtests/2+1, mini.calls.Load(), "one live call per key")
	assert.EqualValues(t, subtests/2+1, max.calls.Load(), "one live call per key")
	first, err := os.ReadFile(path)
	require.NoError(t, err)

	run("again", golden.ModeRecord, 0)
	assert.EqualValues(t, subtests/2+1, mini.calls.Load(), "recording again asks nothing")
	again, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, string(first), string(again), "nothing new writes the same bytes")

	run("more", golden.ModeRecord, subtests)
	assert.Equal(t, 2*subtests+2, entries(), "the first run's entries are kept beside the new ones")

	mini.judge = func(evalkit.JudgeRequest) (evalkit.Verdict, error) {
		t.Error("replay asked the live judge")
		return evalkit.Verdict{}, errors.New("replay asked the live judge")
	}
	max.judge = mini.judge
	run("replay first", golden.ModeReplay, 0)
	run("replay more", golden.ModeReplay, subtests)
}

// 64 parallel subtests, each with its own Transport on one file, lose no
// exchange; a second run asks nothing and writes the same bytes.
func TestTransportParallelSubtests(t *testing.T) {
	const subtests = 64
	path := httpPath(t)
	live, calls := echoLive()
	run := func(name string) {
		t.Run(name, func(t *testing.T) {
			for i := range subtests {
				t.Run(strconv.Itoa(i), func(t *testing.T) {
					t.Parallel()
					tr, err := golden.NewTransport(path, live, golden.WithMode(golden.ModeRecord))
					require.NoError(t, err)
					for _, body := range []string{
						fmt.Sprintf(`{"model": "m", "messages": [{"role": "user", "content": "case %d"}]}`, i),
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
	run("first")
	assert.Equal(t, subtests+1, calls(), "each distinct request once")
	f, err := golden.LoadHTTP(path)
	require.NoError(t, err)
	assert.Len(t, f.Interactions, subtests+1)
	first, err := os.ReadFile(path)
	require.NoError(t, err)

	run("again")
	assert.Equal(t, subtests+1, calls(), "recording again asks nothing")
	again, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, string(first), string(again))
}

// A recording run killed with SIGKILL at whatever point it has reached,
// three times over on one file: after each kill the file reads and
// verifies, holds every entry the run said it had saved, and holds them
// as a prefix of what the run recorded (no entry lost, none half
// written); the next run goes on from there. The child is this test
// binary, recording one entry at a time with a Save after each; the kill
// lands wherever the child is, before, inside or after a write, as a
// ^C'd CI job's does. TestGoldenKilledMidWrite makes sure of one inside.
func TestGoldenKilledWhileRecording(t *testing.T) {
	if path := os.Getenv("GOLDEN_RECORDING_CHILD"); path != "" {
		from, err := strconv.Atoi(os.Getenv("GOLDEN_RECORDING_FROM"))
		require.NoError(t, err)
		// A long reasoning (2 KB an entry) makes each write bigger, and
		// longer to be killed in.
		live := &liveJudge{id: testIdentity, judge: func(req evalkit.JudgeRequest) (evalkit.Verdict, error) {
			v := richVerdict(req)
			v.Reasoning = strings.Repeat("Cites the refund window. ", 80)
			return v, nil
		}}
		rec, err := golden.New(path, live, golden.WithMode(golden.ModeRecord))
		require.NoError(t, err)
		for i := from; i < from+1000; i++ { // bounded, should the parent not kill it
			_, err := rec.Judge(context.Background(), numbered(i))
			require.NoError(t, err)
			require.NoError(t, rec.Save())
			fmt.Printf("saved %d\n", i)
		}
		return
	}

	path := recordingPath(t)
	recorded := 0
	for round, saves := range []int{3, 11, 25} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestGoldenKilledWhileRecording$", "-test.count=1")
		cmd.Env = append(os.Environ(), "GOLDEN_RECORDING_CHILD="+path, "GOLDEN_RECORDING_FROM="+strconv.Itoa(recorded))
		out, err := cmd.StdoutPipe()
		require.NoError(t, err)
		require.NoError(t, cmd.Start())
		t.Cleanup(func() { _ = cmd.Process.Kill() }) // should a check below stop the test first
		sc := bufio.NewScanner(out)
		last, seen := -1, 0
		for seen < saves && sc.Scan() {
			if n, ok := strings.CutPrefix(sc.Text(), "saved "); ok {
				last, err = strconv.Atoi(n)
				require.NoError(t, err)
				seen++
			}
		}
		require.Equal(t, saves, seen, "round %d: the child stopped early", round)
		require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
		err = cmd.Wait()
		var exit *exec.ExitError
		require.True(t, errors.As(err, &exit), "round %d: killed: %v", round, err)

		// The next run merges the journal a kill between a verdict and its
		// Save leaves.
		replay, err := golden.New(path, mustNotCall(t))
		require.NoError(t, err, "round %d: the recording reads after the kill", round)
		f, err := golden.Load(path)
		require.NoError(t, err, "round %d: the recording reads after the kill", round)
		require.NoError(t, golden.Verify(path), "round %d", round)
		require.GreaterOrEqual(t, len(f.Entries), last+1, "round %d: every entry said saved is there", round)
		for i := range len(f.Entries) {
			_, err := replay.Judge(context.Background(), numbered(i))
			require.NoError(t, err, "round %d: entry %d of %d", round, i, len(f.Entries))
		}
		temps, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".TestX.judge.json.tmp-*"))
		t.Logf("round %d: killed after %d saves, %d entries on disk, %d temporary files beside it", round, saves, len(f.Entries), len(temps))
		recorded = len(f.Entries)
	}
}
