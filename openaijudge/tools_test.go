package openaijudge_test

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	testify "github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/golden"
	"github.com/evalkit-go/evalkit/judgefake"
	"github.com/evalkit-go/evalkit/openaijudge"
)

// A tool-using judge (MindTrial's judge tools): the model calls the tools
// the request gives, the judge runs them and sends their results back,
// and the verdict keeps every call. Recorded once, the verdict replays
// with its calls and runs no tool.
func TestJudgeTools(t *testing.T) {
	srv := judgefake.NewServer(
		judgefake.Reply{ToolCalls: []judgefake.ToolCall{{Name: "run_python", Args: `{"code": "print(max([3, 9, 4]))"}`}}},
		judgefake.Reply{ToolCalls: []judgefake.ToolCall{{Name: "lookup", Args: `{}`}, {Name: "nope", Args: `{}`}}},
		judgefake.Text(`{"reasoning": "The function returns 9, the maximum.", "score": 9}`),
	)
	defer srv.Close()
	ran := 0
	tools := []evalkit.JudgeTool{
		{Name: "run_python", Description: "Runs Python code and returns what it prints.",
			Parameters: json.RawMessage(`{"type":"object","properties":{"code":{"type":"string"}},"required":["code"]}`),
			Run: func(_ context.Context, args json.RawMessage) (string, error) {
				ran++
				var a struct{ Code string }
				require.NoError(t, json.Unmarshal(args, &a))
				testify.Equal(t, "print(max([3, 9, 4]))", a.Code)
				return "9\n", nil
			}},
		{Name: "lookup", Run: func(context.Context, json.RawMessage) (string, error) { ran++; return "", errors.New("index offline") }},
	}
	req := evalkit.JudgeRequest{Criteria: "The code finds the maximum", Content: "def m(xs): return max(xs)", Tools: tools}
	judge := openaijudge.New(openaijudge.WithBaseURL(srv.URL+"/v1"), openaijudge.WithAPIKey("sk-test-tools-0123456789"))

	path := filepath.Join(t.TempDir(), "TestJudgeTools.judge.json")
	rec, err := golden.New(path, judge, golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	v, err := rec.Judge(context.Background(), req)
	require.NoError(t, err)
	require.NoError(t, srv.Err())
	testify.Equal(t, 2, ran)
	testify.InDelta(t, 0.9, v.Score, 1e-9)
	testify.Equal(t, []evalkit.JudgeToolCall{
		{Name: "run_python", Args: json.RawMessage(`{"code":"print(max([3, 9, 4]))"}`), Result: "9\n"},
		{Name: "lookup", Args: json.RawMessage(`{}`), Error: "index offline"},
		{Name: "nope", Args: json.RawMessage(`{}`), Error: `no tool named "nope"`},
	}, v.ToolCalls)

	// What the model was sent: the tools, then each round's calls and the
	// tools' answers.
	reqs := srv.Requests()
	require.Len(t, reqs, 3)
	var last struct {
		Tools    []map[string]any `json:"tools"`
		Messages []map[string]any `json:"messages"`
	}
	require.NoError(t, json.Unmarshal(reqs[2].Body, &last))
	testify.Len(t, last.Tools, 2)
	roles := []string{}
	for _, m := range last.Messages {
		roles = append(roles, m["role"].(string))
	}
	testify.Equal(t, []string{"system", "user", "assistant", "tool", "assistant", "tool", "tool"}, roles)
	testify.Equal(t, "error: index offline", last.Messages[5]["content"])
	require.NoError(t, rec.Save())

	// Replay: no server, and no tool runs.
	srv.Close()
	noTools := make([]evalkit.JudgeTool, len(tools))
	for i, tl := range tools {
		tl.Run = func(context.Context, json.RawMessage) (string, error) {
			t.Error("a replayed verdict ran a tool")
			return "", nil
		}
		noTools[i] = tl
	}
	replay, err := golden.New(path, openaijudge.New(openaijudge.WithBaseURL(srv.URL+"/v1")))
	require.NoError(t, err)
	req.Tools = noTools
	again, err := replay.Judge(context.Background(), req)
	require.NoError(t, err)
	testify.Equal(t, v.ToolCalls, again.ToolCalls)
	testify.Equal(t, v.Score, again.Score)

	// Another tool set keys another request.
	req.Tools = noTools[:1]
	_, err = replay.Judge(context.Background(), req)
	testify.ErrorIs(t, err, golden.ErrNotRecorded)
	testify.True(t, strings.Contains(err.Error(), "tools"), err.Error())
}

// A judge that keeps calling tools is an error, never a verdict.
func TestJudgeToolsRounds(t *testing.T) {
	var replies []judgefake.Reply
	for range openaijudge.MaxToolRounds + 1 {
		replies = append(replies, judgefake.Reply{ToolCalls: []judgefake.ToolCall{{Name: "t", Args: `{}`}}})
	}
	srv := judgefake.NewServer(replies...)
	defer srv.Close()
	tool := evalkit.JudgeTool{Name: "t", Run: func(context.Context, json.RawMessage) (string, error) { return "x", nil }}
	_, err := openaijudge.New(openaijudge.WithBaseURL(srv.URL+"/v1"), openaijudge.WithAPIKey("k")).
		Judge(context.Background(), evalkit.JudgeRequest{Criteria: "x", Content: "y", Tools: []evalkit.JudgeTool{tool}})
	testify.EqualError(t, err, "openaijudge: the judge called tools 9 times without giving a verdict (at most 8)")
}

// A reply asking for more tool calls than MaxToolCalls is an error, and
// none of them runs: one round of 1,000 calls ran the tool 1,000 times.
func TestJudgeToolsCalls(t *testing.T) {
	many := make([]judgefake.ToolCall, 1000)
	for i := range many {
		many[i] = judgefake.ToolCall{Name: "t", Args: `{}`}
	}
	srv := judgefake.NewServer(judgefake.Reply{ToolCalls: many}, judgefake.Text(`{"score": 8}`))
	defer srv.Close()
	runs := 0
	tool := evalkit.JudgeTool{Name: "t", Run: func(context.Context, json.RawMessage) (string, error) { runs++; return "x", nil }}
	_, err := openaijudge.New(openaijudge.WithBaseURL(srv.URL+"/v1"), openaijudge.WithAPIKey("k")).
		Judge(context.Background(), evalkit.JudgeRequest{Criteria: "x", Content: "y", Tools: []evalkit.JudgeTool{tool}})
	testify.EqualError(t, err, "openaijudge: the judge asked for 1000 tool calls in one reply, 1000 in all (at most 64): none of them was run")
	testify.Zero(t, runs)
}
