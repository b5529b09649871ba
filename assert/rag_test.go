package assert_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	testify "github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
	"github.com/evalkit-go/evalkit/judgefake"
)

// scripted is a judge scripted per metric step: each call gets the next
// answer's fields, and the spy keeps the requests.
func scripted(answers ...map[string]any) *judgefake.SpyJudge {
	vs := make([]evalkit.Verdict, len(answers))
	for i, a := range answers {
		vs[i] = evalkit.Verdict{Fields: a, Model: "judge-model"}
	}
	return judgefake.Spy(judgefake.Sequence(vs...))
}

// list is an answer holding one list.
func list(key string, items ...any) map[string]any { return map[string]any{key: items} }

// verdict is one item of a verdict list.
func verdict(word, reason string) any { return map[string]any{"verdict": word, "reason": reason} }

// verdicts is a verdict step's answer.
func verdicts(words ...string) map[string]any {
	items := make([]any, len(words))
	for i, w := range words {
		items[i] = verdict(w, fmt.Sprintf("reason %d", i+1))
	}
	return list("verdicts", items...)
}

var ragDocs = []string{
	"Refunds are issued within five business days.",
	"Refunds are free of charge.",
	"Our support line is open on weekdays.",
}

// ragRun: a user asks about refunds; the agent answers with three
// statements, one beside the point.
func ragRun() *evalkit.Transcript {
	return &evalkit.Transcript{Messages: []evalkit.Message{
		{Role: evalkit.RoleUser, Content: "How long do refunds take, and are they free?"},
		{Role: evalkit.RoleAssistant, Content: "Refunds take five business days. They are free. Our office is in Berlin."},
	}, Metadata: map[string]any{"retrieved": []any{ragDocs[0], ragDocs[1]}}}
}

var threeStatements = list("statements", "Refunds take five business days.", "Refunds are free.", "The office is in Berlin.")

func TestAnswerRelevancy(t *testing.T) {
	ctx := context.Background()
	judge := scripted(threeStatements, verdicts("yes", "yes", "no"))
	res, err := assert.AnswerRelevancy{Judge: judge}.Check(ctx, ragRun())
	require.NoError(t, err)
	testify.False(t, res.Passed, "used alone, only a perfect score passes")
	testify.InDelta(t, 2.0/3, res.Score, 1e-9)
	testify.Equal(t, "answer relevancy 0.67: 2 of 3 statements relevant to the question", res.Summary)
	testify.Equal(t, []assert.Detail{
		{"statement 3", `no: "The office is in Berlin." — reason 3`},
		{"statement 1", `yes: "Refunds take five business days." — reason 1`},
		{"statement 2", `yes: "Refunds are free." — reason 2`},
		{"judge", "judge-model"},
	}, res.Details, "what cost the score first")

	reqs := judge.Requests()
	require.Len(t, reqs, 2)
	testify.Equal(t, "statements.extract/1", reqs[0].Metric)
	testify.Equal(t, "Refunds take five business days. They are free. Our office is in Berlin.", reqs[0].Content)
	testify.Empty(t, reqs[0].Input)
	testify.Equal(t, "answer_relevancy.verdicts/1", reqs[1].Metric)
	testify.Equal(t, "How long do refunds take, and are they free?", reqs[1].Input)
	testify.Equal(t, "1. Refunds take five business days.\n2. Refunds are free.\n3. The office is in Berlin.\n", reqs[1].Content)
	testify.Contains(t, reqs[1].Criteria, "lists 3 numbered statements")
	testify.NotEmpty(t, reqs[1].VerdictSchema)

	// idk counts for the score, as DeepEval's; against with PenalizeAmbiguous.
	res, err = assert.AnswerRelevancy{Judge: scripted(threeStatements, verdicts("yes", "idk", "yes"))}.Check(ctx, ragRun())
	require.NoError(t, err)
	testify.True(t, res.Passed)
	testify.Equal(t, 1.0, res.Score)
	testify.Equal(t, "answer relevancy 1: 3 of 3 statements relevant to the question (1 idk, counted for)", res.Summary)
	res, err = assert.AnswerRelevancy{Judge: scripted(threeStatements, verdicts("yes", "idk", "yes")), PenalizeAmbiguous: true}.Check(ctx, ragRun())
	require.NoError(t, err)
	testify.InDelta(t, 2.0/3, res.Score, 1e-9)

	// The question can be given; the knobs reach every request.
	judge = scripted(threeStatements, verdicts("yes", "yes", "yes"))
	_, err = assert.AnswerRelevancy{Judge: judge, Question: "Are refunds free?", Rubric: "Be strict.", Model: "gpt-4.1", SystemPrompt: "You are terse."}.Check(ctx, ragRun())
	require.NoError(t, err)
	for _, r := range judge.Requests() {
		testify.Equal(t, "Be strict.", r.Rubric)
		testify.Equal(t, "gpt-4.1", r.Model)
		testify.Equal(t, "You are terse.", r.SystemPrompt)
	}
	testify.Equal(t, "Are refunds free?", judge.Requests()[1].Input)

	// An assertion holds the threshold.
	min := 0.6
	res, err = assert.Assertion{Eval: assert.AnswerRelevancy{Judge: scripted(threeStatements, verdicts("yes", "yes", "no"))}, MinScore: &min}.Check(ctx, ragRun())
	require.NoError(t, err)
	testify.True(t, res.Passed)
	testify.Equal(t, "score 0.67, want >= 0.60", res.Summary)
	testify.Equal(t, assert.Detail{Label: "check", Text: "answer relevancy 0.67: 2 of 3 statements relevant to the question"}, res.Details[0])
}

// A judge answer missing items, with unknown verdict words or with a count
// that does not match is an error, never a partial score.
func TestAnswerRelevancyErrors(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name  string
		judge evalkit.Judge
		tr    *evalkit.Transcript
		want  string
		is    error
	}{
		{"count", scripted(threeStatements, verdicts("yes", "no")), ragRun(),
			"answer_relevancy: the judge's verdict cannot be graded: the judge gave 2 verdicts for 3 statements: want exactly one per statement", assert.ErrBadVerdict},
		{"word", scripted(threeStatements, verdicts("yes", "maybe", "no")), ragRun(),
			`answer_relevancy: the judge's verdict cannot be graded: verdicts[1].verdict is "maybe": want "yes", "no" or "idk"`, assert.ErrBadVerdict},
		{"no list", scripted(map[string]any{"items": []any{}}), ragRun(),
			`answer_relevancy: the judge's verdict cannot be graded: the answer has no "statements" list (its fields: "items")`, assert.ErrBadVerdict},
		{"not strings", scripted(list("statements", 1.0)), ragRun(),
			`answer_relevancy: the judge's verdict cannot be graded: statements[0] is a number, want a string`, assert.ErrBadVerdict},
		{"verdict not object", scripted(threeStatements, list("verdicts", "yes", "yes", "yes")), ragRun(),
			`answer_relevancy: the judge's verdict cannot be graded: verdicts[0] is a string, want an object with a verdict`, assert.ErrBadVerdict},
		{"no statements", scripted(list("statements")), ragRun(),
			"answer_relevancy: nothing to score: the judge found no statement in messages[1], so its relevancy is undefined", assert.ErrNoItems},
		{"judge error", judgefake.Err(errors.New("HTTP 500")), ragRun(),
			"answer_relevancy: the judge failed (step statements.extract/1): HTTP 500", nil},
		{"score only", judgefake.Fixed(evalkit.Verdict{Score: 0.9, Scored: true}), ragRun(),
			`answer_relevancy: the judge's verdict cannot be graded: asked for a JSON object with a "statements" list (step statements.extract/1), the judge answered only a score, 0.9`, assert.ErrBadVerdict},
		{"no judge", nil, ragRun(), "", assert.ErrNoJudge},
		{"no answer", scripted(), &evalkit.Transcript{Messages: []evalkit.Message{{Role: evalkit.RoleUser, Content: "hi"}}}, "", assert.ErrNoOutput},
		{"no question", scripted(), &evalkit.Transcript{Messages: []evalkit.Message{{Role: evalkit.RoleAssistant, Content: "Hello."}}},
			`answer_relevancy: param "question": the transcript has no user message before messages[0]: give the question`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := assert.AnswerRelevancy{Judge: tt.judge}.Check(ctx, tt.tr)
			require.Error(t, err)
			testify.Equal(t, assert.Result{}, res)
			if tt.want != "" {
				testify.Equal(t, tt.want, err.Error())
			}
			if tt.is != nil {
				testify.ErrorIs(t, err, tt.is)
			}
		})
	}
}

func TestFaithfulness(t *testing.T) {
	ctx := context.Background()
	claims := list("claims", "Refunds take five business days.", "Refunds are free.", "Refunds are sent by cheque.", "The office is in Berlin.")
	judge := scripted(claims, verdicts("yes", "yes", "no", "idk"))
	res, err := assert.Faithfulness{Judge: judge, Contexts: ragDocs}.Check(ctx, ragRun())
	require.NoError(t, err)
	testify.Equal(t, 0.75, res.Score, "(yes + idk) / claims")
	testify.False(t, res.Passed)
	testify.Equal(t, "faithfulness 0.75: 3 of 4 claims supported by the context (1 idk, counted for)", res.Summary)
	testify.Equal(t, assert.Detail{"claim 3", `no: "Refunds are sent by cheque." — reason 3`}, res.Details[0])
	reqs := judge.Requests()
	testify.Equal(t, "claims.extract/1", reqs[0].Metric)
	testify.Equal(t, "faithfulness.verdicts/1", reqs[1].Metric)
	testify.Equal(t, ragDocs, reqs[1].Context)
	testify.Empty(t, reqs[0].Context, "claims are extracted from the answer alone")

	res, err = assert.Faithfulness{Judge: scripted(claims, verdicts("yes", "yes", "no", "idk")), Contexts: ragDocs, PenalizeAmbiguous: true}.Check(ctx, ragRun())
	require.NoError(t, err)
	testify.Equal(t, 0.5, res.Score, "Ragas: yes / claims")

	// No factual claim: nothing the context could contradict, one request.
	judge = scripted(list("claims"))
	res, err = assert.Faithfulness{Judge: judge, Contexts: ragDocs}.Check(ctx, ragRun())
	require.NoError(t, err)
	testify.True(t, res.Passed)
	testify.Equal(t, "faithfulness 1: messages[1] makes no factual claim", res.Summary)
	testify.Len(t, judge.Requests(), 1)

	// The chunks from the transcript's metadata.
	judge = scripted(claims, verdicts("yes", "yes", "yes", "yes"))
	res, err = assert.Faithfulness{Judge: judge, ContextField: "retrieved"}.Check(ctx, ragRun())
	require.NoError(t, err)
	testify.Equal(t, 1.0, res.Score)
	testify.Equal(t, ragDocs[:2], judge.Requests()[1].Context)

	// Errors.
	_, err = assert.Faithfulness{Judge: scripted()}.Check(ctx, ragRun())
	testify.EqualError(t, err, `faithfulness: param "contexts": no context: give the retrieved chunks (contexts, context or context_field)`)
	_, err = assert.Faithfulness{Judge: scripted(), Contexts: []string{"a", " "}}.Check(ctx, ragRun())
	testify.EqualError(t, err, `faithfulness: param "contexts": context 1 is empty`)
	_, err = assert.Faithfulness{Judge: scripted(), ContextField: "docs"}.Check(ctx, ragRun())
	testify.EqualError(t, err, `faithfulness: param "context_field": the transcript's metadata has no "docs" (its keys: "retrieved")`)
	_, err = assert.Faithfulness{Judge: scripted(claims, verdicts("yes", "yes", "yes")), Contexts: ragDocs}.Check(ctx, ragRun())
	testify.ErrorIs(t, err, assert.ErrBadVerdict)
}

func TestHallucination(t *testing.T) {
	ctx := context.Background()
	judge := scripted(verdicts("yes", "no", "yes"))
	res, err := assert.Hallucination{Judge: judge, Contexts: ragDocs}.Check(ctx, ragRun())
	require.NoError(t, err)
	testify.InDelta(t, 2.0/3, res.Score, 1e-9, "1 − contradicted / contexts")
	testify.Equal(t, "hallucination 0.67: the answer contradicts 1 of 3 contexts", res.Summary)
	testify.Equal(t, assert.Detail{"context 2", `no: "Refunds are free of charge." — reason 2`}, res.Details[0])
	reqs := judge.Requests()
	require.Len(t, reqs, 1)
	testify.Equal(t, "hallucination.verdicts/1", reqs[0].Metric)
	testify.Equal(t, "Refunds take five business days. They are free. Our office is in Berlin.", reqs[0].Content)

	res, err = assert.Hallucination{Judge: scripted(verdicts("yes", "yes", "yes")), Contexts: ragDocs}.Check(ctx, ragRun())
	require.NoError(t, err)
	testify.True(t, res.Passed)
	testify.Equal(t, 1.0, res.Score, "1.0 means no hallucination")

	_, err = assert.Hallucination{Judge: scripted(verdicts("yes", "idk", "yes")), Contexts: ragDocs}.Check(ctx, ragRun())
	testify.EqualError(t, err, `hallucination: the judge's verdict cannot be graded: verdicts[1].verdict is "idk": want "yes" or "no"`)
	_, err = assert.Hallucination{Judge: scripted(verdicts("yes")), Contexts: ragDocs}.Check(ctx, ragRun())
	testify.EqualError(t, err, "hallucination: the judge's verdict cannot be graded: the judge gave 1 verdict for 3 contexts: want exactly one per context")
}

func TestContextualPrecision(t *testing.T) {
	ctx := context.Background()
	docs := append(ragDocs, "Shipping is free over $50.")
	for _, tt := range []struct {
		words []string
		score float64
		sum   string
	}{
		{[]string{"yes", "no", "yes", "no"}, (1.0/1 + 2.0/3) / 2, "contextual precision 0.83: 2 of 4 contexts relevant, not all ranked first"},
		{[]string{"yes", "yes", "no", "no"}, 1, "contextual precision 1: 2 of 4 contexts relevant"},
		{[]string{"no", "no", "no", "yes"}, 0.25, "contextual precision 0.25: 1 of 4 contexts relevant, not all ranked first"},
		{[]string{"no", "no", "no", "no"}, 0, "contextual precision 0: 0 of 4 contexts relevant"},
	} {
		judge := scripted(verdicts(tt.words...))
		res, err := assert.ContextualPrecision{Judge: judge, Contexts: docs, Reference: "Five business days, free."}.Check(ctx, ragRun())
		require.NoError(t, err)
		testify.InDelta(t, tt.score, res.Score, 1e-9, "%v", tt.words)
		testify.Equal(t, tt.sum, res.Summary)
		req := judge.Requests()[0]
		testify.Equal(t, "How long do refunds take, and are they free?", req.Input)
		testify.Equal(t, "Five business days, free.", req.Reference)
		testify.Empty(t, req.Content, "the answer is not what precision grades")
		testify.Len(t, res.Details, 5, "every chunk in rank order, then the judge")
		testify.Equal(t, "context 1", res.Details[0].Label)
	}
}

func TestContextualRecall(t *testing.T) {
	ctx := context.Background()
	judge := scripted(list("statements", "Refunds take five business days.", "Refunds are sent to the card."), verdicts("yes", "no"))
	res, err := assert.ContextualRecall{Judge: judge, Contexts: ragDocs, Reference: "Refunds take five business days and go back to the card."}.Check(ctx, ragRun())
	require.NoError(t, err)
	testify.Equal(t, 0.5, res.Score)
	testify.Equal(t, "contextual recall 0.50: the context supports 1 of the reference's 2 statements", res.Summary)
	reqs := judge.Requests()
	testify.Equal(t, "Refunds take five business days and go back to the card.", reqs[0].Content, "statements of the reference")
	testify.Equal(t, "contextual_recall.verdicts/1", reqs[1].Metric)

	_, err = assert.ContextualRecall{Judge: scripted(), Contexts: ragDocs}.Check(ctx, ragRun())
	testify.EqualError(t, err, `contextual_recall: param "reference": required: the ground-truth answer whose statements the context should cover`)
	_, err = assert.ContextualRecall{Judge: scripted(list("statements")), Contexts: ragDocs, Reference: "x"}.Check(ctx, ragRun())
	testify.ErrorIs(t, err, assert.ErrNoItems)
}

func TestContextualRelevancy(t *testing.T) {
	ctx := context.Background()
	stmt := func(text, word string) any {
		return map[string]any{"statement": text, "verdict": word, "reason": "because"}
	}
	doc := func(stmts ...any) any { return map[string]any{"statements": stmts} }
	judge := scripted(list("documents",
		doc(stmt("Refunds are issued within five business days.", "yes"), stmt("This is the refunds page.", "no")),
		doc(stmt("Refunds are free of charge.", "yes")),
	))
	res, err := assert.ContextualRelevancy{Judge: judge, Contexts: ragDocs[:2]}.Check(ctx, ragRun())
	require.NoError(t, err)
	testify.Equal(t, 0.75, res.Score, "mean of 1/2 and 1/1")
	testify.Equal(t, "contextual relevancy 0.75: the mean relevance of 2 contexts to the question", res.Summary)
	testify.Equal(t, assert.Detail{"context 1", `0.50 (1 of 2 statements relevant): "This is the refunds page." — not relevant: because`}, res.Details[0])
	testify.Equal(t, assert.Detail{"context 2", "1 (1 of 1 statement relevant)"}, res.Details[1])
	testify.Equal(t, "contextual_relevancy.verdicts/1", judge.Requests()[0].Metric)

	for _, tt := range []struct {
		answer map[string]any
		want   string
	}{
		{list("documents", doc(stmt("a", "yes"))), "contextual_relevancy: the judge's verdict cannot be graded: the judge gave 1 entry for 2 contexts: want exactly one per context"},
		{list("documents", doc(), doc(stmt("a", "yes"))), "contextual_relevancy: the judge's verdict cannot be graded: documents[0].statements is empty: every context needs at least one statement"},
		{list("documents", doc(stmt("a", "idk")), doc(stmt("a", "yes"))), `contextual_relevancy: the judge's verdict cannot be graded: documents[0].statements[0].verdict is "idk": want "yes" or "no"`},
		{list("documents", doc(map[string]any{"verdict": "yes"}), doc(stmt("a", "yes"))), "contextual_relevancy: the judge's verdict cannot be graded: documents[0].statements[0] has no \"statement\" string"},
	} {
		_, err := assert.ContextualRelevancy{Judge: scripted(tt.answer), Contexts: ragDocs[:2]}.Check(ctx, ragRun())
		testify.EqualError(t, err, tt.want)
	}
}

// Through the registry, with PromptKit's params and Ragas' names; the
// judge is the registry's.
func TestRAGRegistry(t *testing.T) {
	ctx := context.Background()
	judge := scripted(verdicts("yes", "no"))
	reg := assert.NewRegistry().WithJudge(judge)
	res, err := reg.Eval(ctx, "context_precision", ragRun(), map[string]any{"context_field": "retrieved", "expected_output": "Five days."})
	require.NoError(t, err)
	testify.Equal(t, 1.0, res.Score)
	testify.Equal(t, "Five days.", judge.Requests()[0].Reference)

	reg = assert.NewRegistry().WithJudge(scripted(list("claims", "Refunds take five business days.", "Refunds are sent by cheque."), verdicts("yes", "no")))
	res, err = reg.Eval(ctx, "assertion", ragRun(), map[string]any{"eval_type": "faithfulness", "min_score": 0.5,
		"eval_params": map[string]any{"context": ragDocs[0]}})
	require.NoError(t, err)
	testify.True(t, res.Passed)
	testify.Equal(t, "score 0.50, want >= 0.50", res.Summary)

	_, err = assert.NewRegistry().Build("faithfulness", map[string]any{"contexts": ragDocs})
	testify.ErrorIs(t, err, assert.ErrNoJudge)
	err = assert.Validate("faithfulness", map[string]any{"contexts": ragDocs, "min_score": 0.8})
	testify.EqualError(t, err, `faithfulness: param "min_score": faithfulness emits a score and holds no threshold: wrap it in type: assertion with eval_type "faithfulness" and min_score (assert.Assertion in Go)`)
	err = assert.Validate("faithfulness", map[string]any{"contexts": ragDocs, "context_field": "x"})
	testify.EqualError(t, err, `faithfulness: param "context_field": give the contexts or a context_field, not both`)
	err = assert.Validate("faithfulness", map[string]any{"contexts": ragDocs, "context": "x"})
	testify.EqualError(t, err, `faithfulness: param "context": give only one of contexts, context`)
}
