package evaltest_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/evaltest"
	"github.com/evalkit-go/evalkit/judgefake"
)

// refundAgent is the fake agent of testdata/cases: it answers with the
// case's amount when the input names an order, else with an apology.
func refundAgent(et *evaltest.T, c evaltest.Case) *evalkit.Transcript {
	if !strings.Contains(c.Input, "#W") {
		return chat("Sorry, which order do you mean?")
	}
	return chat(fmt.Sprintf("Your refund of %v was issued.", c.Vars["amount"]))
}

func TestLoadCases(t *testing.T) {
	cases, err := evaltest.LoadCases("testdata/cases/*.*", nil)
	require.NoError(t, err)
	require.Len(t, cases, 4)
	json, yml := cases[0], cases[1]
	assert.Equal(t, "json case", json.Name)
	assert.Equal(t, "€9", json.Vars["amount"])
	assert.Equal(t, 2, json.Repeat)
	assert.Equal(t, "testdata/cases/more.json", json.File)
	assert.Equal(t, "refund with amount", yml.Name)
	assert.Equal(t, []string{"refund", "smoke"}, yml.Tags)
	assert.Equal(t, 4, yml.Line)
	require.Len(t, yml.Evals, 2)
	assert.Equal(t, evaltest.CaseEval{Type: "contains", Params: map[string]any{"patterns": []any{"refund", "$42"}}, Line: 9}, yml.Evals[0])
	promptkit := cases[2].Evals[0]
	assert.Equal(t, evaltest.CaseEval{Type: "content_includes", Params: map[string]any{"patterns": []any{"sorry"}}, ID: "apology",
		Message: "Should apologise when no order is named", Trigger: "every_turn", Line: 19}, promptkit)
	assert.Equal(t, 3, cases[3].Repeat)
	assert.Equal(t, 0.6, cases[3].PassRate)
}

// Every problem of every file, each with its file, line and field, before
// any case runs.
func TestLoadCasesProblems(t *testing.T) {
	_, err := evaltest.LoadCases("testdata/cases/bad/broken.yaml", nil)
	require.Error(t, err)
	var cfe *evaltest.CaseFileError
	require.ErrorAs(t, err, &cfe)
	assert.Equal(t, []string{
		`testdata/cases/bad/broken.yaml:4: cases[0].evals[0].type: unknown check type "tools_caled" (did you mean "tools_called"?)`,
		`testdata/cases/bad/broken.yaml:7: cases[1]: field "tag": unknown (did you mean "tags"?)`,
		`testdata/cases/bad/broken.yaml:11: cases[1].evals[0].params.patern: contains: param "patern": unknown parameter: did you mean "patterns"?`,
		`testdata/cases/bad/broken.yaml:12: cases[2]: no evals: a case without checks would pass whatever the agent does`,
		`testdata/cases/bad/broken.yaml:15: cases[3].repeat: field "pass_rat": unknown (did you mean "pass_rate"?)`,
		`testdata/cases/bad/broken.yaml:18: case "typo in a type": the name is taken by the case at testdata/cases/bad/broken.yaml:1`,
	}, cfe.Problems)

	_, err = evaltest.LoadCases("testdata/cases/bad/syntax.yaml", nil)
	assert.EqualError(t, err, "testdata/cases/bad/syntax.yaml:4: found unexpected end of stream")
	_, err = evaltest.LoadCases("testdata/cases/bad/syntax.json", nil)
	assert.EqualError(t, err, "testdata/cases/bad/syntax.json:2: invalid character '}' looking for beginning of object key string")
	_, err = evaltest.LoadCases("testdata/cases/none/*.yaml", nil)
	assert.EqualError(t, err, `no case files match "testdata/cases/none/*.yaml"`)
}

func TestRunCases(t *testing.T) {
	evaltest.RunCases(t, "testdata/cases/*.*", refundAgent, evaltest.WithEmbedder(judgefake.BagOfWords(64)))
}

// TestCasesProbe runs the case files with an agent that always
// apologises, for TestRunCasesFailures to read its output; it runs only
// there.
func TestCasesProbe(t *testing.T) {
	if os.Getenv("EVALKIT_CASES_PROBE") == "" {
		t.Skip("run by TestRunCasesFailures")
	}
	evaltest.RunCases(t, "testdata/cases/*.yaml", func(et *evaltest.T, c evaltest.Case) *evalkit.Transcript {
		return chat("Sorry, which order do you mean?")
	}, evaltest.WithEmbedder(judgefake.BagOfWords(64)))
}

// A failing case file: each failure at the RunCases line, naming the case
// file's line of the eval; a repeated case reports as a Repeat.
func TestRunCasesFailures(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestCasesProbe$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), "EVALKIT_CASES_PROBE=1", "EVALKIT_SHARD=", "EVALKIT_REPORT=")
	out, err := cmd.CombinedOutput()
	require.Error(t, err, "the probe fails:\n%s", out)
	text := string(out)
	src, err := os.ReadFile("cases_test.go")
	require.NoError(t, err)
	line := 0
	for i, l := range strings.Split(string(src), "\n") {
		if line == 0 && strings.Contains(l, `evaltest.RunCases(t, "testdata/cases/*.yaml"`) {
			line = i + 1
		}
	}
	at := fmt.Sprintf("cases_test.go:%d: ", line)
	for _, want := range []string{
		"--- FAIL: TestCasesProbe/refund_with_amount",
		at + `testdata/cases/refunds.yaml:9: Eval("contains", {"patterns":["refund","$42"]}): missing "refund", "$42"`,
		at + `testdata/cases/refunds.yaml:12: Eval("content_excludes", {"patterns":["sorry"]}): found excluded content`,
		"--- PASS: TestCasesProbe/no_order",
		"--- PASS: TestCasesProbe/repeated_answer", // its evals hold for an apology too
		"=== ATTR  TestCasesProbe/repeated_answer evalkit.001.check Repeat(3, PassRate(0.60), Exhaustive())",
		"=== ATTR  TestCasesProbe/repeated_answer evalkit.001.outcome pass",
		"=== ATTR  TestCasesProbe/repeated_answer evalkit.001.passed 3",
	} {
		assert.Contains(t, text, want)
	}
}

func TestShardEnvironment(t *testing.T) {
	for _, bad := range []string{"0/4", "5/4", "x", "1/0", "2"} {
		t.Run(bad, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestCasesProbe$", "-test.count=1")
			cmd.Env = append(os.Environ(), "EVALKIT_CASES_PROBE=1", "EVALKIT_SHARD="+bad)
			out, err := cmd.CombinedOutput()
			require.Error(t, err)
			assert.Contains(t, string(out), fmt.Sprintf(`RunCases("testdata/cases/*.yaml"): EVALKIT_SHARD=%q: want i/n with 1 <= i <= n, such as 2/4`, bad))
		})
	}
}

// A key given twice anywhere in a case file changes what runs if the last
// one silently wins; an alias bomb makes a small file millions of evals.
// Each is a problem with the file, line and field, and none of the file's
// cases is read.
func TestLoadCasesGivenTwiceAndAliasBombs(t *testing.T) {
	const ok = "  evals: [{type: contains, params: {patterns: [x]}}]\n"
	var bomb strings.Builder
	bomb.WriteString("- name: c0\n  evals: &E\n  - &e {type: contains, params: {patterns: [x]}}\n")
	for range 999 {
		bomb.WriteString("  - *e\n")
	}
	for i := 1; i < 1000; i++ {
		fmt.Fprintf(&bomb, "- {name: c%d, evals: *E}\n", i)
	}
	for _, tc := range []struct {
		name, file, data string
		want             string
	}{
		{"cases twice", "a.yaml", "cases:\n- name: A\n" + ok + "cases:\n- name: B\n" + ok,
			`a.yaml:4: field "cases" is given twice (first at line 1)`},
		{"a case's field", "a.yaml", "- name: A\n  name: B\n" + ok,
			`a.yaml:2: cases[0]: field "name" is given twice (first at line 1)`},
		{"an eval's type", "a.yaml", "- name: A\n  evals:\n  - type: not_contains\n    params: {patterns: [x]}\n    type: contains\n",
			`a.yaml:5: cases[0].evals[0]: field "type" is given twice (first at line 3)`},
		{"an eval's params", "a.yaml", "- name: A\n  evals:\n  - type: contains\n    params: {patterns: [x]}\n    params: {patterns: [y], case_sensitive: true}\n",
			`a.yaml:5: cases[0].evals[0]: field "params" is given twice (first at line 4)`},
		{"a param", "a.yaml", "- name: A\n  evals:\n  - type: contains\n    params: {patterns: [x], patterns: [y]}\n",
			`a.yaml:4: cases[0].evals[0].params: field "patterns" is given twice (first at line 4)`},
		{"a nested param", "a.yaml", "- name: A\n  evals:\n  - type: tool_args\n    params: {tool_name: t, expected_args: {id: 1, id: 2}}\n",
			`a.yaml:4: cases[0].evals[0].params.expected_args: field "id" is given twice (first at line 4)`},
		{"repeat's n", "a.yaml", "- name: A\n  repeat: {n: 10, n: 1}\n" + ok,
			`a.yaml:2: cases[0].repeat: field "n" is given twice (first at line 2)`},
		{"a huge repeat", "a.yaml", "- name: A\n  repeat: 10000000000\n" + ok,
			`a.yaml:2: cases[0].repeat: want a whole number from 1 to 10000, got 1e+10`},
		{"repeat 0", "a.yaml", "- name: A\n  repeat: 0\n" + ok,
			`a.yaml:2: cases[0].repeat: want a whole number from 1 to 10000, got 0`},
		{"repeat null", "a.yaml", "- name: A\n  repeat: ~\n" + ok,
			`a.yaml:2: cases[0].repeat: want a number, got null`},
		{"n 0", "a.yaml", "- name: A\n  repeat: {n: 0}\n" + ok,
			`a.yaml:2: cases[0].repeat.n: want a whole number from 1 to 10000, got 0`},
		{"at_least 0", "a.yaml", "- name: A\n  repeat: {n: 5, at_least: 0}\n" + ok,
			`a.yaml:2: cases[0].repeat.at_least: want a whole number from 1 to 10000, got 0`},
		{"a fractional at_least", "a.yaml", "- name: A\n  repeat: {n: 5, at_least: 2.5}\n" + ok,
			`a.yaml:2: cases[0].repeat.at_least: want a whole number from 1 to 10000, got 2.5`},
		{"a var", "a.yaml", "- name: A\n  vars: {a: 1, a: 2}\n" + ok,
			`a.yaml:2: cases[0].vars: field "a" is given twice (first at line 2)`},
		{"under cases", "a.yaml", "cases:\n- name: A\n  input: x\n  input: y\n" + ok,
			`a.yaml:4: cases[0]: field "input" is given twice (first at line 3)`},
		{"JSON", "a.json", `[{"name": "A", "evals": [{"type": "contains", "params": {"patterns": ["x"], "patterns": ["y"]}}]}]`,
			`a.json:1: cases[0].evals[0].params: field "patterns" is given twice (first at line 1)`},
		{"an alias bomb", "bomb.yaml", bomb.String(),
			"bomb.yaml:1113: cases[111].evals: the alias *E makes the file more than 1000000 YAML nodes, each use of an alias counted with all it stands for: use fewer aliases, or write the values out"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			require.NoError(t, os.WriteFile(dir+"/"+tc.file, []byte(tc.data), 0o644))
			cases, err := evaltest.LoadCases(dir+"/"+tc.file, nil)
			assert.EqualError(t, err, dir+"/"+tc.want)
			assert.Empty(t, cases)
		})
	}
}

// A case file written with megabyte names — a case field, an eval field, a
// repeat field, a check type, a parameter, a case name given twice — fails
// with one problem for each, every one naming its file and line, quoting a
// fragment with the marker and staying under 2 KiB. The did-you-mean of a
// megabyte name skips the known names too far in length to be near, so
// the file fails at once (it cost 1.6 G edit-distance steps before).
func TestLoadCasesHugeNames(t *testing.T) {
	huge := strings.Repeat("x", 1<<20)
	// An implicit YAML key is at most 1,024 characters; an explicit one
	// ("? key") has no limit.
	file := filepath.Join(t.TempDir(), "huge.yaml")
	data := "- name: a\n  ? " + huge + "\n  : 1\n  evals: [{type: contains, params: {patterns: [a]}}]\n" +
		"- name: b\n  evals:\n  - type: contains\n    ? " + huge + "\n    : 1\n    params: {patterns: [a]}\n" +
		"- name: c\n  repeat:\n    n: 2\n    ? " + huge + "\n    : 1\n  evals: [{type: contains, params: {patterns: [a]}}]\n" +
		"- name: d\n  evals: [{type: " + huge + "}]\n" +
		"- name: e\n  evals:\n  - type: contains\n    params:\n      patterns: [a]\n      ? " + huge + "\n      : 1\n" +
		"- name: " + huge + "\n  evals: [{type: contains, params: {patterns: [a]}}]\n" +
		"- name: " + huge + "\n  evals: [{type: contains, params: {patterns: [a]}}]\n"
	require.NoError(t, os.WriteFile(file, []byte(data), 0o644))
	t.Setenv("EVALKIT_MAX_CASE_FILE_BYTES", "16MiB") // the file is 7 MiB

	_, err := evaltest.LoadCases(file, nil)
	var cfe *evaltest.CaseFileError
	require.ErrorAs(t, err, &cfe)
	require.Len(t, cfe.Problems, 6, "one problem for each huge name")
	for i, p := range cfe.Problems {
		assert.True(t, strings.HasPrefix(p, file+":"), "problem %d does not name the file: %.200q", i, p)
		assert.LessOrEqual(t, len(p), 2048, "problem %d: %.200q", i, p)
		assert.Contains(t, p, "more bytes]", "problem %d quotes no fragment with its marker: %.200q", i, p)
		assert.NotContains(t, p, "did you mean", "problem %d: nothing is near a megabyte name", i)
	}
	assert.Less(t, len(err.Error()), 6*2048+len(file))
}

// TestJudgelessProbe runs the case file EVALKIT_JUDGELESS_PROBE names with
// no judge, for TestCaseFileJudgeWithoutJudgeFailsAtLoad; it runs only there.
func TestJudgelessProbe(t *testing.T) {
	file := os.Getenv("EVALKIT_JUDGELESS_PROBE")
	if file == "" {
		t.Skip("run by TestCaseFileJudgeWithoutJudgeFailsAtLoad")
	}
	evaltest.RunCases(t, file, func(et *evaltest.T, c evaltest.Case) *evalkit.Transcript {
		t.Errorf("the agent ran for case %q: the file should have failed at load", c.Name)
		return chat("Your refund was issued.")
	})
}

// A case file whose llm_judge step has no judge to ask fails when it is
// loaded, naming the file, the eval's line and the case — before any
// agent runs — rather than failing every case at run time.
func TestCaseFileJudgeWithoutJudgeFailsAtLoad(t *testing.T) {
	file := filepath.Join(t.TempDir(), "judged.yaml")
	require.NoError(t, os.WriteFile(file, []byte(`cases:
  - name: refund
    input: Where is my refund?
    evals:
      - type: contains
        params: {patterns: [refund]}
      - type: llm_judge
        params: {criteria: Confirms the refund}
  - name: polite
    input: Thanks
    evals:
      - type: assertion
        params: {eval_type: llm_judge, eval_params: {criteria: Is polite}, min_score: 0.8}
`), 0o644))
	cmd := exec.Command(os.Args[0], "-test.run=^TestJudgelessProbe$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), "EVALKIT_JUDGELESS_PROBE="+file, "EVALKIT_SHARD=", "EVALKIT_REPORT=")
	out, err := cmd.CombinedOutput()
	require.Error(t, err, "the probe fails:\n%s", out)
	text := string(out)
	shown := filepath.ToSlash(file)
	assert.Contains(t, text, `RunCases("`+file+`"): 2 problems in the case files:`)
	assert.Contains(t, text, shown+`:7: case "refund": llm_judge asks a judge, and RunCases has none: give it evaltest.WithJudge(j) or evaltest.WithJudgeSet(set)`)
	assert.Contains(t, text, shown+`:12: case "polite": assertion asks a judge`)
	assert.NotContains(t, text, "the agent ran")
	assert.NotContains(t, text, "=== RUN   TestJudgelessProbe/refund", "no case ran")
}

// A judged eval with no judge is listed in the same report as the file's
// other problems — a misspelt parameter, an unknown field — not only once
// they are fixed: RunCases's doc promises every problem at once.
func TestCaseFileJudgeWithoutJudgeListedWithOtherProblems(t *testing.T) {
	file := filepath.Join(t.TempDir(), "judged.yaml")
	require.NoError(t, os.WriteFile(file, []byte(`cases:
  - name: refund
    input: Where is my refund?
    evals:
      - type: contains
        params: {patern: [refund]}
      - type: llm_judge
        params: {criteria: Confirms the refund}
  - name: polite
    input: Thanks
    tag: smoke
    evals:
      - type: llm_judge
        params: {criteria: Is polite}
`), 0o644))
	cmd := exec.Command(os.Args[0], "-test.run=^TestJudgelessProbe$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), "EVALKIT_JUDGELESS_PROBE="+file, "EVALKIT_SHARD=", "EVALKIT_REPORT=")
	out, err := cmd.CombinedOutput()
	require.Error(t, err, "the probe fails:\n%s", out)
	text := string(out)
	shown := filepath.ToSlash(file)
	assert.Contains(t, text, `RunCases("`+file+`"): 4 problems in the case files:`)
	assert.Contains(t, text, `param "patern": unknown parameter`)
	assert.Contains(t, text, `field "tag": unknown`)
	assert.Contains(t, text, shown+`:7: case "refund": llm_judge asks a judge, and RunCases has none`)
	assert.Contains(t, text, shown+`:13: case "polite": llm_judge asks a judge, and RunCases has none`)
	assert.NotContains(t, text, "the agent ran")
}
