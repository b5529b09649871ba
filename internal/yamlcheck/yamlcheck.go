// Package yamlcheck checks a YAML document's nodes before a parser walks
// them, for what the YAML library leaves to its user when it hands out a
// node tree: a mapping key given twice (decoding into a Go map catches
// it; walking nodes does not, and the last value silently wins), an alias
// that stands for a value holding it (a walk that follows it never ends),
// and aliases that expand a small file into millions of nodes (the
// library's alias limit guards its own decoding, not a walk of the tree).
// Case files (evaltest), judge set configs (judgeset) and spec files
// (assert) are read through it.
//
//	problems := yamlcheck.Check(&doc, "")
//	for _, p := range problems {
//		fmt.Printf("%s:%d: %s\n", file, p.Line, p.Msg) // cases[0].evals[1]: field "type" is given twice (first at line 7)
//	}
package yamlcheck

import (
	"fmt"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/evalkit-go/evalkit/internal/textnorm"
)

// MaxAliasNodes bounds the nodes a document may reach through its
// aliases, each alias counted with the whole of what it stands for, as
// often as it is used: far above what sharing an evals list or a judge's
// settings between entries needs, far below what exhausts memory.
const MaxAliasNodes = 1_000_000

// MaxMappingKeys bounds the keys of one mapping. The YAML library
// compares each key of a mapping it decodes (a case's vars, an eval's
// params) with every other, so its time grows with the square of their
// number: 40,000 keys, half a megabyte of vars, took 17 s to load, and a
// 4 MiB case file of them would take most of an hour. At this bound a
// case file at its size limit, all mappings of 1,000 keys, loads in
// about two seconds, as one of small mappings does.
const MaxMappingKeys = 1_000

// MaxProblems bounds the problems Check returns: past it the walk stops.
const MaxProblems = 100

// Problem is one problem of a document: its line (1-based) and the
// message, which starts with the field path where there is one.
type Problem struct {
	Line int
	Msg  string
}

// Check returns the document's problems, in the order of a walk of its
// nodes: every key given twice in a mapping, named with the mapping's
// path and the first key's line; an alias that stands for a value holding
// it (&v {x: *v}), and an alias past MaxAliasNodes, each named with the
// line and path of the alias written in the document, and a mapping of
// more than MaxMappingKeys keys (the walk stops at the first of these).
// A key written as an alias of a scalar is the scalar's text. path is the root's path: "" or, for a document
// that is a list of cases, "cases"; a field's path is its mapping's, ".",
// and its key ("judges.strict.settings"), an element's its list's and
// "[i]". At most MaxProblems problems are returned.
//
// Check never follows an alias: it walks each node of the document once,
// as written, and counts what an alias stands for from the sizes of the
// values already walked (an alias always follows its anchor), so its work
// is linear in the document whatever the aliases make of it.
func Check(doc *yaml.Node, path string) []Problem {
	c := &checker{root: path, sizes: map[*yaml.Node]int{}, open: map[*yaml.Node]bool{}}
	c.walk(doc, nil)
	return c.problems
}

type checker struct {
	root     string
	problems []Problem
	sizes    map[*yaml.Node]int  // an anchored node's size, once walked
	open     map[*yaml.Node]bool // the anchored nodes being walked: the alias's ancestors
	expanded int                 // nodes reached through aliases
	stop     bool                // an alias problem, or MaxProblems: stop
}

// step is one step of a node's path from the root, built into a string
// only for a problem.
type step struct {
	up    *step
	key   string // a mapping's field
	index int    // a list's element, when key is ""
	field bool
}

// pathOf renders a path, at most maxPath bytes of it (then "…").
func (c *checker) pathOf(s *step) string {
	var steps []*step
	for ; s != nil; s = s.up {
		steps = append(steps, s)
	}
	var b strings.Builder
	b.WriteString(c.root)
	for i := len(steps) - 1; i >= 0 && b.Len() <= maxPath; i-- {
		if st := steps[i]; st.field {
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(st.key)
		} else {
			b.WriteString("[" + strconv.Itoa(st.index) + "]")
		}
	}
	return textnorm.Excerpt(b.String(), maxPath)
}

// maxPath bounds a path in a problem, in bytes: a megabyte key, or
// ten thousand levels, must not make a megabyte message.
const maxPath = 240

func (c *checker) add(line int, at *step, msg string) {
	if p := c.pathOf(at); p != "" {
		msg = p + ": " + msg
	}
	c.problems = append(c.problems, Problem{Line: line, Msg: msg})
	if len(c.problems) >= MaxProblems {
		c.stop = true
	}
}

// walk checks n, written at path at, and returns its size: the nodes it
// stands for, each alias counted with what it stands for (at most
// MaxAliasNodes+1).
func (c *checker) walk(n *yaml.Node, at *step) int {
	if n == nil || c.stop {
		return 0
	}
	size := 1
	if n.Anchor != "" {
		c.open[n] = true
		defer delete(c.open, n)
	}
	switch n.Kind {
	case yaml.AliasNode:
		target := n.Alias
		if target == nil {
			return size
		}
		inner, walked := c.sizes[target]
		if !walked && c.open[target] {
			// An alias follows its anchor; one whose value has not been
			// walked to the end is inside it.
			c.add(n.Line, at, fmt.Sprintf("the alias *%s stands for a value that holds it (&%s at line %d): a value cannot contain itself, so it has no end", excerpt(n.Value), excerpt(target.Anchor), target.Line))
			c.stop = true
			return size
		}
		if !walked {
			// The YAML library resolves an alias with the anchors of the
			// documents before it in the stream, too.
			c.add(n.Line, at, fmt.Sprintf("the alias *%s names an anchor of another document (&%s at line %d): each document of a YAML stream has its own anchors", excerpt(n.Value), excerpt(target.Anchor), target.Line))
			c.stop = true
			return size
		}
		c.expanded = saturate(c.expanded + inner)
		if c.expanded > MaxAliasNodes {
			c.add(n.Line, at, fmt.Sprintf("the alias *%s makes the file more than %d YAML nodes, each use of an alias counted with all it stands for: use fewer aliases, or write the values out", excerpt(n.Value), MaxAliasNodes))
			c.stop = true
			return size
		}
		size = saturate(size + inner)
	case yaml.DocumentNode:
		for _, x := range n.Content {
			size = saturate(size + c.walk(x, at))
		}
	case yaml.SequenceNode:
		for i, x := range n.Content {
			size = saturate(size + c.walk(x, &step{up: at, index: i}))
		}
	case yaml.MappingNode:
		if keys := len(n.Content) / 2; keys > MaxMappingKeys {
			c.add(n.Line, at, fmt.Sprintf("a mapping of %d keys, more than %d: the YAML library compares each key of a mapping with every other, so its time grows with the square of their number; use a list, or split the mapping", keys, MaxMappingKeys))
			c.stop = true
			return size
		}
		first := make(map[string]int, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content) && !c.stop; i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			name, scalar := keyName(k)
			if line, dup := first[name]; dup && scalar {
				c.add(k.Line, at, fmt.Sprintf("field %s is given twice (first at line %d)", textnorm.Quote(name, maxQuoted), line))
			} else if scalar {
				first[name] = k.Line
			}
			size = saturate(size + c.walk(k, at))
			size = saturate(size + c.walk(v, &step{up: at, key: name, field: true}))
		}
	}
	if n.Anchor != "" {
		c.sizes[n] = size
	}
	return size
}

// keyName is the key a mapping's key node gives: its text, or, for an
// alias of a scalar (&k who: a, *k: b), the text of the scalar it stands
// for, as a decoder reads it. The YAML library's own check compares an
// alias key with the alias's name, so {&k who: alice, *k: mallory}
// decoded as {who: mallory}, the second silently winning. scalar is
// false for a key that is a list or a mapping, or an alias of one: no
// field's name, compared with none.
func keyName(k *yaml.Node) (name string, scalar bool) {
	if k.Kind == yaml.AliasNode && k.Alias != nil {
		k = k.Alias
	}
	return k.Value, k.Kind == yaml.ScalarNode
}

// saturate caps a count just past MaxAliasNodes, so no sum overflows.
func saturate(n int) int { return min(n, MaxAliasNodes+1) }

// excerpt bounds an anchor's name in a message.
func excerpt(s string) string { return textnorm.Excerpt(s, maxQuoted) }

// maxQuoted bounds a key or an anchor's name quoted in a message, in bytes.
const maxQuoted = 120
