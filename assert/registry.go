package assert

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/internal/textnorm"
)

// Registry maps check type names to checks built from declarative
// parameters, as a case file or PromptKit pack names them:
//
//	c, err := assert.NewRegistry().Build("contains", map[string]any{"patterns": []any{"refund"}})
//
// It holds PromptKit's type names and aliases (content_includes,
// content_matches, valid_json, tool_called, the _session variants, ...). A
// Registry is safe for concurrent use. Nothing registers itself: a new
// Registry starts with the built-in checks, and users add their own with
// Register. Judged checks (llm_judge, ...) ask the registry's judge, set
// with WithJudge, or the one their judge and variant params name in its
// judge set (WithJudgeSet).
type Registry struct {
	mu      sync.RWMutex
	entries map[string]entry
	judge   evalkit.Judge
	tools   ToolExecutor // what tool_exec runs tools with; see WithTools
	shared  *Registry    // for a registry made by WithJudge or WithTools, the one holding the entries
	// embedder is what embedding checks ask (see WithEmbedder).
	embedder evalkit.Embedder
	wiring   // classifiers, allowed environment, HTTP client: see wiring.go
	// judges is where judge and variant params look judges up (see
	// WithJudgeSet); reads, on a registry made for one check's build, note
	// that the check asked for its judge: the last is the check's own,
	// those before it the checks' that wrap it (an assertion's).
	judges evalkit.JudgeSet
	reads  []*atomic.Bool
	// built holds the checks Eval built, on the registry holding the
	// entries (see buildcache.go).
	built builtCache
}

type entry struct {
	build  func(*params) (Check, error)
	target string // the canonical name, for aliases and error messages
	scope  Scope  // a scope fixed by a "_session" alias
	user   bool   // added with Register: its params are its own
}

// NewRegistry returns a registry holding every built-in check and alias.
func NewRegistry() *Registry {
	r := &Registry{entries: map[string]entry{}}
	for _, table := range append([]map[string]func(*params) (Check, error){textChecks(), jsonChecks(), toolChecks(), judgedChecks(), equalsChecks(), consistentChecks()}, metricTables()...) {
		for name, build := range table {
			r.entries[name] = entry{build: build, target: name}
		}
	}
	for alias, target := range map[string]string{
		"content_includes":     "contains",
		"content_includes_any": "contains_any",
		"content_matches":      "regex",
		"content_not_includes": "content_excludes",
		"banned_words":         "content_excludes",
		"is_valid_json":        "json_valid",
		"valid_json":           "json_valid",
		"required_fields":      "field_presence",
		"length":               "max_length",
		"tool_called":          "tools_called",
		"exact_match":          "equals",
	} {
		r.entries[alias] = entry{build: r.entries[target].build, target: target}
	}
	for _, target := range []string{"tools_called", "tools_not_called", "tool_args", "llm_judge"} {
		r.entries[target+"_session"] = entry{build: r.entries[target].build, target: target, scope: Session}
	}
	r.entries["llm_judge_conversation"] = entry{build: r.entries["llm_judge"].build, target: "llm_judge", scope: Session}

	// Trajectory checks, their aliases and _session names (trajectory.go).
	addTrajectoryChecks(r)

	// Agents, skills, workflows, compositions, guardrails, budgets,
	// measures and similarity (agents.go ... similarity.go). The media
	// checks live in package assert/media, which registers them on a
	// registry its user makes: their decoders stay out of other builds.
	for _, table := range []map[string]func(*params) (Check, error){agentChecks(), workflowChecks(), compositionChecks(), guardrailChecks(), budgetChecks(), measureChecks(), similarityChecks()} {
		for name, build := range table {
			r.entries[name] = entry{build: build, target: name}
		}
	}
	r.entries["workflow_spoke_in_state"] = entry{build: buildSpokeInState, target: "spoke_in_state"}
	r.entries["max_sentences"] = entry{build: buildMaxSentences, target: "sentence_count"}
	// PromptKit's handler docs name these two state_is and transitioned_to.
	r.entries["state_is"] = entry{build: buildWorkflowStateIs, target: "workflow_state_is"}
	r.entries["transitioned_to"] = entry{build: buildWorkflowTransitionedTo, target: "workflow_transitioned_to"}

	// Metrics, classifiers and external evaluators (wiring.go).
	for alias, target := range metricAliases {
		r.entries[alias] = entry{build: r.entries[target].build, target: target}
	}
	for _, target := range metricSessions {
		r.entries[target+"_session"] = entry{build: r.entries[target].build, target: target, scope: Session}
	}
	return r
}

// WithJudge returns a registry whose judged checks (llm_judge,
// llm_judge_session, llm_judge_tool_calls, the model-graded metrics, and
// assertions wrapping them)
// ask j. It shares r's check types: a type registered on either is
// registered on both; and keeps r's classifiers, allowed environment and
// HTTP client (wiring.go). Without a judge, building a judged check is an error
// wrapping ErrNoJudge.
func (r *Registry) WithJudge(j evalkit.Judge) *Registry {
	d := r.derive()
	d.judge = j
	return d
}

// derive returns a registry sharing r's check types and keeping what r
// asks (judge, tools, embedder, and the wiring of wiring.go), for the With methods to change one of.
func (r *Registry) derive() *Registry {
	return &Registry{judge: r.judge, tools: r.toolsOrNil(), embedder: r.embedderOrNil(), judges: r.judges, shared: r.table(), wiring: r.wiring.clone()}
}

// table is the registry holding the entries.
func (r *Registry) table() *Registry {
	if r.shared != nil {
		return r.shared
	}
	return r
}

// judgeOrNil is the judge a judged check asks; every judged check's build
// reads it here, so a judge param on a check that asks none is caught.
func (r *Registry) judgeOrNil() evalkit.Judge {
	if r == nil {
		return nil
	}
	for _, read := range r.reads {
		read.Store(true)
	}
	return r.judge
}

// Register adds a check type to r, a registry the caller made with
// NewRegistry: no other registry changes, and the built-in one behind
// assert.Eval and assert.Validate never does (registries made from r with
// WithJudge share its types). Nothing needs to register in init.
//
// build receives the parameters as given (YAML's map[any]any already
// turned into map[string]any) and returns the check or an error naming
// the parameter at fault (a *ParamError is best). It is the type's
// parameter validation too: Validate calls it, and discards the check. The
// check may be any type with a Check method; with a Describe method
// (Describer) too, reports state its criteria. Registering a name that
// exists, an alias included, is an error: a built-in type cannot be
// replaced. As PromptKit's custom eval handlers, without the global
// registry.
//
//	reg := assert.NewRegistry()
//	err := reg.Register("word_limit", func(params map[string]any) (assert.Check, error) { ... })
//	res, err := reg.Eval(ctx, "word_limit", tr, map[string]any{"max": 50})
func (r *Registry) Register(name string, build func(params map[string]any) (Check, error)) error {
	if name == "" || build == nil {
		return fmt.Errorf("assert: Register needs a name and a build function")
	}
	t := r.table()
	t.mu.Lock()
	defer t.mu.Unlock()
	if _, dup := t.entries[name]; dup {
		return fmt.Errorf("assert: check type %q is already registered", name)
	}
	t.entries[name] = entry{target: name, user: true, build: func(p *params) (Check, error) {
		for k := range p.m {
			p.known[k] = true // the user's build function judges its own parameters
		}
		return build(p.m)
	}}
	return nil
}

// Names returns every registered type name and alias, sorted.
func (r *Registry) Names() []string {
	t := r.table()
	t.mu.RLock()
	defer t.mu.RUnlock()
	names := make([]string, 0, len(t.entries))
	for n := range t.entries {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Build returns the check named checkType configured by params. An unknown
// type wraps ErrUnknownCheck (with the nearest known name); a bad, missing,
// misspelt or unknown parameter is a *ParamError naming it; an invalid
// regular expression, JSON Schema or JMESPath expression is a *ParamError
// on its parameter. Build validates everything that can be known before
// seeing a transcript, exactly as Validate does, and also needs the judge
// of a judged check (ErrNoJudge without one).
func (r *Registry) Build(checkType string, params map[string]any) (Check, error) {
	return r.build(checkType, params, false)
}

// Validate checks params for the check type checkType without building a
// check to run or running one: its errors are Build's (and so Eval's) —
// an unknown type (ErrUnknownCheck, with the nearest known name), a
// missing, wrong-typed or unknown parameter (a *ParamError naming it; a
// misspelt one, such as "patern", says "did you mean \"pattern\"?"), an
// invalid pattern, schema or query, a threshold that can never fail —
// except that a judged check needs no judge yet: a case file is checked
// when it is loaded, before any judge is wired. A type added with Register
// is validated by its build function. As PromptKit's ValidateParams, for
// every type.
func (r *Registry) Validate(checkType string, params map[string]any) error {
	_, err := r.build(checkType, params, true)
	return err
}

// build is Build; declaring is set by Validate, which checks parameters
// only (a judged check needs no judge).
func (r *Registry) build(checkType string, params map[string]any, declaring bool) (Check, error) {
	t := r.table()
	t.mu.RLock()
	e, ok := t.entries[checkType]
	t.mu.RUnlock()
	if !ok {
		return nil, r.unknown(checkType)
	}
	plain, err := plainParams(checkType, params)
	if err != nil {
		return nil, err
	}
	p := newParams(checkType, plain)
	p.forced = e.scope
	p.reg = r
	p.declaring = declaring
	var own *Registry // this check's: its judge named by its params, and whether it asks for one
	if !e.user {
		if own, err = r.checkJudge(p); err != nil {
			return nil, err
		}
		p.reg = own
	}
	c, err := e.build(p)
	if err != nil {
		return nil, err
	}
	if c == nil {
		return nil, fmt.Errorf("%s: the build function returned no check and no error", checkType)
	}
	if own != nil {
		if err := own.checkAsked(p); err != nil {
			return nil, err
		}
	}
	if err := p.finish(); err != nil {
		return nil, err
	}
	if v, ok := c.(interface{ validate() error }); ok {
		if err := v.validate(); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// Eval builds the check and runs it on tr: Build's errors, then the
// check's.
func (r *Registry) Eval(ctx context.Context, checkType string, tr *evalkit.Transcript, params map[string]any) (Result, error) {
	c, err := r.evalCheck(checkType, params)
	if err != nil {
		return Result{}, err
	}
	return c.Check(ctx, tr)
}

var defaultRegistry = sync.OnceValue(NewRegistry)

// Eval runs the built-in check named checkType, configured by params, on tr.
// The error reports a check that could not be evaluated: an unknown type
// (ErrUnknownCheck), a bad parameter (*ParamError), no assistant output where
// one is needed (ErrNoOutput), an invalid pattern, schema or query.
func Eval(ctx context.Context, checkType string, tr *evalkit.Transcript, params map[string]any) (Result, error) {
	return defaultRegistry().Eval(ctx, checkType, tr, params)
}

// Validate checks params for the built-in check type checkType without
// running it (see Registry.Validate); Eval reports the same errors.
func Validate(checkType string, params map[string]any) error {
	return defaultRegistry().Validate(checkType, params)
}

// optIn are the check types of PromptKit's that evalkit keeps in a package
// of their own, which registers them on a registry its user makes: an
// unknown type among them says where it is and how to add it.
var optIn = map[string]string{
	"image_format": "assert/media", "image_dimensions": "assert/media", "audio_format": "assert/media",
	"audio_duration": "assert/media", "video_duration": "assert/media", "video_resolution": "assert/media",
}

// OptInTypes returns the check types that are not in the built-in registry
// but in an opt-in package, with the package's import path under the
// module ("assert/media").
func OptInTypes() map[string]string {
	out := make(map[string]string, len(optIn))
	for k, v := range optIn {
		out[k] = v
	}
	return out
}

func (r *Registry) unknown(name string) error {
	if pkg, ok := optIn[name]; ok {
		return fmt.Errorf("%w %q: it is in package github.com/evalkit-go/evalkit/%s, which keeps its decoders out of builds that do not check media: make the registry with %s.NewRegistry() (or %s.Register(reg)) and give it to evaltest.WithRegistry(reg)",
			ErrUnknownCheck, name, pkg, pkg[strings.LastIndex(pkg, "/")+1:], pkg[strings.LastIndex(pkg, "/")+1:])
	}
	best, bestDist := "", 4 // suggest only close names
	for _, n := range r.Names() {
		if abs(len(name)-len(n)) >= bestDist {
			continue // farther than bestDist, and a megabyte name costs no edit distance
		}
		if d := textnorm.EditDistance(name, n); d < bestDist {
			best, bestDist = n, d
		}
	}
	quoted := textnorm.Excerpt(name, maxQuoted)
	if best != "" {
		return fmt.Errorf("%w %q (did you mean %q?)", ErrUnknownCheck, quoted, best)
	}
	return fmt.Errorf("%w %q (known: %s)", ErrUnknownCheck, quoted, strings.Join(r.Names(), ", "))
}
