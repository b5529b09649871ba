package query

import (
	"fmt"
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
const (
	// MaxBuiltBytes bounds the bytes of the strings functions build in one
	// evaluation (pad_left, pad_right, replace, join, to_string, upper,
	// lower, reverse), all calls together, and of the arrays split builds
	// (32 bytes a piece): 64 MiB.
	MaxBuiltBytes = 64 << 20
)

// LimitError reports an evaluation stopped at one of the budgets: the
// expression asks for more than an evaluation may build. It is the
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

// budget is the function caller of one evaluation: the library's functions
// behind checks of what each call would build. Once a budget is spent,
// every later call fails with the same error, so an error the library
// swallows (it drops some, as in a flatten's left side) still stops the
// evaluation; Search returns it whatever the library returned.
type budget struct {
	expr  string
	bytes int // bytes functions may still build
	err   *LimitError
}

func newBudget(expr string) *budget {
	return &budget{expr: expr, bytes: MaxBuiltBytes}
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
	n, sized := buildSize(name, args)
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
// The sizes saturate at maxSize.
func buildSize(name string, args []any) (int, bool) {
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
		return jsonSize(args[0], maxSize), true
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
