package assert_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	testify "github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
)

// evalServer is a loopback evaluator answering each request with the
// next reply (status, body), recording what it was sent.
type evalServer struct {
	*httptest.Server
	mu      sync.Mutex
	replies []reply
	bodies  []map[string]any
	headers []http.Header
	methods []string
}

type reply struct {
	status int
	body   string
}

func newEvalServer(t *testing.T, replies ...reply) *evalServer {
	t.Helper()
	s := &evalServer{replies: replies}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, _ := io.ReadAll(r.Body)
		var body map[string]any
		_ = json.Unmarshal(data, &body)
		s.mu.Lock()
		s.bodies, s.headers, s.methods = append(s.bodies, body), append(s.headers, r.Header.Clone()), append(s.methods, r.Method)
		rep := reply{500, `{"error": "no reply scripted"}`}
		if len(s.replies) > 0 {
			rep, s.replies = s.replies[0], s.replies[1:]
		}
		s.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(rep.status)
		_, _ = io.WriteString(w, rep.body)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *evalServer) body(i int) map[string]any {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.bodies[i]
}

func TestRESTEval(t *testing.T) {
	ctx := context.Background()
	srv := newEvalServer(t, reply{200, `{"passed": true, "score": 0.9, "reasoning": "States the amount."}`})
	t.Setenv("EVAL_TOKEN", "tok-secret-123456")
	c := assert.RESTEval{URL: srv.URL + "/eval", Headers: map[string]string{"Authorization": "Bearer ${EVAL_TOKEN}", "X-Team": "billing"},
		Criteria: "Confirms the refund", Extra: map[string]any{"suite": "refunds"}, IncludeToolCalls: true, AllowEnv: []string{"EVAL_TOKEN"}}
	res, err := c.Check(ctx, refundRun())
	require.NoError(t, err)
	testify.True(t, res.Passed)
	testify.Equal(t, 0.9, res.Score)
	testify.Equal(t, "rest_eval: the evaluator passed the output (score 0.9)", res.Summary)
	testify.Equal(t, []assert.Detail{{"reasoning", "States the amount."}, {"evaluator", srv.URL + "/eval"}}, res.Details)

	body := srv.body(0)
	testify.Equal(t, "Your refund of $42 is on its way.", body["current_output"])
	testify.Equal(t, "turn", body["scope"])
	testify.Equal(t, "Confirms the refund", body["criteria"])
	testify.Equal(t, map[string]any{"suite": "refunds"}, body["extra"])
	testify.Len(t, body["messages"], 7, "up to and including the answer, not the user's thanks after it")
	calls := body["tool_calls"].([]any)
	require.Len(t, calls, 2)
	testify.Equal(t, map[string]any{"name": "issue_refund", "args": map[string]any{"order_id": "#W123", "amount": 42.0}, "result": `{"status": "refunded"}`}, calls[1])
	testify.Equal(t, "Bearer tok-secret-123456", srv.headers[0].Get("Authorization"), "expanded from an allowed variable")
	testify.Equal(t, "billing", srv.headers[0].Get("X-Team"))
	testify.Equal(t, "application/json", srv.headers[0].Get("Content-Type"))

	// Session scope, no messages.
	srv = newEvalServer(t, reply{200, `{"passed": false, "reasoning": "Too curt."}`})
	res, err = assert.RESTEval{URL: srv.URL, Scope: assert.Session, OmitMessages: true}.Check(ctx, refundRun())
	require.NoError(t, err)
	testify.False(t, res.Passed)
	testify.Equal(t, 0.0, res.Score)
	testify.Equal(t, "rest_eval: the evaluator failed the output", res.Summary)
	testify.Equal(t, "session", srv.body(0)["scope"])
	testify.NotContains(t, srv.body(0), "messages")
	testify.NotContains(t, srv.body(0), "tool_calls")
}

// Every failure of the evaluator is an error, never a verdict; no error
// holds a credential.
func TestRESTEvalErrors(t *testing.T) {
	ctx := context.Background()
	t.Setenv("EVAL_TOKEN", "tok-secret-123456")
	tests := []struct {
		name  string
		reply reply
		want  string
	}{
		{"status", reply{400, `{"error": {"message": "bad token tok-secret-123456"}}`}, "HTTP 400 Bad Request: bad token [redacted:token]"},
		{"not json", reply{200, `Looks good!`}, `rest_eval: the external evaluator failed: the answer is not a JSON object: "Looks good!"`},
		{"two values", reply{200, `{"passed": true} {"passed": false}`}, "rest_eval: the external evaluator failed: the answer has more than one JSON value"},
		{"no verdict", reply{200, `{"reasoning": "hmm"}`}, `rest_eval: the external evaluator failed: the answer has neither passed nor score (its fields: "reasoning")`},
		{"score range", reply{200, `{"passed": true, "score": 7}`}, `rest_eval: the external evaluator failed: score is "7", want a number in [0,1]`},
		{"passed twice", reply{200, `{"passed": false, "reasoning": "No amount.", "passed": true}`}, `rest_eval: the external evaluator failed: the answer gives "passed" twice`},
		{"passed twice after a huge number", reply{200, `{"x": 1e400, "passed": false, "passed": true}`}, `rest_eval: the external evaluator failed: the answer gives "passed" twice`},
		{"passed in capitals", reply{200, `{"Passed": false, "score": 0.9}`}, `rest_eval: the external evaluator failed: the answer gives "Passed": want passed, in lower case`},
		{"passed type", reply{200, `{"passed": "yes"}`}, "rest_eval: the external evaluator failed: passed is a string, want true or false"},
		{"score only", reply{200, `{"score": 0.4}`}, "rest_eval: no threshold: the evaluator gave a score (0.4) but no passed: give min_score (or wrap the check in an assertion) to grade the score"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newEvalServer(t, tt.reply)
			c := assert.RESTEval{URL: srv.URL, Headers: map[string]string{"Authorization": "Bearer ${EVAL_TOKEN}"}, AllowEnv: []string{"EVAL_TOKEN"}}
			res, err := c.Check(ctx, refundRun())
			require.Error(t, err)
			testify.Equal(t, assert.Result{}, res)
			testify.Contains(t, err.Error(), tt.want)
			testify.NotContains(t, err.Error(), "tok-secret-123456")
		})
	}

	srv := newEvalServer(t)
	_, err := assert.RESTEval{URL: srv.URL, Headers: map[string]string{"Authorization": "Bearer ${HOME}"}}.Check(ctx, refundRun())
	testify.EqualError(t, err, `rest_eval: param "headers": ${HOME} is not an allowed environment variable: allow it in Go with Registry.WithEnv("HOME") (AllowEnv on the check)`)
	_, err = assert.RESTEval{URL: srv.URL, Headers: map[string]string{"X": "${EVALKIT_UNSET_VAR}"}, AllowEnv: []string{"EVALKIT_UNSET_VAR"}}.Check(ctx, refundRun())
	testify.EqualError(t, err, `rest_eval: param "headers": ${EVALKIT_UNSET_VAR} is not set in the environment`)
	_, err = assert.RESTEval{URL: srv.URL, Headers: map[string]string{"X": "${EVAL_TOKEN"}, AllowEnv: []string{"EVAL_TOKEN"}}.Check(ctx, refundRun())
	testify.EqualError(t, err, `rest_eval: param "headers": a "${" that starts no ${NAME} reference`)
	_, err = assert.RESTEval{URL: "ftp://example.test/eval"}.Check(ctx, refundRun())
	testify.EqualError(t, err, `rest_eval: param "url": want an http:// or https:// URL with a host, got ftp://example.test/eval`)
	srv.Close()
	_, err = assert.RESTEval{URL: srv.URL, Timeout: time.Second}.Check(ctx, refundRun())
	testify.ErrorIs(t, err, assert.ErrEvaluator, "a server that is gone: %v", err)
	testify.Len(t, srv.bodies, 0)
	_, err = assert.RESTEval{URL: srv.URL}.Check(ctx, &evalkit.Transcript{})
	testify.ErrorIs(t, err, assert.ErrNoOutput)
}

func TestRESTEvalRegistry(t *testing.T) {
	ctx := context.Background()
	t.Setenv("EVAL_TOKEN", "tok-secret-123456")
	srv := newEvalServer(t, reply{200, `{"score": 0.4}`}, reply{200, `{"passed": true}`}, reply{200, `{"passed": true}`}, reply{200, `{"passed": false}`})
	reg := assert.NewRegistry().WithEnv("EVAL_TOKEN").WithHTTPClient(srv.Client())

	// PromptKit's min_score: the check becomes an assertion on the score.
	res, err := reg.Eval(ctx, "rest_eval", refundRun(), map[string]any{"url": srv.URL, "min_score": 0.5, "headers": map[string]any{"X-Key": "${EVAL_TOKEN}"}, "timeout": "5s"})
	require.NoError(t, err)
	testify.False(t, res.Passed)
	testify.Equal(t, "score 0.40, want >= 0.50", res.Summary)
	testify.Equal(t, "tok-secret-123456", srv.headers[0].Get("X-Key"))

	// With a threshold, an answer without a score is an error.
	_, err = reg.Eval(ctx, "rest_eval", refundRun(), map[string]any{"url": srv.URL, "min_score": 0.5})
	testify.EqualError(t, err, "rest_eval: the external evaluator failed: the evaluator gave no score, and the threshold needs one")

	res, err = reg.Eval(ctx, "rest_eval_session", refundRun(), map[string]any{"url": srv.URL, "include_messages": false, "method": "post"})
	require.NoError(t, err)
	testify.True(t, res.Passed)
	testify.Equal(t, "session", srv.body(2)["scope"])

	// PromptKit's method: another than POST sends the same JSON body.
	res, err = reg.Eval(ctx, "rest_eval", refundRun(), map[string]any{"url": srv.URL, "method": "put"})
	require.NoError(t, err)
	testify.False(t, res.Passed)
	testify.Equal(t, []string{"POST", "POST", "POST", "PUT"}, srv.methods)
	testify.Equal(t, "turn", srv.body(3)["scope"])
	err = assert.NewRegistry().Validate("rest_eval", map[string]any{"url": srv.URL, "method": "DELETE"})
	testify.EqualError(t, err, `rest_eval: param "method": want POST, PUT, PATCH or GET (the request is sent as a JSON body), got "DELETE"`)

	// The allow-list is the Go code's: a registry without it refuses.
	_, err = assert.NewRegistry().Eval(ctx, "rest_eval", refundRun(), map[string]any{"url": srv.URL, "headers": map[string]any{"X-Key": "${EVAL_TOKEN}"}})
	testify.ErrorContains(t, err, "${EVAL_TOKEN} is not an allowed environment variable")
	err = assert.Validate("rest_eval", map[string]any{"url": srv.URL, "timeout": "soon"})
	testify.EqualError(t, err, `rest_eval: param "timeout": want a positive duration such as "30s", got "soon"`)
}

// a2aAgent is a loopback A2A agent answering message/send with result.
func a2aAgent(t *testing.T, result func(id any, req map[string]any) string) (*httptest.Server, *[]map[string]any) {
	t.Helper()
	var mu sync.Mutex
	var got []map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req map[string]any
		require.NoError(t, json.NewDecoder(r.Body).Decode(&req))
		req["authorization"] = r.Header.Get("Authorization")
		mu.Lock()
		got = append(got, req)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, result(req["id"], req))
	}))
	t.Cleanup(srv.Close)
	return srv, &got
}

func rpcResult(id any, result string) string {
	idJSON, _ := json.Marshal(id)
	return `{"jsonrpc": "2.0", "id": ` + string(idJSON) + `, "result": ` + result + `}`
}

func TestA2AEval(t *testing.T) {
	ctx := context.Background()
	t.Setenv("A2A_TOKEN", "a2a-secret-7890")
	srv, got := a2aAgent(t, func(id any, _ map[string]any) string {
		return rpcResult(id, `{"kind": "message", "role": "agent", "messageId": "m1", "parts": [{"kind": "data", "data": {"passed": true, "score": 0.8, "reasoning": "Polite and exact."}}]}`)
	})
	c := assert.A2AEval{AgentURL: srv.URL, AuthToken: "${A2A_TOKEN}", AllowEnv: []string{"A2A_TOKEN"}, Criteria: "Polite"}
	res, err := c.Check(ctx, refundRun())
	require.NoError(t, err)
	testify.True(t, res.Passed)
	testify.Equal(t, 0.8, res.Score)
	testify.Equal(t, "a2a_eval: the evaluator passed the output (score 0.8)", res.Summary)
	testify.Equal(t, assert.Detail{"evaluator", "A2A agent " + srv.URL}, res.Details[1])

	req := (*got)[0]
	testify.Equal(t, "2.0", req["jsonrpc"])
	testify.Equal(t, "message/send", req["method"])
	testify.Equal(t, "Bearer a2a-secret-7890", req["authorization"])
	msg := req["params"].(map[string]any)["message"].(map[string]any)
	testify.Equal(t, "user", msg["role"])
	testify.Equal(t, req["id"], msg["messageId"], "the ids are a hash of the request")
	parts := msg["parts"].([]any)
	require.Len(t, parts, 2)
	testify.Contains(t, parts[0].(map[string]any)["text"], `Reply with one JSON object and nothing else: {"passed"`)
	data := parts[1].(map[string]any)["data"].(map[string]any)
	testify.Equal(t, "Your refund of $42 is on its way.", data["current_output"])
	testify.Equal(t, "Polite", data["criteria"])

	// The same request is the same bytes: an HTTP recording replays it.
	_, err = c.Check(ctx, refundRun())
	require.NoError(t, err)
	testify.Equal(t, (*got)[0]["id"], (*got)[1]["id"])
}

func TestA2AEvalReplies(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name   string
		result func(id any) string
		passed bool
		err    string
	}{
		{"task artifact text", func(id any) string {
			return rpcResult(id, `{"kind": "task", "id": "t1", "status": {"state": "completed"}, "artifacts": [{"parts": [{"kind": "text", "text": "Verdict:\n`+"```json"+`\n{\"passed\": false, \"score\": 0.3, \"reasoning\": \"No amount.\"}\n`+"```"+`"}]}]}`)
		}, false, ""},
		{"status message, 1.0 parts", func(id any) string {
			return rpcResult(id, `{"kind": "task", "id": "t1", "status": {"state": "completed", "message": {"role": "agent", "parts": [{"text": "{\"passed\": true}"}]}}}`)
		}, true, ""},
		{"task failed", func(id any) string {
			return rpcResult(id, `{"kind": "task", "id": "t1", "status": {"state": "failed", "message": {"role": "agent", "parts": [{"kind": "text", "text": "model overloaded"}]}}}`)
		}, false, `a2a_eval: the external evaluator failed: the agent's task did not complete (state "failed": model overloaded)`},
		{"input required", func(id any) string {
			return rpcResult(id, `{"kind": "task", "id": "t1", "status": {"state": "input-required"}}`)
		}, false, `the agent's task did not complete (state "input-required")`},
		{"rpc error", func(id any) string {
			idJSON, _ := json.Marshal(id)
			return `{"jsonrpc": "2.0", "id": ` + string(idJSON) + `, "error": {"code": -32601, "message": "Method not found"}}`
		}, false, "a2a_eval: the external evaluator failed: JSON-RPC error -32601: Method not found"},
		{"no verdict", func(id any) string {
			return rpcResult(id, `{"kind": "message", "role": "agent", "parts": [{"kind": "text", "text": "It looks fine to me."}]}`)
		}, false, `a2a_eval: the external evaluator failed: the agent's reply holds no verdict (a data part or a JSON object with passed or score); it said "It looks fine to me."`},
		{"not json-rpc", func(any) string { return `{"passed": true}` }, false, "a2a_eval: the external evaluator failed: the reply is not a JSON-RPC 2.0 response"},
		{"wrong id", func(any) string {
			return rpcResult("other", `{"kind": "message", "parts": [{"kind": "data", "data": {"passed": true}}]}`)
		}, false, `a2a_eval: the external evaluator failed: the reply's id "other" is not the request's`},
		{"state twice", func(id any) string {
			return rpcResult(id, `{"kind": "task", "id": "t1", "status": {"state": "failed", "state": "completed"}, "artifacts": [{"parts": [{"kind": "data", "data": {"passed": true}}]}]}`)
		}, false, `a2a_eval: the external evaluator failed: the reply gives "result.status.state" twice`},
		{"passed twice in a data part", func(id any) string {
			return rpcResult(id, `{"kind": "message", "parts": [{"kind": "data", "data": {"passed": false, "passed": true}}]}`)
		}, false, `a2a_eval: the external evaluator failed: the reply gives "result.parts[0].data.passed" twice`},
		{"result twice, in another case", func(id any) string {
			idJSON, _ := json.Marshal(id)
			return `{"jsonrpc": "2.0", "id": ` + string(idJSON) + `, "result": {"kind": "message", "parts": [{"kind": "data", "data": {"passed": false}}]}, "Result": {"kind": "message", "parts": [{"kind": "data", "data": {"passed": true}}]}}`
		}, false, `a2a_eval: the external evaluator failed: the reply gives "Result" twice`},
		{"status twice, one with a long s", func(id any) string {
			return rpcResult(id, `{"kind": "task", "status": {"state": "failed"}, "\u017ftatus": {"state": "completed"}, "artifacts": [{"parts": [{"kind": "data", "data": {"passed": true}}]}]}`)
		}, false, `a2a_eval: the external evaluator failed: the reply gives "result.ſtatus" twice`},
		{"an error, and ERROR null", func(id any) string {
			idJSON, _ := json.Marshal(id)
			return `{"jsonrpc": "2.0", "id": ` + string(idJSON) + `, "error": {"code": 1, "message": "no"}, "ERROR": null, "result": {"kind": "message", "parts": [{"kind": "data", "data": {"passed": true}}]}}`
		}, false, `a2a_eval: the external evaluator failed: the reply gives "ERROR" twice`},
		{"passed twice after a huge number", func(id any) string {
			return rpcResult(id, `{"kind": "message", "z": 1e400, "parts": [{"kind": "data", "data": {"passed": false, "passed": true}}]}`)
		}, false, `a2a_eval: the external evaluator failed: the reply gives "result.parts[0].data.passed" twice`},
		{"passed twice in text", func(id any) string {
			return rpcResult(id, `{"kind": "message", "parts": [{"kind": "text", "text": "{\"passed\": false, \"passed\": true}"}]}`)
		}, false, `a2a_eval: the external evaluator failed: the agent's verdict in its text gives "passed" twice`},
		{"bad score", func(id any) string {
			return rpcResult(id, `{"kind": "message", "parts": [{"kind": "data", "data": {"passed": true, "score": -1}}]}`)
		}, false, `a2a_eval: the external evaluator failed: score is "-1", want a number in [0,1]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, _ := a2aAgent(t, func(id any, _ map[string]any) string { return tt.result(id) })
			res, err := assert.A2AEval{AgentURL: srv.URL}.Check(ctx, refundRun())
			if tt.err != "" {
				require.Error(t, err)
				testify.Contains(t, err.Error(), tt.err)
				testify.ErrorIs(t, err, assert.ErrEvaluator)
				return
			}
			require.NoError(t, err)
			testify.Equal(t, tt.passed, res.Passed)
		})
	}
}

// execScript is the fake evaluator in testdata, run through sh-less exec.
func execScript(t *testing.T) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("the fake evaluator is a POSIX sh script")
	}
	path, err := filepath.Abs(filepath.Join("testdata", "exec_eval.sh"))
	require.NoError(t, err)
	return path
}

func TestExecEval(t *testing.T) {
	ctx := context.Background()
	script := execScript(t)
	copyTo := filepath.Join(t.TempDir(), "request.json")
	res, err := assert.ExecEval{Command: script, Args: []string{"pass", copyTo}, Criteria: "States the amount"}.Check(ctx, refundRun())
	require.NoError(t, err)
	testify.True(t, res.Passed)
	testify.Equal(t, 0.9, res.Score)
	testify.Equal(t, []assert.Detail{{"reasoning", "states the amount"}, {"evaluator", `command "` + script + `"`}}, res.Details)
	data, err := os.ReadFile(copyTo)
	require.NoError(t, err)
	var req assert.EvalRequest
	require.NoError(t, json.Unmarshal(data, &req))
	testify.Equal(t, "Your refund of $42 is on its way.", req.CurrentOutput)
	testify.Equal(t, "States the amount", req.Criteria)
	testify.Equal(t, "turn", req.Scope)

	res, err = assert.ExecEval{Command: script, Args: []string{"fail"}}.Check(ctx, refundRun())
	require.NoError(t, err)
	testify.False(t, res.Passed)
	testify.Equal(t, "exec_eval: the evaluator failed the output (score 0.2)", res.Summary)

	// The environment is small; ${NAME} reads only allowed variables.
	t.Setenv("EVALKIT_TEST_UNLISTED", "leak")
	t.Setenv("EVAL_TOKEN", "exec-secret-1234")
	res, err = assert.ExecEval{Command: script, Args: []string{"env"}, Env: []string{"EVAL_TOKEN=${EVAL_TOKEN}"}, AllowEnv: []string{"EVAL_TOKEN"}}.Check(ctx, refundRun())
	require.NoError(t, err)
	testify.True(t, res.Passed, res.Details)
	testify.Equal(t, "token exec-secret-1234", res.Details[0].Text)
}

func TestExecEvalErrors(t *testing.T) {
	ctx := context.Background()
	script := execScript(t)
	tests := []struct {
		args    []string
		timeout time.Duration
		want    string
	}{
		{[]string{"garbage"}, 0, `exec_eval: the external evaluator failed: the answer is not a JSON object: "Looks fine to me!" (from command "` + script + `")`},
		{[]string{"noverdict"}, 0, `exec_eval: the external evaluator failed: the answer has neither passed nor score (its fields: "reasoning") (from command "` + script + `")`},
		{[]string{"exit"}, 0, `exec_eval: the external evaluator failed: command "` + script + `" exited with status 3; stderr: "cannot reach the grading service"`},
		{[]string{"hang"}, 100 * time.Millisecond, `exec_eval: the external evaluator failed: command "` + script + `" did not finish within 100ms and was killed`},
		{[]string{"score"}, 0, "exec_eval: no threshold: the evaluator gave a score (0.4) but no passed: give min_score (or wrap the check in an assertion) to grade the score"},
	}
	for _, tt := range tests {
		t.Run(tt.args[0], func(t *testing.T) {
			res, err := assert.ExecEval{Command: script, Args: tt.args, Timeout: tt.timeout}.Check(ctx, refundRun())
			require.Error(t, err)
			testify.Equal(t, assert.Result{}, res)
			testify.Equal(t, tt.want, err.Error())
		})
	}
	_, err := assert.ExecEval{Command: filepath.Join(t.TempDir(), "missing")}.Check(ctx, refundRun())
	testify.ErrorIs(t, err, assert.ErrEvaluator)
	testify.ErrorContains(t, err, "could not run")
	_, err = assert.ExecEval{Command: script, Env: []string{"NOEQUALS"}}.Check(ctx, refundRun())
	testify.EqualError(t, err, `exec_eval: param "env": entry 0 is "NOEQUALS": want NAME=value`)
	_, err = assert.ExecEval{Command: script, Env: []string{"T=${EVAL_TOKEN}"}}.Check(ctx, refundRun())
	testify.ErrorContains(t, err, "${EVAL_TOKEN} is not an allowed environment variable")
}

// A type name bound to a command in Go, as PromptKit's exec bindings: the
// case file names the type, never the command.
func TestRegisterExec(t *testing.T) {
	ctx := context.Background()
	script := execScript(t)
	reg := assert.NewRegistry()
	require.NoError(t, reg.RegisterExec("refund_grader", assert.ExecEval{Command: script, Args: []string{"score"}}))
	res, err := reg.Eval(ctx, "refund_grader", refundRun(), map[string]any{"min_score": 0.3, "criteria": "x"})
	require.NoError(t, err)
	testify.True(t, res.Passed)
	testify.Equal(t, "score 0.40, want >= 0.30", res.Summary)
	err = reg.Validate("refund_grader", map[string]any{"command": "rm"})
	testify.ErrorContains(t, err, `refund_grader: param "command": unknown parameter`)
	testify.Error(t, reg.RegisterExec("refund_grader", assert.ExecEval{Command: script}))
	testify.Error(t, reg.RegisterExec("contains", assert.ExecEval{Command: script}))

	res, err = reg.Eval(ctx, "exec_eval", refundRun(), map[string]any{"command": script, "args": []any{"pass"}, "timeout": 10})
	require.NoError(t, err)
	testify.True(t, res.Passed)
	testify.True(t, strings.HasPrefix(res.Summary, "exec_eval: the evaluator passed"))

	// PromptKit's timeout_ms is milliseconds: 1 ms kills any program.
	_, err = reg.Eval(ctx, "exec_eval", refundRun(), map[string]any{"command": script, "args": []any{"pass"}, "timeout_ms": 1})
	testify.ErrorContains(t, err, "did not finish within 1ms and was killed")
	err = reg.Validate("exec_eval", map[string]any{"command": script, "timeout_ms": 5000, "timeout": "5s"})
	testify.ErrorContains(t, err, "give only one of timeout, timeout_ms")
}
