package assert_test

import (
	"context"
	"errors"
	"testing"

	testify "github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
)

// outcome is a check's three-valued result, as reports show it.
type outcome string

const (
	PASS  outcome = "PASS"
	FAIL  outcome = "FAIL"
	ERROR outcome = "ERROR"
)

func outcomeOf(res assert.Result, err error) outcome {
	switch {
	case err != nil:
		return ERROR
	case res.Passed:
		return PASS
	}
	return FAIL
}

func ptr(f float64) *float64 { return &f }

// evalCase is one registry evaluation and what it must give.
type evalCase struct {
	name   string
	tr     *evalkit.Transcript
	check  string
	params map[string]any
	want   outcome
	// summary, when set, is the exact Summary, or the exact error text for ERROR.
	summary string
	score   *float64
	// details, when non-nil, are the exact Details.
	details []assert.Detail
	// hasDetails, when set, must each appear among the Details.
	hasDetails []assert.Detail
	// param, when set, is the parameter a *ParamError must name.
	param string
	// diff, when set, must appear in the Diff.
	diff string
}

// runCases evaluates each case through the built-in registry, as a case
// file or assert.Eval would, in a subtest of its own.
func runCases(t *testing.T, cases []evalCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, err := assert.Eval(context.Background(), tc.check, tc.tr, tc.params)
			require.Equal(t, tc.want, outcomeOf(res, err), "result %+v, error %v", res, err)
			if tc.summary != "" {
				if err != nil {
					testify.Equal(t, tc.summary, err.Error())
				} else {
					testify.Equal(t, tc.summary, res.Summary)
				}
			}
			if tc.score != nil {
				testify.InDelta(t, *tc.score, res.Score, 1e-9)
			}
			if tc.details != nil {
				testify.Equal(t, tc.details, res.Details)
			}
			for _, d := range tc.hasDetails {
				testify.Contains(t, res.Details, d)
			}
			if tc.param != "" {
				var pe *assert.ParamError
				require.True(t, errors.As(err, &pe), "want a *ParamError, got %v", err)
				testify.Equal(t, tc.param, pe.Param)
			}
			if tc.diff != "" {
				testify.Contains(t, res.DiffText(), tc.diff)
			}
		})
	}
}
