package assert

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/evalkit-go/evalkit"
)

func guardrailChecks() map[string]func(*params) (Check, error) {
	return map[string]func(*params) (Check, error){
		"guardrail_triggered": buildGuardrailTriggered,
	}
}

// GuardrailTriggered passes when the guardrail of type ValidatorType fired
// (ShouldTrigger true, the default) or did not fire (ShouldTrigger false),
// as PromptKit's guardrail_triggered. It reads two records, as PromptKit
// reads one list seeded from both: the guardrail results on the messages
// (Message.Guardrails, each fired or not) and the run's prior results
// (Transcript.PriorResults) whose Type or ID is ValidatorType, where a
// failed evaluation is a firing and a passed one is not.
//
// Direction "input" or "output" narrows the search to guardrails that
// judged that side (GuardrailResult.Direction); "" or "both" reads either.
// With a direction set, a matching result that does not say its side — a
// guardrail result without a Direction, or any prior result, which has no
// side — is an error: it might be the one asked about, so neither outcome
// is certain.
//
// It fired when any matching result fired. The outcome is decided only by
// results that say: a prior result with an Error (it could not be
// evaluated) is ignored when another result fired, and an error otherwise.
// No matching result at all is an error wrapping ErrNotReported — a
// guardrail that never ran did not "not trigger", and a misspelt type
// would otherwise pass should_trigger: false forever — and the error lists
// the guardrail types the run has. Score is 1 or 0.
//
//	guardrail "pii_leakage" (output) did not trigger, want it to
//	ran: messages[3] output: not triggered
//
// Scope defaults to Session; Turn reads the guardrails on the last turn's
// messages only, and no prior results (they belong to the run, not to a
// message). Errors (*ParamError): no validator_type, a direction other than
// input, output or both.
//
// Registry type "guardrail_triggered", params: validator_type,
// should_trigger (default true), direction, scope.
type GuardrailTriggered struct {
	ValidatorType string
	// ShouldTrigger nil means true.
	ShouldTrigger *bool
	// Direction is evalkit.GuardrailInput, evalkit.GuardrailOutput, "both"
	// or "" (either).
	Direction string
	Scope     Scope
}

func buildGuardrailTriggered(p *params) (Check, error) {
	var c GuardrailTriggered
	var err error
	if c.ValidatorType, _, err = p.str(true, "validator_type"); err != nil {
		return nil, err
	}
	b, ok, err := p.boolean("should_trigger")
	if err != nil {
		return nil, err
	}
	if ok {
		c.ShouldTrigger = &b
	}
	if c.Direction, _, err = p.str(false, "direction"); err != nil {
		return nil, err
	}
	c.Scope, err = p.scope()
	return c, err
}

func (c GuardrailTriggered) validate() error {
	const check = "guardrail_triggered"
	if strings.TrimSpace(c.ValidatorType) == "" {
		return paramErr(check, "validator_type", "empty: want a guardrail's type, such as \"pii_leakage\"")
	}
	switch c.Direction {
	case "", "both", evalkit.GuardrailInput, evalkit.GuardrailOutput:
	default:
		return paramErr(check, "direction", "want \"input\", \"output\" or \"both\", got %q", c.Direction)
	}
	return checkScope(check, c.Scope)
}

func (c GuardrailTriggered) should() bool { return c.ShouldTrigger == nil || *c.ShouldTrigger }

func (c GuardrailTriggered) sided() bool {
	return c.Direction == evalkit.GuardrailInput || c.Direction == evalkit.GuardrailOutput
}

// Check implements Check.
func (c GuardrailTriggered) Check(_ context.Context, tr *evalkit.Transcript) (Result, error) {
	const check = "guardrail_triggered"
	if err := c.validate(); err != nil {
		return Result{}, err
	}
	if tr == nil {
		return Result{}, fmt.Errorf("%s: %w: the transcript is nil", check, ErrNoOutput)
	}
	s := c.Scope.or(Session)
	sp := scopeSpan(tr, s)
	var ran []string
	fired, matched := false, 0
	var undecided []string
	for _, g := range tr.Guardrails() {
		if g.Type != c.ValidatorType || !sp.has(g.MessageIndex) {
			continue
		}
		where := fmt.Sprintf("messages[%d]", g.MessageIndex)
		if c.sided() {
			if g.Direction == "" {
				return Result{}, fmt.Errorf("%s: the guardrail %s at %s records no direction, so whether it is the %s guardrail cannot be known (drop direction, or record GuardrailResult.Direction)",
					check, quoteName(g.Type), where, c.Direction)
			}
			if g.Direction != c.Direction {
				continue
			}
		}
		matched++
		fired = fired || g.Triggered
		ran = append(ran, fmt.Sprintf("%s%s: %s", where, sideWords(g.Direction), triggeredWords(g.Triggered)))
	}
	if s == Session {
		for i, r := range tr.PriorResults {
			if r.Type != c.ValidatorType && (r.ID == "" || r.ID != c.ValidatorType) {
				continue
			}
			where := fmt.Sprintf("prior result %d", i+1)
			if c.sided() {
				return Result{}, fmt.Errorf("%s: %s (%s) records no direction, so whether it is the %s guardrail cannot be known (drop direction)",
					check, where, quoteName(r.Type), c.Direction)
			}
			if r.Error != "" {
				undecided = append(undecided, fmt.Sprintf("%s: could not be evaluated: %s", where, excerpt(r.Error)))
				continue
			}
			matched++
			fired = fired || !r.Passed
			ran = append(ran, fmt.Sprintf("%s: %s", where, triggeredWords(!r.Passed)))
		}
	}
	if !fired && len(undecided) > 0 {
		return Result{}, fmt.Errorf("%s: guardrail %s: %s", check, quoteName(c.ValidatorType), strings.Join(undecided, "; "))
	}
	if matched == 0 {
		return Result{}, fmt.Errorf("%s: %w: no result of the guardrail %s%s in %s (guardrails in the run: %s)",
			check, ErrNotReported, quoteName(c.ValidatorType), sideWords(c.Direction), spanName(sp), guardrailTypes(tr))
	}
	subject := fmt.Sprintf("guardrail %s%s", quoteName(c.ValidatorType), sideWords(c.Direction))
	details := make([]Detail, 0, min(len(ran), maxProblems)+1)
	for i, r := range ran {
		if i == maxProblems {
			details = append(details, Detail{"ran", fmt.Sprintf("… and %d more", len(ran)-maxProblems)})
			break
		}
		details = append(details, Detail{"ran", r})
	}
	switch {
	case fired == c.should() && fired:
		return pass(1, subject+" triggered"), nil
	case fired == c.should():
		return pass(1, subject+" did not trigger"), nil
	case fired:
		return fail(0, subject+" triggered, want it not to", sp.withScope(details)...), nil
	}
	return fail(0, subject+" did not trigger, want it to", sp.withScope(details)...), nil
}

func sideWords(dir string) string {
	if dir == evalkit.GuardrailInput || dir == evalkit.GuardrailOutput {
		return " (" + dir + ")"
	}
	return ""
}

func triggeredWords(t bool) string {
	if t {
		return "triggered"
	}
	return "not triggered"
}

func spanName(sp msgSpan) string {
	if sp.turn {
		return "the last turn"
	}
	return "the transcript"
}

// guardrailTypes lists the guardrail and prior-result types of a run.
func guardrailTypes(tr *evalkit.Transcript) string {
	seen := map[string]bool{}
	var types []string
	add := func(t string) {
		if t != "" && !seen[t] {
			seen[t] = true
			types = append(types, t)
		}
	}
	for _, g := range tr.Guardrails() {
		add(g.Type)
	}
	for _, r := range tr.PriorResults {
		add(r.Type)
	}
	if len(types) == 0 {
		return "none"
	}
	sort.Strings(types)
	return quoteList(types)
}
