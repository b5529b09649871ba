package assert

import (
	"sort"
	"strings"
	"testing"
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
			if _, ok := paramWords[name]; !ok {
				if _, own := td.params[name]; !own {
					unworded = append(unworded, n+"."+name)
				}
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
