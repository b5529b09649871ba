package query

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/evalkit-go/evalkit/internal/textnorm"
)

// Limits on an expression, checked before the library sees it. The
// library's parser and interpreter recurse once per operator and per
// bracket, and a chain long enough ("!!!…!a", "a.a.a…", "((((…a))))")
// overflows the goroutine stack: a fatal error that no recover catches and
// that kills the whole test binary. With Go's default 1 GB stack the library
// overflows at about 350,000 levels ("abs(abs(…" at 353,000, "!!…a" and
// "a.a.a…" at 371,000); the limits keep expressions three orders of
// magnitude below that. The longest expression of the official compliance
// suite is 519 bytes, with 50 levels of brackets and about 260 operators.
const (
	// MaxExprLen is the longest expression Compile accepts, in bytes.
	MaxExprLen = 8 << 10
	// MaxNesting is the deepest nesting of (, [ and { Compile accepts.
	MaxNesting = 256
	// MaxOperators is the most operators and brackets (".", "|", "!",
	// "&&", "==", "-", "[", "(", …; each byte counts) an expression may
	// hold: each can add a level to the parse tree.
	MaxOperators = 1024
)

// maxSafeInt is the largest integer n such that every integer of magnitude
// up to n has its own float64: 2^53 − 1. 2^53 + 1 rounds to 2^53.
const maxSafeInt = 1<<53 - 1

// guard checks expr against the limits and the mistakes Compile refuses
// before parsing: an identifier joined to another by '-' with no spaces
// ("created-by"), which JMESPath reads as a subtraction, and a number in a
// `literal` that float64 cannot hold exactly.
func guard(expr string) *SyntaxError {
	if len(expr) > MaxExprLen {
		return &SyntaxError{Expr: expr, Offset: -1,
			Msg: fmt.Sprintf("the expression is %d bytes long; the limit is %d", len(expr), MaxExprLen)}
	}
	depth, ops := 0, 0
	identStart := -1 // offset where the identifier ending at i-1 starts, or -1
	for i := 0; i < len(expr); i++ {
		c := expr[i]
		if isIdentByte(c) {
			if identStart < 0 {
				identStart = i
			}
			continue
		}
		prevIdent := identStart
		identStart = -1
		switch c {
		case '"', '\'', '`':
			end := closeQuote(expr, i)
			if c == '`' {
				if e := checkLiteral(expr, i, end); e != nil {
					return e
				}
			}
			i = end // the closing quote (or the end of expr)
			continue
		case '(', '[', '{':
			depth++
			if depth > MaxNesting {
				return &SyntaxError{Expr: expr, Offset: i,
					Msg: fmt.Sprintf("brackets nest deeper than %d levels", MaxNesting)}
			}
		case ')', ']', '}':
			depth = max(depth-1, 0)
		case '-':
			if joinsIdentifiers(expr, prevIdent, i, 1) {
				return hyphenError(expr, i)
			}
		case 0xE2: // U+2212 MINUS SIGN, which the library also reads as '-'
			if strings.HasPrefix(expr[i:], "\u2212") && joinsIdentifiers(expr, prevIdent, i, len("\u2212")) {
				return hyphenError(expr, i)
			}
		case ' ', '\t', '\n', '\r', ',', ':', '$', '@':
			continue
		}
		ops++ // every other byte is an operator, a bracket or not JMESPath at all
		if ops > MaxOperators {
			return &SyntaxError{Expr: expr, Offset: i,
				Msg: fmt.Sprintf("the expression has more than %d operators and brackets", MaxOperators)}
		}
	}
	return nil
}

// joinsIdentifiers reports whether the minus sign of width w at expr[i]
// joins two identifiers with no space around it ("created-by"): the
// identifier before it starts at start (-1 when there is none) and is not a
// variable ($name) or a number.
func joinsIdentifiers(expr string, start, i, w int) bool {
	if start < 0 || !isIdentStart(expr[start]) || (start > 0 && expr[start-1] == '$') {
		return false
	}
	return i+w < len(expr) && isIdentStart(expr[i+w])
}

// hyphenError explains a '-' between two identifiers: the community library
// reads tags.created-by as tags.created minus by, which is null, so a check
// expecting null, or a field presence check on it, would be answered by a
// subtraction nobody meant.
func hyphenError(expr string, at int) *SyntaxError {
	quoted, _ := quoteHyphenated(expr)
	return &SyntaxError{Expr: expr, Offset: at, Msg: fmt.Sprintf(
		"'-' is subtraction in JMESPath: quote the key, %s (write \"a - b\" with spaces to subtract)",
		textnorm.Excerpt(quoted, maxQuoted))}
}

// maxQuoted bounds the expression text an error message quotes, in bytes.
const maxQuoted = 200

// closeQuote returns the offset of the quote that closes the one at
// expr[open], skipping backslash escapes, or len(expr) when there is none.
func closeQuote(expr string, open int) int {
	q := expr[open]
	for i := open + 1; i < len(expr); i++ {
		switch expr[i] {
		case '\\':
			i++
		case q:
			return i
		}
	}
	return len(expr)
}

// checkLiteral refuses a `literal` (expr[open] is its opening backtick,
// expr[end] its closing one) holding a number beyond ±(2^53 − 1): JMESPath
// compares numbers as float64, so `9007199254740993` would equal
// 9007199254740992. A literal that is not JSON is left to the library.
func checkLiteral(expr string, open, end int) *SyntaxError {
	body := strings.ReplaceAll(expr[open+1:end], "\\`", "`")
	dec := json.NewDecoder(strings.NewReader(body))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return nil
	}
	n, ok := UnsafeNumber(v)
	if !ok {
		return nil
	}
	return &SyntaxError{Expr: expr, Offset: open, Msg: fmt.Sprintf(
		"the literal holds %s, beyond ±(2^53 − 1): JMESPath compares numbers as float64, which cannot tell it from its neighbours",
		textnorm.Excerpt(n, 40))}
}

// UnsafeNumber returns the first number in v (decoded JSON, with numbers as
// float64 or json.Number, or any Go number) whose magnitude is 2^53 or more,
// as text, and whether there is one. Such a number has no exact float64, or
// shares its float64 with other integers, so comparing it after
// normalization can find equal what differs.
func UnsafeNumber(v any) (string, bool) {
	switch v := v.(type) {
	case json.Number:
		f, err := v.Float64()
		if err != nil || math.Abs(f) > maxSafeInt {
			return string(v), true
		}
	case float64:
		if math.Abs(v) > maxSafeInt {
			return fmt.Sprint(v), true
		}
	case []any:
		for _, e := range v {
			if n, ok := UnsafeNumber(e); ok {
				return n, true
			}
		}
	case map[string]any:
		for _, e := range v {
			if n, ok := UnsafeNumber(e); ok {
				return n, true
			}
		}
	default:
		if f, ok := goNumber(v); ok && math.Abs(f) > maxSafeInt {
			return fmt.Sprint(v), true
		}
	}
	return "", false
}

// goNumber converts Go's other number types to float64.
func goNumber(v any) (float64, bool) {
	switch v := v.(type) {
	case int:
		return float64(v), true
	case int8:
		return float64(v), true
	case int16:
		return float64(v), true
	case int32:
		return float64(v), true
	case int64:
		return float64(v), true
	case uint:
		return float64(v), true
	case uint8:
		return float64(v), true
	case uint16:
		return float64(v), true
	case uint32:
		return float64(v), true
	case uint64:
		return float64(v), true
	case float32:
		return float64(v), true
	}
	return 0, false
}

// quoteHyphenated returns expr with every unquoted hyphenated name (such as
// created-by or x-request-id) quoted, and whether there was one. Text inside
// quoted identifiers, raw strings and literals is left alone, as are
// variables ($name-x) and a '-' with a space on either side.
func quoteHyphenated(expr string) (string, bool) {
	var b strings.Builder
	found, last := false, 0
	for i := 0; i < len(expr); {
		c := expr[i]
		if c == '"' || c == '\'' || c == '`' {
			i = closeQuote(expr, i) + 1
			continue
		}
		if !isIdentStart(c) || (i > 0 && (isIdentByte(expr[i-1]) || expr[i-1] == '$')) {
			i++
			continue
		}
		end, hyphens := identEnd(expr, i), 0
		for {
			if end+1 < len(expr) && expr[end] == '-' && isIdentStart(expr[end+1]) {
				end = identEnd(expr, end+1)
			} else if w := len("\u2212"); strings.HasPrefix(expr[end:], "\u2212") && end+w < len(expr) && isIdentStart(expr[end+w]) {
				end = identEnd(expr, end+w)
			} else {
				break
			}
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

func identEnd(s string, i int) int {
	for i < len(s) && isIdentByte(s[i]) {
		i++
	}
	return i
}

func isIdentStart(c byte) bool { return c == '_' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') }

func isIdentByte(c byte) bool { return isIdentStart(c) || ('0' <= c && c <= '9') }
