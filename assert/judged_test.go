package assert_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	testify "github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
	"github.com/evalkit-go/evalkit/judgefake"
)

// refundRun: the user asks for a refund, the agent looks the order up,
// refunds it and answers.
func refundRun() *evalkit.Transcript {
	return &evalkit.Transcript{Messages: []evalkit.Message{
		{Role: evalkit.RoleSystem, Content: "You are a refund agent."},
		{Role: evalkit.RoleUser, Content: "I want a refund for order #W123"},
		{Role: evalkit.RoleAssistant, ToolCalls: []evalkit.ToolCall{{ID: "1", Name: "get_order_details", Args: json.RawMessage(`{"order_id":"#W123"}`)}}},
		{Role: evalkit.RoleTool, ToolCallID: "1", Content: `{"total": 42}`},
		{Role: evalkit.RoleAssistant, ToolCalls: []evalkit.ToolCall{{ID: "2", Name: "issue_refund", Args: json.RawMessage(`{"order_id":"#W123","amount":42}`)}}},
		{Role: evalkit.RoleTool, ToolCallID: "2", Content: `{"status": "refunded"}`},
		{Role: evalkit.RoleAssistant, Content: "Your refund of $42 is on its way."},
		{Role: evalkit.RoleUser, Content: "Thanks!"},
	}}
}

// fixed is a judge that answers every request with v, as a real judge
// might: possibly breaking the contract judgefake.Fixed enforces.
func fixed(v evalkit.Verdict) evalkit.Judge {
	return evalkit.JudgeFunc(func(context.Context, evalkit.JudgeRequest) (evalkit.Verdict, error) { return v, nil })
}

func TestJudgedRequests(t *testing.T) {
	ctx := context.Background()
	spy := judgefake.Spy(judgefake.Fixed(evalkit.Verdict{Score: 1, Scored: true, Passed: &yes, Fields: map[string]any{"score": 10.0}}))
	base := assert.LLMJudge{Judge: spy, Criteria: "Confirms the refund", Rubric: "10: states the amount", Reference: "Refunded $42.",
		Context: []string{"Refunds over $100 need approval."}, Model: "gpt-4.1", SystemPrompt: "Be strict.",
		VerdictSchema: map[string]any{"type": "object", "required": []any{"score"}}}

	_, err := base.Check(ctx, refundRun())
	require.NoError(t, err)
	session := base
	session.Scope = assert.Session
	_, err = session.Check(ctx, refundRun())
	require.NoError(t, err)
	calls := assert.LLMJudgeToolCalls{Judge: spy, Criteria: "Refunds the right order", Tools: []string{"issue_refund"}, Scale: evalkit.Scale{Min: 1, Max: 5}}
	_, err = calls.Check(ctx, refundRun())
	require.NoError(t, err)

	reqs := spy.Requests()
	require.Len(t, reqs, 3)
	testify.Equal(t, evalkit.JudgeRequest{
		Criteria: "Confirms the refund", Rubric: "10: states the amount", Reference: "Refunded $42.",
		Context: []string{"Refunds over $100 need approval."}, Model: "gpt-4.1", SystemPrompt: "Be strict.",
		Input: "I want a refund for order #W123", Content: "Your refund of $42 is on its way.", Kind: evalkit.ContentAnswer,
		Scale: evalkit.DefaultScale, VerdictSchema: json.RawMessage(`{"required":["score"],"type":"object"}`),
	}, reqs[0], "the answer, with the user message before it; a canonical scale and schema; no threshold")

	testify.Equal(t, evalkit.ContentTranscript, reqs[1].Kind)
	testify.Equal(t, evalkit.RenderTranscript(refundRun(), evalkit.RenderOptions{}), reqs[1].Content)
	testify.Empty(t, reqs[1].Input)

	testify.Equal(t, evalkit.ContentToolCalls, reqs[2].Kind)
	testify.Equal(t, "tool call 2: issue_refund({\"order_id\":\"#W123\",\"amount\":42})\n  result: {\"status\": \"refunded\"}", reqs[2].Content)
	testify.Equal(t, "I want a refund for order #W123", reqs[2].Input)
	testify.Equal(t, evalkit.Scale{Min: 1, Max: 5}, reqs[2].Scale)
}

func TestJudgedToolCallsTurnScope(t *testing.T) {
	spy := judgefake.Spy(judgefake.Pass())
	tr := refundRun()
	tr.Messages = append(tr.Messages,
		evalkit.Message{Role: evalkit.RoleAssistant, ToolCalls: []evalkit.ToolCall{{Name: "close_ticket"}}},
		evalkit.Message{Role: evalkit.RoleTool, Content: "closed"},
		evalkit.Message{Role: evalkit.RoleAssistant, Content: "Bye!"})
	_, err := assert.LLMJudgeToolCalls{Judge: spy, Criteria: "Closes the ticket", Scope: assert.Turn}.Check(context.Background(), tr)
	require.NoError(t, err)
	testify.Equal(t, "tool call 1: close_ticket()\n  result: closed", spy.Requests()[0].Content)
	testify.Equal(t, "Thanks!", spy.Requests()[0].Input)
}

func TestJudgedOutcomes(t *testing.T) {
	ctx := context.Background()
	judgeErr := errors.New("openaijudge: 503 Service Unavailable after 3 attempts")
	tests := []struct {
		name  string
		check assert.Check
		want  outcome
		// summary is the exact Summary, or the exact error text.
		summary string
		details []assert.Detail
		is      error
	}{
		{name: "the judge's own pass", check: assert.LLMJudge{Judge: judgefake.Pass(), Criteria: "x"}, want: PASS, summary: "judge's pass/fail: pass"},
		{name: "the judge's own fail", check: assert.LLMJudge{Judge: judgefake.Fail("the reply never states the amount"), Criteria: "x"}, want: FAIL,
			summary: "judge's pass/fail: fail, want pass", details: []assert.Detail{{Label: "reasoning", Text: "the reply never states the amount"}}},
		{name: "no threshold and no pass/fail: never a silent 1.0", check: assert.LLMJudge{Judge: fixed(evalkit.Verdict{Score: 1, Scored: true}), Criteria: "x"}, want: ERROR,
			summary: `llm_judge: the judge's verdict cannot be graded: the verdict has no pass/fail: asked for the label pass or fail, the judge gave no label and no "passed" field: it gives only a score, 1.00`},
		{name: "the judge's pass as a label", check: assert.LLMJudge{Judge: fixed(evalkit.Verdict{Score: 1, Scored: true, Label: "pass"}), Criteria: "x"}, want: PASS, summary: "judge's pass/fail: pass"},
		{name: "the judge's fail as a label", check: assert.LLMJudge{Judge: fixed(evalkit.Verdict{Score: 0.9, Scored: true, Label: "fail"}), Criteria: "x"}, want: FAIL, summary: "judge's pass/fail: fail, want pass"},
		{name: "an off-menu pass/fail label", check: assert.LLMJudge{Judge: fixed(evalkit.Verdict{Score: 0.9, Scored: true, Label: "maybe"}), Criteria: "x"}, want: ERROR,
			summary: `llm_judge: the judge's verdict cannot be graded: asked to label the content pass or fail, the judge gave the label "maybe"`},
		{name: "passing labels need the menu", check: assert.LLMJudge{Judge: judgefake.Pass(), Criteria: "x", Passing: assert.Passing{Labels: []string{"yes"}}}, want: ERROR,
			summary: `llm_judge: param "offered_labels": the judge must be told every label it may give, not only the passing ones: add OfferedLabels in Go (offered_labels), or a verdict schema`},
		{name: "labels decide, not the judge's pass", check: assert.LLMJudge{Criteria: "x", Passing: assert.Passing{Labels: []string{"C"}, Offered: []string{"C", "I"}},
			Judge: fixed(evalkit.Verdict{Label: "I", Passed: &yes, Reasoning: "wrong total", Model: "gpt-4.1-mini"})}, want: FAIL,
			summary: `label "I", want "C"`, details: []assert.Detail{{Label: "reasoning", Text: "wrong total"}, {Label: "judge", Text: "gpt-4.1-mini"}}},
		{name: "a judge error is an error, with its message", check: assert.LLMJudge{Judge: judgefake.Err(judgeErr), Criteria: "x"}, want: ERROR,
			summary: "llm_judge: the judge failed: openaijudge: 503 Service Unavailable after 3 attempts", is: judgeErr},
		{name: "a score outside [0,1]", check: assert.LLMJudge{Judge: fixed(evalkit.Verdict{Score: 8, Scored: true, Passed: &yes}), Criteria: "x"}, want: ERROR,
			summary: "llm_judge: the judge's verdict cannot be graded: score 8 is outside [0,1] (the judge must normalize it)", is: assert.ErrBadVerdict},
		{name: "no judge", check: assert.LLMJudge{Criteria: "x"}, want: ERROR, is: assert.ErrNoJudge,
			summary: "llm_judge: no judge: set the check's Judge, build the registry with assert.NewRegistry().WithJudge(j), or in a test give evaltest.New the option evaltest.WithJudge(j)"},
		{name: "no criteria", check: assert.LLMJudge{Judge: judgefake.Pass(), Criteria: " "}, want: ERROR,
			summary: `llm_judge: param "criteria": required: say what the judge should look for`},
		{name: "a threshold on the judged check", check: assert.LLMJudge{Judge: judgefake.Pass(), Criteria: "x", Passing: assert.Passing{MinScore: ptr(0.8)}}, want: ERROR,
			summary: `llm_judge: param "min_score": a judged check holds no threshold: wrap it in an Assertion (type: assertion with min_score/max_score; assert.MinScore in Go)`},
		{name: "a bad scale", check: assert.LLMJudge{Judge: judgefake.Pass(), Criteria: "x", Scale: evalkit.Scale{Min: 5, Max: 1}}, want: ERROR,
			summary: `llm_judge: param "scale": scale [5, 1]: min must be below max`},
		{name: "threshold met", check: assert.Assertion{Eval: assert.LLMJudge{Judge: fixed(evalkit.Verdict{Score: 0.85, Scored: true, Reasoning: "states $42"}), Criteria: "x"}, MinScore: ptr(0.8)},
			want: PASS, summary: "score 0.85, want >= 0.80"},
		{name: "threshold missed, by a hair", check: assert.Assertion{Eval: assert.LLMJudge{Judge: fixed(evalkit.Verdict{Score: 0.795, Scored: true}), Criteria: "x"}, MinScore: ptr(0.8)},
			want: FAIL, summary: "score 0.795, want >= 0.80"},
		{name: "C04c: a contradictory bool does not override the threshold", check: assert.Assertion{Eval: assert.LLMJudge{Judge: fixed(evalkit.Verdict{Score: 0, Scored: true, Passed: &yes}), Criteria: "x"}, MinScore: ptr(0.5)},
			want: FAIL, summary: "score 0.00, want >= 0.50"},
		{name: "C04d: no score under a threshold", check: assert.Assertion{Eval: assert.LLMJudge{Judge: fixed(evalkit.Verdict{Passed: &no, Reasoning: "n/a"}), Criteria: "x"}, MinScore: ptr(0.5)},
			want: ERROR, summary: "llm_judge: the judge's verdict cannot be graded: the verdict has no score, and the threshold needs one", is: assert.ErrBadVerdict},
		{name: "a threshold and labels both", check: assert.Assertion{Eval: assert.LLMJudge{Judge: judgefake.Pass(), Criteria: "x", Passing: assert.Passing{Labels: []string{"C"}}}, MinScore: ptr(0.5)},
			want: ERROR, summary: `assertion: param "eval_params": llm_judge has a passing criterion of its own, and the threshold grades the verdict too: give one of them`},
		{name: "an assertion on a plain check grades its score", check: assert.Assertion{Eval: assert.Contains{Patterns: []string{"refund", "sorry"}}, MinScore: ptr(0.5)},
			want: PASS, summary: "score 0.50, want >= 0.50", details: []assert.Detail{{Label: "check", Text: `missing "sorry"`}, {Label: "output", Text: `"Your refund of $42 is on its way."`}}},
		{name: "max score", check: assert.Assertion{Eval: assert.LLMJudge{Judge: judgefake.Pass(), Criteria: "toxic"}, MaxScore: ptr(0.2)},
			want: FAIL, summary: "score 1.00, want <= 0.20"},
		{name: "an assertion without a threshold wants 1, as PromptKit's", check: assert.Assertion{Eval: assert.LLMJudge{Judge: judgefake.Pass(), Criteria: "x"}}, want: PASS,
			summary: "score 1.00, want >= 1.00"},
		{name: "an assertion without a threshold fails below 1", check: assert.Assertion{Eval: assert.LLMJudge{Judge: fixed(evalkit.Verdict{Score: 0.9, Scored: true}), Criteria: "x"}}, want: FAIL,
			summary: "score 0.90, want >= 1.00"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := tt.check.Check(ctx, refundRun())
			require.Equal(t, tt.want, outcomeOf(res, err), "result %+v, error %v", res, err)
			if err != nil {
				testify.EqualError(t, err, tt.summary)
			} else {
				testify.Equal(t, tt.summary, res.Summary)
			}
			if tt.details != nil {
				testify.Equal(t, tt.details, res.Details)
			}
			if tt.is != nil {
				testify.ErrorIs(t, err, tt.is)
			}
		})
	}
}

// C07 (a, b) through a judged check: a verdict that breaks the verdict
// schema (an off-menu grade) is the judge's error.
func TestJudgedC07VerdictSchema(t *testing.T) {
	schema := map[string]any{"type": "object", "required": []any{"grade"}, "properties": map[string]any{"grade": map[string]any{"enum": []any{"C", "I"}}}}
	check := func(grade string) assert.LLMJudge {
		return assert.LLMJudge{Criteria: "Matches the reference", VerdictSchema: schema,
			Passing: assert.Passing{Labels: []string{"C"}, Field: "grade"},
			Judge:   parsing(fmt.Sprintf(`{"grade": %q}`, grade))}
	}
	for _, tt := range []struct {
		grade string
		want  outcome
		err   string
	}{
		{"CI", ERROR, `llm_judge: the judge's verdict cannot be graded: the verdict breaks the verdict schema: at /grade: value must be one of 'C', 'I'`},
		{"P", ERROR, `llm_judge: the judge's verdict cannot be graded: the verdict breaks the verdict schema: at /grade: value must be one of 'C', 'I'`},
		{"I", FAIL, ""},
		{"C", PASS, ""},
	} {
		t.Run(tt.grade, func(t *testing.T) {
			res, err := check(tt.grade).Check(context.Background(), refundRun())
			require.Equal(t, tt.want, outcomeOf(res, err), "error %v", err)
			if tt.err != "" {
				testify.EqualError(t, err, tt.err)
				testify.ErrorIs(t, err, assert.ErrBadVerdict)
			}
		})
	}
	t.Run("not a JSON verdict", func(t *testing.T) {
		c := check("C")
		c.Judge = fixed(evalkit.Verdict{Label: "C", Raw: "[[C]]"})
		_, err := c.Check(context.Background(), refundRun())
		testify.EqualError(t, err, "llm_judge: the judge's verdict cannot be graded: the judge did not answer with a JSON object, and the verdict schema asks for one")
	})
	t.Run("an invalid verdict schema", func(t *testing.T) {
		c := check("C")
		c.VerdictSchema = map[string]any{"type": "objekt"}
		_, err := c.Check(context.Background(), refundRun())
		var pe *assert.ParamError
		require.True(t, errors.As(err, &pe), "%v", err)
		testify.Equal(t, "verdict_schema", pe.Param)
	})
}

// C07 (c): a judge that cannot read its model's answer returns an error,
// and the check is an error, distinct from a failing verdict.
func TestJudgedC07UnreadableIsAnError(t *testing.T) {
	unreadable := errors.New(`cannot read a verdict in "I am unable to assess this response."`)
	res, err := assert.LLMJudge{Judge: judgefake.Err(unreadable), Criteria: "x", Passing: assert.Passing{Labels: []string{"C"}, Offered: []string{"C", "I"}}}.Check(context.Background(), refundRun())
	testify.Equal(t, ERROR, outcomeOf(res, err))
	testify.ErrorIs(t, err, unreadable)
	testify.False(t, res.Passed)

	// Read as a judge reads its model's answer.
	res, err = assert.LLMJudge{Judge: parsing("I am unable to assess this response."), Criteria: "x", Passing: assert.Passing{Labels: []string{"C"}, Offered: []string{"C", "I"}}}.Check(context.Background(), refundRun())
	testify.Equal(t, ERROR, outcomeOf(res, err))
	testify.ErrorContains(t, err, "llm_judge: the judge failed: evalkit: unreadable judge verdict")
}

// parsing is a judge whose model always answers reply, read by
// evalkit.ParseVerdict as the real judges read their models' answers.
func parsing(reply string) evalkit.Judge {
	return evalkit.JudgeFunc(func(_ context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
		return evalkit.ParseVerdict(reply, req.Scale)
	})
}

func TestJudgedNoOutput(t *testing.T) {
	ctx := context.Background()
	noAnswer := &evalkit.Transcript{Messages: []evalkit.Message{{Role: evalkit.RoleUser, Content: "hi"}}}
	for _, c := range []assert.Check{
		assert.LLMJudge{Judge: judgefake.Pass(), Criteria: "x"},
		assert.LLMJudge{Judge: judgefake.Pass(), Criteria: "x", Scope: assert.Session},
		assert.LLMJudgeToolCalls{Judge: judgefake.Pass(), Criteria: "x"},
	} {
		_, err := c.Check(ctx, noAnswer)
		testify.ErrorIs(t, err, assert.ErrNoOutput)
	}
	// A last assistant message that only called tools is no answer.
	tr := refundRun()
	tr.Messages = tr.Messages[:5]
	_, err := assert.LLMJudge{Judge: judgefake.Pass(), Criteria: "x"}.Check(ctx, tr)
	testify.EqualError(t, err, "llm_judge: no assistant output: messages[4] has no text; it called issue_refund (judge the tool calls with llm_judge_tool_calls)")
}

func TestJudgedResultDetails(t *testing.T) {
	v := evalkit.Verdict{Score: 0.55, Scored: true, Label: "B", Reasoning: "The reply\n\nnever states   the amount.",
		Criteria: []evalkit.CriterionScore{{Name: "accuracy", Score: 0.5}, {Name: "tone", Score: 0.9}}}
	res, err := assert.Assertion{Eval: assert.LLMJudge{Judge: identified{fixed(v)}, Criteria: "x"}, MinScore: ptr(0.8)}.Check(context.Background(), refundRun())
	require.NoError(t, err)
	testify.Equal(t, assert.Result{Score: 0.55, Summary: "score 0.55, want >= 0.80", Want: ">= 0.80", Details: []assert.Detail{
		{Label: "reasoning", Text: "The reply never states the amount."},
		{Label: "label", Text: `"B"`},
		{Label: "criteria", Text: "accuracy 0.50, tone 0.90"},
		{Label: "judge", Text: "gpt-4.1-mini"},
	}}, res)
}

// identified is a judge with an identity, as real judges have.
type identified struct{ j evalkit.Judge }

func (i identified) Judge(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
	return i.j.Judge(ctx, req)
}

func (identified) Identity() evalkit.Identity {
	return evalkit.Identity{Provider: "openai", Model: "gpt-4.1-mini"}
}

func TestJudgedRegistry(t *testing.T) {
	ctx := context.Background()
	// Each criterion reads its own field: the score passes, the label is
	// "Good" (not a pass/fail word, which Passed would contradict), and
	// the judge's own pass/fail is fail.
	spy := judgefake.Spy(judgefake.Fixed(evalkit.Verdict{Score: 0.9, Scored: true, Label: "Good", Passed: &no}))
	reg := assert.NewRegistry().WithJudge(spy)
	run := func(checkType string, params map[string]any) (assert.Result, error) {
		return reg.Eval(ctx, checkType, refundRun(), params)
	}

	res, err := run("assertion", map[string]any{"eval_type": "llm_judge", "eval_params": map[string]any{"criteria": "Confirms the refund"}, "min_score": 0.8})
	require.NoError(t, err)
	testify.True(t, res.Passed, "the threshold decides, not the judge's own fail")
	testify.Equal(t, "score 0.90, want >= 0.80", res.Summary)

	res, err = run("llm_judge", map[string]any{"criteria": "x", "passing_labels": []any{"good"}, "offered_labels": []any{"good", "bad"}})
	require.NoError(t, err)
	testify.True(t, res.Passed, "labels compare case-insensitively by default")

	_, err = run("llm_judge", map[string]any{"criteria": "x", "passing_labels": []any{"good"}, "offered_labels": []any{"good", "Good", "bad"}, "label_rules": []any{}})
	require.NoError(t, err)
	res, _ = run("llm_judge", map[string]any{"criteria": "x", "passing_labels": []any{"good"}, "offered_labels": []any{"good", "Good", "bad"}, "label_rules": []any{}})
	testify.False(t, res.Passed, "an empty rule list compares exactly")

	res, err = run("llm_judge", map[string]any{"criteria": "x"})
	require.NoError(t, err)
	testify.False(t, res.Passed, "a bare llm_judge follows the judge's own pass/fail")

	for _, name := range []string{"llm_judge_session", "llm_judge_conversation"} {
		_, err = run(name, map[string]any{"criteria": "x"})
		require.NoError(t, err)
		last := spy.Requests()[len(spy.Requests())-1]
		testify.Equal(t, evalkit.ContentTranscript, last.Kind, name)
	}
	_, err = run("llm_judge_tool_calls", map[string]any{"criteria": "x", "tools": []any{"get_order_details"}, "scale": map[string]any{"min": 1, "max": 5}})
	require.NoError(t, err)
	last := spy.Requests()[len(spy.Requests())-1]
	testify.Equal(t, "tool call 1: get_order_details({\"order_id\":\"#W123\"})\n  result: {\"total\": 42}", last.Content)
	testify.Equal(t, evalkit.Scale{Min: 1, Max: 5}, last.Scale)

	res, err = run("assertion", map[string]any{"eval_type": "contains", "eval_params": map[string]any{"patterns": []any{"refund", "sorry"}}, "min_score": 0.5})
	require.NoError(t, err)
	testify.True(t, res.Passed)

	// A registry made by WithJudge shares its check types.
	base := assert.NewRegistry()
	view := base.WithJudge(spy)
	require.NoError(t, base.Register("always", func(map[string]any) (assert.Check, error) { return assert.Contains{Patterns: []string{"$42"}}, nil }))
	res, err = view.Eval(ctx, "always", refundRun(), nil)
	require.NoError(t, err)
	testify.True(t, res.Passed)
}

// A judge's verdict that contradicts itself is an error of every judged
// check, the bare llm_judge (the judge's own pass/fail) and an assertion's
// threshold included: never a pass.
func TestJudgedSelfContradiction(t *testing.T) {
	ctx := context.Background()
	judges := map[string]evalkit.Judge{
		"a custom judge": judgefake.Fixed(evalkit.Verdict{Passed: &yes, Label: "fail", Score: 1, Scored: true}),
		"parsed, verdict FAIL passed true": evalkit.JudgeFunc(func(_ context.Context, r evalkit.JudgeRequest) (evalkit.Verdict, error) {
			return evalkit.ParseVerdict(`{"verdict": "FAIL", "passed": true, "score": 10}`, r.Scale)
		}),
		"parsed, label fail pass true": evalkit.JudgeFunc(func(_ context.Context, r evalkit.JudgeRequest) (evalkit.Verdict, error) {
			return evalkit.ParseVerdict(`{"label": "fail", "pass": true}`, r.Scale)
		}),
	}
	for name, j := range judges {
		reg := assert.NewRegistry().WithJudge(j)
		for typ, params := range map[string]map[string]any{
			"llm_judge": {"criteria": "ok?"},
			"assertion": {"eval_type": "llm_judge", "eval_params": map[string]any{"criteria": "ok?"}, "min_score": 0.5},
		} {
			res, err := reg.Eval(ctx, typ, refundRun(), params)
			require.Error(t, err, "%s, %s: %+v", name, typ, res)
			testify.False(t, res.Passed)
		}
	}
}

// A judge that ignores its context used to hang a judged check past the
// context's deadline. The check returns an error wrapping the context's
// when the context ends first, and the judge's goroutine is left to end
// when the judge returns (here, when the test releases it). In a synctest
// bubble the minute's deadline passes at once.
func TestJudgedContextEndsFirst(t *testing.T) {
	checks := map[string]map[string]any{
		"llm_judge":            {"criteria": "ok?"},
		"llm_judge_tool_calls": {"criteria": "ok?"},
		"assertion":            {"eval_type": "llm_judge", "eval_params": map[string]any{"criteria": "ok?"}, "min_score": 0.5},
	}
	for typ, params := range checks {
		t.Run(typ, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				release := make(chan struct{})
				stuck := evalkit.JudgeFunc(func(context.Context, evalkit.JudgeRequest) (evalkit.Verdict, error) {
					<-release // ignores its context
					return evalkit.Verdict{Score: 1, Scored: true, Label: "pass", Passed: &yes}, nil
				})
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				defer cancel()
				start := time.Now()
				res, err := assert.NewRegistry().WithJudge(stuck).Eval(ctx, typ, refundRun(), params)
				require.ErrorIs(t, err, context.DeadlineExceeded)
				testify.Contains(t, err.Error(), "the context ended before the judge answered")
				testify.False(t, res.Passed)
				testify.Equal(t, time.Minute+250*time.Millisecond, time.Since(start), "it returns at the deadline, after a grace for the judge's own error")
				close(release)
			})
		})
	}
	// A context already ended asks no judge.
	spy := judgefake.Spy(judgefake.Pass())
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := assert.NewRegistry().WithJudge(spy).Eval(ctx, "llm_judge", refundRun(), map[string]any{"criteria": "ok?"})
	require.ErrorIs(t, err, context.Canceled)
	testify.Empty(t, spy.Requests())
}

func TestJudgedRegistryErrors(t *testing.T) {
	reg := assert.NewRegistry().WithJudge(judgefake.Pass())
	tests := []struct {
		name      string
		reg       *assert.Registry
		checkType string
		params    map[string]any
		param     string
		is        error
		err       string
	}{
		{name: "no judge", reg: assert.NewRegistry(), checkType: "llm_judge", params: map[string]any{"criteria": "x"}, is: assert.ErrNoJudge},
		{name: "no judge in an assertion", reg: assert.NewRegistry(), checkType: "assertion", params: map[string]any{"eval_type": "llm_judge_tool_calls", "eval_params": map[string]any{"criteria": "x"}, "min_score": 0.5}, is: assert.ErrNoJudge},
		{name: "no criteria", checkType: "llm_judge", params: map[string]any{}, param: "criteria"},
		{name: "a threshold on llm_judge", checkType: "llm_judge", params: map[string]any{"criteria": "x", "min_score": 0.8}, param: "min_score",
			err: `llm_judge: param "min_score": a judged check holds no threshold: wrap it in type: assertion with eval_type "llm_judge" and min_score`},
		{name: "a threshold on llm_judge_session", checkType: "llm_judge_session", params: map[string]any{"criteria": "x", "max_score": 0.2}, param: "max_score"},
		{name: "an unknown rule", checkType: "llm_judge", params: map[string]any{"criteria": "x", "passing_labels": "C", "label_rules": []any{"trimm"}}, param: "label_rules",
			err: `llm_judge: param "label_rules": unknown rule "trimm" (did you mean "trim"?); the rules are case_insensitive, trim, collapse_whitespace, trim_lines, ignore_zero_width, ignore_whitespace`},
		{name: "a bad scale", checkType: "llm_judge", params: map[string]any{"criteria": "x", "scale": map[string]any{"min": 1}}, param: "scale"},
		{name: "a misspelt param", checkType: "llm_judge", params: map[string]any{"criteria": "x", "rubrik": "y"}, param: "rubrik"},
		{name: "tools on llm_judge", checkType: "llm_judge", params: map[string]any{"criteria": "x", "tools": []any{"a"}}, param: "tools"},
		{name: "session scope contradicting", checkType: "llm_judge_session", params: map[string]any{"criteria": "x", "scope": "turn"}, param: "scope"},
		{name: "two criteria", checkType: "llm_judge", params: map[string]any{"criteria": "x", "passing_labels": "C", "passed": true}, param: "passing"},
		{name: "assertion of an assertion", checkType: "assertion", params: map[string]any{"eval_type": "assertion", "min_score": 0.5}, param: "eval_type"},
		{name: "assertion of an unknown type", checkType: "assertion", params: map[string]any{"eval_type": "llm_judgee", "min_score": 0.5}, is: assert.ErrUnknownCheck,
			err: `assertion: eval_type "llm_judgee": unknown check type "llm_judgee" (did you mean "llm_judge"?)`},
		{name: "assertion with a bad inner param", checkType: "assertion", params: map[string]any{"eval_type": "llm_judge", "eval_params": map[string]any{}, "min_score": 0.5}, param: "criteria",
			err: `assertion: eval_type "llm_judge": llm_judge: param "criteria": required: want a string`},
		{name: "assertion threshold on the raw scale", checkType: "assertion", params: map[string]any{"eval_type": "llm_judge", "eval_params": map[string]any{"criteria": "x"}, "min_score": 8}, param: "min_score"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := tt.reg
			if r == nil {
				r = reg
			}
			_, err := r.Build(tt.checkType, tt.params)
			require.Error(t, err)
			if tt.param != "" {
				var pe *assert.ParamError
				require.True(t, errors.As(err, &pe), "want a *ParamError, got %v", err)
				testify.Equal(t, tt.param, pe.Param, "%v", err)
			}
			if tt.is != nil {
				testify.ErrorIs(t, err, tt.is)
			}
			if tt.err != "" {
				testify.EqualError(t, err, tt.err)
			}
		})
	}
}

func TestJudgeCheck(t *testing.T) {
	ctx := context.Background()
	j := judgefake.Fixed(evalkit.Verdict{Score: 0.7, Scored: true, Label: " c "})

	res, err := assert.JudgeCheck(j, evalkit.ContentAnswer, "x", assert.MinScore(0.8)).Check(ctx, refundRun())
	require.NoError(t, err)
	testify.Equal(t, "score 0.70, want >= 0.80", res.Summary)

	res, err = assert.JudgeCheck(j, evalkit.ContentTranscript, "x", assert.PassingLabels("C"), assert.OfferedLabels("C", "I")).Check(ctx, refundRun())
	require.NoError(t, err)
	testify.True(t, res.Passed)

	_, err = assert.JudgeCheck(j, evalkit.ContentAnswer, "x", assert.Tools("a")).Check(ctx, refundRun())
	testify.EqualError(t, err, `llm_judge: param "tools": Tools filters tool calls: use it with JudgeToolCalls (evalkit.ContentToolCalls)`)
	_, err = assert.JudgeCheck(j, evalkit.ContentToolCalls, "x", assert.PassingLabels("C"), assert.PassingVerdict(assert.Passing{Passed: &yes})).Check(ctx, refundRun())
	testify.EqualError(t, err, `llm_judge_tool_calls: param "passing": give PassingLabels or PassingVerdict, not both`)
	_, err = assert.JudgeCheck(j, "poem", "x").Check(ctx, refundRun())
	testify.EqualError(t, err, `assert: JudgeCheck: unknown content kind "poem"`)

	testify.Equal(t, []string{
		"MinScore(0.80)", "MaxScore(0.125)", `PassingLabels("C", "I")`, `Rubric("10: states the amount; 1…")`, `Reference("Refunded $42.")`,
		`Context("a", "b")`, "Scale(1, 10)", `Tools("issue_refund")`, `Model("gpt-4.1")`, `SystemPrompt("Be strict.")`,
		`VerdictSchema({"required":["grade"],"type":"object"})`,
		`PassingVerdict({Labels: ["C"], Offered: ["C", "I"], Rules: {CaseInsensitive, Trim}, Field: "grade"})`,
	}, strs(
		assert.MinScore(0.8), assert.MaxScore(0.125), assert.PassingLabels("C", "I"), assert.Rubric("10: states the amount; 1: says nothing"),
		assert.Reference("Refunded $42."), assert.Context("a", "b"), assert.Scale(1, 10), assert.Tools("issue_refund"), assert.Model("gpt-4.1"),
		assert.SystemPrompt("Be strict."), assert.VerdictSchema(map[string]any{"type": "object", "required": []any{"grade"}}),
		assert.PassingVerdict(assert.Passing{Labels: []string{"C"}, Offered: []string{"C", "I"}, Field: "grade", Rules: assert.Rules{CaseInsensitive: true, Trim: true}}),
	))
}

func strs[T fmt.Stringer](vs ...T) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.String()
	}
	return out
}

func ExampleLLMJudge() {
	tr := &evalkit.Transcript{Messages: []evalkit.Message{
		{Role: evalkit.RoleUser, Content: "Refund order #W123"},
		{Role: evalkit.RoleAssistant, Content: "Your refund is on its way."},
	}}
	judge := judgefake.Fixed(evalkit.Verdict{Score: 0.55, Scored: true, Reasoning: "the reply never states the amount"})

	// The judge scores; the assertion holds the threshold.
	check := assert.Assertion{
		Eval:     assert.LLMJudge{Judge: judge, Criteria: "Confirms the refund and states the amount"},
		MinScore: &[]float64{0.8}[0],
	}
	res, err := check.Check(context.Background(), tr)
	fmt.Println(res.Passed, err)
	fmt.Println(res.Summary)
	for _, d := range res.Details {
		fmt.Printf("%s: %s\n", d.Label, d.Text)
	}
	// Output:
	// false <nil>
	// score 0.55, want >= 0.80
	// reasoning: the reply never states the amount
	// raw score: 5.5 on 0–10
}

func ExampleRegistry_WithJudge() {
	tr := &evalkit.Transcript{Messages: []evalkit.Message{
		{Role: evalkit.RoleUser, Content: "Is order #W123 refundable?"},
		{Role: evalkit.RoleAssistant, Content: "Yes, within 30 days."},
	}}
	reg := assert.NewRegistry().WithJudge(judgefake.Pass())

	// PromptKit's assertion wrapper: the threshold wraps the judge.
	res, err := reg.Eval(context.Background(), "assertion", tr, map[string]any{
		"eval_type":   "llm_judge",
		"eval_params": map[string]any{"criteria": "Answers the question"},
		"min_score":   0.8,
	})
	fmt.Println(res.Passed, res.Summary, err)

	// Without a judge, a judged check is an error, not a verdict.
	_, err = assert.NewRegistry().Build("llm_judge", map[string]any{"criteria": "Answers the question"})
	fmt.Println(errors.Is(err, assert.ErrNoJudge))
	// Output:
	// true score 1.00, want >= 0.80 <nil>
	// true
}

// A text verdict has no reasoning field: its whole answer explains it, and
// the raw score shows what the judge wrote on its scale.
func TestJudgedTextVerdictExplains(t *testing.T) {
	j := evalkit.JudgeFunc(func(_ context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
		return evalkit.ParseVerdict("The reply is polite but never states the amount.\n\nRating: [[3]]", evalkit.Scale{Min: 1, Max: 5})
	})
	res, err := assert.JudgeCheck(j, evalkit.ContentAnswer, "States the amount", assert.Scale(1, 5), assert.MinScore(0.8)).Check(context.Background(), refundRun())
	require.NoError(t, err)
	testify.False(t, res.Passed)
	testify.Equal(t, "score 0.50, want >= 0.80", res.Summary)
	testify.Equal(t, []assert.Detail{
		{Label: "answer", Text: "The reply is polite but never states the amount. Rating: [[3]]"},
		{Label: "raw score", Text: "3 on 1–5"},
	}, res.Details)
}

func TestJudgedPanickingJudgeIsAnError(t *testing.T) {
	j := evalkit.JudgeFunc(func(context.Context, evalkit.JudgeRequest) (evalkit.Verdict, error) { panic("boom") })
	_, err := assert.NewRegistry().WithJudge(j).Eval(context.Background(), "llm_judge", refundRun(), map[string]any{"criteria": "x"})
	testify.EqualError(t, err, "llm_judge: the judge failed: the judge panicked: boom")
}

// Field case C07 (d) through grading: a panel's unreadable vote is missing
// data, so two "C" votes of three pass, with the broken judge reported.
func TestJudgedC07dPanel(t *testing.T) {
	panel := evalkit.Panel([]evalkit.Judge{
		parsing(`{"grade": "C"}`), parsing(`{"grade": "C"}`), parsing("I am unable to assess this response."),
	}, evalkit.Majority)
	res, err := assert.LLMJudge{Judge: panel, Criteria: "Refunds the order the user named",
		Passing: assert.Passing{Labels: []string{"C"}, Offered: []string{"C", "I"}, Rules: assert.Rules{CaseInsensitive: true, Trim: true}}}.Check(context.Background(), refundRun())
	require.NoError(t, err)
	testify.True(t, res.Passed, res.Summary)
	require.NotEmpty(t, res.Details)
	testify.Equal(t, "reasoning", res.Details[0].Label)
	testify.Contains(t, res.Details[0].Text, "judge 3: no vote (")
}
