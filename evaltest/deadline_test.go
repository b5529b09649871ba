package evaltest_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	evalassert "github.com/evalkit-go/evalkit/assert"
	"github.com/evalkit-go/evalkit/evaltest"
	"github.com/evalkit-go/evalkit/golden"
	"github.com/evalkit-go/evalkit/judgefake"
	"github.com/evalkit-go/evalkit/openaijudge"
)

// The durability and deadline tests run this test binary again as a child
// go test, in a directory of their own, with DURABILITY_CHILD naming what
// the child does:
//
//   - stall-judge: N verdicts from a real openaijudge over a judgefake
//     server, then one the server never answers;
//   - stall-http: N chat completions through HTTPClient, then one the
//     server never answers;
//   - stall-external: a rest_eval evaluator that never answers;
//   - kill, panic: verdicts and exchanges, one at a time, printing
//     "obtained i" after each, until the parent kills the child, or until
//     N are obtained and a goroutine panics.
//
// Every child records (EVALKIT_MODE=record).
const childN = 3

func TestDurabilityChild(t *testing.T) {
	scenario := os.Getenv("DURABILITY_CHILD")
	if scenario == "" {
		t.Skip("run by the durability tests as a child process")
	}
	srv := judgefake.NewServer(append(judgefake.Texts(
		`{"score": 9, "reasoning": "states the amount"}`,
		`{"score": 8, "reasoning": "confirms the refund"}`,
		`{"score": 7, "reasoning": "polite"}`,
		`{"score": 9, "reasoning": "cites the order"}`,
	)[:childN], judgefake.Stall())...)
	defer srv.Close()
	switch scenario {
	case "stall-judge":
		judge := openaijudge.New(openaijudge.WithBaseURL(srv.URL+"/v1"), openaijudge.WithAPIKey("sk-test-not-a-key"), openaijudge.WithModel("gpt-4.1-mini"))
		et := evaltest.New(t, evaltest.WithJudge(judge))
		for i := range childN + 1 {
			et.Expect(answer(i)).Judge("Confirms the refund and states the amount", evalassert.MinScore(0.5))
			fmt.Printf("obtained %d\n", i)
		}
	case "stall-http":
		client := evaltest.HTTPClient(t).Client
		for i := range childN + 1 {
			if _, err := complete(client, srv.URL, i); err != nil {
				t.Logf("the agent's call %d failed: %v", i, err)
				return
			}
			fmt.Printf("obtained %d\n", i)
		}
	case "stall-external":
		end := make(chan struct{})
		stalled := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			select { // an evaluator that never answers
			case <-r.Context().Done():
			case <-end:
			}
		}))
		defer stalled.Close()
		defer close(end)
		et := evaltest.New(t)
		et.Expect(answer(0)).Eval("rest_eval", map[string]any{"url": stalled.URL + "/evaluate", "timeout": "10m"})
	case "stall-deaf":
		// A judge that ignores its context, asked from parallel subtests
		// and from the attempts of a Repeat in each: every wait ends at the
		// test's deadline with evalkit's message, not Go's panic.
		deaf := &deafJudge{release: make(chan struct{})}
		t.Cleanup(func() { close(deaf.release) }) // after the parallel subtests
		for _, name := range []string{"a", "b"} {
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				et := evaltest.New(t, evaltest.WithJudge(deaf))
				et.Expect(answer(0)).Judge("Confirms the refund")
				et.Repeat(2, func(et *evaltest.T) {
					et.Expect(answer(1)).Judge("States the amount")
				}, evaltest.All())
				fmt.Printf("subtest %s ended\n", name)
			})
		}
	case "stall-body-json", "stall-body-stream":
		// Headers and the start of a body, then nothing, for ever.
		end := make(chan struct{})
		trickle := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if scenario == "stall-body-stream" {
				w.Header().Set("Content-Type", "text/event-stream")
				fmt.Fprint(w, "data: {\"choices\": [{\"delta\": {\"content\": \"Refund\"}}]}\n\n")
			} else {
				w.Header().Set("Content-Type", "application/json")
				fmt.Fprint(w, `{"choices": [{"message": {"content": "Refund`)
			}
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
			case <-end:
			}
		}))
		defer trickle.Close()
		defer close(end)
		client := evaltest.HTTPClient(t).Client
		text, err := complete(client, trickle.URL, 0)
		t.Logf("the agent's call ended: %q, %v", text, err)
	case "kill", "panic":
		et := evaltest.New(t, evaltest.WithJudge(&liveJudge{fake: judgefake.Pass()}))
		client := evaltest.HTTPClient(t).Client
		for i := range 1000 { // bounded, should the parent not kill it
			if i == childN && scenario == "panic" {
				done := make(chan struct{})
				go func() { panic("the agent's goroutine panicked") }()
				<-done
			}
			_, err := complete(client, srv.URL, i%childN) // the server answers childN requests
			require.NoError(t, err)
			et.Expect(answer(i)).Judge("Confirms the refund")
			fmt.Printf("obtained %d\n", i)
			if i >= childN-1 {
				time.Sleep(10 * time.Millisecond) // the parent kills around here
			}
		}
	default:
		t.Fatalf("DURABILITY_CHILD=%q", scenario)
	}
}

// deafJudge never answers and ignores its context, as a judge blocked in
// code of its own does, until release is closed.
type deafJudge struct{ release chan struct{} }

func (j *deafJudge) Judge(context.Context, evalkit.JudgeRequest) (evalkit.Verdict, error) {
	<-j.release
	return evalkit.Verdict{}, errors.New("released")
}

func (j *deafJudge) Identity() evalkit.Identity {
	return evalkit.Identity{Provider: "deaf", Model: "m"}
}

// answer is the transcript of the i-th refund.
func answer(i int) *evalkit.Transcript {
	return &evalkit.Transcript{Messages: []evalkit.Message{
		{Role: evalkit.RoleUser, Content: "Refund order #W123"},
		{Role: evalkit.RoleAssistant, Content: fmt.Sprintf("Refund %d of $42 issued.", i)},
	}}
}

// complete posts the i-th chat completion to an OpenAI-compatible server
// at base, as an agent does.
func complete(c *http.Client, base string, i int) (string, error) {
	body := fmt.Sprintf(`{"model": "gpt-4.1-mini", "messages": [{"role": "user", "content": "Refund order #W%d"}]}`, i)
	resp, err := c.Post(base+"/v1/chat/completions", "application/json", strings.NewReader(body))
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err == nil && resp.StatusCode != 200 {
		err = fmt.Errorf("HTTP %d: %s", resp.StatusCode, data)
	}
	return string(data), err
}

// child starts this test binary as a child go test running scenario in
// dir, with -timeout timeout.
func child(t *testing.T, dir, scenario string, timeout time.Duration) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestDurabilityChild$", "-test.count=1", "-test.v", "-test.timeout="+timeout.String())
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "DURABILITY_CHILD="+scenario, "EVALKIT_MODE=record", "EVALKIT_USAGE_DIR="+filepath.Join(dir, "usage"))
	return cmd
}

// exitCode is the child's exit status: 1 for a failed test, 2 for go
// test's timeout panic and other panics, -1 when killed by a signal.
func exitCode(err error) int {
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exit.ExitCode()
	}
	if err == nil {
		return 0
	}
	return -2
}

// tail is the child's output up to its first goroutine dump (a panic's),
// for a failure message.
func tail(out []byte) string {
	text, _, _ := strings.Cut(string(out), "\ngoroutine ")
	return text
}

// A judge that stalls under go test -timeout ends the test with evalkit's
// own message, naming the judge, the criteria, the URL and how long it
// waited, a margin before Go's timeout panic; the verdicts obtained before
// it in that test are in the recording.
func TestDeadlineStalledJudge(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a child go test of 4s")
	}
	dir := t.TempDir()
	start := time.Now()
	out, err := child(t, dir, "stall-judge", 4*time.Second).CombinedOutput()
	took := time.Since(start)
	text := tail(out)
	t.Logf("the child ran %v, exit %d", took.Round(time.Millisecond), exitCode(err))
	assert.Equal(t, 1, exitCode(err), "a failed test, not go test's timeout panic (2):\n%s", text)
	assert.NotContains(t, text, "panic: test timed out")
	for _, want := range []string{
		`Judge("Confirms the refund and states the a…", MinScore(0.50)): error:`,
		`judge openai gpt-4.1-mini, criteria "Confirms the refund and states the a…": no answer in`,
		"(waiting for POST http://127.0.0.1:",
		"/v1/chat/completions for ",
		"evalkit stopped waiting 1s before go test's -timeout 4s ends the test binary",
	} {
		assert.Contains(t, text, want)
	}
	assert.Contains(t, text, fmt.Sprintf("obtained %d", childN-1))
	f, err := golden.Load(filepath.Join(dir, "testdata/evalkit/TestDurabilityChild.judge.json"))
	require.NoError(t, err, "the recording was saved:\n%s", text)
	assert.Len(t, f.Entries, childN, "every verdict obtained before the stall")
	_, err = os.Stat(filepath.Join(dir, "testdata/evalkit/TestDurabilityChild.judge.json.journal"))
	assert.True(t, os.IsNotExist(err), "Save merged the journal and removed it")
}

// A judge that ignores its context, asked from parallel subtests and from
// Repeat attempts inside them, ends each wait at the test's deadline with
// evalkit's message: a failed test, never go test's timeout panic.
func TestDeadlineDeafJudgeNested(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a child go test of 3s")
	}
	dir := t.TempDir()
	out, err := child(t, dir, "stall-deaf", 3*time.Second).CombinedOutput()
	text := tail(out)
	assert.Equal(t, 1, exitCode(err), "a failed test, not go test's timeout panic (2):\n%s", text)
	assert.NotContains(t, text, "panic: test timed out")
	for _, want := range []string{
		`Judge("Confirms the refund"): error: llm_judge: the judge failed: judge deaf m, criteria "Confirms the refund": no answer in `, // about 2s
		`s: evalkit stopped waiting 1s before go test's -timeout 3s ends the test binary` + "\n        transcript: 2 messages",
		`attempt 2: Judge("States the amount"): error: llm_judge: the judge failed: the context ended before the judge was asked: context deadline exceeded: evalkit stopped waiting 1s before go test's -timeout 3s ends the test binary`,
	} {
		assert.Equal(t, 2, strings.Count(text, want), "in each subtest: %s\n%s", want, text)
	}
	assert.Contains(t, text, "subtest a ended")
	assert.Contains(t, text, "subtest b ended")
}

// A model call that stalls through HTTPClient under go test -timeout ends
// with evalkit's message naming the request; the exchanges obtained before
// it are in the recording.
func TestDeadlineStalledHTTP(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a child go test of 4s")
	}
	dir := t.TempDir()
	out, err := child(t, dir, "stall-http", 4*time.Second).CombinedOutput()
	text := tail(out)
	assert.Equal(t, 1, exitCode(err), "a failed test, not go test's timeout panic (2):\n%s", text)
	assert.NotContains(t, text, "panic: test timed out")
	assert.Regexp(t, `HTTPClient\(t\): error: POST http://127\.0\.0\.1:\d+/v1/chat/completions: no answer in [0-9.]+s: evalkit stopped waiting 1s before go test's -timeout 4s ends the test binary`, text)
	f, err := golden.LoadHTTP(filepath.Join(dir, "testdata/evalkit/TestDurabilityChild.http.json"))
	require.NoError(t, err, "the recording was saved:\n%s", text)
	assert.Len(t, f.Interactions, childN, "every exchange obtained before the stall")
}

// A response whose body starts and never ends — JSON, or an event stream
// — under go test -timeout ends with evalkit's message naming the request,
// not Go's panic.
func TestDeadlineStalledBody(t *testing.T) {
	if testing.Short() {
		t.Skip("runs two child go tests of 3s")
	}
	for _, scenario := range []string{"stall-body-json", "stall-body-stream"} {
		t.Run(scenario, func(t *testing.T) {
			out, err := child(t, t.TempDir(), scenario, 3*time.Second).CombinedOutput()
			text := tail(out)
			assert.Equal(t, 1, exitCode(err), "a failed test, not go test's timeout panic (2):\n%s", text)
			assert.NotContains(t, text, "panic: test timed out")
			assert.Regexp(t, `HTTPClient\(t\): error: .*POST http://127\.0\.0\.1:\d+/v1/chat/completions.*evalkit stopped waiting 1s before go test's -timeout 3s ends the test binary`, text)
		})
	}
}

// An external evaluator that stalls under go test -timeout ends with
// evalkit's message saying why it stopped.
func TestDeadlineStalledExternalEvaluator(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a child go test of 4s")
	}
	out, err := child(t, t.TempDir(), "stall-external", 4*time.Second).CombinedOutput()
	text := tail(out)
	assert.Equal(t, 1, exitCode(err), "a failed test, not go test's timeout panic (2):\n%s", text)
	assert.NotContains(t, text, "panic: test timed out")
	assert.Regexp(t, `Eval\("rest_eval", .*\): error: rest_eval: .*context deadline exceeded.*: evalkit stopped waiting 1s before go test's -timeout 4s ends the test binary`, text)
}

// A recording run killed with SIGKILL keeps every verdict and exchange it
// obtained: they are in the journal beside each recording, which the next
// run (here in replay mode) merges into the recording, and which then
// replays them all.
func TestDurabilityKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a child go test")
	}
	dir := t.TempDir()
	cmd := child(t, dir, "kill", time.Minute)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	sc := bufio.NewScanner(stdout)
	obtained := -1
	for obtained < childN-1 && sc.Scan() {
		if n, ok := strings.CutPrefix(sc.Text(), "obtained "); ok {
			obtained, err = strconv.Atoi(n)
			require.NoError(t, err)
		}
	}
	require.Equal(t, childN-1, obtained, "the child stopped early")
	require.NoError(t, cmd.Process.Signal(syscall.SIGKILL))
	go io.Copy(io.Discard, stdout)
	assert.Equal(t, -1, exitCode(cmd.Wait()), "killed")
	checkRecovered(t, dir, childN)
}

// A panic on a goroutine of the code under test ends the run before any
// cleanup, so before any Save: what it obtained is kept all the same.
func TestDurabilityPanic(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a child go test")
	}
	dir := t.TempDir()
	out, err := child(t, dir, "panic", time.Minute).CombinedOutput()
	require.Equal(t, 2, exitCode(err), "the panic ends the child:\n%s", tail(out))
	require.Contains(t, string(out), "the agent's goroutine panicked")
	checkRecovered(t, dir, childN)
}

// checkRecovered checks that at least n verdicts and n exchanges of the
// dead child in dir are recovered by the next run of its test, in replay
// mode, which merges the journals it left and replays them all.
func checkRecovered(t *testing.T, dir string, n int) {
	t.Helper()
	judgePath := filepath.Join(dir, "testdata/evalkit/TestDurabilityChild.judge.json")
	httpPath := filepath.Join(dir, "testdata/evalkit/TestDurabilityChild.http.json")
	for _, p := range []string{judgePath, httpPath} {
		_, err := os.Stat(p + ".journal")
		assert.NoError(t, err, "the dead run left a journal beside %s", filepath.Base(p))
	}
	t.Chdir(dir)
	t.Setenv("EVALKIT_MODE", "replay")
	t.Setenv("EVALKIT_USAGE_DIR", filepath.Join(dir, "usage"))
	live := &liveJudge{fake: judgefake.Err(errors.New("replay asked the live judge"))}
	tb := run("TestDurabilityChild", []evaltest.Option{evaltest.WithJudge(live)}, func(et *evaltest.T) {
		client := evaltest.HTTPClient(et.TB()).Client
		for i := range n {
			_, err := complete(client, "http://127.0.0.1:1", i) // replayed: never sent
			require.NoError(t, err, "exchange %d replays", i)
			et.Expect(answer(i)).Judge("Confirms the refund")
		}
	})
	assert.Empty(t, tb.errors, "every verdict obtained replays")
	assert.Zero(t, live.calls.Load())
	t.Logf("recovery notes: %q", tb.logs)
	for _, p := range []string{judgePath, httpPath} {
		require.NoError(t, golden.Verify(p), "merged, sorted, written as evalkit writes it, journal gone")
	}
}
