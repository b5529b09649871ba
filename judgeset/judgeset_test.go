package judgeset_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/golden"
	"github.com/evalkit-go/evalkit/judgefake"
	"github.com/evalkit-go/evalkit/judgeset"
)

// env is a test's environment for API keys, without t.Setenv.
type env map[string]string

func (e env) getenv(name string) string { return e[name] }

func keys() judgeset.Option {
	return judgeset.WithGetenv(env{"EVALKIT_TEST_OPENAI_KEY": "sk-test-openai-0000000000", "EVALKIT_TEST_ANTHROPIC_KEY": "sk-ant-test-0000000000"}.getenv)
}

func identity(t *testing.T, set *judgeset.Set, name, variant string) evalkit.Identity {
	t.Helper()
	j, err := set.Lookup(name, variant)
	require.NoError(t, err)
	return j.(evalkit.Identifier).Identity()
}

// The YAML and JSON files declare the same set; each variant's identity
// is its judge's with the variant's fields over it.
func TestLoad(t *testing.T) {
	for _, file := range []string{"testdata/judges.yaml", "testdata/judges.json"} {
		t.Run(file, func(t *testing.T) {
			set, err := judgeset.Load(file, keys())
			require.NoError(t, err)
			assert.Equal(t, []string{"claude", "strict"}, set.Names())
			assert.Equal(t, []string{"cheap", "warm", "reasoning"}, set.Variants("strict"))
			assert.Equal(t, []string{"haiku"}, set.Variants("claude"))
			assert.Nil(t, set.Variants("nobody"))
			assert.Equal(t, "strict", set.Default())

			base := evalkit.Identity{Provider: "openai", Model: "gpt-4.1", PromptVersion: "evalkit-judge/1",
				Settings: map[string]any{"temperature": 0.0, "seed": int64(7), "max_tokens": 400}}
			assert.Equal(t, base, identity(t, set, "strict", ""))
			assert.Equal(t, base, identity(t, set, "", ""), "the default judge")
			cheap := base
			cheap.Model = "gpt-4.1-mini"
			assert.Equal(t, cheap, identity(t, set, "strict", "cheap"))
			assert.Equal(t, cheap, identity(t, set, "", "cheap"), "the default judge's variant")
			warm := base
			warm.Settings = map[string]any{"temperature": 0.7, "seed": int64(7), "max_tokens": 400}
			assert.Equal(t, warm, identity(t, set, "strict", "warm"))
			assert.Equal(t, evalkit.Identity{Provider: "openai", Model: "o4-mini", PromptVersion: "evalkit-judge/1",
				Settings: map[string]any{"max_tokens": 400}}, identity(t, set, "strict", "reasoning"), "null sends no temperature and no seed")
			assert.Equal(t, evalkit.Identity{Provider: "anthropic", Model: "claude-haiku-4-5", PromptVersion: "evalkit-judge/1",
				Settings: map[string]any{"temperature": 0.0, "max_tokens": 512}}, identity(t, set, "claude", "haiku"))

			j, err := set.Lookup("strict", "cheap")
			require.NoError(t, err)
			name, variant := j.(evalkit.NamedJudge).JudgeName()
			assert.Equal(t, [2]string{"strict", "cheap"}, [2]string{name, variant})
			assert.Equal(t, "strict/cheap (openai gpt-4.1-mini, max_tokens 400, seed 7, temperature 0)", evalkit.ProvenanceOf(j).String())
			assert.Equal(t, "strict/cheap", fmt.Sprint(j))
		})
	}
}

// Recordings key on the identity and never on the name: variants with
// different settings never share a key; a judge renamed, or declared twice
// with the same settings, shares its recordings.
func TestKeys(t *testing.T) {
	set, err := judgeset.Load("testdata/judges.yaml", keys())
	require.NoError(t, err)
	spec := judgeset.Spec{Provider: "openai", Model: "gpt-4.1", Settings: judgeset.Settings{"temperature": 0, "seed": 7, "max_tokens": 400}}
	renamed := spec
	renamed.Name = "exacting"
	other, err := judgeset.New([]judgeset.Spec{renamed})
	require.NoError(t, err)

	req := evalkit.JudgeRequest{Criteria: "Confirms the refund", Content: "Your refund of $42 was issued."}
	key := func(set *judgeset.Set, name, variant string) string {
		k, err := golden.Key(identity(t, set, name, variant), req)
		require.NoError(t, err)
		return k
	}
	keysSeen := map[string]string{}
	for _, ref := range [][2]string{{"strict", ""}, {"strict", "cheap"}, {"strict", "warm"}, {"strict", "reasoning"}, {"claude", ""}, {"claude", "haiku"}} {
		k := key(set, ref[0], ref[1])
		assert.NotContains(t, keysSeen, k, "%s/%s shares a key with %s", ref[0], ref[1], keysSeen[k])
		keysSeen[k] = ref[0] + "/" + ref[1]
	}
	assert.Equal(t, key(set, "strict", ""), key(other, "exacting", ""), "the name is not part of the key")
}

func TestLookupErrors(t *testing.T) {
	set, err := judgeset.Load("testdata/judges.yaml", keys())
	require.NoError(t, err)
	_, err = set.Lookup("strikt", "")
	assert.EqualError(t, err, `judgeset: judge not found: "strikt" (did you mean "strict"? judges: claude, strict)`)
	assert.ErrorIs(t, err, judgeset.ErrJudgeNotFound)
	assert.ErrorIs(t, err, evalkit.ErrJudgeNotFound)
	assert.NotErrorIs(t, err, evalkit.ErrJudgeVariantNotFound)

	_, err = set.Lookup("strict", "chep")
	assert.EqualError(t, err, `judgeset: judge variant not found: "chep" of judge "strict" (did you mean "cheap"? variants: cheap, warm, reasoning)`)
	assert.ErrorIs(t, err, evalkit.ErrJudgeVariantNotFound)
	assert.NotErrorIs(t, err, evalkit.ErrJudgeNotFound)

	bare, err := judgeset.New([]judgeset.Spec{{Name: "only", Provider: "openai"}})
	require.NoError(t, err)
	_, err = bare.Lookup("only", "cheap")
	assert.EqualError(t, err, `judgeset: judge variant not found: "cheap" of judge "only" (variants: none)`)
	_, err = bare.Lookup("", "")
	assert.EqualError(t, err, `judgeset: judge not found: no judge named and the set has no default (judges: only)`)
	assert.ErrorIs(t, err, evalkit.ErrJudgeNotFound)
}

// Every problem of a config file, each with its line and field, and no
// credential echoed.
func TestConfigProblems(t *testing.T) {
	_, err := judgeset.Load("testdata/bad.yaml")
	var ce *judgeset.ConfigError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, []string{
		`testdata/bad.yaml:2: default: "stric" is not a judge of the set (judges: claude, local, strict)`,
		`testdata/bad.yaml:6: judges.strict.settings.seed: want a whole number, got 1.5`,
		`testdata/bad.yaml:6: judges.strict.settings.temperatur: unknown openai setting (did you mean "temperature"?)`,
		`testdata/bad.yaml:6: judges.strict.settings: give max_tokens or max_completion_tokens, not both`,
		`testdata/bad.yaml:7: judges.strict.api_key: a credential never goes in a judge set: name its environment variable with api_key_env`,
		`testdata/bad.yaml:8: judges.strict.base_url: holds user information: a credential never goes in a judge set; name its environment variable with api_key_env`,
		`testdata/bad.yaml:9: judges.strict.prompt_version: "evalkit-judge/0" is not this evalkit's judge prompt, "evalkit-judge/1": its recorded verdicts no longer replay; re-record them, then set "evalkit-judge/1"`,
		`testdata/bad.yaml:11: judges.strict.variants.cheap.provider: a variant keeps its judge's provider: declare another judge for another provider`,
		`testdata/bad.yaml:12: judges.strict.variants.bad name: name "bad name": want letters, digits, "_", "-" and ".", starting with a letter or a digit`,
		`testdata/bad.yaml:12: judges.strict.variants.bad name.settings.temperature: want a number of at least 0, got "hot"`,
		`testdata/bad.yaml:14: judges.claude.provider: "gemini" is not a provider (providers: anthropic, openai)`,
		`testdata/bad.yaml:15: judges.claude.api_key_env: want the name of the environment variable that holds the key, such as OPENAI_API_KEY (the value is not shown: a key never goes in a judge set)`,
		`testdata/bad.yaml:16: judges.claude.modle: unknown field (did you mean "model"?)`,
		`testdata/bad.yaml:19: judges.local.base_url: "ftp://localhost:11434/v1": want an http:// or https:// URL with a host`,
		`testdata/bad.yaml:20: judges.local.settings.attempt_timeout: want a duration such as "30s" or "2m", got "soon"`,
		`testdata/bad.yaml:20: judges.local.settings.client_secret: a credential never goes in a judge set: name its environment variable with api_key_env`,
		`testdata/bad.yaml:20: judges.local.settings.max_tokens: want a whole number of at least 1, got 0`,
	}, ce.Problems)
	for _, secret := range []string{"sk-proj-abc", "hunter2", "sk-ant-api03"} {
		assert.NotContains(t, err.Error(), secret)
	}

	for _, c := range []struct{ name, data, want string }{
		{"empty.yaml", "", `judgeset: empty.yaml: empty: want a mapping with "judges"`},
		{"list.yaml", "- strict\n", `judgeset: list.yaml:1: want a mapping with "judges", got a list`},
		{"nojudges.yaml", "default: strict\n", `judgeset: nojudges.yaml:1: no "judges": want a mapping of judges by name`},
		{"syntax.yaml", "judges: {strict: [}\n", `judgeset: syntax.yaml: did not find expected node content`},
		{"syntax.json", "{\"judges\": {,}}", `judgeset: syntax.json:1: invalid character ',' looking for beginning of object key string`},
		{"twice.yaml", "judges:\n  a: {provider: openai}\n  a: {provider: openai}\n", `judgeset: twice.yaml:3: judges: field "a" is given twice (first at line 2)`},
		{"two.yaml", "judges: {a: {provider: openai}}\n---\njudges: {}\n", `judgeset: two.yaml:2: a judge set is one document`},
	} {
		_, err := judgeset.Parse(c.name, []byte(c.data))
		assert.EqualError(t, err, c.want, c.name)
	}
}

// Declarations in Go are checked as a file's are, their fields named by
// path.
func TestNewProblems(t *testing.T) {
	_, err := judgeset.New([]judgeset.Spec{
		{Name: "strict", Provider: "openai", Settings: judgeset.Settings{"temperature": -1}},
		{Name: "strict", Provider: "anthropic", Settings: judgeset.Settings{"seed": 1}},
		{Provider: "openai", Variants: []judgeset.Variant{{Name: "v"}, {Name: "v"}}},
		{Name: "mine", Provider: "custom", Settings: judgeset.Settings{"list": []string{"x"}}},
		{Name: "gateway", Provider: "openai", BaseURL: "https://gw.example.com/v1?api_key=abcdefgh123"},
	}, judgeset.WithProvider("custom", func(judgeset.Config) (evalkit.Judge, error) { return judgefake.Pass(), nil }),
		judgeset.WithProvider("openai", nil), judgeset.WithBaseURL("custom", "http://x"), judgeset.WithDefault("nobody"))
	assert.EqualError(t, err, `judgeset: 10 problems:
WithProvider("openai"): the built-in provider cannot be replaced: give yours another name
WithBaseURL("custom"): not a built-in provider (anthropic, openai): a provider of WithProvider reads Config.BaseURL from its specs
judges.strict.settings.temperature: want a number of at least 0, got -1
judges[1]: the name "strict" is taken by another judge
judges[1].settings.seed: unknown anthropic setting (known: attempt_timeout, max_retries, max_tokens, temperature)
judges[2]: no name
judges[2].variants[1]: the name "v" is taken by another variant
judges.mine.settings.list: want a number, a string, a boolean or null, got ["x"]
judges.gateway.base_url: the query parameter "api_key" may hold a credential, which never goes in a judge set: name its environment variable with api_key_env
default: "nobody" is not a judge of the set (judges: gateway, mine, strict)`)
	_, err = judgeset.New(nil)
	assert.EqualError(t, err, "judgeset: judges: empty: declare at least one judge")
}

// A judge is built once per name and variant, however many goroutines
// look it up at once, and only when looked up: loading builds nothing.
func TestBuiltOnce(t *testing.T) {
	var built atomic.Int64
	var configs sync.Map
	counting := judgeset.WithProvider("counting", func(c judgeset.Config) (evalkit.Judge, error) {
		built.Add(1)
		configs.Store(c.Name+"/"+c.Variant, c)
		return judgefake.Pass(), nil
	})
	set, err := judgeset.New([]judgeset.Spec{
		{Name: "fake", Provider: "counting", Model: "m1", APIKeyEnv: "FAKE_KEY", Settings: judgeset.Settings{"temperature": 0, "style": "terse"},
			Variants: []judgeset.Variant{{Name: "m2", Model: "m2", Settings: judgeset.Settings{"temperature": 1}}}},
		{Name: "real", Provider: "openai"},
	}, counting, judgeset.WithGetenv(env{"FAKE_KEY": "k-123"}.getenv))
	require.NoError(t, err)
	assert.Zero(t, judgeset.Builds(set))

	refs := [][2]string{{"fake", ""}, {"fake", "m2"}, {"real", ""}}
	var wg sync.WaitGroup
	judges := make([]evalkit.Judge, 63)
	for i := range judges {
		wg.Go(func() {
			j, err := set.Lookup(refs[i%3][0], refs[i%3][1])
			assert.NoError(t, err)
			judges[i] = j
		})
	}
	wg.Wait()
	assert.EqualValues(t, 2, built.Load(), "fake and fake/m2, once each")
	assert.EqualValues(t, 3, judgeset.Builds(set), "and real, the built-in")
	for i, j := range judges {
		assert.Same(t, judges[i%3], j, "one judge per name and variant: %v", refs[i%3])
	}
	assert.NotSame(t, judges[0], judges[1])
	c, _ := configs.Load("fake/m2")
	assert.Equal(t, judgeset.Config{Name: "fake", Variant: "m2", Provider: "counting", Model: "m2", APIKeyEnv: "FAKE_KEY", APIKey: "k-123",
		Settings: judgeset.Settings{"temperature": 1, "style": "terse"}}, c)

	// A provider's error is the lookup's, each time, and built once.
	failing, err := judgeset.New([]judgeset.Spec{{Name: "broken", Provider: "flaky"}},
		judgeset.WithProvider("flaky", func(judgeset.Config) (evalkit.Judge, error) {
			built.Add(1)
			return nil, errors.New("no such model")
		}))
	require.NoError(t, err)
	before := built.Load()
	for range 3 {
		_, err = failing.Lookup("broken", "")
		assert.EqualError(t, err, `judgeset: building judge broken (provider "flaky"): no such model`)
	}
	assert.Equal(t, before+1, built.Load())
}

// Keys come from the variable api_key_env names, read when the judge is
// built; without it the judge keeps its identity — a replay needs no key —
// and a call to it is an error naming the variable, with nothing sent.
func TestKeysFromEnvironment(t *testing.T) {
	srv := judgefake.NewServer(judgefake.Text(`{"reasoning": "states the amount", "score": 9}`))
	defer srv.Close()
	read := map[string]int{}
	getenv := func(name string) string {
		read[name]++
		return map[string]string{"EVALKIT_TEST_OPENAI_KEY": "sk-test-openai-0000000000"}[name]
	}
	set, err := judgeset.Load("testdata/judges.yaml", judgeset.WithGetenv(getenv),
		judgeset.WithBaseURL("openai", srv.URL+"/v1"), judgeset.WithBaseURL("anthropic", srv.URL))
	require.NoError(t, err)
	assert.Empty(t, read, "loading reads no key")

	req := evalkit.JudgeRequest{Criteria: "States the refund amount", Content: "Your refund of $42 is on its way."}
	claude, err := set.Lookup("claude", "haiku")
	require.NoError(t, err)
	assert.Equal(t, "claude-haiku-4-5", claude.(evalkit.Identifier).Identity().Model)
	_, err = claude.Judge(context.Background(), req)
	assert.EqualError(t, err, "judgeset: judge claude/haiku needs an API key in $EVALKIT_TEST_ANTHROPIC_KEY, which is not set (for a local server that needs none, set it to any value)")
	assert.Empty(t, srv.Requests(), "nothing sent without a key")

	strict, err := set.Lookup("strict", "warm")
	require.NoError(t, err)
	v, err := strict.Judge(context.Background(), req)
	require.NoError(t, err)
	assert.InDelta(t, 0.9, v.Score, 1e-9)
	assert.Equal(t, map[string]int{"EVALKIT_TEST_ANTHROPIC_KEY": 1, "EVALKIT_TEST_OPENAI_KEY": 1}, read, "each key read once, when its judge was built")
	require.Len(t, srv.Requests(), 1)
	got := srv.Requests()[0]
	assert.Equal(t, "/v1/chat/completions", got.Path)
	assert.Equal(t, "Bearer [REDACTED]", got.Header.Get("Authorization"))
	assert.JSONEq(t, `{"model": "gpt-4.1", "temperature": 0.7, "seed": 7, "max_tokens": 400}`, pick(t, got.Body, "model", "temperature", "seed", "max_tokens"),
		"the variant's effective settings go on the wire")
	require.NoError(t, srv.Err())
}

// The anthropic provider sends its settings on Anthropic's wire.
func TestAnthropicOnTheWire(t *testing.T) {
	srv := judgefake.NewServer(judgefake.Text(`{"reasoning": "ok", "score": 7}`))
	defer srv.Close()
	set, err := judgeset.Load("testdata/judges.yaml", keys(), judgeset.WithBaseURL("anthropic", srv.URL), judgeset.WithHTTPClient(srv.Client()))
	require.NoError(t, err)
	j, err := set.Lookup("claude", "")
	require.NoError(t, err)
	v, err := j.Judge(context.Background(), evalkit.JudgeRequest{Criteria: "Is polite", Content: "Thank you!"})
	require.NoError(t, err)
	assert.InDelta(t, 0.7, v.Score, 1e-9)
	require.Len(t, srv.Requests(), 1)
	got := srv.Requests()[0]
	assert.Equal(t, "/v1/messages", got.Path)
	assert.JSONEq(t, `{"model": "claude-sonnet-4-5", "temperature": 0, "max_tokens": 512}`, pick(t, got.Body, "model", "temperature", "max_tokens"))
	require.NoError(t, srv.Err())
}

// Aliases that expand a config into millions of nodes are an error naming
// the alias, before the judges are read; a key given twice anywhere is a
// problem with its line and field.
func TestParseAliasBombAndKeysGivenTwice(t *testing.T) {
	var bomb strings.Builder
	bomb.WriteString("anchors:\n  v: &v {model: m}\n  vs: &vs\n")
	for i := range 1000 {
		fmt.Fprintf(&bomb, "    v%d: *v\n", i)
	}
	bomb.WriteString("  j: &j {provider: openai, model: m, variants: *vs}\njudges:\n")
	for i := range 1000 {
		fmt.Fprintf(&bomb, "  j%d: *j\n", i)
	}
	for _, c := range []struct{ name, data, want string }{
		{"bomb.yaml", bomb.String(), "judgeset: bomb.yaml:1204: judges.j198: the alias *j makes the file more than 1000000 YAML nodes, " +
			"each use of an alias counted with all it stands for: use fewer aliases, or write the values out"},
		{"setting.yaml", "judges:\n  a:\n    provider: openai\n    settings: {temperature: 0, temperature: 1}\n",
			`judgeset: setting.yaml:4: judges.a.settings: field "temperature" is given twice (first at line 4)`},
		{"variant.yaml", "judges:\n  a:\n    provider: openai\n    variants:\n      v: {model: x, model: y}\n",
			`judgeset: variant.yaml:5: judges.a.variants.v: field "model" is given twice (first at line 5)`},
		{"default.json", `{"default": "a", "default": "b", "judges": {"a": {"provider": "openai"}}}`,
			`judgeset: default.json:1: field "default" is given twice (first at line 1)`},
	} {
		_, err := judgeset.Parse(c.name, []byte(c.data))
		assert.EqualError(t, err, c.want, c.name)
	}
}
