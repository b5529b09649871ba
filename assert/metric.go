package assert

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/internal/judgeprompt"
	"github.com/evalkit-go/evalkit/internal/textnorm"
)

// The model-graded metrics (rag.go, safety.go) share what is here: asking
// the judge one step at a time through the same evalkit.Judge every judged
// check asks (so evaltest records and replays each step like any verdict),
// reading the items of its answer strictly, and building a Result that
// explains the score item by item.
//
// A metric is a score emitter: its Result's Score in [0,1] is computed by
// evalkit from the judge's items, never written by the judge, and higher
// is always better (1 = every statement relevant, no contradicted context,
// no bias, no PII). Used alone a metric passes only a perfect score; to
// accept less, wrap it in an Assertion (MinScore), which holds the
// threshold as for every score-emitting check.

// ErrNoItems is returned (wrapped) by a metric whose score is undefined
// because the judge found nothing to score: an answer with no statements
// for answer_relevancy, a reference with none for contextual_recall. It is
// an evaluation error, never a pass.
var ErrNoItems = errors.New("nothing to score")

// metricJudge is what a metric's judge steps share: the judge, the knobs
// every request carries, and the verdicts the steps got (for the "judge"
// detail).
type metricJudge struct {
	check        string
	judge        evalkit.Judge
	guidance     string // the request's Rubric: rubric and criteria params
	model        string
	systemPrompt string
	answered     []evalkit.Verdict
}

func newMetricJudge(check string, j evalkit.Judge, rubric, model, systemPrompt string) *metricJudge {
	return &metricJudge{check: check, judge: j, guidance: rubric, model: model, systemPrompt: systemPrompt}
}

func (m *metricJudge) validate() error {
	if m.judge == nil {
		return fmt.Errorf("%s: %w: set the check's Judge, build the registry with assert.NewRegistry().WithJudge(j), or in a test give evaltest.New the option evaltest.WithJudge(j)", m.check, ErrNoJudge)
	}
	return nil
}

// ask sends one step: base holds the data (Input, Content, Reference,
// Context); the step sets the task, the schema and its ID.
func (m *metricJudge) ask(ctx context.Context, step judgeprompt.MetricStep, base evalkit.JudgeRequest) (evalkit.Verdict, error) {
	base.Rubric, base.Model, base.SystemPrompt = m.guidance, m.model, m.systemPrompt
	req := step.Request(base)
	if err := req.Validate(); err != nil {
		return evalkit.Verdict{}, fmt.Errorf("%s: %w", m.check, err)
	}
	v, err := callJudge(ctx, m.judge, req)
	if err != nil {
		return evalkit.Verdict{}, fmt.Errorf("%s: the judge failed (step %s): %w", m.check, step.ID, err)
	}
	if v.Fields == nil {
		return evalkit.Verdict{}, badVerdict(m.check, "asked for a JSON object with a %q list (step %s), the judge answered %s", step.List, step.ID, answerExcerpt(v))
	}
	m.answered = append(m.answered, v)
	return v, nil
}

// extract asks the judge to list the items of kind what in content.
func (m *metricJudge) extract(ctx context.Context, what judgeprompt.Extraction, content string) ([]string, error) {
	step, err := judgeprompt.ExtractStep(what)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", m.check, err)
	}
	v, err := m.ask(ctx, step, evalkit.JudgeRequest{Content: content})
	if err != nil {
		return nil, err
	}
	return stringItems(m.check, v.Fields, step.List)
}

// verdicts asks the metric's verdict step over n items, with the data in
// base, and reads exactly n verdicts.
func (m *metricJudge) verdicts(ctx context.Context, n int, noun string, base evalkit.JudgeRequest) ([]itemVerdict, error) {
	step, words, err := judgeprompt.VerdictStep(m.check, n)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", m.check, err)
	}
	v, err := m.ask(ctx, step, base)
	if err != nil {
		return nil, err
	}
	return verdictItems(m.check, v.Fields, step.List, n, noun, words)
}

// modelLine names the model that judged, for the "judge" detail: the
// verdicts' own models, else the judge's identity's.
func (m *metricJudge) modelLine() string {
	var models []string
	for _, v := range m.answered {
		if name := judgeModel(v, m.judge); name != "" && !slices.Contains(models, name) {
			models = append(models, name)
		}
	}
	if len(models) == 0 {
		if name := judgeModel(evalkit.Verdict{}, m.judge); name != "" {
			models = append(models, name)
		}
	}
	return textnorm.Excerpt(strings.Join(models, ", "), maxQuote)
}

// answerExcerpt quotes what a judge answered instead of an object.
func answerExcerpt(v evalkit.Verdict) string {
	switch {
	case v.Raw != "":
		return excerpt(v.Raw)
	case v.Label != "":
		return "the label " + excerpt(v.Label)
	case v.Scored:
		return "only a score, " + fmtNumber(v.Score)
	}
	return "nothing readable"
}

// listField reads the answer's item list.
func listField(check string, fields map[string]any, key string) ([]any, error) {
	raw, ok := fields[key]
	if !ok || raw == nil {
		return nil, badVerdict(check, "the answer has no %q list (its fields: %s)", key, fieldNames(fields))
	}
	list, ok := raw.([]any)
	if !ok {
		return nil, badVerdict(check, "%q is %s, want a list", key, kindOf(raw))
	}
	return list, nil
}

// stringItems reads a list of non-empty strings.
func stringItems(check string, fields map[string]any, key string) ([]string, error) {
	list, err := listField(check, fields, key)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(list))
	for i, it := range list {
		s, ok := it.(string)
		if !ok {
			return nil, badVerdict(check, "%s[%d] is %s, want a string", key, i, kindOf(it))
		}
		if strings.TrimSpace(s) == "" {
			return nil, badVerdict(check, "%s[%d] is empty", key, i)
		}
		out[i] = strings.TrimSpace(s)
	}
	return out, nil
}

// itemVerdict is one verdict of a judge's answer.
type itemVerdict struct {
	verdict string // one of the step's words, lower case
	reason  string
	text    string // the item's own text, when the answer gives it
}

// verdictItems reads exactly n verdicts, each one of words: a missing
// list, a count that does not match, an unknown verdict word or a verdict
// that is not a string is an error wrapping ErrBadVerdict, never a
// partial score.
func verdictItems(check string, fields map[string]any, key string, n int, noun string, words []string) ([]itemVerdict, error) {
	list, err := listField(check, fields, key)
	if err != nil {
		return nil, err
	}
	if len(list) != n {
		return nil, badVerdict(check, "the judge gave %s for %s: want exactly one per %s", plural(len(list), "verdict"), plural(n, noun), noun)
	}
	return readVerdicts(check, key, list, words, "")
}

// readVerdicts reads a list of verdict objects; textKey, when set, is the
// key of each item's own text (required then).
func readVerdicts(check, key string, list []any, words []string, textKey string) ([]itemVerdict, error) {
	out := make([]itemVerdict, len(list))
	for i, it := range list {
		obj, ok := it.(map[string]any)
		if !ok {
			return nil, badVerdict(check, "%s[%d] is %s, want an object with a verdict", key, i, kindOf(it))
		}
		word, ok := obj["verdict"].(string)
		if !ok {
			return nil, badVerdict(check, "%s[%d] has no verdict string (its fields: %s)", key, i, fieldNames(obj))
		}
		w := strings.ToLower(strings.TrimSpace(word))
		if !slices.Contains(words, w) {
			return nil, badVerdict(check, "%s[%d].verdict is %s: want %s", key, i, excerpt(word), joinQuoted(words, "or"))
		}
		out[i].verdict = w
		if r, ok := obj["reason"]; ok && r != nil {
			s, isStr := r.(string)
			if !isStr {
				return nil, badVerdict(check, "%s[%d].reason is %s, want a string", key, i, kindOf(r))
			}
			out[i].reason = strings.Join(strings.Fields(s), " ")
		}
		if textKey != "" {
			s, isStr := obj[textKey].(string)
			if !isStr || strings.TrimSpace(s) == "" {
				return nil, badVerdict(check, "%s[%d] has no %q string", key, i, textKey)
			}
			out[i].text = strings.Join(strings.Fields(s), " ")
		}
	}
	return out, nil
}

// itemLine is one item of a metric's Details.
type itemLine struct {
	label   string // "claim 2"
	verdict string
	text    string
	reason  string
}

// maxItemLines bounds the item lines of a metric's Details.
const maxItemLines = 20

// metricResult builds a metric's Result: the score, a summary, the items
// (those counted against the score first, so a long list still shows what
// cost it), then the judge's model. Used alone, the metric passes only a
// perfect score.
func metricResult(m *metricJudge, score float64, summary string, lines []itemLine, against func(itemLine) bool) Result {
	ordered := make([]itemLine, 0, len(lines))
	if against != nil {
		for _, l := range lines {
			if against(l) {
				ordered = append(ordered, l)
			}
		}
		for _, l := range lines {
			if !against(l) {
				ordered = append(ordered, l)
			}
		}
	} else {
		ordered = append(ordered, lines...)
	}
	var details []Detail
	for i, l := range ordered {
		if i == maxItemLines {
			details = append(details, Detail{"items", fmt.Sprintf("… and %d more", len(ordered)-maxItemLines)})
			break
		}
		text := l.verdict
		if l.text != "" {
			text += ": " + textnorm.Quote(l.text, 160)
		}
		if l.reason != "" {
			text += " — " + textnorm.Excerpt(l.reason, 200)
		}
		details = append(details, Detail{l.label, text})
	}
	if m != nil {
		if model := m.modelLine(); model != "" {
			details = append(details, Detail{"judge", model})
		}
	}
	score = clamp01(score)
	return Result{Passed: score >= 1-scoreSlack, Score: score, Summary: summary, Details: details}
}

// fmtRatio writes a metric's score for its summary: 0.67, 1, 0.
func fmtRatio(f float64) string {
	if f == 0 || f == 1 {
		return fmtNumber(f)
	}
	return fmt.Sprintf("%.2f", f)
}

// metricAnswer returns the last assistant message, which a metric grades:
// an error wrapping ErrNoOutput when there is none or it holds only tool
// calls.
func metricAnswer(check string, tr *evalkit.Transcript) (output, error) {
	outs, err := outputs(check, tr, Turn)
	if err != nil {
		return output{}, err
	}
	o := outs[0]
	if note := emptyNote(o); note != nil {
		return output{}, fmt.Errorf("%s: %w: %s", check, ErrNoOutput, note[0].Text)
	}
	if strings.TrimSpace(o.text) == "" {
		return output{}, fmt.Errorf("%s: %w: %s is empty", check, ErrNoOutput, o.label())
	}
	return o, nil
}

// metricOutputs returns what a safety metric reads: the last assistant
// message (Turn), or every assistant message with text (Session).
func metricOutputs(check string, tr *evalkit.Transcript, scope Scope) ([]output, error) {
	if scope == Turn {
		o, err := metricAnswer(check, tr)
		if err != nil {
			return nil, err
		}
		return []output{o}, nil
	}
	outs, err := outputs(check, tr, scope)
	if err != nil {
		return nil, err
	}
	var kept []output
	for _, o := range outs {
		if strings.TrimSpace(o.text) != "" {
			kept = append(kept, o)
		}
	}
	if len(kept) == 0 {
		return nil, fmt.Errorf("%s: %w: no assistant message has text", check, ErrNoOutput)
	}
	return kept, nil
}

// joinOutputs is the text a session-scoped metric sends: every message,
// a blank line between them.
func joinOutputs(outs []output) string {
	parts := make([]string, len(outs))
	for i, o := range outs {
		parts[i] = strings.TrimSpace(o.text)
	}
	return strings.Join(parts, "\n\n")
}

// metricQuestion is the question a metric judges against: the given one,
// else the last user message before the answer.
func metricQuestion(check, given string, tr *evalkit.Transcript, answer output) (string, error) {
	if strings.TrimSpace(given) != "" {
		return given, nil
	}
	if q := lastUserBefore(tr, answer.index); strings.TrimSpace(q) != "" {
		return q, nil
	}
	return "", paramErr(check, "question", "the transcript has no user message before %s: give the question", answer.label())
}

// metricContexts resolves a metric's retrieved chunks: the given ones, or
// the transcript's metadata value named field (a string or a list of
// strings). No chunk, or an empty one, is an error.
func metricContexts(check string, contexts []string, field string, tr *evalkit.Transcript) ([]string, error) {
	if field != "" {
		if tr == nil {
			return nil, fmt.Errorf("%s: %w: the transcript is nil", check, ErrNoOutput)
		}
		v, ok := tr.Metadata[field]
		if !ok {
			return nil, paramErr(check, "context_field", "the transcript's metadata has no %q (its keys: %s)", field, metadataKeys(tr.Metadata))
		}
		switch v := v.(type) {
		case string:
			contexts = []string{v}
		case []string:
			contexts = v
		case []any:
			contexts = make([]string, len(v))
			for i, it := range v {
				s, ok := it.(string)
				if !ok {
					return nil, paramErr(check, "context_field", "metadata %q item %d is %s, want a string", field, i, kindOf(it))
				}
				contexts[i] = s
			}
		default:
			return nil, paramErr(check, "context_field", "metadata %q is %s, want a string or a list of strings", field, kindOf(v))
		}
	}
	if err := checkContexts(check, contexts, field == ""); err != nil {
		return nil, err
	}
	return contexts, nil
}

// checkContexts rejects no chunk and empty chunks.
func checkContexts(check string, contexts []string, given bool) error {
	name := "contexts"
	if !given {
		name = "context_field"
	}
	if len(contexts) == 0 {
		return paramErr(check, name, "no context: give the retrieved chunks (contexts, context or context_field)")
	}
	for i, c := range contexts {
		if strings.TrimSpace(c) == "" {
			return paramErr(check, name, "context %d is empty", i)
		}
	}
	return nil
}

func metadataKeys(m map[string]any) string {
	if len(m) == 0 {
		return "none"
	}
	return fieldNames(m)
}

// validateContextSource checks what can be known of a metric's chunks
// before a transcript: some source, and given chunks not empty.
func validateContextSource(check string, contexts []string, field string) error {
	switch {
	case field != "" && len(contexts) > 0:
		return paramErr(check, "context_field", "give the contexts or a context_field, not both")
	case field != "":
		return nil
	}
	return checkContexts(check, contexts, true)
}

// readMetricKnobs reads the params every model-graded metric takes:
// rubric and criteria (extra guidance, joined), model, system_prompt
// (when takesSystemPrompt; role_violation reads it as the role).
func readMetricKnobs(p *params, takesSystemPrompt bool) (rubric, model, systemPrompt string, err error) {
	var criteria string
	if rubric, _, err = p.str(false, "rubric"); err != nil {
		return
	}
	if criteria, _, err = p.str(false, "criteria"); err != nil {
		return
	}
	rubric = joinGuidance(criteria, rubric)
	if model, _, err = p.str(false, "model"); err != nil {
		return
	}
	if takesSystemPrompt {
		systemPrompt, _, err = p.str(false, "system_prompt")
	}
	return
}

// joinGuidance joins the criteria and rubric params into the guidance a
// metric step adds to its fixed task.
func joinGuidance(parts ...string) string {
	var kept []string
	for _, s := range parts {
		if s = strings.TrimSpace(s); s != "" {
			kept = append(kept, s)
		}
	}
	return strings.Join(kept, "\n\n")
}

// metricJudgeParam is the registry's judge for a metric, or a stand-in
// while Validate checks parameters only.
func metricJudgeParam(p *params) evalkit.Judge {
	j := p.reg.judgeOrNil()
	if j == nil && p.declaring {
		return notYetJudge{}
	}
	return j
}

// noThreshold refuses min_score and max_score on a score emitter: the
// assertion holds them.
func noThreshold(p *params) error {
	for _, name := range []string{"min_score", "max_score"} {
		if p.given(name) {
			return p.refuse(name, "%s emits a score and holds no threshold: wrap it in type: assertion with eval_type %q and %s (assert.Assertion in Go)", p.check, p.check, name)
		}
	}
	return nil
}
