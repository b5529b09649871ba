// Package evalkit is the vocabulary of evalkit, a Go test-framework extension
// for testing LLM and agent behaviour with plain go test: the Transcript an
// agent run produces (messages, tool calls and their results, and what agent
// runtimes record beside them: latency, usage, workflow states, hand-offs,
// guardrails) and the decoders that read real transcripts.
//
//	tr, err := evalkit.Load("testdata/refund_run.json") // OpenAI Chat or Responses, Anthropic Messages, evalkit JSON, τ-bench
//	if err != nil {
//		t.Fatal(err)
//	}
//	for _, call := range tr.ToolCalls() {
//		fmt.Println(call.Name, string(call.Args), call.Result != nil)
//	}
//
// Checks live in package assert; the fluent test API in package evaltest.
// This package needs nothing beyond the standard library: besides it, it
// imports only evalkit's own standard-library-only internal packages (JSON
// extraction, text bounding), shared with the checks.
package evalkit
