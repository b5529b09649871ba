package golden_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/golden"
	"github.com/evalkit-go/evalkit/judgefake"
)

// exampleJudge gives a fake judge the identity a real one has, so its
// verdicts can be recorded.
type exampleJudge struct{ fake evalkit.Judge }

func (j exampleJudge) Judge(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
	return j.fake.Judge(ctx, req)
}

func (exampleJudge) Identity() evalkit.Identity {
	return evalkit.Identity{Provider: "example", Model: "judge-1", Settings: map[string]any{"temperature": 0}}
}

// Record a verdict once, then replay it with a judge that is never asked.
func Example() {
	dir, _ := os.MkdirTemp("", "golden")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "TestRefund.judge.json")
	req := evalkit.JudgeRequest{Criteria: "States the refund amount", Content: "Your refund of $42 is on its way."}
	ctx := context.Background()

	live := exampleJudge{judgefake.Fixed(evalkit.Verdict{Score: 0.9, Scored: true, Reasoning: "States $42."})}
	rec, _ := golden.New(path, live, golden.WithMode(golden.ModeRecord))
	v, origin, _ := rec.JudgeOrigin(ctx, req)
	fmt.Println(origin, v.Score, v.Reasoning)
	if err := rec.Save(); err != nil {
		fmt.Println(err)
	}

	never := exampleJudge{judgefake.Err(errors.New("the live judge was asked"))}
	replay, _ := golden.New(path, never) // ModeReplay
	v, origin, _ = replay.JudgeOrigin(ctx, req)
	fmt.Println(origin, v.Score, v.Reasoning)

	req.Criteria = "States the refund window"
	_, err := replay.Judge(ctx, req)
	fmt.Println(errors.Is(err, golden.ErrNotRecorded))
	// Output:
	// recorded 0.9 States $42.
	// replayed 0.9 States $42.
	// true
}

func ExampleKey() {
	id := evalkit.Identity{Provider: "openai", Model: "gpt-4.1-mini", Settings: map[string]any{"temperature": 0, "api_key": "sk-never-keyed-1234"}}
	req := evalkit.JudgeRequest{Criteria: "States the refund amount", Content: "Your refund of $42 is on its way."}
	k1, _ := golden.Key(id, req)
	id.Settings["api_key"] = "sk-rotated-key-5678"
	k2, _ := golden.Key(id, req)
	id.Settings["temperature"] = 0.7
	k3, _ := golden.Key(id, req)
	fmt.Println(golden.ShortKey(k1), k1 == k2, k1 == k3)
	// Output: sha256:b352f34ac0fa true false
}

func ExampleParseMode() {
	m, err := golden.ParseMode(os.Getenv("EVALKIT_MODE_EXAMPLE_UNSET"))
	fmt.Println(m, err)
	_, err = golden.ParseMode("update")
	fmt.Println(err)
	// Output:
	// replay <nil>
	// golden: unknown mode "update": want replay, record, refresh or live
}
