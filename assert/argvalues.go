package assert

// Tool-argument values: exact decoding of numbers, subset matching, and
// the bounded diffs that explain a mismatch.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/internal/jsonx"
	"github.com/evalkit-go/evalkit/internal/query"
	"github.com/evalkit-go/evalkit/internal/textnorm"
)

// normalizeArgs maps a Go value to its encoding/json shape (map[string]any,
// []any, string, bool, nil) with numbers as json.Number, so no digit of an
// int64 or uint64 is lost. Values JSON cannot hold are an error, and so is
// one too big to encode (more than 2^20 values or 64 MiB of JSON counted as
// a tree: a value sharing its parts can be exponentially bigger encoded).
func normalizeArgs(v any) (any, error) {
	if err := query.CheckSize(v, maxParamValues, maxArgsJSON); err != nil {
		return nil, err
	}
	if norm, ok := jsonShaped(v, 0); ok {
		return norm, nil
	}
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return decodeNumbersJSON(data)
}

// maxArgsJSON bounds the JSON of expected arguments, in bytes.
const maxArgsJSON = 64 << 20

// decodeNumbersJSON decodes one JSON value, numbers as json.Number; trailing data
// is an error, as with json.Unmarshal, and so is a key given twice in an
// object with different values (a *jsonx.ConflictError naming it and
// where): encoding/json keeps the last, a tool server may have used the
// first, so a check on either would be a guess.
func decodeNumbersJSON(data []byte) (any, error) {
	if v, ok := quickNumbersJSON(data); ok { // the common shape, see argdecode.go
		return v, nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if len(bytes.TrimSpace(data[dec.InputOffset():])) > 0 {
		return nil, fmt.Errorf("invalid JSON after the top-level value")
	}
	if err := jsonx.Conflicts(data); err != nil {
		return nil, err
	}
	return v, nil
}

// decodeArgs decodes a call's arguments as ToolCall.Arguments does, with the
// same errors, but numbers as json.Number.
func decodeArgs(c evalkit.ToolCall) (map[string]any, error) {
	if len(bytes.TrimSpace(c.Args)) == 0 {
		return map[string]any{}, nil
	}
	v, err := decodeNumbersJSON(c.Args)
	if err == nil {
		switch v := v.(type) {
		case map[string]any:
			return v, nil
		case nil:
			return map[string]any{}, nil
		}
	}
	if _, err := c.Arguments(); err != nil { // says why, in the transcript's words
		return nil, err
	}
	return nil, fmt.Errorf("arguments of %s are not a JSON object", c.Name)
}

// decimal is a JSON number literal reduced to its value: digits × 10^exp,
// negated when neg, with digits free of leading and trailing zeros ("" and
// exp 0 for zero, whatever its sign). Two literals have the same value
// exactly when their decimals are equal: 1e3, 1000 and 1000.0 all reduce to
// {digits "1", exp 3}.
type decimal struct {
	neg    bool
	digits string
	exp    int64
}

// integer reports whether the value is whole.
func (d decimal) integer() bool { return d.digits == "" || d.exp >= 0 }

// parseDecimal reduces a JSON number literal; false for anything else, and
// for exponents beyond ±2^50 (no float64 comes near, and the arithmetic on
// them must not overflow).
func parseDecimal(s string) (decimal, bool) {
	var d decimal
	if rest, ok := strings.CutPrefix(s, "-"); ok {
		d.neg, s = true, rest
	}
	mant, expText, hasExp := s, "", false
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant, expText, hasExp = s[:i], s[i+1:], true
	}
	if hasExp {
		e, err := strconv.ParseInt(expText, 10, 64)
		if err != nil || e > 1<<50 || e < -1<<50 {
			return decimal{}, false
		}
		d.exp = e
	}
	whole, frac, _ := strings.Cut(mant, ".")
	if whole == "" || !allDigits(whole) || !allDigits(frac) {
		return decimal{}, false
	}
	digits := strings.TrimLeft(whole+frac, "0")
	d.exp -= int64(len(frac))
	trimmed := strings.TrimRight(digits, "0")
	d.exp += int64(len(digits) - len(trimmed))
	if trimmed == "" {
		return decimal{}, true
	}
	d.digits = trimmed
	return d, true
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// numbersEqual compares two JSON number literals by value: exactly when
// either is whole (an integer equals only the same integer), as float64 when
// both are fractions. A literal that does not parse equals only itself.
func numbersEqual(a, b json.Number) bool {
	if a == b {
		return true
	}
	da, okA := parseDecimal(string(a))
	db, okB := parseDecimal(string(b))
	switch {
	case !okA || !okB:
		return false
	case da == db:
		return true
	case da.integer() || db.integer():
		return false
	}
	fa, errA := strconv.ParseFloat(string(a), 64)
	fb, errB := strconv.ParseFloat(string(b), 64)
	return errA == nil && errB == nil && fa == fb
}

// numberView is how a diff shows a number: a float64 when that holds it
// exactly (an integer within ±2^53) or when it is a fraction (fractions
// compare as float64); a larger integer as int64 or uint64; anything larger
// still as the literal.
func numberView(n json.Number) any {
	d, ok := parseDecimal(string(n))
	switch {
	case !ok:
		return n
	case !d.integer():
		if f, err := strconv.ParseFloat(string(n), 64); err == nil {
			return f
		}
		return n
	case d.digits == "":
		return 0.0
	case int64(len(d.digits))+d.exp > 20: // beyond uint64
		return n
	}
	whole := d.digits + strings.Repeat("0", int(d.exp))
	if d.neg {
		whole = "-" + whole
	}
	if i, err := strconv.ParseInt(whole, 10, 64); err == nil {
		if i >= -1<<53 && i <= 1<<53 {
			return float64(i)
		}
		return i
	}
	if u, err := strconv.ParseUint(whole, 10, 64); err == nil {
		return u
	}
	return n
}

// Bounds on what a diff shows of values the model wrote.
const (
	maxViewItems = 20   // list items and object keys shown of a value that has no counterpart
	maxViewDepth = 8    // nesting shown before a value is summarized as JSON
	maxDiff      = 4000 // bytes of a diff, cut at a line
)

// diffViews are want and got as a go-cmp diff shows them: numbers by
// numberView, so they print as numbers and not as json.Number strings, and
// everything bounded. Values that pair up (an object's keys, equal-length
// lists' items) are walked together, so two long strings are cut at the
// same place, around their first difference; go-cmp leaves out equal
// entries by itself.
func diffViews(want, got any, depth int) (any, any) {
	if depth < maxViewDepth {
		switch w := want.(type) {
		case map[string]any:
			if g, ok := got.(map[string]any); ok {
				wv, gv := make(map[string]any, len(w)), make(map[string]any, len(w))
				for k, we := range w {
					if ge, present := g[k]; present {
						wv[k], gv[k] = diffViews(we, ge, depth+1)
					} else {
						wv[k] = diffView(we, depth+1)
					}
				}
				return wv, gv
			}
		case []any:
			if g, ok := got.([]any); ok && len(g) == len(w) {
				wv, gv := make([]any, len(w)), make([]any, len(w))
				for i := range w {
					wv[i], gv[i] = diffViews(w[i], g[i], depth+1)
				}
				return wv, gv
			}
		case string:
			if g, ok := got.(string); ok {
				return stringPair(w, g, maxQuote)
			}
		}
	}
	return diffView(want, depth), diffView(got, depth)
}

// diffView is one value as a diff shows it, bounded: at most maxViewItems
// keys or items, maxQuote bytes of a string, maxViewDepth levels.
func diffView(v any, depth int) any {
	switch v := v.(type) {
	case map[string]any:
		if depth >= maxViewDepth {
			return jsonValue(v, maxQuote)
		}
		keys := sortedKeys(v)
		out := make(map[string]any, min(len(keys), maxViewItems+1))
		for i, k := range keys {
			if i == maxViewItems {
				out["…"] = fmt.Sprintf("and %d more keys", len(keys)-maxViewItems)
				break
			}
			out[textnorm.Excerpt(k, maxQuote)] = diffView(v[k], depth+1)
		}
		return out
	case []any:
		if depth >= maxViewDepth {
			return jsonValue(v, maxQuote)
		}
		out := make([]any, 0, min(len(v), maxViewItems+1))
		for i, e := range v {
			if i == maxViewItems {
				out = append(out, fmt.Sprintf("… and %d more items", len(v)-maxViewItems))
				break
			}
			out = append(out, diffView(e, depth+1))
		}
		return out
	case string:
		return textnorm.Excerpt(v, maxQuote)
	case json.Number:
		if n, ok := numberView(v).(json.Number); ok {
			return textnorm.Excerpt(string(n), maxQuote) // too large for any Go number
		}
		return numberView(v)
	}
	return v
}

// pairStart is where to start showing two strings side by side, each cut
// to about max bytes: a little before their first difference when they
// agree beyond the first third of max, so the difference shows; 0
// otherwise.
func pairStart(a, b string, max int) int {
	if len(a) <= max && len(b) <= max {
		return 0
	}
	p := 0
	for p < len(a) && p < len(b) && a[p] == b[p] {
		p++
	}
	start := p - max/3
	if start <= 0 {
		return 0
	}
	for start > 0 && !utf8.RuneStart(a[start]) { // a and b agree up to p
		start--
	}
	return min(textnorm.Cut(a, start, true), p) // not inside a key
}

// skipped marks the bytes left out before a window into a string.
func skipped(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("[%d bytes]…", n)
}

// stringPair bounds two strings for a diff, cut alike around their first
// difference (see pairStart): [10485740 bytes]…xxxxY.
func stringPair(a, b string, max int) (string, string) {
	start := pairStart(a, b, max)
	return skipped(start) + textnorm.Excerpt(a[start:], max), skipped(start) + textnorm.Excerpt(b[start:], max)
}

// quotePair is stringPair with each string Go-quoted, markers outside the
// quotes, as summaries show strings: [10485740 bytes]…"xxxxY".
func quotePair(a, b string, max int) (string, string) {
	start := pairStart(a, b, max)
	return skipped(start) + textnorm.Quote(a[start:], max), skipped(start) + textnorm.Quote(b[start:], max)
}

// boundDiff cuts a diff at a line boundary once it passes maxDiff bytes.
func boundDiff(diff string) string {
	if len(diff) <= maxDiff {
		return diff
	}
	cut := strings.LastIndexByte(diff[:maxDiff], '\n') + 1
	return diff[:cut] + fmt.Sprintf("… [%d more bytes of diff]\n", len(diff)-cut)
}

// subset reports whether got holds want: objects by subset, arrays element
// by element, scalars by equality without coercion. Both are JSON-shaped
// with json.Number numbers (nil, bool, json.Number, string, []any,
// map[string]any).
func subset(want, got any) bool {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return false
		}
		for k, wv := range w {
			gv, present := g[k]
			if !present || !subset(wv, gv) {
				return false
			}
		}
		return true
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return false
		}
		for i := range w {
			if !subset(w[i], g[i]) {
				return false
			}
		}
		return true
	}
	return scalarEqual(want, got)
}

func scalarEqual(want, got any) bool {
	switch w := want.(type) {
	case nil:
		return got == nil
	case string:
		g, ok := got.(string)
		return ok && g == w
	case json.Number:
		g, ok := got.(json.Number)
		return ok && numbersEqual(w, g)
	case bool:
		g, ok := got.(bool)
		return ok && g == w
	}
	return false
}

// countDiffs counts the ways got falls short of want: each expected key
// missing or with a different value, each list of another length.
func countDiffs(want, got any) int {
	d := argDiff{}
	d.walk(want, got)
	return d.n
}

// firstDiff says how got first falls short of want, keys in sorted order,
// got before want: `order_id: got "#W124", want "#W123"`.
func firstDiff(want, got any) string {
	d := argDiff{first: true}
	d.walk(want, got)
	return d.text
}

// argDiff walks want against got, counting differences or, with first,
// describing the first one.
type argDiff struct {
	first bool
	exact bool  // keys of got beyond want's are differences too
	path  []any // the keys (string) and list indexes (int) to the value compared
	n     int
	text  string
}

func (d *argDiff) walk(want, got any) {
	if d.first && d.n > 0 {
		return
	}
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			d.add(func() string { return fmt.Sprintf("got %s, want an object", jsonValue(got, 60)) })
			return
		}
		var keys []string
		if d.first {
			keys = slices.Sorted(maps.Keys(w))
		}
		visit := func(k string) {
			d.path = append(d.path, k)
			if gv, present := g[k]; present {
				d.walk(w[k], gv)
			} else {
				d.add(func() string { return "missing, want " + jsonValue(w[k], 60) })
			}
			d.path = d.path[:len(d.path)-1]
		}
		if d.first {
			for _, k := range keys {
				visit(k)
			}
		} else {
			for k := range w {
				visit(k)
			}
		}
		if d.exact {
			d.extra(w, g)
		}
	case []any:
		g, ok := got.([]any)
		switch {
		case !ok:
			d.add(func() string { return fmt.Sprintf("got %s, want a list of %d", jsonValue(got, 60), len(w)) })
			return
		case len(g) != len(w):
			d.add(func() string { return fmt.Sprintf("got %d items, want %d", len(g), len(w)) })
			return
		}
		for i := range w {
			d.path = append(d.path, i)
			d.walk(w[i], g[i])
			d.path = d.path[:len(d.path)-1]
		}
	default:
		if scalarEqual(want, got) {
			return
		}
		d.add(func() string {
			w, wok := want.(string)
			g, gok := got.(string)
			if wok && gok { // show where they differ, however long
				gq, wq := quotePair(g, w, 60)
				return fmt.Sprintf("got %s, want %s", gq, wq)
			}
			return fmt.Sprintf("got %s, want %s", jsonValue(got, 60), jsonValue(want, 60))
		})
	}
}

// add counts a difference and, for the first one, describes it at the
// current path.
func (d *argDiff) add(what func() string) {
	if d.first && d.n == 0 {
		d.text = d.at() + ": " + what()
	}
	d.n++
}

// at renders the current path as "items[0].sku", or "arguments" at the top.
func (d *argDiff) at() string {
	if len(d.path) == 0 {
		return "arguments"
	}
	var b strings.Builder
	for _, p := range d.path {
		switch p := p.(type) {
		case string:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(p)
		case int:
			fmt.Fprintf(&b, "[%d]", p)
		}
	}
	return b.String()
}

// project keeps of got what want speaks about: an object's expected keys,
// recursively, so a diff shows the differences and not the call's other
// arguments.
func project(want, got any) any {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return got
		}
		out := make(map[string]any, len(w))
		for k, wv := range w {
			if gv, present := g[k]; present {
				out[k] = project(wv, gv)
			}
		}
		return out
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return got
		}
		out := make([]any, len(g))
		for i := range g {
			out[i] = project(w[i], g[i])
		}
		return out
	}
	return got
}

// jsonValue renders a JSON-shaped value compactly (keys sorted, no HTML
// escaping), bounded to about max bytes.
func jsonValue(v any, max int) string {
	if s, ok := plainScalar(v); ok {
		return textnorm.Excerpt(s, max)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Sprintf("%v", v)
	}
	return textnorm.Excerpt(strings.TrimSuffix(b.String(), "\n"), max)
}

// plainScalar renders the scalars every passing check's summary quotes
// without encoding/json's reflection: null, booleans, whole numbers below
// 10^15 and strings of printable ASCII other than '"' and '\\' (which
// need no escape), each as encoding/json writes it. ok is false for
// anything else.
func plainScalar(v any) (string, bool) {
	switch v := v.(type) {
	case nil:
		return "null", true
	case bool:
		return strconv.FormatBool(v), true
	case float64:
		if v == math.Trunc(v) && math.Abs(v) < 1e15 && !(v == 0 && math.Signbit(v)) {
			return strconv.FormatInt(int64(v), 10), true
		}
	case string:
		for i := 0; i < len(v); i++ {
			if c := v[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
				return "", false
			}
		}
		return `"` + v + `"`, true
	}
	return "", false
}

// extra counts, for exact matching, each key of got that want lacks, in
// sorted order: "unexpected, got ...".
func (d *argDiff) extra(want, got map[string]any) {
	if len(got) <= len(want) && !d.first {
		extra := false
		for k := range got {
			if _, ok := want[k]; !ok {
				extra = true
				break
			}
		}
		if !extra {
			return
		}
	}
	for _, k := range slices.Sorted(maps.Keys(got)) {
		if _, ok := want[k]; ok {
			continue
		}
		d.path = append(d.path, k)
		d.add(func() string { return "unexpected, got " + jsonValue(got[k], 60) })
		d.path = d.path[:len(d.path)-1]
	}
}

// jsonShaped is normalizeArgs' fast path for values already made of
// JSON's shapes (what case files and Go literals give): it copies them
// with every number as a json.Number, as the round trip through
// encoding/json would, and reports false for anything else (a struct, a
// NaN, a typed map), which then takes the round trip and its errors.
func jsonShaped(v any, depth int) (any, bool) {
	if depth > 64 {
		return nil, false
	}
	switch v := v.(type) {
	case nil, string, bool, json.Number:
		if n, ok := v.(json.Number); ok && !json.Valid([]byte(n)) {
			return nil, false
		}
		return v, true
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, false
		}
		return json.Number(strconv.FormatFloat(v, 'g', -1, 64)), true
	case int:
		return json.Number(strconv.Itoa(v)), true
	case int64:
		return json.Number(strconv.FormatInt(v, 10)), true
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			ne, ok := jsonShaped(e, depth+1)
			if !ok {
				return nil, false
			}
			out[k] = ne
		}
		return out, true
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			ne, ok := jsonShaped(e, depth+1)
			if !ok {
				return nil, false
			}
			out[i] = ne
		}
		return out, true
	}
	return nil, false
}
