package assert

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"github.com/evalkit-go/evalkit/internal/jsonx"
)

// quickNumbersJSON decodes the common shape of tool-call arguments — an
// object or array of strings, numbers, booleans, null and nested objects
// and arrays — to exactly what decodeNumbersJSON's json.Decoder (with
// UseNumber) gives, without it: the decoder was 8% of the chain
// benchmark's profile, tool_args decoding every call of its tool. ok is
// false for anything else (a surrogate escape, a control character,
// invalid UTF-8, deep nesting, a top-level scalar, trailing data, any
// syntax error), and the caller decodes with encoding/json as before, so
// every error and every unusual value is encoding/json's. So is a key
// given twice, which that path refuses when its values differ.
func quickNumbersJSON(data []byte) (v any, ok bool) {
	return quickJSON(data, false)
}

// quickPlainJSON is quickNumbersJSON with numbers as float64, as
// json.Unmarshal decodes into an any (a number beyond float64 is left to
// it, which refuses it): how the JSON checks decode an answer once for
// all of them (decodeJSON), a quarter of the corpus chain's profile.
func quickPlainJSON(data []byte) (v any, ok bool) {
	return quickJSON(data, true)
}

// quickPlainJSONShort is quickPlainJSON that also says whether every
// number in the JSON is short (shortNumbers), read as it decodes them.
func quickPlainJSONShort(data []byte) (v any, short, ok bool) {
	d := quickDecoder{data: data, floats: true}
	v, ok = d.top()
	return v, !d.long, ok
}

func quickJSON(data []byte, floats bool) (v any, ok bool) {
	d := quickDecoder{data: data, floats: floats}
	return d.top()
}

func (d *quickDecoder) top() (v any, ok bool) {
	d.space()
	if d.i >= len(d.data) || (d.data[d.i] != '{' && d.data[d.i] != '[') {
		return nil, false
	}
	if v, ok = d.value(0); !ok {
		return nil, false
	}
	d.space()
	return v, d.i == len(d.data)
}

// maxQuickDepth bounds the nesting quickNumbersJSON reads; deeper is left
// to encoding/json.
const maxQuickDepth = 32

type quickDecoder struct {
	data   []byte
	i      int
	floats bool   // numbers as float64, else json.Number
	long   bool   // with floats: a number read is not short (see shortNumber)
	buf    []byte // scratch for unescaping
}

func (d *quickDecoder) space() {
	for d.i < len(d.data) {
		switch d.data[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

func (d *quickDecoder) value(depth int) (any, bool) {
	if d.i >= len(d.data) || depth > maxQuickDepth {
		return nil, false
	}
	switch c := d.data[d.i]; {
	case c == '{':
		d.i++
		m := map[string]any{}
		d.space()
		if d.i < len(d.data) && d.data[d.i] == '}' {
			d.i++
			return m, true
		}
		for {
			d.space()
			k, ok := d.str()
			if !ok {
				return nil, false
			}
			d.space()
			if d.i >= len(d.data) || d.data[d.i] != ':' {
				return nil, false
			}
			d.i++
			d.space()
			e, ok := d.value(depth + 1)
			if !ok {
				return nil, false
			}
			n := len(m)
			if m[k] = e; len(m) == n {
				// A key given twice: decodeNumbersJSON's careful path
				// says whether its values differ (then it is an error).
				return nil, false
			}
			d.space()
			if d.i >= len(d.data) {
				return nil, false
			}
			switch d.data[d.i] {
			case ',':
				d.i++
			case '}':
				d.i++
				return m, true
			default:
				return nil, false
			}
		}
	case c == '[':
		d.i++
		a := []any{}
		d.space()
		if d.i < len(d.data) && d.data[d.i] == ']' {
			d.i++
			return a, true
		}
		for {
			d.space()
			e, ok := d.value(depth + 1)
			if !ok {
				return nil, false
			}
			a = append(a, e)
			d.space()
			if d.i >= len(d.data) {
				return nil, false
			}
			switch d.data[d.i] {
			case ',':
				d.i++
			case ']':
				d.i++
				return a, true
			default:
				return nil, false
			}
		}
	case c == '"':
		s, ok := d.str()
		return s, ok
	case c == '-' || ('0' <= c && c <= '9'):
		return d.number()
	case c == 't':
		return true, d.literal("true")
	case c == 'f':
		return false, d.literal("false")
	case c == 'n':
		return nil, d.literal("null")
	}
	return nil, false
}

func (d *quickDecoder) literal(word string) bool {
	if len(d.data)-d.i < len(word) || string(d.data[d.i:d.i+len(word)]) != word {
		return false
	}
	d.i += len(word)
	return true
}

// str reads a string without control characters, in valid UTF-8, whose
// escapes are not surrogates (encoding/json has rules of its own for
// those, and for invalid bytes).
func (d *quickDecoder) str() (string, bool) {
	if d.i >= len(d.data) || d.data[d.i] != '"' {
		return "", false
	}
	start := d.i + 1
	ascii := true
	for j := start; j < len(d.data); j++ {
		switch c := d.data[j]; {
		case c == '"':
			s := d.data[start:j]
			if !ascii && !utf8.Valid(s) {
				return "", false // encoding/json replaces invalid bytes
			}
			d.i = j + 1
			return string(s), true
		case c == '\\':
			if !ascii && !utf8.Valid(d.data[start:j]) {
				return "", false
			}
			return d.unescape(start, j)
		case c < 0x20:
			return "", false
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	return "", false
}

// unescape reads the rest of a string from its first escape at j, its
// text starting at start.
func (d *quickDecoder) unescape(start, j int) (string, bool) {
	b, end, ok := jsonx.AppendStringRest(append(d.buf[:0], d.data[start:j]...), d.data, j)
	if !ok {
		return "", false
	}
	d.i, d.buf = end, b
	return string(b), true
}

// number reads a number in JSON's grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
func (d *quickDecoder) number() (any, bool) {
	start := d.i
	if d.i < len(d.data) && d.data[d.i] == '-' {
		d.i++
	}
	switch {
	case d.i < len(d.data) && d.data[d.i] == '0':
		d.i++
	case d.i < len(d.data) && '1' <= d.data[d.i] && d.data[d.i] <= '9':
		d.digits()
	default:
		return nil, false
	}
	if d.i < len(d.data) && d.data[d.i] == '.' {
		d.i++
		if !d.digits() {
			return nil, false
		}
	}
	if d.i < len(d.data) && (d.data[d.i] == 'e' || d.data[d.i] == 'E') {
		d.i++
		if d.i < len(d.data) && (d.data[d.i] == '+' || d.data[d.i] == '-') {
			d.i++
		}
		if !d.digits() {
			return nil, false
		}
	}
	if d.floats {
		if !d.long {
			_, short := shortNumber(d.data[start:d.i])
			d.long = !short
		}
		f, err := strconv.ParseFloat(string(d.data[start:d.i]), 64)
		return f, err == nil // out of range: encoding/json refuses it
	}
	return json.Number(d.data[start:d.i]), true
}

// digits reads one or more digits.
func (d *quickDecoder) digits() bool {
	start := d.i
	for d.i < len(d.data) && '0' <= d.data[d.i] && d.data[d.i] <= '9' {
		d.i++
	}
	return d.i > start
}
