package assert_test

// The review of sdk (issue 22): ground truth a hostile user gives
// tool_calls_acceptable.

import (
	"context"
	"encoding/json"
	"testing"

	testify "github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
)

func callOf(args string) *evalkit.Transcript {
	return &evalkit.Transcript{Messages: []evalkit.Message{
		{Role: evalkit.RoleUser, Content: "go"},
		{Role: evalkit.RoleAssistant, ToolCalls: []evalkit.ToolCall{{ID: "c1", Name: "f", Args: json.RawMessage(args)}}},
	}}
}

func groundTruth(t *testing.T, text string) any {
	t.Helper()
	var v any
	require.NoError(t, json.Unmarshal([]byte(text), &v))
	return v
}

// A parameter listed with no acceptable value ({"a": []}, at the top or in
// a nested answer) was dropped, so it read as "must not be passed" and a
// call leaving it out passed; it is an error naming the parameter, as the
// check's doc promised.
func TestGroundTruthEmptyValues(t *testing.T) {
	for gt, want := range map[string]string{
		`[{"f":{"a":[]}}]`:           `entry 0 (f): a: no acceptable value (list "" when it may be omitted)`,
		`[{"f":{"a":[{"x":[]}]}}]`:   `entry 0 (f): a: x: no acceptable value (list "" when it may be omitted)`,
		`[{"f":{"a":[[{"x":[]}]]}}]`: `entry 0 (f): a: item 0: x: no acceptable value (list "" when it may be omitted)`,
	} {
		_, err := assert.GroundTruth(groundTruth(t, gt))
		testify.EqualError(t, err, want, gt)
		_, err = assert.Eval(context.Background(), "tool_calls_acceptable", callOf(`{}`), map[string]any{"ground_truth": groundTruth(t, gt)})
		testify.ErrorContains(t, err, want, gt)
	}
}

// "" among a parameter's values means "may be omitted"; "" as an item of
// a list value is the empty string. It was read as Omitted in lists too,
// so the call {"a": ["", "b"]} failed against its own ground truth
// [["", "b"]] ("want one of [{},"b"]"). A nested answer inside a list
// keeps its "" as Omitted.
func TestGroundTruthEmptyStringInLists(t *testing.T) {
	cases := []struct {
		gt, args string
		pass     bool
	}{
		{`[{"f":{"a":[["", "b"]]}}]`, `{"a":["","b"]}`, true},
		{`[{"f":{"a":[["", "b"]]}}]`, `{}`, false},
		{`[{"f":{"a":[["", "b"], ""]}}]`, `{}`, true},
		{`[{"f":{"a":[[{"x":["", 1]}]]}}]`, `{"a":[{}]}`, true},
		{`[{"f":{"a":[[{"x":["", 1]}]]}}]`, `{"a":[{"x":1}]}`, true},
		{`[{"f":{"a":[[{"x":["", 1]}]]}}]`, `{"a":[{"x":""}]}`, false},
	}
	for _, c := range cases {
		res, err := assert.Eval(context.Background(), "tool_calls_acceptable", callOf(c.args), map[string]any{"ground_truth": groundTruth(t, c.gt)})
		require.NoError(t, err, c.gt)
		testify.Equal(t, c.pass, res.Passed, "%s against %s: %s %v", c.args, c.gt, res.Summary, res.Details)
	}
}
