package evaltest_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	evalassert "github.com/evalkit-go/evalkit/assert"
	"github.com/evalkit-go/evalkit/evaltest"
	"github.com/evalkit-go/evalkit/golden"
	"github.com/evalkit-go/evalkit/judgefake"
)

// testTB is a fake TB with a name and cleanups, for the recording wiring.
type testTB struct {
	testing.TB
	name     string
	mu       sync.Mutex
	errors   []string
	attrs    []string
	logs     []string
	cleanups []func()
}

func (f *testTB) Logf(format string, args ...any) {
	f.mu.Lock()
	f.logs = append(f.logs, fmt.Sprintf(format, args...))
	f.mu.Unlock()
}

func (f *testTB) Attr(key, value string) {
	f.mu.Lock()
	f.attrs = append(f.attrs, key+" "+value)
	f.mu.Unlock()
}

func (f *testTB) Helper()                  {}
func (f *testTB) Context() context.Context { return context.Background() }
func (f *testTB) Name() string             { return f.name }
func (f *testTB) Cleanup(fn func())        { f.mu.Lock(); f.cleanups = append(f.cleanups, fn); f.mu.Unlock() }
func (f *testTB) Skipped() bool            { return false }
func (f *testTB) Failed() bool             { f.mu.Lock(); defer f.mu.Unlock(); return len(f.errors) > 0 }
func (f *testTB) Errorf(format string, args ...any) {
	f.mu.Lock()
	f.errors = append(f.errors, fmt.Sprintf(format, args...))
	f.mu.Unlock()
}
func (f *testTB) Fatalf(format string, args ...any) { f.Errorf(format, args...); runtime.Goexit() }

// finish runs the cleanups, last first, as the testing package does.
func (f *testTB) finish() {
	for i := len(f.cleanups) - 1; i >= 0; i-- {
		f.cleanups[i]()
	}
	f.cleanups = nil
}

// run runs body against a testTB named name and finishes it.
func run(name string, opts []evaltest.Option, body func(et *evaltest.T)) *testTB {
	tb := &testTB{name: name}
	done := make(chan struct{})
	go func() {
		defer close(done)
		body(evaltest.New(tb, opts...))
	}()
	<-done
	tb.finish()
	return tb
}

// liveJudge is a fake with the identity of a real judge, so evaltest
// records it, counting its calls.
type liveJudge struct {
	fake  evalkit.Judge
	calls atomic.Int64
}

func (j *liveJudge) Judge(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
	j.calls.Add(1)
	return j.fake.Judge(ctx, req)
}

func (j *liveJudge) Identity() evalkit.Identity {
	return evalkit.Identity{Provider: "openai", Model: "gpt-4.1-mini", Settings: map[string]any{"temperature": 0}}
}

// isolate runs the test in a directory of its own, its usage logs kept
// there too, in the default mode whatever EVALKIT_MODE the run has.
func isolate(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv("EVALKIT_USAGE_DIR", dir+"/usage")
	t.Setenv("EVALKIT_MODE", "")
}

var shortKeys = regexp.MustCompile(`sha256:[0-9a-f]{12}`)

// The failure messages of recorded judge steps, exactly: a replayed
// verdict says where it came from and how to ask the live judge again; a
// replay miss says what is nearest, what differs and how to record it.
func TestRecordingMessages(t *testing.T) {
	isolate(t)
	synctest.Test(t, func(t *testing.T) {
		judge := func(et *evaltest.T) {
			et.Expect(nineMessages()).Judge("Confirms the refund and states the amount", evalassert.MinScore(0.8))
		}
		live := &liveJudge{fake: judgefake.Fixed(verdict055)}
		tb := run("TestRefund", []evaltest.Option{evaltest.WithJudge(live), evaltest.WithMode(golden.ModeRecord)}, judge)
		assert.Equal(t, []string{`Judge("Confirms the refund and states the a…", MinScore(0.80)): score 0.55, want >= 0.80
reasoning: the reply never states the amount
raw score: 5.5 on 0–10
judge: gpt-4.1-mini (recorded testdata/evalkit/TestRefund.judge.json)
transcript: 9 messages`}, tb.errors)
		assert.EqualValues(t, 1, live.calls.Load())
		_, err := os.Stat("testdata/evalkit/TestRefund.judge.json")
		require.NoError(t, err, "saved when the test ended")

		never := &liveJudge{fake: judgefake.Err(errors.New("the live judge was asked"))}
		tb = run("TestRefund", []evaltest.Option{evaltest.WithJudge(never)}, judge)
		assert.Equal(t, []string{`Judge("Confirms the refund and states the a…", MinScore(0.80)): score 0.55, want >= 0.80
reasoning: the reply never states the amount
raw score: 5.5 on 0–10
judge: gpt-4.1-mini (replayed testdata/evalkit/TestRefund.judge.json)
transcript: 9 messages
hint: EVALKIT_MODE=refresh go test -run '^TestRefund$'   # re-judge against the live judge`}, tb.errors)
		assert.Zero(t, never.calls.Load())

		// A replayed verdict that cannot be graded (a label where a score
		// is wanted) says where it came from too.
		labelled := &liveJudge{fake: judgefake.Fixed(evalkit.Verdict{Label: "partly", Reasoning: "half of it"})}
		ungradable := func(et *evaltest.T) {
			et.Expect(nineMessages()).Judge("States the amount", evalassert.MinScore(0.8))
		}
		run("TestUngradable", []evaltest.Option{evaltest.WithJudge(labelled), evaltest.WithMode(golden.ModeRecord)}, ungradable)
		tb = run("TestUngradable", []evaltest.Option{evaltest.WithJudge(never)}, ungradable)
		assert.Equal(t, []string{`Judge("States the amount", MinScore(0.80)): error: llm_judge: the judge's verdict cannot be graded: the verdict has no score, and the threshold needs one
verdict: replayed testdata/evalkit/TestUngradable.judge.json
transcript: 9 messages
hint: EVALKIT_MODE=refresh go test -run '^TestUngradable$'   # re-judge against the live judge`}, tb.errors)

		tb = run("TestRefund", []evaltest.Option{evaltest.WithJudge(never)}, func(et *evaltest.T) {
			et.Expect(nineMessages()).Judge("Confirms the refund", evalassert.MinScore(0.8))
		})
		require.Len(t, tb.errors, 1)
		assert.Equal(t, `Judge("Confirms the refund", MinScore(0.80)): error: llm_judge: the judge failed: golden: not recorded: testdata/evalkit/TestRefund.judge.json has no verdict for this request (key sha256:…)
nearest: sha256:… (recorded 2000-01-01T00:00:00Z)
differs: criteria: now "Confirms the refund", recorded "Confirms the refund and states the amount"
transcript: 9 messages
hint: EVALKIT_MODE=record go test -run '^TestRefund$'   # record the missing verdict against the live judge`, shortKeys.ReplaceAllString(tb.errors[0], "sha256:…"))
		assert.Zero(t, never.calls.Load(), "a miss is never a live call")

		tb = run("TestCancel/case_2", []evaltest.Option{evaltest.WithJudge(never)}, judge)
		assert.Equal(t, []string{`Judge("Confirms the refund and states the a…", MinScore(0.80)): error: llm_judge: the judge failed: golden: not recorded: testdata/evalkit/TestCancel.judge.json does not exist (key sha256:…)
transcript: 9 messages
hint: EVALKIT_MODE=record go test -run '^TestCancel$'   # record the missing verdict against the live judge`}, []string{shortKeys.ReplaceAllString(tb.errors[0], "sha256:…")})
	})
}

// Fakes are not recorded; nor is anything in live mode.
func TestRecordingSkipsFakesAndLiveMode(t *testing.T) {
	isolate(t)
	tb := run("TestRefund", []evaltest.Option{evaltest.WithJudge(judgefake.Pass()), evaltest.WithMode(golden.ModeRecord)}, func(et *evaltest.T) {
		et.Expect(nineMessages()).Judge("Confirms the refund")
	})
	assert.Empty(t, tb.errors)
	live := &liveJudge{fake: judgefake.Pass()}
	tb = run("TestRefund", []evaltest.Option{evaltest.WithJudge(live), evaltest.WithMode(golden.ModeLive)}, func(et *evaltest.T) {
		et.Expect(nineMessages()).Judge("Confirms the refund")
	})
	assert.Empty(t, tb.errors)
	assert.EqualValues(t, 1, live.calls.Load())
	_, err := os.Stat("testdata")
	assert.True(t, os.IsNotExist(err), "nothing written")
}

// EVALKIT_MODE sets the mode; a bad one is an error on every judged step,
// never a live call.
func TestRecordingModeFromEnvironment(t *testing.T) {
	isolate(t)
	live := &liveJudge{fake: judgefake.Pass()}
	t.Setenv("EVALKIT_MODE", "record")
	tb := run("TestRefund", []evaltest.Option{evaltest.WithJudge(live)}, func(et *evaltest.T) {
		et.Expect(nineMessages()).Judge("Confirms the refund").Eval("llm_judge", map[string]any{"criteria": "Is polite"})
	})
	assert.Empty(t, tb.errors)
	assert.EqualValues(t, 2, live.calls.Load())
	f, err := golden.Load("testdata/evalkit/TestRefund.judge.json")
	require.NoError(t, err)
	assert.Len(t, f.Entries, 2, "Eval's judged types are recorded too")

	t.Setenv("EVALKIT_MODE", "update")
	tb = run("TestRefund", []evaltest.Option{evaltest.WithJudge(live)}, func(et *evaltest.T) {
		et.Expect(nineMessages()).Judge("Confirms the refund").Contains("welcome")
	})
	assert.Equal(t, []string{`Judge("Confirms the refund"): error: llm_judge: the judge failed: EVALKIT_MODE: golden: unknown mode "update": want replay, record, refresh or live
transcript: 9 messages`}, tb.errors)
	assert.EqualValues(t, 2, live.calls.Load())
}

// Parallel and same-named subtests of one test record into one file and
// lose nothing; each request is asked once.
func TestRecordingConcurrentSubtests(t *testing.T) {
	isolate(t)
	live := &liveJudge{fake: judgefake.Pass()}
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			name := "TestSuite/case"
			if i > 0 {
				name = fmt.Sprintf("TestSuite/case#%02d", i)
			}
			tb := run(name, []evaltest.Option{evaltest.WithJudge(live), evaltest.WithMode(golden.ModeRecord)}, func(et *evaltest.T) {
				et.Expect(chat(fmt.Sprintf("answer %d", i%4))).Judge("Answers")
			})
			assert.Empty(t, tb.errors)
		}()
	}
	wg.Wait()
	assert.EqualValues(t, 4, live.calls.Load(), "one live call per distinct request")
	f, err := golden.Load("testdata/evalkit/TestSuite.judge.json")
	require.NoError(t, err)
	assert.Len(t, f.Entries, 4)
}

// A recording that does not read is an error naming it on the step that
// needs it.
func TestRecordingCorruptFile(t *testing.T) {
	isolate(t)
	require.NoError(t, os.MkdirAll("testdata/evalkit", 0o755))
	require.NoError(t, os.WriteFile("testdata/evalkit/TestBroken.judge.json", []byte(`{"version": 7}`), 0o644))
	tb := run("TestBroken", []evaltest.Option{evaltest.WithJudge(&liveJudge{fake: judgefake.Pass()})}, func(et *evaltest.T) {
		et.Expect(nineMessages()).Judge("Confirms the refund")
	})
	assert.Equal(t, []string{`Judge("Confirms the refund"): error: llm_judge: the judge failed: golden: testdata/evalkit/TestBroken.judge.json: format version 7, and this evalkit reads version 1: update evalkit, or re-record the file
transcript: 9 messages`}, tb.errors)
}

// End to end, through a real go test: parallel same-named subtests record
// into one file; recording again (go test -count=3, twice) writes the
// same bytes; replaying asks no judge; -evalkit.mode is read.
func TestRecordingEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a test binary")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH")
	}
	dir := t.TempDir()
	goTest := func(env []string, args ...string) (string, error) {
		cmd := exec.Command(goBin, append([]string{"test", "./testdata/recordprobe"}, args...)...)
		cmd.Env = append(os.Environ(), append([]string{"EVALKIT_MODE=", "PROBE_DIR=" + dir, "EVALKIT_USAGE_DIR=" + dir + "/usage"}, env...)...)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, err := goTest([]string{"EVALKIT_MODE=record"}, "-count=3", "-race")
	require.NoError(t, err, out)
	path := dir + "/testdata/evalkit/TestRefund.judge.json"
	first, err := os.ReadFile(path)
	require.NoError(t, err)
	f, err := golden.Load(path)
	require.NoError(t, err)
	assert.Len(t, f.Entries, 6, "3 answers × 2 criteria, from 6 same-named parallel subtests")

	out, err = goTest([]string{"EVALKIT_MODE=record", "PROBE_NO_LIVE=1"}, "-count=3")
	require.NoError(t, err, "recording again asks nothing: %s", out)
	second, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, string(first), string(second), "byte-identical")

	out, err = goTest([]string{"PROBE_NO_LIVE=1"}, "-count=1")
	require.NoError(t, err, "replay asks no judge: %s", out)
	out, err = goTest([]string{"PROBE_NO_LIVE=1"}, "-count=1", "-evalkit.mode=live")
	require.Error(t, err, "-evalkit.mode=live asks the live judge")
	assert.Contains(t, out, "the live judge was asked")
}

// A *golden.Recorder of the user's own is used as it is: its file, its
// mode, its Save.
func TestRecordingOwnRecorder(t *testing.T) {
	isolate(t)
	rec, err := golden.New("mine.judge.json", &liveJudge{fake: judgefake.Fixed(verdict055)}, golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	tb := run("TestRefund", []evaltest.Option{evaltest.WithJudge(rec)}, func(et *evaltest.T) {
		et.Expect(nineMessages()).Judge("Confirms the refund", evalassert.MinScore(0.8))
	})
	require.Len(t, tb.errors, 1)
	assert.Contains(t, tb.errors[0], "judge: gpt-4.1-mini (recorded mine.judge.json)")
	_, err = os.Stat("testdata")
	assert.True(t, os.IsNotExist(err), "no recording of evaltest's own")
	_, err = os.Stat("mine.judge.json")
	assert.True(t, os.IsNotExist(err), "saved only when the user says so")
	require.NoError(t, rec.Save())
	_, err = os.Stat("mine.judge.json")
	assert.NoError(t, err)
}
