package evalkit_test

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
)

// answering is a judge whose model answered text, read by ParseVerdict.
func answering(text string) evalkit.Judge {
	return evalkit.JudgeFunc(func(_ context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
		return evalkit.ParseVerdict(text, req.Scale)
	})
}

func scored(score float64) evalkit.Judge {
	return evalkit.JudgeFunc(func(_ context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
		return evalkit.Verdict{Score: score, Scored: true, RawScore: score * 10}, nil
	})
}

var panelReq = evalkit.JudgeRequest{Criteria: "Refunds the order the user named", Content: "Refunded #W123."}

// Field case C07 (d): an unparseable vote is missing data, not a negative
// vote: two valid "C" votes of three pass, and the broken judge is reported.
func TestPanelC07d(t *testing.T) {
	p := evalkit.Panel([]evalkit.Judge{
		answering(`{"grade": "C"}`),
		answering(`{"grade": "C"}`),
		answering("I am unable to assess this response."),
	}, evalkit.Majority)
	v, err := p.Judge(context.Background(), panelReq)
	require.NoError(t, err)
	assert.Equal(t, "C", v.Label)
	require.Len(t, v.Votes, 3)
	assert.Empty(t, v.Votes[0].Err)
	assert.Contains(t, v.Votes[2].Err, "unreadable judge verdict")
	assert.Contains(t, v.Reasoning, "judge 3: no vote (")
	assert.Contains(t, v.Reasoning, `judge 1: "C"; judge 2: "C"`)
}

func TestPanelAggregates(t *testing.T) {
	j := []evalkit.Judge{scored(0.9), scored(0.5), scored(0.7)}
	tests := []struct {
		agg  evalkit.Aggregate
		want float64
	}{
		{evalkit.Mean, 0.7},
		{evalkit.Median, 0.7},
		{evalkit.Min, 0.5},
	}
	for _, tt := range tests {
		t.Run(tt.agg.String(), func(t *testing.T) {
			v, err := evalkit.Panel(j, tt.agg).Judge(context.Background(), panelReq)
			require.NoError(t, err)
			assert.InDelta(t, tt.want, v.Score, 1e-9)
			assert.InDelta(t, tt.want*10, v.RawScore, 1e-9, "raw score on the default 0–10 scale")
			assert.Contains(t, v.Reasoning, "spread 0.40")
		})
	}
	v, err := evalkit.Panel([]evalkit.Judge{scored(0.2), scored(0.8)}, evalkit.Median).Judge(context.Background(), panelReq)
	require.NoError(t, err)
	assert.InDelta(t, 0.5, v.Score, 1e-9, "an even count takes the mean of the middle two")
}

func TestPanelMajorityAndUnanimity(t *testing.T) {
	yes, no := true, false
	fixed := func(v evalkit.Verdict) evalkit.Judge {
		return evalkit.JudgeFunc(func(context.Context, evalkit.JudgeRequest) (evalkit.Verdict, error) { return v, nil })
	}
	pass, fail := fixed(evalkit.Verdict{Passed: &yes, Score: 0.9, Scored: true}), fixed(evalkit.Verdict{Passed: &no, Score: 0.2, Scored: true})

	v, err := evalkit.Panel([]evalkit.Judge{pass, fail, pass}, evalkit.Majority).Judge(context.Background(), panelReq)
	require.NoError(t, err)
	assert.True(t, *v.Passed)
	assert.InDelta(t, 0.9, v.Score, 1e-9, "the majority's mean score")

	_, err = evalkit.Panel([]evalkit.Judge{pass, fail}, evalkit.Majority).Judge(context.Background(), panelReq)
	assert.EqualError(t, err, "evalkit: panel (majority): no majority among 2 votes: pass ×1, fail ×1")

	// Votes grouped by a label decide pass/fail together: the first of
	// them must not speak for the rest.
	labelled := func(passed *bool) evalkit.Judge {
		return fixed(evalkit.Verdict{Label: "partial", Passed: passed})
	}
	_, err = evalkit.Panel([]evalkit.Judge{labelled(&yes), labelled(&no), labelled(&no)}, evalkit.Majority).Judge(context.Background(), panelReq)
	assert.EqualError(t, err, `evalkit: panel (majority): the majority's 3 votes for label "partial" disagree on pass/fail`)
	_, err = evalkit.Panel([]evalkit.Judge{labelled(nil), labelled(&yes), labelled(&yes)}, evalkit.Majority).Judge(context.Background(), panelReq)
	assert.EqualError(t, err, `evalkit: panel (majority): the majority's 3 votes for label "partial" disagree on pass/fail`)
	v, err = evalkit.Panel([]evalkit.Judge{labelled(&no), labelled(&no), pass}, evalkit.Majority).Judge(context.Background(), panelReq)
	require.NoError(t, err)
	assert.Equal(t, "partial", v.Label)
	assert.False(t, *v.Passed)

	v, err = evalkit.Panel([]evalkit.Judge{pass, fail, pass}, evalkit.Unanimous).Judge(context.Background(), panelReq)
	require.NoError(t, err)
	assert.False(t, *v.Passed, "one fail breaks unanimity")
	assert.InDelta(t, 0.2, v.Score, 1e-9)
}

func TestPanelQuorumAndErrors(t *testing.T) {
	broken := evalkit.JudgeFunc(func(context.Context, evalkit.JudgeRequest) (evalkit.Verdict, error) {
		return evalkit.Verdict{}, errors.New("HTTP 503")
	})
	panicky := evalkit.JudgeFunc(func(context.Context, evalkit.JudgeRequest) (evalkit.Verdict, error) { panic("boom") })

	_, err := evalkit.Panel([]evalkit.Judge{scored(0.9), broken, panicky}, evalkit.Mean).Judge(context.Background(), panelReq)
	assert.EqualError(t, err, "evalkit: panel: 1 valid votes of 3, want at least 2; missing: judge 2: HTTP 503; judge 3: panicked: boom")

	v, err := evalkit.Panel([]evalkit.Judge{scored(0.9), broken, panicky}, evalkit.Mean).WithQuorum(1).Judge(context.Background(), panelReq)
	require.NoError(t, err)
	assert.InDelta(t, 0.9, v.Score, 1e-9)

	_, err = evalkit.Panel([]evalkit.Judge{scored(0.9), answering("[[A]]")}, evalkit.Mean).Judge(context.Background(), panelReq)
	assert.EqualError(t, err, `evalkit: panel (mean): a vote has no score (label "A"), and the aggregate is over scores`)

	for _, p := range []*evalkit.PanelJudge{
		evalkit.Panel(nil, evalkit.Mean),
		evalkit.Panel([]evalkit.Judge{nil}, evalkit.Mean),
		evalkit.Panel([]evalkit.Judge{scored(1)}, evalkit.Aggregate(0)),
		evalkit.Panel([]evalkit.Judge{scored(1)}, evalkit.Mean).WithQuorum(2),
	} {
		_, err := p.Judge(context.Background(), panelReq)
		assert.Error(t, err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = evalkit.Panel([]evalkit.Judge{scored(1)}, evalkit.Mean).Judge(ctx, panelReq)
	assert.ErrorIs(t, err, context.Canceled, "the caller's context ending ends the panel")
}

type identified struct {
	j     evalkit.Judge
	model string
}

func (i identified) Judge(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
	return i.j.Judge(ctx, req)
}

func (i identified) Identity() evalkit.Identity {
	return evalkit.Identity{Provider: "openai", Model: i.model}
}

func TestPanelIdentity(t *testing.T) {
	p := evalkit.Panel([]evalkit.Judge{identified{scored(1), "a"}, identified{scored(1), "b"}}, evalkit.Mean)
	id := p.Identity()
	assert.Equal(t, "panel", id.Provider)
	assert.Equal(t, "mean", id.Settings["aggregate"])
	assert.Len(t, id.Settings["judges"], 2)
	assert.Equal(t, evalkit.Identity{}, evalkit.Panel([]evalkit.Judge{identified{scored(1), "a"}, scored(1)}, evalkit.Mean).Identity(),
		"a member without an identity leaves the panel unrecordable")

	v, err := p.Judge(context.Background(), panelReq)
	require.NoError(t, err)
	assert.Equal(t, "judge 1 (a)", v.Votes[0].Judge)
}

// A panel of pairwise judges: Majority counts preferences ("A>B" and its
// mirror "B<A" are one vote) and its verdict states the majority's
// preference, so Prefers can grade it and BothWays can combine it; a
// panel of pairwise judges used to give a label without a preference,
// which nothing pairwise could read.
func TestPanelPairwiseMajority(t *testing.T) {
	pref := func(label, winner string, strength int) evalkit.Judge {
		return evalkit.JudgeFunc(func(context.Context, evalkit.JudgeRequest) (evalkit.Verdict, error) {
			return evalkit.Verdict{Label: label, Preference: &evalkit.Preference{Winner: winner, Strength: strength}}, nil
		})
	}
	req := evalkit.JudgeRequest{Criteria: "Which answer is better?", Content: "a", ContentB: "b"}
	v, err := evalkit.Panel([]evalkit.Judge{pref("A>B", "A", 1), pref("B<A", "A", 1), pref("B>A", "B", 1)}, evalkit.Majority).Judge(context.Background(), req)
	require.NoError(t, err)
	require.NotNil(t, v.Preference)
	assert.Equal(t, evalkit.Preference{Winner: "A", Strength: 1}, *v.Preference)
	assert.Equal(t, "A>B", v.Label, "two labels, one preference: written as Arena-Hard does")

	v, err = evalkit.Panel([]evalkit.Judge{pref("A", "A", 1), pref("A", "A", 1), pref("B", "B", 1)}, evalkit.Majority).Judge(context.Background(), req)
	require.NoError(t, err)
	assert.Equal(t, "A", v.Label, "one label: kept as the judges wrote it")
	assert.Equal(t, evalkit.Preference{Winner: "A", Strength: 1}, *v.Preference)

	_, err = evalkit.Panel([]evalkit.Judge{pref("A>>B", "A", 2), pref("A>B", "A", 1), pref("A=B", "", 0)}, evalkit.Majority).Judge(context.Background(), req)
	assert.EqualError(t, err, "evalkit: panel (majority): no majority among 3 votes: preference A>>B ×1, preference A>B ×1, preference A=B ×1")
}
