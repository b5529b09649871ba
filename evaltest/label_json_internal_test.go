package evaltest

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/evalkit-go/evalkit/internal/benchdata"
)

// encodeLabelJSON is goValue's encoding/json path, which appendPlainJSON
// stands in for.
func encodeLabelJSON(v any) (string, bool) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", false
	}
	return strings.TrimSuffix(b.String(), "\n"), true
}

// appendPlainJSON writes what encoding/json writes for every value it
// accepts: the params of every check of the real corpus, and random
// params maps of every shape it handles and some it refuses.
func TestAppendPlainJSONIsEncodingJSON(t *testing.T) {
	check := func(v map[string]any) (accepted bool) {
		t.Helper()
		got, ok := appendPlainJSON(nil, v, 0)
		if !ok {
			return false
		}
		want, wok := encodeLabelJSON(v)
		if !wok || string(got) != want {
			t.Fatalf("appendPlainJSON(%#v) = %q; encoding/json: %q (ok %v)", v, got, want, wok)
		}
		return true
	}
	runs, err := benchdata.CorpusRuns()
	if err != nil {
		t.Fatal(err)
	}
	corpus := 0
	for i := range runs {
		for _, s := range runs[i].Checks() {
			if check(s.Params) {
				corpus++
			}
		}
	}
	if corpus == 0 {
		t.Fatal("no params map of the corpus took the fast path")
	}
	rng := rand.New(rand.NewPCG(21, 6))
	accepted, refused := 0, 0
	for range 20000 {
		m, _ := randomJSON(rng, 0, true).(map[string]any)
		if check(m) {
			accepted++
		} else {
			refused++
		}
	}
	if accepted < 1000 || refused < 1000 {
		t.Fatalf("random maps: %d accepted, %d refused: both paths want exercising", accepted, refused)
	}
	// A string encoding/json escapes sends the whole map to it.
	for _, s := range []string{"a\"b", `a\b`, "é", "\n", "\x7f", "\u2028"} {
		if _, ok := appendPlainJSON(nil, map[string]any{"k": s}, 0); ok {
			t.Errorf("appendPlainJSON accepted %q", s)
		}
	}
}

func randomJSON(rng *rand.Rand, depth int, top bool) any {
	kind := rng.IntN(10)
	if top {
		kind = 0
	}
	if depth > 3 && kind < 2 {
		kind = 2 + rng.IntN(8)
	}
	switch kind {
	case 0:
		if rng.IntN(20) == 0 && !top {
			return map[string]any(nil)
		}
		m := map[string]any{}
		for range rng.IntN(6) {
			m[randomString(rng)] = randomJSON(rng, depth+1, false)
		}
		return m
	case 1:
		if rng.IntN(20) == 0 {
			return []any(nil)
		}
		l := []any{}
		for range rng.IntN(5) {
			l = append(l, randomJSON(rng, depth+1, false))
		}
		return l
	case 2, 3:
		return randomString(rng)
	case 4:
		floats := []float64{0, math.Copysign(0, -1), 1, -1, 3.5, 1e-6, 9.99e-7, 1e20, 1e21, 123456789.125, 0.1, 2.5e-5, math.MaxFloat64, math.SmallestNonzeroFloat64}
		if rng.IntN(2) == 0 {
			return floats[rng.IntN(len(floats))]
		}
		return (rng.Float64() - 0.5) * math.Pow(10, float64(rng.IntN(30)-10))
	case 5:
		return rng.IntN(2) == 0
	case 6:
		return nil
	case 7:
		return rng.IntN(1000) - 500
	case 8:
		return rng.Int64() - rng.Int64()
	}
	return json.Number("12") // a type it leaves to encoding/json
}

func randomString(rng *rand.Rand) string {
	const alphabet = "abcXYZ 09_-.:/{}[]~!@#$%^&*()=+|;,?'`"
	var b strings.Builder
	for range rng.IntN(12) {
		switch rng.IntN(60) {
		case 0:
			b.WriteString([]string{"\"", "\\", "é", "<", "\n", "\x00", "\x7f", "\u2028", "\xff"}[rng.IntN(9)])
		default:
			b.WriteByte(alphabet[rng.IntN(len(alphabet))])
		}
	}
	return b.String()
}
