package assert

// Agent and skill checks: hand-offs to sub-agents (tool calls whose name is
// an agent's) and skill activations (skill__activate calls), as PromptKit's
// agent_* and skill_* handlers read them.

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/evalkit-go/evalkit"
)

func agentChecks() map[string]func(*params) (Check, error) {
	return map[string]func(*params) (Check, error){
		"agent_invoked":           buildAgentInvoked,
		"agent_not_invoked":       buildAgentNotInvoked,
		"agent_response_contains": buildAgentResponseContains,
		"skill_activated":         buildSkillActivated,
		"skill_not_activated":     buildSkillNotActivated,
		"skill_activation_order":  buildSkillActivationOrder,
	}
}

// msgSpan is the part of Transcript.Messages a scope reads: every message
// (Session) or the last turn's.
type msgSpan struct {
	lo, hi int
	turn   bool
}

// scopeSpan resolves s (already defaulted) to the messages it reads. With
// Turn scope and no assistant message, the span is empty.
func scopeSpan(tr *evalkit.Transcript, s Scope) msgSpan {
	if s != Turn {
		return msgSpan{lo: 0, hi: len(tr.Messages)}
	}
	t, ok := tr.LastTurn()
	if !ok {
		return msgSpan{lo: -1, hi: -1, turn: true}
	}
	return msgSpan{lo: t.Start, hi: t.Start + len(t.Messages), turn: true}
}

// has reports whether the message at index i is in the msgSpan.
func (sp msgSpan) has(i int) bool { return i >= sp.lo && i < sp.hi }

// withScope adds a "scope" line to a failure read from the last turn only.
func (sp msgSpan) withScope(details []Detail) []Detail {
	switch {
	case !sp.turn:
		return details
	case sp.lo < 0:
		return append(details, Detail{"scope", "last turn: the transcript has no assistant message"})
	}
	return append(details, Detail{"scope", fmt.Sprintf("last turn (messages %d-%d)", sp.lo, sp.hi-1)})
}

// agentCall is one call of an agent.
type agentCall struct {
	agent string
	call  evalkit.ToolCall
}

// agentCalls returns the calls of agents in the scope. When the transcript
// declares its agents (Transcript.Agents) they are its hand-offs, and a
// name among names that is not declared is an error: the declarations say
// what an agent is, so an undeclared name could never be matched. Without
// declarations, a call whose tool name is an agent's name is a call of it.
func agentCalls(check, param string, tr *evalkit.Transcript, s Scope, names []string) ([]agentCall, error) {
	if err := agentActed(check, tr); err != nil {
		return nil, err
	}
	sp := scopeSpan(tr, s)
	var out []agentCall
	if len(tr.Agents) > 0 {
		declared := map[string]bool{}
		var list []string
		for _, a := range tr.Agents {
			if !declared[a.Name] {
				declared[a.Name] = true
				list = append(list, a.Name)
			}
		}
		for _, n := range names {
			if declared[n] {
				continue
			}
			hint := ""
			if near := nearestName(n, declared); near != "" {
				hint = fmt.Sprintf(" (did you mean %s?)", quoteName(near))
			}
			return nil, paramErr(check, param, "%s is not among the transcript's declared agents, %s%s", quoteName(n), quoteList(list), hint)
		}
		for _, h := range tr.Handoffs() {
			if sp.has(h.Call.MessageIndex) {
				out = append(out, agentCall{agent: h.Agent, call: h.Call})
			}
		}
		return out, nil
	}
	wanted := map[string]bool{}
	for _, n := range names {
		wanted[n] = true
	}
	for _, c := range tr.ToolCalls() {
		if wanted[c.Name] && sp.has(c.MessageIndex) {
			out = append(out, agentCall{agent: c.Name, call: c})
		}
	}
	return out, nil
}

// agentNames checks a list of agent names as tool names are checked.
func agentNames(check, param string, names []string) error {
	if len(names) == 0 {
		return paramErr(check, param, "empty list: give at least one agent name")
	}
	for i, n := range names {
		if problem := toolNameProblem(n); problem != "" {
			return paramErr(check, param, "item %d %s", i, strings.Replace(problem, "tool name", "agent name", 1))
		}
	}
	return nil
}

// invokedDetail lists the agents called: "billing ×2, triage ×1", or none.
func invokedDetail(calls []agentCall) Detail {
	if len(calls) == 0 {
		return Detail{"invoked", "none"}
	}
	counts := map[string]int{}
	for _, c := range calls {
		counts[c.agent]++
	}
	names := make([]string, 0, len(counts))
	for n := range counts {
		names = append(names, n)
	}
	sort.Strings(names)
	b := bounded{max: listLimit}
	for _, n := range names {
		b.add("%s ×%d", shortName(n), counts[n])
	}
	return Detail{"invoked", b.join(", ")}
}

// AgentInvoked passes when each of Agents was called at least once: a
// hand-off, a tool call to the agent's tool (Transcript.Handoffs) when the
// transcript declares its agents (Transcript.Agents), else a tool call
// named as the agent. Score is the fraction of Agents invoked. Scope
// defaults to Session; Turn reads the calls made in the last turn.
//
//	missing agent "billing"
//	invoked: triage ×1
//
// Errors (*ParamError): no agents, an empty name or one with surrounding
// white space, and, when the transcript declares agents, a name that is
// not declared (with the nearest declared one); a nil transcript wraps
// ErrNoOutput.
//
// Registry type "agent_invoked", params: agents, scope. As PromptKit's
// agent_invoked.
type AgentInvoked struct {
	Agents []string
	Scope  Scope
}

func buildAgentInvoked(p *params) (Check, error) {
	var c AgentInvoked
	var err error
	if c.Agents, _, err = p.strs(true, "agents"); err != nil {
		return nil, err
	}
	c.Scope, err = p.scope()
	return c, err
}

func (c AgentInvoked) validate() error {
	if err := agentNames("agent_invoked", "agents", c.Agents); err != nil {
		return err
	}
	return checkScope("agent_invoked", c.Scope)
}

// Check implements Check.
func (c AgentInvoked) Check(_ context.Context, tr *evalkit.Transcript) (Result, error) {
	if err := c.validate(); err != nil {
		return Result{}, err
	}
	calls, err := agentCalls("agent_invoked", "agents", tr, c.Scope.or(Session), c.Agents)
	if err != nil {
		return Result{}, err
	}
	got := map[string]int{}
	for _, ac := range calls {
		got[ac.agent]++
	}
	var missing []string
	for _, a := range c.Agents {
		if got[a] == 0 {
			missing = append(missing, a)
		}
	}
	score := ratio(len(c.Agents)-len(missing), len(c.Agents))
	if len(missing) == 0 {
		return pass(score, "invoked "+joinQuoted(c.Agents, "and")), nil
	}
	noun := "agent "
	if len(missing) > 1 {
		noun = "agents "
	}
	return fail(score, "missing "+noun+quoteList(missing), scopeSpan(tr, c.Scope.or(Session)).withScope([]Detail{invokedDetail(calls)})...), nil
}

// AgentNotInvoked passes when none of Agents was called (see AgentInvoked
// for what a call of an agent is). Score is the fraction of Agents not
// called. The failure names each forbidden agent with its number of calls.
// Scope defaults to Session. Errors are AgentInvoked's.
//
// Registry type "agent_not_invoked", params: agents, scope. As PromptKit's
// agent_not_invoked.
type AgentNotInvoked struct {
	Agents []string
	Scope  Scope
}

func buildAgentNotInvoked(p *params) (Check, error) {
	c, err := buildAgentInvoked(p)
	if err != nil {
		return nil, err
	}
	ai := c.(AgentInvoked)
	return AgentNotInvoked(ai), nil
}

func (c AgentNotInvoked) validate() error {
	if err := agentNames("agent_not_invoked", "agents", c.Agents); err != nil {
		return err
	}
	return checkScope("agent_not_invoked", c.Scope)
}

// Check implements Check.
func (c AgentNotInvoked) Check(_ context.Context, tr *evalkit.Transcript) (Result, error) {
	if err := c.validate(); err != nil {
		return Result{}, err
	}
	calls, err := agentCalls("agent_not_invoked", "agents", tr, c.Scope.or(Session), c.Agents)
	if err != nil {
		return Result{}, err
	}
	got := map[string]int{}
	for _, ac := range calls {
		got[ac.agent]++
	}
	problems := bounded{max: maxProblems}
	bad := 0
	for _, nc := range countNames(c.Agents) {
		if n := got[nc.name]; n > 0 {
			bad++
			problems.add("agent %s invoked %s, want none", quoteName(nc.name), times(n))
		}
	}
	distinct := len(countNames(c.Agents))
	score := ratio(distinct-bad, distinct)
	if problems.empty() {
		return pass(score, "none of "+quoteList(c.Agents)+" invoked"), nil
	}
	return fail(score, problems.join("; "), scopeSpan(tr, c.Scope.or(Session)).withScope([]Detail{invokedDetail(calls)})...), nil
}

// AgentResponseContains passes when a response of Agent — the result of a
// call of it, as AgentInvoked finds calls — contains Contains, ignoring
// case (with full Unicode case folding) unless CaseSensitive is set. Any
// one response may hold it. An agent never invoked fails, and so does one
// invoked but never answered. Score is 1 or 0. Scope defaults to Session.
//
//	no response of agent "billing" contains "refund issued"
//	response: call 2: "I could not find that order."
//
// Errors (*ParamError): no agent, no text, and, when the transcript
// declares agents, an undeclared agent.
//
// Registry type "agent_response_contains", params: agent, contains,
// case_sensitive, scope. As PromptKit's agent_response_contains.
type AgentResponseContains struct {
	Agent         string
	Contains      string
	CaseSensitive bool
	Scope         Scope
}

func buildAgentResponseContains(p *params) (Check, error) {
	var c AgentResponseContains
	var err error
	if c.Agent, _, err = p.str(true, "agent"); err != nil {
		return nil, err
	}
	if c.Contains, _, err = p.str(true, "contains"); err != nil {
		return nil, err
	}
	if c.CaseSensitive, _, err = p.boolean("case_sensitive"); err != nil {
		return nil, err
	}
	c.Scope, err = p.scope()
	return c, err
}

func (c AgentResponseContains) validate() error {
	const check = "agent_response_contains"
	if problem := toolNameProblem(c.Agent); problem != "" {
		return paramErr(check, "agent", "%s", strings.Replace(problem, "tool name", "agent name", 1))
	}
	if c.Contains == "" {
		return paramErr(check, "contains", "empty: an empty text is in every response")
	}
	return checkScope(check, c.Scope)
}

// Check implements Check.
func (c AgentResponseContains) Check(_ context.Context, tr *evalkit.Transcript) (Result, error) {
	if err := c.validate(); err != nil {
		return Result{}, err
	}
	const check = "agent_response_contains"
	s := c.Scope.or(Session)
	calls, err := agentCalls(check, "agent", tr, s, []string{c.Agent})
	if err != nil {
		return Result{}, err
	}
	sp := scopeSpan(tr, s)
	m := newMatcher([]string{c.Contains}, c.CaseSensitive)
	var responses []Detail
	invoked := 0
	for _, ac := range calls {
		if ac.agent != c.Agent {
			continue
		}
		invoked++
		if ac.call.Result == nil {
			continue
		}
		if m.index(m.prepare(ac.call.Result.Content), 0) >= 0 {
			return pass(1, fmt.Sprintf("response of agent %s (call %d) contains %s", quoteName(c.Agent), invoked, excerpt(c.Contains))), nil
		}
		if len(responses) < maxProblems {
			responses = append(responses, Detail{"response", fmt.Sprintf("call %d: %s", invoked, excerpt(ac.call.Result.Content))})
		}
	}
	switch {
	case invoked == 0:
		return fail(0, fmt.Sprintf("agent %s was not invoked", quoteName(c.Agent)), sp.withScope([]Detail{invokedDetail(calls)})...), nil
	case len(responses) == 0:
		return fail(0, fmt.Sprintf("agent %s was invoked %s and never responded", quoteName(c.Agent), times(invoked)), sp.withScope(nil)...), nil
	}
	return fail(0, fmt.Sprintf("no response of agent %s contains %s", quoteName(c.Agent), excerpt(c.Contains)), sp.withScope(responses)...), nil
}

// skillsInScope returns the skill activations of the scope
// (Transcript.SkillActivations: a skill__activate call whose arguments
// name no skill is an error).
func skillsInScope(check string, tr *evalkit.Transcript, s Scope) ([]evalkit.SkillActivation, msgSpan, error) {
	if err := agentActed(check, tr); err != nil {
		return nil, msgSpan{}, err
	}
	all, err := tr.SkillActivations()
	if err != nil {
		return nil, msgSpan{}, fmt.Errorf("%s: %w", check, err)
	}
	sp := scopeSpan(tr, s)
	var out []evalkit.SkillActivation
	for _, a := range all {
		if sp.has(a.Call.MessageIndex) {
			out = append(out, a)
		}
	}
	return out, sp, nil
}

// activatedDetail lists the skills activated, in order.
func activatedDetail(acts []evalkit.SkillActivation) Detail {
	if len(acts) == 0 {
		return Detail{"activated", "none"}
	}
	b := bounded{max: 30}
	for _, a := range acts {
		b.add("%s", shortName(a.Skill))
	}
	return Detail{"activated", b.join(" → ")}
}

func skillNames(check, param string, names []string) error {
	if len(names) == 0 {
		return paramErr(check, param, "empty list: give at least one skill name")
	}
	for i, n := range names {
		if problem := toolNameProblem(n); problem != "" {
			return paramErr(check, param, "item %d %s", i, strings.Replace(problem, "tool name", "skill name", 1))
		}
	}
	return nil
}

// SkillActivated passes when each of Skills was activated at least
// MinCalls times (nil means 1): a call of evalkit.SkillActivateTool,
// skill__activate({"name": "<skill>"}). Score is the fraction of Skills
// met. Scope defaults to Session.
//
//	missing skill "refund_policy"
//	activated: order_lookup → order_lookup
//
// Errors: no skill names, an empty name or one with surrounding white
// space, MinCalls 0 (*ParamError); a skill__activate call whose arguments
// name no skill (which skill it activated cannot be known).
//
// Registry type "skill_activated", params: skill_names, min_calls, scope.
// As PromptKit's skill_activated.
type SkillActivated struct {
	Skills   []string
	MinCalls *int
	Scope    Scope
}

func buildSkillActivated(p *params) (Check, error) {
	var c SkillActivated
	var err error
	if c.Skills, _, err = p.strs(true, "skill_names"); err != nil {
		return nil, err
	}
	if c.MinCalls, err = optCount(p, "min_calls"); err != nil {
		return nil, err
	}
	c.Scope, err = p.scope()
	return c, err
}

func (c SkillActivated) validate() error {
	const check = "skill_activated"
	if err := skillNames(check, "skill_names", c.Skills); err != nil {
		return err
	}
	if c.MinCalls != nil && *c.MinCalls < 1 {
		return paramErr(check, "min_calls", "%d checks nothing: want 1 or more (skill_not_activated forbids a skill)", *c.MinCalls)
	}
	return checkScope(check, c.Scope)
}

// Check implements Check.
func (c SkillActivated) Check(_ context.Context, tr *evalkit.Transcript) (Result, error) {
	if err := c.validate(); err != nil {
		return Result{}, err
	}
	acts, sp, err := skillsInScope("skill_activated", tr, c.Scope.or(Session))
	if err != nil {
		return Result{}, err
	}
	lo := 1
	if c.MinCalls != nil {
		lo = *c.MinCalls
	}
	got := map[string]int{}
	for _, a := range acts {
		got[a.Skill]++
	}
	problems := bounded{max: maxProblems}
	met := 0
	for _, nc := range countNames(c.Skills) {
		n, want := got[nc.name], nc.n*lo
		switch {
		case n >= want:
			met += nc.n
		case n == 0:
			problems.add("missing skill %s", quoteName(nc.name))
		default:
			problems.add("skill %s activated %s, want at least %d", quoteName(nc.name), times(n), want)
			met += n / lo
		}
	}
	score := ratio(met, len(c.Skills))
	if problems.empty() {
		return pass(score, "activated "+joinQuoted(c.Skills, "and")), nil
	}
	return fail(score, problems.join("; "), sp.withScope([]Detail{activatedDetail(acts)})...), nil
}

// SkillNotActivated passes when none of Skills was activated (see
// SkillActivated). Score is the fraction of Skills not activated. Scope
// defaults to Session. Errors are SkillActivated's.
//
// Registry type "skill_not_activated", params: skill_names, scope. As
// PromptKit's skill_not_activated.
type SkillNotActivated struct {
	Skills []string
	Scope  Scope
}

func buildSkillNotActivated(p *params) (Check, error) {
	var c SkillNotActivated
	var err error
	if c.Skills, _, err = p.strs(true, "skill_names"); err != nil {
		return nil, err
	}
	c.Scope, err = p.scope()
	return c, err
}

func (c SkillNotActivated) validate() error {
	if err := skillNames("skill_not_activated", "skill_names", c.Skills); err != nil {
		return err
	}
	return checkScope("skill_not_activated", c.Scope)
}

// Check implements Check.
func (c SkillNotActivated) Check(_ context.Context, tr *evalkit.Transcript) (Result, error) {
	if err := c.validate(); err != nil {
		return Result{}, err
	}
	acts, sp, err := skillsInScope("skill_not_activated", tr, c.Scope.or(Session))
	if err != nil {
		return Result{}, err
	}
	got := map[string]int{}
	for _, a := range acts {
		got[a.Skill]++
	}
	problems := bounded{max: maxProblems}
	names := countNames(c.Skills)
	bad := 0
	for _, nc := range names {
		if n := got[nc.name]; n > 0 {
			bad++
			problems.add("skill %s activated %s, want none", quoteName(nc.name), times(n))
		}
	}
	score := ratio(len(names)-bad, len(names))
	if problems.empty() {
		return pass(score, "none of "+quoteList(c.Skills)+" activated"), nil
	}
	return fail(score, problems.join("; "), sp.withScope([]Detail{activatedDetail(acts)})...), nil
}

// SkillActivationOrder passes when the skills of Sequence were activated in
// that order, other activations allowed in between (an ordered
// subsequence). Score is the matched prefix of Sequence over its length.
// Scope defaults to Session.
//
//	step 2 "refund_policy" not activated after step 1 "order_lookup" (activation 3)
//	activated: refund_policy → order_lookup
//
// Errors are SkillActivated's, with the parameter "sequence".
//
// Registry type "skill_activation_order", params: sequence, scope. As
// PromptKit's skill_activation_order.
type SkillActivationOrder struct {
	Sequence []string
	Scope    Scope
}

func buildSkillActivationOrder(p *params) (Check, error) {
	var c SkillActivationOrder
	var err error
	if c.Sequence, _, err = p.strs(true, "sequence"); err != nil {
		return nil, err
	}
	c.Scope, err = p.scope()
	return c, err
}

func (c SkillActivationOrder) validate() error {
	if err := skillNames("skill_activation_order", "sequence", c.Sequence); err != nil {
		return err
	}
	return checkScope("skill_activation_order", c.Scope)
}

// Check implements Check.
func (c SkillActivationOrder) Check(_ context.Context, tr *evalkit.Transcript) (Result, error) {
	if err := c.validate(); err != nil {
		return Result{}, err
	}
	acts, sp, err := skillsInScope("skill_activation_order", tr, c.Scope.or(Session))
	if err != nil {
		return Result{}, err
	}
	names := make([]string, len(acts))
	for i, a := range acts {
		names[i] = a.Skill
	}
	res := subsequence(c.Sequence, names, "activated", "activation")
	if !res.Passed {
		res.Details = sp.withScope([]Detail{activatedDetail(acts)})
	}
	return res, nil
}

// subsequence matches want as an ordered subsequence of got, earliest
// first (optimal for subsequences), and words the outcome: verb is what
// happened to an item ("activated", "entered"), unit what one occurrence
// is called ("activation", "state").
func subsequence(want, got []string, verb, unit string) Result {
	at := make([]int, 0, len(want))
	for i, g := range got {
		if len(at) < len(want) && g == want[len(at)] {
			at = append(at, i)
		}
	}
	score := ratio(len(at), len(want))
	if len(at) == len(want) {
		return pass(score, fmt.Sprintf("sequence of %s found at %ss %s", plural(len(at), "step"), unit, callNumbers(at)))
	}
	step := len(at)
	name := want[step]
	seen := false
	for _, g := range got {
		seen = seen || g == name
	}
	if !seen {
		return fail(score, fmt.Sprintf("step %d %s never %s", step+1, quoteName(name), verb))
	}
	return fail(score, fmt.Sprintf("step %d %s not %s after step %d %s (%s %d)", step+1, quoteName(name), verb, step, quoteName(want[step-1]), unit, at[step-1]+1))
}

// required reports a missing required parameter: a misspelt one given
// instead ("max_m" for "max_ms") is named first, with the name it is near.
func (p *params) required(name, msg string) error {
	if err := p.missing(name); err != nil {
		return err
	}
	return p.err(name, "%s", msg)
}
