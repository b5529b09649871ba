package assert

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/internal/judgehttp"
	"github.com/evalkit-go/evalkit/internal/textnorm"
)

// ExecEval asks a program to evaluate the output, as PromptKit's exec
// evals: it runs Command with Args — directly, never through a shell, so
// nothing in them is expanded or split — writes the EvalRequest as JSON on
// its standard input, and reads its answer, {"passed", "score",
// "reasoning"}, from its standard output (one JSON object, at most
// 1 MiB). Passing and scoring are RESTEval's.
//
// The program's environment is small on purpose: PATH, HOME, TMPDIR
// (TEMP, TMP, SYSTEMROOT and USERPROFILE on Windows) as the test has them,
// and Env's "NAME=value" entries, whose values may hold ${NAME} references
// to variables named in AllowEnv. A command with no path separator is
// looked up in PATH; a relative path is relative to the test's directory.
// On Windows a script needs its interpreter as the Command ("sh",
// "python"), or an .exe.
//
// Errors, never verdicts: a bad parameter, no assistant output, and
// wrapping ErrEvaluator a program that cannot start, runs longer than
// Timeout (default 30 s; it is killed), exits with a non-zero status (its
// status and the end of its standard error are in the error), writes
// more than 1 MiB, or writes anything but one JSON object with passed or
// score.
//
// Registry type "exec_eval", params: command (required), args (a list),
// env (a list of "NAME=value"), timeout, criteria, include_messages
// (default true), include_tool_calls, extra, min_score (as RESTEval's),
// scope. A case file that names a command runs it: treat case files as
// code. Registry.RegisterExec binds a type name to a command instead, as
// PromptKit's runtime exec bindings do.
type ExecEval struct {
	// Protocol is the program's protocol: "" for evalkit's (above), or
	// "promptkit" for PromptKit's exec evals: the program reads {"type",
	// "params", "content", "context": {"messages", "turn_index",
	// "tool_calls", "variables", "metadata"}} and writes {"score",
	// "detail", "data"}, score required in [0,1], which a threshold
	// grades (min_score, an Assertion; without one the check is an error
	// wrapping ErrNoThreshold). Type and Params are what it is sent.
	Protocol         string
	Type             string
	Params           map[string]any
	Command          string
	Args             []string
	Env              []string
	Timeout          time.Duration
	Criteria         string
	Extra            map[string]any
	OmitMessages     bool
	IncludeToolCalls bool
	Scope            Scope
	AllowEnv         []string
}

func (c ExecEval) ext() external {
	return external{check: "exec_eval", criteria: c.Criteria, extra: c.Extra, omitMessages: c.OmitMessages, includeToolCalls: c.IncludeToolCalls, scope: c.Scope}
}

func (c ExecEval) validate() error {
	if err := c.ext().validate(); err != nil {
		return err
	}
	if strings.TrimSpace(c.Command) == "" {
		return paramErr("exec_eval", "command", "required: the program to run")
	}
	for i, e := range c.Env {
		if k, _, ok := strings.Cut(e, "="); !ok || strings.TrimSpace(k) == "" {
			return paramErr("exec_eval", "env", "entry %d is %q: want NAME=value", i, e)
		}
	}
	if c.Timeout < 0 {
		return paramErr("exec_eval", "timeout", "want a positive duration, got %v", c.Timeout)
	}
	if c.Protocol != "" && c.Protocol != "promptkit" {
		return paramErr("exec_eval", "protocol", "want \"\" (evalkit's) or \"promptkit\", got %q", c.Protocol)
	}
	return nil
}

// Check implements Check.
func (c ExecEval) Check(ctx context.Context, tr *evalkit.Transcript) (Result, error) {
	r, who, err := c.run(ctx, tr)
	if err != nil {
		return Result{}, err
	}
	return evalResult("exec_eval", r, who)
}

func (c ExecEval) measure(ctx context.Context, tr *evalkit.Transcript) (Result, bool, error) {
	r, who, err := c.run(ctx, tr)
	if err != nil {
		return Result{}, false, err
	}
	return measureResult("exec_eval", r, who)
}

func (c ExecEval) emitScore(ctx context.Context, tr *evalkit.Transcript) (Result, error) {
	r, who, err := c.run(ctx, tr)
	if err != nil {
		return Result{}, err
	}
	return evalScore("exec_eval", r, who)
}

// execKeepEnv are the variables a program inherits.
var execKeepEnv = []string{"PATH", "HOME", "TMPDIR", "TEMP", "TMP", "SYSTEMROOT", "USERPROFILE"}

// maxStderr bounds the standard error an error quotes, in bytes.
const maxStderr = 2048

func (c ExecEval) run(ctx context.Context, tr *evalkit.Transcript) (EvalResponse, string, error) {
	const check = "exec_eval"
	if err := c.validate(); err != nil {
		return EvalResponse{}, "", err
	}
	req, err := c.ext().request(tr)
	if err != nil {
		return EvalResponse{}, "", err
	}
	var body any = req
	if c.Protocol == "promptkit" {
		body = promptKitExecRequest(c, req, tr)
	}
	input, err := json.Marshal(body)
	if err != nil {
		return EvalResponse{}, "", fmt.Errorf("%s: encoding the request: %w", check, err)
	}
	var env, secrets []string
	for _, k := range execKeepEnv {
		if v, ok := os.LookupEnv(k); ok {
			env = append(env, k+"="+v)
		}
	}
	for _, e := range c.Env {
		k, v, _ := strings.Cut(e, "=")
		val, err := expandEnv(check, "env", v, c.AllowEnv, &secrets)
		if err != nil {
			return EvalResponse{}, "", err
		}
		env = append(env, k+"="+val)
	}
	timeout := c.Timeout
	if timeout == 0 {
		timeout = 30 * time.Second
	}
	who := "command " + textnorm.Quote(c.Command, 120)
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.Command, c.Args...)
	cmd.Env = env
	cmd.Stdin = bytes.NewReader(input)
	stdout := &cappedBuffer{max: maxEvalBody}
	stderr := &cappedBuffer{max: maxStderr, keepTail: true}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.WaitDelay = time.Second // a child still holding the pipes after a kill
	err = cmd.Run()
	fail := func(format string, args ...any) (EvalResponse, string, error) {
		msg := fmt.Sprintf(format, args...)
		if s := strings.TrimSpace(stderr.String()); s != "" {
			msg += "; stderr: " + textnorm.Quote(s, maxStderr)
		}
		return EvalResponse{}, who, fmt.Errorf("%s: %w: %s", check, ErrEvaluator, judgehttp.Redact(msg, secrets))
	}
	var exitErr *exec.ExitError
	switch {
	case ctx.Err() == context.DeadlineExceeded:
		return fail("%s did not finish within %v and was killed", who, timeout)
	case ctx.Err() != nil:
		return EvalResponse{}, who, fmt.Errorf("%s: %s: %w", check, who, ctx.Err())
	case errors.As(err, &exitErr):
		return fail("%s exited with status %d", who, exitErr.ExitCode())
	case err != nil:
		return fail("%s could not run: %s", who, textnorm.Excerpt(err.Error(), 300)) // exec's error quotes the command whole
	case stdout.over:
		return fail("%s wrote more than %d bytes", who, maxEvalBody)
	}
	read := readEvalResponse
	if c.Protocol == "promptkit" {
		read = readPromptKitExec
	}
	r, err := read(check, bytes.TrimSpace(stdout.Bytes()))
	if err != nil {
		return EvalResponse{}, who, judgehttp.RedactError(fmt.Errorf("%w (from %s)", err, who), secrets)
	}
	return r, who, nil
}

// cappedBuffer keeps at most max bytes of what is written to it: the first
// ones, or with keepTail the last; over reports that more came.
type cappedBuffer struct {
	bytes.Buffer
	max      int
	keepTail bool
	over     bool
}

func (b *cappedBuffer) Write(p []byte) (int, error) {
	n := len(p)
	if b.keepTail {
		b.Buffer.Write(p)
		if extra := b.Len() - b.max; extra > 0 {
			b.over = true
			b.Next(extra)
		}
		return n, nil
	}
	if room := b.max - b.Len(); len(p) > room {
		b.over = true
		p = p[:max(room, 0)]
	}
	b.Buffer.Write(p)
	return n, nil
}

// promptKitExecRequest is PromptKit's exec eval request for req.
func promptKitExecRequest(c ExecEval, req EvalRequest, tr *evalkit.Transcript) map[string]any {
	type view struct {
		Name   string
		Args   map[string]any
		Result string
		Error  string
		Index  int
	}
	msgs := make([]map[string]string, len(req.Messages))
	for i, m := range req.Messages {
		msgs[i] = map[string]string{"role": m.Role, "content": m.Content}
	}
	var calls []view
	for i, call := range tr.ToolCalls() {
		v := view{Name: call.Name, Index: i}
		_ = json.Unmarshal(call.Args, &v.Args)
		if call.Result != nil {
			v.Result = call.Result.Content
			if call.Result.IsError {
				v.Error = call.Result.Content
			}
		}
		calls = append(calls, v)
	}
	turns := 0
	for _, m := range req.Messages {
		if m.Role == string(evalkit.RoleUser) {
			turns++
		}
	}
	ctx := map[string]any{"messages": msgs, "turn_index": max(turns-1, 0)}
	if len(calls) > 0 {
		ctx["tool_calls"] = calls
	}
	if len(tr.Metadata) > 0 {
		ctx["metadata"] = tr.Metadata
	}
	return map[string]any{"type": c.Type, "params": c.Params, "content": req.CurrentOutput, "context": ctx}
}

// readPromptKitExec reads PromptKit's exec answer: {"score", "detail",
// "data"}, score required. It gives no passed: the score is graded by a
// threshold (min_score, an assertion), as PromptKit's wrappers grade it.
func readPromptKitExec(check string, body []byte) (EvalResponse, error) {
	var fields map[string]any
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(&fields); err != nil || fields == nil || dec.More() {
		return EvalResponse{}, fmt.Errorf("%s: %w: the answer is not one JSON object: %s", check, ErrEvaluator, textnorm.Quote(string(body), 120))
	}
	v, ok := fields["score"]
	f, isNum := toFloat(v)
	if !ok || !isNum || f < 0 || f > 1 || f != f {
		return EvalResponse{}, fmt.Errorf("%s: %w: the answer's score is %s, want a number in [0,1]", check, ErrEvaluator, kindOf(v))
	}
	r := EvalResponse{Score: &f}
	if d, ok := fields["detail"].(string); ok {
		r.Reasoning = d
	}
	return r, nil
}
