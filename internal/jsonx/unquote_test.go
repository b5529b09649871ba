package jsonx_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/evalkit-go/evalkit/internal/jsonx"
)

// AppendStringRest decodes what encoding/json decodes alike and refuses
// the rest, which the fast paths leave to encoding/json.
func TestAppendStringRest(t *testing.T) {
	for _, in := range []string{
		`"plain"`, `"a\"b\\c\/d"`, `"\b\f\n\r\t"`, `"\u00e9 \u2028 é 漢"`, `""`, `"x" tail`,
	} {
		var want string
		err := json.Unmarshal([]byte(in[:len(in)-len(tailOf(in))]), &want)
		assert.NoError(t, err, in)
		got, end, ok := jsonx.AppendStringRest([]byte("pre:"), []byte(in), 1)
		assert.True(t, ok, in)
		assert.Equal(t, "pre:"+want, string(got), in)
		assert.Equal(t, len(in)-len(tailOf(in)), end, "%s: just past the closing quote", in)
	}
	for _, in := range []string{
		`"\ud83d\ude00"`, `"\ud83d"`, `"\x"`, `"\u12"`, `"\u12zz"`, "\"a\x01\"", "\"\xff\"", `"no end`, `"\`,
	} {
		_, _, ok := jsonx.AppendStringRest(nil, []byte(in), 1)
		assert.False(t, ok, "%q is left to encoding/json", in)
	}
}

func tailOf(s string) string {
	if len(s) > 3 && s[len(s)-5:] == " tail" {
		return " tail"
	}
	return ""
}
