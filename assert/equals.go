package assert

import (
	"context"
	"fmt"
	"reflect"
	"strings"

	"github.com/google/go-cmp/cmp"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/internal/query"
	"github.com/evalkit-go/evalkit/internal/textnorm"
)

// AnyOf is a set of expected values for Equals: the output passes when it
// equals any one of them ("yes", "y", "correct"). A list given as Expected
// without AnyOf is one value, a JSON array. As MindTrial's sets of accepted
// answers.
type AnyOf []any

// Equals passes when the output equals Expected once both are canonicalized
// by Rules (the rules verdict grading uses; see Rules). With an AnyOf as
// Expected, it passes when the output equals any one of the values. As
// MindTrial's value-match validator and promptum's ExactMatch.
//
// What is compared depends on what is expected:
//
//   - Expected a string (or an AnyOf of strings) and no Expression: the
//     output's text, as a string. "42" equals the text 42; CRLF line
//     endings read as LF on both sides.
//   - Expression set, or Expected another JSON value (a number, a boolean,
//     an object, an array, or null with ExpectNull): the output's JSON,
//     found as JSONValid finds it (see AllowWrapped and ExtractJSON), or the
//     value the JMESPath Expression selects from it, evaluated as JSONPath
//     evaluates it (one implementation: the same query limits and the same
//     "$." prefix). Values are normalized through encoding/json, so numbers
//     compare by value (7, 7.0, 7e0 and json.Number("7") are equal) and the
//     string "7" is not the number 7. The rules apply to every string at any
//     depth of objects and arrays, never to object keys.
//
// JMESPath reads a missing key as null, so expecting null at an expression
// also passes when the key is absent.
//
// The Rules apply to both sides; the zero Rules compare exactly, so
// "hello\n\n\n" does not equal "hello". Output that is not JSON, when JSON
// is read, fails. With Turn scope (the default) it reads the last assistant
// message; with Session scope every assistant message that has text must
// equal, and the score is the fraction that does; otherwise the score is 1
// or 0. A failure gives got before want and a go-cmp diff (-want +got) of
// the canonical forms, against the nearest expected value of an AnyOf.
//
// Errors (*ParamError): no expected value (a nil Expected without
// ExpectNull), both, an empty AnyOf, an AnyOf mixing strings with other
// values without an Expression (strings compare with the text, other
// values with the JSON: say which with an Expression), AllowWrapped or
// ExtractJSON when the text is compared, an expression that does not
// compile or is over one of JSONPath's limits, a value encoding/json cannot
// encode, and a number of magnitude 2^53 or more (as JSONPath). A transcript without an assistant message is
// an error wrapping ErrNoOutput.
//
// Registry type "equals" (alias "exact_match"), params: expected (any JSON
// value; null expects null) or any_of (a list of expected values),
// expression (alias jmespath_expression), case_sensitive (default true),
// trim, collapse_whitespace, trim_lines, ignore_zero_width (each default
// false), allow_wrapped, extract_json, scope.
type Equals struct {
	// Expected is the expected value, or an AnyOf of them.
	Expected any
	// ExpectNull expects JSON null: a nil Expected means "not set".
	ExpectNull bool
	// Expression, when set, is a JMESPath expression selecting the
	// compared value from the output's JSON.
	Expression string
	// Rules canonicalize both sides before they are compared.
	Rules        Rules
	AllowWrapped bool
	ExtractJSON  bool
	Scope        Scope
}

func buildEquals(p *params) (Check, error) {
	var c Equals
	expected, hasExpected, err := p.value("expected")
	if err != nil {
		return nil, err
	}
	anyOf, hasAnyOf, err := p.value("any_of")
	if err != nil {
		return nil, err
	}
	switch {
	case hasExpected && hasAnyOf:
		return nil, p.err("any_of", "give expected (one value) or any_of (a list of values), not both")
	case hasAnyOf:
		norm, err := query.Normalize(anyOf)
		list, isList := norm.([]any)
		if err != nil || !isList {
			return nil, p.err("any_of", "want a list of expected values, got %s", kindOf(anyOf))
		}
		c.Expected = AnyOf(list)
	case hasExpected:
		c.Expected, c.ExpectNull = expected, expected == nil
	}
	name, expr, hasExpr, err := p.lookup("expression", "jmespath_expression")
	if err != nil {
		return nil, err
	}
	if hasExpr {
		s, ok := expr.(string)
		if !ok {
			return nil, p.err(name, "want a JMESPath expression (a string), got %s", kindOf(expr))
		}
		if s == "" {
			return nil, p.err(name, "empty: want a JMESPath expression, or leave it out to compare the whole output")
		}
		c.Expression = s
	}
	if c.Rules, err = p.ruleParams(); err != nil {
		return nil, err
	}
	if c.AllowWrapped, c.ExtractJSON, c.Scope, err = readJSONSource(p); err != nil {
		return nil, err
	}
	if !hasExpected && !hasAnyOf {
		if err := p.missing("expected", "any_of"); err != nil {
			return nil, err
		}
		return nil, p.err("expected", "required: want the expected value (or any_of, a list of expected values)")
	}
	return c, nil
}

// equalsPlan is an Equals made ready to compare: the values it accepts
// and their canonical forms.
type equalsPlan struct {
	json  bool         // compare the output's JSON (else its text)
	q     *query.Query // for json: the expression, "@" when none
	wants []any        // the expected values: strings for text, normalized JSON for json
	canon []any        // their canonical forms
}

func (c Equals) validate() error {
	_, err := c.prepare()
	return err
}

func (c Equals) prepare() (equalsPlan, error) {
	const check = "equals"
	var plan equalsPlan
	param := "expected"
	var values []any
	switch set, isSet := c.Expected.(AnyOf); {
	case c.ExpectNull && c.Expected != nil:
		return plan, paramErr(check, "expected", "ExpectNull is set with a non-nil Expected: give one")
	case c.ExpectNull:
		values = []any{nil}
	case isSet:
		param = "any_of"
		if len(set) == 0 {
			return plan, paramErr(check, param, "empty list: give at least one expected value")
		}
		values = set
	case c.Expected == nil:
		return plan, paramErr(check, "expected", "required: want the expected value (nil means not set; set ExpectNull to expect null)")
	default:
		values = []any{c.Expected}
	}
	strs := 0
	for _, v := range values {
		if _, ok := v.(string); ok {
			strs++
		}
	}
	switch {
	case c.Expression != "":
		plan.json = true
	case strs == len(values):
	case strs == 0:
		plan.json = true
	default:
		return plan, paramErr(check, param, "mixes strings and other values: without an expression a string is compared with "+
			"the output's text and any other value with its JSON; give one kind, or an expression (\"@\" for the whole JSON)")
	}
	if !plan.json {
		for _, b := range []struct {
			name string
			on   bool
		}{{"allow_wrapped", c.AllowWrapped}, {"extract_json", c.ExtractJSON}} {
			if b.on {
				return plan, paramErr(check, b.name, "reads the output's JSON, but a string expected value is compared with the text: "+
					"give an expression (\"@\" for the whole JSON) to compare JSON")
			}
		}
		for _, v := range values {
			s := textnorm.Newlines(v.(string))
			plan.wants = append(plan.wants, s)
			plan.canon = append(plan.canon, c.Rules.Text(s))
		}
		return plan, nil
	}
	expr := c.Expression
	if expr == "" {
		expr = "@"
	}
	var err error
	if plan.q, err = compileQuery(check, "expression", expr); err != nil {
		return plan, err
	}
	for i, v := range values {
		norm, err := query.Normalize(v)
		if err != nil {
			return plan, paramErr(check, param, "%snot a JSON value: %v", itemOf(param, i), err)
		}
		if err := exactNumbers(check, param, v, norm); err != nil {
			return plan, err
		}
		plan.wants = append(plan.wants, norm)
		plan.canon = append(plan.canon, c.Rules.Canonical(norm))
	}
	return plan, nil
}

func itemOf(param string, i int) string {
	if param == "any_of" {
		return fmt.Sprintf("item %d: ", i)
	}
	return ""
}

// Check implements Check.
func (c Equals) Check(_ context.Context, tr *evalkit.Transcript) (Result, error) {
	plan, err := c.prepare()
	if err != nil {
		return Result{}, err
	}
	if plan.json {
		return eachPlainJSON("equals", tr, c.Scope, jsonMode(c.AllowWrapped, c.ExtractJSON), "equal the expected value",
			func(_ output, p *parsed) (Result, error) {
				data, err := p.Plain()
				if err != nil {
					return Result{}, err
				}
				got, err := plan.q.SearchDecoded(data)
				if le := overLimit(err); le != nil && c.Expression == "" {
					return Result{}, fmt.Errorf("equals: the output's JSON, as a whole: %w", le) // too big a result
				} else if le != nil {
					return Result{}, paramErr("equals", "expression", "%v", le)
				}
				if err != nil {
					return fail(0, "the expression failed on this output: "+err.Error()), nil
				}
				return c.compare(plan, got, c.Rules.Canonical(got)), nil
			})
	}
	scope := c.Scope.or(Turn)
	outs, err := outputs("equals", tr, scope)
	if err != nil {
		return Result{}, err
	}
	if scope == Session {
		if outs = withText(outs); len(outs) == 0 {
			return fail(0, "no assistant message has text"), nil
		}
	}
	results := make([]Result, len(outs))
	for i, o := range outs {
		results[i] = c.compare(plan, o.text, c.Rules.Text(o.text))
		if note := emptyNote(o); note != nil && !results[i].Passed {
			results[i].Details = append(results[i].Details, note...)
		}
	}
	if scope == Turn {
		return results[0], nil
	}
	return combine(outs, results, "equal the expected value"), nil
}

// compare judges one output value (got, and its canonical form) against
// the plan's expected values.
func (c Equals) compare(plan equalsPlan, got, canon any) Result {
	for _, w := range plan.canon {
		if reflect.DeepEqual(w, canon) {
			return pass(1, "got "+c.show(got))
		}
	}
	near := plan.canon[nearestValue(plan.canon, canon)]
	ws, wok := near.(string)
	gs, gok := canon.(string)
	if wok && gok && (len(ws) > maxDiff || len(gs) > maxDiff) {
		near, canon = stringPair(ws, gs, maxDiff/2) // diff the strings around their first difference
	}
	diff := showDiff(near, canon)
	gotText, want := "got "+c.show(got), "want "+c.show(plan.wants[0])
	ws, wok = plan.wants[0].(string)
	gs, gok = got.(string)
	if len(plan.wants) == 1 && wok && gok {
		g, w := quotePair(gs, ws, maxQuote) // long texts show where they differ
		gotText, want = "got "+g, "want "+w
	}
	if len(plan.wants) > 1 {
		shown := make([]string, 0, min(len(plan.wants), listLimit+1))
		for i, w := range plan.wants {
			if i == listLimit {
				shown = append(shown, fmt.Sprintf("… and %d more", len(plan.wants)-listLimit))
				break
			}
			shown = append(shown, c.show(w))
		}
		want = "want one of " + strings.Join(shown, ", ")
	}
	res := fail(0, gotText+", "+want)
	if s, ok := got.(string); ok && !c.Rules.IgnoreZeroWidth && hasFormat(s) {
		res.Details = append(res.Details, Detail{"note", fmt.Sprintf("the output holds invisible characters (%s): "+
			"set ignore_zero_width (IgnoreZeroWidth) to read past them", formatChars(s))})
	}
	res.Diff = boundDiff(diff)
	return res
}

// nearestValue picks the expected value a failure is diffed against: for
// text the one sharing the longest prefix and suffix with got, for JSON
// the one with the shortest diff.
func nearestValue(wants []any, got any) int {
	score := func(w any) int {
		ws, wok := w.(string)
		gs, gok := got.(string)
		if wok && gok {
			return sharedEnds(ws, gs)
		}
		return -len(cmp.Diff(w, got))
	}
	best, bestScore := 0, score(wants[0])
	for i := 1; i < len(wants); i++ {
		if s := score(wants[i]); s > bestScore {
			best, bestScore = i, s
		}
	}
	return best
}

// sharedEnds is the length of the longest common prefix of a and b plus
// that of their longest common suffix after it, in bytes.
func sharedEnds(a, b string) int {
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	s := 0
	for s < len(a)-p && s < len(b)-p && a[len(a)-1-s] == b[len(b)-1-s] {
		s++
	}
	return p + s
}

// show renders a compared value for a summary: text quoted, JSON compact,
// both bounded.
func (c Equals) show(v any) string {
	if s, ok := v.(string); ok {
		return excerpt(s)
	}
	return jsonValue(v, maxQuote)
}

// Describe implements Describer.
func (c Equals) Describe() string {
	plan, err := c.prepare()
	if err != nil {
		return "equals (invalid: " + err.Error() + ")"
	}
	subject := outputNoun(c.Scope.or(Turn))
	switch {
	case c.Expression != "":
		subject = fmt.Sprintf("%s in the JSON of %s", textnorm.Excerpt(c.Expression, 60), subject)
	case plan.json:
		subject = "the JSON of " + subject
	}
	verb := "equals"
	if c.Scope.or(Turn) == Session {
		verb = "each equal"
	}
	want := c.show(plan.wants[0])
	if len(plan.wants) > 1 {
		shown := make([]string, 0, 4)
		for i, w := range plan.wants {
			if i == 3 {
				shown = append(shown, fmt.Sprintf("… (%d in all)", len(plan.wants)))
				break
			}
			shown = append(shown, c.show(w))
		}
		want = "one of " + strings.Join(shown, ", ")
	}
	d := fmt.Sprintf("%s %s %s", subject, verb, want)
	if w := c.Rules.words(); w != "" {
		d += " (" + w + ")"
	}
	return describeLine(d)
}

func equalsChecks() map[string]func(*params) (Check, error) {
	return map[string]func(*params) (Check, error){"equals": buildEquals}
}

// EqualsOption is one setting of EqualsCheck: a canonicalization rule or
// the JMESPath selection. Options are values; String gives the option as
// written, for failure messages: "Trim()".
type EqualsOption struct {
	text  string
	apply func(*Equals)
}

// String returns the option in Go call syntax.
func (o EqualsOption) String() string { return o.text }

// EqualsCheck returns the Equals check comparing the last assistant
// message with expected (a value, or an AnyOf) under the options; a nil
// expected expects JSON null. This is what evaltest's Equals runs.
func EqualsCheck(expected any, opts ...EqualsOption) Equals {
	c := Equals{Expected: expected, ExpectNull: expected == nil}
	for _, o := range opts {
		if o.apply != nil {
			o.apply(&c)
		}
	}
	return c
}

// CaseInsensitive compares by Unicode case folding (Rules.CaseInsensitive;
// the registry's case_sensitive: false).
func CaseInsensitive() EqualsOption {
	return EqualsOption{"CaseInsensitive()", func(c *Equals) { c.Rules.CaseInsensitive = true }}
}

// Trim ignores white space at the start and end (Rules.Trim).
func Trim() EqualsOption {
	return EqualsOption{"Trim()", func(c *Equals) { c.Rules.Trim = true }}
}

// CollapseWhitespace reads each run of white space as one space
// (Rules.CollapseWhitespace).
func CollapseWhitespace() EqualsOption {
	return EqualsOption{"CollapseWhitespace()", func(c *Equals) { c.Rules.CollapseWhitespace = true }}
}

// TrimLines ignores white space at the start and end of every line
// (Rules.TrimLines).
func TrimLines() EqualsOption {
	return EqualsOption{"TrimLines()", func(c *Equals) { c.Rules.TrimLines = true }}
}

// IgnoreZeroWidth ignores invisible format characters: zero-width spaces
// and joiners, byte-order marks, soft hyphens (Rules.IgnoreZeroWidth).
func IgnoreZeroWidth() EqualsOption {
	return EqualsOption{"IgnoreZeroWidth()", func(c *Equals) { c.Rules.IgnoreZeroWidth = true }}
}

// At compares the value the JMESPath expression selects from the output's
// JSON, instead of the whole output (Equals.Expression).
func At(expression string) EqualsOption {
	return EqualsOption{"At(" + cutQuote(expression) + ")", func(c *Equals) { c.Expression = expression }}
}
