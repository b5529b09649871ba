package assert_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	testify "github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
)

// jsonAnswer is a transcript whose assistant answered text once.
func jsonAnswer(text string) *evalkit.Transcript {
	return jsonChat(evalkit.Message{Role: evalkit.RoleAssistant, Content: text})
}

// jsonChat is a user request followed by msgs.
func jsonChat(msgs ...evalkit.Message) *evalkit.Transcript {
	return &evalkit.Transcript{Messages: append([]evalkit.Message{{Role: evalkit.RoleUser, Content: "Give me JSON"}}, msgs...)}
}

func jsonInt(n int) *int { return &n }

// Field case C01: JSON in markdown fences.
const (
	c01a = "Type used:\n```ts\nconst sample = { id: 7 };\n```\nAnswer:\n```json\n{\"status\": \"shipped\", \"items\": 2}\n```"
	c01b = "```json {\"ok\": true}```"
	c01c = "Run this:\n```python\nprint({'ok': 1})\n```"
)

// Field case C03: content cut off by the token limit.
const c03 = `{"city": "Lyon", "forecast": "light rain until eve`

func TestJSONValid(t *testing.T) {
	wrapped := map[string]any{"allow_wrapped": true}
	prose := map[string]any{"extract_json": true}
	cutOff := jsonChat(evalkit.Message{Role: evalkit.RoleAssistant, Content: c03, FinishReason: "length"})
	toolOnly := jsonChat(
		evalkit.Message{Role: evalkit.RoleAssistant, Content: `{"a": 1}`},
		evalkit.Message{Role: evalkit.RoleAssistant, ToolCalls: []evalkit.ToolCall{{Name: "lookup"}}},
	)
	session := jsonChat(
		evalkit.Message{Role: evalkit.RoleAssistant, Content: `{"step": 1}`},
		evalkit.Message{Role: evalkit.RoleAssistant, ToolCalls: []evalkit.ToolCall{{Name: "lookup"}}},
		evalkit.Message{Role: evalkit.RoleTool, Content: "ok"},
		evalkit.Message{Role: evalkit.RoleAssistant, Content: `[1, 2]`},
		evalkit.Message{Role: evalkit.RoleAssistant, Content: `{"step": 3`, FinishReason: "length"},
	)
	runCases(t, []evalCase{
		{name: "object", tr: jsonAnswer(`{"a": [1, 2]}`), check: "json_valid", want: PASS, summary: "valid JSON in the whole text", score: ptr(1)},
		{name: "scalar", tr: jsonAnswer(" 42\n"), check: "json_valid", want: PASS},
		{name: "C01a json fence over ts fence", tr: jsonAnswer(c01a), check: "json_valid", params: wrapped, want: PASS,
			summary: "valid JSON in the ```json fence at line 6"},
		{name: "C01b one-line fence", tr: jsonAnswer(c01b), check: "json_valid", params: wrapped, want: PASS,
			summary: "valid JSON in the ```json fence at line 1"},
		{name: "first json fence broken, second valid", tr: jsonAnswer("```json\n{\"a\": 1,}\n```\nFixed:\n```json\n{\"a\": 1}\n```"),
			check: "json_valid", params: wrapped, want: FAIL,
			summary: "not valid JSON: the ```json fence at line 1 is not valid JSON: invalid character '}' looking for beginning of object key string at line 2, column 9"},
		{name: "tilde fence", tr: jsonAnswer("Here:\n~~~json\n{\"a\": 1}\n~~~"), check: "json_valid", params: wrapped, want: PASS,
			summary: "valid JSON in the ~~~json fence at line 2"},
		{name: "C01c python fence", tr: jsonAnswer(c01c), check: "json_valid", params: wrapped, want: FAIL,
			summary: "no JSON found: the only fence is tagged python", score: ptr(0)},
		{name: "C01c python fence, extract_json", tr: jsonAnswer(c01c), check: "json_valid", params: prose, want: FAIL,
			summary: "no JSON found: the only fence is tagged python; there is no JSON object or array outside the fences"},
		{name: "C03 cut off", tr: cutOff, check: "json_valid", want: FAIL,
			summary: "not valid JSON: unexpected end of input (cut off?) at line 1, column 51",
			hasDetails: []assert.Detail{
				{Label: "output", Text: `"{\"city\": \"Lyon\", \"forecast\": \"light rain until eve"`},
				{Label: "note", Text: `finish_reason is "length": the output was cut off by the token limit`},
			}},
		{name: "C03 cut off, extract_json", tr: cutOff, check: "json_valid", params: prose, want: FAIL,
			summary:    "no JSON found: the object starting at line 1, column 1 is not valid JSON: unexpected end of input (cut off?) at line 1, column 51",
			hasDetails: []assert.Detail{{Label: "note", Text: `finish_reason is "length": the output was cut off by the token limit`}}},
		{name: "C24c empty output", tr: jsonAnswer(""), check: "json_valid", want: FAIL, summary: "not valid JSON: the output is empty"},
		{name: "white space only", tr: jsonAnswer(" \n"), check: "valid_json", params: wrapped, want: FAIL, summary: "not valid JSON: the output is empty"},
		{name: "prose is not JSON", tr: jsonAnswer("Sure, here it is."), check: "json_valid", want: FAIL,
			summary: "not valid JSON: invalid character 'S' looking for beginning of value at line 1, column 1"},
		{name: "fenced JSON without allow_wrapped", tr: jsonAnswer(c01a), check: "json_valid", want: FAIL,
			hasDetails: []assert.Detail{{Label: "hint", Text: "there is JSON in the ```json fence at line 6: set allow_wrapped (AllowWrapped) to read it"}}},
		{name: "prose JSON with allow_wrapped", tr: jsonAnswer(`The order: {"id": 7}.`), check: "json_valid", params: wrapped, want: FAIL,
			hasDetails: []assert.Detail{{Label: "hint", Text: "there is JSON in the text at line 1, column 12: set extract_json (ExtractJSON) to read it"}}},
		{name: "prose JSON, strict", tr: jsonAnswer(`The order: {"id": 7}.`), check: "json_valid", want: FAIL,
			hasDetails: []assert.Detail{{Label: "hint", Text: "there is JSON in the text at line 1, column 12: set extract_json (ExtractJSON) to read it"}}},
		{name: "prose JSON with extract_json", tr: jsonAnswer(`The order: {"id": 7}.`), check: "is_valid_json", params: prose, want: PASS,
			summary: "valid JSON in the text at line 1, column 12"},
		{name: "last message made only tool calls", tr: toolOnly, check: "json_valid", want: FAIL,
			summary:    "not valid JSON: the output is empty",
			hasDetails: []assert.Detail{{Label: "note", Text: "messages[2] has no text; it called lookup"}}},
		{name: "session", tr: session, check: "json_valid", params: map[string]any{"scope": "session"}, want: FAIL,
			summary: "1 of 3 assistant messages fail", score: ptr(2.0 / 3),
			hasDetails: []assert.Detail{
				{Label: "messages[5]", Text: "not valid JSON: unexpected end of input (cut off?) at line 1, column 11"},
				{Label: "note", Text: `finish_reason is "length": the output was cut off by the token limit`},
			}},
		{name: "session, all valid", tr: jsonChat(
			evalkit.Message{Role: evalkit.RoleAssistant, Content: `{}`},
			evalkit.Message{Role: evalkit.RoleAssistant, Content: "```json\n[]\n```"},
		), check: "json_valid", params: map[string]any{"scope": "session", "allow_wrapped": true}, want: PASS,
			summary: "all 2 assistant messages hold valid JSON"},
		{name: "no assistant message", tr: &evalkit.Transcript{Messages: []evalkit.Message{{Role: evalkit.RoleUser, Content: "hi"}}},
			check: "json_valid", want: ERROR},
		{name: "unknown param", tr: jsonAnswer("{}"), check: "json_valid", params: map[string]any{"allow_wraped": true}, want: ERROR, param: "allow_wraped"},
		{name: "bad param type", tr: jsonAnswer("{}"), check: "json_valid", params: map[string]any{"extract_json": "yes"}, want: ERROR,
			param: "extract_json", summary: `json_valid: param "extract_json": want true or false, got a string`},
		{name: "bad scope", tr: jsonAnswer("{}"), check: "json_valid", params: map[string]any{"scope": "all"}, want: ERROR, param: "scope"},
	})
}

func TestJSONValidTyped(t *testing.T) {
	ctx := context.Background()
	res, err := assert.JSONValid{AllowWrapped: true}.Check(ctx, jsonAnswer(c01b))
	require.NoError(t, err)
	testify.True(t, res.Passed)

	res, err = assert.JSONValid{}.Check(ctx, jsonAnswer(c03))
	require.NoError(t, err)
	testify.False(t, res.Passed)
	testify.NotContains(t, res.Details, assert.Detail{Label: "note", Text: `finish_reason is "length": the output was cut off by the token limit`},
		"the note needs the finish reason")

	_, err = assert.JSONValid{}.Check(ctx, &evalkit.Transcript{})
	testify.ErrorIs(t, err, assert.ErrNoOutput)
	_, err = assert.JSONValid{}.Check(ctx, nil)
	testify.ErrorIs(t, err, assert.ErrNoOutput)
}

// TestJSONHugeOutput is field case C24e for the JSON checks: 20 MB of output
// gives a failure with a bounded message, in every mode. Its speed is
// internal/jsonx's BenchmarkExtractHostile's to measure, not a timed test's.
func TestJSONHugeOutput(t *testing.T) {
	huge := "Total due: 42.00 EUR. data:image/png;base64," + strings.Repeat("A", 20_000_000)
	braces := strings.Repeat("{", 20_000_000)
	for _, text := range []string{huge, braces} {
		for _, params := range []map[string]any{nil, {"allow_wrapped": true}, {"extract_json": true}} {
			res, err := assert.Eval(context.Background(), "json_valid", jsonAnswer(text), params)
			require.NoError(t, err)
			testify.False(t, res.Passed)
			size := len(res.Summary) + len(res.DiffText())
			for _, d := range res.Details {
				size += len(d.Label) + len(d.Text)
			}
			testify.Less(t, size, 4096, "the failure message must stay bounded: %+v", res)
		}
	}
	res, err := assert.Eval(context.Background(), "json_path", jsonAnswer(huge), map[string]any{"expression": "a", "extract_json": true})
	require.NoError(t, err)
	testify.False(t, res.Passed)
}

// Field case C16: formats are asserted whatever the draft; 3.0 is an integer.
var c16Schema = map[string]any{
	"$schema":  "https://json-schema.org/draft/2020-12/schema",
	"type":     "object",
	"required": []any{"event_time"},
	"properties": map[string]any{
		"event_time": map[string]any{"type": "string", "format": "date-time"},
		"qty":        map[string]any{"type": "integer"},
	},
}

func TestJSONSchema(t *testing.T) {
	noDraft := map[string]any{}
	for k, v := range c16Schema {
		if k != "$schema" {
			noDraft[k] = v
		}
	}
	schema := map[string]any{"schema": c16Schema}
	schemaText, err := json.Marshal(c16Schema)
	require.NoError(t, err)
	many := map[string]any{"type": "object", "properties": map[string]any{}}
	var manyOut []string
	for _, k := range "abcdefghijkl" {
		many["properties"].(map[string]any)[string(k)] = map[string]any{"type": "integer"}
		manyOut = append(manyOut, `"`+string(k)+`": "x"`)
	}
	runCases(t, []evalCase{
		{name: "C16a bad date-time", tr: jsonAnswer(`{"event_time": "sometime next week"}`), check: "json_schema", params: schema, want: FAIL,
			summary: "does not match the schema: at /event_time: 'sometime next week' is not valid date-time: less than 20 characters long"},
		{name: "C16b valid date-time", tr: jsonAnswer(`{"event_time": "2024-03-01T10:00:00Z"}`), check: "json_schema", params: schema, want: PASS,
			summary: "matches the schema", score: ptr(1)},
		{name: "C16c no $schema: format still asserted", tr: jsonAnswer(`{"event_time": "not-a-date"}`), check: "json_schema",
			params: map[string]any{"schema": noDraft}, want: FAIL,
			summary: "does not match the schema: at /event_time: 'not-a-date' is not valid date-time: less than 20 characters long"},
		{name: "C16d 3.0 is an integer", tr: jsonAnswer(`{"event_time": "2024-03-01T10:00:00Z", "qty": 3.0}`), check: "json_schema", params: schema, want: PASS},
		{name: "C16e 3.5 is not", tr: jsonAnswer(`{"event_time": "2024-03-01T10:00:00Z", "qty": 3.5}`), check: "json_schema", params: schema, want: FAIL,
			summary: "does not match the schema: at /qty: got number, want integer", score: ptr(0)},
		{name: "schema as a JSON string", tr: jsonAnswer(`{"event_time": "2024-03-01T10:00:00Z", "qty": 3.5}`), check: "json_schema",
			params: map[string]any{"schema": string(schemaText)}, want: FAIL},
		{name: "every error listed, sorted", tr: jsonAnswer(`{"qty": "x"}`), check: "json_schema", params: schema, want: FAIL,
			summary:    "does not match the schema: 2 errors",
			hasDetails: []assert.Detail{{Label: "at (root)", Text: "missing property 'event_time'"}, {Label: "at /qty", Text: "got string, want integer"}}},
		{name: "errors bounded", tr: jsonAnswer("{" + strings.Join(manyOut, ", ") + "}"), check: "json_schema",
			params: map[string]any{"schema": many}, want: FAIL, summary: "does not match the schema: 12 errors",
			hasDetails: []assert.Detail{{Label: "at /a", Text: "got string, want integer"}, {Label: "more", Text: "… and 2 more errors"}}},
		{name: "wrapped", tr: jsonAnswer("Here:\n```json\n{\"event_time\": \"2024-03-01T10:00:00Z\"}\n```"), check: "json_schema",
			params: map[string]any{"schema": c16Schema, "allow_wrapped": true}, want: PASS,
			summary: "matches the schema (JSON in the ```json fence at line 2)"},
		{name: "not JSON", tr: jsonAnswer("The event is tomorrow."), check: "json_schema", params: schema, want: FAIL,
			summary: "not valid JSON: invalid character 'T' looking for beginning of value at line 1, column 1"},
		{name: "C24c empty output", tr: jsonAnswer(""), check: "json_schema", params: schema, want: FAIL},
		{name: "boolean schema", tr: jsonAnswer(`{}`), check: "json_schema", params: map[string]any{"schema": "false"}, want: FAIL},
		{name: "session", tr: jsonChat(
			evalkit.Message{Role: evalkit.RoleAssistant, Content: `{"event_time": "2024-03-01T10:00:00Z"}`},
			evalkit.Message{Role: evalkit.RoleAssistant, Content: `{"event_time": "soon"}`},
		), check: "json_schema", params: map[string]any{"schema": c16Schema, "scope": "session"}, want: FAIL, score: ptr(0.5),
			summary: "1 of 2 assistant messages fail"},
		{name: "missing schema", tr: jsonAnswer(`{}`), check: "json_schema", want: ERROR, param: "schema",
			summary: `json_schema: param "schema": required: want a JSON Schema object`},
		{name: "invalid schema", tr: jsonAnswer(`{}`), check: "json_schema", params: map[string]any{"schema": map[string]any{"type": "nope"}},
			want: ERROR, param: "schema"},
		{name: "schema not JSON", tr: jsonAnswer(`{}`), check: "json_schema", params: map[string]any{"schema": "schemas/order.json"},
			want: ERROR, param: "schema"},
		{name: "schema a number", tr: jsonAnswer(`{}`), check: "json_schema", params: map[string]any{"schema": 3},
			want: ERROR, param: "schema", summary: `json_schema: param "schema": want a JSON Schema object, got a number`},
		{name: "external ref refused", tr: jsonAnswer(`{}`), check: "json_schema", params: map[string]any{"schema": map[string]any{"$ref": "file:///etc/passwd"}},
			want: ERROR, param: "schema"},
		{name: "unknown param", tr: jsonAnswer(`{}`), check: "json_schema", params: map[string]any{"schema": c16Schema, "strict": true},
			want: ERROR, param: "strict"},
	})
}

func TestJSONSchemaTyped(t *testing.T) {
	ctx := context.Background()
	for _, schema := range []any{c16Schema, json.RawMessage(`{"required": ["event_time"]}`), []byte(`{"required": ["event_time"]}`)} {
		c := assert.JSONSchema{Schema: schema}
		res, err := c.Check(ctx, jsonAnswer(`{"event_time": "2024-03-01T10:00:00Z"}`))
		require.NoError(t, err)
		testify.True(t, res.Passed, "%+v", res)
		res, err = c.Check(ctx, jsonAnswer(`{"qty": 3}`))
		require.NoError(t, err)
		testify.False(t, res.Passed)
	}
	_, err := assert.JSONSchema{}.Check(ctx, jsonAnswer(`{}`))
	var pe *assert.ParamError
	require.True(t, errors.As(err, &pe), "%v", err)
	testify.Equal(t, "schema", pe.Param)

	_, err = assert.NewRegistry().Build("json_schema", map[string]any{"schema": map[string]any{"minimum": "zero"}})
	require.True(t, errors.As(err, &pe), "Build compiles the schema: %v", err)
	testify.Contains(t, err.Error(), "invalid JSON Schema: not valid against its meta-schema: at /minimum: got string, want number")
}

// schemaErr evaluates json_schema with schema on a small answer and returns
// the error, which must be a *ParamError on "schema".
func schemaErr(t *testing.T, schema any) string {
	t.Helper()
	res, err := assert.Eval(context.Background(), "json_schema", jsonAnswer(`{"a": 1}`), map[string]any{"schema": schema})
	var pe *assert.ParamError
	require.True(t, errors.As(err, &pe), "%v: want a *ParamError, got %+v, %v", schema, res, err)
	testify.Equal(t, "schema", pe.Param)
	return err.Error()
}

// TestJSONSchemaRefCycles: a schema whose references loop on the same value
// is an error, not a failure charged to the output.
func TestJSONSchemaRefCycles(t *testing.T) {
	tests := map[string]string{
		`{"$ref": "#"}`: `json_schema: param "schema": reference cycle: (root) → (root) loops on the same value`,
		`{"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}}, "$ref": "#/$defs/a"}`: `json_schema: param "schema": reference cycle: /$defs/a → /$defs/b → /$defs/a loops on the same value`,
		`{"anyOf": [{"$ref": "#"}, {"type": "string"}]}`:                                           `json_schema: param "schema": reference cycle: (root) → /anyOf/0 → (root) loops on the same value`,
		`{"not": {"$ref": "#"}}`: `json_schema: param "schema": reference cycle: (root) → /not → (root) loops on the same value`,
		`{"type": "object", "properties": {"a": {"$ref": "#/properties/a"}}}`:                                         `json_schema: param "schema": reference cycle: /properties/a → /properties/a loops on the same value`,
		`{"$defs": {"a": {"$anchor": "x", "allOf": [{"$ref": "#x"}]}}, "$ref": "#/$defs/a"}`:                          `json_schema: param "schema": reference cycle: /$defs/a → /$defs/a/allOf/0 → /$defs/a loops on the same value`,
		`{"$schema": "https://json-schema.org/draft/2019-09/schema", "$recursiveAnchor": true, "$recursiveRef": "#"}`: `json_schema: param "schema": reference cycle: (root) → (root) loops on the same value`,
	}
	for schema, want := range tests {
		testify.Equal(t, want, schemaErr(t, schema), schema)
	}

	// A cycle through an absolute reference is found when validation
	// reaches it, and is an error too.
	absolute := `{"$id": "https://example.com/order.json", "$ref": "https://example.com/order.json"}`
	testify.Equal(t, `json_schema: param "schema": reference cycle: /$ref and (root) lead to the same subschema on the same value`, schemaErr(t, absolute))

	// Recursion that reads into the value is no cycle.
	linked := map[string]any{"schema": `{"type": "object", "properties": {"next": {"$ref": "#"}}, "required": ["id"]}`}
	res, err := assert.Eval(context.Background(), "json_schema", jsonAnswer(`{"id": 1, "next": {"id": 2, "next": {}}}`), linked)
	require.NoError(t, err)
	testify.False(t, res.Passed)
	testify.Equal(t, "does not match the schema: at /next/next: missing property 'id'", res.Summary)
}

// TestJSONSchemaAcceptsAnything: a schema that constrains nothing would pass
// any output; it is an error.
func TestJSONSchemaAcceptsAnything(t *testing.T) {
	const want = `json_schema: param "schema": accepts any JSON: nothing in it constrains the output (give "type", "required", "properties" with types, "enum", ...)`
	for _, schema := range []any{
		`{}`, `true`, map[string]any{}, true,
		`{"$schema": "https://json-schema.org/draft/2020-12/schema", "title": "Order", "description": "An order"}`,
		`{"$defs": {"id": {"type": "string"}}, "$comment": "only definitions"}`,
		`{"properties": {"id": {}, "name": true}, "additionalProperties": true}`,
		`{"allOf": [{}, {"title": "x"}], "anyOf": [{"type": "string"}, {}], "items": {}, "if": {"type": "string"}, "then": {}}`,
		`{"x-internal": true, "examples": [1], "default": {}}`,
	} {
		testify.Equal(t, want, schemaErr(t, schema), "%v", schema)
	}
	// Each of these constrains something.
	for _, schema := range []string{
		`{"type": "object"}`, `{"required": ["a"]}`, `{"not": {}}`, `{"properties": {"a": {"type": "string"}}}`,
		`{"enum": [1]}`, `{"oneOf": [{}, {"type": "number"}]}`, `{"$ref": "#/$defs/a", "$defs": {"a": {"type": "object"}}}`,
		`{"dependencies": {"a": ["b"]}}`, `{"contains": {}}`, `{"format": "email"}`,
	} {
		_, err := assert.NewRegistry().Build("json_schema", map[string]any{"schema": schema})
		testify.NoError(t, err, schema)
	}
	res, err := assert.Eval(context.Background(), "json_schema", jsonAnswer(`{}`), map[string]any{"schema": false})
	require.NoError(t, err, "false rejects everything: a failure, never a pass")
	testify.False(t, res.Passed)
}

// TestJSONSchemaUnknownKeywords: a keyword the validator would ignore, such
// as a typo, would silently drop a constraint; it is an error.
func TestJSONSchemaUnknownKeywords(t *testing.T) {
	tests := map[string]string{
		`{"type": "object", "properties": {"a": {"type": "object", "requird": ["b"]}}}`: `unknown keyword "requird" at /properties/a (did you mean "required"?)`,
		`{"type": "object", "propertes": {"a": {"type": "string"}}}`:                    `unknown keyword "propertes" at (root) (did you mean "properties"?)`,
		`{"tpye": "string"}`: `unknown keyword "tpye" at (root) (did you mean "type"?)`,
		`{"type": "object", "properties": {"a": {"type": "string", "minlength": 3}}}`:                                 `unknown keyword "minlength" at /properties/a (did you mean "minLength"?)`,
		`{"type": "object", "name": {"type": "string"}}`:                                                              `unknown keyword "name" at (root) (a property's schema? put it under "properties")`,
		`{"type": "object", "foo": 1}`:                                                                                `unknown keyword "foo" at (root)`,
		`{"type": "array", "items": {"anyOf": [{"type": "string"}, {"maxLenght": 2}]}}`:                               `unknown keyword "maxLenght" at /items/anyOf/1 (did you mean "maxLength"?)`,
		`{"$defs": {"a": {"typ": "string"}}, "$ref": "#/$defs/a"}`:                                                    `unknown keyword "typ" at /$defs/a (did you mean "type"?)`,
		`{"type": "object", "patternProperties": {"^x/y~": {"minimun": 1}}}`:                                          `unknown keyword "minimun" at /patternProperties/^x~1y~0 (did you mean "minimum"?)`,
		`{"type": "object", "dependentSchemas": {"a": {"requred": ["b"]}}}`:                                           `unknown keyword "requred" at /dependentSchemas/a (did you mean "required"?)`,
		`{"type": "string", "nullable": true}`:                                                                        `"nullable": true at (root) is OpenAPI 3.0, not JSON Schema, and would be ignored: allow null by adding "null" to "type"`,
		`{"type": "string", "format": "emial"}`:                                                                       `format "emial" at (root) is not one the validator checks (did you mean "email"?)`,
		`{"type": "string", "format": "idn-email"}`:                                                                   `format "idn-email" at (root) is not one the validator checks`,
		`{"id": "order", "type": "object"}`:                                                                           `keyword "id" at (root) is not part of 2020-12, which would ignore it (did you mean "$id"?)`,
		`{"type": "array", "prefixItems": [{"type": "string"}], "additionalItems": false}`:                            `keyword "additionalItems" at (root) is not part of 2020-12, which would ignore it: use "items" beside "prefixItems"`,
		`{"$schema": "http://json-schema.org/draft-07/schema#", "prefixItems": [{"type": "string"}]}`:                 `keyword "prefixItems" at (root) is not part of draft-07, which would ignore it (it is from 2020-12: set "$schema" to a later draft, or leave it out for 2020-12)`,
		`{"$schema": "http://json-schema.org/draft-04/schema#", "type": "object", "propertyNames": {"maxLength": 3}}`: `keyword "propertyNames" at (root) is not part of draft-04, which would ignore it (it is from draft-06: set "$schema" to a later draft, or leave it out for 2020-12)`,
		`{"$schema": "http://json-schema.org/draft-07/schema#", "$ref": "#/definitions/a", "required": ["x"], "definitions": {"a": {"type": "object"}}}`: `keywords beside "$ref" at (root) are ignored in draft-07 ("required"): put the "$ref" and them in "allOf"`,
		`{"$schema": "http://json-schema.org/draft-07/schema#", "items": [{"type": "string"}, {"tyep": "number"}]}`:                                      `unknown keyword "tyep" at /items/1 (did you mean "type"?)`,
		`{"type": "object", "requird": ["a"], "propertes": {}}`:                                                                                          `unknown keyword "propertes" at (root) (did you mean "properties"?), unknown keyword "requird" at (root) (did you mean "required"?)`,
	}
	for schema, want := range tests {
		testify.Equal(t, `json_schema: param "schema": `+want, schemaErr(t, schema), schema)
	}
	// Data is never read as schema; extensions and annotations are known.
	for _, schema := range []string{
		`{"type": "object", "enum": [{"requird": 1}], "const": {"propertes": 2}, "default": {"tpye": 3}, "examples": [{"foo": 4}]}`,
		`{"type": "object", "x-order": 1, "x-anything": {"tpye": 1}, "discriminator": {"propertyName": "kind"}, "example": {}}`,
		`{"$schema": "http://json-schema.org/draft-04/schema#", "id": "order", "type": "object"}`,
		`{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "dependencies": {"a": ["b"], "c": {"required": ["d"]}}}`,
		`{"type": "object", "properties": {"type": {"type": "string"}, "properties": {"type": "object"}, "requird": {"type": "string"}}}`,
		`{"type": "string", "format": "int64", "contentMediaType": "application/json", "deprecated": true, "readOnly": true, "$comment": "c"}`,
		`{"type": "object", "$defs": {"node": {"$dynamicAnchor": "node", "type": "object"}}, "properties": {"n": {"$dynamicRef": "#node"}}}`,
	} {
		_, err := assert.NewRegistry().Build("json_schema", map[string]any{"schema": schema})
		testify.NoError(t, err, schema)
	}
}

// TestJSONSchemaLimits: a schema the validator would take seconds or
// minutes to compile is an error, found before compiling.
func TestJSONSchemaLimits(t *testing.T) {
	nested := func(levels int) string {
		return strings.Repeat(`{"type": "object", "properties": {"a": `, levels) + `{"type": "string"}` + strings.Repeat(`}}`, levels)
	}
	properties := func(n int, each string) string {
		var b strings.Builder
		b.WriteString(`{"type": "object", "properties": {`)
		for i := range n {
			if i > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, `"p%d": %s`, i, each)
		}
		b.WriteString(`}}`)
		return b.String()
	}
	tests := map[string]struct{ schema, want string }{
		"2000 levels":       {nested(1000), `nested more than 128 levels deep; the limit is 128`},
		"129 levels":        {strings.Repeat(`{"not": `, 128) + `{"type": "string"}` + strings.Repeat(`}`, 128), `nested more than 128 levels deep; the limit is 128`},
		"100k properties":   {properties(100_000, `{}`), `1388924 bytes of JSON; the limit is 1048576 (1 MiB)`},
		"10,001 subschemas": {properties(10_000, `{}`), `more than 10000 subschemas; the limit is 10000`},
		"1 MiB of enum":     {`{"enum": ["` + strings.Repeat("x", 1<<20) + `"]}`, `1048590 bytes of JSON; the limit is 1048576 (1 MiB)`},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			testify.Equal(t, `json_schema: param "schema": `+tt.want, schemaErr(t, tt.schema))
		})
	}
	// At the limits, schemas compile. The timings are logged, not asserted:
	// they measure the validator, on this machine.
	for name, schema := range map[string]string{
		"127 levels":        strings.Repeat(`{"not": `, 126) + `{"type": "string"}` + strings.Repeat(`}`, 126),
		"64 nested objects": nested(63),
		"9,999 properties":  properties(9_998, `{"type": "string"}`),
		"156 branches 64 deep": func() string {
			var b strings.Builder
			b.WriteString(`{"type": "object", "properties": {`)
			for i := range 156 {
				if i > 0 {
					b.WriteString(", ")
				}
				fmt.Fprintf(&b, `"b%d": %s`, i, nested(62))
			}
			b.WriteString(`}}`)
			return b.String()
		}(),
	} {
		start := time.Now()
		_, err := assert.NewRegistry().Build("json_schema", map[string]any{"schema": schema})
		require.NoError(t, err, name)
		t.Logf("%s: %d bytes compiled in %v", name, len(schema), time.Since(start).Round(time.Millisecond))
	}
}

// TestJSONSchemaBoundedMessages: failures quote bounded excerpts of the
// output and the schema, however large.
func TestJSONSchemaBoundedMessages(t *testing.T) {
	ctx := context.Background()
	hugeKey := strings.Repeat("k", 1<<20)
	var enum []any
	for i := range 20_000 {
		enum = append(enum, fmt.Sprintf("value-%d", i))
	}
	cases := map[string]struct {
		schema any
		output string
	}{
		"huge key":   {`{"type": "object", "additionalProperties": false}`, `{"` + hugeKey + `": 1}`},
		"huge enum":  {map[string]any{"enum": enum}, `"none"`},
		"huge value": {`{"type": "object", "properties": {"a": {"const": "x"}}}`, `{"a": "` + hugeKey + `"}`},
		"many errors, huge keys": {`{"type": "object", "additionalProperties": {"type": "number"}}`,
			`{"` + strings.Repeat("a", 5000) + `": "x", "` + strings.Repeat("b", 5000) + `": "y", "c": "z"}`},
	}
	for name, tt := range cases {
		res, err := assert.JSONSchema{Schema: tt.schema}.Check(ctx, jsonAnswer(tt.output))
		require.NoError(t, err, name)
		testify.False(t, res.Passed, name)
		testify.Less(t, resultSize(res), 3000, "%s: %+v", name, res)
	}
	// So do errors in the schema.
	var props []string
	for i := range 5000 {
		props = append(props, fmt.Sprintf(`"p%d": {"type": "nope-%d"}`, i, i))
	}
	msg := schemaErr(t, `{"type": "object", "properties": {`+strings.Join(props, ", ")+`}}`)
	testify.Less(t, len(msg), 3000, msg)
	testify.Contains(t, msg, "invalid JSON Schema: not valid against its meta-schema")
	msg = schemaErr(t, `{"type": "object", "`+hugeKey+`": 1}`)
	testify.Less(t, len(msg), 1000, msg)
}

// OpenAPI 3.0's "nullable": false says what JSON Schema says anyway.
func TestJSONSchemaNullableFalse(t *testing.T) {
	res, err := assert.JSONSchema{Schema: `{"type": "integer", "nullable": false}`}.Check(context.Background(), jsonAnswer(`7`))
	require.NoError(t, err)
	testify.True(t, res.Passed, res.Summary)
}
