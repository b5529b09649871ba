package evaltest_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	evalassert "github.com/evalkit-go/evalkit/assert"
	"github.com/evalkit-go/evalkit/evaltest"
	"github.com/evalkit-go/evalkit/judgefake"
)

// reportWith is report with options for New.
func reportWith(opts []evaltest.Option, body func(et *evaltest.T)) *fakeTB {
	tb := &fakeTB{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		body(evaltest.New(tb, opts...))
	}()
	<-done
	return tb
}

// nineMessages is refundRun with a system prompt, a closing exchange and a
// first answer that never states the amount.
func nineMessages() *evalkit.Transcript {
	tr := refundRun()
	tr.Messages = append([]evalkit.Message{{Role: evalkit.RoleSystem, Content: "You are a refund agent."}}, tr.Messages...)
	tr.Messages[6].Content = "Your refund has been issued."
	tr.Messages = append(tr.Messages,
		evalkit.Message{Role: evalkit.RoleUser, Content: "Thanks"},
		evalkit.Message{Role: evalkit.RoleAssistant, Content: "You're welcome."})
	return tr
}

var verdict055 = evalkit.Verdict{Score: 0.55, Scored: true, Reasoning: "the reply never states the amount", Model: "gpt-4.1-mini"}

func TestJudgeFailureMessages(t *testing.T) {
	yes := true
	labelled := judgefake.Fixed(evalkit.Verdict{Label: "I", Passed: &yes, Reasoning: "The refund went to order #W124.\nNot #W123."})
	tests := []struct {
		name  string
		judge evalkit.Judge
		chain func(e *evaltest.Expectation)
		want  string
	}{
		{"Judge with a threshold", judgefake.Fixed(verdict055), func(e *evaltest.Expectation) {
			e.Judge("Confirms the refund and states the amount", evalassert.MinScore(0.8))
		}, `Judge("Confirms the refund and states the a…", MinScore(0.80)): score 0.55, want >= 0.80
reasoning: the reply never states the amount
raw score: 5.5 on 0–10
judge: gpt-4.1-mini`},
		{"JudgeSession with labels", labelled, func(e *evaltest.Expectation) {
			e.JudgeSession("Refunds the order the user named", evalassert.PassingLabels("C"), evalassert.OfferedLabels("C", "I"))
		}, `JudgeSession("Refunds the order the user named", PassingLabels("C"), OfferedLabels("C", "I")): label "I", want "C"
reasoning: The refund went to order #W124. Not #W123.`},
		{"JudgeToolCalls, the judge's own fail", judgefake.Fail("issue_refund got the wrong order id"), func(e *evaltest.Expectation) {
			e.JudgeToolCalls("Refunds the right order", evalassert.Tools("issue_refund"))
		}, `JudgeToolCalls("Refunds the right order", Tools("issue_refund")): judge's pass/fail: fail, want pass
reasoning: issue_refund got the wrong order id`},
		{"Judge with a max score", judgefake.Fixed(verdict055), func(e *evaltest.Expectation) {
			e.Judge("Is rude", evalassert.MaxScore(0.2), evalassert.Scale(1, 5))
		}, `Judge("Is rude", MaxScore(0.20), Scale(1, 5)): score 0.55, want <= 0.20
reasoning: the reply never states the amount
raw score: 3.2 on 1–5
judge: gpt-4.1-mini`},
		{"a judge error is an error", judgefake.Err(errors.New("anthropicjudge: 529 overloaded after 4 attempts")), func(e *evaltest.Expectation) {
			e.Judge("Confirms the refund", evalassert.MinScore(0.8))
		}, `Judge("Confirms the refund", MinScore(0.80)): error: llm_judge: the judge failed: anthropicjudge: 529 overloaded after 4 attempts`},
		{"no score under a threshold is an error", judgefake.Fixed(evalkit.Verdict{Label: "C"}), func(e *evaltest.Expectation) {
			e.Judge("Confirms the refund", evalassert.MinScore(0.8))
		}, `Judge("Confirms the refund", MinScore(0.80)): error: llm_judge: the judge's verdict cannot be graded: the verdict has no score, and the threshold needs one`},
		{"no threshold and no pass/fail", judgefake.Fixed(evalkit.Verdict{Score: 0.9, Scored: true}), func(e *evaltest.Expectation) {
			e.Judge("Confirms the refund")
		}, `Judge("Confirms the refund"): error: llm_judge: the judge's verdict cannot be graded: the verdict has no pass/fail: asked for the label pass or fail, the judge gave no label and no "passed" field: it gives only a score, 0.90`},
		{"Eval llm_judge asks the T's judge", judgefake.Fixed(verdict055), func(e *evaltest.Expectation) {
			e.Eval("assertion", map[string]any{"eval_type": "llm_judge", "eval_params": map[string]any{"criteria": "States the amount"}, "min_score": 0.8})
		}, `Eval("assertion", {"eval_params":{"criteria":"States the amount"},"eval_type":"llm_judge","min_score":0.8}): score 0.55, want >= 0.80
reasoning: the reply never states the amount
raw score: 5.5 on 0–10
judge: gpt-4.1-mini`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := reportWith([]evaltest.Option{evaltest.WithJudge(tt.judge)}, func(et *evaltest.T) { tt.chain(et.Expect(nineMessages())) })
			assert.Equal(t, []string{tt.want + "\ntranscript: 9 messages"}, tb.errors)
		})
	}
}

func TestJudgeWithoutWithJudge(t *testing.T) {
	tb := report(func(et *evaltest.T) {
		et.Expect(refundRun()).
			Judge("Confirms the refund", evalassert.MinScore(0.8)).
			JudgeToolCalls("Refunds the right order").
			Eval("llm_judge_session", map[string]any{"criteria": "Resolves the issue"})
	})
	assert.Equal(t, []string{
		"Judge(\"Confirms the refund\", MinScore(0.80)): error: no judge: give evaltest.New the option evaltest.WithJudge(j)\ntranscript: 6 messages",
		"JudgeToolCalls(\"Refunds the right order\"): error: no judge: give evaltest.New the option evaltest.WithJudge(j)\ntranscript: 6 messages",
		"Eval(\"llm_judge_session\", {\"criteria\":\"Resolves the issue\"}): error: llm_judge: no judge: set the check's Judge, build the registry with assert.NewRegistry().WithJudge(j), or in a test give evaltest.New the option evaltest.WithJudge(j)\ntranscript: 6 messages",
	}, tb.errors)
}

func TestJudgePassingChain(t *testing.T) {
	spy := judgefake.Spy(judgefake.Pass())
	reg := evalassert.NewRegistry()
	require.NoError(t, reg.Register("mentions_refund", func(map[string]any) (evalassert.Check, error) {
		return evalassert.Contains{Patterns: []string{"refund"}, Scope: evalassert.Session}, nil
	}))
	var ok bool
	tb := reportWith([]evaltest.Option{evaltest.WithJudge(spy), evaltest.WithRegistry(reg)}, func(et *evaltest.T) {
		ok = et.Expect(nineMessages()).
			Judge("Confirms the refund", evalassert.MinScore(0.8), evalassert.Rubric("10: states the amount")).
			JudgeSession("Resolves the issue").
			JudgeToolCalls("Refunds the right order", evalassert.Tools("issue_refund"), evalassert.MinScore(0.5)).
			Eval("llm_judge_tool_calls", map[string]any{"criteria": "Looks the order up first"}).
			Eval("mentions_refund", nil).
			OK()
	})
	assert.Empty(t, tb.errors)
	assert.True(t, ok)
	reqs := spy.Requests()
	require.Len(t, reqs, 4)
	assert.Equal(t, []evalkit.ContentKind{evalkit.ContentAnswer, evalkit.ContentTranscript, evalkit.ContentToolCalls, evalkit.ContentToolCalls},
		[]evalkit.ContentKind{reqs[0].Kind, reqs[1].Kind, reqs[2].Kind, reqs[3].Kind})
	assert.Equal(t, "10: states the amount", reqs[0].Rubric)
	assert.Equal(t, "You're welcome.", reqs[0].Content)
	assert.Equal(t, "Thanks", reqs[0].Input)
	assert.True(t, strings.HasPrefix(reqs[2].Content, "tool call 2: issue_refund("), reqs[2].Content)
}

func TestJudgeRequireStops(t *testing.T) {
	tb := reportWith([]evaltest.Option{evaltest.WithJudge(judgefake.Err(errors.New("boom")))}, func(et *evaltest.T) {
		et.Require(refundRun()).Judge("Confirms the refund").Contains("never reached")
	})
	assert.True(t, tb.fatal)
	assert.Equal(t, []string{"Judge(\"Confirms the refund\"): error: llm_judge: the judge failed: boom\ntranscript: 6 messages"}, tb.errors)
}

func TestJudgeLabelIsBounded(t *testing.T) {
	long := strings.Repeat("Refunds ", 100)
	tb := reportWith([]evaltest.Option{evaltest.WithJudge(judgefake.Fail("no"))}, func(et *evaltest.T) {
		et.Expect(refundRun()).Judge(long, evalassert.Rubric(long), evalassert.Context(long, long, long, long, long, long, long))
	})
	require.Len(t, tb.errors, 1)
	first, _, _ := strings.Cut(tb.errors[0], "\n")
	assert.LessOrEqual(t, len(first), 300, first)
	assert.True(t, strings.HasPrefix(first, `Judge("Refunds Refunds Refunds Refunds Refu…", Rubric("Refunds Refunds Refunds …"), Context(`), first)
}

// printingTB prints what evaltest reports, as go test shows it.
type printingTB struct{ testing.TB }

func (printingTB) Helper()                  {}
func (printingTB) Context() context.Context { return context.Background() }
func (printingTB) Errorf(format string, args ...any) {
	fmt.Println("FAIL: " + strings.ReplaceAll(fmt.Sprintf(format, args...), "\n", "\n    "))
}

func ExampleWithJudge() {
	tr := &evalkit.Transcript{Messages: []evalkit.Message{
		{Role: evalkit.RoleUser, Content: "I want a refund for order #W123"},
		{Role: evalkit.RoleAssistant, Content: "Your refund has been issued."},
	}}
	// In a test: evaltest.New(t, evaltest.WithJudge(openaijudge.FromEnv())).
	judge := judgefake.Fixed(evalkit.Verdict{Score: 0.55, Scored: true, Reasoning: "the reply never states the amount"})
	et := evaltest.New(printingTB{}, evaltest.WithJudge(judge))

	et.Expect(tr).
		Judge("Confirms the refund", evalassert.MinScore(0.5)).
		Judge("Confirms the refund and states the amount", evalassert.MinScore(0.8))
	// Output:
	// FAIL: Judge("Confirms the refund and states the a…", MinScore(0.80)): score 0.55, want >= 0.80
	//     reasoning: the reply never states the amount
	//     raw score: 5.5 on 0–10
	//     transcript: 2 messages
}
