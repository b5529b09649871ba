package main

import (
	"bytes"
	"fmt"
	"html/template"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/evalkit-go/evalkit/golden"
)

// maxReason bounds a reasoning an audit prints, in bytes.
const maxReason = 300

func (r *auditReport) headline() []string {
	// How many were sampled and asked, and how many got a verdict: a
	// sample none of whose entries got one audited nothing.
	lines := []string{fmt.Sprintf("asked %d of %d auditable entries (seed %d), %d got a verdict, from %d %s holding %d %s",
		len(r.Rows), r.Auditable, r.Seed, r.Asked, r.Recordings, plural(r.Recordings, "recording", "recordings"), r.Entries, plural(r.Entries, "entry", "entries"))}
	for _, why := range slices.Sorted(maps.Keys(r.NotAuditable)) {
		n := r.NotAuditable[why]
		lines = append(lines, fmt.Sprintf("not auditable: %d %s: %s", n, plural(n, "entry", "entries"), why))
	}
	if r.Asked > 0 {
		lines = append(lines, fmt.Sprintf("flipped: %d of %d (%s, Wilson 95%% interval %s–%s)", r.Flips, r.Asked, percent(r.Rate), percent(r.Lo), percent(r.Hi)))
	}
	if r.Errors > 0 {
		lines = append(lines, fmt.Sprintf("errors: %d sampled %s got no verdict (listed under \"not audited\")", r.Errors, plural(r.Errors, "entry", "entries")))
	}
	if r.Scored > 0 {
		lines = append(lines, fmt.Sprintf("score drift: mean %.3f, max %.3f (absolute, on [0,1]) over %d scored %s", r.MeanDiff, r.MaxDiff, r.Scored, plural(r.Scored, "verdict", "verdicts")))
	}
	for _, pair := range slices.SortedFunc(maps.Keys(r.Models), func(a, b [2]string) int { return strings.Compare(a[0]+a[1], b[0]+b[1]) }) {
		n := r.Models[pair]
		if pair[0] == pair[1] {
			lines = append(lines, fmt.Sprintf("model: %s, as recorded (%d %s)", pair[0], n, plural(n, "verdict", "verdicts")))
		} else {
			lines = append(lines, fmt.Sprintf("model: now %s, recorded %s (%d %s): the provider serves another model version", pair[1], pair[0], n, plural(n, "verdict", "verdicts")))
		}
	}
	lines = append(lines, fmt.Sprintf("judge calls: %d, $%.4f", r.Calls, r.CostUSD))
	return lines
}

func (r *auditReport) flipped() []auditRow {
	var out []auditRow
	for _, row := range r.Rows {
		if row.Err == nil && row.Flipped {
			out = append(out, row)
		}
	}
	return out
}

func reasoning(s string) string { return excerpt(strings.Join(strings.Fields(s), " "), maxReason) }

// text is the audit as printed.
func (r *auditReport) text() string {
	var b bytes.Buffer
	b.WriteString("evalkit golden audit\n")
	for _, l := range r.headline() {
		b.WriteString(oneLine(l) + "\n")
	}
	if fl := r.flipped(); len(fl) > 0 {
		fmt.Fprintf(&b, "\nflipped (%d):\n", len(fl))
		for _, row := range fl {
			fmt.Fprintf(&b, "  %s  %s\n    criteria: %s\n    recorded: %s: %s\n    now:      %s: %s\n", golden.ShortKey(row.Key), filepath.ToSlash(row.Path),
				oneLine(excerpt(row.Criteria, 200)), row.Was, oneLine(reasoning(row.Recorded.Reasoning)), row.Now, oneLine(reasoning(row.Live.Reasoning)))
		}
	}
	if r.Errors > 0 {
		b.WriteString("\nnot audited:\n")
		for _, row := range r.Rows {
			if row.Err != nil {
				fmt.Fprintf(&b, "  %s  %s: %s\n", golden.ShortKey(row.Key), filepath.ToSlash(row.Path), oneLine(excerpt(row.Err.Error(), 300)))
			}
		}
	}
	for _, u := range r.Updated {
		fmt.Fprintf(&b, "\nupdated: %s\n", u)
	}
	return b.String()
}

// markdown is the audit for a CI job page, escaped as evalkit report's.
func (r *auditReport) markdown() string {
	var b bytes.Buffer
	b.WriteString("## evalkit golden audit: judge drift\n\n")
	for _, l := range r.headline() {
		fmt.Fprintf(&b, "- %s\n", mdEscape(l))
	}
	if fl := r.flipped(); len(fl) > 0 {
		fmt.Fprintf(&b, "\n### Flipped verdicts (%d)\n\n| entry | criteria | recorded | now |\n|---|---|---|---|\n", len(fl))
		for _, row := range fl {
			fmt.Fprintf(&b, "| `%s` `%s` | %s | **%s**: %s | **%s**: %s |\n", mdCode(golden.ShortKey(row.Key)), mdCode(filepath.ToSlash(row.Path)), mdEscape(excerpt(row.Criteria, 200)),
				mdEscape(row.Was), mdEscape(reasoning(row.Recorded.Reasoning)), mdEscape(row.Now), mdEscape(reasoning(row.Live.Reasoning)))
		}
	}
	if r.Errors > 0 {
		b.WriteString("\n### Not audited\n\n")
		for _, row := range r.Rows {
			if row.Err != nil {
				fmt.Fprintf(&b, "- `%s` `%s`: %s\n", mdCode(golden.ShortKey(row.Key)), mdCode(filepath.ToSlash(row.Path)), mdEscape(excerpt(row.Err.Error(), 300)))
			}
		}
	}
	return b.String()
}

// html is the audit as a page in the report's style: the figures, then
// each flipped verdict with both reasonings side by side, then the
// entries not audited.
func (r *auditReport) html() ([]byte, error) {
	var b bytes.Buffer
	err := auditTemplate.Execute(&b, struct {
		*auditReport
		Headline []string
		Flipped  []auditRow
	}{r, r.headline(), r.flipped()})
	return b.Bytes(), err
}

var auditTemplate = template.Must(template.New("audit").Funcs(template.FuncMap{
	"style": func() template.CSS { return pageStyle },
	"short": golden.ShortKey,
	"slash": filepath.ToSlash,
}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>evalkit golden audit</title>
<style>
{{style}}
</style>
</head>
<body>
<h1>evalkit golden audit: judge drift</h1>
<section id="figures"><ul>{{range .Headline}}<li>{{.}}</li>{{end}}</ul></section>
<section id="flipped">
<h2>Flipped verdicts ({{len .Flipped}})</h2>
{{if .Flipped}}<table><thead><tr><th>entry</th><th>criteria</th><th>recorded</th><th>now</th></tr></thead><tbody>
{{range .Flipped}}<tr data-key="{{.Key}}"><td><code>{{short .Key}}</code><br><span class="meta">{{slash .Path}}</span></td><td>{{.Criteria}}</td><td><b>{{.Was}}</b><pre>{{.Recorded.Reasoning}}</pre></td><td><b class="fail">{{.Now}}</b><pre>{{.Live.Reasoning}}</pre></td></tr>
{{end}}</tbody></table>{{else}}<p>No verdict flipped.</p>{{end}}
</section>
{{if .Errors}}<section id="errors">
<h2>Not audited ({{.Errors}})</h2>
<ul>{{range .Rows}}{{if .Err}}<li><code>{{short .Key}}</code> {{slash .Path}}: {{.Err}}</li>{{end}}{{end}}</ul>
</section>{{end}}
</body>
</html>
`))
