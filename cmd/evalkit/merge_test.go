package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/golden"
	"github.com/evalkit-go/evalkit/judgefake"
)

// record writes a recording of one verdict per criteria, from judge.
func record(t *testing.T, path string, judge evalkit.Judge, criteria ...string) {
	t.Helper()
	rec, err := golden.New(path, identifiedJudge{judge, "gpt-4.1-mini"}, golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	for _, c := range criteria {
		_, err := rec.Judge(context.Background(), evalkit.JudgeRequest{Criteria: c, Content: "Your refund was issued."})
		require.NoError(t, err)
	}
	require.NoError(t, rec.Save())
}

// Two shards recorded their own cases, and one case both: the merge holds
// each verdict once, and verifies.
func TestGoldenMerge(t *testing.T) {
	dir := t.TempDir()
	a, b, out := filepath.Join(dir, "a.judge.json"), filepath.Join(dir, "b.judge.json"), filepath.Join(dir, "merged.judge.json")
	pass := judgefake.Fixed(evalkit.Verdict{Score: 0.9, Scored: true})
	record(t, a, pass, "Confirms the refund", "States the amount")
	record(t, b, pass, "States the amount", "Is polite")
	code, stdout, stderr := runCLI("golden", "merge", "-o", out, a, b)
	require.Equal(t, 0, code, stderr)
	assert.Equal(t, filepath.ToSlash(out)+": 3 entries from 2 recordings\n", stdout)
	f, err := golden.Load(out)
	require.NoError(t, err)
	assert.Len(t, f.Entries, 3)
	require.NoError(t, golden.Verify(out))

	c := filepath.Join(dir, "c.judge.json")
	record(t, c, judgefake.Fixed(evalkit.Verdict{Score: 0.2, Scored: true}), "Is polite")
	code, _, stderr = runCLI("golden", "merge", "-o", filepath.Join(dir, "never.judge.json"), b, c)
	assert.Equal(t, 1, code)
	assert.True(t, strings.HasPrefix(stderr, "evalkit golden merge: 1 conflicting entry, nothing written:\nsha256:"), stderr)
	assert.Contains(t, stderr, "hold different verdicts")
	assert.NoFileExists(t, filepath.Join(dir, "never.judge.json"))

	code, _, _ = runCLI("golden", "merge", a)
	assert.Equal(t, 2, code, "-o is required")
}
