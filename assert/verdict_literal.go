package assert

import (
	"bytes"
	"encoding/json"

	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/internal/query"
	"github.com/evalkit-go/evalkit/internal/textnorm"
)

// Passing verdicts given as literal JSON values, as MindTrial's
// passing-verdicts: the verdict passes when it equals one of them once both
// are canonicalized by the Passing's Rules (its strings, at any depth). As
// MindTrial does, the values are compiled to a JSON Schema — "const" for
// one, "enum" for several — and the canonicalized verdict is validated
// against it, so 7 and 7.0 are equal and an object's key order does not
// matter. A single value that is an object with a "$schema" key is an
// explicit schema instead (Passing.Schema): never canonicalized.

// explicitSchema reports whether vs is one JSON Schema, recognized by its
// "$schema" key as MindTrial recognizes one.
func explicitSchema(vs []any) (map[string]any, bool) {
	if len(vs) != 1 {
		return nil, false
	}
	m, ok := vs[0].(map[string]any)
	if !ok {
		return nil, false
	}
	_, has := m["$schema"]
	return m, has
}

// verdictValue is the value literal passing verdicts compare with: the
// Field's value, the verdict object, or the judge's whole answer as JSON
// (a bare number, boolean, string or list), else its text.
func verdictValue(check string, p Passing, v evalkit.Verdict) (any, error) {
	if p.Field != "" {
		return field(check, v, p.Field)
	}
	if v.Fields != nil {
		return v.Fields, nil
	}
	raw := strings.TrimSpace(v.Raw)
	if raw == "" {
		return nil, badVerdict(check, "the verdict has no answer to compare with the passing verdicts")
	}
	dec := json.NewDecoder(strings.NewReader(raw))
	dec.UseNumber()
	var val any
	if err := dec.Decode(&val); err == nil && !dec.More() {
		return val, nil
	}
	return raw, nil
}

// literalSchema compiles the passing verdicts, canonicalized, to a const
// or enum schema.
func literalSchema(check string, p Passing) (*jsonschema.Schema, error) {
	vals := make([]any, len(p.Verdicts))
	for i, v := range p.Verdicts {
		n, err := exactJSON(v)
		if err != nil {
			return nil, paramErr(check, "passing_verdicts", "verdict %d cannot be written as JSON: %v", i, err)
		}
		vals[i] = p.Rules.Canonical(n)
	}
	var sch map[string]any
	if len(vals) == 1 {
		sch = map[string]any{"const": vals[0]}
	} else {
		sch = map[string]any{"enum": vals}
	}
	return compileNamed(check, "passing_verdicts", sch)
}

func (p Passing) gradeLiteral(check string, v evalkit.Verdict) (graded, error) {
	sch, err := literalSchema(check, p)
	if err != nil {
		return graded{}, err
	}
	got, err := verdictValue(check, p, v)
	if err != nil {
		return graded{}, err
	}
	n, err := exactJSON(got)
	if err != nil {
		return graded{}, badVerdict(check, "the verdict cannot be read as JSON: %v", err)
	}
	data, err := json.Marshal(p.Rules.Canonical(n))
	if err != nil {
		return graded{}, badVerdict(check, "the verdict cannot be read as JSON: %v", err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return graded{}, badVerdict(check, "the verdict cannot be read as JSON: %v", err)
	}
	summary := "verdict " + textnorm.Excerpt(string(data), maxDetail)
	if sch.Validate(doc) == nil {
		return graded{passed: true, summary: summary}, nil
	}
	want := make([]string, len(p.Verdicts))
	for i, w := range p.Verdicts {
		b, _ := json.Marshal(w)
		want[i] = string(b)
	}
	return graded{summary: summary + ", want " + textnorm.Excerpt(strings.Join(want, " or "), maxDetail)}, nil
}

// exactJSON is v as JSON values with its numbers kept exact (json.Number),
// so a passing verdict 10000000000000000001 never equals a verdict
// 10000000000000000000, as float64 would make them; the schema compares
// numbers by value (7 equals 7.0). Values query.Normalize refuses (NaN, a
// function, too many) are errors.
func exactJSON(v any) (any, error) {
	if _, err := query.Normalize(v); err != nil {
		return nil, err
	}
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var out any
	if err := dec.Decode(&out); err != nil {
		return nil, err
	}
	return out, nil
}

// validateLiteral checks the passing verdicts compile.
func (p Passing) validateLiteral(check string) error {
	for i, v := range p.Verdicts {
		if v == nil {
			return paramErr(check, "passing_verdicts", "verdict %d is null: give the value a passing verdict has", i)
		}
	}
	_, err := literalSchema(check, p)
	return err
}

// withExplicitSchema moves a single "$schema" object of Verdicts to
// Schema, as MindTrial reads one: the Rules, which canonicalize literal
// verdicts, do not apply to it.
func (p Passing) withExplicitSchema() Passing {
	if m, ok := explicitSchema(p.Verdicts); ok && p.Schema == nil {
		p.Schema, p.Verdicts, p.Rules = m, nil, Rules{}
	}
	return p
}

// readPassingVerdicts reads passing_verdicts: a list of literal values, or one
// value that is not a list.
func readPassingVerdicts(p *params) ([]any, error) {
	v, ok, err := p.value("passing_verdicts")
	if err != nil || !ok {
		return nil, err
	}
	if list, isList := v.([]any); isList {
		if len(list) == 0 {
			return nil, p.err("passing_verdicts", "empty: give the verdicts that pass")
		}
		return list, nil
	}
	return []any{v}, nil
}
