package evaltest

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"unicode"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/golden"
	"github.com/evalkit-go/evalkit/internal/deadline"
	"github.com/evalkit-go/evalkit/internal/judgehttp"
)

// WithMode sets how the T's live judge is recorded, overriding
// -evalkit.mode and EVALKIT_MODE: golden.ModeLive for a test that must
// always ask the live judge (and so needs its credentials), say. Keep
// golden.ModeRecord and golden.ModeRefresh out of committed code: they
// reach the network in every run.
func WithMode(m golden.Mode) Option {
	return func(t *T) { t.mode, t.modeSet = m, true }
}

// modeFlagName is the flag that sets the mode: go test -evalkit.mode=record.
const modeFlagName = "evalkit.mode"

// The -evalkit.mode flag is defined as the package is initialized — a flag
// defined later is unknown to the flag.Parse that go test's main runs,
// which then refuses the command line — and only when no other package
// defined it first, so it never collides: a second copy reads the first's.
var _ = defineModeFlag()

func defineModeFlag() bool {
	if flag.Lookup(modeFlagName) == nil {
		flag.String(modeFlagName, "", "how evaltest records live judges' verdicts and HTTP exchanges: replay, record, refresh or live (default $EVALKIT_MODE, else replay)")
	}
	return true
}

// resolveMode returns the T's mode: WithMode's, else Mode's.
func (t *T) resolveMode() (golden.Mode, error) {
	if t.modeSet {
		return t.mode, nil
	}
	return Mode()
}

// Mode returns the recording mode this test binary runs in, the one judge
// recordings (WithJudge) and HTTP recordings (HTTPClient) both follow:
// -evalkit.mode's, else EVALKIT_MODE's (read with os.Getenv, so go test's
// cache knows of it), else golden.ModeReplay. A test uses it to start what
// only recording needs, such as a fake server standing for the live API.
// An unknown mode is an error naming the flag or the variable.
func Mode() (golden.Mode, error) {
	if f := flag.Lookup(modeFlagName); f != nil && f.Value.String() != "" {
		m, err := golden.ParseMode(f.Value.String())
		if err != nil {
			return m, fmt.Errorf("-%s: %w", modeFlagName, err)
		}
		return m, nil
	}
	m, err := golden.ParseMode(os.Getenv("EVALKIT_MODE"))
	if err != nil {
		return m, fmt.Errorf("EVALKIT_MODE: %w", err)
	}
	return m, nil
}

// recordable reports whether a judge's verdicts can be recorded: it has an
// identity with a provider. Fakes and closures have none. A
// *golden.Recorder of the user's own is used as it is.
func recordable(j evalkit.Judge) bool {
	id, ok := j.(evalkit.Identifier)
	return ok && id.Identity().Provider != ""
}

// recording is the T's recording, made when a judge with an identity is
// first asked: every judge of the T (its own, its judge set's) records
// into it.
type recording struct {
	mu  sync.Mutex
	rec *golden.Recorder // nil until made
}

// recorder returns the Recorder judge j answers through, or nil when it is
// not recorded (a fake, ModeLive). The first recorded judge reads the
// recording and registers its saving with the test's Cleanup; the others
// share it (golden.Recorder.For).
func (t *T) recorder(j evalkit.Judge) (*golden.Recorder, error) {
	if t.x.parent != nil {
		return t.x.parent.recorder(j) // an attempt judges through its test's recording
	}
	mode, err := t.resolveMode()
	if err != nil {
		return nil, err
	}
	if own, isOwn := j.(*golden.Recorder); isOwn {
		return own, nil // the user's own recording: answered through, saved by them
	}
	if mode == golden.ModeLive || !recordable(j) {
		return nil, nil
	}
	t.rec.mu.Lock()
	defer t.rec.mu.Unlock()
	rec, err := t.openRecording(mode)
	if err != nil {
		return nil, err
	}
	return rec.For(t.limited(j)) // live calls wait for the limiter (limit.go)
}

// openRecording reads the T's recording, once, and registers its saving
// with the test's Cleanup; t.rec.mu is held. The Recorder it returns has
// no live judge: For and Embedder make the ones that answer.
func (t *T) openRecording(mode golden.Mode) (*golden.Recorder, error) {
	if t.rec.rec != nil {
		return t.rec.rec, nil
	}
	path := filepath.Join("testdata", "evalkit", fileName(t.topTest())+".judge.json")
	rec, err := sharedRecorder(path, mode)
	if err != nil {
		return nil, err
	}
	t.rec.rec = rec
	tb := t.tb
	logNotes(tb, rec.Notes()) // a journal recovered, say
	tb.Cleanup(func() {
		if tb.Failed() || tb.Skipped() || filtered() {
			rec.MarkPartial()
		}
		if err := rec.Save(); err != nil {
			tb.Errorf("evaltest: saving the recorded verdicts: %v", err)
		}
		logNotes(tb, rec.Notes())
	})
	return rec, nil
}

// logNotes logs what a recording had to say (golden.Recorder.Notes).
func logNotes(tb testing.TB, notes []string) {
	tb = reporter(tb)
	for _, n := range notes {
		tb.Logf("evaltest: %s", n)
	}
}

// topTest is the name of the T's top-level test: its recording's name.
func (t *T) topTest() string {
	name, _, _ := strings.Cut(t.root().tb.Name(), "/")
	return name
}

// recordings holds one recording per file and mode for the whole test
// binary, so every test, subtest and T of one top-level test share it:
// parallel and same-named subtests record into one file, and nothing is
// lost. Never removed: a test binary is short-lived, and a later
// -count run replays what an earlier one recorded.
var recordings struct {
	sync.Mutex
	m map[string]*golden.Recorder
}

func sharedRecorder(path string, mode golden.Mode) (*golden.Recorder, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("evaltest: %w", err)
	}
	id := abs + "\x00" + mode.String()
	recordings.Lock()
	defer recordings.Unlock()
	if base := recordings.m[id]; base != nil {
		return base, nil
	}
	opts, err := recorderOptions()
	if err != nil {
		return nil, err
	}
	opts = append(opts, golden.WithMode(mode))
	if dir := golden.DefaultUsageDir(); dir != "" {
		opts = append(opts, golden.WithUsageLog(dir))
	}
	rec, err := golden.Open(path, opts...)
	if err != nil {
		return nil, err
	}
	if recordings.m == nil {
		recordings.m = map[string]*golden.Recorder{}
	}
	recordings.m[id] = rec
	return rec, nil
}

// filtered reports whether go test was asked to run part of a test only
// (-run with a subtest pattern, -skip, -short, EVALKIT_SHARD): its usage
// log is then partial, and prune leaves its recording alone.
func filtered() bool {
	value := func(name string) string {
		if f := flag.Lookup(name); f != nil {
			return f.Value.String()
		}
		return ""
	}
	return strings.Contains(value("test.run"), "/") || value("test.skip") != "" || value("test.short") == "true" ||
		os.Getenv("EVALKIT_SHARD") != "" // RunCases runs a share of the cases
}

// fileName makes a test's name a file name: letters, digits, "_", "-" and
// "." kept, anything else "_".
func fileName(test string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-' || r == '.' {
			return r
		}
		return '_'
	}, test)
}

// stepJudge is a judge one judged step asks — the T's default judge, or
// one its judge set names (see stepJudge.Lookup) — through its recording,
// remembering where each verdict came from for the message. The default
// judge is looked up, and the recording read, on the first call only, so
// a step that never asks the judge (a bad parameter) and a T with a fake
// never touch them.
type stepJudge struct {
	t     *T
	once  sync.Once
	judge evalkit.Judge // what it asks; nil until the default is looked up, or when err says why there is none
	err   error
	*stepState
}

// stepState is what the judges of one step share, for its message and its
// results line.
type stepState struct {
	mu      sync.Mutex
	origins []golden.Origin
	rec     *golden.Recorder
	calls   []judgedCall // for reports, see stepJudge.Judge in report.go
}

// target is the judge s asks: its own, or the T's default (see
// T.lookup), looked up once.
func (s *stepJudge) target() (evalkit.Judge, error) {
	s.once.Do(func() {
		if s.judge == nil && s.err == nil {
			s.judge, s.err = s.t.lookup("", "")
		}
	})
	return s.judge, s.err
}

// ask asks s's judge through its recording, or directly when it is not
// recorded. Every call is metered by the judge budget (see
// ErrJudgeBudget).
func (s *stepJudge) ask(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
	judge, err := s.target()
	if err != nil {
		return evalkit.Verdict{}, err
	}
	var meter *budgetMeter
	if budget := currentBudget(); budget != nil {
		if err := budget.check(); err != nil {
			return evalkit.Verdict{}, err
		}
		meter = budget.meter(s.t.topTest())
		ctx = judgehttp.WithMeter(ctx, meter)
	}
	rec, err := s.t.recorder(judge)
	if err != nil {
		return evalkit.Verdict{}, err
	}
	what := judgeWhat(judge, req) // named should the test's deadline stop the wait (deadline.go)
	if rec == nil {
		v, err := deadline.Wait(ctx, what, func(ctx context.Context) (evalkit.Verdict, error) {
			return s.t.limited(judge).Judge(ctx, req) // see limit.go
		})
		return budgeted(meter, v, err)
	}
	type answer struct {
		v      evalkit.Verdict
		origin golden.Origin
	}
	a, err := deadline.Wait(ctx, what, func(ctx context.Context) (answer, error) {
		v, origin, err := rec.JudgeOrigin(ctx, req)
		return answer{v, origin}, err
	})
	v, origin := a.v, a.origin
	s.mu.Lock()
	s.rec = rec
	if err == nil {
		s.origins = append(s.origins, origin)
	}
	s.mu.Unlock()
	return budgeted(meter, v, err)
}

// budgeted is a judge call's outcome once the budget has its say: a step
// whose own call exceeded the budget is an error, verdict or not.
func budgeted(m *budgetMeter, v evalkit.Verdict, err error) (evalkit.Verdict, error) {
	if err != nil {
		return v, err
	}
	if berr := m.err(); berr != nil {
		return evalkit.Verdict{}, berr
	}
	return v, nil
}

// Identity is s's judge's, so messages name its model.
func (s *stepJudge) Identity() evalkit.Identity {
	judge, _ := s.target()
	if id, ok := judge.(evalkit.Identifier); ok {
		return id.Identity()
	}
	return evalkit.Identity{}
}

// JudgeName is s's judge's name in its judge set, so messages give its
// provenance (see evalkit.NamedJudge).
func (s *stepJudge) JudgeName() (name, variant string) {
	judge, _ := s.target()
	if n, ok := judge.(evalkit.NamedJudge); ok {
		return n.JudgeName()
	}
	return "", ""
}

// note says how a judged step's message mentions its recording: a suffix
// for the judge line, lines after the error, and a hint.
type note struct {
	judge string   // " (replayed testdata/evalkit/TestRefund.judge.json)"
	lines []string // "nearest: …", "differs: …"
	hint  string   // "hint: EVALKIT_MODE=record go test ./agent -run '^TestRefund$'   # …"
}

// maxDiffers bounds the differs lines of a replay miss.
const maxDiffers = 6

// noteFor says what a failed step's message adds about the recording: for a
// replay miss, the nearest entry, what differs and the command that
// records it; for a failed or ungradable replayed verdict, where it came
// from and the command that asks the live judge again.
func (s *stepJudge) noteFor(err error) *note {
	if s == nil {
		return nil
	}
	var nr *golden.NotRecordedError
	if errors.As(err, &nr) {
		n := &note{hint: s.hint("record", "record the missing verdict against the live judge")}
		if nr.Nearest != "" {
			n.lines = append(n.lines, fmt.Sprintf("nearest: %s (recorded %s)", golden.ShortKey(nr.Nearest), nr.NearestRecordedAt.Format("2006-01-02T15:04:05Z07:00")))
		}
		for i, d := range nr.Differs {
			if i == maxDiffers {
				n.lines = append(n.lines, fmt.Sprintf("… and %d more differences", len(nr.Differs)-maxDiffers))
				break
			}
			n.lines = append(n.lines, "differs: "+d.String())
		}
		return n
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.rec == nil || len(s.origins) == 0 {
		return nil // no verdict came through the recording: a live error, say
	}
	how := s.origins[0].String()
	for _, o := range s.origins[1:] {
		if o != s.origins[0] {
			how = "replayed and recorded"
		}
	}
	n := &note{judge: " (" + how + " " + filepath.ToSlash(s.rec.Path()) + ")"}
	if err != nil {
		n.lines = append(n.lines, "verdict: "+how+" "+filepath.ToSlash(s.rec.Path())) // no judge line to add it to
	}
	if how == "replayed" {
		n.hint = s.hint("refresh", "re-judge against the live judge")
	}
	return n
}

// hint is the command that runs the step's top-level test in mode.
func (s *stepJudge) hint(mode, why string) string {
	return hintCommand(mode, s.t.topTest(), why)
}

// hintCommand is "hint: EVALKIT_MODE=mode go test ./pkg -run '^Test$'   #
// why": run from the module's root, as go test ./... is, it runs test and
// no same-named test of another package.
func hintCommand(mode, test, why string) string {
	return fmt.Sprintf("hint: EVALKIT_MODE=%s go test %s-run '^%s$'   # %s", mode, packageArg(), regexp.QuoteMeta(test), why)
}

// packageArg is the test binary's package as go test names it from the
// module's root, "./examples/agent " (with a space), or "" when the
// module's root is not found above the working directory (go test runs a
// test in its package's directory).
var packageArg = sync.OnceValue(func() string {
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	rel := moduleDir(wd)
	switch {
	case rel == "", strings.ContainsAny(rel, " '\"$`"):
		return "" // not found, or a path a shell would need quoted: left out
	case rel == ".":
		return ". "
	}
	return "./" + rel + " "
})

// packageDir is the test binary's package directory from the module's
// root (see moduleDir), taken as the binary starts, in the package's
// directory where go test runs it: a test that changes directory later
// changes nothing, so every line of a package's results names it alike.
var packageDir = func() string {
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	return moduleDir(wd)
}()

// moduleDir is dir from the root of the module holding it (the nearest
// directory above with a go.mod), slash-separated ("examples/agent"; "."
// for the root), or "" when there is none.
func moduleDir(wd string) string {
	for dir := wd; ; {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			rel, err := filepath.Rel(dir, wd)
			if err != nil {
				return ""
			}
			return filepath.ToSlash(rel)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}
