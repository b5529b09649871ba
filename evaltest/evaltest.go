package evaltest

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
	"github.com/evalkit-go/evalkit/golden"
	"github.com/evalkit-go/evalkit/internal/secret"
)

// T wraps a test for evalkit assertions. Make one per test (or subtest) with
// New; it is safe to use from the test's goroutine and from parallel
// subtests' own T values.
//
// T is a testing.TB: et.Fatal, et.Errorf, et.Log, et.Helper, et.Cleanup,
// et.TempDir, et.Context, et.Name and the rest are the test's, reported at
// the caller's line, so helpers taking a testing.TB take a *T, and a
// RunCases or Repeat callback needs no other handle. Inside a Repeat's
// attempt they are the attempt's (see T.TB).
type T struct {
	tb       // the test's testing.TB, its methods T's; an attempt's inside a Repeat
	registry *assert.Registry
	judge    evalkit.Judge // see WithJudge
	judges   evalkit.JudgeSet
	sel      judgeRef // the default judge's name and variant, see WithDefaultJudge

	mode    golden.Mode // see WithMode
	modeSet bool
	rec     recording     // the judge's recording, see recorder
	limiter *JudgeLimiter // see WithJudgeLimiter

	mu        sync.Mutex
	artifacts map[*evalkit.Transcript]string // transcripts written, by path

	x extension // Repeat's attempts, case files and reports (see repeat.go)
}

// tb is testing.TB under the name T embeds it by: the field t.tb. A type
// outside package testing is a testing.TB only by embedding one, and an
// embedded testing.TB would be a field named TB, which T's method TB
// forbids.
type tb = testing.TB

// Option configures a T.
type Option func(*T)

// WithRegistry makes Eval look check types up in r instead of the built-in
// registry, for users who register their own checks.
func WithRegistry(r *assert.Registry) Option {
	return func(t *T) { t.registry = r }
}

// New returns a T reporting to tb. Checks run under Context(tb), which is
// cancelled when the test ends, and a margin before go test's -timeout
// deadline.
func New(tb testing.TB, opts ...Option) *T {
	tb.Helper()
	t := &T{tb: reporter(tb)}
	for _, o := range opts {
		o(t)
	}
	cleanup(t.tb, t.reportTestOutcome)
	cleanup(t.tb, func() { forgetSteps(tb) })
	return t
}

// Expect starts a chain of checks on tr that keeps going after a failure:
// each failed check is reported with tb.Errorf at the caller's line, like
// gotest.tools' assert.Check.
func (t *T) Expect(tr *evalkit.Transcript) *Expectation {
	t.noteTranscript(tr)
	return &Expectation{t: t, tr: tr, ok: true}
}

// Require starts a chain of checks on tr that stops the test at the first
// failure or error (tb.Fatalf), like gotest.tools' assert.Assert.
func (t *T) Require(tr *evalkit.Transcript) *Expectation {
	t.noteTranscript(tr)
	return &Expectation{t: t, tr: tr, ok: true, fatal: true}
}

// report runs one check and reports its outcome. label is the check in Go
// call syntax, as the user wrote it.
func (e *Expectation) report(label string, c assert.Check) {
	e.t.tb.Helper()
	e.reportJudged(label, c, nil)
}

// reportCall is report for a fluent method: the label is the call
// name(args...), rendered only when something shows it (see reportLazy).
func (e *Expectation) reportCall(c assert.Check, name string, args ...any) {
	res, err := runCheck(e.t.Context(), c, e.tr)
	if err == nil && res.Passed && e.t.resultsWriter() == nil {
		return // nothing shows a passing check with no results file to write
	}
	// Marked here rather than on entry, as in reportLazy: nothing above
	// reports.
	e.t.tb.Helper()
	e.settle(call(name, args...), c, res, err, nil)
}

// reportLazy is reportJudged with the label rendered only when something
// shows it — a failure, a results line, a judged step's attribute — since
// rendering a label's arguments (a schema, expected arguments, as JSON)
// cost more than a passing check.
func (e *Expectation) reportLazy(label func() string, c assert.Check, step *stepJudge) {
	res, err := runCheck(e.t.Context(), c, e.tr)
	if err == nil && res.Passed && !step.asked() && e.t.resultsWriter() == nil {
		return // nothing shows a passing check that asked no judge and has no results file to write
	}
	// The frame is marked a helper once it will report, not on entry: a
	// passing check reports nothing, and Helper (a walk of the stack) cost
	// a tenth of a passing check. Nothing above this line reports.
	e.t.tb.Helper()
	e.settle(label(), c, res, err, step)
}

// asked reports whether the step asked its judge and got a verdict (a nil
// step asked none): its outcome is then a test attribute (see judgedLine).
func (s *stepJudge) asked() bool {
	if s == nil {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.calls) > 0
}

// reportJudged is report for a check that asks step, whose recording the
// message then mentions (see stepJudge.noteFor); step may be nil.
func (e *Expectation) reportJudged(label string, c assert.Check, step *stepJudge) {
	e.t.tb.Helper()
	res, err := runCheck(e.t.Context(), c, e.tr)
	e.settle(label, c, res, err, step)
}

// settle reports one check's outcome: a results line, and a failure or
// an evaluation error at the caller's line.
func (e *Expectation) settle(label string, c assert.Check, res assert.Result, err error, step *stepJudge) {
	e.t.tb.Helper()
	if err == nil && !res.Passed && res.Summary == "" {
		res.Summary = "failed" // a user's check that says nothing still fails visibly
	}
	if err == nil && res.Passed {
		e.t.observe(label, checkType(label, c), res, nil, step, "", e.tr, false)
		return
	}
	e.ok = false
	msg := e.t.message(label, e.tr, res, err, step.noteFor(err))
	e.t.observe(label, checkType(label, c), res, err, step, msg, e.tr, false)
	e.t.fail(msg, err != nil, e.fatal)
}

// runCheck runs c, turning a panic (a user's check, a nil pointer behind the
// Check interface) into an evaluation error instead of crashing the test
// binary and losing every other result.
func runCheck(ctx context.Context, c assert.Check, tr *evalkit.Transcript) (res assert.Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = assert.Result{}, fmt.Errorf("the check panicked: %v", r)
		}
	}()
	res, err = c.Check(ctx, tr)
	err = whyStopped(ctx, err)
	if err == nil && !(res.Score >= 0 && res.Score <= 1) {
		// A check's score is in [0,1] (assert.Result): one outside it is
		// the check's bug, never a pass, and no report can read it.
		return assert.Result{}, fmt.Errorf("the check returned score %v, outside [0,1]", res.Score)
	}
	return res, err
}

// message renders a failure or evaluation error in DESIGN.md's format: the
// check in call syntax, the summary (or "error: ..."), labelled lines, a
// go-cmp diff, where the transcript was written, and, from n, what the
// recording of a judged step has to say.
func (t *T) message(label string, tr *evalkit.Transcript, res assert.Result, err error, n *note) string {
	if n == nil {
		n = &note{}
	}
	var b strings.Builder
	writeOutcome(&b, label, res, err, n)
	if line := t.transcriptLine(tr); line != "" {
		b.WriteString("\n")
		b.WriteString(line)
	}
	if n.hint != "" {
		b.WriteString("\n")
		b.WriteString(n.hint)
	}
	return b.String()
}

// outcome is writeOutcome's text for a check with no judged-step note: a
// stream's or a set's, which add their own last line.
func outcome(label string, res assert.Result, err error) string {
	var b strings.Builder
	writeOutcome(&b, label, res, err, &note{})
	return b.String()
}

// writeOutcome writes the part of a message every check shares: the label,
// the summary or "error: ...", the labelled lines and the diff, each
// bounded. n adds a judged step's lines; it must not be nil.
func writeOutcome(b *strings.Builder, label string, res assert.Result, err error, n *note) {
	r := secret.Now() // the environment read once for the message's parts
	b.WriteString(label)
	b.WriteString(": ")
	if err != nil {
		b.WriteString("error: ")
		b.WriteString(excerptWith(r, errorText(err), maxLine))
		for _, line := range n.lines {
			b.WriteString("\n")
			b.WriteString(excerptWith(r, line, maxLine))
		}
		return
	}
	b.WriteString(excerptWith(r, res.Summary, maxLine))
	details := res.Details
	if n.judge != "" {
		details = withJudgeNote(details, n.judge)
	}
	for i, d := range details {
		if i == maxDetails {
			fmt.Fprintf(b, "\n… and %d more lines", len(details)-maxDetails)
			break
		}
		b.WriteString("\n")
		b.WriteString(excerptWith(r, d.Label, maxLabel))
		b.WriteString(": ")
		b.WriteString(excerptWith(r, d.Text, maxLine))
	}
	if diff := res.DiffText(); diff != "" {
		b.WriteString("\ndiff (-want +got):\n")
		b.WriteString(excerptWith(r, strings.TrimRight(diff, "\n"), maxDiff))
	}
}

// errorText is err's text, a replay miss's nearest entry and differences
// left to the lines below it.
func errorText(err error) string {
	text := err.Error()
	var nr *golden.NotRecordedError
	if errors.As(err, &nr) {
		if full := nr.Error(); strings.HasSuffix(text, full) {
			return strings.TrimSuffix(text, full) + nr.Headline()
		}
	}
	return text
}

// withJudgeNote appends suffix to the "judge" line, or adds one.
func withJudgeNote(details []assert.Detail, suffix string) []assert.Detail {
	out := slices.Clone(details)
	for i, d := range out {
		if d.Label == "judge" {
			out[i].Text += suffix
			return out
		}
	}
	return append(out, assert.Detail{Label: "judge", Text: strings.TrimSuffix(strings.TrimPrefix(suffix, " ("), ")")})
}

// Bounds on failure output: bytes per line and per diff, lines of details.
// Longer values are cut with a marker.
const (
	maxLine    = 1024
	maxDiff    = 4096
	maxDetails = 24
)

// transcriptLine says how big the transcript is and, when the test binary
// keeps artifacts (go test -artifacts, Go 1.26+), where it was written.
func (t *T) transcriptLine(tr *evalkit.Transcript) string {
	if tr == nil {
		return "transcript: nil"
	}
	line := fmt.Sprintf("transcript: %d messages", len(tr.Messages))
	if len(tr.Messages) == 1 {
		line = "transcript: 1 message"
	}
	switch path, err := t.writeArtifact(tr); {
	case err != nil:
		return line + fmt.Sprintf(" (artifact not written: %v)", err)
	case path != "":
		return line + " (artifact: " + path + ")"
	}
	return line
}

// writeArtifact writes tr as evalkit JSON into the test's artifact
// directory, once per transcript. It writes nothing, and returns "", when
// artifacts are not being kept.
func (t *T) writeArtifact(tr *evalkit.Transcript) (string, error) {
	ad, ok := t.tb.(interface{ ArtifactDir() string })
	if !ok || !keepArtifacts() {
		return "", nil
	}
	t = t.root() // a Repeat's attempts write into their test's directory
	t.mu.Lock()
	defer t.mu.Unlock()
	if path, done := t.artifacts[tr]; done {
		return path, nil
	}
	if t.artifacts == nil {
		t.artifacts = map[*evalkit.Transcript]string{}
	}
	name := "transcript.json"
	if n := len(t.artifacts); n > 0 {
		name = fmt.Sprintf("transcript-%d.json", n+1)
	}
	path := filepath.Join(ad.ArtifactDir(), name)
	data, err := json.MarshalIndent(tr, "", "  ")
	if err != nil {
		return "", err
	}
	// The transcript as the test saw it, secrets redacted (JSON stays JSON).
	if err := os.WriteFile(path, secret.CleanBytes(append(data, '\n')), 0o644); err != nil {
		return "", err
	}
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, path); err == nil && !strings.HasPrefix(rel, "..") {
			path = rel
		}
	}
	t.artifacts[tr] = path
	return path, nil
}

// keepArtifacts reports whether go test was run with -artifacts.
func keepArtifacts() bool {
	f := flag.Lookup("test.artifacts")
	return f != nil && f.Value.String() == "true"
}
