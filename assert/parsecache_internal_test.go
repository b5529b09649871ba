package assert

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/internal/jsonx"
)

// parseCacheInvariant checks what the cache keeps against its bounds: the
// ring holds exactly the map's keys, within maxParsedEntries and
// maxParsedBytes.
func parseCacheInvariant(t *testing.T) {
	t.Helper()
	c := &parseCache
	c.Lock()
	defer c.Unlock()
	require.Len(t, c.m, c.n)
	require.LessOrEqual(t, c.n, maxParsedEntries)
	total := 0
	for i := range c.n {
		k := c.ring[(c.head+i)%maxParsedEntries]
		require.Contains(t, c.m, k)
		total += len(k.text)
	}
	require.Equal(t, total, c.bytes)
	require.LessOrEqual(t, c.bytes, maxParsedBytes)
}

func TestParseCacheSharesAndBounds(t *testing.T) {
	a := parseOutput(`{"n": 1}`, jsonx.Strict)
	assert.Same(t, a, parseOutput(`{"n": 1}`, jsonx.Strict), "the same text in the same mode is parsed once")
	assert.NotSame(t, a, parseOutput(`{"n": 1}`, jsonx.Prose), "another mode is another parse")
	assert.NotSame(t, a, parseOutput(`{"n": 2}`, jsonx.Strict))
	v, err := a.Plain()
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"n": 1.0}, v)

	for i := range 3 * maxParsedEntries {
		parseOutput(fmt.Sprintf(`{"i": %d}`, i), jsonx.Strict)
	}
	parseCacheInvariant(t)

	// A few large texts: the byte budget evicts, not the count.
	big := func(i int) string {
		return fmt.Sprintf(`{"i": %d, "pad": "%s"}`, i, strings.Repeat("x", maxParsedBytes/3))
	}
	for i := range 5 {
		parseOutput(big(i), jsonx.Strict)
		parseCacheInvariant(t)
	}
	huge := `{"pad": "` + strings.Repeat("x", maxParsedBytes) + `"}`
	assert.NotSame(t, parseOutput(huge, jsonx.Strict), parseOutput(huge, jsonx.Strict), "a text past the budget is not kept")
	parseCacheInvariant(t)
}

func TestParseCacheConcurrent(t *testing.T) {
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 500 {
				n := (i + g) % 100 // goroutines ask for the same texts at once
				p := parseOutput(fmt.Sprintf(`{"n": %d}`, n), jsonx.Strict)
				v, err := p.Plain()
				if err != nil || v.(map[string]any)["n"] != float64(n) {
					t.Errorf("text %d read as %v, %v", n, v, err)
					return
				}
				if _, err := p.Exact(); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	parseCacheInvariant(t)
}

// TestParseCacheFollowsContent: the cache is keyed by text, so a message
// given new content is read anew, and equal content in another transcript
// reads the same.
func TestParseCacheFollowsContent(t *testing.T) {
	ctx := context.Background()
	tr := &evalkit.Transcript{Messages: []evalkit.Message{{Role: evalkit.RoleAssistant, Content: `{"status": "shipped", "items": [3, 1, 2]}`}}}
	check := func(c Check) Result {
		t.Helper()
		res, err := c.Check(ctx, tr)
		require.NoError(t, err)
		return res
	}
	assert.True(t, check(JSONPath{Expression: "status", Expected: "shipped"}).Passed)
	assert.True(t, check(JSONPath{Expression: "sort_by(items, &@)[0]", Expected: 1}).Passed)
	assert.True(t, check(JSONPath{Expression: "items[0]", Expected: 3}).Passed, "sort_by left the shared data alone")
	tr.Messages[0].Content = `{"status": "lost", "items": []}`
	assert.False(t, check(JSONPath{Expression: "status", Expected: "shipped"}).Passed)
	assert.True(t, check(JSONSchema{Schema: `{"properties": {"items": {"maxItems": 0}}}`}).Passed)
}

func TestShortNumbers(t *testing.T) {
	for js, want := range map[string]bool{
		`{"a": 1, "b": -2.5, "c": [0, 0.001, 19.99, 1e10, 1.5E-7, 123456789012345]}`: true,
		`{"s": "9007199254740993 in a string, \" 1.00000000000000001"}`:              true,
		`-0`: true, `0.0`: true, `1e290`: true, `1e-290`: true, `0.00001e-285`: true,
		`9007199254740993`: false, `1234567890123456`: false, `3.0000000000000001`: false,
		`1e291`: false, `1e-291`: false, `0.0001e-288`: false, `[1, 2, 1e400]`: false,
		`{"price": 0.1000000000000000055511151231257827}`: false,
	} {
		assert.Equal(t, want, shortNumbers([]byte(js)), js)
		in := []byte(`{"k": [` + js + `]}`)
		_, short, ok := quickPlainJSONShort(in)
		assert.Equal(t, !strings.Contains(js, "1e400"), ok, "%s: decoded quickly unless beyond float64", in)
		if ok {
			assert.Equal(t, want, short, "%s: the decoder's reading", in)
		}
	}
}

// TestParsedPlainAnswersConflictAndShort: Conflict and ShortNumbers give
// the same answers whether Plain decoded the JSON before them (its quick
// decoder answers both) or not (each scans), from one goroutine or many
// at once (go test -race), on keys given twice with equal and differing
// values, long and short numbers, and JSON the quick decoder leaves to
// encoding/json.
func TestParsedPlainAnswersConflictAndShort(t *testing.T) {
	texts := []string{
		`{"a": 1, "b": {"c": [1, 2.5, "x"]}}`,
		`{"a": 1, "a": 1}`, `{"a": 1, "a": 2}`, `{"o": {"k": "v", "k": "w"}}`, `[{"k": 1}, {"k": 2, "k": 1}]`,
		`{"a": 9007199254740993}`, `{"a": 1e291, "b": 1}`, `{"a": 1, "a": 12345678901234567}`,
		`{"s": "\ud800"}`, `{"deep": ` + strings.Repeat("[", 40) + strings.Repeat("]", 40) + `}`, `7`, `"text"`,
	}
	for _, js := range texts {
		in := []byte(js)
		wantConflict, wantShort := jsonx.Conflicts(in), shortNumbers(in)
		for order := range 3 {
			p := &parsed{found: jsonx.Found{JSON: in}}
			switch order {
			case 0: // as json_schema alone reads it
				assert.Equal(t, wantConflict, p.Conflict(), "%s: Conflict first", js)
				assert.Equal(t, wantShort, p.ShortNumbers(), "%s: ShortNumbers first", js)
				_, _ = p.Plain()
			case 1: // as json_path reads it
				_, _ = p.Plain()
				assert.Equal(t, wantConflict, p.Conflict(), "%s: Conflict after Plain", js)
				assert.Equal(t, wantShort, p.ShortNumbers(), "%s: ShortNumbers after Plain", js)
			case 2:
				var wg sync.WaitGroup
				for g := range 8 {
					wg.Add(1)
					go func() {
						defer wg.Done()
						if g%2 == 0 {
							_, _ = p.Plain()
						}
						assert.Equal(t, wantConflict, p.Conflict(), "%s: at once", js)
						assert.Equal(t, wantShort, p.ShortNumbers(), "%s: at once", js)
					}()
				}
				wg.Wait()
			}
		}
	}
}

// TestShortNumbersValidateAlike: for JSON whose numbers ShortNumbers
// accepts, the schema validator judges the float64 decoding exactly as it
// judges the json.Number one, on every keyword that reads a number's value.
func TestShortNumbersValidateAlike(t *testing.T) {
	literals := []string{"0", "-0", "3", "3.0", "3.5", "19.99", "20", "0.1", "0.3", "0.30000000000000004", "1e2", "100",
		"-7.25", "123456789012345", "0.000001", "1e-7", "2.5e3", "99.999999999999", "4503599627370497",
		"3.0000000000000001", "19.990000000000001", "9007199254740993"}
	schemas := []string{
		`{"type": "integer"}`, `{"minimum": 3}`, `{"maximum": 19.99}`, `{"exclusiveMinimum": 0.1}`,
		`{"exclusiveMaximum": 100}`, `{"multipleOf": 0.01}`, `{"multipleOf": 0.1}`, `{"multipleOf": 3}`,
		`{"const": 19.99}`, `{"const": 0.3}`, `{"enum": [3, 0.1, 100, 1e-7]}`, `{"minimum": 0.30000000000000004}`,
		`{"type": "array", "uniqueItems": true}`,
	}
	for _, st := range schemas {
		sch, err := compileSchema(st)
		require.NoError(t, err, st)
		for _, lit := range literals {
			for _, js := range []string{lit, "[" + lit + ", 3]"} {
				p := &parsed{found: jsonx.Found{JSON: []byte(js)}}
				if !p.ShortNumbers() {
					continue
				}
				plain, err := p.Plain()
				require.NoError(t, err)
				exact, err := p.Exact()
				require.NoError(t, err)
				assert.Equal(t, sch.Validate(exact) == nil, sch.Validate(plain) == nil, "%s on %s", st, js)
			}
		}
	}
}
