package agent_test

import (
	"context"
	"encoding/json"
	"errors"
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
	"github.com/evalkit-go/evalkit/examples/agent"
	"github.com/evalkit-go/evalkit/golden"
	"github.com/evalkit-go/evalkit/judgefake"
	"github.com/evalkit-go/evalkit/openaijudge"
)

// A real GPT-4o τ-bench run (airline task 1, trial 1, reward 1): the
// policy it was given, what its simulated user said, what the model
// answered and what the tools returned.
type run struct {
	system  string
	users   []string
	replies []judgefake.Reply // the model's turns, to script the fake model API
	results map[string]string // tool name and canonical arguments → result
}

func loadRun(t testing.TB) run {
	t.Helper()
	data, err := os.ReadFile("../../testdata/tau_bench/airline_gpt4o_trajectories.json")
	require.NoError(t, err)
	var runs []struct {
		TaskID int     `json:"task_id"`
		Trial  int     `json:"trial"`
		Reward float64 `json:"reward"`
		Traj   []struct {
			Role      string  `json:"role"`
			Content   *string `json:"content"`
			ToolCalls []struct {
				ID       string `json:"id"`
				Function struct{ Name, Arguments string }
			} `json:"tool_calls"`
			ToolCallID string `json:"tool_call_id"`
		} `json:"traj"`
	}
	require.NoError(t, json.Unmarshal(data, &runs))
	for _, r := range runs {
		if r.TaskID != 1 || r.Trial != 1 {
			continue
		}
		out := run{results: map[string]string{}}
		calls := map[string]string{} // call id → its key in results
		for _, m := range r.Traj {
			text := ""
			if m.Content != nil {
				text = *m.Content
			}
			switch m.Role {
			case "system":
				out.system = text
			case "user":
				out.users = append(out.users, text)
			case "assistant":
				reply := judgefake.Reply{Text: text, Model: "gpt-4o-2024-08-06"}
				for _, c := range m.ToolCalls {
					reply.ToolCalls = append(reply.ToolCalls, judgefake.ToolCall{ID: c.ID, Name: c.Function.Name, Args: c.Function.Arguments})
					calls[c.ID] = callKey(t, c.Function.Name, json.RawMessage(c.Function.Arguments))
				}
				out.replies = append(out.replies, reply)
			case "tool":
				out.results[calls[m.ToolCallID]] = text
			}
		}
		// The simulated user's last turn ends the conversation (###STOP###):
		// the agent never answers it.
		out.users = out.users[:len(out.users)-1]
		return out
	}
	t.Fatal("no airline run with task 1, trial 1")
	return run{}
}

// callKey is a tool call's name and canonical arguments.
func callKey(t testing.TB, name string, args json.RawMessage) string {
	var v any
	require.NoError(t, json.Unmarshal(args, &v))
	canon, err := json.Marshal(v)
	require.NoError(t, err)
	return name + " " + string(canon)
}

// tools are three of τ-bench's airline tools, answering with the run's
// recorded results: the environment replays as the model does.
func tools(t testing.TB, r run) []agent.Tool {
	schema := func(param string) json.RawMessage {
		return json.RawMessage(`{"type": "object", "properties": {"` + param + `": {"type": "string"}}, "required": ["` + param + `"]}`)
	}
	answer := func(name string) func(ctx context.Context, args json.RawMessage) (string, error) {
		return func(_ context.Context, args json.RawMessage) (string, error) {
			if res, ok := r.results[callKey(t, name, args)]; ok {
				return res, nil
			}
			return "", errors.New("not found")
		}
	}
	return []agent.Tool{
		{Name: "get_user_details", Description: "Get the details of a user, including their reservations.", Parameters: schema("user_id"), Run: answer("get_user_details")},
		{Name: "get_reservation_details", Description: "Get the details of a reservation.", Parameters: schema("reservation_id"), Run: answer("get_reservation_details")},
		{Name: "cancel_reservation", Description: "Cancel the whole reservation.", Parameters: schema("reservation_id"), Run: answer("cancel_reservation")},
	}
}

// The judge's answer when recording: what a judge model writes.
const judgeAnswer = `{"reasoning": "The agent found the user's reservations, identified Z7GOZK as the Texas trip, explained that basic economy cannot be modified, obtained explicit confirmation and cancelled it, stating the refund.", "score": 9}`

// Where the fake servers stand for the live APIs: never dialled in replay.
const (
	replayModelURL = "http://model.invalid/v1"
	replayJudgeURL = "http://judge.invalid/v1"
)

// newAgent is the agent under test, its model calls through client.
func newAgent(t testing.TB, r run, baseURL string, client *http.Client) *agent.Agent {
	return &agent.Agent{
		BaseURL:      baseURL,
		APIKey:       "sk-example-never-written-0123456789", // a real key in real use: never written
		Model:        "gpt-4o",
		SystemPrompt: r.system,
		Tools:        tools(t, r),
		Client:       client,
	}
}

// The agent's whole conversation and the judge's verdict replay from
// testdata/evalkit/TestAgent.{http,judge}.json with no server and no key;
// EVALKIT_MODE=record asks fakes scripted from the real run instead,
// standing for the live APIs at the same URLs, and writes the recordings.
func TestAgent(t *testing.T) {
	mode, err := evaltest.Mode()
	require.NoError(t, err)
	agentCase(t, mode, loadRun(t).system)
}

// agentCase is TestAgent's body: the agent, prompted with prompt, runs
// the real run's conversation in mode, and evaltest checks its transcript.
func agentCase(t testing.TB, mode golden.Mode, prompt string) {
	r := loadRun(t)
	judgeURL := replayJudgeURL
	var live http.RoundTripper // the model API: the recording, or in record mode a fake standing for it
	if mode != golden.ModeReplay {
		model := judgefake.NewTransport(r.replies...)
		judge := judgefake.NewServer(judgefake.Text(judgeAnswer))
		t.Cleanup(func() {
			judge.Close()
			assert.NoError(t, model.Err(), "the agent asked the model what the run did not")
			assert.NoError(t, judge.Err())
		})
		live, judgeURL = model, judge.URL+"/v1"
	}

	a := newAgent(t, r, replayModelURL, evaltest.HTTPTransport(t, live, golden.WithMode(mode)).Client)
	a.SystemPrompt = prompt
	tr, err := a.Run(t.Context(), r.users)
	require.NoError(t, err)

	judge := openaijudge.New(openaijudge.WithBaseURL(judgeURL), openaijudge.WithModel("gpt-4.1-mini"))
	evaltest.New(t, evaltest.WithJudge(judge), evaltest.WithMode(mode)).Expect(tr).
		ToolsCalled("get_user_details", "cancel_reservation").
		ToolArgs("cancel_reservation", map[string]any{"reservation_id": "Z7GOZK"}).
		ToolCallSequence("get_reservation_details", "cancel_reservation").
		NoToolErrors().
		Contains("successfully cancelled").
		JudgeSession("Cancels the reservation the user asked about, only after explicit confirmation", evalassert.MinScore(0.8))
}

// Changing the agent's prompt fails TestAgent with a clear miss and the
// command that records it: TestAgent's body, run in replay mode against a
// stand-in for its *testing.T.
func TestAgentPromptChangeFailsTestAgent(t *testing.T) {
	tb := &fakeT{TB: t, name: "TestAgent"}
	tb.run(func() { agentCase(tb, golden.ModeReplay, "You are a terse airline agent.\n\n"+loadRun(t).system) })
	require.Len(t, tb.errors, 2, "the agent's error, then the miss when the test ends")
	hint := "\nhint: EVALKIT_MODE=record go test ./examples/agent -run '^TestAgent$'   # record the missing model calls against the live API"
	assert.Contains(t, tb.errors[0], "agent: the model API answered 404: golden: not recorded: testdata/evalkit/TestAgent.http.json has no response for this POST /v1/chat/completions")
	assert.Contains(t, tb.errors[0], strings.TrimPrefix(hint, "\n"))
	assert.Regexp(t, `^HTTPClient\(t\): error: golden: not recorded: testdata/evalkit/TestAgent.http.json has no response for this POST /v1/chat/completions \(key sha256:[0-9a-f]{12}\)
nearest: sha256:[0-9a-f]{12} \(recorded [0-9T:Z-]+\)
differs: body.messages\[0\].content: now "You are a terse airline agent.\\n\\n# Airline Agent Policy.*
`, tb.errors[1])
	assert.True(t, strings.HasSuffix(tb.errors[1], hint), tb.errors[1])
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

// A changed agent prompt is a clear miss: the first model call is not
// recorded, the error names it, the nearest recorded call and the field
// that differs — driven through the transport directly, in replay mode,
// with a live API that must never be asked.
func TestAgentPromptChangeMisses(t *testing.T) {
	r := loadRun(t)
	never := roundTripFunc(func(req *http.Request) (*http.Response, error) {
		t.Errorf("the live API was asked: %s %s", req.Method, req.URL)
		return nil, errors.New("the live API was asked")
	})
	tr, err := golden.NewTransport("testdata/evalkit/TestAgent.http.json", never, golden.WithMode(golden.ModeReplay), golden.WithTest("TestAgent"))
	require.NoError(t, err)
	a := newAgent(t, r, replayModelURL, tr.Client())
	a.SystemPrompt = "You are a terse airline agent.\n\n" + r.system

	_, err = a.Run(t.Context(), r.users)
	require.ErrorIs(t, err, golden.ErrNotRecorded)
	var nr *golden.NotRecordedError
	require.ErrorAs(t, err, &nr)
	assert.Equal(t, "POST /v1/chat/completions", nr.Request)
	assert.Equal(t, 1, nr.Occurrence)
	assert.NotEmpty(t, nr.Nearest)
	require.Len(t, nr.Differs, 1, "only the prompt differs from the first recorded call")
	assert.Equal(t, "body.messages[0].content", nr.Differs[0].Field)
	assert.Equal(t, `"You are a terse airline agent.\n\n# Airline Agent Policy\n\nThe current time is 2024"… [6107 more bytes]`, nr.Differs[0].Now)
	assert.Equal(t, `"# Airline Agent Policy\n\nThe current time is 2024-05-15 15:00:00 EST.\n\nAs an airl"… [6075 more bytes]`, nr.Differs[0].Recorded)
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
