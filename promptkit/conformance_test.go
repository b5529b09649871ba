package promptkit_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"sort"
	"strings"
	"testing"

	testify "github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
	"github.com/evalkit-go/evalkit/assert/media"
	"github.com/evalkit-go/evalkit/evaltest"
	"github.com/evalkit-go/evalkit/judgefake"
	"github.com/evalkit-go/evalkit/promptkit"
)

const conformancePack = "testdata/conformance.pack.yaml"

// conformanceRegistry has what the pack names: the media checks, a type
// bound to a program (as a runtime config binds one), a judge, a
// classifier, a tool executor and the environment variable it reads.
func conformanceRegistry(t *testing.T) *assert.Registry {
	t.Helper()
	t.Setenv("EVAL_TOKEN", "tok-conformance-123456")
	reg := media.NewRegistry()
	require.NoError(t, reg.RegisterExec("refund_script", assert.ExecEval{Protocol: "promptkit", Command: "sh", Args: []string{"-c", `cat >/dev/null; echo '{"score": 1, "detail": "ok"}'`}}))
	return reg.WithEnv("EVAL_TOKEN").
		WithJudge(judgefake.Pass()).
		WithClassifierID("hf", judgefake.Scores(evalkit.LabelScore{Label: "positive", Score: 0.9}, evalkit.LabelScore{Label: "toxic", Score: 0.1},
			evalkit.LabelScore{Label: "ang", Score: 0.2}, evalkit.LabelScore{Label: "nsfw", Score: 0.01}, evalkit.LabelScore{Label: "refunds", Score: 0.95})).
		WithTools(assert.ToolExecutorFunc(func(context.Context, string, json.RawMessage) (evalkit.ToolResult, error) {
			return evalkit.ToolResult{Content: "ok"}, nil
		}))
}

// conformanceRun is a refund run holding what the checks read.
func conformanceRun() *evalkit.Transcript {
	return &evalkit.Transcript{
		Messages: []evalkit.Message{
			{Role: evalkit.RoleSystem, Content: "You are a refund agent."},
			{Role: evalkit.RoleUser, Content: "I want a refund for order #W123"},
			{Role: evalkit.RoleAssistant, ToolCalls: []evalkit.ToolCall{{ID: "1", Name: "get_order_details", Args: json.RawMessage(`{"order_id":"#W123"}`)}}},
			{Role: evalkit.RoleTool, ToolCallID: "1", Content: `{"total": 42}`},
			{Role: evalkit.RoleAssistant, ToolCalls: []evalkit.ToolCall{{ID: "2", Name: "issue_refund", Args: json.RawMessage(`{"order_id":"#W123","amount":42}`)}}},
			{Role: evalkit.RoleTool, ToolCallID: "2", Content: `{"status": "refunded"}`},
			{Role: evalkit.RoleAssistant, Content: `Your refund of $42 is on its way. {"refund": {"amount": 42}, "items": ["a"]}`},
		},
		Metadata: map[string]any{"embedding": []any{0.1, 0.2, 0.31}, "retrieved_chunks": []any{"Refunds take 30 days."}},
	}
}

// paramSets counts the pack's entries and the distinct parameters they
// name (a check's type and parameter), from the file itself.
func paramSets(t *testing.T) (entries int, params []string) {
	t.Helper()
	data, err := os.ReadFile(conformancePack)
	require.NoError(t, err)
	var pack struct {
		Prompts map[string]struct {
			Evals []struct {
				Type   string
				Params map[string]any
			} `yaml:"evals"`
			Validators []struct {
				Type   string
				Params map[string]any
			} `yaml:"validators"`
		} `yaml:"prompts"`
	}
	require.NoError(t, yaml.Unmarshal(data, &pack))
	seen := map[string]bool{}
	for _, p := range pack.Prompts {
		all := append(p.Evals, p.Validators...)
		entries += len(all)
		for _, e := range all {
			for k := range e.Params {
				seen[e.Type+"."+k] = true
			}
		}
	}
	for k := range seen {
		params = append(params, k)
	}
	sort.Strings(params)
	return entries, params
}

// Every type and parameter named in PromptKit's handler reference, in a
// PromptKit pack, loads with PromptKit's meaning, and every entry runs:
// no entry is an unknown type, a refused parameter or a missing wiring,
// whatever the transcript gives it to read.
func TestPromptKitConformance(t *testing.T) {
	reg := conformanceRegistry(t)
	entries, params := paramSets(t)
	cases, err := evaltest.LoadCases(conformancePack, reg)
	require.NoError(t, err)
	require.Len(t, cases, 1)
	c := cases[0]
	require.Len(t, c.Evals, entries, "every entry loaded")
	t.Logf("PromptKit seed conformance: %d of %d parameter sets accepted (%d distinct type.parameter names)", len(c.Evals), entries, len(params))

	// The evaluators' URLs, on loopback servers: REST answers, A2A refuses.
	rest := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, `{"passed": true, "score": 1, "reasoning": "fine"}`)
	}))
	defer rest.Close()
	a2a := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { http.Error(w, "no", http.StatusBadRequest) }))
	defer a2a.Close()
	reg = reg.WithHTTPClient(rest.Client())
	tally := map[string]int{}
	var wiring []string
	for _, ev := range c.Evals {
		e := *ev.PromptKit
		if _, ok := e.Params["url"]; ok {
			e.Params = maps.Clone(e.Params)
			e.Params["url"] = rest.URL + "/eval"
		}
		if _, ok := e.Params["agent_url"]; ok {
			e.Params = maps.Clone(e.Params)
			e.Params["agent_url"] = a2a.URL
		}
		chk := promptkit.Check{Entry: e, Registry: reg, Session: c.Name, SampleAll: true}
		res, err := chk.Check(context.Background(), conformanceRun())
		switch {
		case err == nil && res.Passed:
			tally["pass"]++
		case err == nil:
			tally["fail"]++
		case errors.Is(err, assert.ErrUnknownCheck), errors.Is(err, assert.ErrNoJudge), errors.Is(err, assert.ErrNoClassifier),
			errors.Is(err, assert.ErrNoEmbedder), errors.Is(err, assert.ErrNoToolExecutor):
			wiring = append(wiring, fmt.Sprintf("%s: %v", ev.ID, err))
		default:
			var pe *assert.ParamError
			if errors.As(err, &pe) {
				wiring = append(wiring, fmt.Sprintf("%s: %v", ev.ID, err))
				continue
			}
			tally["error (the run does not report what it reads, or the evaluator is unreachable)"]++
		}
	}
	t.Logf("ran %d entries: %v", len(c.Evals), tally)
	testify.Empty(t, wiring, "entries that could not run:\n%s", strings.Join(wiring, "\n"))
	testify.Positive(t, tally["pass"])
}

// Without assert/media's checks the media entries are refused with the
// package to add, and nothing else is.
func TestPromptKitConformanceBuiltIn(t *testing.T) {
	t.Setenv("EVAL_TOKEN", "x")
	reg := assert.NewRegistry().WithEnv("EVAL_TOKEN")
	require.NoError(t, reg.RegisterExec("refund_script", assert.ExecEval{Protocol: "promptkit", Command: "sh"}))
	_, err := evaltest.LoadCases(conformancePack, reg)
	var cfe *evaltest.CaseFileError
	require.True(t, errors.As(err, &cfe), "%v", err)
	testify.Len(t, cfe.Problems, 7, "the 7 media entries")
	for _, p := range cfe.Problems {
		testify.Contains(t, p, "it is in package github.com/evalkit-go/evalkit/assert/media")
	}
}
