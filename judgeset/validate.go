package judgeset

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/evalkit-go/evalkit/internal/judgehttp"
	"github.com/evalkit-go/evalkit/internal/judgeprompt"
	"github.com/evalkit-go/evalkit/internal/secret"

	"github.com/evalkit-go/evalkit/internal/textnorm"
)

// ConfigError lists every problem of a judge set's declarations, one a
// line, each naming the field: "judges.strict.settings.temperatur: ...";
// from a config file, with its file and line first:
// "judges.yaml:7: judges.strict.settings.temperatur: ...".
type ConfigError struct {
	Problems []string
}

func (e *ConfigError) Error() string {
	if len(e.Problems) == 1 {
		return "judgeset: " + e.Problems[0]
	}
	return fmt.Sprintf("judgeset: %d problems:\n%s", len(e.Problems), strings.Join(e.Problems, "\n"))
}

var (
	// namePattern is what judge and variant names are made of: no "/",
	// which separates them in messages ("strict/cheap"), no space.
	namePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*$`)
	envPattern  = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)
)

// validator collects the problems of a set's declarations.
type validator struct {
	set      *Set
	loc      func(path string) string // "judges.strict" → "judges.yaml:4: judges.strict"
	problems []string
}

func (v *validator) problem(path, format string, args ...any) {
	v.problems = append(v.problems, v.loc(path)+": "+fmt.Sprintf(format, args...))
}

func (v *validator) err() error {
	if len(v.problems) == 0 {
		return nil
	}
	return &ConfigError{Problems: v.problems}
}

// providers lists the provider names a spec may use.
func (v *validator) providers() []string {
	names := slices.Collect(maps.Keys(builtins))
	for name := range v.set.opts.providers {
		if _, ok := builtins[name]; !ok {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}

func (v *validator) options() {
	for _, name := range slices.Sorted(maps.Keys(v.set.opts.providers)) {
		at := fmt.Sprintf("WithProvider(%q)", name)
		switch _, builtin := builtins[name]; {
		case builtin:
			v.problem(at, "the built-in provider cannot be replaced: give yours another name")
		case !namePattern.MatchString(name):
			v.problem(at, "want a name of letters, digits, \"_\", \"-\" and \".\"")
		case v.set.opts.providers[name] == nil:
			v.problem(at, "no Provider function")
		}
	}
	for _, p := range slices.Sorted(maps.Keys(v.set.opts.baseURLs)) {
		at := fmt.Sprintf("WithBaseURL(%q)", p)
		if _, ok := builtins[p]; !ok {
			v.problem(at, "not a built-in provider (%s): a provider of WithProvider reads Config.BaseURL from its specs", strings.Join(slices.Sorted(maps.Keys(builtins)), ", "))
			continue
		}
		v.baseURL(at, v.set.opts.baseURLs[p])
	}
}

// spec checks the i'th spec, whose path is judges.<name> (judges[i] when
// it has no usable name).
func (v *validator) spec(sp *Spec, i int) {
	path := fmt.Sprintf("judges[%d]", i)
	switch {
	case sp.Name == "":
		v.problem(path, "no name")
	case v.set.specs[sp.Name] != nil:
		v.problem(path, "the name %q is taken by another judge", sp.Name)
	case !namePattern.MatchString(sp.Name):
		path = "judges." + sp.Name
		v.problem(path, "name %q: want letters, digits, \"_\", \"-\" and \".\", starting with a letter or a digit", sp.Name)
	default:
		path = "judges." + sp.Name
	}
	b, builtin := builtins[sp.Provider]
	_, own := v.set.opts.providers[sp.Provider]
	switch {
	case sp.Provider == "":
		v.problem(path+".provider", "required (providers: %s)", strings.Join(v.providers(), ", "))
	case !builtin && !own:
		v.problem(path+".provider", "%q is not a provider (providers: %s)", sp.Provider, strings.Join(v.providers(), ", "))
	}
	v.baseURL(path+".base_url", sp.BaseURL)
	v.keyEnv(path+".api_key_env", sp.APIKeyEnv)
	if builtin && sp.PromptVersion != "" && sp.PromptVersion != judgeprompt.Version {
		v.problem(path+".prompt_version", "%q is not this evalkit's judge prompt, %q: its recorded verdicts no longer replay; re-record them, then set %q", sp.PromptVersion, judgeprompt.Version, judgeprompt.Version)
	}
	v.settings(path+".settings", sp.Provider, builtin, b, sp.Settings)
	v.conflicts(path+".settings", b, sp.Settings, nil, false)
	seen := map[string]bool{}
	for j, vr := range sp.Variants {
		vpath := fmt.Sprintf("%s.variants[%d]", path, j)
		switch {
		case vr.Name == "":
			v.problem(vpath, "no name")
		case seen[vr.Name]:
			v.problem(vpath, "the name %q is taken by another variant", vr.Name)
		case !namePattern.MatchString(vr.Name):
			vpath = path + ".variants." + vr.Name
			v.problem(vpath, "name %q: want letters, digits, \"_\", \"-\" and \".\", starting with a letter or a digit", vr.Name)
		default:
			vpath = path + ".variants." + vr.Name
		}
		seen[vr.Name] = true
		v.baseURL(vpath+".base_url", vr.BaseURL)
		v.keyEnv(vpath+".api_key_env", vr.APIKeyEnv)
		v.settings(vpath+".settings", sp.Provider, builtin, b, vr.Settings)
		v.conflicts(vpath+".settings", b, sp.Settings, vr.Settings, true)
	}
}

// settings checks one Settings: never a credential; for a built-in
// provider, only its settings, each with a value it takes; for another,
// plain values.
func (v *validator) settings(path, provider string, builtin bool, b builtin, s Settings) {
	for _, name := range slices.Sorted(maps.Keys(s)) {
		at, val := path+"."+name, s[name]
		switch {
		case secret.Field(name):
			v.problem(at, "a credential never goes in a judge set: name its environment variable with api_key_env")
		case builtin:
			st, ok := b.settings[name]
			if !ok {
				v.problem(at, "unknown %s setting%s", provider, nearestName(name, slices.Sorted(maps.Keys(b.settings))))
				continue
			}
			if msg := st.check(val); msg != "" {
				v.problem(at, "%s", msg)
			}
		default:
			switch val.(type) {
			case nil, bool, string:
			default:
				if _, ok := toFloat(val); !ok {
					v.problem(at, "want a number, a string, a boolean or null, got %s", valueText(val))
				}
			}
		}
	}
}

// conflicts checks the settings a judge (variant false) or a variant ends
// with: base, then over. A variant is told of a conflict only when it
// gives one of the two.
func (v *validator) conflicts(path string, b builtin, base, over Settings, variant bool) {
	eff := Settings{}
	maps.Copy(eff, base)
	maps.Copy(eff, over)
	for _, c := range b.conflicts {
		_, gives0 := over[c[0]]
		_, gives1 := over[c[1]]
		if variant && !gives0 && !gives1 {
			continue
		}
		if eff[c[0]] != nil && eff[c[1]] != nil {
			v.problem(path, "give %s or %s, not both", c[0], c[1])
		}
	}
}

// baseURL checks a base URL: http or https with a host, and no
// credential in it. Errors never show the URL whole.
func (v *validator) baseURL(path, raw string) {
	if raw == "" {
		return
	}
	u, err := judgehttp.ParseBaseURL(raw)
	switch {
	case err != nil:
		v.problem(path, "%v", err)
		return
	case u.Scheme != "http" && u.Scheme != "https" || u.Host == "":
		v.problem(path, "%q: want an http:// or https:// URL with a host", judgehttp.RedactedURL(u))
		return
	case u.User != nil:
		v.problem(path, "holds user information: a credential never goes in a judge set; name its environment variable with api_key_env")
		return
	}
	for name := range u.Query() {
		if secret.Name(name) {
			v.problem(path, "the query parameter %q may hold a credential, which never goes in a judge set: name its environment variable with api_key_env", name)
			return
		}
	}
	if len(secret.Find(raw)) > 0 {
		v.problem(path, "holds what looks like a credential, which never goes in a judge set: name its environment variable with api_key_env")
	}
}

// keyEnv checks an api_key_env: a variable's name, never a key.
func (v *validator) keyEnv(path, name string) {
	if name == "" {
		return
	}
	if len(secret.Find(name)) > 0 || !envPattern.MatchString(name) {
		v.problem(path, "want the name of the environment variable that holds the key, such as OPENAI_API_KEY (the value is not shown: a key never goes in a judge set)")
	}
}

// nearestName suggests the known name nearest an unknown one, or lists
// them all.
func nearestName(name string, known []string) string {
	best, bestD := "", 3
	for _, k := range known {
		if d := textnorm.EditDistance(name, k); d < bestD {
			best, bestD = k, d
		}
	}
	if best == "" {
		return " (known: " + strings.Join(known, ", ") + ")"
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

// meant is "did you mean "x"? " for the known name nearest an unknown
// one, or "" when none is near.
func meant(name string, known []string) string {
	best, bestD := "", 3
	for _, k := range known {
		if len(name)-len(k) >= bestD || len(k)-len(name) >= bestD {
			continue // too far in length to be near: a long name costs nothing
		}
		if d := textnorm.EditDistance(name, k); d < bestD {
			best, bestD = k, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf("did you mean %q? ", best)
}
