package evaltest_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	evalassert "github.com/evalkit-go/evalkit/assert"
	"github.com/evalkit-go/evalkit/evaltest"
	"github.com/evalkit-go/evalkit/golden"
	"github.com/evalkit-go/evalkit/internal/results"
	"github.com/evalkit-go/evalkit/judgefake"
	"github.com/evalkit-go/evalkit/judgeset"
)

// judgesConfig declares two judges with variants; tests send them to a
// judgefake server.
const judgesConfig = `
default: strict
judges:
  strict:
    provider: openai
    model: gpt-4.1
    api_key_env: EVALTEST_OPENAI_KEY
    settings: {max_tokens: 400}
    variants:
      cheap: {model: gpt-4.1-mini}
      warm: {settings: {temperature: 0.7}}
  claude:
    provider: anthropic
    model: claude-sonnet-4-5
    api_key_env: EVALTEST_ANTHROPIC_KEY
    variants:
      haiku: {model: claude-haiku-4-5}
`

// realJudges is judgesConfig's set, its providers at baseURL, with keys or
// without.
func realJudges(t *testing.T, baseURL string, withKeys bool) *judgeset.Set {
	t.Helper()
	keys := map[string]string{}
	if withKeys {
		keys = map[string]string{"EVALTEST_OPENAI_KEY": "sk-evaltest-openai-000000", "EVALTEST_ANTHROPIC_KEY": "sk-ant-evaltest-000000"}
	}
	set, err := judgeset.Parse("judges.yaml", []byte(judgesConfig), judgeset.WithGetenv(func(name string) string { return keys[name] }),
		judgeset.WithBaseURL("openai", baseURL+"/v1"), judgeset.WithBaseURL("anthropic", baseURL))
	require.NoError(t, err)
	return set
}

// A config-file judge set through a real HTTP server: each failure names
// its judge, variant, provider, model and effective settings, and where
// the verdict came from; replayed with no server and no key, the same.
// The recording's entries and the results file carry the provenance too.
func TestJudgeSetProvenance(t *testing.T) {
	isolate(t)
	report := filepath.Join(t.TempDir(), "results.jsonl")
	t.Setenv("EVALKIT_REPORT", report)
	srv := judgefake.NewServer(
		judgefake.Text(`{"reasoning": "the reply never states the amount", "score": 3}`),
		judgefake.Text(`{"reasoning": "polite, and thanks the user", "score": 9}`))
	steps := func(et *evaltest.T) {
		et.Expect(nineMessages()).
			Judge("Confirms the refund and states the amount", evalassert.UseJudge("strict", "cheap"), evalassert.MinScore(0.8)).
			Eval("assertion", map[string]any{"eval_type": "llm_judge", "min_score": 0.95,
				"eval_params": map[string]any{"criteria": "Is polite", "judge": "claude", "variant": "haiku"}})
	}
	want := func(how, hint string) []string {
		return []string{
			`Judge("Confirms the refund and states the a…", UseJudge("strict", "cheap"), MinScore(0.80)): score 0.30, want >= 0.80
reasoning: the reply never states the amount
raw score: 3 on 0–10
judge: strict/cheap (openai gpt-4.1-mini, max_tokens 400, seed 1, temperature 0) (` + how + ` testdata/evalkit/TestRefund.judge.json)
transcript: 9 messages` + hint,
			`Eval("assertion", {"eval_params":{"criteria":"Is polite","judge":"claude","variant":"haiku"},"eval_type":"llm_judge","min_score":0.95}): score 0.90, want >= 0.95
reasoning: polite, and thanks the user
raw score: 9 on 0–10
judge: claude/haiku (anthropic claude-haiku-4-5, max_tokens 1024, temperature 0) (` + how + ` testdata/evalkit/TestRefund.judge.json)
transcript: 9 messages` + hint,
		}
	}

	tb := run("TestRefund", []evaltest.Option{evaltest.WithJudgeSet(realJudges(t, srv.URL, true)), evaltest.WithMode(golden.ModeRecord)}, steps)
	assert.Equal(t, want("recorded", ""), tb.errors)
	var named []string
	for _, a := range tb.attrs {
		if k, _, _ := strings.Cut(a, " "); strings.HasSuffix(k, ".judge") || strings.HasSuffix(k, ".judge_name") || strings.HasSuffix(k, ".cost_usd") {
			named = append(named, a)
		}
	}
	assert.Equal(t, []string{
		"evalkit.001.judge gpt-4.1-mini", "evalkit.001.judge_name strict/cheap", "evalkit.001.cost_usd 0.0002124",
		"evalkit.002.judge claude-haiku-4-5", "evalkit.002.judge_name claude/haiku", "evalkit.002.cost_usd 0.000529",
	}, named, "attributes name the judge as its set does")
	require.Len(t, srv.Requests(), 2)
	assert.Equal(t, "/v1/chat/completions", srv.Requests()[0].Path)
	assert.Equal(t, "/v1/messages", srv.Requests()[1].Path)
	require.NoError(t, srv.Err())
	srv.Close()

	// Replay: the server is gone and no key is set.
	tb = run("TestRefund", []evaltest.Option{evaltest.WithJudgeSet(realJudges(t, srv.URL, false))}, steps)
	assert.Equal(t, want("replayed", "\nhint: EVALKIT_MODE=refresh go test -run '^TestRefund$'   # re-judge against the live judge"), tb.errors)

	f, err := golden.Load("testdata/evalkit/TestRefund.judge.json")
	require.NoError(t, err)
	require.Len(t, f.Entries, 2)
	byJudge := map[string]golden.Entry{}
	for _, e := range f.Entries {
		byJudge[e.Request.Judge] = e
	}
	require.Contains(t, byJudge, "strict/cheap")
	require.Contains(t, byJudge, "claude/haiku")
	assert.Equal(t, "gpt-4.1-mini", byJudge["strict/cheap"].Judge.Model)
	assert.Equal(t, "anthropic", byJudge["claude/haiku"].Judge.Provider)
	assert.Equal(t, "Confirms the refund and states the amount", byJudge["strict/cheap"].Request.Criteria)

	lines, err := results.ReadFile(report)
	require.NoError(t, err)
	var provs []results.Provenance
	for _, l := range lines {
		if l.Kind == results.KindCheck {
			require.NotNil(t, l.Provenance, l.Check)
			assert.Positive(t, l.Tokens, "usage travels with the verdict")
			provs = append(provs, *l.Provenance)
		}
	}
	require.Len(t, provs, 4, "two checks, recorded then replayed")
	for _, p := range provs[2:] {
		assert.NotEmpty(t, p.Raw)
	}
	assert.Equal(t, results.Provenance{Name: "strict", Variant: "cheap", Provider: "openai", Model: "gpt-4.1-mini",
		Settings: map[string]any{"max_tokens": 400.0, "seed": 1.0, "temperature": 0.0}, PromptVersion: "evalkit-judge/1",
		Raw: `{"reasoning": "the reply never states the amount", "score": 3}`}, provs[2])
	assert.Equal(t, "claude/haiku", provs[3].Name+"/"+provs[3].Variant)
}

// fakeJudges is a judge set of fakes that fail with their own name, so a
// message says which judge was asked, and count how often each is built.
func fakeJudges(t *testing.T, def string) (*judgeset.Set, *sync.Map) {
	t.Helper()
	built := &sync.Map{}
	set, err := judgeset.New([]judgeset.Spec{
		{Name: "strict", Provider: "fake", Variants: []judgeset.Variant{{Name: "cheap"}}},
		{Name: "lenient", Provider: "fake"},
	}, judgeset.WithProvider("fake", func(c judgeset.Config) (evalkit.Judge, error) {
		n, _ := built.LoadOrStore(c.Name+"/"+c.Variant, new(int))
		*n.(*int)++
		return judgefake.Fail("asked " + c.Name + "/" + c.Variant), nil
	}), judgeset.WithDefault(def))
	require.NoError(t, err)
	return set, built
}

// Which judge a judged step asks: the one it names; else
// WithDefaultJudge's, WithJudge's, the set's default; a variant alone is
// the default judge's. Unknown names are errors listing what exists.
func TestJudgeSetSelection(t *testing.T) {
	set, built := fakeJudges(t, "strict")
	noDefault, _ := fakeJudges(t, "")
	tr := chat("Your refund was issued.")
	judge := func(opts []evaltest.Option, params map[string]any) []string {
		tb := &fakeTB{}
		done := make(chan struct{})
		go func() {
			defer close(done)
			evaltest.New(tb, opts...).Expect(tr).Eval("llm_judge", params)
		}()
		<-done
		return tb.errors
	}
	withTB := func(opts ...evaltest.Option) []evaltest.Option { return opts }
	criteria := func(extra ...string) map[string]any {
		p := map[string]any{"criteria": "Confirms the refund"}
		for i := 0; i+1 < len(extra); i += 2 {
			p[extra[i]] = extra[i+1]
		}
		return p
	}
	line := func(params map[string]any, reason, judgeLine string) string {
		return "Eval(\"llm_judge\", " + jsonText(params) + "): judge's pass/fail: fail, want pass\nreasoning: " + reason + "\njudge: " + judgeLine + "\ntranscript: 2 messages"
	}
	for _, c := range []struct {
		name   string
		opts   []evaltest.Option
		params map[string]any
		want   string
	}{
		{"named", withTB(evaltest.WithJudgeSet(set)), criteria("judge", "lenient"), line(criteria("judge", "lenient"), "asked lenient/", "lenient")},
		{"named variant", withTB(evaltest.WithJudgeSet(set)), criteria("judge", "strict", "variant", "cheap"),
			line(criteria("judge", "strict", "variant", "cheap"), "asked strict/cheap", "strict/cheap")},
		{"the set's default", withTB(evaltest.WithJudgeSet(set)), criteria(), line(criteria(), "asked strict/", "strict")},
		{"the default's variant", withTB(evaltest.WithJudgeSet(set)), criteria("variant", "cheap"), line(criteria("variant", "cheap"), "asked strict/cheap", "strict/cheap")},
		{"WithDefaultJudge", withTB(evaltest.WithJudgeSet(set), evaltest.WithDefaultJudge("lenient", "")), criteria(), line(criteria(), "asked lenient/", "lenient")},
		{"WithJudge before the set's default", withTB(evaltest.WithJudgeSet(set), evaltest.WithJudge(judgefake.Fail("asked WithJudge's"))), criteria(),
			"Eval(\"llm_judge\", " + jsonText(criteria()) + "): judge's pass/fail: fail, want pass\nreasoning: asked WithJudge's\ntranscript: 2 messages"},
		{"unknown judge", withTB(evaltest.WithJudgeSet(set)), criteria("judge", "strikt"),
			"Eval(\"llm_judge\", " + jsonText(criteria("judge", "strikt")) + "): error: llm_judge: param \"judge\": judgeset: judge not found: \"strikt\" (did you mean \"strict\"? judges: lenient, strict)\ntranscript: 2 messages"},
		{"unknown variant", withTB(evaltest.WithJudgeSet(set)), criteria("judge", "lenient", "variant", "cheap"),
			"Eval(\"llm_judge\", " + jsonText(criteria("judge", "lenient", "variant", "cheap")) + "): error: llm_judge: param \"variant\": judgeset: judge variant not found: \"cheap\" of judge \"lenient\" (variants: none)\ntranscript: 2 messages"},
		{"no default", withTB(evaltest.WithJudgeSet(noDefault)), criteria(),
			"Eval(\"llm_judge\", " + jsonText(criteria()) + "): error: llm_judge: the judge failed: judgeset: judge not found: no judge named and the set has no default (judges: lenient, strict)\ntranscript: 2 messages"},
		{"a variant of WithJudge's judge", withTB(evaltest.WithJudge(judgefake.Pass())), criteria("variant", "cheap"),
			"Eval(\"llm_judge\", " + jsonText(criteria("variant", "cheap")) + "): error: llm_judge: param \"variant\": evaltest: judge variant not found: \"cheap\": the default judge, given with evaltest.WithJudge, has no variants: name a judge of the judge set\ntranscript: 2 messages"},
		{"no set", withTB(evaltest.WithJudge(judgefake.Pass())), criteria("judge", "strict"),
			"Eval(\"llm_judge\", " + jsonText(criteria("judge", "strict")) + "): error: llm_judge: param \"judge\": evaltest: judge not found: \"strict\": the test has no judge set: give evaltest.New the option evaltest.WithJudgeSet(set)\ntranscript: 2 messages"},
		{"no judge at all", nil, criteria("judge", "strict"),
			"Eval(\"llm_judge\", " + jsonText(criteria("judge", "strict")) + "): error: llm_judge: param \"judge\": no judge set to find judge \"strict\" in: build the registry with WithJudgeSet(set), or in a test give evaltest.New the option evaltest.WithJudgeSet(set)\ntranscript: 2 messages"},
	} {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, []string{c.want}, judge(c.opts, c.params))
		})
	}
	built.Range(func(k, v any) bool {
		assert.Equal(t, 1, *v.(*int), "%s built once across every T", k)
		return true
	})
}

// jsonText is params as a failure's first line writes them.
func jsonText(params map[string]any) string {
	data, err := json.Marshal(params)
	if err != nil {
		panic(err)
	}
	return string(data)
}

// askedJudges is a judge set of passing fakes that note which judge was
// asked for which criteria, in order.
func askedJudges(t *testing.T) (*judgeset.Set, *[]string) {
	t.Helper()
	var mu sync.Mutex
	var asked []string
	set, err := judgeset.New([]judgeset.Spec{
		{Name: "strict", Provider: "fake", Variants: []judgeset.Variant{{Name: "cheap"}}},
		{Name: "lenient", Provider: "fake"},
	}, judgeset.WithDefault("strict"), judgeset.WithProvider("fake", func(c judgeset.Config) (evalkit.Judge, error) {
		ref := c.Name
		if c.Variant != "" {
			ref += "/" + c.Variant
		}
		return evalkit.JudgeFunc(func(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
			mu.Lock()
			asked = append(asked, ref+": "+req.Criteria)
			mu.Unlock()
			return judgefake.Pass().Judge(ctx, req)
		}), nil
	}))
	require.NoError(t, err)
	return set, &asked
}

// Case files name judges per case, per eval and in params; each judged
// eval asks the judge it names, else its case's, else the default.
func TestJudgeSetCaseFiles(t *testing.T) {
	set, asked := askedJudges(t)
	cases, err := evaltest.LoadCases("testdata/cases/judged/cases.yaml", evalassert.NewRegistry().WithJudgeSet(set))
	require.NoError(t, err)
	require.Len(t, cases, 3)
	assert.Equal(t, [2]string{"lenient", ""}, [2]string{cases[1].Judge, cases[1].Variant})
	assert.Equal(t, [2]string{"", "cheap"}, [2]string{cases[2].Judge, cases[2].Variant})
	assert.Equal(t, evaltest.CaseEval{Type: "llm_judge", Judge: "strict", Line: 14,
		Params: map[string]any{"criteria": "States the amount", "judge": "strict"}}, cases[1].Evals[1])

	evaltest.RunCases(t, "testdata/cases/judged/cases.yaml", func(et *evaltest.T, c evaltest.Case) *evalkit.Transcript {
		return chat("Your refund of $42 was issued.")
	}, evaltest.WithJudgeSet(set))
	assert.Equal(t, []string{
		"strict: Confirms the refund",
		"lenient: Confirms the refund",
		"strict: States the amount",
		"strict/cheap: Confirms the refund",
		"lenient: Is polite",
	}, *asked)
}

// Every mistake naming a judge in a case file, with its line and field,
// when the file loads and before any case runs.
func TestJudgeSetCaseFileProblems(t *testing.T) {
	set, _ := askedJudges(t)
	_, err := evaltest.LoadCases("testdata/cases/judged/bad.yaml", evalassert.NewRegistry().WithJudgeSet(set))
	var cfe *evaltest.CaseFileError
	require.ErrorAs(t, err, &cfe)
	assert.Equal(t, []string{
		`testdata/cases/judged/bad.yaml:3: cases[0].judge: judgeset: judge not found: "strikt" (did you mean "strict"? judges: lenient, strict)`,
		`testdata/cases/judged/bad.yaml:10: cases[1].evals[0].judge: llm_judge: param "judge": judgeset: judge not found: "nobody" (judges: lenient, strict)`,
		`testdata/cases/judged/bad.yaml:13: cases[1].evals[1].params.variant: llm_judge: param "variant": judgeset: judge variant not found: "chep" of judge "strict" (did you mean "cheap"? variants: cheap)`,
		`testdata/cases/judged/bad.yaml:16: cases[2].variant: judgeset: judge variant not found: "cheap" of judge "lenient" (variants: none)`,
		`testdata/cases/judged/bad.yaml:23: cases[3].evals[0].judge: contains: param "judge": contains asks no judge: judge and variant name the judge of a judged check (llm_judge, ...)`,
		`testdata/cases/judged/bad.yaml:28: cases[4].evals[0].judge: given in the eval and in its params: give one`,
		`testdata/cases/judged/bad.yaml:31: cases[5].judge: empty: name a judge of the judge set (a variant of it), or leave the field out`,
		`testdata/cases/judged/bad.yaml:34: cases[5].evals[0].variant: want a string, got a list`,
		`testdata/cases/judged/bad.yaml:40: cases[6].evals[0].variant: llm_judge: param "variant": judgeset: judge variant not found: "cheap" of judge "lenient" (variants: none)`,
	}, cfe.Problems)

	// Without a judge set the names cannot be checked at load: the set
	// is given later; the rest is.
	_, err = evaltest.LoadCases("testdata/cases/judged/cases.yaml", nil)
	assert.NoError(t, err)
}
