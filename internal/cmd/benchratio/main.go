// Command benchratio reads `go test -bench` output and prints, as a
// Markdown table, each benchmark's cost as a ratio to its named baseline
// measured in the same run: a sub-benchmark named "baseline=<what>" is the
// baseline of its siblings (BenchmarkX/baseline=handwritten is the
// baseline of BenchmarkX/assert.Eval).
//
//	for i in 1 2 3 4 5; do go test -run '^$' -bench . -benchmem -count=1 ./assert; done > bench.txt
//	go run ./internal/cmd/benchratio bench.txt
//
// The i-th result of each benchmark is paired with the i-th result of its
// baseline, and the ratio reported is the median of the pairs' ratios of
// ns/op. Each go test run with -count=1 runs a baseline and its siblings
// one after the other, seconds apart, so a pair from one run shares the
// machine's load of the moment: a machine busy for part of the run moves
// both sides of a pair alike. (With -count=n in one run, go test runs a
// sub-benchmark n times before its next sibling, so pairs lie further
// apart; the ratio is still a median of ratios, only noisier.) The table
// also gives the medians of ns/op and allocs/op, and of any metric a
// benchmark reports with b.ReportMetric.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
)

func main() {
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: benchratio [file ...]   (reads go test -bench output; stdin without files)")
	}
	flag.Parse()
	s := newSet()
	if flag.NArg() == 0 {
		if err := s.read(os.Stdin); err != nil {
			fail(err)
		}
	}
	for _, name := range flag.Args() {
		f, err := os.Open(name)
		if err != nil {
			fail(err)
		}
		err = s.read(f)
		f.Close()
		if err != nil {
			fail(fmt.Errorf("%s: %w", name, err))
		}
	}
	if len(s.order) == 0 {
		fail(fmt.Errorf("no benchmark results in the input"))
	}
	s.write(os.Stdout)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "benchratio:", err)
	os.Exit(1)
}

// key names a benchmark: its package and its name without the -N
// GOMAXPROCS suffix.
type key struct{ pkg, name string }

// set is every result read, by benchmark, in order of first appearance.
type set struct {
	runs  map[key][]map[string]float64 // unit -> value: "ns/op", "allocs/op", "µs/verdict", ...
	order []key
}

func newSet() *set { return &set{runs: map[key][]map[string]float64{}} }

// read adds each benchmark result line of r to s.
func (s *set) read(r io.Reader) error {
	pkg := ""
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if p, ok := strings.CutPrefix(line, "pkg: "); ok {
			pkg = strings.TrimSpace(p)
			continue
		}
		name, metrics, ok := parseLine(line)
		if !ok {
			continue
		}
		k := key{pkg, name}
		if _, seen := s.runs[k]; !seen {
			s.order = append(s.order, k)
		}
		s.runs[k] = append(s.runs[k], metrics)
	}
	return sc.Err()
}

// parseLine reads one result line,
//
//	BenchmarkX/sub-2   	   14026	     25444 ns/op	    9918 B/op	     155 allocs/op
//
// into the name without its -N suffix and the value of each unit. Other
// lines (headers, logs, PASS, ok) are not results.
func parseLine(line string) (string, map[string]float64, bool) {
	f := strings.Fields(line)
	if len(f) < 4 || len(f)%2 != 0 || !strings.HasPrefix(f[0], "Benchmark") {
		return "", nil, false
	}
	if _, err := strconv.ParseUint(f[1], 10, 64); err != nil {
		return "", nil, false // a log line that starts with a benchmark's name
	}
	metrics := map[string]float64{}
	for i := 2; i+1 < len(f); i += 2 {
		v, err := strconv.ParseFloat(f[i], 64)
		if err != nil {
			return "", nil, false
		}
		metrics[f[i+1]] = v
	}
	if _, ok := metrics["ns/op"]; !ok {
		return "", nil, false
	}
	name := f[0]
	if i := strings.LastIndexByte(name, '-'); i > 0 {
		if _, err := strconv.Atoi(name[i+1:]); err == nil {
			name = name[:i]
		}
	}
	return name, metrics, true
}

// row is one benchmark beside its baseline.
type row struct {
	pkg, name, baseline string
	ratio               float64 // median over pairs of ns/op ÷ the baseline's ns/op
	ns, baseNs          float64 // medians
	allocs, baseAllocs  float64 // medians; -1 without -benchmem
	pairs               int
}

// rows returns a row for each benchmark that has a baseline sibling, in
// order of first appearance.
func (s *set) rows() []row {
	var out []row
	for _, k := range s.order {
		parent, leaf := split(k.name)
		if strings.HasPrefix(leaf, "baseline=") {
			continue
		}
		var base key
		found := false
		for _, b := range s.order {
			if bp, bl := split(b.name); b.pkg == k.pkg && bp == parent && strings.HasPrefix(bl, "baseline=") {
				base, found = b, true
				break
			}
		}
		if !found {
			continue
		}
		cand, bs := s.runs[k], s.runs[base]
		n := min(len(cand), len(bs))
		var ratios []float64
		for i := range n {
			if b := bs[i]["ns/op"]; b > 0 {
				ratios = append(ratios, cand[i]["ns/op"]/b)
			}
		}
		_, bl := split(base.name)
		out = append(out, row{
			pkg: k.pkg, name: k.name, baseline: strings.TrimPrefix(bl, "baseline="),
			ratio: median(ratios),
			ns:    medianOf(cand, "ns/op"), baseNs: medianOf(bs, "ns/op"),
			allocs: medianOf(cand, "allocs/op"), baseAllocs: medianOf(bs, "allocs/op"),
			pairs: len(ratios),
		})
	}
	return out
}

// write prints the ratio table, then a table of the other metrics
// benchmarks report.
func (s *set) write(w io.Writer) {
	short := func(pkg string) string {
		if p := strings.TrimPrefix(pkg, "github.com/evalkit-go/evalkit"); p != "" {
			return strings.TrimPrefix(p, "/")
		}
		return "evalkit"
	}
	fmt.Fprintln(w, "| package | benchmark | vs baseline | ratio (median of pairs) | ns/op | baseline ns/op | allocs/op | baseline allocs/op | pairs |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|")
	for _, r := range s.rows() {
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s | %s | %d |\n",
			short(r.pkg), r.name, r.baseline, num(r.ratio, "×"), num(r.ns, ""), num(r.baseNs, ""),
			num(r.allocs, ""), num(r.baseAllocs, ""), r.pairs)
	}
	var extra []string
	for _, k := range s.order {
		units := map[string]bool{}
		for _, m := range s.runs[k] {
			for u := range m {
				if u != "ns/op" && u != "B/op" && u != "allocs/op" && u != "MB/s" {
					units[u] = true
				}
			}
		}
		if len(units) == 0 {
			continue
		}
		var parts []string
		for _, u := range slices.Sorted(maps.Keys(units)) {
			parts = append(parts, num(medianOf(s.runs[k], u), " "+u))
		}
		extra = append(extra, fmt.Sprintf("| %s | %s | %s | %s | %d |", short(k.pkg), k.name,
			strings.Join(parts, ", "), num(medianOf(s.runs[k], "allocs/op"), ""), len(s.runs[k])))
	}
	if len(extra) > 0 {
		fmt.Fprintln(w)
		fmt.Fprintln(w, "| package | benchmark | reported metrics (median) | allocs/op | runs |")
		fmt.Fprintln(w, "|---|---|---|---|---|")
		for _, l := range extra {
			fmt.Fprintln(w, l)
		}
	}
}

// split cuts a benchmark name at its last '/': parent and leaf.
func split(name string) (string, string) {
	i := strings.LastIndexByte(name, '/')
	if i < 0 {
		return "", name
	}
	return name[:i], name[i+1:]
}

// medianOf is the median of unit over the results that report it, or -1.
func medianOf(rs []map[string]float64, unit string) float64 {
	var vs []float64
	for _, m := range rs {
		if v, ok := m[unit]; ok {
			vs = append(vs, v)
		}
	}
	return median(vs)
}

// median is the median of vs, or -1 for none.
func median(vs []float64) float64 {
	if len(vs) == 0 {
		return -1
	}
	vs = slices.Sorted(slices.Values(vs))
	if len(vs)%2 == 1 {
		return vs[len(vs)/2]
	}
	return (vs[len(vs)/2-1] + vs[len(vs)/2]) / 2
}

// num renders a value with three significant digits (whole numbers from
// 1000), or "–" for none.
func num(v float64, unit string) string {
	switch {
	case v < 0:
		return "–"
	case v >= 1000:
		return strconv.FormatFloat(v, 'f', 0, 64) + unit
	}
	return strconv.FormatFloat(v, 'g', 3, 64) + unit
}
