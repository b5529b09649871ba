package evaltest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
	"github.com/evalkit-go/evalkit/internal/inputs"
	"github.com/evalkit-go/evalkit/internal/textnorm"
	"github.com/evalkit-go/evalkit/internal/yamlcheck"
	"github.com/evalkit-go/evalkit/promptkit"
)

// Case is one case of a case file: an input for the agent, and the evals
// its transcript must pass. RunCases reads case files in YAML or JSON:
//
//	cases:
//	  - name: refund-wrong-order
//	    input: "Refund order #W123"
//	    vars: {order_id: "#W123"}
//	    tags: [refund, smoke]
//	    repeat: 3                 # or {n: 10, pass_rate: 0.8, confidence: 0.95}
//	    evals:                    # PromptKit's eval and assertion lists: type and params
//	      - type: tools_called
//	        params: {tool_names: [get_order_details, issue_refund]}
//	      - type: tool_args
//	        params: {tool_name: issue_refund, expected_args: {order_id: "#W123"}}
//	      - type: llm_judge
//	        judge: strict         # a judge of WithJudgeSet's set, and its variant;
//	        variant: cheap        # on a case, for each of its judged evals
//	        params: {criteria: "Confirms the refund"}
//
// A file is a list of cases, or a mapping with the list under "cases".
// "assertions" may stand for "evals", and an eval may carry PromptKit's
// id, message, description and trigger (kept, not interpreted: an eval
// runs once, on the transcript the run function returns), so a
// PromptKit-style list runs unchanged. PromptKit's own files — packs,
// Scenario and Eval documents — are read as published, with PromptKit's
// meaning (package promptkit): one case per pack prompt or document.
type Case struct {
	// Name names the case's subtest; unique across the files of a run.
	Name string
	// Input is the user's input for the agent.
	Input string
	// Vars are the case's own values, for the run function to read.
	Vars map[string]any
	// Description is free text.
	Description string
	// Evals are the checks the transcript must pass, in order.
	Evals []CaseEval
	// Repeat is how many times to run the case (0 and 1: once; at most
	// MaxRepeat). With
	// Repeat > 1 the case runs as T.Repeat with the rule PassRate,
	// AtLeast or, when neither is given, All; Confidence as Repeat's.
	Repeat     int
	PassRate   float64
	AtLeast    int
	Confidence float64
	// Tags label the case in reports.
	Tags []string
	// Judge and Variant name the judge of the T's judge set that the
	// case's judged evals ask when they name none (see WithJudgeSet):
	// judge: strict, variant: cheap. Either may be given alone.
	Judge, Variant string
	// Turns are a PromptKit scenario's user turns, in order (Input is the
	// first); Recording is a PromptKit eval document's saved conversation
	// (see promptkit.go).
	Turns     []string
	Recording string
	// File and Line are where the case is written.
	File string
	Line int
}

// CaseEval is one eval of a case: a registered check type and its
// declarative parameters (see package assert's registry).
type CaseEval struct {
	Type   string
	Params map[string]any
	// ID, Message, Description and Trigger are PromptKit's, kept as written.
	ID, Message, Description, Trigger string
	// Judge and Variant are the eval's judge and variant fields, as
	// written; Params holds them too, as the params judge and variant.
	Judge, Variant string
	// Line is where the eval is written, in its case's File.
	Line int
	// PromptKit is the entry of a PromptKit file (pack, scenario, eval
	// document) as written, which gives the eval PromptKit's meaning:
	// trigger, when, enabled, sampling, a validator's direction, metric
	// and groups (see package promptkit); nil for evalkit's case files.
	PromptKit *promptkit.Entry
}

// rule is the case's Repeat rule.
func (c Case) rule() (Rule, []RepeatOption) {
	var opts []RepeatOption
	if c.Confidence > 0 {
		opts = append(opts, Confidence(c.Confidence))
	}
	switch {
	case c.PassRate > 0:
		return PassRate(c.PassRate), opts
	case c.AtLeast > 0:
		return AtLeast(c.AtLeast), opts
	}
	return All(), opts
}

// RunCases runs every case of the case files matching glob (filepath.Glob
// syntax: "testdata/cases/*.yaml") as a subtest named after the case: run
// runs the agent on the case's input and returns its transcript, and the
// case's evals are checked on it, each failure naming its file and line:
//
//	func TestRefunds(t *testing.T) {
//		evaltest.RunCases(t, "testdata/cases/*.yaml", func(et *evaltest.T, c evaltest.Case) *evalkit.Transcript {
//			return runAgent(et.Context(), c.Input)
//		}, evaltest.WithJudge(openaijudge.FromEnv()))
//	}
//
//	refund_test.go:12: testdata/cases/refund.yaml:9: Eval("tools_called", {"tool_names":["issue_refund"]}): missing "issue_refund"
//
// Every file is read and every eval validated (Registry.Validate, with
// the registry of WithRegistry) before any case runs: a syntax error, an
// unknown field, a misspelt check type or parameter fails the test at
// once, every problem listed with its file, line and field; so does a
// judged eval (llm_judge, a metric) when opts give no judge. No file
// matching, or a file without cases, is an error too. A case with repeat
// runs as T.Repeat; a check over several transcripts ("consistent") then
// runs once over all the attempts' transcripts.
//
// EVALKIT_SHARD=i/n (1 ≤ i ≤ n) runs only the cases of shard i of n, a
// stable share chosen by a hash of each case's name: the shards of a CI
// matrix together run every case once, a case stays in its shard when
// others are added, and every shard's results files and recordings
// merge (a sharded run keeps the recording's other entries, as a filtered
// one does). opts configure each case's T.
func RunCases(t *testing.T, glob string, run func(et *T, c Case) *evalkit.Transcript, opts ...Option) {
	t.Helper()
	probe := New(t, opts...)
	tb := probe.tb // reports redacted
	cases, problems, err := loadCases(glob, probe.loadRegistry())
	if err == nil {
		// The cases read despite other problems are checked for a judge
		// too: every problem is in the one report.
		problems = append(problems, probe.judgeless(cases)...)
		if len(problems) > 0 {
			err = &CaseFileError{Problems: problems}
		}
	}
	if err != nil {
		tb.Fatalf("RunCases(%q): %v", glob, err)
		return
	}
	if run == nil {
		tb.Fatalf("RunCases(%q): no run function", glob)
		return
	}
	shard, of, err := shardFromEnv()
	if err != nil {
		tb.Fatalf("RunCases(%q): %v", glob, err)
		return
	}
	if of > 0 {
		all := len(cases)
		cases = slices.DeleteFunc(cases, func(c Case) bool { return shardOf(c.Name, of) != shard })
		tb.Logf("EVALKIT_SHARD=%d/%d: %d of %d cases", shard, of, len(cases), all)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			t.Helper()
			et := New(t, opts...)
			et.sel = et.sel.forCase(c)
			et.x.report = reportState{caseName: c.Name, tags: c.Tags}
			et.runCase(c, run)
		})
	}
}

// runCase runs one case: once, or as a Repeat.
func (t *T) runCase(c Case, run func(et *T, c Case) *evalkit.Transcript) {
	t.tb.Helper()
	if c.Repeat <= 1 {
		t.expectCase(c, run(t, c), c.Evals)
		return
	}
	var each, set []CaseEval
	probe := t.evalRegistry(nil)
	if probe == nil {
		probe = assert.NewRegistry()
	}
	probe = probe.WithJudge(unusedJudge{}).WithEmbedder(unusedEmbedder{})
	for _, ev := range c.Evals {
		if built, err := probe.Build(ev.Type, ev.Params); err == nil {
			if _, ok := built.(assert.SetCheck); ok {
				set = append(set, ev)
				continue
			}
		}
		each = append(each, ev)
	}
	rule, opts := c.rule()
	if len(set) > 0 {
		opts = append(opts, Exhaustive()) // a set check reads every attempt
	}
	rep := t.Repeat(c.Repeat, func(et *T) { et.expectCase(c, run(et, c), each) }, rule, opts...)
	if len(set) == 0 || len(rep.Attempts) == 0 {
		return
	}
	s := t.ExpectAll(rep.Transcripts()...)
	for _, ev := range set {
		s.eval(ev.label(c.File), ev.Type, ev.Params)
	}
}

// expectCase checks evals on tr. A case none of whose evals ran on tr
// (every PromptKit entry turned off, sampled out or its when unmet)
// checked nothing: it is skipped, never a pass (in a Repeat, an attempt
// that skipped is an error).
func (t *T) expectCase(c Case, tr *evalkit.Transcript, evals []CaseEval) {
	t.tb.Helper()
	e := t.Expect(tr)
	ran := 0
	for _, ev := range evals {
		if ev.PromptKit != nil {
			if e.promptKitEval(c, ev) {
				ran++
			}
			continue
		}
		e.eval(ev.label(c.File), ev.Type, ev.Params)
		ran++
	}
	if len(evals) > 0 && ran == 0 {
		t.tb.Skipf("%s: case %q checked nothing: none of its %d evals ran on the transcript (see the lines above)", filepath.ToSlash(c.File), c.Name, len(evals))
	}
}

// label is the eval as a failure's first line names it: its file and
// line, then the Eval call.
func (ev CaseEval) label(file string) string {
	return filepath.ToSlash(file) + ":" + strconv.Itoa(ev.Line) + ": " + call("Eval", ev.Type, ev.Params)
}

// unusedJudge and unusedEmbedder let the registry build a check only to
// see what kind it is; neither is ever asked.
type unusedJudge struct{}

func (unusedJudge) Judge(context.Context, evalkit.JudgeRequest) (evalkit.Verdict, error) {
	return evalkit.Verdict{}, errors.New("evaltest: not a judge")
}

type unusedEmbedder struct{}

func (unusedEmbedder) Embed(context.Context, []string) ([][]float64, error) {
	return nil, errors.New("evaltest: not an embedder")
}

// shardFromEnv reads EVALKIT_SHARD: "i/n" with 1 ≤ i ≤ n, or unset (0, 0).
func shardFromEnv() (shard, of int, err error) {
	v := strings.TrimSpace(os.Getenv("EVALKIT_SHARD"))
	if v == "" {
		return 0, 0, nil
	}
	a, b, ok := strings.Cut(v, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 1 || i > n {
		return 0, 0, fmt.Errorf("EVALKIT_SHARD=%q: want i/n with 1 <= i <= n, such as 2/4", v)
	}
	return i, n, nil
}

// shardOf is the shard, 1 to n, a case belongs to: FNV-1a of its name,
// modulo n, plus 1. It depends on the name alone, so it is the same on
// every machine and for every set of other cases.
func shardOf(name string, n int) int {
	h := fnv.New64a()
	h.Write([]byte(name))
	return int(h.Sum64()%uint64(n)) + 1
}

// LoadCases reads the case files matching glob, sorted by path, and
// validates every eval with reg (nil: the built-in registry). The error
// lists every problem, one a line, each with its file, line and field:
//
//	testdata/cases/refund.yaml:12: cases[2].evals[0].params: contains: param "patern": unknown parameter: did you mean "patterns"?
//	testdata/cases/refund.yaml:20: cases[3]: field "tag": unknown (did you mean "tags"?)
//
// With a registry that has a judge set (assert.Registry.WithJudgeSet),
// the judges that cases and evals name (judge, variant) are looked up in
// it too, an unknown one a problem listing the set's:
//
//	testdata/cases/refund.yaml:3: cases[0].judge: judgeset: judge not found: "strikt" (judges: lenient, strict)
//
// No file matching is an error, as is a file with no cases, two cases of
// one name, a key given twice in any mapping of a file (a case's, an
// eval's, its params', vars' or repeat's: none of the file's cases is
// then read), an alias inside the value it stands for (&v {x: *v}), and
// aliases that expand a file beyond yamlcheck.MaxAliasNodes (1,000,000)
// nodes, named by the alias's line:
//
//	testdata/cases/refund.yaml:9: cases[1].evals[0]: field "type" is given twice (first at line 7)
//
// A case file is read only when it is a regular file (a FIFO is refused,
// never waited on) of at most 4 MiB, and a run reads at most 10,000 cases:
// EVALKIT_MAX_CASE_FILE_BYTES and EVALKIT_MAX_CASES raise the limits.
func LoadCases(glob string, reg *assert.Registry) ([]Case, error) {
	cases, problems, err := loadCases(glob, reg)
	if err != nil {
		return nil, err
	}
	if len(problems) > 0 {
		return nil, &CaseFileError{Problems: problems}
	}
	return cases, nil
}

// loadCases is LoadCases returning, beside its problems, the cases it
// could read, so that RunCases can add its own problems about them (a
// judged eval and no judge) to the one report. err is set only when no
// file could be looked for (a bad pattern, nothing matching).
func loadCases(glob string, reg *assert.Registry) (cases []Case, problems []string, err error) {
	files, err := filepath.Glob(glob)
	if err != nil {
		return nil, nil, fmt.Errorf("bad pattern %q: %w", glob, err)
	}
	if len(files) == 0 {
		return nil, nil, fmt.Errorf("no case files match %q", glob)
	}
	slices.Sort(files)
	if reg == nil {
		reg = assert.NewRegistry()
	}
	var all []Case
	for _, f := range files {
		data, err := inputs.ReadFile(f, inputs.CaseFile)
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		cs, ps := parseCases(f, data, reg)
		all = append(all, cs...)
		problems = append(problems, ps...)
		if err := inputs.Check(glob, int64(len(all)), inputs.Cases); err != nil {
			// Past the count, the rest is not read: a run of that many
			// subtests is a mistake more often than a suite.
			return all, append(problems, err.Error()), nil
		}
	}
	seen := map[string]Case{}
	for _, c := range all {
		if c.Name == "" {
			continue // a problem already
		}
		key := strings.ReplaceAll(c.Name, " ", "_") // as t.Run names subtests
		if prev, dup := seen[key]; dup {
			problems = append(problems, fmt.Sprintf("%s:%d: case %q: the name is taken by the case at %s:%d", c.File, c.Line, textnorm.Excerpt(c.Name, maxQuoted), prev.File, prev.Line))
			continue
		}
		seen[key] = c
	}
	return all, problems, nil
}

// CaseFileError lists the problems of case files, one a line.
type CaseFileError struct {
	Problems []string
}

// maxProblems bounds the problems an error's text lists.
const maxProblems = 40

func (e *CaseFileError) Error() string {
	ps := e.Problems
	more := ""
	if len(ps) > maxProblems {
		more = fmt.Sprintf("\n… and %d more problems", len(ps)-maxProblems)
		ps = ps[:maxProblems]
	}
	if len(ps) == 1 {
		return ps[0]
	}
	return fmt.Sprintf("%d problems in the case files:\n%s%s", len(e.Problems), strings.Join(ps, "\n"), more)
}

// caseParser reads one file's YAML nodes, noting every problem.
type caseParser struct {
	file     string
	reg      *assert.Registry
	problems []string
	bound    bool // a PromptKit runtime config whose bindings reg holds: no cases, no problem
}

// A problem quotes at most maxQuoted bytes of any text of the file, and
// says at most maxProblem: a megabyte key must not make a megabyte error.
const (
	maxQuoted  = 120
	maxProblem = 1024
)

func (p *caseParser) problem(n *yaml.Node, path, format string, args ...any) {
	line := 0
	if n != nil {
		line = n.Line
	}
	for i, a := range args {
		if s, ok := a.(string); ok && len(s) > maxQuoted {
			args[i] = textnorm.Excerpt(s, maxQuoted)
		}
	}
	msg := textnorm.Excerpt(fmt.Sprintf(format, args...), maxProblem)
	if path != "" {
		msg = path + ": " + msg
	}
	p.problems = append(p.problems, fmt.Sprintf("%s:%d: %s", p.file, line, msg))
}

func parseCases(file string, data []byte, reg *assert.Registry) ([]Case, []string) {
	p := &caseParser{file: file, reg: reg}
	if strings.EqualFold(filepath.Ext(file), ".json") {
		// JSON is read as YAML, for the line numbers, but held to JSON's
		// own syntax: YAML would take a trailing comma.
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			var se *json.SyntaxError
			if errors.As(err, &se) {
				line := 1 + bytes.Count(data[:min(int(se.Offset), len(data))], []byte("\n"))
				return nil, []string{fmt.Sprintf("%s:%d: %v", file, line, err)}
			}
			return nil, []string{fmt.Sprintf("%s: %v", file, err)}
		}
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var cases []Case
	docs := 0
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			p.problems = append(p.problems, yamlProblem(file, err))
			return nil, p.problems
		}
		docs++
		if ps := yamlcheck.Check(&doc, rootPath(&doc)); len(ps) > 0 {
			// A key given twice or an alias bomb: what the file means is
			// not clear, so none of its cases is read.
			for _, pr := range ps {
				p.problems = append(p.problems, fmt.Sprintf("%s:%d: %s", file, pr.Line, pr.Msg))
			}
			continue
		}
		if promptkit.Detect(&doc) != "" {
			cases = append(cases, p.promptKit(&doc)...) // a PromptKit file, as published (promptkit.go)
			continue
		}
		cases = append(cases, p.document(&doc)...)
	}
	if docs == 0 || len(cases) == 0 && len(p.problems) == 0 && !p.bound {
		p.problem(nil, "", "no cases: want a list of cases, or a mapping with the list under \"cases\"")
	}
	return cases, p.problems
}

// yamlProblem turns the parser's "yaml: line 3: ..." into "file:3: ...".
func yamlProblem(file string, err error) string {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if num, tail, ok := strings.Cut(rest, ": "); ok {
			if _, err := strconv.Atoi(num); err == nil {
				return fmt.Sprintf("%s:%s: %s", file, num, tail)
			}
		}
	}
	return fmt.Sprintf("%s: %s", file, msg)
}

func resolve(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

// rootPath is the field path of a document's root as the parser names
// it: "cases" for a list of cases, "" for a mapping (whose "cases" field
// is then "cases").
func rootPath(doc *yaml.Node) string {
	root := resolve(doc)
	if root.Kind == yaml.DocumentNode && len(root.Content) > 0 {
		root = resolve(root.Content[0])
	}
	if root.Kind == yaml.SequenceNode {
		return "cases"
	}
	return ""
}

func (p *caseParser) document(doc *yaml.Node) []Case {
	root := resolve(doc)
	if root.Kind == yaml.DocumentNode {
		if len(root.Content) == 0 {
			return nil
		}
		root = resolve(root.Content[0])
	}
	list, path := root, "cases"
	if root.Kind == yaml.MappingNode {
		list = nil
		for i := 0; i+1 < len(root.Content); i += 2 {
			k := root.Content[i]
			if k.Value == "cases" {
				list = resolve(root.Content[i+1])
				continue
			}
			p.problem(k, "", "field %q: unknown (a case file is a list of cases, or a mapping with the list under \"cases\")", k.Value)
		}
		if list == nil {
			p.problem(root, "", "no \"cases\" list")
			return nil
		}
	}
	if list.Kind != yaml.SequenceNode {
		p.problem(list, path, "want a list of cases, got %s", kindName(list))
		return nil
	}
	var out []Case
	for i, n := range list.Content {
		c, _ := p.caseAt(resolve(n), fmt.Sprintf("cases[%d]", i))
		out = append(out, c) // a case with problems still takes its name
	}
	return out
}

var caseFields = []string{"name", "input", "vars", "description", "evals", "assertions", "repeat", "tags", "judge", "variant"}

func (p *caseParser) caseAt(n *yaml.Node, path string) (Case, bool) {
	c := Case{File: p.file, Line: n.Line}
	if n.Kind != yaml.MappingNode {
		p.problem(n, path, "want a case (a mapping with name and evals), got %s", kindName(n))
		return c, false
	}
	before := len(p.problems)
	seen := map[string]bool{}
	var evals *yaml.Node
	var pending []pendingEval
	var judgeKeys [2]*yaml.Node // the judge and variant fields
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], resolve(n.Content[i+1])
		seen[k.Value] = true // each once: yamlcheck.Check saw to it
		switch k.Value {
		case "name":
			c.Name = p.str(v, path+".name")
		case "input":
			c.Input = p.str(v, path+".input")
		case "description":
			c.Description = p.str(v, path+".description")
		case "vars":
			if v.Kind != yaml.MappingNode {
				p.problem(v, path+".vars", "want a mapping, got %s", kindName(v))
				continue
			}
			if err := v.Decode(&c.Vars); err != nil {
				p.problem(v, path+".vars", "%v", strings.TrimPrefix(err.Error(), "yaml: "))
			}
		case "tags":
			c.Tags = p.strs(v, path+".tags")
		case "repeat":
			p.repeat(v, path+".repeat", &c)
		case "judge":
			c.Judge, judgeKeys[0] = p.judgeField(k, v, path+".judge")
		case "variant":
			c.Variant, judgeKeys[1] = p.judgeField(k, v, path+".variant")
		case "evals", "assertions":
			if evals != nil {
				p.problem(k, path, "give evals or assertions, not both")
				continue
			}
			evals = v
			pending = p.evals(v, path+"."+k.Value)
		default:
			p.problem(k, path, "field %q: unknown%s", k.Value, didYouMean(k.Value, caseFields))
		}
	}
	// The evals are validated once the case's judge and variant are known.
	c.Evals = p.validate(pending, p.caseJudge(c, path, judgeKeys))
	if c.Name == "" && !seen["name"] {
		p.problem(n, path, "no name")
	} else if strings.TrimSpace(c.Name) == "" && len(p.problems) == before {
		p.problem(n, path+".name", "empty")
	}
	if evals == nil {
		p.problem(n, path, "no evals: a case without checks would pass whatever the agent does")
	} else if len(c.Evals) == 0 && len(p.problems) == before {
		p.problem(evals, path+".evals", "empty: a case without checks would pass whatever the agent does")
	}
	return c, len(p.problems) == before
}

func (p *caseParser) str(v *yaml.Node, path string) string {
	if v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
		p.problem(v, path, "want a string, got %s", kindName(v))
		return ""
	}
	return v.Value
}

func (p *caseParser) strs(v *yaml.Node, path string) []string {
	if v.Kind == yaml.ScalarNode {
		return []string{p.str(v, path)}
	}
	if v.Kind != yaml.SequenceNode {
		p.problem(v, path, "want a list of strings, got %s", kindName(v))
		return nil
	}
	out := make([]string, 0, len(v.Content))
	for i, item := range v.Content {
		out = append(out, p.str(resolve(item), fmt.Sprintf("%s[%d]", path, i)))
	}
	return out
}

func (p *caseParser) repeat(v *yaml.Node, path string, c *Case) {
	read := func(v *yaml.Node, path string) (float64, bool) {
		var f float64
		if v.Kind != yaml.ScalarNode || v.Tag == "!!null" || v.Decode(&f) != nil || v.Tag == "!!str" || v.Tag == "!!bool" {
			p.problem(v, path, "want a number, got %s", kindName(v))
			return 0, false
		}
		return f, true
	}
	num := func(v *yaml.Node, path string) float64 { f, _ := read(v, path); return f }
	count := func(v *yaml.Node, path string, most int) int {
		f, ok := read(v, path)
		switch {
		case !ok:
			return 0 // a problem already
		case !(f >= 1 && f <= float64(most)) || f != math.Trunc(f):
			p.problem(v, path, "want a whole number from 1 to %d, got %v", most, f)
			return 0
		}
		return int(f)
	}
	switch v.Kind {
	case yaml.ScalarNode:
		c.Repeat = count(v, path, MaxRepeat)
		return
	case yaml.MappingNode:
	default:
		p.problem(v, path, "want a number of runs or a mapping {n, pass_rate, at_least, confidence}, got %s", kindName(v))
		return
	}
	fields := []string{"n", "pass_rate", "at_least", "confidence"}
	nGiven := false
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := v.Content[i], resolve(v.Content[i+1])
		switch k.Value {
		case "n":
			c.Repeat, nGiven = count(val, path+".n", MaxRepeat), true
		case "pass_rate":
			c.PassRate = num(val, path+".pass_rate")
			if !(c.PassRate > 0 && c.PassRate <= 1) {
				p.problem(val, path+".pass_rate", "want a rate above 0 and at most 1, got %v", c.PassRate)
			}
		case "at_least":
			c.AtLeast = count(val, path+".at_least", MaxRepeat)
		case "confidence":
			c.Confidence = num(val, path+".confidence")
			if !(c.Confidence > 0 && c.Confidence < 1) {
				p.problem(val, path+".confidence", "want a level between 0 and 1, such as 0.95, got %v", c.Confidence)
			}
		default:
			p.problem(k, path, "field %q: unknown%s", k.Value, didYouMean(k.Value, fields))
		}
	}
	switch {
	case c.Repeat == 0 && !nGiven:
		p.problem(v, path, "no n: how many runs?")
	case c.Repeat == 0:
		// n's own problem is reported
	case c.PassRate > 0 && c.AtLeast > 0:
		p.problem(v, path, "give pass_rate or at_least, not both")
	default:
		rule, opts := c.rule()
		cfg := repeatConfig{}
		for _, o := range opts {
			_ = o.apply(&cfg)
		}
		if _, err := rule.need(c.Repeat, cfg.level); err != nil {
			p.problem(v, path, "%v", err)
		}
	}
}

var evalFields = []string{"type", "params", "id", "message", "description", "trigger", "judge", "variant"}

// evals reads a case's evals, to be validated (see validate).
func (p *caseParser) evals(v *yaml.Node, path string) []pendingEval {
	if v.Kind != yaml.SequenceNode {
		p.problem(v, path, "want a list of evals ({type, params}), got %s", kindName(v))
		return nil
	}
	var out []pendingEval
	for i, n := range v.Content {
		n = resolve(n)
		at := fmt.Sprintf("%s[%d]", path, i)
		if n.Kind != yaml.MappingNode {
			p.problem(n, at, "want an eval ({type, params}), got %s", kindName(n))
			continue
		}
		ev := CaseEval{Line: n.Line, Params: map[string]any{}}
		var params *yaml.Node
		var judgeKeys [2]*yaml.Node
		for j := 0; j+1 < len(n.Content); j += 2 {
			k, val := n.Content[j], resolve(n.Content[j+1])
			switch k.Value {
			case "type":
				ev.Type = p.str(val, at+".type")
			case "params":
				params = val
				if val.Kind == yaml.ScalarNode && val.Tag == "!!null" {
					continue
				}
				if val.Kind != yaml.MappingNode {
					p.problem(val, at+".params", "want a mapping, got %s", kindName(val))
					continue
				}
				if err := val.Decode(&ev.Params); err != nil {
					p.problem(val, at+".params", "%v", strings.TrimPrefix(err.Error(), "yaml: "))
				}
			case "id":
				ev.ID = p.str(val, at+".id")
			case "message":
				ev.Message = p.str(val, at+".message")
			case "description":
				ev.Description = p.str(val, at+".description")
			case "trigger":
				ev.Trigger = p.str(val, at+".trigger")
			case "judge":
				ev.Judge, judgeKeys[0] = p.judgeField(k, val, at+".judge")
			case "variant":
				ev.Variant, judgeKeys[1] = p.judgeField(k, val, at+".variant")
			default:
				p.problem(k, at, "field %q: unknown%s", k.Value, didYouMean(k.Value, evalFields))
			}
		}
		if ev.Type == "" {
			p.problem(n, at, "no type")
			continue
		}
		if !p.evalJudge(&ev, at, judgeKeys) {
			continue
		}
		out = append(out, pendingEval{ev: ev, node: n, params: params, at: at, judgeKeys: judgeKeys})
	}
	return out
}

// pendingEval is an eval read and not yet validated, with the nodes its
// problems point at.
type pendingEval struct {
	ev        CaseEval
	node      *yaml.Node
	params    *yaml.Node // nil when the eval has none
	at        string
	judgeKeys [2]*yaml.Node // its judge and variant fields
}

// validate validates evals with reg (the registry, its judge set seen
// from the case) and returns the valid ones.
func (p *caseParser) validate(evals []pendingEval, reg *assert.Registry) []CaseEval {
	var out []CaseEval
	for _, pe := range evals {
		ev, at := pe.ev, pe.at
		if err := reg.Validate(ev.Type, ev.Params); err != nil {
			where, field := pe.node, at
			var perr *assert.ParamError
			if errors.As(err, &perr) {
				if key := judgeKey(perr.Param, pe.judgeKeys); key != nil {
					where, field = key, at+"."+perr.Param
				} else if pe.params != nil {
					if key := keyNode(pe.params, perr.Param); key != nil {
						where, field = key, at+".params."+perr.Param
					}
				}
			} else if errors.Is(err, assert.ErrUnknownCheck) {
				field = at + ".type"
			}
			p.problem(where, field, "%v", err)
			continue
		}
		out = append(out, ev)
	}
	return out
}

// keyNode is the key node name of mapping m, or nil.
func keyNode(m *yaml.Node, name string) *yaml.Node {
	if m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == name {
			return m.Content[i]
		}
	}
	return nil
}

func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!null":
			return "null"
		case "!!str":
			return strconv.Quote(n.Value)
		}
		return n.Value
	}
	return "nothing"
}

// didYouMean suggests the known name nearest an unknown one.
func didYouMean(name string, known []string) string {
	best, bestD := "", 3
	for _, k := range known {
		if len(name)-len(k) >= bestD || len(k)-len(name) >= bestD {
			continue // farther than bestD: no need to measure a megabyte name
		}
		if d := textnorm.EditDistance(name, k); d < bestD {
			best, bestD = k, d
		}
	}
	if best == "" {
		return " (known: " + strings.Join(known, ", ") + ")"
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}
