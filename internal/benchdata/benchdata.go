// Package benchdata holds what evalkit's benchmarks share: the transcripts
// they read, built from the real τ-bench runs in testdata, and the
// hand-written Go they are measured against. Only benchmarks import it.
//
//	tr, err := benchdata.TauAnswer()
//	err = benchdata.HandWritten(tr) // the chain of checks, by hand
//
// The chain is the common deterministic checks a test makes on an agent's
// run: contains, regex, json_path ×3, json_schema, tools_called, tool_args,
// tool_call_sequence and no_tool_errors. Chain holds them as registry
// specs; HandWritten does the same work with encoding/json and loops, as a
// team writing its own test would.
package benchdata

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/evalkit-go/evalkit"
)

// Root returns the module's root directory, found from this file's path,
// so benchmarks of any package read the same testdata.
func Root() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "."
	}
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// TauRuns reads the 14 real τ-bench airline runs in testdata.
func TauRuns() ([]*evalkit.Transcript, error) {
	return evalkit.LoadAll(filepath.Join(Root(), "testdata", "tau_bench", "airline_gpt4o_trajectories.json"))
}

// TauAnswer is τ-bench airline task 5, trial 1 (reward 1: six tool calls,
// none failed, the reservation updated), whose last assistant message is
// the answer a structured-output agent gives instead of prose: a JSON
// object holding the summary the agent wrote and the reservation its last
// tool call returned.
func TauAnswer() (*evalkit.Transcript, error) {
	runs, err := TauRuns()
	if err != nil {
		return nil, err
	}
	for _, tr := range runs {
		if tr.Metadata["task_id"] != float64(5) || tr.Metadata["trial"] != float64(1) {
			continue
		}
		last := -1
		var reservation string
		for i, m := range tr.Messages {
			switch m.Role {
			case evalkit.RoleAssistant:
				if m.Content != "" {
					last = i
				}
			case evalkit.RoleTool:
				reservation = m.Content
			}
		}
		if last < 0 || !json.Valid([]byte(reservation)) {
			return nil, errors.New("benchdata: τ-bench task 5 trial 1 changed: no answer or no reservation")
		}
		summary, _ := json.Marshal(tr.Messages[last].Content)
		out := *tr
		out.Messages = slices.Clone(tr.Messages[:last+1])
		out.Messages[last].Content = `{"summary": ` + string(summary) + `, "status": "updated", "reservation": ` + reservation + `}`
		return &out, nil
	}
	return nil, errors.New("benchdata: no τ-bench run for task 5 trial 1")
}

// Variants returns n copies of tr whose last message's content differs
// (its summary ends in "(ref N)"), for benchmarks that must not find
// the previous iteration's output in a cache: a test checks each run
// once. Messages other than the last are shared.
func Variants(tr *evalkit.Transcript, n int) []*evalkit.Transcript {
	out := make([]*evalkit.Transcript, n)
	last := len(tr.Messages) - 1
	for i := range out {
		c := *tr
		c.Messages = slices.Clone(tr.Messages)
		c.Messages[last].Content = strings.Replace(c.Messages[last].Content, `", "status"`, fmt.Sprintf(` (ref %d)", "status"`, i), 1)
		out[i] = &c
	}
	return out
}

// Spec is one check of the chain, as a case file writes it.
type Spec struct {
	Type   string
	Params map[string]any
}

// Schema is the chain's JSON Schema for the answer.
func Schema() map[string]any {
	return map[string]any{
		"type":     "object",
		"required": []any{"summary", "status", "reservation"},
		"properties": map[string]any{
			"summary": map[string]any{"type": "string", "minLength": 1},
			"status":  map[string]any{"enum": []any{"updated", "cancelled", "unchanged"}},
			"reservation": map[string]any{
				"type":     "object",
				"required": []any{"reservation_id", "cabin", "flights", "passengers", "total_baggages"},
				"properties": map[string]any{
					"reservation_id": map[string]any{"type": "string", "pattern": "^[A-Z0-9]{6}$"},
					"cabin":          map[string]any{"enum": []any{"basic_economy", "economy", "business"}},
					"total_baggages": map[string]any{"type": "integer", "minimum": 0},
					"flights": map[string]any{"type": "array", "minItems": 1, "items": map[string]any{
						"type":     "object",
						"required": []any{"flight_number", "date", "price"},
						"properties": map[string]any{
							"flight_number": map[string]any{"type": "string"},
							"price":         map[string]any{"type": "number", "minimum": 0},
						},
					}},
					"passengers": map[string]any{"type": "array", "minItems": 1},
				},
			},
		},
	}
}

// Chain is the chain of checks on TauAnswer, as registry specs. Every
// check passes.
func Chain() []Spec {
	return []Spec{
		{"contains", map[string]any{"patterns": []any{"successfully updated", "FQ8APE"}}},
		{"regex", map[string]any{"pattern": `"flight_number": "HAT\d{3}"`}},
		{"json_path", map[string]any{"expression": "reservation.reservation_id", "expected": "FQ8APE"}},
		{"json_path", map[string]any{"expression": "reservation.total_baggages", "expected": 3}},
		{"json_path", map[string]any{"expression": "reservation.passengers[0].last_name", "expected": "Rossi"}},
		{"json_schema", map[string]any{"schema": Schema()}},
		{"tools_called", map[string]any{"tools": []any{"get_user_details", "update_reservation_baggages"}}},
		{"tool_args", map[string]any{"tool_name": "update_reservation_baggages", "expected_args": map[string]any{"reservation_id": "FQ8APE", "total_baggages": 3}}},
		{"tool_call_sequence", map[string]any{"sequence": []any{"get_user_details", "get_reservation_details", "update_reservation_passengers", "update_reservation_baggages"}}},
		{"no_tool_errors", map[string]any{}},
	}
}

// flightNumber is the chain's regex, compiled once as hand-written code
// would.
var flightNumber = regexp.MustCompile(`"flight_number": "HAT\d{3}"`)

// HandWritten makes the chain's checks on tr by hand: the answer decoded
// once with encoding/json, the schema's constraints checked with loops
// and type switches, the tool calls found by walking the messages. It
// returns the first check that fails.
func HandWritten(tr *evalkit.Transcript) error {
	var answer string
	for i := len(tr.Messages) - 1; i >= 0; i-- {
		if tr.Messages[i].Role == evalkit.RoleAssistant {
			answer = tr.Messages[i].Content
			break
		}
	}
	lower := strings.ToLower(answer)
	for _, p := range []string{"successfully updated", "fq8ape"} {
		if !strings.Contains(lower, p) {
			return fmt.Errorf("contains: missing %q", p)
		}
	}
	if !flightNumber.MatchString(answer) {
		return errors.New("regex: no match")
	}

	var doc map[string]any
	if err := json.Unmarshal([]byte(answer), &doc); err != nil {
		return fmt.Errorf("json: %w", err)
	}
	res, _ := doc["reservation"].(map[string]any)
	if res["reservation_id"] != "FQ8APE" {
		return errors.New("json_path: reservation_id")
	}
	if res["total_baggages"] != 3.0 {
		return errors.New("json_path: total_baggages")
	}
	passengers, _ := res["passengers"].([]any)
	if len(passengers) == 0 {
		return errors.New("json_path: no passengers")
	}
	if p0, _ := passengers[0].(map[string]any); p0["last_name"] != "Rossi" {
		return errors.New("json_path: last_name")
	}
	if err := handSchema(doc); err != nil {
		return fmt.Errorf("json_schema: %w", err)
	}

	type call struct {
		name, args string
		isError    bool
	}
	var calls []call
	byID := map[string]int{}
	for _, m := range tr.Messages {
		for _, c := range m.ToolCalls {
			byID[c.ID] = len(calls)
			calls = append(calls, call{name: c.Name, args: string(c.Args)})
		}
		if m.Role == evalkit.RoleTool && m.IsError {
			if i, ok := byID[m.ToolCallID]; ok {
				calls[i].isError = true
			}
		}
	}
	for _, want := range []string{"get_user_details", "update_reservation_baggages"} {
		if !slices.ContainsFunc(calls, func(c call) bool { return c.name == want }) {
			return fmt.Errorf("tools_called: missing %s", want)
		}
	}
	matched := false
	for _, c := range calls {
		if c.name != "update_reservation_baggages" {
			continue
		}
		var args map[string]any
		if json.Unmarshal([]byte(c.args), &args) == nil && args["reservation_id"] == "FQ8APE" && args["total_baggages"] == 3.0 {
			matched = true
			break
		}
	}
	if !matched {
		return errors.New("tool_args: no matching call")
	}
	seq := []string{"get_user_details", "get_reservation_details", "update_reservation_passengers", "update_reservation_baggages"}
	next := 0
	for _, c := range calls {
		if next < len(seq) && c.name == seq[next] {
			next++
		}
	}
	if next < len(seq) {
		return fmt.Errorf("tool_call_sequence: missing %s", seq[next])
	}
	for _, c := range calls {
		if c.isError {
			return fmt.Errorf("no_tool_errors: %s failed", c.name)
		}
	}
	return nil
}

var reservationID = regexp.MustCompile(`^[A-Z0-9]{6}$`)

// handSchema checks what Schema says, by hand.
func handSchema(doc map[string]any) error {
	for _, k := range []string{"summary", "status", "reservation"} {
		if _, ok := doc[k]; !ok {
			return fmt.Errorf("missing %s", k)
		}
	}
	if s, ok := doc["summary"].(string); !ok || s == "" {
		return errors.New("summary")
	}
	if s, _ := doc["status"].(string); s != "updated" && s != "cancelled" && s != "unchanged" {
		return errors.New("status")
	}
	res, ok := doc["reservation"].(map[string]any)
	if !ok {
		return errors.New("reservation")
	}
	for _, k := range []string{"reservation_id", "cabin", "flights", "passengers", "total_baggages"} {
		if _, ok := res[k]; !ok {
			return fmt.Errorf("missing reservation.%s", k)
		}
	}
	if id, ok := res["reservation_id"].(string); !ok || !reservationID.MatchString(id) {
		return errors.New("reservation_id")
	}
	if c, _ := res["cabin"].(string); c != "basic_economy" && c != "economy" && c != "business" {
		return errors.New("cabin")
	}
	if n, ok := res["total_baggages"].(float64); !ok || n != float64(int64(n)) || n < 0 {
		return errors.New("total_baggages")
	}
	flights, ok := res["flights"].([]any)
	if !ok || len(flights) == 0 {
		return errors.New("flights")
	}
	for _, f := range flights {
		fm, ok := f.(map[string]any)
		if !ok {
			return errors.New("flight")
		}
		for _, k := range []string{"flight_number", "date", "price"} {
			if _, ok := fm[k]; !ok {
				return fmt.Errorf("flight: missing %s", k)
			}
		}
		if _, ok := fm["flight_number"].(string); !ok {
			return errors.New("flight_number")
		}
		if p, ok := fm["price"].(float64); !ok || p < 0 {
			return errors.New("price")
		}
	}
	if ps, ok := res["passengers"].([]any); !ok || len(ps) == 0 {
		return errors.New("passengers")
	}
	return nil
}

// Looper is what Paired needs of a *testing.B (this package does not
// import testing: only evaltest does).
type Looper interface{ Loop() bool }

// Paired runs baseline then candidate once per iteration of b.Loop, timing
// each, and returns the candidate's total time over the baseline's: a
// ratio measured with the two side by side, microseconds apart, so a
// machine busy with other work slows both alike. Report it with
// b.ReportMetric(ratio, "x-baseline").
func Paired(b Looper, baseline, candidate func()) float64 {
	var base, cand time.Duration
	for b.Loop() {
		t0 := time.Now()
		baseline()
		t1 := time.Now()
		candidate()
		cand += time.Since(t1)
		base += t1.Sub(t0)
	}
	if base <= 0 {
		return 0
	}
	return float64(cand) / float64(base)
}
