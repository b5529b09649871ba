package evaltest_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	evalassert "github.com/evalkit-go/evalkit/assert"
	"github.com/evalkit-go/evalkit/evaltest"
)

// The multi-turn metrics as fluent steps: a failure names the turns that
// cost the score, with the judge's reasons, on a real τ-bench run.
func TestConversationMetricsFluent(t *testing.T) {
	runs, err := evalkit.LoadAll("../testdata/tau_bench/airline_gpt4o_trajectories.json")
	require.NoError(t, err)
	var tr *evalkit.Transcript
	for _, r := range runs {
		if r.Metadata["task_id"] == 5.0 && r.Metadata["trial"] == 0.0 {
			tr = r
		}
	}
	require.NotNil(t, tr)
	verdicts := func(no int, reason string) []any {
		var out []any
		for n := 1; n <= 6; n++ {
			v, why := "yes", "fine"
			if n == no {
				v, why = "no", reason
			}
			out = append(out, map[string]any{"turn": float64(n), "verdict": v, "reason": why})
		}
		return out
	}
	judge := evalkit.JudgeFunc(func(_ context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
		switch req.Metric {
		case "knowledge_retention.knowledge/1":
			return evalkit.Verdict{Fields: map[string]any{"knowledge": []any{map[string]any{"fact": "The user wants the passenger changed to himself.", "turn": float64(5)}}}}, nil
		case "knowledge_retention.verdicts/1":
			return evalkit.Verdict{Fields: map[string]any{"verdicts": verdicts(6, "Drops the passenger change asked for in turn 5.")}}, nil
		case "turn_relevancy.verdicts/1", "role_adherence.verdicts/1":
			return evalkit.Verdict{Fields: map[string]any{"verdicts": verdicts(0, "")}}, nil
		}
		return evalkit.Verdict{}, fmt.Errorf("unscripted %s", req.Metric)
	})
	tb := run("TestTauMetrics", []evaltest.Option{evaltest.WithJudge(judge)}, func(et *evaltest.T) {
		et.Expect(tr).
			TurnRelevancy(evalassert.Window(4)).
			RoleAdherence().
			KnowledgeRetention(evalassert.MinScore(0.9))
	})
	require.Len(t, tb.errors, 1)
	assert.Equal(t, `KnowledgeRetention(MinScore(0.90)): score 0.83, want >= 0.90
check: knowledge_retention 0.83: 5 of 6 turns keep what the user said (1 fact)
turn 6: no: "The reservation has been successfully updated to economy class, and three checked bags have been added. Since you are a gold member, you receive 3 free checked "… [174 more bytes] — Drops the passenger change asked for in turn 5.
turn 1: yes: "I can help you with that. Could you please provide your user ID and the reservation ID for the trip you want to modify?" — fine
turn 2: yes: "No problem, I can look up your reservation details using your user ID. Let me retrieve that information for you. I found your reservations. Here are the reserva"… [124 more bytes] — fine
turn 3: yes: "Your reservation UM3OG5 is a round-trip from Seattle (SEA) to Dallas (DFW) with a stop in Atlanta (ATL). Here are the details: - **Flights:** - SEA to DFW on 20"… [383 more bytes] — fine
turn 4: yes: "Your reservation FQ8APE is a one-way trip from Newark (EWR) to Chicago (ORD) with a stop in Houston (IAH). Here are the details: - **Flights:** - EWR to IAH on "… [439 more bytes] — fine
turn 5: yes: "Since the reservation is in basic economy, it cannot be modified. You would need to cancel and rebook the flight to make these changes. However, you can upgrade"… [271 more bytes] — fine
transcript: 26 messages`, tb.errors[0])
}
