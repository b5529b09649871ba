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
	// path is the expression's steps when it is only fields and indexes
	// ("a.b[0].c"), which SearchDecoded walks without the interpreter;
	// nil otherwise.
	path []pathStep
	// nodes is the number of nodes of the expression's tree, for the
	// step budget (see walkPath).
	nodes int
}

// pathStep is one field name or array index of a simple path.
type pathStep struct {
	key     string
	index   int
	isIndex bool
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
	node, path, nodes, err := compile(expr)
	if err != nil {
		return nil, err
	}
	q := &Query{expr: expr, node: node, path: path, nodes: nodes}
	if cacheLen.Load() >= maxCached {
		return q, nil
	}
	actual, loaded := cache.LoadOrStore(expr, q)
	if !loaded {
		cacheLen.Add(1)
	}
	return actual.(*Query), nil
}

func compile(expr string) (instrumented parsing.ASTNode, path []pathStep, nodes int, err error) {
	node, err := compileNode(expr)
	if err != nil {
		return parsing.ASTNode{}, nil, 0, err
	}
	if path, nodes, ok := simplePath(node, nil, 0); ok {
		return instrument(node), path, nodes, nil
	}
	return instrument(node), nil, 0, nil
}

// simplePath flattens a tree of only fields, indexes, subexpressions
// and index expressions into its steps, in the order they apply: the
// interpreter evaluates a.b as b of a, and yields null from the first
// step that finds nothing, as walking the steps does.
func simplePath(n parsing.ASTNode, path []pathStep, nodes int) ([]pathStep, int, bool) {
	nodes++
	switch n.NodeType {
	case parsing.ASTField:
		key, ok := n.Value.(string)
		return append(path, pathStep{key: key}), nodes, ok && len(n.Children) == 0
	case parsing.ASTIndex:
		i, ok := n.Value.(int)
		return append(path, pathStep{index: i, isIndex: true}), nodes, ok && len(n.Children) == 0
	case parsing.ASTSubexpression, parsing.ASTIndexExpression:
		if len(n.Children) != 2 {
			return nil, 0, false
		}
		var ok bool
		for _, c := range n.Children {
			if path, nodes, ok = simplePath(c, path, nodes); !ok {
				return nil, 0, false
			}
		}
		return path, nodes, true
	}
	return nil, 0, false
}

// walkPath evaluates a simple path on data in Normalize's shape as the
// interpreter does: a field of an object is its value (null when
// missing), an index of an array counts from the end when negative, and
// anything else is null. ok is false when the step budget could run out
// on this data: the interpreter charges each node 1 plus the width of
// what it yields, and walkPath answers only when nodes × (1 + the widest
// value yielded) is within the budget, so the interpreter could not have
// failed.
func (q *Query) walkPath(data any) (v any, ok bool) {
	v = data
	widest := 0
	for _, s := range q.path {
		switch x := v.(type) {
		case map[string]any:
			if s.isIndex {
				return nil, true
			}
			v = x[s.key]
		case []any:
			if !s.isIndex {
				return nil, true
			}
			i := s.index
			if i < 0 {
				i += len(x)
			}
			if i < 0 || i >= len(x) {
				return nil, true
			}
			v = x[i]
		default:
			return nil, true
		}
		if v == nil {
			return nil, true
		}
		widest = max(widest, width(v))
	}
	return v, q.nodes*(1+widest) <= maxSteps
}

func compileNode(expr string) (node parsing.ASTNode, err error) {
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
	return node, nil
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
	if q.path != nil {
		if out, ok := q.walkPath(data); ok {
			if err := checkResult(q.expr, out); err != nil {
				return nil, err
			}
			return Normalize(out)
		}
	}
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
