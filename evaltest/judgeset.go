package evaltest

import (
	"errors"
	"fmt"

	"go.yaml.in/yaml/v3"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
)

// WithJudgeSet gives the T a set of named judges (package judgeset builds
// one from Go or a config file): judged checks select theirs by name —
// Eval's and a case file's judge and variant params, a case's judge and
// variant fields, assert.UseJudge in Judge, JudgeSession and
// JudgeToolCalls. A judged check that names none asks the default judge:
// WithDefaultJudge's, else WithJudge's judge, else the set's own default.
// An unknown name is an evaluation error listing what the set holds
// (evalkit.ErrJudgeNotFound, evalkit.ErrJudgeVariantNotFound), and RunCases
// reports it for every case file when it loads them, before any case runs.
//
// Every judge of the set with an identity is recorded as WithJudge's
// judge is, into the same file, and its failure messages, results lines
// and recorded entries name it:
//
//	judge: strict/cheap (openai gpt-4.1-mini, seed 1, temperature 0) (replayed testdata/evalkit/TestRefund.judge.json)
func WithJudgeSet(set evalkit.JudgeSet) Option {
	return func(t *T) { t.judges = set }
}

// WithDefaultJudge names the judge of the T's judge set (WithJudgeSet) that
// a judged check naming none asks, in its variant variant ("": as
// declared). A case's judge and variant fields override it for the case.
func WithDefaultJudge(name, variant string) Option {
	return func(t *T) { t.sel = judgeRef{name: name, variant: variant} }
}

// judgeRef names a judge of a set and its variant.
type judgeRef struct{ name, variant string }

// lookup returns the judge name in its variant for the T: an empty name
// is the T's default — WithDefaultJudge's (or its case's) name, at variant
// or else the default's variant; else WithJudge's judge, which has no
// variants; else the judge set's default.
func (t *T) lookup(name, variant string) (evalkit.Judge, error) {
	if name == "" {
		name = t.sel.name
		if variant == "" {
			variant = t.sel.variant
		}
	}
	if name == "" && t.judge != nil {
		if variant != "" {
			return nil, fmt.Errorf("evaltest: %w: %q: the default judge, given with evaltest.WithJudge, has no variants: name a judge of the judge set", evalkit.ErrJudgeVariantNotFound, variant)
		}
		return t.judge, nil
	}
	set := t.judgeSet()
	if set == nil {
		if name == "" {
			return nil, fmt.Errorf("evaltest: %w: give evaltest.New the option evaltest.WithJudge(j) or evaltest.WithJudgeSet(set)", assert.ErrNoJudge)
		}
		return nil, fmt.Errorf("evaltest: %w: %q: the test has no judge set: give evaltest.New the option evaltest.WithJudgeSet(set)", evalkit.ErrJudgeNotFound, name)
	}
	return set.Lookup(name, variant)
}

// Lookup implements evalkit.JudgeSet for the step's checks: the judge the
// T's lookup names, asked through the T's recording like the step's own.
func (s *stepJudge) Lookup(name, variant string) (evalkit.Judge, error) {
	j, err := s.t.lookup(name, variant)
	if err != nil {
		return nil, err
	}
	return &stepJudge{t: s.t, judge: j, stepState: s.stepState}, nil
}

// lookupFunc is a function as a JudgeSet: a T's lookup, for validating
// case files when they load.
type lookupFunc func(name, variant string) (evalkit.Judge, error)

func (f lookupFunc) Lookup(name, variant string) (evalkit.Judge, error) { return f(name, variant) }

// scoped returns set as a case with the judge and variant fields ref sees
// it: a check naming no judge names ref's.
func scoped(set evalkit.JudgeSet, ref judgeRef) evalkit.JudgeSet {
	if set == nil || ref == (judgeRef{}) {
		return set
	}
	return scopedSet{set: set, scope: ref}
}

// scopedSet is a judge set seen from a case with judge and variant fields.
type scopedSet struct {
	set   evalkit.JudgeSet
	scope judgeRef
}

func (s scopedSet) Lookup(name, variant string) (evalkit.Judge, error) {
	if name == "" {
		name = s.scope.name
		if variant == "" {
			variant = s.scope.variant
		}
	}
	return s.set.Lookup(name, variant)
}

// judgeSet is the T's judge set: WithJudgeSet's, else its registry's
// (assert.Registry.WithJudgeSet), else nil.
func (t *T) judgeSet() evalkit.JudgeSet {
	if t.judges != nil {
		return t.judges
	}
	return t.registry.JudgeSet()
}

// loadRegistry is the registry case files are validated with: the T's,
// its judge and variant params looked up as the T will look them up.
func (t *T) loadRegistry() *assert.Registry {
	reg := t.registry
	if reg == nil {
		reg = assert.NewRegistry()
	}
	return reg.WithJudgeSet(lookupFunc(t.lookup))
}

// forCase is the default judge of case c's T: the case's judge and
// variant, its variant alone, or r.
func (r judgeRef) forCase(c Case) judgeRef {
	switch {
	case c.Judge != "":
		return judgeRef{name: c.Judge, variant: c.Variant}
	case c.Variant != "":
		r.variant = c.Variant
	}
	return r
}

// judgeField reads a case's or an eval's judge or variant field: a
// non-empty string, and the key node its problems point at (nil after a
// problem).
func (p *caseParser) judgeField(k, v *yaml.Node, path string) (string, *yaml.Node) {
	before := len(p.problems)
	s := p.str(v, path)
	switch {
	case len(p.problems) > before:
		return "", nil
	case s == "":
		p.problem(v, path, "empty: name a judge of the judge set (a variant of it), or leave the field out")
		return "", nil
	}
	return s, k
}

// caseJudge checks a case's judge and variant fields against the
// registry's judge set, when it has one, and returns the registry its
// evals are validated with: the set seen from the case.
func (p *caseParser) caseJudge(c Case, path string, keys [2]*yaml.Node) *assert.Registry {
	ref := judgeRef{name: c.Judge, variant: c.Variant}
	set := p.reg.JudgeSet()
	if ref == (judgeRef{}) || set == nil {
		return p.reg // no fields, or a set given later
	}
	if _, err := set.Lookup(ref.name, ref.variant); err != nil {
		key, field := keys[0], path+".judge"
		if errors.Is(err, evalkit.ErrJudgeVariantNotFound) || key == nil {
			key, field = keys[1], path+".variant"
		}
		p.problem(key, field, "%v", err)
		return p.reg
	}
	return p.reg.WithJudgeSet(scoped(set, ref))
}

// evalJudge puts an eval's judge and variant fields in its params; false
// after a problem.
func (p *caseParser) evalJudge(ev *CaseEval, at string, keys [2]*yaml.Node) bool {
	for i, f := range []struct{ name, value string }{{"judge", ev.Judge}, {"variant", ev.Variant}} {
		if keys[i] == nil {
			continue
		}
		if _, dup := ev.Params[f.name]; dup {
			p.problem(keys[i], at+"."+f.name, "given in the eval and in its params: give one")
			return false
		}
		ev.Params[f.name] = f.value
	}
	return true
}

// judgeKey is the field node a judge or variant param's problem points
// at, when the eval gives it as a field; else nil.
func judgeKey(param string, keys [2]*yaml.Node) *yaml.Node {
	switch param {
	case "judge":
		return keys[0]
	case "variant":
		return keys[1]
	}
	return nil
}
