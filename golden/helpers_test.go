package golden_test

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/evalkit-go/evalkit"
)

// liveJudge is a fake live judge with an identity, counting its calls.
type liveJudge struct {
	id    evalkit.Identity
	judge func(req evalkit.JudgeRequest) (evalkit.Verdict, error)
	calls atomic.Int64
}

func (j *liveJudge) Judge(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
	j.calls.Add(1)
	if err := req.Validate(); err != nil {
		return evalkit.Verdict{}, err
	}
	if err := ctx.Err(); err != nil {
		return evalkit.Verdict{}, err
	}
	return j.judge(req)
}

func (j *liveJudge) Identity() evalkit.Identity { return j.id }

var testIdentity = evalkit.Identity{
	Provider:      "test",
	Model:         "judge-mini",
	Settings:      map[string]any{"temperature": 0.0, "max_tokens": 512},
	PromptVersion: "test/1",
}

// richVerdict is a verdict with every field set, as a real judge gives
// it: Fields' numbers are json.Number, as evalkit.ParseVerdict makes them.
func richVerdict(req evalkit.JudgeRequest) evalkit.Verdict {
	yes := true
	return evalkit.Verdict{
		Score: 0.9, RawScore: 9, Scored: true, Label: "yes", Passed: &yes,
		Reasoning: "Cites the refund window: " + req.Criteria,
		Criteria:  []evalkit.CriterionScore{{Name: "accuracy", Score: 0.75, RawScore: 7.5, Reasoning: "mostly right"}},
		Fields:    map[string]any{"score": json.Number("9"), "label": "yes", "notes": []any{"a", json.Number("1.5"), true, nil}},
		Raw:       `{"score": 9, "label": "yes", "reasoning": "Cites the refund window <30 days> & fees"}`,
		Model:     "judge-mini-2026-01-01",
		Usage:     evalkit.Usage{InputTokens: 420, OutputTokens: 37, CostUSD: 0.000123},
	}
}

func newLive(id evalkit.Identity) *liveJudge {
	return &liveJudge{id: id, judge: func(req evalkit.JudgeRequest) (evalkit.Verdict, error) { return richVerdict(req), nil }}
}

// mustNotCall is a live judge with testIdentity that fails the test if it
// is ever asked.
func mustNotCall(t *testing.T) *liveJudge {
	return &liveJudge{id: testIdentity, judge: func(evalkit.JudgeRequest) (evalkit.Verdict, error) {
		t.Errorf("the live judge was called")
		return evalkit.Verdict{}, errors.New("the live judge was called")
	}}
}

func recordingPath(t *testing.T) string {
	return filepath.Join(t.TempDir(), "testdata", "evalkit", "TestX.judge.json")
}

func refundRequest() evalkit.JudgeRequest {
	return evalkit.JudgeRequest{
		Criteria: "Confirms the refund and states the amount",
		Rubric:   "Must cite the refund window.",
		Input:    "I want a refund for order #W123",
		Content:  "Answer: Refunds within 30 days. Your refund of $42 is on its way.",
		Scale:    evalkit.Scale{Min: 0, Max: 10},
	}
}
