package evalkit_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/evaltest"
	"github.com/evalkit-go/evalkit/internal/results"
)

// TestTauBenchCaseFile runs testdata/cases/tau_bench.yaml — 50 cases over
// the 22 real τ-bench runs — with a run function that loads the run a case
// names. The cases of runs τ-bench rewarded 0 fail, as they should, so it
// runs only inside TestTauBenchCaseFileShards, which reads its results.
func TestTauBenchCaseFile(t *testing.T) {
	if os.Getenv("EVALKIT_TAU_CASES") == "" {
		t.Skip("run by TestTauBenchCaseFileShards")
	}
	byName := map[string]*evalkit.Transcript{}
	for _, run := range loadTauBench(t) {
		byName[run.name] = run.tr
	}
	evaltest.RunCases(t, "testdata/cases/tau_bench.yaml", func(et *evaltest.T, c evaltest.Case) *evalkit.Transcript {
		tr := byName[fmt.Sprint(c.Vars["run"])]
		if tr == nil {
			et.Fatalf("case %s names no bundled run: %v", c.Name, c.Vars["run"])
		}
		return tr
	})
}

// The case file runs whole and in 4 shards (EVALKIT_SHARD=i/4, each a test
// binary of its own, as a CI matrix would) with the same results: the
// shards' results files merge into the whole run's, line for line, every
// case in exactly one shard.
func TestTauBenchCaseFileShards(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the test binary 5 times")
	}
	dir := t.TempDir()
	runCases := func(name, shard string) []results.Line {
		path := filepath.Join(dir, name+".jsonl")
		cmd := exec.Command(os.Args[0], "-test.run=^TestTauBenchCaseFile$", "-test.count=1")
		cmd.Env = append(os.Environ(), "EVALKIT_TAU_CASES=1", "EVALKIT_SHARD="+shard, "EVALKIT_REPORT="+path)
		out, err := cmd.CombinedOutput()
		require.Error(t, err, "the cases of unrewarded runs fail:\n%s", out)
		require.Contains(t, string(out), "--- FAIL: TestTauBenchCaseFile", "%s", out)
		lines, err := results.ReadFile(path)
		require.NoError(t, err)
		return lines
	}
	checks := func(lines []results.Line) []string {
		var out []string
		for _, l := range lines {
			if l.Kind == results.KindCheck {
				score := "-"
				if l.Score != nil {
					score = fmt.Sprintf("%.4f", *l.Score)
				}
				out = append(out, strings.Join([]string{l.Case, l.Check, l.Status, score, l.TranscriptID}, " | "))
			}
		}
		slices.Sort(out)
		return out
	}

	whole := runCases("whole", "")
	wholeChecks := checks(whole)
	require.Len(t, wholeChecks, 50, "one check per case")
	var merged []results.Line
	seen := map[string]string{}
	for i := 1; i <= 4; i++ {
		shard := fmt.Sprintf("%d/4", i)
		lines := runCases(fmt.Sprintf("shard%d", i), shard)
		got := checks(lines)
		assert.NotEmpty(t, got, "shard %s runs some cases", shard)
		t.Logf("shard %s: %d cases", shard, len(got))
		for _, l := range lines {
			if l.Kind != results.KindCheck {
				continue
			}
			assert.Equal(t, shard, l.Shard)
			if prev, dup := seen[l.Case]; dup {
				t.Errorf("case %q runs in shards %s and %s", l.Case, prev, shard)
			}
			seen[l.Case] = shard
		}
		merged = append(merged, lines...)
	}
	assert.Equal(t, wholeChecks, checks(merged), "the shards' results merge into the whole run's")

	// And the results say what τ-bench's rewards say: a run's ground-truth
	// calls case passes exactly when the run was rewarded (but for the one
	// known, explained disagreement of TestTauBench).
	agree := 0
	for _, l := range whole {
		if l.Kind != results.KindCheck || !strings.HasSuffix(l.Case, ": ground-truth calls") {
			continue
		}
		rewarded := slices.Contains(l.Tags, "reward_1")
		if (l.Status == "pass") == rewarded {
			agree++
		}
	}
	assert.Equal(t, 21, agree, "ground-truth cases agreeing with the reward, of 22")
}
