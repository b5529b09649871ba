package assert

// Composition checks read a run organised as a pipeline of named steps,
// branches and parallel groups (Transcript.Composition), as PromptKit's
// composition_* handlers read it.

import (
	"context"
	"fmt"
	"strings"

	"github.com/evalkit-go/evalkit"
)

func compositionChecks() map[string]func(*params) (Check, error) {
	return map[string]func(*params) (Check, error){
		"composition_step_output":       buildCompositionStepOutput,
		"composition_branch_taken":      buildCompositionBranchTaken,
		"composition_parallel_complete": buildCompositionParallelComplete,
		"composition_output":            buildCompositionOutput,
	}
}

// compositionOf returns tr's composition, or an error wrapping
// ErrNotReported (ErrNoOutput for a nil transcript).
func compositionOf(check string, tr *evalkit.Transcript) (*evalkit.Composition, error) {
	if tr == nil {
		return nil, fmt.Errorf("%s: %w: the transcript is nil", check, ErrNoOutput)
	}
	if tr.Composition == nil {
		return nil, fmt.Errorf("%s: %w: the transcript records no composition (Transcript.Composition)", check, ErrNotReported)
	}
	return tr.Composition, nil
}

// findNamedStep finds a step, or says in a failure which steps there are,
// with the nearest name when one is close.
func findNamedStep(c *evalkit.Composition, name, kind string) (evalkit.CompositionStep, *Result) {
	if s, ok := c.Step(name); ok {
		return s, nil
	}
	names := map[string]bool{}
	var all []string
	var walk func([]evalkit.CompositionStep)
	walk = func(steps []evalkit.CompositionStep) {
		for _, s := range steps {
			names[s.Name] = true
			all = append(all, s.Name)
			walk(s.Steps)
		}
	}
	walk(c.Steps)
	details := []Detail{{"steps", "none"}}
	if len(all) > 0 {
		details[0].Text = quoteList(all)
	}
	if near := nearestName(name, names); near != "" {
		details = append(details, Detail{"hint", fmt.Sprintf("did you mean %s?", quoteName(near))})
	}
	res := fail(0, fmt.Sprintf("no %s named %s ran", kind, quoteName(name)), details...)
	return evalkit.CompositionStep{}, &res
}

// textMatch is the contains-or-equals test the composition checks share.
type textMatch struct {
	check         string
	contains      string
	equals        *string
	caseSensitive bool
}

func readTextMatch(p *params) (textMatch, error) {
	m := textMatch{check: p.check}
	var err error
	var hasContains, hasEquals, hasCase bool
	if m.contains, hasContains, err = p.str(false, "contains"); err != nil {
		return m, err
	}
	eq, hasEquals, err := p.str(false, "equals")
	if err != nil {
		return m, err
	}
	if hasEquals {
		m.equals = &eq
	}
	if m.caseSensitive, hasCase, err = p.boolean("case_sensitive"); err != nil {
		return m, err
	}
	switch {
	case hasContains && hasEquals:
		return m, p.err("equals", "give one of contains and equals")
	case !hasContains && !hasEquals:
		if err := p.missing("contains", "equals"); err != nil {
			return m, err
		}
		return m, p.err("contains", "required: give contains or equals")
	case hasEquals && hasCase:
		return m, p.err("case_sensitive", "applies to contains only: equals compares exactly")
	}
	return m, nil
}

func (m textMatch) validate() error {
	switch {
	case m.equals == nil && m.contains == "":
		return paramErr(m.check, "contains", "empty: give a non-empty text to look for, or equals")
	case m.equals != nil && m.contains != "":
		return paramErr(m.check, "equals", "give one of contains and equals")
	}
	return nil
}

// test matches text; what says whose text it is ("step \"plan\"'s output").
func (m textMatch) test(text, what string) Result {
	if m.equals != nil {
		if text == *m.equals {
			return pass(1, what+" equals "+excerpt(*m.equals))
		}
		return fail(0, fmt.Sprintf("%s is %s, want %s", what, excerpt(text), excerpt(*m.equals)))
	}
	mt := newMatcher([]string{m.contains}, m.caseSensitive)
	if mt.index(mt.prepare(text), 0) >= 0 {
		return pass(1, what+" contains "+excerpt(m.contains))
	}
	return fail(0, fmt.Sprintf("%s does not contain %s", what, excerpt(m.contains)), Detail{"output", excerpt(text)})
}

func (m textMatch) words() string {
	if m.equals != nil {
		return "equals " + excerpt(*m.equals)
	}
	return fmt.Sprintf("contains %s (%s)", excerpt(m.contains), caseWords(m.caseSensitive))
}

// stepRan fails a step that failed or was skipped: its output is not one.
func stepRan(s evalkit.CompositionStep) *Result {
	switch s.Status {
	case evalkit.StepFailed:
		msg := fmt.Sprintf("step %s failed", quoteName(s.Name))
		if s.Error != "" {
			msg += ": " + excerpt(s.Error)
		}
		r := fail(0, msg)
		return &r
	case evalkit.StepSkipped:
		r := fail(0, fmt.Sprintf("step %s was skipped", quoteName(s.Name)))
		return &r
	}
	return nil
}

// CompositionStepOutput passes when the output of the step named Step
// contains Contains (ignoring case unless CaseSensitive) or, with Equals
// set, is exactly Equals. A step that did not run, failed or was skipped
// fails it; the failure lists the steps that ran. Score is 1 or 0.
//
//	step "summarize" output does not contain "refund"
//	output: "The order shipped on May 3."
//
// Errors: no step, neither or both of contains and equals, case_sensitive
// with equals (*ParamError); no composition (ErrNotReported).
//
// Registry type "composition_step_output", params: step, contains or
// equals, case_sensitive. As PromptKit's composition_step_output.
type CompositionStepOutput struct {
	Step          string
	Contains      string
	Equals        *string
	CaseSensitive bool
}

func buildCompositionStepOutput(p *params) (Check, error) {
	step, _, err := p.str(true, "step")
	if err != nil {
		return nil, err
	}
	m, err := readTextMatch(p)
	if err != nil {
		return nil, err
	}
	return CompositionStepOutput{Step: step, Contains: m.contains, Equals: m.equals, CaseSensitive: m.caseSensitive}, nil
}

func (c CompositionStepOutput) match() textMatch {
	return textMatch{check: "composition_step_output", contains: c.Contains, equals: c.Equals, caseSensitive: c.CaseSensitive}
}

func (c CompositionStepOutput) validate() error {
	if strings.TrimSpace(c.Step) == "" {
		return paramErr("composition_step_output", "step", "empty: want a step name")
	}
	return c.match().validate()
}

// Check implements Check.
func (c CompositionStepOutput) Check(_ context.Context, tr *evalkit.Transcript) (Result, error) {
	if err := c.validate(); err != nil {
		return Result{}, err
	}
	comp, err := compositionOf("composition_step_output", tr)
	if err != nil {
		return Result{}, err
	}
	s, missing := findNamedStep(comp, c.Step, "step")
	if missing != nil {
		return *missing, nil
	}
	if r := stepRan(s); r != nil {
		return *r, nil
	}
	return c.match().test(s.Output, fmt.Sprintf("step %s output", quoteName(c.Step))), nil
}

// CompositionBranchTaken passes when the branch step named Branch took the
// target Expected (CompositionStep.BranchTaken). A branch that did not
// run, took no target or failed fails it, naming what it took. Score is 1
// or 0.
//
// Errors: no branch or expected (*ParamError); no composition
// (ErrNotReported); a step of that name that is not a branch (Kind) — the
// parameters and the run disagree about what the step is.
//
// Registry type "composition_branch_taken", params: branch, expected. As
// PromptKit's composition_branch_taken.
type CompositionBranchTaken struct {
	Branch   string
	Expected string
}

func buildCompositionBranchTaken(p *params) (Check, error) {
	var c CompositionBranchTaken
	var err error
	if c.Branch, _, err = p.str(true, "branch"); err != nil {
		return nil, err
	}
	c.Expected, _, err = p.str(true, "expected")
	return c, err
}

func (c CompositionBranchTaken) validate() error {
	switch {
	case strings.TrimSpace(c.Branch) == "":
		return paramErr("composition_branch_taken", "branch", "empty: want a branch step's name")
	case strings.TrimSpace(c.Expected) == "":
		return paramErr("composition_branch_taken", "expected", "empty: want the target the branch should take")
	}
	return nil
}

// Check implements Check.
func (c CompositionBranchTaken) Check(_ context.Context, tr *evalkit.Transcript) (Result, error) {
	const check = "composition_branch_taken"
	if err := c.validate(); err != nil {
		return Result{}, err
	}
	comp, err := compositionOf(check, tr)
	if err != nil {
		return Result{}, err
	}
	s, missing := findNamedStep(comp, c.Branch, "branch")
	if missing != nil {
		return *missing, nil
	}
	if s.Kind != evalkit.StepKindBranch {
		return Result{}, paramErr(check, "branch", "step %s is a %s step, not a branch", quoteName(s.Name), stepKindName(s.Kind))
	}
	if r := stepRan(s); r != nil {
		return *r, nil
	}
	switch s.BranchTaken {
	case c.Expected:
		return pass(1, fmt.Sprintf("branch %s took %s", quoteName(c.Branch), quoteName(c.Expected))), nil
	case "":
		return fail(0, fmt.Sprintf("branch %s took no target, want %s", quoteName(c.Branch), quoteName(c.Expected))), nil
	}
	return fail(0, fmt.Sprintf("branch %s took %s, want %s", quoteName(c.Branch), quoteName(s.BranchTaken), quoteName(c.Expected))), nil
}

func stepKindName(k string) string {
	if k == "" {
		return evalkit.StepKindStep
	}
	return k
}

// CompositionParallelComplete passes when the parallel group named
// Parallel and every step in it completed (Status StepCompleted, at every
// depth). A member that failed, was skipped or has no recorded status
// fails it — a status not recorded is not a completion — and so does a
// group with no members. Score is the fraction of members completed.
//
//	parallel "fetch" incomplete: 1 of 3 steps did not complete
//	step: "fetch_prices" failed: "timeout"
//
// Errors: no parallel (*ParamError); no composition (ErrNotReported); a
// step of that name that is not a parallel group.
//
// Registry type "composition_parallel_complete", params: parallel. As
// PromptKit's composition_parallel_complete.
type CompositionParallelComplete struct {
	Parallel string
}

func buildCompositionParallelComplete(p *params) (Check, error) {
	s, _, err := p.str(true, "parallel")
	return CompositionParallelComplete{Parallel: s}, err
}

func (c CompositionParallelComplete) validate() error {
	if strings.TrimSpace(c.Parallel) == "" {
		return paramErr("composition_parallel_complete", "parallel", "empty: want a parallel group's name")
	}
	return nil
}

// Check implements Check.
func (c CompositionParallelComplete) Check(_ context.Context, tr *evalkit.Transcript) (Result, error) {
	const check = "composition_parallel_complete"
	if err := c.validate(); err != nil {
		return Result{}, err
	}
	comp, err := compositionOf(check, tr)
	if err != nil {
		return Result{}, err
	}
	g, missing := findNamedStep(comp, c.Parallel, "parallel group")
	if missing != nil {
		return *missing, nil
	}
	if g.Kind != evalkit.StepKindParallel {
		return Result{}, paramErr(check, "parallel", "step %s is a %s step, not a parallel group", quoteName(g.Name), stepKindName(g.Kind))
	}
	if len(g.Steps) == 0 {
		return fail(0, fmt.Sprintf("parallel %s has no steps", quoteName(c.Parallel))), nil
	}
	problems := bounded{max: maxProblems}
	var members []evalkit.CompositionStep
	var walk func([]evalkit.CompositionStep)
	walk = func(steps []evalkit.CompositionStep) {
		for _, s := range steps {
			members = append(members, s)
			walk(s.Steps)
		}
	}
	walk(g.Steps)
	done := 0
	for _, s := range members {
		switch s.Status {
		case evalkit.StepCompleted:
			done++
		case evalkit.StepFailed:
			msg := quoteName(s.Name) + " failed"
			if s.Error != "" {
				msg += ": " + excerpt(s.Error)
			}
			problems.add("%s", msg)
		case "":
			problems.add("%s has no recorded status", quoteName(s.Name))
		default:
			problems.add("%s %s", quoteName(s.Name), s.Status)
		}
	}
	score := ratio(done, len(members))
	if g.Status != "" && g.Status != evalkit.StepCompleted && problems.empty() {
		return fail(score, fmt.Sprintf("parallel %s is %s though its steps completed", quoteName(c.Parallel), g.Status)), nil
	}
	if problems.empty() {
		return pass(score, fmt.Sprintf("parallel %s complete: %s", quoteName(c.Parallel), plural(len(members), "step"))), nil
	}
	details := make([]Detail, 0, problems.len())
	for _, p := range problems.list() {
		details = append(details, Detail{"step", p})
	}
	return fail(score, fmt.Sprintf("parallel %s incomplete: %d of %s did not complete", quoteName(c.Parallel), len(members)-done, plural(len(members), "step")), details...), nil
}

// CompositionOutput passes when the composition's final output
// (Composition.Output) contains Contains (ignoring case unless
// CaseSensitive) or, with Equals set, is exactly Equals. Score is 1 or 0.
//
// Errors: neither or both of contains and equals, case_sensitive with
// equals (*ParamError); no composition, or one that recorded no output
// (ErrNotReported).
//
// Registry type "composition_output", params: contains or equals,
// case_sensitive. As PromptKit's composition_output.
type CompositionOutput struct {
	Contains      string
	Equals        *string
	CaseSensitive bool
}

func buildCompositionOutput(p *params) (Check, error) {
	m, err := readTextMatch(p)
	if err != nil {
		return nil, err
	}
	return CompositionOutput{Contains: m.contains, Equals: m.equals, CaseSensitive: m.caseSensitive}, nil
}

func (c CompositionOutput) match() textMatch {
	return textMatch{check: "composition_output", contains: c.Contains, equals: c.Equals, caseSensitive: c.CaseSensitive}
}

func (c CompositionOutput) validate() error { return c.match().validate() }

// Check implements Check.
func (c CompositionOutput) Check(_ context.Context, tr *evalkit.Transcript) (Result, error) {
	const check = "composition_output"
	if err := c.validate(); err != nil {
		return Result{}, err
	}
	comp, err := compositionOf(check, tr)
	if err != nil {
		return Result{}, err
	}
	if comp.Output == "" {
		return Result{}, fmt.Errorf("%s: %w: the composition recorded no final output (Composition.Output)", check, ErrNotReported)
	}
	return c.match().test(comp.Output, "the composition's output"), nil
}
