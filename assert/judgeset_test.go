package assert_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	evalassert "github.com/evalkit-go/evalkit/assert"
	"github.com/evalkit-go/evalkit/judgefake"
)

// setJudge is a judge of a set: a fake with a name, a variant and an
// identity, counting its calls.
type setJudge struct {
	fake          evalkit.Judge
	name, variant string
	id            evalkit.Identity
	calls         atomic.Int64
}

func (j *setJudge) Judge(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
	j.calls.Add(1)
	return j.fake.Judge(ctx, req)
}
func (j *setJudge) Identity() evalkit.Identity        { return j.id }
func (j *setJudge) JudgeName() (name, variant string) { return j.name, j.variant }

// twoJudges is a judge set: strict (the default, with the variant cheap)
// and lenient, each a fake with the verdict its name says.
type twoJudges map[string]*setJudge

func newTwoJudges() twoJudges {
	id := func(model string, t float64) evalkit.Identity {
		return evalkit.Identity{Provider: "openai", Model: model, Settings: map[string]any{"temperature": t}}
	}
	return twoJudges{
		"strict/":      {fake: judgefake.Fail("the refund amount is not stated"), name: "strict", id: id("gpt-4.1", 0)},
		"strict/cheap": {fake: judgefake.Fail("no amount"), name: "strict", variant: "cheap", id: id("gpt-4.1-mini", 0)},
		"lenient/":     {fake: judgefake.Pass(), name: "lenient", id: id("gpt-4.1-mini", 0.7)},
	}
}

func (s twoJudges) Lookup(name, variant string) (evalkit.Judge, error) {
	if name == "" {
		name = "strict"
	}
	if j := s[name+"/"+variant]; j != nil {
		return j, nil
	}
	if s[name+"/"] == nil {
		return nil, fmt.Errorf("%w: %q (judges: lenient, strict)", evalkit.ErrJudgeNotFound, name)
	}
	return nil, fmt.Errorf("%w: %q of judge %q (variants: cheap)", evalkit.ErrJudgeVariantNotFound, variant, name)
}

// The judge and variant params select the judge of a judged check; the
// Result's judge line gives its provenance.
func TestNamedJudgeParams(t *testing.T) {
	set := newTwoJudges()
	reg := evalassert.NewRegistry().WithJudgeSet(set)
	ctx, tr := context.Background(), refundRun()
	judgeLine := func(res evalassert.Result) string {
		for _, d := range res.Details {
			if d.Label == "judge" {
				return d.Text
			}
		}
		return ""
	}

	res, err := reg.Eval(ctx, "llm_judge", tr, map[string]any{"criteria": "States the amount", "judge": "strict", "variant": "cheap"})
	require.NoError(t, err)
	assert.False(t, res.Passed)
	assert.Equal(t, "strict/cheap (openai gpt-4.1-mini, temperature 0)", judgeLine(res))
	assert.EqualValues(t, 1, set["strict/cheap"].calls.Load())

	res, err = reg.Eval(ctx, "llm_judge_session", tr, map[string]any{"criteria": "Resolves the request", "judge": "lenient"})
	require.NoError(t, err)
	assert.True(t, res.Passed)
	assert.Equal(t, "lenient (openai gpt-4.1-mini, temperature 0.7)", judgeLine(res))

	// No judge param: the registry's own judge; without one, the set's
	// default; a variant alone is the default judge's.
	res, err = reg.WithJudge(judgefake.Pass()).Eval(ctx, "llm_judge", tr, map[string]any{"criteria": "x"})
	require.NoError(t, err)
	assert.True(t, res.Passed)
	_, err = reg.Eval(ctx, "llm_judge", tr, map[string]any{"criteria": "x"})
	require.ErrorIs(t, err, evalassert.ErrNoJudge, "a set does not make a default judge by itself: the registry's is")
	res, err = reg.Eval(ctx, "llm_judge_tool_calls", tr, map[string]any{"criteria": "Looks the order up", "variant": "cheap"})
	require.NoError(t, err)
	assert.Equal(t, "strict/cheap (openai gpt-4.1-mini, temperature 0)", judgeLine(res))

	// An assertion: on its wrapped check, or on itself for the check it
	// wraps.
	for _, params := range []map[string]any{
		{"eval_type": "llm_judge", "min_score": 0.5, "eval_params": map[string]any{"criteria": "x", "judge": "lenient"}},
		{"eval_type": "llm_judge", "min_score": 0.5, "judge": "lenient", "eval_params": map[string]any{"criteria": "x"}},
	} {
		res, err := reg.Eval(ctx, "assertion", tr, params)
		require.NoError(t, err)
		assert.True(t, res.Passed)
		assert.Equal(t, "lenient (openai gpt-4.1-mini, temperature 0.7)", judgeLine(res))
	}
	assert.EqualValues(t, 3, set["lenient/"].calls.Load(), "the session check, then the two assertions")
}

// Unknown names are errors on their parameter, listing what the set holds,
// at Validate as at Build; without a set Validate takes any name and
// Build refuses it; a check that asks no judge refuses the params.
func TestNamedJudgeErrors(t *testing.T) {
	reg := evalassert.NewRegistry().WithJudgeSet(newTwoJudges())
	for _, c := range []struct {
		typ    string
		params map[string]any
		param  string
		is     error
		msg    string
	}{
		{"llm_judge", map[string]any{"criteria": "x", "judge": "strikt"}, "judge", evalkit.ErrJudgeNotFound,
			`llm_judge: param "judge": judge not found: "strikt" (judges: lenient, strict)`},
		{"llm_judge", map[string]any{"criteria": "x", "judge": "strict", "variant": "chep"}, "variant", evalkit.ErrJudgeVariantNotFound,
			`llm_judge: param "variant": judge variant not found: "chep" of judge "strict" (variants: cheap)`},
		{"assertion", map[string]any{"eval_type": "llm_judge", "min_score": 0.5, "eval_params": map[string]any{"criteria": "x", "judge": "nobody"}}, "judge", evalkit.ErrJudgeNotFound,
			`assertion: eval_type "llm_judge": llm_judge: param "judge": judge not found: "nobody" (judges: lenient, strict)`},
		{"contains", map[string]any{"patterns": []any{"refund"}, "judge": "strict"}, "judge", nil,
			`contains: param "judge": contains asks no judge: judge and variant name the judge of a judged check (llm_judge, ...)`},
		{"llm_judge", map[string]any{"criteria": "x", "judge": ""}, "judge", nil, `llm_judge: param "judge": empty: name a judge of the judge set`},
		{"llm_judge", map[string]any{"criteria": "x", "variant": 3}, "variant", nil, `llm_judge: param "variant": want a string, got a number`},
	} {
		for name, run := range map[string]func() error{
			"Validate": func() error { return reg.Validate(c.typ, c.params) },
			"Build":    func() error { _, err := reg.Build(c.typ, c.params); return err },
		} {
			err := run()
			assert.EqualError(t, err, c.msg, name)
			var pe *evalassert.ParamError
			if assert.ErrorAs(t, err, &pe, name) {
				assert.Equal(t, c.param, pe.Param, name)
			}
			if c.is != nil {
				assert.ErrorIs(t, err, c.is, name)
			}
		}
	}

	// Without a set: the set is given later, for Validate; Build refuses.
	params := map[string]any{"criteria": "x", "judge": "strict"}
	assert.NoError(t, evalassert.Validate("llm_judge", params))
	assert.NoError(t, evalassert.NewRegistry().Validate("llm_judge", params))
	_, err := evalassert.NewRegistry().WithJudge(judgefake.Pass()).Build("llm_judge", params)
	assert.EqualError(t, err, `llm_judge: param "judge": no judge set to find judge "strict" in: build the registry with WithJudgeSet(set), or in a test give evaltest.New the option evaltest.WithJudgeSet(set)`)
	err = evalassert.Validate("contains", map[string]any{"patterns": []any{"refund"}, "variant": "cheap"})
	assert.EqualError(t, err, `contains: param "variant": contains asks no judge: judge and variant name the judge of a judged check (llm_judge, ...)`)

	// A judged check's misspelt param names judge and variant among the
	// known ones; another check's does not.
	err = reg.Validate("llm_judge", map[string]any{"criteria": "x", "judeg": "strict"})
	assert.ErrorContains(t, err, `did you mean "judge"?`)
	err = reg.Validate("contains", map[string]any{"patterns": []any{"x"}, "scop": "turn"})
	assert.NotContains(t, err.Error(), "judge")
}

// A check type of the user's own takes judge and variant as its own
// params: the registry leaves them alone.
func TestNamedJudgeUserChecks(t *testing.T) {
	reg := evalassert.NewRegistry()
	var got map[string]any
	require.NoError(t, reg.Register("graded_by", func(params map[string]any) (evalassert.Check, error) {
		got = params
		return evalassert.CheckFunc(func(context.Context, *evalkit.Transcript) (evalassert.Result, error) {
			return evalassert.Result{Passed: true, Score: 1}, nil
		}), nil
	}))
	require.NoError(t, reg.WithJudgeSet(newTwoJudges()).Validate("graded_by", map[string]any{"judge": "nobody", "variant": "x"}))
	assert.Equal(t, map[string]any{"judge": "nobody", "variant": "x"}, got)
}

// UseJudge names the judge of a fluent judged check in the set its judge
// is.
func TestUseJudge(t *testing.T) {
	set := newTwoJudges()
	ctx, tr := context.Background(), refundRun()
	res, err := evalassert.JudgeCheck(setAndDefault{set, judgefake.Err(errors.New("the default was asked"))}, evalkit.ContentAnswer,
		"States the amount", evalassert.UseJudge("strict", "cheap"), evalassert.MinScore(0.5)).Check(ctx, tr)
	require.NoError(t, err)
	assert.False(t, res.Passed)
	assert.Equal(t, `UseJudge("strict", "cheap")`, evalassert.UseJudge("strict", "cheap").String())
	assert.Equal(t, `UseJudge("lenient")`, evalassert.UseJudge("lenient", "").String())

	_, err = evalassert.JudgeCheck(setAndDefault{set, nil}, evalkit.ContentAnswer, "x", evalassert.UseJudge("strikt", "")).Check(ctx, tr)
	assert.ErrorIs(t, err, evalkit.ErrJudgeNotFound)
	_, err = evalassert.JudgeCheck(judgefake.Pass(), evalkit.ContentAnswer, "x", evalassert.UseJudge("strict", "")).Check(ctx, tr)
	assert.EqualError(t, err, `llm_judge: param "judge": UseJudge names a judge of a judge set, and the check's judge is not one: in a test, give evaltest.New the option evaltest.WithJudgeSet(set)`)
	assert.True(t, strings.HasPrefix(err.Error(), "llm_judge"))

	// The metrics take it too: the named judge is the one asked.
	_, err = evalassert.MetricCheck(setAndDefault{set, judgefake.Err(errors.New("the default was asked"))}, "bias",
		evalassert.UseJudge("lenient", "")).Check(ctx, tr)
	assert.Error(t, err, "a fake that passes gives no opinions to score")
	assert.NotContains(t, err.Error(), "the default was asked")
	assert.EqualValues(t, 1, set["lenient/"].calls.Load())
	_, err = evalassert.MetricCheck(setAndDefault{set, nil}, "bias", evalassert.UseJudge("nobody", "")).Check(ctx, tr)
	assert.ErrorIs(t, err, evalkit.ErrJudgeNotFound)
}

// setAndDefault is a judge that is also a judge set, as evaltest's are.
type setAndDefault struct {
	set evalkit.JudgeSet
	def evalkit.Judge
}

func (s setAndDefault) Lookup(name, variant string) (evalkit.Judge, error) {
	return s.set.Lookup(name, variant)
}
func (s setAndDefault) Judge(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
	return s.def.Judge(ctx, req)
}
