package assert

// Measures and behavioural comparisons: sentence_count, and PromptKit's
// perturbation checks outcome_equivalent and directional, which compare
// one run's outcome with an expected one or a baseline run's.

import (
	"context"
	"crypto/sha256"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/evalkit-go/evalkit"
)

func measureChecks() map[string]func(*params) (Check, error) {
	return map[string]func(*params) (Check, error){
		"sentence_count":     buildSentenceCount,
		"outcome_equivalent": buildOutcomeEquivalent,
		"directional":        buildDirectional,
	}
}

// SentenceCount counts the sentences of the output: with Turn scope (the
// default) the last assistant message, with Session scope every assistant
// message. It is a measurement, as PromptKit's sentence_count: without Max
// it always passes, its Score is 1, and the count is in the Summary ("3
// sentences") and in a "sentences" detail — Result.Score is in [0,1], so it
// cannot hold a count. With Max set it fails over Max sentences (Score
// Max/count), which is what PromptKit's max_sentences alias is declared
// for.
//
// A sentence ends at a run of '.', '!', '?', '…' or the full-width '。',
// '！', '？' followed by white space or the end of the text (closing quotes
// and brackets may come between), or at a blank line; a piece counts when
// it holds a letter or a digit. So "3.14" and "example.com" do not end a
// sentence, and a heading line before a blank line is one.
//
// Errors: no assistant message, or a last one with only tool calls
// (ErrNoOutput); a negative max (*ParamError).
//
// Registry type "sentence_count" (alias "max_sentences", which requires
// max), params: max, scope. As PromptKit's sentence_count.
type SentenceCount struct {
	Max   *int
	Scope Scope
}

func buildSentenceCount(p *params) (Check, error) {
	var c SentenceCount
	var err error
	if c.Max, err = optCount(p, "max"); err != nil {
		return nil, err
	}
	c.Scope, err = p.scope()
	return c, err
}

// buildMaxSentences is max_sentences: sentence_count with a required max,
// so the guardrail name never passes as a bare measurement.
func buildMaxSentences(p *params) (Check, error) {
	c, err := buildSentenceCount(p)
	if err != nil {
		return nil, err
	}
	if c.(SentenceCount).Max == nil {
		return nil, p.required("max", "required: max_sentences bounds the count (sentence_count without max only measures)")
	}
	return c, nil
}

func (c SentenceCount) validate() error {
	if c.Max != nil && *c.Max < 0 {
		return paramErr("sentence_count", "max", "want a whole number >= 0, got %d", *c.Max)
	}
	return checkScope("sentence_count", c.Scope)
}

// Check implements Check.
func (c SentenceCount) Check(_ context.Context, tr *evalkit.Transcript) (Result, error) {
	const check = "sentence_count"
	if err := c.validate(); err != nil {
		return Result{}, err
	}
	outs, err := outputs(check, tr, c.Scope.or(Turn))
	if err != nil {
		return Result{}, err
	}
	if len(outs) == 1 && outs[0].text == "" && len(outs[0].msg.ToolCalls) > 0 {
		return Result{}, fmt.Errorf("%s: %w: %s only called tools", check, ErrNoOutput, outs[0].label())
	}
	n := 0
	for _, o := range outs {
		n += CountSentences(o.text)
	}
	summary := plural(n, "sentence")
	details := []Detail{{"sentences", strconv.Itoa(n)}}
	if c.Max == nil {
		return pass(1, summary, details...), nil
	}
	if n <= *c.Max {
		return pass(1, fmt.Sprintf("%s, at most %d", summary, *c.Max), details...), nil
	}
	return fail(ratio(*c.Max, n), fmt.Sprintf("%s, want at most %d", summary, *c.Max), searched(outs)...), nil
}

// CountSentences counts the sentences of text by SentenceCount's rule.
func CountSentences(text string) int {
	n := 0
	var piece strings.Builder
	flush := func() {
		if strings.IndexFunc(piece.String(), func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0 {
			n++
		}
		piece.Reset()
	}
	rs := []rune(strings.ReplaceAll(text, "\r\n", "\n"))
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		piece.WriteRune(r)
		if r == '\n' && i+1 < len(rs) && rs[i+1] == '\n' {
			flush()
			continue
		}
		if !isTerminator(r) {
			continue
		}
		j := i + 1
		for j < len(rs) && isTerminator(rs[j]) {
			j++
		}
		for j < len(rs) && strings.ContainsRune("\"'”’»)]}", rs[j]) {
			j++
		}
		if j == len(rs) || unicode.IsSpace(rs[j]) || isFullWidthTerminator(r) {
			for k := i + 1; k < j; k++ {
				piece.WriteRune(rs[k])
			}
			i = j - 1
			flush()
		}
	}
	flush()
	return n
}

func isTerminator(r rune) bool {
	return r == '.' || r == '!' || r == '?' || r == '…' || isFullWidthTerminator(r)
}

// isFullWidthTerminator ends a sentence without a following space, as
// Chinese and Japanese text writes it.
func isFullWidthTerminator(r rune) bool { return r == '。' || r == '！' || r == '？' }

// Outcome metrics of OutcomeEquivalent and checks of Directional.
const (
	MetricToolCalls   = "tool_calls"
	MetricFinalState  = "final_state"
	MetricContentHash = "content_hash"

	SameToolCalls  = "same_tool_calls"
	SameOutcome    = "same_outcome"
	SimilarContent = "similar_content"
)

// OutcomeEquivalent passes when one outcome of the run equals the expected
// one, as PromptKit's outcome_equivalent (for perturbation tests: the same
// task reworded must end the same way). Metric says which:
//
//   - "tool_calls": the set of tool names called (each name once, order
//     ignored) equals ExpectedTools as a set;
//   - "final_state": the workflow's final state (Workflow.CurrentState)
//     is ExpectedState;
//   - "content_hash": the output (Turn scope, the default: the last
//     assistant message; Session: every assistant message's text joined
//     with "\n") is byte for byte ExpectedContent; the failure shows both
//     SHA-256 prefixes, lengths and where they first differ.
//
// Score is 1 or 0. Unlike PromptKit, a metric without its expected value
// is an error, not a skipped pass.
//
// Errors (*ParamError): an unknown metric, a missing expected value, an
// expected value of another metric. No workflow for final_state is
// ErrNotReported; no assistant output for content_hash ErrNoOutput.
//
// Registry type "outcome_equivalent", params: metric, expected_tools,
// expected_state, expected_content, scope.
type OutcomeEquivalent struct {
	Metric          string
	ExpectedTools   []string
	ExpectedState   string
	ExpectedContent *string
	Scope           Scope
}

func buildOutcomeEquivalent(p *params) (Check, error) {
	var c OutcomeEquivalent
	var err error
	if c.Metric, _, err = p.str(true, "metric"); err != nil {
		return nil, err
	}
	if c.ExpectedTools, _, err = p.strs(false, "expected_tools"); err != nil {
		return nil, err
	}
	if c.ExpectedState, _, err = p.str(false, "expected_state"); err != nil {
		return nil, err
	}
	s, ok, err := p.str(false, "expected_content")
	if err != nil {
		return nil, err
	}
	if ok {
		c.ExpectedContent = &s
	}
	c.Scope, err = p.scope()
	return c, err
}

func (c OutcomeEquivalent) validate() error {
	const check = "outcome_equivalent"
	given := map[string]bool{"expected_tools": c.ExpectedTools != nil, "expected_state": c.ExpectedState != "", "expected_content": c.ExpectedContent != nil}
	var want string
	switch c.Metric {
	case MetricToolCalls:
		want = "expected_tools"
		if err := toolNames(check, want, c.ExpectedTools, false); err != nil {
			return err
		}
	case MetricFinalState:
		want = "expected_state"
	case MetricContentHash:
		want = "expected_content"
	default:
		return paramErr(check, "metric", "want %q, %q or %q, got %q", MetricToolCalls, MetricFinalState, MetricContentHash, c.Metric)
	}
	if !given[want] {
		return paramErr(check, want, "required with metric %q", c.Metric)
	}
	for _, k := range []string{"expected_tools", "expected_state", "expected_content"} {
		if k != want && given[k] {
			return paramErr(check, k, "does not apply to metric %q (it reads %s)", c.Metric, want)
		}
	}
	return checkScope(check, c.Scope)
}

// Check implements Check.
func (c OutcomeEquivalent) Check(_ context.Context, tr *evalkit.Transcript) (Result, error) {
	const check = "outcome_equivalent"
	if err := c.validate(); err != nil {
		return Result{}, err
	}
	switch c.Metric {
	case MetricToolCalls:
		return toolSetResult(check, tr, c.Scope, c.ExpectedTools, "expected")
	case MetricFinalState:
		return stateResult(check, tr, c.ExpectedState, "expected")
	}
	got, err := outcomeText(check, tr, c.Scope)
	if err != nil {
		return Result{}, err
	}
	want := *c.ExpectedContent
	if got == want {
		return pass(1, fmt.Sprintf("content matches the expected output (%d bytes, sha256 %s)", len(got), shortHash(got))), nil
	}
	at := 0
	for at < len(got) && at < len(want) && got[at] == want[at] {
		at++
	}
	return fail(0, fmt.Sprintf("content differs from the expected output at byte %d", at),
		Detail{"got", fmt.Sprintf("%d bytes, sha256 %s: %s", len(got), shortHash(got), excerpt(got))},
		Detail{"want", fmt.Sprintf("%d bytes, sha256 %s: %s", len(want), shortHash(want), excerpt(want))}), nil
}

func shortHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return fmt.Sprintf("%x", sum[:6])
}

// outcomeText is the output an outcome check compares: the last assistant
// message (Turn, the default) or all assistant text.
func outcomeText(check string, tr *evalkit.Transcript, s Scope) (string, error) {
	outs, err := outputs(check, tr, s.or(Turn))
	if err != nil {
		return "", err
	}
	texts := make([]string, 0, len(outs))
	for _, o := range outs {
		if o.text != "" {
			texts = append(texts, o.text)
		}
	}
	if len(texts) == 0 {
		return "", fmt.Errorf("%s: %w: %s only called tools", check, ErrNoOutput, scopeWords(outs))
	}
	return strings.Join(texts, "\n"), nil
}

// toolNameSet is the sorted set of tool names called in the scope.
func toolNameSet(check string, tr *evalkit.Transcript, s Scope) ([]string, toolScope, error) {
	sc, err := scopedCalls(check, tr, s)
	if err != nil {
		return nil, sc, err
	}
	return distinctSorted(namesOfCalls(sc.calls)), sc, nil
}

func namesOfCalls(calls []evalkit.ToolCall) []string {
	out := make([]string, len(calls))
	for i, c := range calls {
		out[i] = c.Name
	}
	return out
}

func distinctSorted(items []string) []string {
	seen := map[string]bool{}
	out := []string{}
	for _, it := range items {
		if !seen[it] {
			seen[it] = true
			out = append(out, it)
		}
	}
	sort.Strings(out)
	return out
}

// toolSetResult compares the set of tools called with want, as a set.
func toolSetResult(check string, tr *evalkit.Transcript, s Scope, want []string, label string) (Result, error) {
	got, sc, err := toolNameSet(check, tr, s)
	if err != nil {
		return Result{}, err
	}
	want = distinctSorted(want)
	gotSet, wantSet := map[string]bool{}, map[string]bool{}
	for _, g := range got {
		gotSet[g] = true
	}
	for _, w := range want {
		wantSet[w] = true
	}
	var missing, extra []string
	for _, w := range want {
		if !gotSet[w] {
			missing = append(missing, w)
		}
	}
	for _, g := range got {
		if !wantSet[g] {
			extra = append(extra, g)
		}
	}
	if len(missing) == 0 && len(extra) == 0 {
		return pass(1, fmt.Sprintf("tools called match the %s set: %s", label, setWords(want))), nil
	}
	var parts []string
	if len(missing) > 0 {
		parts = append(parts, "missing "+quoteList(missing))
	}
	if len(extra) > 0 {
		parts = append(parts, "extra "+quoteList(extra))
	}
	return fail(0, fmt.Sprintf("tools called differ from the %s set: %s", label, strings.Join(parts, "; ")),
		sc.withScope([]Detail{{"got", setWords(got)}, {"want", setWords(want)}})...), nil
}

func setWords(names []string) string {
	if len(names) == 0 {
		return "{}"
	}
	return "{" + quoteList(names) + "}"
}

// stateResult compares the workflow's final state with want.
func stateResult(check string, tr *evalkit.Transcript, want, label string) (Result, error) {
	w, err := workflowOf(check, tr)
	if err != nil {
		return Result{}, err
	}
	got := w.CurrentState()
	if got == want {
		return pass(1, fmt.Sprintf("final state %s matches the %s state", quoteName(got), label)), nil
	}
	return fail(0, fmt.Sprintf("final state %s, %s %s", quoteName(got), label, quoteName(want)), statesDetail(w)), nil
}

// Directional compares the run with a baseline, as PromptKit's
// directional (behavioural tests: a perturbed input should move the
// outcome, or not, the way the test expects). Check says what is compared:
//
//   - "same_tool_calls": the set of tool names called equals the
//     baseline's (BaselineTools), order and repeats ignored;
//   - "same_outcome": the workflow's final state is the baseline's
//     (BaselineState);
//   - "similar_content": the output's word overlap with the baseline's
//     (BaselineContent) is at least Threshold (0.5 when nil): the Jaccard
//     similarity of the two sets of words, lower-cased, a word being a run
//     of letters, digits and apostrophes. Score is the overlap.
//
// Baseline, when set, is the baseline run itself, and stands for
// whichever baseline value is not given: its tool-name set, its final
// state, or its output (the last assistant message; every assistant
// message's text with Session scope). Set either the value or the run.
//
// Other checks score 1 or 0. Errors (*ParamError): an unknown check, no
// baseline for the check, a baseline value of another check, a threshold
// outside [0,1]; ErrNotReported with no workflow for same_outcome;
// ErrNoOutput with no assistant text for similar_content.
//
// Registry type "directional", params: check, baseline_tools,
// baseline_state, baseline_content, threshold, scope. The threshold is
// PromptKit's parameter of this pass/fail check; wrap the check in an
// assertion to grade the overlap score another way.
type Directional struct {
	// Compare is the comparison: SameToolCalls, SameOutcome or
	// SimilarContent (PromptKit's param "check").
	Compare         string
	BaselineTools   []string
	BaselineState   string
	BaselineContent string
	Threshold       *float64
	Baseline        *evalkit.Transcript
	Scope           Scope
}

func buildDirectional(p *params) (Check, error) {
	var c Directional
	var err error
	if c.Compare, _, err = p.str(true, "check"); err != nil {
		return nil, err
	}
	if c.BaselineTools, _, err = p.strs(false, "baseline_tools"); err != nil {
		return nil, err
	}
	if c.BaselineState, _, err = p.str(false, "baseline_state"); err != nil {
		return nil, err
	}
	if c.BaselineContent, _, err = p.str(false, "baseline_content"); err != nil {
		return nil, err
	}
	f, ok, err := p.num("threshold")
	if err != nil {
		return nil, err
	}
	if ok {
		c.Threshold = &f
	}
	c.Scope, err = p.scope()
	return c, err
}

func (c Directional) validate() error {
	const check = "directional"
	given := map[string]bool{"baseline_tools": c.BaselineTools != nil, "baseline_state": c.BaselineState != "", "baseline_content": c.BaselineContent != ""}
	var want string
	switch c.Compare {
	case SameToolCalls:
		want = "baseline_tools"
		if err := toolNames(check, want, c.BaselineTools, false); err != nil {
			return err
		}
	case SameOutcome:
		want = "baseline_state"
	case SimilarContent:
		want = "baseline_content"
	default:
		return paramErr(check, "check", "want %q, %q or %q, got %q", SameToolCalls, SameOutcome, SimilarContent, c.Compare)
	}
	if !given[want] && c.Baseline == nil {
		return paramErr(check, want, "required with check %q (or a Baseline run)", c.Compare)
	}
	for _, k := range []string{"baseline_tools", "baseline_state", "baseline_content"} {
		if k != want && given[k] {
			return paramErr(check, k, "does not apply to check %q (it reads %s)", c.Compare, want)
		}
	}
	if c.Threshold != nil {
		if c.Compare != SimilarContent {
			return paramErr(check, "threshold", "applies to check %q only", SimilarContent)
		}
		if t := *c.Threshold; math.IsNaN(t) || t < 0 || t > 1 {
			return paramErr(check, "threshold", "want an overlap ratio in [0,1], got %v", t)
		}
	}
	return checkScope(check, c.Scope)
}

// Check implements Check.
func (c Directional) Check(_ context.Context, tr *evalkit.Transcript) (Result, error) {
	const check = "directional"
	if err := c.validate(); err != nil {
		return Result{}, err
	}
	switch c.Compare {
	case SameToolCalls:
		want := c.BaselineTools
		if want == nil {
			base, _, err := toolNameSet(check, c.Baseline, c.Scope)
			if err != nil {
				return Result{}, fmt.Errorf("the baseline: %w", err)
			}
			want = base
		}
		return toolSetResult(check, tr, c.Scope, want, "baseline")
	case SameOutcome:
		want := c.BaselineState
		if want == "" {
			w, err := workflowOf(check, c.Baseline)
			if err != nil {
				return Result{}, fmt.Errorf("the baseline: %w", err)
			}
			want = w.CurrentState()
		}
		return stateResult(check, tr, want, "baseline")
	}
	want := c.BaselineContent
	if want == "" {
		base, err := outcomeText(check, c.Baseline, c.Scope)
		if err != nil {
			return Result{}, fmt.Errorf("the baseline: %w", err)
		}
		want = base
	}
	got, err := outcomeText(check, tr, c.Scope)
	if err != nil {
		return Result{}, err
	}
	threshold := 0.5
	if c.Threshold != nil {
		threshold = *c.Threshold
	}
	overlap := wordJaccard(got, want)
	summary := fmt.Sprintf("word overlap with the baseline %.2f", overlap)
	if overlap >= threshold {
		return pass(overlap, fmt.Sprintf("%s >= %.2f", summary, threshold)), nil
	}
	return fail(overlap, fmt.Sprintf("%s, want >= %.2f", summary, threshold),
		Detail{"output", excerpt(got)}, Detail{"baseline", excerpt(want)}), nil
}

// wordJaccard is |A∩B| / |A∪B| of the two texts' word sets; two texts
// without words are identical (1).
func wordJaccard(a, b string) float64 {
	wa, wb := wordsOf(a), wordsOf(b)
	if len(wa) == 0 && len(wb) == 0 {
		return 1
	}
	inter := 0
	for w := range wa {
		if wb[w] {
			inter++
		}
	}
	return ratio(inter, len(wa)+len(wb)-inter)
}

func wordsOf(s string) map[string]bool {
	set := map[string]bool{}
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '\''
	}) {
		set[w] = true
	}
	return set
}
