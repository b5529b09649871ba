package assert_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	testify "github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit/assert"
	"github.com/evalkit-go/evalkit/internal/hostile"
)

func TestEvalAll(t *testing.T) {
	ctx := context.Background()
	tr := refundTrajectory()
	results, err := assert.EvalAll(ctx, tr, []assert.Spec{
		{Type: "tools_called", Params: map[string]any{"tool_names": []any{"issue_refund"}}},
		{Type: "tool_call_chain", Params: map[string]any{"steps": steps(step("get_order_details"), step("issue_refund", "no_error", true))}},
		{Type: "no_tool_errors"},
		{Type: "tool_args", Params: map[string]any{"tool_name": "issue_refund"}},
		{Type: "tool_cal_chain", Params: map[string]any{}},
	})
	require.Len(t, results, 5)
	var outcomes []string
	for _, r := range results {
		outcomes = append(outcomes, r.Outcome())
	}
	testify.Equal(t, []string{"pass", "pass", "fail", "error", "error"}, outcomes)
	testify.False(t, results.Passed())
	require.Error(t, err)
	testify.Equal(t, `entry 3: tool_args: param "expected_args": required: want an object ({} matches any arguments)`+"\n"+
		`entry 4: unknown check type "tool_cal_chain" (did you mean "tool_call_chain"?)`, err.Error())
	var pe *assert.ParamError
	require.True(t, errors.As(err, &pe))
	testify.Equal(t, "expected_args", pe.Param)
	testify.ErrorIs(t, err, assert.ErrUnknownCheck)
	var se *assert.SpecError
	require.True(t, errors.As(err, &se))
	testify.Equal(t, 3, se.Index)

	results, err = assert.EvalAll(ctx, tr, []assert.Spec{{Type: "tools_called", Params: map[string]any{"tools": "issue_refund"}}})
	require.NoError(t, err)
	testify.True(t, results.Passed())

	_, err = assert.EvalAll(ctx, tr, nil)
	testify.EqualError(t, err, "assert: EvalAll: no specs: an empty list checks nothing")
	testify.False(t, assert.SpecResults{}.Passed())
}

func TestParseSpecs(t *testing.T) {
	yamlList := `
- type: tool_call_chain
  id: refund-chain
  params:
    steps:
      - tool: get_order_details
      - {tool: issue_refund, expected_args: {amount: 42}, no_error: true}
- type: no_tool_errors
`
	specs, err := assert.ParseSpecs([]byte(yamlList))
	require.NoError(t, err)
	require.Len(t, specs, 2)
	testify.Equal(t, "tool_call_chain", specs[0].Type)
	testify.Equal(t, "refund-chain", specs[0].ID)
	testify.Equal(t, 2, specs[0].Line)
	testify.Equal(t, 8, specs[1].Line)
	results, err := assert.EvalAll(context.Background(), refundTrajectory(), specs)
	require.NoError(t, err)
	testify.Equal(t, "pass", results[0].Outcome())
	testify.Equal(t, "fail", results[1].Outcome())

	// JSON is read as the YAML it is, lines and all.
	specs, err = assert.ParseSpecs([]byte("{\"evals\": [\n {\"type\": \"tools_called\", \"params\": {\"tools\": [\"a\"]}},\n {\"type\": \"json_valid\"}\n]}"))
	require.NoError(t, err)
	testify.Equal(t, []int{2, 3}, []int{specs[0].Line, specs[1].Line})

	tests := []struct{ name, data, want string }{
		{"syntax", "- type: a\n  params: {x: [1, 2}\n", "assert: specs: yaml: line 1: did not find expected ',' or ']'"},
		{"not a list", "type: contains\n", `assert: specs: line 1: unknown key "type": want a list of specs, or evals: [...]`},
		{"empty", "[]", "assert: specs: line 1: empty list: it checks nothing"},
		{"nothing", "", "assert: specs: EOF"},
		{"entry not a mapping", "- contains\n", "assert: specs: line 1: entry 0: want a mapping {type, params}"},
		{"no type", "- params: {patterns: [a]}\n", "assert: specs: line 1: entry 0: no type: want {type, params}"},
		{"unknown key", "- type: contains\n  parms: {patterns: [a]}\n", `assert: specs: line 2: entry 0: unknown key "parms" (known: type, params, id)`},
		{"params not a mapping", "- type: contains\n  params: [a]\n", "assert: specs: line 2: entry 0: params: want a mapping"},
		{"bad param named with its line", "- type: contains\n  params: {patterns: [a]}\n- type: tool_call_chain\n  params: {steps: [{tool: x, no_eror: true}]}\n",
			`entry 1 (line 3): tool_call_chain: param "steps[0].no_eror": unknown parameter: did you mean "no_error"? (known: args, args_match, expected_args, ignore_fields, match, name, no_error, result_includes, result_matches, tool, tool_name)`},
		{"two documents", "- type: json_valid\n---\n- type: json_valid\n", "assert: specs: line 2: a second YAML document: give one list of specs"},
		// What the list means is not clear: none of it is read. The type
		// given twice ran the last one, silently.
		{"a type given twice", "- type: contains\n  type: not_contains\n  params: {patterns: [a]}\n",
			`assert: specs: line 2: [0]: field "type" is given twice (first at line 1)`},
		{"an alias inside its own value", "- &e {type: contains, params: {patterns: [a], again: *e}}\n",
			"assert: specs: line 1: [0].params.again: the alias *e stands for a value that holds it (&e at line 1): a value cannot contain itself, so it has no end"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := assert.ParseSpecs([]byte(tt.data))
			require.Error(t, err)
			testify.Equal(t, tt.want, err.Error())
		})
	}

	dir := t.TempDir()
	path := filepath.Join(dir, "cases.yaml")
	require.NoError(t, os.WriteFile(path, []byte("- type: regex\n  params: {pattern: '('}\n"), 0o644))
	_, err = assert.LoadSpecs(path)
	testify.EqualError(t, err, path+": entry 0 (line 1): regex: param \"pattern\": invalid regular expression: error parsing regexp: missing closing ): `(`")
	_, err = assert.LoadSpecs(filepath.Join(dir, "missing.yaml"))
	testify.ErrorIs(t, err, os.ErrNotExist)

	// A FIFO is refused at once; a plain read waited for a writer for ever.
	fifo := filepath.Join(dir, "specs.yaml")
	if err := hostile.Mkfifo(fifo); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	err, blocked := hostile.ReadWithin(fifo, 5*time.Second, func() error {
		_, err := assert.LoadSpecs(fifo)
		return err
	})
	require.False(t, blocked, "LoadSpecs blocked on a FIFO")
	testify.EqualError(t, err, "assert: specs: "+fifo+" is a named pipe (FIFO), not a regular file: evalkit reads only regular files")
}
