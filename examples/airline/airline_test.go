package airline_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	evalassert "github.com/evalkit-go/evalkit/assert"
	"github.com/evalkit-go/evalkit/evaltest"
	"github.com/evalkit-go/evalkit/examples/airline"
	"github.com/evalkit-go/evalkit/golden"
	"github.com/evalkit-go/evalkit/judgefake"
	"github.com/evalkit-go/evalkit/openaijudge"
	"github.com/evalkit-go/evalkit/simulate"
)

// tauRun is a real τ-bench run of airline task 5 (add three bags, change
// the passenger, upgrade to economy, pay by gift card): the agent's
// policy, the task's instruction, what its simulated customer (GPT-4)
// said, what the agent's model (GPT-4o) answered, and the task's
// ground-truth actions.
type tauRun struct {
	policy, instruction string
	users               []string
	replies             []judgefake.Reply
	actions             []struct {
		Name   string          `json:"name"`
		Kwargs json.RawMessage `json:"kwargs"`
	}
}

func loadRun(t testing.TB, trial int) tauRun {
	t.Helper()
	data, err := os.ReadFile("../../testdata/tau_bench/airline_gpt4o_trajectories.json")
	require.NoError(t, err)
	var runs []struct {
		TaskID int `json:"task_id"`
		Trial  int `json:"trial"`
		Info   struct {
			Task struct {
				Instruction string `json:"instruction"`
				Actions     json.RawMessage
			} `json:"task"`
		} `json:"info"`
		Traj []struct {
			Role      string  `json:"role"`
			Content   *string `json:"content"`
			ToolCalls []struct {
				ID       string `json:"id"`
				Function struct{ Name, Arguments string }
			} `json:"tool_calls"`
		} `json:"traj"`
	}
	require.NoError(t, json.Unmarshal(data, &runs))
	for _, r := range runs {
		if r.TaskID != 5 || r.Trial != trial {
			continue
		}
		out := tauRun{instruction: r.Info.Task.Instruction}
		require.NoError(t, json.Unmarshal(r.Info.Task.Actions, &out.actions))
		for _, m := range r.Traj {
			text := ""
			if m.Content != nil {
				text = *m.Content
			}
			switch m.Role {
			case "system":
				out.policy = text
			case "user":
				out.users = append(out.users, text)
			case "assistant":
				reply := judgefake.Reply{Text: text, Model: "gpt-4o-2024-08-06"}
				for _, c := range m.ToolCalls {
					reply.ToolCalls = append(reply.ToolCalls, judgefake.ToolCall{ID: c.ID, Name: c.Function.Name, Args: c.Function.Arguments})
				}
				out.replies = append(out.replies, reply)
			}
		}
		return out
	}
	t.Fatalf("no run of airline task 5, trial %d", trial)
	return tauRun{}
}

// wantDB is the database a correct run leaves: the task's ground-truth
// actions, run on a fresh one — τ-bench's reward, on a small scale.
func wantDB(t testing.TB, r tauRun) *airline.DB {
	t.Helper()
	db, err := airline.LoadDB("testdata/db.json")
	require.NoError(t, err)
	for _, a := range r.actions {
		out := db.Call(a.Name, a.Kwargs)
		require.False(t, strings.HasPrefix(out, "Error: "), "ground truth %s: %s", a.Name, out)
	}
	return db
}

// Where the fakes stand for the live APIs: never dialled.
const (
	replayModelURL = "http://model.invalid/v1"
	replayUserURL  = "http://customer.invalid/v1"
	replayJudgeURL = "http://judge.invalid/v1"
)

// fakes starts, outside replay, fakes standing for the agent's model (the
// run's GPT-4o turns, in memory: the agent always calls replayModelURL,
// whose host keys its recorded calls), the customer's model (its GPT-4
// turns) and the judge (judgeReplies), and returns the agent's model (nil
// in replay) and the customer's and judge's URLs.
func fakes(t testing.TB, mode golden.Mode, r tauRun, judgeReplies ...judgefake.Reply) (model http.RoundTripper, user, judge string) {
	if mode == golden.ModeReplay {
		return nil, replayUserURL, replayJudgeURL
	}
	m, u, j := judgefake.NewTransport(r.replies...), judgefake.NewUserServer(r.users...), judgefake.NewServer(judgeReplies...)
	t.Cleanup(func() {
		u.Close()
		j.Close()
		assert.NoError(t, m.Err(), "the agent asked its model what the run did not")
		assert.NoError(t, u.Err(), "the customer was asked for a turn the run did not have")
		assert.NoError(t, j.Err())
	})
	return m, u.URL + "/v1", j.URL + "/v1"
}

// What the judge writes when recording (a judge model's answers).
var judgeReplies = []judgefake.Reply{
	judgefake.Text(`{"reasoning": "The agent found the New York to Chicago reservation, listed the three changes, got explicit confirmation, then changed the passenger, upgraded the cabin with the gift card and added three free bags.", "score": 9}`),
	judgefake.Text(`{"intentions": [{"intention": "Add three checked bags to the New York to Chicago trip", "turn": 5}, {"intention": "Change the passenger to the user himself", "turn": 5}, {"intention": "Upgrade the trip to economy class", "turn": 5}, {"intention": "Pay for the changes with a gift card", "turn": 6}]}`),
	judgefake.Text(`{"verdicts": [{"reason": "update_reservation_baggages set three bags in turn 6.", "verdict": "yes"}, {"reason": "update_reservation_passengers made Omar Rossi the passenger in turn 6.", "verdict": "yes"}, {"reason": "update_reservation_flights moved the trip to economy in turn 6.", "verdict": "yes"}, {"reason": "The upgrade was charged to gift_card_8190333 in turn 6.", "verdict": "yes"}]}`),
}

// The whole workflow on τ-bench's airline task 5, trial 1 (reward 1): a
// model plays the customer from the task's instruction (the run's real
// turns, served by a fake model when recording); the agent answers with
// its model (the run's real GPT-4o turns) and tools over the database;
// then the tool calls, the database it left (against the ground truth's)
// and the conversation (judged) are checked. Every model call — the
// customer's, the agent's, the judge's — replays from testdata/evalkit/:
// no server, no key.
func TestChangeTrip(t *testing.T) {
	t.Parallel()
	mode, err := evaltest.Mode()
	require.NoError(t, err)
	r := loadRun(t, 1)
	model, userURL, judgeURL := fakes(t, mode, r, judgeReplies...)

	db, err := airline.LoadDB("testdata/db.json")
	require.NoError(t, err)
	agent := &airline.Agent{BaseURL: replayModelURL, Model: "gpt-4o", DB: db, Client: evaltest.HTTPTransport(t, model).Client}
	customer := simulate.ModelUser{
		Model: openaijudge.New(openaijudge.WithBaseURL(userURL), openaijudge.WithModel("gpt-4")),
		Goal:  r.instruction,
	}
	et := evaltest.New(t, evaltest.WithJudge(openaijudge.New(openaijudge.WithBaseURL(judgeURL), openaijudge.WithModel("gpt-4.1-mini"))))

	tr := et.Simulate(customer, agent.Reply, simulate.System(r.policy), simulate.Tools(airline.ToolSpecs()...))

	et.Expect(tr).
		ToolsCalled("update_reservation_passengers", "update_reservation_flights", "update_reservation_baggages").
		ToolArgs("update_reservation_baggages", map[string]any{"reservation_id": "FQ8APE", "total_baggages": 3, "nonfree_baggages": 0}).
		NoToolErrors().
		StateEquals(wantDB(t, r), db).
		JudgeSession("Makes every change the customer asked for, after explicit confirmation, paying with the gift card", evalassert.MinScore(0.8)).
		ConversationCompleteness()
	assert.Equal(t, simulate.StopUser, simulate.StopReason(tr))
}

// The other trial of the same task (reward 0) upgraded the cabin, said
// the bags were added without adding them, and never changed the
// passenger: replayed with a scripted customer (its real turns), the same
// checks fail on the tool calls and on the database, with a go-cmp diff of
// what the agent left undone. τ-bench's reward said 0; so does the test.
func TestChangeTripFailedRun(t *testing.T) {
	t.Parallel()
	mode, err := evaltest.Mode()
	require.NoError(t, err)
	r := loadRun(t, 0)
	tb := &fakeT{TB: t, name: "TestChangeTripFailedRun"}
	tb.run(func() {
		model, _, _ := fakes(tb, mode, r)
		db, err := airline.LoadDB("testdata/db.json")
		require.NoError(t, err)
		agent := &airline.Agent{BaseURL: replayModelURL, Model: "gpt-4o", DB: db, Client: evaltest.HTTPTransport(tb, model).Client}
		et := evaltest.New(tb)
		tr := et.Simulate(judgefake.Script(r.users), agent.Reply, simulate.System(r.policy), simulate.Tools(airline.ToolSpecs()...))
		et.Expect(tr).
			ToolsCalled("update_reservation_passengers", "update_reservation_flights", "update_reservation_baggages").
			StateEquals(wantDB(t, r), db)
	})
	require.Len(t, tb.errors, 2, strings.Join(tb.errors, "\n\n"))
	assert.Equal(t, `ToolsCalled("update_reservation_passengers", "update_reservation_flights", "update_reservation_baggages"): missing "update_reservation_passengers"; missing "update_reservation_baggages"
called: get_reservation_details ×3, get_user_details ×1, think ×1, update_reservation_flights ×1
transcript: 26 messages`, tb.errors[0])
	diff := tb.errors[1]
	assert.True(t, strings.HasPrefix(diff, "StateEquals(*airline.DB): the state differs from the expected one in 4 lines\ndiff (-want +got):\n"), diff)
	for _, line := range []string{`FirstName: "Omar"`, `FirstName: "Ivan"`, "TotalBaggages:   3", "TotalBaggages:   0"} {
		assert.Contains(t, strings.ReplaceAll(diff, "\u00a0", " "), line)
	}
}

// fakeT stands in for a test's *testing.T: it keeps what is reported, and
// runs cleanups when the body ends.
type fakeT struct {
	testing.TB
	name     string
	errors   []string
	cleanups []func()
}

func (f *fakeT) Name() string      { return f.name }
func (f *fakeT) Helper()           {}
func (f *fakeT) Cleanup(fn func()) { f.cleanups = append(f.cleanups, fn) }
func (f *fakeT) Errorf(format string, args ...any) {
	f.errors = append(f.errors, fmt.Sprintf(format, args...))
}
func (f *fakeT) Fatalf(format string, args ...any) { f.Errorf(format, args...); runtime.Goexit() }
func (f *fakeT) FailNow()                          { runtime.Goexit() }
func (f *fakeT) Failed() bool                      { return len(f.errors) > 0 }
func (f *fakeT) Skipped() bool                     { return false }

func (f *fakeT) run(body func()) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		body()
	}()
	<-done
	for i := len(f.cleanups) - 1; i >= 0; i-- {
		f.cleanups[i]()
	}
}
