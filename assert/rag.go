package assert

import (
	"context"
	"fmt"
	"strings"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/internal/judgeprompt"
	"github.com/evalkit-go/evalkit/internal/textnorm"
)

// RAG and answer metrics: model-graded, computed by evalkit from the
// judge's per-item answers (see metric.go). Each reads the last assistant
// message as the answer and the last user message before it as the
// question, unless given.

// AnswerRelevancy scores how much of the answer addresses the question, as
// DeepEval's and Ragas' answer_relevancy (DeepEval's method): the judge
// splits the answer into statements, then gives each a verdict — "yes"
// (addresses the question), "no" (beside the point) or "idk" (supporting
// detail) — and
//
//	score = (yes + idk) / statements     (idk counts against with PenalizeAmbiguous)
//
// in [0,1], 1 when every statement is relevant. Two judge requests (steps
// statements.extract/1 and answer_relevancy.verdicts/1 of package
// internal/judgeprompt), each recorded like any judged check's. The
// Result's Details list every statement with its verdict and the judge's
// reason, those counted against first. Used alone it passes only a score
// of 1: wrap it in an Assertion (MinScore) to accept less.
//
// Errors, never scores: no Judge (ErrNoJudge), no assistant answer
// (ErrNoOutput), no question (no user message before the answer and no
// Question), the judge's own error, an answer without its list, with a
// verdict count that does not match the statements, or with a verdict word
// other than yes, no and idk (ErrBadVerdict), and an answer in which the
// judge finds no statement at all (ErrNoItems: relevancy is undefined).
//
// Registry type "answer_relevancy", params: question, penalize_ambiguous,
// rubric and criteria (extra guidance for the judge; the task and its
// answer shape are fixed), model, system_prompt (the judge's). As
// PromptKit's answer_relevancy.
type AnswerRelevancy struct {
	Judge evalkit.Judge
	// Question overrides the last user message as the question.
	Question string
	// PenalizeAmbiguous counts "idk" verdicts against the score.
	PenalizeAmbiguous bool
	// Rubric is extra guidance for the judge, added to the metric's task.
	Rubric string
	// Model asks the judge for a model other than its default.
	Model string
	// SystemPrompt replaces the judge's system prompt.
	SystemPrompt string
}

// Faithfulness scores how much of the answer the retrieved context
// supports, as DeepEval's and Ragas' faithfulness (DeepEval's method): the
// judge lists the answer's factual claims, then gives each a verdict
// against the Contexts — "yes" (supported), "no" (contradicted) or "idk"
// (neither) — and
//
//	score = (yes + idk) / claims     (Ragas' stricter yes / claims with PenalizeAmbiguous)
//
// in [0,1]; an answer with no factual claim scores 1 (it asserts nothing
// the context could contradict). Two judge requests (claims.extract/1,
// faithfulness.verdicts/1). Details, errors and passing alone are
// AnswerRelevancy's; contexts are required (none, or an empty one, is a
// *ParamError).
//
// Registry type "faithfulness", params: contexts (a list), context (a
// string or a list), context_field (a key of the transcript's Metadata
// holding a string or a list of strings) — one of them —, penalize_ambiguous,
// rubric, criteria, model, system_prompt. As PromptKit's faithfulness.
type Faithfulness struct {
	Judge evalkit.Judge
	// Contexts are the retrieved chunks the answer should be grounded in.
	Contexts []string
	// ContextField, instead of Contexts, names the transcript's Metadata
	// key that holds them.
	ContextField      string
	PenalizeAmbiguous bool
	Rubric            string
	Model             string
	SystemPrompt      string
}

// Hallucination scores how free the answer is of contradictions of the
// context, as DeepEval's hallucination turned so that higher is better (as
// PromptKit's hallucination: 1.0 means no hallucination): the judge gives
// each context document a verdict — "no" when the answer contradicts it,
// "yes" when it agrees or does not touch it — and
//
//	score = 1 − contradicted / contexts
//
// in [0,1]. One judge request (hallucination.verdicts/1), one verdict per
// document. Details, errors and passing alone are Faithfulness's.
//
// Registry type "hallucination", params: contexts, context, context_field,
// rubric, criteria, model, system_prompt.
type Hallucination struct {
	Judge        evalkit.Judge
	Contexts     []string
	ContextField string
	Rubric       string
	Model        string
	SystemPrompt string
}

// ContextualPrecision scores whether the relevant retrieved chunks are
// ranked above the irrelevant ones, as DeepEval's contextual_precision
// (Ragas' context_precision): the judge gives each chunk, in rank order, a
// verdict — "yes" when it is useful for answering the question (for
// arriving at the Reference when given), "no" otherwise — and the score is
// the weighted cumulative precision
//
//	score = (1/R) × Σₖ relₖ × (relevant chunks in ranks 1..k) / k
//
// over ranks k = 1..n, where relₖ is 1 for a relevant chunk and R the
// number of relevant chunks; 0 when none is relevant. It is 1 when every
// relevant chunk comes before every irrelevant one. One judge request
// (contextual_precision.verdicts/1). Details list each chunk's verdict;
// errors and passing alone are Faithfulness's.
//
// Registry type "contextual_precision" (alias "context_precision"),
// params: contexts, context, context_field, question, reference (alias
// expected_output), rubric, criteria, model, system_prompt. As PromptKit's
// contextual_precision.
type ContextualPrecision struct {
	Judge        evalkit.Judge
	Contexts     []string
	ContextField string
	Question     string
	// Reference is the expected answer the chunks should lead to; optional.
	Reference    string
	Rubric       string
	Model        string
	SystemPrompt string
}

// ContextualRecall scores how much of the reference answer the retrieved
// chunks cover, as DeepEval's contextual_recall (Ragas' context_recall):
// the judge splits the Reference into statements, then gives each a
// verdict — "yes" when some chunk supports it, "no" otherwise — and
//
//	score = yes / statements
//
// in [0,1]. Two judge requests (statements.extract/1,
// contextual_recall.verdicts/1). The Reference is required; a reference in
// which the judge finds no statement is an error (ErrNoItems). Details,
// other errors and passing alone are Faithfulness's.
//
// Registry type "contextual_recall" (alias "context_recall"), params:
// contexts, context, context_field, reference (alias expected_output,
// required), question, rubric, criteria, model, system_prompt. As
// PromptKit's contextual_recall.
type ContextualRecall struct {
	Judge        evalkit.Judge
	Contexts     []string
	ContextField string
	// Reference is the ground-truth answer. Required.
	Reference    string
	Question     string
	Rubric       string
	Model        string
	SystemPrompt string
}

// ContextualRelevancy scores how relevant the retrieved chunks are to the
// question, as PromptKit's contextual_relevancy (the mean of per-chunk
// relevance) on DeepEval's statement method: for each chunk the judge
// lists its statements, each with a verdict "yes" (relevant to the
// question) or "no", and
//
//	relevanceᵢ = relevant statements of chunk i / statements of chunk i
//	score      = mean of relevanceᵢ over the chunks
//
// in [0,1]. One judge request (contextual_relevancy.verdicts/1), exactly
// one entry per chunk, each with at least one statement. Details list each
// chunk's relevance and the first statement counted against it; errors and
// passing alone are Faithfulness's.
//
// Registry type "contextual_relevancy" (alias "context_relevancy"),
// params: contexts, context, context_field, question, rubric, criteria,
// model, system_prompt.
type ContextualRelevancy struct {
	Judge        evalkit.Judge
	Contexts     []string
	ContextField string
	Question     string
	Rubric       string
	Model        string
	SystemPrompt string
}

func ragChecks() map[string]func(*params) (Check, error) {
	return map[string]func(*params) (Check, error){
		"answer_relevancy":     buildAnswerRelevancy,
		"faithfulness":         buildFaithfulness,
		"hallucination":        buildHallucination,
		"contextual_precision": buildContextualPrecision,
		"contextual_recall":    buildContextualRecall,
		"contextual_relevancy": buildContextualRelevancy,
	}
}

// Check implements Check.
func (c AnswerRelevancy) Check(ctx context.Context, tr *evalkit.Transcript) (Result, error) {
	m := newMetricJudge("answer_relevancy", c.Judge, c.Rubric, c.Model, c.SystemPrompt)
	if err := c.validate(); err != nil {
		return Result{}, err
	}
	ans, err := metricAnswer(m.check, tr)
	if err != nil {
		return Result{}, err
	}
	question, err := metricQuestion(m.check, c.Question, tr, ans)
	if err != nil {
		return Result{}, err
	}
	stmts, err := m.extract(ctx, judgeprompt.Statements, ans.text)
	if err != nil {
		return Result{}, err
	}
	if len(stmts) == 0 {
		return Result{}, fmt.Errorf("%s: %w: the judge found no statement in %s, so its relevancy is undefined", m.check, ErrNoItems, ans.label())
	}
	vs, err := m.verdicts(ctx, len(stmts), "statement", evalkit.JudgeRequest{Input: question, Content: judgeprompt.NumberedList(stmts)})
	if err != nil {
		return Result{}, err
	}
	return countedResult(m, stmts, vs, "statement", counts{yes: true, idk: !c.PenalizeAmbiguous}, func(n, of int, score float64) string {
		return fmt.Sprintf("answer relevancy %s: %d of %s relevant to the question%s", fmtRatio(score), n, plural(of, "statement"), idkNote(vs, c.PenalizeAmbiguous))
	}), nil
}

// counts says which verdicts count towards a ratio.
type counts struct{ yes, no, idk bool }

func (k counts) of(verdict string) bool {
	switch verdict {
	case "yes":
		return k.yes
	case "no":
		return k.no
	case "idk":
		return k.idk
	}
	return false
}

// countedResult is the Result of a ratio over items: the items counted by
// k over all of them.
func countedResult(m *metricJudge, items []string, vs []itemVerdict, noun string, k counts, summary func(n, of int, score float64) string) Result {
	lines := make([]itemLine, len(items))
	n := 0
	for i := range items {
		if k.of(vs[i].verdict) {
			n++
		}
		lines[i] = itemLine{label: fmt.Sprintf("%s %d", noun, i+1), verdict: vs[i].verdict, text: items[i], reason: vs[i].reason}
	}
	score := ratio(n, len(items))
	return metricResult(m, score, summary(n, len(items), score), lines, func(l itemLine) bool { return !k.of(l.verdict) })
}

// idkNote says how "idk" verdicts were counted, when there were any.
func idkNote(vs []itemVerdict, penalize bool) string {
	n := 0
	for _, v := range vs {
		if v.verdict == "idk" {
			n++
		}
	}
	switch {
	case n == 0:
		return ""
	case penalize:
		return fmt.Sprintf(" (%d idk, counted against)", n)
	}
	return fmt.Sprintf(" (%d idk, counted for)", n)
}

// Check implements Check.
func (c Faithfulness) Check(ctx context.Context, tr *evalkit.Transcript) (Result, error) {
	m := newMetricJudge("faithfulness", c.Judge, c.Rubric, c.Model, c.SystemPrompt)
	if err := c.validate(); err != nil {
		return Result{}, err
	}
	ans, err := metricAnswer(m.check, tr)
	if err != nil {
		return Result{}, err
	}
	docs, err := metricContexts(m.check, c.Contexts, c.ContextField, tr)
	if err != nil {
		return Result{}, err
	}
	claims, err := m.extract(ctx, judgeprompt.Claims, ans.text)
	if err != nil {
		return Result{}, err
	}
	if len(claims) == 0 {
		return metricResult(m, 1, fmt.Sprintf("faithfulness 1: %s makes no factual claim", ans.label()), nil, nil), nil
	}
	vs, err := m.verdicts(ctx, len(claims), "claim", evalkit.JudgeRequest{Content: judgeprompt.NumberedList(claims), Context: docs})
	if err != nil {
		return Result{}, err
	}
	return countedResult(m, claims, vs, "claim", counts{yes: true, idk: !c.PenalizeAmbiguous}, func(n, of int, score float64) string {
		return fmt.Sprintf("faithfulness %s: %d of %s supported by the context%s", fmtRatio(score), n, plural(of, "claim"), idkNote(vs, c.PenalizeAmbiguous))
	}), nil
}

func (c Faithfulness) validate() error {
	if err := validateContextSource("faithfulness", c.Contexts, c.ContextField); err != nil {
		return err
	}
	return newMetricJudge("faithfulness", c.Judge, "", "", "").validate()
}

// docLines are the Details of a per-document verdict: "context 2".
func docLines(docs []string, vs []itemVerdict) []itemLine {
	lines := make([]itemLine, len(docs))
	for i := range docs {
		lines[i] = itemLine{label: fmt.Sprintf("context %d", i+1), verdict: vs[i].verdict, text: textnorm.Excerpt(docs[i], 80), reason: vs[i].reason}
	}
	return lines
}

// Check implements Check.
func (c Hallucination) Check(ctx context.Context, tr *evalkit.Transcript) (Result, error) {
	m := newMetricJudge("hallucination", c.Judge, c.Rubric, c.Model, c.SystemPrompt)
	if err := c.validate(); err != nil {
		return Result{}, err
	}
	ans, err := metricAnswer(m.check, tr)
	if err != nil {
		return Result{}, err
	}
	docs, err := metricContexts(m.check, c.Contexts, c.ContextField, tr)
	if err != nil {
		return Result{}, err
	}
	vs, err := m.verdicts(ctx, len(docs), "context", evalkit.JudgeRequest{Content: ans.text, Context: docs})
	if err != nil {
		return Result{}, err
	}
	contradicted := 0
	for _, v := range vs {
		if v.verdict == "no" {
			contradicted++
		}
	}
	score := 1 - ratio(contradicted, len(docs))
	summary := fmt.Sprintf("hallucination %s: the answer contradicts %d of %s", fmtRatio(score), contradicted, plural(len(docs), "context"))
	return metricResult(m, score, summary, docLines(docs, vs), func(l itemLine) bool { return l.verdict == "no" }), nil
}

// Check implements Check.
func (c ContextualPrecision) Check(ctx context.Context, tr *evalkit.Transcript) (Result, error) {
	m := newMetricJudge("contextual_precision", c.Judge, c.Rubric, c.Model, c.SystemPrompt)
	if err := c.validate(); err != nil {
		return Result{}, err
	}
	question, docs, err := questionAndContexts(m.check, c.Question, c.Contexts, c.ContextField, tr)
	if err != nil {
		return Result{}, err
	}
	vs, err := m.verdicts(ctx, len(docs), "context", evalkit.JudgeRequest{Input: question, Reference: c.Reference, Context: docs})
	if err != nil {
		return Result{}, err
	}
	rel := make([]bool, len(vs))
	for i, v := range vs {
		rel[i] = v.verdict == "yes"
	}
	score, r := weightedPrecision(rel)
	summary := fmt.Sprintf("contextual precision %s: %d of %s relevant", fmtRatio(score), r, plural(len(docs), "context"))
	if r > 0 && score < 1 {
		summary += ", not all ranked first"
	}
	return metricResult(m, score, summary, docLines(docs, vs), nil), nil
}

// weightedPrecision is the weighted cumulative precision of a ranking
// (rel[k] reports whether rank k+1 is relevant): (1/R) Σ relₖ·P@k, with R
// the relevant count; 0 when R is 0.
func weightedPrecision(rel []bool) (score float64, relevant int) {
	sum := 0.0
	for k, r := range rel {
		if r {
			relevant++
			sum += float64(relevant) / float64(k+1)
		}
	}
	if relevant == 0 {
		return 0, 0
	}
	return sum / float64(relevant), relevant
}

// questionAndContexts resolves a contextual metric's question (given, or
// the last user message before the last assistant message, or the last
// user message when the transcript has no answer yet) and chunks.
func questionAndContexts(check, given string, contexts []string, field string, tr *evalkit.Transcript) (string, []string, error) {
	docs, err := metricContexts(check, contexts, field, tr)
	if err != nil {
		return "", nil, err
	}
	if given != "" {
		return given, docs, nil
	}
	if tr == nil {
		return "", nil, paramErr(check, "question", "the transcript is nil: give the question")
	}
	end := len(tr.Messages)
	if o, err := outputs(check, tr, Turn); err == nil {
		end = o[0].index
	}
	q := lastUserBefore(tr, end)
	if q == "" {
		return "", nil, paramErr(check, "question", "the transcript has no user message to take the question from: give the question")
	}
	return q, docs, nil
}

// Check implements Check.
func (c ContextualRecall) Check(ctx context.Context, tr *evalkit.Transcript) (Result, error) {
	m := newMetricJudge("contextual_recall", c.Judge, c.Rubric, c.Model, c.SystemPrompt)
	if err := c.validate(); err != nil {
		return Result{}, err
	}
	docs, err := metricContexts(m.check, c.Contexts, c.ContextField, tr)
	if err != nil {
		return Result{}, err
	}
	stmts, err := m.extract(ctx, judgeprompt.Statements, c.Reference)
	if err != nil {
		return Result{}, err
	}
	if len(stmts) == 0 {
		return Result{}, fmt.Errorf("%s: %w: the judge found no statement in the reference, so recall is undefined", m.check, ErrNoItems)
	}
	vs, err := m.verdicts(ctx, len(stmts), "statement", evalkit.JudgeRequest{Input: c.Question, Content: judgeprompt.NumberedList(stmts), Context: docs})
	if err != nil {
		return Result{}, err
	}
	return countedResult(m, stmts, vs, "statement", counts{yes: true}, func(n, of int, score float64) string {
		return fmt.Sprintf("contextual recall %s: the context supports %d of the reference's %s", fmtRatio(score), n, plural(of, "statement"))
	}), nil
}

func (c ContextualRecall) validate() error {
	if err := validateContextSource("contextual_recall", c.Contexts, c.ContextField); err != nil {
		return err
	}
	if strings.TrimSpace(c.Reference) == "" {
		return paramErr("contextual_recall", "reference", "required: the ground-truth answer whose statements the context should cover")
	}
	return newMetricJudge("contextual_recall", c.Judge, "", "", "").validate()
}

// Check implements Check.
func (c ContextualRelevancy) Check(ctx context.Context, tr *evalkit.Transcript) (Result, error) {
	m := newMetricJudge("contextual_relevancy", c.Judge, c.Rubric, c.Model, c.SystemPrompt)
	if err := c.validate(); err != nil {
		return Result{}, err
	}
	question, docs, err := questionAndContexts(m.check, c.Question, c.Contexts, c.ContextField, tr)
	if err != nil {
		return Result{}, err
	}
	step, err := judgeprompt.RelevancyStep(len(docs))
	if err != nil {
		return Result{}, fmt.Errorf("%s: %w", m.check, err)
	}
	v, err := m.ask(ctx, step, evalkit.JudgeRequest{Input: question, Context: docs})
	if err != nil {
		return Result{}, err
	}
	list, err := listField(m.check, v.Fields, step.List)
	if err != nil {
		return Result{}, err
	}
	if len(list) != len(docs) {
		return Result{}, badVerdict(m.check, "the judge gave %s for %s: want exactly one per context", plural(len(list), "entry"), plural(len(docs), "context"))
	}
	var lines []itemLine
	sum := 0.0
	for i, it := range list {
		obj, ok := it.(map[string]any)
		if !ok {
			return Result{}, badVerdict(m.check, "documents[%d] is %s, want an object with statements", i, kindOf(it))
		}
		key := fmt.Sprintf("documents[%d].statements", i)
		stmts, err := listField(m.check, obj, "statements")
		if err != nil {
			return Result{}, badVerdict(m.check, "documents[%d]: the entry has no statements list", i)
		}
		if len(stmts) == 0 {
			return Result{}, badVerdict(m.check, "%s is empty: every context needs at least one statement", key)
		}
		vs, err := readVerdicts(m.check, key, stmts, []string{"yes", "no"}, "statement")
		if err != nil {
			return Result{}, err
		}
		relevant := 0
		var first *itemVerdict
		for j := range vs {
			if vs[j].verdict == "yes" {
				relevant++
			} else if first == nil {
				first = &vs[j]
			}
		}
		r := ratio(relevant, len(vs))
		sum += r
		line := itemLine{label: fmt.Sprintf("context %d", i+1), verdict: fmt.Sprintf("%s (%d of %s relevant)", fmtRatio(r), relevant, plural(len(vs), "statement"))}
		if first != nil {
			line.text, line.reason = first.text, "not relevant: "+first.reason
		}
		lines = append(lines, line)
	}
	score := sum / float64(len(docs))
	summary := fmt.Sprintf("contextual relevancy %s: the mean relevance of %s to the question", fmtRatio(score), plural(len(docs), "context"))
	return metricResult(m, score, summary, lines, nil), nil
}
