package assert

// Tool arguments decoded into the user's own Go type and compared with
// go-cmp, its options the user's.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/google/go-cmp/cmp"

	"github.com/evalkit-go/evalkit"
)

// ToolArgsTyped passes when a call of Tool in the scope has arguments
// that, decoded with encoding/json into a new value of Want's type (a
// struct of the user's, a map, a slice), equal Want under go-cmp with
// Options (cmpopts.EquateApprox for amounts, IgnoreFields, ...). With
// Strict, a field the type does not have is a decoding error
// (json.Decoder.DisallowUnknownFields). Make one with ToolArgsAs, which
// fixes the type at compile time.
//
// Score is 1 or 0. The failure shows the call whose arguments differ
// least, got before want, and its go-cmp diff; a call whose arguments do
// not decode into the type says why:
//
//	no call of issue_refund has these arguments (2 calls)
//	diff (-want +got): … Amount: 42 → 41.5
//	decode: call 3: json: cannot unmarshal string into Go struct field Refund.amount of type float64
//
// Scope defaults to Session. Errors (*ParamError): no tool, a Want that is
// nil, a name with whitespace. A call of Want's type that cmp cannot
// compare (unexported fields without an option) panics in go-cmp; the
// check returns that as an error naming the type.
//
// Not in the registry: a Go type is not a parameter a case file can give
// (its form is tool_args, or tool_calls_with_args with match "exact").
type ToolArgsTyped struct {
	Tool    string
	Want    any
	Options []cmp.Option
	Strict  bool
	Scope   Scope
}

// ToolArgsAs returns the check that a call of tool has arguments that,
// decoded into a T, equal want under opts (see ToolArgsTyped):
//
//	type Refund struct {
//		OrderID string  `json:"order_id"`
//		Amount  float64 `json:"amount"`
//	}
//	et.Expect(tr).Check(assert.ToolArgsAs("issue_refund", Refund{OrderID: "#W123", Amount: 42}, cmpopts.EquateApprox(0, 0.01)))
//
// The generic function fixes the type; evaltest's fluent
// Expectation.ToolArgsAs takes want as a value of any type.
func ToolArgsAs[T any](tool string, want T, opts ...cmp.Option) ToolArgsTyped {
	return ToolArgsTyped{Tool: tool, Want: want, Options: opts}
}

// ToolArgsOf decodes the arguments of every call of tool in tr into a T,
// in call order: typed arguments for the user's own comparisons. A call
// whose arguments do not decode is an error naming it.
func ToolArgsOf[T any](tr *evalkit.Transcript, tool string) ([]T, error) {
	if tr == nil {
		return nil, fmt.Errorf("ToolArgsOf: the transcript is nil")
	}
	var out []T
	for i, c := range tr.ToolCalls() {
		if c.Name != tool {
			continue
		}
		var v T
		if err := decodeTyped(c.Args, &v, false); err != nil {
			return nil, fmt.Errorf("ToolArgsOf: call %d (%s): %w", i+1, tool, err)
		}
		out = append(out, v)
	}
	return out, nil
}

// decodeTyped decodes arguments (a JSON object; "" and null are {}) into
// ptr.
func decodeTyped(args json.RawMessage, ptr any, strict bool) error {
	data := bytes.TrimSpace(args)
	if len(data) == 0 || string(data) == "null" {
		data = []byte("{}")
	}
	if data[0] == '"' { // arguments given as a JSON string
		var s string
		if err := json.Unmarshal(data, &s); err != nil {
			return err
		}
		data = []byte(s)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if strict {
		dec.DisallowUnknownFields()
	}
	if err := dec.Decode(ptr); err != nil {
		return err
	}
	if dec.More() {
		return fmt.Errorf("more data after the arguments' JSON value")
	}
	return nil
}

func (c ToolArgsTyped) validate() error {
	const check = "tool_args_typed"
	if err := checkScope(check, c.Scope); err != nil {
		return err
	}
	switch problem := toolNameProblem(c.Tool); {
	case c.Tool == "":
		return paramErr(check, "tool_name", "required: want a tool name")
	case problem != "":
		return paramErr(check, "tool_name", "%s", problem)
	case c.Want == nil:
		return paramErr(check, "want", "nil: want a value of the type the arguments decode into")
	}
	return nil
}

// Check implements Check.
func (c ToolArgsTyped) Check(_ context.Context, tr *evalkit.Transcript) (res Result, err error) {
	const check = "tool_args_typed"
	if err := c.validate(); err != nil {
		return Result{}, err
	}
	sc, err := scopedCalls(check, tr, c.Scope)
	if err != nil {
		return Result{}, err
	}
	if err := undeclared(check, tr, toolRef{"tool_name", []string{c.Tool}}); err != nil {
		return Result{}, err
	}
	typ := reflect.TypeOf(c.Want)
	defer func() {
		if p := recover(); p != nil { // go-cmp panics on what it cannot compare
			res, err = Result{}, fmt.Errorf("%s: go-cmp cannot compare %v: %v (give an option such as cmpopts.IgnoreUnexported)", check, typ, p)
		}
	}()
	var (
		calls     []int
		bestDiff  string
		bestLines = -1
		bestCall  int
		decodeErr []string
	)
	for i, call := range sc.calls {
		if call.Name != c.Tool {
			continue
		}
		calls = append(calls, i)
		ptr := reflect.New(typ)
		if err := decodeTyped(call.Args, ptr.Interface(), c.Strict); err != nil {
			decodeErr = append(decodeErr, fmt.Sprintf("call %d: %v", i+1, err))
			continue
		}
		got := ptr.Elem().Interface()
		diff := cmp.Diff(c.Want, got, c.Options...)
		if diff == "" {
			return pass(1, fmt.Sprintf("%s (call %d) has these arguments, as %v", shortName(c.Tool), i+1, typ)), nil
		}
		if lines := strings.Count(diff, "\n"); bestLines < 0 || lines < bestLines {
			bestDiff, bestLines, bestCall = diff, lines, i
		}
	}
	if len(calls) == 0 {
		return fail(0, fmt.Sprintf("%s was not called", quoteName(c.Tool)), sc.withScope([]Detail{calledDetail(sc.calls)})...), nil
	}
	var details []Detail
	if bestLines >= 0 {
		details = append(details, Detail{"args", fmt.Sprintf("call %d: %s", bestCall+1, rawArgs(sc.calls[bestCall].Args))})
	}
	for i, e := range decodeErr {
		if i == maxProblems {
			details = append(details, Detail{"decode", fmt.Sprintf("… and %d more", len(decodeErr)-maxProblems)})
			break
		}
		details = append(details, Detail{"decode", e})
	}
	r := fail(0, fmt.Sprintf("no call of %s has these arguments, as %v (%s)", shortName(c.Tool), typ, plural(len(calls), "call")), sc.withScope(details)...)
	r.Diff = boundDiff(bestDiff)
	return r, nil
}

// Describe implements Describer.
func (c ToolArgsTyped) Describe() string {
	return describeLine(fmt.Sprintf("%s was called with arguments equal to %s, as %T%s", quoteName(c.Tool), jsonValue(c.Want, 80), c.Want, callsScope(c.Scope)))
}
