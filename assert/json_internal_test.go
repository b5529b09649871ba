package assert

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"
)

func TestJSONBoundedList(t *testing.T) {
	var items []string
	for i := range 25 {
		items = append(items, fmt.Sprint(i))
	}
	tests := []struct {
		n    int
		want string
	}{
		{0, ""},
		{2, "0, 1"},
		{maxListed, "0, 1, 2, 3, 4, 5, 6, 7, 8, 9"},
		{25, "0, 1, 2, 3, 4, 5, 6, 7, 8, 9, … and 15 more"},
	}
	for _, tt := range tests {
		if got := boundedList(items[:tt.n]); got != tt.want {
			t.Errorf("boundedList(%d items) = %q, want %q", tt.n, got, tt.want)
		}
	}
}

// TestJSONValueScalarFastPath: the scalars jsonValue writes without
// encoding/json read exactly as encoding/json writes them, and the ones
// it leaves to encoding/json are left.
func TestJSONValueScalarFastPath(t *testing.T) {
	values := []any{nil, true, false, 0.0, 1.0, -7.0, 42.0, 1e14, -1e14 + 1, 999999999999999.0, 1e15, 1e21, 0.5, math.Copysign(0, -1), 3.25,
		"", "FQ8APE", "a b ~ } {", `say "hi"`, `back\slash`, "tab\there", "new\nline", "<b>&</b>", "é", "\u2028", "\x7f", string([]byte{0xff})}
	for _, v := range values {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			t.Fatal(err)
		}
		want := strings.TrimSuffix(b.String(), "\n")
		if got, ok := plainScalar(v); ok && got != want {
			t.Errorf("plainScalar(%#v) = %s, encoding/json writes %s", v, got, want)
		}
		if got := jsonValue(v, 200); got != want {
			t.Errorf("jsonValue(%#v) = %s, want %s", v, got, want)
		}
	}
	for _, v := range []any{math.Copysign(0, -1), 1e15, 0.5, `say "hi"`, "é", "\x7f", map[string]any{}} {
		if _, ok := plainScalar(v); ok {
			t.Errorf("plainScalar(%#v) took the fast path", v)
		}
	}
}
