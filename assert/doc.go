// Package assert holds evalkit's checks: pure functions of a transcript that
// return a Result (pass or fail, a score in [0,1], a summary and labelled
// details) or an error when they cannot be evaluated. A check never fails a
// test; package evaltest does that.
//
//	res, err := assert.ToolArgs{Tool: "issue_refund", Args: map[string]any{"order_id": "#W123"}}.Check(ctx, tr)
//	switch {
//	case err != nil: // the check could not run: a bad parameter, no assistant output...
//	case !res.Passed: // the agent's output failed the check: res.Summary says why
//	}
//
// Each check is a struct whose fields are its parameters, and is also
// reachable by its PromptKit type name through a Registry, with the
// declarative parameters a case file or PromptKit pack gives:
//
//	res, err := assert.Eval(ctx, "tool_args", tr, map[string]any{
//		"tool_name": "issue_refund", "expected_args": map[string]any{"order_id": "#W123"},
//	})
//
// Results are three-valued in reports: pass, fail, error. Fail closed: an
// empty pattern list, an empty pattern, an unknown or misspelt parameter, no
// assistant output, an invalid regular expression, schema or JMESPath query
// are errors, never vacuous passes.
//
// Judged checks (LLMJudge, LLMJudgeToolCalls; PromptKit's llm_judge,
// llm_judge_session, llm_judge_tool_calls) ask an evalkit.Judge and grade its
// verdict with GradeVerdict; score thresholds live on the Assertion wrapper
// (PromptKit's type: assertion with min_score/max_score), never in the
// judge's prompt, and a verdict missing what is graded is an error.
//
// Model-graded metrics (AnswerRelevancy, Faithfulness, Hallucination, the
// Contextual ones, Bias, Toxicity, PIILeakage, RoleViolation; DeepEval's,
// Ragas' and PromptKit's names) ask the judge per item in structured
// output and compute their score, in [0,1] and higher for better, from
// the items; a judge answer without its items is ErrBadVerdict.
// Classifier checks (ClassifierScore, TopicPolicy) ask an
// evalkit.Classifier; external evaluators (RESTEval, A2AEval, ExecEval)
// an endpoint, an A2A agent or a program, whose failure is ErrEvaluator.
//
// Value matching (Equals, registry type equals or exact_match) compares
// the output, or a JMESPath-selected value of its JSON, with an expected
// value or any of a set (AnyOf), after canonicalization Rules on both
// sides — the rules verdict grading uses.
//
// Any type with a Check method is a check; with a Describe method too
// (Describer) it states its criteria, as every built-in check does. Users
// add their own types by name to a Registry they make with NewRegistry
// (Register); nothing registers itself, and the built-in registry behind
// Eval never changes. Validate (and Registry.Validate) checks a type's
// parameters without running it, with Build's and Eval's errors: a case
// file can be checked when it is loaded.
//
// Trajectory checks read what the agent did: ToolCallChain and
// ToolCallsWithArgs match ExpectedCall values — a tool and, optionally,
// arguments (a subset, or exactly, with IgnoreFields for generated ids and
// timestamps), RE2 patterns on them and constraints on the result — each
// consuming a call of its own, in an Order (any, subsequence, exact, or
// before); a failure names the expected call without a partner, the
// closest call and a go-cmp diff of its arguments. ToolArgsExcluded,
// ToolAntiPattern, ToolNoRepeat, ToolEfficiency and
// InvariantFieldsPreserved judge the shape of the calls, the ToolResult
// checks what the tools answered, and ToolExec runs a tool through the
// application's ToolExecutor (Registry.WithTools).
//
// Types lists every registered type name and alias; EvalAll runs a list of
// Specs ({type, params}, as ParseSpecs and LoadSpecs read them from YAML or
// JSON with their lines) and returns every outcome.
//
// Stream checks (StreamCheck: ContentExcludes, Regex, MaxLength) judge an
// output chunk by chunk while it streams, and say at which chunk and byte
// it was settled.
//
// Agent, skill, workflow, composition and guardrail checks read what a
// multi-agent or guarded run records beside its messages (Transcript.Agents,
// Workflow, Composition, PriorResults; Message.State and Guardrails);
// budgets read Message.Usage and LatencyMS; CosineSimilarity asks an
// evalkit.Embedder (Registry.WithEmbedder). A run that does not record what
// a check reads gives an error wrapping ErrNotReported, never a pass. The
// media checks are in package assert/media, registered on a registry of
// the user's, so their decoders are built only by those who use them.
//
// Scope: text and JSON checks read the last assistant message by default
// (Turn) and can read every assistant message (Session); tool-call checks
// read every call of the transcript by default (Session) and can read the
// last turn's calls (Turn). PromptKit's "_session" type names fix Session.
package assert
