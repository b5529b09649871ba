package assert_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	testify "github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
)

// tauRun is a real τ-bench airline run: task 5 trial 0 (reward 0), in
// which GPT-4o upgraded the cabin, said the three bags were added without
// adding them, and left the passenger unchanged.
func tauRun(t *testing.T, task, trial float64) *evalkit.Transcript {
	t.Helper()
	runs, err := evalkit.LoadAll("../testdata/tau_bench/airline_gpt4o_trajectories.json")
	require.NoError(t, err)
	for _, r := range runs {
		if r.Metadata["task_id"] == task && r.Metadata["trial"] == trial {
			return r
		}
	}
	t.Fatalf("no run for task %v, trial %v", task, trial)
	return nil
}

// scriptedJudge answers each step of a metric with the fields given for
// its Metric id, and keeps the requests.
type scriptedJudge struct {
	answers map[string]map[string]any
	mu      sync.Mutex
	asked   []evalkit.JudgeRequest
}

func (j *scriptedJudge) Judge(_ context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
	j.mu.Lock()
	j.asked = append(j.asked, req)
	j.mu.Unlock()
	fields, ok := j.answers[req.Metric]
	if !ok {
		return evalkit.Verdict{}, fmt.Errorf("unscripted step %q", req.Metric)
	}
	return evalkit.Verdict{Fields: fields}, nil
}

func turnVerdict(turn int, verdict, reason string) map[string]any {
	return map[string]any{"turn": float64(turn), "verdict": verdict, "reason": reason}
}

// The four multi-turn metrics on a real multi-turn transcript, asked
// through a scripted judge: each scores from the judge's items and names
// the turn (or the user's intention, with its turn) that cost the score,
// with the judge's reason.
func TestConversationMetricsOnTauBench(t *testing.T) {
	tr := tauRun(t, 5, 0)
	judge := &scriptedJudge{answers: map[string]map[string]any{
		"conversation_completeness.intentions/1": {"intentions": []any{
			map[string]any{"intention": "Change the passenger of the New York to Chicago trip to the user himself", "turn": float64(5)},
			map[string]any{"intention": "Upgrade that trip to economy class", "turn": float64(5)},
			map[string]any{"intention": "Add three checked bags", "turn": float64(5)},
			map[string]any{"intention": "Pay with a gift card", "turn": float64(5)},
		}},
		"conversation_completeness.verdicts/1": {"verdicts": []any{
			map[string]any{"verdict": "no", "reason": "The assistant said the reservation could not be changed and never updated the passenger."},
			map[string]any{"verdict": "yes", "reason": "update_reservation_flights moved the trip to economy in turn 6."},
			map[string]any{"verdict": "no", "reason": "Turn 6 says three bags were added, but no baggage tool was called."},
			map[string]any{"verdict": "yes", "reason": "The upgrade was paid with gift_card_8190333 in turn 6."},
		}},
		"role_adherence.verdicts/1": {"verdicts": []any{
			turnVerdict(1, "yes", "Asks for the user id as the policy requires."),
			turnVerdict(2, "yes", "Looks the user up."),
			turnVerdict(3, "yes", "Shows the reservation."),
			turnVerdict(4, "yes", "States the basic economy rule."),
			turnVerdict(5, "yes", "Asks for explicit confirmation."),
			turnVerdict(6, "no", "Reports three bags added without calling update_reservation_baggages, against the policy's rule to act through the tools."),
		}},
		"knowledge_retention.knowledge/1": {"knowledge": []any{
			map[string]any{"fact": "The user's id is omar_rossi_1241.", "turn": float64(2)},
			map[string]any{"fact": "The trip to change goes from New York to Chicago.", "turn": float64(4)},
			map[string]any{"fact": "The user wants the passenger changed to himself.", "turn": float64(5)},
		}},
		"knowledge_retention.verdicts/1": {"verdicts": []any{
			turnVerdict(1, "yes", "Nothing to recall yet."),
			turnVerdict(2, "yes", "Uses the user id."),
			turnVerdict(3, "yes", "Looks up the reservation named."),
			turnVerdict(4, "yes", "Finds the New York to Chicago trip."),
			turnVerdict(5, "yes", "Repeats the requested changes."),
			turnVerdict(6, "no", "Drops the passenger change the user asked for in turn 5."),
		}},
		"turn_relevancy.verdicts/1": {"verdicts": []any{
			turnVerdict(1, "yes", "Asks what it needs."),
			turnVerdict(2, "yes", "Lists the reservations."),
			turnVerdict(3, "yes", "Shows UM3OG5 as asked."),
			turnVerdict(4, "yes", "Finds the trip asked for."),
			turnVerdict(5, "yes", "Answers the payment question."),
			turnVerdict(6, "yes", "Acts on the confirmation."),
		}},
	}}

	res, err := assert.ConversationCompleteness{Judge: judge}.Check(t.Context(), tr)
	require.NoError(t, err)
	testify.InDelta(t, 0.5, res.Score, 1e-9)
	testify.False(t, res.Passed)
	testify.Equal(t, "conversation_completeness 0.50: 2 of 4 user intentions satisfied", res.Summary)
	testify.Equal(t, assert.Detail{Label: "intention 1 (turn 5)", Text: `no: "Change the passenger of the New York to Chicago trip to the user himself" — The assistant said the reservation could not be changed and never updated the passenger.`}, res.Details[0])
	testify.Equal(t, assert.Detail{Label: "intention 3 (turn 5)", Text: `no: "Add three checked bags" — Turn 6 says three bags were added, but no baggage tool was called.`}, res.Details[1])

	res, err = assert.RoleAdherence{Judge: judge}.Check(t.Context(), tr)
	require.NoError(t, err)
	testify.InDelta(t, 5.0/6, res.Score, 1e-9)
	testify.Equal(t, "role_adherence 0.83: 5 of 6 turns keep the role", res.Summary)
	testify.Equal(t, "turn 6", res.Details[0].Label)
	testify.Equal(t, `no: "The reservation has been successfully updated to economy class, and three checked bags have been added. Since you are a gold member, you receive 3 free checked "… [174 more bytes] — Reports three bags added without calling update_reservation_baggages, against the policy's rule to act through the tools.`, res.Details[0].Text)

	res, err = assert.KnowledgeRetention{Judge: judge}.Check(t.Context(), tr)
	require.NoError(t, err)
	testify.InDelta(t, 5.0/6, res.Score, 1e-9)
	testify.Equal(t, "knowledge_retention 0.83: 5 of 6 turns keep what the user said (3 facts)", res.Summary)
	testify.Equal(t, "turn 6", res.Details[0].Label)
	testify.True(t, strings.HasSuffix(res.Details[0].Text, "— Drops the passenger change the user asked for in turn 5."), res.Details[0].Text)

	res, err = assert.TurnRelevancy{Judge: judge}.Check(t.Context(), tr)
	require.NoError(t, err)
	testify.Equal(t, 1.0, res.Score)
	testify.True(t, res.Passed)
	testify.Equal(t, "turn_relevancy 1: 6 of 6 turns relevant", res.Summary)
	testify.Len(t, res.Details, 6)

	// What the judge was shown: the conversation in numbered turns, with
	// the agent's tool calls; the role is the run's policy (its system
	// message); each per-turn step names the turns to judge.
	byStep := map[string]evalkit.JudgeRequest{}
	for _, r := range judge.asked {
		byStep[r.Metric] = r
	}
	conv := byStep["turn_relevancy.verdicts/1"].Content
	testify.Contains(t, conv, "Turn 6\nuser: Yes, please proceed with upgrading to economy class and adding three checked bags. I'd prefer to pay with a gift card.\nassistant: The reservation has been successfully updated")
	testify.Contains(t, conv, `  tool call update_reservation_flights({"reservation_id":"FQ8APE","cabin":"economy",`)
	testify.Contains(t, conv, "  tool call think(")
	testify.Contains(t, conv, "Turn 7\nuser: Thank you for your help!")
	testify.Contains(t, byStep["turn_relevancy.verdicts/1"].Criteria, "Judge these turns, in this order: 1, 2, 3, 4, 5, 6.")
	testify.Contains(t, byStep["turn_relevancy.verdicts/1"].Criteria, "at most the 10 turns")
	testify.True(t, strings.HasPrefix(byStep["role_adherence.verdicts/1"].Context[0], "# Airline Agent Policy"))
	testify.Equal(t, "1. (turn 2) The user's id is omar_rossi_1241.\n2. (turn 4) The trip to change goes from New York to Chicago.\n3. (turn 5) The user wants the passenger changed to himself.\n", byStep["knowledge_retention.verdicts/1"].Context[0])
	testify.Equal(t, conv, byStep["conversation_completeness.verdicts/1"].Context[0])
	for _, r := range judge.asked {
		require.NoError(t, r.Validate(), r.Metric)
		testify.NotEmpty(t, r.VerdictSchema, r.Metric)
	}
}

// The metrics through the registry and MetricCheck, with their params.
func TestConversationMetricsRegistered(t *testing.T) {
	tr := tauRun(t, 5, 0)
	judge := &scriptedJudge{answers: map[string]map[string]any{
		"turn_relevancy.verdicts/1": {"verdicts": []any{
			turnVerdict(1, "yes", "a"), turnVerdict(2, "yes", "b"), turnVerdict(3, "no", "c"),
			turnVerdict(4, "yes", "d"), turnVerdict(5, "yes", "e"), turnVerdict(6, "yes", "f"),
		}},
		"role_adherence.verdicts/1": {"verdicts": []any{
			turnVerdict(1, "yes", "a"), turnVerdict(2, "yes", "b"), turnVerdict(3, "yes", "c"),
			turnVerdict(4, "yes", "d"), turnVerdict(5, "yes", "e"), turnVerdict(6, "yes", "f"),
		}},
	}}
	reg := assert.NewRegistry().WithJudge(judge)
	res, err := reg.Eval(t.Context(), "turn_relevancy", tr, map[string]any{"window_size": 3})
	require.NoError(t, err)
	testify.InDelta(t, 5.0/6, res.Score, 1e-9)
	testify.Contains(t, judge.asked[0].Criteria, "at most the 3 turns")
	res, err = reg.Eval(t.Context(), "assertion", tr, map[string]any{"eval_type": "turn_relevancy", "min_score": 0.8})
	require.NoError(t, err)
	testify.True(t, res.Passed)

	res, err = reg.Eval(t.Context(), "role_adherence", tr, map[string]any{"chatbot_role": "You are a pirate."})
	require.NoError(t, err)
	testify.Equal(t, 1.0, res.Score)
	testify.Equal(t, "You are a pirate.", judge.asked[len(judge.asked)-1].Context[0])

	_, err = reg.Eval(t.Context(), "turn_relevancy", tr, map[string]any{"window_size": 0})
	testify.ErrorContains(t, err, "window_size")
	_, err = reg.Eval(t.Context(), "turn_relevancy", tr, map[string]any{"min_score": 0.5})
	testify.ErrorContains(t, err, "holds no threshold")

	res, err = assert.MetricCheck(judge, "turn_relevancy", assert.Window(2), assert.MinScore(0.9)).Check(t.Context(), tr)
	require.NoError(t, err)
	testify.False(t, res.Passed)
	_, err = assert.MetricCheck(judge, "knowledge_retention", assert.Window(2)).Check(t.Context(), tr)
	testify.ErrorContains(t, err, "knowledge_retention does not take Window")
}

// A judge whose answer is not the metric's shape is an error naming what
// is wrong, never a partial score; nothing to judge is an error too.
func TestConversationMetricsErrors(t *testing.T) {
	tr := tauRun(t, 5, 0)
	ask := func(c assert.Check) error {
		_, err := c.Check(t.Context(), tr)
		return err
	}
	six := func(verdict string) []any {
		out := []any{}
		for n := 1; n <= 6; n++ {
			out = append(out, turnVerdict(n, verdict, "r"))
		}
		return out
	}
	shifted := six("yes")
	shifted[2] = turnVerdict(4, "yes", "r")
	for name, c := range map[string]struct {
		check   func(j evalkit.Judge) assert.Check
		answers map[string]map[string]any
		want    string
		is      error
	}{
		"wrong turn": {func(j evalkit.Judge) assert.Check { return assert.TurnRelevancy{Judge: j} },
			map[string]map[string]any{"turn_relevancy.verdicts/1": {"verdicts": shifted}},
			"turn_relevancy: the judge's verdict cannot be graded: verdicts[2] is for turn 4, want turn 3 (the turns, in order: 1, 2, 3, 4, 5, 6)", assert.ErrBadVerdict},
		"too few": {func(j evalkit.Judge) assert.Check { return assert.RoleAdherence{Judge: j} },
			map[string]map[string]any{"role_adherence.verdicts/1": {"verdicts": six("yes")[:5]}},
			"the judge gave 5 verdicts for 6 turns: want exactly one per turn", assert.ErrBadVerdict},
		"turn out of range": {func(j evalkit.Judge) assert.Check { return assert.ConversationCompleteness{Judge: j} },
			map[string]map[string]any{"conversation_completeness.intentions/1": {"intentions": []any{map[string]any{"intention": "x", "turn": float64(9)}}}},
			"intentions[0].turn is 9, want a turn from 1 to 7", assert.ErrBadVerdict},
		"no intention": {func(j evalkit.Judge) assert.Check { return assert.ConversationCompleteness{Judge: j} },
			map[string]map[string]any{"conversation_completeness.intentions/1": {"intentions": []any{}}},
			"conversation_completeness: nothing to score: the judge finds no intention of the user", assert.ErrNoItems},
		"judge fails": {func(j evalkit.Judge) assert.Check { return assert.KnowledgeRetention{Judge: j} },
			map[string]map[string]any{},
			`knowledge_retention: the judge failed (step knowledge_retention.knowledge/1): unscripted step "knowledge_retention.knowledge/1"`, nil},
	} {
		t.Run(name, func(t *testing.T) {
			err := ask(c.check(&scriptedJudge{answers: c.answers}))
			require.Error(t, err)
			testify.Contains(t, err.Error(), c.want)
			if c.is != nil {
				testify.ErrorIs(t, err, c.is)
			}
		})
	}

	// No knowledge to keep scores 1 with one request.
	j := &scriptedJudge{answers: map[string]map[string]any{"knowledge_retention.knowledge/1": {"knowledge": []any{}}}}
	res, err := assert.KnowledgeRetention{Judge: j}.Check(t.Context(), tr)
	require.NoError(t, err)
	testify.Equal(t, 1.0, res.Score)
	testify.Len(t, j.asked, 1)

	// No reply, no role, no judge.
	onlyUser := &evalkit.Transcript{Messages: []evalkit.Message{{Role: evalkit.RoleUser, Content: "Hello?"}}}
	_, err = assert.TurnRelevancy{Judge: j}.Check(t.Context(), onlyUser)
	testify.ErrorIs(t, err, assert.ErrNoOutput)
	noRole := &evalkit.Transcript{Messages: []evalkit.Message{{Role: evalkit.RoleUser, Content: "Hi"}, {Role: evalkit.RoleAssistant, Content: "Hello"}}}
	_, err = assert.RoleAdherence{Judge: j}.Check(t.Context(), noRole)
	var pe *assert.ParamError
	testify.True(t, errors.As(err, &pe), "%v", err)
	_, err = assert.ConversationCompleteness{}.Check(t.Context(), tr)
	testify.ErrorIs(t, err, assert.ErrNoJudge)
	_, err = assert.TurnRelevancy{Judge: j, Window: -1}.Check(t.Context(), tr)
	testify.ErrorContains(t, err, "window_size")
}
