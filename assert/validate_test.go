package assert_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	testify "github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
	"github.com/evalkit-go/evalkit/judgefake"
)

// minimalParams are valid parameters for every registered type name,
// aliases included: the walks below fail when a type is added without an
// entry, so every type is validated, described and typo-checked. Each
// family of checks keeps its own table beside its tests.
var minimalParams = mergeParams(coreParams, trajectoryParams, agentParams, metricParams)

// mergeParams joins tables of minimal params; a type in two tables is a
// mistake in the tables.
func mergeParams(tables ...map[string]map[string]any) map[string]map[string]any {
	out := map[string]map[string]any{}
	for _, table := range tables {
		for name, params := range table {
			if _, dup := out[name]; dup {
				panic("minimal params listed twice for " + name)
			}
			out[name] = params
		}
	}
	return out
}

// coreParams are minimal valid parameters of the text, JSON, tool and
// judged checks.
var coreParams = map[string]map[string]any{
	"contains":                 {"patterns": []any{"refund"}},
	"content_includes":         {"patterns": []any{"refund"}},
	"contains_any":             {"patterns": []any{"refund"}},
	"content_includes_any":     {"patterns": []any{"refund"}},
	"content_excludes":         {"patterns": []any{"password"}},
	"content_not_includes":     {"patterns": []any{"password"}},
	"banned_words":             {"patterns": []any{"password"}},
	"regex":                    {"pattern": `#W\d+`},
	"content_matches":          {"pattern": `#W\d+`},
	"min_length":               {"min": 1},
	"max_length":               {"max": 500},
	"length":                   {"max": 500},
	"equals":                   {"expected": "Paris"},
	"exact_match":              {"expected": "Paris"},
	"json_valid":               {"allow_wrapped": true},
	"valid_json":               {"allow_wrapped": true},
	"is_valid_json":            {"allow_wrapped": true},
	"json_schema":              {"schema": map[string]any{"type": "object"}},
	"json_path":                {"expression": "refund.amount", "expected": 42},
	"field_presence":           {"fields": []any{"id"}},
	"required_fields":          {"fields": []any{"id"}},
	"tools_called":             {"tool_names": []any{"search"}},
	"tool_called":              {"tool_names": []any{"search"}},
	"tools_called_session":     {"tool_names": []any{"search"}},
	"tools_not_called":         {"tool_names": []any{"delete_user"}},
	"tools_not_called_session": {"tool_names": []any{"delete_user"}},
	"tool_args":                {"tool_name": "search", "expected_args": map[string]any{"q": "refund"}},
	"tool_args_session":        {"tool_name": "search", "expected_args": map[string]any{"q": "refund"}},
	"tool_call_sequence":       {"sequence": []any{"search", "issue_refund"}},
	"tool_call_count":          {"tool": "search", "max": 3},
	"no_tool_errors":           {"error_pattern": "(?i)error"},
	"llm_judge":                {"criteria": "Confirms the refund"},
	"llm_judge_session":        {"criteria": "Confirms the refund"},
	"llm_judge_conversation":   {"criteria": "Confirms the refund"},
	"llm_judge_tool_calls":     {"criteria": "Looks the order up first"},
	"assertion":                {"eval_type": "llm_judge", "eval_params": map[string]any{"criteria": "Confirms the refund"}, "min_score": 0.8},
	"guardrail":                {"eval_type": "content_excludes", "eval_params": map[string]any{"patterns": []any{"password"}}},
	"consistent":               {"max_distance": 0.3},
}

func registeredNames(t *testing.T) []string {
	t.Helper()
	names := assert.NewRegistry().Names()
	require.ElementsMatch(t, names, slices.Collect(maps.Keys(minimalParams)), "minimalParams must list every registered type")
	return names
}

func with(params map[string]any, k string, v any) map[string]any {
	out := maps.Clone(params)
	out[k] = v
	return out
}

// misspell drops the middle byte of a parameter name: "patterns" reads
// "pattrns", "max" reads "mx".
func misspell(name string) string { return name[:len(name)/2] + name[len(name)/2+1:] }

// Every registered type validates its parameters without a judge or a
// transcript, and every kind of bad parameter is an error naming it.
func TestValidateEveryType(t *testing.T) {
	for _, name := range registeredNames(t) {
		params := minimalParams[name]
		t.Run(name, func(t *testing.T) {
			require.NoError(t, assert.Validate(name, params), "minimal params are valid")

			// A parameter no type has.
			assertParamErr(t, assert.Validate(name, with(params, "bogus_param", 1)), "bogus_param", "unknown parameter")

			for _, k := range slices.Sorted(maps.Keys(params)) {
				// A misspelt name is named, with the name it is near.
				typo := misspell(k)
				misspelt := maps.Clone(params)
				delete(misspelt, k)
				misspelt[typo] = params[k]
				assertParamErr(t, assert.Validate(name, misspelt), typo, fmt.Sprintf("did you mean %q?", k))

				// A value no parameter takes (a channel is not JSON).
				var pe *assert.ParamError
				err := assert.Validate(name, with(params, k, make(chan int)))
				require.True(t, errors.As(err, &pe), "%s: a channel: want a *ParamError, got %v", k, err)
				testify.Equal(t, k, pe.Param, "%s: a channel: %v", k, err)
			}
		})
	}
}

func assertParamErr(t *testing.T, err error, param, msg string) {
	t.Helper()
	var pe *assert.ParamError
	require.True(t, errors.As(err, &pe), "want a *ParamError on %q, got %v", param, err)
	testify.Equal(t, param, pe.Param, "error: %v", err)
	testify.Contains(t, pe.Msg, msg, "error: %v", err)
}

// Validate and Eval never disagree: the same parameters give the same error,
// before any transcript is read.
func TestValidateAgreesWithEval(t *testing.T) {
	tests := []struct {
		check  string
		params map[string]any
		want   string
	}{
		{"regex", map[string]any{"patern": `\d+`}, `regex: param "patern": unknown parameter: did you mean "pattern"?`},
		{"regex", map[string]any{"pattern": `(`}, "regex: param \"pattern\": invalid regular expression: error parsing regexp: missing closing ): `(`"},
		{"regex", map[string]any{"pattern": `x*`}, `regex: param "pattern": "x*" can match an empty string, so it matches any text: require at least one character`},
		{"contains", map[string]any{"patterns": []any{"refund", ""}}, `contains: param "patterns": item 1 is empty: an empty pattern matches any text`},
		{"contains", map[string]any{"patterns": []any{"x"}, "case_sensitive": "yes"}, `contains: param "case_sensitive": want true or false, got a string`},
		{"json_schema", map[string]any{"schema": map[string]any{"type": "strng"}}, ""},
		{"json_schema", map[string]any{"shema": map[string]any{"type": "object"}}, `json_schema: param "shema": unknown parameter: did you mean "schema"?`},
		{"json_path", map[string]any{"expression": "a[", "expected": 1}, ""},
		{"field_presence", map[string]any{"fields": []any{"a["}}, ""},
		{"no_tool_errors", map[string]any{"error_pattern": "("}, ""},
		{"max_length", map[string]any{"max": -1}, `max_length: param "max": want a whole number >= 0, got -1`},
		{"max_lenght", map[string]any{"max": 1}, `unknown check type "max_lenght" (did you mean "max_length"?)`},
		{"assertion", map[string]any{"eval_type": "contains", "eval_parms": map[string]any{"patterns": []any{"x"}}, "min_score": 0.5},
			`assertion: param "eval_parms": unknown parameter: did you mean "eval_params"? (known: eval_params, eval_type, max_score, min_score)`},
		{"assertion", map[string]any{"eval_type": "regex", "eval_params": map[string]any{"patern": "x"}, "min_score": 0.5},
			`assertion: eval_type "regex": regex: param "patern": unknown parameter: did you mean "pattern"?`},
		{"equals", map[string]any{"expected": "x", "trim": 1}, `equals: param "trim": want true or false, got a number`},
		{"tool_call_count", map[string]any{"tool": "search"}, `tool_call_count: param "min": give min, max or both: without a bound the check passes whatever was called`},
	}
	tr := textChat("whatever")
	for _, tt := range tests {
		t.Run(tt.check, func(t *testing.T) {
			verr := assert.Validate(tt.check, tt.params)
			require.Error(t, verr)
			_, eerr := assert.Eval(context.Background(), tt.check, tr, tt.params)
			require.Error(t, eerr)
			testify.Equal(t, verr.Error(), eerr.Error())
			if tt.want != "" {
				testify.Equal(t, tt.want, verr.Error())
			}
			if errors.Is(verr, assert.ErrUnknownCheck) {
				return
			}
			var pe *assert.ParamError
			testify.True(t, errors.As(verr, &pe), "want a *ParamError, got %v", verr)
		})
	}
}

// Validate checks a judged type's parameters with no judge wired; Build
// and Eval still need one.
func TestValidateJudgedWithoutJudge(t *testing.T) {
	params := map[string]any{"criteria": "Confirms the refund", "passing_labels": []any{"yes"}, "offered_labels": []any{"yes", "no"}}
	require.NoError(t, assert.Validate("llm_judge", params))
	_, err := assert.NewRegistry().Build("llm_judge", params)
	testify.ErrorIs(t, err, assert.ErrNoJudge)

	err = assert.Validate("llm_judge", with(params, "passing_label", []any{"yes"}))
	assertParamErr(t, err, "passing_label", `did you mean "passing_labels"?`)
	err = assert.Validate("llm_judge", map[string]any{"criteria": "x", "min_score": 0.8})
	assertParamErr(t, err, "min_score", "wrap it in type: assertion")
}

// Every built-in check says its criteria in one line.
func TestDescribeEveryType(t *testing.T) {
	reg := assert.NewRegistry().WithJudge(evalkit.JudgeFunc(func(context.Context, evalkit.JudgeRequest) (evalkit.Verdict, error) {
		return evalkit.Verdict{}, errors.New("not asked")
	})).WithTools(assert.ToolExecutorFunc(func(context.Context, string, json.RawMessage) (evalkit.ToolResult, error) {
		return evalkit.ToolResult{}, errors.New("not run")
	})).WithEmbedder(judgefake.BagOfWords(64)).WithClassifier(evalkit.ClassifierFunc(func(context.Context, evalkit.ClassifyRequest) (evalkit.Classification, error) {
		return evalkit.Classification{}, errors.New("not asked")
	}))
	for _, name := range registeredNames(t) {
		c, err := reg.Build(name, minimalParams[name])
		require.NoError(t, err, name)
		_, ok := c.(assert.Describer)
		require.True(t, ok, "%s: %T has no Describe method", name, c)
		d := assert.Describe(c)
		testify.NotEmpty(t, d, name)
		testify.NotContains(t, d, "\n", name)
		testify.False(t, strings.HasPrefix(d, "assert."), "%s: %q", name, d)
	}
}

func TestDescribe(t *testing.T) {
	two, three := 2, 3
	half := 0.5
	tests := []struct {
		check assert.Check
		want  string
	}{
		{assert.Contains{Patterns: []string{"refund", "#W123"}}, `the last assistant message contains "refund" and "#W123" (ignoring case)`},
		{assert.Contains{Patterns: []string{"a"}, CaseSensitive: true, Scope: assert.Session}, `the assistant messages together contain "a" (case-sensitive)`},
		{assert.ContainsAny{Patterns: []string{"a", "b", "c"}}, `some assistant message contains "a", "b" or "c" (ignoring case)`},
		{assert.ContentExcludes{Patterns: []string{"password"}, MatchWords: true}, `no assistant message contains "password" (ignoring case, whole words)`},
		{assert.ContentExcludes{Patterns: []string{"x"}, Scope: assert.Turn}, `the last assistant message does not contain "x" (ignoring case)`},
		{assert.Regex{Pattern: `#W\d+`}, `the last assistant message matches the regular expression "#W\\d+"`},
		{assert.Regex{Pattern: `\d{16}`, NoMatch: true, Scope: assert.Session}, `no assistant message matches the regular expression "\\d{16}"`},
		{assert.MinLength{Min: 1}, `the last assistant message has at least 1 character`},
		{assert.MaxLength{Max: 500, Scope: assert.Session}, `every assistant message with text has at most 500 characters`},
		{assert.Equals{Expected: "Paris", Rules: assert.Rules{CaseInsensitive: true, Trim: true}}, `the last assistant message equals "Paris" (ignoring case, trimmed)`},
		{assert.Equals{Expected: assert.AnyOf{"shipped", "sent"}, Expression: "order.status"}, `order.status in the JSON of the last assistant message equals one of "shipped", "sent"`},
		{assert.Equals{Expected: 7}, `the JSON of the last assistant message equals 7`},
		{assert.JSONValid{AllowWrapped: true}, `the last assistant message is valid JSON (in a code fence too)`},
		{assert.JSONSchema{Schema: `{"type":"object"}`}, `the JSON of the last assistant message matches the schema {"type":"object"}`},
		{assert.JSONPath{Expression: "items", MinResults: &two}, `items in the JSON of the last assistant message has >= 2 items`},
		{assert.JSONPath{Expression: "refund.amount"}, `refund.amount in the JSON of the last assistant message selects something (not null)`},
		{assert.FieldPresence{Fields: []string{"id", "email"}}, `the JSON of the last assistant message has the fields "id", "email"`},
		{assert.ToolsCalled{Tools: []string{"get_order", "issue_refund"}}, `"get_order" and "issue_refund" were each called at least once`},
		{assert.ToolsCalled{Tools: []string{"search"}, MinCalls: &two, MaxCalls: &three, Scope: assert.Turn}, `"search" was called 2 to 3 times in the last turn`},
		{assert.ToolsNotCalled{Tools: []string{"delete_user"}}, `none of "delete_user" was called`},
		{assert.ToolCallCount{Tool: "search", Max: &three}, `"search" was called at most 3 times`},
		{assert.ToolCallCount{Min: &two, Max: &two}, `tools were called exactly 2 times`},
		{assert.NoToolErrors{}, `no tool call got an error result`},
		{assert.ToolArgs{Tool: "issue_refund", Args: map[string]any{"order_id": "#W123"}}, `"issue_refund" was called with arguments including {"order_id":"#W123"}`},
		{assert.ToolCallSequence{Sequence: []string{"get_order", "issue_refund"}}, `the tools were called in the order "get_order" → "issue_refund" (other calls between allowed)`},
		{assert.LLMJudge{Criteria: "Confirms the refund"}, `a judge finds that the last assistant message meets "Confirms the refund"`},
		{assert.LLMJudgeToolCalls{Criteria: "Looks the order up", Tools: []string{"get_order"}}, `a judge finds that the calls to "get_order" meet "Looks the order up"`},
		{assert.Assertion{Eval: assert.LLMJudge{Criteria: "Polite"}, MinScore: &half}, `a judge finds that the last assistant message meets "Polite", with a score >= 0.50`},
		{assert.CheckFunc(nil), `assert.CheckFunc`},
	}
	for _, tt := range tests {
		testify.Equal(t, tt.want, assert.Describe(tt.check))
	}
}
