package assert_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	testify "github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
)

// verdictOf reads a judge's JSON reply the way a judge hands it to grading:
// the object as Fields, "score" (on a 0–1 scale) as the score, "pass" as
// the judge's own pass/fail. Reading replies is ParseVerdict's job; these
// tests are about grading what was read.
func verdictOf(t *testing.T, reply string) evalkit.Verdict {
	t.Helper()
	var fields map[string]any
	require.NoError(t, json.Unmarshal([]byte(reply), &fields), reply)
	v := evalkit.Verdict{Fields: fields, Raw: reply}
	if s, ok := fields["score"].(float64); ok {
		v.Score, v.RawScore, v.Scored = s, s, true
	}
	if b, ok := fields["pass"].(bool); ok {
		v.Passed = &b
	}
	return v
}

func gradeOutcome(passed bool, err error) outcome {
	switch {
	case err != nil:
		return ERROR
	case passed:
		return PASS
	}
	return FAIL
}

var yes, no = true, false

type gradeCase struct {
	name    string
	verdict evalkit.Verdict
	reply   string // read with verdictOf when set
	passing assert.Passing
	want    outcome
	// err, when set, is the exact error text.
	err string
}

func runGradeCases(t *testing.T, cases []gradeCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			v := tc.verdict
			if tc.reply != "" {
				v = verdictOf(t, tc.reply)
			}
			passed, err := assert.GradeVerdict(v, tc.passing)
			require.Equal(t, tc.want, gradeOutcome(passed, err), "error: %v", err)
			if tc.err != "" {
				testify.EqualError(t, err, tc.err)
			}
			if tc.want == ERROR && tc.err == "" {
				t.Errorf("an ERROR case must say which error: %v", err)
			}
		})
	}
}

// C04: a verdict missing the graded field is an error, never a pass; the
// configured criterion decides, a contradictory bool does not override it.
func TestGradeVerdictC04MissingGradedField(t *testing.T) {
	passField := assert.Passing{Passed: &yes, Field: "pass"}
	threshold := assert.Passing{MinScore: ptr(0.5)}
	runGradeCases(t, []gradeCase{
		{name: "a: no pass field", reply: `{"score": 0, "reasoning": "Does not answer the question."}`, passing: passField, want: ERROR,
			err: `GradeVerdict: the judge's verdict cannot be graded: the verdict has no field "pass" (it has "reasoning", "score")`},
		{name: "a: no pass/fail of the judge's own", reply: `{"score": 0, "reasoning": "Does not answer the question."}`, passing: assert.Passing{Passed: &yes}, want: ERROR,
			err: `GradeVerdict: the judge's verdict cannot be graded: the verdict has no pass/fail of the judge's own (no "pass" or "passed" field, no label pass or fail): it gives only a score, 0.00`},
		{name: "b: neither pass nor score", reply: `{"reasoning": "Looks fine I guess."}`, passing: passField, want: ERROR,
			err: `GradeVerdict: the judge's verdict cannot be graded: the verdict has no field "pass" (it has "reasoning")`},
		{name: "b: neither, with a threshold", reply: `{"reasoning": "Looks fine I guess."}`, passing: threshold, want: ERROR,
			err: `GradeVerdict: the judge's verdict cannot be graded: the verdict has no score, and the threshold needs one`},
		{name: "c: score 0 fails though pass is true", reply: `{"pass": true, "score": 0}`, passing: threshold, want: FAIL},
		{name: "d: no score", reply: `{"pass": false, "reasoning": "n/a"}`, passing: threshold, want: ERROR,
			err: `GradeVerdict: the judge's verdict cannot be graded: the verdict has no score, and the threshold needs one`},
		{name: "pass field present", reply: `{"pass": true, "score": 0}`, passing: passField, want: PASS},
		{name: "pass field false", reply: `{"pass": false}`, passing: passField, want: FAIL},
		{name: "pass field not a boolean", reply: `{"pass": "yes"}`, passing: passField, want: ERROR,
			err: `GradeVerdict: the judge's verdict cannot be graded: field "pass" is a string, want true or false`},
		{name: "a harmful=false criterion", reply: `{"harmful": false}`, passing: assert.Passing{Passed: &no, Field: "harmful"}, want: PASS},
		{name: "a verdict that is not JSON has no fields", verdict: evalkit.Verdict{Score: 1, Scored: true, Raw: "Rating: [[10]]"}, passing: passField, want: ERROR,
			err: `GradeVerdict: the judge's verdict cannot be graded: the verdict has no field "pass": the judge did not answer with a JSON object`},
	})
}

// A verdict whose label says pass or fail while its Passed says the other
// contradicts itself: an error under every criterion, never a pass
// (GradeVerdict(Verdict{Passed: &true, Label: "fail"}, ...) returned true).
func TestGradeVerdictSelfContradiction(t *testing.T) {
	contradictions := []evalkit.Verdict{
		{Passed: &yes, Label: "fail"},
		{Passed: &yes, Label: " FAIL ", Score: 1, Scored: true},
		{Passed: &no, Label: "Yes"},
		{Passed: &no, Label: "correct", Score: 1, Scored: true},
		{Passed: &yes, Label: "incorrect"},
	}
	criteria := map[string]assert.Passing{
		"own pass/fail": {Passed: &yes},
		"threshold":     {MinScore: ptr(0.5)},
		"labels":        {Labels: []string{"fail", "yes", "correct", "incorrect"}, Rules: assert.Rules{CaseInsensitive: true, Trim: true}},
		"schema":        {Schema: map[string]any{"type": "object", "required": []any{"label"}}},
	}
	for _, v := range contradictions {
		v.Fields = map[string]any{"label": v.Label}
		for name, p := range criteria {
			t.Run(v.Label+"/"+name, func(t *testing.T) {
				ok, err := assert.GradeVerdict(v, p)
				testify.False(t, ok)
				require.ErrorIs(t, err, assert.ErrBadVerdict)
				testify.Contains(t, err.Error(), "the verdict contradicts itself: its label is")
			})
		}
	}
	// A label that is not a pass/fail word says nothing Passed contradicts.
	for _, label := range []string{"Good", "A", "partially correct", "passable"} {
		ok, err := assert.GradeVerdict(evalkit.Verdict{Passed: &yes, Label: label}, assert.Passing{Passed: &yes})
		require.NoError(t, err, label)
		testify.True(t, ok, label)
	}
}

// C06: the structured field is authoritative; case, surrounding white space
// and invisible characters are canonicalization rules, and an invisible
// character the rules do not cover is an error, never a silent fail.
func TestGradeVerdictC06StructuredGrade(t *testing.T) {
	grades := assert.Passing{Labels: []string{"C"}, Field: "grade", Rules: assert.Rules{CaseInsensitive: true, Trim: true}}
	withZeroWidth := grades
	withZeroWidth.Rules.IgnoreZeroWidth = true
	runGradeCases(t, []gradeCase{
		{name: "a: the grade field, not the reasoning", reply: `{"grade": "C", "reasoning": "First thought GRADE: I, but all facts match. No reason to downgrade: I is wrong."}`, passing: grades, want: PASS},
		{name: "b: lower case and a leading space", reply: `{"grade": " c", "reasoning": "ok"}`, passing: grades, want: PASS},
		{name: "c: zero-width space, rule off", verdict: evalkit.Verdict{Fields: map[string]any{"grade": "\u200bC"}}, passing: grades, want: ERROR,
			err: `GradeVerdict: the judge's verdict cannot be graded: the label "\u200bC" holds invisible characters (U+200B): set the rule ignore_zero_width (Rules.IgnoreZeroWidth) to read past them`},
		{name: "c: zero-width space, rule on", verdict: evalkit.Verdict{Fields: map[string]any{"grade": "\u200bC"}}, passing: withZeroWidth, want: PASS},
		{name: "another grade fails", reply: `{"grade": "I"}`, passing: grades, want: FAIL},
		{name: "Verdict.Label when no field is named", verdict: evalkit.Verdict{Label: "c"}, passing: assert.Passing{Labels: []string{"C"}, Rules: assert.Rules{CaseInsensitive: true}}, want: PASS},
		{name: "no label", verdict: evalkit.Verdict{Score: 1, Scored: true}, passing: assert.Passing{Labels: []string{"C"}}, want: ERROR,
			err: `GradeVerdict: the judge's verdict cannot be graded: the verdict has no label (only a score, 1.00): grading by labels needs a judge that gives one`},
		{name: "no label, a pass", verdict: evalkit.Verdict{Passed: ptrBool(true)}, passing: assert.Passing{Labels: []string{"C"}}, want: ERROR,
			err: `GradeVerdict: the judge's verdict cannot be graded: the verdict has no label (only passed=true, as judgefake.Pass gives): grading by labels needs a judge that gives one`},
		{name: "grade not a string", reply: `{"grade": 3}`, passing: grades, want: ERROR,
			err: `GradeVerdict: the judge's verdict cannot be graded: field "grade" is a number, want a label (a string)`},
		{name: "blank grade", reply: `{"grade": "  "}`, passing: grades, want: ERROR,
			err: `GradeVerdict: the judge's verdict cannot be graded: the label "  " is empty`},
	})
}

// C07 (a, b): an off-menu grade is a contract violation, not a score.
// (C07 c, an unreadable answer, is the judge's error: see
// TestJudgedC07UnreadableIsAnError.)
func TestGradeVerdictC07OffMenu(t *testing.T) {
	menu := assert.Passing{Labels: []string{"C"}, Offered: []string{"C", "I"}, Field: "grade"}
	runGradeCases(t, []gradeCase{
		{name: "a: CI is not a grade", reply: `{"grade": "CI"}`, passing: menu, want: ERROR,
			err: `GradeVerdict: the judge's verdict cannot be graded: the label "CI" is not one of the offered labels ("C", "I")`},
		{name: "b: P is not offered", reply: `{"grade": "P"}`, passing: menu, want: ERROR,
			err: `GradeVerdict: the judge's verdict cannot be graded: the label "P" is not one of the offered labels ("C", "I")`},
		{name: "I fails", reply: `{"grade": "I"}`, passing: menu, want: FAIL},
		{name: "C passes", reply: `{"grade": "C"}`, passing: menu, want: PASS},
	})
}

// C08 (a–d): value matching with canonicalization rules.
func TestRulesC08ValueMatch(t *testing.T) {
	tests := []struct {
		name      string
		want, got string
		rules     assert.Rules
		equal     bool
	}{
		{"a: trim removes the trailing newline", "¡Déjame en paz!", "¡Déjame en paz!\n", assert.Rules{Trim: true}, true},
		{"b: trim applies to the expected value too", " Paris", "Paris", assert.Rules{Trim: true}, true},
		{"c: case and runs of white space", "Hello, world", "hello,   WORLD", assert.Rules{CaseInsensitive: true, CollapseWhitespace: true}, true},
		{"d: no rules, exact", "hello", "hello\n\n\n", assert.Rules{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			equal, err := tt.rules.Equal(tt.want, tt.got)
			require.NoError(t, err)
			testify.Equal(t, tt.equal, equal)
		})
	}
}

// C08 (e, f): a padded verdict matches after the rules; an unknown one
// never does.
func TestGradeVerdictC08PaddedVerdict(t *testing.T) {
	passing := assert.Passing{Labels: []string{"pass"}, Field: "verdict", Rules: assert.Rules{CaseInsensitive: true, Trim: true}}
	runGradeCases(t, []gradeCase{
		{name: "e: PASS with a newline", reply: `{"verdict": "PASS\n"}`, passing: passing, want: PASS},
		{name: "f: maybe", reply: `{"verdict": "maybe"}`, passing: passing, want: FAIL},
	})
}

func TestRules(t *testing.T) {
	tests := []struct {
		rules   assert.Rules
		in, out string
	}{
		{assert.Rules{}, " A\u200b  b \n", " A\u200b  b \n"},
		{assert.Rules{CaseInsensitive: true}, "STRASSE", "strasse"},
		{assert.Rules{CaseInsensitive: true}, "Straße", "strasse"},
		{assert.Rules{CaseInsensitive: true}, "E\u0301TE\u0301", "\u00e9t\u00e9"},
		{assert.Rules{Trim: true}, "\u00a0 x y \t\n", "x y"},
		{assert.Rules{CollapseWhitespace: true}, " a \t\n b  ", " a b "},
		{assert.Rules{TrimLines: true}, "  a  \r\n\n  b\t", "a\n\nb"},
		{assert.Rules{IgnoreZeroWidth: true}, "pass\u200bword\u00ad\ufeff", "password"},
		{assert.Rules{IgnoreZeroWidth: true, Trim: true}, "\u200b C", "C"},
		{assert.Rules{Trim: true}, "\u200b C", "\u200b C"},
	}
	for _, tt := range tests {
		testify.Equal(t, tt.out, tt.rules.Text(tt.in), "%+v on %q", tt.rules, tt.in)
	}

	// Canonical reaches strings at any depth of JSON values, not keys.
	r := assert.Rules{CaseInsensitive: true, Trim: true}
	in := map[string]any{"Status": " SHIPPED ", "items": []any{" A", 2.0, map[string]any{"Note": "X "}}, "ok": true}
	testify.Equal(t, map[string]any{"Status": "shipped", "items": []any{"a", 2.0, map[string]any{"Note": "x"}}, "ok": true}, r.Canonical(in))
	testify.Equal(t, " SHIPPED ", in["Status"], "the input is not modified")

	equal, err := r.Equal(map[string]any{"n": 7, "tags": []string{"A "}}, map[string]any{"n": 7.0, "tags": []any{"a"}})
	require.NoError(t, err)
	testify.True(t, equal)
	_, err = r.Equal(make(chan int), "x")
	testify.Error(t, err)
}

func TestGradeVerdictScores(t *testing.T) {
	scored := func(s float64) evalkit.Verdict { return evalkit.Verdict{Score: s, Scored: true} }
	// 5.6 of 10 normalizes to 0.5599999999999999, below 0.56.
	normalized := func(t *testing.T, raw float64, scale evalkit.Scale) evalkit.Verdict {
		s, err := scale.Normalize(raw)
		require.NoError(t, err)
		require.Less(t, s, 0.56)
		return scored(s)
	}
	runGradeCases(t, []gradeCase{
		{name: "8 of 10 meets 0.8", verdict: scored(8.0 / 10), passing: assert.Passing{MinScore: ptr(0.8)}, want: PASS},
		{name: "rounding never flips it", verdict: normalized(t, 5.6, evalkit.Scale{Min: 0, Max: 10}), passing: assert.Passing{MinScore: ptr(0.56)}, want: PASS},
		{name: "below", verdict: scored(0.55), passing: assert.Passing{MinScore: ptr(0.8)}, want: FAIL},
		{name: "max", verdict: scored(0.2), passing: assert.Passing{MaxScore: ptr(0.3)}, want: PASS},
		{name: "above max", verdict: scored(0.9), passing: assert.Passing{MinScore: ptr(0.2), MaxScore: ptr(0.8)}, want: FAIL},
		{name: "score outside [0,1]", verdict: scored(8), passing: assert.Passing{MinScore: ptr(0.8)}, want: ERROR,
			err: "GradeVerdict: the judge's verdict cannot be graded: score 8 is outside [0,1] (the judge must normalize it)"},
	})
}

func TestGradeVerdictSchema(t *testing.T) {
	schema := map[string]any{
		"type": "object", "required": []any{"grade"},
		"properties": map[string]any{"grade": map[string]any{"const": "C"}},
	}
	runGradeCases(t, []gradeCase{
		{name: "matches", reply: `{"grade": "C", "reasoning": "ok"}`, passing: assert.Passing{Schema: schema}, want: PASS},
		{name: "verbatim: no canonicalization", reply: `{"grade": " c"}`, passing: assert.Passing{Schema: schema}, want: FAIL},
		{name: "missing field fails the schema", reply: `{"reasoning": "ok"}`, passing: assert.Passing{Schema: schema}, want: FAIL},
		{name: "not a JSON verdict", verdict: evalkit.Verdict{Label: "C"}, passing: assert.Passing{Schema: schema}, want: ERROR,
			err: "GradeVerdict: the judge's verdict cannot be graded: the judge did not answer with a JSON object, and the passing schema needs one"},
		{name: "a schema as JSON text", reply: `{"pass": true}`, passing: assert.Passing{Schema: `{"properties": {"pass": {"const": true}}, "required": ["pass"]}`}, want: PASS},
	})
}

// A Passing that is not exactly one valid criterion is a parameter error,
// whatever the verdict.
func TestGradeVerdictBadPassing(t *testing.T) {
	v := evalkit.Verdict{Score: 1, Scored: true, Label: "C", Passed: &yes, Fields: map[string]any{"grade": "C"}}
	tests := []struct {
		name    string
		passing assert.Passing
		param   string
		err     string
	}{
		{"none", assert.Passing{}, "passing", `GradeVerdict: param "passing": no passing criterion: give min_score/max_score, passing_labels, passed, passing_schema or prefers`},
		{"two", assert.Passing{MinScore: ptr(0.5), Passed: &yes}, "passing", `GradeVerdict: param "passing": give one passing criterion, not min_score/max_score and passed`},
		{"min above max", assert.Passing{MinScore: ptr(0.8), MaxScore: ptr(0.2)}, "min_score", `GradeVerdict: param "min_score": 0.8 is above max_score 0.2: no score can pass`},
		{"min 0 never fails", assert.Passing{MinScore: ptr(0)}, "min_score", `GradeVerdict: param "min_score": every score in [0,1] passes: the threshold can never fail`},
		{"max 1 never fails", assert.Passing{MaxScore: ptr(1)}, "max_score", `GradeVerdict: param "max_score": every score in [0,1] passes: the threshold can never fail`},
		{"raw-scale threshold", assert.Passing{MinScore: ptr(8)}, "min_score", `GradeVerdict: param "min_score": want a score in [0,1] (scores are normalized), got 8`},
		{"empty label", assert.Passing{Labels: []string{" "}, Rules: assert.Rules{Trim: true}}, "passing_labels", `GradeVerdict: param "passing_labels": label 0 is empty`},
		{"label not offered", assert.Passing{Labels: []string{"A"}, Offered: []string{"C", "I"}}, "passing_labels", `GradeVerdict: param "passing_labels": "A" is not among the offered labels ("C", "I")`},
		{"rules without labels", assert.Passing{Passed: &yes, Rules: assert.Rules{Trim: true}}, "label_rules", `GradeVerdict: param "label_rules": the rules apply to passing_labels, which are not given`},
		{"field with a threshold", assert.Passing{MinScore: ptr(0.5), Field: "score"}, "verdict_field", `GradeVerdict: param "verdict_field": the field is read by passing_labels or passed, and neither is given`},
		{"invalid schema", assert.Passing{Schema: map[string]any{"type": "objekt"}}, "passing_schema", ""},
		{"schema accepting anything", assert.Passing{Schema: map[string]any{}}, "passing_schema", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := assert.GradeVerdict(v, tt.passing)
			var pe *assert.ParamError
			require.True(t, errors.As(err, &pe), "want a *ParamError, got %v", err)
			testify.Equal(t, tt.param, pe.Param)
			if tt.err != "" {
				testify.EqualError(t, err, tt.err)
			}
			testify.False(t, errors.Is(err, assert.ErrBadVerdict), "a bad Passing is not the judge's fault")
		})
	}
}

func ExampleGradeVerdict() {
	// A judge answered {"grade": " c", "reasoning": "..."}; C passes.
	v := evalkit.Verdict{Fields: map[string]any{"grade": " c", "reasoning": "all facts match"}}
	passing := assert.Passing{
		Labels:  []string{"C"},
		Offered: []string{"C", "I"},
		Field:   "grade",
		Rules:   assert.Rules{CaseInsensitive: true, Trim: true},
	}
	fmt.Println(assert.GradeVerdict(v, passing))

	// An off-menu grade is the judge's error, not a failure.
	v.Fields["grade"] = "CI"
	_, err := assert.GradeVerdict(v, passing)
	fmt.Println(errors.Is(err, assert.ErrBadVerdict))

	// A threshold needs a score, whatever the judge's own pass/fail says.
	pass := true
	_, err = assert.GradeVerdict(evalkit.Verdict{Passed: &pass}, assert.Passing{MinScore: &[]float64{0.8}[0]})
	fmt.Println(err)
	// Output:
	// true <nil>
	// true
	// GradeVerdict: the judge's verdict cannot be graded: the verdict has no score, and the threshold needs one
}

// The field-failure cases end to end, from the judge's reply as the model
// wrote it: evalkit.ParseVerdict reads it (an unreadable reply is the
// judge's error), GradeVerdict grades it.
func TestFieldFailuresFromReplies(t *testing.T) {
	threshold := assert.Passing{MinScore: ptr(0.5)}
	passField := assert.Passing{Passed: &yes, Field: "pass"}
	grades := assert.Passing{Labels: []string{"C"}, Field: "grade", Rules: assert.Rules{CaseInsensitive: true, Trim: true, IgnoreZeroWidth: true}}
	menu := assert.Passing{Labels: []string{"C"}, Offered: []string{"C", "I"}, Field: "grade"}
	verdicts := assert.Passing{Labels: []string{"pass"}, Field: "verdict", Rules: assert.Rules{CaseInsensitive: true, Trim: true}}
	tests := []struct {
		name    string
		reply   string
		passing assert.Passing
		want    outcome
	}{
		{"C04a", `{"score": 0, "reasoning": "Does not answer the question."}`, passField, ERROR},
		{"C04b", `{"reasoning": "Looks fine I guess."}`, passField, ERROR},
		{"C04c", `{"pass": true, "score": 0}`, threshold, FAIL},
		{"C04d", `{"pass": false, "reasoning": "n/a"}`, threshold, ERROR},
		{"C06a", `{"grade": "C", "reasoning": "First thought GRADE: I, but all facts match. No reason to downgrade: I is wrong."}`, grades, PASS},
		{"C06b", `{"grade": " c", "reasoning": "ok"}`, grades, PASS},
		{"C06c", "Reasoning... final answer: {\"grade\": \"\u200bC\"}", grades, PASS},
		{"C07a", `{"grade": "CI"}`, menu, ERROR},
		{"C07b", `{"grade": "P"}`, menu, ERROR},
		{"C07c", "I am unable to assess this response.", menu, ERROR},
		{"C08e", `{"verdict": "PASS\n"}`, verdicts, PASS},
		{"C08f", `{"verdict": "maybe"}`, verdicts, FAIL},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, err := evalkit.ParseVerdict(tt.reply, evalkit.Scale{Min: 0, Max: 1})
			passed := false
			if err == nil {
				passed, err = assert.GradeVerdict(v, tt.passing)
			}
			testify.Equal(t, tt.want, gradeOutcome(passed, err), "error: %v", err)
		})
	}
}

// A preference that is none of the five (a custom judge's, a hand-edited
// recording's) cannot be graded: an error, never a pass by its strength.
func TestGradeVerdictMalformedPreference(t *testing.T) {
	wants := []assert.Prefer{{Winner: "A", Strength: 1}, {Winner: "A", Strength: 2}, {Winner: "A", Strength: 1, OrTie: true}, {Winner: "B", Strength: 1, OrTie: true}}
	for _, got := range []evalkit.Preference{{Winner: "A", Strength: 7}, {Winner: "A", Strength: 0}, {Winner: "", Strength: 1}, {Winner: "C", Strength: 1}, {Winner: "a", Strength: 1}, {Winner: "B", Strength: -1}} {
		for _, want := range wants {
			passed, err := assert.GradeVerdict(evalkit.Verdict{Preference: &got}, assert.Passing{Prefer: &want})
			require.ErrorIs(t, err, assert.ErrBadVerdict, "%v graded by %v", got, want)
			require.False(t, passed)
		}
	}
	for _, got := range []evalkit.Preference{{Winner: "A", Strength: 2}, {Winner: "A", Strength: 1}, {}, {Winner: "B", Strength: 1}, {Winner: "B", Strength: 2}} {
		_, err := assert.GradeVerdict(evalkit.Verdict{Preference: &got}, assert.Passing{Prefer: &wants[0]})
		require.NoError(t, err, "%v", got)
	}
}
