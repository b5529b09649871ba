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
// recover and return a *SyntaxError or an error instead. Input it would
// overflow the stack on (a fatal error, not a panic) never reaches it:
// Compile refuses expressions beyond MaxExprLen, MaxNesting and
// MaxOperators first.
//
// Compile also refuses two expressions that would silently mean something
// other than what their author wrote: tags.created-by (JMESPath reads a '-'
// between identifiers as a subtraction, whose result is null) and a
// `literal` holding an integer beyond 2^53 − 1, which float64 comparisons
// cannot tell from its neighbours.
//
// An evaluation may not build more than MaxBuiltBytes: a function asked
// for more (pad_right(s, `1099511627776`), a replace or split that would
// grow past it) returns a *LimitError before it builds anything, and a
// literal width past it is refused by Compile. Nor may it take more than
// MaxSteps steps, or yield a result of more than MaxResultValues values
// (or MaxResultBytes of strings) counted as a tree: "@ | [@, @]" repeated
// doubles its result at each step. Those are *LimitErrors too.
package query

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"sync"
	"sync/atomic"

	jpfunctions "github.com/jmespath-community/go-jmespath/pkg/functions"
	"github.com/jmespath-community/go-jmespath/pkg/interpreter"
	"github.com/jmespath-community/go-jmespath/pkg/parsing"

	"github.com/evalkit-go/evalkit/internal/textnorm"
)

// Query is a compiled JMESPath expression. It is safe for concurrent use.
type Query struct {
	expr string
	node parsing.ASTNode
}

// functions is the library's function table, built once: jmespath.Compile
// builds one per expression (about 7 KB and 30 µs each), and the table is
// only ever read.
var functions = interpreter.NewFunctionCaller(jpfunctions.GetDefaultFunctions()...)

// SyntaxError reports an expression that does not compile.
type SyntaxError struct {
	// Expr is the expression as given.
	Expr string
	// Msg is the reason: the library's, or the limit or mistake Compile
	// refuses before parsing.
	Msg string
	// Offset is the byte offset of the error in Expr, or -1 when unknown.
	Offset int
}

// Error quotes at most the first 200 bytes of the expression.
func (e *SyntaxError) Error() string {
	expr := textnorm.Quote(e.Expr, maxQuoted)
	if e.Offset >= 0 {
		return fmt.Sprintf("invalid JMESPath %s: %s (at offset %d)", expr, e.Msg, e.Offset)
	}
	return fmt.Sprintf("invalid JMESPath %s: %s", expr, e.Msg)
}

// The cache of compiled queries holds at most maxCached of them; past that,
// queries are compiled and not kept, so a check with a hundred thousand
// distinct fields cannot pin their memory for the life of the process.
var (
	cache    sync.Map // expression -> *Query
	cacheLen atomic.Int64
)

const maxCached = 10_000

// Compile parses a JMESPath expression. A leading "$" is the root of the
// data, so "$.a" and "a" select the same value (the community library reads
// "$" natively; nothing is rewritten). Compiled queries are cached for the
// life of the process (the first 10,000), keyed by the expression. An expression that does not
// compile, or makes the library panic, returns a *SyntaxError; so does one
// beyond the limits (MaxExprLen, MaxNesting, MaxOperators), one with an
// unquoted identifier joined to another by '-' with no spaces
// (tags.created-by: quote the key, tags."created-by", or write a - b to
// subtract), and one with a `literal` holding a number of magnitude 2^53 or
// more.
func Compile(expr string) (*Query, error) {
	if q, ok := cache.Load(expr); ok {
		return q.(*Query), nil
	}
	node, err := compile(expr)
	if err != nil {
		return nil, err
	}
	q := &Query{expr: expr, node: node}
	if cacheLen.Load() >= maxCached {
		return q, nil
	}
	actual, loaded := cache.LoadOrStore(expr, q)
	if !loaded {
		cacheLen.Add(1)
	}
	return actual.(*Query), nil
}

func compile(expr string) (node parsing.ASTNode, err error) {
	defer func() {
		if r := recover(); r != nil {
			node, err = parsing.ASTNode{}, &SyntaxError{Expr: expr, Msg: fmt.Sprintf("the JMESPath parser crashed on it (%v); look for a character outside ASCII", r), Offset: -1}
		}
	}()
	if expr == "" {
		return parsing.ASTNode{}, &SyntaxError{Expr: expr, Msg: "empty expression", Offset: -1}
	}
	if se := guard(expr); se != nil {
		return parsing.ASTNode{}, se
	}
	node, err = parsing.NewParser().Parse(expr)
	if err != nil {
		var se parsing.SyntaxError
		if errors.As(err, &se) {
			return parsing.ASTNode{}, &SyntaxError{Expr: expr, Msg: syntaxMsg(se), Offset: se.Offset}
		}
		return parsing.ASTNode{}, &SyntaxError{Expr: expr, Msg: err.Error(), Offset: -1}
	}
	if se := checkWidths(expr, node); se != nil {
		return parsing.ASTNode{}, se
	}
	return instrument(node), nil
}

// syntaxMsg is the library's message without its "SyntaxError: " prefix.
func syntaxMsg(se parsing.SyntaxError) string {
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
// evaluation error (a function applied to the wrong type, say), a panic
// in the library, or, as a *LimitError, an evaluation over a budget
// (MaxBuiltBytes, MaxSteps, MaxResultValues, MaxResultBytes); its
// message is bounded.
func (q *Query) Search(data any) (any, error) {
	norm, err := Normalize(data)
	if err != nil {
		return nil, err
	}
	return q.SearchDecoded(norm)
}

// SearchDecoded is Search for data already in Normalize's shape, such as
// what json.Unmarshal decodes into an any: it skips the walk over data
// that Search makes to check it, which costs as much as the data is large on
// every call. Data in another shape (Go ints, json.Number, structs) gives
// results that are unspecified, but no panic. The data is only read, never
// written (the library's sort_by, which sorts its array in place, is given
// a copy), so many queries, concurrent ones included, may share it; the
// result may share parts of it, and must not be written either.
func (q *Query) SearchDecoded(data any) (result any, err error) {
	defer func() {
		if r := recover(); r != nil {
			result, err = nil, &evalError{expr: q.expr, err: fmt.Errorf("failed inside the JMESPath library (%v)", r)}
		}
	}()
	b := newBudget(q.expr)
	out, err := interpreter.NewInterpreter(data, b, nil).Execute(q.node, data)
	if b.err != nil {
		return nil, b.err // whatever the library made of it
	}
	if err != nil {
		return nil, &evalError{expr: q.expr, err: err}
	}
	if err := checkResult(q.expr, out); err != nil {
		return nil, err
	}
	return Normalize(out)
}

// evalError is an evaluation error of an expression. Its message is
// bounded: the library's messages can print the data they were given.
type evalError struct {
	expr string
	err  error
}

func (e *evalError) Error() string {
	return fmt.Sprintf("evaluating %s: %s", textnorm.Quote(e.expr, maxQuoted), textnorm.Excerpt(e.err.Error(), maxEvalMsg))
}

func (e *evalError) Unwrap() error { return e.err }

// maxEvalMsg bounds the library's message in an evaluation error, in bytes.
const maxEvalMsg = 300

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
//
// A value holding more than MaxResultValues values or MaxResultBytes of
// JSON counted as a tree (a Go value may share its parts: an expected value
// built by reusing one subtree thirty levels deep is a billion values once
// walked), or nested deeper than MaxDepth, is an error too: see CheckSize.
func Normalize(v any) (any, error) {
	if err := CheckSize(v, maxResultValues, MaxResultBytes); err != nil {
		return nil, err
	}
	return normalize(v)
}

func normalize(v any) (any, error) {
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
			n, err := normalize(e)
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
			n, err := normalize(e)
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
