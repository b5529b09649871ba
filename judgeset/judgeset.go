package judgeset

import (
	"context"
	"fmt"
	"maps"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/internal/textnorm"
)

// ErrJudgeNotFound and ErrJudgeVariantNotFound are evalkit's (the same
// values), for errors.Is on what Lookup returns.
var (
	ErrJudgeNotFound        = evalkit.ErrJudgeNotFound
	ErrJudgeVariantNotFound = evalkit.ErrJudgeVariantNotFound
)

// Spec declares one judge of a set: which provider answers, with which
// model and settings, and its named variants.
type Spec struct {
	// Name names the judge: letters, digits, "_", "-" and ".", starting
	// with a letter or a digit ("strict", "gpt-judge.v2"). Required and
	// unique in the set.
	Name string
	// Provider is who answers: "openai" (any OpenAI-compatible
	// chat-completions server, see package openaijudge), "anthropic"
	// (Anthropic Messages, see package anthropicjudge), or a name given
	// with WithProvider. Required.
	Provider string
	// Model is the model asked to judge; "" is the provider's default
	// (openaijudge.DefaultModel, anthropicjudge.DefaultModel).
	Model string
	// BaseURL is the API's base URL; "" is the provider's default. It may
	// hold no credential: no user information, no query parameter named
	// like one. WithBaseURL overrides it for a whole provider.
	BaseURL string
	// APIKeyEnv names the environment variable holding the API key;
	// "" is the provider's own (OPENAI_API_KEY, ANTHROPIC_API_KEY). A key
	// itself never goes in a Spec or a config file. The variable is read
	// when the judge is built, and only a call to the live judge needs it:
	// replaying recorded verdicts runs without it.
	APIKeyEnv string
	// PromptVersion, when set, pins the judge prompt's version: a set
	// whose version is not this evalkit's (judgeprompt's, such as
	// "evalkit-judge/1") does not load, so a prompt change never passes
	// unnoticed. "" takes this evalkit's. A provider of WithProvider gets
	// it as given.
	PromptVersion string
	// Settings are the generation settings the judge sends, as the
	// provider names them. openai: temperature (default 0), seed (default
	// 1), max_tokens or max_completion_tokens, max_retries,
	// attempt_timeout ("30s"). anthropic: temperature (default 0),
	// max_tokens (default 1024), max_retries, attempt_timeout. A nil
	// value sends none: {"temperature": nil} for a model that takes only
	// its default. Settings of a WithProvider provider are its own.
	Settings Settings
	// Variants are the judge's named variants, each overriding some of
	// its fields: the same judge at another temperature, or with another
	// model.
	Variants []Variant
}

// Variant is a named variant of a judge: what it sets replaces the judge's
// own; Settings replace the judge's setting by setting, the others kept.
// Names follow Spec.Name's rules, unique in their judge.
type Variant struct {
	Name      string
	Model     string
	BaseURL   string
	APIKeyEnv string
	Settings  Settings
}

// Settings are generation settings by name: numbers, strings, booleans;
// nil removes a setting (see Spec.Settings).
type Settings map[string]any

// Config is a judge with its variant applied: what a Provider builds a
// judge from.
type Config struct {
	// Name and Variant say which judge of the set this is.
	Name, Variant string
	// Provider is the Spec's.
	Provider string
	// Model, BaseURL and APIKeyEnv are the variant's, else the judge's,
	// else "" (the provider's default); WithBaseURL's base URL replaces
	// BaseURL.
	Model, BaseURL, APIKeyEnv string
	// APIKey is the value of the variable APIKeyEnv names (or of the
	// provider's own, for the built-in providers), read when the judge is
	// built: "" when it is unset.
	APIKey string
	// PromptVersion is the Spec's.
	PromptVersion string
	// Settings are the effective settings: the judge's, then the
	// variant's over them. A nil value means "send none".
	Settings Settings
	// HTTPClient is WithHTTPClient's client, or nil.
	HTTPClient *http.Client
}

// Provider builds a judge from its Config; see WithProvider. It is called
// once per judge and variant, when Lookup first asks for them, and must
// not need a credential to succeed (read it when judging, as
// openaijudge.FromEnv does), so replays run without one.
type Provider func(c Config) (evalkit.Judge, error)

// Option configures a Set.
type Option func(*options)

type options struct {
	providers  map[string]Provider
	baseURLs   map[string]string
	httpClient *http.Client
	getenv     func(string) string
	def        string
}

// WithProvider adds a provider by name, for Specs (and config files) to
// name: a judge of the user's own, a gateway's client, a fake for tests.
// It belongs to this set alone: nothing is registered globally. The
// built-in names "openai" and "anthropic" cannot be replaced.
func WithProvider(name string, p Provider) Option {
	return func(o *options) { o.providers[name] = p }
}

// WithBaseURL sends every judge of provider ("openai", "anthropic") to
// baseURL, whatever its Spec says: a company gateway, or in tests a
// judgefake.NewServer (its URL+"/v1" for openai, its URL for anthropic).
// The base URL is not part of a judge's Identity, so recordings made
// through one replay through another.
func WithBaseURL(provider, baseURL string) Option {
	return func(o *options) { o.baseURLs[provider] = baseURL }
}

// WithHTTPClient makes the built-in judges send through c (see
// openaijudge.WithHTTPClient); providers get it in Config.HTTPClient.
func WithHTTPClient(c *http.Client) Option {
	return func(o *options) { o.httpClient = c }
}

// WithGetenv reads API keys with getenv instead of os.Getenv: a test's
// own environment, or a secret store.
func WithGetenv(getenv func(string) string) Option {
	return func(o *options) { o.getenv = getenv }
}

// WithDefault names the set's default judge: the one a check that names
// none asks. It overrides a config file's default.
func WithDefault(name string) Option {
	return func(o *options) { o.def = name }
}

// Set is a set of named judges with their variants: an evalkit.JudgeSet.
// Make one with New, Load or Parse. It is safe for concurrent use: each
// judge and variant is built once, when Lookup first asks for it, and
// reused.
type Set struct {
	specs  map[string]*Spec
	order  []string // names, sorted
	def    string
	opts   options
	mu     sync.Mutex
	built  map[ref]*build
	builds atomic.Int64 // judges built, for tests
}

type ref struct{ name, variant string }

type build struct {
	once  sync.Once
	judge *judge
	err   error
}

// New returns the set of specs: every spec and variant is checked — names,
// providers, settings, base URLs, key variables, prompt versions — and the
// error lists every problem found, each naming the field:
//
//	judgeset: 2 problems:
//	judges.strict.settings.temperatur: unknown openai setting (did you mean "temperature"?)
//	judges.claude.provider: "gemini" is not a provider (providers: anthropic, openai)
//
// No judge is built until Lookup asks for it.
func New(specs []Spec, opts ...Option) (*Set, error) {
	return newSet(specs, "", nil, opts)
}

func newSet(specs []Spec, def string, location func(string) string, opts []Option) (*Set, error) {
	o := options{providers: map[string]Provider{}, baseURLs: map[string]string{}}
	for _, opt := range opts {
		opt(&o)
	}
	if o.getenv == nil {
		o.getenv = os.Getenv
	}
	if o.def != "" {
		def = o.def
	}
	if location == nil {
		location = func(path string) string { return path }
	}
	s := &Set{specs: map[string]*Spec{}, def: def, opts: o, built: map[ref]*build{}}
	v := &validator{set: s, loc: location}
	v.options()
	for i := range specs {
		sp := &specs[i]
		v.spec(sp, i)
		if sp.Name != "" && s.specs[sp.Name] == nil {
			s.specs[sp.Name] = cloneSpec(sp)
		}
	}
	for name := range s.specs {
		s.order = append(s.order, name)
	}
	slices.Sort(s.order)
	if len(specs) == 0 {
		v.problem("judges", "empty: declare at least one judge")
	}
	if def != "" && s.specs[def] == nil && len(s.specs) > 0 {
		v.problem("default", "%q is not a judge of the set (judges: %s)", def, strings.Join(s.order, ", "))
	}
	if err := v.err(); err != nil {
		return nil, err
	}
	return s, nil
}

// Names returns the set's judge names, sorted.
func (s *Set) Names() []string { return slices.Clone(s.order) }

// Variants returns the variant names of the judge name, in declaration
// order; nil for an unknown judge.
func (s *Set) Variants(name string) []string {
	sp := s.specs[name]
	if sp == nil {
		return nil
	}
	out := make([]string, len(sp.Variants))
	for i, v := range sp.Variants {
		out[i] = v.Name
	}
	return out
}

// Default returns the default judge's name, "" when the set has none.
func (s *Set) Default() string { return s.def }

// Lookup returns the judge name in its variant variant ("": as declared;
// an empty name is the default judge), building it on first use and
// returning the same judge after. The judge is an evalkit.Judge, an
// evalkit.Identifier (the built judge's identity: what recordings key on —
// the name is not part of it) and an evalkit.NamedJudge.
//
// Errors: an unknown name wraps ErrJudgeNotFound and lists the set's
// judges —
//
//	judgeset: judge not found: "strikt" (did you mean "strict"? judges: claude, strict)
//
// — as does an empty name with no default; an unknown variant wraps
// ErrJudgeVariantNotFound and lists the judge's variants:
//
//	judgeset: judge variant not found: "chep" of judge "strict" (did you mean "cheap"? variants: cheap, warm)
//
// and a Provider's error building the judge is returned, each time.
func (s *Set) Lookup(name, variant string) (evalkit.Judge, error) {
	if name == "" {
		if s.def == "" {
			return nil, fmt.Errorf("judgeset: %w: no judge named and the set has no default (judges: %s)", ErrJudgeNotFound, strings.Join(s.order, ", "))
		}
		name = s.def
	}
	sp := s.specs[name]
	if sp == nil {
		return nil, fmt.Errorf("judgeset: %w: %s (%sjudges: %s)", ErrJudgeNotFound, textnorm.Quote(name, 120), meant(name, s.order), strings.Join(s.order, ", "))
	}
	var vr *Variant
	if variant != "" {
		for i := range sp.Variants {
			if sp.Variants[i].Name == variant {
				vr = &sp.Variants[i]
			}
		}
		if vr == nil {
			have, names := "none", s.Variants(name)
			if len(names) > 0 {
				have = strings.Join(names, ", ")
			}
			return nil, fmt.Errorf("judgeset: %w: %s of judge %q (%svariants: %s)", ErrJudgeVariantNotFound, textnorm.Quote(variant, 120), name, meant(variant, names), have)
		}
	}
	k := ref{name, variant}
	s.mu.Lock()
	b := s.built[k]
	if b == nil {
		b = &build{}
		s.built[k] = b
	}
	s.mu.Unlock()
	b.once.Do(func() {
		s.builds.Add(1)
		b.judge, b.err = s.build(s.config(sp, vr))
	})
	if b.err != nil {
		return nil, b.err
	}
	return b.judge, nil
}

// config applies the variant vr (nil for none) to sp.
func (s *Set) config(sp *Spec, vr *Variant) Config {
	c := Config{Name: sp.Name, Provider: sp.Provider, Model: sp.Model, BaseURL: sp.BaseURL, APIKeyEnv: sp.APIKeyEnv,
		PromptVersion: sp.PromptVersion, Settings: Settings{}, HTTPClient: s.opts.httpClient}
	maps.Copy(c.Settings, sp.Settings)
	if vr != nil {
		c.Variant = vr.Name
		if vr.Model != "" {
			c.Model = vr.Model
		}
		if vr.BaseURL != "" {
			c.BaseURL = vr.BaseURL
		}
		if vr.APIKeyEnv != "" {
			c.APIKeyEnv = vr.APIKeyEnv
		}
		maps.Copy(c.Settings, vr.Settings)
	}
	if u, ok := s.opts.baseURLs[sp.Provider]; ok {
		c.BaseURL = u
	}
	env := c.APIKeyEnv
	if env == "" {
		env = builtinKeyEnv[sp.Provider]
	}
	if env != "" {
		c.APIKey = s.opts.getenv(env)
	}
	return c
}

// build makes the judge of c, with the built-in provider or the set's own.
func (s *Set) build(c Config) (*judge, error) {
	j := &judge{name: c.Name, variant: c.Variant}
	if b, ok := builtins[c.Provider]; ok {
		j.inner, j.missing = b.build(c)
		return j, nil
	}
	inner, err := callProvider(s.opts.providers[c.Provider], c)
	if err != nil {
		return nil, fmt.Errorf("judgeset: building judge %s (provider %q): %w", j.ref(), c.Provider, err)
	}
	if inner == nil {
		return nil, fmt.Errorf("judgeset: building judge %s: provider %q returned no judge and no error", j.ref(), c.Provider)
	}
	j.inner = inner
	return j, nil
}

func callProvider(p Provider, c Config) (j evalkit.Judge, err error) {
	defer func() {
		if r := recover(); r != nil {
			j, err = nil, fmt.Errorf("the provider panicked: %v", r)
		}
	}()
	return p(c)
}

// judge is a judge of a set: the built judge, and its name and variant.
type judge struct {
	name, variant string
	inner         evalkit.Judge
	missing       string // the key variable found empty, for the built-in providers
}

func (j *judge) ref() string {
	if j.variant == "" {
		return j.name
	}
	return j.name + "/" + j.variant
}

// Judge asks the built judge. A built-in judge whose key variable was
// empty when it was built returns an error naming the judge and the
// variable, and asks nothing.
func (j *judge) Judge(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
	if j.missing != "" {
		return evalkit.Verdict{}, fmt.Errorf("judgeset: judge %s needs an API key in $%s, which is not set (for a local server that needs none, set it to any value)", j.ref(), j.missing)
	}
	return j.inner.Judge(ctx, req)
}

// Identity is the built judge's: the name and variant are not part of it,
// so renaming a judge keeps its recordings, and two variants with the same
// effective settings share theirs. A judge without an identity (a
// provider's fake) has the zero Identity, and is not recorded.
func (j *judge) Identity() evalkit.Identity {
	if id, ok := j.inner.(evalkit.Identifier); ok {
		return id.Identity()
	}
	return evalkit.Identity{}
}

// JudgeName implements evalkit.NamedJudge.
func (j *judge) JudgeName() (name, variant string) { return j.name, j.variant }

// String names the judge: "strict/cheap".
func (j *judge) String() string { return j.ref() }

// cloneSpec copies sp, so a caller changing its Spec after New changes
// nothing in the set.
func cloneSpec(sp *Spec) *Spec {
	c := *sp
	c.Settings = maps.Clone(sp.Settings)
	c.Variants = slices.Clone(sp.Variants)
	for i := range c.Variants {
		c.Variants[i].Settings = maps.Clone(c.Variants[i].Settings)
	}
	return &c
}

var (
	_ evalkit.JudgeSet   = (*Set)(nil)
	_ evalkit.NamedJudge = (*judge)(nil)
	_ evalkit.Identifier = (*judge)(nil)
)
