package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/evaltest"
)

// namedTB is quietTB under another test name, so two runs' checks of one
// τ-bench task pair up in a comparison.
type namedTB struct {
	*quietTB
	name string
}

func (n namedTB) Name() string { return n.name }

// tauRun is a bundled airline run with the tools its ground truth calls.
type tauRun struct {
	task, trial int
	reward      float64
	tools       []string
	tr          *evalkit.Transcript
}

func tauRuns(t *testing.T) []tauRun {
	t.Helper()
	const path = "../../testdata/tau_bench/airline_gpt4o_trajectories.json"
	trs, err := evalkit.LoadAll(path)
	require.NoError(t, err)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var raw []struct {
		TaskID int     `json:"task_id"`
		Trial  int     `json:"trial"`
		Reward float64 `json:"reward"`
		Info   struct {
			Task struct {
				Actions []struct {
					Name string `json:"name"`
				} `json:"actions"`
			} `json:"task"`
		} `json:"info"`
	}
	require.NoError(t, json.Unmarshal(data, &raw))
	require.Len(t, trs, len(raw))
	runs := make([]tauRun, len(raw))
	for i, r := range raw {
		runs[i] = tauRun{task: r.TaskID, trial: r.Trial, reward: r.Reward, tr: trs[i]}
		for _, a := range r.Info.Task.Actions {
			if !strings.HasPrefix(a.Name, "get_") && !strings.HasPrefix(a.Name, "search_") && !contains(runs[i].tools, a.Name) {
				runs[i].tools = append(runs[i].tools, a.Name)
			}
		}
	}
	return runs
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// checkRuns runs the same checks on each run, as go test with
// EVALKIT_REPORT does, into shards results files in dir: the run's ground
// truth tools were called, no tool failed, the user was looked up. name
// names each run's test.
func checkRuns(t *testing.T, dir string, shards int, runs []tauRun, name func(tauRun) string) {
	t.Helper()
	t.Setenv("EVALKIT_MODE", "live")
	require.NoError(t, os.MkdirAll(dir, 0o755))
	tb := &quietTB{TB: t}
	for i, r := range runs {
		t.Setenv("EVALKIT_REPORT", filepath.Join(dir, fmt.Sprintf("shard%d.jsonl", i%shards+1)))
		et := evaltest.New(namedTB{tb, name(r)})
		e := et.Expect(r.tr).NoToolErrors().ToolsCalled("get_user_details")
		if len(r.tools) > 0 {
			e.ToolsCalled(r.tools...)
		}
	}
}

func byTask(r tauRun) string { return fmt.Sprintf("TestTau/task_%d_trial_%d", r.task, r.trial) }

// renamed returns the run with its calls to tool renamed, as an agent that
// stopped calling the tool would leave it.
func renamed(t *testing.T, r tauRun, tool string) tauRun {
	t.Helper()
	data, err := json.Marshal(r.tr)
	require.NoError(t, err)
	tr, err := evalkit.Decode([]byte(strings.ReplaceAll(string(data), `"name":"`+tool+`"`, `"name":"`+tool+`_v2"`)))
	require.NoError(t, err)
	r.tr = tr
	return r
}

// An injected regression — the agent stops calling get_user_details in 5
// runs that did — is significant (McNemar exact, 5 of 5 discordant pairs
// one way: p = 1/32), and the gate fails; the same checks run again on
// the same runs change nothing, and the gate passes. BASE and NEW are
// each two shards.
func TestCompareInjectedRegression(t *testing.T) {
	runs := tauRuns(t)
	dir := t.TempDir()
	base, same, worse := filepath.Join(dir, "base"), filepath.Join(dir, "same"), filepath.Join(dir, "worse")
	checkRuns(t, base, 2, runs, byTask)
	checkRuns(t, same, 2, runs, byTask)
	var injected []string
	regressed := make([]tauRun, len(runs))
	for i, r := range runs {
		regressed[i] = r
		if len(injected) < 5 && callsTool(r.tr, "get_user_details") {
			regressed[i] = renamed(t, r, "get_user_details")
			injected = append(injected, byTask(r))
		}
	}
	require.Len(t, injected, 5)
	checkRuns(t, worse, 2, regressed, byTask)

	code, out, errOut := runCLI("compare", base, same)
	assert.Equal(t, 0, code, "an unchanged run passes the gate: %s\n%s", errOut, out)
	assert.Contains(t, out, "changes: 0 pass→fail, 0 new errors, 0 fail→pass, 0 errors cleared, 0 removed, 0 new, 40 unchanged\n")
	assert.Contains(t, out, "McNemar exact, one-sided (NEW worse), p = 1 >= 0.05\n")
	assert.Contains(t, out, "\ngate: pass\n")
	assert.Empty(t, errOut)

	code, out, errOut = runCLI("compare", base, worse)
	assert.Equal(t, 1, code, out)
	assert.Contains(t, out, "changes: 5 pass→fail, 0 new errors, 0 fail→pass, 0 errors cleared, 0 removed, 0 new, 35 unchanged\n")
	assert.Contains(t, out, "McNemar exact, one-sided (NEW worse), p = 0.0312 < 0.05\n")
	for _, name := range injected {
		assert.Regexp(t, regexp.MustCompile(`(?m)^  pass→fail +`+regexp.QuoteMeta(name)+` +ToolsCalled\("get_user_details"\) +pass 1\.00 → fail 0\.00$`), out)
	}
	assert.Regexp(t, regexp.MustCompile(`(?m)^  tools_called +20/26 76\.9% +15/26 57\.7% +-19\.2 +5 +0 +0 +0\.0312 +McNemar exact$`), out, "per check type")
	assert.Equal(t, "evalkit compare: gate failed:\n  significant regression: McNemar exact, one-sided (NEW worse), p = 0.0312 < 0.05\n", errOut)

	// The thresholds are the user's: a stricter alpha lets 5 flips pass,
	// -max-flips catches them.
	code, _, errOut = runCLI("compare", "-alpha", "0.01", base, worse)
	assert.Equal(t, 0, code, errOut)
	code, _, errOut = runCLI("compare", "-alpha", "0", "-max-flips", "4", "-q", base, worse)
	assert.Equal(t, 1, code)
	assert.Equal(t, "evalkit compare: gate failed:\n  5 checks got worse (5 pass→fail, 0 new errors), more than -max-flips 4\n", errOut)
	code, _, _ = runCLI("compare", "-alpha", "0", "-max-flips", "5", "-q", base, worse)
	assert.Equal(t, 0, code)

	// A glob names the shards too.
	code, _, _ = runCLI("compare", "-q", filepath.Join(base, "shard*.jsonl"), filepath.Join(worse, "*.jsonl"))
	assert.Equal(t, 1, code)
}

func callsTool(tr *evalkit.Transcript, name string) bool {
	for _, c := range tr.ToolCalls() {
		if c.Name == name {
			return true
		}
	}
	return false
}

// writeLines writes results lines, one JSON object each, to path.
func writeLines(t *testing.T, path string, lines ...string) string {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644))
	return path
}

func check(test, check, typ, status string, extra ...string) string {
	s := fmt.Sprintf(`{"v":1,"kind":"check","test":%q,"check":%q,"type":%q,"status":%q`, test, check, typ, status)
	for _, e := range extra {
		s += "," + e
	}
	return s + "}"
}

// Every kind of change, tags and their gates, a Repeat's pass rate with
// its interval, a scored check that lost score without flipping, and a
// check written twice in one test.
func TestCompareChanges(t *testing.T) {
	dir := t.TempDir()
	base := writeLines(t, filepath.Join(dir, "base.jsonl"),
		check("TestA", "Contains(x)", "contains", "pass", `"score":1`, `"tags":["critical"]`),
		check("TestB", "Contains(x)", "contains", "fail", `"score":0`, `"message":"missing x"`),
		check("TestC", "Judge(polite)", "llm_judge", "pass", `"score":0.9`, `"judge":"gpt-4.1"`),
		check("TestD", "Judge(polite)", "llm_judge", "error", `"message":"judge: HTTP 503"`),
		check("TestE", "JSONValid()", "is_valid_json", "pass", `"score":1`),
		check("TestGone", "JSONValid()", "is_valid_json", "pass", `"score":1`),
		check("TestF", "Judge(helpful)", "llm_judge", "pass", `"score":0.95`, `"tags":["critical"]`),
		check("TestR", "Repeat(20, PassRate(0.50))", "repeat", "pass", `"attempts":20`, `"passed":19`, `"need":10`),
		check("TestTwice", "Contains(y)", "contains", "pass", `"score":1`),
		check("TestTwice", "Contains(y)", "contains", "fail", `"score":0`),
	)
	head := writeLines(t, filepath.Join(dir, "new.jsonl"),
		check("TestA", "Contains(x)", "contains", "fail", `"score":0`, `"tags":["critical"]`, `"message":"Contains(x): missing x"`),
		check("TestB", "Contains(x)", "contains", "pass", `"score":1`),
		check("TestC", "Judge(polite)", "llm_judge", "error", `"message":"judge: unreadable verdict"`),
		check("TestD", "Judge(polite)", "llm_judge", "pass", `"score":0.8`),
		check("TestE", "JSONValid()", "is_valid_json", "pass", `"score":1`),
		check("TestNew", "JSONValid()", "is_valid_json", "fail", `"score":0`),
		check("TestF", "Judge(helpful)", "llm_judge", "pass", `"score":0.7`, `"tags":["critical"]`),
		check("TestR", "Repeat(20, PassRate(0.50))", "repeat", "pass", `"attempts":20`, `"passed":11`, `"need":10`),
		check("TestTwice", "Contains(y)", "contains", "pass", `"score":1`),
		check("TestTwice", "Contains(y)", "contains", "pass", `"score":1`),
	)
	code, out, errOut := runCLI("compare", "-alpha", "0.05", "-tag", "critical=0", base, head)
	assert.Equal(t, 1, code, out)
	assert.Contains(t, out, "changes: 1 pass→fail, 1 new error, 2 fail→pass, 1 error cleared, 1 removed, 1 new, 4 unchanged\n")
	want := []string{
		`  pass→fail      TestA      Contains(x)    pass 1.00 → fail 0.00`,
		`  new error      TestC      Judge(polite)  pass 0.90 → error`,
		`  fail→pass      TestB      Contains(x)    fail 0.00 → pass 1.00`,
		`  fail→pass      TestTwice  Contains(y)    fail 0.00 → pass 1.00`,
		`  error cleared  TestD      Judge(polite)  error → pass 0.80`,
		`  removed        TestGone   JSONValid()    pass 1.00 → –`,
		`  new            TestNew    JSONValid()    – → fail 0.00`,
	}
	assert.Contains(t, out, "changed checks (7):\n"+strings.Join(want, "\n")+"\n")
	assert.Contains(t, out, "  critical  2/2 100.0%  1/2 50.0%  -50.0  1      0       0           0.5            McNemar exact\n")
	assert.Contains(t, out, "largest score drops (status unchanged):\n  TestF  Judge(helpful)  0.95 → 0.70  -0.25\n")
	assert.Contains(t, out, "  llm_judge   1       0.950  0.700  -0.250\n", "mean scores of the graded type, over its checks scored in both runs")
	assert.Contains(t, out, "mean score of the checks scored in both runs:\n  check type  checks  BASE   NEW    Δ\n  llm_judge   1       0.950  0.700  -0.250\n\n", "pass/fail types have no mean-score row")
	assert.Regexp(t, `(?m)^  TestR +Repeat\(20, PassRate\(0\.50\)\) +19/20 \[0\.76, 0\.99\] +→ 11/20 \[0\.34, 0\.74\] +Fisher exact p = 0\.00418 \(significant\)$`, out)
	assert.Equal(t, "evalkit compare: gate failed:\n"+
		"  1 check has no verdict in NEW (1 new error, 0 new checks with an error), more than -max-errors 0: a check that could not be evaluated is not a pass\n"+
		"  tag critical: 1 check got worse (1 pass→fail, 0 new errors), more than 0\n"+
		"  TestR Repeat(20, PassRate(0.50)): pass rate 19/20 → 11/20, Fisher exact p = 0.00418 < 0.05\n", errOut)

	code, _, errOut = runCLI("compare", "-tag", "critcal=0", base, base)
	assert.Equal(t, 1, code, "a tag no check has is a misspelling, never a silent pass")
	assert.Contains(t, errOut, "tag critcal: no check has it in either run (is -tag critcal=0 misspelt?)")
}

// Unpaired runs — no check in both — are compared with Fisher's exact
// test on their pass counts, and it says so.
func TestCompareUnpairedUsesFisher(t *testing.T) {
	dir := t.TempDir()
	var b, n []string
	for i := range 20 {
		b = append(b, check(fmt.Sprintf("TestOld%d", i), "C", "contains", map[bool]string{true: "pass", false: "fail"}[i < 18]))
		n = append(n, check(fmt.Sprintf("TestNew%d", i), "C", "contains", map[bool]string{true: "pass", false: "fail"}[i < 8]))
	}
	code, out, _ := runCLI("compare", writeLines(t, filepath.Join(dir, "b.jsonl"), b...), writeLines(t, filepath.Join(dir, "n.jsonl"), n...))
	assert.Equal(t, 1, code)
	// [[18 2] [8 12]]: P(X ≥ 18) of the hypergeometric, 0.0011
	assert.Contains(t, out, "Fisher exact, one-sided (NEW worse), p = 0.0011 < 0.05\n")
	assert.Contains(t, out, "changes: 0 pass→fail, 0 new errors, 0 fail→pass, 0 errors cleared, 20 removed, 20 new, 0 unchanged\n")
}

func TestCompareErrors(t *testing.T) {
	dir := t.TempDir()
	ok := writeLines(t, filepath.Join(dir, "ok.jsonl"), check("TestA", "C", "contains", "pass"))
	code, _, errOut := runCLI("compare", ok)
	assert.Equal(t, 2, code)
	assert.True(t, strings.HasPrefix(errOut, "usage: evalkit compare"), errOut)
	code, _, errOut = runCLI("compare", "-alpha", "1.5", ok, ok)
	assert.Equal(t, 2, code)
	assert.Equal(t, "evalkit compare: -alpha 1.5: want a level in [0,1), such as 0.05\n", errOut)
	code, _, errOut = runCLI("compare", "-tag", "critical", ok, ok)
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut, `invalid value "critical" for flag -tag: "critical": want TAG=N`)

	code, _, errOut = runCLI("compare", filepath.Join(dir, "missing.jsonl"), ok)
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "evalkit compare: BASE: ")
	assert.Contains(t, errOut, "missing.jsonl: no such file or directory")
	code, _, errOut = runCLI("compare", ok, filepath.Join(dir, "nothing*.jsonl"))
	assert.Equal(t, 1, code)
	assert.Equal(t, "evalkit compare: NEW: "+filepath.Join(dir, "nothing*.jsonl")+": no file matches\n", errOut)
	empty := writeLines(t, filepath.Join(dir, "empty", "e.jsonl"), `{"v":1,"kind":"transcript","id":"t1","transcript":{"messages":[]}}`)
	code, _, errOut = runCLI("compare", ok, empty)
	assert.Equal(t, 1, code, "a NEW run with no checks never passes the gate")
	assert.Equal(t, "evalkit compare: NEW: no check results in "+empty+"\n", errOut)
	cut := filepath.Join(dir, "cut.jsonl")
	require.NoError(t, os.WriteFile(cut, []byte(check("TestA", "C", "contains", "pass")+"\n{\"v\":1"), 0o644))
	code, _, errOut = runCLI("compare", ok, cut)
	assert.Equal(t, 1, code)
	assert.Equal(t, "evalkit compare: NEW: "+cut+":2: the line has no newline: the file was cut off\n", errOut)
}

// mdCells splits a Markdown table row into its cells as GitHub's parser
// (cmark-gfm) does: a backslash escapes the next character, and every
// other pipe ends a cell.
func mdCells(row string) []string {
	var cells []string
	var cur strings.Builder
	for i := 0; i < len(row); i++ {
		switch row[i] {
		case '\\':
			cur.WriteByte(row[i])
			if i+1 < len(row) {
				i++
				cur.WriteByte(row[i])
			}
		case '|':
			cells = append(cells, cur.String())
			cur.Reset()
		default:
			cur.WriteByte(row[i])
		}
	}
	return append(cells, cur.String())
}

// wellFormedTables checks every table of a Markdown document and returns
// them: a header row, a delimiter row of as many cells, and body rows of
// as many, each row starting and ending with a pipe; and it checks that
// no line outside a table starts a heading, a list or HTML of its own
// beyond those the renderer writes.
func wellFormedTables(t *testing.T, md string) [][][]string {
	t.Helper()
	var tables [][][]string
	lines := strings.Split(md, "\n")
	delim := regexp.MustCompile(`^\|(\s*:?-{3,}:?\s*\|)+$`)
	for i := 0; i < len(lines); i++ {
		if !strings.HasPrefix(lines[i], "|") {
			continue
		}
		require.Less(t, i+1, len(lines), "a table ends at its header: %q", lines[i])
		require.Regexp(t, delim, lines[i+1], "line %d: the delimiter row after the header %q", i+2, lines[i])
		header := mdCells(lines[i])
		width := len(header)
		require.Equal(t, width, len(mdCells(lines[i+1])), "line %d: delimiter cells", i+2)
		table := [][]string{header[1 : width-1]}
		j := i + 2
		for ; j < len(lines) && strings.HasPrefix(lines[j], "|"); j++ {
			cells := mdCells(lines[j])
			require.True(t, strings.HasSuffix(lines[j], "|"), "line %d ends its row with a pipe: %q", j+1, lines[j])
			require.Equal(t, width, len(cells), "line %d has %d cells, its header %d: %q", j+1, len(cells)-2, width-2, lines[j])
			table = append(table, cells[1:width-1])
		}
		tables = append(tables, table)
		i = j - 1
	}
	return tables
}

// The Markdown renders on GitHub as written: every table well-formed,
// and text from results files — test names, checks, messages, tags —
// escaped, so none adds a cell, a link, an image, markup or a heading.
func TestCompareMarkdownStructure(t *testing.T) {
	dir := t.TempDir()
	hostile := `TestX| evil` + "`" + `<img src=x onerror=alert(1)>`
	msg := `"message":"![pixel](https://evil.example/p.png) [click](https://evil.example) **bold** ~~gone~~ \\| cell $x^2$\n## heading"`
	base := writeLines(t, filepath.Join(dir, "b.jsonl"),
		check(hostile, "Contains(\"|\")", "contains", "pass", `"score":1`, `"tags":["a|b","<b>"]`),
		check("TestY", "Judge(x)", "llm_judge", "pass", `"score":0.9`),
		check("TestR", "Repeat(5)", "repeat", "pass", `"attempts":5`, `"passed":5`, `"need":3`),
	)
	head := writeLines(t, filepath.Join(dir, "n.jsonl"),
		check(hostile, "Contains(\"|\")", "contains", "fail", `"score":0`, `"tags":["a|b","<b>"]`, msg),
		check("TestY", "Judge(x)", "llm_judge", "pass", `"score":0.6`),
		check("TestR", "Repeat(5)", "repeat", "pass", `"attempts":5`, `"passed":3`, `"need":3`),
	)
	code, md, errOut := runCLI("compare", "-q", "-md", "-", "-title", "PR #12 | evals", base, head)
	assert.Equal(t, 0, code, errOut)
	tables := wellFormedTables(t, md)
	require.Len(t, tables, 7, "runs, changed checks, types, tags, mean scores, drops, repeats")
	assert.Equal(t, []string{" change ", " test ", " check ", " BASE ", " NEW "}, tables[1][0])
	assert.Equal(t, []string{
		" pass→fail ",
		" `TestX\\| evil'<img src=x onerror=alert(1)>` ",
		" `Contains(\"\\|\")` ",
		" pass 1.00 ",
		" fail 0.00: !\\[pixel\\](https://evil.example/p.png) \\[click\\](https://evil.example) \\*\\*bold\\*\\* \\~\\~gone\\~\\~ \\\\\\| cell \\$x^2\\$ ",
	}, tables[1][1])
	assert.Equal(t, " \\<b\\> ", tables[3][1][0], "a tag is text")
	assert.Equal(t, " a\\|b ", tables[3][2][0])
	assert.True(t, strings.HasPrefix(md, "## PR #12 \\| evals\n\n**Gate: passed**\n\n"), md)
	for _, l := range strings.Split(md, "\n") {
		assert.False(t, strings.HasPrefix(l, "## heading"), "no line of the file's own: %q", l)
	}
	assert.Contains(t, md, "| `TestR` | `Repeat(5)` | 5/5 [0.57, 1.00] | 3/5 [0.23, 0.88] | 0.222 |\n")
}

// The comparison page is the report's kind of page — one file, no
// script, nothing loaded — with the changed checks first, side by side,
// worse before better, and the unchanged folded away.
func TestCompareHTML(t *testing.T) {
	dir := t.TempDir()
	base := writeLines(t, filepath.Join(dir, "b.jsonl"),
		check("TestA", "Contains(x)", "contains", "pass", `"score":1`),
		check("TestB", "Contains(x)", "contains", "fail", `"score":0`, `"message":"missing x"`),
		check("TestC<script>", "JSONValid()", "is_valid_json", "pass", `"score":1`),
	)
	head := writeLines(t, filepath.Join(dir, "n.jsonl"),
		check("TestA", "Contains(x)", "contains", "fail", `"score":0`, `"message":"Contains(x): missing \"x\" <b>"`),
		check("TestB", "Contains(x)", "contains", "pass", `"score":1`),
		check("TestC<script>", "JSONValid()", "is_valid_json", "pass", `"score":1`),
	)
	out := filepath.Join(dir, "compare.html")
	code, _, errOut := runCLI("compare", "-q", "-html", out, "-title", "Nightly <evals>", base, head)
	require.Equal(t, 0, code, errOut)
	data, err := os.ReadFile(out)
	require.NoError(t, err)
	page := string(data)
	assert.Contains(t, page, `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`)
	assert.Contains(t, page, "<title>Nightly &lt;evals&gt;</title>")
	assert.NotContains(t, page, "<script")
	assert.Contains(t, page, "TestC&lt;script&gt;")
	assert.Contains(t, page, "Contains(x): missing &#34;x&#34; &lt;b&gt;")
	assert.NotRegexp(t, regexp.MustCompile(`(?i)(src|href)\s*=\s*["']?(https?:)?//`), page)
	assert.Contains(t, page, "body { font: 14px/1.45 system-ui", "the report's style")
	assert.Contains(t, page, `id="gate-result" data-gate="pass"`)
	assert.Contains(t, page, `id="chart-compare"`)
	worse, better, same := strings.Index(page, `data-change="pass→fail"`), strings.Index(page, `data-change="fail→pass"`), strings.Index(page, `id="unchanged"`)
	require.Positive(t, worse)
	assert.Less(t, worse, better, "worse first")
	assert.Less(t, better, same, "changes before the unchanged")
	assert.Contains(t, page, `<td><span class="pass">pass</span> 1.00</td>`+"\n"+`<td><span class="fail">fail</span> 0.00<pre>Contains(x): missing &#34;x&#34; &lt;b&gt;</pre></td></tr>`, "BASE beside NEW")
}

// The bundled τ-bench runs hold four airline tasks run twice: trial 0 as
// BASE and trial 1 as NEW, the same checks run on each. τ-bench rewarded
// tasks 1 and 5 only in trial 1, tasks 11 and 44 only in trial 0. The
// checks see three fixes (task 1 now cancels the reservation and looks
// the user up, task 5 makes all three updates) and one regression (task
// 44 no longer looks the user up): McNemar's exact test, one-sided, gives
// p = P(X ≥ 1 | 4 changes) = 15/16, and the gate passes.
func TestCompareTauBenchTrials(t *testing.T) {
	var twice []tauRun
	trials := map[int]int{}
	runs := tauRuns(t)
	for _, r := range runs {
		trials[r.task]++
	}
	for _, r := range runs {
		if trials[r.task] == 2 {
			twice = append(twice, r)
		}
	}
	require.Len(t, twice, 8, "tasks 1, 5, 11 and 44, trials 0 and 1")
	pick := func(trial int) []tauRun {
		var out []tauRun
		for _, r := range twice {
			if r.trial == trial {
				out = append(out, r)
			}
		}
		return out
	}
	task := func(r tauRun) string { return fmt.Sprintf("TestTau/task_%d", r.task) }
	dir := t.TempDir()
	base, head := filepath.Join(dir, "trial0"), filepath.Join(dir, "trial1")
	checkRuns(t, base, 1, pick(0), task)
	checkRuns(t, head, 1, pick(1), task)
	code, out, errOut := runCLI("compare", "-md", filepath.Join(dir, "compare.md"), base, head)
	t.Logf("evalkit compare trial0 trial1:\n%s", out)
	assert.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "BASE "+base+" (1 file): 11 checks, 7 pass (63.6%)\nNEW  "+head+" (1 file): 11 checks, 9 pass (81.8%, +18.2 points)\n")
	assert.Contains(t, out, "changes: 1 pass→fail, 0 new errors, 3 fail→pass, 0 errors cleared, 0 removed, 0 new, 7 unchanged\n")
	assert.Contains(t, out, "McNemar exact, one-sided (NEW worse), p = 0.938 >= 0.05\n")
	assert.Regexp(t, `(?m)^  pass→fail  TestTau/task_44 +ToolsCalled\("get_user_details"\) +pass 1\.00 → fail 0\.00$`, out)
	md, err := os.ReadFile(filepath.Join(dir, "compare.md"))
	require.NoError(t, err)
	wellFormedTables(t, string(md))
}

// A Repeat that went from 3 of 3 to 0 of 3 has Fisher's p = 1/20: at
// -alpha 0.05 that is not below the level, and the gate does not say
// "p = 0.05 < 0.05" (it did, summing p from log-gamma to 0.04999999999999996).
func TestCompareRepeatAtTheLevel(t *testing.T) {
	dir := t.TempDir()
	base := writeLines(t, filepath.Join(dir, "b.jsonl"), check("TestR", "Repeat(3)", "repeat", "pass", `"attempts":3`, `"passed":3`, `"need":3`))
	head := writeLines(t, filepath.Join(dir, "n.jsonl"), check("TestR", "Repeat(3)", "repeat", "fail", `"attempts":3`, `"passed":0`, `"need":3`))
	code, out, errOut := runCLI("compare", "-alpha", "0.05", base, head)
	assert.Equal(t, 0, code, errOut)
	assert.Regexp(t, `(?m)^  TestR +Repeat\(3\) +3/3 \[0\.44, 1\.00\] +→ 0/3 \[0\.00, 0\.56\] +Fisher exact p = 0\.05$`, out)
	code, _, errOut = runCLI("compare", "-alpha", "0.051", base, head)
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "TestR Repeat(3): pass rate 3/3 → 0/3, Fisher exact p = 0.05 < 0.051\n")
}

// A check that could not be evaluated in NEW — a replay miss, a judge's
// error — fails the gate by default, however few: nine of ten checks
// turned to errors gave McNemar's p = 1 (errors are not paired outcomes)
// and exit 0. -max-errors allows some; a check new in NEW that errs
// counts too; an error BASE had already does not.
func TestCompareNewErrorsFailTheGate(t *testing.T) {
	dir := t.TempDir()
	var b, n []string
	for i := range 10 {
		b = append(b, check(fmt.Sprintf("TestA/%d", i), "Judge(polite)", "llm_judge", "pass", `"score":1`))
		status := "error"
		if i == 9 {
			status = "pass"
		}
		n = append(n, check(fmt.Sprintf("TestA/%d", i), "Judge(polite)", "llm_judge", status, `"message":"golden: not recorded"`))
	}
	base := writeLines(t, filepath.Join(dir, "b.jsonl"), b...)
	head := writeLines(t, filepath.Join(dir, "n.jsonl"), n...)
	code, out, errOut := runCLI("compare", base, head)
	assert.Equal(t, 1, code, out)
	assert.Contains(t, out, "McNemar exact, one-sided (NEW worse), p = 1 >= 0.05\n", "the test alone would pass it")
	assert.Equal(t, "evalkit compare: gate failed:\n  9 checks have no verdict in NEW (9 new errors, 0 new checks with an error), more than -max-errors 0: a check that could not be evaluated is not a pass\n", errOut)
	code, _, _ = runCLI("compare", "-max-errors", "9", base, head)
	assert.Equal(t, 0, code)
	code, _, _ = runCLI("compare", "-max-errors", "-1", base, head)
	assert.Equal(t, 0, code)

	fresh := writeLines(t, filepath.Join(dir, "fresh.jsonl"), append(b, check("TestNew", "C", "contains", "error"))...)
	code, _, errOut = runCLI("compare", base, fresh)
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "1 check has no verdict in NEW (0 new errors, 1 new check with an error)")
	code, _, _ = runCLI("compare", fresh, fresh)
	assert.Equal(t, 0, code, "an error BASE had already is no new one")
}

// Two packages' tests of one name share a results file, their lines in
// the order the packages ran: BASE got package a's first, NEW package b's.
// They pair by package, so nothing changed; paired by test name and
// order, both checks flipped.
func TestComparePairsByPackage(t *testing.T) {
	dir := t.TempDir()
	a := check("TestAgent", "Contains(ok)", "contains", "pass", `"package":"a"`)
	b := check("TestAgent", "Contains(ok)", "contains", "fail", `"package":"b"`)
	base := writeLines(t, filepath.Join(dir, "b.jsonl"), a, b)
	head := writeLines(t, filepath.Join(dir, "n.jsonl"), b, a)
	code, out, errOut := runCLI("compare", "-max-flips", "0", base, head)
	assert.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "changes: 0 pass→fail, 0 new errors, 0 fail→pass, 0 errors cleared, 0 removed, 0 new, 2 unchanged\n")

	// A flip names the package, as the test's name alone is two tests.
	flipped := check("TestAgent", "Contains(ok)", "contains", "fail", `"package":"a"`)
	code, out, _ = runCLI("compare", base, writeLines(t, filepath.Join(dir, "f.jsonl"), b, flipped))
	assert.Equal(t, 0, code)
	assert.Regexp(t, `(?m)^  pass→fail +\./a TestAgent +Contains\(ok\) +pass → fail$`, out)

	// A run whose lines name no package (written before they did) pairs
	// with one whose lines do by test name alone.
	old := writeLines(t, filepath.Join(dir, "old.jsonl"), check("TestAgent", "Contains(ok)", "contains", "pass"))
	code, out, _ = runCLI("compare", old, writeLines(t, filepath.Join(dir, "one.jsonl"), a))
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "0 removed, 0 new, 1 unchanged\n")
}

// A failure message quotes the agent's output, which may hold a key; the
// summary, the Markdown (a PR comment) and the HTML page never print it.
func TestCompareRedactsCredentials(t *testing.T) {
	dir := t.TempDir()
	const key = "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv"
	base := writeLines(t, filepath.Join(dir, "b.jsonl"), check("TestA", "Contains(done)", "contains", "pass"))
	head := writeLines(t, filepath.Join(dir, "n.jsonl"), check("TestA", "Contains(done)", "contains", "fail", `"message":"Contains(done): missing \"done\" in \"your key is `+key+`\""`))
	md, page := filepath.Join(dir, "c.md"), filepath.Join(dir, "c.html")
	_, out, errOut := runCLI("compare", "-md", md, "-html", page, base, head)
	for name, text := range map[string]string{"summary": out + errOut, "markdown": readFile(t, md), "html": readFile(t, page)} {
		assert.NotContains(t, text, "Ab3dEf6hIj9kLm2nOp5qRs8tUv", name)
	}
	assert.Contains(t, readFile(t, md), "redacted:openai-key")
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	return string(data)
}
