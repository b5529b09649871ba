package evalkit_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
)

var itemsSchema = json.RawMessage(`{"type":"object","properties":{"statements":{"type":"array","items":{"type":"string"}}},"required":["statements"]}`)

// A structured-output answer needs no score: its fields are the verdict.
func TestParseVerdictForStructured(t *testing.T) {
	req := evalkit.JudgeRequest{Criteria: "List the statements", VerdictSchema: itemsSchema, Metric: "statements.extract/1"}
	for _, raw := range []string{
		`{"statements": ["Refunds take 5 days.", "The order shipped."], "reasoning": "two"}`,
		"```json\n{\"statements\": [\"Refunds take 5 days.\", \"The order shipped.\"], \"reasoning\": \"two\"}\n```",
	} {
		v, err := evalkit.ParseVerdictFor(req, raw)
		require.NoError(t, err, raw)
		assert.False(t, v.Scored)
		assert.Equal(t, []any{"Refunds take 5 days.", "The order shipped."}, v.Fields["statements"])
		assert.Equal(t, "two", v.Reasoning)
		assert.Equal(t, raw, v.Raw)
	}

	// Verdict fields it has are read as ParseVerdict reads them.
	v, err := evalkit.ParseVerdictFor(req, `{"statements": [], "score": 7}`)
	require.NoError(t, err)
	assert.True(t, v.Scored)
	assert.InDelta(t, 0.7, v.Score, 1e-9)
	_, err = evalkit.ParseVerdictFor(req, `{"statements": [], "score": 70}`)
	assert.True(t, errors.Is(err, evalkit.ErrUnreadableVerdict), "%v", err)

	// JSON in prose is never trusted without a verdict field; nor is an
	// answer that is not an object.
	for _, raw := range []string{`The agent said {"statements": []}.`, `["a"]`, ``, `{"statements": [`} {
		_, err := evalkit.ParseVerdictFor(req, raw)
		assert.True(t, errors.Is(err, evalkit.ErrUnreadableVerdict), "%q: %v", raw, err)
	}
}

// Without a verdict schema it is ParseVerdict.
func TestParseVerdictForPlain(t *testing.T) {
	req := evalkit.JudgeRequest{Criteria: "x", Scale: evalkit.Scale{Min: 1, Max: 10}}
	v, err := evalkit.ParseVerdictFor(req, "Rating: [[8]]")
	require.NoError(t, err)
	assert.Equal(t, 8.0, v.RawScore)
	_, err = evalkit.ParseVerdictFor(req, `{"statements": []}`)
	assert.True(t, errors.Is(err, evalkit.ErrUnreadableVerdict))
}

func TestJudgeRequestMetricNeedsSchema(t *testing.T) {
	err := evalkit.JudgeRequest{Criteria: "x", Metric: "faithfulness.verdicts/1"}.Validate()
	require.Error(t, err)
	assert.Contains(t, err.Error(), "has no verdict schema")
	require.NoError(t, evalkit.JudgeRequest{Criteria: "x", Metric: "m/1", VerdictSchema: itemsSchema}.Validate())
}

// A metric step's structured answer has items, no score.
func ExampleParseVerdictFor() {
	req := evalkit.JudgeRequest{Criteria: "List the claims", VerdictSchema: itemsSchema, Metric: "claims.extract/1"}
	v, err := evalkit.ParseVerdictFor(req, `{"statements": ["Refunds take five days."]}`)
	fmt.Println(v.Scored, v.Fields["statements"], err)
	// Output: false [Refunds take five days.] <nil>
}
