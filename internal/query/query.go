// Package query evaluates JMESPath expressions (through
// jmespath-community/go-jmespath) on JSON-shaped data, with the data and the
// results normalized through encoding/json so numbers compare by value.
//
//	q, err := query.Compile("refund.amount")
//	got, err := q.Search(map[string]any{"refund": map[string]any{"amount": 42}})
//	// got is float64(42)
//
// Expressions compile once per process. The library panics on some input (a
// lexer bound bug on a U+0080 after an identifier); Compile and Search
// recover and return a *SyntaxError or an error instead.
package query

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"sync"

	"github.com/jmespath-community/go-jmespath"
)

// Query is a compiled JMESPath expression. It is safe for concurrent use.
type Query struct {
	expr string
	jp   jmespath.JMESPath
}

// SyntaxError reports an expression that does not compile.
type SyntaxError struct {
	// Expr is the expression as given.
	Expr string
	// Msg is the reason, as the library gives it.
	Msg string
	// Offset is the byte offset of the error in Expr, or -1 when unknown.
	Offset int
}

func (e *SyntaxError) Error() string {
	if e.Offset >= 0 {
		return fmt.Sprintf("invalid JMESPath %q: %s (at offset %d)", e.Expr, e.Msg, e.Offset)
	}
	return fmt.Sprintf("invalid JMESPath %q: %s", e.Expr, e.Msg)
}

var cache sync.Map // expression -> *Query

// Compile parses a JMESPath expression. A leading "$" is the root of the
// data, so "$.a" and "a" select the same value (the community library reads
// "$" natively; nothing is rewritten). Compiled queries are cached for the
// life of the process, keyed by the expression. An expression that does not
// compile, or makes the library panic, returns a *SyntaxError.
func Compile(expr string) (*Query, error) {
	if q, ok := cache.Load(expr); ok {
		return q.(*Query), nil
	}
	jp, err := compile(expr)
	if err != nil {
		return nil, err
	}
	q, _ := cache.LoadOrStore(expr, &Query{expr: expr, jp: jp})
	return q.(*Query), nil
}

func compile(expr string) (jp jmespath.JMESPath, err error) {
	defer func() {
		if r := recover(); r != nil {
			jp, err = nil, &SyntaxError{Expr: expr, Msg: fmt.Sprintf("the JMESPath parser crashed on it (%v); look for a character outside ASCII", r), Offset: -1}
		}
	}()
	if expr == "" {
		return nil, &SyntaxError{Expr: expr, Msg: "empty expression", Offset: -1}
	}
	jp, err = jmespath.Compile(expr)
	if err != nil {
		var se jmespath.SyntaxError
		if errors.As(err, &se) {
			return nil, &SyntaxError{Expr: expr, Msg: syntaxMsg(se), Offset: se.Offset}
		}
		return nil, &SyntaxError{Expr: expr, Msg: err.Error(), Offset: -1}
	}
	return jp, nil
}

// syntaxMsg is the library's message without its "SyntaxError: " prefix.
func syntaxMsg(se jmespath.SyntaxError) string {
	const prefix = "SyntaxError: "
	msg := se.Error()
	if len(msg) > len(prefix) && msg[:len(prefix)] == prefix {
		return msg[len(prefix):]
	}
	return msg
}

// String returns the expression as given.
func (q *Query) String() string { return q.expr }

// Search evaluates the query on data, which is first normalized (see
// Normalize), and returns the result normalized the same way: nil when the
// expression selects nothing. The error reports data JSON cannot hold, an
// evaluation error (a function applied to the wrong type, say) or a panic
// in the library.
func (q *Query) Search(data any) (result any, err error) {
	norm, err := Normalize(data)
	if err != nil {
		return nil, err
	}
	defer func() {
		if r := recover(); r != nil {
			result, err = nil, fmt.Errorf("evaluating %q failed inside the JMESPath library (%v)", q.expr, r)
		}
	}()
	out, err := q.jp.Search(norm)
	if err != nil {
		return nil, fmt.Errorf("evaluating %q: %w", q.expr, err)
	}
	return Normalize(out)
}

// Normalize maps a Go value to the shape encoding/json decodes JSON into:
// nil, bool, string, float64, []any and map[string]any. So 7, 7.0,
// json.Number("7"), int64(7) and json.Number("7e0") all become float64(7);
// structs, typed maps and slices become what they marshal to. It returns
// an error for values JSON cannot hold (NaN, channels, a json.Number that is
// not a number or is out of float64's range).
//
// Values already in that shape are walked without re-encoding; anything else
// makes an encoding/json round trip, so Normalize(v) is always what
// json.Unmarshal(json.Marshal(v)) gives.
func Normalize(v any) (any, error) {
	switch v := v.(type) {
	case nil, bool, string:
		return v, nil
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("%v is not a JSON number", v)
		}
		return v, nil
	case int:
		return float64(v), nil
	case int64:
		return float64(v), nil
	case int32:
		return float64(v), nil
	case json.Number:
		return number(v)
	case []any:
		if normal(v) {
			return v, nil
		}
		out := make([]any, len(v))
		for i, e := range v {
			n, err := Normalize(e)
			if err != nil {
				return nil, err
			}
			out[i] = n
		}
		return out, nil
	case map[string]any:
		if normal(v) {
			return v, nil
		}
		out := make(map[string]any, len(v))
		for k, e := range v {
			n, err := Normalize(e)
			if err != nil {
				return nil, err
			}
			out[k] = n
		}
		return out, nil
	}
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out any
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, err
	}
	return out, nil
}

func number(n json.Number) (float64, error) {
	s := string(n)
	if s == "" || (s[0] != '-' && (s[0] < '0' || s[0] > '9')) || !json.Valid([]byte(s)) {
		return 0, fmt.Errorf("%q is not a JSON number", s)
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, fmt.Errorf("%s is out of the range of a float64", s)
	}
	return f, nil
}

// normal reports whether v is already in Normalize's shape, so it can be
// used as is, without a copy.
func normal(v any) bool {
	switch v := v.(type) {
	case nil, bool, string:
		return true
	case float64:
		return !math.IsNaN(v) && !math.IsInf(v, 0)
	case []any:
		for _, e := range v {
			if !normal(e) {
				return false
			}
		}
		return true
	case map[string]any:
		for _, e := range v {
			if !normal(e) {
				return false
			}
		}
		return true
	}
	return false
}
