package evalkit

// Decoding what evalkit's JSON records beside the messages: agents, the
// workflow, the composition, prior results and guardrail results. Each is
// checked so that a check reading it never has to guess.

import (
	"encoding/json"
	"math"
	"strconv"
)

// rawObject reads a JSON object's fields undecoded.
func rawObject(raw json.RawMessage, at *loc, want string) (map[string]json.RawMessage, error) {
	if firstByte(raw) != '{' {
		return nil, errAt(at, "want %s, got %s", want, rawKind(raw))
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, errAt(at, "invalid JSON: %s", jsonMsg(err))
	}
	return obj, nil
}

// requiredString reads a field that must be a non-empty string.
func requiredString(obj map[string]json.RawMessage, key string, at *loc) (string, error) {
	s, err := rawString(obj[key], at.field(key))
	if err != nil {
		return "", err
	}
	if s == "" {
		return "", errAt(at.field(key), "missing %s: want a non-empty string", key)
	}
	return s, nil
}

// rawBool reads a boolean field; present reports whether it was there (and
// not null).
func rawBool(raw json.RawMessage, at *loc) (v, present bool, err error) {
	if len(raw) == 0 || isNull(raw) {
		return false, false, nil
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		return false, false, errAt(at, "want true or false, got %s", rawKind(raw))
	}
	return v, true, nil
}

func decodeGuardrails(raw json.RawMessage, at *loc) ([]GuardrailResult, error) {
	if len(raw) == 0 || isNull(raw) {
		return nil, nil
	}
	elems, err := rawArray(raw, at)
	if err != nil {
		return nil, err
	}
	out := make([]GuardrailResult, 0, len(elems))
	for i, e := range elems {
		eAt := at.elem(i)
		obj, err := rawObject(e, eAt, "a guardrail result {type, direction, triggered, reason}")
		if err != nil {
			return nil, err
		}
		var g GuardrailResult
		if g.Type, err = requiredString(obj, "type", eAt); err != nil {
			return nil, err
		}
		if g.Direction, err = rawString(obj["direction"], eAt.field("direction")); err != nil {
			return nil, err
		}
		switch g.Direction {
		case "", GuardrailInput, GuardrailOutput:
		default:
			return nil, errAt(eAt.field("direction"), "unknown direction %q: want %q or %q", g.Direction, GuardrailInput, GuardrailOutput)
		}
		var present bool
		if g.Triggered, present, err = rawBool(obj["triggered"], eAt.field("triggered")); err != nil {
			return nil, err
		}
		if !present {
			// A result that does not say whether it fired must not read as
			// "did not fire".
			return nil, errAt(eAt.field("triggered"), "missing triggered: want true or false")
		}
		if g.Reason, err = rawString(obj["reason"], eAt.field("reason")); err != nil {
			return nil, err
		}
		out = append(out, g)
	}
	return out, nil
}

func decodeAgents(raw json.RawMessage, at *loc) ([]AgentSpec, error) {
	elems, err := rawArray(raw, at)
	if err != nil {
		return nil, err
	}
	out := make([]AgentSpec, 0, len(elems))
	names, tools := map[string]int{}, map[string]int{}
	for i, e := range elems {
		eAt := at.elem(i)
		obj, err := rawObject(e, eAt, "an agent {name, description, tool}")
		if err != nil {
			return nil, err
		}
		var a AgentSpec
		if a.Name, err = requiredString(obj, "name", eAt); err != nil {
			return nil, err
		}
		if a.Description, err = rawString(obj["description"], eAt.field("description")); err != nil {
			return nil, err
		}
		if a.Tool, err = rawString(obj["tool"], eAt.field("tool")); err != nil {
			return nil, err
		}
		if j, dup := names[a.Name]; dup {
			return nil, errAt(eAt.field("name"), "agent %q is declared twice (agents[%d])", a.Name, j)
		}
		if j, dup := tools[a.toolName()]; dup {
			return nil, errAt(eAt, "tool %q hands off to two agents (agents[%d] too): which one a call reaches is ambiguous", a.toolName(), j)
		}
		names[a.Name], tools[a.toolName()] = i, i
		out = append(out, a)
	}
	return out, nil
}

func decodeWorkflow(raw json.RawMessage, at *loc) (*Workflow, error) {
	obj, err := rawObject(raw, at, "a workflow {initial, transitions, complete}")
	if err != nil {
		return nil, err
	}
	w := &Workflow{}
	if w.Initial, err = requiredString(obj, "initial", at); err != nil {
		return nil, err
	}
	if w.Complete, _, err = rawBool(obj["complete"], at.field("complete")); err != nil {
		return nil, err
	}
	if raw, ok := obj["transitions"]; ok && !isNull(raw) {
		elems, err := rawArray(raw, at.field("transitions"))
		if err != nil {
			return nil, err
		}
		state := w.Initial
		for i, e := range elems {
			eAt := at.field("transitions").elem(i)
			t, err := rawObject(e, eAt, "a transition {from, to, event}")
			if err != nil {
				return nil, err
			}
			var tr Transition
			if tr.To, err = requiredString(t, "to", eAt); err != nil {
				return nil, err
			}
			if tr.From, err = rawString(t["from"], eAt.field("from")); err != nil {
				return nil, err
			}
			if tr.From == "" {
				tr.From = state
			} else if tr.From != state {
				return nil, errAt(eAt.field("from"), "from %q, but the workflow was in %q: the history does not chain", tr.From, state)
			}
			if tr.Event, err = rawString(t["event"], eAt.field("event")); err != nil {
				return nil, err
			}
			w.Transitions = append(w.Transitions, tr)
			state = tr.To
		}
	}
	return w, nil
}

func decodeComposition(raw json.RawMessage, at *loc) (*Composition, error) {
	obj, err := rawObject(raw, at, "a composition {steps, output}")
	if err != nil {
		return nil, err
	}
	c := &Composition{}
	if c.Output, err = rawString(obj["output"], at.field("output")); err != nil {
		return nil, err
	}
	seen := map[string]string{}
	if c.Steps, err = decodeSteps(obj["steps"], at.field("steps"), seen); err != nil {
		return nil, err
	}
	return c, nil
}

func decodeSteps(raw json.RawMessage, at *loc, seen map[string]string) ([]CompositionStep, error) {
	if len(raw) == 0 || isNull(raw) {
		return nil, nil
	}
	elems, err := rawArray(raw, at)
	if err != nil {
		return nil, err
	}
	out := make([]CompositionStep, 0, len(elems))
	for i, e := range elems {
		eAt := at.elem(i)
		obj, err := rawObject(e, eAt, "a step {name, kind, status, output, branch_taken, error, steps}")
		if err != nil {
			return nil, err
		}
		var s CompositionStep
		if s.Name, err = requiredString(obj, "name", eAt); err != nil {
			return nil, err
		}
		if where, dup := seen[s.Name]; dup {
			return nil, errAt(eAt.field("name"), "step %q is also at %s: a lookup by name would be ambiguous", s.Name, where)
		}
		seen[s.Name] = eAt.String()
		for _, f := range []struct {
			key string
			dst *string
		}{{"kind", &s.Kind}, {"status", &s.Status}, {"output", &s.Output}, {"branch_taken", &s.BranchTaken}, {"error", &s.Error}} {
			if *f.dst, err = rawString(obj[f.key], eAt.field(f.key)); err != nil {
				return nil, err
			}
		}
		switch s.Kind {
		case "", StepKindStep, StepKindBranch, StepKindParallel:
		default:
			return nil, errAt(eAt.field("kind"), "unknown kind %q: want step, branch or parallel", s.Kind)
		}
		switch s.Status {
		case "", StepCompleted, StepFailed, StepSkipped:
		default:
			return nil, errAt(eAt.field("status"), "unknown status %q: want completed, failed or skipped", s.Status)
		}
		if s.BranchTaken != "" && s.Kind != StepKindBranch {
			return nil, errAt(eAt.field("branch_taken"), "only a branch step takes a branch, this one has kind %q", kindOrStep(s.Kind))
		}
		if s.Steps, err = decodeSteps(obj["steps"], eAt.field("steps"), seen); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

func kindOrStep(kind string) string {
	if kind == "" {
		return StepKindStep
	}
	return kind
}

func decodePriorResults(raw json.RawMessage, at *loc) ([]PriorResult, error) {
	elems, err := rawArray(raw, at)
	if err != nil {
		return nil, err
	}
	out := make([]PriorResult, 0, len(elems))
	for i, e := range elems {
		eAt := at.elem(i)
		obj, err := rawObject(e, eAt, "a prior result {id, type, passed, score, summary, error}")
		if err != nil {
			return nil, err
		}
		var r PriorResult
		if r.Type, err = requiredString(obj, "type", eAt); err != nil {
			return nil, err
		}
		for _, f := range []struct {
			key string
			dst *string
		}{{"id", &r.ID}, {"summary", &r.Summary}, {"error", &r.Error}} {
			if *f.dst, err = rawString(obj[f.key], eAt.field(f.key)); err != nil {
				return nil, err
			}
		}
		var present bool
		if r.Passed, present, err = rawBool(obj["passed"], eAt.field("passed")); err != nil {
			return nil, err
		}
		switch {
		case r.Error != "" && r.Passed:
			return nil, errAt(eAt.field("passed"), "passed is true beside an error: a result that could not be evaluated did not pass")
		case r.Error == "" && !present:
			return nil, errAt(eAt.field("passed"), "missing passed: want true or false (or an error saying why there is no outcome)")
		}
		if raw, ok := obj["score"]; ok && !isNull(raw) {
			var score float64
			if firstByte(raw) == '"' || json.Unmarshal(raw, &score) != nil {
				return nil, errAt(eAt.field("score"), "want a number in [0,1], got %s", rawKind(raw))
			}
			if score < 0 || score > 1 || math.IsNaN(score) {
				return nil, errAt(eAt.field("score"), "want a number in [0,1], got %s", strconv.FormatFloat(score, 'g', -1, 64))
			}
			r.Score = &score
		}
		out = append(out, r)
	}
	return out, nil
}
