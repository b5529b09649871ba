package assert_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	testify "github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
)

// wordLimit is a user's own check, defined outside package assert with
// nothing embedded: a Check method and a Describe method.
type wordLimit struct{ max int }

func (w wordLimit) Describe() string { return fmt.Sprintf("the answer has at most %d words", w.max) }

func (w wordLimit) Check(_ context.Context, tr *evalkit.Transcript) (assert.Result, error) {
	m, ok := tr.LastAssistant()
	if !ok {
		return assert.Result{}, assert.ErrNoOutput
	}
	n := len(strings.Fields(m.Content))
	res := assert.Result{Passed: n <= w.max, Summary: fmt.Sprintf("%d words, want at most %d", n, w.max)}
	if res.Passed {
		res.Score = 1
	}
	return res, nil
}

// newWordLimit is its build function for a registry: it validates its own
// parameters, naming the one at fault.
func newWordLimit(params map[string]any) (assert.Check, error) {
	for k := range params {
		if k != "max" {
			return nil, &assert.ParamError{Check: "word_limit", Param: k, Msg: "unknown parameter (known: max)"}
		}
	}
	var max float64 // as JSON decodes it, or as Go and YAML write it
	switch v := params["max"].(type) {
	case float64:
		max = v
	case int:
		max = float64(v)
	}
	if max < 1 || max != float64(int(max)) {
		return nil, &assert.ParamError{Check: "word_limit", Param: "max", Msg: fmt.Sprintf("want a whole number >= 1, got %v", params["max"])}
	}
	return wordLimit{max: int(max)}, nil
}

// A PromptKit-style list of checks, {type, params}, as a case file gives
// it: built-in types and the user's own, evaluated through the user's
// registry.
const caseChecks = `[
	{"type": "word_limit", "params": {"max": 5}},
	{"type": "contains", "params": {"patterns": ["refund"]}},
	{"type": "assertion", "params": {"eval_type": "word_limit", "eval_params": {"max": 3}, "min_score": 1}}
]`

func TestCustomCheckByName(t *testing.T) {
	reg := assert.NewRegistry()
	require.NoError(t, reg.Register("word_limit", newWordLimit))

	var checks []struct {
		Type   string         `json:"type"`
		Params map[string]any `json:"params"`
	}
	require.NoError(t, json.Unmarshal([]byte(caseChecks), &checks))
	tr := textChat("Your refund was issued today.")
	var got []string
	for _, c := range checks {
		require.NoError(t, reg.Validate(c.Type, c.Params), c.Type)
		res, err := reg.Eval(context.Background(), c.Type, tr, c.Params)
		got = append(got, fmt.Sprintf("%s: %s %s", c.Type, outcomeOf(res, err), res.Summary))
	}
	testify.Equal(t, []string{
		"word_limit: PASS 5 words, want at most 5",
		"contains: PASS found all 1 patterns",
		"assertion: FAIL score 0.00, want >= 1.00",
	}, got)

	c, err := reg.Build("word_limit", map[string]any{"max": 5})
	require.NoError(t, err)
	testify.Equal(t, "the answer has at most 5 words", assert.Describe(c))

	// Its own parameter errors come through Validate and Eval alike.
	err = reg.Validate("word_limit", map[string]any{"max": 0})
	testify.EqualError(t, err, `word_limit: param "max": want a whole number >= 1, got 0`)
	_, err = reg.Eval(context.Background(), "word_limit", tr, map[string]any{"mx": 5})
	testify.EqualError(t, err, `word_limit: param "mx": unknown parameter (known: max)`)
}

// Registering changes only the registry it is called on: never the
// built-in one behind assert.Eval, nor a registry made apart. A registry
// made with WithJudge shares its types.
func TestRegisterIsLocal(t *testing.T) {
	reg := assert.NewRegistry()
	judged := reg.WithJudge(evalkit.JudgeFunc(func(context.Context, evalkit.JudgeRequest) (evalkit.Verdict, error) {
		return evalkit.Verdict{}, errors.New("unused")
	}))
	require.NoError(t, reg.Register("word_limit", newWordLimit))
	testify.Contains(t, judged.Names(), "word_limit")

	_, err := assert.Eval(context.Background(), "word_limit", textChat("x"), map[string]any{"max": 5})
	testify.ErrorIs(t, err, assert.ErrUnknownCheck)
	testify.ErrorIs(t, assert.Validate("word_limit", map[string]any{"max": 5}), assert.ErrUnknownCheck)
	testify.NotContains(t, assert.NewRegistry().Names(), "word_limit")

	testify.EqualError(t, reg.Register("word_limit", newWordLimit), `assert: check type "word_limit" is already registered`)
	testify.EqualError(t, reg.Register("exact_match", newWordLimit), `assert: check type "exact_match" is already registered`)
}

func ExampleRegistry_Register() {
	reg := assert.NewRegistry()
	err := reg.Register("word_limit", func(params map[string]any) (assert.Check, error) {
		max, ok := params["max"].(int)
		if !ok || max < 1 {
			return nil, &assert.ParamError{Check: "word_limit", Param: "max", Msg: "want a whole number >= 1"}
		}
		return wordLimit{max: max}, nil
	})
	fmt.Println(err)
	fmt.Println(reg.Validate("word_limit", map[string]any{"max": "ten"}))
	tr := &evalkit.Transcript{Messages: []evalkit.Message{{Role: evalkit.RoleAssistant, Content: "It was issued today."}}}
	res, err := reg.Eval(context.Background(), "word_limit", tr, map[string]any{"max": 3})
	fmt.Println(res.Passed, res.Summary, err)
	// Output:
	// <nil>
	// word_limit: param "max": want a whole number >= 1
	// false 4 words, want at most 3 <nil>
}

func ExampleValidate() {
	fmt.Println(assert.Validate("regex", map[string]any{"patern": `#W\d+`}))
	fmt.Println(assert.Validate("regex", map[string]any{"pattern": `#W(\d+`}))
	fmt.Println(assert.Validate("equals", map[string]any{"expected": "Paris", "trim": true}))
	// Output:
	// regex: param "patern": unknown parameter: did you mean "pattern"?
	// regex: param "pattern": invalid regular expression: error parsing regexp: missing closing ): `#W(\d+`
	// <nil>
}

func ExampleDescribe() {
	fmt.Println(assert.Describe(assert.ContentExcludes{Patterns: []string{"password", "ssn"}}))
	fmt.Println(assert.Describe(wordLimit{max: 50}))
	// Output:
	// no assistant message contains "password" or "ssn" (ignoring case)
	// the answer has at most 50 words
}
