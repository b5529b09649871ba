package verdicts

import (
	"context"
	"errors"
	"fmt"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/stats"
)

// Inconsistent says what a pair judged both ways gives when its two games
// disagree.
type Inconsistent int

const (
	// Tie makes an inconsistent pair a tie, as MT-Bench counts it
	// (FastChat's show_result.py: a win only when both games agree).
	Tie Inconsistent = iota
	// Refuse makes an inconsistent pair no verdict: an error wrapping
	// ErrInconsistent.
	Refuse
)

// ErrInconsistent is wrapped by the error BothWays returns, under Refuse,
// for a pair whose two games disagree.
var ErrInconsistent = errors.New("verdicts: the two games of the pair disagree")

// PairJudge is a Judge that judges a pair both ways (see BothWays).
type PairJudge struct {
	judge evalkit.Judge
	rule  Inconsistent
}

// BothWays returns a judge that judges a pairwise request (ContentB set,
// Game 0) twice, as MT-Bench and Arena-Hard do to cancel position bias:
// game 1 as asked (Game 1), game 2 with Content and ContentB swapped (Game
// 2), one after the other. Each game's verdict must state a Preference
// (give the request a pairwise Format: ArenaHard, MTBenchPair,
// PrometheusRelative, VicunaPair). Game 2's preference, swapped back, is compared with game
// 1's: when both name the same winner, or both a tie, the pair is
// consistent and its preference is that winner at the weaker of the two
// strengths (A>>B and A>B give A>B); otherwise rule decides (Tie or
// Refuse). The verdict's Label is its preference as Arena-Hard writes it
// ("A>B"), Games holds the two games' verdicts as their judge gave them,
// Reasoning says how they combined, and Usage is their sum.
//
// A game whose judge fails, or that states no preference, is an error: a
// pair is never combined from one game. Each game is its own request, so
// a recording (golden.Recorder as j) files the two under two keys.
func BothWays(j evalkit.Judge, rule Inconsistent) *PairJudge {
	return &PairJudge{judge: j, rule: rule}
}

// Identity is the judge's, when it has one, with the setting "both_ways"
// ("tie" or "refuse"): a pair's combined verdict never shares a recording
// key with the judge's own answer to the same request.
func (p *PairJudge) Identity() evalkit.Identity {
	id, ok := p.judge.(evalkit.Identifier)
	if !ok {
		return evalkit.Identity{}
	}
	out := id.Identity()
	if out.Provider == "" {
		return out
	}
	settings := make(map[string]any, len(out.Settings)+1)
	for k, v := range out.Settings {
		settings[k] = v
	}
	settings["both_ways"] = map[Inconsistent]string{Tie: "tie", Refuse: "refuse"}[p.rule]
	out.Settings = settings
	return out
}

// Judge implements evalkit.Judge.
func (p *PairJudge) Judge(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
	switch {
	case p.judge == nil:
		return evalkit.Verdict{}, errors.New("verdicts: BothWays has no judge")
	case p.rule != Tie && p.rule != Refuse:
		return evalkit.Verdict{}, fmt.Errorf("verdicts: BothWays has an unknown rule %d", p.rule)
	case req.ContentB == "":
		return evalkit.Verdict{}, errors.New("verdicts: BothWays judges a pair: the request has no ContentB (Assistant B's answer)")
	case req.Game != 0:
		return evalkit.Verdict{}, fmt.Errorf("verdicts: BothWays sets the game itself, and the request already has game %d", req.Game)
	}
	g1, g2 := req, req
	g1.Game = 1
	g2.Game, g2.Content, g2.ContentB = 2, req.ContentB, req.Content
	// One game after the other: a scripted judge (a fake server, a
	// recording made in order) answers game 1 first.
	var v [2]evalkit.Verdict
	var errs [2]error
	for i, r := range []evalkit.JudgeRequest{g1, g2} {
		if v[i], errs[i] = p.judge.Judge(ctx, r); errs[i] != nil {
			break
		}
	}
	for i := range 2 {
		if errs[i] != nil {
			return evalkit.Verdict{}, fmt.Errorf("verdicts: game %d of 2: %w", i+1, errs[i])
		}
		if v[i].Preference == nil {
			return evalkit.Verdict{}, fmt.Errorf("verdicts: game %d of 2: %w (label %q): give the request a pairwise Format", i+1, errNoPreference, v[i].Label)
		}
	}
	return Combine(v[0], v[1], p.rule)
}

// Combine combines the verdicts of a pair's two games, game 2 judged with
// the answers swapped, as BothWays does (see it for the rule). A game
// without a preference, or with one that is none of the five (A>>B, A>B,
// A=B, B>A, B>>A), is an error.
func Combine(game1, game2 evalkit.Verdict, rule Inconsistent) (evalkit.Verdict, error) {
	if game1.Preference == nil || game2.Preference == nil {
		return evalkit.Verdict{}, errNoPreference
	}
	for i, g := range []evalkit.Verdict{game1, game2} {
		if p := *g.Preference; !validPreference(p) {
			return evalkit.Verdict{}, fmt.Errorf("verdicts: game %d of 2: the preference %s is none of A>>B, A>B, A=B, B>A, B>>A", i+1, p)
		}
	}
	a, b := *game1.Preference, game2.Preference.Swapped()
	why := fmt.Sprintf("game 1: %s; game 2 (answers swapped): %s, which is %s in game 1's order", a, game2.Preference, b)
	var out evalkit.Preference
	if a.Winner == b.Winner {
		out = evalkit.Preference{Winner: a.Winner, Strength: min(a.Strength, b.Strength)}
		why += "; consistent: " + out.String()
	} else {
		if rule == Refuse {
			return evalkit.Verdict{}, fmt.Errorf("%w: %s", ErrInconsistent, why)
		}
		why += "; inconsistent, so a tie"
	}
	v := evalkit.Verdict{
		Label: out.String(), Preference: &out, Reasoning: why, Model: game1.Model,
		Games: []evalkit.Verdict{game1, game2},
	}
	for _, g := range v.Games {
		v.Usage.InputTokens += g.Usage.InputTokens
		v.Usage.OutputTokens += g.Usage.OutputTokens
		v.Usage.CostUSD += g.Usage.CostUSD
	}
	return v, nil
}

// validPreference reports whether p is one of the five preferences.
func validPreference(p evalkit.Preference) bool {
	return (p.Winner == "A" || p.Winner == "B") && (p.Strength == 1 || p.Strength == 2) || p.Winner == "" && p.Strength == 0
}

// Consistent reports whether a verdict judged both ways had two games
// that agreed (the same winner, or both a tie, game 2 swapped back); ok is
// false for a verdict without two games stating preferences.
func Consistent(v evalkit.Verdict) (consistent, ok bool) {
	if len(v.Games) != 2 || v.Games[0].Preference == nil || v.Games[1].Preference == nil {
		return false, false
	}
	return v.Games[0].Preference.Winner == v.Games[1].Preference.Swapped().Winner, true
}

// Consistency is the position consistency of a set of pairs judged both
// ways: the share whose two games agreed, with a Wilson interval.
type Consistency struct {
	Pairs, Consistent int
	// Rate is Consistent/Pairs, in [0,1].
	Rate float64
	// Lower and Upper bound Rate at 95% (Wilson score interval).
	Lower, Upper float64
}

// PositionConsistency measures how often the two games of each pair
// agreed (see Consistent): the position-consistency figure of MT-Bench's
// paper (Zheng et al. 2023, table 2). It returns an error for no
// verdicts, or for one without two games, naming it.
func PositionConsistency(vs []evalkit.Verdict) (Consistency, error) {
	if len(vs) == 0 {
		return Consistency{}, errors.New("verdicts: PositionConsistency: no verdicts")
	}
	var c Consistency
	for i, v := range vs {
		ok, has := Consistent(v)
		if !has {
			return Consistency{}, fmt.Errorf("verdicts: PositionConsistency: verdict %d was not judged both ways (it has %d games with preferences)", i, len(v.Games))
		}
		c.Pairs++
		if ok {
			c.Consistent++
		}
	}
	c.Rate = float64(c.Consistent) / float64(c.Pairs)
	var err error
	if c.Lower, c.Upper, err = stats.Wilson(c.Consistent, c.Pairs, 0.95); err != nil {
		return Consistency{}, err
	}
	return c, nil
}
