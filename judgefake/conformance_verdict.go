package judgefake

// The checks TestJudge makes of a verdict's label and fields.

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// invisible reports whether s has no character a reader can see: white
// space, format characters (U+200B, U+FEFF, ...), combining marks alone,
// unprintable runes, and the blank fillers Unicode lists as letters or
// symbols.
func invisible(s string) bool {
	for _, r := range s {
		switch {
		case unicode.IsSpace(r), unicode.In(r, unicode.Cf, unicode.Mn, unicode.Me, unicode.Cc), !unicode.IsGraphic(r):
		case r == '\u115f', r == '\u1160', r == '\u3164', r == '\uffa0', r == '\u2800':
		default:
			return false
		}
	}
	return true
}

// textExcerpt bounds a judge's text quoted in a problem.
func textExcerpt(s string) string {
	const limit = 40
	if len(s) <= limit {
		return s
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// schemaProblems checks fields against the top level of a JSON Schema by
// hand: the schema's type, its required properties, and the type, enum and
// const of each property it lists. Other keywords are not checked. A
// schema that is not a JSON object checks nothing.
func schemaProblems(schema json.RawMessage, fields map[string]any) []string {
	var top map[string]any
	dec := json.NewDecoder(strings.NewReader(string(schema)))
	dec.UseNumber()
	if dec.Decode(&top) != nil {
		return nil
	}
	var out []string
	if p := typeProblem("the verdict object", top["type"], map[string]any(fields)); p != "" {
		out = append(out, p)
	}
	if req, ok := top["required"].([]any); ok {
		for _, k := range req {
			if name, ok := k.(string); ok {
				if _, has := fields[name]; !has {
					out = append(out, fmt.Sprintf("required property %q is missing", name))
				}
			}
		}
	}
	props, _ := top["properties"].(map[string]any)
	names := make([]string, 0, len(props))
	for k := range props {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		val, has := fields[k]
		sub, ok := props[k].(map[string]any)
		if !has || !ok {
			continue
		}
		what := fmt.Sprintf("property %q", k)
		if p := typeProblem(what, sub["type"], val); p != "" {
			out = append(out, p)
		}
		if enum, ok := sub["enum"].([]any); ok && !slices.ContainsFunc(enum, func(e any) bool { return jsonEqual(e, val) }) {
			out = append(out, fmt.Sprintf("%s is %s, not one of its enum", what, jsonText(val)))
		}
		if want, ok := sub["const"]; ok && !jsonEqual(want, val) {
			out = append(out, fmt.Sprintf("%s is %s, want its const %s", what, jsonText(val), jsonText(want)))
		}
	}
	return out
}

// typeProblem checks a value against a schema's "type": a name or a list
// of names. An absent or unreadable type checks nothing.
func typeProblem(what string, typ any, val any) string {
	var names []string
	switch t := typ.(type) {
	case string:
		names = []string{t}
	case []any:
		for _, n := range t {
			if s, ok := n.(string); ok {
				names = append(names, s)
			}
		}
	}
	if len(names) == 0 {
		return ""
	}
	got := jsonType(val)
	for _, n := range names {
		if n == got || (n == "number" && got == "integer") {
			return ""
		}
	}
	return fmt.Sprintf("%s is %s %s, want type %s", what, article(got), got, strings.Join(names, " or "))
}

func article(typ string) string {
	if strings.IndexByte("aeiou", typ[0]) >= 0 {
		return "an"
	}
	return "a"
}

// jsonType is the JSON Schema type of a decoded JSON value, as
// encoding/json decodes it (numbers as json.Number or float64) or as a
// judge built it in Go (ints, maps, slices).
func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case map[string]any:
		return "object"
	case []any:
		return "array"
	}
	f, ok := number(v)
	if !ok {
		rv := reflect.ValueOf(v)
		switch rv.Kind() {
		case reflect.Map:
			return "object"
		case reflect.Slice, reflect.Array:
			return "array"
		}
		return fmt.Sprintf("Go %T", v)
	}
	if f == math.Trunc(f) && !math.IsInf(f, 0) {
		return "integer"
	}
	return "number"
}

// number returns a numeric value as a float64.
func number(v any) (float64, bool) {
	switch x := v.(type) {
	case json.Number:
		f, err := x.Float64()
		return f, err == nil
	case float64:
		return x, true
	case float32:
		return float64(x), true
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return float64(rv.Int()), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return float64(rv.Uint()), true
	}
	return 0, false
}

// jsonEqual compares two JSON values as JSON Schema's enum and const do:
// numbers by value (1 equals 1.0), objects and arrays member by member.
func jsonEqual(a, b any) bool {
	if fa, ok := number(a); ok {
		fb, ok := number(b)
		return ok && fa == fb
	}
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, v := range x {
			w, has := y[k]
			if !has || !jsonEqual(v, w) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		return ok && slices.EqualFunc(x, y, jsonEqual)
	}
	return reflect.DeepEqual(a, b)
}

// jsonText renders a value for a problem, bounded.
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%T", v)
	}
	return textExcerpt(string(b))
}
