package assert

import (
	"maps"
	"sort"
	"strings"
	"testing"

	testify "github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The check reference cannot drift from the registry: every canonical
// type has its table entry and an example that builds, and every
// parameter a build reads has its words.
func TestCheckDocs(t *testing.T) {
	r := NewRegistry()
	var missing, broken, unworded []string
	for _, n := range r.Names() {
		if r.entries[n].target != n {
			continue
		}
		td, ok := typeDocs[n]
		if !ok {
			missing = append(missing, n)
			continue
		}
		p, err := r.probe(n, td.example)
		if err != nil {
			broken = append(broken, n+": "+err.Error())
			continue
		}
		aliases := map[string]bool{}
		for _, g := range p.reads.groups {
			for _, a := range g[1:] {
				aliases[a] = true
			}
		}
		for name := range p.reads.kinds {
			if aliases[name] {
				continue
			}
			// The type's own words may add a default or a rule to the
			// shared ones; the meaning must come from one of them.
			if paramWords[name].over(td.params[name]).meaning == "" {
				unworded = append(unworded, n+"."+name)
			}
		}
	}
	for n := range typeDocs {
		if _, ok := r.entries[n]; !ok {
			broken = append(broken, n+": documented, but the registry has no such type")
		}
	}
	sort.Strings(broken)
	sort.Strings(unworded)
	hint := "\nhint: add them to assert/checkdocs_types.go, then: go run ./cmd/evalkit checks -md > CHECKS.md"
	if len(missing) > 0 {
		t.Errorf("check types with no entry in typeDocs: %s%s", strings.Join(missing, ", "), hint)
	}
	if len(broken) > 0 {
		t.Errorf("examples that do not build:\n%s%s", strings.Join(broken, "\n"), hint)
	}
	if len(unworded) > 0 {
		t.Errorf("parameters with no words in paramWords: %s%s", strings.Join(unworded, ", "), hint)
	}
}

// A parameter the reference says is needed only beside or instead of
// others (OneOf) is one the check needs: its example without the
// parameters of that rule does not build. And the checks that take a
// parameter on such a rule say so rather than call it required.
func TestCheckDocsOneOf(t *testing.T) {
	r := NewRegistry()
	rules := 0
	for _, d := range r.Docs() {
		groups := map[string][]string{}
		for _, p := range d.Params {
			if p.OneOf != "" {
				testify.False(t, p.Required, "%s.%s", d.Type, p.Name)
				testify.Empty(t, p.Default, "%s.%s", d.Type, p.Name)
				groups[p.OneOf] = append(groups[p.OneOf], p.Name)
				groups[p.OneOf] = append(groups[p.OneOf], p.Aliases...)
			}
		}
		for rule, names := range groups {
			without := maps.Clone(typeDocs[d.Type].example)
			dropped := false
			for _, n := range names {
				if _, ok := without[n]; ok {
					delete(without, n)
					dropped = true
				}
			}
			if !dropped {
				continue // the example gives none of them: no rule to test
			}
			rules++
			testify.Error(t, r.Validate(d.Type, without), "%s without %v builds, though the reference says %q", d.Type, names, rule)
		}
	}
	testify.GreaterOrEqual(t, rules, 10)
	oneOf := func(typ, param string) string {
		d, err := r.Doc(typ)
		require.NoError(t, err)
		for _, p := range d.Params {
			if p.Name == param {
				return p.OneOf
			}
		}
		t.Fatalf("%s has no parameter %s", typ, param)
		return ""
	}
	for _, c := range []struct{ typ, param, rule string }{
		{"faithfulness", "contexts", "give contexts or context_field"},
		{"contextual_recall", "context_field", "give contexts or context_field"},
		{"outcome_equivalent", "expected_state", "required with metric state"},
		{"directional", "baseline_tools", "required with check same_tool_calls"},
		{"tool_args_excluded", "forbidden_args", "give excluded_args, forbidden_args or both"},
		{"tool_args", "tool_name", "required, unless calls is given"},
		{"tool_call_count", "min", "give min, max or both"},
		{"equals", "any_of", "give expected or any_of"},
	} {
		testify.Equal(t, c.rule, oneOf(c.typ, c.param), "%s.%s", c.typ, c.param)
	}
}
