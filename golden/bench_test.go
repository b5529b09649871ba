package golden_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/golden"
	"github.com/evalkit-go/evalkit/judgefake"
)

// benchEntries is the size of the recording the replay benchmarks read:
// a large suite's worth of judged steps in one file.
const benchEntries = 10_000

// benchRequest is the i-th request of a benchmark recording: refund-sized
// (about 300 bytes of content).
func benchRequest(i int) evalkit.JudgeRequest {
	req := refundRequest()
	req.Content = fmt.Sprintf("%s Order #W%06d was refunded in full; the customer was told the amount and the 5-7 day window, and thanked for their patience.", req.Content, i)
	return req
}

// benchFiles holds the recordings the benchmarks made, by size, for the
// life of the test binary: with -count 5 each benchmark runs five times,
// and a 50,000-entry file takes seconds to make.
var benchFiles struct {
	sync.Mutex
	dir   string
	paths map[int]string
}

// benchRecording returns a recording of n entries, as recording n
// requests would write it: one request is recorded through a Recorder,
// and its entry is the pattern of the others, each under its request's
// key (golden.Key) with its content in the summary.
func benchRecording(b *testing.B, n int) (string, []evalkit.JudgeRequest) {
	b.Helper()
	reqs := make([]evalkit.JudgeRequest, n)
	for i := range reqs {
		reqs[i] = benchRequest(i)
	}
	benchFiles.Lock()
	defer benchFiles.Unlock()
	if path, ok := benchFiles.paths[n]; ok {
		return path, reqs
	}
	if benchFiles.dir == "" {
		dir, err := os.MkdirTemp("", "evalkit-golden-bench-")
		if err != nil {
			b.Fatal(err)
		}
		benchFiles.dir, benchFiles.paths = dir, map[int]string{}
	}
	path := filepath.Join(benchFiles.dir, fmt.Sprintf("Bench%d.judge.json", n))
	rec, err := golden.New(path, newLive(testIdentity), golden.WithMode(golden.ModeRecord))
	if err != nil {
		b.Fatal(err)
	}
	if _, err := rec.Judge(context.Background(), reqs[0]); err != nil {
		b.Fatal(err)
	}
	if err := rec.Save(); err != nil {
		b.Fatal(err)
	}
	one, err := golden.Load(path)
	if err != nil || len(one.Entries) != 1 {
		b.Fatal(err)
	}
	f := &golden.File{Version: golden.Version, Entries: make([]golden.Entry, n)}
	for i, req := range reqs {
		e := one.Entries[0]
		if e.Key, err = golden.Key(testIdentity, req); err != nil {
			b.Fatal(err)
		}
		e.Request.Content = req.Content
		e.RecordedAt = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Second)
		f.Entries[i] = e
	}
	if err := golden.WriteFile(path, f); err != nil {
		b.Fatal(err)
	}
	if info, err := os.Stat(path); err == nil {
		b.Logf("%d entries: %d bytes, %d bytes an entry", n, info.Size(), info.Size()/int64(n))
	}
	benchFiles.paths[n] = path
	return path, reqs
}

// TestMain removes the benchmarks' recordings when the binary ends.
func TestMain(m *testing.M) {
	code := m.Run()
	if benchFiles.dir != "" {
		os.RemoveAll(benchFiles.dir)
	}
	os.Exit(code)
}

// BenchmarkReplayVsFixedFake: one replayed verdict from a 10,000-entry
// recording — the request keyed (SHA-256 of its canonical JSON), looked
// up, the verdict copied — against the baseline of the cheapest judge
// there is, judgefake.Fixed (no I/O, no keying). The target is under
// 50 µs a verdict (µs/verdict).
func BenchmarkReplayVsFixedFake(b *testing.B) {
	path, reqs := benchRecording(b, benchEntries)
	ctx := context.Background()
	b.Run("baseline=judgefake.Fixed", func(b *testing.B) {
		j := judgefake.Fixed(richVerdict(reqs[0]))
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			if _, err := j.Judge(ctx, reqs[i%len(reqs)]); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
	b.Run("replay-10k", func(b *testing.B) {
		rec, err := golden.New(path, newLive(testIdentity))
		if err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			if _, err := rec.Judge(ctx, reqs[i%len(reqs)]); err != nil {
				b.Fatal(err)
			}
			i++
		}
		b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N), "µs/verdict")
	})
}

// BenchmarkReplayMiss10k: a request a 10,000-entry recording lacks, the
// nearest entry found and what differs said.
func BenchmarkReplayMiss10k(b *testing.B) {
	path, reqs := benchRecording(b, benchEntries)
	rec, err := golden.New(path, newLive(testIdentity))
	if err != nil {
		b.Fatal(err)
	}
	miss := reqs[5000]
	miss.Criteria = "Confirms the refund"
	b.ReportAllocs()
	for b.Loop() {
		if _, err := rec.Judge(context.Background(), miss); !errors.Is(err, golden.ErrNotRecorded) {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoad: reading a recording, once per test that uses it, at
// three sizes; ns/entry and B/entry stay flat when loading is linear in
// the file's size. The baseline is reading the file's bytes.
func BenchmarkLoad(b *testing.B) {
	for _, n := range []int{1_000, 10_000, 50_000} {
		path, _ := benchRecording(b, n)
		info, err := os.Stat(path)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("entries=%d/baseline=os.ReadFile", n), func(b *testing.B) {
			b.SetBytes(info.Size())
			b.ReportAllocs()
			for b.Loop() {
				if _, err := os.ReadFile(path); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("entries=%d/golden.New", n), func(b *testing.B) {
			b.SetBytes(info.Size())
			b.ReportAllocs()
			for b.Loop() {
				if _, err := golden.New(path, newLive(testIdentity)); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/entry")
		})
	}
}

// BenchmarkRecordDurably: recording 1,000 verdicts of a fast live judge
// into a new file, each durable as soon as it is obtained — appended to
// the journal, synced, under the recording's lock — and one Save at the
// end (journal), against the baseline of the Save at the end alone (no
// verdict durable before it: what a timeout panic or a kill lost), and
// the alternative of an atomic rewrite of the whole recording after each
// verdict (rewrite-per-entry). ns/entry is the time per verdict.
func BenchmarkRecordDurably(b *testing.B) {
	const n = 1_000
	reqs := make([]evalkit.JudgeRequest, n)
	for i := range reqs {
		reqs[i] = numbered(i)
	}
	run := func(b *testing.B, noJournal, savePerEntry bool) {
		golden.SetTestNoJournal(noJournal)
		defer golden.SetTestNoJournal(false)
		dir := b.TempDir()
		ctx := context.Background()
		b.ReportAllocs()
		round := 0
		for b.Loop() {
			round++
			path := filepath.Join(dir, fmt.Sprintf("round%d", round), "TestX.judge.json")
			rec, err := golden.New(path, newLive(testIdentity), golden.WithMode(golden.ModeRecord))
			if err != nil {
				b.Fatal(err)
			}
			for _, req := range reqs {
				if _, err := rec.Judge(ctx, req); err != nil {
					b.Fatal(err)
				}
				if savePerEntry {
					if err := rec.Save(); err != nil {
						b.Fatal(err)
					}
				}
			}
			if err := rec.Save(); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/entry")
	}
	b.Run("entries=1000/baseline=save-at-end", func(b *testing.B) { run(b, true, false) })
	b.Run("entries=1000/journal", func(b *testing.B) { run(b, false, false) })
	b.Run("entries=1000/rewrite-per-entry", func(b *testing.B) { run(b, true, true) })
}
