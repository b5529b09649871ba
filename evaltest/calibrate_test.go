package evaltest_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	evalassert "github.com/evalkit-go/evalkit/assert"
	"github.com/evalkit-go/evalkit/calibrate"
	"github.com/evalkit-go/evalkit/evaltest"
	"github.com/evalkit-go/evalkit/judgefake"
	"github.com/evalkit-go/evalkit/openaijudge"
)

// logTB is fakeTB that also takes logs, as Calibrate writes its summary.
type logTB struct {
	*fakeTB
	logs []string
}

func (l *logTB) Logf(format string, args ...any) {
	l.logs = append(l.logs, fmt.Sprintf(format, args...))
}

func calibrated(body func(et *evaltest.T)) *logTB {
	tb := &logTB{fakeTB: &fakeTB{}}
	done := make(chan struct{})
	go func() {
		defer close(done)
		body(evaltest.New(tb))
	}()
	<-done
	return tb
}

// amountJudge passes a reply that states a dollar amount: the rule a
// careless judge might follow for "states the amount".
var amountJudge = judgefake.Rules{
	{Pattern: `\$\d`, Verdict: evalkit.Verdict{Passed: ptr(true), Reasoning: "states an amount"}},
	{Otherwise: true, Verdict: evalkit.Verdict{Passed: ptr(false), Reasoning: "no amount"}},
}

func ptr[T any](v T) *T { return &v }

func refundsGold(t *testing.T) *calibrate.Gold {
	t.Helper()
	gold, err := calibrate.Load("testdata/gold/refunds.jsonl")
	require.NoError(t, err)
	return gold
}

// Ten labelled replies: the judge agrees on 8 (TP 4, FN 1, FP 1, TN 4):
// accuracy 0.8, kappa (0.8 − 0.5)/(1 − 0.5) = 0.6, TPR 4/5, TNR 4/5; both
// canaries right. Krippendorff's alpha over the eight annotated replies,
// 0.517 among the three annotators and 0.392 with the judge as a fourth,
// is what a coincidence-matrix computation (Krippendorff 2011, section A)
// written apart from stats, in Python, gives. Gates at or under the figures pass; one above fails
// with the figures in its message.
func TestCalibrateGates(t *testing.T) {
	gold := refundsGold(t)
	var c *evaltest.Calibration
	tb := calibrated(func(et *evaltest.T) {
		c = evaltest.New(et.TB(), evaltest.WithJudge(amountJudge)).Calibrate(gold).
			AtLeastKappa(0.6).AtLeastAccuracy(0.8).AtLeastTPR(0.8).AtLeastTNR(0.8).AtLeastAlpha(0.39)
	})
	assert.Empty(t, tb.errors)
	assert.True(t, c.OK())
	r := c.Report()
	assert.Equal(t, 10, r.Judged)
	assert.Equal(t, [4]int{4, 1, 1, 4}, [4]int{r.Confusion.TP, r.Confusion.FN, r.Confusion.FP, r.Confusion.TN})
	assert.InDelta(t, 0.6, r.Kappa, 1e-12)
	require.Len(t, tb.logs, 1)
	assert.Equal(t, `Calibrate("refunds.jsonl"):
refunds.jsonl: 10 of 10 items judged
agreement: accuracy 0.800 (8 of 10), kappa 0.600, TPR 0.800 (4 of 5 passes), TNR 0.800 (4 of 5 fails)
confusion: people pass: judge pass 4, judge fail 1; people fail: judge pass 1, judge fail 4
annotators: 3; Krippendorff's alpha 0.392 with the judge, 0.517 among themselves
canaries: 2 of 2 as they must be`, tb.logs[0])

	tb = calibrated(func(et *evaltest.T) {
		c = evaltest.New(et.TB(), evaltest.WithJudge(amountJudge)).Calibrate(gold).AtLeastKappa(0.61).AtLeastTNR(0.8)
	})
	assert.False(t, c.OK())
	assert.Equal(t, []string{`Calibrate("refunds.jsonl").AtLeastKappa(0.61): kappa 0.600, want >= 0.61`}, tb.errors)
}

// Four failing gates print the summary once (Calibrate's log) and four
// lines, each naming its figure, the figure's value and its bar — not the
// summary again under each gate. The results file keeps every figure on
// each gate's entry.
func TestCalibrateFailingGatesPrintSummaryOnce(t *testing.T) {
	gold := refundsGold(t)
	tb := calibrated(func(et *evaltest.T) {
		evaltest.New(et.TB(), evaltest.WithJudge(amountJudge)).Calibrate(gold).
			AtLeastKappa(0.9).AtLeastAccuracy(0.9).AtLeastTPR(0.9).AtLeastTNR(0.9)
	})
	require.Len(t, tb.logs, 1)
	assert.Equal(t, 1, strings.Count(tb.logs[0], "agreement: "), tb.logs[0])
	assert.Equal(t, []string{
		`Calibrate("refunds.jsonl").AtLeastKappa(0.90): kappa 0.600, want >= 0.90`,
		`Calibrate("refunds.jsonl").AtLeastAccuracy(0.90): accuracy 0.800, want >= 0.90`,
		`Calibrate("refunds.jsonl").AtLeastTPR(0.90): TPR 0.800, want >= 0.90`,
		`Calibrate("refunds.jsonl").AtLeastTNR(0.90): TNR 0.800, want >= 0.90`,
	}, tb.errors)
}

// A judge that passes everything looks 50% accurate and perfectly
// sensitive; the known-bad canary catches it, and so does kappa.
func TestCalibrateAlwaysPassJudgeFailsItsCanary(t *testing.T) {
	gold := refundsGold(t)
	tb := calibrated(func(et *evaltest.T) {
		evaltest.New(et.TB(), evaltest.WithJudge(judgefake.Pass())).Calibrate(gold).AtLeastKappa(0.6)
	})
	require.Len(t, tb.errors, 2)
	assert.Equal(t, `Calibrate("refunds.jsonl"): 1 of 2 canaries wrong
canary: "canary-bad": the judge passed a known-bad answer`, tb.errors[0])
	assert.Equal(t, `Calibrate("refunds.jsonl").AtLeastKappa(0.60): kappa 0.000, want >= 0.60`, tb.errors[1])
	require.Len(t, tb.logs, 1)
	assert.Contains(t, tb.logs[0], "\nagreement: accuracy 0.500 (5 of 10), kappa 0.000, TPR 1.000 (5 of 5 passes), TNR 0.000 (0 of 5 fails)\n")

	// Every canary: a judge that fails everything is caught the other way.
	tb = calibrated(func(et *evaltest.T) {
		evaltest.New(et.TB(), evaltest.WithJudge(judgefake.Fail("no"))).Calibrate(gold)
	})
	require.Len(t, tb.errors, 1)
	assert.Contains(t, tb.errors[0], `canary: "canary-good": the judge failed a known-good answer`)
}

// An item the judge cannot judge is an evaluation error, left out of the
// figures, never counted as a pass or a fail; a figure that cannot be
// computed fails its gate, saying why.
func TestCalibrateErrorsAndUndefinedFigures(t *testing.T) {
	gold := refundsGold(t)
	flaky := append(judgefake.Rules{{Keyword: "PayPal", Err: errors.New("HTTP 503")}}, amountJudge...)
	var c *evaltest.Calibration
	tb := calibrated(func(et *evaltest.T) {
		c = evaltest.New(et.TB(), evaltest.WithJudge(flaky)).Calibrate(gold).MaxMeanScoreDiff(0.2)
	})
	require.Len(t, tb.errors, 2)
	assert.Equal(t, `Calibrate("refunds.jsonl"): error: 1 of 10 items could not be judged (left out of the figures); item "r08": llm_judge: the judge failed: HTTP 503`, tb.errors[0])
	assert.True(t, strings.HasPrefix(tb.errors[1], `Calibrate("refunds.jsonl").MaxMeanScoreDiff(0.20): mean score difference undefined: no judged item has a human score`), tb.errors[1])
	assert.Equal(t, 9, c.Report().Judged)
	assert.Equal(t, 0, c.Report().Confusion.FN, "r08 (people pass, judge would fail) is out")

	tb = calibrated(func(et *evaltest.T) { et.Calibrate(gold).AtLeastKappa(0.5) })
	require.Len(t, tb.errors, 1)
	assert.Equal(t, `Calibrate("refunds.jsonl"): error: no judge: give evaltest.New the option evaltest.WithJudge(j)`, tb.errors[0])
	tb = calibrated(func(et *evaltest.T) {
		evaltest.New(et.TB(), evaltest.WithJudge(amountJudge)).Calibrate(nil).AtLeastKappa(0.5)
	})
	require.Len(t, tb.errors, 1)
	assert.Equal(t, `Calibrate(<nil>): error: no gold set: load one with calibrate.Load`, tb.errors[0])
}

// pandaItem is one comparison of PandaLM's human-annotated test set
// (testdata/pandalm/testset-v1.json): two responses to an instruction,
// and three annotators' choice — 1, 2, or 0 for a tie.
type pandaItem struct {
	Idx         int     `json:"idx"`
	Instruction string  `json:"instruction"`
	Input       *string `json:"input"`
	Response1   string  `json:"response1"`
	Response2   string  `json:"response2"`
	Annotator1  int     `json:"annotator1"`
	Annotator2  int     `json:"annotator2"`
	Annotator3  int     `json:"annotator3"`
}

// pandaVerdict is GPT-3.5-turbo's published judgment of the same
// comparison (testdata/pandalm/gpt-3.5-turbo-testset-v1.json): "1", "2"
// or "Tie", and why.
type pandaVerdict struct {
	Idx    int    `json:"idx"`
	Result string `json:"gpt_result"`
	Reason string `json:"gpt_reason"`
}

// readPanda reads a PandaLM file as published: a JSON array in which a
// missing input is written NaN, which is not JSON.
func readPanda[T any](t *testing.T, path string) []T {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var out []T
	require.NoError(t, json.Unmarshal([]byte(strings.ReplaceAll(string(data), ": NaN", ": null")), &out))
	return out
}

const pandaCriteria = "Which response follows the instruction better: answer 1 for Response 1, 2 for Response 2, Tie when they are of similar quality"

func pandaContent(it pandaItem) string {
	return "Response 1:\n" + it.Response1 + "\n\nResponse 2:\n" + it.Response2
}

// pandaJudge is openaijudge with gpt-3.5-turbo, asked only when verdicts
// are recorded: it then answers from a fake OpenAI server serving
// GPT-3.5-turbo's published judgment of the comparison asked about, as the
// JSON object openaijudge asks for ({"reasoning", "label"}): the recording
// holds openaijudge's reading of GPT-3.5's verdicts. Replaying needs no
// server.
type pandaJudge struct {
	verdicts map[string]pandaVerdict // by content judged
	calls    atomic.Int64
}

func (j *pandaJudge) Identity() evalkit.Identity {
	return openaijudge.New(openaijudge.WithModel("gpt-3.5-turbo")).Identity()
}

func (j *pandaJudge) Judge(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
	j.calls.Add(1)
	v, ok := j.verdicts[req.Content]
	if !ok {
		return evalkit.Verdict{}, fmt.Errorf("no GPT-3.5 judgment for %.40q", req.Content)
	}
	answer, _ := json.Marshal(map[string]string{"reasoning": v.Reason, "label": v.Result})
	srv := judgefake.NewServer(judgefake.Reply{Text: string(answer), Model: "gpt-3.5-turbo-0301"})
	defer srv.Close()
	live := openaijudge.New(openaijudge.WithModel("gpt-3.5-turbo"), openaijudge.WithBaseURL(srv.URL+"/v1"),
		openaijudge.WithAPIKey("sk-fake-pandalm-000000"), openaijudge.WithHTTPClient(srv.Client()))
	out, err := live.Judge(ctx, req)
	if err == nil {
		err = srv.Err()
	}
	return out, err
}

// TestCalibratePandaLM calibrates GPT-3.5-turbo against people on the
// first 100 comparisons of PandaLM's human-annotated test set (Apache-2.0;
// see testdata/README.md), each read as a pass/fail question — "is
// Response 1 better?" — that three annotators answered (their majority is
// the people's verdict) and GPT-3.5-turbo answered with its published
// judgment, recorded through openaijudge in
// testdata/evalkit/TestCalibratePandaLM.judge.json and replayed here.
// The figures match a count made by hand from the two files: GPT-3.5
// agrees with the people on 82 of 100 (kappa 0.642), finds 40 of the 45
// comparisons people gave to Response 1 (TPR 0.889) and rejects 42 of 55
// (TNR 0.764): it leans towards the first response, as LLM judges are
// known to (Zheng et al., 2023, position bias). Re-record with
// EVALKIT_MODE=refresh go test ./evaltest -run '^TestCalibratePandaLM$'.
func TestCalibratePandaLM(t *testing.T) {
	items := readPanda[pandaItem](t, "../testdata/pandalm/testset-v1.json")
	published := readPanda[pandaVerdict](t, "../testdata/pandalm/gpt-3.5-turbo-testset-v1.json")
	require.Len(t, items, 100)
	require.Len(t, published, 100)

	// The hand count: straight from the files, no evalkit.
	var tp, fn, fp, tn float64
	judge := &pandaJudge{verdicts: map[string]pandaVerdict{}}
	var gold []calibrate.Item
	for i, it := range items {
		require.Equal(t, it.Idx, published[i].Idx)
		first := 0
		for _, a := range []int{it.Annotator1, it.Annotator2, it.Annotator3} {
			if a == 1 {
				first++
			}
		}
		people, gpt := first >= 2, published[i].Result == "1"
		switch {
		case people && gpt:
			tp++
		case people:
			fn++
		case gpt:
			fp++
		default:
			tn++
		}
		input := it.Instruction
		if it.Input != nil && *it.Input != "" {
			input += "\n\n" + *it.Input
		}
		label := func(a int) string {
			if a == 1 {
				return "pass"
			}
			return "fail"
		}
		gold = append(gold, calibrate.Item{ID: fmt.Sprintf("pandalm-%d", it.Idx), Criteria: pandaCriteria, Input: input, Content: pandaContent(it),
			Annotators: map[string]string{"annotator1": label(it.Annotator1), "annotator2": label(it.Annotator2), "annotator3": label(it.Annotator3)}})
		judge.verdicts[pandaContent(it)] = published[i]
	}
	n := tp + fn + fp + tn
	po := (tp + tn) / n
	pe := (tp+fn)/n*(tp+fp)/n + (fp+tn)/n*(fn+tn)/n
	handKappa, handTPR, handTNR := (po-pe)/(1-pe), tp/(tp+fn), tn/(tn+fp)
	assert.Equal(t, [4]float64{40, 5, 13, 42}, [4]float64{tp, fn, fp, tn})

	set, err := calibrate.New("pandalm-100", gold)
	require.NoError(t, err)
	opts := []evalassert.JudgeOption{evalassert.PassingLabels("1"), evalassert.OfferedLabels("1", "2", "Tie")}
	c := evaltest.New(t, evaltest.WithJudge(judge)).Calibrate(set, opts...).
		AtLeastKappa(0.6).AtLeastAccuracy(0.8).AtLeastTPR(0.85).AtLeastTNR(0.7)
	r := c.Report()
	assert.InDelta(t, handKappa, r.Kappa, 1e-12)
	assert.InDelta(t, handTPR, r.TPR, 1e-12)
	assert.InDelta(t, handTNR, r.TNR, 1e-12)
	assert.InDelta(t, 0.82, r.Accuracy, 1e-12)
	assert.InDelta(t, 0.6421, r.Kappa, 5e-5)
	assert.Equal(t, 3, r.Annotators)
	assert.Greater(t, r.HumanAlpha, r.Alpha, "the annotators agree among themselves more than with GPT-3.5")
	if mode := os.Getenv("EVALKIT_MODE"); mode == "" || mode == "replay" {
		assert.Zero(t, judge.calls.Load(), "replay asks no judge")
	}

	// A bar GPT-3.5 does not reach fails, naming the figure and the
	// recording its verdicts came from.
	tb := &capturingTB{TB: t}
	evaltest.New(tb, evaltest.WithJudge(judge)).Calibrate(set, opts...).AtLeastTNR(0.9)
	require.Len(t, tb.errors, 1)
	assert.Equal(t, `Calibrate("pandalm-100", PassingLabels("1"), OfferedLabels("1", "2", "Tie")).AtLeastTNR(0.90): TNR 0.764, want >= 0.90`, tb.errors[0])
	require.Len(t, tb.logs, 1)
	assert.True(t, strings.HasPrefix(tb.logs[0], `Calibrate("pandalm-100", PassingLabels("1"), OfferedLabels("1", "2", "Tie")):
pandalm-100: 100 of 100 items judged
agreement: accuracy 0.820 (82 of 100), kappa 0.642, TPR 0.889 (40 of 45 passes), TNR 0.764 (42 of 55 fails)
confusion: people pass: judge pass 40, judge fail 5; people fail: judge pass 13, judge fail 42
annotators: 3; Krippendorff's alpha `), tb.logs[0])
	assert.Contains(t, tb.logs[0], "\njudge: gpt-3.5-turbo-0301 (replayed testdata/evalkit/TestCalibratePandaLM.judge.json)")
}

// capturingTB is the test's own TB with failures and logs kept, not reported.
type capturingTB struct {
	testing.TB
	errors []string
	logs   []string
}

func (c *capturingTB) Logf(format string, args ...any) {
	c.logs = append(c.logs, fmt.Sprintf(format, args...))
}

func (c *capturingTB) Errorf(format string, args ...any) {
	c.errors = append(c.errors, fmt.Sprintf(format, args...))
}

// A judge whose kappa is exactly the bar meets it: people pass one of
// three answers, the judge passes it and one other, κ = 0.4 exactly
// ((p_o − p_e)/(1 − p_e) in float64 gave 0.39999999999999997, and the
// gate failed with "kappa 0.400, want >= 0.40").
func TestCalibrateKappaAtTheBar(t *testing.T) {
	gold, err := calibrate.New("three", []calibrate.Item{
		{ID: "a", Criteria: "States the amount", Content: "Refund of $42.", Label: "pass"},
		{ID: "b", Criteria: "States the amount", Content: "Refund of $0 fee waived, amount to follow.", Label: "fail"},
		{ID: "c", Criteria: "States the amount", Content: "Refund issued.", Label: "fail"},
	})
	require.NoError(t, err)
	tb := calibrated(func(et *evaltest.T) {
		evaltest.New(et.TB(), evaltest.WithJudge(amountJudge)).Calibrate(gold).AtLeastKappa(0.4)
	})
	assert.Empty(t, tb.errors)
}

// A gate's bar outside its range — NaN above all, which no figure is below
// — is an evaluation error naming it, never a gate that passes:
// AtLeastKappa(math.NaN()) passed a judge that failed every item.
func TestCalibrateBadBars(t *testing.T) {
	gold := refundsGold(t)
	tb := calibrated(func(et *evaltest.T) {
		evaltest.New(et.TB(), evaltest.WithJudge(judgefake.Fail("no"))).Calibrate(gold, evalassert.MinScore(0.5)).
			AtLeastKappa(math.NaN()).AtLeastTNR(1.5).AtLeastAccuracy(-0.1).AtLeastAlpha(-2).MaxMeanScoreDiff(math.NaN())
	})
	require.Len(t, tb.errors, 6, "the canary, then every bar")
	assert.Equal(t, []string{
		`Calibrate("refunds.jsonl", MinScore(0.50)).AtLeastKappa(NaN): error: the bar NaN is outside [-1,1], where kappa lies`,
		`Calibrate("refunds.jsonl", MinScore(0.50)).AtLeastTNR(1.50): error: the bar 1.5 is outside [0,1], where TNR lies`,
		`Calibrate("refunds.jsonl", MinScore(0.50)).AtLeastAccuracy(-0.10): error: the bar -0.1 is outside [0,1], where accuracy lies`,
		`Calibrate("refunds.jsonl", MinScore(0.50)).AtLeastAlpha(-2.00): error: the bar -2 is outside [-1,1], where alpha lies`,
		`Calibrate("refunds.jsonl", MinScore(0.50)).MaxMeanScoreDiff(NaN): error: the bar NaN is outside [0,1], where a mean absolute score difference lies`,
	}, tb.errors[1:])
}
