package evalkit

// Workflows (state machines) and compositions (pipelines of steps): the
// structure some agents run in, recorded beside the messages.

// Workflow is the state machine a run went through: where it started, each
// transition it took, and whether it reached a terminal state. The state a
// message was produced in is on the message (Message.State), so a check can
// tell a state that was entered from one that spoke (PromptKit's
// spoke_in_state).
type Workflow struct {
	// Initial is the state the run started in.
	Initial string `json:"initial"`
	// Transitions are the state changes in the order they happened. Each
	// one's From is the state before it (Initial, then the previous To).
	Transitions []Transition `json:"transitions,omitempty"`
	// Complete reports that the workflow reached a terminal state, as the
	// workflow engine recorded it (PromptKit's workflow_complete).
	Complete bool `json:"complete,omitempty"`
}

// Transition is one change of workflow state.
type Transition struct {
	// From is the state left; To the state entered.
	From string `json:"from"`
	To   string `json:"to"`
	// Event is what triggered the transition, when recorded (a tool call,
	// an intent, a rule name).
	Event string `json:"event,omitempty"`
}

// CurrentState is the state the workflow is in at the end of the run: the
// last transition's To, or Initial when there was none. It is "" for a nil
// workflow.
func (w *Workflow) CurrentState() string {
	if w == nil {
		return ""
	}
	if n := len(w.Transitions); n > 0 {
		return w.Transitions[n-1].To
	}
	return w.Initial
}

// States returns the states the workflow was in, in order: Initial, then
// each transition's To (a state entered twice appears twice). It is nil for
// a nil workflow.
func (w *Workflow) States() []string {
	if w == nil {
		return nil
	}
	out := make([]string, 0, len(w.Transitions)+1)
	out = append(out, w.Initial)
	for _, tr := range w.Transitions {
		out = append(out, tr.To)
	}
	return out
}

// Composition step kinds (CompositionStep.Kind).
const (
	// StepKindStep is a plain step (the default when Kind is empty).
	StepKindStep = "step"
	// StepKindBranch is a step that chose one target among several; the
	// target it took is BranchTaken.
	StepKindBranch = "branch"
	// StepKindParallel is a group of steps run in parallel, its Steps.
	StepKindParallel = "parallel"
)

// Composition step statuses (CompositionStep.Status).
const (
	StepCompleted = "completed"
	StepFailed    = "failed"
	StepSkipped   = "skipped"
)

// Composition is a run organised as a pipeline of named steps, branches and
// parallel groups, as PromptKit's composition_* checks read it.
type Composition struct {
	// Steps are the top-level steps in the order they ran. Step names are
	// unique across the whole tree.
	Steps []CompositionStep `json:"steps"`
	// Output is the composition's final output as the runtime returned it
	// (PromptKit's composition_output); empty when none was recorded.
	Output string `json:"output,omitempty"`
}

// CompositionStep is one step of a composition.
type CompositionStep struct {
	// Name is the step's name, unique in its composition.
	Name string `json:"name"`
	// Kind is StepKindStep (or empty), StepKindBranch or StepKindParallel.
	Kind string `json:"kind,omitempty"`
	// Status is StepCompleted, StepFailed, StepSkipped, or empty when the
	// runtime did not record it (the step may not have finished).
	Status string `json:"status,omitempty"`
	// Output is the step's output text, when recorded.
	Output string `json:"output,omitempty"`
	// BranchTaken is, on a branch step, the name of the target it took.
	BranchTaken string `json:"branch_taken,omitempty"`
	// Error is the step's error message, when it failed.
	Error string `json:"error,omitempty"`
	// Steps are the step's children: a parallel group's members, a
	// branch's or sub-pipeline's steps, in order.
	Steps []CompositionStep `json:"steps,omitempty"`
}

// Step finds a step by name anywhere in the composition, depth first. It
// returns false when there is none (or the composition is nil).
func (c *Composition) Step(name string) (CompositionStep, bool) {
	if c == nil {
		return CompositionStep{}, false
	}
	return findStep(c.Steps, name)
}

func findStep(steps []CompositionStep, name string) (CompositionStep, bool) {
	for _, s := range steps {
		if s.Name == name {
			return s, true
		}
		if found, ok := findStep(s.Steps, name); ok {
			return found, true
		}
	}
	return CompositionStep{}, false
}
