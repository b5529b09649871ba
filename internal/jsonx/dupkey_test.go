package jsonx_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

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
		{`{"a": `, ""}, // not JSON: the caller's decoding says so
	} {
		got, ok := jsonx.DuplicateKey([]byte(tc.in))
		assert.Equal(t, tc.want, got, tc.in)
		assert.Equal(t, tc.want != "", ok, tc.in)
	}
}
