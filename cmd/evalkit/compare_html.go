package main

import (
	"bytes"
	"fmt"
	"html/template"
	"math"
	"strings"

	charts "github.com/go-analyze/charts"

	"github.com/evalkit-go/evalkit/internal/results"
)

// comparePage is what the comparison's template reads.
type comparePage struct {
	comparison
	Changed, Same []pairRow
	Chart         template.HTML
	Headline      [4]string
}

// renderCompareHTML renders the comparison as one self-contained page in
// the report's style (pageStyle, inline SVG, no script, a
// Content-Security-Policy that loads nothing): the gate, both runs, the
// changed checks side by side — worse first —, pass rates per check type
// and tag, score drops and Repeats; the unchanged checks folded away.
func renderCompareHTML(c comparison) ([]byte, error) {
	p := comparePage{comparison: c}
	for _, pr := range c.Pairs {
		if pr.Change == unchanged {
			p.Same = append(p.Same, pr)
		} else {
			p.Changed = append(p.Changed, pr)
		}
	}
	p.Headline[0], p.Headline[1], p.Headline[2], p.Headline[3] = c.headline()
	if len(c.Types) > 0 {
		chart, err := compareChart(c.Types)
		if err != nil {
			return nil, err
		}
		p.Chart = chart
	}
	var b bytes.Buffer
	if err := compareTemplate.Execute(&b, p); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// compareChart draws each check type's pass rate in BASE and NEW, side by
// side, in percent.
func compareChart(types []groupRow) (template.HTML, error) {
	labels := make([]string, len(types))
	base, head := make([]float64, len(types)), make([]float64, len(types))
	for i, t := range types {
		labels[i] = t.Name
		br, nr := t.Rate()
		base[i], head[i] = 100*zeroNaN(br), 100*zeroNaN(nr)
	}
	opt := charts.NewBarChartOptionWithData([][]float64{base, head})
	opt.Horizontal = true
	opt.Theme = theme(charts.ParseColor("#9e9e9e"), colorScore)
	opt.CategoryAxis.Labels = labels
	opt.Legend.SeriesNames = []string{"BASE", "NEW"}
	opt.Legend.Offset = charts.OffsetRight
	opt.Title.Text = "Pass rate per check type, %"
	opt.ValueAxis = []charts.ValueAxisOption{{Min: charts.Ptr(0.0), Max: charts.Ptr(100.0), LabelCount: 6}}
	opt.Padding = charts.NewBoxEqual(16)
	return svg(opt, 880, 110+40*len(types))
}

func zeroNaN(f float64) float64 {
	if math.IsNaN(f) {
		return 0
	}
	return f
}

// side is a check's outcome in one run, for a cell of the page.
func sideOf(l *results.Line) map[string]string {
	if l == nil {
		return map[string]string{"Status": "absent"}
	}
	m := map[string]string{"Status": l.Status, "Message": l.Message, "Judge": l.Judge}
	if l.Score != nil {
		m["Score"] = fmt.Sprintf("%.2f", *l.Score)
	}
	return m
}

var compareTemplate = template.Must(template.New("compare").Funcs(template.FuncMap{
	"style":   func() template.CSS { return pageStyle },
	"percent": func(pass, n int) string { return rateOf(pass, n) },
	"delta": func(g groupRow) string {
		br, nr := g.Rate()
		return signedPoints(nr - br)
	},
	"p":      pValue,
	"side":   sideOf,
	"join":   strings.Join,
	"worse":  func(c change) bool { return c.worse() },
	"class":  func(c change) string { return strings.NewReplacer("→", "-to-", " ", "-").Replace(c.String()) },
	"signed": func(f float64) string { return fmt.Sprintf("%+.2f", f) },
	"drop": func(p pairRow) string {
		d, _ := p.ScoreDelta()
		return fmt.Sprintf("%+.2f", d)
	},
	"interval": repeatRate,
	"note":     repeatNote,
	"graded":   graded,
	"sub":      func(a, b float64) float64 { return a - b },
}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>
{{style}}
</style>
</head>
<body>
<h1>{{.Title}}</h1>
<p class="meta">BASE: {{.BaseArg}} ({{len .BaseFiles}} file{{if ne (len .BaseFiles) 1}}s{{end}}: {{join .BaseFiles ", "}}) → NEW: {{.NewArg}} ({{len .NewFiles}} file{{if ne (len .NewFiles) 1}}s{{end}}: {{join .NewFiles ", "}})</p>

<section id="gate">
{{if .Failures}}<div class="tile fail" id="gate-result" data-gate="fail"><b>gate failed</b><ul>{{range .Failures}}<li>{{.}}</li>{{end}}</ul></div>
{{else}}<div class="tile pass" id="gate-result" data-gate="pass"><b>gate passed</b></div>{{end}}
<div class="totals">
<div class="tile"><b>BASE</b>{{index .Headline 0}}</div>
<div class="tile"><b>NEW</b>{{index .Headline 1}}</div>
</div>
<p>Changes: {{index .Headline 2}}.</p>
<p>Test: {{index .Headline 3}}.</p>
</section>

<section id="changed">
<h2>Changed checks ({{len .Changed}})</h2>
{{if .Changed}}<table><thead><tr><th>change</th><th>test</th><th>check</th><th>BASE</th><th>NEW</th></tr></thead><tbody>
{{range .Changed}}<tr class="change {{class .Change}}" data-change="{{.Change}}"><td class="{{if worse .Change}}fail{{else}}pass{{end}}">{{.Change}}</td><td>{{.Test}}</td><td><code>{{.Check}}</code></td>
{{with side .Base}}<td><span class="{{.Status}}">{{.Status}}</span>{{with .Score}} {{.}}{{end}}{{with .Message}}<pre>{{.}}</pre>{{end}}</td>{{end}}
{{with side .New}}<td><span class="{{.Status}}">{{.Status}}</span>{{with .Score}} {{.}}{{end}}{{with .Message}}<pre>{{.}}</pre>{{end}}</td>{{end}}</tr>
{{end}}</tbody></table>{{else}}<p id="no-changes">No check changed.</p>{{end}}
</section>

<section id="types">
<h2>Pass rate per check type</h2>
{{if .Chart}}<div class="chart" id="chart-compare">{{.Chart}}</div>{{end}}
<table><thead><tr><th>check type</th><th class="num">BASE</th><th class="num">NEW</th><th class="num">Δ points</th><th class="num">worse</th><th class="num">better</th><th class="num">new errors</th><th class="num">p (NEW worse)</th><th>test</th></tr></thead><tbody>
{{range .Types}}<tr data-type="{{.Name}}"><td><code>{{.Name}}</code></td><td class="num">{{percent .BasePass .BaseN}}</td><td class="num">{{percent .NewPass .NewN}}</td><td class="num">{{delta .}}</td><td class="num">{{.Worse}}</td><td class="num">{{.Better}}</td><td class="num">{{.NewErrors}}</td><td class="num">{{p .P}}</td><td>{{.Test}}</td></tr>
{{end}}</tbody></table>
</section>

{{if .Tags}}<section id="tags">
<h2>Pass rate per tag</h2>
<table><thead><tr><th>tag</th><th class="num">BASE</th><th class="num">NEW</th><th class="num">Δ points</th><th class="num">worse</th><th class="num">better</th><th class="num">new errors</th><th class="num">p (NEW worse)</th><th>test</th></tr></thead><tbody>
{{range .Tags}}<tr data-tag="{{.Name}}"><td>{{.Name}}</td><td class="num">{{percent .BasePass .BaseN}}</td><td class="num">{{percent .NewPass .NewN}}</td><td class="num">{{delta .}}</td><td class="num">{{.Worse}}</td><td class="num">{{.Better}}</td><td class="num">{{.NewErrors}}</td><td class="num">{{p .P}}</td><td>{{.Test}}</td></tr>
{{end}}</tbody></table>
</section>{{end}}

{{with graded .Types}}<section id="scores">
<h2>Mean score per check type</h2>
<table><thead><tr><th>check type</th><th class="num">checks scored in both</th><th class="num">BASE</th><th class="num">NEW</th><th class="num">Δ</th></tr></thead><tbody>
{{range .}}<tr><td><code>{{.Name}}</code></td><td class="num">{{printf "%.0f" .ScoreNs}}</td><td class="num">{{printf "%.3f" .ScoreBase}}</td><td class="num">{{printf "%.3f" .ScoreNew}}</td><td class="num">{{signed (sub .ScoreNew .ScoreBase)}}</td></tr>
{{end}}</tbody></table>
</section>{{end}}

{{if .Drops}}<section id="drops">
<h2>Largest score drops (status unchanged)</h2>
<table><thead><tr><th>test</th><th>check</th><th class="num">BASE</th><th class="num">NEW</th><th class="num">Δ</th></tr></thead><tbody>
{{range .Drops}}<tr><td>{{.Test}}</td><td><code>{{.Check}}</code></td><td class="num">{{with side .Base}}{{.Score}}{{end}}</td><td class="num">{{with side .New}}{{.Score}}{{end}}</td><td class="num">{{drop .}}</td></tr>
{{end}}</tbody></table>
</section>{{end}}

{{if .Repeats}}<section id="repeats">
<h2>Repeats</h2>
<p class="meta">Pass rate of the attempts with its Wilson 95% interval; Fisher's exact test, one-sided (NEW worse).</p>
<table><thead><tr><th>test</th><th>repeat</th><th>BASE</th><th>NEW</th><th class="num">p</th></tr></thead><tbody>
{{range .Repeats}}<tr><td>{{.Test}}</td><td><code>{{.Check}}</code></td><td>{{interval .BasePassed .BaseN .BaseLo .BaseHi}}</td><td>{{interval .NewPassed .NewN .NewLo .NewHi}}</td><td class="num{{if .Significant}} fail{{end}}">{{p .P}}{{note .}}</td></tr>
{{end}}</tbody></table>
</section>{{end}}

{{if .Same}}<section id="unchanged">
<details><summary>Unchanged checks ({{len .Same}})</summary>
<table><thead><tr><th>test</th><th>check</th><th>status</th></tr></thead><tbody>
{{range .Same}}<tr><td>{{.Test}}</td><td><code>{{.Check}}</code></td><td class="{{.New.Status}}">{{.New.Status}}</td></tr>
{{end}}</tbody></table>
</details>
</section>{{end}}
</body>
</html>
`))
