package assert

import (
	"fmt"
	"strings"

	"github.com/evalkit-go/evalkit/internal/textnorm"
)

// The built-in checks' Describe methods: one line each, saying what passes
// in the words of the check's own doc. Reports list them; a description is
// never parsed.

// outputNoun names what a text or JSON check reads in the scope.
func outputNoun(s Scope) string {
	if s == Session {
		return "the assistant messages"
	}
	return "the last assistant message"
}

// callsScope names where a tool check looks, for Session (its default)
// nothing: "anywhere" is what a reader assumes.
func callsScope(s Scope) string {
	if s == Turn {
		return " in the last turn"
	}
	return ""
}

func caseWords(caseSensitive bool) string {
	if caseSensitive {
		return "case-sensitive"
	}
	return "ignoring case"
}

// joinQuoted quotes items, joined with "and" or "or": "a", "b" and "c".
func joinQuoted(items []string, conj string) string {
	q := quoteList(items)
	if len(items) < 2 || len(items) > listLimit {
		return q
	}
	i := strings.LastIndex(q, ", ")
	return q[:i] + " " + conj + " " + q[i+2:]
}

// Describe implements Describer.
func (c Contains) Describe() string {
	verb := "contains"
	if c.Scope.or(Turn) == Session {
		verb = "together contain"
	}
	return describeLine(fmt.Sprintf("%s %s %s (%s)", outputNoun(c.Scope.or(Turn)), verb, joinQuoted(c.Patterns, "and"), caseWords(c.CaseSensitive)))
}

// Describe implements Describer.
func (c ContainsAny) Describe() string {
	subject := "some assistant message"
	if c.Scope.or(Session) == Turn {
		subject = "the last assistant message"
	}
	return describeLine(fmt.Sprintf("%s contains %s (%s)", subject, joinQuoted(c.Patterns, "or"), caseWords(c.CaseSensitive)))
}

// Describe implements Describer.
func (c ContentExcludes) Describe() string {
	how := caseWords(c.CaseSensitive)
	if c.MatchWords {
		how += ", whole words"
	}
	subject := "no assistant message contains"
	if c.Scope.or(Session) == Turn {
		subject = "the last assistant message does not contain"
	}
	return describeLine(fmt.Sprintf("%s %s (%s)", subject, joinQuoted(c.Patterns, "or"), how))
}

// Describe implements Describer.
func (c Regex) Describe() string {
	scope := c.Scope.or(Turn)
	pat := textnorm.Quote(c.Pattern, 120)
	switch {
	case c.NoMatch && scope == Session:
		return describeLine("no assistant message matches the regular expression " + pat)
	case c.NoMatch:
		return describeLine("the last assistant message does not match the regular expression " + pat)
	case scope == Session:
		return describeLine("some assistant message matches the regular expression " + pat)
	}
	return describeLine("the last assistant message matches the regular expression " + pat)
}

// Describe implements Describer.
func (c MinLength) Describe() string {
	return lengthWords(c.Scope, "at least", c.Min)
}

// Describe implements Describer.
func (c MaxLength) Describe() string {
	return lengthWords(c.Scope, "at most", c.Max)
}

func lengthWords(s Scope, bound string, n int) string {
	if s.or(Turn) == Session {
		return fmt.Sprintf("every assistant message with text has %s %s", bound, plural(n, "character"))
	}
	return fmt.Sprintf("the last assistant message has %s %s", bound, plural(n, "character"))
}

// jsonWhere says where a JSON check finds the JSON.
func jsonWhere(allowWrapped, extractJSON bool) string {
	switch {
	case extractJSON:
		return " (in a code fence or prose too)"
	case allowWrapped:
		return " (in a code fence too)"
	}
	return ""
}

// Describe implements Describer.
func (c JSONValid) Describe() string {
	return describeLine(fmt.Sprintf("%s %s valid JSON%s", outputNoun(c.Scope.or(Turn)), isAre(c.Scope), jsonWhere(c.AllowWrapped, c.ExtractJSON)))
}

func isAre(s Scope) string {
	if s.or(Turn) == Session {
		return "are each"
	}
	return "is"
}

// Describe implements Describer.
func (c JSONSchema) Describe() string {
	schema := "…"
	if data, err := schemaJSON(c.Schema); err == nil {
		schema = textnorm.Excerpt(string(data), 120)
	}
	return describeLine(fmt.Sprintf("the JSON of %s matches the schema %s%s", outputNoun(c.Scope.or(Turn)), schema, jsonWhere(c.AllowWrapped, c.ExtractJSON)))
}

// Describe implements Describer.
func (c JSONPath) Describe() string {
	var want []string
	if c.Expected != nil || c.ExpectNull {
		want = append(want, "equals "+jsonValue(c.Expected, 80))
	}
	if c.Contains != nil {
		items := make([]string, len(c.Contains))
		for i, it := range c.Contains {
			items[i] = jsonValue(it, 40)
		}
		want = append(want, "contains "+boundedList(items))
	}
	if c.MinResults != nil || c.MaxResults != nil {
		want = append(want, "has "+rangeText(c.MinResults, c.MaxResults)+" items")
	}
	if c.Min != nil || c.Max != nil {
		want = append(want, "is a number "+rangeText(c.Min, c.Max))
	}
	if len(want) == 0 {
		want = append(want, "selects something (not null)")
	}
	return describeLine(fmt.Sprintf("%s in the JSON of %s %s%s", textnorm.Excerpt(c.Expression, 80), outputNoun(c.Scope.or(Turn)),
		strings.Join(want, " and "), jsonWhere(c.AllowWrapped, c.ExtractJSON)))
}

// Describe implements Describer.
func (c FieldPresence) Describe() string {
	return describeLine(fmt.Sprintf("the JSON of %s has the fields %s%s", outputNoun(c.Scope.or(Turn)), quoteList(c.Fields), jsonWhere(c.AllowWrapped, c.ExtractJSON)))
}

// Describe implements Describer.
func (c ToolsCalled) Describe() string {
	lo := c.minCalls()
	var how string
	switch {
	case c.MaxCalls != nil && *c.MaxCalls == lo:
		how = "exactly " + times(lo)
	case c.MaxCalls != nil:
		how = fmt.Sprintf("%d to %s", lo, times(*c.MaxCalls))
	case lo == 1:
		how = "at least once"
	default:
		how = fmt.Sprintf("at least %s", times(lo))
	}
	args := ""
	if c.RequireArgs {
		args = " with arguments"
	}
	each := "each "
	if len(c.Tools) == 1 {
		each = ""
	}
	return describeLine(fmt.Sprintf("%s %s %scalled%s %s%s", joinQuoted(c.Tools, "and"), wasWere(len(c.Tools)), each, args, how, callsScope(c.Scope)))
}

func wasWere(n int) string {
	if n == 1 {
		return "was"
	}
	return "were"
}

// Describe implements Describer.
func (c ToolsNotCalled) Describe() string {
	return describeLine(fmt.Sprintf("none of %s was called%s", joinQuoted(c.Tools, "or"), callsScope(c.Scope)))
}

// Describe implements Describer.
func (c ToolCallCount) Describe() string {
	what := "tools were called"
	if c.Tool != "" {
		what = quoteName(c.Tool) + " was called"
	}
	var how string
	switch {
	case c.Min != nil && c.Max != nil && *c.Min == *c.Max:
		how = "exactly " + times(*c.Min)
	case c.Min != nil && c.Max != nil:
		how = fmt.Sprintf("%d to %s", *c.Min, times(*c.Max))
	case c.Min != nil:
		how = "at least " + times(*c.Min)
	case c.Max != nil:
		how = "at most " + times(*c.Max)
	default:
		how = "any number of times"
	}
	return describeLine(fmt.Sprintf("%s %s%s", what, how, callsScope(c.Scope)))
}

// Describe implements Describer.
func (c NoToolErrors) Describe() string {
	which := "no tool call"
	if len(c.Tools) > 0 {
		which = "no call to " + joinQuoted(c.Tools, "or")
	}
	d := which + " got an error result"
	if c.ErrorPattern != "" {
		d += " or one matching " + textnorm.Quote(c.ErrorPattern, 80)
	}
	return describeLine(d + callsScope(c.Scope))
}

// Describe implements Describer.
func (c ToolArgs) Describe() string {
	if len(c.Calls) > 0 {
		calls := make([]string, len(c.Calls))
		for i, e := range c.Calls {
			calls[i] = quoteName(e.Tool) + " with " + argsWords(e.Args)
		}
		return describeLine(fmt.Sprintf("each of these calls was made, a call for each: %s%s", boundedList(calls), callsScope(c.Scope)))
	}
	return describeLine(fmt.Sprintf("%s was called with %s%s", quoteName(c.Tool), argsWords(c.Args), callsScope(c.Scope)))
}

func argsWords(args map[string]any) string {
	if len(args) == 0 {
		return "any arguments"
	}
	return "arguments including " + jsonValue(args, 120)
}

// Describe implements Describer.
func (c ToolCallSequence) Describe() string {
	names := make([]string, len(c.Sequence))
	for i, n := range c.Sequence {
		names[i] = quoteName(n)
	}
	return describeLine(fmt.Sprintf("the tools were called in the order %s (other calls between allowed)%s", strings.Join(names, " → "), callsScope(c.Scope)))
}

// Describe implements Describer.
func (c LLMJudge) Describe() string {
	what := "the last assistant message"
	if c.Scope.or(Turn) == Session {
		what = "the whole transcript"
	}
	return describeLine(fmt.Sprintf("a judge finds that %s meets %s%s", what, textnorm.Quote(c.Criteria, 120), passingWords(c.Passing)))
}

// Describe implements Describer.
func (c LLMJudgeToolCalls) Describe() string {
	what := "the tool calls"
	if len(c.Tools) > 0 {
		what = "the calls to " + joinQuoted(c.Tools, "and")
	}
	return describeLine(fmt.Sprintf("a judge finds that %s%s meet %s%s", what, callsScope(c.Scope), textnorm.Quote(c.Criteria, 120), passingWords(c.Passing)))
}

// passingWords says how a judged check's verdict passes, after its
// criteria.
func passingWords(p Passing) string {
	switch {
	case len(p.Labels) > 0:
		return ", with the label " + joinQuoted(p.Labels, "or")
	case p.Passed != nil && p.Field != "":
		return fmt.Sprintf(", with %q %v", p.Field, *p.Passed)
	case p.Passed != nil && !*p.Passed:
		return ", judged fail"
	case p.Schema != nil:
		return ", with a verdict matching the passing schema"
	}
	return ""
}

// Describe implements Describer.
func (a Assertion) Describe() string {
	inner := "a check"
	if a.Eval != nil {
		inner = Describe(a.Eval)
	}
	var bound string
	switch {
	case a.MinScore != nil && a.MaxScore != nil:
		bound = fmt.Sprintf("a score in [%s, %s]", fmtBound(*a.MinScore), fmtBound(*a.MaxScore))
	case a.MinScore != nil:
		bound = "a score >= " + fmtBound(*a.MinScore)
	case a.MaxScore != nil:
		bound = "a score <= " + fmtBound(*a.MaxScore)
	default:
		bound = "a score of 1 (no threshold set)"
	}
	return describeLine(inner + ", with " + bound)
}

// Describe implements Describer.
func (g Guardrail) Describe() string {
	return describeLine("the guardrail on " + strings.TrimSuffix(g.assertion().Describe(), ".") + " does not trigger")
}
