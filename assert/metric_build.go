package assert

import (
	"fmt"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/internal/textnorm"
)

// The registry builders and descriptions of the model-graded metrics.

// ragWants says which params a RAG metric takes beyond the knobs.
type ragWants struct{ contexts, question, reference, penalize bool }

// ragParams are a RAG metric's declarative params.
type ragParams struct {
	judge                       evalkit.Judge
	rubric, model, systemPrompt string
	contexts                    []string
	field                       string
	question, reference         string
	penalize                    bool
}

func readRAG(p *params, w ragWants) (ragParams, error) {
	var r ragParams
	var err error
	if err = noThreshold(p); err != nil {
		return r, err
	}
	if r.rubric, r.model, r.systemPrompt, err = readMetricKnobs(p, true); err != nil {
		return r, err
	}
	if w.contexts {
		if r.contexts, _, err = p.strs(false, "contexts", "context"); err != nil {
			return r, err
		}
		if r.field, _, err = p.str(false, "context_field"); err != nil {
			return r, err
		}
	}
	if w.question {
		if r.question, _, err = p.str(false, "question"); err != nil {
			return r, err
		}
	}
	if w.reference {
		if r.reference, _, err = p.str(false, "reference", "expected_output"); err != nil {
			return r, err
		}
	}
	if w.penalize {
		if r.penalize, _, err = p.boolean("penalize_ambiguous"); err != nil {
			return r, err
		}
	}
	r.judge = metricJudgeParam(p)
	return r, nil
}

func buildAnswerRelevancy(p *params) (Check, error) {
	r, err := readRAG(p, ragWants{question: true, penalize: true})
	if err != nil {
		return nil, err
	}
	return AnswerRelevancy{Judge: r.judge, Question: r.question, PenalizeAmbiguous: r.penalize, Rubric: r.rubric, Model: r.model, SystemPrompt: r.systemPrompt}, nil
}

func buildFaithfulness(p *params) (Check, error) {
	r, err := readRAG(p, ragWants{contexts: true, penalize: true})
	if err != nil {
		return nil, err
	}
	return Faithfulness{Judge: r.judge, Contexts: r.contexts, ContextField: r.field, PenalizeAmbiguous: r.penalize, Rubric: r.rubric, Model: r.model, SystemPrompt: r.systemPrompt}, nil
}

func buildHallucination(p *params) (Check, error) {
	r, err := readRAG(p, ragWants{contexts: true})
	if err != nil {
		return nil, err
	}
	return Hallucination{Judge: r.judge, Contexts: r.contexts, ContextField: r.field, Rubric: r.rubric, Model: r.model, SystemPrompt: r.systemPrompt}, nil
}

func buildContextualPrecision(p *params) (Check, error) {
	r, err := readRAG(p, ragWants{contexts: true, question: true, reference: true})
	if err != nil {
		return nil, err
	}
	return ContextualPrecision{Judge: r.judge, Contexts: r.contexts, ContextField: r.field, Question: r.question, Reference: r.reference,
		Rubric: r.rubric, Model: r.model, SystemPrompt: r.systemPrompt}, nil
}

func buildContextualRecall(p *params) (Check, error) {
	r, err := readRAG(p, ragWants{contexts: true, question: true, reference: true})
	if err != nil {
		return nil, err
	}
	return ContextualRecall{Judge: r.judge, Contexts: r.contexts, ContextField: r.field, Question: r.question, Reference: r.reference,
		Rubric: r.rubric, Model: r.model, SystemPrompt: r.systemPrompt}, nil
}

func buildContextualRelevancy(p *params) (Check, error) {
	r, err := readRAG(p, ragWants{contexts: true, question: true})
	if err != nil {
		return nil, err
	}
	return ContextualRelevancy{Judge: r.judge, Contexts: r.contexts, ContextField: r.field, Question: r.question,
		Rubric: r.rubric, Model: r.model, SystemPrompt: r.systemPrompt}, nil
}

func (c AnswerRelevancy) validate() error {
	return newMetricJudge("answer_relevancy", c.Judge, "", "", "").validate()
}

func (c Hallucination) validate() error {
	if err := validateContextSource("hallucination", c.Contexts, c.ContextField); err != nil {
		return err
	}
	return newMetricJudge("hallucination", c.Judge, "", "", "").validate()
}

func (c ContextualPrecision) validate() error {
	if err := validateContextSource("contextual_precision", c.Contexts, c.ContextField); err != nil {
		return err
	}
	return newMetricJudge("contextual_precision", c.Judge, "", "", "").validate()
}

func (c ContextualRelevancy) validate() error {
	if err := validateContextSource("contextual_relevancy", c.Contexts, c.ContextField); err != nil {
		return err
	}
	return newMetricJudge("contextual_relevancy", c.Judge, "", "", "").validate()
}

// contextWords names a metric's chunks for a description: "3 chunks",
// "the chunks in metadata "retrieved"".
func contextWords(contexts []string, field string) string {
	if field != "" {
		return fmt.Sprintf("the chunks in metadata %q", field)
	}
	return plural(len(contexts), "chunk")
}

// Describe implements Describer.
func (c AnswerRelevancy) Describe() string {
	return "a judge scores how much of the last assistant message addresses the question (answer_relevancy, score in [0,1])"
}

// Describe implements Describer.
func (c Faithfulness) Describe() string {
	return describeLine(fmt.Sprintf("a judge scores how much of the last assistant message the context supports (faithfulness, %s, score in [0,1])", contextWords(c.Contexts, c.ContextField)))
}

// Describe implements Describer.
func (c Hallucination) Describe() string {
	return describeLine(fmt.Sprintf("a judge scores how free the last assistant message is of contradictions of the context (hallucination, %s, 1 = none, score in [0,1])", contextWords(c.Contexts, c.ContextField)))
}

// Describe implements Describer.
func (c ContextualPrecision) Describe() string {
	return describeLine(fmt.Sprintf("a judge scores whether the context's relevant chunks are ranked first (contextual_precision, %s, score in [0,1])", contextWords(c.Contexts, c.ContextField)))
}

// Describe implements Describer.
func (c ContextualRecall) Describe() string {
	return describeLine(fmt.Sprintf("a judge scores how much of the reference %s the context covers (contextual_recall, %s, score in [0,1])", textnorm.Quote(c.Reference, 60), contextWords(c.Contexts, c.ContextField)))
}

// Describe implements Describer.
func (c ContextualRelevancy) Describe() string {
	return describeLine(fmt.Sprintf("a judge scores how relevant the context is to the question (contextual_relevancy, %s, score in [0,1])", contextWords(c.Contexts, c.ContextField)))
}
