package evaltest_test

import (
	"context"
	"fmt"
	"math"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	evalassert "github.com/evalkit-go/evalkit/assert"
	"github.com/evalkit-go/evalkit/evaltest"
)

// Equals' failure messages, exactly: the call as written with its options,
// got before want, the diff of the canonical forms.
func TestEqualsMessages(t *testing.T) {
	tests := []struct {
		name  string
		chain func(e *evaltest.Expectation)
		want  string
	}{
		{"text with rules", func(e *evaltest.Expectation) { e.Equals("Paris", evalassert.Trim(), evalassert.CaseInsensitive()) },
			`Equals("Paris", Trim(), CaseInsensitive()): got " LYON\n", want "Paris"
diff (-want +got):
  string(
- 	"paris",
+ 	"lyon",
  )`},
		{"any of", func(e *evaltest.Expectation) { e.Equals(evalassert.AnyOf{"Paris", "Paris, France"}) },
			`Equals(assert.AnyOf{"Paris", "Paris, France"}): got " LYON\n", want one of "Paris", "Paris, France"
diff (-want +got):
  string(
- 	"Paris",
+ 	" LYON\n",
  )`},
		{"struct literal with rules", func(e *evaltest.Expectation) {
			e.Check(evalassert.Equals{Expected: "lyon", Rules: evalassert.Rules{CaseInsensitive: true}})
		},
			`Check(assert.Equals{Expected: "lyon", Rules: assert.Rules{CaseInsensitive: true}}): got " LYON\n", want "lyon"
diff (-want +got):
  string(
- 	"lyon",
+ 	" lyon\n",
  )`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := report(func(et *evaltest.T) { tt.chain(et.Expect(chat(" LYON\n"))) })
			assert.Equal(t, []string{normalizeSpace(tt.want + "\ntranscript: 2 messages")}, normalizeAll(tb.errors))
		})
	}

	tb := report(func(et *evaltest.T) {
		et.Expect(chat(`{"order": {"status": "Shipped "}}`)).
			Equals("shipped", evalassert.At("order.status"), evalassert.CaseInsensitive(), evalassert.Trim()).
			Equals(map[string]any{"order": map[string]any{"status": "shipped"}}, evalassert.CaseInsensitive(), evalassert.TrimLines())
	})
	assert.Empty(t, tb.errors)
}

// wordLimit is a user's check, defined here: a Check and a Describe method.
type wordLimit struct{ max int }

func (w wordLimit) Describe() string { return fmt.Sprintf("at most %d words", w.max) }

func (w wordLimit) Check(_ context.Context, tr *evalkit.Transcript) (evalassert.Result, error) {
	m, ok := tr.LastAssistant()
	if !ok {
		return evalassert.Result{}, evalassert.ErrNoOutput
	}
	n := len(strings.Fields(m.Content))
	return evalassert.Result{Passed: n <= w.max, Summary: fmt.Sprintf("%d words", n)}, nil
}

// undescribed has a Check method only.
type undescribed struct{ Max int }

func (undescribed) Check(context.Context, *evalkit.Transcript) (evalassert.Result, error) {
	return evalassert.Result{Summary: "no"}, nil
}

// A custom check runs in the fluent chain, named by its Describe method,
// and by its type name through the registry the test owns.
func TestCustomCheck(t *testing.T) {
	reg := evalassert.NewRegistry()
	require.NoError(t, reg.Register("word_limit", func(params map[string]any) (evalassert.Check, error) {
		max, ok := params["max"].(int)
		if !ok {
			return nil, &evalassert.ParamError{Check: "word_limit", Param: "max", Msg: "want a whole number"}
		}
		return wordLimit{max: max}, nil
	}))
	tb := &fakeTB{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		et := evaltest.New(tb, evaltest.WithRegistry(reg))
		et.Expect(chat("Your refund was issued today.")).
			Check(wordLimit{max: 3}).
			Check(wordLimit{max: 5}).
			Check(undescribed{Max: 2}).
			Eval("word_limit", map[string]any{"max": 3}).
			Eval("word_limit", map[string]any{"max": "3"}).
			Eval("word_limit", map[string]any{"max": 5})
	}()
	<-done
	assert.Equal(t, []string{
		"Check(at most 3 words): 5 words\ntranscript: 2 messages",
		"Check(evaltest_test.undescribed{Max: 2}): no\ntranscript: 2 messages",
		`Eval("word_limit", {"max":3}): 5 words` + "\ntranscript: 2 messages",
		`Eval("word_limit", {"max":"3"}): error: word_limit: param "max": want a whole number` + "\ntranscript: 2 messages",
	}, tb.errors)
}

// A custom check defined in this file runs by name from a case file:
// RunCases validates and builds it through the registry the test owns.
func TestCustomCheckFromCaseFile(t *testing.T) {
	var built, ran atomic.Int32
	reg := evalassert.NewRegistry()
	require.NoError(t, reg.Register("word_limit", func(params map[string]any) (evalassert.Check, error) {
		max, ok := params["max"].(int)
		if !ok {
			return nil, &evalassert.ParamError{Check: "word_limit", Param: "max", Msg: "want a whole number"}
		}
		built.Add(1)
		return evalassert.CheckFunc(func(ctx context.Context, tr *evalkit.Transcript) (evalassert.Result, error) {
			ran.Add(1)
			return wordLimit{max: max}.Check(ctx, tr)
		}), nil
	}))
	var inputs []string
	evaltest.RunCases(t, "testdata/cases/custom/*.yaml", func(et *evaltest.T, c evaltest.Case) *evalkit.Transcript {
		inputs = append(inputs, c.Input)
		return chat(c.Input)
	}, evaltest.WithRegistry(reg))
	assert.Equal(t, []string{"Your refund was issued.", "Refunded."}, inputs)
	assert.EqualValues(t, 2, ran.Load(), "each case ran word_limit once")
	assert.GreaterOrEqual(t, built.Load(), int32(2))

	// A case file whose params the custom check refuses fails at load,
	// before any case runs.
	cases, err := evaltest.LoadCases("testdata/cases/custom/*.yaml", reg)
	require.NoError(t, err)
	require.Len(t, cases, 2)
	assert.Equal(t, "word_limit", cases[0].Evals[0].Type)
	_, err = evaltest.LoadCases("testdata/cases/custom_bad/*.yaml", reg)
	require.Error(t, err)
	assert.Contains(t, err.Error(), `custom_bad/word_limit.yaml:8:`)
	assert.Contains(t, err.Error(), `word_limit: param "max": want a whole number`)
}

// ring is a check whose fields point back at itself.
type ring struct{ Next *ring }

func (*ring) Check(context.Context, *evalkit.Transcript) (evalassert.Result, error) {
	return evalassert.Result{Summary: "no"}, nil
}

func TestCheckLabelOfACycle(t *testing.T) {
	r := &ring{}
	r.Next = r
	tb := report(func(et *evaltest.T) { et.Expect(chat("x")).Check(r) })
	require.Len(t, tb.errors, 1)
	assert.True(t, strings.HasPrefix(tb.errors[0], "Check(evaltest_test.ring{Next: evaltest_test.ring{Next: evaltest_test.ring{Next: evaltest_test.ring{Next: evaltest_test.ring{…}}}}}): no"), tb.errors[0])
}

// A check's score outside [0,1] is the check's error, never a pass.
func TestCheckScoreOutsideTheRange(t *testing.T) {
	for _, score := range []float64{7, -0.5, math.NaN(), math.Inf(1)} {
		tb := report(func(et *evaltest.T) {
			et.Expect(chat("Hello")).Check(evalassert.CheckFunc(func(context.Context, *evalkit.Transcript) (evalassert.Result, error) {
				return evalassert.Result{Passed: true, Score: score, Summary: "fine"}, nil
			}))
		})
		require.Len(t, tb.errors, 1)
		assert.Contains(t, tb.errors[0], fmt.Sprintf("error: the check returned score %v, outside [0,1]", score))
	}
}
