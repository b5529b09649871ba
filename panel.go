package evalkit

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Aggregate says how a panel combines its judges' votes into one verdict.
type Aggregate int

// The ways a panel combines votes. Only valid votes count: a judge that gave
// no verdict (an unreadable answer, an API failure) is missing data, never a
// negative vote.
const (
	// Mean scores the mean of the votes' scores.
	Mean Aggregate = iota + 1
	// Median scores the median of the votes' scores (the mean of the middle
	// two for an even count).
	Median
	// Min scores the lowest vote: the strictest judge decides.
	Min
	// Majority takes the preference (pairwise votes: "A>B" and "B<A" are
	// one), the label, or the pass/fail, more than half the votes give;
	// with no majority (a tie) the panel has no verdict and returns an
	// error. Its score is the mean of the votes that make the majority.
	Majority
	// Unanimous passes only when every vote passes (Verdict.Passed); its
	// label is the votes' common label, and its score the lowest vote's.
	Unanimous
)

// String returns "mean", "median", "min", "majority" or "unanimous".
func (a Aggregate) String() string {
	switch a {
	case Mean:
		return "mean"
	case Median:
		return "median"
	case Min:
		return "min"
	case Majority:
		return "majority"
	case Unanimous:
		return "unanimous"
	}
	return fmt.Sprintf("Aggregate(%d)", int(a))
}

// Vote is one panel member's part in a panel verdict.
type Vote struct {
	// Judge names the member: its identity's model, else "judge N".
	Judge string `json:"judge"`
	// Verdict is the member's verdict; zero when Err is set.
	Verdict Verdict `json:"verdict"`
	// Err says why the member gave no verdict: missing data, not a vote.
	Err string `json:"error,omitempty"`
}

// PanelJudge is a Judge made of several judges (see Panel).
type PanelJudge struct {
	judges []Judge
	agg    Aggregate
	quorum int
}

// Panel returns a judge that asks every judge the same request, at once, and
// combines their valid verdicts with agg. A judge that returns an error
// (except for the caller's context ending, which ends the panel) casts no
// vote: its error is kept in the verdict's Votes, never counted against the
// content. The panel needs a quorum of valid votes — more than half of its
// judges, unless WithQuorum says otherwise — and returns an error naming
// every missing vote when it has fewer.
//
// The verdict keeps every member's vote in Votes, and says in Reasoning how
// the votes went and how far apart the scores were (their spread, max − min,
// in [0,1]; also Verdict.Spread); its Fields are the verdict-object fields
// every counted vote gives alike. Under WithVoteCheck each member's verdict
// is checked first. PanelAgreement measures the judges'
// agreement over a run of such verdicts (Krippendorff's alpha). A panel
// is an Identifier when all its judges are, so a recording keys on every
// member. After the multi-judge setups of
// "LLM-as-a-jury" evaluations (PoLL) and ObjectWeaver's epistemic validation.
func Panel(judges []Judge, agg Aggregate) *PanelJudge {
	return &PanelJudge{judges: slices.Clone(judges), agg: agg, quorum: len(judges)/2 + 1}
}

// WithQuorum returns the panel with the number of valid votes it needs set
// to n (1 to the number of judges).
func (p *PanelJudge) WithQuorum(n int) *PanelJudge {
	q := *p
	q.quorum = n
	return &q
}

// Judge implements Judge.
func (p *PanelJudge) Judge(ctx context.Context, req JudgeRequest) (Verdict, error) {
	if err := p.validate(); err != nil {
		return Verdict{}, err
	}
	if err := req.Validate(); err != nil {
		return Verdict{}, err
	}
	votes := make([]Vote, len(p.judges))
	var wg sync.WaitGroup
	for i, j := range p.judges {
		wg.Add(1)
		go func() {
			defer wg.Done()
			votes[i] = castVote(ctx, i, j, req)
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return Verdict{}, fmt.Errorf("evalkit: panel: %w", err)
	}
	var valid []Verdict
	var missing []string
	for _, v := range votes {
		if v.Err != "" {
			missing = append(missing, v.Judge+": "+v.Err)
			continue
		}
		valid = append(valid, v.Verdict)
	}
	if len(valid) < p.quorum {
		return Verdict{}, fmt.Errorf("evalkit: panel: %d valid votes of %d, want at least %d; missing: %s", len(valid), len(votes), p.quorum, strings.Join(missing, "; "))
	}
	v, err := p.combine(valid, req.Scale.OrDefault())
	if err != nil {
		return Verdict{}, fmt.Errorf("evalkit: panel (%s): %w", p.agg, err)
	}
	if p.agg != Majority {
		v.Fields = agreedFields(valid)
	}
	if p.agg == Mean || p.agg == Median || p.agg == Min {
		// What every vote says alike, beside the score: the label, the
		// pass/fail.
		if slices.IndexFunc(valid, func(o Verdict) bool { return o.Label != valid[0].Label }) < 0 {
			v.Label = valid[0].Label
		}
		if p := valid[0].Preference; p != nil && slices.IndexFunc(valid, func(o Verdict) bool { return o.Preference == nil || *o.Preference != *p }) < 0 {
			pref := *p
			v.Preference = &pref
		}
		if pass, err := agreedPass(valid); err == nil {
			v.Passed = pass
		}
	}
	v.Votes = votes
	v.Reasoning = summarizeVotes(votes, p.agg)
	for _, vote := range valid {
		v.Usage.InputTokens += vote.Usage.InputTokens
		v.Usage.OutputTokens += vote.Usage.OutputTokens
		v.Usage.CostUSD += vote.Usage.CostUSD
	}
	return v, nil
}

func (p *PanelJudge) validate() error {
	if len(p.judges) == 0 {
		return errors.New("evalkit: panel has no judges")
	}
	for i, j := range p.judges {
		if j == nil {
			return fmt.Errorf("evalkit: panel judge %d is nil", i)
		}
	}
	if p.agg < Mean || p.agg > Unanimous {
		return fmt.Errorf("evalkit: panel has an unknown aggregate %v", p.agg)
	}
	if p.quorum < 1 || p.quorum > len(p.judges) {
		return fmt.Errorf("evalkit: panel quorum %d is not between 1 and its %d judges", p.quorum, len(p.judges))
	}
	return nil
}

// castVote asks one judge; a panic or an error is a missing vote.
func castVote(ctx context.Context, i int, j Judge, req JudgeRequest) (vote Vote) {
	vote.Judge = fmt.Sprintf("judge %d", i+1)
	if id, ok := j.(Identifier); ok && id.Identity().Model != "" {
		vote.Judge = fmt.Sprintf("judge %d (%s)", i+1, id.Identity().Model)
	}
	defer func() {
		if r := recover(); r != nil {
			vote.Verdict, vote.Err = Verdict{}, fmt.Sprintf("panicked: %v", r)
		}
	}()
	v, err := j.Judge(ctx, req)
	if err != nil {
		vote.Err = err.Error()
		return vote
	}
	if check, ok := ctx.Value(voteCheckKey{}).(func(Verdict) (Verdict, error)); ok {
		if v, err = check(v); err != nil {
			vote.Err = err.Error()
			return vote
		}
	}
	if v.Scored && (math.IsNaN(v.Score) || v.Score < 0 || v.Score > 1) {
		vote.Err = fmt.Sprintf("score %v is outside [0,1]", v.Score)
		return vote
	}
	vote.Verdict = v
	return vote
}

func (p *PanelJudge) combine(valid []Verdict, scale Scale) (Verdict, error) {
	var v Verdict
	switch p.agg {
	case Mean, Median, Min:
		scores, err := allScores(valid)
		if err != nil {
			return v, err
		}
		switch p.agg {
		case Mean:
			v.Score = mean(scores)
		case Median:
			sort.Float64s(scores)
			n := len(scores)
			v.Score = scores[n/2]
			if n%2 == 0 {
				v.Score = (scores[n/2-1] + scores[n/2]) / 2
			}
		case Min:
			v.Score = slices.Min(scores)
		}
		v.Scored = true
	case Majority:
		members, err := majority(valid)
		if err != nil {
			return v, err
		}
		v.Label = members[0].Label
		if p := members[0].Preference; p != nil {
			pref := *p
			v.Preference = &pref
			if slices.IndexFunc(members, func(o Verdict) bool { return o.Label != v.Label }) >= 0 {
				v.Label = pref.String() // "A>B" and "B<A" alike
			}
		}
		v.Fields = agreedFields(members)
		if v.Passed, err = agreedPass(members); err != nil {
			return v, err
		}
		if scores, err := allScores(members); err == nil {
			v.Score, v.Scored = mean(scores), true
		}
	case Unanimous:
		passed := true
		for i, vote := range valid {
			if vote.Passed == nil {
				return v, fmt.Errorf("vote %d gave no pass/fail, and unanimity is over pass/fail", i+1)
			}
			passed = passed && *vote.Passed
		}
		v.Passed = &passed
		if label := valid[0].Label; label != "" && slices.IndexFunc(valid, func(o Verdict) bool { return o.Label != label }) < 0 {
			v.Label = label
		}
		if scores, err := allScores(valid); err == nil {
			v.Score, v.Scored = slices.Min(scores), true
		}
	}
	if v.Scored {
		v.RawScore = scale.Raw(v.Score)
	}
	return v, nil
}

func allScores(vs []Verdict) ([]float64, error) {
	scores := make([]float64, len(vs))
	for i, v := range vs {
		if !v.Scored {
			return nil, fmt.Errorf("a vote has no score (label %q), and the aggregate is over scores", v.Label)
		}
		scores[i] = v.Score
	}
	return scores, nil
}

func mean(xs []float64) float64 {
	sum := 0.0
	for _, x := range xs {
		sum += x
	}
	return sum / float64(len(xs))
}

// agreedPass is the pass/fail the votes of a majority share: none when
// none gives one, else every vote must give the same. Votes grouped by a
// label may still differ in pass/fail, and the first of them must not
// decide for the rest.
func agreedPass(members []Verdict) (*bool, error) {
	var passed *bool
	for i, m := range members {
		switch {
		case m.Passed == nil && passed == nil:
		case m.Passed == nil || passed == nil && i > 0 || passed != nil && *passed != *m.Passed:
			return nil, fmt.Errorf("the majority's %d votes for label %q disagree on pass/fail", len(members), m.Label)
		default:
			passed = m.Passed
		}
	}
	return passed, nil
}

// majority groups votes by preference, else by label, else by pass/fail,
// and returns the group holding more than half of them.
func majority(vs []Verdict) ([]Verdict, error) {
	groups := map[string][]Verdict{}
	var keys []string
	for i, v := range vs {
		var key string
		switch {
		case v.Preference != nil:
			key = "preference " + v.Preference.String()
		case v.Label != "":
			key = "label " + v.Label
		case v.Passed != nil && *v.Passed:
			key = "pass"
		case v.Passed != nil:
			key = "fail"
		default:
			return nil, fmt.Errorf("vote %d gave neither a label nor a pass/fail, and a majority is over those", i+1)
		}
		if _, seen := groups[key]; !seen {
			keys = append(keys, key)
		}
		groups[key] = append(groups[key], v)
	}
	for _, k := range keys {
		if 2*len(groups[k]) > len(vs) {
			return groups[k], nil
		}
	}
	counts := make([]string, len(keys))
	for i, k := range keys {
		counts[i] = fmt.Sprintf("%s ×%d", k, len(groups[k]))
	}
	return nil, fmt.Errorf("no majority among %d votes: %s", len(vs), strings.Join(counts, ", "))
}

// summarizeVotes says how the votes went, for Reasoning.
func summarizeVotes(votes []Vote, agg Aggregate) string {
	parts := make([]string, len(votes))
	lo, hi, scored := 1.0, 0.0, 0
	for i, v := range votes {
		switch {
		case v.Err != "":
			parts[i] = v.Judge + ": no vote (" + v.Err + ")"
		case v.Verdict.Label != "":
			parts[i] = fmt.Sprintf("%s: %q", v.Judge, v.Verdict.Label)
		case v.Verdict.Scored:
			parts[i] = fmt.Sprintf("%s: %.2f", v.Judge, v.Verdict.Score)
		case v.Verdict.Passed != nil:
			parts[i] = fmt.Sprintf("%s: pass=%v", v.Judge, *v.Verdict.Passed)
		default:
			parts[i] = v.Judge + ": voted"
		}
		if v.Err == "" && v.Verdict.Scored {
			scored++
			lo, hi = math.Min(lo, v.Verdict.Score), math.Max(hi, v.Verdict.Score)
		}
	}
	s := fmt.Sprintf("panel (%s) of %d: %s", agg, len(votes), strings.Join(parts, "; "))
	if scored > 1 {
		s += fmt.Sprintf("; spread %.2f", hi-lo)
	}
	return s
}

// voteCheckKey keys the vote check WithVoteCheck puts in a context.
type voteCheckKey struct{}

// WithVoteCheck returns ctx carrying check, which a Panel judging under it
// applies to each member's verdict, as a grader checks a single judge's: a
// member whose verdict check rejects is missing data (its error kept in
// the vote), and the verdict check returns is the member's vote. Package
// assert checks each vote against the request's verdict schema this way.
func WithVoteCheck(ctx context.Context, check func(Verdict) (Verdict, error)) context.Context {
	return context.WithValue(ctx, voteCheckKey{}, check)
}

// agreedFields are the verdict-object fields every vote gives alike: a
// panel's Fields, which grading by a field reads. Nil when none are.
func agreedFields(vs []Verdict) map[string]any {
	var out map[string]any
	for k, val := range vs[0].Fields {
		if slices.IndexFunc(vs[1:], func(o Verdict) bool { x, ok := o.Fields[k]; return !ok || !reflect.DeepEqual(x, val) }) < 0 {
			if out == nil {
				out = map[string]any{}
			}
			out[k] = val
		}
	}
	return out
}

// Identity implements Identifier when every judge of the panel does: the
// panel's identity holds the aggregate, the quorum and every member's.
// Otherwise it returns the zero Identity, and a panel is not recorded.
func (p *PanelJudge) Identity() Identity {
	members := make([]any, len(p.judges))
	for i, j := range p.judges {
		id, ok := j.(Identifier)
		if !ok {
			return Identity{}
		}
		members[i] = id.Identity()
	}
	return Identity{Provider: "panel", Settings: map[string]any{"aggregate": p.agg.String(), "quorum": p.quorum, "judges": members}}
}
