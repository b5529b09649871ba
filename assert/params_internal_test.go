package assert

import (
	"reflect"
	"strings"
	"testing"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPlainParamsConvertsOnlyWhatNeedsIt: YAML's map[any]any becomes
// map[string]any at any depth, the caller's values are left alone, and
// values that need nothing are used as they are, not copied.
func TestPlainParamsConvertsOnlyWhatNeedsIt(t *testing.T) {
	schema := map[string]any{"type": "object", "properties": map[string]any{"id": map[string]any{"type": "integer"}}}
	yamlish := map[string]any{"list": []any{"a", map[any]any{"k": []any{map[any]any{"deep": 1}}}}, "plain": []any{"x"}}
	got, err := plainParams("t", map[string]any{"schema": schema, "y": yamlish})
	require.NoError(t, err)
	assert.Equal(t, reflect.ValueOf(schema).Pointer(), reflect.ValueOf(got["schema"]).Pointer(), "a plain value is not copied")
	want := map[string]any{"list": []any{"a", map[string]any{"k": []any{map[string]any{"deep": 1}}}}, "plain": []any{"x"}}
	assert.Equal(t, want, got["y"])
	assert.IsType(t, map[any]any{}, yamlish["list"].([]any)[1], "the caller's value is not written")
	assert.NotEqual(t, reflect.ValueOf(yamlish).Pointer(), reflect.ValueOf(got["y"]).Pointer())

	_, err = plainParams("t", map[string]any{"bad": map[string]any{"m": map[any]any{1: "x"}}})
	var pe *ParamError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, "bad", pe.Param)
}

// TestPlainToolName: the ASCII fast path of toolNameProblem says nothing
// only where the full rules say nothing.
func TestPlainToolName(t *testing.T) {
	for _, n := range []string{"issue_refund", "get-order.v2", "A", "x\ty", " a", "a ", "a b", "", "\x7f", "caf\u00e9", "zero\u200bwidth", "nbsp\u00a0", "soft\u00adhyphen", "\x00"} {
		full := ""
		switch {
		case n == "":
			full = "empty"
		case strings.TrimSpace(n) != n || strings.IndexFunc(n, func(r rune) bool { return unicode.IsSpace(r) || unicode.Is(unicode.Cf, r) }) >= 0:
			full = "space or invisible"
		}
		if plainName(n) {
			assert.Empty(t, full, "%q", n)
			assert.Empty(t, toolNameProblem(n), "%q", n)
		}
		assert.Equal(t, full == "", toolNameProblem(n) == "", "%q", n)
	}
}
