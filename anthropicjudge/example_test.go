package anthropicjudge_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/anthropicjudge"
	"github.com/evalkit-go/evalkit/judgefake"
)

// A judge pointed at a fake Anthropic server; a real one needs only
// anthropicjudge.FromEnv().
func Example() {
	srv := judgefake.NewServer(judgefake.Reply{Text: `{"reasoning": "States the amount, $42.", "score": 9}`, InputTokens: 600, OutputTokens: 40})
	defer srv.Close()
	j := anthropicjudge.New(anthropicjudge.WithBaseURL(srv.URL), anthropicjudge.WithAPIKey("sk-ant-test"), anthropicjudge.WithHTTPClient(srv.Client()))

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
	// claude-haiku-4-5-20251001, 600+40 tokens, $0.000800
}

func ExampleJudge_Identity() {
	j := anthropicjudge.New(anthropicjudge.WithModel("claude-opus-4-7"), anthropicjudge.WithoutTemperature())
	id, _ := json.Marshal(j.Identity())
	fmt.Println(string(id))
	// Output:
	// {"provider":"anthropic","model":"claude-opus-4-7","settings":{"max_tokens":1024},"prompt_version":"evalkit-judge/1"}
}
