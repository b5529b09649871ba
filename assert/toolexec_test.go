package assert_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	testify "github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
)

// sandbox is a fake tool registry: run_tests passes or fails by the
// "suite" argument, anything else is unknown.
type sandbox struct {
	calls []string
}

func (s *sandbox) Execute(_ context.Context, tool string, args json.RawMessage) (evalkit.ToolResult, error) {
	s.calls = append(s.calls, tool+" "+string(args))
	if tool != "run_tests" {
		return evalkit.ToolResult{}, errors.New("unknown tool " + tool)
	}
	var a struct{ Suite string }
	if err := json.Unmarshal(args, &a); err != nil {
		return evalkit.ToolResult{}, err
	}
	if a.Suite == "broken" {
		return evalkit.ToolResult{Name: tool, Content: "FAIL: 2 of 10 tests", IsError: true}, nil
	}
	return evalkit.ToolResult{Name: tool, Content: "ok: 10 tests"}, nil
}

func TestToolExec(t *testing.T) {
	ctx := context.Background()
	box := &sandbox{}
	reg := assert.NewRegistry().WithTools(box)
	tests := []struct {
		name    string
		params  map[string]any
		want    outcome
		summary string
	}{
		{"passes", map[string]any{"tool": "run_tests", "args": map[string]any{"suite": "unit"}, "timeout_seconds": 30}, PASS, `run_tests succeeded: "ok: 10 tests"`},
		{"the tool reports an error", map[string]any{"tool": "run_tests", "args": `{"suite": "broken"}`}, FAIL, `run_tests reported an error: "FAIL: 2 of 10 tests"`},
		{"the tool cannot run", map[string]any{"tool": "deploy"}, ERROR, `tool_exec: running "deploy": unknown tool deploy`},
		{"no tool", map[string]any{}, ERROR, `tool_exec: param "tool": required: want a string`},
		{"bad timeout", map[string]any{"tool": "run_tests", "timeout_seconds": 0}, ERROR, `tool_exec: param "timeout_seconds": want a number of seconds > 0, got 0`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := reg.Eval(ctx, "tool_exec", nil, tt.params)
			require.Equal(t, tt.want, outcomeOf(res, err), "%+v %v", res, err)
			if err != nil {
				testify.Equal(t, tt.summary, err.Error())
			} else {
				testify.Equal(t, tt.summary, res.Summary)
			}
		})
	}
	testify.Equal(t, []string{`run_tests {"suite":"unit"}`, `run_tests {"suite":"broken"}`, "deploy {}"}, box.calls)

	// Without tools it is an error, never a pass; Validate needs none.
	_, err := assert.Eval(ctx, "tool_exec", nil, map[string]any{"tool": "run_tests"})
	testify.ErrorIs(t, err, assert.ErrNoToolExecutor)
	require.NoError(t, assert.Validate("tool_exec", map[string]any{"tool": "run_tests"}))

	// A judge added later keeps the tools, and tools added later keep the judge.
	judge := evalkit.JudgeFunc(func(context.Context, evalkit.JudgeRequest) (evalkit.Verdict, error) {
		return evalkit.Verdict{}, errors.New("x")
	})
	res, err := reg.WithJudge(judge).Eval(ctx, "tool_exec", nil, map[string]any{"tool": "run_tests", "args": map[string]any{"suite": "unit"}})
	require.NoError(t, err)
	testify.True(t, res.Passed)
	_, err = assert.NewRegistry().WithJudge(judge).WithTools(box).Build("llm_judge", map[string]any{"criteria": "polite"})
	require.NoError(t, err)
}

// A tool that does not answer in time is an evaluation error, whether or
// not it honours its context. No clock is waited on: the contexts are
// already past their deadline.
func TestToolExecTimeout(t *testing.T) {
	expired, cancel := context.WithDeadline(context.Background(), time.Unix(0, 0))
	defer cancel()

	honours := assert.ToolExecutorFunc(func(ctx context.Context, _ string, _ json.RawMessage) (evalkit.ToolResult, error) {
		<-ctx.Done()
		return evalkit.ToolResult{}, ctx.Err()
	})
	_, err := assert.ToolExec{Tools: honours, Tool: "run_tests", Timeout: time.Minute}.Check(expired, nil)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	testify.Contains(t, err.Error(), `tool_exec: "run_tests" did not answer within 1m0s`)

	release := make(chan struct{})
	defer close(release)
	ignores := assert.ToolExecutorFunc(func(context.Context, string, json.RawMessage) (evalkit.ToolResult, error) {
		<-release
		return evalkit.ToolResult{Content: "too late"}, nil
	})
	_, err = assert.ToolExec{Tools: ignores, Tool: "run_tests"}.Check(expired, nil)
	require.ErrorIs(t, err, context.DeadlineExceeded)
	testify.Equal(t, `tool_exec: "run_tests" did not answer within 2m0s: context deadline exceeded`, err.Error())

	panics := assert.ToolExecutorFunc(func(context.Context, string, json.RawMessage) (evalkit.ToolResult, error) { panic("boom") })
	_, err = assert.ToolExec{Tools: panics, Tool: "run_tests"}.Check(context.Background(), nil)
	testify.EqualError(t, err, `tool_exec: running "run_tests": the tool executor panicked: boom`)

	_, err = assert.ToolExec{Tools: panics, Tool: "run_tests", Timeout: -time.Second}.Check(context.Background(), nil)
	assertParamErr(t, err, "timeout_seconds", "want a timeout > 0")
	_, err = assert.ToolExec{Tools: panics, Tool: "run_tests", Args: map[string]any{"c": make(chan int)}}.Check(context.Background(), nil)
	assertParamErr(t, err, "args", "not representable as JSON")
}
