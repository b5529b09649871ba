package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/evalkit-go/evalkit/assert"
)

const checksUsage = `usage: evalkit checks [-md] [TYPE ...]

Documents the check types of case files and Eval, from the registry itself:
with no TYPE, one line per type; with TYPEs (a name or an alias), each one's
parameters — type, required or default, meaning, PromptKit's name — and a
YAML example. -md writes the whole reference as Markdown (CHECKS.md is it:
go run ./cmd/evalkit checks -md > CHECKS.md).
`

// checks is `evalkit checks`: exit 0, 1 for an unknown type, 2 for a bad
// command line.
func checks(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("evalkit checks", flag.ContinueOnError)
	fl.SetOutput(stderr)
	fl.Usage = func() { fmt.Fprint(stderr, checksUsage); fl.PrintDefaults() }
	md := fl.Bool("md", false, "write the whole reference as Markdown")
	if err := fl.Parse(args); err != nil {
		return parseExit(err)
	}
	reg := assert.NewRegistry()
	var b bytes.Buffer
	switch {
	case *md:
		writeChecksMarkdown(&b, reg.Docs())
	case fl.NArg() == 0:
		w := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
		for _, d := range reg.Docs() {
			fmt.Fprintf(w, "%s\t%s\n", d.Type, firstSentence(d.Summary))
		}
		w.Flush()
		b.WriteString("\nevalkit checks TYPE: its parameters and an example.\n")
	default:
		for i, name := range fl.Args() {
			d, err := reg.Doc(name)
			if err != nil {
				fmt.Fprintln(stderr, "evalkit checks:", err)
				return 1
			}
			if i > 0 {
				b.WriteString("\n")
			}
			writeCheckText(&b, d)
		}
	}
	if err := emit(stdout, "", b.Bytes()); err != nil {
		fmt.Fprintln(stderr, "evalkit checks:", err)
		return 1
	}
	return 0
}

func firstSentence(s string) string {
	if i := strings.Index(s, ". "); i >= 0 {
		return s[:i+1]
	}
	return s
}

// writeCheckText writes one type's reference for a terminal.
func writeCheckText(b *bytes.Buffer, d assert.CheckDoc) {
	b.WriteString(d.Type)
	if len(d.Aliases) > 0 {
		b.WriteString(" (aliases: " + strings.Join(d.Aliases, ", ") + ")")
	}
	b.WriteString("\n    " + d.Summary + "\n")
	if d.Fluent != "" {
		b.WriteString("    fluent: Expect(tr)." + d.Fluent + "(...)\n")
	}
	if len(d.Params) > 0 {
		b.WriteString("\nparameters:\n")
		for _, p := range d.Params {
			b.WriteString("  " + paramHead(p) + "\n")
			b.WriteString("      " + p.Meaning + "\n")
		}
	}
	if d.Example != "" {
		b.WriteString("\nexample:\n")
		for _, line := range strings.Split(strings.TrimRight(d.Example, "\n"), "\n") {
			b.WriteString("  " + line + "\n")
		}
	}
}

// paramHead is a parameter's name, aliases, type, required or default,
// and PromptKit's name, on one line.
func paramHead(p assert.ParamDoc) string {
	parts := []string{p.Name}
	if len(p.Aliases) > 0 {
		parts[0] += " (or " + strings.Join(p.Aliases, ", ") + ")"
	}
	parts = append(parts, p.Type)
	switch {
	case p.Required:
		parts = append(parts, "required")
	case p.Default != "":
		parts = append(parts, "default: "+p.Default)
	}
	if p.PromptKit == "" {
		parts = append(parts, "evalkit's own")
	} else if p.PromptKit != p.Name {
		parts = append(parts, "PromptKit: "+p.PromptKit)
	}
	return strings.Join(parts, " · ")
}

// writeChecksMarkdown writes CHECKS.md.
func writeChecksMarkdown(b *bytes.Buffer, docs []assert.CheckDoc) {
	b.WriteString("# Check reference\n\n")
	b.WriteString("<!-- Generated from the registry by `go run ./cmd/evalkit checks -md > CHECKS.md`; do not edit.\n")
	b.WriteString("     TestChecksMarkdown fails when this file differs from what the registry says. -->\n\n")
	b.WriteString("Every check type a case file's `evals` (or `Eval(type, params)`) can name, with PromptKit's type names as\n")
	b.WriteString("aliases. Parameters are read as listed; an unknown or misspelt one is an error naming it. A parameter's\n")
	b.WriteString("PromptKit column is PromptKit's name for it, or — for evalkit's own. `evalkit checks TYPE` prints the same in a\n")
	b.WriteString("terminal. The media checks (`image_format`, `audio_duration`, …) live in package `assert/media`; see its doc.\n\n")
	b.WriteString("| type | aliases | what passes |\n|---|---|---|\n")
	for _, d := range docs {
		fmt.Fprintf(b, "| [`%s`](#%s) | %s | %s |\n", d.Type, d.Type, codeList(d.Aliases), mdCell(d.Summary))
	}
	for _, d := range docs {
		fmt.Fprintf(b, "\n## %s\n\n%s\n", d.Type, d.Summary)
		if len(d.Aliases) > 0 {
			fmt.Fprintf(b, "\nAliases: %s.", codeList(d.Aliases))
			if hasSession(d.Aliases) {
				b.WriteString(" A `_session` alias reads the whole session.")
			}
			b.WriteString("\n")
		}
		if d.Fluent != "" {
			fmt.Fprintf(b, "\nFluent: `et.Expect(tr).%s(...)`.\n", d.Fluent)
		}
		if len(d.Params) > 0 {
			b.WriteString("\n| parameter | type | required / default | meaning | PromptKit |\n|---|---|---|---|---|\n")
			for _, p := range d.Params {
				name := "`" + p.Name + "`"
				if len(p.Aliases) > 0 {
					name += " (or " + codeList(p.Aliases) + ")"
				}
				req := mdCell(p.Default)
				if p.Required {
					req = "required"
				}
				pk := "—"
				if p.PromptKit != "" {
					pk = "`" + p.PromptKit + "`"
				}
				fmt.Fprintf(b, "| %s | %s | %s | %s | %s |\n", name, p.Type, req, mdCell(p.Meaning), pk)
			}
		} else {
			b.WriteString("\nNo parameters.\n")
		}
		fmt.Fprintf(b, "\n```yaml\nevals:\n%s```\n", indent(d.Example, "  "))
	}
}

func hasSession(names []string) bool {
	for _, n := range names {
		if strings.HasSuffix(n, "_session") {
			return true
		}
	}
	return false
}

func codeList(names []string) string {
	if len(names) == 0 {
		return ""
	}
	return "`" + strings.Join(names, "`, `") + "`"
}

// mdCell makes text a table cell: a pipe escaped.
func mdCell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

func indent(s, by string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = by + l
	}
	return strings.Join(lines, "\n") + "\n"
}
