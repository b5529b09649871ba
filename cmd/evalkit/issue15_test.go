package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Regression tests for issue 15's findings 1 and 2 at the command's
// exits: a results file and a recording holding credentials — written by
// an older evalkit, by hand, or by a tool of the user's — are shown and
// rendered without them.

var issue15Keys = []string{
	"sk-proj-Hs9Lq2Wx5Tn7Vb4Kc1Md3Pf6Jg0YaZr8Lq2Wx5",
	"AKIAQ3RT5YU2OP4LKZ7W",
	"sk_live_" + strings.Repeat("4eC39HqLyjWDarjtT1zdp7dc", 2),
	"gsk_" + strings.Repeat("Wq8Zr2Lp5Xn7Tb4Vc1Hs9", 3)[:52],
	"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",
	"ya29.a0AfH6SMBx3k9Wq2Lp5Xn7Tb4Vc1Hs9Rz0Jd8Kf6Mg3Ny2Pa7Qe5",
	"npm_" + strings.Repeat("a1B2c3D4e5F6", 3),
}

func assertNoKey(t *testing.T, what, text string) {
	t.Helper()
	for _, k := range issue15Keys {
		assert.NotContains(t, text, k, what)
		assert.NotContains(t, text, k[len(k)-8:], what+": a key's tail")
	}
}

func TestIssue15ReportOfAResultsFileWithKeys(t *testing.T) {
	dir := t.TempDir()
	all := strings.Join(issue15Keys, " ")
	lines := `{"v":1,"kind":"transcript","test":"TestLeak","id":"t1","transcript":{"messages":[{"role":"assistant","content":"` + all + `"}]}}
{"v":1,"kind":"check","test":"TestLeak","check":"Contains(\"` + issue15Keys[0] + `\")","type":"contains","status":"fail","score":0,"message":"Contains: got ` + all + `","transcript_id":"t1"}
{"v":1,"kind":"check","test":"TestLeak","check":"Judge(\"c\")","type":"llm_judge","status":"fail","score":0.2,"judge":"m","source":"live","message":"reasoning: ` + all + `","provenance":{"provider":"openai","model":"m","raw":"` + all + `"}}
`
	results := filepath.Join(dir, "results.jsonl")
	require.NoError(t, os.WriteFile(results, []byte(lines), 0o644))
	html, md := filepath.Join(dir, "report.html"), filepath.Join(dir, "report.md")
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, run([]string{"report", "-html", html, "-md", md, results}, &stdout, &stderr), stderr.String())
	for _, f := range []string{html, md} {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		assertNoKey(t, f, string(data))
	}
	stdout.Reset()
	require.Equal(t, 0, run([]string{"report", "-md", "-", results}, &stdout, &stderr), stderr.String())
	assertNoKey(t, "report -md -", stdout.String())
	assert.Contains(t, stdout.String(), "[redacted:")
}

func TestIssue15GoldenShowOfARecordingWithKeys(t *testing.T) {
	dir := t.TempDir()
	all := strings.Join(issue15Keys, " ")
	path := filepath.Join(dir, "TestLeak.judge.json")
	rec := `{
  "version": 1,
  "entries": [
    {
      "key": "sha256:0000000000000000000000000000000000000000000000000000000000000000",
      "judge": {"provider": "openai", "model": "m"},
      "request": {"criteria": "c", "content": "` + all + `"},
      "verdict": {"score": 0.2, "raw_score": 2, "scored": true, "reasoning": "` + all + `", "raw": "` + all + `"},
      "recorded_at": "2026-01-01T00:00:00Z"
    }
  ]
}
`
	require.NoError(t, os.WriteFile(path, []byte(rec), 0o644))
	for _, args := range [][]string{{"golden", "show", path}, {"golden", "show", "-json", path}, {"golden", "list", path}, {"golden", "verify", path}} {
		var stdout, stderr bytes.Buffer
		run(args, &stdout, &stderr)
		assertNoKey(t, strings.Join(args, " "), stdout.String()+stderr.String())
	}
	var stdout, stderr bytes.Buffer
	assert.Equal(t, 1, run([]string{"golden", "verify", path}, &stdout, &stderr), "verify names the keys and fails")
	assert.Contains(t, stderr.String(), "looks like a Stripe key")
}
