package assert

import (
	"context"
	"errors"
	"fmt"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/internal/textnorm"
)

// Assertion applies a score threshold to a score-emitting check, as
// PromptKit's "type: assertion" wrapper: it passes when the score is at
// least MinScore and at most MaxScore (in [0,1], inclusive). With neither
// set, the score must be 1, as PromptKit's default (min_score 1.0): a judge
// or classifier scoring in [0,1) then never passes, so give a bound for
// those. Score-emitting checks hold no thresholds of their own; the
// assertion does.
//
// On a judged check (LLMJudge, LLMJudgeToolCalls) the threshold grades the
// judge's verdict: a verdict without a score is an error (ErrBadVerdict),
// whatever the judge's own pass/fail says, and the judged check must not
// have a Passing of its own. On any other check it grades the Result's
// Score, and the check's own pass/fail is not used; the check's summary
// becomes a "check" detail. A pure score emitter (ClassifierScore) and an
// external evaluator give the score they emit, which must be there (an
// evaluator that answered only passed is an error here).
//
// Registry type "assertion", params: eval_type (the check's type name,
// required), eval_params (its params), min_score, max_score. As PromptKit's
// assertion wrapper.
type Assertion struct {
	// Eval is the score-emitting check (PromptKit's eval_type and
	// eval_params).
	Eval Check
	// MinScore and MaxScore bound its score, in [0,1].
	MinScore, MaxScore *float64
}

func buildAssertion(p *params) (Check, error) {
	evalType, _, err := p.str(true, "eval_type")
	if err != nil {
		return nil, err
	}
	evalParams, _, err := p.object(false, "eval_params")
	if err != nil {
		return nil, err
	}
	var a Assertion
	for _, b := range []struct {
		name string
		dst  **float64
	}{{"min_score", &a.MinScore}, {"max_score", &a.MaxScore}} {
		f, ok, err := p.num(b.name)
		if err != nil {
			return nil, err
		}
		if ok {
			*b.dst = &f
		}
	}
	if evalType == "assertion" || evalType == "guardrail" {
		return nil, p.err("eval_type", "%s cannot wrap %s: it wraps the check that scores", p.check, evalType)
	}
	if p.reg == nil {
		return nil, p.err("eval_type", "an assertion builds its check through a registry")
	}
	// A misspelt parameter of the assertion ("eval_parms") explains the
	// wrapped check's missing ones: report it first.
	if err := p.finish(); err != nil {
		return nil, err
	}
	inner, err := p.reg.build(evalType, evalParams, p.declaring)
	if err != nil {
		return nil, fmt.Errorf("assertion: eval_type %q: %w", textnorm.Excerpt(evalType, maxQuoted), err)
	}
	a.Eval = inner
	return a, nil
}

func (a Assertion) validate() error {
	if a.Eval == nil {
		return paramErr("assertion", "eval_type", "required: the check to apply the threshold to")
	}
	lo, hi := a.bounds()
	if err := validateThreshold("assertion", lo, hi); err != nil {
		return err
	}
	if vc, ok := a.Eval.(verdicter); ok && vc.judging().passing.hasCriterion() {
		return paramErr("assertion", "eval_params", "%s has a passing criterion of its own, and the threshold grades the verdict too: give one of them", vc.judging().check)
	}
	if v, ok := a.Eval.(interface{ validate() error }); ok {
		return v.validate()
	}
	return nil
}

// Check implements Check.
func (a Assertion) Check(ctx context.Context, tr *evalkit.Transcript) (Result, error) {
	if err := a.validate(); err != nil {
		return Result{}, err
	}
	if vc, ok := a.Eval.(verdicter); ok {
		v, j, err := vc.verdict(ctx, tr, true)
		if err != nil {
			return Result{}, err
		}
		lo, hi := a.bounds()
		g, err := gradeScore(j.check, v, lo, hi)
		if err != nil {
			return Result{}, err
		}
		return verdictResult(v, g, j, false), nil
	}
	var res Result
	var err error
	if se, ok := a.Eval.(scoreEmitter); ok {
		res, err = se.emitScore(ctx, tr) // a score with no pass/fail of its own (wiring.go)
	} else {
		res, err = a.Eval.Check(ctx, tr)
	}
	if err != nil {
		return Result{}, err
	}
	lo, hi := a.bounds()
	g, err := gradeScore("assertion", evalkit.Verdict{Score: clamp01(res.Score), Scored: true}, lo, hi)
	if err != nil {
		return Result{}, err
	}
	details := append([]Detail{{"check", res.Summary}}, res.Details...)
	return Result{Passed: g.passed, Score: clamp01(res.Score), Summary: g.summary, Want: g.want, Details: details, Diff: res.Diff, lazyDiff: res.lazyDiff}, nil
}

// bounds are the assertion's score bounds: MinScore and MaxScore, or a
// minimum of 1 when neither is set (PromptKit's default).
func (a Assertion) bounds() (lo, hi *float64) {
	if a.MinScore == nil && a.MaxScore == nil {
		one := 1.0
		return &one, nil
	}
	return a.MinScore, a.MaxScore
}

// Guardrail applies a guardrail's threshold to a score-emitting check, as
// PromptKit's "type: guardrail" wrapper: the guardrail triggers when the
// score is below MinScore or above MaxScore (with neither, below 1), and
// the check passes when it does not trigger. Scoring is an Assertion's
// (same bounds, same errors: a check that cannot score is an error, never
// a silent block or pass). Action is PromptKit's action ("block" when
// empty, "warn", ...), kept in the "action" detail: in a test a triggered
// guardrail fails whatever its action.
//
// Registry type "guardrail", params: eval_type (required), eval_params,
// min_score, max_score, action.
type Guardrail struct {
	Eval               Check
	MinScore, MaxScore *float64
	Action             string
}

func buildGuardrail(p *params) (Check, error) {
	action, _, err := p.str(false, "action")
	if err != nil {
		return nil, err
	}
	a, err := buildAssertion(p)
	if err != nil {
		return nil, err
	}
	as := a.(Assertion)
	return Guardrail{Eval: as.Eval, MinScore: as.MinScore, MaxScore: as.MaxScore, Action: action}, nil
}

func (g Guardrail) assertion() Assertion {
	return Assertion{Eval: g.Eval, MinScore: g.MinScore, MaxScore: g.MaxScore}
}

func (g Guardrail) validate() error { return g.assertion().validate() }

// Check implements Check.
func (g Guardrail) Check(ctx context.Context, tr *evalkit.Transcript) (Result, error) {
	res, err := g.assertion().Check(ctx, tr)
	if err != nil {
		return Result{}, err
	}
	action := g.Action
	if action == "" {
		action = "block"
	}
	if res.Passed {
		res.Summary = "guardrail not triggered: " + res.Summary
	} else {
		res.Summary = "guardrail triggered (" + action + "): " + res.Summary
	}
	res.Details = append(res.Details, Detail{"action", action})
	return res, nil
}

// Score runs c for its score alone, with no threshold to pass or fail it:
// a score emitter's (a classifier check's, an external evaluator's, whose
// Check is an error wrapping ErrNoThreshold) and any other check's
// Result. The Result's Passed then means only that a score was measured.
// As PromptKit's evals, which emit a score for metrics and hold no
// pass/fail. Errors are the check's.
func Score(ctx context.Context, c Check, tr *evalkit.Transcript) (Result, error) {
	if se, ok := c.(scoreEmitter); ok {
		return se.emitScore(ctx, tr)
	}
	return c.Check(ctx, tr)
}

// Measure runs c once: its Result, or, when c only emits a score (its
// Check an error wrapping ErrNoThreshold: a classifier check, an external
// evaluator that answers a score without passed), that score with measured
// true, the Result's Passed then meaning only that it was measured. An
// external evaluator is asked once, where Check then Score would run it
// twice. As PromptKit's evals, which emit a score for metrics. Errors are
// the check's.
func Measure(ctx context.Context, c Check, tr *evalkit.Transcript) (res Result, measured bool, err error) {
	if m, ok := c.(measurer); ok {
		return m.measure(ctx, tr)
	}
	res, err = c.Check(ctx, tr)
	if !errors.Is(err, ErrNoThreshold) {
		return res, false, err
	}
	res, err = Score(ctx, c, tr)
	return res, err == nil, err
}

// measurer is a check that can give Measure's answer from one run: an
// external evaluator, whose answer decides whether it graded itself.
type measurer interface {
	measure(ctx context.Context, tr *evalkit.Transcript) (Result, bool, error)
}
