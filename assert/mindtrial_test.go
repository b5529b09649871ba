package assert_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	testify "github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
)

// MindTrial conformance: its validators' semantics (../shared/seeds/000_...
// txt and MindTrial's README), each a case written from them.

// "passingVerdicts is treated as a set of literal value(s) that verdict
// must equal after canonicalization: both the expected value(s) and verdict
// are canonicalized with rules, then compared via a generated const
// (single value) or enum (multiple values) schema."
func TestMindTrialLiteralVerdicts(t *testing.T) {
	ci := assert.Rules{CaseInsensitive: true, Trim: true}
	quality := []any{map[string]any{"quality_score": "excellent"}, map[string]any{"quality_score": "good"}}
	for _, tt := range []struct {
		name     string
		passing  assert.Passing
		verdict  evalkit.Verdict
		want     bool
		wantText string
	}{
		{"an object among several (enum)", assert.Passing{Verdicts: quality, Rules: ci},
			evalkit.Verdict{Fields: map[string]any{"quality_score": " GOOD "}}, true, ""},
		{"an object outside the set", assert.Passing{Verdicts: quality, Rules: ci},
			evalkit.Verdict{Fields: map[string]any{"quality_score": "poor"}}, false, `verdict {"quality_score":"poor"}, want {"quality_score":"excellent"} or {"quality_score":"good"}`},
		{"case matters without the rule", assert.Passing{Verdicts: quality},
			evalkit.Verdict{Fields: map[string]any{"quality_score": "GOOD"}}, false, ""},
		{"a boolean (const)", assert.Passing{Verdicts: []any{true}}, evalkit.Verdict{Raw: "true"}, true, ""},
		{"a boolean that differs", assert.Passing{Verdicts: []any{true}}, evalkit.Verdict{Raw: "false"}, false, ""},
		{"a number by value: 8 is 8.0", assert.Passing{Verdicts: []any{8}}, evalkit.Verdict{Raw: "8.0"}, true, ""},
		{"numbers among several", assert.Passing{Verdicts: []any{4, 5}}, evalkit.Verdict{Raw: " 5 "}, true, ""},
		{"a list", assert.Passing{Verdicts: []any{[]any{"a", "b"}}}, evalkit.Verdict{Raw: `["a", "b"]`}, true, ""},
		{"a list in another order differs", assert.Passing{Verdicts: []any{[]any{"a", "b"}}}, evalkit.Verdict{Raw: `["b", "a"]`}, false, ""},
		{"a plain text answer", assert.Passing{Verdicts: []any{"correct"}, Rules: ci}, evalkit.Verdict{Raw: "Correct"}, true, ""},
		{"a field's value", assert.Passing{Verdicts: []any{"A", "B"}, Field: "grade"}, evalkit.Verdict{Fields: map[string]any{"grade": "B", "why": "x"}}, true, ""},
		{"integers past float64's precision are compared exactly", assert.Passing{Verdicts: []any{json.Number("10000000000000000001")}},
			evalkit.Verdict{Raw: "10000000000000000000"}, false, ""},
		{"a uint64 passing verdict, exactly", assert.Passing{Verdicts: []any{uint64(10000000000000000001)}},
			evalkit.Verdict{Raw: "10000000000000000001"}, true, ""},
		{"a large integer field, exactly", assert.Passing{Verdicts: []any{int64(9007199254740993)}, Field: "id"},
			evalkit.Verdict{Fields: map[string]any{"id": json.Number("9007199254740992")}}, false, ""},
		{"a nested object with a large integer", assert.Passing{Verdicts: []any{map[string]any{"n": []any{json.Number("123456789012345678901234567890")}}}},
			evalkit.Verdict{Raw: `{"n": [123456789012345678901234567891]}`}, false, ""},
		{"key order does not matter", assert.Passing{Verdicts: []any{map[string]any{"a": 1, "b": 2}}},
			evalkit.Verdict{Fields: map[string]any{"b": 2.0, "a": 1.0}}, true, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ok, err := assert.GradeVerdict(tt.verdict, tt.passing)
			require.NoError(t, err)
			testify.Equal(t, tt.want, ok)
			if tt.wantText != "" {
				res, err := assert.LLMJudge{Judge: fixed(tt.verdict), Criteria: "x", Passing: tt.passing, VerdictSchema: map[string]any{"type": "object"}}.Check(context.Background(), refundRun())
				require.NoError(t, err)
				testify.Equal(t, tt.wantText, res.Summary)
			}
		})
	}
}

// "If passingVerdicts specifies an explicit JSON Schema, verdict is
// validated against it directly, without normalization ... Returns
// (false, nil) when verdict does not conform, and a non-nil error only
// for a malformed schema." An explicit schema is known by its $schema key.
func TestMindTrialExplicitSchema(t *testing.T) {
	schema := map[string]any{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object",
		"properties": map[string]any{"grade": map[string]any{"enum": []any{"A", "B"}}}, "required": []any{"grade"}}
	p := assert.Passing{Verdicts: []any{schema}, Rules: assert.Rules{CaseInsensitive: true}}
	ok, err := assert.GradeVerdict(evalkit.Verdict{Fields: map[string]any{"grade": "A"}}, p)
	require.NoError(t, err)
	testify.True(t, ok)
	ok, err = assert.GradeVerdict(evalkit.Verdict{Fields: map[string]any{"grade": "a"}}, p)
	require.NoError(t, err)
	testify.False(t, ok, "never canonicalized: an explicit schema says exactly what passes")
	_, err = assert.GradeVerdict(evalkit.Verdict{Fields: map[string]any{"grade": "A"}},
		assert.Passing{Verdicts: []any{map[string]any{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": 7}}})
	var pe *assert.ParamError
	testify.True(t, errors.As(err, &pe), "a malformed schema is an error: %v", err)
}

// MindTrial's ignore-whitespace rule removes all whitespace; its
// expected results are a set (any one matches).
func TestMindTrialValueMatch(t *testing.T) {
	ctx := context.Background()
	// "visual - shapes - v1", with ignore-whitespace: true.
	res, err := assert.Eval(ctx, "equals", textChat("1: G,\n2: F,  3: B"), map[string]any{"expected": "1:G, 2:F, 3:B", "ignore_whitespace": true})
	require.NoError(t, err)
	testify.True(t, res.Passed, res.Summary)
	res, err = assert.Eval(ctx, "equals", textChat("1: G,\n2: F,  3: B"), map[string]any{"expected": "1:G, 2:F, 3:B", "collapse_whitespace": true})
	require.NoError(t, err)
	testify.False(t, res.Passed, "collapsing is not removing")
	testify.Equal(t, "ab", assert.Rules{IgnoreWhitespace: true, TrimLines: true}.Text(" a \n\t b "))
	// "riddle - anagram - v3": two acceptable answers; MindTrial's default
	// rules (case-insensitive, trimmed).
	anyOf := map[string]any{"any_of": []any{"1. GRAPE, PEACH\n2. APRICOT, MELON", "1. GRAPE, PEACH\n2. APRICOT, LEMON"}, "case_sensitive": false, "trim": true}
	res, err = assert.Eval(ctx, "equals", textChat("1. grape, peach\n2. apricot, lemon\n"), anyOf)
	require.NoError(t, err)
	testify.True(t, res.Passed, res.Summary)
	res, err = assert.Eval(ctx, "equals", textChat("1. grape, peach\n2. apricot, lime"), anyOf)
	require.NoError(t, err)
	testify.False(t, res.Passed)
	// The rule is a rule name in rule lists too, as MindTrial spells it.
	res, err = assert.Eval(ctx, "llm_judge", refundRun(), map[string]any{"criteria": "x", "passing_labels": []any{"very good"},
		"offered_labels": []any{"very good", "bad"}, "label_rules": []any{"ignore_whitespace", "case_insensitive"}})
	testify.ErrorIs(t, err, assert.ErrNoJudge, "validated, then wants a judge")
}

// The judge prompt template reads MindTrial's names, and several
// reference answers reach the judge as "equivalent to any one of".
func TestMindTrialJudgeTemplate(t *testing.T) {
	ctx := context.Background()
	var got evalkit.JudgeRequest
	judge := evalkit.JudgeFunc(func(_ context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
		got = req
		return evalkit.Verdict{Fields: map[string]any{"quality_score": "good"}, Raw: `{"quality_score": "good"}`}, nil
	})
	tmpl := `Task: {{.OriginalTask.Prompt}}
Format: {{.OriginalTask.ResponseResultFormat}}
Accept any of:{{range .OriginalTask.ExpectedResults}} [{{.}}]{{end}}
Candidate: {{.Candidate.Response}}
Case sensitive: {{.Rules.CaseSensitive}}; ignore whitespace: {{.Rules.IgnoreWhitespace}}; trim lines: {{.Rules.TrimLines}}
Answer as: {{.VerdictFormat}}`
	format := map[string]any{"type": "object", "properties": map[string]any{"quality_score": map[string]any{"type": "string", "enum": []any{"excellent", "good", "poor"}}}, "required": []any{"quality_score"}}
	res, err := assert.Eval(ctx, "llm_judge", refundRun(), map[string]any{
		"template": tmpl, "response_format": "a sentence", "references": []any{"Refund of $42 issued.", "$42 refunded."},
		"verdict_schema": format, "passing_verdicts": []any{map[string]any{"quality_score": "excellent"}, map[string]any{"quality_score": "good"}},
		"verdict_rules": []any{"case_insensitive", "ignore_whitespace"},
	})
	// The registry has no judge: build it in Go instead.
	testify.ErrorIs(t, err, assert.ErrNoJudge)
	res, err = assert.NewRegistry().WithJudge(judge).Eval(ctx, "llm_judge", refundRun(), map[string]any{
		"template": tmpl, "response_format": "a sentence", "references": []any{"Refund of $42 issued.", "$42 refunded."},
		"verdict_schema": format, "passing_verdicts": []any{map[string]any{"quality_score": "excellent"}, map[string]any{"quality_score": "good"}},
		"verdict_rules": []any{"case_insensitive", "ignore_whitespace"},
	})
	require.NoError(t, err)
	testify.True(t, res.Passed, res.Summary)
	testify.Equal(t, `Task: I want a refund for order #W123
Format: a sentence
Accept any of: [Refund of $42 issued.] [$42 refunded.]
Candidate: Your refund of $42 is on its way.
Case sensitive: false; ignore whitespace: true; trim lines: false
Answer as: {"properties":{"quality_score":{"enum":["excellent","good","poor"],"type":"string"}},"required":["quality_score"],"type":"object"}`, got.Prompt)
	testify.Equal(t, []string{"Refund of $42 issued.", "$42 refunded."}, got.References)
	testify.Equal(t, "the judge prompt template", got.Criteria)

	_, err = assert.NewRegistry().WithJudge(judge).Eval(ctx, "llm_judge", refundRun(), map[string]any{"template": "{{.Candidate.Answer}}"})
	testify.ErrorContains(t, err, `param "template"`)
	err = assert.Validate("llm_judge", map[string]any{"template": "{{.Candidate"})
	var pe *assert.ParamError
	require.True(t, errors.As(err, &pe), "%v", err)
	testify.Equal(t, "template", pe.Param)
	err = assert.Validate("llm_judge", map[string]any{"criteria": "x", "reference": "a", "references": []any{"b"}})
	require.True(t, errors.As(err, &pe), "%v", err)
	testify.Equal(t, "references", pe.Param)
}

// A judge's tool calls are kept in its verdict and shown in the Result.
func TestMindTrialJudgeToolCallsShown(t *testing.T) {
	judge := fixed(evalkit.Verdict{Passed: ptrBool(true), Label: "pass", ToolCalls: []evalkit.JudgeToolCall{
		{Name: "run_python", Args: []byte(`{"code":"print(max([1,5,3]))"}`), Result: "5"},
		{Name: "lookup", Args: []byte(`{}`), Error: "timeout"},
	}})
	res, err := assert.JudgeCheck(judge, evalkit.ContentAnswer, "Finds the maximum").Check(context.Background(), refundRun())
	require.NoError(t, err)
	testify.Contains(t, res.Details, assert.Detail{Label: "judge tools", Text: `run_python({"code":"print(max([1,5,3]))"}) → "5"; lookup({}) → error: "timeout"`})
}
