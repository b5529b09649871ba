package evaltest

import (
	"math"
	"slices"
	"strconv"
)

// appendPlainJSON appends v as goValue's encoder writes it (encoding/json,
// HTML not escaped, map keys sorted) for the values a case file or a
// literal params map holds — maps with string keys, []any, strings of
// printable ASCII without quote or backslash, float64 written without an
// exponent, ints, bools, nil — and reports false for anything else, which
// goValue then gives to encoding/json. The label of every Eval is rendered
// this way; encoding/json's reflection cost more than the rest of its
// message. TestAppendPlainJSONIsEncodingJSON compares the two.
func appendPlainJSON(b []byte, v any, depth int) ([]byte, bool) {
	if depth > 64 {
		return b, false
	}
	switch v := v.(type) {
	case nil:
		return append(b, "null"...), true
	case bool:
		return strconv.AppendBool(b, v), true
	case string:
		return appendPlainString(b, v)
	case float64:
		// encoding/json writes 'f' format between 1e-6 and 1e21; the
		// exponent form and NaN or infinities are left to it.
		if a := math.Abs(v); math.IsNaN(v) || math.IsInf(v, 0) || (a != 0 && (a < 1e-6 || a >= 1e21)) {
			return b, false
		}
		return strconv.AppendFloat(b, v, 'f', -1, 64), true
	case int:
		return strconv.AppendInt(b, int64(v), 10), true
	case int64:
		return strconv.AppendInt(b, v, 10), true
	case []any:
		if v == nil {
			return append(b, "null"...), true
		}
		b = append(b, '[')
		for i, e := range v {
			if i > 0 {
				b = append(b, ',')
			}
			var ok bool
			if b, ok = appendPlainJSON(b, e, depth+1); !ok {
				return b, false
			}
		}
		return append(b, ']'), true
	case map[string]any:
		if v == nil {
			return append(b, "null"...), true
		}
		var buf [16]string
		keys := buf[:0]
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			var ok bool
			if b, ok = appendPlainString(b, k); !ok {
				return b, false
			}
			b = append(b, ':')
			if b, ok = appendPlainJSON(b, v[k], depth+1); !ok {
				return b, false
			}
		}
		return append(b, '}'), true
	}
	return b, false
}

// appendPlainString appends s quoted when encoding/json would write it as
// is between quotes: printable ASCII, no quote, no backslash.
func appendPlainString(b []byte, s string) ([]byte, bool) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return b, false
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"'), true
}
