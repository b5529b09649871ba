package assert

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/internal/textnorm"
)

// Check is one named check. Check computes a Result on the transcript; it
// never fails a test. It returns an error when it cannot be evaluated (bad or
// missing parameters, an invalid pattern or schema, no assistant output where
// one is needed): an error is never a pass and never a failure charged to the
// output under test.
type Check interface {
	Check(ctx context.Context, tr *evalkit.Transcript) (Result, error)
}

// Describer is a check that states its criteria in one human line, for
// reports and for failure messages of checks that are not built in:
// `the last assistant message contains "refund" (ignoring case)`. Every
// built-in check is one. A user's type with a Check and a Describe method
// is a check with a description, nothing to embed or register; as
// promptum's validator protocol (validate and describe).
type Describer interface {
	Describe() string
}

// Describe returns c's statement of its criteria: c.Describe() when c is a
// Describer and says something, else its Go type ("assert.CheckFunc").
// The line is bounded (about 300 bytes) and a Describe method that panics
// reads as the type.
func Describe(c Check) (desc string) {
	typ := fmt.Sprintf("%T", c)
	defer func() {
		if r := recover(); r != nil {
			desc = typ
		}
	}()
	if d, ok := c.(Describer); ok {
		if s := describeLine(d.Describe()); s != "" {
			return s
		}
	}
	return typ
}

// describeLine bounds a description to one line of about maxDescribe
// bytes: line breaks and tabs read as spaces.
func describeLine(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == '\t' || r == '\v' || r == '\f' || r == '\u2028' || r == '\u2029' || r == '\u0085' {
			return ' '
		}
		return r
	}, s)
	return textnorm.Excerpt(strings.TrimSpace(s), maxDescribe)
}

// maxDescribe bounds a description, in bytes.
const maxDescribe = 300

// CheckFunc adapts a function to a Check.
type CheckFunc func(ctx context.Context, tr *evalkit.Transcript) (Result, error)

// Check calls f.
func (f CheckFunc) Check(ctx context.Context, tr *evalkit.Transcript) (Result, error) {
	return f(ctx, tr)
}

// Result is a check's verdict on the output under test.
type Result struct {
	// Passed reports whether the output meets the check.
	Passed bool
	// Score in [0,1] measures how much of the check was met (for example
	// the fraction of patterns found); 1 when passed by an all-or-nothing check.
	Score float64
	// Summary says in one line what failed, or what was found when passed.
	Summary string
	// Want is what passes, for a graded check (a judge's verdict, a score
	// under a threshold), as the summary's want clause says it: ">= 0.80",
	// "one of \"A\", \"B\"", "pass". Reports show it beside the score,
	// passed or not; empty for other checks.
	Want string
	// Details are labelled lines that support the summary, in order, such
	// as {"called", "get_order_details ×1, get_user_details ×2"}.
	Details []Detail
	// Diff is a go-cmp diff (-want +got) when structured values differ.
	// The checks that match tool calls by their arguments (tool_args,
	// tool_calls_with_args, tool_call_chain) leave it empty and build
	// their diff when DiffText reads it: one diff costs more than the
	// check. Read it with DiffText.
	Diff string

	lazyDiff *lazyText // a diff DiffText builds on first read, or nil
}

// DiffText returns the result's diff: Diff, or the diff the check left to
// be built when read, built now (once for every copy of the result, safe
// for concurrent use); "" when there is none.
func (r Result) DiffText() string {
	if r.Diff != "" || r.lazyDiff == nil {
		return r.Diff
	}
	return r.lazyDiff.get()
}

// lazyText is text built the first time it is read.
type lazyText struct {
	once  sync.Once
	build func() string
	text  string
}

// deferText returns build's text as lazyText, or nil for a nil build.
func deferText(build func() string) *lazyText {
	if build == nil {
		return nil
	}
	return &lazyText{build: build}
}

func (l *lazyText) get() string {
	l.once.Do(func() {
		l.text, l.build = l.build(), nil
	})
	return l.text
}

// Detail is one labelled line of a Result: Label is a fixed lower-case word
// or two ("called", "got", "want", "hint"), Text the value, kept short.
type Detail struct {
	Label string
	Text  string
}

// Scope says which part of a transcript a check reads.
type Scope int

const (
	// DefaultScope (the zero value) lets each check use its own default,
	// documented on the check.
	DefaultScope Scope = iota
	// Turn reads the last turn: the last assistant message for text and
	// JSON checks, the calls made since the last user message for tool checks.
	Turn
	// Session reads the whole transcript: every assistant message and every
	// tool call.
	Session
)

// String returns "turn", "session" or "default".
func (s Scope) String() string {
	switch s {
	case Turn:
		return "turn"
	case Session:
		return "session"
	case DefaultScope:
		return "default"
	}
	return fmt.Sprintf("Scope(%d)", int(s))
}

func (s Scope) or(def Scope) Scope {
	if s == DefaultScope {
		return def
	}
	return s
}

// ErrNoOutput is returned (wrapped) by checks that read assistant output
// when the transcript has no assistant message in the scope: a missing answer
// neither passes nor fails a check, it makes the check impossible to evaluate.
var ErrNoOutput = errors.New("no assistant output")

// ErrUnknownCheck is returned (wrapped) for a check type name the registry
// does not know.
var ErrUnknownCheck = errors.New("unknown check type")

// ParamError reports a bad or missing parameter of a check.
type ParamError struct {
	// Check is the check type name, such as "contains".
	Check string
	// Param is the parameter's name, such as "patterns".
	Param string
	// Msg says what was wrong and what is wanted.
	Msg string
	// Err is the cause, when there is one (a judge set's
	// evalkit.ErrJudgeNotFound, say): errors.Is and errors.As reach it.
	Err error
}

func (e *ParamError) Error() string {
	return fmt.Sprintf("%s: param %q: %s", e.Check, e.Param, e.Msg)
}

// Unwrap returns the cause, or nil.
func (e *ParamError) Unwrap() error { return e.Err }

func paramErr(check, param, format string, args ...any) error {
	for i, a := range args {
		if s, ok := a.(string); ok && len(s) > maxParamArg {
			args[i] = textnorm.Excerpt(s, maxParamArg) // a value given, quoted back
		}
	}
	return &ParamError{Check: check, Param: textnorm.Excerpt(param, maxQuoted), Msg: textnorm.Excerpt(fmt.Sprintf(format, args...), maxParamMsg)}
}

// A parameter error quotes at most maxParamArg bytes of any string it
// was given, and says at most maxParamMsg; a name the input gave (a
// parameter, a check type) is cut to maxQuoted. A megabyte value must not
// make a megabyte message.
const (
	maxQuoted   = 120
	maxParamArg = 512
	maxParamMsg = 2048
)

// pass and fail build Results; score is clamped to [0,1].
func pass(score float64, summary string, details ...Detail) Result {
	return Result{Passed: true, Score: clamp01(score), Summary: summary, Details: details}
}

func fail(score float64, summary string, details ...Detail) Result {
	return Result{Passed: false, Score: clamp01(score), Summary: summary, Details: details}
}

func clamp01(f float64) float64 {
	switch {
	case f != f || f < 0: // NaN or negative
		return 0
	case f > 1:
		return 1
	}
	return f
}

func ratio(n, d int) float64 {
	if d == 0 {
		return 0
	}
	return float64(n) / float64(d)
}

// quoteList renders strings as a comma-separated list of Go-quoted values,
// bounded: at most listLimit values of at most maxQuote bytes each.
func quoteList(ss []string) string {
	q := make([]string, 0, min(len(ss), listLimit+1))
	for i, s := range ss {
		if i == listLimit {
			q = append(q, fmt.Sprintf("… and %d more", len(ss)-listLimit))
			break
		}
		q = append(q, excerpt(s))
	}
	return strings.Join(q, ", ")
}

// listLimit bounds the values a summary or detail lists.
const listLimit = 20
