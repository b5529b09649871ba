package evalkit_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
)

// A key given twice with different values anywhere in a transcript was
// read last-wins below the message's own fields: a usage count, a choice's
// finish reason, a tool's input, a second messages list. Each is a
// DecodeError naming the JSON path, line and column.
func TestDecodeKeyGivenTwice(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"two message lists", `{"messages": [{"role": "user", "content": "a"}], "messages": [{"role": "user", "content": "b"}]}`,
			"evalkit: line 1, column 50: messages: given twice, with different values: which is meant is ambiguous"},
		{"a usage count", `{"type": "message", "role": "assistant", "content": [{"type": "text", "text": "hi"}], "stop_reason": "end_turn", "usage": {"input_tokens": 1, "input_tokens": 500, "output_tokens": 2}}`,
			"evalkit: line 1, column 143: usage.input_tokens: given twice, with different values: which is meant is ambiguous"},
		{"a finish reason", `{"choices": [{"message": {"role": "assistant", "content": "hi"}, "finish_reason": "stop", "finish_reason": "length"}]}`,
			"evalkit: line 1, column 91: choices[0].finish_reason: given twice, with different values: which is meant is ambiguous"},
		{"a tool's input", `{"messages": [{"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "issue_refund", "input": {"amount": 42, "amount": 4200}}]}]}`,
			"evalkit: line 1, column 130: messages[0].content[0].input.amount: given twice, with different values: which is meant is ambiguous"},
		{"metadata", `{"messages": [{"role": "user", "content": "a"}], "metadata": {"k": 1, "k": 2}}`,
			"evalkit: line 1, column 71: metadata.k: given twice, with different values: which is meant is ambiguous"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := evalkit.Decode([]byte(tc.in))
			assert.EqualError(t, err, tc.want)
			var de *evalkit.DecodeError
			assert.ErrorAs(t, err, &de)
			// As one record of many: the record is named too.
			_, err = evalkit.DecodeAll([]byte(`[{"role": "user", "content": "x"}]` + "\n" + tc.in + "\n"))
			assert.ErrorContains(t, err, "given twice, with different values")
		})
	}
	// The same value twice is read alike by every reader.
	_, err := evalkit.Decode([]byte(`{"messages": [{"role": "user", "content": "a"}], "metadata": {"k": 1, "k": 1}}`))
	assert.NoError(t, err)
}

// A judge's JSON verdict that gives a key twice with different values, at
// any depth, is an error, never a verdict.
func TestParseVerdictKeyGivenTwice(t *testing.T) {
	ten := evalkit.Scale{Min: 1, Max: 10}
	_, err := evalkit.ParseVerdict(`{"score": 8, "criteria": {"accuracy": {"score": 2, "score": 9}}}`, ten)
	assert.ErrorContains(t, err, `key "score" is given twice, with different values (at criteria.accuracy.score, line 1, column 52): which is meant cannot be told`)
	_, err = evalkit.ParseVerdict("```json\n{\"passed\": true, \"reasoning\": \"ok\", \"passed\": false}\n```", ten)
	assert.ErrorContains(t, err, `key "passed" is given twice, with different values`)
	v, err := evalkit.ParseVerdict(`{"score": 8, "score": 8}`, ten)
	require.NoError(t, err)
	assert.Equal(t, 8.0, v.RawScore)
}

// A tool call's arguments that give a key twice with different values do
// not decode: the tool may have used either.
func TestToolCallArgumentsKeyGivenTwice(t *testing.T) {
	c := evalkit.ToolCall{Name: "issue_refund", Args: json.RawMessage(`{"order_id": "#W123", "amount": 4200, "amount": 42}`)}
	_, err := c.Arguments()
	assert.EqualError(t, err, `arguments of issue_refund: key "amount" is given twice, with different values (at amount, line 1, column 39): which is meant cannot be told`)
	c.Args = json.RawMessage(`{"amount": 42, "amount": 42}`)
	args, err := c.Arguments()
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"amount": 42.0}, args)
}
