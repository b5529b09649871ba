package assert_test

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"

	testify "github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
)

// textChat is a transcript whose assistant said each of texts in turn.
func textChat(texts ...string) *evalkit.Transcript {
	tr := &evalkit.Transcript{Messages: []evalkit.Message{{Role: evalkit.RoleUser, Content: "Hello"}}}
	for _, s := range texts {
		tr.Messages = append(tr.Messages, evalkit.Message{Role: evalkit.RoleAssistant, Content: s})
	}
	return tr
}

func TestContains(t *testing.T) {
	runCases(t, []evalCase{
		{name: "all found, any case", tr: textChat("Your REFUND of $42 is on its way."), check: "contains",
			params: map[string]any{"patterns": []any{"refund", "$42"}}, want: PASS, summary: "found all 2 patterns", score: ptr(1)},
		{name: "one missing", tr: textChat("Your refund is on its way."), check: "contains",
			params: map[string]any{"patterns": []any{"refund", "$42"}}, want: FAIL, summary: `missing "$42"`, score: ptr(0.5)},
		{name: "full Unicode case folding", tr: textChat("Die STRASSE ist gesperrt."), check: "content_includes",
			params: map[string]any{"patterns": []string{"Straße"}}, want: PASS},
		{name: "case_sensitive", tr: textChat("Refund issued"), check: "contains",
			params: map[string]any{"patterns": []any{"refund"}, "case_sensitive": true}, want: FAIL},
		{name: "reads the last assistant message by default", tr: textChat("refund", "done"), check: "contains",
			params: map[string]any{"patterns": []any{"refund"}}, want: FAIL},
		{name: "session scope reads every message", tr: textChat("refund", "done"), check: "contains",
			params: map[string]any{"patterns": []any{"refund", "done"}, "scope": "session"}, want: PASS},
		{name: "composed and decomposed forms match, case-sensitive", tr: textChat("un cafe\u0301"), check: "contains",
			params: map[string]any{"patterns": []any{"café"}, "case_sensitive": true}, want: PASS},
		{name: "CRLF reads as LF", tr: textChat("line one\r\nline two"), check: "contains",
			params: map[string]any{"patterns": []any{"one\nline"}}, want: PASS},
		// C24 c: empty text genuinely lacks the term.
		{name: "C24c empty output fails", tr: textChat(""), check: "contains",
			params: map[string]any{"patterns": []any{"refund"}}, want: FAIL},
		{name: "empty pattern is an error", tr: textChat("x"), check: "contains",
			params: map[string]any{"patterns": []any{"refund", ""}}, want: ERROR,
			summary: `contains: param "patterns": item 1 is empty: an empty pattern matches any text`},
		{name: "missing patterns", tr: textChat("x"), check: "contains", params: map[string]any{}, want: ERROR,
			summary: `contains: param "patterns": required: want a list of strings`},
		{name: "wrong type", tr: textChat("x"), check: "contains", params: map[string]any{"patterns": 3}, want: ERROR,
			summary: `contains: param "patterns": want a list of strings, got a number`},
		{name: "misspelt parameter", tr: textChat("x"), check: "contains", params: map[string]any{"patterns": []any{"x"}, "case_sensitiv": true}, want: ERROR,
			summary: `contains: param "case_sensitiv": unknown parameter: did you mean "case_sensitive"? (known: case_sensitive, patterns, scope)`},
		{name: "bad scope", tr: textChat("x"), check: "contains", params: map[string]any{"patterns": []any{"x"}, "scope": "all"}, want: ERROR,
			summary: `contains: param "scope": want "turn" or "session", got "all"`},
	})
}

// C24: degenerate inputs never pass vacuously.
func TestDegenerateInputs(t *testing.T) {
	runCases(t, []evalCase{
		{name: "a: empty needle among others", tr: textChat("We cannot help with that."), check: "contains_any",
			params: map[string]any{"patterns": []any{"refund", ""}}, want: ERROR},
		{name: "b: no needles", tr: textChat("We cannot help with that."), check: "contains_any",
			params: map[string]any{"patterns": []any{}}, want: ERROR,
			summary: `contains_any: param "patterns": empty list: give at least one pattern`},
		{name: "c: empty output excludes", tr: textChat(""), check: "content_excludes",
			params: map[string]any{"patterns": []any{"refund"}}, want: PASS},
		{name: "c: empty output is too short", tr: textChat(""), check: "min_length",
			params: map[string]any{"min": 1}, want: FAIL, summary: "0 characters, want >= 1"},
		{name: "d: no assistant output is an error", tr: &evalkit.Transcript{Messages: []evalkit.Message{{Role: evalkit.RoleUser, Content: "refund?"}}},
			check: "content_excludes", params: map[string]any{"patterns": []any{"refund"}}, want: ERROR,
			summary: "content_excludes: no assistant output: the transcript has 1 message and none is from the assistant"},
		{name: "d: nil transcript", tr: nil, check: "contains", params: map[string]any{"patterns": []any{"x"}}, want: ERROR},
	})
}

func TestHugeOutput(t *testing.T) {
	// C24 e: a 20 MB payload neither crashes nor floods the failure message.
	text := "Total due: 42.00 EUR. data:image/png;base64," + strings.Repeat("A", 20_000_000)
	tr := textChat(text)
	ctx := context.Background()

	res, err := assert.Contains{Patterns: []string{"42.00 EUR"}}.Check(ctx, tr)
	require.NoError(t, err)
	testify.True(t, res.Passed)

	res, err = assert.Contains{Patterns: []string{"refund"}}.Check(ctx, tr)
	require.NoError(t, err)
	testify.False(t, res.Passed)
	for _, d := range res.Details {
		testify.Less(t, len(d.Text), 4096, "detail %q is bounded", d.Label)
		testify.Contains(t, d.Text, "more bytes]", "truncation is marked")
	}

	res, err = assert.Regex{Pattern: `Total due: \d+\.\d{2}`}.Check(ctx, tr)
	require.NoError(t, err)
	testify.True(t, res.Passed)
}

func TestContainsAny(t *testing.T) {
	runCases(t, []evalCase{
		{name: "any message, any pattern", tr: textChat("Let me check.", "Refund issued."), check: "contains_any",
			params: map[string]any{"patterns": []any{"credit", "refund"}}, want: PASS, summary: `found "refund" in messages[2]`},
		{name: "none", tr: textChat("Let me check."), check: "content_includes_any",
			params: map[string]any{"patterns": []any{"credit", "refund"}}, want: FAIL, summary: `none of "credit", "refund" found`},
		{name: "turn scope ignores earlier messages", tr: textChat("refund", "bye"), check: "contains_any",
			params: map[string]any{"patterns": []any{"refund"}, "scope": "turn"}, want: FAIL},
	})
}

func TestContentExcludes(t *testing.T) {
	runCases(t, []evalCase{
		{name: "clean", tr: textChat("Hello", "Goodbye"), check: "content_excludes",
			params: map[string]any{"patterns": []any{"password"}}, want: PASS},
		{name: "scans every assistant message", tr: textChat("Your PASSWORD is hunter2", "Goodbye"), check: "banned_words",
			params: map[string]any{"patterns": []any{"password"}}, want: FAIL, summary: "found excluded content"},
		{name: "user messages are not scanned", tr: &evalkit.Transcript{Messages: []evalkit.Message{
			{Role: evalkit.RoleUser, Content: "my password is x"}, {Role: evalkit.RoleAssistant, Content: "ok"}}},
			check: "content_excludes", params: map[string]any{"patterns": []any{"password"}}, want: PASS},
		{name: "substring by default", tr: textChat("I can assist."), check: "content_excludes",
			params: map[string]any{"patterns": []any{"ass"}}, want: FAIL},
		{name: "word boundary", tr: textChat("I can assist."), check: "content_excludes",
			params: map[string]any{"patterns": []any{"ass"}, "match_mode": "word_boundary"}, want: PASS},
		{name: "word boundary still catches the word", tr: textChat("What an Ass."), check: "content_excludes",
			params: map[string]any{"patterns": []any{"ass"}, "match_mode": "word_boundary"}, want: FAIL},
		{name: "word boundary in any script", tr: textChat("ты дурак"), check: "content_excludes",
			params: map[string]any{"patterns": []any{"дурак"}, "match_mode": "word_boundary"}, want: FAIL},
		{name: "word boundary: accents are letters", tr: textChat("Un café, s'il vous plaît"), check: "content_excludes",
			params: map[string]any{"patterns": []any{"café"}, "match_mode": "word_boundary"}, want: FAIL},
		{name: "word boundary: accented word is not part of a longer one", tr: textChat("cafés"), check: "content_excludes",
			params: map[string]any{"patterns": []any{"café"}, "match_mode": "word_boundary"}, want: PASS},
		{name: "word boundary: symbols at the edge", tr: textChat("Your order #W123."), check: "content_excludes",
			params: map[string]any{"patterns": []any{"#W123", "c++"}, "match_mode": "word_boundary"}, want: FAIL},
		{name: "word boundary: scripts without spaces match anywhere", tr: textChat("他说死"), check: "content_excludes",
			params: map[string]any{"patterns": []any{"死"}, "match_mode": "word_boundary"}, want: FAIL},
		{name: "zero-width space does not hide a word", tr: textChat("your pass\u200bword is x"), check: "content_excludes",
			params: map[string]any{"patterns": []any{"password"}}, want: FAIL},
		{name: "soft hyphen does not hide a word, case-sensitive", tr: textChat("your pass\u00adword is x"), check: "content_excludes",
			params: map[string]any{"patterns": []any{"password"}, "case_sensitive": true}, want: FAIL},
		{name: "bad match mode", tr: textChat("x"), check: "content_excludes",
			params: map[string]any{"patterns": []any{"ass"}, "match_mode": "fuzzy"}, want: ERROR},
	})

	res, err := assert.ContentExcludes{Patterns: []string{"password"}}.Check(context.Background(), textChat("fine", "the Password is hunter2"))
	require.NoError(t, err)
	testify.Equal(t, []assert.Detail{{Label: "found", Text: `"password" in messages[2]: "the Password is hunter2"`}}, res.Details)
}

// A pattern made only of invisible format characters is empty once the
// search removes them, as it removes them from the text: it would match any
// output, even an empty one, so it is an error naming the pattern.
func TestInvisibleNeedles(t *testing.T) {
	invisible := map[string]string{
		"zero width space": "\u200b", "soft hyphen": "\u00ad", "BOM": "\ufeff", "word joiner": "\u2060",
		"Mongolian vowel separator": "\u180e", "Arabic letter mark": "\u061c", "language tag": "\U000e0001",
		"several": "\u200b\u200c\u200d",
	}
	for name, needle := range invisible {
		for _, check := range []string{"contains", "contains_any", "content_excludes"} {
			runCases(t, []evalCase{
				{name: check + ": " + name, tr: textChat("anything"), check: check, params: map[string]any{"patterns": []any{"refund", needle}},
					want: ERROR, param: "patterns"},
				{name: check + ": " + name + ", empty output", tr: textChat(""), check: check, params: map[string]any{"patterns": []any{needle}},
					want: ERROR, param: "patterns"},
			})
		}
		_, err := assert.ContentExcludes{Patterns: []string{needle}}.NewStream()
		var pe *assert.ParamError
		require.True(t, errors.As(err, &pe), "%s: %v", name, err)
	}
	_, err := assert.Contains{Patterns: []string{"a", "\u200b"}}.Check(context.Background(), textChat("a"))
	testify.EqualError(t, err, `contains: param "patterns": item 1, "\u200b", is only invisible characters (U+200B): the search ignores them, so it would be empty and match any text`)
	// Characters that are not format characters stay searchable.
	runCases(t, []evalCase{
		{name: "a combining mark alone", tr: textChat("anything"), check: "contains", params: map[string]any{"patterns": []any{"\u0301"}}, want: FAIL},
		{name: "a Hangul filler", tr: textChat("anything"), check: "contains", params: map[string]any{"patterns": []any{"\u3164"}}, want: FAIL},
		{name: "invisible characters around a word", tr: textChat("a refund"), check: "contains", params: map[string]any{"patterns": []any{"\u200brefund\u200b"}}, want: PASS},
		// equals compares whole texts: an expected text of invisible
		// characters equals only an output that is as empty.
		{name: "equals an invisible text", tr: textChat("anything"), check: "equals", params: map[string]any{"any_of": []any{"\u200b"}, "ignore_zero_width": true}, want: FAIL},
	})
}

// A Chat Completions refusal and an audio answer's transcript are the
// model's output: the text checks read them (they used to be dropped, so
// content_excludes, a negated regex and max_length passed on them).
func TestTextChecksReadRefusalsAndAudio(t *testing.T) {
	decode := func(msg string) *evalkit.Transcript {
		tr, err := evalkit.Decode([]byte(`[{"role": "user", "content": "Tell me how to get a refund"}, ` + msg + `]`))
		require.NoError(t, err)
		return tr
	}
	for name, tr := range map[string]*evalkit.Transcript{
		"refusal":          decode(`{"role": "assistant", "content": null, "refusal": "I'm sorry, I can't help with that."}`),
		"refusal and text": decode(`{"role": "assistant", "content": "Well.", "refusal": "I'm sorry, I can't help with that."}`),
		"audio transcript": decode(`{"role": "assistant", "content": null, "audio": {"id": "a", "transcript": "I'm sorry, I can't help with that."}}`),
	} {
		runCases(t, []evalCase{
			{name: name + ": content_excludes", tr: tr, check: "content_excludes", params: map[string]any{"patterns": []any{"sorry", "can't help"}}, want: FAIL},
			{name: name + ": regex not", tr: tr, check: "regex", params: map[string]any{"pattern": "(?i)sorry", "expect_match": false}, want: FAIL},
			{name: name + ": max_length", tr: tr, check: "max_length", params: map[string]any{"max": 5}, want: FAIL},
			{name: name + ": contains", tr: tr, check: "contains", params: map[string]any{"patterns": []any{"can't help"}}, want: PASS},
		})
	}
}

// C23: RE2 semantics are kept, and CRLF reads as LF so line anchors work.
func TestRegexAnchors(t *testing.T) {
	lf := "Checking stock...\nSTATUS: OK\nDone."
	crlf := "Checking stock...\r\nSTATUS: OK\r\nDone."
	runCases(t, []evalCase{
		{name: "a: whole-text anchors", tr: textChat(lf), check: "regex", params: map[string]any{"pattern": "^STATUS: OK$"}, want: FAIL},
		{name: "b: (?m) line anchors", tr: textChat(lf), check: "regex", params: map[string]any{"pattern": "(?m)^STATUS: OK$"}, want: PASS},
		{name: "c: (?m) on CRLF text", tr: textChat(crlf), check: "content_matches", params: map[string]any{"pattern": "(?m)^STATUS: OK$"}, want: PASS},
		{name: "d: start anchor on CRLF text", tr: textChat(crlf), check: "regex", params: map[string]any{"pattern": "^Checking"}, want: PASS},
	})
}

func TestRegex(t *testing.T) {
	runCases(t, []evalCase{
		{name: "match", tr: textChat("Order #W123 refunded"), check: "regex", params: map[string]any{"pattern": `#W\d+`}, want: PASS,
			summary: `messages[1] matched "#W123"`},
		{name: "case-sensitive by default", tr: textChat("order"), check: "regex", params: map[string]any{"pattern": "ORDER"}, want: FAIL},
		{name: "expect_match false passes on no match", tr: textChat("all good"), check: "regex",
			params: map[string]any{"pattern": `(?i)error`, "expect_match": false}, want: PASS},
		{name: "expect_match false fails on a match", tr: textChat("an Error occurred"), check: "regex",
			params: map[string]any{"pattern": `(?i)error`, "expect_match": false}, want: FAIL, summary: "pattern matched, want no match"},
		{name: "session: some message matches", tr: textChat("id 7", "done"), check: "regex",
			params: map[string]any{"pattern": `id \d`, "scope": "session"}, want: PASS},
		{name: "empty alternative matches anything", tr: textChat("the weather is nice"), check: "regex", params: map[string]any{"pattern": "refund|"}, want: ERROR,
			summary: `regex: param "pattern": "refund|" can match an empty string, so it matches any text: require at least one character`},
		{name: "optional group matches anything", tr: textChat("x"), check: "regex", params: map[string]any{"pattern": "(refund)?"}, want: ERROR},
		{name: "a lone anchor matches anything", tr: textChat("x"), check: "regex", params: map[string]any{"pattern": "^"}, want: ERROR},
		{name: "a lone word boundary matches anything", tr: textChat("the weather is nice"), check: "regex", params: map[string]any{"pattern": `\b`}, want: ERROR},
		{name: "an optional part after a boundary matches anything", tr: textChat("order 42"), check: "regex", params: map[string]any{"pattern": `\b\d*`}, want: ERROR},
		{name: "an empty alternative first", tr: textChat("refund"), check: "regex", params: map[string]any{"pattern": `\b|refund`}, want: ERROR},
		{name: "a bounded repeat of at least one is fine", tr: textChat("order 42"), check: "regex", params: map[string]any{"pattern": `\d{1,3}`}, want: PASS},
		{name: "not blank: expect_match false allows an empty-matching pattern", tr: textChat("hello"), check: "regex",
			params: map[string]any{"pattern": `^\s*$`, "expect_match": false}, want: PASS},
		{name: "not blank fails on blank output", tr: textChat("  \n"), check: "regex",
			params: map[string]any{"pattern": `^\s*$`, "expect_match": false}, want: FAIL},
		{name: "invalid pattern", tr: textChat("x"), check: "regex", params: map[string]any{"pattern": "("}, want: ERROR,
			summary: "regex: param \"pattern\": invalid regular expression: error parsing regexp: missing closing ): `(`"},
		{name: "empty pattern", tr: textChat("x"), check: "regex", params: map[string]any{"pattern": ""}, want: ERROR},
	})
}

// A pattern no text can match would make expect_match false pass on any
// output (and expect_match true fail on any): an error, as a pattern that
// matches the empty string is. Patterns that match some text stay.
func TestRegexThatCanNeverMatch(t *testing.T) {
	never := map[string]string{
		`$x`:                        "it requires text after the end of the text",
		`\zx`:                       "it requires text after the end of the text",
		`(?i)refund$ now`:           "it requires text after the end of the text",
		`a(\z)b`:                    "it requires text after the end of the text",
		`x\A`:                       "it requires text before the start of the text",
		`[^\x00-\x{10FFFF}]`:        "it holds a class of no characters",
		`refund[^\s\S]`:             "it holds a class of no characters",
		`(?:$x|[^\x00-\x{10FFFF}])`: "it holds a class of no characters",
		`(ab$c)+`:                   "it requires text after the end of the text",
	}
	for pattern, why := range never {
		for _, expect := range []bool{false, true} {
			runCases(t, []evalCase{{name: fmt.Sprintf("%s, expect_match %v", pattern, expect), tr: textChat("anything at all"), check: "regex",
				params: map[string]any{"pattern": pattern, "expect_match": expect}, want: ERROR, param: "pattern",
				summary: fmt.Sprintf(`regex: param "pattern": %q can never match any text (%s), so a check on it proves nothing`, pattern, why)}})
		}
		runCases(t, []evalCase{{name: "no_tool_errors " + pattern, tr: textChat("x"), check: "no_tool_errors",
			params: map[string]any{"error_pattern": pattern}, want: ERROR, param: "error_pattern"}})
	}
	// Each of these matches some text, so it is a check.
	for pattern, text := range map[string]string{
		`x$`: "a x", `(?m)x$`: "x\ny", `\z\A`: "", `a|$x`: "a", `(?m)$\n^b`: "a\nb", `x*$`: "yy", `[^a]`: "b", `(?:$x)?y`: "y",
	} {
		re := regexp.MustCompile(pattern)
		testify.True(t, re.MatchString(text), "%q matches %q", pattern, text)
		res, err := assert.Regex{Pattern: pattern, NoMatch: true}.Check(context.Background(), textChat("zz"))
		require.NoError(t, err, pattern)
		testify.Equal(t, !re.MatchString("zz"), res.Passed, pattern)
	}
}

func TestLengths(t *testing.T) {
	runCases(t, []evalCase{
		{name: "min met", tr: textChat("héllo"), check: "min_length", params: map[string]any{"min": 5}, want: PASS, summary: "5 characters, want >= 5"},
		{name: "min counts characters not bytes", tr: textChat("日本語"), check: "min_length", params: map[string]any{"min_characters": 4}, want: FAIL,
			summary: "3 characters, want >= 4", score: ptr(0.75)},
		{name: "max met", tr: textChat("short"), check: "max_length", params: map[string]any{"max": 10.0}, want: PASS},
		{name: "max exceeded", tr: textChat(strings.Repeat("x", 20)), check: "length", params: map[string]any{"max_chars": 10}, want: FAIL,
			summary: "20 characters, want <= 10", score: ptr(0.5)},
		{name: "session: every message", tr: textChat("ok", strings.Repeat("x", 20)), check: "max_length",
			params: map[string]any{"max": 10, "scope": "session"}, want: FAIL, summary: "1 of 2 assistant messages fail, want <= 10"},
		{name: "min zero is an error", tr: textChat("x"), check: "min_length", params: map[string]any{"min": 0}, want: ERROR},
		{name: "min missing is an error", tr: textChat("x"), check: "min_length", params: map[string]any{}, want: ERROR},
		{name: "fractional min is an error", tr: textChat("x"), check: "min_length", params: map[string]any{"min": 2.5}, want: ERROR,
			summary: `min_length: param "min": want a whole number >= 0, got 2.5`},
		{name: "two aliases is an error", tr: textChat("x"), check: "max_length", params: map[string]any{"max": 2, "max_characters": 3}, want: ERROR},
	})
}

func TestLastMessageWithOnlyToolCalls(t *testing.T) {
	tr := textChat("Let me transfer you.")
	tr.Messages = append(tr.Messages, evalkit.Message{Role: evalkit.RoleAssistant, ToolCalls: []evalkit.ToolCall{{ID: "1", Name: "transfer_to_human_agents"}}})
	res, err := assert.Contains{Patterns: []string{"transfer"}}.Check(context.Background(), tr)
	require.NoError(t, err)
	testify.False(t, res.Passed)
	testify.Equal(t, []assert.Detail{{Label: "note", Text: "messages[2] has no text; it called transfer_to_human_agents"}}, res.Details)
}

func TestRegistry(t *testing.T) {
	reg := assert.NewRegistry()
	_, err := reg.Build("contians", map[string]any{"patterns": []any{"x"}})
	testify.True(t, errors.Is(err, assert.ErrUnknownCheck))
	testify.EqualError(t, err, `unknown check type "contians" (did you mean "contains"?)`)

	var pe *assert.ParamError
	_, err = reg.Build("contains", map[string]any{"patterns": []any{""}})
	require.True(t, errors.As(err, &pe), "Build validates parameters: %v", err)
	testify.Equal(t, "patterns", pe.Param)

	require.NoError(t, reg.Register("always", func(map[string]any) (assert.Check, error) {
		return assert.CheckFunc(func(context.Context, *evalkit.Transcript) (assert.Result, error) {
			return assert.Result{Passed: true, Score: 1}, nil
		}), nil
	}))
	testify.Error(t, reg.Register("always", nil))
	testify.Error(t, reg.Register("contains", func(map[string]any) (assert.Check, error) { return nil, nil }), "built-ins cannot be replaced")
	res, err := reg.Eval(context.Background(), "always", textChat("x"), map[string]any{"anything": 1})
	require.NoError(t, err)
	testify.True(t, res.Passed)

	for _, name := range []string{
		"contains", "contains_any", "content_excludes", "regex", "min_length", "max_length",
		"content_includes", "content_includes_any", "content_matches", "content_not_includes", "banned_words", "length",
	} {
		testify.Contains(t, reg.Names(), name)
	}
}

func TestScopeString(t *testing.T) {
	testify.Equal(t, "turn", assert.Turn.String())
	testify.Equal(t, "session", assert.Session.String())
	testify.Equal(t, "default", assert.DefaultScope.String())
}

func TestInvalidScopeIsAnError(t *testing.T) {
	_, err := assert.Contains{Patterns: []string{"x"}, Scope: assert.Scope(99)}.Check(context.Background(), textChat("x"))
	testify.EqualError(t, err, `contains: param "scope": want Turn or Session, got Scope(99)`)
}

func TestSummariesAreBounded(t *testing.T) {
	var patterns []string
	for i := range 100_000 {
		patterns = append(patterns, fmt.Sprintf("needle-%d", i))
	}
	patterns = append(patterns, strings.Repeat("long", 1_000_000))
	res, err := assert.Contains{Patterns: patterns}.Check(context.Background(), textChat("hay"))
	require.NoError(t, err)
	testify.Less(t, len(res.Summary), 2000)
	testify.True(t, strings.HasSuffix(res.Summary, "… and 99981 more"), res.Summary[len(res.Summary)-40:])
}

// Parameters decoded from YAML by gopkg.in/yaml.v2 arrive as map[any]any.
func TestYAMLShapedParams(t *testing.T) {
	tr := textChat(`{"refund": {"amount": 42}}`)
	res, err := assert.Eval(context.Background(), "json_path", tr, map[string]any{
		"expression": "refund",
		"expected":   map[any]any{"amount": 42},
	})
	require.NoError(t, err)
	testify.True(t, res.Passed, res.Summary)

	_, err = assert.Eval(context.Background(), "json_path", tr, map[string]any{
		"expression": "refund",
		"expected":   map[any]any{1: 42},
	})
	testify.EqualError(t, err, `json_path: param "expected": object key 1 is a number, want a string`)
}

func TestRegisteredBuildReturningNothing(t *testing.T) {
	reg := assert.NewRegistry()
	require.NoError(t, reg.Register("broken", func(map[string]any) (assert.Check, error) { return nil, nil }))
	_, err := reg.Eval(context.Background(), "broken", textChat("x"), nil)
	testify.EqualError(t, err, "broken: the build function returned no check and no error")
}

// A huge whole-word pattern compiles (RE2 bounds repetition, not literal
// length) and is searched like any other.
func TestHugeWordPattern(t *testing.T) {
	needle := strings.Repeat("a", 200_000)
	res, err := assert.ContentExcludes{Patterns: []string{needle}, MatchWords: true}.Check(context.Background(), textChat("x "+needle+" y"))
	require.NoError(t, err)
	testify.False(t, res.Passed)
}
