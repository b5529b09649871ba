package assert

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// CheckDoc documents a check type of a Registry, as `evalkit checks TYPE`
// prints it and CHECKS.md lists it. It is generated from the registry
// itself: the parameters are those the type's build function reads when
// it builds Example, their types those it reads them as, required those
// it refuses to build without; a table in this package adds the summary,
// the example and each parameter's meaning, default and PromptKit name.
type CheckDoc struct {
	// Type is the canonical name; Aliases the other names it is
	// registered under (a "_session" alias reads the whole session).
	Type    string
	Aliases []string
	// Summary says what passes, in a line or two.
	Summary string
	// Fluent is the evaltest method that runs the check, when one does.
	Fluent string
	// Params are the parameters, required ones first, then by name.
	Params []ParamDoc
	// Example is one eval of a case file, as YAML.
	Example string
}

// ParamDoc documents one parameter of a check type.
type ParamDoc struct {
	Name string
	// Aliases are other names the build reads in its place (give one).
	Aliases []string
	// Type is the shape the build reads: "string", "list of strings",
	// "number", "whole number", "boolean", "object", "any JSON value".
	Type     string
	Required bool
	// Default is what an absent parameter means ("" when Required).
	Default string
	Meaning string
	// PromptKit is PromptKit's name for the parameter, "" when the
	// parameter is evalkit's own.
	PromptKit string
}

// Doc documents checkType (a canonical name or an alias). A type added
// with Register is documented by its name alone. An unknown type wraps
// ErrUnknownCheck, with the nearest known name.
func (r *Registry) Doc(checkType string) (CheckDoc, error) {
	t := r.table()
	t.mu.RLock()
	e, ok := t.entries[checkType]
	t.mu.RUnlock()
	if !ok {
		return CheckDoc{}, r.unknown(checkType)
	}
	name := e.target
	doc := CheckDoc{Type: name}
	for _, n := range r.Names() {
		t.mu.RLock()
		a := t.entries[n]
		t.mu.RUnlock()
		if n != name && a.target == name {
			doc.Aliases = append(doc.Aliases, n)
		}
	}
	td, ok := typeDocs[name]
	if !ok || e.user {
		doc.Summary = "A check type registered with Register: its parameters are its build function's own."
		return doc, nil
	}
	doc.Summary, doc.Fluent = td.summary, td.fluent
	doc.Example = exampleYAML(name, td.example)
	doc.Params = r.paramDocs(name, td)
	return doc, nil
}

// Docs documents every canonical type of r, by name.
func (r *Registry) Docs() []CheckDoc {
	var out []CheckDoc
	for _, n := range r.Names() {
		t := r.table()
		t.mu.RLock()
		e := t.entries[n]
		t.mu.RUnlock()
		if e.target != n {
			continue
		}
		d, err := r.Doc(n)
		if err == nil {
			out = append(out, d)
		}
	}
	return out
}

// probe builds check type name from params as Validate does, recording
// what the build reads: every name, its aliases and shape.
func (r *Registry) probe(name string, params map[string]any) (*params, error) {
	t := r.table()
	t.mu.RLock()
	e := t.entries[name]
	t.mu.RUnlock()
	plain, err := plainParams(name, params)
	if err != nil {
		return nil, err
	}
	p := newParams(name, plain)
	p.forced, p.reg, p.declaring = e.scope, r, true
	p.reads = &paramReads{kinds: map[string]string{}}
	own, err := r.checkJudge(p)
	if err != nil {
		return p, err
	}
	p.reg = own
	if _, err := e.build(p); err != nil {
		return p, err
	}
	return p, p.finish()
}

// paramReads is what a probed build read: each name's shape, and the
// names read together in one lookup (a parameter and its aliases).
type paramReads struct {
	kinds  map[string]string
	groups [][]string
}

// note records a lookup of names as kind, when probing.
func (p *params) note(kind string, names []string) {
	if p.reads == nil {
		return
	}
	for _, n := range names {
		p.reads.kinds[n] = kind // the last reader's: count reads a number, then a whole one
	}
	if len(names) > 1 && !slices.ContainsFunc(p.reads.groups, func(g []string) bool { return slices.Equal(g, names) }) {
		p.reads.groups = append(p.reads.groups, slices.Clone(names))
	}
}

// paramDocs documents the parameters of type name: those its build reads
// building the example, each with its shape, whether the build refuses
// to go without it, and the table's words.
func (r *Registry) paramDocs(name string, td typeDoc) []ParamDoc {
	p, err := r.probe(name, td.example)
	if p == nil || p.reads == nil || err != nil {
		return nil
	}
	alias := map[string]string{} // alias → the name documented
	for _, g := range p.reads.groups {
		for _, a := range g[1:] {
			if _, ok := alias[a]; !ok {
				alias[a] = g[0]
			}
		}
	}
	var out []ParamDoc
	for n, kind := range p.reads.kinds {
		if _, isAlias := alias[n]; isAlias {
			continue
		}
		d := ParamDoc{Name: n, Type: kind}
		if t := paramTypes[n]; t != "" && kind == "any JSON value" {
			d.Type = t // read as any value, then checked as this
		}
		for a, of := range alias {
			if of == n {
				d.Aliases = append(d.Aliases, a)
			}
		}
		sort.Strings(d.Aliases)
		if _, given := td.example[n]; given {
			without := make(map[string]any, len(td.example))
			for k, v := range td.example {
				if k != n {
					without[k] = v
				}
			}
			if _, err := r.probe(name, without); err != nil {
				var pe *ParamError
				d.Required = asParamError(err, &pe) && (pe.Param == n || slices.Contains(d.Aliases, pe.Param))
			}
		}
		w := paramWords[n]
		if o, ok := td.params[n]; ok {
			w = w.over(o)
		}
		d.Meaning, d.Default, d.PromptKit = w.meaning, w.def, n
		if w.own {
			d.PromptKit = ""
		}
		if w.promptkit != "" {
			d.PromptKit = w.promptkit
		}
		if d.Required {
			d.Default = ""
		}
		out = append(out, d)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Required != out[j].Required {
			return out[i].Required
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// exampleYAML writes params as one eval of a case file.
func exampleYAML(name string, params map[string]any) string {
	var b strings.Builder
	b.WriteString("- type: " + name + "\n")
	if len(params) == 0 {
		return b.String()
	}
	b.WriteString("  params:\n")
	writeYAMLMap(&b, params, "    ")
	return b.String()
}

func writeYAMLMap(b *strings.Builder, m map[string]any, indent string) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		switch v := m[k].(type) {
		case map[string]any:
			b.WriteString(indent + k + ":\n")
			writeYAMLMap(b, v, indent+"  ")
		case []any:
			if !slices.ContainsFunc(v, func(e any) bool { _, isMap := e.(map[string]any); return isMap }) {
				b.WriteString(indent + k + ": " + yamlScalar(v) + "\n")
				continue
			}
			b.WriteString(indent + k + ":\n")
			for _, e := range v {
				em, _ := e.(map[string]any)
				var sub strings.Builder
				writeYAMLMap(&sub, em, indent+"    ")
				b.WriteString(indent + "  - " + strings.TrimPrefix(sub.String(), indent+"    "))
			}
		default:
			b.WriteString(indent + k + ": " + yamlScalar(v) + "\n")
		}
	}
}

// yamlScalar writes a scalar, or a list of scalars in flow style; a
// string YAML would read as something else is quoted.
func yamlScalar(v any) string {
	switch v := v.(type) {
	case string:
		if v == "" || strings.ContainsAny(v, ":#{}[],&*!|>'\"%@`\n") || strings.TrimSpace(v) != v ||
			slices.Contains([]string{"true", "false", "null", "yes", "no", "~"}, strings.ToLower(v)) {
			return strconv.Quote(v)
		}
		if _, err := strconv.ParseFloat(v, 64); err == nil {
			return strconv.Quote(v)
		}
		return v
	case []any:
		parts := make([]string, len(v))
		for i, e := range v {
			parts[i] = yamlScalar(e)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case nil:
		return "null"
	}
	return fmt.Sprint(v)
}

func asParamError(err error, pe **ParamError) bool { return errors.As(err, pe) }
