package assert

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
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
	`{"a": 1, "a": 2}`, `{"é": "naïve 漢字"}`, `[{"x": []}, {}]`,
	`{"a": "\n"}`, `{"a": "\u00e9"}`, `{"a\t": "x\"y\\z\/\b\f\r\u0000é\u2028"}`,
	// Left to encoding/json:
	`{"a": "\ud83d\ude00"}`, `{"a": "\ud83d"}`, `{"a": "\x"}`, `{"a": "\u12"}`, "{\"a\": \"\\n\xff\"}", "{\"a\": \"\xff\"}", "{\"a\": \"\x01\"}", `{"a": 01}`, `{"a": 1.}`, `{"a": .5}`, `{"a": -}`,
	`{"a": 1e}`, `{"a": +1}`, `{"a": tru}`, `{"a": nul}`, `{"a" 1}`, `{"a": 1,}`, `[1,]`, `{"a": 1} x`, `{"a": 1}{}`, `{"a": 1}` + "\u00a0",
	`1`, `"s"`, `null`, ``, ` `, `{`, `[`, `{"a": [1, 2}`, `{1: 2}`, `[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]`,
	`{"a": NaN}`, `{"a": Infinity}`, `{"a": 1e400}`,
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
	assert.Equal(t, 15, quick, "the first 14 seeds take the fast path, and 1e400 (kept as its text)")
	v, ok := quickNumbersJSON([]byte(`{"n": 3, "m": 1e400}`))
	assert.True(t, ok)
	assert.Equal(t, map[string]any{"n": json.Number("3"), "m": json.Number("1e400")}, v, "numbers keep their text")
}

func checkQuickNumbersJSON(t *testing.T, in []byte) {
	t.Helper()
	want, wantErr := slowNumbersJSON(in)
	got, ok := quickNumbersJSON(in)
	if ok {
		if wantErr != nil {
			t.Fatalf("%q: the fast path decoded what encoding/json refuses (%v)", in, wantErr)
		}
		assert.Equal(t, want, got, "%q", in)
	}
	all, err := decodeNumbersJSON(in)
	assert.Equal(t, want, all, "%q", in)
	assert.Equal(t, fmt.Sprint(wantErr), fmt.Sprint(err), "%q", in)
}

func FuzzQuickNumbersJSON(f *testing.F) {
	for _, s := range quickJSONSeeds {
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
	assert.Equal(t, 14, quick, "the first 14 seeds take the fast path")
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
		assert.Equal(t, want, got, "%q", in)
	}
	all, err := decodeJSON(in)
	if wantErr != nil {
		assert.Error(t, err, "%q", in)
		return
	}
	assert.Equal(t, want, all, "%q", in)
}

func FuzzQuickPlainJSON(f *testing.F) {
	for _, s := range quickJSONSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) { checkQuickPlainJSON(t, in) })
}
