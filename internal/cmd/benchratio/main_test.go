package main

import (
	"bytes"
	"strings"
	"testing"
)

// out is go test -bench output as go test prints it: two runs of
// -count=1, so each sub-benchmark's i-th result is paired with its
// baseline's i-th; the ns/op here make the pairs' ratios 2, 4 and 3 in
// the first package.
const out = `goos: linux
goarch: amd64
pkg: github.com/evalkit-go/evalkit/assert
cpu: AMD EPYC
BenchmarkChainVsHandWritten/baseline=handwritten-2         	   14026	     25000 ns/op	    9918 B/op	     155 allocs/op
BenchmarkChainVsHandWritten/assert.Eval-2                  	    4341	     50000 ns/op	   37637 B/op	     461 allocs/op
BenchmarkChainVsHandWritten/paired/assert.Eval-2           	    2631	    128188 ns/op	         3.069 x-baseline	   47547 B/op	     616 allocs/op
PASS
ok  	github.com/evalkit-go/evalkit/assert	26.957s
goos: linux
goarch: amd64
pkg: github.com/evalkit-go/evalkit/assert
cpu: AMD EPYC
BenchmarkChainVsHandWritten/baseline=handwritten-2         	   14026	     10000 ns/op	    9918 B/op	     155 allocs/op
BenchmarkChainVsHandWritten/assert.Eval-2                  	    4341	     40000 ns/op	   37637 B/op	     463 allocs/op
BenchmarkChainVsHandWritten/assert.Eval-2                  	    4341	     99000 ns/op	   37637 B/op	     463 allocs/op
BenchmarkChainVsHandWritten/paired/assert.Eval-2           	    2631	    128188 ns/op	         2.931 x-baseline	   47547 B/op	     616 allocs/op
--- BENCH: BenchmarkChainVsHandWritten/assert.Eval-2
    overhead_bench_test.go:70: BenchmarkChainVsHandWritten/assert.Eval 3 not a result
PASS
goos: linux
goarch: amd64
pkg: github.com/evalkit-go/evalkit/golden
cpu: AMD EPYC
BenchmarkReplayVsFixedFake/baseline=judgefake.Fixed-2         	    2000	       500.0 ns/op	     473 B/op	       6 allocs/op
BenchmarkReplayVsFixedFake/replay-10k-2                       	    2000	     20342 ns/op	        20.34 µs/verdict	    6669 B/op	      91 allocs/op
BenchmarkLoad/entries=10000-2                                 	      10	 123456789 ns/op
`

func TestParseLine(t *testing.T) {
	name, m, ok := parseLine("BenchmarkReplayVsFixedFake/replay-10k-2   \t    2000\t     20342 ns/op\t        20.34 µs/verdict\t    6669 B/op\t      91 allocs/op")
	if !ok || name != "BenchmarkReplayVsFixedFake/replay-10k" {
		t.Fatalf("parseLine: name %q, ok %v; want BenchmarkReplayVsFixedFake/replay-10k (the -2 dropped, -10k kept)", name, ok)
	}
	want := map[string]float64{"ns/op": 20342, "µs/verdict": 20.34, "B/op": 6669, "allocs/op": 91}
	for u, v := range want {
		if m[u] != v {
			t.Errorf("parseLine: %s = %v, want %v", u, m[u], v)
		}
	}
	for _, line := range []string{
		"BenchmarkChainVsHandWritten/assert.Eval-2",
		"--- BENCH: BenchmarkChainVsHandWritten/assert.Eval-2",
		"    overhead_bench_test.go:70: BenchmarkX 3 not a result",
		"BenchmarkX 3 not a result",
		"ok  	github.com/evalkit-go/evalkit/assert	26.957s",
	} {
		if _, _, ok := parseLine(line); ok {
			t.Errorf("parseLine(%q) is a result; want not", line)
		}
	}
}

func TestRows(t *testing.T) {
	s := newSet()
	if err := s.read(strings.NewReader(out)); err != nil {
		t.Fatal(err)
	}
	rows := s.rows()
	if len(rows) != 2 {
		t.Fatalf("rows: %d, want 2 (assert.Eval and replay-10k; paired/ and Load have no baseline sibling): %+v", len(rows), rows)
	}
	r := rows[0]
	// Pairs: 50000/25000 = 2 and 40000/10000 = 4; the third result has
	// no baseline to pair with. The median of the pairs' ratios is 3 —
	// not the ratio of the medians (median of 50000, 40000, 99000 over
	// median of 25000, 10000: 2.86).
	if r.name != "BenchmarkChainVsHandWritten/assert.Eval" || r.baseline != "handwritten" || r.pairs != 2 || r.ratio != 3 {
		t.Errorf("row 0: %s vs %s, %d pairs, ratio %v; want assert.Eval vs handwritten, 2 pairs, ratio 3", r.name, r.baseline, r.pairs, r.ratio)
	}
	if r.ns != 50000 || r.baseNs != 17500 || r.allocs != 463 || r.baseAllocs != 155 {
		t.Errorf("row 0 medians: ns %v base %v allocs %v base %v; want 50000 17500 463 155", r.ns, r.baseNs, r.allocs, r.baseAllocs)
	}
	if r := rows[1]; r.pkg != "github.com/evalkit-go/evalkit/golden" || r.baseline != "judgefake.Fixed" || r.ratio != 20342.0/500 {
		t.Errorf("row 1: %s %s vs %s ratio %v; want golden's replay-10k vs judgefake.Fixed, %v", r.pkg, r.name, r.baseline, r.ratio, 20342.0/500)
	}

	var buf bytes.Buffer
	s.write(&buf)
	for _, want := range []string{
		"| assert | BenchmarkChainVsHandWritten/assert.Eval | handwritten | 3× | 50000 | 17500 | 463 | 155 | 2 |",
		"| assert | BenchmarkChainVsHandWritten/paired/assert.Eval | 3 x-baseline | 616 | 2 |",
		"| golden | BenchmarkReplayVsFixedFake/replay-10k | 20.3 µs/verdict | 91 | 1 |",
	} {
		if !strings.Contains(buf.String(), want+"\n") {
			t.Errorf("write: no line\n%s\nin\n%s", want, buf.String())
		}
	}
}

func TestMedian(t *testing.T) {
	for _, c := range []struct {
		in   []float64
		want float64
	}{{nil, -1}, {[]float64{3}, 3}, {[]float64{4, 1, 2}, 2}, {[]float64{4, 1, 2, 3}, 2.5}} {
		if got := median(c.in); got != c.want {
			t.Errorf("median(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}
