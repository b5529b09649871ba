package assert

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/evalkit-go/evalkit"
)

// SetCheck is a check over several transcripts at once — N runs of one
// case, the attempts of a Repeat — such as Consistent. CheckSet computes
// one Result for them all, and returns an error, never a verdict, when it
// cannot be evaluated.
type SetCheck interface {
	CheckSet(ctx context.Context, trs []*evalkit.Transcript) (Result, error)
}

// Consistent checks that several answers to one prompt agree: it embeds
// them (evalkit.NearestCentroid), and passes when every answer lies within
// MaxDistance of the centroid of their embeddings. The failure names the
// outliers, with their distance and confidence, and the consensus answer
// (the one nearest the centroid), which is never listed as its own
// outlier: when it too lies past MaxDistance, the summary says so; the
// Result's Score is the share of answers within MaxDistance. After ObjectWeaver's epistemic validation,
// which keeps the consensus-aligned completion and drops the outliers.
//
// Over several transcripts (CheckSet: the runs of a Repeat, the attempts of
// a case with repeat) each transcript's answer is its last assistant
// message. Over one transcript (Check) its assistant messages with text are
// the answers: a transcript holding several sampled answers.
//
// MaxDistance is Euclidean, in the embedder's units: for embeddings of
// length 1 (most embedding APIs), 0 is the same meaning and √2 unrelated
// texts; 0.3 to 0.5 is a reasonable start for paraphrases of one answer.
//
// Errors, never verdicts: no Embedder (ErrNoEmbedder), a MaxDistance that
// is not a positive number, fewer than two answers, a transcript with no
// assistant answer (ErrNoOutput), and the embedder's own errors.
//
// Registry type "consistent", params: max_distance (required). The
// embedder is the registry's (Registry.WithEmbedder).
type Consistent struct {
	// Embedder embeds the answers.
	Embedder evalkit.Embedder
	// MaxDistance is the farthest an answer may lie from the centroid.
	MaxDistance float64
}

func consistentChecks() map[string]func(*params) (Check, error) {
	return map[string]func(*params) (Check, error){"consistent": buildConsistent}
}

func buildConsistent(p *params) (Check, error) {
	d, ok, err := p.num("max_distance")
	if err != nil {
		return nil, err
	}
	if !ok {
		if err := p.missing("max_distance"); err != nil {
			return nil, err
		}
		return nil, p.err("max_distance", "required: the farthest an answer may lie from the centroid of the answers' embeddings")
	}
	c := Consistent{MaxDistance: d, Embedder: p.reg.embedderOrNil()}
	if c.Embedder == nil && !p.declaring {
		return nil, fmt.Errorf("consistent: %w: give the registry one with WithEmbedder (evaltest.WithEmbedder)", ErrNoEmbedder)
	}
	return c, nil
}

func (c Consistent) validate() error {
	if !(c.MaxDistance > 0) || math.IsInf(c.MaxDistance, 0) {
		return paramErr("consistent", "max_distance", "want a positive number, got %v", c.MaxDistance)
	}
	return nil
}

// Check implements Check: the answers are the transcript's assistant
// messages with text.
func (c Consistent) Check(ctx context.Context, tr *evalkit.Transcript) (Result, error) {
	outs, err := outputs("consistent", tr, Session)
	if err != nil {
		return Result{}, err
	}
	var answers []string
	for _, o := range outs {
		if o.text != "" {
			answers = append(answers, o.text)
		}
	}
	return c.judge(ctx, answers, "message")
}

// CheckSet implements SetCheck: the answers are each transcript's last
// assistant message.
func (c Consistent) CheckSet(ctx context.Context, trs []*evalkit.Transcript) (Result, error) {
	answers := make([]string, len(trs))
	for i, tr := range trs {
		outs, err := outputs("consistent", tr, Turn)
		if err != nil {
			return Result{}, fmt.Errorf("transcript %d: %w", i+1, err)
		}
		if outs[0].text == "" {
			return Result{}, fmt.Errorf("consistent: transcript %d: %w: its last assistant message has no text", i+1, ErrNoOutput)
		}
		answers[i] = outs[0].text
	}
	return c.judge(ctx, answers, "candidate")
}

func (c Consistent) judge(ctx context.Context, answers []string, noun string) (Result, error) {
	if err := c.validate(); err != nil {
		return Result{}, err
	}
	if c.Embedder == nil {
		return Result{}, fmt.Errorf("consistent: %w", ErrNoEmbedder)
	}
	if len(answers) < 2 {
		return Result{}, fmt.Errorf("consistent: %s to compare, want at least 2", plural(len(answers), noun))
	}
	cons, err := evalkit.NearestCentroid(ctx, c.Embedder, answers)
	if err != nil {
		return Result{}, fmt.Errorf("consistent: %w", err)
	}
	outliers := cons.Outliers(c.MaxDistance)
	best := cons.Candidates[cons.Best]
	distances := make([]string, len(cons.Candidates))
	farthest := 0.0
	for i, cand := range cons.Candidates {
		distances[i] = strconv.FormatFloat(cand.Distance, 'f', 2, 64)
		farthest = math.Max(farthest, cand.Distance)
	}
	details := []Detail{{"consensus", fmt.Sprintf("%s %d (distance %.2f, confidence %.2f): %s", noun, best.Index+1, best.Distance, best.Confidence, excerpt(best.Text))}}
	for i, o := range outliers {
		if i == listLimit {
			details = append(details, Detail{"outlier", fmt.Sprintf("… and %d more", len(outliers)-listLimit)})
			break
		}
		details = append(details, Detail{"outlier", fmt.Sprintf("%s %d (distance %.2f, confidence %.2f): %s", noun, o.Index+1, o.Distance, o.Confidence, excerpt(o.Text))})
	}
	details = append(details, Detail{"distances", boundedList(distances)})
	far := len(outliers) // past the distance, the consensus included when it is
	if best.Distance > c.MaxDistance {
		far++
	}
	score := ratio(len(answers)-far, len(answers))
	if far == 0 {
		all := fmt.Sprintf("all %d %ss lie", len(answers), noun)
		if len(answers) == 2 {
			all = fmt.Sprintf("both %ss lie", noun)
		}
		return pass(score, fmt.Sprintf("%s within %v of the centroid (farthest %.2f)", all, c.MaxDistance, farthest), details...), nil
	}
	names := make([]string, len(outliers))
	for i, o := range outliers {
		names[i] = strconv.Itoa(o.Index + 1)
	}
	which := noun + " " + joinWords(names)
	switch {
	case len(outliers) == 0:
		which = fmt.Sprintf("the consensus (%s %d) itself", noun, best.Index+1)
	case far > len(outliers):
		which += fmt.Sprintf(", and the consensus (%s %d) itself", noun, best.Index+1)
	}
	return fail(score, fmt.Sprintf("%d of %d %ss lie farther than %v from the centroid: %s", far, len(answers), noun, c.MaxDistance, which), details...), nil
}

// joinWords joins a, b and c.
func joinWords(items []string) string {
	if len(items) > listLimit {
		items = append(items[:listLimit:listLimit], fmt.Sprintf("%d more", len(items)-listLimit))
	}
	if len(items) == 1 {
		return items[0]
	}
	return strings.Join(items[:len(items)-1], ", ") + " and " + items[len(items)-1]
}

// Describe says what passes.
func (c Consistent) Describe() string {
	return fmt.Sprintf("every answer lies within %v of the centroid of the answers' embeddings", c.MaxDistance)
}
