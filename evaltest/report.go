package evaltest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
	"github.com/evalkit-go/evalkit/golden"
	"github.com/evalkit-go/evalkit/internal/results"
)

// Reports: every check a T runs is written as one line of a JSON Lines
// results file, when there is one to write —
//
//   - EVALKIT_REPORT=path: appended to path (give an absolute one: go test
//     runs each package's tests in the package's directory), shared by
//     every package and shard of a run;
//   - else, with go test -artifacts (Go 1.26+): evalkit.results.jsonl in
//     the test's artifact directory;
//   - else nowhere.
//
// — and judged checks, Repeats and checks over several transcripts are
// also test attributes (testing.T.Attr; gotestsum turns them into JUnit
// properties), one set of keys per step (see T.attr). `evalkit report`
// renders results files as HTML and Markdown.

// reportState is what a T adds to its results lines.
type reportState struct {
	caseName string
	tags     []string
	// metric and groups are the PromptKit eval being reported's, set
	// around its step (promptkit.go).
	metric *results.Metric
	groups []string
}

func (r reportState) child() reportState { return r }

// judgedCall is one judge call of a judged step, for its results line.
type judgedCall struct {
	judge    evalkit.Judge // the judge asked
	criteria string        // the request's
	verdict  evalkit.Verdict
	source   string // live, replayed or fake
	latency  time.Duration
}

// Judge implements evalkit.Judge: ask, timed, remembering the verdict and
// where it came from.
func (s *stepJudge) Judge(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
	start := time.Now()
	v, err := s.ask(ctx, req)
	elapsed := time.Since(start)
	if err != nil {
		return v, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	source := "fake"
	switch {
	case s.rec != nil && len(s.origins) > 0:
		source = "live"
		if s.origins[len(s.origins)-1] == golden.OriginReplayed {
			source = "replayed"
		}
	case recordable(s.judge):
		source = "live" // ModeLive: asked, not recorded
	}
	s.calls = append(s.calls, judgedCall{judge: s.judge, criteria: req.Criteria, verdict: v, source: source, latency: elapsed})
	return v, nil
}

// fluentTypes maps the fluent methods to the registry's type names, so
// reports group Contains(...) and Eval("contains", ...) together.
var fluentTypes = map[string]string{
	"Contains": "contains", "ContainsAny": "contains_any", "Excludes": "content_excludes",
	"Regex": "regex", "MinLength": "min_length", "MaxLength": "max_length",
	"JSONValid": "json_valid", "JSONSchema": "json_schema", "JSONPath": "json_path",
	"Equals": "equals", "FieldPresence": "field_presence",
	"ToolsCalled": "tools_called", "ToolsNotCalled": "tools_not_called",
	"ToolArgs": "tool_args", "ToolCalls": "tool_args", "ToolCallSequence": "tool_call_sequence",
	"ToolCallCount": "tool_call_count", "NoToolErrors": "no_tool_errors",
	"Judge": "llm_judge", "JudgeSession": "llm_judge_session", "JudgeToolCalls": "llm_judge_tool_calls",
	"Consistent": "consistent",
	// The metrics (metrics.go).
	"AnswerRelevancy": "answer_relevancy", "Faithfulness": "faithfulness", "Hallucination": "hallucination",
	"ContextualPrecision": "contextual_precision", "ContextualRecall": "contextual_recall", "ContextualRelevancy": "contextual_relevancy",
	"NoBias": "bias", "NoToxicity": "toxicity", "NoPII": "pii_leakage", "NoRoleViolation": "role_violation",
	// The multi-turn metrics (conversation.go).
	"ConversationCompleteness": "conversation_completeness", "RoleAdherence": "role_adherence",
	"KnowledgeRetention": "knowledge_retention", "TurnRelevancy": "turn_relevancy",
	"StateEquals": "state_equals",
	// Fluent methods that share a type, or that the registry's docs do not
	// name (each type documents one method; see registryNames).
	"MaxTokens": "cost_budget", "GuardrailNotTriggered": "guardrail_triggered",
	"MaxToolCalls": "tool_efficiency", "ToolAntiPattern": "tool_anti_pattern", "ToolAntiPatternSteps": "tool_anti_pattern",
	"ToolArgsExcluded": "tool_args_excluded", "ToolCallChain": "tool_call_chain", "ToolCallsWithArgs": "tool_calls_with_args",
	"ToolNoRepeat": "tool_no_repeat", "ToolResultIncludes": "tool_result_includes", "ToolResultMatches": "tool_result_matches",
}

// registryNames maps what a label or a check value says to the
// registry's type names, from the registry's own docs: byFluent the
// fluent method each type documents (MaxCost → cost_budget), byGoType the
// Go type its documented example builds (assert.NoToolErrors →
// no_tool_errors), so that a report counts Check(assert.X{...}), the
// fluent method and Eval of one type as one type. A type whose example
// needs what the registry is not given here (a classifier, tools) keeps
// its Go type's name.
var registryNames = sync.OnceValue(func() (names struct{ byFluent, byGoType map[string]string }) {
	names.byFluent, names.byGoType = map[string]string{}, map[string]string{}
	reg := assert.NewRegistry().WithJudge(unusedJudge{}).WithEmbedder(unusedEmbedder{})
	for _, d := range reg.Docs() {
		if d.Fluent != "" {
			names.byFluent[d.Fluent] = d.Type
		}
		specs, err := reg.ParseSpecs([]byte(d.Example))
		if err != nil || len(specs) != 1 {
			continue
		}
		if c, err := reg.Build(specs[0].Type, specs[0].Params); err == nil {
			names.byGoType[strings.TrimPrefix(fmt.Sprintf("%T", c), "*")] = d.Type
		}
	}
	return names
})

// checkType names a check's type from its label: the registry's name for
// a fluent method, Eval, or Check(...) of a check of package assert; the
// Go type for Check(...) of any other.
func checkType(label string, c any) string {
	if i := strings.Index(label, ": Eval("); i >= 0 {
		label = label[i+2:] // a case file's eval, after its file and line
	}
	name, rest, _ := strings.Cut(label, "(")
	switch name {
	case "Eval":
		if q, err := strconv.QuotedPrefix(rest); err == nil {
			if s, err := strconv.Unquote(q); err == nil {
				return s
			}
		}
	case "Check":
		if c != nil {
			goType := strings.TrimPrefix(fmt.Sprintf("%T", c), "*")
			if t, ok := registryNames().byGoType[goType]; ok {
				return t
			}
			return goType
		}
	}
	if t, ok := fluentTypes[name]; ok {
		return t
	}
	if t, ok := registryNames().byFluent[name]; ok {
		return t
	}
	return name
}

// observe reports one check's outcome: a results line and, for a judged
// step or a check over several transcripts (set), a test attribute. msg
// is the failure message ("" when it passed); tr the transcript it read
// (nil for several, or a stream).
func (t *T) observe(label, typ string, res assert.Result, err error, step *stepJudge, msg string, tr *evalkit.Transcript, set bool) {
	l := results.Line{Kind: results.KindCheck, Check: label, Type: typ, Message: msg}
	switch {
	case err != nil:
		l.Status = StatusError.String()
	case res.Passed:
		l.Status = StatusPass.String()
	default:
		l.Status = StatusFail.String()
	}
	if err == nil {
		score := res.Score
		l.Score = &score
		l.Threshold = res.Want
	}
	judged := step != nil && t.judgedLine(&l, step)
	t.writeLine(l, tr)
	if judged || set {
		t.attr(l)
	}
}

// judgedLine fills in what a judged step's calls say; false when it asked
// no judge.
func (t *T) judgedLine(l *results.Line, s *stepJudge) bool {
	s.mu.Lock()
	calls := slices.Clone(s.calls)
	s.mu.Unlock()
	if len(calls) == 0 {
		return false
	}
	var sources []string
	for _, c := range calls {
		v := c.verdict
		l.Tokens += v.Usage.TotalTokens()
		l.CostUSD += v.Usage.CostUSD
		l.LatencyMS += float64(c.latency.Microseconds()) / 1000
		if !slices.Contains(sources, c.source) {
			sources = append(sources, c.source)
		}
		if v.Model != "" {
			l.Judge = v.Model
		}
	}
	lastCall := calls[len(calls)-1]
	for _, c := range calls {
		if c.criteria != "" {
			l.Criteria = c.criteria // the step's own; a metric's requests carry none
			break
		}
	}
	l.Reasoning = strings.TrimSpace(lastCall.verdict.Reasoning)
	prov := evalkit.ProvenanceOf(lastCall.judge)
	if l.Judge == "" {
		last := lastCall.verdict
		switch id := prov.Identity; {
		case id.Model != "":
			l.Judge = id.Model
		case len(last.Votes) > 0:
			l.Judge = fmt.Sprintf("panel of %d", len(last.Votes))
			if agg, ok := id.Settings["aggregate"].(string); ok {
				l.Judge = fmt.Sprintf("panel (%s) of %d", agg, len(last.Votes))
			}
		default:
			if str, ok := lastCall.judge.(fmt.Stringer); ok {
				l.Judge = excerpt(str.String(), 80)
			}
		}
	}
	if prov.Name != "" || prov.Provider != "" {
		l.Provenance = &results.Provenance{Name: prov.Name, Variant: prov.Variant, Provider: prov.Provider, Model: prov.Model,
			Settings: prov.Settings, PromptVersion: prov.PromptVersion, Raw: excerpt(lastCall.verdict.Raw, results.MaxRaw)}
		for _, c := range lastCall.verdict.ToolCalls {
			l.Provenance.ToolCalls = append(l.Provenance.ToolCalls, results.ToolCall{Name: c.Name, Args: excerpt(string(c.Args), results.MaxRaw),
				Result: excerpt(c.Result, results.MaxRaw), Error: excerpt(c.Error, results.MaxRaw)})
		}
	}
	l.Source = strings.Join(sources, "+")
	for _, vote := range calls[len(calls)-1].verdict.Votes {
		rv := results.Vote{Judge: vote.Judge, Label: vote.Verdict.Label, Error: vote.Err}
		if vote.Err == "" && vote.Verdict.Scored {
			score := vote.Verdict.Score
			rv.Score = &score
		}
		l.Votes = append(l.Votes, rv)
	}
	return true
}

// observeRepeat reports a Repeat's outcome, with its failure message msg
// ("" when it passed).
func (t *T) observeRepeat(label string, rep *Repetition, msg string) {
	l := results.Line{Kind: results.KindCheck, Check: label, Type: "repeat", Status: rep.Status.String(),
		Attempts: len(rep.Attempts), Passed: rep.Passed, Need: rep.Need, Message: msg}
	if len(rep.Attempts) > 0 {
		rate := rep.PassRate()
		l.Score = &rate
	}
	t.writeLine(l, nil)
	t.attr(l)
	for _, a := range rep.Attempts {
		for _, j := range a.judged {
			t.attrAs(j, a.Index)
		}
	}
}

// writeLine completes l with the test, case and attempt, and appends it
// (after tr's transcript line, the first time) to the results file, if
// there is one.
func (t *T) writeLine(l results.Line, tr *evalkit.Transcript) {
	w := t.resultsWriter()
	if w == nil {
		return
	}
	l.Test, l.Package = testName(t.tb), packageDir
	if l.Test == "" {
		l.Test = unnamedTest // a stand-in TB, as an example's
	}
	writers.Lock()
	tl := writers.tests[l.Test]
	if tl == nil {
		tl = &testLines{}
		writers.tests[l.Test] = tl
	}
	tl.lines++
	if l.Status != StatusPass.String() {
		tl.failing++
	}
	writers.Unlock()
	l.Case, l.Tags, l.Attempt = t.x.report.caseName, t.x.report.tags, t.x.index
	if l.Metric == nil && l.Groups == nil {
		l.Metric, l.Groups = t.x.report.metric, t.x.report.groups
	}
	l.Shard = shardLabel()
	if tr != nil {
		if data, err := json.Marshal(tr); err == nil {
			sum := sha256.Sum256(data)
			l.TranscriptID = hex.EncodeToString(sum[:8])
			if !w.HasTranscript(l.TranscriptID) {
				t.reportErr(w, w.Write(results.Line{Kind: results.KindTranscript, Test: l.Test, Package: l.Package, Case: l.Case, ID: l.TranscriptID, Transcript: data}))
			}
		}
	}
	t.reportErr(w, w.Write(l))
}

// reportErr fails the test, once per results file, when a line could not
// be written: a report missing lines would mislead.
func (t *T) reportErr(w *results.Writer, err error) {
	if err == nil {
		return
	}
	writers.Lock()
	failed := writers.failed[w]
	writers.failed[w] = true
	writers.Unlock()
	if !failed {
		t.root().tb.Errorf("evaltest: writing the results file %s: %v", w.Path(), err)
	}
}

// writers holds one results writer per file for the test binary.
var writers struct {
	sync.Mutex
	m       map[string]*results.Writer
	failed  map[*results.Writer]bool
	tests   map[string]*testLines // by test name, since its top-level test last ended
	decided map[testing.TB]bool   // the tests whose outcome line is decided
}

// testLines counts the lines a test wrote, and those that did not pass.
type testLines struct{ lines, failing int }

// unnamedTest is the test of a results line written through a TB that
// has no name: an example's stand-in.
const unnamedTest = "(unnamed test)"

// reportTestOutcome writes a line for a test that failed but whose lines
// say nothing did: one that failed before it ran any check (its agent
// returned an error, say), or whose checks all passed while it failed
// outside them (a t.Error of its own, a subtest without checks). Then
// the report does not count only what reached a check: a line of type
// "test", status fail, once per test run however many Ts it made. A test
// with a failing line, its own or a subtest's, is left alone. It runs as
// a cleanup of the test; a top-level test's forgets its lines, so the
// next run of -count=n starts afresh.
func (t *T) reportTestOutcome() {
	name := testName(t.tb)
	if name == "" {
		return
	}
	w := t.resultsWriter()
	if w == nil {
		return
	}
	writers.Lock()
	first := markDecided(base(t.tb))
	var lines, failing int
	for n, tl := range writers.tests {
		if n == name || strings.HasPrefix(n, name+"/") {
			lines, failing = lines+tl.lines, failing+tl.failing
		}
	}
	if !strings.Contains(name, "/") {
		for n := range writers.tests {
			if n == name || strings.HasPrefix(n, name+"/") {
				delete(writers.tests, n)
			}
		}
		for tb := range writers.decided {
			if tb != base(t.tb) && strings.HasPrefix(testName(tb), name+"/") {
				delete(writers.decided, tb)
			}
		}
	}
	writers.Unlock()
	if !first || !t.tb.Failed() || failing > 0 {
		return
	}
	msg := "the test failed before it ran any check"
	if lines > 0 {
		msg = fmt.Sprintf("the test failed outside its checks (%d passed)", lines)
	}
	l := results.Line{Kind: results.KindCheck, Test: name, Package: packageDir, Case: t.x.report.caseName, Tags: t.x.report.tags,
		Check: "(the test)", Type: "test", Status: StatusFail.String(), Message: msg, Shard: shardLabel()}
	writers.Lock()
	if tl := writers.tests[name]; tl != nil && strings.Contains(name, "/") {
		tl.lines, tl.failing = tl.lines+1, tl.failing+1 // its parent sees a failing line
	} else if strings.Contains(name, "/") {
		writers.tests[name] = &testLines{lines: 1, failing: 1}
	}
	writers.Unlock()
	t.reportErr(w, w.Write(l))
}

// markDecided notes that tb's outcome line is decided, and reports
// whether it was not yet; a TB that cannot key a map (a struct value
// holding a slice) is decided each time. writers is locked.
func markDecided(tb testing.TB) (first bool) {
	defer func() {
		if recover() != nil {
			first = true
		}
	}()
	first = !writers.decided[tb]
	writers.decided[tb] = true
	return first
}

// resultsWriter returns the writer of the T's results file, or nil.
func (t *T) resultsWriter() *results.Writer {
	path := os.Getenv("EVALKIT_REPORT")
	if path == "" {
		if !keepArtifacts() {
			return nil
		}
		ad, ok := t.root().tb.(interface{ ArtifactDir() string })
		if !ok {
			return nil
		}
		dir := artifactDir(ad)
		if dir == "" {
			return nil
		}
		path = filepath.Join(dir, "evalkit.results.jsonl")
	}
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	writers.Lock()
	defer writers.Unlock()
	if writers.m == nil {
		writers.m, writers.failed = map[string]*results.Writer{}, map[*results.Writer]bool{}
		writers.tests, writers.decided = map[string]*testLines{}, map[testing.TB]bool{}
	}
	w := writers.m[path]
	if w == nil {
		w = results.NewWriter(path)
		writers.m[path] = w
	}
	return w
}

func artifactDir(ad interface{ ArtifactDir() string }) (dir string) {
	defer func() {
		if recover() != nil {
			dir = ""
		}
	}()
	return ad.ArtifactDir()
}

// attr emits l as test attributes (testing.T.Attr), which gotestsum
// writes as JUnit properties: one set of keys per judged step, Repeat or
// check over several transcripts, numbered in the order the test
// reported them, so two judged steps never share a key:
//
//	evalkit.001.check      Judge("Confirms the refund and states the a…", MinScore(0.80))
//	evalkit.001.type       llm_judge
//	evalkit.001.outcome    pass (or fail, error)
//	evalkit.001.score      0.85
//	evalkit.001.threshold  >= 0.80
//	evalkit.001.judge      gpt-4.1-mini
//	evalkit.001.source     replayed (or live, fake)
//
// and, when they apply, judge_name (its name in a judge set), cost_usd,
// criteria and reasoning (whole, on one line), attempt (a Repeat
// attempt's step, listed after its Repeat), attempts, passed and need (a
// Repeat). A TB that cannot take attributes (a stand-in for examples) is
// left alone.
func (t *T) attr(l results.Line) { t.attrAs(l, t.x.index) }

// attrAs is attr for a line of attempt (0: none).
func (t *T) attrAs(l results.Line, attempt int) {
	l.Attempt = attempt
	if st := t.x.attempt; st != nil {
		st.mu.Lock()
		st.judged = append(st.judged, l) // listed after its Repeat's own, in attempt order
		st.mu.Unlock()
		return
	}
	n := nextStep(t.root().tb)
	if n == 0 {
		return
	}
	prefix := fmt.Sprintf("evalkit.%03d.", n)
	set := func(key, value string) {
		if value == "" {
			return
		}
		value = strings.Join(strings.FieldsFunc(value, func(r rune) bool { return r == '\n' || r == '\r' }), " ")
		func() {
			defer func() { _ = recover() }()
			t.tb.Attr(prefix+key, excerpt(value, maxAttr))
		}()
	}
	set("check", l.Check)
	set("type", strings.Join(strings.Fields(l.Type), "_"))
	set("outcome", l.Status)
	if l.Score != nil {
		set("score", strconv.FormatFloat(*l.Score, 'f', -1, 64))
	}
	set("threshold", l.Threshold)
	if l.Type == "repeat" {
		set("attempts", strconv.Itoa(l.Attempts))
		set("passed", strconv.Itoa(l.Passed))
		set("need", strconv.Itoa(l.Need))
	}
	if l.Attempt > 0 {
		set("attempt", strconv.Itoa(l.Attempt))
	}
	set("judge", l.Judge)
	if p := l.Provenance; p != nil && p.Name != "" {
		name := p.Name
		if p.Variant != "" {
			name += "/" + p.Variant
		}
		set("judge_name", name)
	}
	set("source", l.Source)
	if l.CostUSD > 0 {
		// Six significant digits, in decimal: a sum's float noise
		// (0.30000000000000004) is not shown, nor an exponent (1e-05).
		cost, _ := strconv.ParseFloat(strconv.FormatFloat(l.CostUSD, 'g', 6, 64), 64)
		set("cost_usd", strconv.FormatFloat(cost, 'f', -1, 64))
	}
	set("criteria", l.Criteria)
	set("reasoning", l.Reasoning)
}

// maxAttr bounds one attribute's value, in bytes: a whole criteria or
// reasoning, but not a runaway one.
const maxAttr = 8192

// steps numbers each test's attribute sets, by the test's TB: the *T
// under every T of one test, however many New made.
var steps struct {
	sync.Mutex
	m map[testing.TB]int
}

// nextStep returns the number of tb's next attribute set, from 1; 0 for a
// TB that cannot key a map (a struct value holding a slice).
func nextStep(tb testing.TB) (n int) {
	tb = underlying(tb)
	defer func() {
		if recover() != nil {
			n = 0
		}
	}()
	steps.Lock()
	defer steps.Unlock()
	if steps.m == nil {
		steps.m = map[testing.TB]int{}
	}
	steps.m[tb]++
	return steps.m[tb]
}

// forgetSteps drops tb's numbering when its test ends.
func forgetSteps(tb testing.TB) {
	tb = underlying(tb)
	defer func() { _ = recover() }()
	steps.Lock()
	delete(steps.m, tb)
	steps.Unlock()
}

// underlying is the TB a T given to New as a testing.TB reports to.
func underlying(tb testing.TB) testing.TB {
	for {
		et, ok := tb.(*T)
		if !ok {
			return base(tb)
		}
		tb = et.root().tb
	}
}

// testName is tb's name, or "" for a stand-in TB without one.
func testName(tb interface{ Name() string }) (name string) {
	defer func() {
		if recover() != nil {
			name = ""
		}
	}()
	return tb.Name()
}

// shardLabel is EVALKIT_SHARD, for results lines (see cases.go).
// A value RunCases refuses labels nothing: the run using it has failed.
func shardLabel() string {
	i, n, err := shardFromEnv()
	if err != nil || n == 0 {
		return ""
	}
	return strconv.Itoa(i) + "/" + strconv.Itoa(n)
}

// cleanup registers f with tb, if tb takes cleanups: a stand-in TB for an
// example may not.
func cleanup(tb testing.TB, f func()) {
	defer func() { _ = recover() }()
	tb.Cleanup(f)
}
