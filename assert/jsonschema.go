package assert

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/internal/jsonx"
	"github.com/evalkit-go/evalkit/internal/textnorm"
)

// JSONSchema passes when the output's JSON is valid against Schema, with
// JSON found as JSONValid documents (see AllowWrapped and ExtractJSON).
// Every draft santhosh-tekuri/jsonschema/v6 knows is supported, chosen by
// the schema's "$schema" (2020-12 when absent). "format" is always asserted,
// whatever the draft: a "date-time" that is not RFC 3339 fails, as a test
// author writing it means. Numbers keep their exact value, so 3.0 is an
// integer and 3.5 is not. The schema must be self-contained: "$ref"s to
// other documents (files, URLs) are not loaded, except the drafts'
// meta-schemas.
//
// A failure lists every violation with its location in the output's JSON
// (a JSON Pointer, such as "at /event_time"), sorted, at most ten, each
// bounded in length. Output that is not JSON fails. Schemas compile once
// per process, keyed by their JSON text (a schema given as a Go value is
// marshalled with sorted keys). Score is 1 or 0 (with Session scope, the
// fraction of messages that pass).
//
// A schema that cannot be what its author meant is an error (a *ParamError
// on "schema"), never a verdict on the output:
//
//   - one that is not valid JSON Schema (against its draft's meta-schema);
//   - one that accepts any JSON: true, {}, or only annotations ("title",
//     "description", "$defs", ...) and subschemas that accept anything;
//   - an unknown keyword anywhere in it ("requird", "propertes", or a
//     property schema written without "properties" around it), which the
//     validator would ignore: keywords of drafts 4 to 2020-12 and
//     annotations are known, as are "x-" extensions and OpenAPI's
//     "example", "discriminator", "externalDocs" and "xml" annotations; a
//     keyword from another draft than the schema's ("prefixItems" in
//     draft-07), keywords beside "$ref" in drafts 4 to 7 (ignored there),
//     and a "format" the validator does not check ("emial") are errors too;
//   - a reference cycle ({"$ref": "#"}, $defs that refer to each other):
//     found before validating when the references are local JSON Pointers
//     or anchors, otherwise when validation reaches it;
//   - one over the limits that keep compiling fast: 1 MiB of JSON, 128
//     levels of nesting, 10,000 subschemas (the validator's compile time
//     grows with their square: 100,000 properties took 1 min 45 s).
//
// Registry type "json_schema", params: schema (an object, or a JSON
// string), allow_wrapped, extract_json, scope. As PromptKit's json_schema.
type JSONSchema struct {
	// Schema is the JSON Schema: a map[string]any (or anything that
	// marshals to a JSON object), a JSON text as a string, []byte or
	// json.RawMessage, or the boolean schema false (true accepts anything
	// and is refused).
	Schema       any
	AllowWrapped bool
	ExtractJSON  bool
	Scope        Scope
}

func buildJSONSchema(p *params) (Check, error) {
	var c JSONSchema
	v, ok, err := p.value("schema")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, p.err("schema", "required: want a JSON Schema object")
	}
	c.Schema = v
	c.AllowWrapped, c.ExtractJSON, c.Scope, err = readJSONSource(p)
	return c, err
}

func (c JSONSchema) validate() error {
	_, err := compileSchema(c.Schema)
	return err
}

// Check implements Check.
func (c JSONSchema) Check(_ context.Context, tr *evalkit.Transcript) (Result, error) {
	sch, err := compileSchema(c.Schema)
	if err != nil {
		return Result{}, err
	}
	return eachJSON("json_schema", tr, c.Scope, jsonMode(c.AllowWrapped, c.ExtractJSON), "match the schema",
		func(_ output, found jsonx.Found) (Result, error) {
			doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(found.JSON))
			if err != nil {
				return Result{}, fmt.Errorf("decoding JSON: %w", err)
			}
			verr := sch.Validate(doc)
			if verr == nil {
				if found.From == "the whole text" {
					return pass(1, "matches the schema"), nil
				}
				return pass(1, "matches the schema (JSON in "+found.From+")"), nil
			}
			var ve *jsonschema.ValidationError
			if !errors.As(verr, &ve) {
				return Result{}, fmt.Errorf("validating: %w", verr)
			}
			if cycle := refCycle(ve); cycle != nil {
				// The schema is at fault, not the output.
				return Result{}, paramErr("json_schema", "schema", "reference cycle: %s and %s lead to the same subschema on the same value",
					textnorm.Excerpt(keywordPointer(cycle.KeywordLocation1), maxQuote), textnorm.Excerpt(keywordPointer(cycle.KeywordLocation2), maxQuote))
			}
			return schemaFailure(ve, found), nil
		})
}

// schemaFailure lists a validation error's leaves: each names a violated
// keyword at an instance location.
func schemaFailure(ve *jsonschema.ValidationError, found jsonx.Found) Result {
	lines := schemaLeaves(ve)
	n := len(lines)
	if n > maxListed {
		lines = append(lines[:maxListed], Detail{"more", fmt.Sprintf("… and %d more errors", n-maxListed)})
	}
	summary := fmt.Sprintf("does not match the schema: %d errors", n)
	if n == 1 { // the one violation is the summary; do not list it twice
		summary = "does not match the schema: " + lines[0].Label + ": " + lines[0].Text
		lines = lines[1:]
	}
	if found.From != "the whole text" {
		lines = append(lines, Detail{"json", "in " + found.From})
	}
	return fail(0, summary, lines...)
}

// schemaLeaves lists the innermost errors of a validation error, each with
// its instance location, sorted.
func schemaLeaves(ve *jsonschema.ValidationError) []Detail {
	var lines []Detail
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			lines = append(lines, Detail{
				"at " + textnorm.Excerpt(pointer(e.InstanceLocation), maxQuote),
				textnorm.Excerpt(e.ErrorKind.LocalizedString(schemaPrinter), maxDetail),
			})
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	sort.SliceStable(lines, func(i, j int) bool {
		if lines[i].Label != lines[j].Label {
			return lines[i].Label < lines[j].Label
		}
		return lines[i].Text < lines[j].Text
	})
	return lines
}

var schemaPrinter = message.NewPrinter(language.English)

// maxDetail bounds one violation's text: the validator's messages quote
// values from the output and the schema (a 100,000-item enum, say).
const maxDetail = 300

// keywordPointer renders a keyword location; the root is "(root)".
func keywordPointer(p string) string {
	if p == "" {
		return "(root)"
	}
	return p
}

// refCycle returns the reference cycle among a validation error's causes,
// or nil.
func refCycle(e *jsonschema.ValidationError) *kind.RefCycle {
	if k, ok := e.ErrorKind.(*kind.RefCycle); ok {
		return k
	}
	for _, c := range e.Causes {
		if k := refCycle(c); k != nil {
			return k
		}
	}
	return nil
}

// pointer renders an instance location as a JSON Pointer; the root is "(root)".
func pointer(tokens []string) string {
	if len(tokens) == 0 {
		return "(root)"
	}
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(strings.ReplaceAll(strings.ReplaceAll(t, "~", "~0"), "/", "~1"))
	}
	return b.String()
}

// The compiled schemas, keyed by the schema's JSON text: at most
// maxCachedSchemas of them; past that, schemas compile and are not kept.
var (
	schemaCache    sync.Map // the schema's JSON text -> *jsonschema.Schema
	schemaCacheLen atomic.Int64
)

const maxCachedSchemas = 1000

// schemaURL is where a schema given inline lives, for the library's
// reference resolution; nothing is loaded from it.
const schemaURL = "https://evalkit.invalid/schema.json"

// compileSchema compiles a schema, or returns it from the cache. Errors are
// *ParamError on "schema".
func compileSchema(schema any) (*jsonschema.Schema, error) {
	var text []byte
	switch s := schema.(type) {
	case nil:
		return nil, paramErr("json_schema", "schema", "required: want a JSON Schema object")
	case string:
		text = []byte(s)
	case []byte:
		text = s
	case json.RawMessage:
		text = s
	default:
		var err error
		if text, err = json.Marshal(s); err != nil {
			return nil, paramErr("json_schema", "schema", "cannot be written as JSON: %v", err)
		}
	}
	if len(bytes.TrimSpace(text)) == 0 {
		return nil, paramErr("json_schema", "schema", "empty: want a JSON Schema object")
	}
	// A schema given as a Go value is marshalled with sorted keys: its
	// canonical JSON. One given as text is keyed by the text.
	key := string(text)
	if sch, ok := schemaCache.Load(key); ok {
		return sch.(*jsonschema.Schema), nil
	}
	if len(text) > maxSchemaBytes {
		return nil, paramErr("json_schema", "schema", "%d bytes of JSON; the limit is %d (1 MiB)", len(text), maxSchemaBytes)
	}
	if depth := jsonDepth(text); depth > maxSchemaDepth {
		return nil, paramErr("json_schema", "schema", "nested more than %d levels deep; the limit is %d", maxSchemaDepth, maxSchemaDepth)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(text))
	if err != nil {
		return nil, paramErr("json_schema", "schema", "want a JSON Schema object (or a JSON string of one): %s", textnorm.Excerpt(err.Error(), maxDetail))
	}
	switch doc.(type) {
	case map[string]any, bool:
	default:
		return nil, paramErr("json_schema", "schema", "want a JSON Schema object, got %s", kindOf(doc))
	}
	if err := lintSchema(doc); err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	c.UseLoader(noLoader{})
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, paramErr("json_schema", "schema", "%v", err)
	}
	sch, err := c.Compile(schemaURL)
	var meta *jsonschema.SchemaValidationError
	var ve *jsonschema.ValidationError
	switch {
	case errors.As(err, &meta) && errors.As(meta.Err, &ve):
		leaves := schemaLeaves(ve)
		var why []string
		for i, d := range leaves {
			if i == maxListed {
				why = append(why, fmt.Sprintf("… and %d more", len(leaves)-maxListed))
				break
			}
			why = append(why, d.Label+": "+d.Text)
		}
		return nil, paramErr("json_schema", "schema", "invalid JSON Schema: not valid against its meta-schema: %s", strings.Join(why, "; "))
	case err != nil:
		return nil, paramErr("json_schema", "schema", "invalid JSON Schema: %s",
			textnorm.Excerpt(oneLine(strings.ReplaceAll(err.Error(), schemaURL, "the schema")), maxDetail))
	}
	if schemaCacheLen.Load() >= maxCachedSchemas {
		return sch, nil
	}
	actual, loaded := schemaCache.LoadOrStore(key, sch)
	if !loaded {
		schemaCacheLen.Add(1)
	}
	return actual.(*jsonschema.Schema), nil
}

// Limits on a schema, checked before compiling it: the validator's compile
// time grows with the square of the nesting depth and of the number of
// subschemas. Measured with santhosh-tekuri/jsonschema v6.0.3: 128 levels
// of nested "properties" compile in 20 ms, 2000 levels in 8.9 s; 10,000
// properties in 0.45 s, 30,000 in 4.3 s, 100,000 in 1 min 45 s.
const (
	maxSchemaBytes = 1 << 20
	maxSchemaDepth = 128
	maxSubschemas  = 10_000
)

// jsonDepth returns the deepest nesting of objects and arrays in a JSON
// text, reading past strings.
func jsonDepth(text []byte) int {
	depth, deepest := 0, 0
	inString := false
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case inString:
		case c == '{' || c == '[':
			depth++
			deepest = max(deepest, depth)
		case c == '}' || c == ']':
			depth--
		}
	}
	return deepest
}

// noLoader refuses to load referenced schemas: a check must not read files
// or the network.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("evalkit does not load referenced schemas (%s): put the definition under \"$defs\" and refer to it as \"#/$defs/...\"", url)
}

// oneLine joins a multi-line library message into one line.
func oneLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSpace(l)
	}
	return strings.Join(lines, "; ")
}

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
			l.problems = append(l.problems, fmt.Sprintf(`"nullable" at %s is OpenAPI 3.0, not JSON Schema, and would be ignored: allow null with "type": ["string", "null"]`, at))
			continue
		case !known:
			hint := suggestKeyword(k)
			if _, isSchema := obj[k].(map[string]any); isSchema && hint == "" {
				hint = ` (a property's schema? put it under "properties")`
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
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
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
