// Package yamlcheck checks a YAML document's nodes before a parser walks
// them, for what the YAML library leaves to its user when it hands out a
// node tree: a mapping key given twice (decoding into a Go map catches
// it; walking nodes does not, and the last value silently wins). Case
// files (evaltest) and judge set configs (judgeset) are read through it.
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

// Problem is one problem of a document: its line (1-based) and the
// message, which starts with the field path where there is one.
type Problem struct {
	Line int
	Msg  string
}

// Check returns the document's problems, in the order of a walk of its
// nodes: every key given twice in a mapping, named with the mapping's
// path and the first key's line. path is the root's path: "" or, for a
// document that is a list of cases, "cases"; a field's path is its
// mapping's, ".", and its key ("judges.strict.settings"), an element's
// its list's and "[i]".
func Check(doc *yaml.Node, path string) []Problem {
	c := &checker{}
	c.walk(doc, path)
	return c.problems
}

type checker struct {
	problems []Problem
}

// walk checks n at path. An alias's value is checked where it is
// written, not where it is used.
func (c *checker) walk(n *yaml.Node, path string) {
	if n == nil {
		return
	}
	switch n.Kind {
	case yaml.DocumentNode:
		for _, x := range n.Content {
			c.walk(x, path)
		}
	case yaml.SequenceNode:
		for i, x := range n.Content {
			c.walk(x, path+"["+strconv.Itoa(i)+"]")
		}
	case yaml.MappingNode:
		first := make(map[string]int, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if line, dup := first[k.Value]; dup {
				c.problems = append(c.problems, Problem{Line: k.Line, Msg: prefix(path, fmt.Sprintf("field %q is given twice (first at line %d)", k.Value, line))})
			} else {
				first[k.Value] = k.Line
			}
			c.walk(k, path)
			at := k.Value
			if path != "" {
				at = path + "." + k.Value
			}
			c.walk(v, at)
		}
	}
}

func prefix(path, msg string) string {
	if path == "" {
		return msg
	}
	return path + ": " + msg
}
