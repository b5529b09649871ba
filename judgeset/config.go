package judgeset

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/evalkit-go/evalkit/internal/inputs"
	"github.com/evalkit-go/evalkit/internal/secret"
	"github.com/evalkit-go/evalkit/internal/yamlcheck"
)

// Load reads the judge set in the config file at path, YAML or JSON (by
// its extension, .json; anything else reads as YAML), then applies opts:
//
//	default: strict                     # the judge a check that names none asks
//	judges:
//	  strict:
//	    provider: openai                # openai, anthropic, or WithProvider's
//	    model: gpt-4.1
//	    base_url: https://api.openai.com/v1
//	    api_key_env: OPENAI_API_KEY     # the variable's name: never the key
//	    prompt_version: evalkit-judge/1 # optional: pins the judge prompt
//	    settings: {temperature: 0, seed: 7}
//	    variants:
//	      cheap: {model: gpt-4.1-mini}
//	      warm: {settings: {temperature: 0.7}}
//	  claude:
//	    provider: anthropic
//	    model: claude-sonnet-4-5
//	    settings: {max_tokens: 512}
//
// Each judge's fields are a Spec's, each variant's a Variant's (see them
// for what each means and the settings each provider takes). The error
// lists every problem, each with its file, line and field —
//
//	judgeset: 2 problems:
//	testdata/judges.yaml:7: judges.strict.settings.temperatur: unknown openai setting (did you mean "temperature"?)
//	testdata/judges.yaml:9: judges.strict.api_key: a credential never goes in a judge set: name its environment variable with api_key_env
//
// — as a *ConfigError. A key given twice in any mapping, an alias inside
// the value it stands for, and aliases that expand the file beyond
// yamlcheck.MaxAliasNodes (1,000,000) nodes, are problems too (then
// nothing else of the file is read). The file must be a regular file (a
// FIFO is refused, never waited on) of at most 1 MiB
// (EVALKIT_MAX_JUDGE_SET_BYTES raises it). No judge is built, and no key
// read, until Lookup asks for it.
func Load(path string, opts ...Option) (*Set, error) {
	data, err := inputs.ReadFile(path, inputs.JudgeSet)
	if err != nil {
		return nil, fmt.Errorf("judgeset: %w", err)
	}
	return Parse(path, data, opts...)
}

// Parse reads a judge set from data as Load does; name is the file name
// its errors give, whose extension says JSON (.json) or YAML.
func Parse(name string, data []byte, opts ...Option) (*Set, error) {
	if strings.EqualFold(filepath.Ext(name), ".json") {
		// Read as YAML for the line numbers, but held to JSON's syntax.
		var v any
		if err := json.Unmarshal(data, &v); err != nil {
			var se *json.SyntaxError
			if errors.As(err, &se) {
				line := 1 + bytes.Count(data[:min(int(se.Offset), len(data))], []byte("\n"))
				return nil, &ConfigError{Problems: []string{fmt.Sprintf("%s:%d: %v", name, line, err)}}
			}
			return nil, &ConfigError{Problems: []string{fmt.Sprintf("%s: %v", name, err)}}
		}
	}
	p := &parser{file: name, lines: map[string]int{}}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	err := dec.Decode(&doc)
	switch {
	case errors.Is(err, io.EOF):
		return nil, &ConfigError{Problems: []string{name + ": empty: want a mapping with \"judges\""}}
	case err != nil:
		return nil, &ConfigError{Problems: []string{yamlProblem(name, err)}}
	}
	var extra yaml.Node
	if err := dec.Decode(&extra); !errors.Is(err, io.EOF) {
		return nil, &ConfigError{Problems: []string{fmt.Sprintf("%s:%d: a judge set is one document", name, extra.Line)}}
	}
	if ps := yamlcheck.Check(&doc, ""); len(ps) > 0 {
		// A key given twice or an alias bomb: what the file means is not
		// clear, so nothing of it is read.
		problems := make([]string, len(ps))
		for i, pr := range ps {
			problems[i] = fmt.Sprintf("%s:%d: %s", name, pr.Line, pr.Msg)
		}
		return nil, &ConfigError{Problems: problems}
	}
	specs, def := p.document(&doc)
	if len(specs) == 0 && len(p.problems) > 0 {
		return nil, &ConfigError{Problems: p.problems}
	}
	set, err := newSet(specs, def, p.locate, opts)
	if len(p.problems) == 0 {
		return set, err
	}
	// Every problem, those of the file's shape and those of what it
	// declares, in the order of their lines.
	problems := p.problems
	var ce *ConfigError
	if errors.As(err, &ce) {
		problems = append(problems, ce.Problems...)
	}
	slices.SortStableFunc(problems, func(a, b string) int { return cmp.Compare(lineOf(name, a), lineOf(name, b)) })
	return nil, &ConfigError{Problems: problems}
}

// lineOf reads the line of a problem "file:line: ..."; 0 for none.
func lineOf(file, problem string) int {
	rest, ok := strings.CutPrefix(problem, file+":")
	if !ok {
		return 0
	}
	num, _, _ := strings.Cut(rest, ":")
	n, _ := strconv.Atoi(num)
	return n
}

// parser reads a config file's YAML nodes, noting every problem and the
// line of every field it reads.
type parser struct {
	file     string
	lines    map[string]int // field path → line
	problems []string
}

func (p *parser) problem(n *yaml.Node, path, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if path != "" {
		msg = path + ": " + msg
	}
	p.problems = append(p.problems, fmt.Sprintf("%s:%d: %s", p.file, n.Line, msg))
}

// locate prefixes a field path with the file and the line it was read
// at, or the line of the nearest field around it.
func (p *parser) locate(path string) string {
	for at := path; at != ""; {
		if line, ok := p.lines[at]; ok {
			return fmt.Sprintf("%s:%d: %s", p.file, line, path)
		}
		i := strings.LastIndexAny(at, ".[")
		if i < 0 {
			break
		}
		at = at[:i]
	}
	return p.file + ": " + path
}

func resolve(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

// fields walks mapping n's fields at path, calling f with its key, value
// and path. Each is there once: yamlcheck.Check saw to it.
func (p *parser) fields(n *yaml.Node, path, what string, f func(k, v *yaml.Node, at string)) {
	if n.Kind != yaml.MappingNode {
		p.problem(n, path, "want %s, got %s", what, kindName(n))
		return
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], resolve(n.Content[i+1])
		at := k.Value
		if path != "" {
			at = path + "." + k.Value
		}
		p.lines[at] = k.Line
		f(k, v, at)
	}
}

func (p *parser) document(doc *yaml.Node) ([]Spec, string) {
	root := resolve(doc)
	if root.Kind == yaml.DocumentNode && len(root.Content) > 0 {
		root = resolve(root.Content[0])
	}
	var specs []Spec
	var def string
	judges := false
	p.fields(root, "", "a mapping with \"judges\"", func(k, v *yaml.Node, at string) {
		switch k.Value {
		case "default":
			def = p.str(v, at)
		case "judges":
			judges = true
			p.fields(v, at, "a mapping of judges by name", func(k, v *yaml.Node, at string) {
				specs = append(specs, p.spec(k.Value, v, at))
			})
		default:
			p.unknown(k, at, []string{"default", "judges"})
		}
	})
	if !judges && root.Kind == yaml.MappingNode {
		p.problem(root, "", "no \"judges\": want a mapping of judges by name")
	}
	return specs, def
}

var (
	specFields    = []string{"provider", "model", "base_url", "api_key_env", "prompt_version", "settings", "variants"}
	variantFields = []string{"model", "base_url", "api_key_env", "settings"}
)

func (p *parser) spec(name string, n *yaml.Node, path string) Spec {
	sp := Spec{Name: name}
	p.fields(n, path, "a judge (a mapping with provider, model, settings, variants)", func(k, v *yaml.Node, at string) {
		switch k.Value {
		case "provider":
			sp.Provider = p.str(v, at)
		case "model":
			sp.Model = p.str(v, at)
		case "base_url":
			sp.BaseURL = p.str(v, at)
		case "api_key_env":
			sp.APIKeyEnv = p.str(v, at)
		case "prompt_version":
			sp.PromptVersion = p.str(v, at)
		case "settings":
			sp.Settings = p.settings(v, at)
		case "variants":
			p.fields(v, at, "a mapping of variants by name", func(k, v *yaml.Node, at string) {
				sp.Variants = append(sp.Variants, p.variant(k.Value, v, at))
			})
		default:
			p.unknown(k, at, specFields)
		}
	})
	return sp
}

func (p *parser) variant(name string, n *yaml.Node, path string) Variant {
	vr := Variant{Name: name}
	p.fields(n, path, "a variant (a mapping with model, settings, ...)", func(k, v *yaml.Node, at string) {
		switch k.Value {
		case "model":
			vr.Model = p.str(v, at)
		case "base_url":
			vr.BaseURL = p.str(v, at)
		case "api_key_env":
			vr.APIKeyEnv = p.str(v, at)
		case "settings":
			vr.Settings = p.settings(v, at)
		case "provider":
			p.problem(k, at, "a variant keeps its judge's provider: declare another judge for another provider")
		default:
			p.unknown(k, at, variantFields)
		}
	})
	return vr
}

func (p *parser) settings(n *yaml.Node, path string) Settings {
	s := Settings{}
	p.fields(n, path, "a mapping of settings", func(k, v *yaml.Node, at string) {
		if v.Kind != yaml.ScalarNode {
			p.problem(v, at, "want a number, a string, a boolean or null, got %s", kindName(v))
			return
		}
		var val any
		if err := v.Decode(&val); err != nil {
			p.problem(v, at, "%v", strings.TrimPrefix(err.Error(), "yaml: "))
			return
		}
		s[k.Value] = val
	})
	return s
}

// unknown reports an unknown field: a credential's with what to do
// instead, any other with the nearest known name.
func (p *parser) unknown(k *yaml.Node, at string, known []string) {
	if secret.Field(k.Value) {
		p.problem(k, at, "a credential never goes in a judge set: name its environment variable with api_key_env")
		return
	}
	p.problem(k, at, "unknown field%s", nearestName(k.Value, known))
}

func (p *parser) str(v *yaml.Node, path string) string {
	if v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
		p.problem(v, path, "want a string, got %s", kindName(v))
		return ""
	}
	return v.Value
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
