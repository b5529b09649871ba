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
