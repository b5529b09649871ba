package evalkit

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// ErrJudgeNotFound is wrapped by a JudgeSet's Lookup for a name the set
// does not hold, or when no name is given and the set has no default. The
// error lists the names the set holds. As MindTrial's error of the same
// name.
var ErrJudgeNotFound = errors.New("judge not found")

// ErrJudgeVariantNotFound is wrapped by a JudgeSet's Lookup for a variant
// the named judge does not have. The error lists the variants it has.
var ErrJudgeVariantNotFound = errors.New("judge variant not found")

// JudgeSet holds judges by name, each with named variants: "strict", and
// "strict" in its variant "cheap" (another model, another temperature).
// What selects a judge by name — a check's judge and variant params, a case
// file's judge and variant fields, assert.UseJudge — looks it up in a set.
// Package judgeset builds one from Go declarations or a config file; the
// interface is here so that packages assert and evaltest select judges
// without importing the real judges.
//
// The idea is MindTrial's judge configurations with run variants, and
// PromptKit's judge built from a provider spec.
type JudgeSet interface {
	// Lookup returns the judge named name in its variant variant: "" is
	// the judge as declared, with no variant applied. An empty name is the
	// set's default judge. The same name and variant give the same judge,
	// built once; Lookup is safe for concurrent use.
	//
	// Errors wrap ErrJudgeNotFound (an unknown name, or no name and no
	// default) or ErrJudgeVariantNotFound (an unknown variant), and list
	// what the set holds. A judge that cannot be built is an error too.
	Lookup(name, variant string) (Judge, error)
}

// NamedJudge is implemented by a judge that a JudgeSet holds: it knows its
// name and variant there ("" for none). Failure messages, results files and
// recordings name the judge by it (see ProvenanceOf).
type NamedJudge interface {
	JudgeName() (name, variant string)
}

// Provenance says which judge gave a verdict: its name and variant in a
// judge set, when it has them, and its Identity — provider, model, the
// effective settings and the prompt version. The verdict itself, raw
// answer and usage included, travels beside it. As MindTrial's semantic
// validation details (judge name, provider, variant, variant config).
type Provenance struct {
	// Name is the judge's name in its set; "" for a judge given directly.
	Name string `json:"name,omitempty"`
	// Variant is the judge's variant; "" for the judge as declared.
	Variant string `json:"variant,omitempty"`
	Identity
}

// ProvenanceOf returns j's provenance: its name and variant when it is a
// NamedJudge, its Identity when it is an Identifier. A judge that is
// neither (a fake, a closure) has the zero Provenance.
func ProvenanceOf(j Judge) Provenance {
	var p Provenance
	if n, ok := j.(NamedJudge); ok {
		p.Name, p.Variant = n.JudgeName()
	}
	if id, ok := j.(Identifier); ok {
		p.Identity = id.Identity()
	}
	return p
}

// Ref returns the judge's name and variant as a case file selects them:
// "strict", "strict/cheap"; "" for a judge without a name.
func (p Provenance) Ref() string {
	if p.Name == "" || p.Variant == "" {
		return p.Name
	}
	return p.Name + "/" + p.Variant
}

// String returns the provenance as a failure message's judge line shows it:
//
//	strict/cheap (openai gpt-4.1-mini, seed 1, temperature 0)
//
// the name and variant, then the provider, the model and the identity's
// settings, sorted by name; without a name, the part in parentheses alone.
func (p Provenance) String() string {
	var parts []string
	if who := strings.TrimSpace(p.Provider + " " + p.Model); who != "" {
		parts = append(parts, who)
	}
	keys := make([]string, 0, len(p.Settings))
	for k := range p.Settings {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		parts = append(parts, k+" "+settingText(p.Settings[k]))
	}
	what := strings.Join(parts, ", ")
	switch {
	case p.Name == "":
		return what
	case what == "":
		return p.Ref()
	}
	return p.Ref() + " (" + what + ")"
}

// settingText writes a setting's value briefly: numbers in their shortest
// form, strings as they are, anything else as JSON.
func settingText(v any) string {
	switch v := v.(type) {
	case nil:
		return "none"
	case string:
		return v
	case float64:
		return strconv.FormatFloat(v, 'g', -1, 64)
	case float32:
		return strconv.FormatFloat(float64(v), 'g', -1, 32)
	case json.Number:
		return v.String()
	case bool, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return fmt.Sprint(v)
	}
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(data)
}
