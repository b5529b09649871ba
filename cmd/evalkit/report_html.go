package main

import (
	"bytes"
	"fmt"
	"html/template"
	"math"
	"strconv"
	"strings"

	charts "github.com/go-analyze/charts"
)

// The page's colours: pass, fail, error, and the score bars.
var (
	colorPass  = charts.ParseColor("#2e7d32")
	colorFail  = charts.ParseColor("#c62828")
	colorError = charts.ParseColor("#ef8f00")
	colorScore = charts.ParseColor("#1565c0")
)

// theme is the charts' palette over the default theme.
func theme(series ...charts.Color) charts.ColorPalette {
	return charts.GetDefaultTheme().WithSeriesColors(series)
}

// passRateChart draws, per check type, its checks that passed, failed and
// erred, stacked: an SVG rendered here, so the page needs no script.
func passRateChart(types []typeRow) (template.HTML, error) {
	labels := make([]string, len(types))
	pass, fail, errs := make([]float64, len(types)), make([]float64, len(types)), make([]float64, len(types))
	most := 0
	for i, t := range types {
		labels[i] = fmt.Sprintf("%s %.0f%%", t.Type, 100*t.Rate())
		pass[i], fail[i], errs[i] = float64(t.Pass), float64(t.Fail), float64(t.Error)
		most = max(most, t.Pass+t.Fail+t.Error)
	}
	opt := charts.NewBarChartOptionWithData([][]float64{pass, fail, errs})
	opt.Horizontal = true
	opt.StackSeries = charts.Ptr(true)
	opt.Theme = theme(colorPass, colorFail, colorError)
	opt.CategoryAxis.Labels = labels
	opt.Legend.SeriesNames = []string{"pass", "fail", "error"}
	opt.Legend.Offset = charts.OffsetRight
	opt.Title.Text = "Checks per type: pass, fail, error (pass rate)"
	opt.ValueAxis = []charts.ValueAxisOption{countAxis(most)}
	opt.Padding = charts.NewBoxEqual(16)
	return svg(opt, 880, 90+28*len(types))
}

// histogramChart draws a type's scores in ten bins of 0.1.
func histogramChart(h histogram) (template.HTML, error) {
	vals := make([]float64, 10)
	labels := make([]string, 10)
	most := 0
	for i, c := range h.Counts {
		vals[i] = float64(c)
		labels[i] = fmt.Sprintf("%.1f", float64(i)/10)
		most = max(most, c)
	}
	opt := charts.NewBarChartOptionWithData([][]float64{vals})
	opt.Theme = theme(colorScore)
	opt.CategoryAxis.Labels = labels
	opt.CategoryAxis.Title = "score (bins of 0.1, from)"
	opt.Title.Text = fmt.Sprintf("Scores of %s (%d)", h.Type, h.N)
	opt.ValueAxis = []charts.ValueAxisOption{countAxis(most)}
	opt.SeriesLabelPosition = "top"
	opt.Legend.Show = charts.Ptr(false)
	opt.Padding = charts.NewBoxEqual(16)
	return svg(opt, 430, 280)
}

// costChart draws each judge's cost in US dollars: what live calls spent,
// and what the replayed verdicts cost when they were recorded.
func costChart(judges []judgeRow) (template.HTML, error) {
	labels := make([]string, len(judges))
	live, repl := make([]float64, len(judges)), make([]float64, len(judges))
	for i, j := range judges {
		labels[i] = j.Judge
		live[i], repl[i] = j.CostLive, j.CostReplayed
	}
	opt := charts.NewBarChartOptionWithData([][]float64{live, repl})
	opt.Horizontal = true
	opt.StackSeries = charts.Ptr(true)
	opt.Theme = theme(colorFail, colorScore)
	opt.CategoryAxis.Labels = labels
	opt.Legend.SeriesNames = []string{"live (spent)", "replayed (recorded cost)"}
	opt.Legend.Offset = charts.OffsetRight
	opt.Title.Text = "Judge cost, USD"
	opt.ValueFormatter = func(f float64) string { return fmt.Sprintf("$%.4f", f) }
	opt.Padding = charts.NewBoxEqual(16)
	return svg(opt, 880, 110+28*len(judges))
}

// countAxis is an axis of counts up to most: whole-number ticks only (a
// count of 0.5 checks means nothing), at most about ten of them.
func countAxis(most int) charts.ValueAxisOption {
	step := max(1, (most+9)/10)
	top := max(step, (most+step-1)/step*step)
	return charts.ValueAxisOption{
		Min: charts.Ptr(0.0), Max: charts.Ptr(float64(top)), LabelCount: top/step + 1,
		PreferNiceIntervals: charts.Ptr(false),
		ValueFormatter:      func(f float64) string { return strconv.Itoa(int(math.Round(f))) },
	}
}

func svg(opt charts.BarChartOption, width, height int) (template.HTML, error) {
	p := charts.NewPainter(charts.PainterOptions{OutputFormat: charts.ChartOutputSVG, Width: width, Height: height})
	if err := p.BarChart(opt); err != nil {
		return "", fmt.Errorf("drawing %q: %w", opt.Title.Text, err)
	}
	data, err := p.Bytes()
	if err != nil {
		return "", fmt.Errorf("drawing %q: %w", opt.Title.Text, err)
	}
	// The chart library's own SVG, which carries nothing of the results
	// but numbers and the labels escaped by it.
	return template.HTML(data), nil //nolint:gosec // rendered here, not user HTML
}

// page is what the template reads.
type page struct {
	summary
	PassChart  template.HTML
	CostChart  template.HTML
	HistCharts []template.HTML
}

// renderHTML renders the report as one self-contained page: inline CSS,
// charts as inline SVG, no script, and a Content-Security-Policy that
// forbids loading anything, so it opens the same offline.
func renderHTML(s summary) ([]byte, error) {
	p := page{summary: s}
	var err error
	if p.PassChart, err = passRateChart(s.Types); err != nil {
		return nil, err
	}
	if s.CostLive+s.CostRepl > 0 {
		if p.CostChart, err = costChart(s.Judges); err != nil {
			return nil, err
		}
	}
	for _, h := range s.Histograms {
		c, err := histogramChart(h)
		if err != nil {
			return nil, err
		}
		p.HistCharts = append(p.HistCharts, c)
	}
	var b bytes.Buffer
	if err := pageTemplate.Execute(&b, p); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// pageStyle is the CSS of evalkit's HTML pages: the report's and the
// comparison's.
const pageStyle template.CSS = `body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 24px auto; max-width: 1180px; padding: 0 16px; color: #222; }
h1 { font-size: 22px; margin: 0 0 8px; } h2 { font-size: 17px; margin: 28px 0 8px; border-bottom: 1px solid #ddd; padding-bottom: 4px; }
.totals { display: flex; gap: 12px; flex-wrap: wrap; margin: 12px 0; }
.tile { border: 1px solid #ddd; border-radius: 6px; padding: 8px 14px; min-width: 110px; }
.tile b { display: block; font-size: 22px; }
.pass { color: #2e7d32; } .fail { color: #c62828; } .error { color: #ef8f00; }
table { border-collapse: collapse; margin: 8px 0; width: 100%; } th, td { border-bottom: 1px solid #eee; padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #fafafa; } .num { text-align: right; font-variant-numeric: tabular-nums; }
.charts { display: flex; flex-wrap: wrap; gap: 12px; } .chart svg { width: 100%; height: auto; } .histogram { flex: 0 0 440px; max-width: 100%; }
details { border: 1px solid #e4e4e4; border-radius: 6px; margin: 6px 0; padding: 4px 10px; }
summary { cursor: pointer; } pre { white-space: pre-wrap; word-break: break-word; background: #f7f7f7; padding: 8px; border-radius: 4px; font-size: 12px; max-height: 480px; overflow: auto; }
.meta { color: #666; font-size: 12px; }`

var pageTemplate = template.Must(template.New("report").Funcs(template.FuncMap{
	"percent": func(f float64) string { return fmt.Sprintf("%.0f%%", 100*f) },
	"usd":     func(f float64) string { return fmt.Sprintf("$%.4f", f) },
	"join":    strings.Join,
	"sid":     func(i int) string { return fmt.Sprintf("case-%d", i+1) },
	"style":   func() template.CSS { return pageStyle },
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
<p class="meta">From {{len .Files}} results file{{if ne (len .Files) 1}}s{{end}}{{if .Shards}}, shards {{join .Shards ", "}}{{end}}: {{join .Files ", "}}</p>

<section id="summary">
<h2>Summary</h2>
<div class="totals">
<div class="tile" id="total-checks"><b>{{.Checks}}</b>checks</div>
<div class="tile pass" id="total-pass" data-count="{{.Pass}}"><b>{{.Pass}}</b>pass</div>
<div class="tile fail" id="total-fail" data-count="{{.Fail}}"><b>{{.Fail}}</b>fail</div>
<div class="tile error" id="total-error" data-count="{{.Error}}"><b>{{.Error}}</b>error</div>
<div class="tile"><b>{{.Tests}}</b>tests, {{.Cases}} cases</div>
<div class="tile" id="total-cost"><b>{{usd .CostLive}}</b>judge cost (live); {{usd .CostRepl}} replayed</div>
</div>
</section>

<section id="types">
<h2>Pass rate per check type</h2>
<div class="chart" id="chart-pass-rate">{{.PassChart}}</div>
<table><thead><tr><th>check type</th><th class="num">pass</th><th class="num">fail</th><th class="num">error</th><th class="num">pass rate</th></tr></thead><tbody>
{{range .Types}}<tr data-type="{{.Type}}"><td><code>{{.Type}}</code></td><td class="num">{{.Pass}}</td><td class="num">{{.Fail}}</td><td class="num">{{.Error}}</td><td class="num">{{percent .Rate}}</td></tr>
{{end}}</tbody></table>
</section>

{{if .HistCharts}}<section id="scores">
<h2>Score histograms</h2>
<div class="charts">{{range .HistCharts}}<div class="chart histogram">{{.}}</div>{{end}}</div>
</section>{{end}}

{{if .Judges}}<section id="judges">
<h2>Judges and cost</h2>
{{if .CostChart}}<div class="chart" id="chart-cost">{{.CostChart}}</div>{{else}}<p id="no-cost">No judge cost was recorded: every verdict came from a fake judge or a judge that reports none.</p>{{end}}
<table><thead><tr><th>judge</th><th class="num">live</th><th class="num">replayed</th><th class="num">fake</th><th class="num">tokens</th><th class="num">cost, live</th><th class="num">cost, replayed</th><th class="num">latency</th></tr></thead><tbody>
{{range .Judges}}<tr><td>{{.Judge}}</td><td class="num">{{.Live}}</td><td class="num">{{.Replayed}}</td><td class="num">{{.Fake}}</td><td class="num">{{.Tokens}}</td><td class="num">{{usd .CostLive}}</td><td class="num">{{usd .CostReplayed}}</td><td class="num">{{printf "%.0f" .LatencyMS}} ms</td></tr>
{{end}}</tbody></table>
<p>Panel agreement: {{.Agreement}}.</p>
</section>{{end}}

{{if .Repeats}}<section id="repeats">
<h2>Repeats</h2>
<table><thead><tr><th>test</th><th>repeat</th><th>status</th><th>passed</th><th>pass^k</th><th>pass@k</th></tr></thead><tbody>
{{range .Repeats}}<tr><td>{{.Test}}</td><td><code>{{.Check}}</code></td><td class="{{.Status}}">{{.Status}}</td><td class="num">{{.Passed}} of {{.Attempts}} (need {{.Need}})</td><td>{{.PassHatK}}</td><td>{{.PassAtK}}</td></tr>
{{end}}</tbody></table>
</section>{{end}}

<section id="cases">
<h2>Tests and cases</h2>
{{range $i, $g := .Groups}}<details class="case" id="{{sid $i}}" data-status="{{if $g.Fail}}fail{{else if $g.Error}}error{{else}}pass{{end}}"{{if or $g.Fail $g.Error}} open{{end}}>
<summary><b>{{$g.Test}}</b> — <span class="pass">{{$g.Pass}} pass</span>{{if $g.Fail}}, <span class="fail">{{$g.Fail}} fail</span>{{end}}{{if $g.Error}}, <span class="error">{{$g.Error}} error</span>{{end}}</summary>
<table><thead><tr><th>check</th><th>status</th><th>score</th><th>judge</th></tr></thead><tbody>
{{range $g.Checks}}<tr><td><code>{{.Check}}</code>{{if .Attempt}} <span class="meta">(attempt {{.Attempt}})</span>{{end}}{{if .Message}}<pre>{{.Message}}</pre>{{end}}</td><td class="{{.Status}}">{{.Status}}</td><td class="num">{{.Score}}</td><td>{{.Judge}}{{if .Source}} <span class="meta">({{.Source}})</span>{{end}}</td></tr>
{{end}}</tbody></table>
{{range $g.Transcripts}}<details class="transcript"><summary>transcript</summary><pre>{{.}}</pre></details>{{end}}
</details>
{{end}}</section>
</body>
</html>
`))
