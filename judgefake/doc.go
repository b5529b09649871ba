// Package judgefake provides deterministic fake judges, fake model APIs and
// a conformance checker, so code that uses an evalkit.Judge — and the
// judges themselves — can be tested without a model, a network or an API
// key.
//
//	judge := judgefake.Rules{
//		{Pattern: `(?i)refund of \$\d+`, Verdict: evalkit.Verdict{Score: 1, Scored: true}},
//		{Otherwise: true, Verdict: evalkit.Verdict{Score: 0.2, Scored: true, Reasoning: "no amount"}},
//	}
//	v, err := judge.Judge(ctx, evalkit.JudgeRequest{
//		Criteria: "Confirms the refund and states the amount",
//		Content:  "Your refund of $42 is on its way.",
//		Scale:    evalkit.Scale{Min: 1, Max: 10},
//	})
//	// v.Score == 1, v.RawScore == 10, err == nil
//
// There are six kinds of fake, each named by what it does, in the manner
// of net/http/httptest and testing/iotest:
//
//   - Judges: Pass, Fail, Fixed, Sequence, Rules, Hash and Err answer
//     requests themselves; Flaky, Slow and Spy wrap another judge to fail
//     at first, answer late, or record what was asked. None implements
//     evalkit.Identifier, so evalkit never records or replays a fake.
//   - Model APIs: NewServer starts an HTTP server, and NewTransport makes
//     an in-memory http.RoundTripper for testing/synctest bubbles; both
//     speak OpenAI Chat Completions and Anthropic Messages, answer from a
//     script of Replies — judge texts, HTTP errors, stalls, broken bodies,
//     reset connections — and record every request with its credentials
//     redacted. They test a real judge (packages openaijudge,
//     anthropicjudge) end to end.
//   - An embedder: BagOfWords embeds texts as hashed word counts, so
//     embedding checks (cosine_similarity) run without a model.
//   - Classifiers (evalkit.Classifier): Scores, ClassifierRules,
//     ClassifierErr and SpyClassifier, the same way.
//   - Simulated users (package simulate): Script replays a list of user
//     turns and UserRules answers the agent by rules, with no model;
//     NewUserServer and NewUserTransport are the model a simulate.ModelUser
//     is played by, answering each request with the scripted turn its
//     conversation has reached.
//   - A checker: TestJudge calls any judge with valid, invalid and
//     cancelled requests, from many goroutines, and returns one error
//     listing every breach of the evalkit.Judge contract, as
//     testing/fstest.TestFS does for file systems.
//
// Every fake judge answers a call in the same order: it validates the
// request (evalkit.JudgeRequest.Validate) and returns that error for an
// invalid one, then returns the context's error (wrapping
// context.Canceled or context.DeadlineExceeded) if the context is done,
// and only then does what its name says. A call refused in either step
// consumes nothing: it does not advance a Sequence or a Flaky count.
//
// Every verdict a fake returns is consistent on the request's scale
// (evalkit.Scale.OrDefault): Score in [0,1], RawScore = Min + Score×(Max−Min),
// Scored true whenever there is a score. Every error comes with the zero
// Verdict.
//
// This package imports only the standard library and evalkit, and never
// package testing: it returns errors, and the test decides how to fail.
package judgefake
