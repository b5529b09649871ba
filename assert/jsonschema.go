package assert

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
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
	"github.com/evalkit-go/evalkit/internal/query"
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
		if err := p.missing("schema"); err != nil {
			return nil, err
		}
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
	quick := quickSchemaOf(sch)
	return eachJSON("json_schema", tr, c.Scope, jsonMode(c.AllowWrapped, c.ExtractJSON), "match the schema",
		func(_ output, p *parsed) (Result, error) {
			found := p.found
			var verr error
			if p.ShortNumbers() {
				// The float64 decoding the json_path checks share judges as
				// the exact one does (see ShortNumbers): a passing output
				// is not decoded twice. A failure is explained from the
				// exact decoding, whose messages write numbers as given.
				doc, err := p.Plain()
				if err != nil {
					return Result{}, err
				}
				if quick == nil || !quick.valid(doc) {
					verr = sch.Validate(doc)
				}
			}
			if verr != nil || !p.ShortNumbers() {
				doc, err := p.Exact()
				if err != nil {
					return Result{}, err
				}
				verr = sch.Validate(doc)
			}
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
	// A schema given as a Go value is found by the value first (see
	// schemacache.go): writing it as JSON to find it cost as much as
	// validating.
	sch, h, hashable := cachedValueSchema(schema)
	if sch != nil {
		return sch, nil
	}
	sch, err := compileSchemaText(schema)
	if err == nil && hashable {
		storeValueSchema(schema, h, sch)
	}
	return sch, err
}

// compileSchemaText is compileSchema for a schema found by its JSON text.
func compileSchemaText(schema any) (*jsonschema.Schema, error) {
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
		// A Go value may share its subschemas ("allOf" of one schema
		// twice, at every level): its JSON can be exponentially larger,
		// so it is measured before it is written.
		if err := query.CheckSize(s, maxSchemaBytes, maxSchemaBytes); err != nil {
			return nil, paramErr("json_schema", "schema", "%v", err)
		}
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
