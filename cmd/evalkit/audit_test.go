package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/golden"
	"github.com/evalkit-go/evalkit/judgefake"
	"github.com/evalkit-go/evalkit/openaijudge"
)

// politeReplies are ten short support replies, judged "Is polite".
var politeReplies = []string{
	"Thanks for waiting! Your refund of $42 is on its way.",
	"Refund done.",
	"Sorry for the trouble: we have issued your refund today.",
	"Your order ships tomorrow. Have a lovely day!",
	"Read the FAQ.",
	"Happy to help: the replacement arrives on Friday.",
	"We cannot do that.",
	"Of course, I have updated your address. Anything else?",
	"Please hold.",
	"Thank you for your patience; your account is unlocked.",
}

func politeAnswer(i, score int) string {
	return fmt.Sprintf(`{"reasoning": "Reply %d reads as courteous enough: score %d.", "score": %d}`, i, score, score)
}

// recordPolite records openaijudge's verdicts on the ten replies (gpt-4.1-mini
// scoring 8 of 10 each), served by a judgefake server, into a recording in
// a testdata directory; it returns the recording's path.
func recordPolite(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "pkg", "testdata", "evalkit", "TestPolite.judge.json")
	var script []judgefake.Reply
	for i := range politeReplies {
		script = append(script, judgefake.Reply{Text: politeAnswer(i, 8), Model: "gpt-4.1-mini-2025-04-14"})
	}
	srv := judgefake.NewServer(script...)
	defer srv.Close()
	live := openaijudge.New(openaijudge.WithModel("gpt-4.1-mini"), openaijudge.WithBaseURL(srv.URL+"/v1"),
		openaijudge.WithAPIKey("sk-test-record-000000"), openaijudge.WithHTTPClient(srv.Client()))
	rec, err := golden.New(path, live, golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	for _, reply := range politeReplies {
		_, err := rec.Judge(context.Background(), evalkit.JudgeRequest{Criteria: "Is polite", Input: "Can you help me?", Content: reply})
		require.NoError(t, err)
	}
	require.NoError(t, rec.Save())
	require.NoError(t, srv.Err())
	return path
}

// driftServer is the judge a while later: a judgefake server answering
// the entries in the order audit asks them (by key), with score[i] for
// reply i and model.
func driftServer(t *testing.T, path string, score func(i int) int, model string) *judgefake.Server {
	t.Helper()
	f, err := golden.Load(path)
	require.NoError(t, err)
	keys := slices.Clone(f.Entries)
	slices.SortFunc(keys, func(a, b golden.Entry) int { return strings.Compare(a.Key, b.Key) })
	var script []judgefake.Reply
	for _, e := range keys {
		i := slices.Index(politeReplies, e.Request.Content)
		require.GreaterOrEqual(t, i, 0)
		script = append(script, judgefake.Reply{Text: politeAnswer(i, score(i)), Model: model})
	}
	srv := judgefake.NewServer(script...)
	t.Cleanup(srv.Close)
	return srv
}

// entryBytes splits a recording into each entry's bytes, by key.
func entryBytes(t *testing.T, path string) map[string]string {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var f struct {
		Entries []json.RawMessage `json:"entries"`
	}
	require.NoError(t, json.Unmarshal(data, &f))
	out := map[string]string{}
	for _, raw := range f.Entries {
		var e struct {
			Key string `json:"key"`
		}
		require.NoError(t, json.Unmarshal(raw, &e))
		out[e.Key] = string(raw)
	}
	return out
}

func keyOf(t *testing.T, path string, reply string) string {
	t.Helper()
	f, err := golden.Load(path)
	require.NoError(t, err)
	for _, e := range f.Entries {
		if e.Request.Content == reply {
			return e.Key
		}
	}
	t.Fatalf("no entry for %q", reply)
	return ""
}

// The judge changed its mind on replies 1, 4 and 6 (8 → 3 of 10: pass →
// fail at the default -pass-score 0.5) and its score a little on 2 and 5 (8 → 7).
// The audit reports exactly the three, with both reasonings, the flip
// rate 3/10 and its Wilson interval [0.108, 0.603], and the score drift:
// mean (3·0.5 + 2·0.1)/10 = 0.17, max 0.5. The recording is untouched; with
// -update, exactly the five changed entries are rewritten, byte for byte
// the rest stays.
func TestAuditReportsTheChangedSubset(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-test-audit-000000")
	path := recordPolite(t)
	before, err := os.ReadFile(path)
	require.NoError(t, err)
	flip, nudge := []int{1, 4, 6}, []int{2, 5}
	score := func(i int) int {
		switch {
		case slices.Contains(flip, i):
			return 3
		case slices.Contains(nudge, i):
			return 7
		}
		return 8
	}
	srv := driftServer(t, path, score, "gpt-4.1-mini-2025-04-14")
	code, out, errOut := runCLI("golden", "audit", "-fraction", "1", "-base-url", srv.URL, path)
	assert.Equal(t, 1, code, "3 flips, more than -max-flips 0")
	assert.Equal(t, "evalkit golden audit: 3 verdicts flipped, more than -max-flips 0\n", errOut)
	require.NoError(t, srv.Err())
	head := "evalkit golden audit\n" +
		"asked 10 of 10 auditable entries (seed 1), 10 got a verdict, from 1 recording holding 10 entries\n" +
		"flipped: 3 of 10 (30.0%, Wilson 95% interval 10.8%–60.3%)\n" +
		"score drift: mean 0.170, max 0.500 (absolute, on [0,1]) over 10 scored verdicts\n" +
		"model: gpt-4.1-mini-2025-04-14, as recorded (10 verdicts)\n" +
		"judge calls: 10, $0.0022\n\nflipped (3):\n"
	assert.True(t, strings.HasPrefix(out, head), out)
	for _, i := range flip {
		assert.Contains(t, out, fmt.Sprintf("  %s  %s\n    criteria: Is polite\n    recorded: pass (score 0.80): Reply %d reads as courteous enough: score 8.\n    now:      fail (score 0.30): Reply %d reads as courteous enough: score 3.\n",
			golden.ShortKey(keyOf(t, path, politeReplies[i])), filepath.ToSlash(path), i, i))
	}
	assert.Equal(t, 3, strings.Count(out, "    recorded: "), "exactly the flipped subset")
	after, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, before, after, "no -update: the recording is untouched")

	// -update: the same drift, written as refresh writes it.
	srv = driftServer(t, path, score, "gpt-4.1-mini-2025-04-14")
	code, out, _ = runCLI("golden", "audit", "-fraction", "1", "-max-flips", "3", "-update", "-base-url", srv.URL, path)
	assert.Equal(t, 0, code, out)
	assert.Contains(t, out, "\nupdated: "+filepath.ToSlash(path)+": 5 entries rewritten\n")
	was, now := entryBytes(t, writeTemp(t, before)), entryBytes(t, path)
	var changed []int
	for i, reply := range politeReplies {
		if k := keyOf(t, path, reply); now[k] != was[k] {
			changed = append(changed, i)
		}
	}
	assert.Equal(t, []int{1, 2, 4, 5, 6}, changed, "only the entries whose verdict changed")
	require.NoError(t, golden.Verify(path), "still a well-formed recording")
	f, err := golden.Load(path)
	require.NoError(t, err)
	for _, e := range f.Entries {
		i := slices.Index(politeReplies, e.Request.Content)
		assert.InDelta(t, float64(score(i)), e.Verdict.RawScore, 1e-12, "reply %d holds the new verdict", i)
	}
}

func writeTemp(t *testing.T, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "before.judge.json")
	require.NoError(t, os.WriteFile(p, data, 0o644))
	return p
}

// A seeded sample is the same sample every time, and another seed draws
// another; a provider that now names another model version is reported.
func TestAuditSampleAndModelVersion(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-test-audit-000000")
	path := recordPolite(t)
	sampled := func(seed string) []string {
		srv := judgefake.NewServer(slices.Repeat([]judgefake.Reply{{Text: `{"reasoning": "fine", "score": 8}`, Model: "gpt-4.1-mini-2025-09-30"}}, 4)...)
		defer srv.Close()
		code, out, errOut := runCLI("golden", "audit", "-n", "4", "-seed", seed, "-max-flips", "10", "-base-url", srv.URL, path)
		require.Equal(t, 0, code, errOut)
		assert.Contains(t, out, "asked 4 of 10 auditable entries (seed "+seed+"), 4 got a verdict, from")
		assert.Contains(t, out, "model: now gpt-4.1-mini-2025-09-30, recorded gpt-4.1-mini-2025-04-14 (4 verdicts): the provider serves another model version\n")
		var contents []string
		for _, r := range srv.Requests() {
			for _, reply := range politeReplies {
				if strings.Contains(r.Prompt(), reply) {
					contents = append(contents, reply)
				}
			}
		}
		require.Len(t, contents, 4)
		return contents
	}
	a, b := sampled("7"), sampled("7")
	assert.Equal(t, a, b, "the same seed, the same sample")
	assert.NotEqual(t, a, sampled("8"))
}

// What cannot be audited says why, and an audit with nothing to ask fails;
// the budget stops the asking, and the rest is not audited, never passed.
func TestAuditCannot(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-test-audit-000000")
	srv := judgefake.NewServer(slices.Repeat([]judgefake.Reply{{Text: `{"reasoning": "fine", "score": 9}`}}, 4)...)
	defer srv.Close()
	code, out, errOut := runCLI("golden", "audit", "-n", "56", "-max-flips", "99", "-base-url", srv.URL, "../../testdata/evalkit/TestMTBenchJudgments.judge.json")
	assert.Equal(t, 0, code, errOut)
	assert.Contains(t, out, "asked 4 of 4 auditable entries (seed 1), 4 got a verdict, from 1 recording holding 56 entries\n"+
		"not auditable: 52 entries: the recording holds an excerpt of the request (a long text was cut; record with EVALKIT_RECORD_WHOLE=1 to audit it)\n")

	path := recordPolite(t)
	srv2 := judgefake.NewServer(slices.Repeat([]judgefake.Reply{{Text: `{"reasoning": "fine", "score": 8}`}}, 3)...)
	defer srv2.Close()
	code, out, errOut = runCLI("golden", "audit", "-n", "5", "-max-calls", "3", "-max-flips", "9", "-base-url", srv2.URL, path)
	assert.Equal(t, 1, code)
	assert.Equal(t, "evalkit golden audit: 2 of 5 sampled entries could not be audited\n", errOut)
	assert.Contains(t, out, "asked 5 of 10 auditable entries (seed 1), 3 got a verdict, from 1 recording holding 10 entries\n", "the headline says how many got a verdict")
	assert.Contains(t, out, "not audited:\n")
	assert.Equal(t, 2, strings.Count(out, "the budget of 3 judge calls is spent (-max-calls)"), out)

	other := filepath.Join(t.TempDir(), "TestOther.judge.json")
	rec, err := golden.New(other, identified{judgefake.Pass()}, golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	_, err = rec.Judge(context.Background(), evalkit.JudgeRequest{Criteria: "Is polite", Content: "Hi."})
	require.NoError(t, err)
	require.NoError(t, rec.Save())
	code, out, errOut = runCLI("golden", "audit", other)
	assert.Equal(t, 1, code)
	assert.Equal(t, "evalkit golden audit: nothing to audit: none of the 1 entries can be asked again\n", errOut)
	assert.Contains(t, out, "not auditable: 1 entry: the judge built for openai gpt-4.1-mini keys its requests otherwise (a setting this evalkit sends differently): give -judges\n")

	code, _, errOut = runCLI("golden", "audit", "-fraction", "2", path)
	assert.Equal(t, 2, code)
	assert.Equal(t, "evalkit golden audit: -fraction 2: want a share in (0,1], such as 0.1\n", errOut)
}

// Without the provider's key, every sampled entry is an error that names
// the judge by its recorded provider and model (not a placeholder name)
// and the variable to set; the headline counts them as having no verdict.
func TestAuditWithoutKey(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-test-record-000000")
	path := recordPolite(t)
	t.Setenv("OPENAI_API_KEY", "")
	code, out, errOut := runCLI("golden", "audit", "-n", "2", path)
	assert.Equal(t, 1, code)
	assert.Equal(t, "evalkit golden audit: 2 of 2 sampled entries could not be audited\n", errOut)
	assert.Contains(t, out, "\nasked 2 of 10 auditable entries (seed 1), 0 got a verdict, from 1 recording holding 10 entries\n", "no verdict: the headline does not say the entries were audited")
	assert.Contains(t, out, "errors: 2 sampled entries got no verdict (listed under \"not audited\")\n", out)
	assert.Equal(t, 2, strings.Count(out, ": judgeset: judge openai.gpt-4.1-mini needs an API key in $OPENAI_API_KEY, which is not set"), out)
	assert.NotContains(t, out, "judge recorded")
	assert.Equal(t, "openai.llama3-8b-q4", auditJudgeName(evalkit.Identity{Provider: "openai", Model: "llama3:8b/q4"}))
	assert.Equal(t, "recorded", auditJudgeName(evalkit.Identity{Provider: "_x"}))
}

// -judges: a judge set's judge answers the entries of its identity, with
// its own key variable; a set with no judge of the recorded identity
// audits nothing and says so. The Markdown's table is well-formed.
func TestAuditJudgeSet(t *testing.T) {
	path := recordPolite(t)
	dir := t.TempDir()
	set := filepath.Join(dir, "judges.yaml")
	require.NoError(t, os.WriteFile(set, []byte("judges:\n  polite:\n    provider: openai\n    model: gpt-4.1-mini\n    api_key_env: EVALKIT_AUDIT_TEST_KEY\n    variants:\n      warm: {settings: {temperature: 0.7}}\n"), 0o644))
	t.Setenv("EVALKIT_AUDIT_TEST_KEY", "sk-test-audit-000000")
	srv := driftServer(t, path, func(i int) int { return map[bool]int{true: 2, false: 8}[i == 3] }, "")
	md := filepath.Join(dir, "audit.md")
	page := filepath.Join(dir, "audit.html")
	code, out, errOut := runCLI("golden", "audit", "-fraction", "1", "-judges", set, "-base-url", "openai="+srv.URL+"/v1", "-md", md, "-html", page, "-max-flips", "1", path)
	require.Equal(t, 0, code, errOut+out)
	require.NoError(t, srv.Err())
	assert.Contains(t, out, "flipped: 1 of 10 (10.0%, Wilson 95% interval 1.8%–40.4%)\n")
	data, err := os.ReadFile(md)
	require.NoError(t, err)
	tables := wellFormedTables(t, string(data))
	require.Len(t, tables, 1)
	assert.Equal(t, []string{" entry ", " criteria ", " recorded ", " now "}, tables[0][0])
	assert.Contains(t, tables[0][1][3], "**fail (score 0.20)**: Reply 3 reads as courteous enough: score 2.")
	html, err := os.ReadFile(page)
	require.NoError(t, err)
	assert.Contains(t, string(html), "<td><b>pass (score 0.80)</b><pre>Reply 3 reads as courteous enough: score 8.</pre></td><td><b class=\"fail\">fail (score 0.20)</b><pre>Reply 3 reads as courteous enough: score 2.</pre></td></tr>")
	assert.NotContains(t, string(html), "<script")

	require.NoError(t, os.WriteFile(set, []byte("judges:\n  other:\n    provider: openai\n    model: gpt-4.1\n"), 0o644))
	code, out, errOut = runCLI("golden", "audit", "-judges", set, path)
	assert.Equal(t, 1, code)
	assert.Contains(t, out, "not auditable: 10 entries: no judge of -judges has the recorded identity openai gpt-4.1-mini (prompt evalkit-judge/1)\n")
	assert.Equal(t, "evalkit golden audit: nothing to audit: none of the 10 entries can be asked again\n", errOut)
}

// A judge that stalls holds the audit no longer than -timeout: each
// attempt would wait minutes and be retried. The entries not answered
// by then could not be audited, and the audit fails saying why.
func TestAuditTimeoutOnAStalledJudge(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-test-audit-000000")
	path := recordPolite(t)
	srv := judgefake.NewServer(slices.Repeat([]judgefake.Reply{{Text: politeAnswer(0, 8), Delay: time.Hour}}, 3)...)
	defer srv.Close()
	start := time.Now()
	code, out, errOut := runCLI("golden", "audit", "-n", "3", "-timeout", "300ms", "-base-url", srv.URL, path)
	assert.Less(t, time.Since(start), 30*time.Second)
	assert.Equal(t, 1, code)
	assert.Equal(t, "evalkit golden audit: 3 of 3 sampled entries could not be audited\n", errOut)
	assert.Contains(t, out, "the audit's -timeout 300ms ran out")
	assert.Equal(t, 2, strings.Count(out, "not asked: the audit's -timeout 300ms ran out"), out)

	code, _, errOut = runCLI("golden", "audit", "-timeout", "-1s", path)
	assert.Equal(t, 2, code)
	assert.Equal(t, "evalkit golden audit: -timeout -1s: want a duration of 0 or more, such as 30m\n", errOut)
}
