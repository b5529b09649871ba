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

// The charts' typography is the page's: the page's style sets their text
// in the tables' font and size (pageStyle). The chart library lays text
// out by the metrics of its own font, which the page does not use; it
// measures at measureFontPx, wider than the page's font at its size in
// every sans-serif face a browser picks, so no label runs into an axis or
// off the chart. Charts are chartWidth wide, drawn at that size on any
// page at least that wide, so their text is never scaled.
const (
	pageFontPx    = 14
	measureFontPx = 16
	chartWidth    = 720
)

// font is the chart text's style as the chart library measures it: in
// points, at 96 pixels to 72 points.
func font() charts.FontStyle { return charts.NewFontStyleWithSize(measureFontPx * 72.0 / 96.0) }

// typeset gives every text of a bar chart the page's size.
func typeset(opt *charts.BarChartOption) {
	opt.Title.FontStyle = font()
	opt.Legend.FontStyle = font()
	opt.CategoryAxis.LabelFontStyle = font()
	opt.CategoryAxis.TitleFontStyle = font()
	for i := range opt.ValueAxis {
		opt.ValueAxis[i].LabelFontStyle = font()
		opt.ValueAxis[i].TitleFontStyle = font()
	}
	for i := range opt.SeriesList {
		opt.SeriesList[i].Label.FontStyle = font()
	}
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
	typeset(&opt)
	return svg(opt, chartWidth, 90+28*len(types))
}

// binLabel names histogram bin i of ten by its edges: "0.3–0.4"; the
// last bin holds 1.
func binLabel(i int) string {
	return strconv.FormatFloat(float64(i)/10, 'f', 1, 64) + "–" + strconv.FormatFloat(float64(i+1)/10, 'f', 1, 64)
}

// histogramChart draws a type's scores in ten bins of 0.1, each labelled
// by its edges, centred under its bar.
func histogramChart(h histogram) (template.HTML, error) {
	vals := make([]float64, 10)
	labels := make([]string, 10)
	most := 0
	for i, c := range h.Counts {
		vals[i] = float64(c)
		labels[i] = binLabel(i)
		most = max(most, c)
	}
	opt := charts.NewBarChartOptionWithData([][]float64{vals})
	opt.Theme = theme(colorScore)
	opt.CategoryAxis.Labels = labels
	opt.CategoryAxis.BoundaryGap = charts.Ptr(true) // a label centred under its bin's bar, not on a tick between bins
	opt.CategoryAxis.LabelCount = 10                // every bin labelled
	opt.CategoryAxis.Title = "score (bins of 0.1; the last holds 1.0)"
	opt.Title.Text = h.Title()
	// Headroom over the tallest bar for the count written over it, clear
	// of the title.
	opt.ValueAxis = []charts.ValueAxisOption{countAxis(most + max(1, (most*15+99)/100))}
	opt.SeriesLabelPosition = "top"
	opt.SeriesList[0].Label.Show = charts.Ptr(true) // each bin's count over its bar, empty bins left bare
	opt.SeriesList[0].Label.ValueFormatter = func(f float64) string {
		if f == 0 {
			return ""
		}
		return strconv.Itoa(int(math.Round(f)))
	}
	opt.Legend.Show = charts.Ptr(false)
	opt.Padding = charts.NewBoxEqual(16)
	typeset(&opt)
	return svg(opt, chartWidth, 260)
}

// costChart draws each judge's cost in US dollars: what live calls spent,
// and what the replayed verdicts cost when they were recorded.
func costChart(judges []judgeRow) (template.HTML, error) {
	labels := make([]string, len(judges))
	live, repl := make([]float64, len(judges)), make([]float64, len(judges))
	most := 0.0
	for i, j := range judges {
		labels[i] = j.Judge
		live[i], repl[i] = j.CostLive, j.CostReplayed
		most = max(most, j.CostLive+j.CostReplayed)
	}
	opt := charts.NewBarChartOptionWithData([][]float64{live, repl})
	opt.Horizontal = true
	opt.StackSeries = charts.Ptr(true)
	opt.Theme = theme(colorFail, colorScore)
	opt.CategoryAxis.Labels = labels
	opt.Legend.SeriesNames = []string{"live (spent)", "replayed (recorded cost)"}
	opt.Legend.Offset = charts.OffsetRight
	opt.Title.Text = "Judge cost, USD"
	opt.ValueAxis = []charts.ValueAxisOption{usdAxis(most)}
	opt.Padding = charts.NewBoxEqual(16)
	typeset(&opt)
	return svg(opt, chartWidth, 110+28*len(judges))
}

// usdAxis is an axis of US dollars from 0 to just past most, its ticks a
// round step (1, 2 or 5 times a power of ten) apart, at most about six,
// each written with the decimals its step needs: no two ticks read alike
// ("$0.0001" twice, for ticks 0.00005 apart written to four decimals).
func usdAxis(most float64) charts.ValueAxisOption {
	step, decimals := usdStep(most)
	n := max(1, int(math.Ceil(most/step-1e-9)))
	top := float64(n) * step
	return charts.ValueAxisOption{
		Min: charts.Ptr(0.0), Max: charts.Ptr(top), LabelCount: n + 1,
		PreferNiceIntervals: charts.Ptr(false),
		ValueFormatter: func(f float64) string {
			return "$" + strconv.FormatFloat(math.Round(f/step)*step, 'f', decimals, 64)
		},
	}
}

// usdStep is the tick step of an axis up to most dollars and the decimals
// that write it: at most six steps, never below a millionth of a dollar.
func usdStep(most float64) (step float64, decimals int) {
	if !(most > 1e-6) || math.IsInf(most, 0) {
		most = 1e-6
	}
	raw := most / 6
	exp := math.Floor(math.Log10(raw))
	base := math.Pow(10, exp)
	for _, m := range []float64{1, 2, 5, 10} {
		if m*base >= raw-1e-15 {
			step = m * base
			break
		}
	}
	decimals = max(2, int(-math.Floor(math.Log10(step)+1e-9)))
	return step, decimals
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
	// Drawn at its own size (CSS shrinks it on a narrower page), not
	// stretched: its text stays at the page's size.
	data = bytes.Replace(data, []byte("<svg "), []byte(fmt.Sprintf(`<svg width="%d" height="%d" `, width, height)), 1)
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
.charts { display: flex; flex-wrap: wrap; gap: 12px; } .chart svg { display: block; max-width: 100%; height: auto; }
.chart svg text { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif !important; font-size: 14px !important; }
details { border: 1px solid #e4e4e4; border-radius: 6px; margin: 6px 0; padding: 4px 10px; }
summary { cursor: pointer; } pre { white-space: pre-wrap; word-break: break-word; background: #f7f7f7; padding: 8px; border-radius: 4px; font-size: 12px; max-height: 480px; overflow: auto; }
.meta { color: #666; font-size: 12px; }
tr.attempt td:first-child { padding-left: 28px; } .criteria, .reasoning { white-space: pre-wrap; word-break: break-word; margin: 4px 0; }
.criteria::before { content: "criteria: "; color: #666; } details.reasoning { border: 0; padding: 0; margin: 2px 0; } .reasoning > summary { color: #666; }`

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
<p class="meta">Scores of the checks the types table counts: a Repeat's attempts' checks are counted in their Repeat, and named apart in each title.</p>
</section>{{end}}

{{if .Judges}}<section id="judges">
<h2>Judges and cost</h2>
{{if .CostChart}}<div class="chart" id="chart-cost">{{.CostChart}}</div>{{else}}<p id="no-cost">No judge cost was recorded: every verdict came from a fake judge or a judge that reports none.</p>{{end}}
<p class="meta">Verdicts and cost of every judged check, Repeat attempts' included.</p>
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
<p class="meta">A Repeat counts as one check; its attempts' checks follow it, counted apart.</p>
{{range $i, $g := .Groups}}<details class="case" id="{{sid $i}}" data-status="{{if $g.Fail}}fail{{else if $g.Error}}error{{else}}pass{{end}}"{{if or $g.Fail $g.Error}} open{{end}}>
<summary><b>{{$g.Test}}</b> — <span class="pass" data-count="{{$g.Pass}}">{{$g.Pass}} pass</span>{{if $g.Fail}}, <span class="fail" data-count="{{$g.Fail}}">{{$g.Fail}} fail</span>{{end}}{{if $g.Error}}, <span class="error" data-count="{{$g.Error}}">{{$g.Error}} error</span>{{end}}{{if or $g.AttemptPass $g.AttemptFail $g.AttemptError}}<span class="meta attempts"> · in Repeat attempts: {{$g.AttemptPass}} pass{{if $g.AttemptFail}}, {{$g.AttemptFail}} fail{{end}}{{if $g.AttemptError}}, {{$g.AttemptError}} error{{end}}</span>{{end}}</summary>
<table><thead><tr><th>check</th><th>status</th><th>score</th><th>judge</th></tr></thead><tbody>
{{range $g.Checks}}<tr class="check{{if .Attempt}} attempt{{end}}" data-status="{{.Status}}"{{if .Attempt}} data-attempt="{{.Attempt}}"{{end}}><td>{{if .Attempt}}<span class="meta">attempt {{.Attempt}}:</span> {{end}}<code>{{.Check}}</code>{{if .Attempts}} <span class="meta">(attempts' checks: {{.Attempts}})</span>{{end}}{{if .Criteria}}<div class="criteria">{{.Criteria}}</div>{{end}}{{if .Reasoning}}<details class="reasoning"{{if not .LongReasoning}} open{{end}}><summary>reasoning</summary><div class="reasoning">{{.Reasoning}}</div></details>{{end}}{{if .Message}}<pre>{{.Message}}</pre>{{end}}</td><td class="{{.Status}}">{{.Status}}</td><td class="num">{{.Score}}{{if .Threshold}}<div class="meta">want {{.Threshold}}</div>{{end}}</td><td>{{.Judge}}{{if .Source}} <span class="meta">({{.Source}})</span>{{end}}</td></tr>
{{end}}</tbody></table>
{{range $g.Transcripts}}<details class="transcript"><summary>transcript</summary><pre>{{.}}</pre></details>{{end}}
</details>
{{end}}</section>
</body>
</html>
`))
