package verdicts_test

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/anthropicjudge"
	evassert "github.com/evalkit-go/evalkit/assert"
	"github.com/evalkit-go/evalkit/golden"
	"github.com/evalkit-go/evalkit/judgefake"
	"github.com/evalkit-go/evalkit/openaijudge"
	"github.com/evalkit-go/evalkit/verdicts"
)

// arenaPair is one real Arena-Hard pair (Greek, claude-3.5-sonnet-v2):
// in its game 1 the baseline was A and said A>>B; in game 2 it was B and
// said B>>A. The baseline is much better, both ways.
func arenaPair(t *testing.T) (baselineA, baselineB string) {
	t.Helper()
	lines := readJSONL[struct {
		Games []struct {
			Judgment string `json:"judgment"`
			Score    string `json:"score"`
		} `json:"games"`
	}](t, "testdata/arena_hard/el_claude-3.5-sonnet-v2.jsonl")
	g := lines[0].Games
	require.Equal(t, "A>>B", g[0].Score)
	require.Equal(t, "B>>A", g[1].Score)
	return g[0].Judgment, g[1].Judgment
}

// Arena-Hard-style pairwise judging end to end: a real judge client
// (openaijudge) against a fake server answering with the two real games,
// asked both ways through a recording; the two games are recorded under
// two keys, combined, graded, and replayed with no server.
func TestArenaHardBothWaysEndToEnd(t *testing.T) {
	baselineA, baselineB := arenaPair(t)
	// The model under test is Content (A in game 1): the server answers
	// game 1 with the real game whose A was the model (the baseline's
	// B>>A), and game 2, swapped, with the one whose A was the baseline.
	srv := judgefake.NewServer(judgefake.Texts(baselineB, baselineA)...)
	defer srv.Close()
	live := openaijudge.New(openaijudge.WithBaseURL(srv.URL+"/v1"), openaijudge.WithAPIKey("sk-test"),
		openaijudge.WithHTTPClient(srv.Client()), openaijudge.WithModel("claude-3.5-sonnet-v2"))
	path := filepath.Join(t.TempDir(), "TestArenaHard.judge.json")
	rec, err := golden.New(path, live, golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)

	req := evalkit.JudgeRequest{
		Criteria: "Which answer solves the user's problem better?",
		Input:    "Solve it in C++: can the cards a, b, c be sorted with at most one swap?",
		Content:  "the model's answer", ContentB: "the baseline's answer",
		Format: verdicts.ArenaHard,
	}
	ctx := context.Background()
	v, err := verdicts.BothWays(rec, verdicts.Tie).Judge(ctx, req)
	require.NoError(t, err)
	require.Len(t, v.Games, 2)
	assert.Equal(t, "B>>A", v.Games[0].Label, "game 1 as the judge wrote it")
	assert.Equal(t, "A>>B", v.Games[1].Label, "game 2, answers swapped, as the judge wrote it")
	assert.Equal(t, evalkit.Preference{Winner: "B", Strength: 2}, *v.Preference)
	assert.Equal(t, "B>>A", v.Label)
	consistent, ok := verdicts.Consistent(v)
	assert.True(t, ok)
	assert.True(t, consistent)
	assert.Contains(t, v.Reasoning, "consistent: B>>A")

	// The server saw two requests: the answers swapped in the second, and
	// no JSON response_format (the format is text).
	reqs := srv.Requests()
	require.Len(t, reqs, 2)
	for i, r := range reqs {
		var body map[string]any
		require.NoError(t, json.Unmarshal(r.Body, &body))
		assert.NotContains(t, body, "response_format", "request %d", i+1)
	}
	assert.Less(t, indexOf(string(reqs[0].Body), "the model's answer"), indexOf(string(reqs[0].Body), "the baseline's answer"))
	assert.Less(t, indexOf(string(reqs[1].Body), "the baseline's answer"), indexOf(string(reqs[1].Body), "the model's answer"))

	// Graded: the baseline (B) is preferred, much so.
	for _, tt := range []struct {
		prefer evassert.Prefer
		passed bool
	}{
		{evassert.Prefer{Winner: "B", Strength: 1}, true},
		{evassert.Prefer{Winner: "B", Strength: 2}, true},
		{evassert.Prefer{Winner: "A", Strength: 1}, false},
		{evassert.Prefer{Winner: "A", Strength: 1, OrTie: true}, false},
	} {
		passed, err := evassert.GradeVerdict(v, evassert.Passing{Prefer: &tt.prefer})
		require.NoError(t, err)
		assert.Equal(t, tt.passed, passed, tt.prefer.String())
	}

	// The pair judge keys apart from its judge: the same request asked
	// once is another entry.
	pid := verdicts.BothWays(rec, verdicts.Refuse).Identity()
	assert.Equal(t, "refuse", pid.Settings["both_ways"])
	assert.NotContains(t, rec.Identity().Settings, "both_ways")

	// Recorded: two entries under two keys.
	require.NoError(t, rec.Save())
	f, err := golden.Load(path)
	require.NoError(t, err)
	require.Len(t, f.Entries, 2)
	assert.NotEqual(t, f.Entries[0].Key, f.Entries[1].Key)
	games := map[int]string{}
	for _, e := range f.Entries {
		games[e.Request.Game] = e.Request.Content + " vs " + e.Request.ContentB
		assert.Equal(t, "arena-hard/1", e.Request.Format)
	}
	assert.Equal(t, map[int]string{1: "the model's answer vs the baseline's answer", 2: "the baseline's answer vs the model's answer"}, games)

	// Replayed with no server: the same verdict, through the fluent check.
	never := openaijudge.New(openaijudge.WithBaseURL("http://127.0.0.1:1/v1"), openaijudge.WithAPIKey("sk-test"), openaijudge.WithModel("claude-3.5-sonnet-v2"))
	replay, err := golden.New(path, never)
	require.NoError(t, err)
	again, err := verdicts.BothWays(replay, verdicts.Tie).Judge(ctx, req)
	require.NoError(t, err)
	assert.Equal(t, *v.Preference, *again.Preference)
	assert.Equal(t, v.Games[0].Raw, again.Games[0].Raw)

	tr := &evalkit.Transcript{Messages: []evalkit.Message{
		{Role: evalkit.RoleUser, Content: req.Input},
		{Role: evalkit.RoleAssistant, Content: req.Content},
	}}
	check := evassert.JudgeCheck(replay, evalkit.ContentAnswer, req.Criteria,
		evassert.Against(req.ContentB), evassert.VerdictFormat(verdicts.ArenaHard), evassert.BothWays(verdicts.Tie), evassert.PrefersOrTie("A"))
	res, err := check.Check(ctx, tr)
	require.NoError(t, err)
	assert.False(t, res.Passed)
	assert.Equal(t, "preference B>>A, want A at least ties", res.Summary)
	check = evassert.JudgeCheck(replay, evalkit.ContentAnswer, req.Criteria,
		evassert.Against(req.ContentB), evassert.VerdictFormat(verdicts.ArenaHard), evassert.BothWays(verdicts.Tie), evassert.PrefersStrongly("B"))
	res, err = check.Check(ctx, tr)
	require.NoError(t, err)
	assert.True(t, res.Passed)
	assert.Len(t, srv.Requests(), 2, "replay never reached the server")
}

func indexOf(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}

// Two games that disagree: a tie under Tie, an error under Refuse; a game
// without a preference, or a failed one, is never combined.
func TestBothWaysCombine(t *testing.T) {
	ctx := context.Background()
	req := evalkit.JudgeRequest{Criteria: "better?", Content: "a", ContentB: "b", Format: verdicts.ArenaHard}
	judge := func(answers ...string) evalkit.Judge {
		i := 0
		return evalkit.JudgeFunc(func(_ context.Context, r evalkit.JudgeRequest) (evalkit.Verdict, error) {
			require.Equal(t, i+1, r.Game)
			i++
			return evalkit.ParseVerdictFor(r, answers[i-1])
		})
	}
	// A>B in game 1, and A>B again with the answers swapped: position bias.
	v, err := verdicts.BothWays(judge("[[A>B]]", "[[A>B]]"), verdicts.Tie).Judge(ctx, req)
	require.NoError(t, err)
	assert.Equal(t, "A=B", v.Label)
	assert.Contains(t, v.Reasoning, "inconsistent, so a tie")
	_, err = verdicts.BothWays(judge("[[A>B]]", "[[A>B]]"), verdicts.Refuse).Judge(ctx, req)
	assert.ErrorIs(t, err, verdicts.ErrInconsistent)

	// A>>B then B>A swapped back A>B: consistent at the weaker strength.
	v, err = verdicts.BothWays(judge("[[A>>B]]", "[[B>A]]"), verdicts.Refuse).Judge(ctx, req)
	require.NoError(t, err)
	assert.Equal(t, "A>B", v.Label)

	_, err = verdicts.BothWays(judge("[[A>B]]", "no verdict"), verdicts.Tie).Judge(ctx, req)
	assert.ErrorIs(t, err, evalkit.ErrUnreadableVerdict)
	assert.ErrorContains(t, err, "game 2 of 2")

	noPref := evalkit.JudgeFunc(func(context.Context, evalkit.JudgeRequest) (evalkit.Verdict, error) {
		return evalkit.Verdict{Score: 0.8, Scored: true}, nil
	})
	_, err = verdicts.BothWays(noPref, verdicts.Tie).Judge(ctx, req)
	assert.ErrorContains(t, err, "states no preference")

	// A preference that is none of the five is never combined: A at
	// strength 7 both ways gave a tie, and a winnerless strength 1 the
	// label Preference{"", 1}.
	for _, bad := range []evalkit.Preference{{Winner: "A", Strength: 7}, {Winner: "", Strength: 1}, {Winner: "C", Strength: 1}} {
		odd := judgefake.Fixed(evalkit.Verdict{Label: "odd", Preference: &bad})
		_, err = verdicts.BothWays(odd, verdicts.Tie).Judge(ctx, req)
		assert.ErrorContains(t, err, "is none of A>>B, A>B, A=B, B>A, B>>A", "%v", bad)
	}

	_, err = verdicts.BothWays(noPref, verdicts.Tie).Judge(ctx, evalkit.JudgeRequest{Criteria: "x", Content: "a"})
	assert.ErrorContains(t, err, "no ContentB")

	// Position consistency over a set of pairs.
	var vs []evalkit.Verdict
	for _, g := range [][2]string{{"[[A>B]]", "[[B>A]]"}, {"[[A>B]]", "[[A>B]]"}, {"[[A=B]]", "[[B=A]]"}, {"[[B>>A]]", "[[A>B]]"}} {
		v, err := verdicts.BothWays(judge(g[0], g[1]), verdicts.Tie).Judge(ctx, req)
		require.NoError(t, err)
		vs = append(vs, v)
	}
	c, err := verdicts.PositionConsistency(vs)
	require.NoError(t, err)
	assert.Equal(t, 4, c.Pairs)
	assert.Equal(t, 3, c.Consistent)
	assert.InDelta(t, 0.75, c.Rate, 1e-12)
	assert.Less(t, c.Lower, c.Rate)
	assert.Greater(t, c.Upper, c.Rate)
	_, err = verdicts.PositionConsistency([]evalkit.Verdict{{Label: "A"}})
	assert.ErrorContains(t, err, "verdict 0 was not judged both ways")
	assert.False(t, errors.Is(err, evalkit.ErrUnreadableVerdict))
}

// The Anthropic judge asks for a declared format as text, with no forced
// tool, and reads the answer by the format's rule.
func TestAnthropicJudgeFormat(t *testing.T) {
	srv := judgefake.NewServer(judgefake.Text("Assistant B covers both points.\n\n[[B]]"))
	defer srv.Close()
	j := anthropicjudge.New(anthropicjudge.WithBaseURL(srv.URL), anthropicjudge.WithAPIKey("sk-ant-test"), anthropicjudge.WithHTTPClient(srv.Client()))
	v, err := j.Judge(context.Background(), evalkit.JudgeRequest{Criteria: "better?", Content: "a", ContentB: "b", Format: verdicts.MTBenchPair})
	require.NoError(t, err)
	assert.Equal(t, "B", v.Label)
	assert.Equal(t, evalkit.Preference{Winner: "B", Strength: 1}, *v.Preference)
	var body map[string]any
	require.NoError(t, json.Unmarshal(srv.Requests()[0].Body, &body))
	assert.NotContains(t, body, "tools")
	assert.NotContains(t, body, "tool_choice")
	assert.Contains(t, body["messages"].([]any)[0].(map[string]any)["content"], `"[[A]]" if assistant A is better`)
}

// A panel of three pairwise judges judged both ways: each game is the
// panel's majority preference, and the pair combines and grades.
func TestBothWaysPanel(t *testing.T) {
	ctx := context.Background()
	req := evalkit.JudgeRequest{Criteria: "better?", Content: "a", ContentB: "b", Format: verdicts.ArenaHard}
	member := func(game1, game2 string) evalkit.Judge {
		return evalkit.JudgeFunc(func(_ context.Context, r evalkit.JudgeRequest) (evalkit.Verdict, error) {
			if r.Game == 1 {
				return evalkit.ParseVerdictFor(r, "My final verdict is "+game1)
			}
			return evalkit.ParseVerdictFor(r, "My final verdict is "+game2)
		})
	}
	panel := evalkit.Panel([]evalkit.Judge{member("[[A>>B]]", "[[B>A]]"), member("[[A>B]]", "[[B>A]]"), member("[[A>B]]", "[[A>B]]")}, evalkit.Majority)
	v, err := verdicts.BothWays(panel, verdicts.Refuse).Judge(ctx, req)
	require.NoError(t, err)
	assert.Equal(t, "A>B", v.Label)
	ok, err := evassert.GradeVerdict(v, evassert.Passing{Prefer: &evassert.Prefer{Winner: "A", Strength: 1}})
	require.NoError(t, err)
	assert.True(t, ok)
}
