package assert

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/evalkit-go/evalkit/internal/jsonx"
)

// slowNumbersJSON is decodeNumbersJSON without its fast path.
func slowNumbersJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(data[dec.InputOffset():])) > 0 {
		return nil, fmt.Errorf("invalid JSON after the top-level value")
	}
	return v, nil
}

var quickJSONSeeds = []string{
	`{}`, `[]`, ` { } `, "\t[\n]\r\n", `{"a":1}`, `{"reservation_id": "FQ8APE", "total_baggages": 3, "nonfree_baggages": 0}`,
	`{"a": [1, -0, 0.5, 1e3, 1E+3, 2e-7, -12.50, 123456789012345678901234567890]}`, `{"a": {"b": {"c": [true, false, null]}}}`,
	`{"é": "naïve 漢字"}`, `[{"x": []}, {}]`,
	`{"a": "\n"}`, `{"a": "\u00e9"}`, `{"a\t": "x\"y\\z\/\b\f\r\u0000é\u2028"}`,
	// Left to encoding/json: a key given twice (then an error when its
	// values differ), surrogate escapes, bad escapes, control characters,
	// invalid UTF-8, what is not JSON, deep nesting, scalars at the top.
	`{"a": 1, "a": 2}`, `{"a": 1, "a": 1}`, `{"a": {"b": 1, "b": 1.0}}`,
	`{"a": "\ud83d\ude00"}`, `{"a": "\ud83d"}`, `{"a": "\x"}`, `{"a": "\u12"}`, "{\"a\": \"\\n\xff\"}", "{\"a\": \"\xff\"}", "{\"a\": \"\x01\"}", `{"a": 01}`, `{"a": 1.}`, `{"a": .5}`, `{"a": -}`,
	`{"a": 1e}`, `{"a": +1}`, `{"a": tru}`, `{"a": nul}`, `{"a" 1}`, `{"a": 1,}`, `[1,]`, `{"a": 1} x`, `{"a": 1}{}`, `{"a": 1}` + "\u00a0",
	`1`, `"s"`, `null`, ``, ` `, `{`, `[`, `{"a": [1, 2}`, `{1: 2}`, `[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]`,
	`{"a": NaN}`, `{"a": Infinity}`, `{"a": 1e400}`,
}

// quickJSONHostile are the shapes where a quick decoder most easily parts
// from encoding/json: numbers whose float64 and text differ (7 and 7.0,
// 1e21, -0, integers past 2^53, underflow, 1e400), escapes of every kind,
// invalid UTF-8 outside and inside escapes, keys given twice or equal
// after unescaping, and nesting at and past the quick decoder's depth.
var quickJSONHostile = []string{
	`{"a": 7, "b": 7.0, "c": 7e0, "d": 70e-1, "e": 0.7e1}`, `{"a": 1e21, "b": 1E21, "c": 100000000000000000000, "d": 1e+21}`,
	`{"a": -0, "b": -0.0, "c": -0e0, "d": 0, "e": -0E-0}`, `[-0]`, `[-0.0, 0.0]`,
	`{"a": 9007199254740993, "b": 9007199254740992, "c": -9007199254740993, "d": 18446744073709551616}`,
	`{"a": 1e-400, "b": -1e-400, "c": 4.9e-324, "d": 2.5e-324, "e": 1.7976931348623157e308, "f": 1.7976931348623159e308}`,
	`{"a": 0.1, "b": 0.30000000000000004, "c": 123456789.123456789123456789}`, `{"a": 1e400}`, `{"a": -1e400}`,
	`{"a": 1.0e}`, `{"a": 00}`, `{"a": -01}`, `{"a": 1e-}`, `{"a": .1}`, `{"a": -.1}`, `{"a": 1.e1}`,
	`{"\u0061": 1, "a": 2}`, `{"a": 1, "a": 1}`, `{"a": {"b": 1}, "a": [2]}`, `{"A": 1, "a": 2}`, `{"\u212a": 1, "k": 2}`,
	`{"a": "\u0000\u001f\u007f\u0080\u00ff\u0100\uffff\ufffe\ufeff"}`, `{"a": "\uD834\uDD1E"}`, `{"a": "\uDD1E\uD834"}`, `{"a": "\uD834x"}`, `{"a": "\uD834\u0041"}`,
	`{"a": "\\u0041"}`, `{"a": "\/\\\"\b\f\n\r\t"}`, `{"a": "\U0041"}`, `{"a": "\u004"}`, `{"a": "\u00G1"}`, `{"a": "\'"}`,
	"{\"a\": \"\xc3\"}", "{\"a\": \"\xc3\xa9\"}", "{\"a\": \"\xed\xa0\x80\"}", "{\"a\": \"\xf4\x90\x80\x80\"}", "{\"a\": \"\xc0\xaf\"}", "{\"\xff\": 1}",
	"{\"a\": \"\\n\xc3\"}", "{\"a\": \"\x7f\"}", "{\"a\": \"\t\"}",
	"\xef\xbb\xbf{}", "{}\x00", "{} \n\t\r", "{}\v", "{\"a\":\f1}",
	strings.Repeat(`[`, 32) + strings.Repeat(`]`, 32), strings.Repeat(`[`, 33) + strings.Repeat(`]`, 33), strings.Repeat(`[`, 34) + strings.Repeat(`]`, 34),
	strings.Repeat(`{"a":`, 33) + `1` + strings.Repeat(`}`, 33), strings.Repeat(`[`, 10001) + strings.Repeat(`]`, 10001),
	`{"a": true, "b": false, "c": null, "d": [], "e": {}}`, `{"a": truefalse}`, `{"a": nulll}`, `[true false]`, `{"a" : 1 , "b" : 2 }`,
}

// TestQuickNumbersJSON: what the fast path decodes is exactly what
// encoding/json decodes, and what it declines encoding/json still decodes
// (or refuses) as before.
func TestQuickNumbersJSON(t *testing.T) {
	quick := 0
	for _, in := range quickJSONSeeds {
		checkQuickNumbersJSON(t, []byte(in))
		if _, ok := quickNumbersJSON([]byte(in)); ok {
			quick++
		}
	}
	assert.Equal(t, 14, quick, "the first 13 seeds take the fast path, and 1e400 (kept as its text)")
	v, ok := quickNumbersJSON([]byte(`{"n": 3, "m": 1e400}`))
	assert.True(t, ok)
	assert.Equal(t, map[string]any{"n": json.Number("3"), "m": json.Number("1e400")}, v, "numbers keep their text")
}

func checkQuickNumbersJSON(t *testing.T, in []byte) {
	t.Helper()
	want, wantErr := slowNumbersJSON(in)
	if wantErr == nil {
		if wantErr = jsonx.Conflicts(in); wantErr != nil {
			want = nil // a key given twice with different values: no value
		}
	}
	got, ok := quickNumbersJSON(in)
	if ok {
		if wantErr != nil {
			t.Fatalf("%q: the fast path decoded what encoding/json refuses (%v)", in, wantErr)
		}
		assert.True(t, sameJSON(want, got), "%q: got %#v, encoding/json %#v", in, got, want)
	}
	all, err := decodeNumbersJSON(in)
	assert.True(t, sameJSON(want, all), "%q: got %#v, encoding/json %#v", in, all, want)
	assert.Equal(t, fmt.Sprint(wantErr), fmt.Sprint(err), "%q", in)
}

func FuzzQuickNumbersJSON(f *testing.F) {
	for _, s := range append(quickJSONSeeds, quickJSONHostile...) {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) { checkQuickNumbersJSON(t, in) })
}

// TestQuickPlainJSON: the JSON checks' fast decode of an answer gives
// exactly what json.Unmarshal into an any gives (numbers as float64), and
// leaves to it what it refuses.
func TestQuickPlainJSON(t *testing.T) {
	quick := 0
	for _, in := range quickJSONSeeds {
		checkQuickPlainJSON(t, []byte(in))
		if _, ok := quickPlainJSON([]byte(in)); ok {
			quick++
		}
	}
	assert.Equal(t, 13, quick, "the first 13 seeds take the fast path (a key given twice goes to encoding/json)")
	_, ok := quickPlainJSON([]byte(`{"m": 1e400}`))
	assert.False(t, ok, "a number beyond float64 is encoding/json's to refuse")
}

func checkQuickPlainJSON(t *testing.T, in []byte) {
	t.Helper()
	var want any
	wantErr := json.Unmarshal(in, &want)
	if got, ok := quickPlainJSON(in); ok {
		if wantErr != nil {
			t.Fatalf("%q: the fast path decoded what encoding/json refuses (%v)", in, wantErr)
		}
		assert.True(t, sameJSON(want, got), "%q: got %#v, encoding/json %#v", in, got, want)
	}
	if got, short, ok := quickPlainJSONShort(in); ok {
		want, _ := quickPlainJSON(in)
		assert.True(t, sameJSON(want, got), "%q: quickPlainJSONShort decodes as quickPlainJSON", in)
		assert.Equal(t, shortNumbers(in), short, "%q: short as shortNumbers scans it", in)
	} else if _, ok := quickPlainJSON(in); ok {
		t.Fatalf("%q: quickPlainJSON decodes what quickPlainJSONShort leaves", in)
	}
	all, err := decodeJSON(in)
	if wantErr != nil {
		assert.Error(t, err, "%q", in)
		return
	}
	assert.True(t, sameJSON(want, all), "%q: got %#v, encoding/json %#v", in, all, want)
}

func FuzzQuickPlainJSON(f *testing.F) {
	for _, s := range append(quickJSONSeeds, quickJSONHostile...) {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) { checkQuickPlainJSON(t, in) })
}

// TestQuickJSONHostile: on the hostile shapes, both quick decoders give
// what encoding/json gives, bit for bit (-0 is not 0), or leave the input
// to it.
func TestQuickJSONHostile(t *testing.T) {
	for _, in := range quickJSONHostile {
		checkQuickNumbersJSON(t, []byte(in))
		checkQuickPlainJSON(t, []byte(in))
	}
	v, ok := quickPlainJSON([]byte(`[-0]`))
	if !ok || !math.Signbit(v.([]any)[0].(float64)) {
		t.Errorf("[-0] decoded to %#v, %v: want -0, as encoding/json gives", v, ok)
	}
}

// sameJSON reports whether two decoded JSON values are the same: the same
// shapes, json.Number texts and strings, and float64s of the same bits,
// which tells -0 from 0 where reflect.DeepEqual's == does not.
func sameJSON(a, b any) bool {
	switch a := a.(type) {
	case float64:
		b, ok := b.(float64)
		return ok && math.Float64bits(a) == math.Float64bits(b)
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || len(a) != len(b) || (a == nil) != (b == nil) {
			return false
		}
		for k, v := range a {
			w, ok := b[k]
			if !ok || !sameJSON(v, w) {
				return false
			}
		}
		return true
	case []any:
		b, ok := b.([]any)
		if !ok || len(a) != len(b) || (a == nil) != (b == nil) {
			return false
		}
		for i := range a {
			if !sameJSON(a[i], b[i]) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a, b)
}
