package judgeprompt

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// The steps of the multi-turn metrics (package assert's
// conversation_completeness, role_adherence, knowledge_retention,
// turn_relevancy). Each reads a conversation rendered in numbered turns
// (the request's Content, or its CONTEXT DOCUMENT 1) and lists items or
// gives one verdict per turn; the verdicts of a per-turn step carry the
// turn's number, so evalkit checks the judge judged the turns it was
// asked about, in order.

// TurnExtraction is an extraction step of a multi-turn metric: each item
// it lists is an object with its text under the key Item names and the
// number of the turn it comes from ("turn").
type TurnExtraction struct {
	// Step is the step to ask.
	Step MetricStep
	// Item is the key of each item's text: "intention", "fact".
	Item string
}

// IntentionsStep returns conversation_completeness's first step: the
// user's intentions in the conversation in Content, each with the turn it
// is first expressed in.
func IntentionsStep() TurnExtraction {
	return TurnExtraction{Item: "intention", Step: MetricStep{
		ID:     "conversation_completeness.intentions/1",
		Task:   `The CONTENT is a conversation between a user and an AI assistant, in numbered turns: each turn is a message of the user and the assistant's reply, with the tools the assistant called and their results. List the user's intentions: each distinct thing the user wants done or wants to find out over the conversation, as one short sentence in the user's own sense, with the number of the turn where the user first expresses it. When the user changes their mind, list the wish that stands. Greetings, thanks and small talk are not intentions. If the user expresses no intention, answer with an empty list.`,
		Schema: turnItemSchema("intentions", "intention"),
		List:   "intentions",
	}}
}

// KnowledgeStep returns knowledge_retention's first step: what the user
// tells the assistant in the conversation in Content, each fact with the
// turn it is given in.
func KnowledgeStep() TurnExtraction {
	return TurnExtraction{Item: "fact", Step: MetricStep{
		ID:     "knowledge_retention.knowledge/1",
		Task:   `The CONTENT is a conversation between a user and an AI assistant, in numbered turns. List the knowledge the user gives the assistant: each fact about the user, their situation, their request, their preferences or their constraints (a name, an id, a date, a choice, a limit) as one short, self-contained sentence, with the number of the turn where the user gives it. What the assistant says, and the user's questions, are not the user's knowledge. If the user gives none, answer with an empty list.`,
		Schema: turnItemSchema("knowledge", "fact"),
		List:   "knowledge",
	}}
}

// turnVerdictTasks are the per-turn verdict steps' templates, by metric:
// %[1]d is the number of turns judged, %[2]s their numbers, %[3]d the
// window (turn_relevancy). Any change to one must bump its version.
var turnVerdictTasks = map[string]struct {
	version int
	task    string
}{
	"role_adherence":      {1, `CONTEXT DOCUMENT 1 is the role an AI assistant was given: its system prompt or persona. The CONTENT is a conversation between a user and that assistant, in numbered turns. For each of the %[1]d turns listed below, decide whether the assistant's reply in that turn adheres to the role, reading the turns before it: "yes" when it stays in character and within the role's instructions and limits; "no" when it steps out of character, acts beyond or against its instructions, takes a tone the role rules out, or reveals what the role keeps private. Judge these turns, in this order: %[2]s. Answer with exactly %[1]d verdicts, one per listed turn in that order, each with the turn's number and a one-sentence reason that says what broke the role when the answer is no.`},
	"knowledge_retention": {1, `CONTEXT DOCUMENT 1 lists, numbered, what a user told an AI assistant and the turn in which they told it. The CONTENT is their conversation, in numbered turns. For each of the %[1]d turns listed below, decide whether the assistant's reply in that turn keeps what the user said in earlier turns: "no" when it forgets it — asks again for something the user already gave, contradicts it, or acts against it, in its text or its tool calls; "yes" otherwise, also when the turn needs nothing the user said. Judge these turns, in this order: %[2]s. Answer with exactly %[1]d verdicts, one per listed turn in that order, each with the turn's number and a one-sentence reason that, when the answer is no, names what was lost and the turn it came from.`},
	"turn_relevancy":      {1, `The CONTENT is a conversation between a user and an AI assistant, in numbered turns. For each of the %[1]d turns listed below, decide whether the assistant's reply in that turn is relevant to the user's message of the same turn, read in the context of at most the %[3]d turns that end with it: "yes" when it answers it, acts on it, or asks for what it needs to go on; "no" when it ignores the message, answers something else, or drifts off topic. Judge these turns, in this order: %[2]s. Answer with exactly %[1]d verdicts, one per listed turn in that order, each with the turn's number and a one-sentence reason that says what was missed when the answer is no.`},
}

// TurnVerdictStep returns a per-turn step of metric (role_adherence,
// knowledge_retention, turn_relevancy) over the numbered turns: one
// verdict "yes" or "no" per turn, each with the turn's number. window is
// turn_relevancy's window, in turns (1 or more); the others ignore it.
func TurnVerdictStep(metric string, turns []int, window int) (MetricStep, []string, error) {
	t, ok := turnVerdictTasks[metric]
	if !ok {
		return MetricStep{}, nil, fmt.Errorf("judgeprompt: no per-turn verdict step for the metric %q", metric)
	}
	if len(turns) == 0 {
		return MetricStep{}, nil, fmt.Errorf("judgeprompt: a verdict step needs at least one turn")
	}
	nums := make([]string, len(turns))
	for i, n := range turns {
		nums[i] = strconv.Itoa(n)
	}
	words := []string{"yes", "no"}
	enum, _ := json.Marshal(words)
	item := `{"type":"object","properties":{"turn":{"type":"integer"},"reason":{"type":"string"},"verdict":{"type":"string","enum":` + string(enum) + `}},"required":["turn","reason","verdict"],"additionalProperties":false}`
	return MetricStep{
		ID:     metric + ".verdicts/" + strconv.Itoa(t.version),
		Task:   fmt.Sprintf(t.task, len(turns), strings.Join(nums, ", "), max(window, 1)),
		Schema: json.RawMessage(`{"type":"object","properties":{"verdicts":{"type":"array","items":` + item + `}},"required":["verdicts"],"additionalProperties":false}`),
		List:   "verdicts",
	}, words, nil
}

// turnItemSchema is the answer of an extraction whose items carry a turn.
func turnItemSchema(list, item string) json.RawMessage {
	obj := `{"type":"object","properties":{"` + item + `":{"type":"string"},"turn":{"type":"integer"}},"required":["` + item + `","turn"],"additionalProperties":false}`
	return json.RawMessage(`{"type":"object","properties":{"` + list + `":{"type":"array","items":` + obj + `}},"required":["` + list + `"],"additionalProperties":false}`)
}
