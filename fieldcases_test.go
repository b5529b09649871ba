package evalkit_test

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/judgefake"
	"github.com/evalkit-go/evalkit/openaijudge"
)

// fieldCase is one case of testdata/field-failures.json.
type fieldCase struct {
	ID       string         `json:"id"`
	Kind     string         `json:"kind"`
	Input    map[string]any `json:"input"`
	Expected []struct {
		Ref    string `json:"ref"`
		Result string `json:"result"`
	} `json:"expected"`
}

func fieldCases(t *testing.T) []fieldCase {
	t.Helper()
	data, err := os.ReadFile("testdata/field-failures.json")
	require.NoError(t, err)
	var cases []fieldCase
	require.NoError(t, json.Unmarshal(data, &cases))
	require.NotEmpty(t, cases)
	return cases
}

// Every field failure is a test: some Test function of the module names
// its id (TestFieldCaseC01, TestGoldenCRLFC17, ...), and the tests that
// name it cover each of its expected results. A case added to the file
// without a test fails here.
func TestFieldCasesCovered(t *testing.T) {
	named := map[string][]string{} // id → test functions naming it
	testFunc := regexp.MustCompile(`(?m)^func (Test\w*?(C\d\d)\w*)\(`)
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == "tools" || strings.HasPrefix(d.Name(), ".")) && path != "." {
			return filepath.SkipDir
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range testFunc.FindAllStringSubmatch(string(src), -1) {
			named[m[2]] = append(named[m[2]], path+": "+m[1])
		}
		return nil
	})
	require.NoError(t, err)
	for _, c := range fieldCases(t) {
		tests := named[c.ID]
		if !slices.ContainsFunc(tests, func(s string) bool { return strings.HasSuffix(s, "TestFieldCase"+c.ID) }) {
			t.Errorf("%s (%s): no test named TestFieldCase%s (tests naming it: %v)", c.ID, c.Kind, c.ID, tests)
		}
		if len(c.Expected) == 0 {
			t.Errorf("%s: no expected results", c.ID)
		}
	}
}

// C07 (d), as the case file writes it: a panel of three judges answering
// {"grade": "C"} twice and "I am unable to assess this response." once
// passes on the two valid votes, reporting the third as missing data —
// never "1 of 3 failed". Variants: every position of the bad vote, and all
// three unreadable; each judge a real one over judgefake's Transport.
func TestFieldCaseC07(t *testing.T) {
	c := caseByID(t, "C07")
	replies := strs(t, c.Input["d_panel_replies"])
	require.Len(t, replies, 3)
	for shift := range 3 {
		order := append(slices.Clone(replies[shift:]), replies[:shift]...)
		var judges []evalkit.Judge
		for _, r := range order {
			tr := judgefake.NewTransport(judgefake.Text(r))
			judges = append(judges, openaiOver(tr))
		}
		v, err := evalkit.Panel(judges, evalkit.Majority).Judge(context.Background(), evalkit.JudgeRequest{Criteria: "Grade C or I", Content: "answer"})
		require.NoError(t, err, "order %d", shift)
		assert.Equal(t, "C", v.Label, "order %d", shift)
		require.Len(t, v.Votes, 3)
		missing := 0
		for _, vote := range v.Votes {
			if vote.Err != "" {
				missing++
				assert.Contains(t, vote.Err, evalkit.ErrUnreadableVerdict.Error())
			}
		}
		assert.Equal(t, 1, missing, "the unreadable vote is reported, not counted")
	}
	// All three unreadable: no verdict, an error — never a failing vote.
	var judges []evalkit.Judge
	for range 3 {
		judges = append(judges, openaiOver(judgefake.NewTransport(judgefake.Text(replies[2]))))
	}
	_, err := evalkit.Panel(judges, evalkit.Majority).Judge(context.Background(), evalkit.JudgeRequest{Criteria: "Grade C or I", Content: "answer"})
	assert.Error(t, err)
}

// C12, through each decoder: arguments given as a JSON string, an object,
// a non-object, "" and null decode in the OpenAI chat, OpenAI Responses
// and Anthropic wire formats, without a decode error, to raw JSON the
// checks read ("" and null as no arguments). The checks' side is in
// package assert's TestFieldCaseC12.
func TestFieldCaseC12(t *testing.T) {
	c := caseByID(t, "C12")
	args := map[string]any{"a": c.Input["a_call"], "b": c.Input["b_call"], "c": c.Input["c_call"], "d": c.Input["d_call"]}
	for i, e := range c.Input["e_calls"].([]any) {
		args["e"+string(rune('1'+i))] = e
	}
	wantArgs := map[string]string{"a": `{"city":"Lyon","units":"metric"}`, "b": `{"city":"Lyon","units":"metric"}`, "c": `"Lyon"`, "d": `["Lyon"]`,
		"e1": ``, "e2": `{}`, "e3": ``}
	for ref, call := range args {
		call := call.(map[string]any)
		raw := call["arguments"]
		t.Run(ref+"/openai chat", func(t *testing.T) {
			msgs := []any{
				map[string]any{"role": "user", "content": "weather?"},
				map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{"id": "call_1", "type": "function",
					"function": map[string]any{"name": call["name"], "arguments": raw}}}},
				map[string]any{"role": "tool", "tool_call_id": "call_1", "content": "ok"},
			}
			checkArgs(t, msgs, call["name"].(string), wantArgs[ref])
		})
		t.Run(ref+"/openai responses", func(t *testing.T) {
			items := []any{
				map[string]any{"role": "user", "content": "weather?"},
				map[string]any{"type": "function_call", "call_id": "call_1", "name": call["name"], "arguments": raw},
				map[string]any{"type": "function_call_output", "call_id": "call_1", "output": "ok"},
			}
			checkArgs(t, items, call["name"].(string), wantArgs[ref])
		})
		if s, isString := raw.(string); !isString || s == "" || json.Valid([]byte(s)) && strings.HasPrefix(s, "{") {
			// Anthropic's input is an object, or missing; a string of
			// JSON is not its shape.
			input := raw
			if s, ok := raw.(string); ok && s != "" {
				input = json.RawMessage(s)
			}
			t.Run(ref+"/anthropic", func(t *testing.T) {
				block := map[string]any{"type": "tool_use", "id": "toolu_1", "name": call["name"]}
				if input != nil && input != "" {
					block["input"] = input
				}
				msgs := map[string]any{"messages": []any{
					map[string]any{"role": "user", "content": "weather?"},
					map[string]any{"role": "assistant", "content": []any{block}},
					map[string]any{"role": "user", "content": []any{map[string]any{"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok"}}},
				}}
				want := wantArgs[ref]
				if want == "" && input == nil {
					want = ""
				}
				checkArgs(t, msgs, call["name"].(string), want)
			})
		}
	}
}

func checkArgs(t *testing.T, v any, name, want string) {
	t.Helper()
	data, err := json.Marshal(v)
	require.NoError(t, err)
	tr, err := evalkit.Decode(data)
	require.NoError(t, err, "%s", data)
	calls := tr.ToolCalls()
	require.Len(t, calls, 1)
	assert.Equal(t, name, calls[0].Name)
	got := string(calls[0].Args)
	if want == "" || want == "{}" {
		assert.Contains(t, []string{"", "{}", "null"}, got, "no arguments")
	} else {
		assert.JSONEq(t, want, got)
	}
	require.NotNil(t, calls[0].Result, "the result pairs with the call")
	assert.Equal(t, "ok", calls[0].Result.Content)
}

func caseByID(t *testing.T, id string) fieldCase {
	t.Helper()
	for _, c := range fieldCases(t) {
		if c.ID == id {
			return c
		}
	}
	t.Fatalf("no case %s in testdata/field-failures.json", id)
	return fieldCase{}
}

func strs(t *testing.T, v any) []string {
	t.Helper()
	list, ok := v.([]any)
	require.True(t, ok, "%v is not a list", v)
	out := make([]string, len(list))
	for i, e := range list {
		out[i], ok = e.(string)
		require.True(t, ok, "%v is not a string", e)
	}
	return out
}

// openaiOver is a real OpenAI judge answering from an in-memory fake.
func openaiOver(tr *judgefake.Transport) evalkit.Judge {
	return openaijudge.New(openaijudge.WithBaseURL("http://judge.test/v1"), openaijudge.WithAPIKey("sk-test-field-0000"), openaijudge.WithHTTPClient(tr.Client()))
}
