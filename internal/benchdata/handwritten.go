package benchdata

// The hand-written Go the corpus benchmarks measure evalkit against: the
// runs decoded with encoding/json into plain structs, and the corpus
// chain's eleven checks by hand.

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// PlainRecord is a run as a team's own program decodes it with
// encoding/json: a τ-bench record ("traj") or a conversation
// ("messages", "tools"), into plain structs holding what the checks and
// evalkit's Transcript hold.
type PlainRecord struct {
	TaskID   *float64       `json:"task_id"`
	Trial    *float64       `json:"trial"`
	Reward   *float64       `json:"reward"`
	Traj     []PlainMessage `json:"traj"`
	Messages []PlainMessage `json:"messages"`
	Tools    []struct {
		Type     string `json:"type"`
		Function struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			Parameters  json.RawMessage `json:"parameters"`
		} `json:"function"`
	} `json:"tools"`
}

// PlainMessage is an OpenAI Chat Completions message in plain structs.
type PlainMessage struct {
	Role       string  `json:"role"`
	Content    *string `json:"content"`
	Name       string  `json:"name"`
	ToolCallID string  `json:"tool_call_id"`
	ToolCalls  []struct {
		ID       string `json:"id"`
		Type     string `json:"type"`
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
}

// DecodePlain is the hand-written decode: encoding/json into PlainRecord.
func DecodePlain(raw []byte) (*PlainRecord, error) {
	var rec PlainRecord
	if err := json.Unmarshal(raw, &rec); err != nil {
		return nil, err
	}
	return &rec, nil
}

// Msgs returns the record's messages, whichever key held them.
func (p *PlainRecord) Msgs() []PlainMessage {
	if p.Traj != nil {
		return p.Traj
	}
	return p.Messages
}

// userPattern is the corpus regex, compiled once as hand-written code
// would; idPattern is the schema's user id pattern.
var (
	userPattern = regexp.MustCompile(answerUser)
	idPattern   = regexp.MustCompile(`^[a-z]+(_[a-z]+)*_[0-9]{4}$`)
)

// HandWrittenRun makes r's eleven checks on msgs by hand, as a team
// writing its own test would: the answer decoded once with encoding/json,
// its schema checked with type switches, the calls linked to their
// results once with a map, each expected action looked for among the
// calls of its tool by decoding their arguments and comparing, a failed
// comparison reported with the arguments it saw. It returns a message for
// each check that fails, as a test's t.Errorf calls would, each starting
// with the check's type.
func HandWrittenRun(r *Run, msgs []PlainMessage) []string {
	h := Hand{run: r, msgs: msgs}
	var fails []string
	for i := range HandChecks {
		if f := h.Check(i); f != "" {
			fails = append(fails, f)
		}
	}
	return fails
}

// HandChecks is the number of checks Hand makes: those of Run.Checks, in
// the same order.
const HandChecks = 11

// Hand makes a run's checks by hand, one at a time, sharing what checks
// of one run share (the answer found and decoded once, the calls linked
// once), as hand-written test code does.
type Hand struct {
	run    *Run
	msgs   []PlainMessage
	answer *string
	lower  string
	doc    map[string]any
	docErr error
	calls  []handCall
	linked bool
}

type handCall struct {
	name, args string
	result     *string
}

// NewHand starts the hand-written checks of r on msgs.
func NewHand(r *Run, msgs []PlainMessage) *Hand { return &Hand{run: r, msgs: msgs} }

func (h *Hand) text() string {
	if h.answer == nil {
		h.answer = new(string)
		for i := len(h.msgs) - 1; i >= 0; i-- {
			if h.msgs[i].Role == "assistant" && h.msgs[i].Content != nil {
				h.answer = h.msgs[i].Content
				break
			}
		}
		h.lower = strings.ToLower(*h.answer)
	}
	return *h.answer
}

func (h *Hand) json() map[string]any {
	if h.doc == nil && h.docErr == nil {
		if h.docErr = json.Unmarshal([]byte(h.text()), &h.doc); h.docErr == nil && h.doc == nil {
			h.docErr = errors.New("null")
		}
	}
	return h.doc
}

func (h *Hand) link() []handCall {
	if !h.linked {
		h.linked = true
		open := map[string]int{}
		for _, m := range h.msgs {
			for _, c := range m.ToolCalls {
				open[c.ID] = len(h.calls)
				h.calls = append(h.calls, handCall{name: c.Function.Name, args: c.Function.Arguments})
			}
			if m.Role == "tool" {
				if i, ok := open[m.ToolCallID]; ok {
					h.calls[i].result = m.Content
					delete(open, m.ToolCallID)
				}
			}
		}
	}
	return h.calls
}

// Check makes check i (of Run.Checks) and returns its failure, or "".
func (h *Hand) Check(i int) string {
	r := h.run
	switch i {
	case 0:
		h.text()
		for _, p := range []string{r.UserID, r.Word} {
			if !strings.Contains(h.lower, strings.ToLower(p)) {
				return fmt.Sprintf("contains: answer lacks %q", p)
			}
		}
	case 1: // every assistant message: what an agent must not say, it must never say
		for _, m := range h.msgs {
			if m.Role != "assistant" || m.Content == nil || *m.Content == "" {
				continue
			}
			lower := strings.ToLower(*m.Content)
			for _, p := range excluded {
				if strings.Contains(lower, strings.ToLower(p)) {
					return fmt.Sprintf("content_excludes: the agent says %q", p)
				}
			}
		}
	case 2:
		if !userPattern.MatchString(h.text()) {
			return "regex: no user id in the answer"
		}
	case 3:
		if doc := h.json(); doc["user_id"] != r.UserID {
			return fmt.Sprintf("json_path: user_id: got %v, want %q (%v)", doc["user_id"], r.UserID, h.docErr)
		}
	case 4:
		tools, _ := h.json()["tools"].([]any)
		if r.Tool0 == "" && len(tools) != 0 || r.Tool0 != "" && (len(tools) == 0 || tools[0] != r.Tool0) {
			return fmt.Sprintf("json_path: tools[0]: got %v, want %q", tools, r.Tool0)
		}
	case 5:
		rec, _ := h.json()["record"].(map[string]any)
		if r.RecordAt != "" && rec[r.RecordAt] != r.RecordIs || r.RecordAt == "" && rec == nil {
			return fmt.Sprintf("json_path: record.%s: got %v, want %q", r.RecordAt, rec[r.RecordAt], r.RecordIs)
		}
	case 6:
		if err := handCorpusSchema(h.json()); err != nil {
			return "json_schema: " + err.Error()
		}
	case 7:
		calls := h.link()
		names, _ := r.expectedNames()
		for _, n := range names {
			if !slices.ContainsFunc(calls, func(c handCall) bool { return c.name == n }) {
				return fmt.Sprintf("tools_called: %s not called", n)
			}
		}
	case 8:
		calls := h.link()
		used := make([]bool, len(calls))
		var fails []string
		for _, want := range r.Expected {
			found, closest := false, ""
			for i, c := range calls {
				if used[i] || c.name != want.Name {
					continue
				}
				var args map[string]any
				if json.Unmarshal([]byte(c.args), &args) != nil {
					continue
				}
				if subsetOf(want.Kwargs, args) {
					used[i], found = true, true
					break
				}
				closest = c.args
			}
			if !found {
				fails = append(fails, fmt.Sprintf("no call %s(%v); closest call's arguments: %s", want.Name, want.Kwargs, closest))
			}
		}
		if len(fails) > 0 {
			return "tool_args: " + strings.Join(fails, "; ")
		}
	case 9:
		calls := h.link()
		names, _ := r.expectedNames()
		next := 0
		for _, c := range calls {
			if next < len(names) && c.name == names[next] {
				next++
			}
		}
		if next < len(names) {
			return fmt.Sprintf("tool_call_sequence: step %d %s not found", next+1, names[next])
		}
	case 10:
		for _, c := range h.link() {
			if c.result != nil && strings.HasPrefix(*c.result, "Error: ") {
				return fmt.Sprintf("no_tool_errors: %s failed: %s", c.name, *c.result)
			}
		}
	}
	return ""
}

// subsetOf reports whether got has every key of want with an equal value,
// objects compared the same way and lists element by element.
func subsetOf(want, got any) bool {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return false
		}
		for k, wv := range w {
			gv, ok := g[k]
			if !ok || !subsetOf(wv, gv) {
				return false
			}
		}
		return true
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return false
		}
		for i := range w {
			if !subsetOf(w[i], g[i]) {
				return false
			}
		}
		return true
	}
	return want == got
}

// handCorpusSchema checks what CorpusSchema says, by hand.
func handCorpusSchema(doc map[string]any) error {
	if doc == nil {
		return errors.New("not an object")
	}
	for _, k := range []string{"summary", "user_id", "tools", "record"} {
		if _, ok := doc[k]; !ok {
			return fmt.Errorf("missing %s", k)
		}
	}
	if s, ok := doc["summary"].(string); !ok || s == "" {
		return errors.New("summary")
	}
	if s, ok := doc["user_id"].(string); !ok || !idPattern.MatchString(s) {
		return errors.New("user_id")
	}
	tools, ok := doc["tools"].([]any)
	if !ok {
		return errors.New("tools")
	}
	for _, t := range tools {
		if _, ok := t.(string); !ok {
			return errors.New("tools: not a string")
		}
	}
	if _, ok := doc["record"].(map[string]any); !ok {
		return errors.New("record")
	}
	return nil
}
