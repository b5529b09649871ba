package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/golden"
	"github.com/evalkit-go/evalkit/judgefake"
)

type identified struct{ fake evalkit.Judge }

func (j identified) Judge(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
	return j.fake.Judge(ctx, req)
}

func (identified) Identity() evalkit.Identity {
	return evalkit.Identity{Provider: "openai", Model: "gpt-4.1-mini"}
}

// fixture makes a package with a test, TestKept, and recordings of it and
// of a test that no longer exists; it returns the usage log directory.
func fixture(t *testing.T) string {
	t.Chdir(t.TempDir())
	require.NoError(t, os.MkdirAll("pkg/testdata/evalkit", 0o755))
	require.NoError(t, os.WriteFile("pkg/pkg_test.go", []byte("package pkg\n\nimport \"testing\"\n\nfunc TestKept(t *testing.T) {}\n"), 0o644))
	usage := filepath.Join(t.TempDir(), "usage")
	synctest.Test(t, func(t *testing.T) {
		judge := identified{judgefake.Fixed(evalkit.Verdict{Score: 0.9, RawScore: 9, Scored: true, Reasoning: "States the amount.", Usage: evalkit.Usage{InputTokens: 420, OutputTokens: 20, CostUSD: 0.0002}})}
		for _, name := range []string{"TestKept", "TestGone"} {
			rec, err := golden.New("pkg/testdata/evalkit/"+name+".judge.json", judge, golden.WithMode(golden.ModeRecord))
			require.NoError(t, err)
			for _, c := range []string{"States the refund amount", "Is polite"} {
				_, err := rec.Judge(context.Background(), evalkit.JudgeRequest{Criteria: c, Content: "Your refund of $42 is on its way."})
				require.NoError(t, err)
			}
			require.NoError(t, rec.Save())
		}
	})
	return usage
}

func runCLI(args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestCLIListShowVerify(t *testing.T) {
	fixture(t)
	code, out, errOut := runCLI("golden", "list")
	assert.Equal(t, 0, code, errOut)
	assert.Equal(t, "pkg/testdata/evalkit/TestGone.judge.json\t2 entries\t1.7 kB\topenai gpt-4.1-mini\tlast recorded 2000-01-01\n"+
		"pkg/testdata/evalkit/TestKept.judge.json\t2 entries\t1.7 kB\topenai gpt-4.1-mini\tlast recorded 2000-01-01\n", out)

	code, out, _ = runCLI("golden", "show", "pkg/testdata/evalkit/TestKept.judge.json")
	assert.Equal(t, 0, code)
	assert.Regexp(t, regexp.MustCompile(`(?m)^sha256:[0-9a-f]{12}  2000-01-01T00:00:00Z  openai gpt-4\.1-mini  \(pkg/testdata/evalkit/TestKept\.judge\.json\)
    criteria:  (Is polite|States the refund amount)
    content:   Your refund of \$42 is on its way\.
    verdict:   score 0\.90 \(9 on 0–10\)
    reasoning: States the amount\.
    usage:     420\+20 tokens, \$0\.000200
$`), out)

	f, err := golden.Load("pkg/testdata/evalkit/TestKept.judge.json")
	require.NoError(t, err)
	code, out, _ = runCLI("golden", "show", "-json", "-key", golden.ShortKey(f.Entries[0].Key)[len("sha256:"):], "pkg/testdata/evalkit/TestKept.judge.json")
	assert.Equal(t, 0, code)
	assert.Equal(t, 1, strings.Count(out, `"key": "`+f.Entries[0].Key+`"`))
	code, _, errOut = runCLI("golden", "show", "-key", "ffff", "pkg/testdata/evalkit/TestKept.judge.json")
	assert.Equal(t, 1, code)
	assert.Equal(t, "evalkit golden show: no entry's key starts with sha256:ffff\n", errOut)

	code, out, _ = runCLI("golden", "verify")
	assert.Equal(t, 0, code)
	assert.Equal(t, "ok\tpkg/testdata/evalkit/TestGone.judge.json\nok\tpkg/testdata/evalkit/TestKept.judge.json\n", out)

	data, _ := os.ReadFile("pkg/testdata/evalkit/TestKept.judge.json")
	leaked := strings.Replace(string(data), "States the amount.", "Used key sk-proj-a1b2c3d4e5f6g7h8i9j0.", 1)
	require.NoError(t, os.WriteFile("pkg/testdata/evalkit/TestKept.judge.json", []byte(leaked), 0o644))
	code, out, errOut = runCLI("golden", "verify")
	assert.Equal(t, 1, code)
	assert.Equal(t, "ok\tpkg/testdata/evalkit/TestGone.judge.json\n", out)
	assert.Contains(t, errOut, "pkg/testdata/evalkit/TestKept.judge.json: 1 problem:\n\tline ")
	assert.Contains(t, errOut, "looks like an OpenAI API key (sk-…): sk-p (4 of 28 bytes)")
	assert.NotContains(t, errOut, "a1b2c3d4")
}

func TestCLIPrune(t *testing.T) {
	usage := fixture(t)
	kept := "pkg/testdata/evalkit/TestKept.judge.json"
	code, out, _ := runCLI("golden", "prune", "-n", "-usage", usage)
	assert.Equal(t, 0, code)
	assert.Equal(t, "pkg/testdata/evalkit/TestGone.judge.json: would drop the whole recording: no test TestGone in its package\n"+
		kept+": left alone: "+kept+" has no usage log: run its tests (go test) first\n", out)

	// A run that used one of TestKept's two entries.
	rec, err := golden.New(kept, identified{judgefake.Err(os.ErrInvalid)}, golden.WithUsageLog(usage))
	require.NoError(t, err)
	_, err = rec.Judge(context.Background(), evalkit.JudgeRequest{Criteria: "Is polite", Content: "Your refund of $42 is on its way."})
	require.NoError(t, err)
	require.NoError(t, rec.Save())

	code, out, _ = runCLI("golden", "prune", "-usage", usage)
	assert.Equal(t, 0, code)
	assert.Regexp(t, `^pkg/testdata/evalkit/TestGone.judge.json: dropped the whole recording: no test TestGone in its package
pkg/testdata/evalkit/TestKept.judge.json: dropped 1 entry no test used: sha256:[0-9a-f]{12}
$`, out)
	_, err = os.Stat("pkg/testdata/evalkit/TestGone.judge.json")
	assert.True(t, os.IsNotExist(err))
	f, err := golden.Load(kept)
	require.NoError(t, err)
	require.Len(t, f.Entries, 1)
	assert.Equal(t, "Is polite", f.Entries[0].Request.Criteria)

	code, out, _ = runCLI("golden", "prune", "-usage", usage)
	assert.Equal(t, 0, code)
	assert.Equal(t, kept+": every entry was used\n", out)
}

func TestCLIUsage(t *testing.T) {
	code, _, errOut := runCLI()
	assert.Equal(t, 2, code)
	assert.True(t, strings.HasPrefix(errOut, "usage: evalkit golden <command>"))
	code, _, errOut = runCLI("golden", "rewind")
	assert.Equal(t, 2, code)
	assert.True(t, strings.HasPrefix(errOut, "evalkit golden: unknown command \"rewind\""))
	code, _, _ = runCLI("golden", "prune", "-bogus")
	assert.Equal(t, 2, code)
	t.Chdir(t.TempDir())
	code, _, errOut = runCLI("golden", "verify")
	assert.Equal(t, 1, code, "nothing verified is no pass")
	assert.Equal(t, "evalkit golden verify: no recordings named, and no *.judge.json or *.http.json in a testdata directory under this one\n", errOut)
	require.NoError(t, os.MkdirAll("testdata", 0o755))
	require.NoError(t, os.WriteFile("testdata/Bad.judge.json", []byte("{"), 0o644))
	code, _, errOut = runCLI("golden", "list")
	assert.Equal(t, 1, code)
	assert.Equal(t, "golden: testdata/Bad.judge.json: not a recording: the JSON ends too early\n", errOut)
}

// -h and --help print the usage and exit 0 on every command, as Go's own
// commands do since Go 1.15; a bad flag still exits 2.
func TestCLIHelpExitsZero(t *testing.T) {
	for _, cmd := range [][]string{
		{}, {"golden"}, {"golden", "list"}, {"golden", "show"}, {"golden", "verify"}, {"golden", "prune"},
		{"golden", "merge"}, {"golden", "audit"}, {"report"}, {"compare"}, {"checks"},
	} {
		for _, h := range []string{"-h", "--help", "-help"} {
			args := append(slices.Clone(cmd), h)
			code, out, errOut := runCLI(args...)
			assert.Equal(t, 0, code, "evalkit %s", strings.Join(args, " "))
			assert.NotEmpty(t, out+errOut, "evalkit %s prints its usage", strings.Join(args, " "))
		}
	}
	code, _, _ := runCLI("report", "-bogus")
	assert.Equal(t, 2, code)
}

// golden list, show and verify walk a directory named to them, as they
// walk the current one when none is named.
func TestCLIGoldenDirectory(t *testing.T) {
	fixture(t)
	code, out, errOut := runCLI("golden", "list", "pkg/testdata/evalkit")
	assert.Equal(t, 0, code, errOut)
	assert.Equal(t, 2, strings.Count(out, "\t2 entries\t"), out)
	code, out, errOut = runCLI("golden", "verify", "pkg")
	assert.Equal(t, 0, code, errOut)
	assert.Equal(t, "ok\tpkg/testdata/evalkit/TestGone.judge.json\nok\tpkg/testdata/evalkit/TestKept.judge.json\n", out)
	code, out, errOut = runCLI("golden", "show", "pkg/testdata")
	assert.Equal(t, 0, code, errOut)
	assert.Equal(t, 4, strings.Count(out, "criteria:"), out)
	empty := t.TempDir()
	code, _, errOut = runCLI("golden", "verify", empty)
	assert.Equal(t, 1, code, "a directory without recordings verifies nothing, and says so")
	assert.Equal(t, "evalkit golden verify: "+empty+" holds no *.judge.json or *.http.json recordings\n", errOut)
}

// A journal a recording run left behind (golden.JournalSuffix): verify
// fails on it, list, show and prune say so and leave it alone, and a
// journal whose recording that run never wrote is found too.
func TestCLIJournal(t *testing.T) {
	usage := fixture(t)
	judge := identified{judgefake.Pass()}
	for _, name := range []string{"TestKept", "TestNew"} {
		rec, err := golden.New("pkg/testdata/evalkit/"+name+".judge.json", judge, golden.WithMode(golden.ModeRecord))
		require.NoError(t, err)
		_, err = rec.Judge(context.Background(), evalkit.JudgeRequest{Criteria: "Is brief", Content: "Done."})
		require.NoError(t, err) // journaled, never saved: the run was killed
	}
	code, out, errOut := runCLI("golden", "verify")
	assert.Equal(t, 1, code)
	assert.Equal(t, "ok\tpkg/testdata/evalkit/TestGone.judge.json\n", out)
	for _, name := range []string{"TestKept", "TestNew"} {
		assert.Contains(t, errOut, "golden: pkg/testdata/evalkit/"+name+".judge.json: 1 problem:\n\t"+name+".judge.json.journal holds 1 entry not merged into the recording")
	}

	code, out, errOut = runCLI("golden", "list")
	assert.Equal(t, 0, code, errOut)
	assert.Equal(t, 2, strings.Count(out, "\n"), "the two recordings; TestNew has only its journal")
	assert.Contains(t, errOut, "evalkit golden list: note: pkg/testdata/evalkit/TestNew.judge.json.journal holds 1 entry not merged into the recording yet")
	assert.Contains(t, errOut, "evalkit golden list: note: pkg/testdata/evalkit/TestKept.judge.json.journal holds 1 entry")

	code, out, _ = runCLI("golden", "prune", "-usage", usage)
	assert.Equal(t, 0, code)
	assert.Contains(t, out, "pkg/testdata/evalkit/TestKept.judge.json: left alone: a journal is beside it")
	assert.Contains(t, out, "pkg/testdata/evalkit/TestNew.judge.json: left alone: a journal is beside it")
	_, err := os.Stat("pkg/testdata/evalkit/TestKept.judge.json.journal")
	assert.NoError(t, err)
}
