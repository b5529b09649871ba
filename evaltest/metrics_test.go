package evaltest_test

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	evalassert "github.com/evalkit-go/evalkit/assert"
	"github.com/evalkit-go/evalkit/evaltest"
	"github.com/evalkit-go/evalkit/golden"
	"github.com/evalkit-go/evalkit/judgefake"
	"github.com/evalkit-go/evalkit/openaiclassifier"
)

var refundDocs = []string{
	"Refunds are issued within five business days.",
	"Refunds go back to the card used to pay.",
}

// ragAnswer: the agent answers a refund question from retrieved chunks.
func ragAnswer() *evalkit.Transcript {
	return &evalkit.Transcript{Messages: []evalkit.Message{
		{Role: evalkit.RoleSystem, Content: "You are Acme's refund assistant."},
		{Role: evalkit.RoleUser, Content: "How do refunds work?"},
		{Role: evalkit.RoleAssistant, Content: "Refunds take five business days. They are sent by cheque. Call 415-555-2671 with questions."},
	}}
}

// metricJudge answers faithfulness's two steps: three claims, then their
// verdicts.
func metricJudge() evalkit.Judge {
	return judgefake.Sequence(
		evalkit.Verdict{Fields: map[string]any{"claims": []any{"Refunds take five business days.", "Refunds are sent by cheque.", "Questions go to 415-555-2671."}}},
		evalkit.Verdict{Fields: map[string]any{"verdicts": []any{
			map[string]any{"verdict": "yes", "reason": "context 1 says so"},
			map[string]any{"verdict": "no", "reason": "context 2 says the card"},
			map[string]any{"verdict": "idk", "reason": "the context has no phone number"},
		}}},
	)
}

// The metrics' failure messages, exactly, through a fake TB.
func TestMetricMessages(t *testing.T) {
	tb := &fakeTB{}
	et := evaltest.New(tb, evaltest.WithJudge(metricJudge()))
	et.Expect(ragAnswer()).Faithfulness(evalassert.Context(refundDocs...), evalassert.MinScore(0.8))
	require.Len(t, tb.errors, 1)
	assert.Equal(t, `Faithfulness(Context("Refunds are issued withi…", "Refunds go back to the c…"), MinScore(0.80)): score 0.67, want >= 0.80
check: faithfulness 0.67: 2 of 3 claims supported by the context (1 idk, counted for)
claim 2: no: "Refunds are sent by cheque." — context 2 says the card
claim 1: yes: "Refunds take five business days." — context 1 says so
claim 3: idk: "Questions go to 415-555-2671." — the context has no phone number
transcript: 3 messages`, tb.errors[0])

	// The pre-pass fails at once: no judge is asked.
	tb = &fakeTB{}
	et = evaltest.New(tb, evaltest.WithJudge(judgefake.Err(errors.New("the judge was asked"))))
	et.Expect(ragAnswer()).NoPII()
	require.Len(t, tb.errors, 1)
	assert.Equal(t, `NoPII(): pii_leakage 0: found 1 PII value by pattern (the judge was not asked)
pii: phone in messages[2] at byte 63: "•••-•••-••71"
transcript: 3 messages`, tb.errors[0])

	// PatternsOnly needs no judge; the others say how to give one.
	tb = &fakeTB{}
	e := evaltest.New(tb).Expect(ragAnswer()).NoPII(evalassert.PatternsOnly(), evalassert.PIIKinds(evalassert.PIIEmail)).NoBias()
	assert.False(t, e.OK())
	require.Len(t, tb.errors, 1)
	assert.Equal(t, `NoBias(): error: bias: no judge: set the check's Judge, build the registry with assert.NewRegistry().WithJudge(j), or in a test give evaltest.New the option evaltest.WithJudge(j)
transcript: 3 messages`, tb.errors[0])

	// An option the metric does not take is named.
	tb = &fakeTB{}
	evaltest.New(tb, evaltest.WithJudge(judgefake.Pass())).Expect(ragAnswer()).NoToxicity(evalassert.Context("x"))
	assert.Equal(t, []string{"NoToxicity(Context(\"x\")): error: toxicity: param \"Context\": toxicity does not take Context\ntranscript: 3 messages"}, tb.errors)
	tb = &fakeTB{}
	evaltest.New(tb, evaltest.WithJudge(judgefake.Pass())).Expect(ragAnswer()).Judge("Polite", evalassert.Question("q"))
	assert.Equal(t, []string{"Judge(\"Polite\", Question(\"q\")): error: llm_judge: param \"Question\": Question is an option of the model-graded metrics (MetricCheck), not of a judged check\ntranscript: 3 messages"}, tb.errors)
}

// Each fluent metric reaches its check with the options given.
func TestMetricFluent(t *testing.T) {
	stmts := func(key string, items ...any) evalkit.Verdict {
		return evalkit.Verdict{Fields: map[string]any{key: items}}
	}
	yes := func(n int) evalkit.Verdict {
		vs := make([]any, n)
		for i := range vs {
			vs[i] = map[string]any{"verdict": "yes", "reason": "fine"}
		}
		return stmts("verdicts", vs...)
	}
	stmt := map[string]any{"statement": "s", "verdict": "yes", "reason": "r"}
	tests := []struct {
		name    string
		answers []evalkit.Verdict
		chain   func(e *evaltest.Expectation)
	}{
		{"AnswerRelevancy", []evalkit.Verdict{stmts("statements", "a", "b"), yes(2)}, func(e *evaltest.Expectation) { e.AnswerRelevancy(evalassert.Question("Refunds?")) }},
		{"Faithfulness", []evalkit.Verdict{stmts("claims")}, func(e *evaltest.Expectation) { e.Faithfulness(evalassert.Context(refundDocs...)) }},
		{"Hallucination", []evalkit.Verdict{yes(2)}, func(e *evaltest.Expectation) { e.Hallucination(evalassert.Context(refundDocs...)) }},
		{"ContextualPrecision", []evalkit.Verdict{yes(2)}, func(e *evaltest.Expectation) { e.ContextualPrecision(evalassert.Context(refundDocs...)) }},
		{"ContextualRecall", []evalkit.Verdict{stmts("statements", "a"), yes(1)}, func(e *evaltest.Expectation) {
			e.ContextualRecall(evalassert.Context(refundDocs...), evalassert.Reference("Five days, to the card."))
		}},
		{"ContextualRelevancy", []evalkit.Verdict{stmts("documents", map[string]any{"statements": []any{stmt}}, map[string]any{"statements": []any{stmt}})},
			func(e *evaltest.Expectation) { e.ContextualRelevancy(evalassert.Context(refundDocs...)) }},
		{"NoBias", []evalkit.Verdict{stmts("opinions")}, func(e *evaltest.Expectation) { e.NoBias(evalassert.WholeSession()) }},
		{"NoToxicity", []evalkit.Verdict{stmts("opinions", "x"), stmts("verdicts", map[string]any{"verdict": "no"})}, func(e *evaltest.Expectation) { e.NoToxicity() }},
		{"NoPII", []evalkit.Verdict{stmts("findings")}, func(e *evaltest.Expectation) { e.NoPII(evalassert.PIIKinds(evalassert.PIIEmail)) }},
		{"NoRoleViolation", []evalkit.Verdict{stmts("statements")}, func(e *evaltest.Expectation) { e.NoRoleViolation(evalassert.Role("A refund assistant.")) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := &fakeTB{}
			spy := judgefake.Spy(judgefake.Sequence(tt.answers...))
			e := evaltest.New(tb, evaltest.WithJudge(spy)).Expect(ragAnswer())
			tt.chain(e)
			assert.Empty(t, tb.errors)
			assert.True(t, e.OK())
			assert.Len(t, spy.Requests(), len(tt.answers), "every scripted step was asked")
			for _, r := range spy.Requests() {
				assert.NotEmpty(t, r.Metric)
			}
		})
	}
}

// Every step of a metric is recorded like any verdict and replayed with
// no judge call.
func TestMetricRecorded(t *testing.T) {
	isolate(t)
	check := func(et *evaltest.T) {
		et.Expect(ragAnswer()).Faithfulness(evalassert.Context(refundDocs...), evalassert.MinScore(0.5))
	}
	live := &liveJudge{fake: metricJudge()}
	tb := run("TestFaithful", []evaltest.Option{evaltest.WithJudge(live), evaltest.WithMode(golden.ModeRecord)}, check)
	assert.Empty(t, tb.errors)
	assert.EqualValues(t, 2, live.calls.Load(), "claims, then verdicts")
	data, err := os.ReadFile("testdata/evalkit/TestFaithful.judge.json")
	require.NoError(t, err)
	assert.Equal(t, 2, strings.Count(string(data), `"key": "sha256:`), "one entry per step")
	assert.Equal(t, 2, strings.Count(string(data), `"metric": "`), "the step's ID is in every key")

	never := &liveJudge{fake: judgefake.Err(errors.New("the live judge was asked"))}
	tb = run("TestFaithful", []evaltest.Option{evaltest.WithJudge(never)}, check)
	assert.Empty(t, tb.errors)
	assert.EqualValues(t, 0, never.calls.Load())
}

// Eval reaches the classifier checks through the T's classifier.
func TestWithClassifier(t *testing.T) {
	tb := &fakeTB{}
	c := judgefake.Scores(evalkit.LabelScore{Label: "toxic", Score: 0.72})
	evaltest.New(tb, evaltest.WithClassifier(c)).Expect(ragAnswer()).
		Eval("assertion", map[string]any{"eval_type": "text_toxicity", "max_score": 0.3,
			"eval_params": map[string]any{"model": "unitary/toxic-bert", "expected_label": "toxic"}})
	require.Len(t, tb.errors, 1)
	assert.Equal(t, `Eval("assertion", {"eval_params":{"expected_label":"toxic","model":"unitary/toxic-bert"},"eval_type":"text_toxicity","max_score":0.3}): score 0.72, want <= 0.30
check: text_toxicity: "toxic" scores 0.72 on messages[2]
labels: toxic 0.72
classifier: judgefake
transcript: 3 messages`, tb.errors[0])

	// With a judge too, both reach the registry.
	tb = &fakeTB{}
	evaltest.New(tb, evaltest.WithClassifier(c), evaltest.WithJudge(judgefake.Sequence(evalkit.Verdict{Fields: map[string]any{"opinions": []any{}}}))).Expect(ragAnswer()).
		Eval("bias", nil).
		Eval("assertion", map[string]any{"eval_type": "text_toxicity", "max_score": 0.8, "eval_params": map[string]any{"model": "m", "expected_label": "toxic"}})
	assert.Empty(t, tb.errors)
}

func TestStreamNoPII(t *testing.T) {
	tb := &fakeTB{}
	evaltest.New(tb).ExpectStream([]string{"Sure, call her at 415-55", "5-2671 tonight."}).NoPII().NoPII(evalassert.PIIEmail)
	assert.Equal(t, []string{`NoPII(): found a phone number at chunks[0], byte 18 (byte 18 of the stream)
pii: "•••-•••-••71"
stream: 2 chunks, 39 bytes`}, tb.errors)
}

// A classifier and an external evaluator over HTTP are recorded and
// replayed through evaltest's HTTP recording, as the judges' verdicts are.
func TestClassifierAndEvaluatorReplayed(t *testing.T) {
	isolate(t)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		switch r.URL.Path {
		case "/v1/moderations":
			_, _ = io.WriteString(w, `{"model": "omni-moderation-latest", "results": [{"flagged": false, "category_scores": {"harassment": 0.01}}]}`)
		default:
			_, _ = io.WriteString(w, `{"passed": true, "score": 0.9}`)
		}
	}))
	url := srv.URL
	check := func(tb testing.TB, hc *http.Client) {
		c := openaiclassifier.New(openaiclassifier.WithBaseURL(url+"/v1"), openaiclassifier.WithAPIKey("sk-test-replayed-0001"), openaiclassifier.WithHTTPClient(hc))
		et := evaltest.New(tb, evaltest.WithClassifier(c), evaltest.WithRegistry(evalassert.NewRegistry().WithHTTPClient(hc)))
		et.Expect(ragAnswer()).
			Eval("assertion", map[string]any{"eval_type": "text_toxicity", "max_score": 0.3,
				"eval_params": map[string]any{"model": "omni-moderation-latest", "expected_label": "harassment"}}).
			Eval("rest_eval", map[string]any{"url": url + "/eval", "min_score": 0.8})
	}
	t.Setenv("EVALKIT_MODE", "record")
	tb := runTB("TestGuarded", func(tb testing.TB) {
		check(tb, &http.Client{Transport: evaltest.HTTPTransport(tb, http.DefaultTransport)})
	})
	assert.Empty(t, tb.errors)
	srv.Close()

	t.Setenv("EVALKIT_MODE", "")
	tb = runTB("TestGuarded", func(tb testing.TB) { check(tb, evaltest.HTTPClient(tb).Client) })
	assert.Empty(t, tb.errors, "replayed with the servers gone")
	data, err := os.ReadFile("testdata/evalkit/TestGuarded.http.json")
	require.NoError(t, err)
	assert.NotContains(t, string(data), "sk-test-replayed-0001")
}
