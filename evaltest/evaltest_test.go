package evaltest_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/evaltest"
)

// fakeTB records what evaltest reports. Methods evaltest must not call are
// left to the nil embedded TB, so calling one panics the test.
type fakeTB struct {
	testing.TB
	errors  []string
	fatal   bool
	helpers int
}

func (f *fakeTB) Helper()                  { f.helpers++ }
func (f *fakeTB) Context() context.Context { return context.Background() }
func (f *fakeTB) Name() string             { return "TestFake" }
func (f *fakeTB) Errorf(format string, args ...any) {
	f.errors = append(f.errors, fmt.Sprintf(format, args...))
}
func (f *fakeTB) Fatalf(format string, args ...any) {
	f.Errorf(format, args...)
	f.fatal = true
	runtime.Goexit()
}

// report runs body against a fake TB on its own goroutine (Fatalf ends it)
// and returns what was reported.
func report(body func(et *evaltest.T)) *fakeTB {
	tb := &fakeTB{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		body(evaltest.New(tb))
	}()
	<-done
	return tb
}

func chat(texts ...string) *evalkit.Transcript {
	tr := &evalkit.Transcript{Messages: []evalkit.Message{{Role: evalkit.RoleUser, Content: "Where is my refund?"}}}
	for _, s := range texts {
		tr.Messages = append(tr.Messages, evalkit.Message{Role: evalkit.RoleAssistant, Content: s})
	}
	return tr
}

func TestExpectKeepsGoing(t *testing.T) {
	var ok bool
	tb := report(func(et *evaltest.T) {
		ok = et.Expect(chat("Your refund of $42 was issued.")).
			Contains("refund", "€42").
			Regex(`\$\d+`).
			Excludes("sorry").
			MaxLength(10).
			OK()
	})
	assert.False(t, ok)
	assert.False(t, tb.fatal)
	assert.Equal(t, []string{
		"Contains(\"refund\", \"€42\"): missing \"€42\"\n" +
			"output: \"Your refund of $42 was issued.\"\n" +
			"transcript: 2 messages",
		"MaxLength(10): 30 characters, want <= 10\n" +
			"transcript: 2 messages",
	}, tb.errors)
}

func TestRequireStopsAtFirstFailure(t *testing.T) {
	tb := report(func(et *evaltest.T) {
		et.Require(chat("nothing useful")).
			Contains("refund").
			Contains("never reached")
	})
	assert.True(t, tb.fatal)
	require.Len(t, tb.errors, 1)
	assert.True(t, strings.HasPrefix(tb.errors[0], `Contains("refund"): missing "refund"`), tb.errors[0])
}

func TestPassingChainReportsNothing(t *testing.T) {
	var ok bool
	tb := report(func(et *evaltest.T) {
		ok = et.Expect(chat("Refund issued: $42.")).Contains("refund").Regex(`\$42`).MinLength(5).OK()
	})
	assert.True(t, ok)
	assert.Empty(t, tb.errors)
}

func TestErrorsReadAsErrors(t *testing.T) {
	noAnswer := &evalkit.Transcript{Messages: []evalkit.Message{{Role: evalkit.RoleUser, Content: "hi"}}}
	tb := report(func(et *evaltest.T) {
		et.Expect(noAnswer).Contains("refund")
		et.Expect(chat("x")).Regex("(").Eval("contians", map[string]any{"patterns": []any{"x"}})
	})
	assert.Equal(t, []string{
		"Contains(\"refund\"): error: contains: no assistant output: the transcript has 1 message and none is from the assistant\n" +
			"transcript: 1 message",
		"Regex(\"(\"): error: regex: param \"pattern\": invalid regular expression: error parsing regexp: missing closing ): `(`\n" +
			"transcript: 2 messages",
		"Eval(\"contians\", {\"patterns\":[\"x\"]}): error: unknown check type \"contians\" (did you mean \"contains\"?)\n" +
			"transcript: 2 messages",
	}, tb.errors)
}

func TestEveryFrameIsAHelper(t *testing.T) {
	tb := report(func(et *evaltest.T) {
		et.Expect(chat("x")).Contains("y")
	})
	// New, the chain method and report each mark themselves.
	assert.GreaterOrEqual(t, tb.helpers, 3)
}

func TestFailureOutputIsBounded(t *testing.T) {
	huge := strings.Repeat("A", 5_000_000)
	tb := report(func(et *evaltest.T) {
		et.Expect(chat(huge)).Contains("refund").Contains(strings.Repeat("needle", 1000))
	})
	require.Len(t, tb.errors, 2)
	for _, msg := range tb.errors {
		assert.Less(t, len(msg), 4096)
		assert.Contains(t, msg, "more bytes]")
	}
}

// The reported line is the user's, through every evaltest frame: run a real
// test binary and read its output.
func TestFailuresAreReportedAtTheCallersLine(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs a test binary")
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("the go command is not on PATH")
	}
	outDir := t.TempDir()
	args := []string{"test", "-count=1", "./testdata/lineprobe"}
	artifacts := goHasArtifacts(goBin)
	if artifacts {
		args = append(args, "-artifacts", "-outputdir", outDir)
	}
	out, _ := exec.Command(goBin, args...).CombinedOutput()
	src, err := os.ReadFile("testdata/lineprobe/probe_test.go")
	require.NoError(t, err)
	var want []string
	for i, line := range strings.Split(string(src), "\n") {
		if strings.Contains(line, "// reported here") {
			want = append(want, fmt.Sprintf("probe_test.go:%d:", i+1))
		}
	}
	got := regexp.MustCompile(`probe_test\.go:\d+:`).FindAllString(string(out), -1)
	assert.Equal(t, want, got, "go test output:\n%s", out)

	if !artifacts {
		return
	}
	// With go test -artifacts, the failing transcript is written once and
	// every failure points at it.
	paths := regexp.MustCompile(`transcript: 2 messages \(artifact: (\S+)\)`).FindAllStringSubmatch(string(out), -1)
	require.Len(t, paths, 3, "go test output:\n%s", out)
	for _, p := range paths {
		assert.Equal(t, paths[0][1], p[1])
	}
	tr, err := evalkit.Load(paths[0][1])
	require.NoError(t, err)
	assert.Equal(t, "hello", tr.Messages[1].Content)
}

// goHasArtifacts reports whether this go command knows go test -artifacts (Go 1.26+).
func goHasArtifacts(goBin string) bool {
	out, err := exec.Command(goBin, "help", "testflag").Output()
	return err == nil && strings.Contains(string(out), "-artifacts")
}

var spaceRuns = regexp.MustCompile(`[ \x{00a0}]+`)

func normalizeSpace(s string) string { return spaceRuns.ReplaceAllString(s, " ") }

func normalizeAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = normalizeSpace(s)
	}
	return out
}
