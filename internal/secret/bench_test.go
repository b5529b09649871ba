package secret_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/evalkit-go/evalkit/internal/benchdata"
	"github.com/evalkit-go/evalkit/internal/secret"
	"github.com/evalkit-go/evalkit/internal/secret/secrettest"
)

// corpus is a mebibyte of the real text redaction sees, as it is written
// (JSON): the τ-bench airline and retail runs and the GPT-4 judgments of
// MT-Bench and Arena-Hard in testdata, in turn until 1 MiB. With keys, a
// fake credential of every shape is planted every 8 KiB.
func corpus(b *testing.B, keys bool) string {
	b.Helper()
	var parts []string
	for _, f := range []string{"tau_bench/airline_gpt4o_trajectories.json", "tau_bench/retail_gpt4o_conversations.jsonl",
		"mt_bench/gpt4_single_llama3_8b.jsonl", "arena_hard/gpt4_judge_arena_bench_v1_gpt-4-0314.jsonl"} {
		data, err := os.ReadFile(filepath.Join(benchdata.Root(), "testdata", f))
		if err != nil {
			b.Fatal(err)
		}
		parts = append(parts, string(data))
	}
	const size = 1 << 20
	var sb strings.Builder
	fakes := secrettest.All()
	for i := 0; sb.Len() < size; i++ {
		part := parts[i%len(parts)]
		for len(part) > 0 && sb.Len() < size {
			n := min(len(part), 8<<10)
			sb.WriteString(part[:n])
			part = part[n:]
			if keys {
				sb.WriteString(" " + fakes[sb.Len()%len(fakes)].Text + " ")
			}
		}
	}
	return sb.String()[:size]
}

// BenchmarkRedact is the cost of redacting a mebibyte of real text, beside
// one strings.Contains scan of it for a needle it does not hold (the
// least any search of the text costs). make bench reports the ratio;
// ms/MiB is wall time per mebibyte, cpu-ms/MiB the process's CPU time
// (which a machine shared with other jobs inflates less).
func BenchmarkRedact(b *testing.B) {
	plain, keyed := corpus(b, false), corpus(b, true)
	needle := "sk-proj-" + strings.Repeat("Zz9", 12)
	b.Run("baseline=strings.Contains", func(b *testing.B) {
		b.SetBytes(int64(len(plain)))
		cpu := cpuTime()
		for b.Loop() {
			if strings.Contains(plain, needle) {
				b.Fatal("found")
			}
		}
		report(b, cpu)
	})
	for _, tc := range []struct {
		name string
		text string
	}{{"secret.Clean", plain}, {"secret.Clean+keys", keyed}} {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(tc.text)))
			cpu := cpuTime()
			for b.Loop() {
				secret.Clean(tc.text)
			}
			report(b, cpu)
		})
	}
	b.Run("secret.Stream+keys", func(b *testing.B) {
		b.SetBytes(int64(len(keyed)))
		cpu := cpuTime()
		for b.Loop() {
			var s secret.Stream
			done := 0
			for i := 0; i < len(keyed); i += 4096 {
				s.WriteString(keyed[i:min(len(keyed), i+4096)])
				end := s.Settle(i+4096 >= len(keyed))
				_ = s.Text(done, end)
				done = end
				s.Discard(done)
			}
		}
		report(b, cpu)
	})
}

// report adds wall and CPU milliseconds per mebibyte (a loop over 1 MiB)
// since cpu, the process's CPU time before the loop.
func report(b *testing.B, cpu time.Duration) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/MiB")
	if now := cpuTime(); cpu >= 0 && now >= 0 {
		b.ReportMetric(float64((now-cpu).Nanoseconds())/float64(b.N)/1e6, "cpu-ms/MiB")
	}
}
