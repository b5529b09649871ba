package openaijudge_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/judgefake"
	"github.com/evalkit-go/evalkit/openaijudge"
)

// A judge pointed at a fake OpenAI-compatible server; a real one needs only
// openaijudge.FromEnv().
func Example() {
	srv := judgefake.NewServer(judgefake.Reply{Text: `{"reasoning": "States the amount, $42.", "score": 9}`, InputTokens: 420, OutputTokens: 20})
	defer srv.Close()
	j := openaijudge.New(openaijudge.WithBaseURL(srv.URL+"/v1"), openaijudge.WithAPIKey("sk-test"), openaijudge.WithHTTPClient(srv.Client()))

	v, err := j.Judge(context.Background(), evalkit.JudgeRequest{
		Criteria: "States the refund amount",
		Content:  "Your refund of $42 is on its way.",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(v.Score, v.RawScore, v.Reasoning)
	fmt.Printf("%s, %d+%d tokens, $%.6f\n", v.Model, v.Usage.InputTokens, v.Usage.OutputTokens, v.Usage.CostUSD)
	// Output:
	// 0.9 9 States the amount, $42.
	// gpt-4.1-mini, 420+20 tokens, $0.000200
}

func ExampleJudge_Identity() {
	j := openaijudge.New(openaijudge.WithAPIKey("sk-never-shown"), openaijudge.WithMaxTokens(512))
	id, _ := json.Marshal(j.Identity())
	fmt.Println(string(id))
	// Output:
	// {"provider":"openai","model":"gpt-4.1-mini","settings":{"max_tokens":512,"seed":1,"temperature":0},"prompt_version":"evalkit-judge/1"}
}
