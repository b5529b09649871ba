package assert_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"slices"
	"testing"

	testify "github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
)

// bfclCase is one BFCL question with its functions and possible answers.
type bfclCase struct {
	ID        string
	Question  string
	Functions []evalkit.ToolSpec
	Required  map[string][]string          // function → its required parameters
	Types     map[string]map[string]string // function → parameter → type
	Answers   []map[string]map[string][]any
}

func loadBFCL(t testing.TB) []bfclCase {
	t.Helper()
	read := func(path string) []map[string]any {
		f, err := os.Open(path)
		require.NoError(t, err)
		defer f.Close()
		var out []map[string]any
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var m map[string]any
			require.NoError(t, json.Unmarshal(sc.Bytes(), &m))
			out = append(out, m)
		}
		require.NoError(t, sc.Err())
		return out
	}
	qs, as := read("../testdata/bfcl/questions.jsonl"), read("../testdata/bfcl/possible_answers.jsonl")
	require.Len(t, qs, 36)
	require.Len(t, as, 36)
	var out []bfclCase
	for i, q := range qs {
		require.Equal(t, q["id"], as[i]["id"], "line-aligned")
		c := bfclCase{ID: q["id"].(string), Required: map[string][]string{}, Types: map[string]map[string]string{}}
		c.Question = q["question"].([]any)[0].([]any)[0].(map[string]any)["content"].(string)
		for _, f := range q["function"].([]any) {
			fn := f.(map[string]any)
			params, err := json.Marshal(fn["parameters"])
			require.NoError(t, err)
			name := fn["name"].(string)
			c.Functions = append(c.Functions, evalkit.ToolSpec{Name: name, Description: fn["description"].(string), Parameters: params})
			p := fn["parameters"].(map[string]any)
			for _, r := range p["required"].([]any) {
				c.Required[name] = append(c.Required[name], r.(string))
			}
			c.Types[name] = map[string]string{}
			for k, s := range p["properties"].(map[string]any) {
				c.Types[name][k], _ = s.(map[string]any)["type"].(string)
			}
		}
		for _, gt := range as[i]["ground_truth"].([]any) {
			call := map[string]map[string][]any{}
			for name, params := range gt.(map[string]any) {
				call[name] = map[string][]any{}
				for k, v := range params.(map[string]any) {
					call[name][k] = v.([]any)
				}
			}
			c.Answers = append(c.Answers, call)
		}
		out = append(out, c)
	}
	return out
}

// firstValue is an answer a model would give from a list of acceptable
// values: the first, "" (may be omitted) leaving it out, a nested answer
// made of its keys' first values.
func firstValue(vals []any) (any, bool) {
	v := vals[0]
	switch v := v.(type) {
	case string:
		if v == "" {
			return nil, false
		}
	case map[string]any:
		out := map[string]any{}
		for k, x := range v {
			if list, ok := x.([]any); ok {
				if fv, present := firstValue(list); present {
					out[k] = fv
				}
			}
		}
		return out, true
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			if m, ok := x.(map[string]any); ok {
				out[i], _ = firstValue([]any{m})
			} else {
				out[i] = x
			}
		}
		return out, true
	}
	return v, true
}

// bfclCall is a call of a ground-truth answer with its first acceptable
// values.
type bfclCall struct {
	name string
	args map[string]any
}

func (c bfclCase) calls() []bfclCall {
	var out []bfclCall
	for _, a := range c.Answers {
		for name, params := range a {
			call := bfclCall{name: name, args: map[string]any{}}
			for _, k := range slices.Sorted(maps.Keys(params)) {
				if v, ok := firstValue(params[k]); ok {
					call.args[k] = v
				}
			}
			out = append(out, call)
		}
	}
	return out
}

// transcript is the question and one assistant message making calls.
func (c bfclCase) transcript(t testing.TB, calls []bfclCall) *evalkit.Transcript {
	msg := evalkit.Message{Role: evalkit.RoleAssistant}
	for i, call := range calls {
		args, err := json.Marshal(call.args)
		require.NoError(t, err)
		msg.ToolCalls = append(msg.ToolCalls, evalkit.ToolCall{ID: fmt.Sprintf("call_%d", i+1), Name: call.name, Args: args})
	}
	return &evalkit.Transcript{Messages: []evalkit.Message{{Role: evalkit.RoleUser, Content: c.Question}, msg}, Tools: c.Functions}
}

func (c bfclCase) groundTruth(t testing.TB) []assert.AcceptableCall {
	raw := make([]any, len(c.Answers))
	for i, a := range c.Answers {
		m := map[string]any{}
		for name, params := range a {
			pm := map[string]any{}
			for k, v := range params {
				pm[k] = v
			}
			m[name] = pm
		}
		raw[i] = m
	}
	calls, err := assert.GroundTruth(raw)
	require.NoError(t, err, c.ID)
	return calls
}

func run(t testing.TB, c assert.Check, tr *evalkit.Transcript) assert.Result {
	t.Helper()
	res, err := c.Check(context.Background(), tr)
	require.NoError(t, err)
	return res
}

// Every BFCL possible answer of the bundled 36 questions (51 calls,
// parallel and multiple included), written as the calls a model would
// make, is valid against its functions' schemas (BFCL's type names read as
// JSON Schema's) and acceptable, its parallel calls in either order; and
// what BFCL's AST checker rejects is rejected: a required parameter left
// out, an unexpected parameter, a value of the wrong type, an unknown
// function, a value not among the acceptable ones, a call missing from a
// parallel answer.
func TestBFCLSchemaValidityAndAcceptableValues(t *testing.T) {
	cases := loadBFCL(t)
	valid := assert.ToolCallsValid{BFCLTypes: true, NoExtraArgs: true}
	counts := map[string]int{}
	for _, c := range cases {
		t.Run(c.ID, func(t *testing.T) {
			calls := c.calls()
			acceptable := assert.ToolCallsAcceptable{Calls: c.groundTruth(t)}
			tr := c.transcript(t, calls)
			res := run(t, valid, tr)
			require.True(t, res.Passed, "valid: %s %v", res.Summary, res.Details)
			res = run(t, acceptable, tr)
			require.True(t, res.Passed, "acceptable: %s %v", res.Summary, res.Details)
			counts["answers"]++
			if len(calls) > 1 {
				reversed := slices.Clone(calls)
				slices.Reverse(reversed)
				testify.True(t, run(t, acceptable, c.transcript(t, reversed)).Passed, "parallel calls in any order")
				testify.False(t, run(t, acceptable, c.transcript(t, calls[1:])).Passed, "a call missing")
				counts["parallel"]++
			}
			mutate := func(f func(*bfclCall) bool) *evalkit.Transcript {
				out := make([]bfclCall, len(calls))
				for i, call := range calls {
					out[i] = bfclCall{name: call.name, args: maps.Clone(call.args)}
				}
				if !f(&out[0]) {
					return nil
				}
				return c.transcript(t, out)
			}
			if m := mutate(func(call *bfclCall) bool {
				req := c.Required[call.name]
				if len(req) == 0 {
					return false
				}
				delete(call.args, req[0])
				return true
			}); m != nil {
				res := run(t, valid, m)
				testify.False(t, res.Passed, "a required parameter left out")
				testify.Contains(t, res.Details[0].Text, "missing property")
				testify.False(t, run(t, acceptable, m).Passed)
				counts["missing"]++
			}
			m := mutate(func(call *bfclCall) bool { call.args["zzz_unexpected"] = 1; return true })
			res = run(t, valid, m)
			testify.False(t, res.Passed, "an unexpected parameter")
			testify.Contains(t, res.Details[0].Text, `unexpected parameter "zzz_unexpected"`)
			testify.True(t, run(t, assert.ToolCallsValid{BFCLTypes: true}, m).Passed, "allowed by a schema without additionalProperties: false, unless NoExtraArgs")
			testify.False(t, run(t, acceptable, m).Passed)
			counts["unexpected"]++
			if m := mutate(func(call *bfclCall) bool {
				for _, k := range slices.Sorted(maps.Keys(call.args)) {
					if typ := c.Types[call.name][k]; typ == "integer" || typ == "float" || typ == "boolean" {
						call.args[k] = "not a " + typ
						return true
					}
				}
				return false
			}); m != nil {
				testify.False(t, run(t, valid, m).Passed, "a value of the wrong type")
				testify.False(t, run(t, acceptable, m).Passed)
				counts["type"]++
			}
			if m := mutate(func(call *bfclCall) bool {
				for _, k := range slices.Sorted(maps.Keys(call.args)) {
					if c.Types[call.name][k] == "string" {
						call.args[k] = "a value no answer accepts"
						return true
					}
				}
				return false
			}); m != nil {
				testify.False(t, run(t, acceptable, m).Passed, "a value not among the acceptable ones")
				counts["value"]++
			}
			m = mutate(func(call *bfclCall) bool { call.name += "_v2"; return true })
			res = run(t, valid, m)
			testify.False(t, res.Passed, "an unknown function")
			testify.Contains(t, res.Details[0].Text, "not a declared tool")
			testify.False(t, run(t, acceptable, m).Passed)
		})
	}
	testify.Equal(t, map[string]int{"answers": 36, "parallel": 9, "missing": 36, "unexpected": 36, "type": 22, "value": 26}, counts)
}

// The failure says which argument is not acceptable and what would be;
// BFCL's own ground-truth line builds the check through the registry.
func TestBFCLMessagesAndRegistry(t *testing.T) {
	cases := loadBFCL(t)
	c := cases[0]
	require.Equal(t, "simple_python_0", c.ID)
	calls := c.calls()
	calls[0].args["base"] = 12
	tr := c.transcript(t, calls)
	res := run(t, assert.ToolCallsAcceptable{Calls: c.groundTruth(t)}, tr)
	testify.False(t, res.Passed)
	testify.Equal(t, "matched 0 of 1 expected call", res.Summary)
	testify.Equal(t, assert.Detail{Label: "unmatched", Text: "calculate_triangle_area: call 1: base: got 12, want one of 10"}, res.Details[0])

	line, err := os.ReadFile("../testdata/bfcl/possible_answers.jsonl")
	require.NoError(t, err)
	var first struct {
		GroundTruth []any `json:"ground_truth"`
	}
	require.NoError(t, json.NewDecoder(bytesReader(line)).Decode(&first))
	res, err = assert.Eval(context.Background(), "bfcl_ast", tr, map[string]any{"ground_truth": first.GroundTruth})
	require.NoError(t, err)
	testify.False(t, res.Passed)
	calls[0].args["base"] = 10
	delete(calls[0].args, "unit") // "" among its values: it may be omitted
	res, err = assert.Eval(context.Background(), "bfcl_ast", c.transcript(t, calls), map[string]any{"ground_truth": first.GroundTruth})
	require.NoError(t, err)
	testify.True(t, res.Passed, res.Summary)

	res, err = assert.Eval(context.Background(), "is_valid_openai_tools_call", tr, map[string]any{"bfcl_types": true, "no_extra_args": true})
	require.NoError(t, err)
	testify.True(t, res.Passed, res.Summary)
}

func bytesReader(b []byte) *bytes.Reader { return bytes.NewReader(b) }
