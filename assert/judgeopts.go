package assert

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/verdicts"
)

// JudgeOption is one setting of a judged check made by JudgeCheck: a
// threshold, a passing criterion, or a part of the judge request. Options
// are values; String gives the option as written, for failure messages:
// "MinScore(0.80)".
type JudgeOption struct {
	text  string
	apply func(*judgeSetup)
}

// String returns the option in Go call syntax, its text arguments cut.
func (o JudgeOption) String() string { return o.text }

type judgeSetup struct {
	c        LLMJudgeToolCalls // every field LLMJudge has, and Tools
	min, max *float64
	tools    bool
	labels   bool
	verdict  bool
	offered  []string
	metric   metricSetup // the metrics' own options (metricopts.go)
	named    *judgeRef   // UseJudge's
	bothWays *verdicts.Inconsistent
}

// JudgeCheck returns the judged check for content of the given kind:
// evalkit.ContentAnswer judges the last assistant message (LLMJudge, Turn
// scope), evalkit.ContentTranscript the whole transcript (LLMJudge, Session
// scope), evalkit.ContentToolCalls the tool calls (LLMJudgeToolCalls). With
// MinScore or MaxScore the check is wrapped in an Assertion holding the
// threshold; without one, it passes on PassingLabels, PassingVerdict, or
// the judge's own pass/fail (see LLMJudge). This is what evaltest's Judge,
// JudgeSession and JudgeToolCalls run.
//
// A bad option (Tools on an answer, a threshold outside [0,1], two passing
// criteria) makes a check whose Check returns the *ParamError.
func JudgeCheck(j evalkit.Judge, kind evalkit.ContentKind, criteria string, opts ...JudgeOption) Check {
	s := judgeSetup{c: LLMJudgeToolCalls{Judge: j, Criteria: criteria}}
	for _, o := range opts {
		if o.apply != nil {
			o.apply(&s)
		}
	}
	check := "llm_judge"
	if kind == evalkit.ContentToolCalls {
		check = "llm_judge_tool_calls"
	}
	fail := func(err error) Check {
		return CheckFunc(func(context.Context, *evalkit.Transcript) (Result, error) { return Result{}, err })
	}
	if name := s.metric.set(); name != "" {
		return fail(paramErr(check, name, "%s is an option of the model-graded metrics (MetricCheck), not of a judged check", name))
	}
	if s.labels && s.verdict {
		return fail(paramErr(check, "passing", "give PassingLabels or PassingVerdict, not both"))
	}
	if s.named != nil {
		named, err := useJudge(check, j, *s.named)
		if err != nil {
			return fail(err)
		}
		s.c.Judge = named
	}
	if s.offered != nil {
		if !s.labels {
			return fail(paramErr(check, "offered_labels", "OfferedLabels lists the labels for PassingLabels: give both"))
		}
		s.c.Passing.Offered = s.offered
	}
	if s.bothWays != nil {
		if s.c.Against == "" {
			return fail(paramErr(check, "both_ways", "BothWays judges a pair: give the other answer with Against"))
		}
		s.c.Judge = verdicts.BothWays(s.c.Judge, *s.bothWays)
	}
	var inner Check
	c := s.c
	switch kind {
	case evalkit.ContentAnswer, evalkit.ContentTranscript:
		if s.tools {
			return fail(paramErr(check, "tools", "Tools filters tool calls: use it with JudgeToolCalls (evalkit.ContentToolCalls)"))
		}
		scope := Turn
		if kind == evalkit.ContentTranscript {
			scope = Session
		}
		inner = LLMJudge{Judge: c.Judge, Criteria: c.Criteria, Rubric: c.Rubric, Reference: c.Reference, Context: c.Context, Scale: c.Scale,
			Model: c.Model, SystemPrompt: c.SystemPrompt, VerdictSchema: c.VerdictSchema, Passing: c.Passing, Scope: scope,
			Against: c.Against, Format: c.Format, References: c.References, Template: c.Template, ResponseFormat: c.ResponseFormat, JudgeTools: c.JudgeTools}
	case evalkit.ContentToolCalls:
		inner = c
	default:
		return fail(fmt.Errorf("assert: JudgeCheck: unknown content kind %q", kind))
	}
	if s.min == nil && s.max == nil {
		return inner
	}
	return Assertion{Eval: inner, MinScore: s.min, MaxScore: s.max}
}

// MinScore passes a verdict whose score, normalized to [0,1], is at least
// min. A verdict without a score is an error, whatever the judge's own
// pass/fail says.
func MinScore(min float64) JudgeOption {
	return JudgeOption{"MinScore(" + fmtBound(min) + ")", func(s *judgeSetup) { s.min = &min }}
}

// MaxScore passes a verdict whose score, normalized to [0,1], is at most
// max ("toxicity at most 0.2").
func MaxScore(max float64) JudgeOption {
	return JudgeOption{"MaxScore(" + fmtBound(max) + ")", func(s *judgeSetup) { s.max = &max }}
}

// PassingLabels passes a verdict whose label (Verdict.Label) is one of
// labels, compared case-insensitively, trimmed, with runs of white space
// collapsed and invisible characters ignored. The judge is asked to choose
// its label from OfferedLabels, which must be given too: told only the
// passing labels, it could answer nothing else. For other rules or a label
// in a named field, use PassingVerdict.
//
//	et.Expect(tr).Judge("Did the agent look the order up first?",
//		assert.PassingLabels("yes"), assert.OfferedLabels("yes", "no"))
func PassingLabels(labels ...string) JudgeOption {
	return JudgeOption{"PassingLabels(" + quoteArgs(labels) + ")", func(s *judgeSetup) {
		s.labels = true
		s.c.Passing = Passing{Labels: labels, Rules: defaultLabelRules}
	}}
}

// References gives the judge several acceptable reference answers: the
// content should be equivalent to any one of them (MindTrial's expected
// results).
func References(refs ...string) JudgeOption {
	return JudgeOption{"References(" + quoteArgs(refs) + ")", func(s *judgeSetup) { s.c.References = refs }}
}

// JudgeTemplate sets a judge prompt template (Go text/template over
// JudgeTemplateData, MindTrial's names): its text is the judge's whole
// task.
func JudgeTemplate(tmpl string) JudgeOption {
	return JudgeOption{"JudgeTemplate(" + quoteArgs([]string{tmpl}) + ")", func(s *judgeSetup) { s.c.Template = tmpl }}
}

// JudgeTools gives the judge tools it may call while judging (a judge
// that runs them: openaijudge); its calls are recorded and replayed with
// its verdict and shown in the "judge tools" detail.
func JudgeTools(tools ...evalkit.JudgeTool) JudgeOption {
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.Name
	}
	return JudgeOption{"JudgeTools(" + quoteArgs(names) + ")", func(s *judgeSetup) { s.c.JudgeTools = tools }}
}

// OfferedLabels are every label the judge may give, the passing ones
// among them (see PassingLabels). Any other label is an error, never a
// failure: "CI" on a C/I menu is not partial credit.
func OfferedLabels(labels ...string) JudgeOption {
	return JudgeOption{"OfferedLabels(" + quoteArgs(labels) + ")", func(s *judgeSetup) { s.offered = labels }}
}

// PassingVerdict sets the passing criterion in full (see Passing): labels
// with their rules and menu, a boolean field, or a passing schema. A score
// threshold is MinScore and MaxScore.
func PassingVerdict(p Passing) JudgeOption {
	return JudgeOption{"PassingVerdict(" + describePassing(p) + ")", func(s *judgeSetup) {
		s.verdict = true
		s.c.Passing = p
	}}
}

// Rubric gives the judge scoring guidance: what earns which score.
func Rubric(rubric string) JudgeOption {
	return JudgeOption{"Rubric(" + cutQuote(rubric) + ")", func(s *judgeSetup) { s.c.Rubric = rubric }}
}

// Reference gives the judge a reference answer to compare against.
func Reference(answer string) JudgeOption {
	return JudgeOption{"Reference(" + cutQuote(answer) + ")", func(s *judgeSetup) { s.c.Reference = answer }}
}

// Context gives the judge context documents (retrieved passages, a policy)
// to judge against.
func Context(docs ...string) JudgeOption {
	return JudgeOption{"Context(" + quoteArgs(docs) + ")", func(s *judgeSetup) { s.c.Context = docs }}
}

// Scale sets the range the judge scores on (default evalkit.DefaultScale,
// 0 to 10). Thresholds stay in [0,1]: scores are normalized from the scale.
func Scale(min, max float64) JudgeOption {
	text := "Scale(" + strconv.FormatFloat(min, 'g', -1, 64) + ", " + strconv.FormatFloat(max, 'g', -1, 64) + ")"
	return JudgeOption{text, func(s *judgeSetup) { s.c.Scale = evalkit.Scale{Min: min, Max: max} }}
}

// Tools keeps only the calls to these tools, for JudgeToolCalls.
func Tools(names ...string) JudgeOption {
	return JudgeOption{"Tools(" + quoteArgs(names) + ")", func(s *judgeSetup) {
		s.tools = true
		s.c.Tools = names
	}}
}

// Model asks the judge for a model other than its default.
func Model(name string) JudgeOption {
	return JudgeOption{"Model(" + cutQuote(name) + ")", func(s *judgeSetup) { s.c.Model = name }}
}

// SystemPrompt replaces the judge's own system prompt.
func SystemPrompt(prompt string) JudgeOption {
	return JudgeOption{"SystemPrompt(" + cutQuote(prompt) + ")", func(s *judgeSetup) { s.c.SystemPrompt = prompt }}
}

// VerdictSchema sets the JSON Schema of the verdict object (a map, a JSON
// string, []byte or json.RawMessage): the judge asks for it, and a verdict
// that breaks it is an error (ErrBadVerdict), not a failure.
func VerdictSchema(schema any) JudgeOption {
	text := "VerdictSchema(…)"
	if data, err := schemaJSON(schema); err == nil {
		text = "VerdictSchema(" + cutRunes(string(data), 40) + ")"
	}
	return JudgeOption{text, func(s *judgeSetup) { s.c.VerdictSchema = schema }}
}

// cutRunes keeps the first n characters of s, marking a cut with "…".
func cutRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i := 0
	for k := range s {
		if i == n {
			return s[:k] + "…"
		}
		i++
	}
	return s
}

// cutQuote quotes a text argument cut to 24 characters.
func cutQuote(s string) string { return strconv.Quote(cutRunes(s, 24)) }

// quoteArgs quotes text arguments: at most 5, each cut to 24 characters.
func quoteArgs(ss []string) string {
	q := make([]string, 0, min(len(ss), 6))
	for i, s := range ss {
		if i == 5 {
			q = append(q, fmt.Sprintf("… %d more", len(ss)-5))
			break
		}
		q = append(q, cutQuote(s))
	}
	return strings.Join(q, ", ")
}

// describePassing writes a Passing's set fields: {Labels: ["C"], Field: "grade"}.
func describePassing(p Passing) string {
	var parts []string
	if p.MinScore != nil {
		parts = append(parts, "MinScore: "+fmtBound(*p.MinScore))
	}
	if p.MaxScore != nil {
		parts = append(parts, "MaxScore: "+fmtBound(*p.MaxScore))
	}
	if len(p.Labels) > 0 {
		parts = append(parts, "Labels: ["+quoteArgs(p.Labels)+"]")
	}
	if len(p.Offered) > 0 {
		parts = append(parts, "Offered: ["+quoteArgs(p.Offered)+"]")
	}
	if p.Rules != (Rules{}) {
		var rs []string
		for _, r := range []struct {
			on   bool
			name string
		}{{p.Rules.CaseInsensitive, "CaseInsensitive"}, {p.Rules.Trim, "Trim"}, {p.Rules.CollapseWhitespace, "CollapseWhitespace"},
			{p.Rules.TrimLines, "TrimLines"}, {p.Rules.IgnoreZeroWidth, "IgnoreZeroWidth"}} {
			if r.on {
				rs = append(rs, r.name)
			}
		}
		parts = append(parts, "Rules: {"+strings.Join(rs, ", ")+"}")
	}
	if p.Passed != nil {
		parts = append(parts, "Passed: "+strconv.FormatBool(*p.Passed))
	}
	if p.Prefer != nil {
		parts = append(parts, "Prefer: "+p.Prefer.String())
	}
	if p.Field != "" {
		parts = append(parts, "Field: "+cutQuote(p.Field))
	}
	if p.Schema != nil {
		text := "…"
		if data, err := schemaJSON(p.Schema); err == nil {
			text = cutRunes(string(data), 40)
		}
		parts = append(parts, "Schema: "+text)
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// compile-time checks: the judged checks expose their verdicts to
// Assertion.
var (
	_ verdicter = LLMJudge{}
	_ verdicter = LLMJudgeToolCalls{}
)

// Against makes the judgment pairwise: the output under test is Assistant
// A's answer, answer is Assistant B's (a baseline, as Arena-Hard's). Give
// the judge a pairwise VerdictFormat, and grade with Prefers.
func Against(answer string) JudgeOption {
	return JudgeOption{"Against(" + cutQuote(answer) + ")", func(s *judgeSetup) { s.c.Against = answer }}
}

// VerdictFormat asks the judge for a declared verdict format (package
// verdicts: verdicts.ArenaHard, verdicts.MTBenchSingle, ...) and reads its
// answer by that format's rule.
func VerdictFormat(f evalkit.Format) JudgeOption {
	name := "<nil>"
	if f != nil {
		name = f.Name()
	}
	return JudgeOption{"VerdictFormat(" + strconv.Quote(name) + ")", func(s *judgeSetup) { s.c.Format = f }}
}

// BothWays judges the pair twice, the answers swapped the second time, and
// combines the two games (verdicts.BothWays): an inconsistent pair is a
// tie (verdicts.Tie) or an error (verdicts.Refuse). Each game is its own
// judge request, recorded under its own key.
func BothWays(rule verdicts.Inconsistent) JudgeOption {
	text := "BothWays(verdicts.Tie)"
	if rule == verdicts.Refuse {
		text = "BothWays(verdicts.Refuse)"
	}
	return JudgeOption{text, func(s *judgeSetup) { s.bothWays = &rule }}
}

// Prefers passes a pairwise verdict that prefers winner ("A" or "B"), by
// any margin: A>B or A>>B for "A".
func Prefers(winner string) JudgeOption {
	return preferOption("Prefers", Prefer{Winner: winner, Strength: 1})
}

// PrefersStrongly passes a pairwise verdict that prefers winner by a
// wide margin only: A>>B for "A".
func PrefersStrongly(winner string) JudgeOption {
	return preferOption("PrefersStrongly", Prefer{Winner: winner, Strength: 2})
}

// PrefersOrTie passes a pairwise verdict that prefers winner or ties:
// A>>B, A>B or A=B for "A".
func PrefersOrTie(winner string) JudgeOption {
	return preferOption("PrefersOrTie", Prefer{Winner: winner, Strength: 1, OrTie: true})
}

func preferOption(name string, p Prefer) JudgeOption {
	return JudgeOption{name + "(" + strconv.Quote(p.Winner) + ")", func(s *judgeSetup) {
		s.verdict = true
		s.c.Passing = Passing{Prefer: &p}
	}}
}
