package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/evalkit-go/evalkit/internal/results"
	"github.com/evalkit-go/evalkit/stats"
)

const compareUsage = `usage: evalkit compare [flags] BASE NEW

Compares two runs' results files (JSON Lines written by go test with
EVALKIT_REPORT or -artifacts). BASE and NEW are each a results file, a
directory holding *.jsonl (the shards of a run), or a quoted glob
('base/*.jsonl'). Checks pair by package, test, case and check as written
(by test, case and check when a run's lines name no package).

It shows the flips (pass→fail, fail→pass, new errors, errors cleared, new and
removed checks), pass rates per check type and per tag with McNemar's exact
test on the paired checks (Fisher's exact test where nothing pairs), score
changes, and each Repeat's pass rate with its Wilson interval. It prints a
summary; -md and -html write Markdown ($GITHUB_STEP_SUMMARY, a PR comment)
and an HTML page.

Exit status: 0 when the gate passes, 1 when it fails or a file cannot be
read, 2 for a bad command line. The gate fails on a significant regression
(p < -alpha, one-sided: NEW worse), on more checks getting worse (pass→fail,
or a new error) than -max-flips, on either within a tag named by -tag, and
on more checks without a verdict in NEW than -max-errors (default 0: a
check that could not be evaluated — a replay miss, a judge's error — is
never taken for no regression).

flags:
`

// compare is `evalkit compare BASE NEW`.
func compare(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("evalkit compare", flag.ContinueOnError)
	fl.SetOutput(stderr)
	fl.Usage = func() {
		fmt.Fprint(stderr, compareUsage)
		fl.PrintDefaults()
	}
	var g gate
	fl.Float64Var(&g.alpha, "alpha", 0.05, "significance `level` of the regression gate: a one-sided p below it fails (0: no significance gate)")
	fl.IntVar(&g.maxFlips, "max-flips", -1, "fail when more than `N` checks got worse (pass→fail or a new error); -1: no limit")
	fl.IntVar(&g.maxErrors, "max-errors", 0, "fail when more than `N` checks have no verdict in NEW where BASE had one, or are new and have none (new errors); -1: no limit")
	fl.Var(tagLimits{&g.tags}, "tag", "gate the checks of a tag on their own: `TAG=N` fails on more than N checks of TAG getting worse, or on their significant regression (repeatable)")
	mdOut := fl.String("md", "", "write the comparison as Markdown to `FILE` (\"-\": standard output)")
	htmlOut := fl.String("html", "", "write the comparison as an HTML page to `FILE`")
	title := fl.String("title", "evalkit compare", "the comparison's title")
	quiet := fl.Bool("q", false, "print no summary, only the gate's verdict")
	if err := fl.Parse(args); err != nil {
		return parseExit(err)
	}
	if fl.NArg() != 2 {
		fl.Usage()
		return 2
	}
	if !(g.alpha >= 0 && g.alpha < 1) {
		fmt.Fprintf(stderr, "evalkit compare: -alpha %v: want a level in [0,1), such as 0.05\n", g.alpha)
		return 2
	}
	base, err := readSide(fl.Arg(0))
	if err == nil && len(base.all) == 0 {
		err = fmt.Errorf("no check results in %s", strings.Join(base.files, ", "))
	}
	if err != nil {
		fmt.Fprintln(stderr, "evalkit compare: BASE:", err)
		return 1
	}
	head, err := readSide(fl.Arg(1))
	if err == nil && len(head.all) == 0 {
		err = fmt.Errorf("no check results in %s", strings.Join(head.files, ", "))
	}
	if err != nil {
		fmt.Fprintln(stderr, "evalkit compare: NEW:", err)
		return 1
	}
	pairBy(&base, &head)
	c := compareRuns(*title, base, head, g)
	if !*quiet {
		if err := emit(stdout, "", []byte(renderCompareText(c))); err != nil {
			fmt.Fprintln(stderr, "evalkit compare:", err)
			return 1
		}
	}
	if *mdOut != "" {
		if err := emit(stdout, *mdOut, []byte(renderCompareMarkdown(c))); err != nil {
			fmt.Fprintln(stderr, "evalkit compare:", err)
			return 1
		}
	}
	if *htmlOut != "" {
		page, err := renderCompareHTML(c)
		if err == nil {
			err = emit(stdout, *htmlOut, page)
		}
		if err != nil {
			fmt.Fprintln(stderr, "evalkit compare:", err)
			return 1
		}
	}
	if len(c.Failures) > 0 {
		fmt.Fprintf(stderr, "evalkit compare: gate failed:\n  %s\n", strings.Join(c.Failures, "\n  "))
		return 1
	}
	if *quiet {
		fmt.Fprintln(stderr, "evalkit compare: gate passed")
	}
	return 0
}

// gate is what fails a comparison.
type gate struct {
	alpha     float64
	maxFlips  int
	maxErrors int
	tags      map[string]int // tag → most checks that may get worse
}

// tagLimits is the -tag flag: TAG=N, repeatable.
type tagLimits struct{ m *map[string]int }

func (t tagLimits) String() string {
	if t.m == nil {
		return ""
	}
	var parts []string
	for _, k := range slices.Sorted(mapKeys(*t.m)) {
		parts = append(parts, fmt.Sprintf("%s=%d", k, (*t.m)[k]))
	}
	return strings.Join(parts, ",")
}

func (t tagLimits) Set(s string) error {
	tag, n, ok := strings.Cut(s, "=")
	limit, err := strconv.Atoi(n)
	if !ok || tag == "" || err != nil || limit < 0 {
		return fmt.Errorf("%q: want TAG=N, N a whole number >= 0 (the most checks of TAG that may get worse)", s)
	}
	if *t.m == nil {
		*t.m = map[string]int{}
	}
	(*t.m)[tag] = limit
	return nil
}

func mapKeys[V any](m map[string]V) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// side is one run: its files and its top-level check lines, in order and
// by key (see index).
type side struct {
	arg   string
	files []string
	all   []*results.Line
	lines map[string]*results.Line
}

// packaged reports whether a line of the run names its package.
func (s side) packaged() bool {
	return slices.ContainsFunc(s.all, func(l *results.Line) bool { return l.Package != "" })
}

// index files the run's lines by key, with their package or without: a
// check written twice under one key (the same check twice in a test)
// pairs by its order.
func (s *side) index(withPackage bool) {
	s.lines = map[string]*results.Line{}
	for _, l := range s.all {
		key := *l
		if !withPackage {
			key.Package = ""
		}
		k := key.Key()
		for n := 2; s.lines[k] != nil; n++ {
			k = key.Key() + "\x00#" + strconv.Itoa(n)
		}
		s.lines[k] = l
	}
}

// pairBy keys both runs' lines by package, test, case and check — the
// tests of two packages may share a name and a results file, in which
// their lines interleave as the packages ran — unless a run's lines name
// no package (a results file from before they did): then by test, case
// and check alone.
func pairBy(base, head *side) {
	by := base.packaged() && head.packaged()
	base.index(by)
	head.index(by)
}

// hasGlob reports whether a path has glob metacharacters.
func hasGlob(s string) bool { return strings.ContainsAny(s, "*?[") }

// readSide reads a run given as a file, a directory or a glob. A Repeat's
// attempts roll up into its line and are not compared one by one.
func readSide(arg string) (side, error) {
	s := side{arg: arg}
	paths := []string{arg}
	if _, err := os.Stat(arg); err != nil && hasGlob(arg) {
		m, gerr := filepath.Glob(arg)
		if gerr != nil {
			return s, fmt.Errorf("%s: %w", arg, gerr)
		}
		if len(m) == 0 {
			return s, fmt.Errorf("%s: no file matches", arg)
		}
		paths = m
	}
	files, err := resultFiles(paths)
	if err != nil {
		return s, err
	}
	s.files = files
	for _, f := range files {
		ls, err := results.ReadFile(f)
		if err != nil {
			return s, err
		}
		for i := range ls {
			if l := &ls[i]; l.Kind == results.KindCheck && l.Attempt == 0 {
				s.all = append(s.all, l)
			}
		}
	}
	return s, nil
}

// change is what happened to one check from BASE to NEW.
type change int

// The changes, in the order a comparison lists them: worse first.
const (
	regressed    change = iota // pass → fail
	newError                   // pass or fail → error
	fixed                      // fail → pass
	errorCleared               // error → pass or fail
	removed                    // in BASE only
	added                      // in NEW only
	unchanged
)

func (c change) String() string {
	return [...]string{"pass→fail", "new error", "fail→pass", "error cleared", "removed", "new", "unchanged"}[c]
}

// counted names n changes of the kind: "2 new errors".
func (c change) counted(n int) string {
	name := c.String()
	if n != 1 {
		switch c {
		case newError:
			name = "new errors"
		case errorCleared:
			name = "errors cleared"
		}
	}
	return fmt.Sprintf("%d %s", n, name)
}

// worse reports whether the change counts against -max-flips.
func (c change) worse() bool { return c == regressed || c == newError }

// pairRow is one check in BASE, NEW or both.
type pairRow struct {
	Test, Case, Check, Type string
	Tags                    []string
	Base, New               *results.Line
	Change                  change
}

// ScoreDelta is NEW's score minus BASE's, when both have one.
func (p pairRow) ScoreDelta() (float64, bool) {
	if p.Base == nil || p.New == nil || p.Base.Score == nil || p.New.Score == nil {
		return 0, false
	}
	return *p.New.Score - *p.Base.Score, true
}

func changeOf(b, n *results.Line) change {
	switch {
	case b == nil:
		return added
	case n == nil:
		return removed
	case b.Status == n.Status:
		return unchanged
	case n.Status == "error":
		return newError
	case b.Status == "error":
		return errorCleared
	case b.Status == "pass":
		return regressed
	}
	return fixed
}

// groupRow is the pass rates of a set of checks (all, a check type, a
// tag) in both runs, and the test of whether NEW is worse.
type groupRow struct {
	Name                         string
	BasePass, BaseN              int
	NewPass, NewN                int
	Worse, Better                int // paired checks: pass→fail, fail→pass
	NewErrors                    int
	Paired                       int // checks in both runs with pass or fail on both sides
	Test                         string
	P                            float64 // one-sided: NEW worse; NaN when nothing to test
	ScoreBase, ScoreNew, ScoreNs float64 // mean scores of the paired scored checks, and how many
	Graded                       bool    // a score strictly between 0 and 1: the type grades, not only passes
}

// Rate returns the BASE and NEW pass rates, NaN for none.
func (g groupRow) Rate() (base, head float64) {
	return ratio(g.BasePass, g.BaseN), ratio(g.NewPass, g.NewN)
}

func ratio(a, b int) float64 {
	if b == 0 {
		return math.NaN()
	}
	return float64(a) / float64(b)
}

// repeatCmp compares a Repeat's attempts in both runs.
type repeatCmp struct {
	Test, Check          string
	BasePassed, BaseN    int
	NewPassed, NewN      int
	BaseLo, BaseHi       float64 // Wilson 95%
	NewLo, NewHi         float64
	P                    float64 // Fisher exact, one-sided: NEW passes less
	Significant, Overlap bool
}

// comparison is what compare shows, computed once for every format.
type comparison struct {
	Title               string
	BaseArg, NewArg     string
	BaseFiles, NewFiles []string
	Alpha               float64
	Pairs               []pairRow // worse first, then better, removed, new, unchanged
	Counts              [unchanged + 1]int
	Overall             groupRow
	Types, Tags         []groupRow
	Drops               []pairRow // the largest score drops among checks whose status held
	Repeats             []repeatCmp
	Failures            []string // why the gate fails; none: it passes
}

// maxDrops bounds the score drops listed.
const maxDrops = 10

func compareRuns(title string, base, head side, g gate) comparison {
	c := comparison{Title: title, BaseArg: base.arg, NewArg: head.arg, BaseFiles: base.files, NewFiles: head.files, Alpha: g.alpha}
	keys := map[string]bool{}
	for k := range base.lines {
		keys[k] = true
	}
	for k := range head.lines {
		keys[k] = true
	}
	// A test name in several packages is shown with its package.
	pkgs := map[string]map[string]bool{}
	for _, s := range []side{base, head} {
		for _, l := range s.lines {
			if pkgs[l.Test] == nil {
				pkgs[l.Test] = map[string]bool{}
			}
			pkgs[l.Test][l.Package] = true
		}
	}
	types, tags := map[string]*groupRow{}, map[string]*groupRow{}
	for k := range keys {
		b, n := base.lines[k], head.lines[k]
		one := b
		if one == nil {
			one = n
		}
		test := one.Test
		if len(pkgs[test]) > 1 {
			test = inPackage(one.Package, test)
		}
		p := pairRow{Test: test, Case: one.Case, Check: one.Check, Type: one.Type, Tags: unionTags(b, n), Base: b, New: n, Change: changeOf(b, n)}
		c.Pairs = append(c.Pairs, p)
		c.Counts[p.Change]++
		add(&c.Overall, p)
		add(groupOf(types, p.Type), p)
		for _, tag := range p.Tags {
			add(groupOf(tags, tag), p)
		}
		if b != nil && n != nil && b.Type == "repeat" && n.Type == "repeat" && b.Attempts > 0 && n.Attempts > 0 {
			c.Repeats = append(c.Repeats, compareRepeat(p, g.alpha))
		}
	}
	sort.Slice(c.Pairs, func(i, j int) bool {
		a, b := c.Pairs[i], c.Pairs[j]
		if a.Change != b.Change {
			return a.Change < b.Change
		}
		if a.Test != b.Test {
			return a.Test < b.Test
		}
		return a.Check < b.Check
	})
	sort.Slice(c.Repeats, func(i, j int) bool {
		return c.Repeats[i].Test+c.Repeats[i].Check < c.Repeats[j].Test+c.Repeats[j].Check
	})
	c.Overall.Name = "all checks"
	test(&c.Overall)
	c.Types = finish(types)
	c.Tags = finish(tags)
	for _, p := range c.Pairs {
		if d, ok := p.ScoreDelta(); ok && d < 0 && p.Change == unchanged {
			c.Drops = append(c.Drops, p)
		}
	}
	sort.SliceStable(c.Drops, func(i, j int) bool {
		di, _ := c.Drops[i].ScoreDelta()
		dj, _ := c.Drops[j].ScoreDelta()
		return di < dj
	})
	c.Drops = c.Drops[:min(len(c.Drops), maxDrops)]
	c.Failures = g.judge(c)
	return c
}

// inPackage names a test with its package as go test is given them:
// "./examples/agent TestRefund".
func inPackage(pkg, test string) string {
	switch pkg {
	case "":
		return "(package not named) " + test
	case ".":
		return ". " + test
	}
	return "./" + pkg + " " + test
}

func unionTags(b, n *results.Line) []string {
	var tags []string
	for _, l := range []*results.Line{b, n} {
		if l == nil {
			continue
		}
		for _, t := range l.Tags {
			if !slices.Contains(tags, t) {
				tags = append(tags, t)
			}
		}
	}
	slices.Sort(tags)
	return tags
}

func groupOf(m map[string]*groupRow, name string) *groupRow {
	g := m[name]
	if g == nil {
		g = &groupRow{Name: name}
		m[name] = g
	}
	return g
}

// add counts a check into a group.
func add(g *groupRow, p pairRow) {
	if p.Base != nil {
		g.BaseN++
		if p.Base.Status == "pass" {
			g.BasePass++
		}
	}
	if p.New != nil {
		g.NewN++
		if p.New.Status == "pass" {
			g.NewPass++
		}
	}
	switch p.Change {
	case regressed:
		g.Worse++
	case fixed:
		g.Better++
	case newError:
		g.NewErrors++
	}
	if p.Base != nil && p.New != nil && p.Base.Status != "error" && p.New.Status != "error" {
		g.Paired++
	}
	if p.Base != nil && p.New != nil && p.Base.Score != nil && p.New.Score != nil {
		g.ScoreBase += *p.Base.Score
		g.ScoreNew += *p.New.Score
		g.ScoreNs++
		g.Graded = g.Graded || *p.Base.Score > 0 && *p.Base.Score < 1 || *p.New.Score > 0 && *p.New.Score < 1
	}
}

// test chooses and runs a group's test of "NEW is worse": McNemar's exact
// test on its paired pass/fail checks; where none pair, Fisher's exact test
// on the two runs' pass and fail counts, as independent samples.
func test(g *groupRow) {
	g.P = math.NaN()
	if g.ScoreNs > 0 {
		g.ScoreBase /= g.ScoreNs
		g.ScoreNew /= g.ScoreNs
	}
	switch {
	case g.Paired > 0:
		g.Test = "McNemar exact"
		g.P, _ = stats.McNemarExact(g.Worse, g.Better, stats.Greater)
	case g.BaseN > 0 && g.NewN > 0:
		g.Test = "Fisher exact"
		// An error counts with the failures here: it is not a pass.
		bf, nf := g.BaseN-g.BasePass, g.NewN-g.NewPass
		g.P, _ = stats.FisherExact(g.BasePass, bf, g.NewPass, nf, stats.Greater)
	default:
		g.Test = "none: one run only"
	}
}

func finish(m map[string]*groupRow) []groupRow {
	out := make([]groupRow, 0, len(m))
	for _, g := range m {
		test(g)
		out = append(out, *g)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func compareRepeat(p pairRow, alpha float64) repeatCmp {
	b, n := p.Base, p.New
	r := repeatCmp{Test: p.Test, Check: p.Check, BasePassed: b.Passed, BaseN: b.Attempts, NewPassed: n.Passed, NewN: n.Attempts}
	r.BaseLo, r.BaseHi, _ = stats.Wilson(b.Passed, b.Attempts, 0.95)
	r.NewLo, r.NewHi, _ = stats.Wilson(n.Passed, n.Attempts, 0.95)
	r.P, _ = stats.FisherExact(b.Passed, b.Attempts-b.Passed, n.Passed, n.Attempts-n.Passed, stats.Greater)
	r.Significant = alpha > 0 && r.P < alpha
	r.Overlap = r.NewHi >= r.BaseLo && r.BaseHi >= r.NewLo
	return r
}

// judge says why the comparison fails the gate: one line per reason.
func (g gate) judge(c comparison) []string {
	var out []string
	worse := c.Counts[regressed] + c.Counts[newError]
	if g.maxFlips >= 0 && worse > g.maxFlips {
		out = append(out, fmt.Sprintf("%d %s got worse (%d pass→fail, %d new %s), more than -max-flips %d",
			worse, plural(worse, "check", "checks"), c.Counts[regressed], c.Counts[newError], plural(c.Counts[newError], "error", "errors"), g.maxFlips))
	}
	if sig(c.Overall, g.alpha) {
		out = append(out, fmt.Sprintf("significant regression: %s", significance(c.Overall, g.alpha)))
	}
	if n, fresh := c.newErrors(); g.maxErrors >= 0 && n+fresh > g.maxErrors {
		out = append(out, fmt.Sprintf("%d %s no verdict in NEW (%d new %s, %d new %s with an error), more than -max-errors %d: a check that could not be evaluated is not a pass",
			n+fresh, plural(n+fresh, "check has", "checks have"), n, plural(n, "error", "errors"), fresh, plural(fresh, "check", "checks"), g.maxErrors))
	}
	for _, tag := range slices.Sorted(mapKeys(g.tags)) {
		limit := g.tags[tag]
		i := slices.IndexFunc(c.Tags, func(r groupRow) bool { return r.Name == tag })
		if i < 0 {
			out = append(out, fmt.Sprintf("tag %s: no check has it in either run (is -tag %s=%d misspelt?)", tag, tag, limit))
			continue
		}
		r := c.Tags[i]
		if w := r.Worse + r.NewErrors; w > limit {
			out = append(out, fmt.Sprintf("tag %s: %d %s got worse (%d pass→fail, %d new %s), more than %d", tag, w, plural(w, "check", "checks"), r.Worse, r.NewErrors, plural(r.NewErrors, "error", "errors"), limit))
		}
		if sig(r, g.alpha) {
			out = append(out, fmt.Sprintf("tag %s: significant regression: %s", tag, significance(r, g.alpha)))
		}
	}
	for _, r := range c.Repeats {
		if r.Significant {
			out = append(out, fmt.Sprintf("%s %s: pass rate %d/%d → %d/%d, Fisher exact p = %s < %s", r.Test, r.Check, r.BasePassed, r.BaseN, r.NewPassed, r.NewN, pValue(r.P), num(g.alpha)))
		}
	}
	return out
}

// newErrors counts the checks without a verdict in NEW: those BASE had a
// verdict for, and those new in NEW.
func (c comparison) newErrors() (changed, fresh int) {
	for _, p := range c.Pairs {
		if p.Change == added && p.New.Status == "error" {
			fresh++
		}
	}
	return c.Counts[newError], fresh
}

// sig reports whether a group's regression is significant at alpha.
func sig(r groupRow, alpha float64) bool { return alpha > 0 && !math.IsNaN(r.P) && r.P < alpha }

// significance says a group's test and its outcome in words.
func significance(r groupRow, alpha float64) string {
	if math.IsNaN(r.P) {
		return "no test (" + r.Test + ")"
	}
	rel := ">="
	if r.P < alpha {
		rel = "<"
	}
	return fmt.Sprintf("%s, one-sided (NEW worse), p = %s %s %s", r.Test, pValue(r.P), rel, num(alpha))
}

// pValue writes a p-value to three significant digits, and a tiny one as
// such.
func pValue(p float64) string {
	switch {
	case math.IsNaN(p):
		return "–"
	case p < 0.0001:
		return "< 0.0001"
	case p >= 0.9995:
		return "1"
	}
	return strconv.FormatFloat(p, 'g', 3, 64)
}
