package promptkit_test

import (
	"context"
	"encoding/json"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	testify "github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
	"github.com/evalkit-go/evalkit/evaltest"
	"github.com/evalkit-go/evalkit/promptkit"
)

// The PromptKit files of testdata/PromptKit, copied unchanged from
// PromptKit's repository (see its README).
const upstream = "testdata/PromptKit/"

var realFiles = []string{
	"sdk/testdata/packs/eval-test.pack.json",
	"sdk/testdata/packs/guardrail-valid-validator.pack.json",
	"sdk/examples/sdk-evals/assistant.pack.json",
	"sdk/examples/eval-hooks/assistant.pack.json",
	"sdk/examples/evaluate/evaluate.pack.json",
	"sdk/examples/hooks/hooks.pack.json",
	"sdk/examples/onnx-audio-emotion/caller.pack.json",
	"sdk/examples/runtime-config/agent.pack.json",
	"sdk/examples/runtime-config/runtime.yaml",
	"server/a2a/examples/a2a-auth-test/arena/scenarios/echo-test.scenario.yaml",
	"server/a2a/examples/a2a-demo/arena/scenarios/delegated_research.yaml",
}

// chat is a conversation of user and assistant turns: u1, a1, u2, a2, ...
func chat(texts ...string) *evalkit.Transcript {
	tr := &evalkit.Transcript{}
	for i, s := range texts {
		role := evalkit.RoleUser
		if i%2 == 1 {
			role = evalkit.RoleAssistant
		}
		tr.Messages = append(tr.Messages, evalkit.Message{Role: role, Content: s})
	}
	return tr
}

// echoRun is the echo-test scenario's run: the agent delegates to the
// echo agent, which answers with result (or fails).
func echoRun(result string, isError bool) *evalkit.Transcript {
	return &evalkit.Transcript{Messages: []evalkit.Message{
		{Role: evalkit.RoleUser, Content: "Please echo the message: Hello from PromptKit!"},
		{Role: evalkit.RoleAssistant, ToolCalls: []evalkit.ToolCall{{ID: "c1", Name: "a2a__echo_agent__echo", Args: json.RawMessage(`{"message":"Hello from PromptKit!"}`)}}},
		{Role: evalkit.RoleTool, ToolCallID: "c1", Name: "a2a__echo_agent__echo", Content: result, IsError: isError},
		{Role: evalkit.RoleAssistant, Content: "The echo agent answered: " + result},
	}}
}

// outcome is PromptKit's verdict on one entry, as evalkit gives it.
func outcome(t *testing.T, c evaltest.Case, ev evaltest.CaseEval, reg *assert.Registry, tr *evalkit.Transcript) string {
	t.Helper()
	chk := promptkit.Check{Entry: *ev.PromptKit, Registry: reg, Session: c.Name}
	res, err := chk.Check(context.Background(), tr)
	switch {
	case errors.Is(err, promptkit.ErrNotRun):
		return "skip"
	case err != nil:
		return "error: " + err.Error()
	case res.Passed:
		return "pass"
	}
	return "fail: " + res.Summary
}

func load(t *testing.T, file string, reg *assert.Registry) []evaltest.Case {
	t.Helper()
	cases, err := evaltest.LoadCases(upstream+file, reg)
	require.NoError(t, err)
	return cases
}

// Every file loads whole and unchanged.
func TestRealFilesLoad(t *testing.T) {
	reg := runtimeRegistry(t)
	n := 0
	for _, f := range realFiles {
		cases, err := evaltest.LoadCases(upstream+f, reg)
		require.NoError(t, err, f)
		for _, c := range cases {
			n += len(c.Evals)
		}
	}
	t.Logf("%d files, %d entries", len(realFiles), n)
	testify.Equal(t, 23, n)
}

func runtimeRegistry(t *testing.T) *assert.Registry {
	t.Helper()
	reg := assert.NewRegistry()
	require.NoError(t, promptkit.BindRuntimeConfig(reg, upstream+"sdk/examples/runtime-config/runtime.yaml"))
	return reg
}

// eval-test.pack.json: prompt-level evals join the pack's, every_turn
// checks each assistant turn, on_session_complete the whole session.
func TestRealEvalTestPack(t *testing.T) {
	cases := load(t, "sdk/testdata/packs/eval-test.pack.json", nil)
	require.Len(t, cases, 1)
	c := cases[0]
	testify.Equal(t, "eval-test/assistant", c.Name)
	testify.Equal(t, map[string]any{"pack": "eval-test", "prompt": "assistant", "system_template": "You are a helpful assistant."}, c.Vars)
	got := func(tr *evalkit.Transcript) map[string]string {
		out := map[string]string{}
		for _, ev := range c.Evals {
			out[ev.ID] = outcome(t, c, ev, nil, tr)
		}
		return out
	}
	testify.Equal(t, map[string]string{"prompt_eval": "pass", "greeting_check": "pass", "session_check": "pass"},
		got(chat("hi", "Hello! Thank you for visiting.", "bye", "Hello again, thank you, and goodbye!")))
	// The first turn has no greeting: the last turn alone would pass.
	testify.Equal(t, map[string]string{
		"prompt_eval":    "pass",
		"greeting_check": `fail: 1 of 2 turns fail; turn 1: missing "hello"`,
		"session_check":  "pass",
	}, got(chat("hi", "Hi there, thank you.", "bye", "Hello, thank you, goodbye!")))
	testify.Equal(t, `fail: missing "goodbye"`, got(chat("hi", "Hello, thank you."))["session_check"])
}

// sdk-evals: JSON every turn, regex with expect_match false, contains_any
// over the session; metric kept.
func TestRealSDKEvalsPack(t *testing.T) {
	c := load(t, "sdk/examples/sdk-evals/assistant.pack.json", nil)[0]
	by := map[string]evaltest.CaseEval{}
	for _, ev := range c.Evals {
		by[ev.ID] = ev
	}
	good := chat("capital of France?", `{"response": "Paris"}`, "and Italy?", `{"response": "Rome"}`)
	for id := range by {
		testify.Equal(t, "pass", outcome(t, c, by[id], nil, good), id)
	}
	bad := chat("capital of France?", `{"response": "Paris"}`, "and Italy?", `I'm sorry, {"response": "Rome"}`)
	testify.Contains(t, outcome(t, c, by["json_format"], nil, bad), "fail: 1 of 2 turns fail; turn 2")
	testify.Contains(t, outcome(t, c, by["no_apologies"], nil, bad), "fail: 1 of 2 turns fail; turn 2")
	testify.Equal(t, "pass", outcome(t, c, by["session_coverage"], nil, bad))
	m := by["json_format"].PromptKit.Metric
	require.NotNil(t, m)
	testify.Equal(t, "json_format_valid", m.Name)
	testify.Equal(t, map[string]string{"eval_type": "json_valid", "category": "format"}, m.Labels)
}

// hooks.pack.json: an input validator judges each user message; a
// guardrail-valid-validator's output validator each answer.
func TestRealValidators(t *testing.T) {
	c := load(t, "sdk/examples/hooks/hooks.pack.json", nil)[0]
	ev := c.Evals[0]
	testify.Equal(t, "input", ev.PromptKit.Direction)
	testify.Equal(t, "I can't help with bank routing numbers.", ev.PromptKit.Message)
	testify.Equal(t, "pass", outcome(t, c, ev, nil, chat("What is the capital of France?", "Paris.")))
	testify.Equal(t, "fail: 1 of 2 messages fail; messages[2] (input): guardrail triggered (block): score 0.00, want >= 1.00",
		outcome(t, c, ev, nil, chat("Hi", "Hello.", "What is my routing number?", "I can't help with bank routing numbers.")))

	c = load(t, "sdk/testdata/packs/guardrail-valid-validator.pack.json", nil)[0]
	ev = c.Evals[0]
	testify.Equal(t, "pass", outcome(t, c, ev, nil, chat("hi", "Hello.")))
	testify.Contains(t, outcome(t, c, ev, nil, chat("hi", strings.Repeat("x", 501))), "fail: 1 of 1 message fail; messages[1] (output): guardrail triggered")
}

// Arena scenarios: a turn's assertions read the answer to that turn; its
// tool checks read that turn's calls.
func TestRealScenarios(t *testing.T) {
	c := load(t, "server/a2a/examples/a2a-auth-test/arena/scenarios/echo-test.scenario.yaml", nil)[0]
	testify.Equal(t, "echo-test", c.Name)
	testify.Equal(t, "Please echo the message: Hello from PromptKit!", c.Input)
	testify.Equal(t, []string{c.Input}, c.Turns)
	for _, ev := range c.Evals {
		testify.Equal(t, "pass", outcome(t, c, ev, nil, echoRun("Hello from PromptKit!", false)), ev.Type)
	}
	failed := echoRun("echo agent unavailable", true)
	var got []string
	for _, ev := range c.Evals {
		got = append(got, outcome(t, c, ev, nil, failed))
	}
	testify.Equal(t, "pass", got[0], "the tool was called")
	testify.Contains(t, got[1], "fail:")
	testify.Contains(t, got[2], "fail:")
	testify.Contains(t, outcome(t, c, c.Evals[0], nil, chat("Please echo it")), "error: tools_called: no assistant output: user turn 1 has no assistant answer")

	c = load(t, "server/a2a/examples/a2a-demo/arena/scenarios/delegated_research.yaml", nil)[0]
	run := &evalkit.Transcript{Messages: []evalkit.Message{
		{Role: evalkit.RoleUser, Content: "Search for papers about quantum computing"},
		{Role: evalkit.RoleAssistant, ToolCalls: []evalkit.ToolCall{{ID: "1", Name: "a2a__research_agent__search_papers", Args: json.RawMessage(`{"query":"quantum computing"}`)}}},
		{Role: evalkit.RoleTool, ToolCallID: "1", Content: `[{"title": "Quantum Computing Fundamentals"}]`},
		{Role: evalkit.RoleAssistant, Content: "I found: Quantum Computing Fundamentals."},
	}}
	for _, ev := range c.Evals {
		testify.Equal(t, "pass", outcome(t, c, ev, nil, run), ev.Type)
	}
}

// runtime-config: the pack's evals are bound to PromptKit's own Python
// scripts by its runtime.yaml, which run unchanged; a score of 1 passes,
// as PromptKit's default threshold.
func TestRealRuntimeConfig(t *testing.T) {
	if _, err := exec.LookPath("python3"); err != nil {
		t.Skip("python3 is not on PATH: PromptKit's example scripts need it")
	}
	reg := runtimeRegistry(t)
	c := load(t, "sdk/examples/runtime-config/agent.pack.json", reg)[0]
	testify.Equal(t, "runtime-config-example/support", c.Name)
	byID := map[string]evaltest.CaseEval{}
	for _, ev := range c.Evals {
		byID[ev.ID] = ev
	}
	// The pack's evals hold no threshold: PromptKit emits each script's
	// score as a metric, and so does evalkit, scores as the scripts give.
	score := func(id string, tr *evalkit.Transcript) float64 {
		res, err := promptkit.Check{Entry: *byID[id].PromptKit, Registry: reg, Session: c.Name}.Check(context.Background(), tr)
		require.NoError(t, err)
		require.True(t, res.Passed, res.Summary)
		return res.Score
	}
	good := chat("My order is late.", "I understand, and I am happy to help resolve this. Thank you for waiting.")
	testify.Equal(t, 1.0, score("tone-check", good))
	testify.Equal(t, 1.0, score("response-quality", good))
	casual := chat("My order is late.", "hey lol gonna check")
	testify.Equal(t, 0.55, score("tone-check", casual))
	testify.Equal(t, 0.5, score("response-quality", casual))

	// With a threshold, as an assertion wraps it, the score is graded.
	e := *byID["tone-check"].PromptKit
	min := 0.7
	e.Threshold = &promptkit.Threshold{MinScore: &min}
	res, err := promptkit.Check{Entry: e, Registry: reg}.Check(context.Background(), casual)
	require.NoError(t, err)
	testify.False(t, res.Passed)
	testify.Equal(t, "1 of 1 turn fail; turn 1: score 0.55, want >= 0.70", res.Summary)

	// A pack naming an unbound type says how to bind it.
	_, err = evaltest.LoadCases(filepath.Join(upstream, "sdk/examples/runtime-config/agent.pack.json"), nil)
	require.Error(t, err)
	testify.Contains(t, err.Error(), `evals[0].type: unknown check type "tone_check": if a runtime config binds it to a program, bind that config with promptkit.BindRuntimeConfig(reg, path)`)
}

// End to end through RunCases: every real pack and scenario, each case
// run on a transcript its checks pass, metric and groups on the results.
func TestRealFilesRunCases(t *testing.T) {
	runs := map[string]*evalkit.Transcript{
		"eval-test/assistant":                 chat("hi", "Hello! Thank you, goodbye."),
		"guardrail-valid-validator/chat":      chat("hi", "Hello."),
		"sdk-evals-demo/chat":                 chat("q", `{"response": "Paris"}`),
		"eval-hooks-demo/chat":                chat("q", `{"response": "Paris"}`),
		"evaluate-example/assistant":          chat("hi", "Hello, please: thank you and goodbye."),
		"hooks-example/chat":                  chat("What is the capital of France?", "Paris."),
		"echo-test":                           echoRun("Hello from PromptKit!", false),
		"delegated-research":                  nil, // set below
		"onnx-audio-emotion-caller/assistant": nil, // needs a classifier: run separately
	}
	runs["delegated-research"] = &evalkit.Transcript{Messages: []evalkit.Message{
		{Role: evalkit.RoleUser, Content: "Search for papers about quantum computing"},
		{Role: evalkit.RoleAssistant, ToolCalls: []evalkit.ToolCall{{ID: "1", Name: "a2a__research_agent__search_papers"}}},
		{Role: evalkit.RoleTool, ToolCallID: "1", Content: "Quantum Computing Fundamentals"},
		{Role: evalkit.RoleAssistant, Content: "Found Quantum Computing Fundamentals."},
	}}
	for _, glob := range []string{
		upstream + "sdk/testdata/packs/*.json",
		upstream + "sdk/examples/sdk-evals/*.json",
		upstream + "sdk/examples/eval-hooks/*.json",
		upstream + "sdk/examples/evaluate/*.json",
		upstream + "sdk/examples/hooks/*.json",
		upstream + "server/a2a/examples/*/arena/scenarios/*.yaml",
	} {
		evaltest.RunCases(t, glob, func(et *evaltest.T, c evaltest.Case) *evalkit.Transcript {
			tr, ok := runs[c.Name]
			if !ok || tr == nil {
				t.Fatalf("no run for %s", c.Name)
			}
			return tr
		})
	}
}
