package assert

import (
	"context"
	"fmt"

	"github.com/evalkit-go/evalkit"
)

// metricSetup holds the options only the metrics take (MetricCheck).
type metricSetup struct {
	question     *string
	penalize     bool
	role         *string
	patternsOnly bool
	kinds        []string
	session      bool
	window       *int
}

// set names the first metric-only option given, or "".
func (m metricSetup) set() string {
	switch {
	case m.question != nil:
		return "Question"
	case m.penalize:
		return "PenalizeAmbiguous"
	case m.role != nil:
		return "Role"
	case m.patternsOnly:
		return "PatternsOnly"
	case m.kinds != nil:
		return "PIIKinds"
	case m.session:
		return "WholeSession"
	case m.window != nil:
		return "Window"
	}
	return ""
}

// Question sets the question a metric judges against, instead of the last
// user message (answer_relevancy and the contextual metrics).
func Question(q string) JudgeOption {
	return JudgeOption{"Question(" + cutQuote(q) + ")", func(s *judgeSetup) { s.metric.question = &q }}
}

// PenalizeAmbiguous counts "idk" verdicts against answer_relevancy's and
// faithfulness's score (Ragas' stricter reading).
func PenalizeAmbiguous() JudgeOption {
	return JudgeOption{"PenalizeAmbiguous()", func(s *judgeSetup) { s.metric.penalize = true }}
}

// Role sets the role role_violation and role_adherence hold the output
// to, instead of the transcript's system prompt.
func Role(role string) JudgeOption {
	return JudgeOption{"Role(" + cutQuote(role) + ")", func(s *judgeSetup) { s.metric.role = &role }}
}

// PatternsOnly makes pii_leakage its deterministic pre-pass alone
// (PIIPatterns): no judge is asked, and none is needed.
func PatternsOnly() JudgeOption {
	return JudgeOption{"PatternsOnly()", func(s *judgeSetup) { s.metric.patternsOnly = true }}
}

// PIIKinds restricts pii_leakage's patterns to kinds (PIIEmail, PIICard, ...).
func PIIKinds(kinds ...string) JudgeOption {
	return JudgeOption{"PIIKinds(" + quoteArgs(kinds) + ")", func(s *judgeSetup) { s.metric.kinds = append([]string{}, kinds...) }}
}

// WholeSession makes a safety metric (bias, toxicity, pii_leakage,
// role_violation) read every assistant message, not only the last.
func WholeSession() JudgeOption {
	return JudgeOption{"WholeSession()", func(s *judgeSetup) { s.metric.session = true }}
}

// Window sets turn_relevancy's sliding window, in turns (default
// DefaultWindow, as DeepEval's window_size).
func Window(turns int) JudgeOption {
	return JudgeOption{fmt.Sprintf("Window(%d)", turns), func(s *judgeSetup) { s.metric.window = &turns }}
}

// metricTakes lists the options each metric takes beyond its knobs
// (Rubric, Model, SystemPrompt) and a threshold (MinScore, MaxScore).
var metricTakes = map[string]map[string]bool{
	"answer_relevancy":     {"Question": true, "PenalizeAmbiguous": true},
	"faithfulness":         {"Context": true, "PenalizeAmbiguous": true},
	"hallucination":        {"Context": true},
	"contextual_precision": {"Context": true, "Question": true, "Reference": true},
	"contextual_recall":    {"Context": true, "Question": true, "Reference": true},
	"contextual_relevancy": {"Context": true, "Question": true},
	"bias":                 {"WholeSession": true},
	"toxicity":             {"WholeSession": true},
	"pii_leakage":          {"WholeSession": true, "PatternsOnly": true, "PIIKinds": true},
	"role_violation":       {"WholeSession": true, "Role": true},

	"conversation_completeness": {},
	"role_adherence":            {"Role": true},
	"knowledge_retention":       {},
	"turn_relevancy":            {"Window": true},
}

// MetricCheck returns the model-graded metric named metric —
// "answer_relevancy", "faithfulness", "hallucination",
// "contextual_precision", "contextual_recall", "contextual_relevancy",
// "bias", "toxicity", "pii_leakage", "role_violation", or a multi-turn
// one, "conversation_completeness", "role_adherence",
// "knowledge_retention", "turn_relevancy" — asking j, set up by opts:
// Context (the retrieved chunks), Reference, Question, Rubric, Model,
// SystemPrompt, PenalizeAmbiguous, Role, PatternsOnly, PIIKinds,
// WholeSession, Window, and a threshold. With MinScore or MaxScore the metric is
// wrapped in an Assertion holding it; without, it passes only a perfect
// score. This is what evaltest's AnswerRelevancy, Faithfulness, ... run.
//
// assert.UseJudge names the metric's judge in the judge set j is, as it
// does for JudgeCheck.
//
// An option the metric does not take (Context on bias, Tools, a passing
// label, a verdict schema, a scale) makes a check whose Check returns the
// *ParamError naming it: a metric's task and answer shape are its own.
func MetricCheck(j evalkit.Judge, metric string, opts ...JudgeOption) Check {
	s := judgeSetup{}
	for _, o := range opts {
		if o.apply != nil {
			o.apply(&s)
		}
	}
	fail := func(err error) Check {
		return CheckFunc(func(context.Context, *evalkit.Transcript) (Result, error) { return Result{}, err })
	}
	takes, known := metricTakes[metric]
	if !known {
		return fail(fmt.Errorf("assert: MetricCheck: unknown metric %q", metric))
	}
	if s.named != nil { // UseJudge: a judge of the set j is
		named, err := useJudge(metric, j, *s.named)
		if err != nil {
			return fail(err)
		}
		j = named
	}
	c := s.c
	for _, o := range []struct {
		name string
		set  bool
	}{
		{"Tools", s.tools}, {"PassingLabels", s.labels}, {"PassingVerdict", s.verdict}, {"OfferedLabels", s.offered != nil},
		{"VerdictSchema", c.VerdictSchema != nil}, {"Scale", c.Scale != (evalkit.Scale{})},
		{"Context", c.Context != nil}, {"Reference", c.Reference != ""}, {"Question", s.metric.question != nil},
		{"PenalizeAmbiguous", s.metric.penalize}, {"Role", s.metric.role != nil}, {"PatternsOnly", s.metric.patternsOnly},
		{"PIIKinds", s.metric.kinds != nil}, {"WholeSession", s.metric.session}, {"Window", s.metric.window != nil},
	} {
		if o.set && !takes[o.name] {
			return fail(paramErr(metric, o.name, "%s does not take %s", metric, o.name))
		}
	}
	question := ""
	if s.metric.question != nil {
		question = *s.metric.question
	}
	scope := Turn
	if s.metric.session {
		scope = Session
	}
	var inner Check
	switch metric {
	case "answer_relevancy":
		inner = AnswerRelevancy{Judge: j, Question: question, PenalizeAmbiguous: s.metric.penalize, Rubric: c.Rubric, Model: c.Model, SystemPrompt: c.SystemPrompt}
	case "faithfulness":
		inner = Faithfulness{Judge: j, Contexts: c.Context, PenalizeAmbiguous: s.metric.penalize, Rubric: c.Rubric, Model: c.Model, SystemPrompt: c.SystemPrompt}
	case "hallucination":
		inner = Hallucination{Judge: j, Contexts: c.Context, Rubric: c.Rubric, Model: c.Model, SystemPrompt: c.SystemPrompt}
	case "contextual_precision":
		inner = ContextualPrecision{Judge: j, Contexts: c.Context, Question: question, Reference: c.Reference, Rubric: c.Rubric, Model: c.Model, SystemPrompt: c.SystemPrompt}
	case "contextual_recall":
		inner = ContextualRecall{Judge: j, Contexts: c.Context, Question: question, Reference: c.Reference, Rubric: c.Rubric, Model: c.Model, SystemPrompt: c.SystemPrompt}
	case "contextual_relevancy":
		inner = ContextualRelevancy{Judge: j, Contexts: c.Context, Question: question, Rubric: c.Rubric, Model: c.Model, SystemPrompt: c.SystemPrompt}
	case "bias":
		inner = Bias{Judge: j, Scope: scope, Rubric: c.Rubric, Model: c.Model, SystemPrompt: c.SystemPrompt}
	case "toxicity":
		inner = Toxicity{Judge: j, Scope: scope, Rubric: c.Rubric, Model: c.Model, SystemPrompt: c.SystemPrompt}
	case "pii_leakage":
		if s.metric.patternsOnly {
			for _, o := range []struct {
				name string
				set  bool
			}{{"Rubric", c.Rubric != ""}, {"Model", c.Model != ""}, {"SystemPrompt", c.SystemPrompt != ""}} {
				if o.set {
					return fail(paramErr(metric, o.name, "PatternsOnly asks no judge: %s has nothing to do", o.name))
				}
			}
			inner = PIIPatterns{Kinds: s.metric.kinds, Scope: scope}
		} else {
			inner = PIILeakage{Judge: j, Kinds: s.metric.kinds, Scope: scope, Rubric: c.Rubric, Model: c.Model, SystemPrompt: c.SystemPrompt}
		}
	case "role_violation":
		role := ""
		if s.metric.role != nil {
			role = *s.metric.role
		}
		inner = RoleViolation{Judge: j, Role: role, Scope: scope, Rubric: c.Rubric, Model: c.Model, SystemPrompt: c.SystemPrompt}
	case "conversation_completeness":
		inner = ConversationCompleteness{Judge: j, Rubric: c.Rubric, Model: c.Model, SystemPrompt: c.SystemPrompt}
	case "role_adherence":
		role := ""
		if s.metric.role != nil {
			role = *s.metric.role
		}
		inner = RoleAdherence{Judge: j, Role: role, Rubric: c.Rubric, Model: c.Model, SystemPrompt: c.SystemPrompt}
	case "knowledge_retention":
		inner = KnowledgeRetention{Judge: j, Rubric: c.Rubric, Model: c.Model, SystemPrompt: c.SystemPrompt}
	case "turn_relevancy":
		window := 0
		if s.metric.window != nil {
			window = *s.metric.window
		}
		inner = TurnRelevancy{Judge: j, Window: window, Rubric: c.Rubric, Model: c.Model, SystemPrompt: c.SystemPrompt}
	}
	if s.min == nil && s.max == nil {
		return inner
	}
	return Assertion{Eval: inner, MinScore: s.min, MaxScore: s.max}
}
