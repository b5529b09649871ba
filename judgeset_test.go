package evalkit_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/evalkit-go/evalkit"
)

// namedJudge is a judge a set would hold: a name, a variant and an
// identity.
type namedJudge struct {
	name, variant string
	id            evalkit.Identity
}

func (namedJudge) Judge(context.Context, evalkit.JudgeRequest) (evalkit.Verdict, error) {
	return evalkit.Verdict{}, nil
}
func (j namedJudge) Identity() evalkit.Identity        { return j.id }
func (j namedJudge) JudgeName() (name, variant string) { return j.name, j.variant }

func TestProvenance(t *testing.T) {
	id := evalkit.Identity{Provider: "openai", Model: "gpt-4.1-mini", PromptVersion: "evalkit-judge/1",
		Settings: map[string]any{"temperature": 0.0, "seed": int64(1), "max_tokens": json.Number("512"), "reasoning_effort": "low"}}
	for _, c := range []struct {
		judge     evalkit.Judge
		ref, text string
	}{
		{namedJudge{"strict", "cheap", id}, "strict/cheap", "strict/cheap (openai gpt-4.1-mini, max_tokens 512, reasoning_effort low, seed 1, temperature 0)"},
		{namedJudge{"strict", "", evalkit.Identity{Provider: "anthropic", Model: "claude-haiku-4-5"}}, "strict", "strict (anthropic claude-haiku-4-5)"},
		{namedJudge{"mine", "", evalkit.Identity{}}, "mine", "mine"},
		{namedJudge{"mine", "", evalkit.Identity{Settings: map[string]any{"temperature": nil, "stop": []string{"\n"}}}}, "mine", `mine (stop ["\n"], temperature none)`},
		{evalkit.JudgeFunc(nil), "", ""},
	} {
		p := evalkit.ProvenanceOf(c.judge)
		assert.Equal(t, c.ref, p.Ref())
		assert.Equal(t, c.text, p.String())
	}

	// A judge with an identity and no name: the identity alone, as the
	// results file and a panel's votes read it.
	p := evalkit.ProvenanceOf(withIdentity{id})
	assert.Equal(t, "", p.Ref())
	assert.Equal(t, "openai gpt-4.1-mini, max_tokens 512, reasoning_effort low, seed 1, temperature 0", p.String())
	data, err := json.Marshal(evalkit.ProvenanceOf(namedJudge{"strict", "cheap", id}))
	assert.NoError(t, err)
	assert.JSONEq(t, `{"name": "strict", "variant": "cheap", "provider": "openai", "model": "gpt-4.1-mini", "prompt_version": "evalkit-judge/1",
		"settings": {"max_tokens": 512, "reasoning_effort": "low", "seed": 1, "temperature": 0}}`, string(data))
}

type withIdentity struct{ id evalkit.Identity }

func (withIdentity) Judge(context.Context, evalkit.JudgeRequest) (evalkit.Verdict, error) {
	return evalkit.Verdict{}, nil
}
func (j withIdentity) Identity() evalkit.Identity { return j.id }
