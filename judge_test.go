package evalkit_test

import (
	"context"
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
)

func TestScaleNormalize(t *testing.T) {
	tests := []struct {
		scale evalkit.Scale
		raw   float64
		want  float64
		err   string
	}{
		{evalkit.Scale{Min: 1, Max: 10}, 10, 1, ""},
		{evalkit.Scale{Min: 1, Max: 10}, 1, 0, ""},
		{evalkit.Scale{Min: 1, Max: 5}, 4, 0.75, ""},
		{evalkit.Scale{}.OrDefault(), 8, 0.8, ""},
		{evalkit.Scale{Min: 1, Max: 10}, 11, 0, "evalkit: score 11 is outside the scale [1, 10]"},
		{evalkit.Scale{Min: 1, Max: 10}, 0, 0, "evalkit: score 0 is outside the scale [1, 10]"},
		{evalkit.Scale{Min: 0, Max: 1}, math.NaN(), 0, "evalkit: score NaN is not a finite number"},
		{evalkit.Scale{Min: 5, Max: 5}, 5, 0, "evalkit: scale [5, 5]: min must be below max"},
		{evalkit.Scale{Min: 0, Max: math.Inf(1)}, 5, 0, "evalkit: scale [0, +Inf] has a bound that is not a finite number"},
		{evalkit.Scale{Min: -1e308, Max: 1e308}, 1e308, 0, "evalkit: scale [-1e+308, 1e+308]: its width, max − min, is too large for a float64"},
		{evalkit.Scale{Min: -math.MaxFloat64, Max: math.MaxFloat64}, 0, 0, "evalkit: scale [-1.7976931348623157e+308, 1.7976931348623157e+308]: its width, max − min, is too large for a float64"},
		// Tiny and huge scales whose width is finite still normalize.
		{evalkit.Scale{Min: 0, Max: 1e-320}, 1e-320, 1, ""},
		{evalkit.Scale{Min: 0, Max: math.MaxFloat64}, math.MaxFloat64, 1, ""},
		{evalkit.Scale{Min: 1, Max: 1 + 1e-15}, 1 + 1e-15, 1, ""},
	}
	for _, tt := range tests {
		got, err := tt.scale.Normalize(tt.raw)
		if tt.err != "" {
			assert.EqualError(t, err, tt.err)
			continue
		}
		require.NoError(t, err)
		assert.InDelta(t, tt.want, got, 1e-12, "%v on %+v", tt.raw, tt.scale)
	}
}

// Normalize never returns a number outside [0,1] (NaN included) without an
// error, whatever the scale and the score; ParseVerdict neither.
func TestScaleNormalizeNeverNaN(t *testing.T) {
	bounds := []float64{math.Inf(-1), -math.MaxFloat64, -1e308, -1, -math.SmallestNonzeroFloat64, 0,
		math.SmallestNonzeroFloat64, 1e-320, 1, 1 + 1e-15, 10, 1e308, math.MaxFloat64, math.Inf(1), math.NaN()}
	for _, lo := range bounds {
		for _, hi := range bounds {
			s := evalkit.Scale{Min: lo, Max: hi}
			for _, raw := range bounds {
				got, err := s.Normalize(raw)
				if err == nil && (math.IsNaN(got) || got < 0 || got > 1) {
					t.Errorf("%+v.Normalize(%v) = %v with no error", s, raw, got)
				}
			}
			v, err := evalkit.ParseVerdict(`{"score": 1e308}`, s)
			if err == nil && (math.IsNaN(v.Score) || v.Score < 0 || v.Score > 1) {
				t.Errorf("ParseVerdict on %+v: score %v with no error", s, v.Score)
			}
		}
	}
}

func TestJudgeRequestValidate(t *testing.T) {
	assert.NoError(t, evalkit.JudgeRequest{Criteria: "Is polite"}.Validate())
	assert.EqualError(t, evalkit.JudgeRequest{}.Validate(), "evalkit: judge request has no criteria")
	assert.EqualError(t, evalkit.JudgeRequest{Criteria: "x", Kind: "poem"}.Validate(), `evalkit: judge request has unknown content kind "poem"`)
	assert.Error(t, evalkit.JudgeRequest{Criteria: "x", Scale: evalkit.Scale{Min: 3, Max: 1}}.Validate())
}

func TestJudgeFunc(t *testing.T) {
	var j evalkit.Judge = evalkit.JudgeFunc(func(_ context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
		return evalkit.Verdict{Score: 1, Scored: true, Reasoning: req.Criteria}, nil
	})
	v, err := j.Judge(context.Background(), evalkit.JudgeRequest{Criteria: "echo"})
	require.NoError(t, err)
	assert.Equal(t, "echo", v.Reasoning)
}

func TestScaleRaw(t *testing.T) {
	s := evalkit.Scale{Min: 1, Max: 5}
	assert.Equal(t, 1.0, s.Raw(0))
	assert.Equal(t, 5.0, s.Raw(1))
	assert.Equal(t, 4.0, s.Raw(0.75))
	for _, raw := range []float64{1, 2.5, 3, 4.2, 5} {
		n, err := s.Normalize(raw)
		require.NoError(t, err)
		assert.InDelta(t, raw, s.Raw(n), 1e-12, "Raw inverts Normalize")
	}
}
