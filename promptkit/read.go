package promptkit

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/evalkit-go/evalkit/assert"

	"github.com/evalkit-go/evalkit/internal/textnorm"
)

// Kind names a PromptKit document.
type Kind string

// The documents Read reads.
const (
	// KindPack is a PromptPack: evals at its top level and under
	// prompts.<id>.evals, guardrail validators under prompts.<id>.validators.
	KindPack Kind = "Pack"
	// KindScenario is an Arena scenario: spec.turns[].assertions and
	// spec.conversation_assertions.
	KindScenario Kind = "Scenario"
	// KindEval is an Arena eval of a saved conversation:
	// spec.turns[].all_turns.assertions and spec.conversation_assertions.
	KindEval Kind = "Eval"
	// KindRuntimeConfig is a runtime config: spec.evals binds eval type
	// names to programs (see BindRuntimeConfig).
	KindRuntimeConfig Kind = "RuntimeConfig"
)

// Document is one PromptKit document as Read reads it.
type Document struct {
	Kind Kind
	// Name is the pack's id, or the document's metadata.name (spec.id
	// when it has none).
	Name string
	// Suites are what the document checks: one per prompt of a pack (one
	// for a pack without prompts), one for a scenario or an eval.
	Suites []Suite
	// Exec are a runtime config's eval bindings, by type name.
	Exec map[string]ExecBinding
	// Line is where the document starts.
	Line int
}

// Suite is one conversation's checks: a pack prompt's evals and
// validators, a scenario's turns and assertions, an eval's assertions.
type Suite struct {
	// Name is "pack/prompt", or the scenario's or eval's name.
	Name string
	// Turns are a scenario's user turns, in order: what the agent is
	// given. Input of a case is the first.
	Turns []string
	// Vars are a scenario's variables, and the pack, prompt and system
	// template of a pack's suite ("pack", "prompt", "system_template").
	Vars map[string]any
	// Recording is an eval document's recording path, relative to the
	// working directory (resolved from the document's directory).
	Recording string
	// Trials is a scenario's trials (0: once), and PassRate the strictest
	// pass_threshold of its assertions (0: every trial must pass).
	Trials   int
	PassRate float64
	// Tags are an eval document's tags.
	Tags []string
	// Description is the scenario's, eval's or prompt's description.
	Description string
	Entries     []Entry
	Line        int
}

// Problem is one problem of a document: its line, the path of the field,
// and what is wrong.
type Problem struct {
	Line int
	Path string
	Msg  string
}

func (p Problem) String() string {
	if p.Path == "" {
		return fmt.Sprintf("%d: %s", p.Line, p.Msg)
	}
	return fmt.Sprintf("%d: %s: %s", p.Line, p.Path, p.Msg)
}

// Detect says which PromptKit document doc is (a decoded YAML or JSON
// document node), or "" when it is none: a mapping with apiVersion and a
// kind of Scenario, Eval or RuntimeConfig, or a pack — a mapping with a
// promptpack $schema, or with prompts and neither cases nor apiVersion.
// Another kind with an apiVersion (Arena, PromptConfig, ...) is reported by
// Read.
func Detect(doc *yaml.Node) Kind {
	root := rootOf(doc)
	if root == nil || root.Kind != yaml.MappingNode {
		return ""
	}
	keys := map[string]*yaml.Node{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		keys[root.Content[i].Value] = resolve(root.Content[i+1])
	}
	if _, ok := keys["cases"]; ok {
		return ""
	}
	if v, ok := keys["apiVersion"]; ok && v.Kind == yaml.ScalarNode && strings.Contains(v.Value, "promptkit") {
		if k, ok := keys["kind"]; ok && k.Kind == yaml.ScalarNode {
			return Kind(k.Value)
		}
		return Kind("(no kind)")
	}
	if s, ok := keys["$schema"]; ok && s.Kind == yaml.ScalarNode && strings.Contains(s.Value, "promptpack") {
		return KindPack
	}
	if _, ok := keys["prompts"]; ok {
		return KindPack
	}
	return ""
}

// ReadNode reads a PromptKit document from its decoded node — for a
// case-file loader that decoded and checked the YAML already, as
// evaltest.LoadCases does — and validates every entry with reg (nil: the
// built-in registry). file is the document's path: an eval document's
// recording is resolved from its directory. Every problem is returned,
// each with its line and field path; the Document holds what could be
// read.
func ReadNode(file string, doc *yaml.Node, reg *assert.Registry) (*Document, []Problem) {
	if reg == nil {
		reg = assert.NewRegistry()
	}
	r := &reader{file: file, reg: reg}
	root := rootOf(doc)
	if root == nil {
		r.problem(doc, "", "empty document")
		return nil, r.problems
	}
	d := &Document{Kind: Detect(doc), Line: root.Line}
	switch d.Kind {
	case KindPack:
		r.pack(root, d)
	case KindScenario, KindEval:
		r.spec(root, d)
	case KindRuntimeConfig:
		r.runtime(root, d)
	case "":
		r.problem(root, "", "not a PromptKit document: want a pack (with $schema or prompts) or an apiVersion/kind document")
	case "(no kind)":
		r.problem(root, "kind", "required, a string: the document's kind (evalkit reads Scenario, Eval and RuntimeConfig documents, and packs)")
	default:
		r.problem(root, "kind", "%s: this kind of document holds no checks (evalkit reads packs, and Scenario, Eval and RuntimeConfig documents)", quote(string(d.Kind)))
	}
	return d, r.problems
}

type reader struct {
	file     string
	reg      *assert.Registry
	problems []Problem
}

func (r *reader) problem(n *yaml.Node, path, format string, args ...any) {
	line := 0
	if n != nil {
		line = n.Line
	}
	r.problems = append(r.problems, Problem{Line: line, Path: path, Msg: fmt.Sprintf(format, args...)})
}

func rootOf(doc *yaml.Node) *yaml.Node {
	n := resolve(doc)
	if n != nil && n.Kind == yaml.DocumentNode {
		if len(n.Content) == 0 {
			return nil
		}
		n = resolve(n.Content[0])
	}
	return n
}

func resolve(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

// fields lists a mapping's keys and values, in order.
func fields(n *yaml.Node) [][2]*yaml.Node {
	var out [][2]*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		out = append(out, [2]*yaml.Node{n.Content[i], resolve(n.Content[i+1])})
	}
	return out
}

func field(n *yaml.Node, name string) *yaml.Node {
	for _, kv := range fields(n) {
		if kv[0].Value == name {
			return kv[1]
		}
	}
	return nil
}

func (r *reader) str(n *yaml.Node, path string) string {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		r.problem(n, path, "want a string, got %s", kindName(n))
		return ""
	}
	return n.Value
}

func (r *reader) mapping(n *yaml.Node, path string) bool {
	if n.Kind != yaml.MappingNode {
		r.problem(n, path, "want a mapping, got %s", kindName(n))
		return false
	}
	return true
}

func (r *reader) list(n *yaml.Node, path string) bool {
	if n.Kind != yaml.SequenceNode {
		r.problem(n, path, "want a list, got %s", kindName(n))
		return false
	}
	return true
}

// pack reads a PromptPack: its evals, and each prompt's evals (which
// override the pack's of the same id) and validators.
func (r *reader) pack(root *yaml.Node, d *Document) {
	var packEvals []Entry
	var prompts *yaml.Node
	written := len(r.problems) // entries that failed to read are problems of their own
	for _, kv := range fields(root) {
		k, v := kv[0], kv[1]
		switch k.Value {
		case "id":
			d.Name = r.str(v, "id")
		case "evals":
			packEvals = r.entries(v, "evals", RoleEval)
		case "prompts":
			if r.mapping(v, "prompts") {
				prompts = v
			}
		default:
			r.nearMiss(k, "", "evals", "prompts")
		}
	}
	if d.Name == "" {
		r.problem(root, "id", "required: the pack's id names its cases")
		return
	}
	if prompts == nil || len(prompts.Content) == 0 {
		d.Suites = append(d.Suites, Suite{Name: d.Name, Entries: packEvals, Line: root.Line, Vars: map[string]any{"pack": d.Name}})
	}
	if prompts != nil {
		for _, kv := range fields(prompts) {
			id, p := kv[0].Value, kv[1]
			path := "prompts." + id
			if !r.mapping(p, path) {
				continue
			}
			s := Suite{Name: d.Name + "/" + id, Line: kv[0].Line, Vars: map[string]any{"pack": d.Name, "prompt": id}}
			var own []Entry
			for _, f := range fields(p) {
				switch f[0].Value {
				case "evals":
					own = r.entries(f[1], path+".evals", RoleEval)
				case "validators":
					s.Entries = append(s.Entries, r.entries(f[1], path+".validators", RoleValidator)...)
				case "system_template":
					s.Vars["system_template"] = r.str(f[1], path+".system_template")
				case "description":
					s.Description = r.str(f[1], path+".description")
				default:
					r.nearMiss(f[0], path, "evals", "validators")
				}
			}
			// Prompt-level evals override pack-level ones by id.
			merged := slices.Clone(own)
			for _, e := range packEvals {
				if !slices.ContainsFunc(own, func(o Entry) bool { return o.ID != "" && o.ID == e.ID }) {
					merged = append(merged, e)
				}
			}
			s.Entries = append(merged, s.Entries...)
			d.Suites = append(d.Suites, s)
		}
	}
	for _, s := range d.Suites {
		if len(s.Entries) == 0 && len(r.problems) == written {
			r.problem(root, "", "%s: no evals and no validators: nothing to check", quote(s.Name))
		}
	}
}

// spec reads a Scenario or an Eval document.
func (r *reader) spec(root *yaml.Node, d *Document) {
	spec := field(root, "spec")
	if meta := field(root, "metadata"); meta != nil && meta.Kind == yaml.MappingNode {
		if n := field(meta, "name"); n != nil {
			d.Name = r.str(n, "metadata.name")
		}
	}
	if spec == nil || !r.mapping(spec, "spec") {
		if spec == nil {
			r.problem(root, "spec", "required")
		}
		return
	}
	s := Suite{Line: spec.Line, Vars: map[string]any{}}
	userTurn := 0
	for _, kv := range fields(spec) {
		k, v := kv[0], kv[1]
		path := "spec." + k.Value
		switch k.Value {
		case "id":
			if id := r.str(v, path); d.Name == "" {
				d.Name = id
			}
		case "description":
			s.Description = r.str(v, path)
		case "variables":
			if r.mapping(v, path) {
				var vars map[string]any
				if err := v.Decode(&vars); err != nil {
					r.problem(v, path, "%v", err)
				}
				for name, val := range vars {
					s.Vars[name] = val
				}
			}
		case "trials":
			var n int
			if v.Decode(&n) != nil || n < 1 || v.Tag != "!!int" {
				r.problem(v, path, "want a whole number of trials, got %s", kindName(v))
			} else {
				s.Trials = n
			}
		case "tags":
			var tags []string
			if err := v.Decode(&tags); err != nil {
				r.problem(v, path, "want a list of strings")
			}
			s.Tags = tags
		case "recording":
			if d.Kind != KindEval || !r.mapping(v, path) {
				continue
			}
			if p := field(v, "path"); p != nil {
				rec := r.str(p, path+".path")
				if rec != "" && !filepath.IsAbs(rec) {
					rec = filepath.Join(filepath.Dir(r.file), rec)
				}
				s.Recording = rec
			}
		case "conversation_assertions":
			s.Entries = append(s.Entries, r.entries(v, path, RoleAssertion)...)
		case "turns":
			if !r.list(v, path) {
				continue
			}
			for i, t := range v.Content {
				t = resolve(t)
				tpath := fmt.Sprintf("%s[%d]", path, i)
				if !r.mapping(t, tpath) {
					continue
				}
				for _, f := range fields(t) {
					if f[0].Value != "assertions" && f[0].Value != "all_turns" {
						r.nearMiss(f[0], tpath, "assertions", "all_turns")
					}
				}
				if d.Kind == KindEval {
					at := field(t, "all_turns")
					if at == nil || !r.mapping(at, tpath+".all_turns") {
						if at == nil {
							r.problem(t, tpath, "want all_turns: {assertions: [...]}")
						}
						continue
					}
					for _, f := range fields(at) {
						if f[0].Value != "assertions" {
							r.nearMiss(f[0], tpath+".all_turns", "assertions")
						}
					}
					if as := field(at, "assertions"); as != nil {
						for _, e := range r.entries(as, tpath+".all_turns.assertions", RoleAssertion) {
							e.AllTurns = true
							s.Entries = append(s.Entries, e)
						}
					}
					continue
				}
				role := "user"
				if rn := field(t, "role"); rn != nil {
					role = r.str(rn, tpath+".role")
				}
				if role == "user" {
					content := ""
					if c := field(t, "content"); c != nil {
						content = r.str(c, tpath+".content")
					}
					s.Turns = append(s.Turns, content)
				}
				if as := field(t, "assertions"); as != nil {
					if role != "user" {
						r.problem(as, tpath+".assertions", "assertions on a %s turn: evalkit binds a turn's assertions to the assistant's answer to a user turn", quote(role))
						continue
					}
					for _, e := range r.entries(as, tpath+".assertions", RoleAssertion) {
						e.Turn = userTurn
						e.scopeTurn(r.reg)
						s.Entries = append(s.Entries, e)
					}
				}
				if role == "user" {
					userTurn++
				}
			}
		default:
			r.nearMiss(k, "spec", "turns", "conversation_assertions")
		}
	}
	if d.Name == "" {
		r.problem(root, "metadata.name", "required: the name names the case")
	}
	s.Name = d.Name
	for _, e := range s.Entries {
		if e.PassThreshold != nil && *e.PassThreshold > s.PassRate {
			s.PassRate = *e.PassThreshold
		}
	}
	if s.PassRate >= 1 {
		s.PassRate = 0 // every trial: the default rule
	}
	if len(s.Entries) == 0 {
		r.problem(spec, "", "no assertions: nothing to check")
	}
	d.Suites = []Suite{s}
}

// runtime reads a RuntimeConfig's spec.evals bindings.
func (r *reader) runtime(root *yaml.Node, d *Document) {
	if meta := field(root, "metadata"); meta != nil && meta.Kind == yaml.MappingNode {
		if n := field(meta, "name"); n != nil {
			d.Name = r.str(n, "metadata.name")
		}
	}
	spec := field(root, "spec")
	if spec == nil || !r.mapping(spec, "spec") {
		return
	}
	evals := field(spec, "evals")
	if evals == nil || !r.mapping(evals, "spec.evals") {
		return
	}
	d.Exec = map[string]ExecBinding{}
	for _, kv := range fields(evals) {
		name, v := kv[0].Value, kv[1]
		path := "spec.evals." + name
		if !r.mapping(v, path) {
			continue
		}
		b := ExecBinding{Line: kv[0].Line}
		for _, f := range fields(v) {
			fp := path + "." + f[0].Value
			switch f[0].Value {
			case "command":
				b.Command = r.str(f[1], fp)
			case "args":
				if err := f[1].Decode(&b.Args); err != nil {
					r.problem(f[1], fp, "want a list of strings")
				}
			case "env":
				if err := f[1].Decode(&b.Env); err != nil {
					r.problem(f[1], fp, "want a list of variable names")
				}
			case "timeout_ms", "timeoutMs":
				if f[1].Decode(&b.TimeoutMS) != nil || b.TimeoutMS < 1 {
					r.problem(f[1], fp, "want a positive number of milliseconds, got %s", kindName(f[1]))
				}
			case "runtime":
				if rt := r.str(f[1], fp); rt != "" && rt != "exec" {
					r.problem(f[1], fp, "%s: evalkit runs one-shot exec evals only", quote(rt))
				}
			case "sandbox":
				// Ignored by PromptKit for exec evals, too.
			default:
				r.problem(f[0], path, "field %s: unknown%s", quote(f[0].Value), suggest(f[0].Value, []string{"command", "args", "env", "timeout_ms", "runtime", "sandbox"}))
			}
		}
		if b.Command == "" {
			r.problem(v, path+".command", "required: the program to run")
		}
		d.Exec[name] = b
	}
}

// Roles of an entry.
type Role string

const (
	// RoleEval is a pack's eval.
	RoleEval Role = "eval"
	// RoleAssertion is a scenario's or an eval document's assertion.
	RoleAssertion Role = "assertion"
	// RoleValidator is a prompt's guardrail validator.
	RoleValidator Role = "validator"
)

var entryKeys = map[Role][]string{
	RoleEval:      {"id", "type", "trigger", "params", "description", "enabled", "sample_percentage", "metric", "threshold", "message", "when", "groups"},
	RoleAssertion: {"type", "params", "message", "when", "pass_threshold", "description"},
	RoleValidator: {"type", "params", "enabled", "fail_on_violation", "message"},
}

var (
	metricName = regexp.MustCompile(`^[a-zA-Z_:][a-zA-Z0-9_:]*$`)
	labelName  = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_]*$`)
)

// entries reads a list of evals, assertions or validators, each
// validated.
func (r *reader) entries(n *yaml.Node, path string, role Role) []Entry {
	if !r.list(n, path) {
		return nil
	}
	var out []Entry
	for i, item := range n.Content {
		item = resolve(item)
		at := fmt.Sprintf("%s[%d]", path, i)
		if !r.mapping(item, at) {
			continue
		}
		if e, ok := r.entry(item, at, role); ok {
			out = append(out, e)
		}
	}
	if role == RoleEval {
		seen := map[string]int{}
		for _, e := range out {
			if prev, dup := seen[e.ID]; dup && e.ID != "" {
				r.problems = append(r.problems, Problem{Line: e.Line, Path: path, Msg: fmt.Sprintf("id %s is given twice (lines %d and %d)", quote(e.ID), prev, e.Line)})
			}
			seen[e.ID] = e.Line
		}
	}
	return out
}

func (r *reader) entry(n *yaml.Node, at string, role Role) (Entry, bool) {
	before := len(r.problems)
	e := Entry{Role: role, Line: n.Line, Turn: -1}
	var paramsNode *yaml.Node
	for _, kv := range fields(n) {
		k, v := kv[0], kv[1]
		fp := at + "." + k.Value
		switch k.Value {
		case "id":
			e.ID = r.str(v, fp)
		case "type":
			e.Type = r.str(v, fp)
		case "trigger":
			e.Trigger = Trigger(r.str(v, fp))
			if e.Trigger != "" && !slices.Contains(triggers, e.Trigger) {
				r.problem(v, fp, "%s: want one of %s", quote(string(e.Trigger)), joinTriggers())
			}
		case "params":
			paramsNode = v
			if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
				continue
			}
			if r.mapping(v, fp) {
				if err := v.Decode(&e.Params); err != nil {
					r.problem(v, fp, "%v", strings.TrimPrefix(err.Error(), "yaml: "))
				}
			}
		case "description":
			e.Description = r.str(v, fp)
		case "message":
			e.Message = r.str(v, fp)
		case "enabled":
			var b bool
			if v.Decode(&b) != nil || v.Tag != "!!bool" {
				r.problem(v, fp, "want true or false, got %s", kindName(v))
			} else {
				e.Enabled = &b
			}
		case "fail_on_violation":
			// PromptKit ignores it too: a guardrail always enforces.
		case "sample_percentage":
			f, ok := r.number(v, fp)
			if ok && (f < 0 || f > 100) {
				r.problem(v, fp, "want a percentage from 0 to 100, got %v", f)
			} else if ok {
				e.SamplePercentage = &f
			}
		case "pass_threshold":
			f, ok := r.number(v, fp)
			if ok && (f < 0 || f > 1) {
				r.problem(v, fp, "want a pass rate from 0 to 1, got %v", f)
			} else if ok {
				e.PassThreshold = &f
			}
		case "groups":
			if err := v.Decode(&e.Groups); err != nil || v.Kind != yaml.SequenceNode {
				r.problem(v, fp, "want a list of group names")
			}
		case "when":
			e.When = r.when(v, fp)
		case "metric":
			e.Metric = r.metric(v, fp)
		case "threshold":
			e.Threshold = r.threshold(v, fp)
		default:
			r.problem(k, at, "field %s: unknown%s", quote(k.Value), suggest(k.Value, entryKeys[role]))
			continue
		}
		if !slices.Contains(entryKeys[role], k.Value) {
			r.problem(k, at, "field %s: not a %s field (%s)", quote(k.Value), role, strings.Join(entryKeys[role], ", "))
		}
	}
	if e.Type == "" {
		r.problem(n, at, "no type")
		return e, false
	}
	if role == RoleEval {
		if e.ID == "" {
			r.problem(n, at+".id", "required: a pack's eval needs an id")
		}
		if e.Trigger == "" {
			r.problem(n, at+".trigger", "required: when the eval runs (%s)", joinTriggers())
		}
	}
	if e.Params == nil {
		e.Params = map[string]any{}
	}
	e.lift()
	if role == RoleValidator && e.Direction != "" && !slices.Contains([]string{"input", "output", "both"}, e.Direction) {
		r.problem(paramsNode, at+".params.direction", "%s: want input, output or both (PromptKit falls back to output and logs a warning; evalkit refuses, so a typo never checks the wrong side)", quote(e.Direction))
	}
	if len(r.problems) == before {
		if err := e.validate(r.reg); err != nil {
			where, field := n, at
			var pe *assert.ParamError
			if errors.As(err, &pe) && paramsNode != nil {
				if key := keyNode(paramsNode, pe.Param); key != nil {
					where, field = key, at+".params."+pe.Param
				}
			} else if errors.Is(err, assert.ErrUnknownCheck) {
				field = at + ".type"
				if _, optIn := assert.OptInTypes()[e.Type]; !optIn {
					msg := err.Error()
					if i := strings.Index(msg, " (known: "); i >= 0 {
						msg = msg[:i] // the list is long; the hint says more
					}
					r.problem(where, field, "%s: if a runtime config binds it to a program, bind that config with promptkit.BindRuntimeConfig(reg, path) and give the registry to the loader", msg)
					return e, false
				}
			}
			r.problem(where, field, "%v", err)
		}
	}
	return e, len(r.problems) == before
}

// nearMiss reports a key evalkit does not read that is an edit or two
// from one it does (two for names of six letters or more): a misspelt
// "evals" or "assertions" would drop its checks without a word. Other
// keys are PromptKit's own (name, version, tools, ...) and are left alone.
func (r *reader) nearMiss(k *yaml.Node, path string, known ...string) {
	for _, name := range known {
		limit := 1
		if len(name) >= 6 {
			limit = 2
		}
		if k.Value != name && distance(k.Value, name) <= limit {
			r.problem(k, path, "field %s: unknown (did you mean %q?): the checks under it would never run", quote(k.Value), name)
			return
		}
	}
}

func keyNode(m *yaml.Node, name string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == name {
			return m.Content[i]
		}
	}
	return nil
}

func (r *reader) number(v *yaml.Node, path string) (float64, bool) {
	var f float64
	if v.Kind != yaml.ScalarNode || (v.Tag != "!!int" && v.Tag != "!!float") || v.Decode(&f) != nil || math.IsNaN(f) {
		r.problem(v, path, "want a number, got %s", kindName(v))
		return 0, false
	}
	return f, true
}

func (r *reader) when(v *yaml.Node, path string) *When {
	if !r.mapping(v, path) {
		return nil
	}
	w := &When{}
	for _, kv := range fields(v) {
		fp := path + "." + kv[0].Value
		switch kv[0].Value {
		case "tool_called":
			w.ToolCalled = r.str(kv[1], fp)
		case "tool_called_pattern":
			w.ToolCalledPattern = r.str(kv[1], fp)
			if _, err := regexp.Compile(w.ToolCalledPattern); err != nil {
				r.problem(kv[1], fp, "not a regular expression: %v", err)
			}
		case "any_tool_called":
			if kv[1].Decode(&w.AnyToolCalled) != nil || kv[1].Tag != "!!bool" {
				r.problem(kv[1], fp, "want true or false, got %s", kindName(kv[1]))
			}
		case "min_tool_calls":
			if kv[1].Decode(&w.MinToolCalls) != nil || kv[1].Tag != "!!int" || w.MinToolCalls < 0 {
				r.problem(kv[1], fp, "want a whole number, got %s", kindName(kv[1]))
			}
		default:
			r.problem(kv[0], path, "field %s: unknown%s", quote(kv[0].Value), suggest(kv[0].Value, []string{"tool_called", "tool_called_pattern", "any_tool_called", "min_tool_calls"}))
		}
	}
	return w
}

func (r *reader) metric(v *yaml.Node, path string) *Metric {
	if !r.mapping(v, path) {
		return nil
	}
	m := &Metric{}
	for _, kv := range fields(v) {
		fp := path + "." + kv[0].Value
		switch kv[0].Value {
		case "name":
			m.Name = r.str(kv[1], fp)
			if !metricName.MatchString(m.Name) {
				r.problem(kv[1], fp, "%s is not a Prometheus metric name", quote(m.Name))
			}
		case "type":
			m.Type = r.str(kv[1], fp)
			if !slices.Contains([]string{"gauge", "counter", "histogram", "boolean"}, m.Type) {
				r.problem(kv[1], fp, "%s: want gauge, counter, histogram or boolean", quote(m.Type))
			}
		case "labels":
			if err := kv[1].Decode(&m.Labels); err != nil {
				r.problem(kv[1], fp, "want a mapping of strings")
			}
			for k := range m.Labels {
				if !labelName.MatchString(k) || strings.HasPrefix(k, "__") {
					r.problem(kv[1], fp, "label %s is not a Prometheus label name", quote(k))
				}
			}
		case "range":
			var rg struct{ Min, Max *float64 }
			if err := kv[1].Decode(&rg); err != nil {
				r.problem(kv[1], fp, "want {min, max}")
			} else if rg.Min != nil && rg.Max != nil && *rg.Min > *rg.Max {
				r.problem(kv[1], fp, "min %v is above max %v", *rg.Min, *rg.Max)
			}
			m.Min, m.Max = rg.Min, rg.Max
		default:
			var x any
			_ = kv[1].Decode(&x)
			if m.Extra == nil {
				m.Extra = map[string]any{}
			}
			m.Extra[kv[0].Value] = x // PromptKit keeps other properties too
		}
	}
	if m.Name == "" {
		r.problem(v, path+".name", "required")
	}
	if m.Type == "" {
		r.problem(v, path+".type", "required")
	}
	return m
}

func (r *reader) threshold(v *yaml.Node, path string) *Threshold {
	if !r.mapping(v, path) {
		return nil
	}
	t := &Threshold{}
	for _, kv := range fields(v) {
		fp := path + "." + kv[0].Value
		switch kv[0].Value {
		case "min_score", "max_score":
			if f, ok := r.number(kv[1], fp); ok {
				if kv[0].Value == "min_score" {
					t.MinScore = &f
				} else {
					t.MaxScore = &f
				}
			}
		case "passed":
			var b bool
			if kv[1].Decode(&b) != nil || kv[1].Tag != "!!bool" || !b {
				r.problem(kv[1], fp, "only true is supported: the eval must pass (to require a failure, use an assertion on its score)")
			}
		default:
			r.problem(kv[0], path, "field %s: unknown%s", quote(kv[0].Value), suggest(kv[0].Value, []string{"passed", "min_score", "max_score"}))
		}
	}
	return t
}

func kindName(n *yaml.Node) string {
	if n == nil {
		return "nothing"
	}
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
			return quote(n.Value)
		}
		return n.Value
	}
	return "nothing"
}

// quote quotes s, bounded.
func quote(s string) string {
	if len(s) > 120 {
		return strconv.Quote(s[:120]) + "…"
	}
	return strconv.Quote(s)
}

// suggest names the known name nearest an unknown one.
func suggest(name string, known []string) string {
	best, bestD := "", 3
	for _, k := range known {
		if d := distance(name, k); d < bestD {
			best, bestD = k, d
		}
	}
	if best == "" {
		return " (known: " + strings.Join(known, ", ") + ")"
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

// distance is the edit distance of two names, 99 past 64 bytes (no
// suggestion is made for them).
func distance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return 99
	}
	return textnorm.EditDistance(a, b)
}
