package jsonx_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit/internal/jsonx"
)

func TestDuplicateKey(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"passed": false, "passed": true}`, "passed"},
		{`{"a": 1, "b": {"c": 2, "c": 2}}`, "b.c"},
		{`{"items": [{"id": 1}, {"id": 2}, {"id": 3, "id": 4}]}`, "items[2].id"},
		{`[[], [1, {"x": [], "y": 1, "x": {}}]]`, "[1][1].x"},
		{`{"result": {"status": {"state": "failed", "message": {}, "state": "completed"}}}`, "result.status.state"},
		{`{"a": {"k": 1}, "b": {"k": 1}, "k": "a"}`, ""}, // one key in each object
		{`{"a": "a", "b": ["a", "a"]}`, ""},              // strings that are values, not keys
		{`{}`, ""},
		{`7`, ""},
		{`{"x": 1e400, "passed": false, "passed": true}`, "passed"}, // past float64, still JSON
		{`{"result": {}, "Result": {}}`, "Result"},                  // encoding/json fills one field from both
		{`{"status": 1, "\u017ftatus": 2}`, "ſtatus"},               // ſ folds to s
		{`{"kind": 1, "\u212aind": 2}`, "\u212aind"},                // the Kelvin sign folds to k
		{`{"a": "\u0061", "\u0061": 1}`, "a"},                       // an escape is its letter
	} {
		got, ok, err := jsonx.DuplicateFoldedKey([]byte(tc.in))
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.want, got, tc.in)
		assert.Equal(t, tc.want != "", ok, tc.in)
	}
	// Exact keys: what a map holds apart is apart.
	for in, want := range map[string]string{`{"ID": 1, "id": 2}`: "", `{"a": {"x": 1, "x": 2}}`: "a.x", `{"Result": 1, "result": 2}`: ""} {
		got, ok, err := jsonx.DuplicateKey([]byte(in))
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
		assert.Equal(t, want != "", ok, in)
	}
	for _, bad := range []string{`{"a": `, `{"a" 1}`, `[1,,2]`, `{"a": 1}}`} {
		_, ok, err := jsonx.DuplicateKey([]byte(bad))
		assert.Error(t, err, "%s does not read as JSON: never \"no duplicate\"", bad)
		assert.False(t, ok)
	}
}
