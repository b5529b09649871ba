package judgeset

import (
	"encoding/json"
	"fmt"
	"math"
	"time"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/anthropicjudge"
	"github.com/evalkit-go/evalkit/internal/secret"
	"github.com/evalkit-go/evalkit/openaijudge"
)

// builtinKeyEnv is each built-in provider's own key variable, as its
// FromEnv reads it.
var builtinKeyEnv = map[string]string{"openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY"}

// A setting is one setting a built-in provider takes: how its value is
// checked, and whether nil (send none) is allowed.
type setting struct {
	kind     settingKind
	nullable bool
}

type settingKind int

const (
	number   settingKind = iota // a finite number >= 0
	integer                     // a whole number
	positive                    // a whole number >= 1
	retries                     // a whole number from 0 to 10
	duration                    // a Go duration string > 0: "30s", "2m"
)

// builtin is a provider evalkit ships: the settings it takes, and how a
// Config becomes its judge.
type builtin struct {
	settings map[string]setting
	// conflicts are pairs of settings that cannot both be given.
	conflicts [][2]string
	// build returns the judge, and the key variable it found empty.
	build func(c Config) (j evalkit.Judge, missingKey string)
}

var builtins = map[string]builtin{
	"openai": {
		settings: map[string]setting{
			"temperature":           {number, true},
			"seed":                  {integer, true},
			"max_tokens":            {positive, false},
			"max_completion_tokens": {positive, false},
			"max_retries":           {retries, false},
			"attempt_timeout":       {duration, false},
		},
		conflicts: [][2]string{{"max_tokens", "max_completion_tokens"}},
		build:     buildOpenAI,
	},
	"anthropic": {
		settings: map[string]setting{
			"temperature":     {number, true},
			"max_tokens":      {positive, false},
			"max_retries":     {retries, false},
			"attempt_timeout": {duration, false},
		},
		build: buildAnthropic,
	},
}

func buildOpenAI(c Config) (evalkit.Judge, string) {
	var opts []openaijudge.Option
	if c.Model != "" {
		opts = append(opts, openaijudge.WithModel(c.Model))
	}
	if c.BaseURL != "" {
		opts = append(opts, openaijudge.WithBaseURL(c.BaseURL))
	}
	if c.HTTPClient != nil {
		opts = append(opts, openaijudge.WithHTTPClient(c.HTTPClient))
	}
	for name, v := range c.Settings {
		switch name {
		case "temperature":
			if v == nil {
				opts = append(opts, openaijudge.WithoutTemperature())
			} else {
				f, _ := toFloat(v)
				opts = append(opts, openaijudge.WithTemperature(f))
			}
		case "seed":
			if v == nil {
				opts = append(opts, openaijudge.WithoutSeed())
			} else {
				n, _ := toInt(v)
				opts = append(opts, openaijudge.WithSeed(n))
			}
		case "max_tokens":
			n, _ := toInt(v)
			opts = append(opts, openaijudge.WithMaxTokens(int(n)))
		case "max_completion_tokens":
			n, _ := toInt(v)
			opts = append(opts, openaijudge.WithMaxCompletionTokens(int(n)))
		case "max_retries":
			n, _ := toInt(v)
			opts = append(opts, openaijudge.WithMaxRetries(int(n)))
		case "attempt_timeout":
			d, _ := toDuration(v)
			opts = append(opts, openaijudge.WithAttemptTimeout(d))
		}
	}
	missing := ""
	if c.APIKey != "" {
		opts = append(opts, openaijudge.WithAPIKey(c.APIKey))
	} else {
		missing = keyEnv(c)
	}
	return openaijudge.New(opts...), missing
}

func buildAnthropic(c Config) (evalkit.Judge, string) {
	var opts []anthropicjudge.Option
	if c.Model != "" {
		opts = append(opts, anthropicjudge.WithModel(c.Model))
	}
	if c.BaseURL != "" {
		opts = append(opts, anthropicjudge.WithBaseURL(c.BaseURL))
	}
	if c.HTTPClient != nil {
		opts = append(opts, anthropicjudge.WithHTTPClient(c.HTTPClient))
	}
	for name, v := range c.Settings {
		switch name {
		case "temperature":
			if v == nil {
				opts = append(opts, anthropicjudge.WithoutTemperature())
			} else {
				f, _ := toFloat(v)
				opts = append(opts, anthropicjudge.WithTemperature(f))
			}
		case "max_tokens":
			n, _ := toInt(v)
			opts = append(opts, anthropicjudge.WithMaxTokens(int(n)))
		case "max_retries":
			n, _ := toInt(v)
			opts = append(opts, anthropicjudge.WithMaxRetries(int(n)))
		case "attempt_timeout":
			d, _ := toDuration(v)
			opts = append(opts, anthropicjudge.WithAttemptTimeout(d))
		}
	}
	missing := ""
	if c.APIKey != "" {
		opts = append(opts, anthropicjudge.WithAPIKey(c.APIKey))
	} else {
		missing = keyEnv(c)
	}
	return anthropicjudge.New(opts...), missing
}

// keyEnv is the variable a built-in judge's key is read from.
func keyEnv(c Config) string {
	if c.APIKeyEnv != "" {
		return c.APIKeyEnv
	}
	return builtinKeyEnv[c.Provider]
}

// check returns what is wrong with a value of the setting, or "".
func (s setting) check(v any) string {
	if v == nil {
		if s.nullable {
			return ""
		}
		return "cannot be null: give a value, or leave the setting out for the provider's default"
	}
	switch s.kind {
	case number:
		f, ok := toFloat(v)
		if !ok || f < 0 {
			return fmt.Sprintf("want a number of at least 0, got %s", valueText(v))
		}
	case integer:
		if _, ok := toInt(v); !ok {
			return fmt.Sprintf("want a whole number, got %s", valueText(v))
		}
	case positive:
		if n, ok := toInt(v); !ok || n < 1 {
			return fmt.Sprintf("want a whole number of at least 1, got %s", valueText(v))
		}
	case retries:
		if n, ok := toInt(v); !ok || n < 0 || n > openaijudge.MaxRetries {
			return fmt.Sprintf("want a whole number from 0 to %d, got %s", openaijudge.MaxRetries, valueText(v))
		}
	case duration:
		if _, ok := toDuration(v); !ok {
			return fmt.Sprintf("want a duration such as \"30s\" or \"2m\", got %s", valueText(v))
		}
	}
	return ""
}

// toFloat reads a finite number of any Go or JSON number type.
func toFloat(v any) (float64, bool) {
	var f float64
	switch n := v.(type) {
	case float64:
		f = n
	case float32:
		f = float64(n)
	case int:
		f = float64(n)
	case int8:
		f = float64(n)
	case int16:
		f = float64(n)
	case int32:
		f = float64(n)
	case int64:
		f = float64(n)
	case uint:
		f = float64(n)
	case uint8:
		f = float64(n)
	case uint16:
		f = float64(n)
	case uint32:
		f = float64(n)
	case uint64:
		f = float64(n)
	case json.Number:
		x, err := n.Float64()
		if err != nil {
			return 0, false
		}
		f = x
	default:
		return 0, false
	}
	return f, !math.IsNaN(f) && !math.IsInf(f, 0)
}

// toInt reads a whole number of any number type that fits an int64 exactly
// (7 and 7.0, not 7.5).
func toInt(v any) (int64, bool) {
	switch n := v.(type) {
	case int:
		return int64(n), true
	case int64:
		return n, true
	case int32:
		return int64(n), true
	case json.Number:
		if i, err := n.Int64(); err == nil {
			return i, true
		}
	}
	f, ok := toFloat(v)
	if !ok || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
		return 0, false
	}
	return int64(f), true
}

func toDuration(v any) (time.Duration, bool) {
	s, ok := v.(string)
	if !ok {
		return 0, false
	}
	d, err := time.ParseDuration(s)
	return d, err == nil && d > 0
}

// valueText shows a value in an error: strings quoted, the rest as JSON,
// anything shaped like a credential redacted.
func valueText(v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		return secret.Clean(fmt.Sprintf("%v", v))
	}
	return secret.Clean(string(data))
}
