package evalkit

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
)

// Consensus is where N candidate answers to one prompt stand against the
// centroid (the mean) of their embeddings: the one nearest it is the most
// representative answer, and the ones far from it are outliers. Made by
// NearestCentroid.
type Consensus struct {
	// Candidates are the answers in the order given, each with its
	// distance to the centroid and its confidence.
	Candidates []Candidate `json:"candidates"`
	// Best is the index of the candidate nearest the centroid (the first
	// of several at the same distance).
	Best int `json:"best"`
	// Dimension is the embeddings' length.
	Dimension int `json:"dimension"`
}

// Candidate is one answer's place in a Consensus.
type Candidate struct {
	// Index is the answer's position among those given.
	Index int `json:"index"`
	// Text is the answer as given.
	Text string `json:"text"`
	// Distance is the Euclidean distance from the answer's embedding to
	// the centroid, in the embedder's units (for embeddings of length 1,
	// between 0 and 2).
	Distance float64 `json:"distance"`
	// Confidence is the answer's closeness to the centroid, normalized to
	// [0,1]: 1 − Distance/(‖e‖ + ‖c‖) for its embedding e and the centroid
	// c. The triangle inequality bounds Distance by ‖e‖ + ‖c‖, so it is 1
	// when the answer sits on the centroid and 0 only when it points
	// exactly away from it; scaling every embedding leaves it unchanged,
	// and it needs no other candidate to be far away.
	Confidence float64 `json:"confidence"`
}

// Outliers returns the candidates farther than maxDistance from the
// centroid, in order, except Best: the consensus is never its own
// outlier, even when every candidate, it too, lies past maxDistance (read
// Candidates[Best].Distance for that).
func (c Consensus) Outliers(maxDistance float64) []Candidate {
	var out []Candidate
	for i, cand := range c.Candidates {
		if i != c.Best && cand.Distance > maxDistance {
			out = append(out, cand)
		}
	}
	return out
}

// NearestCentroid embeds the candidates with e in one call, averages their
// embeddings into a centroid, and measures each candidate's Euclidean
// distance to it; the nearest is Best. This is the "K-Nearest" embedding
// validation of ObjectWeaver's epistemic validation (the consensus-aligned
// completion among several generation attempts), with confidence as
// documented on Candidate.
//
// It returns an error, never a consensus, for no candidates, a nil
// embedder, the embedder's own error, and embeddings that cannot be
// compared: a count other than one per candidate, an empty vector, vectors
// of different lengths, a component that is not a finite number, a zero vector.
func NearestCentroid(ctx context.Context, e Embedder, candidates []string) (Consensus, error) {
	if len(candidates) == 0 {
		return Consensus{}, errors.New("evalkit: consensus: no candidates")
	}
	if e == nil {
		return Consensus{}, errors.New("evalkit: consensus: no embedder")
	}
	vecs, err := embed(ctx, e, candidates)
	if err != nil {
		return Consensus{}, fmt.Errorf("evalkit: consensus: %w", err)
	}
	dim := len(vecs[0])
	// The sums of squares are taken on the vectors divided by their
	// largest component, so large finite components (1e200) neither
	// overflow to +Inf nor make a confidence NaN; confidence is unchanged
	// by the scaling and distances are scaled back.
	scale := 0.0
	for _, v := range vecs {
		for _, x := range v {
			scale = math.Max(scale, math.Abs(x))
		}
	}
	scaled := make([][]float64, len(vecs))
	for k, v := range vecs {
		scaled[k] = make([]float64, dim)
		for i, x := range v {
			scaled[k][i] = x / scale
		}
	}
	centroid := make([]float64, dim)
	for _, v := range scaled {
		for i, x := range v {
			centroid[i] += x
		}
	}
	for i := range centroid {
		centroid[i] /= float64(len(vecs))
	}
	cn := norm(centroid)
	out := Consensus{Candidates: make([]Candidate, len(vecs)), Dimension: dim}
	for i, v := range scaled {
		d := distance(v, centroid)
		conf := 1.0
		if bound := norm(v) + cn; bound > 0 {
			conf = math.Max(0, math.Min(1, 1-d/bound))
		}
		d *= scale
		if math.IsInf(d, 0) || math.IsNaN(d) || math.IsNaN(conf) {
			return Consensus{}, fmt.Errorf("evalkit: consensus: the distance of text %d to the centroid is not a finite number (its embedding's components reach %g)", i, scale)
		}
		out.Candidates[i] = Candidate{Index: i, Text: candidates[i], Distance: d, Confidence: conf}
		if d < out.Candidates[out.Best].Distance {
			out.Best = i
		}
	}
	return out, nil
}

// embed asks e for the candidates' embeddings and checks that they can be
// compared.
func embed(ctx context.Context, e Embedder, texts []string) (vecs [][]float64, err error) {
	defer func() {
		if r := recover(); r != nil {
			vecs, err = nil, fmt.Errorf("the embedder panicked: %v", r)
		}
	}()
	vecs, err = e.Embed(ctx, texts)
	if err != nil {
		return nil, fmt.Errorf("the embedder failed: %w", err)
	}
	if len(vecs) != len(texts) {
		return nil, fmt.Errorf("the embedder returned %d vectors for %d texts", len(vecs), len(texts))
	}
	for i, v := range vecs {
		switch {
		case len(v) == 0:
			return nil, fmt.Errorf("the embedder returned an empty vector for text %d", i)
		case len(v) != len(vecs[0]):
			return nil, fmt.Errorf("the embedder returned vectors of %d and %d dimensions (texts 0 and %d)", len(vecs[0]), len(v), i)
		}
		zero := true
		for j, x := range v {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return nil, fmt.Errorf("the embedder returned %v at dimension %d of text %d", x, j, i)
			}
			zero = zero && x == 0
		}
		if zero {
			// evalkit.Embedder's contract: a zero vector is what an
			// embedder that could not embed the text stands in with.
			return nil, fmt.Errorf("the embedder returned the zero vector for text %d", i)
		}
	}
	return vecs, nil
}

func distance(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		d := a[i] - b[i]
		s += d * d
	}
	return math.Sqrt(s)
}

func norm(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x * x
	}
	return math.Sqrt(s)
}

// BestOfN is the judge's choice among N candidate answers, made by
// BestByJudge.
type BestOfN struct {
	// Candidates are the answers in the order given, each with its
	// verdict or the reason it has none.
	Candidates []JudgedCandidate `json:"candidates"`
	// Best is the index of the highest-scored candidate (the first of
	// several with the same score).
	Best int `json:"best"`
}

// JudgedCandidate is one answer's verdict in a BestOfN.
type JudgedCandidate struct {
	// Index is the answer's position among those given.
	Index int `json:"index"`
	// Text is the answer as given.
	Text string `json:"text"`
	// Verdict is the judge's verdict on it; zero when Err is set.
	Verdict Verdict `json:"verdict"`
	// Err says why the answer has no score: missing data, never a zero.
	Err string `json:"error,omitempty"`
}

// BestByJudge asks j to grade each candidate — req with Content set to the
// candidate, one call each, in order — and picks the highest Score (in
// [0,1]): the "LLM-as-Judge" selection of ObjectWeaver's epistemic
// validation, where several judges (a Panel) score completeness and
// correctness (Dimensions) and the best average wins.
//
// A candidate whose judge call fails, or whose verdict has no score, is
// missing data, kept with its reason, and never chosen. It returns an error
// when no candidate got a score, for no candidates or a nil judge, for an
// invalid request, and when ctx ends.
func BestByJudge(ctx context.Context, j Judge, req JudgeRequest, candidates []string) (BestOfN, error) {
	if len(candidates) == 0 {
		return BestOfN{}, errors.New("evalkit: best of n: no candidates")
	}
	if j == nil {
		return BestOfN{}, errors.New("evalkit: best of n: no judge")
	}
	out := BestOfN{Candidates: make([]JudgedCandidate, len(candidates)), Best: -1}
	var missing []string
	for i, text := range candidates {
		r := req
		r.Content = text
		if err := r.Validate(); err != nil {
			return BestOfN{}, fmt.Errorf("evalkit: best of n: %w", err)
		}
		vote := castVote(ctx, i, j, r)
		if err := ctx.Err(); err != nil {
			return BestOfN{}, fmt.Errorf("evalkit: best of n: %w", err)
		}
		c := JudgedCandidate{Index: i, Text: text, Verdict: vote.Verdict, Err: vote.Err}
		if c.Err == "" && !c.Verdict.Scored {
			c.Verdict, c.Err = Verdict{}, "the verdict has no score"
		}
		out.Candidates[i] = c
		if c.Err != "" {
			missing = append(missing, fmt.Sprintf("candidate %d: %s", i, c.Err))
			continue
		}
		if out.Best < 0 || c.Verdict.Score > out.Candidates[out.Best].Verdict.Score {
			out.Best = i
		}
	}
	if out.Best < 0 {
		return BestOfN{}, fmt.Errorf("evalkit: best of n: no candidate was scored: %s", strings.Join(missing, "; "))
	}
	return out, nil
}
