package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	evalassert "github.com/evalkit-go/evalkit/assert"
	"github.com/evalkit-go/evalkit/evaltest"
	"github.com/evalkit-go/evalkit/internal/secret/secrettest"
	"github.com/evalkit-go/evalkit/judgefake"
	"github.com/evalkit-go/evalkit/openaijudge"
)

// The security canary (issue 15): fake credentials of every shape the
// redactor knows, and values with no shape that the process knows only
// by name, are planted where a test meets them — the environment, an
// agent's request headers, query string and body, a model's replies
// (whole, streamed across events, gzip-encoded) and a judge's replies —
// and a test run records, replays, fails checks, writes results, reports
// and artifacts, and runs this command. Then every file written and
// every line printed is searched for each planted value and for pieces
// of it (its last 8 bytes, and the 8 after its first 8). It must find
// nothing.
//
// The run under test is this test binary run again (TestCanaryProbe),
// as go test runs a user's tests: its failures, logs and attributes are
// the real testing.T's, printed with -test.v.

const canaryProbeEnv = "EVALKIT_CANARY_PROBE"

// canaryPlants are the values planted beside secrettest's fakes: keys
// with no shape, which only their names give away. Built from a fixed
// seed like the fakes, so none sits in the source.
type canaryPlants struct {
	azureKey   string // an Azure OpenAI key: 32 hex digits, in AZURE_OPENAI_API_KEY and an api-key header
	dbPassword string // in DB_PASSWORD, then in a prompt
	registered string // given to evaltest.RegisterSecret
	queryKey   string // a ?key= query parameter
	cookie     string // a session cookie
	bodyKey    string // an "api_key" field of a request body
}

func plants() canaryPlants {
	hex, alnum := "0123456789abcdef", "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789"
	seed := uint64(1515)
	pick := func(set string, n int) string {
		b := make([]byte, n)
		for i := range b {
			seed = seed*6364136223846793005 + 1442695040888963407
			b[i] = set[(seed>>33)%uint64(len(set))]
		}
		return string(b)
	}
	return canaryPlants{azureKey: pick(hex, 32), dbPassword: "Pw" + pick(alnum, 18) + "7", registered: "crm_" + pick(alnum, 24) + "9",
		queryKey: pick(alnum, 30) + "4", cookie: pick(alnum, 26) + "3", bodyKey: pick(alnum, 28) + "2"}
}

// canaryEnv is the environment both runs share: credentials named as
// such, holding fakes and plants.
func canaryEnv(p canaryPlants) map[string]string {
	byLabel := map[string]string{}
	for _, f := range secrettest.All() {
		if _, ok := byLabel[f.Label]; !ok {
			byLabel[f.Label] = f.Secret
		}
	}
	return map[string]string{
		"OPENAI_API_KEY":        byLabel["openai-key"],
		"ANTHROPIC_API_KEY":     byLabel["anthropic-key"],
		"GITHUB_TOKEN":          byLabel["github-token"],
		"AWS_ACCESS_KEY_ID":     byLabel["aws-access-key-id"],
		"AWS_SECRET_ACCESS_KEY": byLabel["aws-secret-key"],
		"AZURE_OPENAI_API_KEY":  p.azureKey,
		"DB_PASSWORD":           p.dbPassword,
		"CANARY_REGISTERED":     p.registered, // not a credential's name: registered by the probe
	}
}

func TestCanary(t *testing.T) {
	if os.Getenv(canaryProbeEnv) != "" {
		t.Skip("the canary probe's own run")
	}
	if testing.Short() {
		t.Skip("runs this test binary twice")
	}
	if flag.Lookup("test.artifacts") == nil {
		t.Skip("go test -artifacts needs Go 1.26")
	}
	p := plants()
	env := canaryEnv(p)
	dir := t.TempDir()
	var planted []secrettest.Fake
	for _, f := range secrettest.All() {
		planted = append(planted, f)
	}
	for name, v := range env {
		planted = append(planted, secrettest.Fake{Label: "env:" + name, Secret: v})
	}
	for _, v := range []string{p.queryKey, p.cookie, p.bodyKey} {
		planted = append(planted, secrettest.Fake{Label: "by name", Secret: v})
	}

	// The test run: recording against the fake servers, then replaying
	// with none.
	outputs := map[string]string{}
	probe := func(mode string) {
		require.NoError(t, os.MkdirAll(filepath.Join(dir, "artifacts-"+mode), 0o755))
		cmd := exec.Command(os.Args[0], "-test.run=^TestCanaryProbe$", "-test.v", "-test.count=1",
			"-test.artifacts", "-test.outputdir="+filepath.Join(dir, "artifacts-"+mode))
		cmd.Env = append(os.Environ(), canaryProbeEnv+"="+dir, "EVALKIT_MODE="+mode,
			"EVALKIT_REPORT="+filepath.Join(dir, "results.jsonl"), "EVALKIT_USAGE_DIR="+filepath.Join(dir, "usage"))
		for k, v := range env {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
		out, err := cmd.CombinedOutput()
		outputs["go test output ("+mode+")"] = string(out)
		var exit *exec.ExitError
		require.ErrorAs(t, err, &exit, "the probe's checks fail on purpose: %s", out)
		require.Contains(t, string(out), "--- FAIL: TestCanaryProbe/", "the probe ran")
		if i := strings.Index(string(out), "golden: not recorded"); i >= 0 {
			t.Fatalf("the %s run missed a recording: %s", mode, out[max(0, i-2000):min(len(out), i+2000)])
		}
	}
	probe("record")
	probe("replay")

	// The command, in this process, on what the runs wrote.
	for k, v := range env {
		t.Setenv(k, v)
	}
	recordings, err := filepath.Glob(filepath.Join(dir, "testdata", "evalkit", "*.json"))
	require.NoError(t, err)
	require.Len(t, recordings, 2, "a judge recording and an HTTP recording")
	cli := func(args ...string) {
		var stdout, stderr bytes.Buffer
		code := run(args, &stdout, &stderr)
		outputs["evalkit "+strings.Join(args, " ")] = stdout.String() + stderr.String()
		require.Less(t, code, 2, "evalkit %s: %s", strings.Join(args, " "), stderr.String())
	}
	results := filepath.Join(dir, "results.jsonl")
	cli("report", "-html", filepath.Join(dir, "report.html"), "-md", filepath.Join(dir, "report.md"), results)
	cli("report", "-md", "-", results)
	for _, r := range recordings {
		cli("golden", "list", r)
		cli("golden", "show", r)
		cli("golden", "show", "-json", r)
		cli("golden", "verify", r)
	}

	// Every file written and every line printed.
	exits := map[string]string{}
	require.NoError(t, filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		exits[strings.TrimPrefix(path, dir)] = string(data)
		return err
	}))
	for name, out := range outputs {
		exits[name] = out
	}
	leaks, pieces := 0, 0
	for _, f := range planted {
		pieces += len(f.Fragments())
	}
	for name, text := range exits {
		for _, f := range planted {
			for _, frag := range f.Fragments() {
				if strings.Contains(text, frag) {
					leaks++
					i := strings.Index(text, frag)
					t.Errorf("%s holds %q, a piece of a planted %s, in %q", name, frag, f.Label, text[max(0, i-200):min(len(text), i+100)])
				}
			}
		}
	}
	// Not vacuous: the exits were reached, and said what they removed.
	results2, err := os.ReadFile(results)
	require.NoError(t, err)
	assert.GreaterOrEqual(t, strings.Count(string(results2), `"status":"fail"`), 16, "failing checks in both runs")
	assert.Contains(t, string(results2), `"kind":"transcript"`)
	for _, name := range []string{"/report.html", "/report.md", "go test output (record)", "go test output (replay)"} {
		assert.Contains(t, exits[name], "[redacted:", name)
	}
	assert.Contains(t, outputs["go test output (record)"], "=== ATTR", "judged steps are test attributes")
	artifacts := 0
	for name := range exits {
		if strings.Contains(name, "/artifacts-") && strings.HasSuffix(name, ".json") {
			artifacts++
		}
	}
	assert.Positive(t, artifacts, "transcript artifacts were written")
	t.Logf("canary: %d values planted (%d shapes' fakes, %d by name), %d exits scanned (%d files, %d outputs), %d pieces looked for in each: %d leaks",
		len(planted), len(secrettest.All()), len(planted)-len(secrettest.All()), len(exits), len(exits)-len(outputs), len(outputs), pieces, leaks)
}

// TestCanaryProbe is the run TestCanary watches: an agent calls a model
// API through evaltest.HTTPClient, a judge grades it, and checks pass and
// fail, every one of them meeting planted credentials.
func TestCanaryProbe(t *testing.T) {
	dir := os.Getenv(canaryProbeEnv)
	if dir == "" {
		t.Skip("run by TestCanary")
	}
	p := plants()
	evaltest.RegisterSecret("crm", os.Getenv("CANARY_REGISTERED"))
	t.Chdir(dir)
	record := os.Getenv("EVALKIT_MODE") == "record"
	fakes := secrettest.All()
	var all []string
	for _, f := range fakes {
		all = append(all, f.Text)
	}
	leaky := strings.Join(all, "\n") + "\nAzure key " + p.azureKey + ", db password " + p.dbPassword + ", crm " + p.registered + "."

	// The model API: it echoes the credentials it was sent and writes
	// every fake, whole, gzip-encoded, and streamed with keys cut across
	// events (escaped as some encoders escape them).
	model := "http://127.0.0.1:9" // nothing: replay needs no server
	judgeURL := "http://127.0.0.1:9/v1"
	if record {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			body, _ := io.ReadAll(r.Body)
			echo := "You sent " + r.Header.Get("Authorization") + " " + r.Header.Get("api-key") + " " + r.Header.Get("Cookie") + " " + r.URL.RawQuery + " " + string(body) + "\n"
			if strings.Contains(string(body), `"stream":true`) {
				w.Header().Set("Content-Type", "text/event-stream")
				var out io.Writer = w
				if r.Header.Get("Accept-Encoding") == "gzip" {
					w.Header().Set("Content-Encoding", "gzip")
					gz := gzip.NewWriter(w)
					defer gz.Close()
					out = gz
				}
				text := echo + leaky
				for i := 0; i < len(text); i += 7 {
					piece, _ := json.Marshal(text[i:min(len(text), i+7)])
					delta := strings.ReplaceAll(string(piece), "-", `\u002d`)
					fmt.Fprintf(out, "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":%s}}]}\n\n", delta)
				}
				io.WriteString(out, "data: [DONE]\n\n")
				return
			}
			reply, _ := json.Marshal(map[string]any{"choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": echo + leaky}}}})
			w.Header().Set("Content-Type", "application/json")
			if r.Header.Get("Accept-Encoding") == "gzip" {
				w.Header().Set("Content-Encoding", "gzip")
				gz := gzip.NewWriter(w)
				gz.Write(reply)
				gz.Close()
				return
			}
			w.Write(reply)
		}))
		defer srv.Close()
		model = srv.URL
		verdict, _ := json.Marshal(map[string]any{"reasoning": "The answer leaks " + leaky, "score": 3})
		js := judgefake.NewServer(judgefake.Text(string(verdict)), judgefake.Text(string(verdict)), judgefake.Text(string(verdict)))
		defer js.Close()
		judgeURL = js.URL + "/v1"
	}

	client := evaltest.HTTPClient(t)
	ask := func(stream, gz bool) string {
		body, _ := json.Marshal(map[string]any{"model": "gpt-4o", "stream": stream, "api_key": p.bodyKey,
			"messages": []any{map[string]any{"role": "user", "content": "My db password is " + p.dbPassword + " and my key " + fakes[0].Secret + "."}}})
		req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, model+"/v1/chat/completions?key="+p.queryKey, bytes.NewReader(body))
		require.NoError(t, err)
		req.Header.Set("Authorization", "Bearer "+os.Getenv("OPENAI_API_KEY"))
		req.Header.Set("api-key", p.azureKey)
		req.Header.Set("Cookie", "session="+p.cookie)
		if gz {
			req.Header.Set("Accept-Encoding", "gzip")
		}
		resp, err := client.Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		data, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		if !stream {
			var r struct {
				Choices []struct{ Message struct{ Content string } }
			}
			require.NoError(t, json.Unmarshal(data, &r))
			return r.Choices[0].Message.Content
		}
		var text strings.Builder
		for _, line := range strings.Split(string(data), "\n") {
			var ev struct {
				Choices []struct{ Delta struct{ Content string } }
			}
			if d, ok := strings.CutPrefix(line, "data: "); ok && json.Unmarshal([]byte(d), &ev) == nil && len(ev.Choices) > 0 {
				text.WriteString(ev.Choices[0].Delta.Content)
			}
		}
		return text.String()
	}
	answers := []string{ask(false, false), ask(false, true), ask(true, false), ask(true, true)}

	tr := &evalkit.Transcript{Messages: []evalkit.Message{
		{Role: evalkit.RoleUser, Content: "My db password is " + p.dbPassword},
		{Role: evalkit.RoleAssistant, ToolCalls: []evalkit.ToolCall{{ID: "1", Name: "connect", Args: json.RawMessage(`{"password": "` + p.dbPassword + `", "token": "` + os.Getenv("GITHUB_TOKEN") + `"}`)}}},
		{Role: evalkit.RoleTool, ToolCallID: "1", Content: "connected with " + p.azureKey},
		{Role: evalkit.RoleAssistant, Content: strings.Join(answers, "\n")},
	}}
	judge := openaijudge.New(openaijudge.WithBaseURL(judgeURL), openaijudge.WithModel("gpt-4.1-mini"),
		openaijudge.WithAPIKey(os.Getenv("OPENAI_API_KEY")), openaijudge.WithHeader("api-key", p.azureKey))

	checks := map[string]func(e *evaltest.Expectation){
		"passing":  func(e *evaltest.Expectation) { e.Contains("You sent").ToolsCalled("connect") },
		"contains": func(e *evaltest.Expectation) { e.Contains("not in the answer") },
		"equals":   func(e *evaltest.Expectation) { e.Equals("a short answer") },
		"regex":    func(e *evaltest.Expectation) { e.Regex(`^\d+$`) },
		"excludes": func(e *evaltest.Expectation) {
			e.Excludes(os.Getenv("OPENAI_API_KEY")).Excludes(p.azureKey).Excludes(p.dbPassword).Excludes(p.registered)
		},
		"toolargs": func(e *evaltest.Expectation) {
			e.ToolArgs("connect", map[string]any{"password": "other", "token": os.Getenv("ANTHROPIC_API_KEY")})
		},
		"judge": func(e *evaltest.Expectation) {
			e.Judge("Never repeats "+p.registered+" or "+os.Getenv("OPENAI_API_KEY"), evalassert.MinScore(0.9))
		},
		"log": func(e *evaltest.Expectation) {},
	}
	names := make([]string, 0, len(checks))
	for name := range checks {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			et := evaltest.New(t, evaltest.WithJudge(judge))
			checks[name](et.Expect(tr))
			if name == "log" {
				et.TB().Logf("the answer: %s", tr.Messages[3].Content)
				fmt.Fprintf(et.TB().Output(), "to the output: %s\n", leaky)
				et.TB().Errorf("the agent said: %s", leaky)
			}
		})
	}
	// The same checks on an answer holding the planted values as they
	// are, as an agent that is not recorded (or a tool's output) gives it.
	raw := &evalkit.Transcript{Messages: []evalkit.Message{{Role: evalkit.RoleUser, Content: "Show me the config."},
		{Role: evalkit.RoleAssistant, Content: leaky}}}
	t.Run("raw", func(t *testing.T) {
		et := evaltest.New(t, evaltest.WithJudge(judge))
		e := et.Expect(raw).Contains("not there").Equals("short").Regex(`^\d+$`).MaxLength(10)
		for _, f := range fakes {
			// A key with a shape of its own alone; one found by what is
			// around it (Bearer, a password's name) with that.
			if strings.Contains(f.Text, f.Secret+" here") {
				e.Excludes(f.Secret)
			} else {
				e.Excludes(f.Text)
			}
		}
		e.Excludes(p.azureKey).Excludes(p.dbPassword).Excludes(p.registered)
		e.Judge("Keeps "+p.dbPassword+" secret", evalassert.MinScore(0.9))
	})
	note, _ := json.Marshal(map[string]any{"config": map[string]any{"key": p.azureKey, "password": p.dbPassword, "note": leaky}})
	jsonTr := &evalkit.Transcript{Messages: []evalkit.Message{{Role: evalkit.RoleAssistant, Content: string(note)}}}
	t.Run("jsonpath", func(t *testing.T) {
		et := evaltest.New(t)
		et.Expect(jsonTr).JSONPath("config.note", "nothing").JSONPath("config.key", "none").JSONPath("config", map[string]any{"key": 1}).
			Equals(map[string]any{"config": 1})
	})
}
