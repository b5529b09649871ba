package assert

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"go.yaml.in/yaml/v3"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/internal/inputs"
	"github.com/evalkit-go/evalkit/internal/yamlcheck"
)

// Types returns every type name and alias of the built-in registry, sorted:
// PromptKit's type names, its aliases (content_includes, banned_words,
// tools_not_called_with_args, ...) and its "_session" variants, and
// evalkit's own (equals, ...). Registry.Names does the same for a registry
// of one's own.
func Types() []string { return defaultRegistry().Names() }

// Spec is one check as a case file or PromptKit pack writes it: a type name
// and its parameters.
//
//   - type: tool_call_chain
//     params:
//     steps: [{tool: get_order_details}, {tool: issue_refund, no_error: true}]
type Spec struct {
	// Type is the check's registered type name or alias.
	Type string `json:"type"`
	// Params are the check's parameters, JSON-shaped.
	Params map[string]any `json:"params,omitempty"`
	// ID is the entry's own id, when the file gives one (PromptKit's eval
	// id); reports show it.
	ID string `json:"id,omitempty"`
	// Line is where the entry starts in the file it was parsed from (see
	// ParseSpecs), 1-based; 0 when it was not parsed from a file.
	Line int `json:"-"`
}

// where names the spec in errors: "entry 2 (line 14)", with its id.
func (s Spec) where(i int) string {
	w := fmt.Sprintf("entry %d", i)
	if s.ID != "" {
		w += fmt.Sprintf(" %q", s.ID)
	}
	if s.Line > 0 {
		w += fmt.Sprintf(" (line %d)", s.Line)
	}
	return w
}

// SpecResult is the outcome of one Spec: a Result, or the Err that kept it
// from being evaluated (never both).
type SpecResult struct {
	// Index is the spec's position in the list, from 0.
	Index  int
	Spec   Spec
	Result Result
	Err    error
}

// Outcome is "pass", "fail" or "error".
func (r SpecResult) Outcome() string {
	switch {
	case r.Err != nil:
		return "error"
	case r.Result.Passed:
		return "pass"
	}
	return "fail"
}

// SpecResults are the outcomes of a list of specs, in its order.
type SpecResults []SpecResult

// Passed reports whether every spec passed: no failure and no error. An
// empty list has nothing that passed, and reports false.
func (rs SpecResults) Passed() bool {
	for _, r := range rs {
		if r.Outcome() != "pass" {
			return false
		}
	}
	return len(rs) > 0
}

// EvalAll runs each spec on tr with the built-in registry (see
// Registry.EvalAll).
func EvalAll(ctx context.Context, tr *evalkit.Transcript, specs []Spec) (SpecResults, error) {
	return defaultRegistry().EvalAll(ctx, tr, specs)
}

// EvalAll runs each spec on tr, as a PromptKit-style list of {type,
// params} entries runs unchanged, and returns every outcome, in order. Every
// spec runs, whatever the others gave. The error joins the errors of the
// specs that could not be evaluated, each naming its entry (from 0), its id
// and line when known, and the check's own error (an unknown type, a
// *ParamError naming the parameter, ErrNoOutput, ...), which errors.As and
// errors.Is still find:
//
//	entry 2 (line 14): tool_args: param "expected_args": required: want an object ({} matches any arguments)
//
// An empty list is an error: it checks nothing. A failed check is not an
// error: read the results (SpecResults.Passed).
func (r *Registry) EvalAll(ctx context.Context, tr *evalkit.Transcript, specs []Spec) (SpecResults, error) {
	if len(specs) == 0 {
		return nil, errors.New("assert: EvalAll: no specs: an empty list checks nothing")
	}
	out := make(SpecResults, len(specs))
	var errs []error
	for i, s := range specs {
		res, err := r.Eval(ctx, s.Type, tr, s.Params)
		if err != nil {
			err = &SpecError{Index: i, Spec: s, Err: err}
			errs = append(errs, err)
			res = Result{}
		}
		out[i] = SpecResult{Index: i, Spec: s, Result: res, Err: err}
	}
	return out, errors.Join(errs...)
}

// SpecError is the error of one spec of a list: where it is, and why it
// could not be evaluated.
type SpecError struct {
	Index int
	Spec  Spec
	Err   error
}

func (e *SpecError) Error() string { return e.Spec.where(e.Index) + ": " + e.Err.Error() }

// Unwrap returns the check's error.
func (e *SpecError) Unwrap() error { return e.Err }

// ParseSpecs reads a list of specs from YAML or JSON (JSON is read as the
// YAML it is): a list of {type, params} entries, or a mapping whose "evals"
// or "assertions" key holds one, as PromptKit packs and scenarios write
// them. An entry may also carry PromptKit's id, and its trigger, message
// and description, which do not change what a finished transcript is
// checked for and are not kept. Each Spec records its line. Every spec is
// validated (Validate: the type is known, the parameters are right) before
// any is returned.
//
// Errors name the line, the entry and the parameter: the YAML library's
// syntax errors ("yaml: line 3: did not find expected key"), a key given
// twice, an alias inside the value it stands for or expanding the list
// past a million nodes (see internal/yamlcheck), an entry that is not a
// mapping, one without a type, an unknown key, and each spec's validation
// error (a *SpecError wrapping it).
func ParseSpecs(data []byte) ([]Spec, error) {
	return defaultRegistry().ParseSpecs(data)
}

// ParseSpecs is the package's ParseSpecs, validating against r's types.
func (r *Registry) ParseSpecs(data []byte) ([]Spec, error) {
	var doc yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("assert: specs: %w", err)
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); err == nil {
		return nil, fmt.Errorf("assert: specs: line %d: a second YAML document: give one list of specs", extra.Line)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return nil, errors.New("assert: specs: empty document: want a list of {type, params}")
	}
	if ps := yamlcheck.Check(&doc, ""); len(ps) > 0 {
		// A key given twice, an alias inside its own value, an alias bomb:
		// what the list means is not clear, so none of it is read.
		errs := make([]error, len(ps))
		for i, p := range ps {
			errs[i] = fmt.Errorf("assert: specs: line %d: %s", p.Line, p.Msg)
		}
		return nil, errors.Join(errs...)
	}
	list := doc.Content[0]
	if list.Kind == yaml.MappingNode {
		var found *yaml.Node
		for i := 0; i+1 < len(list.Content); i += 2 {
			switch k := list.Content[i].Value; k {
			case "evals", "assertions":
				if found != nil {
					return nil, fmt.Errorf("assert: specs: line %d: give one of evals and assertions", list.Content[i].Line)
				}
				found = list.Content[i+1]
			default:
				return nil, fmt.Errorf("assert: specs: line %d: unknown key %q: want a list of specs, or evals: [...]", list.Content[i].Line, k)
			}
		}
		if found == nil {
			return nil, fmt.Errorf("assert: specs: line %d: a mapping without evals: want a list of {type, params}", list.Line)
		}
		list = found
	}
	if list.Kind != yaml.SequenceNode {
		return nil, fmt.Errorf("assert: specs: line %d: want a list of {type, params}", list.Line)
	}
	if len(list.Content) == 0 {
		return nil, fmt.Errorf("assert: specs: line %d: empty list: it checks nothing", list.Line)
	}
	specs := make([]Spec, 0, len(list.Content))
	var errs []error
	for i, n := range list.Content {
		s, err := specOf(i, n)
		if err != nil {
			return nil, err
		}
		if err := r.Validate(s.Type, s.Params); err != nil {
			errs = append(errs, &SpecError{Index: i, Spec: s, Err: err})
		}
		specs = append(specs, s)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	return specs, nil
}

// specOf reads one entry of a list of specs.
func specOf(i int, n *yaml.Node) (Spec, error) {
	s := Spec{Line: n.Line}
	at := func(line int) string { return fmt.Sprintf("assert: specs: line %d: entry %d", line, i) }
	if n.Kind != yaml.MappingNode {
		return s, fmt.Errorf("%s: want a mapping {type, params}", at(n.Line))
	}
	hasType := false
	for k := 0; k+1 < len(n.Content); k += 2 {
		key, val := n.Content[k], n.Content[k+1]
		switch key.Value {
		case "type":
			if val.Kind != yaml.ScalarNode || val.Tag != "!!str" || val.Value == "" {
				return s, fmt.Errorf("%s: type: want a check type name", at(val.Line))
			}
			s.Type, hasType = val.Value, true
		case "id":
			if val.Kind != yaml.ScalarNode {
				return s, fmt.Errorf("%s: id: want a string", at(val.Line))
			}
			s.ID = val.Value
		case "params":
			if val.Tag == "!!null" {
				continue
			}
			if val.Kind != yaml.MappingNode {
				return s, fmt.Errorf("%s: params: want a mapping", at(val.Line))
			}
			var params map[string]any
			if err := val.Decode(&params); err != nil {
				return s, fmt.Errorf("%s: params: %w", at(val.Line), err)
			}
			s.Params = params
		case "trigger", "message", "description":
			// PromptKit's: when a runtime eval runs and what it says. A
			// finished transcript is checked once, for what params say.
		default:
			return s, fmt.Errorf("%s: unknown key %q (known: type, params, id)", at(key.Line), key.Value)
		}
	}
	if !hasType {
		return s, fmt.Errorf("%s: no type: want {type, params}", at(n.Line))
	}
	return s, nil
}

// LoadSpecs reads a file of specs (see ParseSpecs); errors name the file.
// The file must be a regular file (a FIFO is refused, never waited on) of
// at most 4 MiB, the limit of a case file (EVALKIT_MAX_CASE_FILE_BYTES
// raises it).
func LoadSpecs(path string) ([]Spec, error) {
	data, err := inputs.ReadFile(path, inputs.CaseFile)
	if err != nil {
		return nil, fmt.Errorf("assert: specs: %w", err)
	}
	specs, err := ParseSpecs(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return specs, nil
}
