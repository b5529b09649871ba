package simulate

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/evalkit-go/evalkit"
)

// User plays the user of a simulated conversation. Next is given the
// conversation so far — the user's earlier messages, the agent's replies
// with their tool calls and results — and returns the user's next
// message, and whether the user ends the conversation with it (the
// message may then be empty). It must not change tr. An error ends the
// run.
//
// ModelUser is a model given a persona, a goal and facts;
// judgefake.Script and judgefake.UserRules are scripted users.
type User interface {
	Next(ctx context.Context, tr *evalkit.Transcript) (text string, stop bool, err error)
}

// UserFunc makes a function a User.
type UserFunc func(ctx context.Context, tr *evalkit.Transcript) (text string, stop bool, err error)

// Next calls f.
func (f UserFunc) Next(ctx context.Context, tr *evalkit.Transcript) (string, bool, error) {
	return f(ctx, tr)
}

// Agent is the agent under test, as the user's own code: given the
// conversation so far, whose last message is the user's, it returns the
// messages of its turn — assistant messages (text, tool calls) and tool
// messages (the calls' results), in order — ending with an assistant
// message whose text is the reply the user reads. It must not change tr.
type Agent func(ctx context.Context, tr *evalkit.Transcript) ([]evalkit.Message, error)

// StopMarker is the text a simulated user writes to end the conversation,
// as τ-bench's user simulator does. Run strips it from the user's message.
const StopMarker = "###STOP###"

// DefaultMaxTurns is how many user messages an agent answers in a run
// unless MaxTurns says otherwise: DeepEval's simulator's default.
const DefaultMaxTurns = 10

// Why a run stopped, as StopReason reads it from the transcript.
const (
	// StopUser: the user ended the conversation (the stop marker, or a
	// User returning stop).
	StopUser = "user"
	// StopGoalMet: the judge of StopWhenGoalMet found the goal met.
	StopGoalMet = "goal_met"
	// StopMaxTurns: the agent answered the most turns MaxTurns allows.
	StopMaxTurns = "max_turns"
)

// Metadata keys Run sets on the transcript it returns.
const (
	// MetaStop holds why the run stopped: StopUser, StopGoalMet or
	// StopMaxTurns.
	MetaStop = "simulate_stop"
	// MetaTurns holds how many user messages the agent answered, a
	// float64 as JSON numbers decode.
	MetaTurns = "simulate_turns"
)

// StopReason returns why the run that made tr stopped (StopUser,
// StopGoalMet, StopMaxTurns), or "" for a transcript Run did not finish.
func StopReason(tr *evalkit.Transcript) string {
	if tr == nil {
		return ""
	}
	s, _ := tr.Metadata[MetaStop].(string)
	return s
}

// Option configures Run.
type Option func(*config)

type config struct {
	maxTurns int
	marker   string
	system   string
	tools    []evalkit.ToolSpec
	judge    evalkit.Judge
	goal     *string
}

// MaxTurns bounds the user messages the agent answers (default
// DefaultMaxTurns): after the agent's reply to the n-th, the run stops
// with StopMaxTurns. n < 1 is an error of Run.
func MaxTurns(n int) Option { return func(c *config) { c.maxTurns = n } }

// WithStopMarker sets the text that ends the conversation when a user's
// message holds it (default StopMarker). "" is an error of Run.
func WithStopMarker(s string) Option { return func(c *config) { c.marker = s } }

// System starts the transcript with a system message: the agent's prompt,
// which the agent reads from the transcript and role checks
// (role_adherence) hold its replies to.
func System(prompt string) Option { return func(c *config) { c.system = prompt } }

// Tools sets the transcript's tool definitions (Transcript.Tools).
func Tools(specs ...evalkit.ToolSpec) Option {
	return func(c *config) { c.tools = append([]evalkit.ToolSpec(nil), specs...) }
}

// WithJudge gives the run a judge, the one StopWhenGoalMet asks.
// evaltest's Simulate gives the test's judge, recorded.
func WithJudge(j evalkit.Judge) Option { return func(c *config) { c.judge = j } }

// StopWhenGoalMet asks the run's judge (WithJudge) after every reply of
// the agent whether the conversation has met the goal, and stops with
// StopGoalMet when it says pass. The goal is goal, or, when goal is "",
// the ModelUser's Goal. The judge is asked for the label "pass" or "fail"
// on the transcript (evalkit.ContentTranscript); a verdict that says
// neither is an error, never a guess. As DeepEval's simulator's
// expected_outcome.
func StopWhenGoalMet(goal string) Option { return func(c *config) { c.goal = &goal } }

// TurnError is an error of a run at one turn: of the user (asked for the
// turn's message), the agent (asked for its reply) or the judge (asked
// whether the goal is met after it).
type TurnError struct {
	// Turn is the turn, 1 for the first user message and its reply.
	Turn int
	// Who is "user", "agent" or "judge".
	Who string
	// Err is what went wrong.
	Err error
}

// Error returns "simulate: turn 3: the agent: …".
func (e *TurnError) Error() string {
	return fmt.Sprintf("simulate: turn %d: the %s: %v", e.Turn, e.Who, e.Err)
}

// Unwrap returns Err.
func (e *TurnError) Unwrap() error { return e.Err }

// ErrAgentReply is what a TurnError of the agent wraps when its messages
// are not a turn (see Agent).
var ErrAgentReply = errors.New("not a reply")

// Run plays a conversation between user and agent until a stop: the user
// ends it (StopMarker, or stop from Next), the judge finds the goal met
// (StopWhenGoalMet), or the agent has answered MaxTurns user messages.
// Each turn asks the user for a message, appends it, and asks the agent
// for its turn, appending every message it returns.
//
// It returns the whole transcript: the System prompt if any, then every
// user and agent message, with Metadata MetaStop and MetaTurns. A user's
// message is kept without the stop marker (dropped when nothing else is
// left). On an error it returns the transcript so far, without
// MetaStop, and an error: a *MissError when a recorded user's model
// replay misses (it names the turn whose agent reply parts from the
// recording), else a *TurnError — the user's, the agent's or the judge's
// error, or the agent's turn not being one (ErrAgentReply: no messages, a
// user or system message, a last message that is not an assistant's with
// text). A panic of the user, the agent or the judge is their error. Bad
// options are errors before anything is asked; ctx's end is an error at the
// turn it ends, with its cause (context.Cause), even for a user, agent or
// judge that ignores ctx: Run stops waiting for it and leaves it running.
func Run(ctx context.Context, user User, agent Agent, opts ...Option) (*evalkit.Transcript, error) {
	c := config{maxTurns: DefaultMaxTurns, marker: StopMarker}
	for _, o := range opts {
		o(&c)
	}
	if mu, ok := user.(*ModelUser); ok && mu == nil {
		user = nil
	}
	switch {
	case user == nil:
		return nil, errors.New("simulate: no user")
	case agent == nil:
		return nil, errors.New("simulate: no agent")
	case c.maxTurns < 1:
		return nil, fmt.Errorf("simulate: MaxTurns(%d): want 1 or more", c.maxTurns)
	case strings.TrimSpace(c.marker) == "":
		return nil, errors.New("simulate: the stop marker is empty")
	}
	goal := ""
	if c.goal != nil {
		goal = strings.TrimSpace(*c.goal)
		if goal == "" {
			if mu, ok := modelUserOf(user); ok {
				goal = strings.TrimSpace(mu.Goal)
			}
		}
		switch {
		case goal == "":
			return nil, errors.New("simulate: StopWhenGoalMet has no goal: give it one, or use a ModelUser with a Goal")
		case c.judge == nil:
			return nil, errors.New("simulate: StopWhenGoalMet needs a judge: give Run the option WithJudge(j)")
		}
	}
	tr := &evalkit.Transcript{Tools: c.tools}
	if c.system != "" {
		tr.Messages = append(tr.Messages, evalkit.Message{Role: evalkit.RoleSystem, Content: c.system})
	}
	for turn := 1; ; turn++ {
		if ctx.Err() != nil {
			return tr, &TurnError{Turn: turn, Who: "user", Err: context.Cause(ctx)}
		}
		type said struct {
			text string
			stop bool
		}
		seen := view(tr)
		next, err := call(ctx, func(ctx context.Context) (said, error) {
			text, stop, err := user.Next(ctx, seen)
			return said{text, stop}, err
		})
		text, stop := next.text, next.stop
		if miss := (*MissError)(nil); errors.As(err, &miss) {
			return tr, err // it names the turn where the conversation parts from the recording
		}
		if err != nil {
			return tr, &TurnError{Turn: turn, Who: "user", Err: err}
		}
		if strings.Contains(text, c.marker) {
			text, stop = strings.TrimSpace(strings.ReplaceAll(text, c.marker, "")), true
		}
		if strings.TrimSpace(text) == "" && !stop {
			return tr, &TurnError{Turn: turn, Who: "user", Err: errors.New("the user said nothing and did not stop")}
		}
		if strings.TrimSpace(text) != "" {
			tr.Messages = append(tr.Messages, evalkit.Message{Role: evalkit.RoleUser, Content: text})
		}
		if stop {
			return finish(tr, StopUser, turn-1), nil
		}
		seen = view(tr)
		msgs, err := call(ctx, func(ctx context.Context) ([]evalkit.Message, error) { return agent(ctx, seen) })
		if err == nil {
			err = checkTurn(msgs)
		}
		if err != nil {
			return tr, &TurnError{Turn: turn, Who: "agent", Err: err}
		}
		tr.Messages = append(tr.Messages, msgs...)
		if c.goal != nil {
			seen = view(tr)
			met, err := call(ctx, func(ctx context.Context) (bool, error) { return goalMet(ctx, c.judge, goal, seen) })
			if err != nil {
				return tr, &TurnError{Turn: turn, Who: "judge", Err: err}
			}
			if met {
				return finish(tr, StopGoalMet, turn), nil
			}
		}
		if turn == c.maxTurns {
			return finish(tr, StopMaxTurns, turn), nil
		}
	}
}

// view is tr as the user and the agent see it: its messages capped, so
// an append by either never writes into the run's own.
func view(tr *evalkit.Transcript) *evalkit.Transcript {
	v := *tr
	v.Messages = tr.Messages[:len(tr.Messages):len(tr.Messages)]
	return &v
}

func finish(tr *evalkit.Transcript, why string, turns int) *evalkit.Transcript {
	if tr.Metadata == nil {
		tr.Metadata = map[string]any{}
	}
	tr.Metadata[MetaStop] = why
	tr.Metadata[MetaTurns] = float64(turns)
	return tr
}

// grace is how long a call whose context ended is still waited for: one
// that honours its context returns at once, with its own error.
const grace = 50 * time.Millisecond

// call runs f — the user's, the agent's or the judge's code — under ctx
// and returns what it returns, a panic as an error. When ctx ends before f
// returns, the run stops waiting for it (f is left to end on its own: an
// agent that ignores its context would hold the run until go test's
// -timeout kills the binary, with no message naming the turn) and says
// why ctx ended; an error f returns as ctx ends says why too.
func call[V any](ctx context.Context, f func(context.Context) (V, error)) (V, error) {
	type result struct {
		v   V
		err error
	}
	guarded := func() (r result) {
		defer func() {
			if p := recover(); p != nil {
				r = result{err: fmt.Errorf("panicked: %v", p)}
			}
		}()
		v, err := f(ctx)
		return result{v, err}
	}
	if ctx.Done() == nil {
		r := guarded()
		return r.v, r.err
	}
	done := make(chan result, 1)
	go func() { done <- guarded() }()
	var r result
	select {
	case r = <-done:
	case <-ctx.Done():
		t := time.NewTimer(grace)
		defer t.Stop()
		select {
		case r = <-done:
		case <-t.C:
			return r.v, fmt.Errorf("no answer once its context ended (left running): %w", context.Cause(ctx))
		}
	}
	if cause := context.Cause(ctx); r.err != nil && cause != nil && cause != ctx.Err() && !errors.Is(r.err, cause) {
		r.err = fmt.Errorf("%w (%v)", r.err, cause)
	}
	return r.v, r.err
}

// checkTurn refuses messages that are not an agent's turn.
func checkTurn(msgs []evalkit.Message) error {
	if len(msgs) == 0 {
		return fmt.Errorf("%w: it returned no messages", ErrAgentReply)
	}
	for i, m := range msgs {
		if m.Role != evalkit.RoleAssistant && m.Role != evalkit.RoleTool {
			return fmt.Errorf("%w: message %d has role %q: an agent's turn holds assistant and tool messages", ErrAgentReply, i+1, m.Role)
		}
	}
	last := msgs[len(msgs)-1]
	if last.Role != evalkit.RoleAssistant || strings.TrimSpace(last.Content) == "" {
		return fmt.Errorf("%w: its last message (%d of %d) is not an assistant message with text for the user to read", ErrAgentReply, len(msgs), len(msgs))
	}
	return nil
}

// goalCriteria is what the judge of StopWhenGoalMet is asked.
const goalCriteria = "The conversation has met the user's goal: "

// goalMet asks j whether the conversation so far meets goal.
func goalMet(ctx context.Context, j evalkit.Judge, goal string, tr *evalkit.Transcript) (bool, error) {
	v, err := j.Judge(ctx, evalkit.JudgeRequest{
		Criteria: goalCriteria + goal,
		Content:  evalkit.RenderTranscript(tr, evalkit.RenderOptions{}),
		Kind:     evalkit.ContentTranscript,
		Labels:   []string{"pass", "fail"},
	})
	if err != nil {
		return false, err
	}
	if passed, ok := evalkit.PassFailLabel(v.Label); ok {
		return passed, nil
	}
	if v.Label == "" && v.Passed != nil {
		return *v.Passed, nil
	}
	return false, fmt.Errorf("asked whether the goal is met (pass or fail), the judge answered %s", labelText(v.Label))
}

func labelText(label string) string {
	if label == "" {
		return "with no label"
	}
	return fmt.Sprintf("the label %q", label)
}
