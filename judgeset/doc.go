// Package judgeset holds judges by name, each with named variants, declared
// in Go or in a config file: the evalkit.JudgeSet that checks and case files
// select their judge from (judge: strict, variant: cheap).
//
//	set, err := judgeset.Load("testdata/judges.yaml")
//	if err != nil {
//		t.Fatal(err) // every problem, with its file, line and field
//	}
//	et := evaltest.New(t, evaltest.WithJudgeSet(set))
//	et.Expect(tr).Judge("Confirms the refund", assert.UseJudge("strict", "cheap"), assert.MinScore(0.8))
//
// A judge names its provider — "openai" (package openaijudge: OpenAI and any
// compatible server), "anthropic" (package anthropicjudge), or a Provider of
// the user's own given with WithProvider — its model, base URL, the
// environment variable holding its key, the judge prompt's version, and its
// settings; a variant overrides some of them. Credentials never go in a set:
// a config file names the variable (api_key_env), and a field, a setting or a
// base URL that holds a credential is an error.
//
// A judge is built once per name and variant, when Lookup first asks for
// it, and reused; its key is read then, and only a call to the live judge
// needs it, so a test that replays recorded verdicts runs without one.
// Recordings key on the built judge's identity (provider, model, effective
// settings, prompt version), never on its name: renaming a judge keeps its
// recordings, and variants with different settings never share one. The
// name and variant go with every verdict instead — into the failure
// message's judge line, the results file and the recording's entry:
//
//	judge: strict/cheap (openai gpt-4.1-mini, seed 1, temperature 0) (replayed testdata/evalkit/TestRefund.judge.json)
//
// The design follows MindTrial's judge configurations, with run variants and
// the provenance of each semantic verdict, and PromptKit's judge built from
// a provider spec; the names, format and code are evalkit's own.
package judgeset
