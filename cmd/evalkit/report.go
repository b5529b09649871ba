package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/internal/results"
	"github.com/evalkit-go/evalkit/stats"
)

const reportUsage = `usage: evalkit report [-html FILE] [-md FILE] [-title TEXT] results ...

Reads evalkit results files (JSON Lines written by go test with EVALKIT_REPORT
or -artifacts; one per shard or package, or directories holding *.jsonl) and
writes a self-contained HTML page (-html: summary, pass rate per check type,
score histograms, judge cost, each case with its checks and transcript) and a
Markdown summary (-md; "-" for standard output, such as $GITHUB_STEP_SUMMARY).
Give at least one of -html and -md.
`

// report is `evalkit report`: exit 0 when the report was written, 1 when
// a results file could not be read or holds no results, 2 for a bad
// command line.
func report(args []string, stdout, stderr io.Writer) int {
	fl := flag.NewFlagSet("evalkit report", flag.ContinueOnError)
	fl.SetOutput(stderr)
	fl.Usage = func() { fmt.Fprint(stderr, reportUsage) }
	htmlOut := fl.String("html", "", "write the HTML report to `FILE`")
	mdOut := fl.String("md", "", "write the Markdown summary to `FILE` (\"-\": standard output)")
	title := fl.String("title", "evalkit report", "the report's title")
	if err := fl.Parse(args); err != nil {
		return parseExit(err)
	}
	if fl.NArg() == 0 || *htmlOut == "" && *mdOut == "" {
		fmt.Fprint(stderr, reportUsage)
		return 2
	}
	files, err := resultFiles(fl.Args())
	if err != nil {
		fmt.Fprintln(stderr, "evalkit report:", err)
		return 1
	}
	var lines []results.Line
	for _, f := range files {
		ls, err := results.ReadFile(f)
		if err != nil {
			fmt.Fprintln(stderr, "evalkit report:", err)
			return 1
		}
		lines = append(lines, ls...)
	}
	r := summarize(*title, files, lines)
	if r.Checks == 0 {
		fmt.Fprintf(stderr, "evalkit report: no check results in %s\n", strings.Join(files, ", "))
		return 1
	}
	if *htmlOut != "" {
		page, err := renderHTML(r)
		if err == nil {
			err = writeOutput(*htmlOut, page)
		}
		if err != nil {
			fmt.Fprintln(stderr, "evalkit report:", err)
			return 1
		}
	}
	if *mdOut != "" {
		md := renderMarkdown(r)
		if *mdOut == "-" {
			_, err = io.WriteString(stdout, md)
		} else {
			err = writeOutput(*mdOut, []byte(md))
		}
		if err != nil {
			fmt.Fprintln(stderr, "evalkit report:", err)
			return 1
		}
	}
	return 0
}

// resultFiles expands directories into the *.jsonl files under them,
// sorted; a named file is taken as it is.
func resultFiles(args []string) ([]string, error) {
	var files []string
	for _, a := range args {
		info, err := os.Stat(a)
		if err != nil {
			return nil, err
		}
		if !info.IsDir() {
			files = append(files, a)
			continue
		}
		var found []string
		err = filepath.WalkDir(a, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && strings.HasSuffix(d.Name(), ".jsonl") {
				found = append(found, path)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		if len(found) == 0 {
			return nil, fmt.Errorf("%s holds no *.jsonl results files", a)
		}
		slices.Sort(found)
		files = append(files, found...)
	}
	return files, nil
}

// summary is what a report shows, computed once for both formats.
type summary struct {
	Title              string
	Files              []string
	Checks             int
	Pass, Fail, Error  int
	Tests, Cases       int
	Shards             []string
	Types              []typeRow
	Judges             []judgeRow
	CostLive, CostRepl float64
	Tokens             int
	Agreement          string // Krippendorff's alpha over the panels' votes, or why there is none
	Repeats            []repeatRow
	Histograms         []histogram
	Groups             []group
	Failures           []failure
}

type typeRow struct {
	Type              string
	Pass, Fail, Error int
}

// Rate is the share of the type's checks that passed, in [0,1].
func (t typeRow) Rate() float64 { return float64(t.Pass) / float64(t.Pass+t.Fail+t.Error) }

type judgeRow struct {
	Judge                  string
	Live, Replayed, Fake   int
	Tokens                 int
	CostLive, CostReplayed float64
	LatencyMS              float64
}

type repeatRow struct {
	Test, Check, Status    string
	Attempts, Passed, Need int
	PassHatK, PassAtK      string
}

// histogram is a type's scores, counted as the types table counts its
// checks: a Repeat's attempts' checks roll up into their Repeat, and are
// counted apart (InAttempts).
type histogram struct {
	Type       string
	Counts     [10]int // scores in [0,0.1), …, [0.9,1]
	N          int
	InAttempts int // scores of the type's checks in Repeat attempts, not counted
}

// Title is the histogram's title: its type and count, and the attempts'
// checks it leaves to their Repeats.
func (h histogram) Title() string {
	t := fmt.Sprintf("Scores of %s: %d %s", h.Type, h.N, plural(h.N, "check", "checks"))
	if h.InAttempts > 0 {
		t += fmt.Sprintf(" (%d more in Repeat attempts, counted in their Repeat)", h.InAttempts)
	}
	return t
}

// group is one test (or case) and its checks. A Repeat's attempts' checks
// follow their Repeat's row, and are counted apart from the test's own
// checks (Attempts*), as every table of the report counts them.
type group struct {
	Test, Case                             string
	Pass, Fail, Error                      int
	AttemptPass, AttemptFail, AttemptError int
	Checks                                 []checkRow
	Transcripts                            []string // rendered
	pending                                []checkRow
}

type checkRow struct {
	Check, Type, Status, Score, Judge, Source, Message string
	Criteria, Reasoning, Threshold                     string
	Attempt                                            int
	Attempts                                           string // a Repeat's attempts' checks: "10 pass, 2 fail"
}

// LongReasoning reports whether the reasoning is long enough to be folded.
func (c checkRow) LongReasoning() bool { return len(c.Reasoning) > 400 }

type failure struct {
	Test, Status, First string
}

// attemptCounts says how a Repeat's attempts' checks went: "10 pass, 2 fail".
func attemptCounts(rows []checkRow) string {
	n := map[string]int{}
	for _, r := range rows {
		n[r.Status]++
	}
	var parts []string
	for _, st := range []string{"pass", "fail", "error"} {
		if n[st] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n[st], st))
		}
	}
	return strings.Join(parts, ", ")
}

// maxFailures bounds the failures the Markdown summary lists.
const maxFailures = 30

func summarize(title string, files []string, lines []results.Line) summary {
	s := summary{Title: title, Files: files}
	transcripts := map[string]json.RawMessage{}
	for _, l := range lines {
		if l.Kind == results.KindTranscript {
			transcripts[l.ID] = l.Transcript
		}
	}
	types := map[string]*typeRow{}
	judges := map[string]*judgeRow{}
	hists := map[string]*histogram{}
	groups := map[string]*group{}
	var order []string
	tests, cases, shards := map[string]bool{}, map[string]bool{}, map[string]bool{}
	var panelRun []evalkit.Verdict
	for _, l := range lines {
		if l.Kind != results.KindCheck {
			continue
		}
		// An attempt's checks roll up into their Repeat's line: they
		// show in their case, the histograms and the judges' cost, not
		// in the totals.
		top := l.Attempt == 0
		if top {
			s.Checks++
		}
		name, _, _ := strings.Cut(l.Test, "/")
		tests[name] = true
		if l.Case != "" {
			cases[l.Test] = true
		}
		if l.Shard != "" {
			shards[l.Shard] = true
		}
		g := groups[l.Test]
		if g == nil {
			g = &group{Test: l.Test, Case: l.Case}
			groups[l.Test] = g
			order = append(order, l.Test)
		}
		if top {
			tr := types[l.Type]
			if tr == nil {
				tr = &typeRow{Type: l.Type}
				types[l.Type] = tr
			}
			switch l.Status {
			case "pass":
				s.Pass++
				tr.Pass++
				g.Pass++
			case "fail":
				s.Fail++
				tr.Fail++
				g.Fail++
			default:
				s.Error++
				tr.Error++
				g.Error++
			}
		}
		if l.Status != "pass" && top {
			first, _, _ := strings.Cut(l.Message, "\n")
			s.Failures = append(s.Failures, failure{Test: l.Test, Status: l.Status, First: first})
		}
		row := checkRow{Check: l.Check, Type: l.Type, Status: l.Status, Score: "–", Judge: l.Judge, Source: l.Source, Message: l.Message, Attempt: l.Attempt,
			Criteria: l.Criteria, Reasoning: l.Reasoning, Threshold: l.Threshold}
		if l.Score != nil {
			row.Score = fmt.Sprintf("%.2f", *l.Score)
		}
		switch {
		case !top:
			// An attempt's check: shown after its Repeat, whose line
			// comes once its attempts are done.
			switch l.Status {
			case "pass":
				g.AttemptPass++
			case "fail":
				g.AttemptFail++
			default:
				g.AttemptError++
			}
			g.pending = append(g.pending, row)
		case l.Type == "repeat":
			row.Attempts = attemptCounts(g.pending)
			g.Checks = append(g.Checks, row)
			g.Checks = append(g.Checks, g.pending...)
			g.pending = nil
		default:
			g.Checks = append(g.Checks, row)
		}
		if l.TranscriptID != "" {
			if raw, ok := transcripts[l.TranscriptID]; ok {
				transcripts[l.TranscriptID] = nil // rendered once, in the first group that read it
				if tr, err := evalkit.Decode(raw); err == nil {
					g.Transcripts = append(g.Transcripts, evalkit.RenderTranscript(tr, evalkit.RenderOptions{}))
				}
			}
		}
		if l.Judge != "" || l.Source != "" {
			name := l.Judge
			if name == "" {
				name = "(unnamed judge)"
			}
			j := judges[name]
			if j == nil {
				j = &judgeRow{Judge: name}
				judges[name] = j
			}
			j.Tokens += l.Tokens
			j.LatencyMS += l.LatencyMS
			s.Tokens += l.Tokens
			switch {
			case strings.Contains(l.Source, "live"):
				j.Live++
				j.CostLive += l.CostUSD
				s.CostLive += l.CostUSD
			case l.Source == "replayed":
				j.Replayed++
				j.CostReplayed += l.CostUSD
				s.CostRepl += l.CostUSD
			default:
				j.Fake++
			}
		}
		if l.Score != nil && (l.Judge != "" || l.Type == "repeat" || l.Type == "consistent") {
			h := hists[l.Type]
			if h == nil {
				h = &histogram{Type: l.Type}
				hists[l.Type] = h
			}
			if top {
				bin := int(math.Floor(*l.Score * 10))
				h.Counts[min(max(bin, 0), 9)]++
				h.N++
			} else {
				h.InAttempts++
			}
		}
		if l.Type == "repeat" && l.Attempts > 0 && l.Passed >= 0 && l.Passed <= l.Attempts {
			rr := repeatRow{Test: l.Test, Check: l.Check, Status: l.Status, Attempts: l.Attempts, Passed: l.Passed, Need: l.Need}
			var hat, at []string
			for k := 1; k <= l.Attempts && k > 0; k *= 2 { // k > 0: no overflow past a file's huge count
				h, err := stats.PassHatK(l.Attempts, l.Passed, k)
				a, _ := stats.PassAtK(l.Attempts, l.Passed, k)
				if err != nil {
					hat, at = []string{"–"}, []string{"–"} // counts no run makes (past MaxKAttempts)
					break
				}
				hat = append(hat, fmt.Sprintf("%.2f (k=%d)", h, k))
				at = append(at, fmt.Sprintf("%.2f (k=%d)", a, k))
			}
			rr.PassHatK, rr.PassAtK = strings.Join(hat, ", "), strings.Join(at, ", ")
			s.Repeats = append(s.Repeats, rr)
		}
		if len(l.Votes) >= 2 {
			v := evalkit.Verdict{}
			for _, vote := range l.Votes {
				ev := evalkit.Vote{Judge: vote.Judge, Err: vote.Error}
				if vote.Score != nil {
					ev.Verdict = evalkit.Verdict{Score: *vote.Score, Scored: true}
				} else if vote.Label != "" {
					ev.Verdict = evalkit.Verdict{Label: vote.Label}
				}
				v.Votes = append(v.Votes, ev)
			}
			panelRun = append(panelRun, v)
		}
	}
	s.Tests, s.Cases = len(tests), len(cases)
	for sh := range shards {
		s.Shards = append(s.Shards, sh)
	}
	slices.Sort(s.Shards)
	for _, t := range types {
		s.Types = append(s.Types, *t)
	}
	sort.Slice(s.Types, func(i, j int) bool { return s.Types[i].Type < s.Types[j].Type })
	for _, j := range judges {
		s.Judges = append(s.Judges, *j)
	}
	sort.Slice(s.Judges, func(i, j int) bool { return s.Judges[i].Judge < s.Judges[j].Judge })
	for _, h := range hists {
		s.Histograms = append(s.Histograms, *h)
	}
	sort.Slice(s.Histograms, func(i, j int) bool { return s.Histograms[i].Type < s.Histograms[j].Type })
	for _, name := range order {
		g := groups[name]
		g.Checks = append(g.Checks, g.pending...) // attempts whose Repeat has no line (a run cut short)
		g.pending = nil
		s.Groups = append(s.Groups, *g)
	}
	switch a, err := evalkit.PanelAgreement(panelRun); {
	case len(panelRun) == 0:
		s.Agreement = "no panel verdicts"
	case err != nil:
		s.Agreement = "not measurable: " + strings.TrimPrefix(err.Error(), "evalkit: panel agreement: ")
	default:
		s.Agreement = fmt.Sprintf("Krippendorff's alpha %.3f (%s) over %d panel verdicts", a.Alpha, a.Metric, a.Units)
	}
	return s
}

// renderMarkdown is the summary for a CI job page: totals, pass rate per
// check type, judges, Repeats, and the first failures.
func renderMarkdown(s summary) string {
	var b bytes.Buffer
	fmt.Fprintf(&b, "## %s\n\n", mdEscape(s.Title))
	fmt.Fprintf(&b, "**%d %s**: %d pass, %d fail, %d error · %d %s, %d %s", s.Checks, plural(s.Checks, "check", "checks"), s.Pass, s.Fail, s.Error,
		s.Tests, plural(s.Tests, "test", "tests"), s.Cases, plural(s.Cases, "case", "cases"))
	if len(s.Shards) > 0 {
		fmt.Fprintf(&b, " · shards %s", strings.Join(s.Shards, ", "))
	}
	fmt.Fprintf(&b, " · judge cost $%.4f live, $%.4f replayed (recorded) · %d tokens\n\n", s.CostLive, s.CostRepl, s.Tokens)
	b.WriteString("| check type | pass | fail | error | pass rate |\n|---|---:|---:|---:|---:|\n")
	for _, t := range s.Types {
		fmt.Fprintf(&b, "| `%s` | %d | %d | %d | %.0f%% |\n", mdCode(t.Type), t.Pass, t.Fail, t.Error, 100*t.Rate())
	}
	if len(s.Judges) > 0 {
		b.WriteString("\n| judge | live | replayed | fake | tokens | cost (live) |\n|---|---:|---:|---:|---:|---:|\n")
		for _, j := range s.Judges {
			fmt.Fprintf(&b, "| %s | %d | %d | %d | %d | $%.4f |\n", mdEscape(j.Judge), j.Live, j.Replayed, j.Fake, j.Tokens, j.CostLive)
		}
		fmt.Fprintf(&b, "\nPanel agreement: %s.\n", mdEscape(s.Agreement))
	}
	if len(s.Repeats) > 0 {
		b.WriteString("\n| repeat | status | passed | pass^k |\n|---|---|---:|---|\n")
		for _, r := range s.Repeats {
			fmt.Fprintf(&b, "| `%s` `%s` | %s | %d of %d (need %d) | %s |\n", mdCode(r.Test), mdCode(r.Check), mdEscape(r.Status), r.Passed, r.Attempts, r.Need, r.PassHatK)
		}
	}
	if len(s.Failures) > 0 {
		fmt.Fprintf(&b, "\n### Failures and errors (%d)\n\n", len(s.Failures))
		for i, f := range s.Failures {
			if i == maxFailures {
				fmt.Fprintf(&b, "- … and %d more\n", len(s.Failures)-maxFailures)
				break
			}
			fmt.Fprintf(&b, "- **%s** `%s`: %s\n", mdEscape(f.Status), mdCode(f.Test), mdEscape(excerpt(f.First, 300)))
		}
	}
	return b.String()
}

// mdEscape makes text from a results file plain Markdown text mid-line:
// no table cell break, emphasis, strikethrough, link, image, HTML, code
// span, entity or (GitHub's) math of its own. The marks that make those are
// backslash-escaped (a "(" or "!" means something only beside an escaped
// "[", a "#" or "-" only at a line's start, which this text never is); a
// line break is a space.
func mdEscape(s string) string { return mdText.Replace(s) }

var mdText = strings.NewReplacer(
	"\\", `\\`, "|", `\|`, "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`, "<", `\<`, ">", `\>`, "~", `\~`, "`", "\\`", "&", `\&`, "$", `\$`,
	"\r\n", " ", "\n", " ", "\r", " ",
)

// mdCode makes text from a results file the inside of a code span in a
// table cell: a backtick would end the span (so it becomes '), a pipe the
// cell (escaped, as GitHub's tables allow inside code), a line break the row.
func mdCode(s string) string { return mdCodeText.Replace(s) }

var mdCodeText = strings.NewReplacer("`", "'", "|", `\|`, "\r\n", " ", "\n", " ", "\r", " ")

func excerpt(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !isRuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }
