package evaltest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	evalassert "github.com/evalkit-go/evalkit/assert"
	"github.com/evalkit-go/evalkit/evaltest"
	"github.com/evalkit-go/evalkit/golden"
	"github.com/evalkit-go/evalkit/judgefake"
)

// attrTB is a fakeTB that also takes test attributes.
type attrTB struct {
	fakeTB
	attrs []string
}

func (a *attrTB) Attr(key, value string) { a.attrs = append(a.attrs, key+" "+value) }

func reportAttrs(opts []evaltest.Option, body func(et *evaltest.T)) *attrTB {
	tb := &attrTB{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		body(evaltest.New(tb, opts...))
	}()
	<-done
	return tb
}

// line is the part of a results line these tests read.
type line struct {
	Kind, Test, Check, Type, Status, Judge, Source, Message, ID string
	Case, Package, Criteria, Reasoning, Threshold               string
	Attempt, Tokens, Attempts, Passed, Need                     int
	Score                                                       *float64
	CostUSD                                                     float64 `json:"cost_usd"`
	TranscriptID                                                string  `json:"transcript_id"`
	Votes                                                       []struct {
		Judge string
		Score *float64
		Error string
	}
}

func readLines(t *testing.T, path string) []line {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var out []line
	for _, raw := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		var l line
		require.NoError(t, json.Unmarshal([]byte(raw), &l), raw)
		out = append(out, l)
	}
	return out
}

func TestResultsFileAndAttributes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "results.jsonl")
	t.Setenv("EVALKIT_REPORT", path)
	verdict := evalkit.Verdict{Score: 0.55, Scored: true, Model: "gpt-4.1-mini", Usage: evalkit.Usage{InputTokens: 900, OutputTokens: 40, CostUSD: 0.0004}}
	tb := reportAttrs([]evaltest.Option{evaltest.WithJudge(judgefake.Fixed(verdict))}, func(et *evaltest.T) {
		tr := refundRun()
		et.Expect(tr).
			ToolsCalled("get_order_details").
			Contains("refund", "EUR", "credited").
			Judge("States the amount", evalassert.MinScore(0.8)).
			Eval("contains", map[string]any{"patern": "x"})
		et.Repeat(3, func(et *evaltest.T) {
			et.Expect(chat("Your refund was issued.")).Contains("refund")
		}, evaltest.All())
	})
	require.Len(t, tb.errors, 3)

	lines := readLines(t, path)
	require.Len(t, lines, 10, "a transcript line, four checks, a transcript, three attempts' checks, the Repeat")
	assert.Equal(t, "transcript", lines[0].Kind)
	tid := lines[0].ID
	var got []string
	for _, l := range lines {
		if l.Kind != "check" {
			continue
		}
		score := "-"
		if l.Score != nil {
			score = fmt.Sprintf("%.4g", *l.Score)
		}
		got = append(got, strings.Join([]string{l.Test, l.Type, l.Status, score, l.Judge, l.Source, fmt.Sprint(l.Attempt)}, " "))
	}
	assert.Equal(t, []string{
		"TestFake tools_called pass 1   0",
		"TestFake contains fail 0.6667   0",
		"TestFake llm_judge fail 0.55 gpt-4.1-mini fake 0",
		"TestFake contains error -   0",
		"TestFake contains pass 1   1",
		"TestFake contains pass 1   2",
		"TestFake contains pass 1   3",
		"TestFake repeat pass 1   0",
	}, got)
	judged := lines[3]
	assert.Equal(t, 940, judged.Tokens)
	assert.Equal(t, 0.0004, judged.CostUSD)
	assert.Equal(t, tid, judged.TranscriptID)
	assert.True(t, strings.HasPrefix(judged.Message, `Judge("States the amount", MinScore(0.80)): score 0.55, want >= 0.80`), judged.Message)
	assert.Equal(t, tid, lines[1].TranscriptID, "one transcript line per transcript")
	assert.Equal(t, 3, lines[9].Attempts)
	assert.Equal(t, 3, lines[9].Passed)
	for _, l := range lines {
		assert.Equal(t, "evaltest", l.Package, "every line names its package, from the module's root: two packages' tests may share a name and a results file")
	}

	assert.Equal(t, []string{
		`evalkit.001.check Judge("States the amount", MinScore(0.80))`,
		`evalkit.001.type llm_judge`,
		`evalkit.001.outcome fail`,
		`evalkit.001.score 0.55`,
		`evalkit.001.threshold >= 0.80`,
		`evalkit.001.judge gpt-4.1-mini`,
		`evalkit.001.source fake`,
		`evalkit.001.cost_usd 0.0004`,
		`evalkit.001.criteria States the amount`,
		`evalkit.002.check Repeat(3, All())`,
		`evalkit.002.type repeat`,
		`evalkit.002.outcome pass`,
		`evalkit.002.score 1`,
		`evalkit.002.attempts 3`,
		`evalkit.002.passed 3`,
		`evalkit.002.need 3`,
	}, tb.attrs, "judged steps and Repeats are attributes; deterministic checks and attempts that asked no judge are not")
}

// Every judged step is an attribute set of its own, numbered, with the
// whole criteria and reasoning: two Judge steps of one test do not share
// a key (gotestsum keeps the last value of a key), and a Repeat's
// attempts' judged steps follow it, each naming its attempt.
func TestAttributesKeepEveryJudgedStep(t *testing.T) {
	path := filepath.Join(t.TempDir(), "results.jsonl")
	t.Setenv("EVALKIT_REPORT", path)
	long := "Confirms the refund, states the amount in the customer's currency, and gives the date the money arrives"
	judge := evalkit.JudgeFunc(func(_ context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
		if req.Criteria == "Is polite" {
			return evalkit.Verdict{Label: "yes", Reasoning: "Thanks the customer."}, nil
		}
		return evalkit.Verdict{Score: 0.9, RawScore: 9, Scored: true, Reasoning: "States $42\nand the date."}, nil
	})
	tb := reportAttrs([]evaltest.Option{evaltest.WithJudge(judge)}, func(et *evaltest.T) {
		et.Expect(chat("Your refund of $42 arrives on Friday. Thank you!")).
			Judge(long, evalassert.MinScore(0.8)).
			Judge("Is polite", evalassert.PassingLabels("yes"), evalassert.OfferedLabels("yes", "no"))
		et.Repeat(2, func(et *evaltest.T) {
			et.Expect(chat("Refunded.")).Judge(long, evalassert.MinScore(0.8))
		}, evaltest.All())
	})
	require.Empty(t, tb.errors)
	attrs := map[string]string{}
	for _, a := range tb.attrs {
		k, v, _ := strings.Cut(a, " ")
		_, dup := attrs[k]
		require.False(t, dup, "key %s given twice", k)
		attrs[k] = v
	}
	assert.Equal(t, long, attrs["evalkit.001.criteria"], "whole, not cut")
	assert.Equal(t, "0.9", attrs["evalkit.001.score"])
	assert.Equal(t, ">= 0.80", attrs["evalkit.001.threshold"])
	assert.Equal(t, "States $42 and the date.", attrs["evalkit.001.reasoning"], "on one line")
	assert.Equal(t, "Is polite", attrs["evalkit.002.criteria"])
	assert.Equal(t, "pass", attrs["evalkit.002.outcome"])
	assert.Equal(t, `"yes"`, attrs["evalkit.002.threshold"])
	assert.Equal(t, "Thanks the customer.", attrs["evalkit.002.reasoning"])
	assert.Equal(t, "repeat", attrs["evalkit.003.type"])
	assert.Equal(t, "2", attrs["evalkit.003.passed"])
	for i, n := range []string{"004", "005"} {
		assert.Equal(t, "llm_judge", attrs["evalkit."+n+".type"])
		assert.Equal(t, fmt.Sprint(i+1), attrs["evalkit."+n+".attempt"])
		assert.Equal(t, "fake", attrs["evalkit."+n+".source"])
	}
	assert.Len(t, attrs, 41, "8 keys per step, 7 for the Repeat, and attempt on the attempts' steps")

	// The results file keeps them whole too, line breaks and all.
	lines := readLines(t, path)
	require.Equal(t, "llm_judge", lines[1].Type)
	assert.Equal(t, long, lines[1].Criteria)
	assert.Equal(t, "States $42\nand the date.", lines[1].Reasoning)
	assert.Equal(t, ">= 0.80", lines[1].Threshold)
	assert.Equal(t, "Thanks the customer.", lines[2].Reasoning)
	assert.Equal(t, `"yes"`, lines[2].Threshold)
}

// identified is a judge with an identity, so evaltest records it.
type identified struct{ j evalkit.Judge }

func (i identified) Judge(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
	return i.j.Judge(ctx, req)
}

func (identified) Identity() evalkit.Identity {
	return evalkit.Identity{Provider: "test", Model: "judge-1"}
}

func TestResultsOfAReplayedPanel(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "results.jsonl")
	t.Setenv("EVALKIT_REPORT", path)
	score := func(s float64) evalkit.Judge {
		return identified{judgefake.Fixed(evalkit.Verdict{Score: s, Scored: true, Usage: evalkit.Usage{InputTokens: 10, CostUSD: 0.01}})}
	}
	panel := evalkit.Panel([]evalkit.Judge{score(0.9), score(0.7), identified{judgefake.Err(context.DeadlineExceeded)}}, evalkit.Mean).WithQuorum(2)
	rec := filepath.Join(dir, "panel.judge.json")
	record, err := golden.New(rec, panel, golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	tr := chat("Your refund was issued.")
	reportWith([]evaltest.Option{evaltest.WithJudge(record)}, func(et *evaltest.T) {
		et.Expect(tr).Judge("Confirms the refund", evalassert.MinScore(0.5))
	})
	require.NoError(t, record.Save())
	replay, err := golden.New(rec, panel, golden.WithMode(golden.ModeReplay))
	require.NoError(t, err)
	tb := reportWith([]evaltest.Option{evaltest.WithJudge(replay)}, func(et *evaltest.T) {
		et.Expect(tr).Judge("Confirms the refund", evalassert.MinScore(0.5))
	})
	assert.Empty(t, tb.errors)

	lines := readLines(t, path)
	var checks []line
	for _, l := range lines {
		if l.Kind == "check" {
			checks = append(checks, l)
		}
	}
	require.Len(t, checks, 2)
	assert.Equal(t, "live", checks[0].Source, "recorded: the judge was asked")
	assert.Equal(t, "replayed", checks[1].Source)
	assert.Equal(t, 0.02, checks[1].CostUSD, "what the recording cost")
	require.Len(t, checks[1].Votes, 3, "a panel's votes, for agreement over a run")
	assert.InDelta(t, 0.7, *checks[1].Votes[1].Score, 1e-12)
	assert.NotEmpty(t, checks[1].Votes[2].Error)
}

// cleanupTB is a fakeTB that takes cleanups, run by the test, and fails
// on its first error; name is its test's name.
type cleanupTB struct {
	fakeTB
	name     string
	cleanups []func()
}

func (c *cleanupTB) Name() string     { return c.name }
func (c *cleanupTB) Cleanup(f func()) { c.cleanups = append(c.cleanups, f) }
func (c *cleanupTB) Failed() bool     { return len(c.errors) > 0 }
func (c *cleanupTB) end() {
	for i := len(c.cleanups) - 1; i >= 0; i-- {
		c.cleanups[i]()
	}
}

// A test that fails before any check (its agent returned an error), or
// outside checks that all passed, is in the results as a failed line of
// type "test", once a run however many Ts it made; a test with a failing
// check, a passing test and a parent whose subtest failed a check add
// none; a TB with no name writes "(unnamed test)".
func TestResultsOfATestFailingOutsideItsChecks(t *testing.T) {
	path := filepath.Join(t.TempDir(), "results.jsonl")
	t.Setenv("EVALKIT_REPORT", path)

	agentDown := &cleanupTB{name: "TestAgentDown"}
	evaltest.New(agentDown)
	evaltest.New(agentDown)
	agentDown.Errorf("agent: connection refused")
	agentDown.end()

	checked := &cleanupTB{name: "TestChecked"}
	evaltest.New(checked).Expect(chat("Your refund was issued.")).Contains("voucher")
	checked.end()

	passing := &cleanupTB{name: "TestPassing"}
	evaltest.New(passing)
	passing.end()

	sub := &cleanupTB{name: "TestParent/case_1"}
	evaltest.New(sub).Expect(chat("Your refund was issued.")).Contains("voucher")
	sub.end()
	parent := &cleanupTB{name: "TestParent"}
	evaltest.New(parent)
	parent.Errorf("a subtest failed")
	parent.end()

	unnamed := &cleanupTB{}
	evaltest.New(unnamed).Expect(chat("Your refund was issued.")).Contains("refund")

	// Checks that pass in a test that fails outside them.
	outside := &cleanupTB{name: "TestOutside"}
	evaltest.New(outside).Expect(chat("Your refund was issued.")).Contains("refund").ToolsNotCalled("delete_account")
	outside.Errorf("the agent's own error log is not empty")
	outside.end()

	// go test -count=2: the second run of a test is a test of its own.
	again := &cleanupTB{name: "TestAgentDown"}
	evaltest.New(again)
	again.Errorf("agent: connection refused")
	again.end()

	var got []string
	for _, l := range readLines(t, path) {
		if l.Kind == "check" {
			got = append(got, strings.Join([]string{l.Test, l.Type, l.Status, l.Check}, " | "))
		}
		if l.Type == "test" {
			got[len(got)-1] += " | " + l.Message
		}
	}
	assert.Equal(t, []string{
		"TestAgentDown | test | fail | (the test) | the test failed before it ran any check",
		`TestChecked | contains | fail | Contains("voucher")`,
		`TestParent/case_1 | contains | fail | Contains("voucher")`,
		`(unnamed test) | contains | pass | Contains("refund")`,
		`TestOutside | contains | pass | Contains("refund")`,
		`TestOutside | tools_not_called | pass | ToolsNotCalled("delete_account")`,
		"TestOutside | test | fail | (the test) | the test failed outside its checks (2 passed)",
		"TestAgentDown | test | fail | (the test) | the test failed before it ran any check",
	}, got)
}

// A cost is shown to six significant digits, in decimal: no float noise
// from a sum of prices, no exponent.
func TestResultsAttributeCost(t *testing.T) {
	for cost, want := range map[float64]string{0.1 + 0.2: "evalkit.001.cost_usd 0.3", 0.00001: "evalkit.001.cost_usd 0.00001", 12.3456789: "evalkit.001.cost_usd 12.3457"} {
		verdict := evalkit.Verdict{Score: 0.9, Scored: true, Model: "m", Usage: evalkit.Usage{CostUSD: cost}}
		tb := reportAttrs([]evaltest.Option{evaltest.WithJudge(judgefake.Fixed(verdict))}, func(et *evaltest.T) {
			et.Expect(refundRun()).Judge("States the amount", evalassert.MinScore(0.8))
		})
		assert.Contains(t, tb.attrs, want)
	}
}
