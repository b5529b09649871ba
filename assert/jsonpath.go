package assert

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/google/go-cmp/cmp"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/internal/jsonx"
	"github.com/evalkit-go/evalkit/internal/query"
)

// JSONPath evaluates a JMESPath expression (jmespath-community/go-jmespath)
// on the output's JSON, found as JSONValid documents (see AllowWrapped and
// ExtractJSON), and checks the result against every constraint given;
// all must hold:
//
//   - Expected: the result equals it, deeply. Set ExpectNull to expect null
//     (a nil Expected means "no expected value").
//   - Contains: the result is an array holding each item.
//   - MinResults, MaxResults: the result is an array of that many items
//     (inclusive bounds).
//   - Min, Max: the result is a number in that range (inclusive).
//
// With no constraint the check passes when the result is not null: the
// expression selected something. Values are compared after normalization
// through encoding/json, so 7, 7.0, json.Number("7"), 7e0 and a Go int are
// equal; the string "1" is not the number 1. Numbers are float64, so
// integers beyond 2^53 compare to float64 precision. A leading "$" is the root
// ("$.a" and "a" are the same). Keys holding '-' or '.' must be quoted:
// tags."created-by" (unquoted, the community library reads '-' as
// subtraction and the result is null; the failure then carries a hint).
//
// An expression that does not compile is an error (a *ParamError on
// "expression"); an expression that fails on this output (a function given
// the wrong type) fails. Output that is not JSON fails. The score is the
// fraction of constraints met (with Session scope, the mean over messages).
// A mismatch with Expected carries a go-cmp diff (-want +got).
//
// Registry type "json_path", params: expression (alias jmespath_expression),
// expected (any JSON value; null expects null), contains (a list),
// min_results, max_results, min, max, allow_wrapped, extract_json, scope. As
// PromptKit's json_path.
type JSONPath struct {
	// Expression is the JMESPath expression.
	Expression string
	// Expected, when not nil, is the value the result must equal.
	Expected any
	// ExpectNull requires the result to be null. It exists because a nil
	// Expected means "not set"; the registry sets it for "expected: null".
	ExpectNull bool
	// Contains, when not nil, lists items the result (an array) must hold.
	Contains []any
	// MinResults and MaxResults, when not nil, bound the length of the
	// result, which must be an array.
	MinResults, MaxResults *int
	// Min and Max, when not nil, bound the result, which must be a number.
	Min, Max     *float64
	AllowWrapped bool
	ExtractJSON  bool
	Scope        Scope
}

func buildJSONPath(p *params) (Check, error) {
	var c JSONPath
	var err error
	if c.Expression, _, err = p.str(true, "expression", "jmespath_expression"); err != nil {
		return nil, err
	}
	expected, ok, err := p.value("expected")
	if err != nil {
		return nil, err
	}
	if ok {
		c.Expected, c.ExpectNull = expected, expected == nil
	}
	name, contains, ok, err := p.lookup("contains")
	if err != nil {
		return nil, err
	}
	if ok {
		norm, err := normalizeJSON(contains)
		list, isList := norm.([]any)
		if err != nil || !isList {
			return nil, p.err(name, "want a list, got %s", kindOf(contains))
		}
		c.Contains = list
	}
	for _, b := range []struct {
		name string
		dst  **int
	}{{"min_results", &c.MinResults}, {"max_results", &c.MaxResults}} {
		n, ok, err := p.count(b.name)
		if err != nil {
			return nil, err
		}
		if ok {
			*b.dst = &n
		}
	}
	for _, b := range []struct {
		name string
		dst  **float64
	}{{"min", &c.Min}, {"max", &c.Max}} {
		f, ok, err := p.num(b.name)
		if err != nil {
			return nil, err
		}
		if ok {
			*b.dst = &f
		}
	}
	c.AllowWrapped, c.ExtractJSON, c.Scope, err = readJSONSource(p)
	return c, err
}

func (c JSONPath) validate() error {
	_, _, _, err := c.prepare()
	return err
}

// prepare compiles the expression and normalizes the expected values.
func (c JSONPath) prepare() (q *query.Query, want any, contains []any, err error) {
	if q, err = compileQuery("json_path", "expression", c.Expression); err != nil {
		return nil, nil, nil, err
	}
	if c.ExpectNull && c.Expected != nil {
		return nil, nil, nil, paramErr("json_path", "expected", "ExpectNull is set with a non-nil Expected: give one")
	}
	if want, err = query.Normalize(c.Expected); err != nil {
		return nil, nil, nil, paramErr("json_path", "expected", "not a JSON value: %v", err)
	}
	if c.Contains != nil {
		if len(c.Contains) == 0 {
			return nil, nil, nil, paramErr("json_path", "contains", "empty list: give at least one item")
		}
		norm, err := query.Normalize(c.Contains)
		if err != nil {
			return nil, nil, nil, paramErr("json_path", "contains", "not JSON values: %v", err)
		}
		contains = norm.([]any)
	}
	for _, b := range []struct {
		name string
		n    *int
	}{{"min_results", c.MinResults}, {"max_results", c.MaxResults}} {
		if b.n != nil && *b.n < 0 {
			return nil, nil, nil, paramErr("json_path", b.name, "want a whole number >= 0, got %d", *b.n)
		}
	}
	if c.MinResults != nil && c.MaxResults != nil && *c.MinResults > *c.MaxResults {
		return nil, nil, nil, paramErr("json_path", "max_results", "%d is below min_results %d", *c.MaxResults, *c.MinResults)
	}
	for _, b := range []struct {
		name string
		f    *float64
	}{{"min", c.Min}, {"max", c.Max}} {
		if b.f != nil && (math.IsNaN(*b.f) || math.IsInf(*b.f, 0)) {
			return nil, nil, nil, paramErr("json_path", b.name, "want a finite number, got %v", *b.f)
		}
	}
	if c.Min != nil && c.Max != nil && *c.Min > *c.Max {
		return nil, nil, nil, paramErr("json_path", "max", "%v is below min %v", *c.Max, *c.Min)
	}
	return q, want, contains, nil
}

// Check implements Check.
func (c JSONPath) Check(_ context.Context, tr *evalkit.Transcript) (Result, error) {
	q, want, contains, err := c.prepare()
	if err != nil {
		return Result{}, err
	}
	return eachJSON("json_path", tr, c.Scope, jsonMode(c.AllowWrapped, c.ExtractJSON), "pass",
		func(_ output, found jsonx.Found) (Result, error) {
			data, err := decodeJSON(found.JSON)
			if err != nil {
				return Result{}, err
			}
			got, err := q.Search(data)
			if err != nil {
				return fail(0, "the expression failed on this output: "+err.Error()), nil
			}
			return c.judge(got, want, contains), nil
		})
}

// judge checks a result against every constraint.
func (c JSONPath) judge(got, want any, contains []any) Result {
	var fails []string
	met, total := 0, 0
	diff := ""
	check := func(ok bool, why string) {
		total++
		if ok {
			met++
		} else {
			fails = append(fails, why)
		}
	}
	if c.Expected != nil || c.ExpectNull {
		ok := cmp.Equal(want, got)
		check(ok, fmt.Sprintf("got %s, want %s", jsonValue(got, maxQuote), jsonValue(want, maxQuote)))
		if !ok && (composite(want) || composite(got)) { // a scalar's diff only repeats the summary
			diff = cmp.Diff(want, got)
		}
	}
	arr, isArr := got.([]any)
	if contains != nil {
		var missing []string
		for _, item := range contains {
			if !isArr || !hasItem(arr, item) {
				missing = append(missing, jsonValue(item, maxQuote))
			}
		}
		switch {
		case !isArr:
			check(false, fmt.Sprintf("got %s, want an array containing %s", jsonValue(got, maxQuote), strings.Join(missing, ", ")))
		default:
			check(len(missing) == 0, fmt.Sprintf("missing %s in %s", strings.Join(missing, ", "), jsonValue(got, maxQuote)))
		}
	}
	if c.MinResults != nil || c.MaxResults != nil {
		bounds := rangeText(c.MinResults, c.MaxResults)
		if !isArr {
			check(false, fmt.Sprintf("got %s, want an array with %s items", jsonValue(got, maxQuote), bounds))
		} else {
			n := len(arr)
			check((c.MinResults == nil || n >= *c.MinResults) && (c.MaxResults == nil || n <= *c.MaxResults),
				fmt.Sprintf("got %d results, want %s", n, bounds))
		}
	}
	if c.Min != nil || c.Max != nil {
		bounds := rangeText(c.Min, c.Max)
		f, isNum := got.(float64)
		if !isNum {
			check(false, fmt.Sprintf("got %s, want a number %s", jsonValue(got, maxQuote), bounds))
		} else {
			check((c.Min == nil || f >= *c.Min) && (c.Max == nil || f <= *c.Max), fmt.Sprintf("got %s, want %s", jsonValue(got, maxQuote), bounds))
		}
	}
	if total == 0 {
		check(got != nil, c.Expression+" selected nothing (null)")
	}
	score := ratio(met, total)
	if len(fails) == 0 {
		if total == 1 {
			return pass(score, "got "+jsonValue(got, maxQuote))
		}
		return pass(score, fmt.Sprintf("got %s, meets all %d constraints", jsonValue(got, maxQuote), total))
	}
	res := fail(score, strings.Join(fails, "; "))
	res.Diff = diff
	if got == nil {
		res.Details = append(res.Details, hyphenHint(c.Expression)...)
	}
	return res
}

func hasItem(arr []any, item any) bool {
	for _, a := range arr {
		if cmp.Equal(item, a) {
			return true
		}
	}
	return false
}

// rangeText renders inclusive bounds: ">= 1", "<= 3", "in [1, 3]".
func rangeText[T int | float64](lo, hi *T) string {
	switch {
	case lo != nil && hi != nil && *lo == *hi:
		return fmt.Sprintf("exactly %v", *lo)
	case lo != nil && hi != nil:
		return fmt.Sprintf("in [%v, %v]", *lo, *hi)
	case lo != nil:
		return fmt.Sprintf(">= %v", *lo)
	}
	return fmt.Sprintf("<= %v", *hi)
}

// decodeJSON decodes found JSON with numbers as float64, as JMESPath needs.
func decodeJSON(raw json.RawMessage) (any, error) {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, fmt.Errorf("decoding JSON: %w", err)
	}
	return v, nil
}

// compileQuery compiles a JMESPath expression; a bad one is a *ParamError
// on param.
func compileQuery(check, param, expr string) (*query.Query, error) {
	if expr == "" {
		return nil, paramErr(check, param, "empty: want a JMESPath expression")
	}
	q, err := query.Compile(expr)
	if err != nil {
		return nil, paramErr(check, param, "%v", err)
	}
	return q, nil
}

// FieldPresence passes when the output's JSON has every one of Fields, with
// JSON found as JSONValid documents (see AllowWrapped and ExtractJSON).
// Each field is a JMESPath path ("id", "customer.email", tags."created-by",
// "items[0].sku"), present when it selects a non-null value: an explicit
// null counts as absent, since JMESPath cannot tell null from missing.
// Score is the fraction of fields present (with Session scope, the mean
// over messages). Output that is not JSON fails; a field that is not a valid
// path, an empty field or an empty list is an error (a *ParamError on
// "fields").
//
// Registry type "field_presence" (alias "required_fields"), params: fields,
// allow_wrapped, extract_json, scope. A deliberate departure from
// PromptKit's field_presence, which searches the raw text for each name,
// case-insensitively, so "name" is found in "username" and in prose that
// merely mentions it.
type FieldPresence struct {
	Fields       []string
	AllowWrapped bool
	ExtractJSON  bool
	Scope        Scope
}

func buildFieldPresence(p *params) (Check, error) {
	var c FieldPresence
	var err error
	if c.Fields, _, err = p.strs(true, "fields"); err != nil {
		return nil, err
	}
	c.AllowWrapped, c.ExtractJSON, c.Scope, err = readJSONSource(p)
	return c, err
}

func (c FieldPresence) validate() error {
	_, err := c.queries()
	return err
}

func (c FieldPresence) queries() ([]*query.Query, error) {
	if len(c.Fields) == 0 {
		return nil, paramErr("field_presence", "fields", "empty list: give at least one field")
	}
	qs := make([]*query.Query, len(c.Fields))
	for i, f := range c.Fields {
		if f == "" {
			return nil, paramErr("field_presence", "fields", "item %d is empty: want a field path", i)
		}
		q, err := query.Compile(f)
		if err != nil {
			return nil, paramErr("field_presence", "fields", "item %d, %q: %v", i, f, err)
		}
		qs[i] = q
	}
	return qs, nil
}

// Check implements Check.
func (c FieldPresence) Check(_ context.Context, tr *evalkit.Transcript) (Result, error) {
	qs, err := c.queries()
	if err != nil {
		return Result{}, err
	}
	return eachJSON("field_presence", tr, c.Scope, jsonMode(c.AllowWrapped, c.ExtractJSON), "have every field",
		func(_ output, found jsonx.Found) (Result, error) {
			data, err := decodeJSON(found.JSON)
			if err != nil {
				return Result{}, err
			}
			var missing []string
			var hints []Detail
			for i, q := range qs {
				got, err := q.Search(data)
				if err == nil && got != nil {
					continue
				}
				missing = append(missing, c.Fields[i])
				hints = append(hints, hyphenHint(c.Fields[i])...)
			}
			score := ratio(len(qs)-len(missing), len(qs))
			if len(missing) == 0 {
				return pass(score, fmt.Sprintf("all %d fields present", len(qs))), nil
			}
			return fail(score, "missing "+quoteList(missing), hints...), nil
		})
}

// hyphenHint explains a null result from an expression with an unquoted
// identifier-hyphen-identifier, which JMESPath reads as a subtraction.
func hyphenHint(expr string) []Detail {
	quoted, ok := quoteHyphenated(expr)
	if !ok {
		return nil
	}
	return []Detail{{"hint", "'-' is subtraction in JMESPath; quote keys that contain '-': " + quoted}}
}

// quoteHyphenated returns expr with every unquoted hyphenated name (such as
// created-by or x-request-id) quoted, and whether there was one. Text inside
// quoted identifiers, raw strings and literals is left alone, as are
// variables ($name-x).
func quoteHyphenated(expr string) (string, bool) {
	masked := []byte(expr)
	var quote byte
	for i := 0; i < len(masked); i++ {
		c := masked[i]
		switch {
		case quote == 0 && (c == '"' || c == '\'' || c == '`'):
			quote = c
		case quote != 0 && c == '\\':
			masked[i] = ' '
			if i+1 < len(masked) {
				i++
				masked[i] = ' '
			}
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			masked[i] = ' '
		}
	}
	var b strings.Builder
	found, last := false, 0
	for i := 0; i < len(masked); {
		if !isIdentStart(masked[i]) || (i > 0 && (isIdentByte(masked[i-1]) || masked[i-1] == '$' || masked[i-1] == '"')) {
			i++
			continue
		}
		j := identEnd(masked, i)
		end, hyphens := j, 0
		for end+1 < len(masked) && masked[end] == '-' && isIdentStart(masked[end+1]) {
			end = identEnd(masked, end+1)
			hyphens++
		}
		if hyphens > 0 {
			found = true
			b.WriteString(expr[last:i])
			b.WriteString(`"` + expr[i:end] + `"`)
			last = end
		}
		i = end
	}
	b.WriteString(expr[last:])
	return b.String(), found
}

func identEnd(s []byte, i int) int {
	for i < len(s) && isIdentByte(s[i]) {
		i++
	}
	return i
}

func isIdentStart(c byte) bool { return c == '_' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') }

func isIdentByte(c byte) bool { return isIdentStart(c) || ('0' <= c && c <= '9') }

// composite reports whether v is a JSON object or array.
func composite(v any) bool {
	switch v.(type) {
	case map[string]any, []any:
		return true
	}
	return false
}
