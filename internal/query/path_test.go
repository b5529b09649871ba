package query

import (
	"encoding/json"
	"testing"

	"github.com/jmespath-community/go-jmespath/pkg/interpreter"
	"github.com/stretchr/testify/require"
)

// TestSimplePathAgreesWithTheInterpreter checks that the paths SearchDecoded
// walks itself give what the instrumented interpreter gives, on data of
// every JSON shape, and that other expressions are left to it.
func TestSimplePathAgreesWithTheInterpreter(t *testing.T) {
	var data any
	require.NoError(t, json.Unmarshal([]byte(`{"a": {"b": [1, {"c": "x"}, [2, 3]], "n": null, "s": "str", "f": 1.5, "t": true,
		"created-by": {"x": 1}, "": 0}, "arr": [[0, 1], {"k": "v"}], "e": {}}`), &data))
	simple := []string{"a", "a.b", "a.b[0]", "a.b[1].c", "a.b[2][1]", "a.b[-1][-2]", "a.b[-4]", "a.b[3]", "a.n", "a.n.x",
		"a.s.x", "a.s[0]", "a.f", "a.t[0]", "a.\"created-by\".x", "a.\"\"", "arr[1].k", "arr[0][5]", "arr.k", "a[0]",
		"missing", "missing.x[0]", "e", "e.x", "a.b[1].c.d"}
	for _, expr := range simple {
		q, err := Compile(expr)
		require.NoError(t, err, expr)
		require.NotNil(t, q.path, "%s is a simple path", expr)
		b := newBudget(q.expr)
		want, err := interpreter.NewInterpreter(data, b, nil).Execute(q.node, data)
		require.NoError(t, err, expr)
		require.Nil(t, b.err, expr)
		got, err := q.SearchDecoded(data)
		require.NoError(t, err, expr)
		require.Equal(t, want, got, expr)
	}
	for _, expr := range []string{"@", "$.a", "a.b[*]", "a.b[0:1]", "length(a.b)", "a.{x: b}", "a | b", "a.b[?@ > `0`]", "a.[b]", "[0]"} {
		q, err := Compile(expr)
		require.NoError(t, err, expr)
		require.Nil(t, q.path, "%s is not a simple path", expr)
	}
}

// TestSimplePathBudget checks that a path over data too wide for the step
// budget is evaluated by the interpreter, which reports the limit.
func TestSimplePathBudget(t *testing.T) {
	saved := maxSteps
	maxSteps = 10
	t.Cleanup(func() { maxSteps = saved })
	q, err := Compile("a.b")
	require.NoError(t, err)
	require.NotNil(t, q.path)
	wide := make([]any, 100)
	_, err = q.SearchDecoded(map[string]any{"a": map[string]any{"b": wide}})
	var le *LimitError
	require.ErrorAs(t, err, &le)
}
