package evaltest_test

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit/evaltest"
	"github.com/evalkit-go/evalkit/golden"
	"github.com/evalkit-go/evalkit/judgefake"
)

const agentBody = `{"model": "gpt-4o", "messages": [{"role": "system", "content": "You are an airline agent."}, {"role": "user", "content": "Cancel Z7GOZK."}]}`

// post sends one chat completion through client; it returns the body or
// the error.
func post(client *http.Client, body string) (string, error) {
	resp, err := client.Post("http://judgefake.invalid/v1/chat/completions", "application/json", strings.NewReader(body))
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	return string(data), err
}

// runTB runs body against a testTB named name and finishes it.
func runTB(name string, body func(tb testing.TB)) *testTB {
	tb := &testTB{name: name}
	done := make(chan struct{})
	go func() {
		defer close(done)
		body(tb)
	}()
	<-done
	tb.finish()
	return tb
}

var recordedAt = regexp.MustCompile(`\(recorded [0-9T:Z-]+\)`)

// HTTPClient records in record mode (EVALKIT_MODE) into the top-level
// test's file, and replays with no live API: the host it names does not
// even resolve.
func TestHTTPClientRecordsThenReplays(t *testing.T) {
	isolate(t)
	t.Setenv("EVALKIT_MODE", "record")
	live := judgefake.NewTransport(judgefake.Text("Cancelled."))
	tb := runTB("TestAgent/case_1", func(tb testing.TB) {
		client := &http.Client{Transport: evaltest.HTTPTransport(tb, live)}
		body, err := post(client, agentBody)
		assert.NoError(t, err)
		assert.Contains(t, body, "Cancelled.")
	})
	assert.Empty(t, tb.errors)
	f, err := golden.LoadHTTP("testdata/evalkit/TestAgent.http.json")
	require.NoError(t, err)
	assert.Len(t, f.Interactions, 1)

	t.Setenv("EVALKIT_MODE", "")
	tb = runTB("TestAgent/case_1", func(tb testing.TB) {
		body, err := post(evaltest.HTTPClient(tb).Client, agentBody)
		assert.NoError(t, err)
		assert.Contains(t, body, "Cancelled.")
	})
	assert.Empty(t, tb.errors)

	// A sibling sending the same request has no answer of its own.
	tb = runTB("TestAgent/case_2", func(tb testing.TB) {
		body, err := post(evaltest.HTTPClient(tb).Client, agentBody)
		assert.NoError(t, err)
		assert.Contains(t, body, `"code":"evalkit_not_recorded"`)
	})
	require.Len(t, tb.errors, 1)
	assert.Contains(t, tb.errors[0], `differs: test: now "TestAgent/case_2", recorded "TestAgent/case_1"`)
}

// A replay miss is a 404 response the SDKs do not retry, whose error
// message ends with the record command, and it fails the test when it
// ends even if the code under test swallowed it; a bad mode fails at once.
func TestHTTPClientMissMessages(t *testing.T) {
	isolate(t)
	t.Setenv("EVALKIT_MODE", "record")
	tb := runTB("TestAgent", func(tb testing.TB) {
		client := &http.Client{Transport: evaltest.HTTPTransport(tb, judgefake.NewTransport(judgefake.Text("Cancelled.")))}
		_, err := post(client, agentBody)
		assert.NoError(t, err)
	})
	require.Empty(t, tb.errors)
	t.Setenv("EVALKIT_MODE", "")

	changed := strings.Replace(agentBody, "You are an airline agent.", "You are a terse airline agent.", 1)
	var answer string
	var status int
	tb = runTB("TestAgent", func(tb testing.TB) {
		rec := evaltest.HTTPClient(tb)
		resp, err := rec.Post("http://judgefake.invalid/v1/chat/completions", "application/json", strings.NewReader(changed)) // swallowed by the agent
		require.NoError(t, err)
		data, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		resp.Body.Close()
		answer, status = string(data), resp.StatusCode
		assert.Equal(t, "false", resp.Header.Get("X-Should-Retry"))
		_, _ = post(rec.Client, strings.Replace(changed, "Cancel", "Please cancel", 1))
	})
	assert.Equal(t, 404, status)
	var body struct {
		Error struct{ Message, Code string } `json:"error"`
	}
	require.NoError(t, json.Unmarshal([]byte(answer), &body))
	assert.Equal(t, "evalkit_not_recorded", body.Error.Code)
	assert.Regexp(t, `^golden: not recorded: testdata/evalkit/TestAgent.http.json has no response for this POST /v1/chat/completions \(key sha256:[0-9a-f]{12}\); nearest recorded request sha256:[0-9a-f]{12} differs in body.messages\[0\].content: now "You are a terse airline agent.", recorded "You are an airline agent."
hint: EVALKIT_MODE=record go test -run '\^TestAgent\$'   # record the missing model calls against the live API$`, body.Error.Message)
	require.Len(t, tb.errors, 1)
	assert.Equal(t, `HTTPClient(t): error: golden: not recorded: testdata/evalkit/TestAgent.http.json has no response for this POST /v1/chat/completions (key sha256:…)
nearest: sha256:… (recorded …)
differs: body.messages[0].content: now "You are a terse airline agent.", recorded "You are an airline agent."
… and 1 more request not recorded
hint: EVALKIT_MODE=record go test -run '^TestAgent$'   # record the missing model calls against the live API`,
		recordedAt.ReplaceAllString(shortKeys.ReplaceAllString(tb.errors[0], "sha256:…"), "(recorded …)"))

	t.Setenv("EVALKIT_MODE", "update")
	tb = runTB("TestAgent", func(tb testing.TB) {
		evaltest.HTTPClient(tb)
		t.Error("HTTPClient went on after a bad mode")
	})
	assert.Equal(t, []string{`HTTPClient(t): error: EVALKIT_MODE: golden: unknown mode "update": want replay, record, refresh or live`}, tb.errors)
}

// End to end, through a real go test: one EVALKIT_MODE=record records the
// agent's model calls and the judge's verdicts together, from parallel
// same-named subtests, losing nothing under -race; recording again
// (-count=3, twice) asks nothing and writes the same bytes; a plain go
// test replays both with nothing live.
func TestHTTPClientEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a test binary")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH")
	}
	dir := t.TempDir()
	goTest := func(env []string, args ...string) (string, error) {
		cmd := exec.Command(goBin, append([]string{"test", "./testdata/httpprobe"}, args...)...)
		cmd.Env = append(os.Environ(), append([]string{"EVALKIT_MODE=", "PROBE_DIR=" + dir, "EVALKIT_USAGE_DIR=" + dir + "/usage"}, env...)...)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, err := goTest([]string{"EVALKIT_MODE=record"}, "-count=3", "-race")
	require.NoError(t, err, out)
	httpPath, judgePath := dir+"/testdata/evalkit/TestAgent.http.json", dir+"/testdata/evalkit/TestAgent.judge.json"
	f, err := golden.LoadHTTP(httpPath)
	require.NoError(t, err)
	assert.Len(t, f.Interactions, 12, "6 same-named parallel subtests × 2 identical requests, each subtest its own")
	j, err := golden.Load(judgePath)
	require.NoError(t, err)
	assert.Len(t, j.Entries, 3, "and the judge's verdicts, by the same switch")
	first, err := os.ReadFile(httpPath)
	require.NoError(t, err)

	out, err = goTest([]string{"EVALKIT_MODE=record", "PROBE_NO_LIVE=1"}, "-count=3")
	require.NoError(t, err, "recording again asks nothing: %s", out)
	second, err := os.ReadFile(httpPath)
	require.NoError(t, err)
	assert.Equal(t, string(first), string(second), "byte-identical")

	out, err = goTest([]string{"PROBE_NO_LIVE=1"}, "-count=1")
	require.NoError(t, err, "replay asks nothing live: %s", out)
	assert.NoError(t, golden.Verify(httpPath))
}
