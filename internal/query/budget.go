package query

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/jmespath-community/go-jmespath/pkg/parsing"

	"github.com/evalkit-go/evalkit/internal/textnorm"
)

// Budgets of one evaluation. The library builds whatever an expression
// asks for: pad_right(s, `1099511627776`) asks strings.Repeat for a
// terabyte, an out-of-memory crash that no recover catches. Every function
// call goes through a caller that refuses, before the library runs it, to
// build more than the bytes left.
//
// Nor may one evaluation do unbounded work. "@ | [@, @]" repeated 28 times
// is 253 bytes and builds, in 84 steps, an array that shares its halves
// but holds 2^28 values once walked; a projection or flatten over it, or
// any walk of the result, then runs for hours. Compile wraps the nodes of
// the expression (all but leaves whose parent does constant work with
// them) in a call to a step function the user cannot name, so each
// evaluation of a node costs a step plus the width of the value it yields (an array's or object's length, a string's bytes/64), and an
// operand of == or != its whole size as a tree; past MaxSteps the
// evaluation stops. The result is then walked as a tree once, stopping
// past MaxResultValues values or MaxResultBytes bytes of strings, before
// anything else (Normalize, a comparison, a message) walks it.
const (
	// MaxSteps bounds the work of one evaluation: 2^22 steps, about a
	// second in the library's interpreter.
	MaxSteps = 1 << 22
	// MaxResultValues bounds the values in a result, counted as a tree
	// (an array holding the same array twice counts its values twice):
	// 2^22.
	MaxResultValues = 1 << 22
	// MaxResultBytes bounds the bytes of the strings in a result, counted
	// as a tree: 256 MiB.
	MaxResultBytes = 256 << 20
	// MaxBuiltBytes bounds the bytes of the strings functions build in one
	// evaluation (pad_left, pad_right, replace, join, to_string, upper,
	// lower, reverse), all calls together, and of the arrays split builds
	// (32 bytes a piece): 64 MiB.
	MaxBuiltBytes = 64 << 20
)

// maxSteps and maxResultValues are the budgets in force: MaxSteps and
// MaxResultValues, lowered by tests that would otherwise spend seconds
// reaching them.
var maxSteps, maxResultValues = MaxSteps, MaxResultValues

// LimitError reports an evaluation stopped at one of the budgets: the
// expression asks for more than an evaluation may build or do. It is the
// expression's fault, whatever the data: callers report it as a bad
// expression, not as a result.
type LimitError struct {
	// Expr is the expression as given.
	Expr string
	// Msg says which budget and by how much.
	Msg string
}

// Error quotes at most the first 200 bytes of the expression.
func (e *LimitError) Error() string {
	return fmt.Sprintf("JMESPath %s is over a limit: %s", textnorm.Quote(e.Expr, maxQuoted), e.Msg)
}

// budget is the function caller of one evaluation: the step functions,
// and the library's functions behind checks of what each call would
// build. Once a budget is spent,
// every later call fails with the same error, so an error the library
// swallows (it drops some, as in a flatten's left side) still stops the
// evaluation; Search returns it whatever the library returned.
type budget struct {
	expr  string
	steps int // steps left
	bytes int // bytes functions may still build
	err   *LimitError
}

func newBudget(expr string) *budget {
	return &budget{expr: expr, steps: maxSteps, bytes: MaxBuiltBytes}
}

// The names of the step functions Compile wraps nodes in. The lexer
// never yields a name holding a NUL, so no expression can call them.
const (
	stepName = "\x00step" // a step plus the width of the value
	deepName = "\x00deep" // a step plus the size of the value as a tree
)

// charge spends n steps.
func (b *budget) charge(n int) error {
	if b.steps -= n; b.steps < 0 {
		return b.fail("the evaluation takes more than %d steps (a step is one node evaluated, or one value it yields): "+
			"it does too much work on this data, or doubles what it builds (\"[@, @]\" repeated)", maxSteps)
	}
	return nil
}

func (b *budget) fail(format string, args ...any) error {
	b.err = &LimitError{Expr: b.expr, Msg: fmt.Sprintf(format, args...)}
	return b.err
}

// CallFunction implements the library's FunctionCaller.
func (b *budget) CallFunction(name string, args []any) (any, error) {
	if b.err != nil {
		return nil, b.err
	}
	switch name {
	case stepName:
		if err := b.charge(1 + width(args[0])); err != nil {
			return nil, err
		}
		return args[0], nil
	case deepName:
		if err := b.charge(1 + treeSize(args[0], b.steps, 64)); err != nil {
			return nil, err
		}
		return args[0], nil
	}
	if name == "sort_by" && len(args) > 0 {
		// The library sorts sort_by's array in place: the data's own
		// array, which checks share (see SearchDecoded). Sort a copy.
		if arr, ok := args[0].([]any); ok {
			args[0] = slices.Clone(arr)
		}
	}
	n, sized := buildSize(name, args, b.bytes)
	if sized && n > b.bytes {
		return nil, b.fail("%s would build %s bytes; one evaluation may build at most %d (%d left)",
			name, sizeText(n), MaxBuiltBytes, b.bytes)
	}
	out, err := functions.CallFunction(name, args)
	if err != nil {
		return nil, err
	}
	if s, ok := out.(string); ok && builds[name] {
		n, sized = len(s), true // the exact size
	}
	if sized {
		if b.bytes -= n; b.bytes < 0 {
			return nil, b.fail("%s built %d bytes, past the %d bytes one evaluation may build", name, n, MaxBuiltBytes)
		}
	}
	return out, nil
}

// builds names the functions whose string result is new memory, charged to
// the byte budget.
var builds = map[string]bool{
	"pad_left": true, "pad_right": true, "replace": true, "join": true,
	"to_string": true, "upper": true, "lower": true, "reverse": true,
}

// pieceBytes is what split charges per piece: the string and the
// interface holding it.
const pieceBytes = 32

// buildSize returns the bytes a call to a function whose output size an
// argument drives (pad_left, pad_right, replace, join, split, to_string)
// would build, when the arguments have the types the
// function takes (else the library reports them), without building it.
// The sizes saturate at maxSize; to_string's stops past limit.
func buildSize(name string, args []any, limit int) (int, bool) {
	str := func(i int) (string, bool) {
		if i >= len(args) {
			return "", false
		}
		s, ok := args[i].(string)
		return s, ok
	}
	switch name {
	case "pad_left", "pad_right":
		s, ok := str(0)
		w, isNum := argNum(args, 1)
		if !ok || !isNum {
			return 0, false
		}
		pad := 1
		if p, ok := str(2); ok {
			pad = len(p)
		}
		if w <= float64(len(s)) || pad == 0 {
			return len(s), true
		}
		return satAdd(len(s), satMul(pad, saturate(w-float64(len(s))))), true
	case "replace":
		s, ok1 := str(0)
		old, ok2 := str(1)
		repl, ok3 := str(2)
		if !ok1 || !ok2 || !ok3 || len(repl) <= len(old) {
			return 0, false // the result is no longer than the subject
		}
		n := strings.Count(s, old)
		if c, ok := argNum(args, 3); ok && c >= 0 && c < float64(n) {
			n = int(c)
		}
		return satAdd(len(s), satMul(n, len(repl)-len(old))), true
	case "join":
		sep, ok := str(0)
		list, isList := arg(args, 1).([]any)
		if !ok || !isList {
			return 0, false
		}
		n := satMul(len(sep), max(len(list)-1, 0))
		for _, e := range list {
			s, ok := e.(string)
			if !ok {
				return 0, false
			}
			n = satAdd(n, len(s))
		}
		return n, true
	case "split":
		s, ok1 := str(0)
		sep, ok2 := str(1)
		if !ok1 || !ok2 {
			return 0, false
		}
		n := 0
		switch {
		case s == "":
		case sep == "":
			n = utf8.RuneCountInString(s)
		default:
			n = strings.Count(s, sep) + 1
		}
		if c, ok := argNum(args, 2); ok && c >= 0 && c+1 < float64(n) {
			n = int(c) + 1
		}
		return satMul(n, pieceBytes), true
	case "to_string":
		if len(args) != 1 {
			return 0, false
		}
		if _, ok := args[0].(string); ok {
			return 0, true
		}
		return jsonSize(args[0], limit), true
	}
	return 0, false
}

// jsonSize returns about the bytes encoding/json writes for v, counting an
// array or object that appears twice twice, and stopping once past limit:
// the walk is bounded however much v repeats itself.
func jsonSize(v any, limit int) int {
	n := 0
	var walk func(v any)
	walk = func(v any) {
		if n > limit {
			return
		}
		switch v := v.(type) {
		case string:
			n += 2 + len(v) + 5*strings.Count(v, `"`) // escapes grow a byte to up to six
			for _, r := range v {
				if r < 0x20 || r == '<' || r == '>' || r == '&' || r == utf8.RuneError {
					n += 5
				}
			}
		case []any:
			n += 2 + len(v)
			for _, e := range v {
				walk(e)
			}
		case map[string]any:
			n += 2 + 2*len(v)
			for k, e := range v {
				walk(k)
				walk(e)
			}
		default:
			n += 24 // a number, true, false or null
		}
	}
	walk(v)
	return min(n, maxSize)
}

func arg(args []any, i int) any {
	if i < len(args) {
		return args[i]
	}
	return nil
}

func argNum(args []any, i int) (float64, bool) {
	f, ok := arg(args, i).(float64)
	return f, ok
}

// maxSize is where sizes saturate: far past every budget, far below
// overflow.
const maxSize = 1 << 50

func saturate(f float64) int {
	if f != f || f > maxSize { // NaN or huge
		return maxSize
	}
	return int(f)
}

func satAdd(a, b int) int { return min(a+b, maxSize) }

func satMul(a, b int) int {
	if a != 0 && b > maxSize/a {
		return maxSize
	}
	return min(a*b, maxSize)
}

// sizeText writes a size for a message: "1099511627776", or "more than
// 2^50" when it saturated.
func sizeText(n int) string {
	if n >= maxSize {
		return "more than 2^50"
	}
	return fmt.Sprint(n)
}

// checkWidths refuses a pad_left or pad_right whose width is a literal
// past MaxBuiltBytes: the call could never run, so the expression is wrong
// before any data is read.
func checkWidths(expr string, n parsing.ASTNode) *SyntaxError {
	if n.NodeType == parsing.ASTFunctionExpression && len(n.Children) >= 2 {
		if name, _ := n.Value.(string); name == "pad_left" || name == "pad_right" {
			w := n.Children[1]
			if f, ok := w.Value.(float64); ok && w.NodeType == parsing.ASTLiteral && f > MaxBuiltBytes {
				return &SyntaxError{Expr: expr, Offset: -1, Msg: fmt.Sprintf(
					"%s's width %v is past the %d bytes one evaluation may build", name, w.Value, MaxBuiltBytes)}
			}
		}
	}
	for _, c := range n.Children {
		if se := checkWidths(expr, c); se != nil {
			return se
		}
	}
	return nil
}

// width is what a value a node yields costs beyond its step: the length of
// an array or object, a string's bytes/64.
func width(v any) int {
	switch v := v.(type) {
	case string:
		return len(v) / 64
	case []any:
		return len(v)
	case map[string]any:
		return len(v)
	}
	return 0
}

// treeSize counts the values in v as a tree (a value reached twice counts
// twice), each string also costing its bytes/per, and stops once past
// limit: the walk is bounded however much v shares.
func treeSize(v any, limit, per int) int {
	n := 0
	var walk func(v any)
	walk = func(v any) {
		if n > limit {
			return
		}
		n++
		switch v := v.(type) {
		case string:
			n += len(v) / per
		case []any:
			for _, e := range v {
				walk(e)
			}
		case map[string]any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	walk(v)
	return n
}

// checkResult walks a result as a tree, once, bounded: past
// MaxResultValues values or MaxResultBytes bytes of strings it is an
// error, so nothing after (Normalize, a comparison, a message) walks a
// result that shares its parts into an exponential tree.
func checkResult(expr string, v any) error {
	values, bytes := 0, 0
	var walk func(v any) bool
	walk = func(v any) bool {
		if values++; values > maxResultValues {
			return false
		}
		switch v := v.(type) {
		case string:
			if bytes += len(v); bytes > MaxResultBytes {
				return false
			}
		case []any:
			for _, e := range v {
				if !walk(e) {
					return false
				}
			}
		case map[string]any:
			for _, e := range v {
				if !walk(e) {
					return false
				}
			}
		}
		return true
	}
	if walk(v) {
		return nil
	}
	what := fmt.Sprintf("more than %d values", maxResultValues)
	if values <= maxResultValues {
		what = fmt.Sprintf("more than %d bytes of strings", MaxResultBytes)
	}
	return &LimitError{Expr: expr, Msg: "the result holds " + what +
		", counted as a tree (a value the result holds twice counts twice)"}
}

// instrument returns n with every node that yields a value wrapped in a
// call to a step function, so each evaluation of it is charged. Nodes
// whose parent reads their type or value, not only what they yield, stay
// as they are: a projection's left side (string slicing checks its
// shape), a slice, an expression reference (its body is wrapped), the
// key-value pairs of a hash and the bindings of a let.
func instrument(n parsing.ASTNode) parsing.ASTNode {
	return wrap(inner(n), stepName)
}

func wrap(n parsing.ASTNode, name string) parsing.ASTNode {
	switch n.NodeType {
	case parsing.ASTSlice, parsing.ASTExpRef, parsing.ASTKeyValPair, parsing.ASTBinding, parsing.ASTBindings:
		return n
	}
	return parsing.ASTNode{NodeType: parsing.ASTFunctionExpression, Value: name, Children: []parsing.ASTNode{n}}
}

// inner returns n with its children instrumented.
func inner(n parsing.ASTNode) parsing.ASTNode {
	if len(n.Children) == 0 {
		return n
	}
	kids := make([]parsing.ASTNode, len(n.Children))
	for i, c := range n.Children {
		switch {
		case n.NodeType == parsing.ASTProjection && i == 0:
			kids[i] = inner(c)
		case n.NodeType == parsing.ASTBinding && i == 0: // the variable
			kids[i] = c
		case n.NodeType == parsing.ASTComparator && (n.Value == parsing.TOKEQ || n.Value == parsing.TOKNE):
			kids[i] = wrap(inner(c), deepName) // comparing walks both values whole
		case len(c.Children) == 0 && !widthMatters(n, i):
			kids[i] = c // a field, literal, variable, @ or index: constant work
		default:
			kids[i] = instrument(c)
		}
	}
	n.Children = kids
	return n
}

// widthMatters reports whether the parent n does work in proportion to the
// width of what its child i yields, or evaluates it once per element: then
// even a leaf child is wrapped. Elsewhere a leaf costs constant work, and
// a wide value it yields reaches such a parent only through a wrapped
// node.
func widthMatters(n parsing.ASTNode, i int) bool {
	switch n.NodeType {
	case parsing.ASTFunctionExpression, parsing.ASTProjection, parsing.ASTFilterProjection,
		parsing.ASTValueProjection, parsing.ASTFlatten:
		return true
	case parsing.ASTIndexExpression:
		return i == 0 // a slice copies its left side
	}
	return false
}
