package assert

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/internal/textnorm"
)

// ErrBadVerdict is returned (wrapped) when a judge's verdict cannot be
// graded: it lacks the field the passing criterion reads (no score for a
// threshold, no "pass" for a boolean criterion), gives a label outside the
// offered ones, breaks the request's verdict schema, or holds a score outside
// [0,1]. The judge is at fault, not the output under test: the check is an
// error, never a pass and never a failure.
var ErrBadVerdict = errors.New("the judge's verdict cannot be graded")

// Passing says which verdicts pass, in the spirit of MindTrial's passing
// verdicts. Set exactly one criterion:
//
//   - a score threshold: MinScore and/or MaxScore on the verdict's Score,
//     normalized to [0,1] (inclusive bounds);
//   - labels: Labels, the passing labels, compared with the verdict's label
//     after Rules; Offered, when set, lists every label the judge may give;
//   - a boolean: Passed, the value the judge's own pass/fail must have;
//   - a schema: Schema, a JSON Schema the verdict object must satisfy as
//     the judge wrote it, without canonicalization (an explicit schema says
//     exactly what passes; canonicalizing would change its meaning).
//
// Field names the verdict field (a key of Verdict.Fields, the judge's JSON
// object) that the labels or boolean criterion reads; empty, they read
// Verdict.Label and Verdict.Passed.
//
// A verdict without what the criterion reads is an error wrapping
// ErrBadVerdict, never a pass: no score for a threshold (whatever the judge's
// own pass/fail says), no label, no boolean, no JSON object for a schema. So
// is a verdict that contradicts itself, whatever the criterion: a label
// saying pass or fail (evalkit.PassFailLabel) beside a Passed saying the
// other.
type Passing struct {
	// MinScore and MaxScore bound the score, in [0,1].
	MinScore, MaxScore *float64
	// Labels are the passing labels ("C", "pass").
	Labels []string
	// Offered, when set, are every label the judge may give (the passing
	// ones among them): any other label is an error, not a failure, so
	// "CI" or "P" on a C/I menu is never graded as partial credit.
	Offered []string
	// Rules canonicalize the verdict's label and the Labels and Offered
	// before comparing them; the zero Rules compare exactly. (The
	// PassingLabels option and the registry default to case-insensitive,
	// trimmed, collapsed white space, zero-width characters ignored.)
	Rules Rules
	// Passed is the value the boolean must have: &true to pass when the
	// judge says pass, &false for a criterion such as "is it harmful?".
	Passed *bool
	// Field is the verdict field the Labels or Passed criterion reads.
	Field string
	// Schema is a JSON Schema the verdict object (Verdict.Fields) must
	// satisfy: a map, a JSON string, []byte or json.RawMessage, as
	// JSONSchema's Schema. It is not canonicalized.
	Schema any
	// Prefer passes a pairwise verdict whose Preference (a pairwise
	// format's, see package verdicts) is at least as good for its answer
	// as it says.
	Prefer *Prefer
	// Verdicts are passing verdicts as literal JSON values of any type,
	// compared with the verdict (Field's value, the verdict object, or
	// the judge's whole answer) after Rules; one object with a "$schema"
	// key is an explicit Schema. See verdict_literal.go; MindTrial's.
	Verdicts []any
}

// Prefer is a passing criterion on a pairwise verdict's Preference. Winner
// is "A" or "B"; Strength 1 passes a win of any strength (A>B, A>>B), 2 a
// strong win only (A>>B); OrTie passes a tie too (A=B). As Prefers,
// PrefersStrongly and PrefersOrTie make them.
type Prefer struct {
	Winner   string
	Strength int
	OrTie    bool
}

func (p Prefer) String() string {
	switch {
	case p.OrTie:
		return p.Winner + " at least ties"
	case p.Strength == 2:
		return p.Winner + " much better"
	}
	return p.Winner + " better"
}

// GradeVerdict grades a judge's verdict against p, returning whether it
// passes. It returns an error wrapping ErrBadVerdict when the verdict lacks
// what p reads (see Passing), and a *ParamError when p is not exactly one
// valid criterion or its schema is not valid JSON Schema. As MindTrial's
// GradeVerdict.
func GradeVerdict(v evalkit.Verdict, p Passing) (passed bool, err error) {
	g, err := p.grade("GradeVerdict", v)
	return g.passed, err
}

// graded is a graded verdict: the outcome, a one-line summary (got before
// want) and details (schema violations).
type graded struct {
	passed  bool
	summary string
	want    string // what passes, as the summary's want clause says it: ">= 0.80"
	details []Detail
}

// hasCriterion reports whether any field of p is set: the zero Passing of
// a judged check means the judge's own pass/fail.
func (p Passing) hasCriterion() bool {
	return p.MinScore != nil || p.MaxScore != nil || len(p.Labels) > 0 || p.Passed != nil || p.Schema != nil || p.Prefer != nil ||
		len(p.Offered) > 0 || p.Rules != (Rules{}) || p.Field != "" || len(p.Verdicts) > 0
}

// validate checks p is exactly one valid criterion; errors are
// *ParamError on the check's parameter names.
func (p Passing) validate(check string) error {
	p = p.withExplicitSchema()
	var set []string
	if len(p.Verdicts) > 0 {
		set = append(set, "passing_verdicts")
	}
	if p.MinScore != nil || p.MaxScore != nil {
		set = append(set, "min_score/max_score")
	}
	if len(p.Labels) > 0 {
		set = append(set, "passing_labels")
	}
	if p.Passed != nil {
		set = append(set, "passed")
	}
	if p.Schema != nil {
		set = append(set, "passing_schema")
	}
	if p.Prefer != nil {
		set = append(set, "prefers")
	}
	switch {
	case len(set) == 0:
		return paramErr(check, "passing", "no passing criterion: give min_score/max_score, passing_labels, passed, passing_schema or prefers")
	case len(set) > 1:
		return paramErr(check, "passing", "give one passing criterion, not %s", strings.Join(set, " and "))
	}
	if len(p.Verdicts) > 0 {
		return p.validateLiteral(check)
	}
	if p.Rules != (Rules{}) && len(p.Labels) == 0 {
		return paramErr(check, "label_rules", "the rules apply to passing_labels, which are not given")
	}
	if len(p.Offered) > 0 && len(p.Labels) == 0 {
		return paramErr(check, "offered_labels", "the offered labels go with passing_labels, which are not given")
	}
	if p.Field != "" && len(p.Labels) == 0 && p.Passed == nil {
		return paramErr(check, "verdict_field", "the field is read by passing_labels or passed, and neither is given")
	}
	switch {
	case p.MinScore != nil || p.MaxScore != nil:
		return validateThreshold(check, p.MinScore, p.MaxScore)
	case len(p.Labels) > 0:
		offered := p.canonSet(p.Offered)
		for i, l := range p.Labels {
			c := p.Rules.Text(l)
			if c == "" {
				return paramErr(check, "passing_labels", "label %d is empty", i)
			}
			if len(offered) > 0 && !slices.Contains(offered, c) {
				return paramErr(check, "passing_labels", "%s is not among the offered labels (%s)", excerpt(l), quoteList(p.Offered))
			}
		}
	case p.Schema != nil:
		_, err := compileNamed(check, "passing_schema", p.Schema)
		return err
	case p.Prefer != nil:
		if w := p.Prefer.Winner; w != "A" && w != "B" {
			return paramErr(check, "prefers", "the winner is \"A\" or \"B\", not %s", excerpt(w))
		}
		if p.Prefer.Strength != 1 && p.Prefer.Strength != 2 {
			return paramErr(check, "prefers", "the strength is 1 (better) or 2 (much better), not %d", p.Prefer.Strength)
		}
	}
	return nil
}

// validateThreshold checks score bounds: finite, in [0,1], in order, and
// able to fail some score.
func validateThreshold(check string, lo, hi *float64) error {
	for _, b := range []struct {
		name string
		v    *float64
	}{{"min_score", lo}, {"max_score", hi}} {
		if b.v != nil && (math.IsNaN(*b.v) || *b.v < 0 || *b.v > 1) {
			return paramErr(check, b.name, "want a score in [0,1] (scores are normalized), got %v", *b.v)
		}
	}
	switch {
	case lo != nil && hi != nil && *lo > *hi:
		return paramErr(check, "min_score", "%v is above max_score %v: no score can pass", *lo, *hi)
	case (lo == nil || *lo == 0) && (hi == nil || *hi == 1):
		name := "min_score"
		if lo == nil {
			name = "max_score"
		}
		return paramErr(check, name, "every score in [0,1] passes: the threshold can never fail")
	}
	return nil
}

// grade validates p and grades v. A verdict contradicting itself (a
// label saying fail beside Passed true) is an error whatever p reads.
func (p Passing) grade(check string, v evalkit.Verdict) (graded, error) {
	if err := p.validate(check); err != nil {
		return graded{}, err
	}
	p = p.withExplicitSchema()
	if err := contradiction(check, v); err != nil {
		return graded{}, err
	}
	switch {
	case p.MinScore != nil || p.MaxScore != nil:
		return gradeScore(check, v, p.MinScore, p.MaxScore)
	case len(p.Labels) > 0:
		return p.gradeLabel(check, v)
	case p.Passed != nil:
		return p.gradeBool(check, v)
	case p.Prefer != nil:
		return p.gradePreference(check, v)
	case len(p.Verdicts) > 0:
		return p.gradeLiteral(check, v)
	}
	return p.gradeSchema(check, v)
}

// gradePreference grades a pairwise verdict's Preference against Prefer.
func (p Passing) gradePreference(check string, v evalkit.Verdict) (graded, error) {
	if v.Preference == nil {
		return graded{}, badVerdict(check, "the verdict states no preference between two answers (label %s): judge the pair in a pairwise format (package verdicts: ArenaHard, MTBenchPair)", excerpt(v.Label))
	}
	got, want := *v.Preference, *p.Prefer
	if !validPreference(got) {
		return graded{}, badVerdict(check, "the verdict's preference %s is none of A>>B, A>B, A=B, B>A, B>>A", got)
	}
	passed := got.Winner == want.Winner && got.Strength >= want.Strength ||
		want.OrTie && got.Winner == "" && got.Strength == 0
	summary := "preference " + got.String()
	if passed {
		return graded{passed: true, summary: summary}, nil
	}
	return graded{summary: summary + ", want " + want.String()}, nil
}

// validPreference reports whether p is one of the five preferences: a
// winner "A" or "B" at strength 1 or 2, or a tie (no winner, strength 0).
func validPreference(p evalkit.Preference) bool {
	return (p.Winner == "A" || p.Winner == "B") && (p.Strength == 1 || p.Strength == 2) || p.Winner == "" && p.Strength == 0
}

// scoreSlack keeps float rounding in the normalization from flipping a
// verdict: 7 on a 1–10 scale is 0.666…, and MinScore(0.8) of 8 out of 10
// must pass.
const scoreSlack = 1e-9

func gradeScore(check string, v evalkit.Verdict, lo, hi *float64) (graded, error) {
	if err := checkScore(check, v); err != nil {
		return graded{}, err
	}
	if !v.Scored {
		return graded{}, badVerdict(check, "the verdict has no score, and the threshold needs one")
	}
	passed := (lo == nil || v.Score >= *lo-scoreSlack) && (hi == nil || v.Score <= *hi+scoreSlack)
	var want string
	switch {
	case lo != nil && hi != nil:
		want = fmt.Sprintf("want >= %s and <= %s", fmtBound(*lo), fmtBound(*hi))
	case lo != nil:
		want = "want >= " + fmtBound(*lo)
	default:
		want = "want <= " + fmtBound(*hi)
	}
	near := lo // the bound the score is shown against
	if near == nil || (hi != nil && v.Score > *hi) {
		near = hi
	}
	return graded{passed: passed, summary: "score " + fmtScore(v.Score, *near) + ", " + want, want: strings.TrimPrefix(want, "want ")}, nil
}

// fmtBound writes a threshold with two decimals, or exactly when two
// decimals would round it.
func fmtBound(b float64) string {
	s := strconv.FormatFloat(b, 'f', 2, 64)
	if f, _ := strconv.ParseFloat(s, 64); f == b {
		return s
	}
	return strconv.FormatFloat(b, 'f', -1, 64)
}

// fmtScore writes a score with two decimals, or with as many as it takes to
// tell it from the bound it is compared with: 0.795 against 0.80 must not
// read "score 0.80, want >= 0.80".
func fmtScore(s, bound float64) string {
	a := strconv.FormatFloat(s, 'f', 2, 64)
	r, _ := strconv.ParseFloat(a, 64)
	if math.Abs(s-bound) <= scoreSlack || (r != bound && (r < bound) == (s < bound)) {
		return a
	}
	return strconv.FormatFloat(s, 'f', -1, 64)
}

// checkScore rejects a scored verdict whose score is not in [0,1].
func checkScore(check string, v evalkit.Verdict) error {
	if v.Scored && (math.IsNaN(v.Score) || v.Score < 0 || v.Score > 1) {
		return badVerdict(check, "score %v is outside [0,1] (the judge must normalize it)", v.Score)
	}
	return nil
}

func (p Passing) gradeLabel(check string, v evalkit.Verdict) (graded, error) {
	label, err := p.label(check, v)
	if err != nil {
		return graded{}, err
	}
	got := p.Rules.Text(label)
	if got == "" {
		return graded{}, badVerdict(check, "the label %s is empty", excerpt(label))
	}
	want := "want " + excerpt(p.Labels[0])
	if len(p.Labels) > 1 {
		want = "want one of " + quoteList(p.Labels)
	}
	summary := "label " + excerpt(label)
	if slices.Contains(p.canonSet(p.Labels), got) {
		return graded{passed: true, summary: summary, want: strings.TrimPrefix(want, "want ")}, nil
	}
	if !p.Rules.IgnoreZeroWidth && hasFormat(label) {
		return graded{}, badVerdict(check, "the label %s holds invisible characters (%s): set the rule ignore_zero_width (Rules.IgnoreZeroWidth) to read past them",
			excerpt(label), formatChars(label))
	}
	if len(p.Offered) > 0 && !slices.Contains(p.canonSet(p.Offered), got) {
		return graded{}, badVerdict(check, "the label %s is not one of the offered labels (%s)", excerpt(label), quoteList(p.Offered))
	}
	return graded{summary: summary + ", " + want, want: strings.TrimPrefix(want, "want ")}, nil
}

// label reads the verdict's label: Verdict.Label, or the string field.
func (p Passing) label(check string, v evalkit.Verdict) (string, error) {
	if p.Field == "" {
		if v.Label == "" {
			gave := ""
			switch {
			case v.Passed != nil:
				gave = fmt.Sprintf(" (only passed=%v, as judgefake.Pass gives)", *v.Passed)
			case v.Scored:
				gave = fmt.Sprintf(" (only a score, %.2f)", v.Score)
			}
			return "", badVerdict(check, "the verdict has no label%s: grading by labels needs a judge that gives one", gave)
		}
		return v.Label, nil
	}
	f, err := field(check, v, p.Field)
	if err != nil {
		return "", err
	}
	s, ok := f.(string)
	if !ok {
		return "", badVerdict(check, "field %q is %s, want a label (a string)", p.Field, kindOf(f))
	}
	return s, nil
}

func (p Passing) gradeBool(check string, v evalkit.Verdict) (graded, error) {
	var got bool
	what := "pass/fail"
	if p.Field == "" {
		if v.Passed == nil {
			return graded{}, badVerdict(check, "the verdict has no pass/fail of the judge's own (no \"pass\" or \"passed\" field, no label pass or fail)%s", gaveInstead(v))
		}
		got = *v.Passed
	} else {
		what = strconv.Quote(p.Field)
		f, err := field(check, v, p.Field)
		if err != nil {
			return graded{}, err
		}
		b, ok := f.(bool)
		if !ok {
			return graded{}, badVerdict(check, "field %q is %s, want true or false", p.Field, kindOf(f))
		}
		got = b
	}
	word := func(b bool) string {
		if p.Field != "" {
			return strconv.FormatBool(b)
		}
		if b {
			return "pass"
		}
		return "fail"
	}
	summary := fmt.Sprintf("judge's %s: %s", what, word(got))
	if got == *p.Passed {
		return graded{passed: true, summary: summary, want: word(*p.Passed)}, nil
	}
	return graded{summary: summary + ", want " + word(*p.Passed), want: word(*p.Passed)}, nil
}

// gaveInstead says what a verdict has in place of the missing field.
func gaveInstead(v evalkit.Verdict) string {
	switch {
	case v.Label != "":
		return ": it gives the label " + excerpt(v.Label)
	case v.Scored:
		return fmt.Sprintf(": it gives only a score, %.2f", v.Score)
	case len(v.Fields) > 0:
		return ": its fields are " + fieldNames(v.Fields)
	}
	return ""
}

// contradiction rejects a verdict whose label says pass or fail (see
// evalkit.PassFailLabel) while its Passed says the other: which the judge
// meant cannot be told.
func contradiction(check string, v evalkit.Verdict) error {
	if b, ok := evalkit.PassFailLabel(v.Label); ok && v.Passed != nil && b != *v.Passed {
		return badVerdict(check, "the verdict contradicts itself: its label is %s but its pass/fail is %s", excerpt(v.Label), passWord(*v.Passed))
	}
	return nil
}

func passWord(b bool) string {
	if b {
		return "pass"
	}
	return "fail"
}

// field reads a field of the verdict's JSON object.
func field(check string, v evalkit.Verdict, name string) (any, error) {
	if v.Fields == nil {
		return nil, badVerdict(check, "the verdict has no field %q: the judge did not answer with a JSON object", name)
	}
	f, ok := v.Fields[name]
	if !ok {
		return nil, badVerdict(check, "the verdict has no field %q (it has %s)", name, fieldNames(v.Fields))
	}
	return f, nil
}

func (p Passing) gradeSchema(check string, v evalkit.Verdict) (graded, error) {
	sch, err := compileNamed(check, "passing_schema", p.Schema)
	if err != nil {
		return graded{}, err
	}
	if v.Fields == nil {
		return graded{}, badVerdict(check, "the judge did not answer with a JSON object, and the passing schema needs one")
	}
	leaves, err := validateFields(sch, v.Fields)
	if err != nil {
		return graded{}, fmt.Errorf("%s: validating the verdict: %w", check, err)
	}
	if leaves == nil {
		return graded{passed: true, summary: "the verdict matches the passing schema", want: "the passing schema"}, nil
	}
	return graded{summary: "the verdict does not match the passing schema", want: "the passing schema", details: leaves}, nil
}

// validateFields validates a verdict object against a compiled schema as
// the judge wrote it (numbers exactly), returning the violations, sorted
// and bounded, or nil.
func validateFields(sch *jsonschema.Schema, fields map[string]any) ([]Detail, error) {
	data, err := json.Marshal(fields)
	if err != nil {
		return nil, err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	verr := sch.Validate(doc)
	if verr == nil {
		return nil, nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(verr, &ve) {
		return nil, verr
	}
	leaves := schemaLeaves(ve)
	if n := len(leaves); n > maxListed {
		leaves = append(leaves[:maxListed], Detail{"more", fmt.Sprintf("… and %d more errors", n-maxListed)})
	}
	return leaves, nil
}

// compileNamed compiles a schema, naming the check's own parameter in
// errors.
func compileNamed(check, param string, schema any) (*jsonschema.Schema, error) {
	sch, err := compileSchema(schema)
	var pe *ParamError
	if errors.As(err, &pe) {
		return nil, &ParamError{Check: check, Param: param, Msg: pe.Msg}
	}
	return sch, err
}

func (p Passing) canonSet(labels []string) []string {
	out := make([]string, len(labels))
	for i, l := range labels {
		out[i] = p.Rules.Text(l)
	}
	return out
}

func badVerdict(check, format string, args ...any) error {
	return fmt.Errorf("%s: %w: %s", check, ErrBadVerdict, fmt.Sprintf(format, args...))
}

// formatChars names the invisible format characters in s: "U+200B".
func formatChars(s string) string {
	var names []string
	for _, r := range s {
		if unicode.Is(unicode.Cf, r) {
			n := fmt.Sprintf("U+%04X", r)
			if !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	return strings.Join(names, ", ")
}

// fieldNames lists a verdict's field names, sorted and bounded.
func fieldNames(fields map[string]any) string {
	if len(fields) == 0 {
		return "no fields"
	}
	names := make([]string, 0, len(fields))
	for k := range fields {
		names = append(names, k)
	}
	slices.Sort(names)
	return textnorm.Excerpt(quoteList(names), maxDetail)
}
