package assert

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"

	"github.com/evalkit-go/evalkit"
)

func similarityChecks() map[string]func(*params) (Check, error) {
	return map[string]func(*params) (Check, error){
		"cosine_similarity": buildCosineSimilarity,
	}
}

// ErrNoEmbedder is returned (wrapped) by a check that must embed a text and
// has no evalkit.Embedder to ask.
var ErrNoEmbedder = errors.New("no embedder")

// WithEmbedder returns a registry whose embedding checks
// (cosine_similarity, consistent, and assertions wrapping them) ask e,
// keeping r's judge and tools. Without an embedder, building one is an
// error wrapping ErrNoEmbedder (validating one is not). It shares r's check types, as WithJudge does.
func (r *Registry) WithEmbedder(e evalkit.Embedder) *Registry {
	d := r.derive()
	d.embedder = e
	return d
}

func (r *Registry) embedderOrNil() evalkit.Embedder {
	if r == nil {
		return nil
	}
	return r.embedder
}

// CosineSimilarity measures how close the output is to a reference in an
// embedding space: the cosine of the angle between the two vectors, in
// [-1, 1]. With MinSimilarity (PromptKit's min_similarity) it passes when
// the cosine is at least that; without, it is a measurement and passes
// (wrap it in an Assertion to grade its score).
//
// The reference is Reference, a vector, or ReferenceText, embedded through
// Embedder. The output's vector is, with an Embedder, the embedding of the
// output (Turn scope, the default: the last assistant message; Session:
// every assistant message's text joined with "\n"), and without one the
// run's Metadata["embedding"] (a list of numbers), where PromptKit's
// cosine_similarity reads it. With ReferenceText both texts are embedded
// in one call.
//
// Score is the cosine clamped to [0,1] (a negative cosine scores 0: the
// texts point apart), so an assertion's min_score reads as a minimum
// cosine; the raw cosine is in the "similarity" detail and the Summary.
//
// Errors, never a score: a zero vector (its direction is undefined), a
// NaN or infinite component, vectors of different lengths, an embedder
// that fails or returns the wrong number of vectors; no assistant text to
// embed (ErrNoOutput); ReferenceText without an Embedder (ErrNoEmbedder);
// neither an Embedder nor Metadata["embedding"] (ErrNotReported); neither
// or both of Reference and ReferenceText (*ParamError).
//
// Registry type "cosine_similarity", params: reference (a list of
// numbers), reference_text, min_similarity, scope. The embedder is the registry's
// (Registry.WithEmbedder). As PromptKit's cosine_similarity.
type CosineSimilarity struct {
	// MinSimilarity, when set, is the least cosine that passes, in [-1, 1].
	MinSimilarity *float64
	Reference     []float64
	ReferenceText string
	Embedder      evalkit.Embedder
	Scope         Scope
}

func buildCosineSimilarity(p *params) (Check, error) {
	var c CosineSimilarity
	v, ok, err := p.value("reference")
	if err != nil {
		return nil, err
	}
	if ok {
		if c.Reference, err = numberList(v); err != nil {
			return nil, p.err("reference", "%v", err)
		}
	}
	if c.ReferenceText, _, err = p.str(false, "reference_text"); err != nil {
		return nil, err
	}
	if f, ok, err := p.num("min_similarity"); err != nil {
		return nil, err
	} else if ok {
		c.MinSimilarity = &f
	}
	if c.Scope, err = p.scope(); err != nil {
		return nil, err
	}
	c.Embedder = p.reg.embedderOrNil()
	if c.ReferenceText != "" && c.Reference == nil && c.Embedder == nil && !p.declaring {
		return nil, fmt.Errorf("cosine_similarity: %w: reference_text must be embedded: give the registry one (Registry.WithEmbedder)", ErrNoEmbedder)
	}
	return c, nil
}

// floats reads a parameter's list of finite numbers.
func numberList(v any) ([]float64, error) {
	switch v := v.(type) {
	case []float64:
		return v, nil
	case []any:
		out := make([]float64, len(v))
		for i, it := range v {
			f, ok := toFloat(it)
			if !ok {
				return nil, fmt.Errorf("item %d: want a number, got %s", i, kindOf(it))
			}
			out[i] = f
		}
		return out, nil
	}
	return nil, fmt.Errorf("want a list of numbers, got %s", kindOf(v))
}

func (c CosineSimilarity) validate() error {
	const check = "cosine_similarity"
	switch {
	case c.Reference != nil && c.ReferenceText != "":
		return paramErr(check, "reference_text", "give one of reference and reference_text")
	case c.Reference == nil && c.ReferenceText == "":
		return paramErr(check, "reference", "required: give reference (an embedding) or reference_text")
	}
	if c.Reference != nil {
		if err := checkVector(c.Reference); err != nil {
			return paramErr(check, "reference", "%v", err)
		}
	}
	if m := c.MinSimilarity; m != nil && (math.IsNaN(*m) || *m < -1 || *m > 1) {
		return paramErr(check, "min_similarity", "want a cosine in [-1, 1], got %v", *m)
	}
	return checkScope(check, c.Scope)
}

// checkVector rejects a vector no cosine can be computed from.
func checkVector(v []float64) error {
	if len(v) == 0 {
		return fmt.Errorf("empty vector")
	}
	zero := true
	for i, f := range v {
		if math.IsNaN(f) || math.IsInf(f, 0) {
			return fmt.Errorf("component %d is %v: want finite numbers", i, f)
		}
		zero = zero && f == 0
	}
	if zero {
		return fmt.Errorf("zero vector (%d components): its direction, and so any cosine, is undefined", len(v))
	}
	return nil
}

// Check implements Check.
func (c CosineSimilarity) Check(ctx context.Context, tr *evalkit.Transcript) (Result, error) {
	const check = "cosine_similarity"
	if err := c.validate(); err != nil {
		return Result{}, err
	}
	if tr == nil {
		return Result{}, fmt.Errorf("%s: %w: the transcript is nil", check, ErrNoOutput)
	}
	if c.ReferenceText != "" && c.Embedder == nil {
		return Result{}, fmt.Errorf("%s: %w: reference_text must be embedded", check, ErrNoEmbedder)
	}
	var target, ref []float64
	source := "the output's embedding"
	if c.Embedder != nil {
		text, err := outcomeText(check, tr, c.Scope)
		if err != nil {
			return Result{}, err
		}
		texts := []string{text}
		if c.ReferenceText != "" {
			texts = append(texts, c.ReferenceText)
		}
		vecs, err := c.Embedder.Embed(ctx, texts)
		if err != nil {
			return Result{}, fmt.Errorf("%s: the embedder failed: %w", check, err)
		}
		if len(vecs) != len(texts) {
			return Result{}, fmt.Errorf("%s: the embedder returned %s for %s", check, plural(len(vecs), "vector"), plural(len(texts), "text"))
		}
		target = vecs[0]
		if c.ReferenceText != "" {
			ref = vecs[1]
			if err := checkVector(ref); err != nil {
				return Result{}, fmt.Errorf("%s: the embedding of reference_text: %v", check, err)
			}
		}
	} else {
		v, ok := tr.Metadata["embedding"]
		if !ok {
			return Result{}, fmt.Errorf("%s: %w: no embedder to embed the output, and no Metadata[\"embedding\"]", check, ErrNotReported)
		}
		var err error
		if target, err = numberList(v); err != nil {
			return Result{}, fmt.Errorf("%s: Metadata[\"embedding\"]: %v", check, err)
		}
		source = `Metadata["embedding"]`
	}
	if ref == nil {
		ref = c.Reference
	}
	if err := checkVector(target); err != nil {
		return Result{}, fmt.Errorf("%s: %s: %v", check, source, err)
	}
	if len(target) != len(ref) {
		return Result{}, fmt.Errorf("%s: %s has %d dimensions, the reference %d: vectors from different models cannot be compared", check, source, len(target), len(ref))
	}
	cos, err := cosine(target, ref)
	if err != nil {
		return Result{}, fmt.Errorf("%s: %v", check, err)
	}
	raw := strconv.FormatFloat(cos, 'f', 4, 64)
	details := []Detail{{"similarity", raw + " (cosine, in [-1, 1])"}, {"dimensions", strconv.Itoa(len(ref))}}
	if m := c.MinSimilarity; m != nil {
		summary := "cosine similarity " + raw + ", want >= " + strconv.FormatFloat(*m, 'f', -1, 64)
		if cos < *m {
			return fail(math.Max(0, cos), summary, details...), nil
		}
		return pass(math.Max(0, cos), summary, details...), nil
	}
	return pass(math.Max(0, cos), "cosine similarity "+raw, details...), nil
}

// cosine computes a·b / (|a||b|), scaling first so that huge components
// cannot overflow; the result is clamped to [-1, 1] against rounding.
func cosine(a, b []float64) (float64, error) {
	scale := func(v []float64) float64 {
		m := 0.0
		for _, f := range v {
			m = math.Max(m, math.Abs(f))
		}
		return m
	}
	sa, sb := scale(a), scale(b)
	var dot, na, nb float64
	for i := range a {
		x, y := a[i]/sa, b[i]/sb
		dot += x * y
		na += x * x
		nb += y * y
	}
	d := math.Sqrt(na) * math.Sqrt(nb)
	if d == 0 || math.IsNaN(dot) || math.IsInf(dot, 0) {
		return 0, fmt.Errorf("the cosine is undefined for these vectors")
	}
	return math.Max(-1, math.Min(1, dot/d)), nil
}
