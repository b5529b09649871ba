package assert

import (
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/evalkit-go/evalkit/internal/query"
)

// params reads a check's declarative parameters (from the registry, a case
// file or Eval) with errors that name the check and the parameter. It notes
// every name it reads so unknown names can be reported instead of ignored: a
// misspelt optional parameter would otherwise weaken a check silently.
type params struct {
	check string
	m     map[string]any
	known map[string]bool
	// forced is the scope a "_session" alias fixes; DefaultScope otherwise.
	forced Scope
	// reg is the registry building the check: its judge, and the checks
	// an assertion wraps.
	reg *Registry
	// declaring is set when the parameters are only validated
	// (Registry.Validate): a judged check needs no judge yet.
	declaring bool
	// reads, when set, records what the build reads, for its
	// documentation (checkdocs.go).
	reads *paramReads
}

func newParams(check string, m map[string]any) *params {
	// Sized for every name a check reads (json_path reads a dozen): grown
	// from empty, the map was remade three times per Eval.
	return &params{check: check, m: m, known: make(map[string]bool, 16)}
}

func (p *params) err(name, format string, args ...any) error {
	return paramErr(p.check, name, format, args...)
}

// lookup returns the first of names that is present (aliases, such as
// "tool_names" and "tools"); giving two of them is an error.
func (p *params) lookup(names ...string) (name string, v any, ok bool, err error) {
	for _, n := range names {
		p.known[n] = true
	}
	if p.reads != nil {
		if _, noted := p.reads.kinds[names[0]]; !noted {
			p.note("any JSON value", names) // read by a build of its own
		}
	}
	for _, n := range names {
		val, present := p.m[n]
		if !present {
			continue
		}
		if ok {
			return "", nil, false, p.err(n, "give only one of %s", strings.Join(names, ", "))
		}
		name, v, ok = n, val, true
	}
	return name, v, ok, nil
}

// strs reads a list of strings (a single string reads as a list of one).
// Emptiness is judged by the check itself (see needles), so a check built in
// Go and one built from parameters fail the same way.
func (p *params) strs(required bool, names ...string) ([]string, bool, error) {
	p.note("list of strings", names)
	name, v, ok, err := p.lookup(names...)
	if err != nil || !ok {
		if err == nil && required {
			if err = p.missing(names...); err == nil {
				err = p.err(names[0], "required: want a list of strings")
			}
		}
		return nil, false, err
	}
	var items []any
	switch v := v.(type) {
	case []string:
		for _, s := range v {
			items = append(items, s)
		}
	case []any:
		items = v
	case string:
		items = []any{v}
	default:
		return nil, false, p.err(name, "want a list of strings, got %s", kindOf(v))
	}
	out := make([]string, len(items))
	for i, it := range items {
		s, isStr := it.(string)
		if !isStr {
			return nil, false, p.err(name, "item %d: want a string, got %s", i, kindOf(it))
		}
		out[i] = s
	}
	return out, true, nil
}

func (p *params) str(required bool, names ...string) (string, bool, error) {
	p.note("string", names)
	name, v, ok, err := p.lookup(names...)
	if err != nil || !ok {
		if err == nil && required {
			if err = p.missing(names...); err == nil {
				err = p.err(names[0], "required: want a string")
			}
		}
		return "", false, err
	}
	s, isStr := v.(string)
	if !isStr {
		return "", false, p.err(name, "want a string, got %s", kindOf(v))
	}
	if s == "" && required {
		return "", false, p.err(name, "empty: want a non-empty string")
	}
	return s, true, nil
}

// num reads a finite number given as any Go or JSON number type.
func (p *params) num(names ...string) (float64, bool, error) {
	p.note("number", names)
	name, v, ok, err := p.lookup(names...)
	if err != nil || !ok {
		return 0, false, err
	}
	f, isNum := toFloat(v)
	if !isNum {
		return 0, false, p.err(name, "want a number, got %s", kindOf(v))
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, false, p.err(name, "want a finite number, got %v", f)
	}
	return f, true, nil
}

// count reads a non-negative whole number.
func (p *params) count(names ...string) (int, bool, error) {
	f, ok, err := p.num(names...)
	p.note("whole number", names)
	if err != nil || !ok {
		return 0, ok, err
	}
	name, _, _, _ := p.lookup(names...)
	if f != math.Trunc(f) || f < 0 || f > math.MaxInt32 {
		return 0, false, p.err(name, "want a whole number >= 0, got %v", f)
	}
	return int(f), true, nil
}

func (p *params) boolean(names ...string) (bool, bool, error) {
	p.note("boolean", names)
	name, v, ok, err := p.lookup(names...)
	if err != nil || !ok {
		return false, false, err
	}
	b, isBool := v.(bool)
	if !isBool {
		return false, false, p.err(name, "want true or false, got %s", kindOf(v))
	}
	return b, true, nil
}

// value reads a parameter of any JSON shape.
func (p *params) value(names ...string) (any, bool, error) {
	p.note("any JSON value", names)
	_, v, ok, err := p.lookup(names...)
	return v, ok, err
}

// object reads a JSON object given as a map or as a JSON string.
func (p *params) object(required bool, names ...string) (map[string]any, bool, error) {
	p.note("object", names)
	name, v, ok, err := p.lookup(names...)
	if err != nil || !ok {
		if err == nil && required {
			if err = p.missing(names...); err == nil {
				err = p.err(names[0], "required: want an object")
			}
		}
		return nil, false, err
	}
	switch v := v.(type) {
	case map[string]any:
		return v, true, nil
	case string:
		var m map[string]any
		if err := json.Unmarshal([]byte(v), &m); err != nil || m == nil {
			return nil, false, p.err(name, "want an object (or a JSON object string): %v", errOrNull(err))
		}
		return m, true, nil
	default:
		// Other map types (map[string]string, a struct...) are normalized
		// through encoding/json.
		norm, err := query.Normalize(v)
		if m, isMap := norm.(map[string]any); err == nil && isMap {
			return m, true, nil
		}
		return nil, false, p.err(name, "want an object, got %s", kindOf(v))
	}
}

// scope reads the optional "scope" parameter ("turn" or "session"). A
// "_session" alias fixes the scope; a contradicting parameter is an error.
func (p *params) scope() (Scope, error) {
	s, ok, err := p.str(false, "scope")
	if err != nil {
		return DefaultScope, err
	}
	var got Scope
	switch {
	case !ok:
		return p.forced, nil
	case s == "turn":
		got = Turn
	case s == "session":
		got = Session
	default:
		return DefaultScope, p.err("scope", "want \"turn\" or \"session\", got %q", s)
	}
	if p.forced != DefaultScope && got != p.forced {
		return DefaultScope, p.err("scope", "%q contradicts the check type, which reads the %s", s, p.forced)
	}
	return got, nil
}

// finish reports parameters the check does not know.
func (p *params) finish() error {
	var unknown []string
	for k := range p.m {
		if !p.known[k] {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	sort.Strings(unknown)
	known := make([]string, 0, len(p.known))
	for k := range p.known {
		known = append(known, k)
	}
	sort.Strings(known)
	// Name a misspelt parameter before one that is merely foreign.
	for _, k := range unknown {
		if near := nearest(k, known); near != "" {
			return p.err(k, "unknown parameter: did you mean %q? (known: %s)", near, strings.Join(known, ", "))
		}
	}
	return p.err(unknown[0], "unknown parameter (known: %s)", strings.Join(known, ", "))
}

// missing explains a required parameter that is absent because it was
// misspelt: an unknown parameter close to one of names ("patern" for
// "pattern") is an error naming it, with the name it is near. It returns
// nil when no given parameter is such a near miss.
func (p *params) missing(names ...string) error {
	keys := make([]string, 0, len(p.m))
	for k := range p.m {
		if !p.known[k] {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		if near := nearest(k, names); near != "" {
			return p.err(k, "unknown parameter: did you mean %q?", near)
		}
	}
	return nil
}

func errOrNull(err error) string {
	if err == nil {
		return "got null"
	}
	return err.Error()
}

func toFloat(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case float32:
		return float64(n), true
	case int:
		return float64(n), true
	case int8:
		return float64(n), true
	case int16:
		return float64(n), true
	case int32:
		return float64(n), true
	case int64:
		return float64(n), true
	case uint:
		return float64(n), true
	case uint8:
		return float64(n), true
	case uint16:
		return float64(n), true
	case uint32:
		return float64(n), true
	case uint64:
		return float64(n), true
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	}
	return 0, false
}

// kindOf names a parameter value's JSON type for error messages.
func kindOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case []any, []string:
		return "a list"
	case map[string]any:
		return "an object"
	}
	if _, ok := toFloat(v); ok {
		return "a number"
	}
	return fmt.Sprintf("a %T", v)
}

// plainParams converts the maps YAML decoders produce (map[any]any, as
// gopkg.in/yaml.v2 gives) to map[string]any at every depth, so parameters
// read the same from any decoder. A key that is not a string is an error
// naming the parameter, and so is a parameter holding more than
// maxParamValues values counted as a tree: a Go value may share its parts
// (the same subschema under "allOf" twice, forty levels deep), and
// walking it as a tree would never end.
func plainParams(check string, m map[string]any) (map[string]any, error) {
	var out map[string]any
	for k, v := range m {
		// Measured first, without a copy: a value that shares its parts
		// or holds itself is refused at the cost of its size in memory.
		if err := query.CheckSize(v, maxParamValues, math.MaxInt32); err != nil {
			return nil, paramErr(check, k, "%v", err)
		}
		left := maxParamValues
		pv, err := plainValue(v, &left)
		if err != nil {
			return nil, paramErr(check, k, "%v", err)
		}
		if out == nil {
			out = make(map[string]any, len(m))
		}
		out[k] = pv
	}
	return out, nil
}

// maxParamValues bounds the values one parameter holds, counted as a tree:
// 2^20, far more than a hand-written expectation holds.
const maxParamValues = 1 << 20

// plainValue converts v, spending one of left per value it visits. What
// needs no conversion (map[string]any and []any holding no map[any]any) is
// returned as it is, not copied: a check never writes its parameters, and
// copying a schema of sixty maps on every Eval cost more than checking.
func plainValue(v any, left *int) (any, error) {
	out, _, err := convertPlain(v, left)
	return out, err
}

// convertPlain is plainValue, also saying whether the result is a new
// value (a map[any]any was converted somewhere in v).
func convertPlain(v any, left *int) (any, bool, error) {
	if *left--; *left < 0 {
		return nil, false, fmt.Errorf("holds more than %d values, counted as a tree (a value it holds in many places counts each time)", maxParamValues)
	}
	switch v := v.(type) {
	case map[any]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			ks, ok := k.(string)
			if !ok {
				return nil, false, fmt.Errorf("object key %v is %s, want a string", k, kindOf(k))
			}
			pe, _, err := convertPlain(e, left)
			if err != nil {
				return nil, false, err
			}
			out[ks] = pe
		}
		return out, true, nil
	case map[string]any:
		var out map[string]any // made at the first entry that changed
		for k, e := range v {
			pe, changed, err := convertPlain(e, left)
			if err != nil {
				return nil, false, err
			}
			if changed && out == nil {
				out = maps.Clone(v)
			}
			if out != nil {
				out[k] = pe
			}
		}
		if out == nil {
			return v, false, nil
		}
		return out, true, nil
	case []any:
		var out []any
		for i, e := range v {
			pe, changed, err := convertPlain(e, left)
			if err != nil {
				return nil, false, err
			}
			if changed && out == nil {
				out = slices.Clone(v)
			}
			if out != nil {
				out[i] = pe
			}
		}
		if out == nil {
			return v, false, nil
		}
		return out, true, nil
	}
	return v, false, nil
}
