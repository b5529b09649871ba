package assert_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	testify "github.com/stretchr/testify/assert"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
	"github.com/evalkit-go/evalkit/judgefake"
)

// maxCheckOutput bounds what a check says about bad input or a huge
// output: an error's text, or a result's summary, details and diff.
const maxCheckOutput = 8 << 10

// hostileValues are parameter values of every kind a case file, a Go map
// or a careless caller can hand the registry.
func hostileValues() map[string]any {
	deep := map[string]any{}
	for range 20_000 {
		deep = map[string]any{"a": deep}
	}
	cyclic := map[string]any{}
	cyclic["self"] = cyclic
	cyclicList := []any{nil}
	cyclicList[0] = cyclicList
	shared := any("x")
	for range 64 {
		shared = []any{shared, shared} // 2^64 leaves as a tree
	}
	many := make([]any, 10_000)
	for i := range many {
		many[i] = fmt.Sprintf("item-%d", i)
	}
	wide := map[string]any{}
	for i := range 10_000 {
		wide[fmt.Sprintf("k%d", i)] = i
	}
	n := 7
	return map[string]any{
		"nil": nil, "true": true, "false": false, "0": 0, "-1": -1, "1e308": 1e308, "-1e308": -1e308, "NaN": math.NaN(),
		"+Inf": math.Inf(1), "-Inf": math.Inf(-1), "max int64": int64(math.MaxInt64), "max uint64": uint64(math.MaxUint64),
		"float32 NaN": float32(math.NaN()), "json.Number NaN": json.Number("NaN"), "json.Number 1e400": json.Number("1e400"),
		"json.Number junk": json.Number("seven"), "empty string": "", "a space": " ", "a NUL": "\x00", "invalid UTF-8": "\xff\xfe",
		"zero-width": "\u200b\u2060", "1 MB string": strings.Repeat("a", 1<<20), "a regex bomb": "(a*)*b", "a JMESPath bomb": strings.Repeat("@ | [@, @] | ", 40) + "@",
		"empty list": []any{}, "list of nil": []any{nil}, "list of lists": []any{[]any{"x"}}, "list of maps": []any{map[string]any{}},
		"10k strings": many, "[]string": []string{"x"}, "[]int": []int{1}, "[]byte": []byte("x"), "empty map": map[string]any{},
		"map of nil": map[string]any{"": nil}, "10k keys": wide, "20k deep": deep, "cyclic map": cyclic, "cyclic list": cyclicList,
		"2^64 shared": shared, "map[int]int": map[int]int{1: 1}, "struct": struct{ A int }{1}, "pointer": &n, "func": func() {},
		"chan": make(chan int), "complex": complex(1, 2),
	}
}

// checkParamErr holds an error about a parameter to the contract: a
// *ParamError naming it (or a part of it), bounded.
func checkParamErr(t *testing.T, err error, param string) {
	t.Helper()
	testify.LessOrEqual(t, len(err.Error()), maxCheckOutput, "bounded: %.300s…", err)
	if errors.Is(err, assert.ErrUnknownCheck) {
		return // an assertion's eval_type naming no check
	}
	var pe *assert.ParamError
	if !errors.As(err, &pe) {
		t.Errorf("param %q: a %T, want a *ParamError: %.300s", param, err, err)
		return
	}
	if pe.Param != param && !strings.HasPrefix(pe.Param, param+".") && !strings.HasPrefix(pe.Param, param+"[") && pe.Check == "" {
		t.Errorf("param %q: the error names %q: %.300s", param, pe.Param, err)
	}
}

// outputSize is how much a result says.
func outputSize(res assert.Result) int {
	n := len(res.Summary) + len(res.DiffText())
	for _, d := range res.Details {
		n += len(d.Label) + len(d.Text)
	}
	return n
}

// evalRegistry is a registry whose judged and embedding checks can run.
func evalRegistry() *assert.Registry {
	return assert.NewRegistry().WithJudge(judgefake.Fixed(evalkit.Verdict{Score: 0.9, RawScore: 9, Scored: true, Label: "pass", Passed: ptrBool(true)})).
		WithEmbedder(judgefake.BagOfWords(64))
}

func ptrBool(b bool) *bool { return &b }

// guard runs f, turning a panic into a test error naming what was tried.
func guard(t *testing.T, what string, f func()) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("%s: panic: %v", what, r)
		}
	}()
	f()
}

// Every registered check's every parameter, given every hostile value:
// Validate and Eval agree, and each says what is wrong with the
// parameter it names — never a panic, a hang, or an unbounded message. A
// value a parameter takes builds a check that runs.
func TestBadInputEveryParam(t *testing.T) {
	values := hostileValues()
	names := slices.Sorted(maps.Keys(values))
	reg := evalRegistry()
	tr := textChat(`{"refund": {"amount": 42}} Your refund of $42 is on its way.`)
	tried, refused := 0, 0
	for _, typ := range registeredNames(t) {
		params := minimalParams[typ]
		t.Run(typ, func(t *testing.T) {
			for _, k := range slices.Sorted(maps.Keys(params)) {
				for _, name := range names {
					p := with(params, k, values[name])
					what := fmt.Sprintf("%s %s=%s", typ, k, name)
					tried++
					guard(t, what, func() {
						err := assert.Validate(typ, p)
						if err != nil {
							refused++
							checkParamErr(t, err, k)
							_, eerr := reg.Eval(context.Background(), typ, tr, p)
							if testify.Error(t, eerr, what) {
								testify.Equal(t, err.Error(), eerr.Error(), "%s: Validate and Eval agree", what)
							}
							return
						}
						res, err := reg.Eval(context.Background(), typ, tr, p)
						if err == nil {
							testify.LessOrEqual(t, outputSize(res), maxCheckOutput, what)
						} else {
							testify.LessOrEqual(t, len(err.Error()), maxCheckOutput, what)
						}
					})
				}
			}
			// The parameters as a whole: none, empty, ten thousand unknown.
			for name, p := range map[string]map[string]any{"nil": nil, "empty": {}, "10k unknown": values["10k keys"].(map[string]any)} {
				tried++
				guard(t, typ+" params "+name, func() {
					if err := assert.Validate(typ, p); err != nil {
						refused++
						testify.LessOrEqual(t, len(err.Error()), maxCheckOutput, "%s params %s: %.300s", typ, name, err)
					}
				})
			}
		})
	}
	t.Logf("bad-input count: check params %d inputs over %d types (%d refused)", tried, len(registeredNames(t)), refused)
}

// hostile transcripts, made once: the huge ones are big to build.
var hostileTranscripts = sync.OnceValue(func() map[string]*evalkit.Transcript {
	huge := "Total due: 42.00 EUR. data:image/png;base64," + strings.Repeat("A", 50<<20)
	msgs := make([]evalkit.Message, 0, 100_000)
	for i := range 25_000 {
		id := fmt.Sprintf("c%d", i)
		msgs = append(msgs,
			evalkit.Message{Role: evalkit.RoleUser, Content: fmt.Sprintf("question %d", i)},
			evalkit.Message{Role: evalkit.RoleAssistant, ToolCalls: []evalkit.ToolCall{{ID: id, Name: "search", Args: json.RawMessage(`{"q": "refund"}`)}}},
			evalkit.Message{Role: evalkit.RoleTool, ToolCallID: id, Content: "Error: not found", IsError: i%2 == 0},
			evalkit.Message{Role: evalkit.RoleAssistant, Content: fmt.Sprintf("answer %d", i)})
	}
	bigArgs := json.RawMessage(`{"q": "` + strings.Repeat("x", 1<<20) + `"}`)
	return map[string]*evalkit.Transcript{
		"50 MB answer":  {Messages: []evalkit.Message{{Role: evalkit.RoleUser, Content: "Total?"}, {Role: evalkit.RoleAssistant, Content: huge}}},
		"100k messages": {Messages: msgs},
		"1 MB arguments": {Messages: []evalkit.Message{{Role: evalkit.RoleUser, Content: "?"},
			{Role: evalkit.RoleAssistant, ToolCalls: []evalkit.ToolCall{{ID: "1", Name: "search", Args: bigArgs}}},
			{Role: evalkit.RoleTool, ToolCallID: "1", Content: strings.Repeat("result ", 200_000)},
			{Role: evalkit.RoleAssistant, Content: "Done."}}},
	}
})

// noOutput are transcripts without the agent's answer.
func noOutput() map[string]*evalkit.Transcript {
	return map[string]*evalkit.Transcript{
		"nil":       nil,
		"empty":     {},
		"user only": {Messages: []evalkit.Message{{Role: evalkit.RoleUser, Content: "Refund order #W123"}}},
	}
}

// passOnNothing are the checks that may pass on a transcript with no
// output, and why: what they assert holds of no action.
var passOnNothing = map[string]string{}

// gradeRetrieval are the checks that grade the retrieval context against
// the input and the reference, not the agent's answer (DeepEval's
// contextual metrics): with no answer they still cannot pass, but their
// error need not be ErrNoOutput.
var gradeRetrieval = map[string]bool{
	"contextual_precision": true, "contextual_recall": true, "contextual_relevancy": true,
	"context_precision": true, "context_recall": true, "context_relevancy": true,
}

// Every check, with valid parameters, on transcripts with no output and
// on huge ones: no panic and no hang; no output is never a pass (an agent
// that did nothing passes nothing, not even what it must not do); what a
// huge output makes a check say is bounded. Aliases of one check (exact_match
// for equals, content_includes for contains, ...) read the huge outputs
// once.
func TestBadInputEveryCheckTranscripts(t *testing.T) {
	reg := evalRegistry()
	var tried, refused atomic.Int64
	seen := map[string]bool{} // the checks built, as %T %v: aliases build the same
	for _, typ := range registeredNames(t) {
		key := typ
		built, buildErr := reg.Build(typ, minimalParams[typ])
		if buildErr == nil {
			key = fmt.Sprintf("%T %+v", built, built)
		}
		sets := map[string]*evalkit.Transcript{}
		maps.Copy(sets, noOutput())
		if !testing.Short() && !seen[key] {
			maps.Copy(sets, hostileTranscripts())
		}
		seen[key] = true
		t.Run(typ, func(t *testing.T) {
			t.Parallel() // two cores read the huge transcripts at once
			for name, tr := range sets {
				tried.Add(1)
				guard(t, typ+" on "+name, func() {
					res, err := reg.Eval(context.Background(), typ, tr, minimalParams[typ])
					if err != nil {
						refused.Add(1)
						testify.LessOrEqual(t, len(err.Error()), maxCheckOutput, "%s on %s: %.300s", typ, name, err)
						if _, ok := noOutput()[name]; ok && buildErr == nil && !errors.Is(err, assert.ErrNotReported) && !gradeRetrieval[typ] {
							testify.ErrorIs(t, err, assert.ErrNoOutput, "%s on %s", typ, name)
						}
						return
					}
					testify.LessOrEqual(t, outputSize(res), maxCheckOutput, "%s on %s: %.300s", typ, name, res.Summary)
					if _, ok := noOutput()[name]; ok {
						t.Errorf("%s on a %s transcript: %v, want an error: the agent did nothing", typ, name, res)
					}
				})
			}
		})
	}
	t.Cleanup(func() {
		t.Logf("bad-input count: check transcripts %d inputs over %d types (%d errors)", tried.Load(), len(registeredNames(t)), refused.Load())
	})
}
