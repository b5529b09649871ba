package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// chromeProbe is a script the test adds to a copy of the report (whose
// Content-Security-Policy it relaxes for it: the report itself runs no
// script) to read what Chromium laid out: every chart's text with its
// box and computed font, the histograms' bars, the types table's counts
// and each case's header and rows. It writes them as JSON into the DOM,
// which --dump-dom prints.
const chromeProbe = `<script>
(function () {
  const box = (el, origin) => { const r = el.getBoundingClientRect(); return {x: r.left - origin.left, y: r.top - origin.top, w: r.width, h: r.height}; };
  const td = getComputedStyle(document.querySelector('#types td'));
  const out = {td: {family: td.fontFamily, size: td.fontSize}, charts: [], types: {}, cases: []};
  document.querySelectorAll('.chart').forEach((c) => {
    const svg = c.querySelector('svg'), o = svg.getBoundingClientRect();
    out.charts.push({
      id: c.id, histogram: c.classList.contains('histogram'), width: o.width, attrWidth: +svg.getAttribute('width'),
      texts: [...svg.querySelectorAll('text')].map((t) => { const cs = getComputedStyle(t); return Object.assign(box(t, o), {text: t.textContent, family: cs.fontFamily, size: cs.fontSize}); }),
      bars: [...svg.querySelectorAll('path')].filter((p) => /fill:rgb\((21,101,192|46,125,50|198,40,40|239,143,0)\)/.test(p.getAttribute('style') || '')).map((p) => box(p, o)),
    });
  });
  document.querySelectorAll('#types tr[data-type]').forEach((r) => {
    const n = [...r.querySelectorAll('td.num')].slice(0, 3).map((d) => +d.textContent);
    out.types[r.dataset.type] = n[0] + n[1] + n[2];
  });
  document.querySelectorAll('details.case').forEach((d) => {
    const head = {pass: 0, fail: 0, error: 0}, rows = {pass: 0, fail: 0, error: 0}, attempts = {pass: 0, fail: 0, error: 0};
    d.querySelectorAll(':scope > summary [data-count]').forEach((s) => { head[s.className] = +s.dataset.count; });
    d.querySelectorAll('tr.check').forEach((r) => { (r.classList.contains('attempt') ? attempts : rows)[r.dataset.status]++; });
    const at = d.querySelector(':scope > summary .attempts');
    out.cases.push({head: head, rows: rows, attempts: attempts, attemptsText: at ? at.textContent : ''});
  });
  const pre = document.createElement('pre');
  pre.id = 'probe';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script>`

type probeBox struct{ X, Y, W, H float64 }

type probeText struct {
	probeBox
	Text, Family, Size string
}

type probeResult struct {
	TD     struct{ Family, Size string }
	Charts []struct {
		ID               string
		Histogram        bool
		Width, AttrWidth float64
		Texts            []probeText
		Bars             []probeBox
	}
	Types map[string]int
	Cases []struct {
		Head, Rows, Attempts map[string]int
		AttemptsText         string
	}
}

// runChromium runs Chromium headless on page with args, killing a run
// that never ends (a loaded 2-core machine now and then has one) after a
// minute, up to three tries.
func runChromium(t *testing.T, bin, profile, page string, extra ...string) []byte {
	t.Helper()
	args := append([]string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
		"--disable-background-networking", "--disable-extensions", "--no-first-run", "--mute-audio",
		"--host-resolver-rules=MAP * ~NOTFOUND", "--proxy-server=127.0.0.1:9",
		"--user-data-dir=" + profile}, extra...)
	args = append(args, "file://"+page)
	var stderr bytes.Buffer
	for try := 1; ; try++ {
		ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
		cmd := exec.CommandContext(ctx, bin, args...)
		stderr.Reset()
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		timedOut := ctx.Err() != nil
		cancel()
		if err == nil || !timedOut || try == 3 {
			require.NoError(t, err, "chromium (try %d): %s", try, stderr.String())
			return out
		}
		t.Logf("chromium did not finish within a minute (try %d); trying again", try)
	}
}

var binLabelRE = regexp.MustCompile(`^\d\.\d–\d\.\d$`)

// The report's charts as Chromium lays them out, at a desktop and a narrow
// width: drawn at their own size in the tables' font and size; no two
// texts overlap and none leaves its chart or runs into the bars; the cost
// axis's ticks are unique; each histogram bin is labelled by its edges,
// centred under its bar, and the bars' counts add up to the types table's
// count; each case's header counts what its rows show.
func TestReportChartsInChromium(t *testing.T) {
	bin := chromium()
	if bin == "" {
		if os.Getenv("EVALKIT_REQUIRE_CHROMIUM") != "" {
			t.Fatal("EVALKIT_REQUIRE_CHROMIUM is set (.ci/run sets it), but no chromium is on PATH")
		}
		t.Skip("no chromium on PATH: apt-get install chromium (.ci/run installs it and requires this test)")
	}
	path := fixtureResults(t)
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	code, _, errOut := runCLI("report", "-html", page, path)
	require.Equal(t, 0, code, errOut)
	data, err := os.ReadFile(page)
	require.NoError(t, err)
	probed := strings.Replace(string(data), "default-src 'none';", "default-src 'none'; script-src 'unsafe-inline';", 1)
	probed = strings.Replace(probed, "</body>", chromeProbe+"\n</body>", 1)
	probePage := filepath.Join(dir, "probe.html")
	require.NoError(t, os.WriteFile(probePage, []byte(probed), 0o644))

	for _, width := range []int{1280, 800} {
		t.Run(strconv.Itoa(width), func(t *testing.T) {
			dom := string(runChromium(t, bin, filepath.Join(dir, "profile"), probePage, "--dump-dom", fmt.Sprintf("--window-size=%d,2000", width)))
			m := regexp.MustCompile(`(?s)<pre id="probe">(.*?)</pre>`).FindStringSubmatch(dom)
			require.NotNil(t, m, "the probe ran")
			var got probeResult
			require.NoError(t, json.Unmarshal([]byte(html.UnescapeString(m[1])), &got))
			checkCharts(t, got)
		})
	}
}

func checkCharts(t *testing.T, got probeResult) {
	require.NotEmpty(t, got.Charts)
	histograms := 0
	for _, c := range got.Charts {
		name := c.ID
		if c.Histogram {
			name = "histogram"
		}
		assert.InDelta(t, c.AttrWidth, c.Width, 0.5, "%s: drawn at its own size, its text not scaled", name)
		var ticks []string
		for i, tx := range c.Texts {
			assert.Equal(t, got.TD.Family, tx.Family, "%s: %q in the tables' font", name, tx.Text)
			assert.Equal(t, got.TD.Size, tx.Size, "%s: %q at the tables' size", name, tx.Text)
			assert.True(t, tx.X >= -0.5 && tx.X+tx.W <= c.Width+0.5, "%s: %q (x %.0f to %.0f) within the chart (%.0f)", name, tx.Text, tx.X, tx.X+tx.W, c.Width)
			for _, other := range c.Texts[i+1:] {
				assert.False(t, overlap(tx.probeBox, other.probeBox), "%s: %q and %q overlap", name, tx.Text, other.Text)
			}
			if strings.HasPrefix(tx.Text, "$") {
				ticks = append(ticks, tx.Text)
			}
		}
		if c.ID == "chart-cost" {
			assert.GreaterOrEqual(t, len(ticks), 2, "the cost axis has ticks")
			assert.Len(t, slices.Compact(slices.Sorted(slices.Values(ticks))), len(ticks), "cost ticks are unique: %v", ticks)
		}
		if !c.Histogram {
			continue
		}
		histograms++
		// Each bin labelled by its edges, in order, centred under its bar.
		var labels []probeText
		for _, tx := range c.Texts {
			if binLabelRE.MatchString(tx.Text) {
				labels = append(labels, tx)
			}
		}
		require.Len(t, labels, 10, "every bin is labelled")
		bars := slices.Clone(c.Bars)
		slices.SortFunc(bars, func(a, b probeBox) int { return int(a.X - b.X) })
		require.Len(t, bars, 10, "a bar per bin")
		for i, l := range labels {
			assert.Equal(t, binLabel(i), l.Text)
			lc, bc := l.X+l.W/2, bars[i].X+bars[i].W/2
			assert.InDelta(t, bc, lc, bars[i].W/4, "bin %s: its label is centred under its bar", l.Text)
		}
		// The bars' counts add up to the title's, which is the types table's.
		title := regexp.MustCompile(`^Scores of (\S+): (\d+) checks?`).FindStringSubmatch(c.Texts[0].Text)
		require.NotNil(t, title, c.Texts[0].Text)
		n, _ := strconv.Atoi(title[2])
		assert.Equal(t, got.Types[title[1]], n, "the histogram of %s counts the checks the types table counts", title[1])
		sum := 0
		for _, b := range bars {
			if b.H < 1 {
				continue
			}
			for _, tx := range c.Texts {
				if v, err := strconv.Atoi(tx.Text); err == nil && tx.X+tx.W/2 > b.X && tx.X+tx.W/2 < b.X+b.W && tx.Y+tx.H <= b.Y+2 {
					sum += v
					break
				}
			}
		}
		assert.Equal(t, n, sum, "the histogram of %s: its bars' counts", title[1])
	}
	assert.Equal(t, 2, histograms)
	require.NotEmpty(t, got.Cases)
	for _, c := range got.Cases {
		assert.Equal(t, c.Rows, c.Head, "a case's header counts its rows, Repeats as one")
		if c.Attempts["pass"]+c.Attempts["fail"]+c.Attempts["error"] > 0 {
			assert.Contains(t, c.AttemptsText, fmt.Sprintf("in Repeat attempts: %d pass", c.Attempts["pass"]))
			assert.Contains(t, c.AttemptsText, fmt.Sprintf("%d fail", c.Attempts["fail"]))
		}
	}
}

// overlap reports whether two boxes share more than a sliver.
func overlap(a, b probeBox) bool {
	w := min(a.X+a.W, b.X+b.W) - max(a.X, b.X)
	h := min(a.Y+a.H, b.Y+b.H) - max(a.Y, b.Y)
	return w > 1 && h > 1
}
