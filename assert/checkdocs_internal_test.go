package assert

import (
	"errors"
	"maps"
	"slices"
	"sort"
	"strings"
	"testing"

	testify "github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The check reference cannot drift from the registry: every canonical
// type has its table entry and an example that builds, every parameter a
// build reads has its words, and every parameter a type accepts is one
// its reference lists.
func TestCheckDocs(t *testing.T) {
	for _, problem := range docProblems(NewRegistry(), typeDocs, paramWords) {
		t.Error(problem)
	}
}

// docProblems lists what the check reference lacks, each problem with the
// names at fault and what to do.
func docProblems(r *Registry, types map[string]typeDoc, wordsOf map[string]words) []string {
	var missing, broken, unworded, unlisted []string
	universe := map[string]bool{}
	for n := range wordsOf {
		universe[n] = true
	}
	listed := map[string]map[string]bool{}
	for _, n := range r.Names() {
		if r.entries[n].target != n || r.entries[n].user {
			continue
		}
		td, ok := types[n]
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
		listed[n] = map[string]bool{}
		for name := range p.reads.kinds {
			listed[n][name] = true
			universe[name] = true
			if aliases[name] {
				continue
			}
			// The type's own words may add a default or a rule to the
			// shared ones; the meaning must come from one of them.
			if wordsOf[name].over(td.params[name]).meaning == "" {
				unworded = append(unworded, n+"."+name)
			}
		}
	}
	// A parameter the check accepts but its example's build never reads
	// (one read only when given, or only beside another) is missing from
	// its reference: give each name the reference knows to each type, and
	// see which the type takes rather than calls unknown.
	names := slices.Sorted(maps.Keys(universe))
	for _, n := range slices.Sorted(maps.Keys(listed)) {
		for _, name := range names {
			if listed[n][name] {
				continue
			}
			if _, inExample := types[n].example[name]; inExample {
				continue
			}
			params := maps.Clone(types[n].example)
			if params == nil {
				params = map[string]any{}
			}
			params[name] = "?"
			err := r.Validate(n, params)
			var pe *ParamError
			if errors.As(err, &pe) && pe.Param == name && (pe.refused || strings.HasPrefix(pe.Msg, "unknown parameter")) {
				continue
			}
			unlisted = append(unlisted, n+"."+name)
		}
	}
	for n := range types {
		if _, ok := r.entries[n]; !ok {
			broken = append(broken, n+": documented, but the registry has no such type")
		}
	}
	sort.Strings(broken)
	sort.Strings(unworded)
	const regenerate = "then: go run ./cmd/evalkit checks -md > CHECKS.md"
	var out []string
	if len(missing) > 0 {
		out = append(out, "check types with no entry in typeDocs: "+strings.Join(missing, ", ")+
			"\nhint: add each to typeDocs in assert/checkdocs_types.go (summary, fluent method, an example that builds), "+regenerate)
	}
	if len(broken) > 0 {
		out = append(out, "examples that do not build:\n"+strings.Join(broken, "\n")+
			"\nhint: fix the example in typeDocs (assert/checkdocs_types.go), "+regenerate)
	}
	if len(unworded) > 0 {
		out = append(out, "parameters with no words (type.parameter): "+strings.Join(unworded, ", ")+
			"\nhint: add each to paramWords (or the type's params) in assert/checkdocs_types.go: its meaning, its default, and own: true unless PromptKit has it; "+regenerate)
	}
	if len(unlisted) > 0 {
		out = append(out, "parameters the check accepts that its reference does not list (type.parameter): "+strings.Join(unlisted, ", ")+
			"\nhint: the build reads each only when it is given, or only beside another parameter, so building the example never reads it: "+
			"read it whether given or not (a refused one through params.refuse), "+regenerate)
	}
	return out
}

// A table that lacks a type or a parameter's words fails TestCheckDocs
// with the names at fault and where to add them.
func TestCheckDocsNamesWhatIsMissing(t *testing.T) {
	types := maps.Clone(typeDocs)
	delete(types, "regex")
	wordsOf := maps.Clone(paramWords)
	delete(wordsOf, "criteria")
	delete(wordsOf, "expected_args")
	problems := docProblems(NewRegistry(), types, wordsOf)
	require.Len(t, problems, 2, "%q", problems)
	testify.Equal(t, "check types with no entry in typeDocs: regex\n"+
		"hint: add each to typeDocs in assert/checkdocs_types.go (summary, fluent method, an example that builds), then: go run ./cmd/evalkit checks -md > CHECKS.md", problems[0])
	testify.Contains(t, problems[1], "parameters with no words (type.parameter): ")
	for _, want := range []string{"llm_judge.criteria", "llm_judge_tool_calls.criteria", "tool_calls_with_args.expected_args"} {
		testify.Contains(t, problems[1], want)
	}
	testify.Contains(t, problems[1], "\nhint: add each to paramWords")
}

// What the reference says of the parameters a build refuses and of the
// judge a judged check asks: a threshold on llm_judge is refused, so not
// listed; judge and variant are listed on every check that asks a judge,
// and on no other.
func TestCheckDocsJudgeParams(t *testing.T) {
	r := NewRegistry()
	names := func(typ string) []string {
		d, err := r.Doc(typ)
		require.NoError(t, err)
		var out []string
		for _, p := range d.Params {
			out = append(out, p.Name)
		}
		return out
	}
	for _, typ := range []string{"llm_judge", "llm_judge_tool_calls", "faithfulness", "knowledge_retention", "text_sentiment"} {
		testify.NotContains(t, names(typ), "min_score", typ)
		testify.NotContains(t, names(typ), "max_score", typ)
	}
	for _, typ := range []string{"llm_judge", "llm_judge_tool_calls", "faithfulness", "answer_relevancy", "knowledge_retention", "assertion", "guardrail"} {
		testify.Subset(t, names(typ), []string{"judge", "variant"}, typ)
	}
	for _, typ := range []string{"contains", "tool_args", "text_sentiment", "rest_eval"} {
		testify.NotContains(t, names(typ), "judge", typ)
	}
	testify.Subset(t, names("assertion"), []string{"min_score", "max_score"})
	testify.Contains(t, names("llm_judge"), "verdict_rules")
	d, err := r.Doc("min_length")
	require.NoError(t, err)
	testify.True(t, d.Params[0].Name == "min" && d.Params[0].Required, "min_length's min is required (Build refuses 0): %+v", d.Params[0])
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
