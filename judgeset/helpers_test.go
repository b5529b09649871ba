package judgeset_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

// pick returns the named fields of a JSON object body, as JSON.
func pick(t *testing.T, body []byte, fields ...string) string {
	t.Helper()
	var all map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(body, &all))
	out := map[string]json.RawMessage{}
	for _, f := range fields {
		if v, ok := all[f]; ok {
			out[f] = v
		}
	}
	data, err := json.Marshal(out)
	require.NoError(t, err)
	return string(data)
}
