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
		{"a cycle", "", "prompts: &b\n  x: *b\n", []yamlcheck.Problem{{Line: 2, Msg: "prompts.x: the alias *b stands for a value that holds it: it would expand without end"}}},
		{"a cycle through a list", "cases", "- &c {name: a, evals: [*c]}\n", []yamlcheck.Problem{{Line: 1, Msg: "cases[0].evals[0]: the alias *c stands for a value that holds it: it would expand without end"}}},
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
