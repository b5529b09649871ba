package evaltest

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/internal/results"
	"github.com/evalkit-go/evalkit/internal/textnorm"
	"github.com/evalkit-go/evalkit/stats"
)

// extension holds what a T knows beyond its checks: the attempt of a Repeat
// it runs, the test it belongs to, and what it reports.
type extension struct {
	parent  *T            // the T whose Repeat made this one; nil for New's
	attempt *attemptState // this T's attempt; nil outside Repeat
	index   int           // the attempt's number, from 1
	last    *evalkit.Transcript
	report  reportState // see report.go

	embedder   evalkit.Embedder   // see WithEmbedder
	classifier evalkit.Classifier // see WithClassifier (metrics.go)
}

// root is the T made by New that t descends from: the one that owns the
// test's recording and artifacts.
func (t *T) root() *T {
	for t.x.parent != nil {
		t = t.x.parent
	}
	return t
}

// noteTranscript remembers the transcript last given to Expect or Require:
// a Repeat's attempt's answer, for Repetition.Transcripts.
func (t *T) noteTranscript(tr *evalkit.Transcript) {
	t.mu.Lock()
	t.x.last = tr
	t.mu.Unlock()
}

// fail reports a failed check (or one that could not be evaluated, when
// evalErr is set): to the test, with Errorf or Fatalf, or, inside a
// Repeat's attempt, to the attempt, which then ends when fatal.
func (t *T) fail(msg string, evalErr, fatal bool) {
	t.tb.Helper()
	if st := t.x.attempt; st != nil {
		st.add(msg, evalErr)
		if fatal {
			runtime.Goexit()
		}
		return
	}
	if fatal {
		t.tb.Fatalf("%s", msg)
		return
	}
	t.tb.Errorf("%s", msg)
}

// Context returns the context checks run under: the test's (see Context),
// cancelled when it ends and a margin before go test's -timeout deadline;
// inside a Repeat's attempt, the attempt's, cancelled too when the Repeat
// stops early. Run the agent under it.
func (t *T) Context() context.Context { return Context(t.tb) }

// TB returns the testing.TB the T reports to, whose methods are the T's
// own. Inside a Repeat's attempt it is the attempt's: its Errorf, Fatalf,
// Skip and Cleanup belong to the attempt (a Fatal ends the attempt, not
// the test; the Repeat's message names the attempt function's line), and
// its Log, TempDir and Name are the test's.
func (t *T) TB() testing.TB { return t.tb }

// Attempt returns the number of the Repeat attempt the T runs, from 1; 0
// for a T made by New.
func (t *T) Attempt() int { return t.x.index }

// Status is the outcome of a check, an attempt or a Repeat: it passed,
// it failed, or it could not be evaluated (an error — never a pass, and
// never charged to the output under test as a failure).
type Status int

const (
	StatusPass Status = iota + 1
	StatusFail
	StatusError
)

// String returns "pass", "fail" or "error".
func (s Status) String() string {
	switch s {
	case StatusPass:
		return "pass"
	case StatusFail:
		return "fail"
	case StatusError:
		return "error"
	}
	return "Status(" + strconv.Itoa(int(s)) + ")"
}

// MarshalText writes the status's name.
func (s Status) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Rule decides whether a Repeat passes from how many of its attempts
// passed: PassRate, AtLeast or All.
type Rule struct {
	name    string
	rate    float64 // PassRate's
	atLeast int     // AtLeast's
	counted bool    // an AtLeast, whatever its k
	all     bool
}

// PassRate passes when at least a share p, in (0,1], of the attempts pass:
// PassRate(0.8) of 10 attempts needs 8. With Confidence, the Wilson lower
// bound of the pass rate must reach p instead.
func PassRate(p float64) Rule {
	return Rule{name: "PassRate(" + strconv.FormatFloat(p, 'f', 2, 64) + ")", rate: p}
}

// AtLeast passes when at least k attempts pass (1 ≤ k ≤ n).
func AtLeast(k int) Rule {
	return Rule{name: "AtLeast(" + strconv.Itoa(k) + ")", atLeast: k, counted: true}
}

// All passes when every attempt passes: pass^n, τ-bench's strictest
// reading of reliability.
func All() Rule { return Rule{name: "All()", all: true} }

// String returns the rule as written: "PassRate(0.80)".
func (r Rule) String() string {
	if r.name == "" {
		return "Rule{}"
	}
	return r.name
}

// MaxRepeat is the most attempts a Repeat makes (and a case file's
// repeat asks): enough to tell a pass rate to within a percentage point,
// and a bound on what a typo (repeat: 10000000000) costs.
const MaxRepeat = 10_000

// need returns how many of n attempts must pass, at confidence level (0:
// none), or why the rule cannot be met.
func (r Rule) need(n int, level float64) (int, error) {
	if n < 1 {
		return 0, fmt.Errorf("n is %d, want at least 1 attempt", n)
	}
	if n > MaxRepeat {
		return 0, fmt.Errorf("n is %d, want at most %d attempts (MaxRepeat)", n, MaxRepeat)
	}
	var rate float64
	switch {
	case r.all:
		if level > 0 {
			return 0, fmt.Errorf("All() with Confidence can never pass: a Wilson lower bound is below 1 for any number of attempts")
		}
		return n, nil
	case r.counted:
		if r.atLeast < 1 || r.atLeast > n {
			return 0, fmt.Errorf("%v: want 1 to %d attempts", r, n)
		}
		if level == 0 {
			return r.atLeast, nil
		}
		rate = float64(r.atLeast) / float64(n)
	case r.name != "":
		if !(r.rate > 0 && r.rate <= 1) {
			return 0, fmt.Errorf("%v: want a pass rate above 0 and at most 1", r)
		}
		if level == 0 {
			return int(math.Ceil(r.rate*float64(n) - 1e-9)), nil
		}
		rate = r.rate
	default:
		return 0, fmt.Errorf("no rule: give PassRate(p), AtLeast(k) or All()")
	}
	for c := 0; c <= n; c++ {
		if lo := lowerBound(c, n, level); lo >= rate-1e-12 {
			return c, nil
		}
	}
	lo := lowerBound(n, n, level)
	return 0, fmt.Errorf("%v with Confidence(%v) can never pass in %d attempts: even %d of %d gives a Wilson lower bound of %.2f; make more attempts", r, level, n, n, n, lo)
}

// lowerBound is the one-sided Wilson lower confidence bound of c passes in
// n attempts at level: the true rate is at least it with confidence level.
// It is the lower end of the two-sided interval at 2·level − 1, whose z is
// Φ⁻¹(level): 1.645 at 0.95.
func lowerBound(c, n int, level float64) float64 {
	lo, _ := stats.WilsonLower(c, n, 2*level-1)
	return lo
}

// target is the pass rate a Confidence bound must reach.
func (r Rule) target(n int) float64 {
	switch {
	case r.all:
		return 1
	case r.counted:
		return float64(r.atLeast) / float64(n)
	}
	return r.rate
}

// RepeatOption configures a Repeat.
type RepeatOption struct {
	name  string
	apply func(*repeatConfig) error
}

// String returns the option as written: "Confidence(0.95)".
func (o RepeatOption) String() string { return o.name }

type repeatConfig struct {
	level       float64
	concurrency int
	exhaustive  bool
}

// Confidence makes the rule pass only when the one-sided Wilson lower
// confidence bound of the pass rate, at level (such as 0.95: the true rate
// is at least the bound with 95% confidence), reaches the rule's rate
// (Wilson 1927; stats.WilsonLower at 2·level − 1, z = 1.645 at 0.95):
// PassRate(0.8) with Confidence(0.95) needs 19 of 20 attempts, not 16, so
// that an agent whose true rate is below 0.8 rarely passes by luck. A rule
// that can then never pass in n attempts is an error saying so. level must
// be above 0.5 and below 1.
func Confidence(level float64) RepeatOption {
	return RepeatOption{name: "Confidence(" + strconv.FormatFloat(level, 'f', -1, 64) + ")", apply: func(c *repeatConfig) error {
		if !(level > 0.5 && level < 1) {
			return fmt.Errorf("Confidence(%v): want a level above 0.5 and below 1, such as 0.95", level)
		}
		c.level = level
		return nil
	}}
}

// Concurrency runs up to k attempts at once (1, the default, runs them one
// after another). Attempts then share the judge and whatever the attempt
// function captures: both must be safe for concurrent use.
func Concurrency(k int) RepeatOption {
	return RepeatOption{name: "Concurrency(" + strconv.Itoa(k) + ")", apply: func(c *repeatConfig) error {
		if k < 1 {
			return fmt.Errorf("Concurrency(%d): want at least 1", k)
		}
		c.concurrency = k
		return nil
	}}
}

// Exhaustive runs all n attempts even once the outcome is decided, for
// pass^k and pass@k estimated over exactly n attempts (the estimators are
// unbiased for a fixed n; stopping early makes n depend on the outcomes).
func Exhaustive() RepeatOption {
	return RepeatOption{name: "Exhaustive()", apply: func(c *repeatConfig) error {
		c.exhaustive = true
		return nil
	}}
}

// Attempt is one run of a Repeat's attempt function.
type Attempt struct {
	// Index is the attempt's number, from 1.
	Index int
	// Status is pass when no check failed or erred; fail when a check
	// failed (whatever else erred); error when nothing failed but a check
	// could not be evaluated, the attempt panicked or skipped.
	Status Status
	// Failures are the attempt's failure messages, in order, as the test
	// would have reported them.
	Failures []string
	// Transcript is the transcript the attempt last gave to Expect or
	// Require; nil when it gave none.
	Transcript *evalkit.Transcript

	evalErrs []bool         // per failure: an evaluation error
	judged   []results.Line // its judged steps, for the Repeat's attributes
}

// Repetition is a Repeat's outcome.
type Repetition struct {
	// N is the number of attempts asked for.
	N int
	// Attempts are the attempts that ran to the end, by Index; fewer than
	// N when the Repeat stopped early (attempts cut short by the stop are
	// not counted).
	Attempts []Attempt
	// Passed counts the attempts that passed.
	Passed int
	// Need is how many of N attempts had to pass (0 when the Repeat could
	// not start).
	Need int
	// Status is the Repeat's: pass when the rule is met; error when it is
	// not, but would be had the attempts that erred passed (the outcome
	// is the judge's or the harness's, not the agent's); fail otherwise.
	Status Status
	// Stopped reports whether the Repeat stopped before N attempts,
	// once no outcome of the rest could change its Status.
	Stopped bool
}

// OK reports whether the Repeat passed.
func (r *Repetition) OK() bool { return r.Status == StatusPass }

// PassRate is the share of the attempts run that passed, in [0,1]; 0 when
// none ran.
func (r *Repetition) PassRate() float64 {
	if len(r.Attempts) == 0 {
		return 0
	}
	return float64(r.Passed) / float64(len(r.Attempts))
}

// PassHatK is stats.PassHatK over the attempts run: the estimated
// probability that k attempts all pass (τ-bench's pass^k).
func (r *Repetition) PassHatK(k int) (float64, error) {
	return stats.PassHatK(len(r.Attempts), r.Passed, k)
}

// PassAtK is stats.PassAtK over the attempts run: the estimated
// probability that at least one of k attempts passes.
func (r *Repetition) PassAtK(k int) (float64, error) {
	return stats.PassAtK(len(r.Attempts), r.Passed, k)
}

// Transcripts returns each attempt's transcript, by Index, leaving out
// attempts that gave none: the candidates to test for consistency
// (T.Consistent).
func (r *Repetition) Transcripts() []*evalkit.Transcript {
	var out []*evalkit.Transcript
	for _, a := range r.Attempts {
		if a.Transcript != nil {
			out = append(out, a.Transcript)
		}
	}
	return out
}

// Repeat runs a non-deterministic case up to n times (1 ≤ n ≤ MaxRepeat,
// else the Repeat is an error), each attempt with a T of its own, and
// decides with rule whether the case passes. An attempt's
// failures are collected, not reported: the test fails only when the
// Repeat does, with one message at the caller's line that lists the
// failing attempts and their first failure:
//
//	Repeat(10, PassRate(0.80)): 6 of 9 attempts passed, want at least 8 of 10
//	pass rate: 0.67 (95% two-sided Wilson interval 0.35–0.88)
//	pass^k: 0.67 (k=1), 0.42 (k=2), 0.12 (k=4), 0.00 (k=8)
//	pass@k: 0.67 (k=1), 0.92 (k=2), 1.00 (k=4), 1.00 (k=8)
//	attempt 2: Contains("refund"): missing "refund"
//	attempt 5: ToolsCalled("issue_refund"): missing "issue_refund" (+1 more)
//	attempt 9: Contains("refund"): missing "refund"
//	stopped: after 9 of 10 attempts, once the outcome was decided
//
// pass^k (every one of k attempts passes) and pass@k (at least one does)
// are τ-bench's unbiased estimators over the attempts run, for k = 1, 2,
// 4, … up to that count. An attempt passes when none of its checks failed
// or erred; a check that could not be evaluated (a judge error, a replay
// miss) makes its attempt an error, which never counts as a pass and,
// when the errors alone stand between the attempts and the rule, makes
// the Repeat an error rather than a failure. A panic or a Skip in the
// attempt function is an error of that attempt; a Fatal (Require, or
// et.Fatal) ends the attempt only.
//
// Repeat stops as soon as the outcome can no longer change — All() at the
// first failure, AtLeast(3) at the third pass — unless Exhaustive is
// given; attempts still running are cancelled through their Context, and
// not counted. Options: Confidence (a Wilson lower bound must reach the
// rule's rate), Concurrency (attempts at once), Exhaustive.
//
// Each attempt's judge calls go through the test's recording: in replay,
// an attempt asking what another asked gets the same verdict, so a
// Repeat measures the agent's variation, not the judge's.
func (t *T) Repeat(n int, attempt func(et *T), rule Rule, opts ...RepeatOption) *Repetition {
	t.tb.Helper()
	cfg := repeatConfig{concurrency: 1}
	parts := []string{strconv.Itoa(n), rule.String()}
	var optErr error
	for _, o := range opts {
		parts = append(parts, o.String())
		if o.apply == nil {
			optErr = fmt.Errorf("the zero RepeatOption")
			continue
		}
		if err := o.apply(&cfg); err != nil && optErr == nil {
			optErr = err
		}
	}
	label := textnorm.Excerpt("Repeat("+strings.Join(parts, ", ")+")", maxLabel)
	rep := &Repetition{N: n, Status: StatusError}
	need, err := rule.need(n, cfg.level)
	if optErr != nil {
		err = optErr
	}
	if err == nil && attempt == nil {
		err = fmt.Errorf("no attempt function")
	}
	if err != nil {
		msg := label + ": error: " + err.Error()
		t.observeRepeat(label, rep, msg)
		t.fail(msg, true, false)
		return rep
	}
	rep.Need = need
	t.runAttempts(rep, attempt, cfg)
	msg, failed := repeatMessage(label, rep, rule, cfg)
	t.observeRepeat(label, rep, msg)
	if failed {
		t.fail(msg, rep.Status == StatusError, false)
	}
	return rep
}

// runAttempts runs the attempts, at most cfg.concurrency at once, until n
// have run or the outcome is decided.
func (t *T) runAttempts(rep *Repetition, attempt func(et *T), cfg repeatConfig) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	results := make(chan Attempt)
	started, running, errs := 0, 0, 0
	decided := false
	var done []Attempt // not made to n: a Repeat may stop at its first attempt
	for {
		for !decided && running < cfg.concurrency && started < rep.N {
			started++
			running++
			go func(i int) { results <- t.runAttempt(ctx, i, attempt) }(started)
		}
		if running == 0 {
			break
		}
		a := <-results
		running--
		if decided {
			continue // cut short by the stop: not counted
		}
		done = append(done, a)
		switch a.Status {
		case StatusPass:
			rep.Passed++
		case StatusError:
			errs++
		}
		status, final := decide(rep.Passed, errs, rep.N-len(done), rep.Need)
		if final && (!cfg.exhaustive || len(done) == rep.N) {
			rep.Status = status
			if len(done) < rep.N {
				decided = true
				rep.Stopped = true
				cancel()
			}
		}
	}
	slices.SortFunc(done, func(a, b Attempt) int { return a.Index - b.Index })
	rep.Attempts = done
}

// decide says whether the Status is settled with passes and errs among the
// attempts done and left still to come, needing need passes.
func decide(passes, errs, left, need int) (Status, bool) {
	switch {
	case passes >= need:
		return StatusPass, true
	case passes+errs+left < need:
		return StatusFail, true
	case passes+left < need && passes+errs >= need:
		return StatusError, true // the errors stand between the attempts and the rule
	}
	return 0, false
}

// Bounds on a Repeat's message: the attempts it lists.
const maxAttemptsListed = 12

// repeatMessage renders a Repeat's outcome in DESIGN.md's format, and
// reports whether it failed.
func repeatMessage(label string, rep *Repetition, rule Rule, cfg repeatConfig) (string, bool) {
	if rep.Status == StatusPass {
		return "", false
	}
	run := len(rep.Attempts)
	errs := 0
	for _, a := range rep.Attempts {
		if a.Status == StatusError {
			errs++
		}
	}
	of := ""
	if run < rep.N {
		of = fmt.Sprintf(" of %d", rep.N)
	}
	var b strings.Builder
	b.WriteString(label)
	b.WriteString(": ")
	if rep.Status == StatusError {
		fmt.Fprintf(&b, "error: %d of %d attempts could not be evaluated; %d passed, want at least %d%s", errs, run, rep.Passed, rep.Need, of)
	} else {
		fmt.Fprintf(&b, "%d of %d attempts passed", rep.Passed, run)
		if cfg.level > 0 {
			fmt.Fprintf(&b, " (one-sided %s Wilson lower bound %.3f)", percent(cfg.level), lowerBound(rep.Passed, run, cfg.level))
		}
		fmt.Fprintf(&b, ", want at least %d%s", rep.Need, of)
		if cfg.level > 0 {
			fmt.Fprintf(&b, " (lower bound >= %.3f)", rule.target(rep.N))
		}
	}
	if run > 0 {
		level := cfg.level
		if level == 0 {
			level = 0.95
		}
		lo, _ := stats.WilsonLower(rep.Passed, run, level)
		hi, _ := stats.WilsonUpper(rep.Passed, run, level)
		fmt.Fprintf(&b, "\npass rate: %.2f (%s two-sided Wilson interval %.2f–%.2f)", rep.PassRate(), percent(level), lo, hi)
		var hat, at []string
		for k := 1; k <= run; k *= 2 {
			h, _ := rep.PassHatK(k)
			a, _ := rep.PassAtK(k)
			hat = append(hat, fmt.Sprintf("%.2f (k=%d)", h, k))
			at = append(at, fmt.Sprintf("%.2f (k=%d)", a, k))
		}
		b.WriteString("\npass^k: " + strings.Join(hat, ", "))
		b.WriteString("\npass@k: " + strings.Join(at, ", "))
	}
	listed := 0
	for _, a := range rep.Attempts {
		if a.Status == StatusPass {
			continue
		}
		if listed == maxAttemptsListed {
			fmt.Fprintf(&b, "\n… and %d more failing attempts", run-rep.Passed-listed)
			break
		}
		listed++
		first, more := firstFailure(a)
		fmt.Fprintf(&b, "\nattempt %d: %s", a.Index, textnorm.Excerpt(first, maxLine))
		if more > 0 {
			fmt.Fprintf(&b, " (+%d more)", more)
		}
	}
	if rep.Stopped {
		fmt.Fprintf(&b, "\nstopped: after %d of %d attempts, once the outcome was decided", run, rep.N)
	}
	return b.String(), true
}

// firstFailure is the first line of the attempt's first message of the
// kind that decided its status, and how many other messages it had.
func firstFailure(a Attempt) (string, int) {
	if len(a.Failures) == 0 {
		return "failed", 0
	}
	pick := a.Failures[0]
	if a.Status == StatusFail {
		for i, f := range a.Failures {
			if i < len(a.evalErrs) && !a.evalErrs[i] {
				pick = f
				break
			}
		}
	}
	first, _, _ := strings.Cut(pick, "\n")
	return first, len(a.Failures) - 1
}

func percent(level float64) string {
	return strconv.FormatFloat(level*100, 'f', -1, 64) + "%"
}
