package evaltest

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
	"github.com/evalkit-go/evalkit/internal/textnorm"
)

// WithJudge gives the T a judge: the one Judge, JudgeSession and
// JudgeToolCalls ask, and the one judged check types of Eval ask
// (llm_judge, llm_judge_session, llm_judge_tool_calls, and type "assertion"
// wrapping them), in the built-in registry or the one given with
// WithRegistry. Without it, a judged step is an evaluation error naming
// this option. Use a real judge (packages openaijudge, anthropicjudge) or a
// fake (package judgefake).
//
// A judge with an identity (evalkit.Identifier: the real judges, a panel
// of them) is recorded: its verdicts are answered from and added to
// testdata/evalkit/<TestName>.judge.json, one file for a top-level test
// and all its subtests, as the mode says (see WithMode and the package
// doc; replay by default, so a missing verdict fails the step and the
// judge is never asked). The file is read at the first judged step, and
// written when the test ends. Fakes are not recorded, and a
// *golden.Recorder given here is used as it is (its Save is yours).
func WithJudge(j evalkit.Judge) Option {
	return func(t *T) { t.judge = j }
}

// evalRegistry is the registry Eval uses: the T's (nil for the built-in
// one) made to ask step's judges, when the T has any, to embed with the
// T's embedder and to classify with its classifier.
func (t *T) evalRegistry(step *stepJudge) *assert.Registry {
	if step == nil && t.x.embedder == nil && t.x.classifier == nil {
		return t.registry
	}
	reg := t.registry
	if reg == nil {
		reg = assert.NewRegistry()
	}
	if t.x.embedder != nil {
		reg = reg.WithEmbedder(t.embedder()) // see WithEmbedder
	}
	if t.x.classifier != nil {
		reg = reg.WithClassifier(t.x.classifier) // see WithClassifier
	}
	if step == nil {
		return reg
	}
	return reg.WithJudge(step).WithJudgeSet(step)
}

// stepJudge returns the judges one judged step asks: the T's default
// judge, and those of its judge set, each through its recording (see
// WithJudge); nil when the T has neither a judge nor a judge set.
func (t *T) stepJudge() *stepJudge {
	if t.judge == nil && t.judgeSet() == nil {
		return nil
	}
	return &stepJudge{t: t, stepState: &stepState{}}
}

// Judge asks the T's judge whether the last assistant message meets
// criteria, given the last user message before it (assert.LLMJudge, as
// PromptKit's llm_judge). Options set the threshold (assert.MinScore,
// assert.MaxScore), another passing criterion (assert.PassingLabels,
// assert.PassingVerdict) and the request (assert.Rubric, assert.Reference,
// assert.Context, assert.Scale, ...). Without a threshold or passing
// labels, the judge's own pass/fail decides, and a verdict without one is
// an error. A failure reads:
//
//	Judge("Confirms the refund and states the a…", MinScore(0.80)): score 0.55, want >= 0.80
//	reasoning: the reply never states the amount
//	judge: gpt-4.1-mini
//	transcript: 9 messages
//
// Scores are normalized to [0,1] whatever the judge's scale. A judge that
// fails or answers with a verdict that cannot be graded is reported as an
// error, never as a failure of the agent.
func (e *Expectation) Judge(criteria string, opts ...assert.JudgeOption) *Expectation {
	e.t.tb.Helper()
	e.judged("Judge", evalkit.ContentAnswer, criteria, opts)
	return e
}

// JudgeSession asks the T's judge whether the whole transcript — every
// message, tool call and result, rendered by evalkit.RenderTranscript —
// meets criteria (assert.LLMJudge with Session scope, as PromptKit's
// llm_judge_session). Options and messages are Judge's.
func (e *Expectation) JudgeSession(criteria string, opts ...assert.JudgeOption) *Expectation {
	e.t.tb.Helper()
	e.judged("JudgeSession", evalkit.ContentTranscript, criteria, opts)
	return e
}

// JudgeToolCalls asks the T's judge whether the transcript's tool calls,
// with their arguments and results, meet criteria; assert.Tools keeps only
// the calls to some tools (assert.LLMJudgeToolCalls, as PromptKit's
// llm_judge_tool_calls). Options and messages are Judge's.
func (e *Expectation) JudgeToolCalls(criteria string, opts ...assert.JudgeOption) *Expectation {
	e.t.tb.Helper()
	e.judged("JudgeToolCalls", evalkit.ContentToolCalls, criteria, opts)
	return e
}

func (e *Expectation) judged(name string, kind evalkit.ContentKind, criteria string, opts []assert.JudgeOption) {
	e.t.tb.Helper()
	label := judgeLabel(name, criteria, opts)
	step := e.t.stepJudge()
	if step == nil {
		e.report(label, assert.CheckFunc(func(context.Context, *evalkit.Transcript) (assert.Result, error) {
			return assert.Result{}, fmt.Errorf("%w: give evaltest.New the option evaltest.WithJudge(j)", assert.ErrNoJudge)
		}))
		return
	}
	e.reportJudged(label, assert.JudgeCheck(step, kind, criteria, opts...), step)
}

// judgeLabel renders a judged step as written, the criteria cut to
// maxCriteria characters: Judge("Confirms the refund and states the a…", MinScore(0.80)).
func judgeLabel(name, criteria string, opts []assert.JudgeOption) string {
	args := []string{strconv.Quote(cutCriteria(criteria))}
	for _, o := range opts {
		args = append(args, o.String())
	}
	return textnorm.Excerpt(name+"("+strings.Join(args, ", ")+")", maxLabel)
}

// maxCriteria bounds the criteria in the first line of a failure, in
// characters; the whole criteria are the user's own line of code.
const maxCriteria = 36

func cutCriteria(s string) string {
	if utf8.RuneCountInString(s) <= maxCriteria {
		return s
	}
	n := 0
	for i := range s {
		if n == maxCriteria {
			return s[:i] + "…"
		}
		n++
	}
	return s
}
