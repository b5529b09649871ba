package media

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/evalkit-go/evalkit/assert"

	"github.com/evalkit-go/evalkit/internal/textnorm"
)

// reader reads a media check's declarative parameters with errors that
// name the parameter (*assert.ParamError), and reports the ones it did not
// read, as package assert's own checks do.
type reader struct {
	check string
	m     map[string]any
	known map[string]bool
}

func newReader(check string, m map[string]any) *reader {
	return &reader{check: check, m: m, known: map[string]bool{}}
}

func (r *reader) err(param, format string, args ...any) error {
	return &assert.ParamError{Check: r.check, Param: param, Msg: fmt.Sprintf(format, args...)}
}

func (r *reader) get(name string) (any, bool) {
	r.known[name] = true
	v, ok := r.m[name]
	return v, ok
}

// strs reads a list of strings (a single string is a list of one).
func (r *reader) strs(name string) ([]string, bool, error) {
	v, ok := r.get(name)
	if !ok {
		return nil, false, nil
	}
	switch v := v.(type) {
	case string:
		return []string{v}, true, nil
	case []string:
		return v, true, nil
	case []any:
		out := make([]string, len(v))
		for i, it := range v {
			s, isStr := it.(string)
			if !isStr {
				return nil, false, r.err(name, "item %d: want a string, got %s", i, kind(it))
			}
			out[i] = s
		}
		return out, true, nil
	}
	return nil, false, r.err(name, "want a list of strings, got %s", kind(v))
}

// num reads a finite number.
func (r *reader) num(name string) (*float64, error) {
	v, ok := r.get(name)
	if !ok {
		return nil, nil
	}
	f, isNum := toFloat(v)
	if !isNum {
		return nil, r.err(name, "want a number, got %s", kind(v))
	}
	if math.IsNaN(f) || math.IsInf(f, 0) || f < 0 {
		return nil, r.err(name, "want a finite number >= 0, got %v", f)
	}
	return &f, nil
}

// pixels reads a whole number of pixels.
func (r *reader) pixels(name string) (*int, error) {
	f, err := r.num(name)
	if err != nil || f == nil {
		return nil, err
	}
	if *f != math.Trunc(*f) || *f > math.MaxInt32 {
		return nil, r.err(name, "want a whole number of pixels, got %v", *f)
	}
	n := int(*f)
	return &n, nil
}

func (r *reader) scope() (assert.Scope, error) {
	v, ok := r.get("scope")
	if !ok {
		return assert.DefaultScope, nil
	}
	switch v {
	case "turn":
		return assert.Turn, nil
	case "session":
		return assert.Session, nil
	}
	return assert.DefaultScope, r.err("scope", "want \"turn\" or \"session\", got %v", v)
}

// done reports a parameter the check does not know, naming a misspelt one
// with the name it is near.
func (r *reader) done() error {
	var unknown, known []string
	for k := range r.m {
		if !r.known[k] {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	for k := range r.known {
		known = append(known, k)
	}
	sort.Strings(unknown)
	sort.Strings(known)
	for _, u := range unknown {
		for _, k := range known {
			if textnorm.EditDistance(u, k) <= max(1, min(3, len(k)/3)) {
				return r.err(u, "unknown parameter: did you mean %q? (known: %s)", k, strings.Join(known, ", "))
			}
		}
	}
	return r.err(unknown[0], "unknown parameter (known: %s)", strings.Join(known, ", "))
}

func toFloat(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case float32:
		return float64(n), true
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	case int32:
		return float64(n), true
	case uint64:
		return float64(n), true
	case uint32:
		return float64(n), true
	case uint:
		return float64(n), true
	case json.Number:
		f, err := n.Float64()
		return f, err == nil
	}
	return 0, false
}

func kind(v any) string {
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

// missing names a given parameter that is a near miss of the required
// parameter name, which is absent: "formts" for "formats".
func (r *reader) missing(name string) error {
	for k := range r.m {
		if !r.known[k] && textnorm.EditDistance(k, name) <= max(1, min(3, len(name)/3)) {
			return r.err(k, "unknown parameter: did you mean %q?", name)
		}
	}
	return nil
}
