package evalkit

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Dimension is one named criterion of a multi-dimension rubric, scored on
// its own scale.
type Dimension struct {
	// Name is the criterion's name in the verdict: "completeness".
	Name string `json:"name"`
	// Criteria say what the dimension measures, told to the judge.
	Criteria string `json:"criteria"`
	// Scale is the range the judge scores the dimension on; the zero
	// Scale means the request's own.
	Scale Scale `json:"scale"`
}

// EpistemicDimensions are the two dimensions of ObjectWeaver's epistemic
// validation, each scored 0–100: completeness (how thoroughly the content
// addresses every aspect of the request) and correctness (the accuracy and
// validity of what it says). Dimensions(j, EpistemicDimensions...) scores
// their mean.
var EpistemicDimensions = []Dimension{
	{Name: "completeness", Criteria: "How thoroughly the content addresses every aspect of the request.", Scale: Scale{Min: 0, Max: 100}},
	{Name: "correctness", Criteria: "The accuracy and validity of the information the content gives.", Scale: Scale{Min: 0, Max: 100}},
}

// DimensionJudge is a Judge that scores several named criteria and
// averages them (see Dimensions).
type DimensionJudge struct {
	judge Judge
	dims  []Dimension
}

// Dimensions returns a judge that asks j to score each dimension on its
// own — the request with the dimension's name and criteria added to its
// Criteria, the dimension's Scale, and no Labels or VerdictSchema, one
// call per dimension in order — and gives a verdict whose Score is the
// mean of the dimensions' normalized scores (in [0,1]; RawScore is that
// on the request's scale), with each dimension in Criteria (its Score
// normalized, its RawScore as the judge wrote it, its reasoning), usage
// summed and Reasoning listing the dimensions' scores. As ObjectWeaver's
// epistemic validation scores completeness and correctness 0–100 and
// averages them (EpistemicDimensions).
//
// The verdict has neither a label nor a pass/fail of its own: grade it by
// its score (assert.MinScore). A dimension that gets no verdict, or one
// without a score, makes the whole an error: a mean over the dimensions
// that answered would not be the rubric's. A request or dimension list
// that cannot be judged (no dimensions, a dimension without a name or
// criteria, a name used twice, an invalid scale) is an error too.
func Dimensions(j Judge, dims ...Dimension) *DimensionJudge {
	return &DimensionJudge{judge: j, dims: slices.Clone(dims)}
}

// Judge implements Judge.
func (d *DimensionJudge) Judge(ctx context.Context, req JudgeRequest) (Verdict, error) {
	if err := d.validate(); err != nil {
		return Verdict{}, err
	}
	if err := req.Validate(); err != nil {
		return Verdict{}, err
	}
	scale := req.Scale.OrDefault()
	var out Verdict
	parts := make([]string, len(d.dims))
	sum := 0.0
	for i, dim := range d.dims {
		r := req
		r.Criteria = req.Criteria + "\n\nScore one dimension only — " + dim.Name + ": " + dim.Criteria
		r.Scale = dim.Scale
		if r.Scale == (Scale{}) {
			r.Scale = req.Scale
		}
		r.Labels, r.VerdictSchema = nil, nil
		vote := castVote(ctx, i, d.judge, r)
		if err := ctx.Err(); err != nil {
			return Verdict{}, fmt.Errorf("evalkit: dimensions: %w", err)
		}
		if vote.Err != "" {
			return Verdict{}, fmt.Errorf("evalkit: dimensions: %s: %s", dim.Name, vote.Err)
		}
		v := vote.Verdict
		if !v.Scored {
			return Verdict{}, fmt.Errorf("evalkit: dimensions: %s: the verdict has no score", dim.Name)
		}
		sum += v.Score
		out.Criteria = append(out.Criteria, CriterionScore{Name: dim.Name, Score: v.Score, RawScore: v.RawScore, Reasoning: v.Reasoning})
		out.Usage.InputTokens += v.Usage.InputTokens
		out.Usage.OutputTokens += v.Usage.OutputTokens
		out.Usage.CostUSD += v.Usage.CostUSD
		if out.Model == "" {
			out.Model = v.Model
		}
		ds := r.Scale.OrDefault()
		parts[i] = fmt.Sprintf("%s %s/%s", dim.Name, strconv.FormatFloat(v.RawScore, 'f', -1, 64), strconv.FormatFloat(ds.Max, 'f', -1, 64))
	}
	out.Score = sum / float64(len(d.dims))
	out.RawScore = scale.Raw(out.Score)
	out.Scored = true
	out.Reasoning = fmt.Sprintf("mean of %d dimensions %.2f: %s", len(d.dims), out.Score, strings.Join(parts, ", "))
	return out, nil
}

func (d *DimensionJudge) validate() error {
	if d.judge == nil {
		return errors.New("evalkit: dimensions: no judge")
	}
	if len(d.dims) == 0 {
		return errors.New("evalkit: dimensions: no dimensions")
	}
	seen := map[string]bool{}
	for i, dim := range d.dims {
		switch {
		case strings.TrimSpace(dim.Name) == "":
			return fmt.Errorf("evalkit: dimensions: dimension %d has no name", i)
		case seen[dim.Name]:
			return fmt.Errorf("evalkit: dimensions: dimension %q is given twice", dim.Name)
		case strings.TrimSpace(dim.Criteria) == "":
			return fmt.Errorf("evalkit: dimensions: dimension %q has no criteria", dim.Name)
		}
		seen[dim.Name] = true
		if dim.Scale != (Scale{}) {
			if err := dim.Scale.Validate(); err != nil {
				return fmt.Errorf("evalkit: dimensions: dimension %q: %w", dim.Name, err)
			}
		}
	}
	return nil
}

// Identity implements Identifier when the judge does: the dimensions and
// the judge's identity, so a recording keys on both. Otherwise it returns
// the zero Identity, and the judge is not recorded.
func (d *DimensionJudge) Identity() Identity {
	id, ok := d.judge.(Identifier)
	if !ok || id.Identity().Provider == "" {
		return Identity{}
	}
	dims := make([]any, len(d.dims))
	for i, dim := range d.dims {
		dims[i] = map[string]any{"name": dim.Name, "criteria": dim.Criteria, "scale": []float64{dim.Scale.Min, dim.Scale.Max}}
	}
	return Identity{Provider: "dimensions", Settings: map[string]any{"judge": id.Identity(), "dimensions": dims}}
}
