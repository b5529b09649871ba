// Package junitprobe is run by evaltest's tests through gotestsum, to read
// the JUnit XML it writes: two judged steps and a Repeat of one test, the
// verdicts replayed from testdata/evalkit/TestRefund.judge.json (recorded
// with EVALKIT_MODE=record from the judge below).
package junitprobe

import (
	"context"
	"strings"
	"testing"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
	"github.com/evalkit-go/evalkit/evaltest"
)

// judge stands in for a live judge: it has an identity, so its verdicts
// are recorded and replayed.
type judge struct{}

func (judge) Identity() evalkit.Identity {
	return evalkit.Identity{Provider: "openai", Model: "gpt-4.1-mini"}
}

func (judge) Judge(_ context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
	if strings.Contains(req.Criteria, "polite") {
		return evalkit.Verdict{Score: 0.4, RawScore: 4, Scored: true, Reasoning: "Curt: no greeting,\nno thanks."}, nil
	}
	return evalkit.Verdict{Score: 0.9, RawScore: 9, Scored: true, Reasoning: "States the refund of $42 and when it arrives."}, nil
}

func answer(text string) *evalkit.Transcript {
	return &evalkit.Transcript{Messages: []evalkit.Message{
		{Role: evalkit.RoleUser, Content: "Where is my refund for order #W123?"},
		{Role: evalkit.RoleAssistant, Content: text},
	}}
}

func TestRefund(t *testing.T) {
	et := evaltest.New(t, evaltest.WithJudge(judge{}))
	et.Expect(answer("Refund of $42 issued; it arrives in 5 business days.")).
		Judge("Confirms the refund, states the amount and says when the money arrives in the customer's account", assert.MinScore(0.8)).
		Judge("Is polite and thanks the customer", assert.MinScore(0.6))
	et.Repeat(3, func(et *evaltest.T) {
		et.Expect(answer("Refund of $42 issued; it arrives in 5 business days.")).Contains("refund")
	}, evaltest.All())
}
