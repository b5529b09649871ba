package golden_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/golden"
	"github.com/evalkit-go/evalkit/judgefake"
)

// benchEntries is the size of the recording the benchmarks replay from:
// a large suite's worth of judged steps in one file.
const benchEntries = 10_000

// benchRecording records benchEntries verdicts with refund-sized requests
// (about 300 bytes of content) into a file in dir, and returns the
// requests.
func benchRecording(b *testing.B, path string) []evalkit.JudgeRequest {
	b.Helper()
	rec, err := golden.New(path, newLive(testIdentity), golden.WithMode(golden.ModeRecord))
	if err != nil {
		b.Fatal(err)
	}
	reqs := make([]evalkit.JudgeRequest, benchEntries)
	for i := range reqs {
		req := refundRequest()
		req.Content = fmt.Sprintf("%s Order #W%06d was refunded in full; the customer was told the amount and the 5-7 day window, and thanked for their patience.", req.Content, i)
		reqs[i] = req
		if _, err := rec.Judge(context.Background(), req); err != nil {
			b.Fatal(err)
		}
	}
	if err := rec.Save(); err != nil {
		b.Fatal(err)
	}
	if info, err := os.Stat(path); err == nil {
		b.Logf("%d entries: %d bytes, %d bytes an entry", benchEntries, info.Size(), info.Size()/benchEntries)
	}
	return reqs
}

// BenchmarkReplayVsFixedFake: one replayed verdict from a 10,000-entry
// recording, against the baseline of the cheapest judge there is,
// judgefake.Fixed (no I/O, no keying).
func BenchmarkReplayVsFixedFake(b *testing.B) {
	path := filepath.Join(b.TempDir(), "Bench.judge.json")
	reqs := benchRecording(b, path)
	ctx := context.Background()
	b.Run("replay-10k", func(b *testing.B) {
		rec, err := golden.New(path, newLive(testIdentity))
		if err != nil {
			b.Fatal(err)
		}
		i := 0
		for b.Loop() {
			if _, err := rec.Judge(ctx, reqs[i%len(reqs)]); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
	b.Run("judgefake.Fixed", func(b *testing.B) {
		j := judgefake.Fixed(richVerdict(reqs[0]))
		i := 0
		for b.Loop() {
			if _, err := j.Judge(ctx, reqs[i%len(reqs)]); err != nil {
				b.Fatal(err)
			}
			i++
		}
	})
}

// BenchmarkReplayMiss10k: a request a 10,000-entry recording lacks, the
// nearest entry found and what differs said.
func BenchmarkReplayMiss10k(b *testing.B) {
	path := filepath.Join(b.TempDir(), "Bench.judge.json")
	reqs := benchRecording(b, path)
	rec, err := golden.New(path, newLive(testIdentity))
	if err != nil {
		b.Fatal(err)
	}
	miss := reqs[5000]
	miss.Criteria = "Confirms the refund"
	for b.Loop() {
		if _, err := rec.Judge(context.Background(), miss); !errors.Is(err, golden.ErrNotRecorded) {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoad10k: reading a 10,000-entry recording, once per test that
// uses it.
func BenchmarkLoad10k(b *testing.B) {
	path := filepath.Join(b.TempDir(), "Bench.judge.json")
	benchRecording(b, path)
	for b.Loop() {
		if _, err := golden.New(path, newLive(testIdentity)); err != nil {
			b.Fatal(err)
		}
	}
}
