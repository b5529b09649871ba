package evaltest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/evaltest"
	"github.com/evalkit-go/evalkit/golden"
	"github.com/evalkit-go/evalkit/judgefake"
	"github.com/evalkit-go/evalkit/openaijudge"
	"github.com/evalkit-go/evalkit/simulate"
)

// tauConversation is a real τ-bench conversation: the task's instruction,
// the customer's turns (GPT-4 playing the user) and the text of the
// agent's reply to each (GPT-4o).
type tauConversation struct {
	task, trial int
	instruction string
	users       []string
	replies     []string
}

func loadTauConversations(t testing.TB) []tauConversation {
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
	var out []tauConversation
	for _, r := range runs {
		c := tauConversation{task: r.TaskID, trial: r.Trial, instruction: r.Info.Task.Instruction}
		var reply []string
		for _, m := range r.Traj {
			text := ""
			if m.Content != nil {
				text = strings.TrimSpace(*m.Content)
			}
			switch {
			case m.Role == "user":
				if len(c.users) > 0 {
					c.replies = append(c.replies, strings.Join(reply, "\n\n"))
				}
				reply = nil
				c.users = append(c.users, text)
			case m.Role == "assistant" && text != "":
				reply = append(reply, text)
			}
		}
		// Runs that end with the user's stop, every reply with text.
		if strings.Contains(c.users[len(c.users)-1], simulate.StopMarker) && len(c.replies) == len(c.users)-1 && !slicesContainEmpty(c.replies) {
			out = append(out, c)
		}
	}
	return out
}

func slicesContainEmpty(ss []string) bool {
	for _, s := range ss {
		if s == "" {
			return true
		}
	}
	return false
}

// tauAgent answers turn k with the recorded reply k, or changed at turn
// change.
func tauAgent(replies []string, change int, changed string) simulate.Agent {
	return func(_ context.Context, tr *evalkit.Transcript) ([]evalkit.Message, error) {
		turn := 0
		for _, m := range tr.Messages {
			if m.Role == evalkit.RoleUser {
				turn++
			}
		}
		if turn > len(replies) {
			return nil, fmt.Errorf("asked for turn %d of %d", turn, len(replies))
		}
		text := replies[turn-1]
		if turn == change {
			text = changed
		}
		return []evalkit.Message{{Role: evalkit.RoleAssistant, Content: text}}, nil
	}
}

// The Done-when of simulated users: for each real τ-bench conversation
// (GPT-4 playing the customer), a test records its simulated user's model
// against a fake model server, then replays it with no server and no key
// — the same conversation — and an agent that says something else at
// turn 2 fails with a miss naming turn 2, what the agent said then and
// now, and the command that records it. The conversations run in
// parallel, each in its own test's recording.
func TestSimulateRecordsAndReplays(t *testing.T) {
	convs := loadTauConversations(t)
	require.GreaterOrEqual(t, len(convs), 8, "real conversations")
	isolate(t)
	for _, c := range convs {
		name := fmt.Sprintf("TestTau%dTrial%d", c.task, c.trial)
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			user := func(m simulate.Model) simulate.ModelUser {
				return simulate.ModelUser{Model: m, Goal: c.instruction}
			}
			srv := judgefake.NewUserServer(c.users...)
			model := openaijudge.New(openaijudge.WithBaseURL(srv.URL+"/v1"), openaijudge.WithAPIKey("sk-test-simulated-user-0123456789"), openaijudge.WithModel("gpt-4"))
			var recorded *evalkit.Transcript
			tb := run(name, []evaltest.Option{evaltest.WithMode(golden.ModeRecord)}, func(et *evaltest.T) {
				recorded = et.Simulate(user(model), tauAgent(c.replies, 0, ""))
			})
			srv.Close()
			require.Empty(t, tb.errors)
			require.NoError(t, srv.Err())
			assert.Equal(t, simulate.StopUser, simulate.StopReason(recorded))
			data, err := os.ReadFile("testdata/evalkit/" + name + ".http.json")
			require.NoError(t, err)
			assert.Equal(t, len(c.users), strings.Count(string(data), simulate.ChatPath), "one exchange per user turn")
			assert.Equal(t, len(c.users), strings.Count(string(data), `"test": "`+name+`"`), "every exchange has its test")
			require.NoError(t, golden.Verify("testdata/evalkit/"+name+".http.json"))
			assert.NotContains(t, string(data), "sk-test-simulated-user")

			offline := openaijudge.New(openaijudge.WithBaseURL("http://model.invalid/v1"), openaijudge.WithModel("gpt-4")) // no server, no key
			var replayed *evalkit.Transcript
			tb = run(name, nil, func(et *evaltest.T) {
				replayed = et.Simulate(user(offline), tauAgent(c.replies, 0, ""))
			})
			require.Empty(t, tb.errors)
			assert.Equal(t, recorded.Messages, replayed.Messages)

			changed := "I have cancelled everything for you."
			tb = run(name, nil, func(et *evaltest.T) {
				et.Simulate(user(offline), tauAgent(c.replies, 2, changed))
				t.Error("Simulate did not stop the test")
			})
			require.Len(t, tb.errors, 1)
			want := fmt.Sprintf(`Simulate(ModelUser(gpt-4)): error: simulate: not recorded: turn 2: the agent said something else than in the recording
now: %q
recorded: %s
recording: testdata/evalkit/%s.http.json (nearest sha256:KEY)
transcript: 4 messages
hint: EVALKIT_MODE=record go test PKG-run '^%s$'   # record the simulated user's replies to the new conversation`,
				changed, quote(c.replies[1]), name, name)
			pattern := regexp.QuoteMeta(want)
			pattern = strings.Replace(pattern, "KEY", "[0-9a-f]{12}", 1)
			pattern = strings.Replace(pattern, "PKG", `(\./\S+ )?`, 1)
			assert.Regexp(t, "^"+pattern+"$", tb.errors[0])
		})
	}
}

// quote is how a miss quotes a text: Go-quoted, cut after 300 bytes.
func quote(s string) string {
	if len(s) <= 300 {
		return fmt.Sprintf("%q", s)
	}
	cut := 300
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return fmt.Sprintf("%q… [%d more bytes]", s[:cut], len(s)-cut)
}

// A scripted user is not recorded; the T's judge decides when the goal is
// met; an agent's error stops the test at its turn.
func TestSimulateScriptedAndJudged(t *testing.T) {
	isolate(t)
	user := judgefake.UserRules{First: "Cancel Z7GOZK.", Rules: []judgefake.UserRule{{Otherwise: true, Say: "Please go ahead."}}}
	echo := func(_ context.Context, tr *evalkit.Transcript) ([]evalkit.Message, error) {
		return []evalkit.Message{{Role: evalkit.RoleAssistant, Content: "Done: " + tr.Messages[len(tr.Messages)-1].Content}}, nil
	}
	judge := judgefake.Sequence(evalkit.Verdict{Label: "fail"}, evalkit.Verdict{Label: "fail"}, evalkit.Verdict{Label: "pass"})
	var tr *evalkit.Transcript
	tb := run("TestGoal", []evaltest.Option{evaltest.WithJudge(judge)}, func(et *evaltest.T) {
		tr = et.Simulate(user, echo, simulate.StopWhenGoalMet("Z7GOZK is cancelled"))
	})
	require.Empty(t, tb.errors)
	assert.Equal(t, simulate.StopGoalMet, simulate.StopReason(tr))
	assert.Equal(t, 3.0, tr.Metadata[simulate.MetaTurns])
	_, err := os.Stat("testdata/evalkit/TestGoal.http.json")
	assert.ErrorIs(t, err, os.ErrNotExist, "a scripted user is not recorded")

	broken := func(context.Context, *evalkit.Transcript) ([]evalkit.Message, error) {
		return []evalkit.Message{{Role: evalkit.RoleTool, Content: "x"}}, nil
	}
	tb = run("TestBroken", nil, func(et *evaltest.T) {
		et.Simulate(judgefake.Script{"Hi."}, broken)
	})
	assert.Equal(t, []string{`Simulate(judgefake.Script(1 turns)): error: simulate: turn 1: the agent: not a reply: its last message (1 of 1) is not an assistant message with text for the user to read
transcript: 1 message`}, tb.errors)
}

type ledger struct {
	Balance  int
	Bookings map[string]string
}

// StateEquals passes equal states and shows a go-cmp diff of others;
// states go-cmp cannot compare are an error.
func TestStateEquals(t *testing.T) {
	want := ledger{Balance: 71, Bookings: map[string]string{"FQ8APE": "economy"}}
	tb := run("TestState", nil, func(et *evaltest.T) {
		et.Expect(&evalkit.Transcript{}).StateEquals(want, ledger{Balance: 71, Bookings: map[string]string{"FQ8APE": "economy"}})
	})
	assert.Empty(t, tb.errors)
	tb = run("TestState", nil, func(et *evaltest.T) {
		et.Expect(&evalkit.Transcript{}).StateEquals(want, ledger{Balance: 280, Bookings: map[string]string{"FQ8APE": "basic_economy"}})
	})
	require.Len(t, tb.errors, 1)
	assert.True(t, strings.HasPrefix(tb.errors[0], "StateEquals(evaltest_test.ledger): the state differs from the expected one in 4 lines\ndiff (-want +got):\n"), tb.errors[0])
	// go-cmp's diffs are not stable byte for byte (it varies its spaces
	// on purpose): the lines that differ are checked, not their layout.
	assert.Regexp(t, `\n-[\s\x{a0}]+Balance:\s+71,\n\+[\s\x{a0}]+Balance:\s+280,\n`, tb.errors[0])
	assert.Regexp(t, `\n\+[\s\x{a0}]+Bookings:\s+map\[string\]string\{"FQ8APE": "basic_economy"\},\n`, tb.errors[0])

	type hidden struct{ n int }
	tb = run("TestState", nil, func(et *evaltest.T) {
		et.Expect(&evalkit.Transcript{}).StateEquals(hidden{1}, hidden{2})
	})
	require.Len(t, tb.errors, 1)
	assert.True(t, strings.HasPrefix(tb.errors[0], "StateEquals(evaltest_test.hidden): error: go-cmp cannot compare the states: cannot handle unexported field"), tb.errors[0])
}

// A changed agent reply at any turn of a real conversation — the first,
// the last before the user's stop, each between — misses at that turn.
func TestSimulateMissNamesEveryTurn(t *testing.T) {
	c := loadTauConversations(t)[0]
	isolate(t)
	user := func(m simulate.Model) simulate.ModelUser { return simulate.ModelUser{Model: m, Goal: c.instruction} }
	srv := judgefake.NewUserServer(c.users...)
	model := openaijudge.New(openaijudge.WithBaseURL(srv.URL+"/v1"), openaijudge.WithAPIKey("sk-test-every-turn-0123"), openaijudge.WithModel("gpt-4"))
	tb := run("TestEveryTurn", []evaltest.Option{evaltest.WithMode(golden.ModeRecord)}, func(et *evaltest.T) {
		et.Simulate(user(model), tauAgent(c.replies, 0, ""))
	})
	srv.Close()
	require.Empty(t, tb.errors)
	require.GreaterOrEqual(t, len(c.replies), 5)
	offline := openaijudge.New(openaijudge.WithBaseURL("http://model.invalid/v1"), openaijudge.WithModel("gpt-4"))
	for turn := 1; turn <= len(c.replies); turn++ {
		tb = run("TestEveryTurn", nil, func(et *evaltest.T) {
			et.Simulate(user(offline), tauAgent(c.replies, turn, "Something else entirely."))
		})
		require.Len(t, tb.errors, 1, "turn %d", turn)
		assert.True(t, strings.HasPrefix(tb.errors[0], fmt.Sprintf("Simulate(ModelUser(gpt-4)): error: simulate: not recorded: turn %d: the agent said something else than in the recording\n", turn)), tb.errors[0])
	}
}
