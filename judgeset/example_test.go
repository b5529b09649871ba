package judgeset_test

import (
	"errors"
	"fmt"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/judgeset"
)

// A judge set from a config file: two judges, variants over them, each
// judge built once when first looked up, and its provenance for messages.
func ExampleParse() {
	config := []byte(`
default: strict
judges:
  strict:
    provider: openai
    model: gpt-4.1
    settings: {temperature: 0}
    variants:
      cheap: {model: gpt-4.1-mini}
      warm: {settings: {temperature: 0.7}}
  claude:
    provider: anthropic
    model: claude-haiku-4-5
    api_key_env: EVALKIT_JUDGE_ANTHROPIC_KEY
`)
	set, err := judgeset.Parse("judges.yaml", config)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, ref := range [][2]string{{"strict", "cheap"}, {"strict", "warm"}, {"", ""}, {"claude", ""}} {
		j, err := set.Lookup(ref[0], ref[1])
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(evalkit.ProvenanceOf(j))
	}

	_, err = set.Lookup("strict", "chep")
	fmt.Println(err)
	fmt.Println(errors.Is(err, judgeset.ErrJudgeVariantNotFound))
	// Output:
	// strict/cheap (openai gpt-4.1-mini, seed 1, temperature 0)
	// strict/warm (openai gpt-4.1, seed 1, temperature 0.7)
	// strict (openai gpt-4.1, seed 1, temperature 0)
	// claude (anthropic claude-haiku-4-5, max_tokens 1024, temperature 0)
	// judgeset: judge variant not found: "chep" of judge "strict" (did you mean "cheap"? variants: cheap, warm)
	// true
}

// A config file's mistakes, every one with its line and field, before any
// judge is built.
func ExampleParse_problems() {
	_, err := judgeset.Parse("judges.yaml", []byte(`
judges:
  strict:
    provider: openai
    api_key: sk-proj-0123456789abcdefghijklmnop
    settings: {temprature: 0}
`))
	fmt.Println(err)
	// Output:
	// judgeset: 2 problems:
	// judges.yaml:5: judges.strict.api_key: a credential never goes in a judge set: name its environment variable with api_key_env
	// judges.yaml:6: judges.strict.settings.temprature: unknown openai setting (did you mean "temperature"?)
}
