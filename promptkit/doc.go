// Package promptkit reads PromptKit's files as they are published — packs
// (evals at the top level and under prompts.<id>.evals, guardrail
// validators under prompts.<id>.validators), Arena Scenario and Eval
// documents (apiVersion/kind/metadata/spec, spec.turns[].assertions,
// all_turns, conversation_assertions) and runtime configs (exec evals
// bound to programs) — and gives every entry PromptKit's meaning on a
// finished transcript: trigger (per turn or once), when preconditions,
// enabled and sample_percentage, validators with their direction, and
// metric and groups kept for reports. evaltest.LoadCases and RunCases read
// these files through it, beside evalkit's own case files:
//
//	reg := assert.NewRegistry()
//	if err := promptkit.BindRuntimeConfig(reg, "testdata/runtime.yaml"); err != nil { // exec evals, optional
//		t.Fatal(err)
//	}
//	evaltest.RunCases(t, "testdata/promptkit/*", func(et *evaltest.T, c evaltest.Case) *evalkit.Transcript {
//		return runAgent(et.Context(), c.Turns) // a scenario's user turns; c.Vars["prompt"] for a pack
//	}, evaltest.WithRegistry(reg))
//
// It is a room of its own because PromptKit's file formats have a
// vocabulary of their own (pack, prompt, validator, scenario, trigger,
// when): package assert keeps the checks and their type names, this
// package the documents that list them. It imports assert and never
// evaltest, so evaltest's loader can call it.
//
// Where evalkit deliberately differs from PromptKit, the error or the
// check's doc says so: a check that cannot be evaluated is an error, never
// a verdict (PromptKit scores some such cases 0 and passes others); a
// validator's unknown direction is an error, not a fallback to output; a
// when precondition or a sampling choice that leaves nothing to evaluate
// is "not run", never a pass; evalkit's tool checks read the whole
// session by default, and a scenario turn's tool assertions get scope:
// turn so they read that turn, as Arena's do.
package promptkit
