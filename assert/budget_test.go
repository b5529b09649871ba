package assert_test

import (
	"context"
	"errors"
	"math"
	"testing"

	testify "github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
	"github.com/evalkit-go/evalkit/judgefake"
)

// usageRun: two turns; every assistant message reports usage and latency
// unless partial is set, which drops them from the first answer.
func usageRun(partial bool) *evalkit.Transcript {
	tr := &evalkit.Transcript{Messages: []evalkit.Message{
		{Role: evalkit.RoleUser, Content: "hi"},
		{Role: evalkit.RoleAssistant, Content: "Hello.", LatencyMS: 400, Usage: &evalkit.Usage{InputTokens: 100, OutputTokens: 20, CostUSD: 0.002}},
		{Role: evalkit.RoleUser, Content: "refund"},
		{Role: evalkit.RoleAssistant, ToolCalls: []evalkit.ToolCall{{ID: "1", Name: "issue_refund"}}, LatencyMS: 900, Usage: &evalkit.Usage{InputTokens: 300, OutputTokens: 40, CostUSD: 0.006}},
		{Role: evalkit.RoleTool, ToolCallID: "1", Content: "ok", LatencyMS: 250},
		{Role: evalkit.RoleAssistant, Content: "Refunded.", LatencyMS: 450, Usage: &evalkit.Usage{InputTokens: 400, OutputTokens: 30, CostUSD: 0.008}},
	}}
	if partial {
		tr.Messages[1].Usage, tr.Messages[1].LatencyMS = nil, 0
	}
	return tr
}

func TestCostBudget(t *testing.T) {
	noUsage := usageRun(false)
	for i := range noUsage.Messages {
		noUsage.Messages[i].Usage = nil
	}
	noCost := usageRun(false)
	for i := range noCost.Messages {
		if u := noCost.Messages[i].Usage; u != nil {
			u.CostUSD = 0
		}
	}
	runCases(t, []evalCase{
		{name: "within", tr: usageRun(false), check: "cost_budget", params: map[string]any{"max_cost_usd": 0.02, "max_total_tokens": 1000}, want: PASS,
			summary: "cost $0.016 <= $0.02; total tokens 890 <= 1000", score: ptr(1)},
		{name: "over cost", tr: usageRun(false), check: "cost_budget", params: map[string]any{"max_cost_usd": 0.008}, want: FAIL,
			summary: "cost $0.016, want at most $0.008", score: ptr(0.5),
			details: []assert.Detail{{Label: "usage", Text: "3 assistant messages, 800 input + 90 output tokens, $0.016"}}},
		{name: "over input and output tokens", tr: usageRun(false), check: "cost_budget", params: map[string]any{"max_input_tokens": 400, "max_output_tokens": 45}, want: FAIL,
			summary: "input tokens 800, want at most 400; output tokens 90, want at most 45", score: ptr(0.5)},
		{name: "turn scope", tr: usageRun(false), check: "cost_budget", params: map[string]any{"max_cost_usd": 0.015, "scope": "turn"}, want: PASS,
			summary: "cost $0.014 <= $0.015"},
		{name: "partial usage over the budget fails", tr: usageRun(true), check: "cost_budget", params: map[string]any{"max_total_tokens": 500}, want: FAIL,
			hasDetails: []assert.Detail{{Label: "note", Text: "1 of 3 assistant messages report no total tokens: the total is a lower bound"}}},
		{name: "partial usage under the budget is no pass", tr: usageRun(true), check: "cost_budget", params: map[string]any{"max_total_tokens": 5000}, want: ERROR,
			summary: "cost_budget: not reported: 1 of 3 assistant messages in the transcript report no total tokens, so the total 770 is only a lower bound and cannot show the run within 5000"},
		{name: "partial usage, but the turn has it all", tr: usageRun(true), check: "cost_budget", params: map[string]any{"max_total_tokens": 5000, "scope": "turn"}, want: PASS},
		{name: "no usage at all", tr: noUsage, check: "cost_budget", params: map[string]any{"max_cost_usd": 1}, want: ERROR,
			summary: "cost_budget: not reported: no message in the transcript reports its usage (Message.Usage)"},
		{name: "usage without cost", tr: noCost, check: "cost_budget", params: map[string]any{"max_cost_usd": 1}, want: ERROR,
			summary: "cost_budget: not reported: no assistant message in the transcript reports its cost"},
		{name: "no limit", tr: usageRun(false), check: "cost_budget", params: map[string]any{}, want: ERROR, param: "max_cost_usd"},
		{name: "negative cost", tr: usageRun(false), check: "cost_budget", params: map[string]any{"max_cost_usd": -1}, want: ERROR, param: "max_cost_usd"},
		{name: "fractional tokens", tr: usageRun(false), check: "cost_budget", params: map[string]any{"max_total_tokens": 1.5}, want: ERROR, param: "max_total_tokens"},
		{name: "nil transcript", tr: nil, check: "cost_budget", params: map[string]any{"max_cost_usd": 1}, want: ERROR},
	})
}

func TestLatencyBudget(t *testing.T) {
	meta := &evalkit.Transcript{Messages: []evalkit.Message{{Role: evalkit.RoleAssistant, Content: "x"}}, Metadata: map[string]any{"latency_ms": 1200.0}}
	badMeta := &evalkit.Transcript{Messages: []evalkit.Message{{Role: evalkit.RoleAssistant, Content: "x"}}, Metadata: map[string]any{"latency_ms": "fast"}}
	runCases(t, []evalCase{
		{name: "within", tr: usageRun(false), check: "latency_budget", params: map[string]any{"max_ms": 2000}, want: PASS, summary: "latency 2000 ms <= 2000 ms"},
		{name: "over", tr: usageRun(false), check: "latency_budget", params: map[string]any{"max_ms": 1000}, want: FAIL,
			summary: "latency 2000 ms, want at most 1000 ms", score: ptr(0.5),
			details: []assert.Detail{{Label: "latency", Text: "2000 ms over 4 messages"}}},
		{name: "turn scope", tr: usageRun(false), check: "latency_budget", params: map[string]any{"max_ms": 1600, "scope": "turn"}, want: PASS},
		{name: "partial, under the budget", tr: usageRun(true), check: "latency_budget", params: map[string]any{"max_ms": 5000}, want: ERROR},
		{name: "partial, already over", tr: usageRun(true), check: "latency_budget", params: map[string]any{"max_ms": 1000}, want: FAIL},
		{name: "Metadata latency_ms when no message reports one", tr: meta, check: "latency_budget", params: map[string]any{"max_ms": 1000}, want: FAIL,
			details: []assert.Detail{{Label: "latency", Text: `1200 ms (Metadata["latency_ms"])`}}},
		{name: "Metadata is the run's, not a turn's", tr: meta, check: "latency_budget", params: map[string]any{"max_ms": 5000, "scope": "turn"}, want: ERROR},
		{name: "Metadata not a number", tr: badMeta, check: "latency_budget", params: map[string]any{"max_ms": 5000}, want: ERROR,
			summary: `latency_budget: Metadata["latency_ms"] is a string, want a positive number of milliseconds`},
		{name: "nothing reported", tr: noWorkflow, check: "latency_budget", params: map[string]any{"max_ms": 5000}, want: ERROR,
			summary: "latency_budget: not reported: no message in the transcript reports a latency (Message.LatencyMS)"},
		{name: "no max_ms", tr: usageRun(false), check: "latency_budget", params: map[string]any{}, want: ERROR, param: "max_ms"},
		{name: "misspelt max_ms", tr: usageRun(false), check: "latency_budget", params: map[string]any{"max_m": 5}, want: ERROR, param: "max_m"},
		{name: "negative", tr: usageRun(false), check: "latency_budget", params: map[string]any{"max_ms": -1}, want: ERROR, param: "max_ms"},
	})
}

func TestSentenceCount(t *testing.T) {
	toolsOnly := toolCalls("search")
	toolsOnly.Messages = toolsOnly.Messages[:len(toolsOnly.Messages)-1]
	runCases(t, []evalCase{
		{name: "a measurement passes", tr: textChat("Your refund is issued. It takes 3.5 days! Anything else?"), check: "sentence_count", want: PASS,
			summary: "3 sentences", score: ptr(1), details: []assert.Detail{{Label: "sentences", Text: "3"}}},
		{name: "session scope", tr: textChat("One. Two.", "Three"), check: "sentence_count", params: map[string]any{"scope": "session"}, want: PASS, summary: "3 sentences"},
		{name: "max met", tr: textChat("One. Two."), check: "sentence_count", params: map[string]any{"max": 2}, want: PASS, summary: "2 sentences, at most 2"},
		{name: "max_sentences over", tr: textChat("One. Two. Three. Four."), check: "max_sentences", params: map[string]any{"max": 2}, want: FAIL,
			summary: "4 sentences, want at most 2", score: ptr(0.5)},
		{name: "max_sentences needs max", tr: textChat("x"), check: "max_sentences", params: map[string]any{}, want: ERROR, param: "max"},
		{name: "tool calls only", tr: toolsOnly, check: "sentence_count", want: ERROR},
		{name: "no assistant message", tr: &evalkit.Transcript{}, check: "sentence_count", want: ERROR},
	})
}

func TestCountSentences(t *testing.T) {
	for text, want := range map[string]int{
		"":                                     0,
		"   ":                                  0,
		"Hello":                                1,
		"Hello world.":                         1,
		"Pi is 3.14. See example.com now.":     2,
		"Really?! Yes... \"Quoted.\" (Aside.)": 4,
		"Heading\n\nBody text here. More":      3,
		"这是第一句。这是第二句！":                         2,
		"... ?!":                               0,
		"Wait… what? No.":                      3,
	} {
		testify.Equal(t, want, assert.CountSentences(text), "%q", text)
	}
}

func TestOutcomeEquivalent(t *testing.T) {
	runCases(t, []evalCase{
		{name: "same tool set", tr: toolCalls("search", "book", "search"), check: "outcome_equivalent",
			params: map[string]any{"metric": "tool_calls", "expected_tools": []any{"book", "search"}}, want: PASS},
		{name: "different tool set", tr: toolCalls("search", "cancel"), check: "outcome_equivalent",
			params: map[string]any{"metric": "tool_calls", "expected_tools": []any{"book", "search"}}, want: FAIL,
			summary: `tools called differ from the expected set: missing "book"; extra "cancel"`,
			details: []assert.Detail{{Label: "got", Text: `{"cancel", "search"}`}, {Label: "want", Text: `{"book", "search"}`}}},
		{name: "no calls, none expected", tr: textChat("hi"), check: "outcome_equivalent", params: map[string]any{"metric": "tool_calls", "expected_tools": []any{}}, want: PASS},
		{name: "final state", tr: workflowRun(true), check: "outcome_equivalent", params: map[string]any{"metric": "final_state", "expected_state": "done"}, want: PASS},
		{name: "other final state", tr: workflowRun(true), check: "outcome_equivalent", params: map[string]any{"metric": "final_state", "expected_state": "billing"}, want: FAIL,
			summary: `final state "done", expected "billing"`},
		{name: "no workflow", tr: noWorkflow, check: "outcome_equivalent", params: map[string]any{"metric": "final_state", "expected_state": "done"}, want: ERROR},
		{name: "content equal", tr: textChat("Refunded."), check: "outcome_equivalent", params: map[string]any{"metric": "content_hash", "expected_content": "Refunded."}, want: PASS},
		{name: "content differs", tr: textChat("Refunded!"), check: "outcome_equivalent", params: map[string]any{"metric": "content_hash", "expected_content": "Refunded."}, want: FAIL,
			summary: "content differs from the expected output at byte 8"},
		{name: "metric without its expected value", tr: textChat("x"), check: "outcome_equivalent", params: map[string]any{"metric": "final_state"}, want: ERROR, param: "expected_state"},
		{name: "expected value of another metric", tr: textChat("x"), check: "outcome_equivalent",
			params: map[string]any{"metric": "final_state", "expected_state": "a", "expected_tools": []any{"b"}}, want: ERROR, param: "expected_tools"},
		{name: "unknown metric", tr: textChat("x"), check: "outcome_equivalent", params: map[string]any{"metric": "tools"}, want: ERROR, param: "metric"},
	})
}

func TestDirectional(t *testing.T) {
	runCases(t, []evalCase{
		{name: "same tool calls", tr: toolCalls("search", "book"), check: "directional", params: map[string]any{"check": "same_tool_calls", "baseline_tools": []any{"book", "search", "book"}}, want: PASS},
		{name: "different tool calls", tr: toolCalls("search"), check: "directional", params: map[string]any{"check": "same_tool_calls", "baseline_tools": []any{"book"}}, want: FAIL,
			summary: `tools called differ from the baseline set: missing "book"; extra "search"`},
		{name: "same outcome", tr: workflowRun(true), check: "directional", params: map[string]any{"check": "same_outcome", "baseline_state": "done"}, want: PASS},
		{name: "similar content", tr: textChat("Your refund of $42 was issued today."), check: "directional",
			params: map[string]any{"check": "similar_content", "baseline_content": "Your refund of $42 was issued."}, want: PASS, score: ptr(6.0 / 7)},
		{name: "dissimilar content", tr: textChat("The weather is nice."), check: "directional",
			params: map[string]any{"check": "similar_content", "baseline_content": "Your refund was issued.", "threshold": 0.3}, want: FAIL,
			summary: "word overlap with the baseline 0.00, want >= 0.30", score: ptr(0)},
		{name: "no baseline", tr: textChat("x"), check: "directional", params: map[string]any{"check": "similar_content"}, want: ERROR, param: "baseline_content"},
		{name: "threshold out of range", tr: textChat("x"), check: "directional", params: map[string]any{"check": "similar_content", "baseline_content": "x", "threshold": 2}, want: ERROR, param: "threshold"},
		{name: "threshold on another check", tr: textChat("x"), check: "directional", params: map[string]any{"check": "same_outcome", "baseline_state": "x", "threshold": 0.5}, want: ERROR, param: "threshold"},
		{name: "unknown check", tr: textChat("x"), check: "directional", params: map[string]any{"check": "same_content"}, want: ERROR, param: "check"},
	})
}

// A baseline run stands for the baseline values.
func TestDirectionalBaselineRun(t *testing.T) {
	ctx := context.Background()
	res, err := assert.Directional{Compare: assert.SameToolCalls, Baseline: toolCalls("book", "search")}.Check(ctx, toolCalls("search", "book", "book"))
	require.NoError(t, err)
	testify.True(t, res.Passed, res.Summary)
	res, err = assert.Directional{Compare: assert.SimilarContent, Baseline: textChat("Refund issued.")}.Check(ctx, textChat("Refund issued!"))
	require.NoError(t, err)
	testify.True(t, res.Passed, res.Summary)
	_, err = assert.Directional{Compare: assert.SameOutcome, Baseline: noWorkflow}.Check(ctx, workflowRun(true))
	testify.ErrorIs(t, err, assert.ErrNotReported)
}

func TestCosineSimilarity(t *testing.T) {
	withEmbedding := func(v any) *evalkit.Transcript {
		tr := textChat("Refund issued.")
		tr.Metadata = map[string]any{"embedding": v}
		return tr
	}
	runCases(t, []evalCase{
		{name: "metadata embedding, same direction", tr: withEmbedding([]any{1.0, 2.0, 2.0}), check: "cosine_similarity",
			params: map[string]any{"reference": []any{2, 4, 4}}, want: PASS, summary: "cosine similarity 1.0000", score: ptr(1),
			details: []assert.Detail{{Label: "similarity", Text: "1.0000 (cosine, in [-1, 1])"}, {Label: "dimensions", Text: "3"}}},
		{name: "orthogonal", tr: withEmbedding([]any{1.0, 0.0}), check: "cosine_similarity", params: map[string]any{"reference": []any{0, 1}}, want: PASS, score: ptr(0)},
		{name: "opposite scores 0, raw -1 in details", tr: withEmbedding([]any{1.0, 0.0}), check: "cosine_similarity", params: map[string]any{"reference": []any{-3, 0}},
			want: PASS, score: ptr(0), summary: "cosine similarity -1.0000"},
		{name: "huge components do not overflow", tr: withEmbedding([]any{1e300, 1e300}), check: "cosine_similarity", params: map[string]any{"reference": []any{1e300, 1e300}}, want: PASS, score: ptr(1)},
		{name: "assertion grades it", tr: withEmbedding([]any{1.0, 0.0}), check: "assertion",
			params: map[string]any{"eval_type": "cosine_similarity", "eval_params": map[string]any{"reference": []any{1, 1}}, "min_score": 0.8}, want: FAIL},
		{name: "length mismatch", tr: withEmbedding([]any{1.0, 0.0}), check: "cosine_similarity", params: map[string]any{"reference": []any{1, 1, 1}}, want: ERROR,
			summary: `cosine_similarity: Metadata["embedding"] has 2 dimensions, the reference 3: vectors from different models cannot be compared`},
		{name: "zero reference", tr: withEmbedding([]any{1.0}), check: "cosine_similarity", params: map[string]any{"reference": []any{0, 0}}, want: ERROR, param: "reference"},
		{name: "zero target", tr: withEmbedding([]any{0.0, 0.0}), check: "cosine_similarity", params: map[string]any{"reference": []any{1, 0}}, want: ERROR},
		{name: "NaN target", tr: withEmbedding([]any{math.NaN(), 1.0}), check: "cosine_similarity", params: map[string]any{"reference": []any{1, 0}}, want: ERROR},
		{name: "Inf reference", tr: withEmbedding([]any{1.0}), check: "cosine_similarity", params: map[string]any{"reference": []any{math.Inf(1)}}, want: ERROR, param: "reference"},
		{name: "target not numbers", tr: withEmbedding("0.1,0.2"), check: "cosine_similarity", params: map[string]any{"reference": []any{1, 0}}, want: ERROR},
		{name: "no embedding, no embedder", tr: textChat("x"), check: "cosine_similarity", params: map[string]any{"reference": []any{1, 0}}, want: ERROR},
		{name: "reference_text without an embedder", tr: textChat("x"), check: "cosine_similarity", params: map[string]any{"reference_text": "refund"}, want: ERROR},
		{name: "min_similarity met, as PromptKit's", tr: withEmbedding([]any{1.0, 1.0}), check: "cosine_similarity", params: map[string]any{"reference": []any{1, 0.9}, "min_similarity": 0.8},
			want: PASS, summary: "cosine similarity 0.9986, want >= 0.8"},
		{name: "min_similarity missed", tr: withEmbedding([]any{1.0, 0.0}), check: "cosine_similarity", params: map[string]any{"reference": []any{1, 1}, "min_similarity": 0.8},
			want: FAIL, summary: "cosine similarity 0.7071, want >= 0.8"},
		{name: "min_similarity out of range", tr: textChat("x"), check: "cosine_similarity", params: map[string]any{"reference": []any{1}, "min_similarity": 1.5}, want: ERROR, param: "min_similarity"},
		{name: "both references", tr: textChat("x"), check: "cosine_similarity", params: map[string]any{"reference": []any{1}, "reference_text": "x"}, want: ERROR, param: "reference_text"},
		{name: "no reference", tr: textChat("x"), check: "cosine_similarity", params: map[string]any{}, want: ERROR, param: "reference"},
	})
}

func TestCosineSimilarityEmbedder(t *testing.T) {
	ctx := context.Background()
	reg := assert.NewRegistry().WithEmbedder(judgefake.BagOfWords(256))
	res, err := reg.Eval(ctx, "cosine_similarity", textChat("Your refund of $42 was issued."), map[string]any{"reference_text": "refund issued: $42"})
	require.NoError(t, err)
	testify.Greater(t, res.Score, 0.5, res.Summary)
	far, err := reg.Eval(ctx, "cosine_similarity", textChat("The weather in Paris is sunny."), map[string]any{"reference_text": "refund issued: $42"})
	require.NoError(t, err)
	testify.Less(t, far.Score, res.Score)

	// The embedder is kept by WithJudge, and an assertion wraps the check.
	graded, err := reg.WithJudge(judgefake.Pass()).Eval(ctx, "assertion", textChat("The weather in Paris is sunny."),
		map[string]any{"eval_type": "cosine_similarity", "eval_params": map[string]any{"reference_text": "refund issued: $42"}, "min_score": 0.5})
	require.NoError(t, err)
	testify.False(t, graded.Passed, graded.Summary)

	// Output without words embeds as the zero vector: an error, not a score.
	_, err = reg.Eval(ctx, "cosine_similarity", textChat("!!!"), map[string]any{"reference_text": "refund"})
	testify.ErrorContains(t, err, "zero vector")

	// An embedder that fails, or answers short, is an error.
	failing := evalkit.EmbedderFunc(func(context.Context, []string) ([][]float64, error) { return nil, errors.New("rate limited") })
	_, err = assert.CosineSimilarity{ReferenceText: "x", Embedder: failing}.Check(ctx, textChat("x"))
	testify.ErrorContains(t, err, "the embedder failed: rate limited")
	short := evalkit.EmbedderFunc(func(context.Context, []string) ([][]float64, error) { return [][]float64{{1}}, nil })
	_, err = assert.CosineSimilarity{ReferenceText: "x", Embedder: short}.Check(ctx, textChat("x"))
	testify.ErrorContains(t, err, "returned 1 vector for 2 texts")

	// Without an embedder, reference_text cannot be built, but validates.
	_, err = assert.NewRegistry().Build("cosine_similarity", map[string]any{"reference_text": "x"})
	testify.ErrorIs(t, err, assert.ErrNoEmbedder)
	testify.NoError(t, assert.Validate("cosine_similarity", map[string]any{"reference_text": "x"}))
}
