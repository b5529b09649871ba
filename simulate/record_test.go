package simulate_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/anthropicjudge"
	"github.com/evalkit-go/evalkit/golden"
	"github.com/evalkit-go/evalkit/judgefake"
	"github.com/evalkit-go/evalkit/openaijudge"
	"github.com/evalkit-go/evalkit/simulate"
)

// tauRun is a real τ-bench conversation: GPT-4 playing the customer (its
// turns) and GPT-4o the agent (the text of its replies, per turn).
type tauRun struct {
	instruction string
	users       []string
	replies     []string
}

func loadTau(t testing.TB, task, trial int) tauRun {
	t.Helper()
	data, err := os.ReadFile("../testdata/tau_bench/airline_gpt4o_trajectories.json")
	require.NoError(t, err)
	var runs []struct {
		TaskID int `json:"task_id"`
		Trial  int `json:"trial"`
		Info   struct {
			Task struct{ Instruction string }
		}
		Traj []struct {
			Role    string
			Content *string
		}
	}
	require.NoError(t, json.Unmarshal(data, &runs))
	for _, r := range runs {
		if r.TaskID != task || r.Trial != trial {
			continue
		}
		out := tauRun{instruction: r.Info.Task.Instruction}
		var reply []string
		for _, m := range r.Traj {
			text := ""
			if m.Content != nil {
				text = strings.TrimSpace(*m.Content)
			}
			switch {
			case m.Role == "user":
				if len(out.users) > 0 {
					out.replies = append(out.replies, strings.Join(reply, "\n\n"))
				}
				reply = nil
				out.users = append(out.users, text)
			case m.Role == "assistant" && text != "":
				reply = append(reply, text)
			}
		}
		return out
	}
	t.Fatalf("no airline run with task %d, trial %d", task, trial)
	return tauRun{}
}

// replayAgent answers turn k with replies[k-1], changed at turn
// change (from 1) to changed.
func replayAgent(replies []string, change int, changed string) simulate.Agent {
	return func(_ context.Context, tr *evalkit.Transcript) ([]evalkit.Message, error) {
		turn := 0
		for _, m := range tr.Messages {
			if m.Role == evalkit.RoleUser {
				turn++
			}
		}
		text := replies[turn-1]
		if turn == change {
			text = changed
		}
		return []evalkit.Message{{Role: evalkit.RoleAssistant, Content: text}}, nil
	}
}

// never is a model with a real model's identity that must not be asked.
type never struct {
	evalkit.Identifier
	t *testing.T
}

func (n never) Chat(context.Context, string, []evalkit.Message) (evalkit.Message, error) {
	n.t.Error("the live model was asked in replay")
	return evalkit.Message{}, errors.New("the live model was asked")
}

const testKey = "sk-test-simulate-0123456789abcdefghij"

// A simulated user played by a model records its model's replies against
// a fake model server (the real τ-bench user turns, over OpenAI's and
// Anthropic's wire formats), then replays them with no server and no key:
// the same conversation. Changing the agent's reply at turn 3 is a miss
// naming turn 3, with what the agent said then and now.
func TestRecorderRecordsAndReplays(t *testing.T) {
	t.Parallel()
	run := loadTau(t, 5, 1)
	require.Len(t, run.users, 7)
	models := map[string]func(url string) simulate.Model{
		"openai": func(url string) simulate.Model {
			return openaijudge.New(openaijudge.WithBaseURL(url+"/v1"), openaijudge.WithAPIKey(testKey), openaijudge.WithModel("gpt-4"))
		},
		"anthropic": func(url string) simulate.Model {
			return anthropicjudge.New(anthropicjudge.WithBaseURL(url), anthropicjudge.WithAPIKey(testKey), anthropicjudge.WithModel("claude-haiku-4-5"))
		},
	}
	for name, model := range models {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "TestTau.http.json")
			user := func(m simulate.Model) simulate.ModelUser {
				return simulate.ModelUser{Model: m, Goal: run.instruction}
			}
			srv := judgefake.NewUserServer(run.users...)
			rec, err := simulate.NewRecorder(path, model(srv.URL), golden.WithMode(golden.ModeRecord))
			require.NoError(t, err)
			recorded, err := simulate.Run(t.Context(), user(rec), replayAgent(run.replies, 0, ""))
			require.NoError(t, err)
			require.NoError(t, rec.Save())
			srv.Close()
			require.NoError(t, srv.Err())
			assert.Equal(t, simulate.StopUser, simulate.StopReason(recorded))
			assert.Equal(t, 6.0, recorded.Metadata[simulate.MetaTurns])

			data, err := os.ReadFile(path)
			require.NoError(t, err)
			assert.NotContains(t, string(data), testKey)
			assert.Equal(t, 7, strings.Count(string(data), `"path": "`+simulate.ChatPath+`"`), "one exchange per user turn")

			replay, err := simulate.NewRecorder(path, never{Identifier: model("http://model.invalid").(evalkit.Identifier), t: t})
			require.NoError(t, err)
			replayed, err := simulate.Run(t.Context(), user(replay), replayAgent(run.replies, 0, ""))
			require.NoError(t, err)
			assert.Equal(t, recorded.Messages, replayed.Messages)

			changed := "Your reservation is already cancelled."
			tr, err := simulate.Run(t.Context(), user(replay), replayAgent(run.replies, 3, changed))
			var miss *simulate.MissError
			require.ErrorAs(t, err, &miss)
			require.ErrorIs(t, err, golden.ErrNotRecorded)
			assert.Equal(t, 3, miss.Turn)
			assert.Equal(t, "the agent said something else than in the recording", miss.What)
			assert.Equal(t, changed, miss.Now)
			assert.Equal(t, run.replies[2], miss.Recorded)
			assert.NotEmpty(t, miss.Nearest)
			assert.True(t, strings.HasPrefix(err.Error(), `simulate: not recorded: turn 3: the agent said something else than in the recording: now "Your reservation is already cancelled.", recorded "The reservation ID \"UM3OG5\" is for a round trip`), err.Error())
			assert.Len(t, tr.Messages, 6, "turns 1 to 3, the miss at the user's turn 4")
		})
	}
}

// A changed persona or model is a miss before any turn, saying which.
func TestRecorderMissBeforeAnyTurn(t *testing.T) {
	t.Parallel()
	run := loadTau(t, 5, 1)
	path := filepath.Join(t.TempDir(), "TestTau.http.json")
	srv := judgefake.NewUserServer(run.users[:2]...)
	defer srv.Close()
	model := func(name string) *openaijudge.Judge {
		return openaijudge.New(openaijudge.WithBaseURL(srv.URL+"/v1"), openaijudge.WithAPIKey(testKey), openaijudge.WithModel(name))
	}
	rec, err := simulate.NewRecorder(path, model("gpt-4"), golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	_, err = simulate.Run(t.Context(), simulate.ModelUser{Model: rec, Goal: run.instruction}, replayAgent(run.replies, 0, ""), simulate.MaxTurns(1))
	require.NoError(t, err)
	require.NoError(t, rec.Save())

	replay := func(m *openaijudge.Judge, goal string) error {
		r, err := simulate.NewRecorder(path, never{Identifier: m, t: t})
		require.NoError(t, err)
		_, err = simulate.Run(t.Context(), simulate.ModelUser{Model: r, Goal: goal}, replayAgent(run.replies, 0, ""), simulate.MaxTurns(1))
		return err
	}
	err = replay(model("gpt-4"), "You are omar_rossi_1241. Cancel everything.")
	var miss *simulate.MissError
	require.ErrorAs(t, err, &miss)
	assert.Equal(t, 0, miss.Turn)
	assert.Equal(t, -1, miss.Message)
	assert.Equal(t, "the user's instructions (persona, goal, facts) differ from the recording's", miss.What)
	assert.True(t, strings.HasPrefix(miss.Now, "…"), miss.Now)
	assert.Contains(t, miss.Now, "Cancel everything.")

	err = replay(model("gpt-4.1"), run.instruction)
	require.ErrorAs(t, err, &miss)
	assert.Equal(t, "the user's model differs from the recording's", miss.What)
	assert.Contains(t, miss.Now, `"model":"gpt-4.1"`)
	assert.Contains(t, miss.Recorded, `"model":"gpt-4"`)

	// One more turn than was recorded: the recording ends before it.
	r, err := simulate.NewRecorder(path, never{Identifier: model("gpt-4"), t: t})
	require.NoError(t, err)
	_, err = simulate.Run(t.Context(), simulate.ModelUser{Model: r, Goal: run.instruction}, replayAgent(run.replies, 0, ""), simulate.MaxTurns(2))
	require.ErrorAs(t, err, &miss)
	assert.Equal(t, 2, miss.Turn)
	assert.True(t, miss.Absent)
	assert.Equal(t, "the recording holds no user message for turn 2: the recorded conversation ended sooner", miss.What)
	assert.Equal(t, run.users[0], miss.Now)
	assert.Empty(t, miss.Recorded)

	r, err = simulate.NewRecorder(filepath.Join(t.TempDir(), "none.http.json"), never{Identifier: model("gpt-4"), t: t})
	require.NoError(t, err)
	_, err = simulate.Run(t.Context(), simulate.ModelUser{Model: r, Goal: run.instruction}, replayAgent(run.replies, 0, ""))
	require.ErrorAs(t, err, &miss)
	assert.Equal(t, "nothing is recorded: the recording does not exist", miss.What)
}

// A model without an identity cannot be keyed; the live model's errors
// pass through and are not recorded.
func TestRecorderErrors(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "x.http.json")
	_, err := simulate.NewRecorder(path, chatFunc(func(string, []evalkit.Message) (string, error) { return "", nil }))
	assert.ErrorContains(t, err, "has no identity with a Provider")
	_, err = simulate.NewRecorder(path, nil)
	assert.EqualError(t, err, "simulate: no live model")

	srv := judgefake.NewServer(judgefake.Reply{Status: 400, Text: "bad request"})
	defer srv.Close()
	rec, err := simulate.NewRecorder(path, openaijudge.New(openaijudge.WithBaseURL(srv.URL+"/v1"), openaijudge.WithAPIKey(testKey)), golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	_, err = simulate.Run(t.Context(), simulate.ModelUser{Model: rec, Goal: "x"}, echo)
	assert.ErrorContains(t, err, "simulate: turn 1: the user: openaijudge: 1 attempt: HTTP 400 Bad Request: bad request")
	require.NoError(t, rec.Save())
	_, err = os.Stat(path)
	assert.ErrorIs(t, err, os.ErrNotExist, "nothing recorded")
}
