package assert

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
)

func TestValueSchemaCache(t *testing.T) {
	schema := func() map[string]any {
		return map[string]any{"type": "object", "required": []string{"id"},
			"properties": map[string]any{"id": map[string]any{"type": "integer", "minimum": 1}, "tags": map[string]any{"maxItems": json.Number("3")}}}
	}
	a, err := compileSchema(schema())
	require.NoError(t, err)
	b, err := compileSchema(schema())
	require.NoError(t, err)
	assert.Same(t, a, b, "an equal value, another map: one compiled schema")

	// A schema edited in place is compiled again: the cache compares the
	// value with its copy, never trusts the map's identity.
	s := schema()
	first, err := compileSchema(s)
	require.NoError(t, err)
	s["properties"].(map[string]any)["id"].(map[string]any)["minimum"] = 5
	second, err := compileSchema(s)
	require.NoError(t, err)
	assert.NotSame(t, first, second)
	ctx := context.Background()
	tr := &evalkit.Transcript{Messages: []evalkit.Message{{Role: evalkit.RoleAssistant, Content: `{"id": 3}`}}}
	res, err := JSONSchema{Schema: s}.Check(ctx, tr)
	require.NoError(t, err)
	assert.False(t, res.Passed, "the edited minimum holds: %s", res.Summary)
	s["properties"].(map[string]any)["id"].(map[string]any)["minimum"] = 1
	res, err = JSONSchema{Schema: s}.Check(ctx, tr)
	require.NoError(t, err)
	assert.True(t, res.Passed, res.Summary)

	// Kinds the hash keeps apart, and values it leaves to the JSON path.
	for _, pair := range [][2]any{
		{map[string]any{"const": 1}, map[string]any{"const": 1.0}},
		{map[string]any{"const": "1"}, map[string]any{"const": 1}},
		{map[string]any{"enum": []any{"a", "b"}}, map[string]any{"enum": []any{"b", "a"}}},
		{map[string]any{"enum": []string{"a"}}, map[string]any{"enum": []any{"a"}}},
	} {
		assert.False(t, snapshotOf(pair[1]).matches(pair[0], 0), "%v vs %v", pair[0], pair[1])
		assert.True(t, snapshotOf(pair[0]).matches(pair[0], 0))
	}
	w := hasher{budget: maxValueSchemaNodes}
	_, ok := w.hash(map[string]any{"type": "object", "x": struct{}{}}, 0)
	assert.False(t, ok, "a struct is left to the JSON path")

	// A value that holds itself: no endless walk, the JSON path's error.
	cyclic := map[string]any{"type": "object"}
	cyclic["properties"] = map[string]any{"self": cyclic}
	_, err = compileSchema(cyclic)
	var pe *ParamError
	require.ErrorAs(t, err, &pe)
}
