package judgefake_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/judgefake"
)

var refundRequest = evalkit.JudgeRequest{
	Criteria: "Confirms the refund and states the amount",
	Content:  "Your refund of $42 is on its way.",
	Scale:    evalkit.Scale{Min: 1, Max: 10},
}

func Example() {
	judge := judgefake.Rules{
		{Pattern: `(?i)refund of \$\d+`, Verdict: evalkit.Verdict{Score: 1, Scored: true}},
		{Otherwise: true, Verdict: evalkit.Verdict{Score: 0.2, Scored: true, Reasoning: "no amount"}},
	}
	v, err := judge.Judge(context.Background(), refundRequest)
	fmt.Println(v.Score, v.RawScore, err)
	// Output: 1 10 <nil>
}

func ExamplePass() {
	v, err := judgefake.Pass().Judge(context.Background(), refundRequest)
	fmt.Println(v.Score, v.RawScore, *v.Passed, err)

	// Like every fake, it refuses a request no judge can answer.
	_, err = judgefake.Pass().Judge(context.Background(), evalkit.JudgeRequest{Content: "hi"})
	fmt.Println(err)
	// Output:
	// 1 10 true <nil>
	// evalkit: judge request has no criteria
}

func ExampleFail() {
	v, err := judgefake.Fail("never states the amount").Judge(context.Background(), refundRequest)
	fmt.Printf("score %v (raw %v), passed %v: %s, err %v\n", v.Score, v.RawScore, *v.Passed, v.Reasoning, err)
	// Output: score 0 (raw 1), passed false: never states the amount, err <nil>
}

func ExampleSequence() {
	judge := judgefake.Sequence(
		evalkit.Verdict{Score: 0.9, Scored: true},
		evalkit.Verdict{Score: 0.4, Scored: true},
	)
	for range 3 {
		v, err := judge.Judge(context.Background(), refundRequest)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%.2f on [1, 10] is %.1f\n", v.Score, v.RawScore)
	}
	// Output:
	// 0.90 on [1, 10] is 9.1
	// 0.40 on [1, 10] is 4.6
	// judgefake: Sequence exhausted: call 3, but only 2 verdicts were given
}

func ExampleRules() {
	judge := judgefake.Rules{
		{Keyword: "$ERROR$", Err: errors.New("judge API failed")},
		{Pattern: `(?i)\brefund\b`, Keyword: "$", Verdict: evalkit.Verdict{Score: 1, Scored: true}},
		{Pattern: `(?i)\bsorry\b`, Verdict: evalkit.Verdict{Label: "apology"}},
		{Otherwise: true, Verdict: evalkit.Verdict{Score: 0, Scored: true, Reasoning: "off topic"}},
	}
	for _, content := range []string{
		"Your refund of $42 is on its way.",
		"Sorry, I can't help with that.",
		"$ERROR$",
		"The weather is nice.",
	} {
		req := refundRequest
		req.Content = content
		v, err := judge.Judge(context.Background(), req)
		fmt.Printf("%-35q score %v label %q err %v\n", content, v.Score, v.Label, err)
	}
	// Output:
	// "Your refund of $42 is on its way." score 1 label "" err <nil>
	// "Sorry, I can't help with that."    score 0 label "apology" err <nil>
	// "$ERROR$"                           score 0 label "" err judge API failed
	// "The weather is nice."              score 0 label "" err <nil>
}

func ExampleHash() {
	judge := judgefake.Hash("seed-1")
	a, _ := judge.Judge(context.Background(), refundRequest)
	b, _ := judge.Judge(context.Background(), refundRequest)
	fmt.Println(a.Score, a.Score == b.Score)
	// Output: 0.251 true
}

func ExampleFlaky() {
	judge := judgefake.Flaky(1, judgefake.Pass())
	_, err := judge.Judge(context.Background(), refundRequest)
	fmt.Println(errors.Is(err, judgefake.ErrTransient))
	v, err := judge.Judge(context.Background(), refundRequest)
	fmt.Println(v.Score, err)
	// Output:
	// true
	// 1 <nil>
}

func ExampleSpy() {
	spy := judgefake.Spy(judgefake.Pass())
	spy.Judge(context.Background(), refundRequest)
	for _, req := range spy.Requests() {
		fmt.Println(req.Criteria)
	}
	// Output: Confirms the refund and states the amount
}

func ExampleNewServer() {
	srv := judgefake.NewServer(
		judgefake.RateLimited(2*time.Second),
		judgefake.Reply{Text: `{"score": 8, "reasoning": "states $42"}`, Model: "gpt-4o-2024-08-06"},
	)
	defer srv.Close()

	body := `{"model": "gpt-4o", "temperature": 0, "seed": 42,
		"messages": [{"role": "user", "content": "Judge: Your refund of $42 is on its way."}]}`
	for range 2 {
		req, _ := http.NewRequest("POST", srv.URL+"/v1/chat/completions", strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer sk-not-a-real-key")
		resp, err := srv.Client().Do(req)
		if err != nil {
			fmt.Println(err)
			return
		}
		data, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			fmt.Println(resp.StatusCode, "Retry-After:", resp.Header.Get("Retry-After"))
			continue
		}
		var out struct {
			Model   string
			Choices []struct{ Message struct{ Content string } }
		}
		json.Unmarshal(data, &out)
		fmt.Println(out.Model, out.Choices[0].Message.Content)
	}

	// What the judge sent, with its key redacted.
	for _, r := range srv.Requests() {
		fmt.Println(r.Method, r.Path, r.Header.Get("Authorization"))
	}
	fmt.Println(srv.Err())
	// Output:
	// 429 Retry-After: 2
	// gpt-4o-2024-08-06 {"score": 8, "reasoning": "states $42"}
	// POST /v1/chat/completions Bearer [REDACTED]
	// POST /v1/chat/completions Bearer [REDACTED]
	// <nil>
}

func ExampleNewTransport() {
	tr := judgefake.NewTransport(judgefake.Text("Score: 4/5"))
	// Any URL: nothing leaves the process.
	req, _ := http.NewRequest("POST", "https://api.anthropic.com/v1/messages", strings.NewReader(
		`{"model": "claude-sonnet-4-5", "max_tokens": 256, "messages": [{"role": "user", "content": "Judge it."}]}`))
	req.Header.Set("anthropic-version", "2023-06-01")
	resp, err := tr.Client().Do(req)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer resp.Body.Close()
	var out struct {
		Content []struct{ Type, Text string }
	}
	json.NewDecoder(resp.Body).Decode(&out)
	fmt.Println(resp.StatusCode, out.Content[0].Type, out.Content[0].Text)
	// Output: 200 text Score: 4/5
}

func ExampleTestJudge() {
	// A judge that forgets to report its score on the request's scale.
	sloppy := evalkit.JudgeFunc(func(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
		if err := req.Validate(); err != nil {
			return evalkit.Verdict{}, err
		}
		if err := ctx.Err(); err != nil {
			return evalkit.Verdict{}, err
		}
		return evalkit.Verdict{Score: 0.8, RawScore: 8, Scored: true}, nil
	})
	fmt.Println(judgefake.TestJudge(sloppy))
	fmt.Println(judgefake.TestJudge(judgefake.Hash("any")))
	// Output:
	// judgefake.TestJudge(evalkit.JudgeFunc): 4 problems:
	// 	Judge(answer, scale [1, 10], rubric): Score 0.8 disagrees with RawScore 8 on [1, 10], want Score 0.7777777777777778 (×7)
	// 	Judge(transcript, scale [1, 5]): RawScore 8, want within the request's scale [1, 5] (×6)
	// 	Judge(tool_calls, scale [0, 1]): RawScore 8, want within the request's scale [0, 1] (×6)
	// 	Judge(answer, scale [-5, 5], reference, context): RawScore 8, want within the request's scale [-5, 5] (×6)
	// <nil>
}
