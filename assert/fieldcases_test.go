package assert_test

// The field failures of ../testdata/field-failures.json, each a test named
// after its id, reading its inputs from the file as written: transcripts
// decoded from the wire formats the inputs come in, parameters as a case
// file gives them, judge replies served by judgefake to a real judge.
// The tests beside each check hold the same cases written out in Go.

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	testify "github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/anthropicjudge"
	"github.com/evalkit-go/evalkit/assert"
	"github.com/evalkit-go/evalkit/judgefake"
	"github.com/evalkit-go/evalkit/openaijudge"
)

// fieldInput returns the input of case id in testdata/field-failures.json.
func fieldInput(t *testing.T, id string) map[string]any {
	t.Helper()
	data, err := os.ReadFile("../testdata/field-failures.json")
	require.NoError(t, err)
	var cases []struct {
		ID    string         `json:"id"`
		Input map[string]any `json:"input"`
	}
	require.NoError(t, json.Unmarshal(data, &cases))
	for _, c := range cases {
		if c.ID == id {
			return c.Input
		}
	}
	t.Fatalf("no case %s", id)
	return nil
}

func str(t *testing.T, v any) string {
	t.Helper()
	s, ok := v.(string)
	require.True(t, ok, "%#v is not a string", v)
	return s
}

func obj(t *testing.T, v any) map[string]any {
	t.Helper()
	m, ok := v.(map[string]any)
	require.True(t, ok, "%#v is not an object", v)
	return m
}

// openaiChat decodes an OpenAI chat message list: a user turn, then msgs.
func openaiChat(t *testing.T, msgs ...map[string]any) *evalkit.Transcript {
	t.Helper()
	list := []any{map[string]any{"role": "user", "content": "Help me."}}
	for _, m := range msgs {
		list = append(list, m)
	}
	data, err := json.Marshal(list)
	require.NoError(t, err)
	tr, err := evalkit.Decode(data)
	require.NoError(t, err, "%s", data)
	return tr
}

// wireCalls makes an assistant message calling each of calls ({name,
// arguments}) and the tool messages answering them, OpenAI's way:
// arguments given as an object are sent as their JSON text, as servers do.
func wireCalls(t *testing.T, calls []any) []map[string]any {
	t.Helper()
	var tcs []any
	var results []map[string]any
	for i, c := range calls {
		call := obj(t, c)
		id := "call_" + string(rune('a'+i))
		args := call["arguments"]
		if m, isObj := args.(map[string]any); isObj {
			b, err := json.Marshal(m)
			require.NoError(t, err)
			args = string(b)
		}
		tcs = append(tcs, map[string]any{"id": id, "type": "function", "function": map[string]any{"name": call["name"], "arguments": args}})
		results = append(results, map[string]any{"role": "tool", "tool_call_id": id, "content": "ok"})
	}
	return append([]map[string]any{{"role": "assistant", "content": nil, "tool_calls": tcs}}, results...)
}

type fieldCheck struct {
	ref    string
	tr     *evalkit.Transcript
	check  string
	params map[string]any
	want   outcome
	// has, when set, must appear in the summary (or the error's text).
	has string
}

func runFieldChecks(t *testing.T, checks []fieldCheck) {
	t.Helper()
	for _, c := range checks {
		t.Run(c.ref+"/"+c.check, func(t *testing.T) {
			res, err := assert.Eval(context.Background(), c.check, c.tr, c.params)
			require.Equal(t, c.want, outcomeOf(res, err), "result %+v, error %v", res, err)
			text := res.Summary
			if err != nil {
				text = err.Error()
			}
			for _, d := range res.Details {
				text += "\n" + d.Label + ": " + d.Text
			}
			if c.has != "" {
				testify.Contains(t, text, c.has)
			}
			testify.Less(t, len(text)+len(res.DiffText()), 8<<10, "failure output stays bounded")
		})
	}
}

func TestFieldCaseC01(t *testing.T) {
	in := fieldInput(t, "C01")
	a, b, c := jsonAnswer(str(t, in["a_assistant_text"])), jsonAnswer(str(t, in["b_assistant_text"])), jsonAnswer(str(t, in["c_assistant_text"]))
	wrapped := map[string]any{"allow_wrapped": true}
	path := map[string]any{"allow_wrapped": true, "expression": str(t, in["a_jsonpath"]), "expected": in["a_expected_value"]}
	// Variants: the fences in the other order, a tilde fence, an untagged
	// fence beside the json one, CRLF line endings.
	swapped := jsonAnswer("Answer:\n```json\n{\"status\": \"shipped\", \"items\": 2}\n```\nType used:\n```ts\nconst sample = { id: 7 };\n```")
	tilde := jsonAnswer(strings.ReplaceAll(str(t, in["a_assistant_text"]), "```", "~~~"))
	untagged := jsonAnswer("Example:\n```\n{not json}\n```\nAnswer:\n```json\n{\"status\": \"shipped\"}\n```")
	crlf := jsonAnswer(strings.ReplaceAll(str(t, in["a_assistant_text"]), "\n", "\r\n"))
	runFieldChecks(t, []fieldCheck{
		{"a", a, "json_valid", wrapped, PASS, "```json fence"},
		{"a", a, "json_path", path, PASS, ""},
		{"a", a, "equals", map[string]any{"allow_wrapped": true, "expected": map[string]any{"status": "shipped", "items": 2}}, PASS, ""},
		{"b", b, "json_valid", wrapped, PASS, "```json fence at line 1"},
		{"b", b, "equals", map[string]any{"allow_wrapped": true, "expected": map[string]any{"ok": true}}, PASS, ""},
		{"c", c, "json_valid", wrapped, FAIL, "no JSON found"},
		{"c", c, "json_valid", map[string]any{"extract_json": true}, FAIL, "no JSON found"},
		{"c", c, "json_path", map[string]any{"allow_wrapped": true, "expression": "ok", "expected": 1}, FAIL, ""},
		{"swapped", swapped, "json_path", path, PASS, ""},
		{"tilde", tilde, "json_path", path, PASS, ""},
		{"untagged beside json", untagged, "json_path", path, PASS, ""},
		{"crlf", crlf, "json_path", path, PASS, ""},
	})
}

func TestFieldCaseC03(t *testing.T) {
	in := fieldInput(t, "C03")
	msgs := wireCalls(t, in["tool_calls"].([]any))
	msgs[0]["content"] = str(t, in["assistant_text"])
	msgs[0]["finish_reason"] = str(t, in["finish_reason"])
	tr := openaiChat(t, msgs...)
	// The answer itself as the last message, as the model wrote it.
	answer := openaiChat(t, map[string]any{"role": "assistant", "content": str(t, in["assistant_text"]), "finish_reason": str(t, in["finish_reason"])})
	expected := obj(t, in["tool_args_expected"])
	args := map[string]any{"tool_name": expected["name"], "expected_args": expected["args_subset"]}
	// Variant: the Responses API, arguments cut the same way.
	responses, err := evalkit.Decode([]byte(`[{"role": "user", "content": "Weather in Lyon?"},
		{"type": "function_call", "call_id": "c1", "name": "get_forecast", "arguments": "{\"city\": \"Ly"},
		{"type": "function_call_output", "call_id": "c1", "output": "ok"}]`))
	require.NoError(t, err)
	runFieldChecks(t, []fieldCheck{
		{"json_valid", answer, "json_valid", nil, FAIL, "unexpected end of input"},
		{"json_valid names the token limit", answer, "json_valid", nil, FAIL, `finish_reason is "length"`},
		{"tool_args", tr, "tool_args", args, FAIL, "not valid JSON"},
		{"tool_args, session", tr, "tool_args_session", args, FAIL, "not valid JSON"},
		{"tool_calls_with_args", tr, "tool_calls_with_args", args, FAIL, ""},
		{"tools_called", tr, "tools_called", map[string]any{"tool_names": []any{"get_forecast"}}, PASS, ""},
		{"tools_called requiring args", tr, "tools_called", map[string]any{"tool_names": []any{"get_forecast"}, "require_args": true}, FAIL, ""},
		{"no_tool_errors", tr, "no_tool_errors", nil, PASS, ""},
		{"responses: tool_args", responses, "tool_args", args, FAIL, "not valid JSON"},
		{"responses: tools_called", responses, "tools_called", map[string]any{"tool_names": []any{"get_forecast"}}, PASS, ""},
	})
}

// judgeOver is a real judge of kind ("openai" or "anthropic") whose
// model answers reply.
func judgeOver(t *testing.T, kind, reply string) evalkit.Judge {
	t.Helper()
	tr := judgefake.NewTransport(judgefake.Text(reply))
	if kind == "anthropic" {
		return anthropicjudge.New(anthropicjudge.WithBaseURL("http://judge.test"), anthropicjudge.WithAPIKey("sk-ant-test-field-0000"), anthropicjudge.WithHTTPClient(tr.Client()))
	}
	return openaijudge.New(openaijudge.WithBaseURL("http://judge.test/v1"), openaijudge.WithAPIKey("sk-test-field-0000"), openaijudge.WithHTTPClient(tr.Client()))
}

// judged runs check type typ with params through the registry, its judge
// a real one of each kind answering reply, and wants want of each. A
// reply that is not a JSON object goes to the OpenAI judge only: the
// Anthropic judge's forced tool takes an object.
func judged(t *testing.T, ref, reply, typ string, params map[string]any, want outcome, has string) {
	t.Helper()
	kinds := []string{"openai", "anthropic"}
	var probe map[string]any
	if json.Unmarshal([]byte(reply), &probe) != nil {
		kinds = kinds[:1]
	}
	for _, kind := range kinds {
		t.Run(ref+"/"+kind, func(t *testing.T) {
			reg := assert.NewRegistry().WithJudge(judgeOver(t, kind, reply))
			res, err := reg.Eval(context.Background(), typ, jsonAnswer("The refund window is 30 days."), params)
			require.Equal(t, want, outcomeOf(res, err), "result %+v, error %v", res, err)
			if has != "" {
				text := res.Summary
				if err != nil {
					text = err.Error()
				}
				testify.Contains(t, text, has)
			}
		})
	}
}

// fieldSchema is a verdict schema asking the judge for field, of type typ.
func fieldSchema(field, typ string) map[string]any {
	return map[string]any{"type": "object", "required": []any{field}, "properties": map[string]any{field: map[string]any{"type": typ}}}
}

func threshold(min float64) map[string]any {
	return map[string]any{"eval_type": "llm_judge", "eval_params": map[string]any{"criteria": "Answers the question"}, "min_score": min}
}

func TestFieldCaseC04(t *testing.T) {
	in := fieldInput(t, "C04")
	byField := map[string]any{"criteria": "Answers the question", "verdict_field": "pass", "passed": true, "verdict_schema": fieldSchema("pass", "boolean")}
	for _, ref := range []string{"a", "b"} {
		c := obj(t, in[ref])
		require.Equal(t, "pass", obj(t, c["passing"])["bool_field"])
		// An error, never a pass: the graded field is missing (a), or the
		// reply holds no verdict at all (b).
		judged(t, ref, str(t, c["judge_reply"]), "llm_judge", byField, ERROR, "")
		// Without a named field, the judge's own pass/fail is missing too.
		judged(t, ref+" own pass", str(t, c["judge_reply"]), "llm_judge", map[string]any{"criteria": "Answers the question"}, ERROR, "")
	}
	judged(t, "c", str(t, obj(t, in["c"])["judge_reply"]), "assertion", threshold(0.5), FAIL, "score 0.00, want >= 0.50")
	judged(t, "d", str(t, obj(t, in["d"])["judge_reply"]), "assertion", threshold(0.5), ERROR, "no score")
	// Variants: the field present but null, a string, or nested; a
	// threshold on the 0 bound.
	judged(t, "pass null", `{"pass": null, "score": 9}`, "llm_judge", byField, ERROR, `at /pass`)
	judged(t, "pass a string", `{"pass": "true", "score": 9}`, "llm_judge", byField, ERROR, `pass is a string`)
	judged(t, "pass nested", `{"result": {"pass": true}, "score": 9}`, "llm_judge", byField, ERROR, `missing property 'pass'`)
	judged(t, "score at the bound", `{"score": 5}`, "assertion", threshold(0.5), PASS, "")
}

func TestFieldCaseC06(t *testing.T) {
	in := fieldInput(t, "C06")
	grades := map[string]any{"criteria": "Grade the answer C (correct) or I (incorrect)", "verdict_field": "grade", "passing_labels": []any{"C"},
		"label_rules": []any{"case_insensitive", "trim"}, "verdict_schema": fieldSchema("grade", "string")}
	defaults := map[string]any{"criteria": "Grade the answer C (correct) or I (incorrect)", "verdict_field": "grade", "passing_labels": []any{"C"},
		"verdict_schema": fieldSchema("grade", "string")}
	a, b, c := str(t, in["a_judge_reply"]), str(t, in["b_judge_reply"]), str(t, in["c_judge_reply"])
	require.Contains(t, c, "\u200b", "the case's zero-width space survives the file")
	judged(t, "a", a, "llm_judge", grades, PASS, "")
	judged(t, "b", b, "llm_judge", grades, PASS, "")
	// c: the default label rules read past invisible characters; rules
	// that leave them out make it an error naming them — never a FAIL.
	judged(t, "c default rules", c, "llm_judge", defaults, PASS, "")
	judged(t, "c rules without ignore_zero_width", c, "llm_judge", grades, ERROR, "U+200B")
	// Variants: the reasoning holding a grade line in every casing, the
	// grade after a BOM or a soft hyphen, and a draft grade in prose
	// before the JSON, which the structured field overrides as in (a).
	judged(t, "grade line in reasoning", `{"grade": "I", "reasoning": "GRADE: C\ngrade: c\nFinal grade: C"}`, "llm_judge", grades, FAIL, "")
	judged(t, "BOM", "{\"grade\": \"\ufeffc\"}", "llm_judge", defaults, PASS, "")
	judged(t, "soft hyphen", "{\"grade\": \"C\u00ad\"}", "llm_judge", defaults, PASS, "")
	judged(t, "draft grade in prose", "First draft: GRADE: I\n{\"grade\": \"C\"}", "llm_judge", defaults, PASS, "")
	judged(t, "draft grade in prose, failing", "First draft: GRADE: C\n{\"grade\": \"I\"}", "llm_judge", defaults, FAIL, "")
}

func TestFieldCaseC07(t *testing.T) {
	in := fieldInput(t, "C07")
	params := map[string]any{"criteria": "Grade C or I", "verdict_schema": in["verdict_schema"], "verdict_field": "grade", "passing_labels": in["passing_grades"],
		"offered_labels": []any{"C", "I"}}
	judged(t, "a", str(t, in["a_judge_reply"]), "llm_judge", params, ERROR, "")
	judged(t, "b", str(t, in["b_judge_reply"]), "llm_judge", params, ERROR, "")
	judged(t, "c", str(t, in["c_judge_reply"]), "llm_judge", params, ERROR, "the judge failed")
	// d: a panel of three real judges, one unreadable, through the
	// registry: the two valid votes pass. (Graded by the panel's label: a
	// panel's verdict is no one judge's JSON object, so a verdict schema
	// or field cannot grade it — an error, never a pass.)
	var members []evalkit.Judge
	for _, r := range in["d_panel_replies"].([]any) {
		members = append(members, judgeOver(t, "openai", str(t, r)))
	}
	reg := assert.NewRegistry().WithJudge(evalkit.Panel(members, evalkit.Majority))
	res, err := reg.Eval(context.Background(), "llm_judge", jsonAnswer("The refund window is 30 days."), map[string]any{"criteria": "Grade C or I", "passing_labels": []any{"C"}, "offered_labels": []any{"C", "I"}})
	require.NoError(t, err)
	testify.True(t, res.Passed, res.Summary)
	// Variants: the grade in lower case is on the menu after the default
	// rules; an empty grade and a grade of the wrong type are errors.
	judged(t, "lower case", `{"grade": "c"}`, "llm_judge", map[string]any{"criteria": "Grade C or I", "verdict_field": "grade", "passing_labels": []any{"C"}, "offered_labels": []any{"C", "I"},
		"verdict_schema": fieldSchema("grade", "string")}, PASS, "")
	judged(t, "empty grade", `{"grade": ""}`, "llm_judge", params, ERROR, "")
	judged(t, "grade a number", `{"grade": 1}`, "llm_judge", params, ERROR, "")
}

func TestFieldCaseC08(t *testing.T) {
	in := fieldInput(t, "C08")
	ruleParams := func(rules []any) map[string]any {
		p := map[string]any{}
		for _, r := range rules {
			switch r {
			case "trim", "collapse_whitespace":
				p[r.(string)] = true
			case "case_insensitive":
				p["case_sensitive"] = false
			}
		}
		return p
	}
	var checks []fieldCheck
	for ref, want := range map[string]outcome{"a": PASS, "b": PASS, "c": PASS, "d": FAIL} {
		c := obj(t, in[ref])
		p := ruleParams(c["rules"].([]any))
		p["expected"] = c["expected"]
		checks = append(checks, fieldCheck{ref, jsonAnswer(str(t, c["actual"])), "equals", p, want, ""})
	}
	runFieldChecks(t, checks)
	for ref, want := range map[string]outcome{"e": PASS, "f": FAIL} {
		c := obj(t, in[ref])
		judged(t, ref, str(t, c["judge_reply"]), "llm_judge", map[string]any{"criteria": "Pass or fail", "verdict_field": "verdict",
			"passing_labels": c["passing_set"], "label_rules": c["rules"], "verdict_schema": fieldSchema("verdict", "string")}, want, "")
	}
	// Variants: CRLF and a tab, a non-breaking space, with and without rules.
	runFieldChecks(t, []fieldCheck{
		{"crlf", jsonAnswer("¡Déjame en paz!\r\n"), "equals", map[string]any{"expected": "¡Déjame en paz!", "trim": true}, PASS, ""},
		{"nbsp", jsonAnswer("Paris\u00a0"), "equals", map[string]any{"expected": "Paris", "trim": true}, PASS, ""},
		{"tab, no rules", jsonAnswer("Paris\t"), "equals", map[string]any{"expected": "Paris"}, FAIL, ""},
	})
}

func TestFieldCaseC09(t *testing.T) {
	in := fieldInput(t, "C09")
	given := openaiChat(t, wireCalls(t, in["tool_calls"].([]any))...)
	identical := openaiChat(t, wireCalls(t, in["variant_identical_calls"].([]any))...)
	onlyFirst := openaiChat(t, wireCalls(t, in["tool_calls"].([]any)[:1])...)
	var expected []any
	for _, e := range in["expected_calls"].([]any) {
		e := obj(t, e)
		expected = append(expected, map[string]any{"tool_name": e["name"], "expected_args": e["args_subset"]})
	}
	calls := map[string]any{"calls": expected}
	runFieldChecks(t, []fieldCheck{
		{"count", given, "tool_call_count", map[string]any{"tool": "search_flights", "min": 2, "max": 2}, PASS, ""},
		{"both expected", given, "tool_args", calls, PASS, ""},
		{"both expected", given, "tool_calls_with_args", calls, PASS, ""},
		{"both expected", given, "tools_called", map[string]any{"tool_names": []any{"search_flights", "search_flights"}}, PASS, ""},
		{"no repeat", given, "tool_no_repeat", nil, PASS, ""},
		{"identical", identical, "tool_no_repeat", nil, FAIL, "repeated"},
		{"identical still count 2", identical, "tool_call_count", map[string]any{"tool": "search_flights", "min": 2, "max": 2}, PASS, ""},
		{"identical both expected", identical, "tool_calls_with_args", calls, FAIL, ""},
		{"only the first", onlyFirst, "tool_args", calls, FAIL, ""},
		{"only the first", onlyFirst, "tool_calls_with_args", calls, FAIL, ""},
		{"only the first", onlyFirst, "tool_call_count", map[string]any{"tool": "search_flights", "min": 2}, FAIL, ""},
	})
	res, err := assert.Eval(context.Background(), "tool_calls_with_args", given, calls)
	require.NoError(t, err)
	testify.Equal(t, 1.0, res.Score, "each expected call consumes a call of its own: 1.0, not 0.5")
}

func TestFieldCaseC12(t *testing.T) {
	in := fieldInput(t, "C12")
	one := func(ref string) *evalkit.Transcript { return openaiChat(t, wireCalls(t, []any{in[ref]})...) }
	ad := obj(t, in["tool_args_a_to_d"])
	lyon := map[string]any{"tool_name": ad["name"], "expected_args": ad["args_subset"]}
	e := obj(t, in["tool_args_e"])
	none := map[string]any{"tool_name": e["name"], "expected_args": e["args_subset"]}
	tickets := openaiChat(t, wireCalls(t, in["e_calls"].([]any))...)
	require.Len(t, tickets.ToolCalls(), 3)
	var checks []fieldCheck
	for _, ref := range []string{"a_call", "b_call"} {
		checks = append(checks, fieldCheck{ref, one(ref), "tool_args", lyon, PASS, ""}, fieldCheck{ref, one(ref), "tool_calls_with_args", lyon, PASS, ""})
	}
	for _, ref := range []string{"c_call", "d_call"} {
		checks = append(checks, fieldCheck{ref, one(ref), "tool_args", lyon, FAIL, "not an object"}, fieldCheck{ref, one(ref), "tool_calls_with_args", lyon, FAIL, "not an object"},
			fieldCheck{ref, one(ref), "tools_called", map[string]any{"tool_names": []any{"get_weather"}}, PASS, ""})
	}
	checks = append(checks,
		fieldCheck{"e", tickets, "tools_called", map[string]any{"tool_names": []any{"list_open_tickets"}}, PASS, ""},
		fieldCheck{"e", tickets, "tool_args", none, PASS, ""},
		// tool_calls_with_args refuses a check that asks nothing of the
		// calls, rather than pass it vacuously.
		fieldCheck{"e", tickets, "tool_calls_with_args", none, ERROR, "nothing asked"},
		fieldCheck{"e, exact {}", tickets, "tool_calls_with_args", with(none, "match", "exact"), PASS, ""},
		fieldCheck{"e", tickets, "no_tool_errors", nil, PASS, ""},
		// Variants: other scalars as arguments, and an object with the
		// wrong value.
		fieldCheck{"number", openaiChat(t, wireCalls(t, []any{map[string]any{"name": "get_weather", "arguments": "7"}})...), "tool_args", lyon, FAIL, "not an object"},
		fieldCheck{"true", openaiChat(t, wireCalls(t, []any{map[string]any{"name": "get_weather", "arguments": "true"}})...), "tool_args", lyon, FAIL, "not an object"},
		fieldCheck{"other city", openaiChat(t, wireCalls(t, []any{map[string]any{"name": "get_weather", "arguments": `{"city": "Lille"}`}})...), "tool_args", lyon, FAIL, "Lille"},
	)
	runFieldChecks(t, checks)
}

func TestFieldCaseC13(t *testing.T) {
	in := fieldInput(t, "C13")
	a := obj(t, in["a_checks"])
	goInts := map[string]any{"min_size": 2, "max_size": 7}
	intAnswer, err := json.Marshal(goInts)
	require.NoError(t, err)
	tr := jsonAnswer(string(intAnswer))
	useNumber := jsonAnswer(str(t, in["b_data_decoded_with_UseNumber"]))
	rng := obj(t, a["range"])
	ev := obj(t, a["expected_value"])
	var checks []fieldCheck
	for ref, tr := range map[string]*evalkit.Transcript{"a": tr, "b": useNumber} {
		checks = append(checks,
			fieldCheck{ref, tr, "json_path", map[string]any{"expression": a["expr_true"], "expected": true}, PASS, ""},
			fieldCheck{ref, tr, "json_path", map[string]any{"expression": ev["path"], "expected": ev["value"]}, PASS, ""},
			fieldCheck{ref, tr, "json_path", map[string]any{"expression": ev["path"], "expected": 7}, PASS, ""},
			fieldCheck{ref, tr, "json_path", map[string]any{"expression": ev["path"], "expected": json.Number("7.0")}, PASS, ""},
			fieldCheck{ref, tr, "json_path", map[string]any{"expression": rng["path"], "min": rng["min"], "max": rng["max"]}, PASS, ""},
		)
	}
	cData, err := json.Marshal(in["c_data"])
	require.NoError(t, err)
	d := obj(t, in["d_expected_value"])
	e := obj(t, in["e_expected_value"])
	eData, err := json.Marshal(in["e_data"])
	require.NoError(t, err)
	checks = append(checks,
		fieldCheck{"c", jsonAnswer(string(cData)), "json_path", map[string]any{"expression": in["c_filter"], "min_results": in["c_min_results"]}, PASS, ""},
		fieldCheck{"c written 20.0", jsonAnswer(`{"fees": [{"fee": 20.0}, {"fee": 5}]}`), "json_path", map[string]any{"expression": in["c_filter"], "min_results": 1}, PASS, ""},
		fieldCheck{"d", jsonAnswer(str(t, in["d_data_text"])), "json_path", map[string]any{"expression": d["path"], "expected": d["value"]}, PASS, ""},
		fieldCheck{"d as int64", jsonAnswer(str(t, in["d_data_text"])), "json_path", map[string]any{"expression": d["path"], "expected": int64(1476857243)}, PASS, ""},
		fieldCheck{"e", jsonAnswer(string(eData)), "json_path", map[string]any{"expression": e["path"], "expected": e["value"]}, FAIL, ""},
		fieldCheck{"e, the other way", jsonAnswer(`{"n": 1}`), "json_path", map[string]any{"expression": "n", "expected": "1"}, FAIL, ""},
		fieldCheck{"e, equals", jsonAnswer(string(eData)), "equals", map[string]any{"expected": map[string]any{"n": 1}}, FAIL, ""},
	)
	runFieldChecks(t, checks)
}

func TestFieldCaseC14(t *testing.T) {
	in := fieldInput(t, "C14")
	data, err := json.Marshal(in["data"])
	require.NoError(t, err)
	tr := jsonAnswer(string(data))
	step := func(ref string) map[string]any {
		s := obj(t, in[ref])
		return map[string]any{"expression": s["path"], "expected": s["expected"]}
	}
	e := obj(t, in["e"])
	runFieldChecks(t, []fieldCheck{
		{"a", tr, "json_path", step("a"), PASS, ""},
		{"b", tr, "json_path", step("b"), ERROR, ""},
		{"b, presence", tr, "field_presence", map[string]any{"fields": []any{"tags.created-by"}}, ERROR, ""},
		{"c", tr, "json_path", step("c"), PASS, ""},
		{"d", tr, "json_path", step("d"), ERROR, ""},
		{"e", tr, "field_presence", map[string]any{"fields": []any{str(t, e["path"])}}, ERROR, ""},
		{"e, json_path", tr, "json_path", map[string]any{"expression": str(t, e["path"]), "expected": "x"}, ERROR, ""},
		// Variants: every rune from U+0080 up to past the BMP after an
		// identifier, and a hyphen in a filter.
		{"U+00FF", tr, "field_presence", map[string]any{"fields": []any{"tags.a\u00ff"}}, ERROR, ""},
		{"U+10FFFF", tr, "field_presence", map[string]any{"fields": []any{"tags.a\U0010ffff"}}, ERROR, ""},
		{"hyphen in a filter", tr, "json_path", map[string]any{"expression": "tags[?created-by == 'ops-bot']", "min_results": 1}, ERROR, ""},
		{"quoted, presence", tr, "field_presence", map[string]any{"fields": []any{`tags."created-by"`}}, PASS, ""},
	})
}

func TestFieldCaseC16(t *testing.T) {
	in := fieldInput(t, "C16")
	schema := obj(t, in["schema_2020"])
	noDraft := map[string]any{}
	for k, v := range schema {
		if k != "$schema" {
			noDraft[k] = v
		}
	}
	answer := func(ref string) *evalkit.Transcript {
		data, err := json.Marshal(in[ref])
		require.NoError(t, err)
		return jsonAnswer(string(data))
	}
	s := map[string]any{"schema": schema}
	runFieldChecks(t, []fieldCheck{
		{"a", answer("a_data"), "json_schema", s, FAIL, "/event_time"},
		{"b", answer("b_data"), "json_schema", s, PASS, ""},
		{"c", answer("c_data"), "json_schema", map[string]any{"schema": noDraft}, FAIL, "/event_time"},
		{"d", answer("d_data"), "json_schema", s, PASS, ""},
		{"d written 3.0", jsonAnswer(`{"event_time": "2024-03-01T10:00:00Z", "qty": 3.0}`), "json_schema", s, PASS, ""},
		{"e", answer("e_data"), "json_schema", s, FAIL, "/qty"},
		// Variants: draft-07 and 2019-09 assert formats too; email and
		// date formats.
		{"draft-07", answer("a_data"), "json_schema", map[string]any{"schema": with(noDraft, "$schema", "http://json-schema.org/draft-07/schema#")}, FAIL, "/event_time"},
		{"2019-09", answer("a_data"), "json_schema", map[string]any{"schema": with(noDraft, "$schema", "https://json-schema.org/draft/2019-09/schema")}, FAIL, "/event_time"},
		{"email", jsonAnswer(`{"to": "not an email"}`), "json_schema", map[string]any{"schema": map[string]any{"properties": map[string]any{"to": map[string]any{"type": "string", "format": "email"}}}}, FAIL, "/to"},
		{"date", jsonAnswer(`{"on": "2024-02-30"}`), "json_schema", map[string]any{"schema": map[string]any{"properties": map[string]any{"on": map[string]any{"type": "string", "format": "date"}}}}, FAIL, "/on"},
	})
}

func TestFieldCaseC23(t *testing.T) {
	in := fieldInput(t, "C23")
	text := func(ref string) *evalkit.Transcript {
		return jsonAnswer(str(t, in[str(t, obj(t, in[ref])["text"])]))
	}
	re := func(ref string) map[string]any { return map[string]any{"pattern": obj(t, in[ref])["pattern"]} }
	cr := jsonAnswer(strings.ReplaceAll(str(t, in["lf_text"]), "\n", "\r"))
	runFieldChecks(t, []fieldCheck{
		{"a", text("a"), "regex", re("a"), FAIL, ""},
		{"b", text("b"), "regex", re("b"), PASS, ""},
		{"c", text("c"), "regex", re("c"), PASS, ""},
		{"d", text("d"), "regex", re("d"), PASS, ""},
		// Variants: the end anchor on the CRLF text's last line, a negated
		// match; a lone CR is not a line break (as in RE2 and every
		// editor since Mac OS 9), so it does not end a line.
		{"end anchor", text("c"), "regex", map[string]any{"pattern": `(?m)^Done\.$`}, PASS, ""},
		{"CR alone", cr, "regex", re("b"), FAIL, ""},
		{"negated", text("c"), "regex", map[string]any{"pattern": `(?m)^STATUS: FAIL$`, "expect_match": false}, PASS, ""},
		{"negated, present", text("c"), "regex", map[string]any{"pattern": `(?m)^STATUS: OK$`, "expect_match": false}, FAIL, ""},
	})
}

func TestFieldCaseC24(t *testing.T) {
	in := fieldInput(t, "C24")
	a, b := obj(t, in["a"]), obj(t, in["b"])
	empty := openaiChat(t, map[string]any{"role": "assistant", "content": ""})
	userOnly, err := evalkit.Decode([]byte(`[{"role": "user", "content": "Can I get a refund?"}]`))
	require.NoError(t, err)
	huge := "Total due: 42.00 EUR. " + "data:image/png;base64," + strings.Repeat("A", 20_000_000)
	if testing.Short() {
		huge = huge[:2_000_000]
	}
	big := jsonAnswer(huge)
	refund := map[string]any{"patterns": []any{"refund"}}
	runFieldChecks(t, []fieldCheck{
		{"a", jsonAnswer(str(t, a["text"])), "contains_any", map[string]any{"patterns": a["contains_any"]}, ERROR, "empty"},
		{"a, contains", jsonAnswer(str(t, a["text"])), "contains", map[string]any{"patterns": a["contains_any"]}, ERROR, "empty"},
		{"a, excludes", jsonAnswer(str(t, a["text"])), "content_excludes", map[string]any{"patterns": a["contains_any"]}, ERROR, "empty"},
		{"b", jsonAnswer(str(t, b["text"])), "contains_any", map[string]any{"patterns": b["contains_any"]}, ERROR, ""},
		{"b, contains", jsonAnswer(str(t, b["text"])), "contains", map[string]any{"patterns": b["contains_any"]}, ERROR, ""},
		{"c", empty, "contains", refund, FAIL, ""},
		{"c", empty, "json_valid", nil, FAIL, ""},
		{"c", empty, "min_length", map[string]any{"min": 1}, FAIL, ""},
		{"c", empty, "content_excludes", refund, PASS, ""},
		{"d", userOnly, "content_excludes", refund, ERROR, "no assistant"},
		{"d, contains", userOnly, "contains", refund, ERROR, "no assistant"},
		{"d, regex negated", userOnly, "regex", map[string]any{"pattern": "refund", "expect_match": false}, ERROR, "no assistant"},
		{"d, max_length", userOnly, "max_length", map[string]any{"max": 10}, ERROR, "no assistant"},
		{"e", big, "contains", map[string]any{"patterns": []any{"42.00 EUR"}}, PASS, ""},
		{"e", big, "contains", refund, FAIL, "refund"},
		{"e", big, "regex", map[string]any{"pattern": `Total due: \d+\.\d{2}`}, PASS, ""},
		{"e, excludes", big, "content_excludes", map[string]any{"patterns": []any{"EUR"}}, FAIL, ""},
		{"e, max_length", big, "max_length", map[string]any{"max": 100}, FAIL, ""},
	})
}

// C17's text golden: a golden text checked out with CRLF compares equal
// to LF output, since the checks read CRLF as LF — equals with or without
// rules, and regex (C23); what is more than a line ending still counts
// (C08 d).
func TestFieldCaseC17TextGolden(t *testing.T) {
	in := fieldInput(t, "C17")
	want, got := str(t, in["text_golden_bytes"]), str(t, in["text_actual"])
	require.Contains(t, want, "\r\n")
	runFieldChecks(t, []fieldCheck{
		{"trim_lines", jsonAnswer(got), "equals", map[string]any{"expected": want, "trim_lines": true}, PASS, ""},
		{"the other way round", jsonAnswer(want), "equals", map[string]any{"expected": got, "trim_lines": true}, PASS, ""},
		{"regex", jsonAnswer(want), "regex", map[string]any{"pattern": `(?m)^line one$`}, PASS, ""},
		{"no rule", jsonAnswer(got), "equals", map[string]any{"expected": want}, PASS, ""},
		{"a blank line more", jsonAnswer(got + "\n"), "equals", map[string]any{"expected": want}, FAIL, ""},
	})
}
