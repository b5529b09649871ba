package assert

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/google/go-cmp/cmp"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/internal/query"
	"github.com/evalkit-go/evalkit/internal/textnorm"
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
// equal; the string "1" is not the number 1. JMESPath compares numbers as
// float64, exact for integers up to 2^53 − 1 (9007199254740991) and no
// further: 9007199254740993 in the output reads as 9007199254740992. So an
// Expected, Contains item, Min or Max of magnitude 2^53 or more is an error
// (a *ParamError naming it), as is such a number in a `literal` of the
// expression, rather than a comparison that could pass on a different
// number; compare large identifiers with JSONSchema's "const", which keeps
// numbers exact, or have the output write them as strings. A leading "$" is
// the root ("$.a" and "a" are the same). Keys holding '-' or '.' must be
// quoted: tags."created-by". Unquoted, JMESPath reads tags.created-by as
// tags.created minus by, which is null, so an identifier joined to another
// by '-' with no space is an error (write a - b to subtract).
//
// An expression that does not compile is an error (a *ParamError on
// "expression"), as is one longer than 8 KiB, nested more than 256 brackets
// deep or holding more than 1024 operators (the limits of
// internal/query, which keep the JMESPath library's recursion far from
// overflowing the stack), and so is one asking its functions to build more
// than 64 MiB in one evaluation (pad_right(s, `1099511627776`), a replace
// or split that would grow past it), taking more than 2^22 steps, or
// yielding a result of more than 2^22 values counted as a tree ("@ | [@,
// @]" repeated doubles it each time): refused when it compiles for a
// literal width, else when it runs, whatever the output. An expression
// that fails on this output (a function given the wrong type) fails.
// Output that is not JSON fails. The score is the fraction of constraints
// met (with Session scope, the mean over messages).
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
		norm, err := query.Normalize(contains)
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
	if err := exactNumbers("json_path", "expected", c.Expected, want); err != nil {
		return nil, nil, nil, err
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
		if err := exactNumbers("json_path", "contains", c.Contains, contains); err != nil {
			return nil, nil, nil, err
		}
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
		if b.f != nil {
			if err := exactNumbers("json_path", b.name, *b.f, *b.f); err != nil {
				return nil, nil, nil, err
			}
		}
	}
	if c.Min != nil && c.Max != nil && *c.Min > *c.Max {
		return nil, nil, nil, paramErr("json_path", "max", "%v is below min %v", *c.Max, *c.Min)
	}
	return q, want, contains, nil
}

// exactNumbers refuses a parameter holding a number JMESPath's float64
// comparisons cannot tell from its neighbours (magnitude 2^53 or more). It
// names the number as given when it can (raw), else as normalized (norm).
func exactNumbers(check, param string, raw, norm any) error {
	n, ok := query.UnsafeNumber(raw)
	if !ok {
		if n, ok = query.UnsafeNumber(norm); !ok {
			return nil
		}
	}
	return paramErr(check, param, "%s is beyond ±(2^53 − 1): JMESPath compares numbers as float64, "+
		"so it would also match its neighbours (9007199254740993 reads as 9007199254740992); "+
		"check it with json_schema's \"const\", which compares numbers exactly, or have the output write it as a string",
		excerpt(n))
}

// Check implements Check.
func (c JSONPath) Check(_ context.Context, tr *evalkit.Transcript) (Result, error) {
	q, want, contains, err := c.prepare()
	if err != nil {
		return Result{}, err
	}
	return eachPlainJSON("json_path", tr, c.Scope, jsonMode(c.AllowWrapped, c.ExtractJSON), "pass",
		func(_ output, p *parsed) (Result, error) {
			data, err := p.Plain()
			if err != nil {
				return Result{}, err
			}
			got, err := q.SearchDecoded(data)
			if err != nil {
				if le := overLimit(err); le != nil {
					return Result{}, paramErr("json_path", "expression", "%v", le)
				}
				return fail(0, "the expression failed on this output: "+err.Error()), nil
			}
			res := c.judge(got, want, contains)
			if got == nil && !res.Passed {
				if path, ok := missingPath(c.Expression, data); ok {
					// JMESPath reads a missing field as null: say which it was.
					res.Summary = strings.ReplaceAll(res.Summary, "got null", "no value at "+path)
					if strings.HasSuffix(res.Summary, " selected nothing (null)") {
						res.Summary = "no value at " + path
					}
				}
			}
			return res, nil
		})
}

// fieldOnlyPath is an expression that only names fields and indexes:
// refund.amount, items[0].sku, "order-id".total.
var fieldOnlyPath = regexp.MustCompile(`^(?:[A-Za-z_][A-Za-z0-9_]*|"[^"\\]*")(?:\.(?:[A-Za-z_][A-Za-z0-9_]*|"[^"\\]*")|\[-?\d+\])*$`)

var fieldStep = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*|"[^"\\]*"|\[-?\d+\]`)

// missingPath reports, for an expression that only names fields and
// indexes, the path up to the first step data does not have (a field
// absent, an index out of range, a step into a value that is not an
// object or array): JMESPath reads those as null, as it reads a null.
func missingPath(expr string, data any) (string, bool) {
	expr = strings.TrimPrefix(strings.TrimPrefix(strings.TrimSpace(expr), "$"), ".")
	if !fieldOnlyPath.MatchString(expr) {
		return "", false
	}
	cur := data
	var walked strings.Builder
	for _, step := range fieldStep.FindAllString(expr, -1) {
		if strings.HasPrefix(step, "[") {
			walked.WriteString(step)
			i, _ := strconv.Atoi(step[1 : len(step)-1])
			arr, isArr := cur.([]any)
			if i < 0 && isArr {
				i += len(arr)
			}
			if !isArr || i < 0 || i >= len(arr) {
				return walked.String(), true
			}
			cur = arr[i]
			continue
		}
		if walked.Len() > 0 {
			walked.WriteString(".")
		}
		walked.WriteString(step)
		obj, isObj := cur.(map[string]any)
		v, present := obj[strings.Trim(step, `"`)]
		if !isObj || !present {
			return walked.String(), true
		}
		cur = v
	}
	return "", false // the path is there, and holds null
}

// judge checks a result against every constraint.
func (c JSONPath) judge(got, want any, contains []any) Result {
	var fails []string
	met, total := 0, 0
	diff := ""
	// why is rendered only for a constraint that fails: quoting the
	// values costs more than the check on a passing one.
	check := func(ok bool, why func() string) {
		total++
		if ok {
			met++
		} else {
			fails = append(fails, why())
		}
	}
	if c.Expected != nil || c.ExpectNull {
		ok := jsonEqual(want, got)
		check(ok, func() string {
			return fmt.Sprintf("got %s, want %s", jsonValue(got, maxQuote), jsonValue(want, maxQuote))
		})
		if !ok && (composite(want) || composite(got)) { // a scalar's diff only repeats the summary
			diff = boundDiff(showDiff(want, got))
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
			check(false, func() string {
				return fmt.Sprintf("got %s, want an array containing %s", jsonValue(got, maxQuote), boundedList(missing))
			})
		default:
			check(len(missing) == 0, func() string { return fmt.Sprintf("missing %s in %s", boundedList(missing), jsonValue(got, maxQuote)) })
		}
	}
	if c.MinResults != nil || c.MaxResults != nil {
		bounds := rangeText(c.MinResults, c.MaxResults)
		if !isArr {
			check(false, func() string {
				return fmt.Sprintf("got %s, want an array with %s items", jsonValue(got, maxQuote), bounds)
			})
		} else {
			n := len(arr)
			check((c.MinResults == nil || n >= *c.MinResults) && (c.MaxResults == nil || n <= *c.MaxResults),
				func() string { return fmt.Sprintf("got %d results, want %s", n, bounds) })
		}
	}
	if c.Min != nil || c.Max != nil {
		bounds := rangeText(c.Min, c.Max)
		f, isNum := got.(float64)
		if !isNum {
			check(false, func() string { return fmt.Sprintf("got %s, want a number %s", jsonValue(got, maxQuote), bounds) })
		} else {
			check((c.Min == nil || f >= *c.Min) && (c.Max == nil || f <= *c.Max),
				func() string { return fmt.Sprintf("got %s, want %s", jsonValue(got, maxQuote), bounds) })
		}
	}
	if total == 0 {
		check(got != nil, func() string { return textnorm.Excerpt(c.Expression, maxQuote) + " selected nothing (null)" })
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
	return res
}

func hasItem(arr []any, item any) bool {
	for _, a := range arr {
		if jsonEqual(item, a) {
			return true
		}
	}
	return false
}

// jsonEqual reports whether two values in query.Normalize's shape are
// equal, as cmp.Equal does: a scalar want is compared with ==, without
// go-cmp's reflection, and objects and arrays with cmp.Equal.
func jsonEqual(want, got any) bool {
	switch want.(type) {
	case nil, bool, float64, string:
		return want == got // a scalar's dynamic type is comparable, so this never panics
	}
	return cmp.Equal(want, got)
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

// overLimit returns the *query.LimitError in err, or nil: an expression
// asking for more than one evaluation may build or do is the expression's
// fault, an error on its parameter, never a result.
func overLimit(err error) *query.LimitError {
	var le *query.LimitError
	if errors.As(err, &le) {
		return le
	}
	return nil
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
// null counts as absent, since JMESPath cannot tell null from missing. A
// bare key name that JMESPath would not read as one key ("x-request-id",
// "order id": no dots, brackets or operators) is taken as that key.
// Score is the fraction of fields present (with Session scope, the mean
// over messages). Output that is not JSON fails; a field that is not a valid
// path (tags.created-by included: quote keys holding '-' in a path, see
// JSONPath), a field over one of JSONPath's limits, an
// empty field or an empty list is an error (a *ParamError on "fields").
// A failure lists the first ten missing fields and counts the rest.
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
		q, err := query.Compile(fieldPath(f))
		if err != nil {
			return nil, paramErr("field_presence", "fields", "item %d, %s: %v", i, excerpt(f), err)
		}
		qs[i] = q
	}
	return qs, nil
}

// fieldPath reads a field as a JMESPath path, except a bare key name that is
// not a JMESPath identifier ("x-request-id", "order id", as PromptKit
// configs write field names): that is one key, and is quoted.
func fieldPath(f string) string {
	if strings.ContainsAny(f, ".[]{}()'\"`|&!*?=<>@$,:") {
		return f
	}
	for i, r := range f {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			quoted, _ := json.Marshal(f)
			return string(quoted)
		}
	}
	return f
}

// Check implements Check.
func (c FieldPresence) Check(_ context.Context, tr *evalkit.Transcript) (Result, error) {
	qs, err := c.queries()
	if err != nil {
		return Result{}, err
	}
	return eachPlainJSON("field_presence", tr, c.Scope, jsonMode(c.AllowWrapped, c.ExtractJSON), "have every field",
		func(_ output, p *parsed) (Result, error) {
			data, err := p.Plain()
			if err != nil {
				return Result{}, err
			}
			var missing []string
			for i, q := range qs {
				got, err := q.SearchDecoded(data)
				if le := overLimit(err); le != nil {
					return Result{}, paramErr("field_presence", "fields", "item %d, %s: %v", i, excerpt(c.Fields[i]), le)
				}
				if err == nil && got != nil {
					continue
				}
				missing = append(missing, excerpt(c.Fields[i]))
			}
			score := ratio(len(qs)-len(missing), len(qs))
			if len(missing) == 0 {
				return pass(score, fmt.Sprintf("all %d fields present", len(qs))), nil
			}
			return fail(score, "missing "+boundedList(missing)), nil
		})
}

// composite reports whether v is a JSON object or array.
func composite(v any) bool {
	switch v.(type) {
	case map[string]any, []any:
		return true
	}
	return false
}
