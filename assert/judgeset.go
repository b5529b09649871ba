package assert

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync/atomic"

	"github.com/evalkit-go/evalkit"
)

// WithJudgeSet returns a registry whose judged checks may name their judge
// in set with the params judge and variant:
//
//	reg := assert.NewRegistry().WithJudgeSet(set)
//	res, err := reg.Eval(ctx, "llm_judge", tr, map[string]any{
//		"criteria": "Confirms the refund", "judge": "strict", "variant": "cheap"})
//
// judge names the judge (without it, the set's default, unless the registry
// has a judge of its own from WithJudge); variant names its variant (without
// it, the judge as declared). Every judged check type takes them — llm_judge
// and its _session and tool-call kinds, an assertion's wrapped check, and on
// the assertion itself for the check it wraps — and a check that asks no
// judge refuses them. A name the set does not hold is a *ParamError on
// judge (variant, for a variant) wrapping evalkit.ErrJudgeNotFound
// (evalkit.ErrJudgeVariantNotFound), listing what the set holds; Validate
// reports it too, so a case file naming an unknown judge fails when it is
// loaded. Without a set, Validate takes any name (the set is given later)
// and Build refuses one. Check types added with Register are left their
// params as given. The registry shares r's check types, as WithJudge's
// does. As MindTrial's judge selectors.
func (r *Registry) WithJudgeSet(set evalkit.JudgeSet) *Registry {
	d := r.derive()
	d.judges = set
	return d
}

// JudgeSet returns the registry's judge set (WithJudgeSet), or nil.
func (r *Registry) JudgeSet() evalkit.JudgeSet {
	if r == nil {
		return nil
	}
	return r.judges
}

// checkJudge returns the registry the check p builds asks for its judge:
// r's judge, or the one its judge and variant params name in r's set
// (when Validate builds it without a set, r's own), noting whether the
// check asks for it (see checkAsked).
func (r *Registry) checkJudge(p *params) (*Registry, error) {
	d := r.derive()
	d.reads = append(slices.Clone(r.reads), new(atomic.Bool))
	_, hasName := p.m["judge"]
	_, hasVariant := p.m["variant"]
	if !hasName && !hasVariant {
		return d, nil
	}
	name, _, err := p.str(false, "judge")
	if err != nil {
		return nil, err
	}
	variant, _, err := p.str(false, "variant")
	if err != nil {
		return nil, err
	}
	switch {
	case hasName && name == "":
		return nil, p.err("judge", "empty: name a judge of the judge set")
	case hasVariant && variant == "":
		return nil, p.err("variant", "empty: name a variant of the judge, or leave variant out")
	}
	if r.judges == nil {
		if p.declaring {
			return d, nil // the set is given later; the check is only validated
		}
		return nil, p.err(judgeParam(p), "no judge set to find %s in: build the registry with WithJudgeSet(set), or in a test give evaltest.New the option evaltest.WithJudgeSet(set)", refText(name, variant))
	}
	j, err := lookupJudge(r.judges, name, variant)
	if err != nil {
		param := "judge"
		if errors.Is(err, evalkit.ErrJudgeVariantNotFound) {
			param = "variant"
		}
		return nil, &ParamError{Check: p.check, Param: param, Msg: err.Error(), Err: err}
	}
	d.judge = j
	return d, nil
}

// checkAsked, after the check p built asked r for its judge or not, makes
// judge and variant known params of a judged check, and refuses them on
// any other.
func (r *Registry) checkAsked(p *params) error {
	if r.reads[len(r.reads)-1].Load() {
		p.known["judge"], p.known["variant"] = true, true
		return nil
	}
	_, hasName := p.m["judge"]
	_, hasVariant := p.m["variant"]
	if hasName || hasVariant {
		return p.refuse(judgeParam(p), "%s asks no judge: judge and variant name the judge of a judged check (llm_judge, ...)", p.check)
	}
	return nil
}

// judgeParam is the param a problem with a named judge is reported on:
// judge when given, else variant.
func judgeParam(p *params) string {
	if _, ok := p.m["judge"]; ok {
		return "judge"
	}
	return "variant"
}

// refText names a judge and variant in a message: judge "strict", variant
// "cheap" of the default judge.
func refText(name, variant string) string {
	switch {
	case variant == "":
		return "judge " + strconv.Quote(name)
	case name == "":
		return "variant " + strconv.Quote(variant) + " of the default judge"
	}
	return "judge " + strconv.Quote(name) + " in its variant " + strconv.Quote(variant)
}

// lookupJudge asks set, turning a panic into an error.
func lookupJudge(set evalkit.JudgeSet, name, variant string) (j evalkit.Judge, err error) {
	defer func() {
		if r := recover(); r != nil {
			j, err = nil, fmt.Errorf("the judge set panicked: %v", r)
		}
	}()
	j, err = set.Lookup(name, variant)
	if err == nil && j == nil {
		err = fmt.Errorf("the judge set returned no judge for %s", refText(name, variant))
	}
	return j, err
}

// UseJudge makes a judged check of JudgeCheck ask the judge name of a
// judge set, in its variant variant ("": as declared), instead of the
// judge JudgeCheck is given, which must then be an evalkit.JudgeSet too:
// evaltest's judges are, with evaltest.WithJudgeSet. An unknown name is a
// *ParamError wrapping evalkit.ErrJudgeNotFound (or
// evalkit.ErrJudgeVariantNotFound), returned by the check.
//
//	et.Expect(tr).Judge("Confirms the refund", assert.UseJudge("strict", "cheap"), assert.MinScore(0.8))
func UseJudge(name, variant string) JudgeOption {
	text := "UseJudge(" + cutQuote(name) + ")"
	if variant != "" {
		text = "UseJudge(" + cutQuote(name) + ", " + cutQuote(variant) + ")"
	}
	return JudgeOption{text, func(s *judgeSetup) { s.named = &judgeRef{name, variant} }}
}

type judgeRef struct{ name, variant string }

// useJudge resolves a UseJudge option against the judge JudgeCheck was
// given.
func useJudge(check string, j evalkit.Judge, ref judgeRef) (evalkit.Judge, error) {
	set, ok := j.(evalkit.JudgeSet)
	if !ok {
		return nil, paramErr(check, "judge", "UseJudge names a judge of a judge set, and the check's judge is not one: in a test, give evaltest.New the option evaltest.WithJudgeSet(set)")
	}
	named, err := lookupJudge(set, ref.name, ref.variant)
	if err != nil {
		param := "judge"
		if errors.Is(err, evalkit.ErrJudgeVariantNotFound) {
			param = "variant"
		}
		return nil, &ParamError{Check: check, Param: param, Msg: err.Error(), Err: err}
	}
	return named, nil
}

// judgeLine is a judged Result's "judge" line for a judge of a set: its
// provenance, "strict/cheap (openai gpt-4.1-mini, seed 1, temperature 0)";
// "" for a judge without a name, whose line names the model.
func judgeLine(j evalkit.Judge) string {
	if j == nil {
		return ""
	}
	if p := evalkit.ProvenanceOf(j); p.Name != "" {
		return p.String()
	}
	return ""
}
