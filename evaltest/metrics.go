package evaltest

import (
	"strings"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
	"github.com/evalkit-go/evalkit/internal/textnorm"
)

// WithClassifier gives the T a classifier: the one the classifier-backed
// check types of Eval ask (text_sentiment, text_toxicity,
// image_moderation, audio_emotion, topic_policy, and type "assertion"
// wrapping them) when they name no classifier_id. Use
// openaiclassifier's, a user's own evalkit.ClassifierFunc, or a fake from
// judgefake. The classifier is not wrapped in a recording as the judge is;
// one over HTTP records and replays through HTTPClient:
//
//	c := openaiclassifier.FromEnv(openaiclassifier.WithHTTPClient(evaltest.HTTPClient(t).Client))
//
// Its calls stop at the test's deadline (see Context).
func WithClassifier(c evalkit.Classifier) Option {
	return func(t *T) {
		t.x.classifier = nil
		if c != nil {
			t.x.classifier = waitingClassifier{c}
		}
	}
}

// The model-graded metrics, each asking the T's judge (WithJudge) through
// its recording, so every step a metric asks is recorded and replayed as
// Judge's verdicts are. Options are assert's: a threshold (assert.MinScore;
// without one, only a perfect score of 1 passes), the data
// (assert.Context, assert.Reference, assert.Question, assert.Role) and the
// judge's knobs (assert.Rubric, assert.Model, assert.SystemPrompt); see
// assert.MetricCheck. Scores are in [0,1] and higher is better for every
// metric. A failure reads:
//
//	Faithfulness(Context("Refunds are issued withi…"), MinScore(0.80)): score 0.67, want >= 0.80
//	check: faithfulness 0.67: 2 of 3 claims supported by the context
//	claim 2: no: "Refunds are sent by cheque." — the context says the card
//	claim 1: yes: "Refunds take five business days." — context 1 says so
//	claim 3: yes: "Questions go to the help desk." — context 2 says so
//	judge: gpt-4.1-mini (replayed testdata/evalkit/TestRefundAnswer.judge.json)
//
// A judge that fails, or answers without the items a metric needs, is an
// evaluation error, never a failure of the agent.

// AnswerRelevancy checks how much of the last assistant message addresses
// the question (assert.AnswerRelevancy, as DeepEval's answer_relevancy).
func (e *Expectation) AnswerRelevancy(opts ...assert.JudgeOption) *Expectation {
	e.t.tb.Helper()
	e.metric("AnswerRelevancy", "answer_relevancy", opts)
	return e
}

// Faithfulness checks how much of the last assistant message the
// retrieved chunks, given with assert.Context, support
// (assert.Faithfulness, as DeepEval's and Ragas' faithfulness).
func (e *Expectation) Faithfulness(opts ...assert.JudgeOption) *Expectation {
	e.t.tb.Helper()
	e.metric("Faithfulness", "faithfulness", opts)
	return e
}

// Hallucination checks how few of the chunks given with assert.Context the
// last assistant message contradicts; 1 means none (assert.Hallucination).
func (e *Expectation) Hallucination(opts ...assert.JudgeOption) *Expectation {
	e.t.tb.Helper()
	e.metric("Hallucination", "hallucination", opts)
	return e
}

// ContextualPrecision checks that the relevant chunks given with
// assert.Context are ranked first (assert.ContextualPrecision).
func (e *Expectation) ContextualPrecision(opts ...assert.JudgeOption) *Expectation {
	e.t.tb.Helper()
	e.metric("ContextualPrecision", "contextual_precision", opts)
	return e
}

// ContextualRecall checks how much of the assert.Reference answer the
// chunks given with assert.Context cover (assert.ContextualRecall).
func (e *Expectation) ContextualRecall(opts ...assert.JudgeOption) *Expectation {
	e.t.tb.Helper()
	e.metric("ContextualRecall", "contextual_recall", opts)
	return e
}

// ContextualRelevancy checks how relevant the chunks given with
// assert.Context are to the question (assert.ContextualRelevancy).
func (e *Expectation) ContextualRelevancy(opts ...assert.JudgeOption) *Expectation {
	e.t.tb.Helper()
	e.metric("ContextualRelevancy", "contextual_relevancy", opts)
	return e
}

// NoBias checks that the last assistant message expresses no biased
// opinion (assert.Bias; assert.WholeSession for every message).
func (e *Expectation) NoBias(opts ...assert.JudgeOption) *Expectation {
	e.t.tb.Helper()
	e.metric("NoBias", "bias", opts)
	return e
}

// NoToxicity checks that the last assistant message expresses no toxic
// opinion (assert.Toxicity, the model-graded toxicity).
func (e *Expectation) NoToxicity(opts ...assert.JudgeOption) *Expectation {
	e.t.tb.Helper()
	e.metric("NoToxicity", "toxicity", opts)
	return e
}

// NoPII checks that the last assistant message leaks no personal
// information: the deterministic patterns first, whose finding fails at
// once with no model call, then the T's judge (assert.PIILeakage). With
// assert.PatternsOnly it is the patterns alone, and needs no judge.
func (e *Expectation) NoPII(opts ...assert.JudgeOption) *Expectation {
	e.t.tb.Helper()
	e.metric("NoPII", "pii_leakage", opts)
	return e
}

// NoRoleViolation checks that the last assistant message keeps the role
// of the transcript's system prompt, or assert.Role's
// (assert.RoleViolation).
func (e *Expectation) NoRoleViolation(opts ...assert.JudgeOption) *Expectation {
	e.t.tb.Helper()
	e.metric("NoRoleViolation", "role_violation", opts)
	return e
}

func (e *Expectation) metric(name, metric string, opts []assert.JudgeOption) {
	e.t.tb.Helper()
	step := e.t.stepJudge()
	var judge evalkit.Judge
	if step != nil {
		judge = step
	}
	e.reportJudged(metricLabel(name, opts), assert.MetricCheck(judge, metric, opts...), step)
}

// metricLabel renders a metric step as written: Faithfulness(Context("…"), MinScore(0.80)).
func metricLabel(name string, opts []assert.JudgeOption) string {
	args := make([]string, len(opts))
	for i, o := range opts {
		args[i] = o.String()
	}
	return textnorm.Excerpt(name+"("+strings.Join(args, ", ")+")", maxLabel)
}

// NoPII checks that the stream leaks none of the PII the deterministic
// patterns find — e-mail addresses, phone numbers, Luhn-valid card
// numbers, US Social Security numbers, mod-97-valid IBANs; kinds, when
// given (assert.PIIEmail, ...), limit it to those (assert.PIIPatterns as a
// stream). It fails at the first finding, the value masked; no model is
// asked.
func (s *StreamExpectation) NoPII(kinds ...string) *StreamExpectation {
	s.t.tb.Helper()
	s.report(call("NoPII", strArgs(kinds)...), assert.PIIPatterns{Kinds: kinds})
	return s
}
