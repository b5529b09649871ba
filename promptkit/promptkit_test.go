package promptkit_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	testify "github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
	"github.com/evalkit-go/evalkit/evaltest"
	"github.com/evalkit-go/evalkit/promptkit"
)

// write writes a file into a temporary directory and returns its path.
func write(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
	return path
}

func loadOne(t *testing.T, name, text string) evaltest.Case {
	t.Helper()
	cases, err := evaltest.LoadCases(write(t, name, text), nil)
	require.NoError(t, err)
	require.Len(t, cases, 1)
	return cases[0]
}

func toolRun() *evalkit.Transcript {
	return &evalkit.Transcript{Messages: []evalkit.Message{
		{Role: evalkit.RoleUser, Content: "Where is my order?"},
		{Role: evalkit.RoleAssistant, Content: "Let me look."},
		{Role: evalkit.RoleUser, Content: "Order W1."},
		{Role: evalkit.RoleAssistant, ToolCalls: []evalkit.ToolCall{{ID: "1", Name: "get_order", Args: json.RawMessage(`{"id":"W1"}`)}}},
		{Role: evalkit.RoleTool, ToolCallID: "1", Content: `{"status": "shipped"}`},
		{Role: evalkit.RoleAssistant, Content: "Your order W1 has shipped."},
	}}
}

const whenPack = `$schema: https://promptpack.org/schema/latest/promptpack.schema.json
id: shop
prompts:
  support:
    id: support
    system_template: You help with orders.
    evals:
      - id: cites_status
        type: contains
        trigger: every_turn
        when: {tool_called: get_order}
        params: {patterns: [shipped]}
      - id: after_any_tool
        type: contains
        trigger: on_session_complete
        when: {any_tool_called: true, min_tool_calls: 2}
        params: {patterns: [W1]}
      - id: off
        type: contains
        trigger: every_turn
        enabled: false
        params: {patterns: [never]}
      - id: sampled
        type: contains
        trigger: sample_turns
        sample_percentage: 0
        params: {patterns: [never]}
      - id: all_sampled
        type: contains
        trigger: sample_sessions
        sample_percentage: 100
        metric: {name: order_status_cited, type: boolean, labels: {team: support}}
        groups: [fast, orders]
        params: {patterns: [shipped]}
`

// when reads the tool calls up to the evaluated point; enabled: false and
// a sampling choice that leaves nothing are "not run", never a pass.
func TestWhenEnabledSampling(t *testing.T) {
	c := loadOne(t, "shop.pack.yaml", whenPack)
	got := map[string]string{}
	for _, ev := range c.Evals {
		got[ev.ID] = outcome(t, c, ev, nil, toolRun())
	}
	testify.Equal(t, map[string]string{
		"cites_status":   "pass", // turn 1 called no tool: not run there; turn 2 cites the status
		"after_any_tool": "skip", // one call, want two
		"off":            "skip",
		"sampled":        "skip",
		"all_sampled":    "pass",
	}, got)
	ev := c.Evals[1]
	chk := promptkit.Check{Entry: *ev.PromptKit, Session: c.Name}
	ok, why := chk.Runs(toolRun())
	testify.False(t, ok)
	testify.Equal(t, "when: 1 tool calls, want at least 2", why)
	_, why = promptkit.Check{Entry: *c.Evals[3].PromptKit, Session: c.Name}.Runs(toolRun())
	testify.Equal(t, "sample_percentage 0: no turn was sampled (EVALKIT_SAMPLE=all runs every sampled eval)", why)
	ok, _ = promptkit.Check{Entry: *c.Evals[3].PromptKit, Session: c.Name, SampleAll: true}.Runs(toolRun())
	testify.True(t, ok, "SampleAll runs it")
}

// Sampling is PromptKit's: deterministic by session and turn, at about
// the percentage asked.
func TestSamplingRate(t *testing.T) {
	pct := 30.0
	e := promptkit.Entry{Role: promptkit.RoleEval, Type: "contains", Params: map[string]any{"patterns": []any{"x"}}, Trigger: promptkit.SampleSessions, SamplePercentage: &pct, Turn: -1}
	hits := 0
	for i := range 2000 {
		c := promptkit.Check{Entry: e, Session: "case-" + string(rune('a'+i%26)) + strings.Repeat("x", i/26)}
		ok, _ := c.Runs(chat("q", "x"))
		again, _ := c.Runs(chat("q", "x"))
		require.Equal(t, ok, again, "the same session, the same choice")
		if ok {
			hits++
		}
	}
	testify.InDelta(t, 600, hits, 90, "about 30%% of sessions")
}

// An Eval document's all_turns assertions run on each assistant turn;
// its recording is resolved from its directory.
func TestEvalDocument(t *testing.T) {
	c := loadOne(t, "saved.eval.yaml", `apiVersion: promptkit.altairalabs.ai/v1alpha1
kind: Eval
metadata:
  name: saved-support
spec:
  id: saved
  description: A saved support conversation
  recording: {path: runs/support.json, type: session}
  tags: [regression]
  turns:
    - all_turns:
        assertions:
          - type: content_excludes
            params: {patterns: [sorry]}
  conversation_assertions:
    - type: tools_called
      params: {tool_names: [get_order]}
      message: looks the order up
`)
	testify.Equal(t, "saved-support", c.Name)
	testify.Equal(t, []string{"regression"}, c.Tags)
	testify.True(t, strings.HasSuffix(filepath.ToSlash(c.Recording), "/runs/support.json"), c.Recording)
	testify.Equal(t, "pass", outcome(t, c, c.Evals[0], nil, toolRun()))
	testify.Equal(t, "pass", outcome(t, c, c.Evals[1], nil, toolRun()))
	testify.Equal(t, "looks the order up", c.Evals[1].Message)
	sorry := toolRun()
	sorry.Messages[1].Content = "Sorry, let me look."
	// content_excludes reads every answer so far, on each turn, as
	// PromptKit's does: turn 2 still holds turn 1's apology.
	testify.Equal(t, `fail: 2 of 2 turns fail; turn 1: found excluded content`, outcome(t, c, c.Evals[0], nil, sorry))
}

// A scenario with trials runs as a Repeat with the strictest pass_threshold.
func TestScenarioTrials(t *testing.T) {
	c := loadOne(t, "s.yaml", `apiVersion: promptkit.altairalabs.ai/v1alpha1
kind: Scenario
metadata: {name: flaky}
spec:
  id: flaky
  trials: 5
  variables: {customer: Ada}
  turns:
    - role: user
      content: hi
      assertions:
        - type: contains
          params: {patterns: [hello]}
          pass_threshold: 0.6
    - role: user
      content: bye
  conversation_assertions:
    - type: contains
      params: {patterns: [bye]}
      pass_threshold: 0.8
`)
	testify.Equal(t, 5, c.Repeat)
	testify.Equal(t, 0.8, c.PassRate)
	testify.Equal(t, []string{"hi", "bye"}, c.Turns)
	testify.Equal(t, map[string]any{"customer": "Ada"}, c.Vars)
	testify.Equal(t, 0, c.Evals[0].PromptKit.Turn)
	testify.Equal(t, -1, c.Evals[1].PromptKit.Turn)
}

// Every problem is named with its file, line and field.
func TestReadProblems(t *testing.T) {
	path := write(t, "bad.pack.yaml", `$schema: https://promptpack.org/schema/latest/promptpack.schema.json
id: bad
evals:
  - id: a
    type: contains
    trigger: every_trun
    params: {patterns: [x]}
  - id: b
    type: contains
    trigger: every_turn
    sample_percentage: 120
    metric: {name: "bad name", type: gauge}
    params: {patterns: [x]}
  - id: c
    type: image_format
    trigger: every_turn
    params: {formats: [png]}
  - type: contains
    trigger: every_turn
    params: {patterns: [x]}
    when: {tool_caled: x}
prompts:
  p:
    validators:
      - type: contains
        params: {patterns: [x], direction: sideways}
`)
	_, err := evaltest.LoadCases(path, nil)
	require.Error(t, err)
	msg := strings.ReplaceAll(err.Error(), filepath.Dir(path)+string(filepath.Separator), "")
	for _, want := range []string{
		`bad.pack.yaml:6: evals[0].trigger: "every_trun": want one of every_turn, on_session_complete, sample_turns, sample_sessions, on_conversation_complete, on_workflow_step`,
		`bad.pack.yaml:11: evals[1].sample_percentage: want a percentage from 0 to 100, got 120`,
		`bad.pack.yaml:12: evals[1].metric.name: "bad name" is not a Prometheus metric name`,
		`bad.pack.yaml:14: evals[2].type: unknown check type "image_format": it is in package github.com/evalkit-go/evalkit/assert/media`,
		`bad.pack.yaml:18: evals[3].id: required: a pack's eval needs an id`,
		`bad.pack.yaml:21: evals[3].when: field "tool_caled": unknown (did you mean "tool_called"?)`,
		`bad.pack.yaml:26: prompts.p.validators[0].params.direction: "sideways": want input, output or both`,
	} {
		testify.Contains(t, msg, want)
	}

	// An id given twice is named at the second one's line (it was line 0),
	// and an alias cycle is a problem, not a walk without end.
	for _, tc := range []struct{ name, text, want string }{
		{"dup.pack.yaml", "id: dup\nprompts: {p: {}}\nevals:\n  - {id: a, type: contains, trigger: every_turn, params: {patterns: [x]}}\n  - {id: a, type: contains, trigger: every_turn, params: {patterns: [y]}}\n",
			`dup.pack.yaml:5: evals: id "a" is given twice (lines 4 and 5)`},
		{"cycle.pack.yaml", "id: cycle\nprompts: &p\n  x: *p\n", `cycle.pack.yaml:3: prompts.x: the alias *p stands for a value that holds it (&p at line 2): a value cannot contain itself, so it has no end`},
		// A misspelt list of checks was ignored: its checks never ran.
		{"typo.pack.yaml", "id: typo\nprompts: {p: {validators: [{type: contains, params: {patterns: [x]}}]}}\neval:\n  - {id: a, type: contains, trigger: every_turn, params: {patterns: [y]}}\n",
			`typo.pack.yaml:3: field "eval": unknown (did you mean "evals"?): the checks under it would never run`},
		{"typo2.pack.yaml", "id: typo\nprompts: {p: {evals: [{id: a, type: contains, trigger: every_turn, params: {patterns: [x]}}], validator: []}}\n",
			`typo2.pack.yaml:2: prompts.p: field "validator": unknown (did you mean "validators"?)`},
		{"typo.scenario.yaml", "apiVersion: promptkit.altairalabs.ai/v1alpha1\nkind: Scenario\nmetadata: {name: s}\nspec:\n  turns:\n    - {role: user, content: hi, assertions: [{type: contains, params: {patterns: [a]}}]}\n    - {role: user, content: bye, assertion: [{type: contains, params: {patterns: [b]}}]}\n  conversation_assertion: [{type: contains, params: {patterns: [c]}}]\n",
			`typo.scenario.yaml:7: spec.turns[1]: field "assertion": unknown (did you mean "assertions"?)`},
		{"typo2.scenario.yaml", "apiVersion: promptkit.altairalabs.ai/v1alpha1\nkind: Scenario\nmetadata: {name: s}\nspec:\n  turns:\n    - {role: user, content: hi, assertions: [{type: contains, params: {patterns: [a]}}]}\n  conversation_assertion: [{type: contains, params: {patterns: [c]}}]\n",
			`typo2.scenario.yaml:7: spec: field "conversation_assertion": unknown (did you mean "conversation_assertions"?)`},
	} {
		path := write(t, tc.name, tc.text)
		_, err := evaltest.LoadCases(path, nil)
		require.Error(t, err)
		testify.Contains(t, strings.ReplaceAll(err.Error(), filepath.Dir(path)+string(filepath.Separator), ""), tc.want)
	}
}

// metric and groups go on the eval's results line.
func TestMetricInResults(t *testing.T) {
	report := filepath.Join(t.TempDir(), "results.jsonl")
	t.Setenv("EVALKIT_REPORT", report)
	path := write(t, "shop.pack.yaml", whenPack)
	t.Run("run", func(t *testing.T) {
		evaltest.RunCases(t, path, func(*evaltest.T, evaltest.Case) *evalkit.Transcript { return toolRun() })
	})
	data, err := os.ReadFile(report)
	require.NoError(t, err)
	found := false
	for _, line := range bytes.Split(bytes.TrimSpace(data), []byte("\n")) {
		var l map[string]any
		require.NoError(t, json.Unmarshal(line, &l))
		if l["kind"] != "check" || !strings.Contains(l["check"].(string), "all_sampled") {
			continue
		}
		found = true
		testify.Equal(t, map[string]any{"name": "order_status_cited", "type": "boolean", "labels": map[string]any{"team": "support"}}, l["metric"])
		testify.Equal(t, []any{"fast", "orders"}, l["groups"])
		testify.Equal(t, "contains", l["type"])
		testify.Equal(t, "pass", l["status"])
	}
	testify.True(t, found, "the all_sampled line: %s", data)
}

// Detect tells PromptKit's documents from evalkit's case files.
func TestDetect(t *testing.T) {
	for text, want := range map[string]promptkit.Kind{
		`cases: []`:   "",
		`[{name: x}]`: "",
		`{"$schema": "https://promptpack.org/schema/v1.2/promptpack.schema.json", "id": "x"}`: promptkit.KindPack,
		`{id: x, prompts: {}}`: promptkit.KindPack,
		"apiVersion: promptkit.altairalabs.ai/v1alpha1\nkind: Scenario": promptkit.KindScenario,
		"apiVersion: promptkit.altairalabs.ai/v1alpha1\nkind: Arena":    "Arena",
	} {
		var doc yaml.Node
		require.NoError(t, yaml.Unmarshal([]byte(text), &doc))
		testify.Equal(t, want, promptkit.Detect(&doc), text)
	}
	var doc yaml.Node
	require.NoError(t, yaml.Unmarshal([]byte("apiVersion: promptkit.altairalabs.ai/v1alpha1\nkind: Arena\nspec: {}"), &doc))
	_, problems := promptkit.ReadNode("arena.yaml", &doc, nil)
	require.Len(t, problems, 1)
	testify.Equal(t, `1: kind: "Arena": this kind of document holds no checks (evalkit reads packs, and Scenario, Eval and RuntimeConfig documents)`, problems[0].String())
	// A kind that is missing or not a string is named as such, not as a
	// document of kind "(no kind)".
	require.NoError(t, yaml.Unmarshal([]byte("apiVersion: promptkit.altairalabs.ai/v1alpha1\nkind: [Scenario]\nspec: {}"), &doc))
	_, problems = promptkit.ReadNode("list.yaml", &doc, nil)
	require.Len(t, problems, 1)
	testify.Equal(t, `1: kind: required, a string: the document's kind (evalkit reads Scenario, Eval and RuntimeConfig documents, and packs)`, problems[0].String())
	_ = context.Background
}

// A case none of whose entries ran checked nothing: RunCases skips it,
// never passes it; a case where one entry ran is judged on that one.
func TestNothingRunIsSkipped(t *testing.T) {
	dir := t.TempDir()
	pack := func(name, evals string) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name+".pack.yaml"), []byte("id: "+name+"\nprompts: {p: {}}\nevals:\n"+evals), 0o644))
	}
	pack("sampled", "  - {id: a, type: contains, trigger: sample_sessions, sample_percentage: 0, params: {patterns: [zzz]}}\n")
	pack("unmet", "  - {id: a, type: contains, trigger: on_session_complete, when: {tool_called: lookup}, params: {patterns: [zzz]}}\n"+
		"  - {id: b, type: contains, trigger: every_turn, enabled: false, params: {patterns: [zzz]}}\n")
	pack("one", "  - {id: a, type: contains, trigger: on_session_complete, when: {tool_called: lookup}, params: {patterns: [zzz]}}\n"+
		"  - {id: b, type: contains, trigger: every_turn, params: {patterns: [hello]}}\n")
	skipped := map[string]bool{}
	t.Run("cases", func(t *testing.T) {
		evaltest.RunCases(t, filepath.Join(dir, "*.pack.yaml"), func(et *evaltest.T, c evaltest.Case) *evalkit.Transcript {
			tb := et.TB()
			tb.Cleanup(func() { skipped[c.Name] = tb.Skipped() })
			return chat("hi", "hello")
		})
	})
	testify.Equal(t, map[string]bool{"sampled/p": true, "unmet/p": true, "one/p": false}, skipped)
}

// A measurement (an exec eval's score with no threshold) runs the script
// once per evaluated turn: it ran twice, once to learn it had no
// threshold and again for its score, doubling the cost of a script that
// calls a model and reporting the second run's score.
func TestMeasurementRunsOnce(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh on PATH")
	}
	dir := t.TempDir()
	log := filepath.Join(dir, "runs.log")
	script := filepath.Join(dir, "count.sh")
	require.NoError(t, os.WriteFile(script, []byte("cat >/dev/null; echo run >> "+log+"; echo '{\"score\": 0.7, \"detail\": \"ok\"}'\n"), 0o755))
	config := filepath.Join(dir, "runtime.yaml")
	require.NoError(t, os.WriteFile(config, []byte("apiVersion: promptkit.altairalabs.ai/v1alpha1\nkind: RuntimeConfig\nmetadata: {name: count}\nspec:\n  evals:\n    counted: {command: sh, args: ["+script+"]}\n"), 0o644))
	reg := assert.NewRegistry()
	require.NoError(t, promptkit.BindRuntimeConfig(reg, config))
	for _, tc := range []struct {
		trigger string
		runs    int
	}{{"on_session_complete", 1}, {"every_turn", 2}} {
		require.NoError(t, os.WriteFile(log, nil, 0o644))
		e := promptkit.Entry{Role: promptkit.RoleEval, ID: "c", Type: "counted", Trigger: promptkit.Trigger(tc.trigger), Params: map[string]any{}, Turn: -1}
		res, err := promptkit.Check{Entry: e, Registry: reg}.Check(context.Background(), chat("q1", "a1", "q2", "a2"))
		require.NoError(t, err, tc.trigger)
		testify.True(t, res.Passed, "a measurement passes with its score")
		testify.InDelta(t, 0.7, res.Score, 1e-9)
		data, err := os.ReadFile(log)
		require.NoError(t, err)
		testify.Equal(t, tc.runs, strings.Count(string(data), "run"), "%s: runs of the script", tc.trigger)
	}
}
