package assert_test

import (
	"context"
	"encoding/json"
	"errors"
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

// jsonCase is one registry evaluation and what it must give.
type jsonCase struct {
	name   string
	tr     *evalkit.Transcript
	check  string
	params map[string]any
	want   outcome
	// summary, when set, is the exact Summary (or error text) wanted.
	summary string
	// details, when set, must all appear among the result's details.
	details []assert.Detail
	score   *float64
	// param, when set, is the parameter a *ParamError must name.
	param string
	// diff, when set, must appear in the result's Diff.
	diff string
}

func runJSONCases(t *testing.T, cases []jsonCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res, err := assert.Eval(context.Background(), tc.check, tc.tr, tc.params)
			require.Equal(t, tc.want, outcomeOf(res, err), "result %+v, error %v", res, err)
			if tc.summary != "" {
				if err != nil {
					testify.Equal(t, tc.summary, err.Error())
				} else {
					testify.Equal(t, tc.summary, res.Summary)
				}
			}
			for _, d := range tc.details {
				testify.Contains(t, res.Details, d)
			}
			if tc.score != nil {
				testify.InDelta(t, *tc.score, res.Score, 1e-9)
			}
			if tc.param != "" {
				var pe *assert.ParamError
				require.True(t, errors.As(err, &pe), "want a *ParamError, got %v", err)
				testify.Equal(t, tc.param, pe.Param)
			}
			if tc.diff != "" {
				testify.Contains(t, res.Diff, tc.diff)
			}
		})
	}
}

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
	runJSONCases(t, []jsonCase{
		{name: "object", tr: jsonAnswer(`{"a": [1, 2]}`), check: "json_valid", want: PASS, summary: "valid JSON in the whole text", score: ptr(1)},
		{name: "scalar", tr: jsonAnswer(" 42\n"), check: "json_valid", want: PASS},
		{name: "C01a json fence over ts fence", tr: jsonAnswer(c01a), check: "json_valid", params: wrapped, want: PASS,
			summary: "valid JSON in the ```json fence at line 6"},
		{name: "C01b one-line fence", tr: jsonAnswer(c01b), check: "json_valid", params: wrapped, want: PASS,
			summary: "valid JSON in the ```json fence at line 1"},
		{name: "C01c python fence", tr: jsonAnswer(c01c), check: "json_valid", params: wrapped, want: FAIL,
			summary: "no JSON found: the only fence is tagged python", score: ptr(0)},
		{name: "C01c python fence, extract_json", tr: jsonAnswer(c01c), check: "json_valid", params: prose, want: FAIL,
			summary: "no JSON found: the only fence is tagged python; there is no JSON object or array outside the fences"},
		{name: "C03 cut off", tr: cutOff, check: "json_valid", want: FAIL,
			summary: "not valid JSON: unexpected end of input (cut off?) at line 1, column 51",
			details: []assert.Detail{
				{Label: "output", Text: `"{\"city\": \"Lyon\", \"forecast\": \"light rain until eve"`},
				{Label: "note", Text: `finish_reason is "length": the output was cut off by the token limit`},
			}},
		{name: "C03 cut off, extract_json", tr: cutOff, check: "json_valid", params: prose, want: FAIL,
			summary: "no JSON found: the object starting at line 1, column 1 is not valid JSON: unexpected end of input (cut off?) at line 1, column 51",
			details: []assert.Detail{{Label: "note", Text: `finish_reason is "length": the output was cut off by the token limit`}}},
		{name: "C24c empty output", tr: jsonAnswer(""), check: "json_valid", want: FAIL, summary: "not valid JSON: the output is empty"},
		{name: "white space only", tr: jsonAnswer(" \n"), check: "valid_json", params: wrapped, want: FAIL, summary: "not valid JSON: the output is empty"},
		{name: "prose is not JSON", tr: jsonAnswer("Sure, here it is."), check: "json_valid", want: FAIL,
			summary: "not valid JSON: invalid character 'S' looking for beginning of value at line 1, column 1"},
		{name: "fenced JSON without allow_wrapped", tr: jsonAnswer(c01a), check: "json_valid", want: FAIL,
			details: []assert.Detail{{Label: "hint", Text: "there is JSON in the ```json fence at line 6: set allow_wrapped (AllowWrapped) to read it"}}},
		{name: "prose JSON with allow_wrapped", tr: jsonAnswer(`The order: {"id": 7}.`), check: "json_valid", params: wrapped, want: FAIL,
			details: []assert.Detail{{Label: "hint", Text: "there is JSON in the text at line 1, column 12: set extract_json (ExtractJSON) to read it"}}},
		{name: "prose JSON, strict", tr: jsonAnswer(`The order: {"id": 7}.`), check: "json_valid", want: FAIL,
			details: []assert.Detail{{Label: "hint", Text: "there is JSON in the text at line 1, column 12: set extract_json (ExtractJSON) to read it"}}},
		{name: "prose JSON with extract_json", tr: jsonAnswer(`The order: {"id": 7}.`), check: "is_valid_json", params: prose, want: PASS,
			summary: "valid JSON in the text at line 1, column 12"},
		{name: "last message made only tool calls", tr: toolOnly, check: "json_valid", want: FAIL,
			summary: "not valid JSON: the output is empty",
			details: []assert.Detail{{Label: "note", Text: "messages[2] has no text; it called lookup"}}},
		{name: "session", tr: session, check: "json_valid", params: map[string]any{"scope": "session"}, want: FAIL,
			summary: "1 of 3 assistant messages fail", score: ptr(2.0 / 3),
			details: []assert.Detail{
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
// gives a prompt failure with a bounded message, in every mode.
func TestJSONHugeOutput(t *testing.T) {
	huge := "Total due: 42.00 EUR. data:image/png;base64," + strings.Repeat("A", 20_000_000)
	braces := strings.Repeat("{", 20_000_000)
	for _, text := range []string{huge, braces} {
		for _, params := range []map[string]any{nil, {"allow_wrapped": true}, {"extract_json": true}} {
			start := time.Now()
			res, err := assert.Eval(context.Background(), "json_valid", jsonAnswer(text), params)
			require.NoError(t, err)
			testify.False(t, res.Passed)
			size := len(res.Summary) + len(res.Diff)
			for _, d := range res.Details {
				size += len(d.Label) + len(d.Text)
			}
			testify.Less(t, size, 4096, "the failure message must stay bounded: %+v", res)
			testify.Less(t, time.Since(start), 20*time.Second, "only catches quadratic behaviour")
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
	runJSONCases(t, []jsonCase{
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
			summary: "does not match the schema: 2 errors",
			details: []assert.Detail{{Label: "at (root)", Text: "missing property 'event_time'"}, {Label: "at /qty", Text: "got string, want integer"}}},
		{name: "errors bounded", tr: jsonAnswer("{" + strings.Join(manyOut, ", ") + "}"), check: "json_schema",
			params: map[string]any{"schema": many}, want: FAIL, summary: "does not match the schema: 12 errors",
			details: []assert.Detail{{Label: "at /a", Text: "got string, want integer"}, {Label: "more", Text: "… and 2 more errors"}}},
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
