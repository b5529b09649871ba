package assert

// The schema linter: keywords the validator would ignore, schemas that
// accept anything, reference cycles found before validating. See JSONSchema.

import (
	"fmt"
	"maps"
	"net/url"
	"slices"
	"sort"
	"strings"

	"github.com/evalkit-go/evalkit/internal/textnorm"
)

// A schemaKeyword is a keyword of some JSON Schema draft: the drafts that
// have it (from since to until, inclusive, as 4, 6, 7, 2019, 2020) and what
// its value is.
type schemaKeyword struct {
	since, until int
	value        keywordValue
	inPlace      bool // its subschemas apply to the same value (allOf, not, if, ...)
	annotation   bool // it constrains nothing by itself
}

type keywordValue int

const (
	dataValue       keywordValue = iota // never walked: enum, const, default, required, ...
	schemaValue                         // one subschema: not, items (2020), additionalProperties, ...
	schemaList                          // allOf, anyOf, oneOf, prefixItems
	schemaMap                           // properties, $defs, dependentSchemas, ...
	schemaOrList                        // items before 2020-12
	dependenciesMap                     // dependencies: schemas or lists of names
	refValue                            // $ref, $dynamicRef, $recursiveRef
)

const lastDraft = 2020

var schemaKeywords = map[string]schemaKeyword{
	// Core and annotations.
	"$schema": {since: 4, annotation: true}, "id": {since: 4, until: 4, annotation: true},
	"$id": {since: 6, annotation: true}, "$ref": {since: 4, value: refValue, inPlace: true},
	"$comment": {since: 7, annotation: true}, "title": {since: 4, annotation: true},
	"description": {since: 4, annotation: true}, "default": {since: 4, annotation: true},
	"examples": {since: 6, annotation: true}, "readOnly": {since: 7, annotation: true},
	"writeOnly": {since: 7, annotation: true}, "deprecated": {since: 2019, annotation: true},
	"$anchor": {since: 2019, annotation: true}, "$vocabulary": {since: 2019, annotation: true},
	"$recursiveAnchor": {since: 2019, annotation: true}, "$recursiveRef": {since: 2019, value: refValue, inPlace: true},
	"$dynamicAnchor": {since: 2020, annotation: true}, "$dynamicRef": {since: 2020, value: refValue, inPlace: true},
	// Containers of subschemas that apply only when referred to: "$defs" and
	// "definitions" are read in every draft.
	"definitions": {since: 4, value: schemaMap, annotation: true}, "$defs": {since: 4, value: schemaMap, annotation: true},
	// Content: annotations, not asserted.
	"contentMediaType": {since: 7, annotation: true}, "contentEncoding": {since: 7, annotation: true},
	"contentSchema": {since: 2019, value: schemaValue, annotation: true},
	// Applicators.
	"allOf": {since: 4, value: schemaList, inPlace: true}, "anyOf": {since: 4, value: schemaList, inPlace: true},
	"oneOf": {since: 4, value: schemaList, inPlace: true}, "not": {since: 4, value: schemaValue, inPlace: true},
	"if": {since: 7, value: schemaValue, inPlace: true}, "then": {since: 7, value: schemaValue, inPlace: true},
	"else":             {since: 7, value: schemaValue, inPlace: true},
	"dependentSchemas": {since: 2019, value: schemaMap, inPlace: true},
	"dependencies":     {since: 4, value: dependenciesMap, inPlace: true}, // replaced in 2019-09; the validator reads it in every draft
	"properties":       {since: 4, value: schemaMap}, "patternProperties": {since: 4, value: schemaMap},
	"additionalProperties": {since: 4, value: schemaValue}, "propertyNames": {since: 6, value: schemaValue},
	"unevaluatedProperties": {since: 2019, value: schemaValue}, "unevaluatedItems": {since: 2019, value: schemaValue},
	"items": {since: 4, value: schemaOrList}, "additionalItems": {since: 4, until: 2019, value: schemaValue},
	"prefixItems": {since: 2020, value: schemaList}, "contains": {since: 6, value: schemaValue},
	// Validation.
	"type": {since: 4}, "enum": {since: 4}, "const": {since: 6}, "format": {since: 4},
	"multipleOf": {since: 4}, "maximum": {since: 4}, "exclusiveMaximum": {since: 4},
	"minimum": {since: 4}, "exclusiveMinimum": {since: 4}, "maxLength": {since: 4},
	"minLength": {since: 4}, "pattern": {since: 4}, "maxItems": {since: 4}, "minItems": {since: 4},
	"uniqueItems": {since: 4}, "maxContains": {since: 2019}, "minContains": {since: 2019},
	"maxProperties": {since: 4}, "minProperties": {since: 4}, "required": {since: 4},
	"dependentRequired": {since: 2019},
	// OpenAPI's annotations, common in generated schemas (pydantic writes
	// "discriminator"); JSON Schema ignores them, as they mean nothing more.
	"example": {since: 4, annotation: true}, "discriminator": {since: 4, annotation: true},
	"externalDocs": {since: 4, annotation: true}, "xml": {since: 4, annotation: true},
}

// schemaFormats are the formats the validator checks.
var schemaFormats = []string{"date-time", "date", "time", "duration", "period", "email", "hostname", "ipv4", "ipv6",
	"uri", "uri-reference", "iri", "iri-reference", "uri-template", "uuid", "json-pointer", "relative-json-pointer", "regex", "semver"}

// openAPIFormats are OpenAPI's formats, which generated schemas carry
// ("int64", "password") and nothing checks; they are taken as annotations.
var openAPIFormats = []string{"int32", "int64", "float", "double", "byte", "binary", "password"}

// draftName names a draft version for messages.
func draftName(v int) string {
	if v >= 2019 {
		return map[int]string{2019: "2019-09", 2020: "2020-12"}[v]
	}
	return fmt.Sprintf("draft-%02d", v)
}

// draftOf reads a "$schema" URL as the validator does.
func draftOf(url string) (int, bool) {
	u := strings.TrimSuffix(url, "#")
	if rest, ok := strings.CutPrefix(u, "http://"); ok {
		u = rest
	} else {
		u = strings.TrimPrefix(u, "https://")
	}
	v, ok := map[string]int{
		"json-schema.org/schema": 2020, "json-schema.org/draft/2020-12/schema": 2020,
		"json-schema.org/draft/2019-09/schema": 2019, "json-schema.org/draft-07/schema": 7,
		"json-schema.org/draft-06/schema": 6, "json-schema.org/draft-04/schema": 4,
	}[u]
	return v, ok
}

// schemaLinter walks a schema document's subschemas, finding the keywords
// the validator would ignore and the references that loop.
type schemaLinter struct {
	problems []string
	count    int                 // subschemas walked
	edges    map[string][]string // subschema -> subschemas applied to the same value (pointers)
	refs     map[string][]string // subschema -> its references, as written
	anchors  map[string]string   // "#name" -> pointer
}

// lintSchema returns a *ParamError when doc is over the subschema limit,
// has keywords the validator would ignore, accepts any JSON, or has a
// reference cycle.
func lintSchema(doc any) error {
	l := &schemaLinter{edges: map[string][]string{}, refs: map[string][]string{}, anchors: map[string]string{}}
	l.walk(doc, "", lastDraft)
	if l.count > maxSubschemas {
		return paramErr("json_schema", "schema", "more than %d subschemas; the limit is %d", maxSubschemas, maxSubschemas)
	}
	if len(l.problems) > 0 {
		return paramErr("json_schema", "schema", "%s", boundedList(l.problems))
	}
	if accepts(doc) {
		return paramErr("json_schema", "schema", "accepts any JSON: nothing in it constrains the output (give \"type\", \"required\", \"properties\" with types, \"enum\", ...)")
	}
	if cycle := l.cycle(); cycle != nil {
		path := make([]string, len(cycle))
		for i, p := range cycle {
			path[i] = textnorm.Excerpt(pointer(splitPointer(p)), maxQuote)
		}
		return paramErr("json_schema", "schema", "reference cycle: %s loops on the same value", strings.Join(path, " → "))
	}
	return nil
}

func (l *schemaLinter) walk(v any, ptr string, draft int) {
	l.count++
	obj, ok := v.(map[string]any)
	if !ok || l.count > maxSubschemas {
		return // a boolean schema, or one the meta-schema rejects
	}
	if s, ok := obj["$schema"].(string); ok {
		if d, ok := draftOf(s); ok {
			draft = d
		}
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	at := textnorm.Excerpt(pointer(splitPointer(ptr)), maxQuote)
	var besideRef []string
	for _, k := range keys {
		if strings.HasPrefix(k, "x-") {
			continue
		}
		kw, known := schemaKeywords[k]
		switch {
		case k == "nullable":
			// OpenAPI 3.0's nullable: false says what JSON Schema says
			// anyway; true would be ignored, so null would be refused.
			if obj[k] == true {
				l.problems = append(l.problems, fmt.Sprintf(`"nullable": true at %s is OpenAPI 3.0, not JSON Schema, and would be ignored: allow null by adding "null" to "type"`, at))
			}
			continue
		case !known:
			hint := ""
			if len(l.problems) < maxListed { // the rest are only counted: no hint to look for
				hint = suggestKeyword(k)
				if _, isSchema := obj[k].(map[string]any); isSchema && hint == "" {
					hint = ` (a property's schema? put it under "properties")`
				}
			}
			l.problems = append(l.problems, fmt.Sprintf("unknown keyword %s at %s%s", excerpt(k), at, hint))
			continue
		case draft < kw.since || (kw.until != 0 && draft > kw.until):
			l.problems = append(l.problems, fmt.Sprintf("keyword %q at %s is not part of %s, which would ignore it%s", k, at, draftName(draft), draftHint(k, kw, draft)))
		}
		if draft < 2019 && obj["$ref"] != nil && k != "$ref" && !kw.annotation {
			besideRef = append(besideRef, k)
		}
		l.child(obj[k], ptr, k, kw, draft)
	}
	if len(besideRef) > 0 {
		l.problems = append(l.problems, fmt.Sprintf(`keywords beside "$ref" at %s are ignored in %s (%s): put the "$ref" and them in "allOf"`,
			at, draftName(draft), boundedList(quoted(besideRef))))
	}
	if f, ok := obj["format"].(string); ok && !slices.Contains(schemaFormats, f) && !slices.Contains(openAPIFormats, f) {
		l.problems = append(l.problems, fmt.Sprintf("format %s at %s is not one the validator checks%s", excerpt(f), at, suggest(f, schemaFormats)))
	}
	for _, k := range []string{"$anchor", "$dynamicAnchor"} {
		if a, ok := obj[k].(string); ok {
			l.anchors["#"+a] = ptr
		}
	}
}

// child walks the subschemas of keyword k of the subschema at ptr.
func (l *schemaLinter) child(v any, ptr, k string, kw schemaKeyword, draft int) {
	here := ptr + "/" + escapeToken(k)
	sub := func(v any, p string) {
		if kw.inPlace {
			l.edges[ptr] = append(l.edges[ptr], p)
		}
		l.walk(v, p, draft)
	}
	switch kw.value {
	case refValue:
		if ref, ok := v.(string); ok {
			l.refs[ptr] = append(l.refs[ptr], ref)
		}
	case schemaValue:
		sub(v, here)
	case schemaOrList, schemaList:
		if list, ok := v.([]any); ok {
			for i, e := range list {
				sub(e, fmt.Sprintf("%s/%d", here, i))
			}
		} else if kw.value == schemaOrList {
			sub(v, here)
		}
	case schemaMap, dependenciesMap:
		m, _ := v.(map[string]any)
		for _, name := range slices.Sorted(maps.Keys(m)) {
			if _, isList := m[name].([]any); isList && kw.value == dependenciesMap {
				continue // property names, not a schema
			}
			sub(m[name], here+"/"+escapeToken(name))
		}
	}
}

// cycle returns a loop of subschemas that apply to the same value through
// references and in-place applicators (allOf, not, if, ...), as pointers,
// or nil. References it cannot resolve (other documents, relative URLs)
// are left to the validator, which reports a cycle when it meets one.
func (l *schemaLinter) cycle() []string {
	next := func(p string) []string {
		out := slices.Clone(l.edges[p])
		for _, ref := range l.refs[p] {
			if target, ok := l.resolve(ref); ok {
				out = append(out, target)
			}
		}
		return out
	}
	const (
		unseen = iota
		open
		done
	)
	state := map[string]int{}
	var stack []string
	var visit func(p string) []string
	visit = func(p string) []string {
		state[p] = open
		stack = append(stack, p)
		for _, n := range next(p) {
			switch state[n] {
			case open:
				i := slices.Index(stack, n)
				return append(slices.Clone(stack[i:]), n)
			case unseen:
				if c := visit(n); c != nil {
					return c
				}
			}
		}
		stack = stack[:len(stack)-1]
		state[p] = done
		return nil
	}
	for _, p := range slices.Sorted(maps.Keys(l.edges)) {
		if state[p] == unseen {
			if c := visit(p); c != nil {
				return c
			}
		}
	}
	for _, p := range slices.Sorted(maps.Keys(l.refs)) {
		if state[p] == unseen {
			if c := visit(p); c != nil {
				return c
			}
		}
	}
	return nil
}

// resolve maps a local reference ("#", "#/$defs/a", "#name") to the
// pointer of the subschema it names.
func (l *schemaLinter) resolve(ref string) (string, bool) {
	switch {
	case ref == "#":
		return "", true
	case strings.HasPrefix(ref, "#/"):
		frag, err := url.PathUnescape(ref[1:])
		if err != nil {
			return "", false
		}
		return frag, true
	case strings.HasPrefix(ref, "#"):
		p, ok := l.anchors[ref]
		return p, ok
	}
	return "", false
}

// splitPointer splits a JSON Pointer into its unescaped tokens.
func splitPointer(p string) []string {
	if p == "" {
		return nil
	}
	tokens := strings.Split(p[1:], "/")
	for i, t := range tokens {
		tokens[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
	}
	return tokens
}

func escapeToken(t string) string {
	return strings.ReplaceAll(strings.ReplaceAll(t, "~", "~0"), "/", "~1")
}

// accepts reports whether a schema accepts any JSON value: true, or an
// object whose keywords are annotations, or applicators whose subschemas
// all accept anything (anyOf: any of them).
func accepts(v any) bool {
	switch s := v.(type) {
	case bool:
		return s
	case map[string]any:
		for k, e := range s {
			kw, known := schemaKeywords[k]
			switch {
			case strings.HasPrefix(k, "x-") || k == "if" || (known && kw.annotation):
			case k == "properties" || k == "patternProperties" || k == "dependentSchemas" || k == "dependencies":
				m, _ := e.(map[string]any)
				for _, sub := range m {
					if list, isList := sub.([]any); (isList && len(list) > 0) || (!isList && !accepts(sub)) {
						return false
					}
				}
			case k == "allOf" || k == "prefixItems" || k == "items" || k == "oneOf" || k == "anyOf":
				list, isList := e.([]any)
				if !isList {
					if k != "items" || !accepts(e) {
						return false
					}
					continue
				}
				n := 0
				for _, sub := range list {
					if accepts(sub) {
						n++
					}
				}
				if (k == "anyOf" && n == 0) || (k == "oneOf" && (len(list) != 1 || n != 1)) || (k != "anyOf" && k != "oneOf" && n != len(list)) {
					return false
				}
			case known && kw.value == schemaValue && k != "not" && k != "contains":
				if !accepts(e) {
					return false
				}
			default:
				return false
			}
		}
		return true
	}
	return false
}

// suggestKeyword returns ` (did you mean "required"?)` for a keyword
// close to a known one, or "".
func suggestKeyword(k string) string {
	return suggest(k, slices.Collect(maps.Keys(schemaKeywords)))
}

// suggest returns ` (did you mean "x"?)` naming the candidate nearest to
// word, ignoring case, when it is close enough to be a typo, or "".
func suggest(word string, candidates []string) string {
	best := nearest(word, candidates)
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

// nearest returns the candidate nearest to word, ignoring case, when it is
// close enough to be a typo, or "".
func nearest(word string, candidates []string) string {
	if len(word) > 64 {
		return ""
	}
	limit := 1
	switch {
	case len(word) > 8:
		limit = 3
	case len(word) > 4:
		limit = 2
	}
	best, bestDist := "", limit+1
	for _, c := range slices.Sorted(slices.Values(candidates)) {
		if d := typoDistance(strings.ToLower(word), strings.ToLower(c)); d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

// typoDistance is the optimal string alignment distance between a and b,
// in bytes: insertions, deletions, substitutions and swaps of adjacent
// bytes ("tpye" is one from "type").
func typoDistance(a, b string) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

// draftHint says what to do about keyword k, known in other drafts than
// draft.
func draftHint(k string, kw schemaKeyword, draft int) string {
	switch {
	case k == "id":
		return ` (did you mean "$id"?)`
	case k == "additionalItems":
		return `: use "items" beside "prefixItems"`
	case draft < kw.since:
		return fmt.Sprintf(` (it is from %s: set "$schema" to a later draft, or leave it out for 2020-12)`, draftName(kw.since))
	}
	return ""
}

func quoted(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = excerpt(s)
	}
	return out
}
