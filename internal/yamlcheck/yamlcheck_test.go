package yamlcheck_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"

	"github.com/evalkit-go/evalkit/internal/yamlcheck"
)

// aliasBomb is a file of n entries, each an alias of a list of n aliases.
func aliasBomb(n int) string {
	var b strings.Builder
	b.WriteString("shared: &list\n")
	for i := range n {
		if i == 0 {
			b.WriteString("  - &one {type: contains, params: {patterns: [x]}}\n")
		} else {
			b.WriteString("  - *one\n")
		}
	}
	b.WriteString("uses:\n")
	for i := range n {
		fmt.Fprintf(&b, "  e%d: *list\n", i)
	}
	return b.String()
}

func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		name, path, doc string
		want            []yamlcheck.Problem
	}{
		{"none", "", "a: 1\nb: {c: [1, 2]}\n", nil},
		{"a list root", "cases", "- {name: a}\n- {name: b}\n", nil},
		{"shared values are fine", "", "a: &x {k: 1}\nb: *x\nc: *x\n", nil},
		{"at the root", "", "cases: []\ncases: [1]\n", []yamlcheck.Problem{{Line: 2, Msg: `field "cases" is given twice (first at line 1)`}}},
		{"in a list's mapping", "cases", "- name: a\n  evals:\n  - type: x\n    type: y\n",
			[]yamlcheck.Problem{{Line: 4, Msg: `cases[0].evals[0]: field "type" is given twice (first at line 3)`}}},
		{"in a flow mapping", "cases", "- repeat: {n: 10, n: 1}\n",
			[]yamlcheck.Problem{{Line: 1, Msg: `cases[0].repeat: field "n" is given twice (first at line 1)`}}},
		{"deep", "", "a: {b: [{c: {d: 1, d: 1}}]}\n", []yamlcheck.Problem{{Line: 1, Msg: `a.b[0].c: field "d" is given twice (first at line 1)`}}},
		{"every one", "", "a: 1\na: 2\nb: {x: 1, x: 2}\na: 3\n", []yamlcheck.Problem{
			{Line: 2, Msg: `field "a" is given twice (first at line 1)`},
			{Line: 3, Msg: `b: field "x" is given twice (first at line 3)`},
			{Line: 4, Msg: `field "a" is given twice (first at line 1)`},
		}},
		{"reported once, where written", "", "a: &x {k: 1, k: 2}\nb: *x\n", []yamlcheck.Problem{{Line: 1, Msg: `a: field "k" is given twice (first at line 1)`}}},
		{"a JSON document", "", `{"name": "A", "name": "B"}`, []yamlcheck.Problem{{Line: 1, Msg: `field "name" is given twice (first at line 1)`}}},
		{"an alias bomb", "", aliasBomb(1000), []yamlcheck.Problem{{Line: 1113, Msg: "uses.e110: the alias *list makes the file more than 1000000 YAML nodes, " +
			"each use of an alias counted with all it stands for: use fewer aliases, or write the values out"}}},
		{"a cycle", "", "prompts: &b\n  x: *b\n", []yamlcheck.Problem{{Line: 2, Msg: "prompts.x: the alias *b stands for a value that holds it (&b at line 1): a value cannot contain itself, so it has no end"}}},
		{"a cycle through a list", "cases", "- &c {name: a, evals: [*c]}\n", []yamlcheck.Problem{{Line: 1, Msg: "cases[0].evals[0]: the alias *c stands for a value that holds it (&c at line 1): a value cannot contain itself, so it has no end"}}},
		{"an alias of the mapping holding it", "cases", "- name: a\n  vars: &v {x: *v}\n",
			[]yamlcheck.Problem{{Line: 2, Msg: "cases[0].vars.x: the alias *v stands for a value that holds it (&v at line 2): a value cannot contain itself, so it has no end"}}},
		{"an alias of the list holding it", "", "patterns: &p [a, *p]\n",
			[]yamlcheck.Problem{{Line: 1, Msg: "patterns[1]: the alias *p stands for a value that holds it (&p at line 1): a value cannot contain itself, so it has no end"}}},
		{"an alias of an ancestor, deep", "", "params: &top\n  a: {b: [{c: *top}]}\n",
			[]yamlcheck.Problem{{Line: 2, Msg: "params.a.b[0].c: the alias *top stands for a value that holds it (&top at line 1): a value cannot contain itself, so it has no end"}}},
		{"a merge key of the mapping holding it", "", "base: &b\n  x: 1\n  <<: *b\n",
			[]yamlcheck.Problem{{Line: 3, Msg: "base.<<: the alias *b stands for a value that holds it (&b at line 1): a value cannot contain itself, so it has no end"}}},
		{"an alias of a sibling is fine", "", "a: &a [1]\nb: [*a, *a]\nc: {d: *a}\n", nil},
		{"a key written as an alias", "", "vars:\n  &k who: alice\n  *k : mallory\n",
			[]yamlcheck.Problem{{Line: 3, Msg: `vars: field "who" is given twice (first at line 2)`}}},
		{"a key written as an alias, in flow", "", "a: &k x\nb: {x: 1, *k : 2}\n",
			[]yamlcheck.Problem{{Line: 2, Msg: `b: field "x" is given twice (first at line 2)`}}},
		{"an alias key of its own is fine", "", "a: &k x\nb: {*k : 1, y: 2}\n", nil},
		{"an alias key of a list is no field's name", "", "k: &k [1, 2]\n? *k\n: x\n", nil},
		{"a mapping past MaxMappingKeys", "", "a: 1\nvars:\n" + manyKeys(yamlcheck.MaxMappingKeys+1),
			[]yamlcheck.Problem{{Line: 3, Msg: "vars: a mapping of 1001 keys, more than 1000: the YAML library compares each key of a mapping with every other, " +
				"so its time grows with the square of their number; use a list, or split the mapping"}}},
		{"a mapping at MaxMappingKeys", "", "vars:\n" + manyKeys(yamlcheck.MaxMappingKeys), nil},
		{"a billion laughs", "", laughs(), []yamlcheck.Problem{{Line: 7, Msg: "g[0]: the alias *f makes the file more than 1000000 YAML nodes, " +
			"each use of an alias counted with all it stands for: use fewer aliases, or write the values out"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var doc yaml.Node
			require.NoError(t, yaml.Unmarshal([]byte(tc.doc), &doc))
			assert.Equal(t, tc.want, yamlcheck.Check(&doc, tc.path))
		})
	}
}

// manyKeys is a block mapping of n keys, indented under a field.
func manyKeys(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "  k%d: 1\n", i)
	}
	return b.String()
}

// laughs is the billion laughs: each level nine aliases of the one below.
func laughs() string {
	s := "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
	prev := "a"
	for _, c := range "bcdefghi" {
		s += fmt.Sprintf("%c: &%c [*%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s]\n", c, c, prev, prev, prev, prev, prev, prev, prev, prev, prev)
		prev = string(c)
	}
	return s
}

// An alias inside the value it stands for, of any size, is refused at
// once: the walk never follows an alias, so it cannot follow one for ever
// (it did: a 4-line case file grew past 10 GB). A chain of a hundred
// thousand anchors, each using the one before, is walked once (a list:
// a mapping of a hundred thousand keys is a problem of its own).
func TestCheckLinear(t *testing.T) {
	var b strings.Builder
	b.WriteString("- &a0 [x]\n")
	for i := 1; i < 100_000; i++ {
		fmt.Fprintf(&b, "- &a%d [*a%d]\n", i, i-1)
	}
	fmt.Fprintf(&b, "- &z {self: [*a99999, {deeper: *z}]}\n")
	var doc yaml.Node
	require.NoError(t, yaml.Unmarshal([]byte(b.String()), &doc))
	ps := yamlcheck.Check(&doc, "")
	require.Len(t, ps, 1)
	// The chain passes the budget long before the cycle at its end.
	assert.Contains(t, ps[0].Msg, "makes the file more than 1000000 YAML nodes")

	ps = yamlcheck.Check(mustParse(t, "a: &a\n  b: {c: {d: [1, 2, *a]}}\n"), "")
	require.Len(t, ps, 1)
	assert.Equal(t, 2, ps[0].Line, "the alias's line")
	assert.Equal(t, "a.b.c.d[2]: the alias *a stands for a value that holds it (&a at line 1): a value cannot contain itself, so it has no end", ps[0].Msg)
}

// A key of a megabyte, or a path of ten thousand levels, makes a short
// problem; a file of 400 keys given twice, at most MaxProblems.
func TestCheckBounded(t *testing.T) {
	huge := strings.Repeat("k", 1<<20)
	ps := yamlcheck.Check(mustParse(t, "? "+huge+"\n: 1\n? "+huge+"\n: 2\n"), "")
	require.Len(t, ps, 1)
	assert.Less(t, len(ps[0].Msg), 400)
	ps = yamlcheck.Check(mustParse(t, "? "+huge+"\n: {a: 1, a: 2}\n"), "")
	require.Len(t, ps, 1)
	assert.Less(t, len(ps[0].Msg), 400)

	var b strings.Builder
	for i := range 400 {
		fmt.Fprintf(&b, "k%d: 1\nk%d: 2\n", i, i)
	}
	assert.Len(t, yamlcheck.Check(mustParse(t, b.String()), ""), yamlcheck.MaxProblems)
}

// The YAML library resolves an alias with the anchors of the documents
// before it in a stream: such an alias is named as that, not as a value
// holding itself, which it was called.
func TestCheckAliasOfAnotherDocument(t *testing.T) {
	dec := yaml.NewDecoder(strings.NewReader("a: &v {x: 1}\n---\nb: *v\n"))
	var first, second yaml.Node
	require.NoError(t, dec.Decode(&first))
	require.NoError(t, dec.Decode(&second))
	assert.Empty(t, yamlcheck.Check(&first, ""))
	assert.Equal(t, []yamlcheck.Problem{{Line: 3, Msg: "b: the alias *v names an anchor of another document (&v at line 1): each document of a YAML stream has its own anchors"}},
		yamlcheck.Check(&second, ""))
}

func mustParse(t *testing.T, s string) *yaml.Node {
	t.Helper()
	var doc yaml.Node
	require.NoError(t, yaml.Unmarshal([]byte(s), &doc))
	return &doc
}
