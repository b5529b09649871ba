package query

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"
)

// goShapes rewrites a decoded JSON value into the Go shapes tests and case
// files hand to the checks: numbers as int, int64, int32, float32 or
// json.Number, lists of strings as []string, objects behind pointers or in
// structs. shape's bits pick which; the walk is deterministic.
func goShapes(v any, shape uint8, depth int) any {
	bit := func(n uint) bool { return shape>>((n+uint(depth))%8)&1 == 1 }
	switch v := v.(type) {
	case json.Number:
		if i, err := strconv.ParseInt(string(v), 10, 32); err == nil {
			switch {
			case bit(0):
				return int(i)
			case bit(1):
				return int64(i)
			case bit(2):
				return int32(i)
			}
		}
		if f, err := v.Float64(); err == nil && bit(3) && float64(float32(f)) == f {
			return float32(f)
		}
		return v
	case []any:
		strs := make([]string, 0, len(v))
		for _, e := range v {
			if s, ok := e.(string); ok {
				strs = append(strs, s)
			}
		}
		if len(v) > 0 && len(strs) == len(v) && bit(4) {
			return strs
		}
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = goShapes(e, shape, depth+1)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = goShapes(e, shape, depth+1)
		}
		switch {
		case bit(5):
			return &out
		case bit(6):
			return struct {
				V any `json:"v"`
			}{out}
		}
		return out
	}
	return v
}

// FuzzNormalize: for any JSON, in any of the Go shapes goShapes makes,
// Normalize gives exactly what an encoding/json round trip gives, or an
// error exactly when the round trip fails — never a panic; its result is
// already normal, and normalizing it again changes nothing. Seeds are the
// JSON bodies of the repository's API samples and the values field case
// C13 compares.
func FuzzNormalize(f *testing.F) {
	for _, s := range []string{`{"min_size": 2, "max_size": 7}`, `{"fees": [{"fee": 20.0}, {"fee": 5}]}`, `{"ts": 1.476857243e+09}`, `{"n": "1"}`,
		`[1e400]`, `[-0, 0.0, 1E2, 12345678901234567890]`, `{"tags": {"created-by": "ops-bot", "v1.2": "ok"}}`, `[[], {}, null, true, "x"]`} {
		f.Add([]byte(s), uint8(0))
		f.Add([]byte(s), uint8(0xff))
	}
	files, _ := filepath.Glob("../../testdata/api_samples/*.json")
	for _, file := range files {
		if data, err := os.ReadFile(file); err == nil && len(data) < 64<<10 {
			f.Add(data, uint8(0x5a))
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, shape uint8) {
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		var decoded any
		if dec.Decode(&decoded) != nil {
			return
		}
		v := goShapes(decoded, shape, 0)
		got, err := Normalize(v)

		var want any
		raw, werr := json.Marshal(v)
		if werr == nil {
			werr = json.Unmarshal(raw, &want)
		}
		if werr != nil {
			if err == nil {
				t.Fatalf("Normalize accepted what JSON cannot hold (%v): %#v", werr, v)
			}
			return
		}
		if err != nil {
			t.Fatalf("Normalize(%#v): %v; the round trip gives %#v", v, err, want)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("Normalize(%#v) = %#v, the round trip gives %#v", v, got, want)
		}
		if !normal(got) {
			t.Fatalf("the result is not normal: %#v", got)
		}
		again, err := Normalize(got)
		if err != nil || !reflect.DeepEqual(again, got) {
			t.Fatalf("normalizing again: %#v, %v", again, err)
		}
		checkFinite(t, got)
	})
}

func checkFinite(t *testing.T, v any) {
	switch v := v.(type) {
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("%v in a normalized value", v)
		}
	case []any:
		for _, e := range v {
			checkFinite(t, e)
		}
	case map[string]any:
		for _, e := range v {
			checkFinite(t, e)
		}
	}
}
