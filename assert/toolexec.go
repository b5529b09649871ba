package assert

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/evalkit-go/evalkit"
)

// ToolExecutor runs a tool by name with JSON arguments, as the
// application's own tool registry does (an MCP client, a sandbox, local
// functions): what tool_exec calls. Execute returns the tool's result, with
// IsError set when the tool reports a failure, or an error when the tool
// could not be run at all (unknown tool, transport down). It should return
// when ctx is done.
type ToolExecutor interface {
	Execute(ctx context.Context, tool string, args json.RawMessage) (evalkit.ToolResult, error)
}

// ToolExecutorFunc adapts a function to a ToolExecutor.
type ToolExecutorFunc func(ctx context.Context, tool string, args json.RawMessage) (evalkit.ToolResult, error)

// Execute calls f.
func (f ToolExecutorFunc) Execute(ctx context.Context, tool string, args json.RawMessage) (evalkit.ToolResult, error) {
	return f(ctx, tool, args)
}

// ErrNoToolExecutor is returned (wrapped) by tool_exec when it has no
// ToolExecutor to run the tool with.
var ErrNoToolExecutor = errors.New("no tool executor")

// DefaultToolTimeout bounds a tool_exec call without a timeout of its own,
// as PromptKit's default.
const DefaultToolTimeout = 120 * time.Second

// WithTools returns a registry whose tool_exec checks run tools through
// tools. Like WithJudge, it shares r's check types and keeps r's judge and
// embedder; a registry made from it by WithJudge keeps its tools. Without tools,
// building a tool_exec check is an error wrapping ErrNoToolExecutor.
func (r *Registry) WithTools(tools ToolExecutor) *Registry {
	d := r.derive()
	d.tools = tools
	return d
}

func (r *Registry) toolsOrNil() ToolExecutor {
	if r == nil {
		return nil
	}
	return r.tools
}

// ToolExec runs the tool Tool with Args through Tools and passes when the
// tool succeeds: Execute returns a result that is not an error
// (ToolResult.IsError). It reads nothing of the transcript: it is a gate on
// the state the agent left behind (do the sandbox's tests pass, does the
// order now exist), as PromptKit's tool_exec.
//
// It fails closed, with three outcomes: the tool reporting an error is a
// failure (score 0) showing the result; Execute returning an error, a
// panic in it, or no answer within Timeout (DefaultToolTimeout when 0) is
// an evaluation error, never a pass and never a failure charged to the
// agent; a timeout's error wraps context.DeadlineExceeded. An Execute that
// ignores ctx is not waited for past the timeout (its goroutine is left to
// finish).
//
// Errors (*ParamError unless said): no Tools (ErrNoToolExecutor), no Tool,
// Args JSON cannot hold, a negative Timeout.
//
// Registry type "tool_exec", params: tool, args, timeout_seconds (a
// number, default 120); the registry's tools come from
// Registry.WithTools. As PromptKit's tool_exec.
type ToolExec struct {
	Tools   ToolExecutor
	Tool    string
	Args    map[string]any
	Timeout time.Duration
}

func buildToolExec(p *params) (Check, error) {
	var c ToolExec
	var err error
	if c.Tool, _, err = p.str(true, "tool", "tool_name"); err != nil {
		return nil, err
	}
	if c.Args, _, err = argsObject(p, false, "args"); err != nil {
		return nil, err
	}
	secs, ok, err := p.num("timeout_seconds")
	if err != nil {
		return nil, err
	}
	if ok {
		if secs <= 0 || secs > math.MaxInt64/float64(time.Second) {
			return nil, p.err("timeout_seconds", "want a number of seconds > 0, got %v", secs)
		}
		c.Timeout = time.Duration(secs * float64(time.Second))
	}
	c.Tools = p.reg.toolsOrNil()
	if c.Tools == nil && p.declaring {
		c.Tools = notYetTools{} // Validate: the tools are wired later
	}
	return c, nil
}

// notYetTools stands in for the tools while Registry.Validate checks a
// tool_exec check's parameters; the check it is in is never run.
type notYetTools struct{}

func (notYetTools) Execute(context.Context, string, json.RawMessage) (evalkit.ToolResult, error) {
	return evalkit.ToolResult{}, fmt.Errorf("%w: the check was only validated", ErrNoToolExecutor)
}

func (c ToolExec) args() (json.RawMessage, error) {
	const check = "tool_exec"
	switch problem := toolNameProblem(c.Tool); {
	case c.Tool == "":
		return nil, paramErr(check, "tool", "required: want a tool name")
	case problem != "":
		return nil, paramErr(check, "tool", "%s", problem)
	}
	if c.Timeout < 0 {
		return nil, paramErr(check, "timeout_seconds", "want a timeout > 0, got %v", c.Timeout)
	}
	if c.Tools == nil {
		return nil, fmt.Errorf("%s: %w: set the check's Tools, or build the registry with assert.NewRegistry().WithTools(tools)", check, ErrNoToolExecutor)
	}
	if len(c.Args) == 0 {
		return json.RawMessage("{}"), nil
	}
	data, err := json.Marshal(c.Args)
	if err != nil {
		return nil, paramErr(check, "args", "not representable as JSON: %v", err)
	}
	return data, nil
}

func (c ToolExec) validate() error {
	_, err := c.args()
	return err
}

func (c ToolExec) timeout() time.Duration {
	if c.Timeout == 0 {
		return DefaultToolTimeout
	}
	return c.Timeout
}

// Check implements Check. The transcript is not read.
func (c ToolExec) Check(ctx context.Context, _ *evalkit.Transcript) (Result, error) {
	const check = "tool_exec"
	args, err := c.args()
	if err != nil {
		return Result{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, c.timeout())
	defer cancel()
	type answer struct {
		res evalkit.ToolResult
		err error
	}
	done := make(chan answer, 1) // the goroutine never blocks, even when not waited for
	go func() {
		var a answer
		defer func() {
			if r := recover(); r != nil {
				a = answer{err: fmt.Errorf("the tool executor panicked: %v", r)}
			}
			done <- a
		}()
		a.res, a.err = c.Tools.Execute(ctx, c.Tool, args)
	}()
	var a answer
	select {
	case a = <-done:
	case <-ctx.Done():
		return Result{}, fmt.Errorf("%s: %s did not answer within %v: %w", check, quoteName(c.Tool), c.timeout(), ctx.Err())
	}
	switch {
	case a.err != nil && ctx.Err() != nil:
		return Result{}, fmt.Errorf("%s: %s did not answer within %v: %w", check, quoteName(c.Tool), c.timeout(), errors.Join(ctx.Err(), a.err))
	case a.err != nil:
		return Result{}, fmt.Errorf("%s: running %s: %w", check, quoteName(c.Tool), a.err)
	case a.res.IsError:
		return fail(0, fmt.Sprintf("%s reported an error: %s", shortName(c.Tool), excerpt(a.res.Content))), nil
	}
	summary := shortName(c.Tool) + " succeeded"
	if a.res.Content != "" {
		summary += ": " + excerpt(a.res.Content)
	}
	return pass(1, summary), nil
}

// Describe implements Describer.
func (c ToolExec) Describe() string {
	args := ""
	if len(c.Args) > 0 {
		args = " with " + jsonValue(c.Args, 80)
	}
	return describeLine(fmt.Sprintf("running %s%s succeeds within %v", quoteName(c.Tool), args, c.timeout()))
}
