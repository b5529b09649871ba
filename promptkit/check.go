package promptkit

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
)

// ErrNotRun is wrapped by Check's error when the entry does not run on the
// transcript — turned off (enabled: false), sampled out, or its when
// preconditions unmet — so it has no outcome: neither a pass nor a
// failure. RunCases logs it, and skips a case none of whose entries ran.
var ErrNotRun = errors.New("not run")

// Check is a PromptKit entry as an assert.Check, with PromptKit's meaning
// on a finished transcript:
//
//   - an eval with a per-turn trigger (every_turn, sample_turns,
//     on_workflow_step), and an eval document's all_turns assertion, runs
//     on each assistant turn: the transcript cut at the end of that turn;
//   - a scenario turn's assertion runs on the transcript cut at the end of
//     the assistant's answer to that user turn (a missing turn is an
//     error);
//   - a validator runs on each message of its side — each assistant
//     message with text (output, the default), each user message (input,
//     read as the text under test), or both — with only that message and
//     the user message before it, as a guardrail judges one message; it
//     passes when it never triggers;
//   - anything else runs once on the whole transcript.
//
// Sampling is PromptKit's: a sample_turns eval runs on a turn, and a
// sample_sessions eval on the transcript, when FNV-1a of Session and the
// turn's index (0 for a session) modulo 10000 is below the percentage ×
// 100. With the case's name as Session the choice is the same on every
// run and every machine; SampleAll runs every sampled eval. A when
// precondition is read on the tool calls up to the evaluated point.
//
// The check passes when every evaluated unit passes; its score is the
// lowest. A pack's eval whose check only emits a score, with no
// threshold, is a measurement: it passes with its score, as PromptKit's
// evals feed metrics. Errors, never verdicts: a unit's error, with the
// unit named; ErrNotRun when nothing is evaluated.
type Check struct {
	Entry Entry
	// Registry builds the entry's check (nil: the built-in registry).
	Registry *assert.Registry
	// Session keys sampling: the case's name.
	Session string
	// SampleAll runs sampled evals on every turn and session.
	SampleAll bool
}

// unit is one evaluation of a Check: what it is called and what it reads.
type unit struct {
	name string
	tr   *evalkit.Transcript
}

// Runs reports whether the check evaluates anything on tr, and why not.
func (c Check) Runs(tr *evalkit.Transcript) (bool, string) {
	units, why, err := c.units(tr)
	if err != nil {
		return true, "" // the error is the check's outcome
	}
	return len(units) > 0, why
}

// Check implements assert.Check.
func (c Check) Check(ctx context.Context, tr *evalkit.Transcript) (assert.Result, error) {
	if tr == nil {
		return assert.Result{}, fmt.Errorf("%s: %w: the transcript is nil", c.Entry.Type, assert.ErrNoOutput)
	}
	reg := c.Registry
	if reg == nil {
		reg = assert.NewRegistry()
	}
	typ, params := c.Entry.Spec()
	inner, err := reg.Build(typ, params)
	if err != nil {
		return assert.Result{}, err
	}
	units, why, err := c.units(tr)
	if err != nil {
		return assert.Result{}, err
	}
	if len(units) == 0 {
		return assert.Result{}, fmt.Errorf("%s: %w: %s", c.Entry.Type, ErrNotRun, why)
	}
	if len(units) == 1 && units[0].name == "" {
		return c.run(ctx, inner, units[0].tr)
	}
	// The first failing unit's summary and details, then one line for
	// each other failing unit.
	var details []assert.Detail
	score, failed := 1.0, 0
	first := ""
	for _, u := range units {
		res, err := c.run(ctx, inner, u.tr)
		if err != nil {
			return assert.Result{}, fmt.Errorf("%s: %w", u.name, err)
		}
		score = min(score, res.Score)
		if res.Passed {
			continue
		}
		failed++
		switch {
		case failed == 1:
			first = u.name + ": " + res.Summary
			details = append(details, res.Details...)
		case failed <= 10:
			details = append(details, assert.Detail{Label: u.name, Text: res.Summary})
		}
	}
	what := c.unitNoun(len(units))
	if failed == 0 {
		return assert.Result{Passed: true, Score: score, Summary: fmt.Sprintf("%d of %d %s pass", len(units), len(units), what)}, nil
	}
	return assert.Result{Score: score, Summary: fmt.Sprintf("%d of %d %s fail; %s", failed, len(units), what, first), Details: details}, nil
}

// run runs inner on one unit. A pack's eval whose check only emits a
// score (a classifier's, an exec or REST evaluator's without passed) and
// has no threshold is a measurement, as PromptKit's evals emit their score
// for metrics: its score is reported, and it passes.
func (c Check) run(ctx context.Context, inner assert.Check, tr *evalkit.Transcript) (assert.Result, error) {
	if c.Entry.Role != RoleEval {
		return inner.Check(ctx, tr)
	}
	res, measured, err := assert.Measure(ctx, inner, tr) // one run of an evaluator, never two
	if err != nil || !measured {
		return res, err
	}
	res.Passed = true
	res.Summary = fmt.Sprintf("score %s, measured (an eval without a threshold emits its score, as PromptKit's; give it threshold: {min_score: ...} to grade it)", strconv.FormatFloat(res.Score, 'f', 2, 64))
	return res, nil
}

func (c Check) unitNoun(n int) string {
	noun := "turns"
	if c.Entry.Role == RoleValidator {
		noun = "messages"
	}
	if n == 1 {
		return strings.TrimSuffix(noun, "s")
	}
	return noun
}

// units lists what the check evaluates on tr, and why nothing when none.
func (c Check) units(tr *evalkit.Transcript) ([]unit, string, error) {
	e := c.Entry
	if e.Enabled != nil && !*e.Enabled {
		return nil, "enabled: false", nil
	}
	switch {
	case e.Role == RoleValidator:
		return c.validatorUnits(tr)
	case e.Turn >= 0:
		return c.turnUnit(tr)
	case e.AllTurns || e.Trigger.perTurn():
		return c.perTurnUnits(tr)
	}
	if e.Trigger == SampleSessions && !c.sampled(0) {
		return nil, c.sampleWhy("the session was not sampled"), nil
	}
	if ok, why := e.When.Holds(tr.ToolCalls()); !ok {
		return nil, why, nil
	}
	return []unit{{tr: tr}}, "", nil
}

func (c Check) sampled(turn int) bool {
	if c.SampleAll {
		return true
	}
	pct := DefaultSamplePercentage
	if c.Entry.SamplePercentage != nil {
		pct = *c.Entry.SamplePercentage
	}
	h := fnv.New64a()
	h.Write([]byte(c.Session))
	h.Write([]byte(strconv.Itoa(turn)))
	return h.Sum64()%10000 < uint64(pct*100)
}

func (c Check) sampleWhy(what string) string {
	pct := DefaultSamplePercentage
	if c.Entry.SamplePercentage != nil {
		pct = *c.Entry.SamplePercentage
	}
	return fmt.Sprintf("sample_percentage %s: %s (EVALKIT_SAMPLE=all runs every sampled eval)", strconv.FormatFloat(pct, 'f', -1, 64), what)
}

// cut is tr up to and including message end.
func cut(tr *evalkit.Transcript, end int) *evalkit.Transcript {
	sub := *tr
	sub.Messages = tr.Messages[: end+1 : end+1]
	return &sub
}

// assistantTurns are tr's turns that hold an assistant message, with the
// index of each one's last message.
func assistantTurns(tr *evalkit.Transcript) (turns []evalkit.Turn, ends []int) {
	for _, t := range tr.Turns() {
		last := -1
		for i, m := range t.Messages {
			if m.Role == evalkit.RoleAssistant {
				last = t.Start + i
			}
		}
		if last >= 0 {
			turns, ends = append(turns, t), append(ends, last)
		}
	}
	return turns, ends
}

func (c Check) perTurnUnits(tr *evalkit.Transcript) ([]unit, string, error) {
	turns, ends := assistantTurns(tr)
	if len(turns) == 0 {
		return nil, "", fmt.Errorf("%s: %w: the transcript has no assistant turn", c.Entry.Type, assert.ErrNoOutput)
	}
	var out []unit
	why := ""
	for k, end := range ends {
		sub := cut(tr, end)
		if c.Entry.Trigger == SampleTurns && !c.sampled(turns[k].Index) {
			why = c.sampleWhy("no turn was sampled")
			continue
		}
		if ok, reason := c.Entry.When.Holds(sub.ToolCalls()); !ok {
			why = reason + " on any turn"
			continue
		}
		out = append(out, unit{name: fmt.Sprintf("turn %d", k+1), tr: sub})
	}
	return out, why, nil
}

func (c Check) turnUnit(tr *evalkit.Transcript) ([]unit, string, error) {
	n := 0
	for _, t := range tr.Turns() {
		if len(t.Messages) == 0 || t.Messages[0].Role != evalkit.RoleUser {
			continue
		}
		if n == c.Entry.Turn {
			end := -1
			for i, m := range t.Messages {
				if m.Role == evalkit.RoleAssistant {
					end = t.Start + i
				}
			}
			if end < 0 {
				return nil, "", fmt.Errorf("%s: %w: user turn %d has no assistant answer", c.Entry.Type, assert.ErrNoOutput, c.Entry.Turn+1)
			}
			sub := cut(tr, end)
			if ok, why := c.Entry.When.Holds(sub.ToolCalls()); !ok {
				return nil, why, nil
			}
			return []unit{{tr: sub}}, "", nil
		}
		n++
	}
	return nil, "", fmt.Errorf("%s: %w: the scenario's turn %d has no user message in the transcript (it has %d)", c.Entry.Type, assert.ErrNoOutput, c.Entry.Turn+1, n)
}

func (c Check) validatorUnits(tr *evalkit.Transcript) ([]unit, string, error) {
	dir := c.Entry.Direction
	if dir == "" {
		dir = "output"
	}
	var out []unit
	lastUser := -1
	for i, m := range tr.Messages {
		switch m.Role {
		case evalkit.RoleUser:
			lastUser = i
			if dir == "input" || dir == "both" {
				out = append(out, unit{name: fmt.Sprintf("messages[%d] (input)", i),
					tr: &evalkit.Transcript{Messages: []evalkit.Message{{Role: evalkit.RoleAssistant, Content: m.Content, Parts: m.Parts}}, Metadata: tr.Metadata}})
			}
		case evalkit.RoleAssistant:
			if dir == "input" || strings.TrimSpace(m.Content) == "" && len(m.Parts) == 0 {
				continue
			}
			msgs := []evalkit.Message{m}
			if lastUser >= 0 {
				msgs = []evalkit.Message{tr.Messages[lastUser], m}
			}
			out = append(out, unit{name: fmt.Sprintf("messages[%d] (output)", i), tr: &evalkit.Transcript{Messages: msgs, Metadata: tr.Metadata}})
		}
	}
	if len(out) == 0 {
		return nil, "", fmt.Errorf("%s: %w: no %s message to guard", c.Entry.Type, assert.ErrNoOutput, dir)
	}
	if ok, why := c.Entry.When.Holds(tr.ToolCalls()); !ok {
		return nil, why, nil
	}
	return out, "", nil
}

// Describe implements assert.Describer.
func (c Check) Describe() string {
	typ, params := c.Entry.Spec()
	reg := c.Registry
	if reg == nil {
		reg = assert.NewRegistry()
	}
	inner, err := reg.Build(typ, params)
	if err != nil {
		return typ
	}
	return assert.Describe(inner)
}
