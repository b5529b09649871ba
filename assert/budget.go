package assert

// Budgets: what a run cost in tokens, dollars and time, against limits.
// Nothing reported is an error, never a pass: a budget check that cannot
// see what it measures cannot say the run stayed within it.

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/evalkit-go/evalkit"
)

func budgetChecks() map[string]func(*params) (Check, error) {
	return map[string]func(*params) (Check, error){
		"cost_budget":    buildCostBudget,
		"latency_budget": buildLatencyBudget,
	}
}

// budgetMessages returns the messages a budget reads and the scope's msgSpan.
func budgetMessages(check string, tr *evalkit.Transcript, s Scope) ([]evalkit.Message, msgSpan, error) {
	if tr == nil {
		return nil, msgSpan{}, fmt.Errorf("%s: %w: the transcript is nil", check, ErrNoOutput)
	}
	sp := scopeSpan(tr, s)
	if sp.lo < 0 {
		return nil, sp, fmt.Errorf("%s: %w: the transcript has no assistant message, so no last turn", check, ErrNoOutput)
	}
	return tr.Messages[sp.lo:sp.hi], sp, nil
}

// CostBudget passes when the run's usage (Message.Usage, summed as
// Transcript.Usage sums it) is within every limit set: MaxCostUSD in US
// dollars, MaxInputTokens, MaxOutputTokens and MaxTotalTokens (input plus
// output) in tokens, each inclusive. Set at least one. Score is 1 within
// budget; over it, the smallest limit/actual ratio.
//
//	cost $0.0712, want at most $0.05
//	usage: 3 assistant messages, 5120 input + 812 output tokens, $0.0712
//
// What is not reported is an error wrapping ErrNotReported, never a pass:
// no message reporting usage, and for each limit set, an assistant message
// in the scope that does not report what it measures (no Usage, or a zero
// cost or token count, which reads as not recorded) — the sum is then only
// a lower bound. A lower bound already over a limit is a certain failure,
// and fails.
//
// Scope defaults to Session (the conversation, as PromptKit's); Turn reads
// the last turn. Errors (*ParamError): no limit, a negative limit.
//
// Registry type "cost_budget", params: max_cost_usd, max_input_tokens,
// max_output_tokens, max_total_tokens, scope. As PromptKit's cost_budget.
type CostBudget struct {
	MaxCostUSD      *float64
	MaxInputTokens  *int
	MaxOutputTokens *int
	MaxTotalTokens  *int
	Scope           Scope
}

func buildCostBudget(p *params) (Check, error) {
	var c CostBudget
	f, ok, err := p.num("max_cost_usd")
	if err != nil {
		return nil, err
	}
	if ok {
		c.MaxCostUSD = &f
	}
	for _, b := range []struct {
		name string
		dst  **int
	}{{"max_input_tokens", &c.MaxInputTokens}, {"max_output_tokens", &c.MaxOutputTokens}, {"max_total_tokens", &c.MaxTotalTokens}} {
		if *b.dst, err = optCount(p, b.name); err != nil {
			return nil, err
		}
	}
	c.Scope, err = p.scope()
	return c, err
}

func (c CostBudget) validate() error {
	const check = "cost_budget"
	if c.MaxCostUSD == nil && c.MaxInputTokens == nil && c.MaxOutputTokens == nil && c.MaxTotalTokens == nil {
		return paramErr(check, "max_cost_usd", "give at least one of max_cost_usd, max_input_tokens, max_output_tokens, max_total_tokens")
	}
	if c.MaxCostUSD != nil && (*c.MaxCostUSD < 0 || math.IsNaN(*c.MaxCostUSD) || math.IsInf(*c.MaxCostUSD, 0)) {
		return paramErr(check, "max_cost_usd", "want a finite number of US dollars >= 0, got %v", *c.MaxCostUSD)
	}
	for _, b := range []struct {
		name string
		v    *int
	}{{"max_input_tokens", c.MaxInputTokens}, {"max_output_tokens", c.MaxOutputTokens}, {"max_total_tokens", c.MaxTotalTokens}} {
		if b.v != nil && *b.v < 0 {
			return paramErr(check, b.name, "want a whole number >= 0, got %d", *b.v)
		}
	}
	return checkScope(check, c.Scope)
}

// budgetLimit is one limit of a budget, measured.
type budgetLimit struct {
	name     string  // "cost", "input tokens", ...
	limit    float64 // the bound
	got      float64 // the (possibly partial) total
	missing  int     // assistant messages that do not report it
	show     func(float64) string
	reported bool // some message reports it
}

// usd shows dollars to the millionth (float sums of cents leave noise).
func usdText(f float64) string { return "$" + strconv.FormatFloat(math.Round(f*1e6)/1e6, 'f', -1, 64) }

func tokenCount(f float64) string { return strconv.FormatFloat(f, 'f', 0, 64) }

// Check implements Check.
func (c CostBudget) Check(_ context.Context, tr *evalkit.Transcript) (Result, error) {
	const check = "cost_budget"
	if err := c.validate(); err != nil {
		return Result{}, err
	}
	msgs, sp, err := budgetMessages(check, tr, c.Scope.or(Session))
	if err != nil {
		return Result{}, err
	}
	var total evalkit.Usage
	reported, assistants := 0, 0
	var limits []*budgetLimit
	add := func(name string, bound *float64, show func(float64) string) *budgetLimit {
		if bound == nil {
			return nil
		}
		l := &budgetLimit{name: name, limit: *bound, show: show}
		limits = append(limits, l)
		return l
	}
	asFloat := func(n *int) *float64 {
		if n == nil {
			return nil
		}
		f := float64(*n)
		return &f
	}
	cost := add("cost", c.MaxCostUSD, usdText)
	in := add("input tokens", asFloat(c.MaxInputTokens), tokenCount)
	out := add("output tokens", asFloat(c.MaxOutputTokens), tokenCount)
	all := add("total tokens", asFloat(c.MaxTotalTokens), tokenCount)
	for _, m := range msgs {
		if m.Usage != nil {
			reported++
			u := *m.Usage
			total.InputTokens += u.InputTokens
			total.OutputTokens += u.OutputTokens
			total.CostUSD += u.CostUSD
		}
		if m.Role != evalkit.RoleAssistant {
			continue
		}
		assistants++
		u := evalkit.Usage{}
		if m.Usage != nil {
			u = *m.Usage
		}
		for _, x := range []struct {
			l *budgetLimit
			v float64
		}{{cost, u.CostUSD}, {in, float64(u.InputTokens)}, {out, float64(u.OutputTokens)}, {all, float64(u.TotalTokens())}} {
			if x.l == nil {
				continue
			}
			if x.v > 0 {
				x.l.reported = true
			} else {
				x.l.missing++
			}
		}
	}
	if reported == 0 {
		return Result{}, fmt.Errorf("%s: %w: no message in %s reports its usage (Message.Usage)", check, ErrNotReported, spanName(sp))
	}
	for _, x := range []struct {
		l *budgetLimit
		v float64
	}{{cost, total.CostUSD}, {in, float64(total.InputTokens)}, {out, float64(total.OutputTokens)}, {all, float64(total.TotalTokens())}} {
		if x.l != nil {
			x.l.got = x.v
		}
	}
	usage := Detail{"usage", fmt.Sprintf("%s, %d input + %d output tokens, %s", plural(assistants, "assistant message"), total.InputTokens, total.OutputTokens, usdText(total.CostUSD))}
	return judgeBudget(check, limits, assistants, sp, usage)
}

// judgeBudget decides a budget: over a limit fails (even on a partial
// total), a limit some message does not report is an error, else it
// passes.
func judgeBudget(check string, limits []*budgetLimit, assistants int, sp msgSpan, about Detail) (Result, error) {
	score := 1.0
	var over, within []string
	for _, l := range limits {
		if l.got > l.limit {
			over = append(over, fmt.Sprintf("%s %s, want at most %s", l.name, l.show(l.got), l.show(l.limit)))
			if l.got > 0 {
				score = math.Min(score, l.limit/l.got)
			}
			continue
		}
		within = append(within, fmt.Sprintf("%s %s <= %s", l.name, l.show(l.got), l.show(l.limit)))
	}
	if len(over) > 0 {
		details := []Detail{about}
		for _, l := range limits {
			if l.missing > 0 {
				details = append(details, Detail{"note", fmt.Sprintf("%d of %s report no %s: the total is a lower bound", l.missing, plural(assistants, "assistant message"), l.name)})
			}
		}
		return fail(score, strings.Join(over, "; "), sp.withScope(details)...), nil
	}
	for _, l := range limits {
		switch {
		case !l.reported:
			return Result{}, fmt.Errorf("%s: %w: no assistant message in %s reports its %s", check, ErrNotReported, spanName(sp), l.name)
		case l.missing > 0:
			return Result{}, fmt.Errorf("%s: %w: %d of %s in %s report no %s, so the total %s is only a lower bound and cannot show the run within %s",
				check, ErrNotReported, l.missing, plural(assistants, "assistant message"), spanName(sp), l.name, l.show(l.got), l.show(l.limit))
		}
	}
	return pass(1, strings.Join(within, "; ")), nil
}

// LatencyBudget passes when the run took at most MaxMS milliseconds: the
// sum of Message.LatencyMS over the scope (the model's time on assistant
// messages, the tools' on tool messages, where reported), as
// Transcript.LatencyMS sums it. Score is 1 within budget, MaxMS/actual
// over it.
//
// PromptKit's latency_budget reads Metadata["latency_ms"]; this check reads
// it too, as the run's total in milliseconds, only when no message reports
// a latency and the scope is Session (the value belongs to the run, not to
// a turn). Messages come first because they say where the time went; a
// Metadata value that is not a positive number is an error.
//
// Nothing reported is an error wrapping ErrNotReported, never a pass; so is
// an assistant message in the scope without a latency while the others
// have one, unless the partial sum is already over the budget (then it
// fails). Tool messages without a latency are not counted as missing: the
// tools' time is often not measured.
//
// Scope defaults to Session; Turn reads the last turn. Errors (*ParamError):
// no max_ms, a negative one.
//
// Registry type "latency_budget", params: max_ms, scope. As PromptKit's
// latency_budget.
type LatencyBudget struct {
	MaxMS float64
	Scope Scope
}

func buildLatencyBudget(p *params) (Check, error) {
	var c LatencyBudget
	f, ok, err := p.num("max_ms")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, p.required("max_ms", "required: want the budget in milliseconds")
	}
	c.MaxMS = f
	c.Scope, err = p.scope()
	return c, err
}

func (c LatencyBudget) validate() error {
	if c.MaxMS < 0 || math.IsNaN(c.MaxMS) || math.IsInf(c.MaxMS, 0) {
		return paramErr("latency_budget", "max_ms", "want a finite number of milliseconds >= 0, got %v", c.MaxMS)
	}
	return checkScope("latency_budget", c.Scope)
}

func msText(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) + " ms" }

// Check implements Check.
func (c LatencyBudget) Check(_ context.Context, tr *evalkit.Transcript) (Result, error) {
	const check = "latency_budget"
	if err := c.validate(); err != nil {
		return Result{}, err
	}
	s := c.Scope.or(Session)
	msgs, sp, err := budgetMessages(check, tr, s)
	if err != nil {
		return Result{}, err
	}
	l := &budgetLimit{name: "latency", limit: c.MaxMS, show: msText}
	assistants, reported := 0, 0
	for _, m := range msgs {
		if m.LatencyMS > 0 {
			l.got += m.LatencyMS
			reported++
		}
		if m.Role == evalkit.RoleAssistant {
			assistants++
			if m.LatencyMS > 0 {
				l.reported = true
			} else {
				l.missing++
			}
		}
	}
	about := Detail{"latency", fmt.Sprintf("%s over %s", msText(l.got), plural(reported, "message"))}
	if reported == 0 {
		v, has := tr.Metadata["latency_ms"]
		if !has || s != Session {
			return Result{}, fmt.Errorf("%s: %w: no message in %s reports a latency (Message.LatencyMS)", check, ErrNotReported, spanName(sp))
		}
		f, isNum := toFloat(v)
		if !isNum || !(f > 0) || math.IsInf(f, 0) {
			return Result{}, fmt.Errorf("%s: Metadata[\"latency_ms\"] is %s, want a positive number of milliseconds", check, metaValue(v))
		}
		l.got, l.reported, l.missing = f, true, 0
		about = Detail{"latency", msText(f) + ` (Metadata["latency_ms"])`}
	}
	return judgeBudget(check, []*budgetLimit{l}, assistants, sp, about)
}

func metaValue(v any) string {
	if f, ok := toFloat(v); ok {
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	return kindOf(v)
}
