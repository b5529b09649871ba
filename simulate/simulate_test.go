package simulate_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/judgefake"
	"github.com/evalkit-go/evalkit/simulate"
)

// echo is an agent that answers each user message with one tool call
// and a reply quoting the message.
func echo(_ context.Context, tr *evalkit.Transcript) ([]evalkit.Message, error) {
	last := tr.Messages[len(tr.Messages)-1]
	return []evalkit.Message{
		{Role: evalkit.RoleAssistant, ToolCalls: []evalkit.ToolCall{{ID: "c1", Name: "lookup", Args: []byte(`{"q":1}`)}}},
		{Role: evalkit.RoleTool, ToolCallID: "c1", Name: "lookup", Content: "found"},
		{Role: evalkit.RoleAssistant, Content: "You said: " + last.Content},
	}, nil
}

// A scripted user's turns drive the agent; the stop marker ends the
// conversation and is stripped; the transcript holds everything said.
func TestRunScript(t *testing.T) {
	t.Parallel()
	user := judgefake.Script{"Cancel my trip.", "It is Z7GOZK.", "Thanks! ###STOP###"}
	tr, err := simulate.Run(t.Context(), user, echo, simulate.System("You are an airline agent."))
	require.NoError(t, err)
	var got []string
	for _, m := range tr.Messages {
		got = append(got, string(m.Role)+": "+m.Content)
	}
	assert.Equal(t, []string{
		"system: You are an airline agent.",
		"user: Cancel my trip.", "assistant: ", "tool: found", "assistant: You said: Cancel my trip.",
		"user: It is Z7GOZK.", "assistant: ", "tool: found", "assistant: You said: It is Z7GOZK.",
		"user: Thanks!",
	}, got)
	assert.Equal(t, simulate.StopUser, simulate.StopReason(tr))
	assert.Equal(t, 2.0, tr.Metadata[simulate.MetaTurns])
	assert.Len(t, tr.ToolCalls(), 2)
	assert.Equal(t, "found", tr.ToolCalls()[1].Result.Content)
}

// A script that runs out ends the conversation with no last message; a
// marker alone adds none.
func TestRunScriptEnds(t *testing.T) {
	t.Parallel()
	for _, user := range []judgefake.Script{{"Hello."}, {"Hello.", "###STOP###"}} {
		tr, err := simulate.Run(t.Context(), user, echo)
		require.NoError(t, err)
		require.Len(t, tr.Messages, 4)
		assert.Equal(t, evalkit.RoleAssistant, tr.Messages[3].Role)
		assert.Equal(t, simulate.StopUser, simulate.StopReason(tr))
	}
}

// The user and the agent see the conversation, never the run's own slice:
// an agent that appends to what it was given changes nothing.
func TestRunViewIsCapped(t *testing.T) {
	t.Parallel()
	greedy := func(_ context.Context, tr *evalkit.Transcript) ([]evalkit.Message, error) {
		_ = append(tr.Messages, evalkit.Message{Role: evalkit.RoleUser, Content: "forged"})
		return []evalkit.Message{{Role: evalkit.RoleAssistant, Content: "ok"}}, nil
	}
	tr, err := simulate.Run(t.Context(), judgefake.Script{"a", "b"}, greedy)
	require.NoError(t, err)
	for _, m := range tr.Messages {
		assert.NotEqual(t, "forged", m.Content)
	}
	assert.Len(t, tr.Messages, 4)
}

// An agent's turn that is not one is an error at its turn, with the
// transcript so far; so is an agent's error or panic.
func TestRunAgentNotATurn(t *testing.T) {
	t.Parallel()
	cases := map[string]struct {
		msgs []evalkit.Message
		err  error
		want string
	}{
		"nothing":      {want: "it returned no messages"},
		"user message": {msgs: []evalkit.Message{{Role: evalkit.RoleUser, Content: "I am the user now"}}, want: `message 1 has role "user"`},
		"ends on tool": {msgs: []evalkit.Message{{Role: evalkit.RoleAssistant, Content: "Let me see.", ToolCalls: []evalkit.ToolCall{{Name: "x"}}}, {Role: evalkit.RoleTool, Content: "r"}}, want: "its last message (2 of 2) is not an assistant message with text"},
		"no text":      {msgs: []evalkit.Message{{Role: evalkit.RoleAssistant, Content: "  "}}, want: "is not an assistant message with text"},
		"error":        {err: errors.New("model down"), want: "model down"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			turn := 0
			agent := func(context.Context, *evalkit.Transcript) ([]evalkit.Message, error) {
				turn++
				if turn == 1 {
					return []evalkit.Message{{Role: evalkit.RoleAssistant, Content: "Hi."}}, nil
				}
				return c.msgs, c.err
			}
			tr, err := simulate.Run(t.Context(), judgefake.Script{"one", "two", "three"}, agent)
			var te *simulate.TurnError
			require.ErrorAs(t, err, &te)
			assert.Equal(t, 2, te.Turn)
			assert.Equal(t, "agent", te.Who)
			assert.Contains(t, err.Error(), "simulate: turn 2: the agent: ")
			assert.Contains(t, err.Error(), c.want)
			assert.Equal(t, c.err == nil, errors.Is(err, simulate.ErrAgentReply))
			require.NotNil(t, tr)
			assert.Len(t, tr.Messages, 3, "turn 1 and the user's message of turn 2")
			assert.Empty(t, simulate.StopReason(tr))
		})
	}
	t.Run("panic", func(t *testing.T) {
		t.Parallel()
		_, err := simulate.Run(t.Context(), judgefake.Script{"one"}, func(context.Context, *evalkit.Transcript) ([]evalkit.Message, error) {
			panic("boom")
		})
		assert.EqualError(t, err, "simulate: turn 1: the agent: panicked: boom")
	})
}

// A user that says nothing without stopping, or fails, is an error of
// the user at its turn.
func TestRunUserErrors(t *testing.T) {
	t.Parallel()
	_, err := simulate.Run(t.Context(), judgefake.Script{"one", " "}, echo)
	assert.EqualError(t, err, "simulate: turn 2: the user: the user said nothing and did not stop")
	_, err = simulate.Run(t.Context(), simulate.UserFunc(func(context.Context, *evalkit.Transcript) (string, bool, error) {
		return "", false, errors.New("rate limited")
	}), echo)
	assert.EqualError(t, err, "simulate: turn 1: the user: rate limited")
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err = simulate.Run(ctx, judgefake.Script{"one"}, echo)
	assert.ErrorIs(t, err, context.Canceled)
}

// MaxTurns stops a user who never stops, after the agent's reply.
func TestRunMaxTurns(t *testing.T) {
	t.Parallel()
	user := judgefake.UserRules{First: "Hi.", Rules: []judgefake.UserRule{{Otherwise: true, Say: "And?"}}}
	tr, err := simulate.Run(t.Context(), user, echo, simulate.MaxTurns(3))
	require.NoError(t, err)
	assert.Equal(t, simulate.StopMaxTurns, simulate.StopReason(tr))
	assert.Equal(t, 3.0, tr.Metadata[simulate.MetaTurns])
	assert.Equal(t, evalkit.RoleAssistant, tr.Messages[len(tr.Messages)-1].Role)
	assert.Len(t, tr.Messages, 12)

	tr, err = simulate.Run(t.Context(), user, echo)
	require.NoError(t, err)
	assert.Equal(t, float64(simulate.DefaultMaxTurns), tr.Metadata[simulate.MetaTurns])
}

// A judge decides when the goal is met: asked after every reply, with
// the goal and the transcript; a verdict without pass or fail is an error.
func TestRunGoalMet(t *testing.T) {
	t.Parallel()
	user := judgefake.UserRules{First: "Cancel Z7GOZK.", Rules: []judgefake.UserRule{{Otherwise: true, Say: "Please do."}}}
	judge := judgefake.Spy(judgefake.Sequence(evalkit.Verdict{Label: "fail"}, evalkit.Verdict{Label: "pass"}))
	tr, err := simulate.Run(t.Context(), user, echo, simulate.WithJudge(judge), simulate.StopWhenGoalMet("Reservation Z7GOZK is cancelled"))
	require.NoError(t, err)
	assert.Equal(t, simulate.StopGoalMet, simulate.StopReason(tr))
	assert.Equal(t, 2.0, tr.Metadata[simulate.MetaTurns])
	reqs := judge.Requests()
	require.Len(t, reqs, 2)
	assert.Equal(t, "The conversation has met the user's goal: Reservation Z7GOZK is cancelled", reqs[1].Criteria)
	assert.Equal(t, evalkit.ContentTranscript, reqs[1].Kind)
	assert.Equal(t, []string{"pass", "fail"}, reqs[1].Labels)
	assert.Contains(t, reqs[1].Content, "user: Please do.")

	_, err = simulate.Run(t.Context(), user, echo, simulate.WithJudge(judgefake.Pass()), simulate.StopWhenGoalMet("x"))
	require.NoError(t, err, "a judge's own pass/fail is read when it gives no label")
	_, err = simulate.Run(t.Context(), user, echo, simulate.WithJudge(judgefake.Fixed(evalkit.Verdict{Label: "maybe"})), simulate.StopWhenGoalMet("x"))
	assert.EqualError(t, err, `simulate: turn 1: the judge: asked whether the goal is met (pass or fail), the judge answered the label "maybe"`)
}

// Options that cannot work are errors before anyone is asked.
func TestRunBadOptions(t *testing.T) {
	t.Parallel()
	asked := false
	user := simulate.UserFunc(func(context.Context, *evalkit.Transcript) (string, bool, error) {
		asked = true
		return "hi", false, nil
	})
	for _, c := range []struct {
		opts []simulate.Option
		want string
	}{
		{[]simulate.Option{simulate.MaxTurns(0)}, "simulate: MaxTurns(0): want 1 or more"},
		{[]simulate.Option{simulate.WithStopMarker(" ")}, "simulate: the stop marker is empty"},
		{[]simulate.Option{simulate.StopWhenGoalMet("")}, "simulate: StopWhenGoalMet has no goal: give it one, or use a ModelUser with a Goal"},
		{[]simulate.Option{simulate.StopWhenGoalMet("done")}, "simulate: StopWhenGoalMet needs a judge: give Run the option WithJudge(j)"},
	} {
		_, err := simulate.Run(t.Context(), user, echo, c.opts...)
		assert.EqualError(t, err, c.want)
	}
	_, err := simulate.Run(t.Context(), nil, echo)
	assert.EqualError(t, err, "simulate: no user")
	_, err = simulate.Run(t.Context(), user, nil)
	assert.EqualError(t, err, "simulate: no agent")
	assert.False(t, asked)
}

// UserRules answers the agent's last reply by its first matching rule.
func TestUserRules(t *testing.T) {
	t.Parallel()
	user := judgefake.UserRules{First: "I want to cancel.", Rules: []judgefake.UserRule{
		{Keyword: "user id", Say: "omar_rossi_1241"},
		{Pattern: `(?i)\bconfirm\b`, Say: "Yes."},
		{Otherwise: true, Stop: true},
	}}
	replies := []string{"What is your user id?", "Please CONFIRM.", "Done."}
	turn := 0
	agent := func(context.Context, *evalkit.Transcript) ([]evalkit.Message, error) {
		turn++
		return []evalkit.Message{{Role: evalkit.RoleAssistant, Content: replies[turn-1]}}, nil
	}
	tr, err := simulate.Run(t.Context(), user, agent)
	require.NoError(t, err)
	var said []string
	for _, m := range tr.Messages {
		if m.Role == evalkit.RoleUser {
			said = append(said, m.Content)
		}
	}
	assert.Equal(t, []string{"I want to cancel.", "omar_rossi_1241", "Yes."}, said)

	broken := judgefake.UserRules{First: "x", Rules: []judgefake.UserRule{{Say: "a"}, {Otherwise: true, Keyword: "k", Say: "b"}, {Pattern: "(", Say: "c"}, {Keyword: "k"}}}
	_, _, err = broken.Next(t.Context(), &evalkit.Transcript{})
	require.Error(t, err)
	for _, want := range []string{"Rules[0]: none of Keyword", "Rules[1]: Otherwise with", "Rules[2]: Pattern:", "Rules[3]: an empty Say"} {
		assert.Contains(t, err.Error(), want)
	}
	_, _, err = judgefake.UserRules{First: "x", Rules: []judgefake.UserRule{{Keyword: "zzz", Say: "a"}}}.Next(t.Context(), tr)
	assert.ErrorContains(t, err, `none of 1 user rules matches the agent's reply "Done."`)
}

// A ModelUser's model sees the conversation from the user's side: the
// agent's replies (their text only, joined) as the other side, its own
// lines as its own, after the opening.
func TestModelUserMessages(t *testing.T) {
	t.Parallel()
	tr := &evalkit.Transcript{Messages: []evalkit.Message{
		{Role: evalkit.RoleSystem, Content: "policy"},
		{Role: evalkit.RoleUser, Content: "Cancel my trip."},
		{Role: evalkit.RoleAssistant, Content: "Let me look.", ToolCalls: []evalkit.ToolCall{{Name: "get"}}},
		{Role: evalkit.RoleTool, Content: "{...}"},
		{Role: evalkit.RoleAssistant, Content: "Which one?"},
		{Role: evalkit.RoleUser, Content: "Z7GOZK."},
		{Role: evalkit.RoleAssistant, Content: "Done."},
	}}
	u := simulate.ModelUser{Goal: "cancel"}
	var got []string
	for _, m := range u.Messages(tr) {
		got = append(got, string(m.Role)+": "+m.Content)
	}
	assert.Equal(t, []string{
		"user: " + simulate.DefaultOpening,
		"assistant: Cancel my trip.",
		"user: Let me look.\n\nWhich one?",
		"assistant: Z7GOZK.",
		"user: Done.",
	}, got)
	sys := simulate.ModelUser{Persona: "Omar, brief", Goal: "cancel Z7GOZK", Facts: []string{"user id omar_rossi_1241", " "}}.SystemPrompt()
	for _, want := range []string{"# Who you are\nOmar, brief\n", "# What you want\ncancel Z7GOZK\n", "# What you know\n- user id omar_rossi_1241\n# How", "write ###STOP### as your whole message"} {
		assert.Contains(t, strings.ReplaceAll(sys, "\n\n# How", "\n# How"), want)
	}
}

// A ModelUser without a model or without anyone to play is an error, and
// so is an empty reply; the stop marker ends the conversation.
func TestModelUserNext(t *testing.T) {
	t.Parallel()
	_, _, err := simulate.ModelUser{Goal: "x"}.Next(t.Context(), nil)
	assert.EqualError(t, err, "ModelUser has no Model")
	model := chatFunc(func(string, []evalkit.Message) (string, error) { return "x", nil })
	_, _, err = simulate.ModelUser{Model: model}.Next(t.Context(), nil)
	assert.ErrorContains(t, err, "neither a Goal nor a Persona")

	replies := []string{"Bye now. ###STOP###", "  "}
	i := 0
	model = chatFunc(func(string, []evalkit.Message) (string, error) { i++; return replies[i-1], nil })
	text, stop, err := simulate.ModelUser{Model: model, Goal: "x"}.Next(t.Context(), nil)
	require.NoError(t, err)
	assert.Equal(t, "Bye now.", text)
	assert.True(t, stop)
	_, _, err = simulate.ModelUser{Model: model, Goal: "x"}.Next(t.Context(), nil)
	assert.ErrorContains(t, err, "wrote an empty message")
}

type chatFunc func(system string, msgs []evalkit.Message) (string, error)

func (f chatFunc) Chat(_ context.Context, system string, msgs []evalkit.Message) (evalkit.Message, error) {
	text, err := f(system, msgs)
	return evalkit.Message{Role: evalkit.RoleAssistant, Content: text}, err
}

func ExampleRun() {
	agent := func(_ context.Context, tr *evalkit.Transcript) ([]evalkit.Message, error) {
		return []evalkit.Message{{Role: evalkit.RoleAssistant, Content: fmt.Sprintf("(reply %d)", len(tr.Messages))}}, nil
	}
	user := judgefake.Script{"I want to cancel my trip.", "It is Z7GOZK.", "Thanks. ###STOP###"}
	tr, err := simulate.Run(context.Background(), user, agent)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, m := range tr.Messages {
		fmt.Printf("%s: %s\n", m.Role, m.Content)
	}
	fmt.Println("stop:", simulate.StopReason(tr))
	// Output:
	// user: I want to cancel my trip.
	// assistant: (reply 1)
	// user: It is Z7GOZK.
	// assistant: (reply 3)
	// user: Thanks.
	// stop: user
}

// An agent that ignores its context does not hold the run: once the
// context ends, Run stops waiting for it (it is left to end on its own)
// and says which turn and why, where it waited until go test's -timeout
// killed the binary with no message naming the turn.
func TestRunStopsWaitingForAnAgentThatIgnoresItsContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		stuck := func(context.Context, *evalkit.Transcript) ([]evalkit.Message, error) {
			<-release // ignores its context
			return []evalkit.Message{{Role: evalkit.RoleAssistant, Content: "late"}}, nil
		}
		ctx, cancel := context.WithTimeoutCause(t.Context(), time.Minute, errors.New("the test's deadline is near"))
		defer cancel()
		start := time.Now()
		tr, err := simulate.Run(ctx, judgefake.Script{"Cancel my trip.", "Thanks."}, stuck)
		assert.Less(t, time.Since(start), time.Minute+time.Second)
		var te *simulate.TurnError
		require.ErrorAs(t, err, &te)
		assert.Equal(t, 1, te.Turn)
		assert.Equal(t, "agent", te.Who)
		assert.EqualError(t, err, "simulate: turn 1: the agent: no answer once its context ended (left running): the test's deadline is near")
		assert.Len(t, tr.Messages, 1, "the conversation so far")
		close(release)
	})

	// An agent that honours it returns its own error, and the cause beside it.
	synctest.Test(t, func(t *testing.T) {
		polite := func(ctx context.Context, _ *evalkit.Transcript) ([]evalkit.Message, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		}
		ctx, cancel := context.WithTimeoutCause(t.Context(), time.Minute, errors.New("the test's deadline is near"))
		defer cancel()
		_, err := simulate.Run(ctx, judgefake.Script{"Hi."}, polite)
		assert.EqualError(t, err, "simulate: turn 1: the agent: context deadline exceeded (the test's deadline is near)")
		assert.ErrorIs(t, err, context.DeadlineExceeded)
	})
}

// A user or a judge that panics is an error at its turn, as an agent that
// panics is, never a panic of the test binary; so is a nil *ModelUser.
func TestRunPanickingUserAndJudge(t *testing.T) {
	reply := func(context.Context, *evalkit.Transcript) ([]evalkit.Message, error) {
		return []evalkit.Message{{Role: evalkit.RoleAssistant, Content: "Done."}}, nil
	}
	boom := simulate.UserFunc(func(_ context.Context, tr *evalkit.Transcript) (string, bool, error) {
		if len(tr.Messages) > 0 {
			panic("index out of range")
		}
		return "Hi.", false, nil
	})
	_, err := simulate.Run(t.Context(), boom, reply)
	assert.EqualError(t, err, "simulate: turn 2: the user: panicked: index out of range")

	_, err = simulate.Run(t.Context(), judgefake.Script{"Hi.", "Bye."}, reply,
		simulate.StopWhenGoalMet("done"), simulate.WithJudge(evalkit.JudgeFunc(func(context.Context, evalkit.JudgeRequest) (evalkit.Verdict, error) {
			panic("nil map")
		})))
	assert.EqualError(t, err, "simulate: turn 1: the judge: panicked: nil map")

	var nobody *simulate.ModelUser
	_, err = simulate.Run(t.Context(), nobody, reply)
	assert.EqualError(t, err, "simulate: no user")
}

// Every stop marker in a user's message is stripped, not the first alone.
func TestRunStripsEveryStopMarker(t *testing.T) {
	reply := func(context.Context, *evalkit.Transcript) ([]evalkit.Message, error) {
		return []evalkit.Message{{Role: evalkit.RoleAssistant, Content: "Done."}}, nil
	}
	tr, err := simulate.Run(t.Context(), judgefake.Script{"Hi.", "Thanks! ###STOP### ###STOP###"}, reply)
	require.NoError(t, err)
	assert.Equal(t, "Thanks!", tr.Messages[len(tr.Messages)-1].Content)
	assert.Equal(t, simulate.StopUser, simulate.StopReason(tr))
}
