package evalkit_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/evalkit-go/evalkit"
	evalassert "github.com/evalkit-go/evalkit/assert"
	"github.com/evalkit-go/evalkit/evaltest"
	"github.com/evalkit-go/evalkit/judgefake"
	"github.com/evalkit-go/evalkit/openaijudge"
)

// printingTB stands in for the *testing.T an example cannot have: it prints
// what evaltest reports, indented as go test indents a multi-line failure.
type printingTB struct{ testing.TB }

func (printingTB) Helper()                  {}
func (printingTB) Context() context.Context { return context.Background() }
func (printingTB) Errorf(format string, args ...any) {
	fmt.Println("FAIL: " + strings.ReplaceAll(fmt.Sprintf(format, args...), "\n", "\n    "))
}

// airlineRun loads one real τ-bench airline run by task id and trial.
func airlineRun(taskID, trial float64) *evalkit.Transcript {
	runs, err := evalkit.LoadAll("testdata/tau_bench/airline_gpt4o_trajectories.json")
	if err != nil {
		panic(err)
	}
	for _, tr := range runs {
		if tr.Metadata["task_id"] == taskID && tr.Metadata["trial"] == trial {
			return tr
		}
	}
	panic("no such run")
}

// A real GPT-4o run that cancelled the right reservation (τ-bench airline
// task 1, trial 1, reward 1): every check of the chain passes.
func Example_passingChain() {
	tr := airlineRun(1, 1)
	t := printingTB{} // in a test: the *testing.T

	ok := evaltest.New(t).Expect(tr).
		ToolsCalled("get_user_details", "cancel_reservation").
		ToolArgs("cancel_reservation", map[string]any{"reservation_id": "Z7GOZK"}).
		ToolCallSequence("get_reservation_details", "cancel_reservation").
		NoToolErrors().
		Contains("Z7GOZK", "successfully cancelled").
		OK()
	fmt.Println("passed:", ok)
	// Output: passed: true
}

// The same task, trial 0 (reward 0): the agent never found the reservation
// and cancelled nothing. Expect reports each failed check and goes on.
func Example_failingChain() {
	tr := airlineRun(1, 0)
	t := printingTB{} // in a test: the *testing.T

	evaltest.New(t).Expect(tr).
		ToolsCalled("cancel_reservation").
		Excludes("cancelled").
		Contains("refund")
	// Output:
	// FAIL: ToolsCalled("cancel_reservation"): missing "cancel_reservation"
	//     called: none
	//     transcript: 12 messages
	// FAIL: Contains("refund"): missing "refund"
	//     output: "You're welcome! If you have any other questions or need further assistance, feel free to reach out. Safe travels, and I hope you feel better soon!"
	//     transcript: 12 messages
}

// Decode reads an OpenAI Chat Completions message list; each tool call is
// linked to the tool message that answered it.
func ExampleDecode() {
	tr, err := evalkit.Decode([]byte(`[
		{"role": "user", "content": "Weather in Lyon?"},
		{"role": "assistant", "content": null, "tool_calls": [
			{"id": "c1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Lyon\"}"}}]},
		{"role": "tool", "tool_call_id": "c1", "content": "12C, rain"},
		{"role": "assistant", "content": "It is 12C and raining."}
	]`))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range tr.ToolCalls() {
		fmt.Printf("%s(%s) -> %s\n", c.Name, c.Args, c.Result.Content)
	}
	last, _ := tr.LastAssistant()
	fmt.Println(last.Content)
	// Output:
	// get_weather({"city":"Lyon"}) -> 12C, rain
	// It is 12C and raining.
}

// Decode errors name the JSON location and what was expected there.
func ExampleDecode_error() {
	_, err := evalkit.Decode([]byte(`{"messages": [{"role": "assistant", "tool_calls": [{"function": {"name": 7}}]}]}`))
	fmt.Println(err)
	// Output: evalkit: messages[0].tool_calls[0].function.name: want a string, got a number
}

// mtBenchCriteria is what the MT-Bench example asks: FastChat's
// single-answer judging instruction, in evalkit's words.
const mtBenchCriteria = "A helpful, relevant, accurate, deep, creative and detailed answer to the user's question"

// mtBenchRun is one MT-Bench answer FastChat's GPT-4 judge scored, with
// the conversation it judged and its judgment.
type mtBenchRun struct {
	name     string
	tr       *evalkit.Transcript
	judgment string
	score    float64 // FastChat's official score; -1 when the judge call failed
}

// mtBenchRuns reads the 60 real GPT-4 judgments of Llama-3-8B's MT-Bench
// answers bundled in testdata, each with the conversation it judged:
// turn 1 a question and its answer, turn 2 both turns.
func mtBenchRuns(tb testing.TB) []mtBenchRun {
	tb.Helper()
	type line struct {
		QuestionID int     `json:"question_id"`
		Turn       int     `json:"turn"`
		UserPrompt string  `json:"user_prompt"`
		Judgment   string  `json:"judgment"`
		Score      float64 `json:"score"`
	}
	var runs []mtBenchRun
	for _, l := range readJSONL[line](tb, "testdata/mt_bench/gpt4_single_llama3_8b.jsonl") {
		tr := &evalkit.Transcript{}
		add := func(role evalkit.Role, text string) {
			tr.Messages = append(tr.Messages, evalkit.Message{Role: role, Content: strings.TrimSpace(text)})
		}
		if l.Turn == 1 {
			q, rest, _ := strings.Cut(strings.SplitN(l.UserPrompt, "[Question]", 2)[1], "[The Start of Assistant's Answer]")
			a, _, _ := strings.Cut(rest, "[The End of Assistant's Answer]")
			add(evalkit.RoleUser, q)
			add(evalkit.RoleAssistant, a)
		} else {
			conv, _, _ := strings.Cut(strings.SplitN(l.UserPrompt, "<|The Start of Assistant A's Conversation with User|>", 2)[1], "<|The End of Assistant A's Conversation with User|>")
			for _, part := range strings.Split(conv, "### User:")[1:] {
				q, a, _ := strings.Cut(part, "### Assistant A:")
				add(evalkit.RoleUser, q)
				add(evalkit.RoleAssistant, a)
			}
		}
		runs = append(runs, mtBenchRun{name: fmt.Sprintf("q%d_turn%d", l.QuestionID, l.Turn), tr: tr, judgment: l.Judgment, score: l.Score})
	}
	return runs
}

// mtBenchJudge is openaijudge with GPT-4, as FastChat judged. It is asked
// only when a verdict is recorded (EVALKIT_MODE=record or refresh), and
// then answers through openaijudge from a fake OpenAI server that serves
// GPT-4's real judgment of the answer asked about: the recording holds
// what openaijudge made of GPT-4's words. Replaying needs no server.
type mtBenchJudge struct {
	judgments map[string]string // by the answer judged
	calls     atomic.Int64
}

func newMTBenchJudge(runs []mtBenchRun) *mtBenchJudge {
	j := &mtBenchJudge{judgments: map[string]string{}}
	for _, r := range runs {
		last, _ := r.tr.LastAssistant()
		j.judgments[last.Content] = r.judgment
	}
	return j
}

func mtBenchOptions(opts ...openaijudge.Option) []openaijudge.Option {
	return append([]openaijudge.Option{openaijudge.WithModel("gpt-4")}, opts...)
}

// Identity is the live judge's: what the recording keys on.
func (j *mtBenchJudge) Identity() evalkit.Identity {
	return openaijudge.New(mtBenchOptions()...).Identity()
}

func (j *mtBenchJudge) Judge(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
	j.calls.Add(1)
	judgment, ok := j.judgments[req.Content]
	if !ok {
		return evalkit.Verdict{}, fmt.Errorf("no MT-Bench judgment for %.40q", req.Content)
	}
	srv := judgefake.NewServer(judgefake.Reply{Text: judgment, Model: "gpt-4-0613"})
	defer srv.Close()
	live := openaijudge.New(mtBenchOptions(openaijudge.WithBaseURL(srv.URL+"/v1"), openaijudge.WithAPIKey("sk-fake-mtbench-000000"),
		openaijudge.WithHTTPClient(srv.Client()), openaijudge.WithPrices(map[string]openaijudge.Price{"gpt-4-0613": {Input: 30, Output: 60}}))...)
	v, err := live.Judge(ctx, req)
	if err == nil {
		err = srv.Err()
	}
	return v, err
}

// TestMTBenchJudgments replays the MT-Bench example: 56 real GPT-4
// judgments, recorded once through openaijudge (see mtBenchJudge) into
// testdata/evalkit/TestMTBenchJudgments.judge.json, and replayed here with
// no server, no network and no key. Each replayed score is FastChat's
// official one. The 4 judgments FastChat marked -1 ("$ERROR$", failed API
// calls) have no verdict to record, and are left out. Re-record with
// EVALKIT_MODE=refresh go test -run '^TestMTBenchJudgments$' .
func TestMTBenchJudgments(t *testing.T) {
	runs := mtBenchRuns(t)
	judge := newMTBenchJudge(runs)
	scored := 0
	for _, r := range runs {
		if r.score < 0 {
			continue
		}
		scored++
		t.Run(r.name, func(t *testing.T) {
			// The official score, and no other: at least it, at most it.
			want := (r.score - 1) / 9
			var opts []evalassert.JudgeOption
			if r.score > 1 {
				opts = append(opts, evalassert.MinScore(want-1e-9))
			}
			if r.score < 10 {
				opts = append(opts, evalassert.MaxScore(want+1e-9))
			}
			evaltest.New(t, evaltest.WithJudge(judge)).Expect(r.tr).
				Judge(mtBenchCriteria, append(opts, evalassert.Scale(1, 10))...)
		})
	}
	assert.Equal(t, 56, scored)
	if mode := os.Getenv("EVALKIT_MODE"); mode == "" || mode == "replay" {
		assert.Zero(t, judge.calls.Load(), "replay asks no judge")
	}
}

// namedTB is printingTB with a test's name, so evaltest finds the test's
// recording, and cleanups, which evaltest saves recordings in.
type namedTB struct {
	printingTB
	name string
}

func (t namedTB) Name() string              { return t.name }
func (namedTB) Cleanup(func())              {}
func (namedTB) Failed() bool                { return false }
func (namedTB) Skipped() bool               { return false }
func (t namedTB) Fatalf(f string, a ...any) { t.Errorf(f, a...) }

// Replaying the recorded MT-Bench judgments with no server at all: GPT-4
// gave Llama-3-8B's answer to question 94 (a relationship conflict) 9 of
// 10, which normalizes to 0.89: it passes MinScore(0.8) and fails
// MinScore(0.95), and the failure says where the verdict came from and
// how to ask the judge again.
func Example_replayedJudge() {
	runs := mtBenchRuns(printingTB{})
	tb := namedTB{name: "TestMTBenchJudgments"} // in a test: the *testing.T
	et := evaltest.New(tb, evaltest.WithJudge(newMTBenchJudge(runs)))

	et.Expect(runs[4].tr).
		Judge(mtBenchCriteria, evalassert.Scale(1, 10), evalassert.MinScore(0.8)).
		Judge(mtBenchCriteria, evalassert.Scale(1, 10), evalassert.MinScore(0.95))
	// Output:
	// FAIL: Judge("A helpful, relevant, accurate, deep,…", Scale(1, 10), MinScore(0.95)): score 0.89, want >= 0.95
	//     answer: The assistant's response is very helpful, relevant, and detailed. It provides a clear plan of action for the user to follow, and it also encourages the user to share more details about their conflict, which would allow the assistant to provide more personalized advice. The assistant also emphasizes the importance of effective communication in resolving conflicts, which is a crucial aspect of relationship management. The assistant's response is also creative in the sense that it provides a step-b… [149 more bytes]
	//     raw score: 9 on 1–10
	//     judge: gpt-4-0613 (replayed testdata/evalkit/TestMTBenchJudgments.judge.json)
	//     transcript: 2 messages
	//     hint: EVALKIT_MODE=refresh go test . -run '^TestMTBenchJudgments$'   # re-judge against the live judge
}
