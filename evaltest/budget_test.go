package evaltest_test

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/anthropicjudge"
	evalassert "github.com/evalkit-go/evalkit/assert"
	"github.com/evalkit-go/evalkit/evaltest"
	"github.com/evalkit-go/evalkit/golden"
	"github.com/evalkit-go/evalkit/judgefake"
	"github.com/evalkit-go/evalkit/openaijudge"
)

const budgetVerdict = `{"reasoning": "States the amount.", "score": 9}`

// stepFailed begins the message of a judged step the budget stops.
const stepFailed = `Judge("States the refund amount", MinScore(0.50)): error: llm_judge: the judge failed: `

// priced is a reply of gpt-4.1-mini that costs 1000×$0.40/M + 100×$1.60/M
// = $0.000560.
func priced() judgefake.Reply {
	return judgefake.Reply{Text: budgetVerdict, InputTokens: 1000, OutputTokens: 100}
}

// openaiOver returns a live OpenAI judge talking to an in-memory fake.
func openaiOver(tr *judgefake.Transport, opts ...openaijudge.Option) evalkit.Judge {
	return openaijudge.New(append([]openaijudge.Option{openaijudge.WithBaseURL("http://judge.test/v1"),
		openaijudge.WithAPIKey("sk-test-budget-0000"), openaijudge.WithHTTPClient(tr.Client())}, opts...)...)
}

// judgedSteps runs n judged steps, each its own T named name, against
// judge, live (not recorded), and returns each step's messages.
func judgedSteps(name string, judge evalkit.Judge, n int) [][]string {
	var out [][]string
	for range n {
		tb := run(name, []evaltest.Option{evaltest.WithJudge(judge), evaltest.WithMode(golden.ModeLive)}, func(et *evaltest.T) {
			et.Expect(chat("Your refund of $42 was issued.")).Judge("States the refund amount", evalassert.MinScore(0.5))
		})
		out = append(out, tb.errors)
	}
	return out
}

// EVALKIT_MAX_JUDGE_CALLS counts HTTP attempts, retries included: the
// attempt past the budget is never sent, and every judged step after it
// is an error naming the budget and how it was spent — replayed and fake
// ones too.
func TestJudgeBudgetCalls(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		defer evaltest.SetJudgeBudget("3", "")()
		tr := judgefake.NewTransport(judgefake.Status(503), priced(), priced(), priced())
		judge := openaiOver(tr)
		steps := judgedSteps("TestRefund", judge, 2)
		assert.Equal(t, [][]string{nil, nil}, steps, "3 calls: a retried step and another")

		steps = judgedSteps("TestOther", judge, 1)
		spent := "3 HTTP calls made (1 retry), $0.001120 spent, 1 more refused; calls by test: TestRefund 3; every later judged step is an error (replayed verdicts are not counted)"
		assert.Equal(t, [][]string{{stepFailed + `openaijudge: 0 attempts: evaltest: judge budget exceeded: EVALKIT_MAX_JUDGE_CALLS=3 allows 3 HTTP calls to judges; ` +
			spent + "\ntranscript: 2 messages"}}, steps)
		assert.Len(t, tr.Requests(), 3, "the refused attempt is not sent")

		// Every later judged step, whatever its judge.
		tb := run("TestFake", []evaltest.Option{evaltest.WithJudge(judgefake.Pass())}, func(et *evaltest.T) {
			et.Expect(chat("Your refund of $42 was issued.")).Judge("States the refund amount", evalassert.MinScore(0.5)).Contains("refund")
		})
		assert.Equal(t, []string{stepFailed + `evaltest: judge budget exceeded: EVALKIT_MAX_JUDGE_CALLS=3 allows 3 HTTP calls to judges; ` +
			spent + "\ntranscript: 2 messages"}, tb.errors, "a fake's step errs; a check without a judge runs")
		assert.Len(t, tr.Requests(), 3)
	})
}

// A retry past the budget is not sent: the call fails with the attempt it
// made and the budget that stopped it.
func TestJudgeBudgetStopsRetries(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		defer evaltest.SetJudgeBudget("2", "")()
		tr := judgefake.NewTransport(judgefake.Status(503), judgefake.Status(503), priced())
		_, err := openaiOver(tr).Judge(t.Context(), evalkit.JudgeRequest{Criteria: "x", Content: "y"})
		require.NoError(t, err, "a context of the user's own is not metered")

		tr = judgefake.NewTransport(judgefake.Status(503), judgefake.Status(503), priced())
		steps := judgedSteps("TestRetry", openaiOver(tr), 1)
		require.Len(t, steps[0], 1)
		assert.True(t, strings.HasPrefix(steps[0][0], stepFailed+`openaijudge: 2 attempts: HTTP 503 Service Unavailable: judgefake: scripted 503 Service Unavailable; `+
			`not retrying: evaltest: judge budget exceeded: EVALKIT_MAX_JUDGE_CALLS=2 allows 2 HTTP calls to judges; 2 HTTP calls made (1 retry), $0.000000 spent, 1 more refused; calls by test: TestRetry 2;`), steps[0][0])
		assert.Len(t, tr.Requests(), 2)
	})
}

// EVALKIT_MAX_COST_USD: the reply that passes it is the last; its step is
// an error, as is every later one.
func TestJudgeBudgetCost(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		defer evaltest.SetJudgeBudget("", "0.001")()
		tr := judgefake.NewTransport(priced(), priced(), priced())
		steps := judgedSteps("TestCost", openaiOver(tr), 3)
		over := stepFailed + `evaltest: judge budget exceeded: EVALKIT_MAX_COST_USD=0.001 allows $0.001000; ` +
			"2 HTTP calls made (0 retries), $0.001120 spent; calls by test: TestCost 2; every later judged step is an error (replayed verdicts are not counted)\ntranscript: 2 messages"
		assert.Equal(t, [][]string{nil, {over}, {over}}, steps)
		assert.Len(t, tr.Requests(), 2)
	})
}

// Under a cost limit, a reply with no price exceeds the budget: its cost
// cannot be known, and the budget fails closed.
func TestJudgeBudgetUnpriced(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		defer evaltest.SetJudgeBudget("", "5")()
		tr := judgefake.NewTransport(judgefake.Reply{Text: budgetVerdict, Model: "qwen3:8b"})
		steps := judgedSteps("TestLocal", openaiOver(tr, openaijudge.WithModel("qwen3:8b")), 1)
		require.Len(t, steps[0], 1)
		assert.Contains(t, steps[0][0], `the judge failed: evaltest: judge budget exceeded: EVALKIT_MAX_COST_USD=5 cannot be kept: openaijudge has no price for model "qwen3:8b", so its cost is unknown (give the judge the model's price with WithPrices); 1 HTTP call made (0 retries), $0.000000 spent;`)
	})
}

// Both judges, alone and in a panel, count through the same budget.
func TestJudgeBudgetPanel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		defer evaltest.SetJudgeBudget("3", "")()
		otr := judgefake.NewTransport(priced(), priced())
		atr := judgefake.NewTransport(judgefake.Text(budgetVerdict), judgefake.Text(budgetVerdict))
		claude := anthropicjudge.New(anthropicjudge.WithBaseURL("http://judge.test"), anthropicjudge.WithAPIKey("sk-ant-test-budget-0000"),
			anthropicjudge.WithHTTPClient(atr.Client()))
		panel := evalkit.Panel([]evalkit.Judge{openaiOver(otr), claude}, evalkit.Mean)
		steps := judgedSteps("TestPanel", panel, 2)
		assert.Nil(t, steps[0])
		require.Len(t, steps[1], 1)
		assert.Contains(t, steps[1][0], "evaltest: judge budget exceeded: EVALKIT_MAX_JUDGE_CALLS=3 allows 3 HTTP calls to judges; 3 HTTP calls made (0 retries)")
		assert.Equal(t, 3, len(otr.Requests())+len(atr.Requests()))
	})
}

// Concurrent steps never exceed the budget together: of 20 steps at once
// with room for 8 calls, exactly 8 requests are sent.
func TestJudgeBudgetConcurrent(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		defer evaltest.SetJudgeBudget("8", "")()
		replies := make([]judgefake.Reply, 20)
		for i := range replies {
			replies[i] = priced()
		}
		tr := judgefake.NewTransport(replies...)
		judge := openaiOver(tr)
		var wg sync.WaitGroup
		var mu sync.Mutex
		failed := 0
		for range 20 {
			wg.Go(func() {
				steps := judgedSteps("TestConcurrent", judge, 1)
				mu.Lock()
				defer mu.Unlock()
				if len(steps[0]) > 0 {
					failed++
				}
			})
		}
		wg.Wait()
		assert.Len(t, tr.Requests(), 8)
		assert.Equal(t, 12, failed)
	})
}

// Replayed verdicts cost nothing and are not counted: with no calls
// allowed at all, a replay passes, and only the step that would call the
// live judge is refused.
func TestJudgeBudgetReplayNotCounted(t *testing.T) {
	isolate(t)
	live := &liveJudge{fake: judgefake.Pass()}
	step := func(et *evaltest.T) {
		et.Expect(chat("Your refund of $42 was issued.")).Judge("States the refund amount", evalassert.MinScore(0.5))
	}
	restore := evaltest.SetJudgeBudget("", "")
	tb := run("TestReplay", []evaltest.Option{evaltest.WithJudge(live), evaltest.WithMode(golden.ModeRecord)}, step)
	restore()
	require.Empty(t, tb.errors)

	defer evaltest.SetJudgeBudget("0", "")()
	tb = run("TestReplay", []evaltest.Option{evaltest.WithJudge(live)}, step)
	assert.Empty(t, tb.errors, "replayed under a budget of no calls")

	synctest.Test(t, func(t *testing.T) {
		tr := judgefake.NewTransport(priced())
		steps := judgedSteps("TestLive", openaiOver(tr), 1)
		require.Len(t, steps[0], 1)
		assert.Contains(t, steps[0][0], "the judge failed: openaijudge: 0 attempts: evaltest: judge budget exceeded: EVALKIT_MAX_JUDGE_CALLS=0 allows 0 HTTP calls to judges; 0 HTTP calls made (0 retries), $0.000000 spent, 1 more refused;")
		assert.Empty(t, tr.Requests())
	})
}

// A budget variable that is not a number >= 0 makes every judged step an
// error naming it: a typo must not lift the limit.
func TestJudgeBudgetSettings(t *testing.T) {
	tests := []struct{ calls, usd, want string }{
		{"abc", "", `evaltest: EVALKIT_MAX_JUDGE_CALLS="abc": want a whole number >= 0, the most HTTP calls this test binary's live judges may make`},
		{"-1", "", `EVALKIT_MAX_JUDGE_CALLS="-1"`},
		{"1.5", "", `EVALKIT_MAX_JUDGE_CALLS="1.5"`},
		{"1e3", "", `EVALKIT_MAX_JUDGE_CALLS="1e3"`},
		{"0x10", "", `EVALKIT_MAX_JUDGE_CALLS="0x10"`},
		{"+5", "", `EVALKIT_MAX_JUDGE_CALLS="+5"`},
		{"99999999999999999999", "", `EVALKIT_MAX_JUDGE_CALLS="99999999999999999999"`},
		{strings.Repeat("9", 5000), "", `EVALKIT_MAX_JUDGE_CALLS="` + strings.Repeat("9", 40) + `…"`},
		{"", "cheap", `evaltest: EVALKIT_MAX_COST_USD="cheap": want a number of US dollars >= 0, such as 0.50, the most this test binary's live judges may spend`},
		{"", "NaN", `EVALKIT_MAX_COST_USD="NaN"`},
		{"", "Inf", `EVALKIT_MAX_COST_USD="Inf"`},
		{"", "-0.5", `EVALKIT_MAX_COST_USD="-0.5"`},
		{"", "1e-3", `EVALKIT_MAX_COST_USD="1e-3"`},
		{"", "$1", `EVALKIT_MAX_COST_USD="$1"`},
		{"", ".5", `EVALKIT_MAX_COST_USD=".5"`},
		{"", "0x1p-2", `EVALKIT_MAX_COST_USD="0x1p-2"`},
		{"3", "1,5", `EVALKIT_MAX_COST_USD="1,5"`},
	}
	for i, tt := range tests {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			defer evaltest.SetJudgeBudget(tt.calls, tt.usd)()
			tb := run("TestSettings", []evaltest.Option{evaltest.WithJudge(judgefake.Pass())}, func(et *evaltest.T) {
				et.Expect(chat("Your refund of $42 was issued.")).Judge("States the refund amount", evalassert.MinScore(0.5))
			})
			require.Len(t, tb.errors, 1)
			assert.Contains(t, tb.errors[0], tt.want)
			assert.Less(t, len(tb.errors[0]), 400, "bounded")
		})
	}
	for _, ok := range [][2]string{{" 3 ", ""}, {"0", "0"}, {"", "0.50"}, {"", "12"}, {"1000000", "100.25"}} {
		restore := evaltest.SetJudgeBudget(ok[0], ok[1])
		tb := run("TestSettings", []evaltest.Option{evaltest.WithJudge(judgefake.Pass())}, func(et *evaltest.T) {
			et.Expect(chat("Your refund of $42 was issued.")).Judge("States the refund amount", evalassert.MinScore(0.5))
		})
		restore()
		assert.Empty(t, tb.errors, "%q", ok)
	}
}

// TestBudgetProbe makes two judged steps against a fake server; it runs
// only under TestJudgeBudgetEnvironment.
func TestBudgetProbe(t *testing.T) {
	if os.Getenv("EVALKIT_BUDGET_PROBE") == "" {
		t.Skip("run by TestJudgeBudgetEnvironment")
	}
	srv := judgefake.NewServer(priced(), priced())
	defer srv.Close()
	judge := openaijudge.New(openaijudge.WithBaseURL(srv.URL+"/v1"), openaijudge.WithAPIKey("sk-test-budget-0000"), openaijudge.WithMaxRetries(0))
	for i := range 2 {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			et := evaltest.New(t, evaltest.WithJudge(judge), evaltest.WithMode(golden.ModeLive))
			et.Expect(chat("Your refund of $42 was issued.")).Judge("States the refund amount", evalassert.MinScore(0.5))
		})
	}
}

// The budget is read from the environment once per test binary: the
// second step of a run allowed one call fails, naming the variable.
func TestJudgeBudgetEnvironment(t *testing.T) {
	for _, tt := range []struct{ env, want string }{
		{"EVALKIT_MAX_JUDGE_CALLS=1", "the judge failed: openaijudge: 0 attempts: evaltest: judge budget exceeded: EVALKIT_MAX_JUDGE_CALLS=1 allows 1 HTTP call to judges; 1 HTTP call made (0 retries), $0.000560 spent, 1 more refused; calls by test: TestBudgetProbe 1;"},
		{"EVALKIT_MAX_COST_USD=0.0005", "the judge failed: evaltest: judge budget exceeded: EVALKIT_MAX_COST_USD=0.0005 allows $0.000500; 1 HTTP call made (0 retries), $0.000560 spent; calls by test: TestBudgetProbe 1;"},
		{"EVALKIT_MAX_JUDGE_CALLS=many", `the judge failed: evaltest: EVALKIT_MAX_JUDGE_CALLS="many": want a whole number >= 0`},
	} {
		t.Run(tt.env, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^TestBudgetProbe$", "-test.v", "-test.count=1")
			cmd.Env = append(os.Environ(), "EVALKIT_BUDGET_PROBE=1", "EVALKIT_MAX_JUDGE_CALLS=", "EVALKIT_MAX_COST_USD=", "EVALKIT_REPORT=", tt.env)
			out, err := cmd.CombinedOutput()
			require.Error(t, err, "the run fails:\n%s", out)
			assert.Contains(t, string(out), tt.want)
			assert.Contains(t, string(out), "--- FAIL: TestBudgetProbe/1")
		})
	}
}
