package assert_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	testify "github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
)

// ruleNames are the rules' registry parameters, in the bit order of
// rulesOf.
var ruleParamNames = []string{"case_sensitive", "trim", "collapse_whitespace", "trim_lines", "ignore_zero_width"}

// rulesOf turns the bits of mask into Rules and into the equals check's
// parameters: every combination of the five rules is a mask in [0, 32).
func rulesOf(mask int) (assert.Rules, map[string]any) {
	r := assert.Rules{
		CaseInsensitive:    mask&1 != 0,
		Trim:               mask&2 != 0,
		CollapseWhitespace: mask&4 != 0,
		TrimLines:          mask&8 != 0,
		IgnoreZeroWidth:    mask&16 != 0,
	}
	params := map[string]any{}
	if r.CaseInsensitive {
		params["case_sensitive"] = false
	}
	for i, name := range ruleParamNames[1:] {
		if mask&(2<<i) != 0 {
			params[name] = true
		}
	}
	return r, params
}

func ruleLabel(mask int) string {
	var on []string
	for i, name := range ruleParamNames {
		if mask&(1<<i) != 0 {
			if name == "case_sensitive" {
				name = "case_insensitive"
			}
			on = append(on, name)
		}
	}
	if len(on) == 0 {
		return "exact"
	}
	return strings.Join(on, "+")
}

// Every rule and every combination of them, on text and on JSON: each case
// says which combinations must make want and got equal, and the check built
// in Go and the one built from parameters must agree with it.
func TestEqualsRuleCombinations(t *testing.T) {
	tests := []struct {
		name      string
		want, got any // a string compares with the text; other values with the JSON
		output    string
		equal     func(r assert.Rules) bool
	}{
		{"case", "Paris", nil, "PARIS", func(r assert.Rules) bool { return r.CaseInsensitive }},
		{"zero width", "Paris", nil, "Pa\u200bris", func(r assert.Rules) bool { return r.IgnoreZeroWidth }},
		{"outer white space", "Paris", nil, " Paris\n", func(r assert.Rules) bool { return r.Trim }},
		{"runs of white space", "a b", nil, "a   b", func(r assert.Rules) bool { return r.CollapseWhitespace }},
		{"line edges", "a\nb", nil, "a  \n  b", func(r assert.Rules) bool { return r.TrimLines || r.CollapseWhitespace }},
		{"blank lines kept by trim_lines", "a\n\nb", nil, " a\n\n b ", func(r assert.Rules) bool {
			return r.TrimLines || (r.CollapseWhitespace && r.Trim)
		}},
		{"all at once", "Hello, world\nbye", nil, "\u200b HELLO,   world  \n  Bye \n", func(r assert.Rules) bool {
			return r.IgnoreZeroWidth && r.CaseInsensitive && r.CollapseWhitespace && r.Trim
		}},
		{"CRLF reads as LF on both sides", "a\r\nb", nil, "a\nb", func(assert.Rules) bool { return true }},
		{"identical", "x", nil, "x", func(assert.Rules) bool { return true }},
		{"different", "Paris", nil, "Lyon", func(assert.Rules) bool { return false }},
		{"object: strings at every depth", map[string]any{"city": "Paris", "tags": []any{"a b"}, "n": 7},
			nil, `{"city": " PARIS ", "tags": ["a   b"], "n": 7.0}`, func(r assert.Rules) bool {
				return r.CaseInsensitive && (r.Trim || r.TrimLines) && r.CollapseWhitespace
			}},
		{"array", []any{"YES", " no"}, nil, `["yes", "no"]`, func(r assert.Rules) bool {
			return r.CaseInsensitive && (r.Trim || r.TrimLines)
		}},
		{"nested arrays in objects", map[string]any{"a": []any{map[string]any{"b": "x\u200b"}}}, nil, `{"a": [{"b": "X"}]}`,
			func(r assert.Rules) bool { return r.CaseInsensitive && r.IgnoreZeroWidth }},
		{"object keys are never canonicalized", map[string]any{"City": "Paris"}, nil, `{"city": "Paris"}`,
			func(assert.Rules) bool { return false }},
		{"numbers by value", map[string]any{"n": 7, "m": json.Number("7e0")}, nil, `{"n": 7e0, "m": 7.00}`,
			func(assert.Rules) bool { return true }},
		{"a string is not a number", map[string]any{"n": 7}, nil, `{"n": "7"}`, func(assert.Rules) bool { return false }},
	}
	ctx := context.Background()
	for _, tt := range tests {
		tr := textChat(tt.output)
		for mask := range 32 {
			rules, params := rulesOf(mask)
			t.Run(tt.name+"/"+ruleLabel(mask), func(t *testing.T) {
				want := PASS
				if !tt.equal(rules) {
					want = FAIL
				}
				res, err := assert.Equals{Expected: tt.want, Rules: rules}.Check(ctx, tr)
				require.Equal(t, want, outcomeOf(res, err), "Go: %+v %v", res, err)
				params["expected"] = tt.want
				res, err = assert.Eval(ctx, "equals", tr, params)
				require.Equal(t, want, outcomeOf(res, err), "registry: %+v %v", res, err)
			})
		}
	}
}

// C08: value matching trips on incidental white space unless the rules say
// otherwise, and the rules never make an unknown verdict match.
func TestEqualsC08(t *testing.T) {
	runCases(t, []evalCase{
		{name: "a: trim removes the trailing newline", tr: textChat("¡Déjame en paz!\n"), check: "equals",
			params: map[string]any{"expected": "¡Déjame en paz!", "trim": true}, want: PASS},
		{name: "b: trim applies to the expected value too", tr: textChat("Paris"), check: "equals",
			params: map[string]any{"expected": " Paris", "trim": true}, want: PASS},
		{name: "c: case and runs of white space", tr: textChat("hello,   WORLD"), check: "exact_match",
			params: map[string]any{"expected": "Hello, world", "case_sensitive": false, "collapse_whitespace": true}, want: PASS},
		{name: "d: no rules, exact", tr: textChat("hello\n\n\n"), check: "equals",
			params: map[string]any{"expected": "hello"}, want: FAIL, summary: `got "hello\n\n\n", want "hello"`},
		{name: "e: a padded verdict", tr: textChat(`{"verdict": "PASS\n"}`), check: "equals",
			params: map[string]any{"expression": "verdict", "any_of": []any{"pass"}, "case_sensitive": false, "trim": true}, want: PASS},
		{name: "f: an unknown verdict", tr: textChat(`{"verdict": "maybe"}`), check: "equals",
			params: map[string]any{"expression": "verdict", "any_of": []any{"pass"}, "case_sensitive": false, "trim": true},
			want:   FAIL, summary: `got "maybe", want "pass"`},
	})
}

func TestEquals(t *testing.T) {
	order := textChat("```json\n{\"order\": {\"status\": \"Shipped \", \"items\": 2}}\n```")
	runCases(t, []evalCase{
		// Text.
		{name: "text", tr: textChat("Paris"), check: "equals", params: map[string]any{"expected": "Paris"}, want: PASS,
			summary: `got "Paris"`, score: ptr(1)},
		{name: "text is not JSON", tr: textChat(`"Paris"`), check: "equals", params: map[string]any{"expected": "Paris"}, want: FAIL},
		{name: "the number as text", tr: textChat("7.0"), check: "equals", params: map[string]any{"expected": "7"}, want: FAIL},
		{name: "empty expected matches only empty text", tr: textChat(""), check: "equals", params: map[string]any{"expected": ""}, want: PASS},
		{name: "any_of", tr: textChat("Yeah"), check: "equals",
			params: map[string]any{"any_of": []any{"yes", "yeah", "y"}, "case_sensitive": false}, want: PASS},
		{name: "any_of fails with the set", tr: textChat("nope"), check: "equals",
			params: map[string]any{"any_of": []string{"yes", "y"}}, want: FAIL, summary: `got "nope", want one of "yes", "y"`},
		{name: "invisible characters get a note", tr: textChat("Paris\u200b"), check: "equals", params: map[string]any{"expected": "Paris"},
			want: FAIL, summary: `got "Paris\u200b", want "Paris"`,
			hasDetails: []assert.Detail{{Label: "note", Text: "the output holds invisible characters (U+200B): set ignore_zero_width (IgnoreZeroWidth) to read past them"}}},
		{name: "a message with only tool calls", tr: &evalkit.Transcript{Messages: []evalkit.Message{
			{Role: evalkit.RoleUser, Content: "hi"},
			{Role: evalkit.RoleAssistant, ToolCalls: []evalkit.ToolCall{{ID: "1", Name: "search"}}},
		}}, check: "equals", params: map[string]any{"expected": "done"}, want: FAIL,
			hasDetails: []assert.Detail{{Label: "note", Text: "messages[1] has no text; it called search"}}},

		// JSON.
		{name: "JSON number by value", tr: textChat("7e0"), check: "equals", params: map[string]any{"expected": 7}, want: PASS},
		{name: "JSON number, text not JSON", tr: textChat("seven"), check: "equals", params: map[string]any{"expected": 7}, want: FAIL},
		{name: "expression in a fence", tr: order, check: "equals",
			params: map[string]any{"expression": "order.status", "expected": "shipped", "case_sensitive": false, "trim": true, "allow_wrapped": true}, want: PASS},
		{name: "$. prefix", tr: order, check: "equals",
			params: map[string]any{"expression": "$.order.items", "expected": 2.0, "allow_wrapped": true}, want: PASS},
		{name: "a fence needs allow_wrapped", tr: order, check: "equals",
			params: map[string]any{"expression": "order.items", "expected": 2}, want: FAIL},
		{name: "expected null", tr: textChat(`{"a": null}`), check: "equals", params: map[string]any{"expression": "a", "expected": nil}, want: PASS},
		{name: "a missing key reads as null, as in JMESPath", tr: textChat(`{}`), check: "equals",
			params: map[string]any{"expression": "a", "expected": nil}, want: PASS},
		{name: "object diff", tr: textChat(`{"amount": 41.5, "currency": "EUR"}`), check: "equals",
			params: map[string]any{"expected": map[string]any{"amount": 42, "currency": "eur"}, "case_sensitive": false},
			want:   FAIL, summary: `got {"amount":41.5,"currency":"EUR"}, want {"amount":42,"currency":"eur"}`, diff: "float64(42)"},
		{name: "any_of objects", tr: textChat(`{"ok": true}`), check: "equals",
			params: map[string]any{"any_of": []any{map[string]any{"ok": false}, map[string]any{"ok": true}}}, want: PASS},
		{name: "the expression fails on this output", tr: textChat(`{"a": "x"}`), check: "equals",
			params: map[string]any{"expression": "length(a) > `0` && abs(a)", "expected": 1}, want: FAIL},

		// Session.
		{name: "session: every message with text", tr: textChat("OK", "ok "), check: "equals",
			params: map[string]any{"expected": "ok", "case_sensitive": false, "trim": true, "scope": "session"}, want: PASS,
			summary: "all 2 assistant messages equal the expected value"},
		{name: "session: one differs", tr: textChat("ok", "no"), check: "equals",
			params: map[string]any{"expected": "ok", "scope": "session"}, want: FAIL, score: ptr(0.5),
			summary: "1 of 2 assistant messages fail", hasDetails: []assert.Detail{{Label: "messages[2]", Text: `got "no", want "ok"`}}},

		// Errors.
		{name: "no expected", tr: textChat("x"), check: "equals", params: map[string]any{"trim": true}, want: ERROR, param: "expected",
			summary: `equals: param "expected": required: want the expected value (or any_of, a list of expected values)`},
		{name: "misspelt expected", tr: textChat("x"), check: "equals", params: map[string]any{"expectd": "x"}, want: ERROR, param: "expectd",
			summary: `equals: param "expectd": unknown parameter: did you mean "expected"?`},
		{name: "both", tr: textChat("x"), check: "equals", params: map[string]any{"expected": "x", "any_of": []any{"x"}}, want: ERROR, param: "any_of"},
		{name: "any_of not a list", tr: textChat("x"), check: "equals", params: map[string]any{"any_of": "x"}, want: ERROR, param: "any_of"},
		{name: "any_of empty", tr: textChat("x"), check: "equals", params: map[string]any{"any_of": []any{}}, want: ERROR, param: "any_of",
			summary: `equals: param "any_of": empty list: give at least one expected value`},
		{name: "any_of mixes text and JSON", tr: textChat("x"), check: "equals", params: map[string]any{"any_of": []any{"7", 7}}, want: ERROR, param: "any_of"},
		{name: "allow_wrapped on text", tr: textChat("x"), check: "equals", params: map[string]any{"expected": "x", "allow_wrapped": true}, want: ERROR, param: "allow_wrapped"},
		{name: "bad expression", tr: textChat("{}"), check: "equals", params: map[string]any{"expression": "a[", "expected": 1}, want: ERROR, param: "expression"},
		{name: "empty expression", tr: textChat("{}"), check: "equals", params: map[string]any{"expression": "", "expected": 1}, want: ERROR, param: "expression"},
		{name: "rule not a boolean", tr: textChat("x"), check: "equals", params: map[string]any{"expected": "x", "trim": "yes"}, want: ERROR, param: "trim"},
		{name: "unsafe number", tr: textChat("9007199254740993"), check: "equals", params: map[string]any{"expected": json.Number("9007199254740993")}, want: ERROR, param: "expected"},
		{name: "no assistant message", tr: &evalkit.Transcript{Messages: []evalkit.Message{{Role: evalkit.RoleUser, Content: "hi"}}},
			check: "equals", params: map[string]any{"expected": "x"}, want: ERROR},
	})
}

// The diff is of the canonical forms, against the nearest expected value.
func TestEqualsDiff(t *testing.T) {
	ctx := context.Background()
	res, err := assert.Equals{Expected: assert.AnyOf{"the refund is issued", "Your refund was issued today"}, Rules: assert.Rules{CaseInsensitive: true, Trim: true}}.
		Check(ctx, textChat("  YOUR REFUND WAS ISSUED YESTERDAY\n"))
	require.NoError(t, err)
	testify.False(t, res.Passed)
	testify.Equal(t, `got "  YOUR REFUND WAS ISSUED YESTERDAY\n", want one of "the refund is issued", "Your refund was issued today"`, res.Summary)
	testify.Equal(t, "string(\n- \"your refund was issued today\",\n+ \"your refund was issued yesterday\",\n)", normalizeDiff(res.DiffText()))

	_, err = assert.Equals{}.Check(ctx, textChat("x"))
	testify.EqualError(t, err, `equals: param "expected": required: want the expected value (nil means not set; set ExpectNull to expect null)`)
	_, err = assert.Equals{Expected: "x", ExpectNull: true}.Check(ctx, textChat("x"))
	testify.Error(t, err)
	_, err = assert.Equals{Expected: make(chan int)}.Check(ctx, textChat("x"))
	testify.ErrorContains(t, err, `equals: param "expected": not a JSON value`)
	_, err = assert.Equals{Expected: assert.AnyOf{1, make(chan int)}}.Check(ctx, textChat("1"))
	testify.ErrorContains(t, err, `equals: param "any_of": item 1: not a JSON value`)
}

// normalizeDiff drops go-cmp's deliberately unstable spacing.
func normalizeDiff(d string) string {
	d = strings.ReplaceAll(d, "\u00a0", " ")
	var lines []string
	for _, l := range strings.Split(strings.TrimRight(d, "\n"), "\n") {
		lines = append(lines, strings.Join(strings.Fields(l), " "))
	}
	return strings.Join(lines, "\n")
}

func TestEqualsCheckOptions(t *testing.T) {
	c := assert.EqualsCheck("shipped", assert.At("order.status"), assert.CaseInsensitive(), assert.Trim(),
		assert.CollapseWhitespace(), assert.TrimLines(), assert.IgnoreZeroWidth())
	testify.Equal(t, assert.Equals{Expected: "shipped", Expression: "order.status",
		Rules: assert.Rules{CaseInsensitive: true, Trim: true, CollapseWhitespace: true, TrimLines: true, IgnoreZeroWidth: true}}, c)
	testify.Equal(t, `At("order.status")`, assert.At("order.status").String())
	testify.Equal(t, assert.Equals{ExpectNull: true}, assert.EqualsCheck(nil))
	res, err := c.Check(context.Background(), textChat(`{"order": {"status": " SHIPPED\u200b"}}`))
	require.NoError(t, err)
	testify.True(t, res.Passed, res.Summary)
}

func ExampleEquals() {
	tr := &evalkit.Transcript{Messages: []evalkit.Message{
		{Role: evalkit.RoleUser, Content: "What is the capital of France?"},
		{Role: evalkit.RoleAssistant, Content: " paris\n"},
	}}
	exact := assert.Equals{Expected: "Paris"}
	lenient := assert.Equals{Expected: "Paris", Rules: assert.Rules{CaseInsensitive: true, Trim: true}}
	for _, c := range []assert.Equals{exact, lenient} {
		res, err := c.Check(context.Background(), tr)
		fmt.Println(res.Passed, res.Summary, err)
	}
	// Output:
	// false got " paris\n", want "Paris" <nil>
	// true got " paris\n" <nil>
}

// Huge outputs (C24): the summary shows where the texts differ and the
// diff stays bounded.
func TestEqualsHugeOutput(t *testing.T) {
	want := "Total due: 42.00 EUR. " + strings.Repeat("A", 20_000_000)
	got := want[:len(want)-1] + "B"
	res, err := assert.Equals{Expected: want}.Check(context.Background(), textChat(got))
	require.NoError(t, err)
	testify.False(t, res.Passed)
	testify.Less(t, len(res.Summary), 1000)
	testify.Contains(t, res.Summary, `AAAB"`)
	testify.Less(t, len(res.DiffText()), 5000)
}

// The contains family and its aliases take case_sensitive, default false
// (as PromptKit's).
func TestContainsFamilyCaseSensitive(t *testing.T) {
	tr := textChat("Your Refund was issued.")
	for name, present := range map[string]bool{
		"contains": true, "content_includes": true, "contains_any": true, "content_includes_any": true,
		"content_excludes": false, "content_not_includes": false, "banned_words": false,
	} {
		for _, sensitive := range []bool{false, true} {
			found := !sensitive // "refund" is in the text ignoring case only
			want := PASS
			if found != present {
				want = FAIL
			}
			params := map[string]any{"patterns": []any{"refund"}}
			if sensitive {
				params["case_sensitive"] = true
			}
			res, err := assert.Eval(context.Background(), name, tr, params)
			testify.Equal(t, want, outcomeOf(res, err), "%s case_sensitive=%v: %+v %v", name, sensitive, res, err)
		}
	}
}
