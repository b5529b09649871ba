package evalkit_test

import (
	"encoding/json"
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
	"github.com/evalkit-go/evalkit/golden"
	"github.com/evalkit-go/evalkit/internal/results"
	"github.com/evalkit-go/evalkit/judgefake"
	"github.com/evalkit-go/evalkit/judgeset"
)

// tauJudgeReplies are what judgefake's server answers the judged evals of
// testdata/cases/tau_judged.yaml, in the order RunCases asks them.
var tauJudgeReplies = []judgefake.Reply{
	judgefake.Text(`{"reasoning": "Looks the user's reservations up by id, asks which to cancel, and cancels after a yes.", "score": 9}`),
	judgefake.Text(`{"reasoning": "Says the refund goes to the original payment method.", "score": 8}`),
	judgefake.Text(`{"reasoning": "Never looks the reservation up from the user id it could have asked for; the user leaves without a cancellation.", "score": 2}`),
	judgefake.Text(`{"reasoning": "Finds the user by email and reads the order before cancelling.", "score": 9}`),
}

// TestTauJudgedCases runs testdata/cases/tau_judged.yaml over the real
// τ-bench runs it names, with the judge set of testdata/judges/tau.yaml,
// in $PROBE_DIR (its recording and results are written there). In record
// mode the set's providers are a judgefake server, with keys; in replay
// there is no server and no key. One case fails, as its run did in
// τ-bench, so it runs only inside TestTauJudgedCaseFile.
func TestTauJudgedCases(t *testing.T) {
	if os.Getenv("EVALKIT_TAU_JUDGED") == "" {
		t.Skip("run by TestTauJudgedCaseFile")
	}
	byName := map[string]*evalkit.Transcript{}
	for _, run := range loadTauBench(t) {
		byName[run.name] = run.tr
	}
	mode, err := evaltest.Mode()
	require.NoError(t, err)
	var opts []judgeset.Option
	var srv *judgefake.Server
	if mode == golden.ModeRecord {
		srv = judgefake.NewServer(tauJudgeReplies...)
		defer srv.Close()
		keys := map[string]string{"EVALKIT_TAU_OPENAI_KEY": "sk-tau-openai-00000000", "EVALKIT_TAU_ANTHROPIC_KEY": "sk-ant-tau-00000000"}
		opts = append(opts, judgeset.WithBaseURL("openai", srv.URL+"/v1"), judgeset.WithBaseURL("anthropic", srv.URL),
			judgeset.WithGetenv(func(name string) string { return keys[name] }))
	}
	set, err := judgeset.Load("testdata/judges/tau.yaml", opts...)
	require.NoError(t, err)
	t.Chdir(os.Getenv("PROBE_DIR"))
	evaltest.RunCases(t, "testdata/cases/tau_judged.yaml", func(et *evaltest.T, c evaltest.Case) *evalkit.Transcript {
		return byName[fmt.Sprint(c.Vars["run"])]
	}, evaltest.WithJudgeSet(set))
	if srv != nil {
		assert.Len(t, srv.Requests(), len(tauJudgeReplies), "one call per judged eval")
		assert.NoError(t, srv.Err())
	}
}

// A config-file judge set with two judges and their variants drives a case
// file over real τ-bench runs, through real HTTP to judgefake's server in
// record mode and with no server and no key in replay: the failing case's
// message names its judge, variant, provider, model and effective
// settings, and where the verdict came from; the recording's entries name
// their judges, four settings under four keys; the results file carries
// each verdict's provenance.
func TestTauJudgedCaseFile(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the test binary twice")
	}
	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "testdata", "cases"), 0o755))
	data, err := os.ReadFile("testdata/cases/tau_judged.yaml")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "testdata", "cases", "tau_judged.yaml"), data, 0o644))
	probe := func(mode string) (string, []results.Line) {
		report := filepath.Join(dir, mode+".jsonl")
		cmd := exec.Command(os.Args[0], "-test.run=^TestTauJudgedCases$", "-test.v", "-test.count=1")
		cmd.Env = append(os.Environ(), "EVALKIT_TAU_JUDGED=1", "PROBE_DIR="+dir, "EVALKIT_MODE="+mode, "EVALKIT_REPORT="+report,
			"EVALKIT_SHARD=", "EVALKIT_TAU_OPENAI_KEY=", "EVALKIT_TAU_ANTHROPIC_KEY=", "EVALKIT_USAGE_DIR="+filepath.Join(dir, "usage"))
		out, err := cmd.CombinedOutput()
		require.Error(t, err, "the case of the unrewarded run fails:\n%s", out)
		lines, err := results.ReadFile(report)
		require.NoError(t, err)
		return string(out), lines
	}
	src, err := os.ReadFile("tau_judged_test.go")
	require.NoError(t, err)
	at := ""
	for i, l := range strings.Split(string(src), "\n") {
		if at == "" && strings.Contains(l, `evaltest.RunCases(t, "testdata/cases/tau_judged.yaml"`) {
			at = fmt.Sprintf("tau_judged_test.go:%d: ", i+1)
		}
	}
	failure := func(how, hint string) string {
		return at + `testdata/cases/tau_judged.yaml:29: Eval("assertion", {"eval_params":{"criteria":"Finds the booking by user id; cancels on a yes"},"eval_type":"llm_judge_session","min_score":0.7}): score 0.20, want >= 0.70
        reasoning: Never looks the reservation up from the user id it could have asked for; the user leaves without a cancellation.
        raw score: 2 on 0–10
        judge: strict/cheap (openai gpt-4.1-mini, seed 7, temperature 0) (` + how + ` testdata/evalkit/TestTauJudgedCases.judge.json)
        transcript: 12 messages` + hint
	}

	out, recorded := probe("record")
	assert.Contains(t, out, failure("recorded", ""), out)
	assert.Contains(t, out, "--- PASS: TestTauJudgedCases/airline_task_1_trial_1:_finds_and_cancels_the_trip")
	assert.Contains(t, out, "--- FAIL: TestTauJudgedCases/airline_task_1_trial_0:_gives_up_on_the_reservation")
	assert.Contains(t, out, "--- PASS: TestTauJudgedCases/retail_line_3:_cancels_the_pending_order")

	f, err := golden.Load(filepath.Join(dir, "testdata", "evalkit", "TestTauJudgedCases.judge.json"))
	require.NoError(t, err)
	entries := map[string]golden.Entry{}
	for _, e := range f.Entries {
		entries[e.Request.Judge] = e
	}
	require.Len(t, entries, 4, "four judges and variants, four keys")
	for ref, want := range map[string]string{
		"strict":       `{"provider":"openai","model":"gpt-4.1","settings":{"seed":7,"temperature":0},"prompt_version":"evalkit-judge/1"}`,
		"strict/warm":  `{"provider":"openai","model":"gpt-4.1","settings":{"seed":7,"temperature":0.7},"prompt_version":"evalkit-judge/1"}`,
		"strict/cheap": `{"provider":"openai","model":"gpt-4.1-mini","settings":{"seed":7,"temperature":0},"prompt_version":"evalkit-judge/1"}`,
		"claude/haiku": `{"provider":"anthropic","model":"claude-haiku-4-5","settings":{"max_tokens":512,"temperature":0},"prompt_version":"evalkit-judge/1"}`,
	} {
		require.Contains(t, entries, ref)
		assert.JSONEq(t, want, jsonOf(t, entries[ref].Judge), ref)
	}
	assert.Equal(t, evalkit.ContentToolCalls, entries["claude/haiku"].Request.Kind)

	out, replayed := probe("replay")
	assert.Contains(t, out, failure("replayed", "\n        hint: EVALKIT_MODE=refresh go test -run '^TestTauJudgedCases$'   # re-judge against the live judge"), out)
	assert.NotContains(t, out, "API key", "replay asks for no key")

	for _, lines := range [][]results.Line{recorded, replayed} {
		var provs []string
		for _, l := range lines {
			if l.Kind == results.KindCheck && l.Provenance != nil {
				p := l.Provenance
				provs = append(provs, fmt.Sprintf("%s %s/%s %s %s %v tokens>0:%v", l.Status, p.Name, p.Variant, p.Provider, p.Model, p.Settings, l.Tokens > 0))
			}
		}
		assert.ElementsMatch(t, []string{
			"pass strict/ openai gpt-4.1 map[seed:7 temperature:0] tokens>0:true",
			"pass strict/warm openai gpt-4.1 map[seed:7 temperature:0.7] tokens>0:true",
			"fail strict/cheap openai gpt-4.1-mini map[seed:7 temperature:0] tokens>0:true",
			"pass claude/haiku anthropic claude-haiku-4-5 map[max_tokens:512 temperature:0] tokens>0:true",
		}, provs)
	}
}

// jsonOf is v as JSON.
func jsonOf(t *testing.T, v any) string {
	t.Helper()
	data, err := json.Marshal(v)
	require.NoError(t, err)
	return string(data)
}
