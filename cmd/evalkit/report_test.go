package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"html/template"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	evalassert "github.com/evalkit-go/evalkit/assert"
	"github.com/evalkit-go/evalkit/evaltest"
	"github.com/evalkit-go/evalkit/judgefake"
)

// quietTB is the test's own TB with failures kept instead of reported:
// the fixture's checks fail on purpose.
type quietTB struct {
	testing.TB
	failures []string
}

func (q *quietTB) Errorf(format string, args ...any) {
	q.failures = append(q.failures, fmt.Sprintf(format, args...))
}

// identifiedJudge is a judge with an identity, so evaltest records it.
type identifiedJudge struct {
	j     evalkit.Judge
	model string
}

func (i identifiedJudge) Judge(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
	return i.j.Judge(ctx, req)
}

func (i identifiedJudge) Identity() evalkit.Identity {
	return evalkit.Identity{Provider: "test", Model: i.model}
}

// fixtureResults writes a results file the way go test does, through
// evaltest: real τ-bench runs checked by deterministic checks, a judge
// with cost, a panel of three, a Repeat, and an evaluation error.
func fixtureResults(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "results.jsonl")
	t.Setenv("EVALKIT_REPORT", path)
	t.Setenv("EVALKIT_MODE", "live")
	runs, err := evalkit.LoadAll("../../testdata/tau_bench/airline_gpt4o_trajectories.json")
	require.NoError(t, err)
	cost := func(score float64, model string) evalkit.Judge {
		return identifiedJudge{judgefake.Fixed(evalkit.Verdict{Score: score, Scored: true, Model: model,
			Usage: evalkit.Usage{InputTokens: 1200, OutputTokens: 80, CostUSD: 0.0011}}), model}
	}
	tb := &quietTB{TB: t}
	for i, tr := range runs[:6] {
		s := float64(i) / 6
		panel := evalkit.Panel([]evalkit.Judge{cost(s+0.1, "gpt-4.1-mini"), cost(s, "claude-haiku-4-5"), cost(s+0.05, "gpt-4.1")}, evalkit.Mean)
		et := evaltest.New(tb, evaltest.WithJudge(cost(s, "gpt-4.1-mini")))
		et.Expect(tr).
			ToolsCalled("get_user_details").
			NoToolErrors().
			Judge("Follows the airline policy", evalassert.MinScore(0.5))
		evaltest.New(tb, evaltest.WithJudge(panel)).Expect(tr).Judge("Is polite", evalassert.MinScore(0.5))
	}
	et := evaltest.New(tb, evaltest.WithJudge(judgefake.Hash("report")))
	et.Repeat(20, func(et *evaltest.T) {
		et.Expect(&evalkit.Transcript{Messages: []evalkit.Message{
			{Role: evalkit.RoleUser, Content: "Cancel my flight"},
			{Role: evalkit.RoleAssistant, Content: fmt.Sprintf("Cancelled, attempt %d.", et.Attempt())},
		}}).Judge("Confirms the cancellation", evalassert.MinScore(0.5))
	}, evaltest.PassRate(0.3), evaltest.Exhaustive())
	et.Expect(runs[0]).Eval("tools_caled", map[string]any{"tool_names": []any{"x"}})
	require.NotEmpty(t, tb.failures)
	return path
}

func TestReportMarkdown(t *testing.T) {
	path := fixtureResults(t)
	code, md, errOut := runCLI("report", "-md", "-", path)
	require.Equal(t, 0, code, errOut)
	for _, want := range []string{
		"## evalkit report\n",
		"**26 checks**: 17 pass, 8 fail, 1 error · 1 test, 0 cases · judge cost $0.0264 live, $0.0000 replayed (recorded) · 30720 tokens",
		"| `llm_judge` | ",
		"| `repeat` | 1 | 0 | 0 | 100% |",
		"| `tools_caled` | 0 | 0 | 1 | 0% |",
		"| gpt-4.1-mini | 6 | 0 | 0 | 7680 | $0.0066 |",
		"| panel (mean) of 3 | 6 | 0 | 0 | 23040 | $0.0198 |",
		"Panel agreement: Krippendorff's alpha 0.9",
		"| `TestReportMarkdown` `Repeat(20, PassRate(0.30), Exhaustive())` | pass |",
		"### Failures and errors (",
		`- **error** ` + "`TestReportMarkdown`" + `: Eval("tools\_caled", {"tool\_names":\["x"\]}): error: unknown check type "tools\_caled" (did you mean "tools\_called"?)`,
	} {
		assert.Contains(t, md, want)
	}
}

// One check is "1 check", as one test is "1 test".
func TestReportMarkdownOneCheck(t *testing.T) {
	path := filepath.Join(t.TempDir(), "one.jsonl")
	require.NoError(t, os.WriteFile(path, []byte(`{"v":1,"kind":"check","test":"TestA","check":"C","type":"contains","status":"pass"}`+"\n"), 0o644))
	code, md, errOut := runCLI("report", "-md", "-", path)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, md, "**1 check**: 1 pass, 0 fail, 0 error · 1 test, 0 cases")
}

// What a results file holds is text in the summary, never Markdown or
// HTML of its own: a failure message, test, check, status or judge name
// cannot add a link, an image, markup or a table cell to a CI job page;
// and a Repeat's counts past what a run makes do not hang the report.
func TestReportMarkdownInjection(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hostile.jsonl")
	lines := []string{
		`{"v":1,"kind":"check","test":"TestX` + "`" + ` | evil","check":"C","type":"contains","status":"fail","judge":"<img src=x onerror=alert(1)>\n## heading","source":"live","message":"![pixel](https://evil.example/p.png) [click](https://evil.example) **bold** ~~gone~~ &amp; \\| cell $x^2$\nsecond line"}`,
		`{"v":1,"kind":"check","test":"TestR","check":"Repeat(n)","type":"repeat","status":"pass","attempts":9223372036854775807,"passed":9223372036854775807,"need":1}`,
	}
	require.NoError(t, os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644))
	code, md, errOut := runCLI("report", "-md", "-", path)
	require.Equal(t, 0, code, errOut)
	assert.Contains(t, md, "- **fail** `TestX' \\| evil`: !\\[pixel\\](https://evil.example/p.png) \\[click\\](https://evil.example) \\*\\*bold\\*\\* \\~\\~gone\\~\\~ \\&amp; \\\\\\| cell \\$x^2\\$\n")
	assert.Contains(t, md, "| \\<img src=x onerror=alert(1)\\> ## heading | 1 | 0 | 0 | 0 | $0.0000 |")
	assert.Contains(t, md, "| `TestR` `Repeat(n)` | pass | 9223372036854775807 of 9223372036854775807 (need 1) | – |")
	for _, l := range strings.Split(md, "\n") {
		assert.False(t, strings.HasPrefix(l, "## heading"), "no line of the file's own")
	}
}

// The page is one file that loads nothing: no script, no stylesheet or
// image from anywhere, and a Content-Security-Policy that forbids it.
func TestReportHTMLIsSelfContained(t *testing.T) {
	path := fixtureResults(t)
	out := filepath.Join(t.TempDir(), "report.html")
	code, _, errOut := runCLI("report", "-html", out, "-title", "Nightly <evals>", path)
	require.Equal(t, 0, code, errOut)
	data, err := os.ReadFile(out)
	require.NoError(t, err)
	page := string(data)
	assert.Contains(t, page, `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">`)
	assert.Contains(t, page, "<title>Nightly &lt;evals&gt;</title>", "text is escaped")
	assert.NotContains(t, page, "<script")
	assert.NotRegexp(t, regexp.MustCompile(`(?i)(src|href)\s*=\s*["']?(https?:)?//`), page)
	for _, u := range regexp.MustCompile(`https?://[^"'\s<>]+`).FindAllString(page, -1) {
		assert.Contains(t, []string{"http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink"}, u, "only SVG namespace names, never fetched")
	}
	assert.GreaterOrEqual(t, strings.Count(page, "<svg"), 4, "pass rate, cost, and score histograms")
	assert.Contains(t, page, `id="chart-pass-rate"`)
	assert.Contains(t, page, `class="transcript"`)
	assert.Contains(t, page, "get_user_details", "the transcripts are on the page")
}

func TestReportErrors(t *testing.T) {
	code, _, errOut := runCLI("report", "-html", "x.html")
	assert.Equal(t, 2, code)
	assert.True(t, strings.HasPrefix(errOut, "usage: evalkit report"), errOut)
	code, _, errOut = runCLI("report", "results.jsonl")
	assert.Equal(t, 2, code, "no output asked for")
	assert.True(t, strings.HasPrefix(errOut, "usage: evalkit report"), errOut)

	dir := t.TempDir()
	code, _, errOut = runCLI("report", "-md", "-", filepath.Join(dir, "missing.jsonl"))
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, "missing.jsonl: no such file or directory")
	code, _, errOut = runCLI("report", "-md", "-", dir)
	assert.Equal(t, 1, code)
	assert.Equal(t, "evalkit report: "+dir+" holds no *.jsonl results files\n", errOut)

	cut := filepath.Join(dir, "cut.jsonl")
	require.NoError(t, os.WriteFile(cut, []byte(`{"v":1,"kind":"check","test":"T","status":"pass"}`+"\n"+`{"v":1,"ki`), 0o644))
	code, _, errOut = runCLI("report", "-md", "-", cut)
	assert.Equal(t, 1, code)
	assert.Equal(t, "evalkit report: "+cut+":2: the line has no newline: the file was cut off\n", errOut)

	empty := filepath.Join(dir, "empty.jsonl")
	require.NoError(t, os.WriteFile(empty, nil, 0o644))
	code, _, errOut = runCLI("report", "-md", "-", empty)
	assert.Equal(t, 1, code, "no results is no report, never an empty green one")
	assert.Equal(t, "evalkit report: no check results in "+empty+"\n", errOut)
}

// Shards' results files merge: a directory of them reads as one run.
func TestReportMergesShards(t *testing.T) {
	path := fixtureResults(t)
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	lines := strings.SplitAfter(string(data), "\n")
	dir := t.TempDir()
	half := len(lines) / 2
	require.NoError(t, os.WriteFile(filepath.Join(dir, "shard1.jsonl"), []byte(strings.Join(lines[:half], "")), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "shard2.jsonl"), []byte(strings.Join(lines[half:], "")), 0o644))
	_, whole, _ := runCLI("report", "-md", "-", path)
	code, merged, errOut := runCLI("report", "-md", "-", dir)
	require.Equal(t, 0, code, errOut)
	assert.Equal(t, whole, merged)
}

// chromium finds a Chromium or Chrome binary.
func chromium() string {
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// The report in headless Chromium with the network off: the DOM holds
// the summary, the tables and the charts, and a screenshot shows them —
// the pass, fail and error colours of the charts and tiles are on the
// page. .ci/run installs Chromium; a machine without it skips this.
func TestReportInChromium(t *testing.T) {
	bin := chromium()
	if bin == "" {
		if os.Getenv("EVALKIT_REQUIRE_CHROMIUM") != "" {
			t.Fatal("EVALKIT_REQUIRE_CHROMIUM is set (.ci/run sets it), but no chromium is on PATH")
		}
		t.Skip("no chromium on PATH: apt-get install chromium (.ci/run installs it and requires this test)")
	}
	path := fixtureResults(t)
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	code, _, errOut := runCLI("report", "-html", page, path)
	require.Equal(t, 0, code, errOut)

	// browse runs Chromium on the page. A headless Chromium on a loaded
	// 2-core machine now and then never exits; such a run is killed after
	// a minute and tried again, up to three times.
	browse := func(extra ...string) []byte {
		t.Helper()
		args := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
			"--disable-background-networking", "--disable-extensions", "--no-first-run", "--mute-audio",
			"--host-resolver-rules=MAP * ~NOTFOUND", "--proxy-server=127.0.0.1:9", // no network, whatever the page asked
			"--user-data-dir=" + filepath.Join(dir, "profile")}, extra...)
		args = append(args, "file://"+page)
		var stderr bytes.Buffer
		for try := 1; ; try++ {
			ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
			cmd := exec.CommandContext(ctx, bin, args...)
			stderr.Reset()
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			timedOut := ctx.Err() != nil
			cancel()
			if err == nil || !timedOut || try == 3 {
				require.NoError(t, err, "chromium (try %d): %s", try, stderr.String())
				return out
			}
			t.Logf("chromium did not finish within a minute (try %d); trying again", try)
		}
	}

	dom := string(browse("--dump-dom"))
	for _, want := range []string{`id="summary"`, `id="total-checks"`, `id="chart-pass-rate"`, `id="chart-cost"`, `id="scores"`, `id="repeats"`, `class="case"`} {
		assert.Contains(t, dom, want, "the DOM Chromium built")
	}
	assert.GreaterOrEqual(t, strings.Count(dom, "<svg"), 4, "the charts are in the DOM")
	assert.Regexp(t, `id="total-pass" data-count="\d+"`, dom)

	shot := filepath.Join(dir, "report.png")
	browse("--screenshot="+shot, "--window-size=1280,2200", "--hide-scrollbars")
	f, err := os.Open(shot)
	require.NoError(t, err)
	defer f.Close()
	img, err := png.Decode(f)
	require.NoError(t, err)
	assert.Equal(t, image.Rect(0, 0, 1280, 2200), img.Bounds())
	var green, red, amber, total int
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			r, g, bl, _ := img.At(x, y).RGBA()
			r, g, bl = r>>8, g>>8, bl>>8
			total++
			switch {
			case near(r, g, bl, 0x2e, 0x7d, 0x32):
				green++
			case near(r, g, bl, 0xc6, 0x28, 0x28):
				red++
			case near(r, g, bl, 0xef, 0x8f, 0x00):
				amber++
			}
		}
	}
	t.Logf("screenshot %s: %d sampled pixels, %d pass green, %d fail red, %d error amber", shot, total, green, red, amber)
	assert.Greater(t, green, 200, "pass bars are drawn")
	assert.Greater(t, red, 200, "fail bars are drawn")
	assert.Greater(t, amber, 20, "error bars or tiles are drawn")
	if f := flag.Lookup("test.artifacts"); f != nil && f.Value.String() == "true" {
		ad, _ := any(t).(interface{ ArtifactDir() string }) // Go 1.26+: the screenshot is kept
		require.NotNil(t, ad)
		data, err := os.ReadFile(shot)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(ad.ArtifactDir(), "report.png"), data, 0o644))
	}
}

func near(r, g, b, wr, wg, wb uint32) bool {
	d := func(a, b uint32) uint32 {
		if a > b {
			return a - b
		}
		return b - a
	}
	return d(r, wr) < 24 && d(g, wg) < 24 && d(b, wb) < 24
}

// A judged check's whole criteria and the judge's whole reasoning are on
// the page, a passing one's too, long reasoning folded rather than cut,
// and the threshold beside the score.
func TestReportHTMLShowsWholeCriteriaAndReasoning(t *testing.T) {
	criteria := "Confirms the refund, states the amount in the customer's currency, and gives the date the money arrives in the account"
	long := strings.Repeat("The reply states the amount and the date. ", 20) + "The end."
	path := filepath.Join(t.TempDir(), "results.jsonl")
	lines := []string{
		`{"v":1,"kind":"check","test":"TestRefund","check":"Judge(\"Confirms the refund, states the amou…\", MinScore(0.80))","type":"llm_judge","status":"pass","score":0.9,"judge":"gpt-4.1-mini","source":"replayed","criteria":` + strconv.Quote(criteria) + `,"reasoning":"Gives $42 and Friday.","threshold":">= 0.80"}`,
		`{"v":1,"kind":"check","test":"TestRefund","check":"Judge(\"Is polite\")","type":"llm_judge","status":"pass","score":1,"criteria":"Is polite","reasoning":` + strconv.Quote(long) + `,"threshold":"pass"}`,
	}
	require.NoError(t, os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644))
	out := filepath.Join(t.TempDir(), "report.html")
	code, _, errOut := runCLI("report", "-html", out, path)
	require.Equal(t, 0, code, errOut)
	data, err := os.ReadFile(out)
	require.NoError(t, err)
	page := string(data)
	assert.Contains(t, page, `<div class="criteria">`+template.HTMLEscapeString(criteria)+`</div>`)
	assert.Contains(t, page, `<details class="reasoning" open><summary>reasoning</summary><div class="reasoning">Gives $42 and Friday.</div></details>`, "a passing judge's reasoning, open")
	assert.Contains(t, page, `<details class="reasoning"><summary>reasoning</summary><div class="reasoning">`+long+`</div></details>`, "long reasoning whole, folded")
	assert.Contains(t, page, `<div class="meta">want &gt;= 0.80</div>`)
}
