// Package yamlcheck checks a YAML document's nodes before a parser walks
// them, for what the YAML library leaves to its user when it hands out a
// node tree: a mapping key given twice (decoding into a Go map catches
// it; walking nodes does not, and the last value silently wins) and
// aliases that expand a small file into millions of nodes (the library's
// alias limit guards its own decoding, not a walk of the tree). Case files
// (evaltest) and judge set configs (judgeset) are read through it.
//
//	problems := yamlcheck.Check(&doc, "")
//	for _, p := range problems {
//		fmt.Printf("%s:%d: %s\n", file, p.Line, p.Msg) // cases[0].evals[1]: field "type" is given twice (first at line 7)
//	}
package yamlcheck

import (
	"fmt"
	"strconv"

	"go.yaml.in/yaml/v3"
)

// MaxAliasNodes bounds the nodes a document may reach through its
// aliases, each alias counted with the whole of what it stands for, as
// often as it is used: far above what sharing an evals list or a judge's
// settings between entries needs, far below what exhausts memory.
const MaxAliasNodes = 1_000_000

// Problem is one problem of a document: its line (1-based) and the
// message, which starts with the field path where there is one.
type Problem struct {
	Line int
	Msg  string
}

// Check returns the document's problems, in the order of a walk of its
// nodes: every key given twice in a mapping, named with the mapping's
// path and the first key's line, and an alias past MaxAliasNodes, named
// with the line and path of the alias written in the document that holds
// it (the walk stops there), and an alias that stands for a node holding
// it (a cycle, which would expand without end), named the same way. path is the root's path: "" or, for a
// document that is a list of cases, "cases"; a field's path is its
// mapping's, ".", and its key ("judges.strict.settings"), an element's
// its list's and "[i]".
func Check(doc *yaml.Node, path string) []Problem {
	c := &checker{open: map[*yaml.Node]bool{}}
	c.walk(doc, path, nil)
	return c.problems
}

type checker struct {
	problems []Problem
	expanded int  // nodes reached through aliases
	over     bool // past MaxAliasNodes, or a cycle: stop
	// open are the lists and mappings the walk is inside of: an alias
	// to one of them is a cycle.
	open map[*yaml.Node]bool
}

// use is an alias as written in the document, and its path.
type use struct {
	alias *yaml.Node
	path  string
}

// walk checks n at path. via is the alias written in the document through
// which n is reached, nil when n is written where it stands.
func (c *checker) walk(n *yaml.Node, path string, via *use) {
	if n == nil || c.over {
		return
	}
	if via != nil {
		c.expanded++
		if c.expanded > MaxAliasNodes {
			c.over = true
			c.problems = append(c.problems, Problem{Line: via.alias.Line, Msg: prefix(via.path, fmt.Sprintf(
				"the alias *%s makes the file more than %d YAML nodes, each use of an alias counted with all it stands for: use fewer aliases, or write the values out", via.alias.Value, MaxAliasNodes))})
			return
		}
	}
	switch n.Kind {
	case yaml.DocumentNode:
		for _, x := range n.Content {
			c.walk(x, path, via)
		}
	case yaml.AliasNode:
		if c.open[n.Alias] {
			c.over = true
			c.problems = append(c.problems, Problem{Line: n.Line, Msg: prefix(path, fmt.Sprintf(
				"the alias *%s stands for a value that holds it: it would expand without end", n.Value))})
			return
		}
		if via == nil {
			via = &use{alias: n, path: path}
		}
		c.walk(n.Alias, path, via)
	case yaml.SequenceNode:
		c.open[n] = true
		defer delete(c.open, n)
		for i, x := range n.Content {
			c.walk(x, path+"["+strconv.Itoa(i)+"]", via)
		}
	case yaml.MappingNode:
		c.open[n] = true
		defer delete(c.open, n)
		var first map[string]int
		if via == nil {
			first = make(map[string]int, len(n.Content)/2)
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if first != nil {
				if line, dup := first[k.Value]; dup {
					c.problems = append(c.problems, Problem{Line: k.Line, Msg: prefix(path, fmt.Sprintf("field %q is given twice (first at line %d)", k.Value, line))})
				} else {
					first[k.Value] = k.Line
				}
			}
			c.walk(k, path, via)
			at := k.Value
			if path != "" {
				at = path + "." + k.Value
			}
			c.walk(v, at, via)
		}
	}
}

func prefix(path, msg string) string {
	if path == "" {
		return msg
	}
	return path + ": " + msg
}
