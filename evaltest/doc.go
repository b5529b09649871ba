// Package evaltest is evalkit's fluent test API, and the only evalkit package
// that imports testing. Run the agent inside an ordinary Go test, then assert
// on its transcript:
//
//	func TestRefund(t *testing.T) {
//		tr := runAgent(t, "I want a refund for order #W123") // your own code
//		et := evaltest.New(t)
//		et.Expect(tr).
//			ToolsCalled("get_order_details", "issue_refund").
//			ToolArgs("issue_refund", map[string]any{"order_id": "#W123"}).
//			NoToolErrors().
//			Contains("refund")
//	}
//
// Expect keeps going after a failure; Require stops the test at the first.
// Each failure is reported at the user's line in one format: the check in Go
// call syntax, what was got before what was wanted, labelled lines, a go-cmp
// diff for structures:
//
//	refund_test.go:14: ToolsCalled("get_order_details", "issue_refund"): missing "issue_refund"
//	    called: get_order_details ×1, get_user_details ×2
//	    transcript: 9 messages (artifact: _artifacts/3889060661/transcript.json)
//
// A check that cannot be evaluated (a bad parameter, no assistant output)
// reads "error:" instead of a summary: it fails the test, but it is never
// charged to the agent as a failed check, and never passes.
//
// LLM-as-judge steps ask the T's judge (WithJudge) and grade its verdict; the
// threshold lives on the step, never in the judge's prompt:
//
//	et := evaltest.New(t, evaltest.WithJudge(openaijudge.FromEnv()))
//	et.Expect(tr).Judge("Confirms the refund and states the amount", assert.MinScore(0.8))
//
//	refund_test.go:17: Judge("Confirms the refund and states the a…", MinScore(0.80)): score 0.55, want >= 0.80
//	    reasoning: the reply never states the amount
//	    raw score: 5.5 on 0–10
//	    judge: gpt-4.1-mini
//	    transcript: 9 messages
//
// A judge that cannot give a verdict (an unreadable answer, an API failure)
// is an evaluation error, never a failure or a pass. Package judgefake has
// fake judges for testing this wiring without a model.
//
// Judges can be named (package judgeset: a config file or Go declarations
// of judges, each with variants): WithJudgeSet gives the T a set, and a
// judged step selects its judge by name — assert.UseJudge("strict",
// "cheap") in Judge, judge and variant params in Eval, judge and variant
// fields on a case or an eval of a case file — else asks the default
// (WithDefaultJudge, WithJudge, the set's own). Its failure says which judge
// it was, with its provider, model and effective settings:
//
//	judge: strict/cheap (openai gpt-4.1-mini, seed 1, temperature 0) (replayed testdata/evalkit/TestRefund.judge.json)
//
// A live judge's verdicts are recorded (package golden): WithJudge wraps
// every judge with an identity (evalkit.Identifier) in a recording for the
// top-level test, testdata/evalkit/<TestName>.judge.json — subtests are
// entries in it — saved when the test ends. Fakes are not recorded. The
// mode comes from WithMode, else -evalkit.mode, else EVALKIT_MODE:
//
//	replay   (default) answer from the recording; a miss fails, never calls the judge
//	record   answer from the recording; ask the live judge what it lacks
//	refresh  ask the live judge everything again; drop what no step used
//	live     ask the live judge; record nothing
//
// The -evalkit.mode flag is known only to test binaries that import
// evaltest, so go test ./... with it fails in packages that do not; use
// EVALKIT_MODE there. Replaying needs no credential (openaijudge.FromEnv() with no key keys
// and replays). A recording holds excerpts of long requests; with
// EVALKIT_RECORD_WHOLE=1 it holds each request whole, so `evalkit golden
// audit` can ask the judge again every verdict in it. A miss says what to run:
//
//	refund_test.go:17: Judge("Confirms the refund", MinScore(0.80)): error: llm_judge: the judge failed: golden: not recorded: testdata/evalkit/TestRefund.judge.json has no verdict for this request (key sha256:3f2a9c4d5e6f)
//	    nearest: sha256:9b1c2d3e4f5a (recorded 2026-05-01T10:00:00Z)
//	    differs: criteria: now "Confirms the refund", recorded "Confirms the refund and states the amount"
//	    transcript: 9 messages
//	    hint: EVALKIT_MODE=record go test ./agent -run '^TestRefund$'   # record the missing verdict against the live judge
//
// and a failed replayed verdict where it came from:
//
//	judge: gpt-4.1-mini (replayed testdata/evalkit/TestRefund.judge.json)
//	hint: EVALKIT_MODE=refresh go test ./agent -run '^TestRefund$'   # re-judge against the live judge
//
// Each verdict a live judge gives is journaled beside the recording as soon
// as it is obtained, so a run that ends before the test does (a timeout, a
// panic, a kill) loses none: the next run merges the journal (see
// golden.JournalSuffix). Judge calls stop a margin before go test's
// -timeout deadline (see Context), failing the step with a message naming
// the judge, the criteria, the request in flight and how long it ran,
// rather than Go's "test timed out" panic.
//
// Parallel tests share a judge's rate limits: a JudgeLimiter bounds the
// judge calls of every T given it (WithJudgeLimiter) to a number in flight
// and a number started a minute; without one, EVALKIT_JUDGE_CONCURRENCY
// (calls in flight) and EVALKIT_JUDGE_RPM (calls started a minute) set one
// for the whole test binary. Replayed verdicts never wait:
//
//	var judgeLimit = evaltest.NewJudgeLimiter(8, 500) // 8 in flight, 500 a minute
//
//	et := evaltest.New(t, evaltest.WithJudge(judge), evaltest.WithJudgeLimiter(judgeLimit))
//
// The agent's own model calls are recorded the same way: give it
// HTTPClient(t) (or HTTPTransport(t, live)), and its HTTP exchanges are
// answered from and added to testdata/evalkit/<TestName>.http.json under
// the same mode, so one switch records or replays a whole test:
//
//	EVALKIT_MODE=record go test ./...   # the agent's model calls and the judge's verdicts, recorded
//	go test ./...                       # both replayed: no network, no key
//
// A model call not recorded fails the test with the request, the nearest
// recorded one, what differs and the record command.
//
// Multi-turn agents run against a simulated user (package simulate):
// Simulate plays the conversation until the user stops, the judge finds
// the goal met or a turn limit, recording a simulate.ModelUser's model
// beside the agent's calls; StateEquals checks the state the agent's tools
// left behind; ConversationCompleteness, RoleAdherence, KnowledgeRetention
// and TurnRelevancy judge the conversation turn by turn:
//
//	tr := et.Simulate(simulate.ModelUser{Model: openaijudge.FromEnv(), Goal: "..."}, agent.Reply)
//	et.Expect(tr).StateEquals(want, db).KnowledgeRetention(assert.MinScore(0.9))
//
// A judge budget bounds what a run may spend on live judges:
// EVALKIT_MAX_JUDGE_CALLS (HTTP calls, retries included) and
// EVALKIT_MAX_COST_USD (dollars, as the judges price replies), per test
// binary. Past it every judged step is an error naming the budget and how
// it was spent; replayed verdicts cost nothing and are not counted (see
// ErrJudgeBudget).
//
// With go test -artifacts (Go 1.26+), the transcript of a failed check is
// written to the test's artifact directory.
//
// Non-deterministic agents run as a Repeat, gated on a pass rate (with
// τ-bench's pass^k and pass@k and an optional Wilson-bound Confidence),
// stopping once the outcome is decided; ExpectAll(...).Consistent checks
// that the attempts' answers agree (WithEmbedder):
//
//	rep := et.Repeat(10, func(et *evaltest.T) {
//		et.Expect(runAgent(et.Context(), "Refund order #W123")).ToolsCalled("issue_refund")
//	}, evaltest.PassRate(0.8))
//	et.ExpectAll(rep.Transcripts()...).Consistent(0.4)
//
// RunCases runs table-driven suites from YAML or JSON case files
// (PromptKit-style eval lists), one subtest per case, validated before any
// agent runs and shardable with EVALKIT_SHARD=i/n. Every check is written
// to a JSON Lines results file when EVALKIT_REPORT names one (or, with
// -artifacts, in the test's artifact directory), and judged steps and
// Repeats are test attributes; `evalkit report` renders the files as HTML
// and Markdown.
package evaltest
