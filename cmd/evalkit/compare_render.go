package main

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"text/tabwriter"

	"github.com/evalkit-go/evalkit/internal/results"
)

// maxFlipsShown bounds the changed checks the text and Markdown list; the
// HTML page lists every one.
const maxFlipsShown = 50

// changed returns the pairs that changed, worse first.
func (c comparison) changed() []pairRow {
	var out []pairRow
	for _, p := range c.Pairs {
		if p.Change != unchanged {
			out = append(out, p)
		}
	}
	return out
}

// headline is the comparison's first lines: both runs, what changed, the
// overall test.
func (c comparison) headline() (base, head, changes, test string) {
	o := c.Overall
	br, nr := o.Rate()
	base = fmt.Sprintf("%d checks, %d pass (%s)", o.BaseN, o.BasePass, percent(br))
	head = fmt.Sprintf("%d checks, %d pass (%s, %s)", o.NewN, o.NewPass, percent(nr), points(nr-br))
	var parts []string
	for ch := regressed; ch < unchanged; ch++ {
		parts = append(parts, ch.counted(c.Counts[ch]))
	}
	changes = strings.Join(parts, ", ") + fmt.Sprintf(", %d unchanged", c.Counts[unchanged])
	return base, head, changes, significance(o, c.Alpha)
}

func percent(f float64) string {
	if math.IsNaN(f) {
		return "–"
	}
	return fmt.Sprintf("%.1f%%", 100*f)
}

// points writes a change of rate in percentage points, signed.
func points(d float64) string {
	if math.IsNaN(d) {
		return "–"
	}
	return fmt.Sprintf("%+.1f points", 100*d)
}

func filesNote(files []string) string {
	return fmt.Sprintf("%d %s", len(files), plural(len(files), "file", "files"))
}

// outcome writes a check's status and score in one run: "pass 0.90",
// "fail", "–" when absent.
func outcome(l *results.Line) string {
	if l == nil {
		return "–"
	}
	if l.Score != nil {
		return fmt.Sprintf("%s %.2f", l.Status, *l.Score)
	}
	return l.Status
}

func firstLine(s string) string {
	first, _, _ := strings.Cut(s, "\n")
	return first
}

func testName(p pairRow) string { return p.Test }

// renderCompareText is the summary compare prints.
func renderCompareText(c comparison) string {
	var b bytes.Buffer
	base, head, changes, test := c.headline()
	fmt.Fprintf(&b, "%s\nBASE %s (%s): %s\nNEW  %s (%s): %s\nchanges: %s\n%s\n", c.Title, c.BaseArg, filesNote(c.BaseFiles), base, c.NewArg, filesNote(c.NewFiles), head, changes, test)
	if ch := c.changed(); len(ch) > 0 {
		fmt.Fprintf(&b, "\nchanged checks (%d):\n", len(ch))
		w := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
		for i, p := range ch {
			if i == maxFlipsShown {
				fmt.Fprintf(w, "  … and %d more\n", len(ch)-maxFlipsShown)
				break
			}
			fmt.Fprintf(w, "  %s\t%s\t%s\t%s → %s\n", p.Change, oneLine(testName(p)), oneLine(excerpt(p.Check, 80)), outcome(p.Base), outcome(p.New))
		}
		w.Flush()
	}
	groupsText(&b, "check type", c.Types)
	groupsText(&b, "tag", c.Tags)
	if rows := graded(c.Types); len(rows) > 0 {
		fmt.Fprintf(&b, "\nmean score of the checks scored in both runs:\n")
		w := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
		fmt.Fprintf(w, "  check type\tchecks\tBASE\tNEW\tΔ\n")
		for _, r := range rows {
			fmt.Fprintf(w, "  %s\t%.0f\t%.3f\t%.3f\t%+.3f\n", oneLine(r.Name), r.ScoreNs, r.ScoreBase, r.ScoreNew, r.ScoreNew-r.ScoreBase)
		}
		w.Flush()
	}
	if len(c.Drops) > 0 {
		fmt.Fprintf(&b, "\nlargest score drops (status unchanged):\n")
		w := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
		for _, p := range c.Drops {
			d, _ := p.ScoreDelta()
			fmt.Fprintf(w, "  %s\t%s\t%.2f → %.2f\t%+.2f\n", oneLine(p.Test), oneLine(excerpt(p.Check, 80)), *p.Base.Score, *p.New.Score, d)
		}
		w.Flush()
	}
	if len(c.Repeats) > 0 {
		fmt.Fprintf(&b, "\nrepeats (pass rate, Wilson 95%% interval):\n")
		w := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
		for _, r := range c.Repeats {
			fmt.Fprintf(w, "  %s\t%s\t%s\t→ %s\tFisher exact p = %s%s\n", oneLine(r.Test), oneLine(excerpt(r.Check, 60)), repeatRate(r.BasePassed, r.BaseN, r.BaseLo, r.BaseHi), repeatRate(r.NewPassed, r.NewN, r.NewLo, r.NewHi), pValue(r.P), repeatNote(r))
		}
		w.Flush()
	}
	if len(c.Failures) > 0 {
		fmt.Fprintf(&b, "\ngate: FAIL\n  %s\n", strings.Join(c.Failures, "\n  "))
	} else {
		fmt.Fprintf(&b, "\ngate: pass\n")
	}
	return b.String()
}

func groupsText(b *bytes.Buffer, what string, rows []groupRow) {
	if len(rows) == 0 {
		return
	}
	fmt.Fprintf(b, "\n")
	w := tabwriter.NewWriter(b, 0, 4, 2, ' ', 0)
	fmt.Fprintf(w, "  %s\tBASE\tNEW\tΔ\tworse\tbetter\tnew errors\tp (NEW worse)\ttest\n", what)
	for _, r := range rows {
		br, nr := r.Rate()
		fmt.Fprintf(w, "  %s\t%s\t%s\t%s\t%d\t%d\t%d\t%s\t%s\n", oneLine(r.Name), rateOf(r.BasePass, r.BaseN), rateOf(r.NewPass, r.NewN), signedPoints(nr-br), r.Worse, r.Better, r.NewErrors, pValue(r.P), r.Test)
	}
	w.Flush()
}

// graded returns the check types that grade (a score between 0 and 1),
// for the table of mean scores.
func graded(rows []groupRow) []groupRow {
	var out []groupRow
	for _, r := range rows {
		if r.Graded && r.ScoreNs > 0 {
			out = append(out, r)
		}
	}
	return out
}

func rateOf(pass, n int) string {
	if n == 0 {
		return "–"
	}
	return fmt.Sprintf("%d/%d %s", pass, n, percent(ratio(pass, n)))
}

func signedPoints(d float64) string {
	if math.IsNaN(d) {
		return "–"
	}
	return fmt.Sprintf("%+.1f", 100*d)
}

func repeatRate(passed, n int, lo, hi float64) string {
	return fmt.Sprintf("%d/%d [%.2f, %.2f]", passed, n, lo, hi)
}

func repeatNote(r repeatCmp) string {
	switch {
	case r.Significant:
		return " (significant)"
	case !r.Overlap:
		return " (intervals apart)"
	}
	return ""
}

// oneLine keeps text from a results file on one terminal line.
func oneLine(s string) string {
	return strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ", "\t", " ").Replace(s)
}

// renderCompareMarkdown is the comparison as GitHub Markdown: for a PR
// comment or $GITHUB_STEP_SUMMARY. Text from the results files goes
// through mdEscape and mdCode, as in evalkit report.
func renderCompareMarkdown(c comparison) string {
	var b bytes.Buffer
	base, head, changes, test := c.headline()
	fmt.Fprintf(&b, "## %s\n\n", mdEscape(c.Title))
	if len(c.Failures) > 0 {
		fmt.Fprintf(&b, "**Gate: failed**\n\n")
		for _, f := range c.Failures {
			fmt.Fprintf(&b, "- %s\n", mdEscape(f))
		}
		b.WriteString("\n")
	} else {
		b.WriteString("**Gate: passed**\n\n")
	}
	b.WriteString("| run | results | checks |\n|---|---|---|\n")
	fmt.Fprintf(&b, "| BASE | `%s` (%s) | %s |\n", mdCode(c.BaseArg), filesNote(c.BaseFiles), mdEscape(base))
	fmt.Fprintf(&b, "| NEW | `%s` (%s) | %s |\n", mdCode(c.NewArg), filesNote(c.NewFiles), mdEscape(head))
	fmt.Fprintf(&b, "\nChanges: %s.\n\nTest: %s.\n", mdEscape(changes), mdEscape(test))
	if ch := c.changed(); len(ch) > 0 {
		fmt.Fprintf(&b, "\n### Changed checks (%d)\n\n| change | test | check | BASE | NEW |\n|---|---|---|---|---|\n", len(ch))
		for i, p := range ch {
			if i == maxFlipsShown {
				fmt.Fprintf(&b, "\n… and %d more.\n", len(ch)-maxFlipsShown)
				break
			}
			fmt.Fprintf(&b, "| %s | `%s` | `%s` | %s | %s |\n", p.Change, mdCode(p.Test), mdCode(excerpt(p.Check, 120)), mdOutcome(p.Base), mdOutcome(p.New))
		}
	}
	groupsMarkdown(&b, "Pass rate per check type", "check type", c.Types, true)
	groupsMarkdown(&b, "Pass rate per tag", "tag", c.Tags, false)
	if rows := graded(c.Types); len(rows) > 0 {
		b.WriteString("\n### Mean score per check type\n\nOver the checks scored in both runs.\n\n| check type | checks | BASE | NEW | Δ |\n|---|---:|---:|---:|---:|\n")
		for _, r := range rows {
			fmt.Fprintf(&b, "| `%s` | %.0f | %.3f | %.3f | %+.3f |\n", mdCode(r.Name), r.ScoreNs, r.ScoreBase, r.ScoreNew, r.ScoreNew-r.ScoreBase)
		}
	}
	if len(c.Drops) > 0 {
		b.WriteString("\n### Largest score drops (status unchanged)\n\n| test | check | BASE | NEW | Δ |\n|---|---|---:|---:|---:|\n")
		for _, p := range c.Drops {
			d, _ := p.ScoreDelta()
			fmt.Fprintf(&b, "| `%s` | `%s` | %.2f | %.2f | %+.2f |\n", mdCode(p.Test), mdCode(excerpt(p.Check, 120)), *p.Base.Score, *p.New.Score, d)
		}
	}
	if len(c.Repeats) > 0 {
		b.WriteString("\n### Repeats\n\nPass rate of the attempts, with its Wilson 95% interval; Fisher's exact test, one-sided (NEW worse).\n\n| test | repeat | BASE | NEW | p |\n|---|---|---|---|---:|\n")
		for _, r := range c.Repeats {
			fmt.Fprintf(&b, "| `%s` | `%s` | %s | %s | %s%s |\n", mdCode(r.Test), mdCode(r.Check), repeatRate(r.BasePassed, r.BaseN, r.BaseLo, r.BaseHi), repeatRate(r.NewPassed, r.NewN, r.NewLo, r.NewHi), pValue(r.P), repeatNote(r))
		}
	}
	return b.String()
}

// mdOutcome is outcome for a Markdown cell, with the failure message's
// first line.
func mdOutcome(l *results.Line) string {
	s := mdEscape(outcome(l))
	if l != nil && l.Message != "" && l.Status != "pass" {
		s += ": " + mdEscape(excerpt(firstLine(l.Message), 160))
	}
	return s
}

func groupsMarkdown(b *bytes.Buffer, heading, what string, rows []groupRow, code bool) {
	if len(rows) == 0 {
		return
	}
	fmt.Fprintf(b, "\n### %s\n\n| %s | BASE | NEW | Δ points | worse | better | new errors | p (NEW worse) | test |\n|---|---:|---:|---:|---:|---:|---:|---:|---|\n", heading, what)
	for _, r := range rows {
		br, nr := r.Rate()
		name := mdEscape(r.Name)
		if code {
			name = "`" + mdCode(r.Name) + "`"
		}
		fmt.Fprintf(b, "| %s | %s | %s | %s | %d | %d | %d | %s | %s |\n", name, rateOf(r.BasePass, r.BaseN), rateOf(r.NewPass, r.NewN), signedPoints(nr-br), r.Worse, r.Better, r.NewErrors, pValue(r.P), r.Test)
	}
}
