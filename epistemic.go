package evalkit

import (
	"context"
	"errors"
	"fmt"
)

// EpistemicValidation is ObjectWeaver's epistemic validation in one call:
// N judges each score every candidate on every dimension (completeness and
// correctness, 0–100, by default), the scores are averaged, the candidate
// with the highest average is Best; and, with an Embedder, the candidates'
// embeddings give the K-Nearest consensus — the candidate nearest their
// centroid, and each one's confidence, in [0,1] and on ObjectWeaver's 0–100
// scale. It composes Dimensions, Panel (Mean), BestByJudge and
// NearestCentroid.
//
//	ev := evalkit.EpistemicValidation{Judges: []evalkit.Judge{j, j, j}, Embedder: e}
//	res, err := ev.Run(ctx, evalkit.JudgeRequest{Criteria: "A factual summary", Input: prompt}, completions)
//	best := res.Candidates[res.Best] // best.Score100, best.Confidence100
type EpistemicValidation struct {
	// Judges score every candidate (ObjectWeaver's Judges: 3 is three of
	// them; the same judge may be given several times). Required.
	Judges []Judge
	// Dimensions are what each judge scores; nil means
	// EpistemicDimensions.
	Dimensions []Dimension
	// Embedder embeds the candidates for the consensus; nil skips it.
	Embedder Embedder
}

// EpistemicResult is an EpistemicValidation's outcome.
type EpistemicResult struct {
	// Candidates are the completions in the order given.
	Candidates []EpistemicCandidate `json:"candidates"`
	// Best is the index of the candidate with the highest average score
	// (the first of several): the LLM-as-Judge selection.
	Best int `json:"best"`
	// ConsensusBest is the index of the candidate nearest the centroid of
	// the embeddings (the K-Nearest selection); -1 without an Embedder.
	ConsensusBest int `json:"consensus_best"`
}

// EpistemicCandidate is one completion's scores.
type EpistemicCandidate struct {
	Index int    `json:"index"`
	Text  string `json:"text"`
	// Score is the mean over the judges and the dimensions, in [0,1], and
	// Score100 the same on ObjectWeaver's 0–100 scale.
	Score    float64 `json:"score"`
	Score100 float64 `json:"score_100"`
	// Dimensions are each dimension's mean over the judges, Score in
	// [0,1] and RawScore on the dimension's scale (0–100 by default).
	Dimensions []CriterionScore `json:"dimensions,omitempty"`
	// Verdict is the judges' combined verdict, every judge's in its Votes.
	Verdict Verdict `json:"verdict"`
	// Err says why the candidate has no score: missing data, never a zero.
	Err string `json:"error,omitempty"`
	// Distance and Confidence are its place in the consensus (see
	// Candidate), Confidence100 on the 0–100 scale; zero without an
	// Embedder.
	Distance      float64 `json:"distance,omitempty"`
	Confidence    float64 `json:"confidence,omitempty"`
	Confidence100 float64 `json:"confidence_100,omitempty"`
}

// Run scores the candidates against req (its Content is each candidate in
// turn). Errors, never a result: no candidates, no judges, an invalid
// request or dimension, no candidate scored (each judge call's error is
// missing data: a candidate needs more than half its judges' votes), the
// embedder's error, and ctx ending.
func (ev EpistemicValidation) Run(ctx context.Context, req JudgeRequest, candidates []string) (EpistemicResult, error) {
	if len(ev.Judges) == 0 {
		return EpistemicResult{}, errors.New("evalkit: epistemic validation: no judges")
	}
	dims := ev.Dimensions
	if dims == nil {
		dims = EpistemicDimensions
	}
	members := make([]Judge, len(ev.Judges))
	for i, j := range ev.Judges {
		if j == nil {
			return EpistemicResult{}, fmt.Errorf("evalkit: epistemic validation: judge %d is nil", i)
		}
		members[i] = Dimensions(j, dims...)
	}
	judged, err := BestByJudge(ctx, Panel(members, Mean), req, candidates)
	if err != nil {
		return EpistemicResult{}, fmt.Errorf("evalkit: epistemic validation: %w", err)
	}
	out := EpistemicResult{Best: judged.Best, ConsensusBest: -1, Candidates: make([]EpistemicCandidate, len(candidates))}
	for i, c := range judged.Candidates {
		ec := EpistemicCandidate{Index: i, Text: c.Text, Verdict: c.Verdict, Err: c.Err}
		if c.Err == "" {
			ec.Score, ec.Score100 = c.Verdict.Score, c.Verdict.Score*100
			ec.Dimensions = dimensionMeans(dims, c.Verdict.Votes, req.Scale.OrDefault())
		}
		out.Candidates[i] = ec
	}
	if ev.Embedder == nil {
		return out, nil
	}
	cons, err := NearestCentroid(ctx, ev.Embedder, candidates)
	if err != nil {
		return EpistemicResult{}, fmt.Errorf("evalkit: epistemic validation: %w", err)
	}
	out.ConsensusBest = cons.Best
	for i, c := range cons.Candidates {
		out.Candidates[i].Distance, out.Candidates[i].Confidence, out.Candidates[i].Confidence100 = c.Distance, c.Confidence, c.Confidence*100
	}
	return out, nil
}

// dimensionMeans averages each dimension over the judges that voted.
func dimensionMeans(dims []Dimension, votes []Vote, reqScale Scale) []CriterionScore {
	out := make([]CriterionScore, len(dims))
	for k, d := range dims {
		n, sum := 0, 0.0
		for _, v := range votes {
			for _, c := range v.Verdict.Criteria {
				if v.Err == "" && c.Name == d.Name {
					sum, n = sum+c.Score, n+1
				}
			}
		}
		out[k] = CriterionScore{Name: d.Name}
		if n > 0 {
			scale := d.Scale
			if scale == (Scale{}) {
				scale = reqScale
			}
			out[k].Score = sum / float64(n)
			out[k].RawScore = scale.Raw(out[k].Score)
		}
	}
	return out
}
