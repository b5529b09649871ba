package benchdata

// The corpus: every bundled real τ-bench run (14 airline, 8 retail),
// passing and failing, each ending in a JSON answer made from the run's
// own data, with the checks a test makes of it and the hand-written Go a
// team would write instead.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/evalkit-go/evalkit"
)

// Run is one real τ-bench run as a test checks it: its JSON as a user's
// program reads it (Raw: the τ-bench record, or the retail conversation's
// {"messages", "tools"} object, with the answer appended as the last
// message), the transcript decoded from it, and the facts the checks are
// made from.
type Run struct {
	Name       string
	Raw        []byte
	Transcript *evalkit.Transcript
	Messages   int // in Transcript
	Reward     float64

	// What the checks are made from: the user the run served, its answer
	// (a JSON object: the last prose answer as "summary", the user id, the
	// tools called, the last tool result that is a JSON object as
	// "record"), and the ground-truth actions of expected_actions.json.
	UserID   string
	Answer   string
	Word     string // a word of the summary the answer must contain
	Tool0    string // the first tool called, "" for none
	RecordAt string // a key of the record holding a string
	RecordIs string // that string
	Expected []Action
}

// Action is a ground-truth action: a tool and the arguments it must be
// called with.
type Action struct {
	Name   string
	Kwargs map[string]any
}

// CorpusRuns reads the 22 bundled τ-bench runs with their ground truth
// and makes each one's answer.
func CorpusRuns() ([]Run, error) {
	dir := filepath.Join(Root(), "testdata", "tau_bench")
	airline, err := os.ReadFile(filepath.Join(dir, "airline_gpt4o_trajectories.json"))
	if err != nil {
		return nil, err
	}
	var records []json.RawMessage
	if err := json.Unmarshal(airline, &records); err != nil {
		return nil, err
	}
	retail, err := os.ReadFile(filepath.Join(dir, "retail_gpt4o_conversations.jsonl"))
	if err != nil {
		return nil, err
	}
	lines := bytes.Split(bytes.TrimSpace(retail), []byte("\n"))
	truthData, err := os.ReadFile(filepath.Join(dir, "expected_actions.json"))
	if err != nil {
		return nil, err
	}
	var truth []struct {
		Domain          string  `json:"domain"`
		TaskID          *int    `json:"task_id"`
		Trial           *int    `json:"trial"`
		Line            *int    `json:"line"`
		Reward          float64 `json:"reward"`
		UserID          string  `json:"user_id"`
		ExpectedActions []struct {
			Name   string         `json:"name"`
			Kwargs map[string]any `json:"kwargs"`
		} `json:"expected_actions"`
	}
	if err := json.Unmarshal(truthData, &truth); err != nil {
		return nil, err
	}
	var runs []Run
	for _, gt := range truth {
		r := Run{Reward: gt.Reward, UserID: gt.UserID}
		for _, a := range gt.ExpectedActions {
			r.Expected = append(r.Expected, Action{a.Name, a.Kwargs})
		}
		var raw []byte
		key := "traj"
		switch gt.Domain {
		case "airline":
			r.Name = fmt.Sprintf("airline/task_%d/trial_%d", *gt.TaskID, *gt.Trial)
			for _, rec := range records {
				var id struct {
					TaskID int `json:"task_id"`
					Trial  int `json:"trial"`
				}
				if json.Unmarshal(rec, &id) == nil && id.TaskID == *gt.TaskID && id.Trial == *gt.Trial {
					raw = rec
				}
			}
		case "retail":
			r.Name = fmt.Sprintf("retail/line_%d", *gt.Line)
			if *gt.Line < len(lines) {
				raw = lines[*gt.Line]
			}
			key = "messages"
		}
		if raw == nil {
			return nil, fmt.Errorf("benchdata: no run for %s", r.Name)
		}
		if err := r.answer(raw, key); err != nil {
			return nil, fmt.Errorf("benchdata: %s: %w", r.Name, err)
		}
		runs = append(runs, r)
	}
	if len(runs) != 22 {
		return nil, fmt.Errorf("benchdata: %d runs, want 22", len(runs))
	}
	return runs, nil
}

// answer makes the run's JSON answer from its own messages, appends it to
// the run's message list (under key) and decodes the result.
func (r *Run) answer(raw []byte, key string) error {
	tr, err := evalkit.Decode(raw)
	if err != nil {
		return err
	}
	var summary string
	record := json.RawMessage("{}")
	var tools []string
	for _, m := range tr.Messages {
		switch m.Role {
		case evalkit.RoleAssistant:
			if m.Content != "" {
				summary = m.Content
			}
			for _, c := range m.ToolCalls {
				if !slices.Contains(tools, c.Name) {
					tools = append(tools, c.Name)
				}
			}
		case evalkit.RoleTool:
			if s := strings.TrimSpace(m.Content); strings.HasPrefix(s, "{") && json.Valid([]byte(s)) {
				record = json.RawMessage(s)
			}
		}
	}
	if summary == "" {
		return errors.New("no prose answer")
	}
	if tools == nil {
		tools = []string{}
	} else {
		r.Tool0 = tools[0]
	}
	for _, w := range strings.Fields(summary) { // the first long word, else the longest
		if w = strings.Trim(w, ".,!?:*#()"); len(w) > len(r.Word) && !strings.ContainsAny(w, `"\`) {
			r.Word = w
			if len(w) >= 8 {
				break
			}
		}
	}
	var rec map[string]any
	if err := json.Unmarshal(record, &rec); err != nil {
		return err
	}
	keys := make([]string, 0, len(rec))
	for k := range rec {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if s, ok := rec[k].(string); ok {
			r.RecordAt, r.RecordIs = k, s
			break
		}
	}
	answer, err := json.MarshalIndent(struct {
		Summary string          `json:"summary"`
		UserID  string          `json:"user_id"`
		Tools   []string        `json:"tools"`
		Record  json.RawMessage `json:"record"`
	}{summary, r.UserID, tools, record}, "", "  ")
	if err != nil {
		return err
	}
	r.Answer = string(answer)
	return r.build(raw, key)
}

// build appends the answer to the run's JSON (re-encoded, numbers kept as
// written) and decodes it.
func (r *Run) build(raw []byte, key string) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil {
		return err
	}
	msgs, _ := doc[key].([]any)
	doc[key] = append(slices.Clone(msgs), map[string]any{"role": "assistant", "content": r.Answer})
	out, err := json.Marshal(doc)
	if err != nil {
		return err
	}
	r.Raw = out
	if r.Transcript, err = evalkit.Decode(out); err != nil {
		return err
	}
	r.Messages = len(r.Transcript.Messages)
	return nil
}

// CorpusVariants returns n copies of every run, in rounds (the runs, then
// the runs again), copy k's answer ending its summary in "(ref k)": a
// benchmark cycling through them never finds the answer it checks in a
// cache that a previous iteration filled, as a test checking each run
// once never does.
func CorpusVariants(runs []Run, n int) ([]Run, error) {
	var out []Run
	for k := range n {
		for _, r := range runs {
			v := r
			var a map[string]json.RawMessage
			if err := json.Unmarshal([]byte(r.Answer), &a); err != nil {
				return nil, err
			}
			var summary string
			if err := json.Unmarshal(a["summary"], &summary); err != nil {
				return nil, err
			}
			s, _ := json.Marshal(fmt.Sprintf("%s (ref %d)", summary, k))
			v.Answer = strings.Replace(r.Answer, string(a["summary"]), string(s), 1)
			key := "traj"
			if strings.HasPrefix(r.Name, "retail/") {
				key = "messages"
			}
			// The run's JSON without the answer it had: the messages up to it.
			dec := json.NewDecoder(bytes.NewReader(r.Raw))
			dec.UseNumber()
			var doc map[string]any
			if err := dec.Decode(&doc); err != nil {
				return nil, err
			}
			msgs, _ := doc[key].([]any)
			doc[key] = msgs[:len(msgs)-1]
			raw, err := json.Marshal(doc)
			if err != nil {
				return nil, err
			}
			if err := v.build(raw, key); err != nil {
				return nil, err
			}
			out = append(out, v)
		}
	}
	return out, nil
}

// CorpusMessages is the number of messages of runs' transcripts.
func CorpusMessages(runs []Run) int {
	n := 0
	for _, r := range runs {
		n += r.Messages
	}
	return n
}

// CorpusSchema is the JSON Schema of every run's answer.
func CorpusSchema() map[string]any {
	return map[string]any{
		"type":     "object",
		"required": []any{"summary", "user_id", "tools", "record"},
		"properties": map[string]any{
			"summary": map[string]any{"type": "string", "minLength": 1},
			"user_id": map[string]any{"type": "string", "pattern": "^[a-z]+(_[a-z]+)*_[0-9]{4}$"},
			"tools":   map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
			"record":  map[string]any{"type": "object"},
		},
	}
}

// answerUser is the corpus chain's regex over the answer.
const answerUser = `"user_id":\s*"[a-z]+(_[a-z]+)*_\d{4}"`

// excluded are what no answer may say.
var excluded = []string{"as an AI language model", "I cannot assist with"}

// Checks is the chain of eleven checks a test makes of the run, as
// registry specs: contains, content_excludes, regex, json_path ×3 and
// json_schema on the answer; tools_called, tool_args (every ground-truth
// action with its arguments), tool_call_sequence (the ground truth's
// order) and no_tool_errors (a result starting "Error: " is an error, as
// τ-bench reports a failed tool) on the calls. Runs τ-bench rewarded 0 fail
// some of them, as they should.
func (r *Run) Checks() []Spec {
	names, calls := r.expectedNames()
	tool0 := Spec{"json_path", map[string]any{"expression": "tools", "expected": []any{}}}
	if r.Tool0 != "" {
		tool0 = Spec{"json_path", map[string]any{"expression": "tools[0]", "expected": r.Tool0}}
	}
	record := Spec{"json_path", map[string]any{"expression": "record", "expected": map[string]any{}}}
	if r.RecordAt != "" {
		record = Spec{"json_path", map[string]any{"expression": "record." + r.RecordAt, "expected": r.RecordIs}}
	}
	return []Spec{
		{"contains", map[string]any{"patterns": []any{r.UserID, r.Word}}},
		{"content_excludes", map[string]any{"patterns": []any{excluded[0], excluded[1]}}},
		{"regex", map[string]any{"pattern": answerUser}},
		{"json_path", map[string]any{"expression": "user_id", "expected": r.UserID}},
		tool0,
		record,
		{"json_schema", map[string]any{"schema": CorpusSchema()}},
		{"tools_called", map[string]any{"tools": names}},
		{"tool_args", map[string]any{"calls": calls}},
		{"tool_call_sequence", map[string]any{"sequence": names}},
		{"no_tool_errors", map[string]any{"error_pattern": "^Error: "}},
	}
}

// expectedNames returns the ground truth's tools, each once in order of
// first use, and its actions as tool_args' calls.
func (r *Run) expectedNames() (names, calls []any) {
	for _, a := range r.Expected {
		if !slices.Contains(names, any(a.Name)) {
			names = append(names, a.Name)
		}
		calls = append(calls, map[string]any{"tool_name": a.Name, "expected_args": a.Kwargs})
	}
	return names, calls
}
