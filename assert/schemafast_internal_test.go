package assert

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit/internal/jsonx"
)

// quickCases are schemas inside the fast path's subset (quick: true) and
// outside it, written as tests write them.
var quickCases = []struct {
	schema string
	quick  bool
}{
	{`{"type": "object", "required": ["a", "b"], "properties": {"a": {"type": "string", "minLength": 2, "maxLength": 4}, "b": {"type": "integer", "minimum": 0, "maximum": 10}}}`, true},
	{`{"type": ["string", "null"], "pattern": "^[A-Z]{2}[0-9]$"}`, true},
	{`{"enum": ["x", true, null]}`, true},
	{`{"type": "array", "minItems": 1, "maxItems": 3, "items": {"type": "number", "exclusiveMinimum": -2, "exclusiveMaximum": 2}}`, true},
	{`{"type": "object", "properties": {"a": {}}, "additionalProperties": false, "minProperties": 1, "maxProperties": 2}`, true},
	{`{"additionalProperties": {"type": "integer"}, "title": "t", "description": "d", "examples": [1]}`, true},
	{`{"$schema": "http://json-schema.org/draft-07/schema#", "items": {"type": "integer"}, "properties": {"n": {"maximum": 3, "exclusiveMaximum": 5}}}`, true},
	{`{"$schema": "http://json-schema.org/draft-04/schema#", "properties": {"n": {"maximum": 3, "exclusiveMaximum": true}}}`, true},
	{`false`, true},
	{`{"not": {"type": "string"}}`, false},
	{`{"type": "object", "properties": {"p": {"type": "number", "minimum": 0.5}}}`, false}, // a bound that is not whole
	{`{"minimum": 9007199254740993}`, false},
	{`{"enum": [1, 2]}`, false},
	{`{"const": "x"}`, false},
	{`{"format": "email"}`, false},
	{`{"properties": {"a": {"$ref": "#/$defs/a"}}, "$defs": {"a": {"type": "string"}}}`, false},
	{`{"patternProperties": {"^x": {"type": "string"}}}`, false},
	{`{"prefixItems": [{"type": "string"}]}`, false},
	{`{"uniqueItems": true}`, false},
	{`{"anyOf": [{"type": "string"}, {"type": "integer"}]}`, false},
	{`{"multipleOf": 2}`, false},
	{`{"properties": {"a": {"type": "string"}}, "unevaluatedProperties": false}`, false},
}

var quickDocs = []string{
	`{"a": "xy", "b": 3}`, `{"a": "xyzzy", "b": 3}`, `{"a": "xy", "b": 3.5}`, `{"a": "xy", "b": -1}`, `{"a": "xy", "b": 10}`,
	`{"a": "xy", "b": 11}`, `{"a": "xy"}`, `{"a": "é√", "b": 0}`, `{"a": 1, "b": 2}`, `{"b": 1e1}`, `{"a": "xy", "b": 1.0}`,
	`"AB1"`, `"ab1"`, `null`, `true`, `false`, `"x"`, `"y"`, `[]`, `[1]`, `[1.9, -1.9]`, `[2]`, `[-2]`, `[1, 2, 3, 4]`,
	`[1, "a"]`, `{}`, `{"a": 1}`, `{"a": 1, "c": 2}`, `{"a": 1, "b": 2, "c": 3}`, `{"x": 1, "y": 2.5}`, `{"n": 3}`,
	`{"n": 4}`, `{"n": 2.999}`, `{"n": 5}`, `{"p": 0.5}`, `{"p": 0.4}`, `0`, `-0`, `1e200`, `-1e-200`, `0.1`, `900719925474099`,
	`45035996273704.5`, `[[1]]`, `{"a": {"b": "c"}}`,
}

func TestQuickSchemaAgreesWithTheValidator(t *testing.T) {
	for _, c := range quickCases {
		sch, err := compileSchema(c.schema)
		require.NoError(t, err, c.schema)
		q := quickSchemaOf(sch)
		require.Equal(t, c.quick, q != nil, "in the fast path's subset: %s", c.schema)
		if q == nil {
			continue
		}
		for _, d := range quickDocs {
			p := extractParsed(d, jsonx.Strict)
			require.NoError(t, p.err, d)
			require.True(t, p.ShortNumbers(), d)
			doc, err := p.Plain()
			require.NoError(t, err)
			lib := sch.Validate(doc) == nil
			// Only "valid" is required of the fast path; on this subset
			// it is also expected to find every violation.
			require.Equal(t, lib, q.valid(doc), "schema %s, document %s", c.schema, d)
		}
	}
}

// FuzzQuickSchema checks, on any document, that the fast path never
// passes what the validator fails, for every schema of quickCases.
func FuzzQuickSchema(f *testing.F) {
	for _, d := range quickDocs {
		f.Add(d)
	}
	type pair struct {
		q   *quickSchema
		sch func(any) error
		s   string
	}
	var pairs []pair
	for _, c := range quickCases {
		sch, err := compileSchema(c.schema)
		if err != nil {
			f.Fatal(err)
		}
		if q := quickSchemaOf(sch); q != nil {
			pairs = append(pairs, pair{q, sch.Validate, c.schema})
		}
	}
	f.Fuzz(func(t *testing.T, text string) {
		if !json.Valid([]byte(text)) {
			return
		}
		p := extractParsed(text, jsonx.Strict)
		if p.err != nil || !p.ShortNumbers() {
			return
		}
		doc, err := p.Plain()
		if err != nil {
			return
		}
		for _, pr := range pairs {
			if lib := pr.sch(doc) == nil; pr.q.valid(doc) != lib {
				t.Fatalf("schema %s, document %s: fast path %v, validator %v", pr.s, text, !lib, lib)
			}
		}
	})
}
