package assert

import (
	"fmt"
	"reflect"
	"strings"
	"unicode"

	"github.com/evalkit-go/evalkit/internal/query"

	"github.com/evalkit-go/evalkit/internal/fold"
)

// Rules are canonicalization rules: what differences between two strings do
// not count when they are compared. The zero Rules compare exactly: extra
// blank lines, a trailing newline or a different case are real differences.
// Both sides of a comparison are canonicalized, the expected value as well
// as the actual one, so " Paris" with Trim equals "Paris".
//
// The rules apply in this order: IgnoreZeroWidth, CaseInsensitive,
// TrimLines, CollapseWhitespace, Trim, IgnoreWhitespace. White space is Unicode's (spaces,
// tabs, line breaks, no-break spaces).
//
// Rules back verdict grading (Passing.Labels) and value matching (Equals:
// the registry's equals takes them as the parameters case_sensitive, trim,
// collapse_whitespace, trim_lines and ignore_zero_width): one
// implementation, so a label and an answer are canonicalized alike. The
// idea, and the rule that an explicit JSON Schema is never canonicalized,
// are MindTrial's validation rules.
type Rules struct {
	// CaseInsensitive compares by full Unicode case folding on NFC text
	// (Unicode's canonical caseless match): "STRASSE" equals "straße",
	// and a decomposed "é" equals a composed one.
	CaseInsensitive bool
	// Trim removes white space at the start and end.
	Trim bool
	// CollapseWhitespace turns each run of white space, line breaks
	// included, into one space: "hello,   world" equals "hello, world".
	// It does not trim; combine it with Trim for that.
	CollapseWhitespace bool
	// TrimLines removes white space at the start and end of every line
	// ("\r" of CRLF line endings included); blank lines stay.
	TrimLines bool
	// IgnoreZeroWidth removes invisible format characters (Unicode
	// category Cf: zero-width spaces and joiners, byte-order marks, soft
	// hyphens, bidi marks), which render as nothing in logs.
	IgnoreZeroWidth bool
	// IgnoreWhitespace removes all white space, line breaks included:
	// "1: G, 2: F" equals "1:G,2:F". It applies last, so TrimLines,
	// CollapseWhitespace and Trim change nothing beside it. MindTrial's
	// ignore-whitespace rule.
	IgnoreWhitespace bool
}

// Text returns s canonicalized by the rules.
func (r Rules) Text(s string) string {
	if r.IgnoreZeroWidth {
		s = fold.StripFormat(s)
	}
	if r.CaseInsensitive {
		s = fold.CaseFold(s)
	}
	if r.TrimLines {
		lines := strings.Split(s, "\n")
		for i, l := range lines {
			lines[i] = strings.TrimSpace(l)
		}
		s = strings.Join(lines, "\n")
	}
	if r.CollapseWhitespace {
		s = collapseSpace(s)
	}
	if r.Trim {
		s = strings.TrimSpace(s)
	}
	if r.IgnoreWhitespace {
		s = strings.Join(strings.FieldsFunc(s, unicode.IsSpace), "")
	}
	return s
}

// Canonical returns v with every string canonicalized by the rules: v
// itself when it is a string, and the strings inside map[string]any and
// []any values at any depth (object keys are kept as they are, so two keys
// never merge). Other values are returned as they are; v is not modified.
func (r Rules) Canonical(v any) any {
	if r == (Rules{}) {
		return v
	}
	switch v := v.(type) {
	case string:
		return r.Text(v)
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[k] = r.Canonical(e)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = r.Canonical(e)
		}
		return out
	}
	return v
}

// Equal reports whether want and got are equal once both are canonicalized:
// values are first normalized through encoding/json (so 7, 7.0 and a Go
// int are equal, and a []string equals the []any holding the same strings),
// then compared deeply with every string canonicalized. A value JSON cannot
// hold (a channel, a function) is an error.
func (r Rules) Equal(want, got any) (bool, error) {
	w, err := query.Normalize(want)
	if err != nil {
		return false, fmt.Errorf("the expected value cannot be compared as JSON: %w", err)
	}
	g, err := query.Normalize(got)
	if err != nil {
		return false, fmt.Errorf("the actual value cannot be compared as JSON: %w", err)
	}
	return reflect.DeepEqual(r.Canonical(w), r.Canonical(g)), nil
}

// words names the rules that are on for a one-line description:
// "ignoring case, trimmed".
func (r Rules) words() string {
	var on []string
	for _, rule := range r.each() {
		if rule.on {
			on = append(on, rule.words)
		}
	}
	return strings.Join(on, ", ")
}

type ruleInfo struct {
	on    bool
	words string
}

// each lists the rules in the order Text applies them.
func (r Rules) each() []ruleInfo {
	return []ruleInfo{
		{r.IgnoreZeroWidth, "ignoring zero-width characters"},
		{r.CaseInsensitive, "ignoring case"},
		{r.TrimLines, "lines trimmed"},
		{r.CollapseWhitespace, "white space collapsed"},
		{r.Trim, "trimmed"},
		{r.IgnoreWhitespace, "ignoring white space"},
	}
}

// ruleNames are the rules' names in case files and registry params.
var ruleNames = []string{"case_insensitive", "trim", "collapse_whitespace", "trim_lines", "ignore_zero_width", "ignore_whitespace"}

// set turns on the rule with a case-file name, reporting whether it knows it.
func (r *Rules) set(name string) bool {
	switch name {
	case "case_insensitive":
		r.CaseInsensitive = true
	case "trim":
		r.Trim = true
	case "collapse_whitespace":
		r.CollapseWhitespace = true
	case "trim_lines":
		r.TrimLines = true
	case "ignore_zero_width":
		r.IgnoreZeroWidth = true
	case "ignore_whitespace", "ignore-whitespace":
		r.IgnoreWhitespace = true
	default:
		return false
	}
	return true
}

// ruleParams reads the rules as boolean parameters, as the equals check
// takes them (MindTrial's validation rules): case_sensitive (default
// true), trim, collapse_whitespace, trim_lines, ignore_zero_width,
// ignore_whitespace (each default false).
func (p *params) ruleParams() (Rules, error) {
	var r Rules
	sensitive, ok, err := p.boolean("case_sensitive")
	if err != nil {
		return r, err
	}
	r.CaseInsensitive = ok && !sensitive
	for _, b := range []struct {
		name string
		dst  *bool
	}{{"trim", &r.Trim}, {"collapse_whitespace", &r.CollapseWhitespace}, {"trim_lines", &r.TrimLines}, {"ignore_zero_width", &r.IgnoreZeroWidth}, {"ignore_whitespace", &r.IgnoreWhitespace}} {
		if *b.dst, _, err = p.boolean(b.name); err != nil {
			return r, err
		}
	}
	return r, nil
}

// rules reads a list of rule names, such as ["case_insensitive", "trim"].
func (p *params) rules(names ...string) (Rules, bool, error) {
	list, ok, err := p.strs(false, names...)
	if err != nil || !ok {
		return Rules{}, ok, err
	}
	var r Rules
	for _, n := range list {
		if !r.set(n) {
			return Rules{}, false, p.err(names[0], "unknown rule %q%s; the rules are %s", n, suggest(n, ruleNames), strings.Join(ruleNames, ", "))
		}
	}
	return r, true, nil
}

// hasFormat reports whether s holds an invisible format character.
func hasFormat(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return unicode.Is(unicode.Cf, r) }) >= 0
}

// collapseSpace turns each run of white space into one space.
func collapseSpace(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	inSpace := false
	for _, c := range s {
		if unicode.IsSpace(c) {
			if !inSpace {
				b.WriteByte(' ')
			}
			inSpace = true
			continue
		}
		inSpace = false
		b.WriteRune(c)
	}
	return b.String()
}
