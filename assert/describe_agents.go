package assert

import (
	"fmt"
	"strconv"
	"strings"
)

// Describe methods of the agent, workflow, composition, guardrail, budget,
// measure and similarity checks: one line each, what passes.

// scopeSuffix names the last turn for checks whose default is Session.
func scopeSuffix(s Scope) string {
	if s == Turn {
		return " in the last turn"
	}
	return ""
}

// Describe implements Describer.
func (c AgentInvoked) Describe() string {
	return describeLine(fmt.Sprintf("the agents %s were each invoked%s", joinQuoted(c.Agents, "and"), scopeSuffix(c.Scope)))
}

// Describe implements Describer.
func (c AgentNotInvoked) Describe() string {
	return describeLine(fmt.Sprintf("none of the agents %s was invoked%s", joinQuoted(c.Agents, "or"), scopeSuffix(c.Scope)))
}

// Describe implements Describer.
func (c AgentResponseContains) Describe() string {
	return describeLine(fmt.Sprintf("a response of the agent %s contains %s (%s)%s", quoteName(c.Agent), excerpt(c.Contains), caseWords(c.CaseSensitive), scopeSuffix(c.Scope)))
}

// Describe implements Describer.
func (c SkillActivated) Describe() string {
	how := "at least once"
	if c.MinCalls != nil && *c.MinCalls != 1 {
		how = "at least " + times(*c.MinCalls)
	}
	return describeLine(fmt.Sprintf("the skills %s were each activated %s%s", joinQuoted(c.Skills, "and"), how, scopeSuffix(c.Scope)))
}

// Describe implements Describer.
func (c SkillNotActivated) Describe() string {
	return describeLine(fmt.Sprintf("none of the skills %s was activated%s", joinQuoted(c.Skills, "or"), scopeSuffix(c.Scope)))
}

// Describe implements Describer.
func (c SkillActivationOrder) Describe() string {
	return describeLine(fmt.Sprintf("the skills were activated in the order %s (others between allowed)%s", arrowList(c.Sequence), scopeSuffix(c.Scope)))
}

func arrowList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = quoteName(n)
	}
	return strings.Join(q, " → ")
}

// Describe implements Describer.
func (WorkflowComplete) Describe() string { return "the workflow reached a terminal state" }

// Describe implements Describer.
func (c WorkflowStateIs) Describe() string {
	return describeLine("the workflow ends in the state " + quoteName(c.State))
}

// Describe implements Describer.
func (c WorkflowTransitionedTo) Describe() string {
	return describeLine("the workflow transitioned to the state " + quoteName(c.State))
}

// Describe implements Describer.
func (c WorkflowTransitionOrder) Describe() string {
	return describeLine("the workflow went through the states " + arrowList(c.Sequence) + " in order (others between allowed)")
}

// Describe implements Describer.
func (c WorkflowToolAccess) Describe() string {
	rules := make([]string, len(c.Rules))
	for i, r := range c.Rules {
		allowed := "no tool"
		if len(r.Allowed) > 0 {
			allowed = quoteList(r.Allowed)
		}
		rules[i] = quoteName(r.State) + ": " + allowed
	}
	return describeLine(fmt.Sprintf("every tool call was allowed in its state (%s)%s", strings.Join(rules, "; "), scopeSuffix(c.Scope)))
}

// Describe implements Describer.
func (c SpokeInState) Describe() string {
	return describeLine(fmt.Sprintf("the state %s produced assistant output%s", quoteName(c.State), scopeSuffix(c.Scope)))
}

// Describe implements Describer.
func (c CompositionStepOutput) Describe() string {
	return describeLine(fmt.Sprintf("the output of the step %s %s", quoteName(c.Step), c.match().words()))
}

// Describe implements Describer.
func (c CompositionBranchTaken) Describe() string {
	return describeLine(fmt.Sprintf("the branch %s took %s", quoteName(c.Branch), quoteName(c.Expected)))
}

// Describe implements Describer.
func (c CompositionParallelComplete) Describe() string {
	return describeLine(fmt.Sprintf("every step of the parallel group %s completed", quoteName(c.Parallel)))
}

// Describe implements Describer.
func (c CompositionOutput) Describe() string {
	return describeLine("the composition's output " + c.match().words())
}

// Describe implements Describer.
func (c GuardrailTriggered) Describe() string {
	verb := "triggered"
	if !c.should() {
		verb = "ran and did not trigger"
	}
	return describeLine(fmt.Sprintf("the guardrail %s%s %s%s", quoteName(c.ValidatorType), sideWords(c.Direction), verb, scopeSuffix(c.Scope)))
}

// Describe implements Describer.
func (c CostBudget) Describe() string {
	var limits []string
	if c.MaxCostUSD != nil {
		limits = append(limits, "cost <= "+usdText(*c.MaxCostUSD))
	}
	for _, b := range []struct {
		name string
		v    *int
	}{{"input tokens", c.MaxInputTokens}, {"output tokens", c.MaxOutputTokens}, {"total tokens", c.MaxTotalTokens}} {
		if b.v != nil {
			limits = append(limits, fmt.Sprintf("%s <= %d", b.name, *b.v))
		}
	}
	return describeLine(fmt.Sprintf("the run's usage is within %s%s", strings.Join(limits, ", "), scopeSuffix(c.Scope)))
}

// Describe implements Describer.
func (c LatencyBudget) Describe() string {
	return describeLine(fmt.Sprintf("the run took at most %s%s", msText(c.MaxMS), scopeSuffix(c.Scope)))
}

// Describe implements Describer.
func (c SentenceCount) Describe() string {
	what := outputNoun(c.Scope.or(Turn))
	if c.Max != nil {
		return describeLine(fmt.Sprintf("%s has at most %s", what, plural(*c.Max, "sentence")))
	}
	return describeLine(fmt.Sprintf("the sentences of %s are counted (a measurement)", what))
}

// Describe implements Describer.
func (c OutcomeEquivalent) Describe() string {
	switch c.Metric {
	case MetricToolCalls:
		return describeLine("the set of tools called is " + setWords(distinctSorted(c.ExpectedTools)))
	case MetricFinalState:
		return describeLine("the workflow's final state is " + quoteName(c.ExpectedState))
	}
	want := "…"
	if c.ExpectedContent != nil {
		want = excerpt(*c.ExpectedContent)
	}
	return describeLine(fmt.Sprintf("%s is exactly %s", outputNoun(c.Scope.or(Turn)), want))
}

// Describe implements Describer.
func (c Directional) Describe() string {
	switch c.Compare {
	case SameToolCalls:
		if c.BaselineTools != nil {
			return describeLine("the set of tools called is the baseline's, " + setWords(distinctSorted(c.BaselineTools)))
		}
		return "the set of tools called is the baseline run's"
	case SameOutcome:
		if c.BaselineState != "" {
			return describeLine("the workflow ends in the baseline's state " + quoteName(c.BaselineState))
		}
		return "the workflow ends in the baseline run's state"
	}
	threshold := 0.5
	if c.Threshold != nil {
		threshold = *c.Threshold
	}
	return describeLine(fmt.Sprintf("the word overlap of %s with the baseline is at least %s", outputNoun(c.Scope.or(Turn)), strconv.FormatFloat(threshold, 'f', 2, 64)))
}

// Describe implements Describer.
func (c CosineSimilarity) Describe() string {
	ref := fmt.Sprintf("a %d-dimensional reference embedding", len(c.Reference))
	if c.ReferenceText != "" {
		ref = excerpt(c.ReferenceText)
	}
	return describeLine(fmt.Sprintf("the cosine similarity of %s with %s is measured", outputNoun(c.Scope.or(Turn)), ref))
}
