package verdicts

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/evalkit-go/evalkit"
)

// Format is a declared verdict format: an evalkit.Format with its name,
// its source, the instructions a judge prompt gives, and the rule that
// reads it. The formats of this package are values; compare them by Name.
type Format struct {
	name, source, instructions string
	parse                      func(raw string, scale evalkit.Scale) (evalkit.Verdict, error)
}

// Name names the format and its version: "arena-hard/1".
func (f *Format) Name() string { return f.name }

// Source names where the format and its extraction rule come from.
func (f *Format) Source() string { return f.source }

// Instructions tell the judge how to write its verdict, for a prompt.
func (f *Format) Instructions() string { return f.instructions }

// Parse reads the verdict raw states, by the format's rule, on scale (the
// zero Scale is evalkit.DefaultScale). An answer the rule cannot read is
// an error wrapping evalkit.ErrUnreadableVerdict with the reason; an
// invalid scale is an error that does not wrap it.
func (f *Format) Parse(raw string, scale evalkit.Scale) (evalkit.Verdict, error) {
	scale = scale.OrDefault()
	if err := scale.Validate(); err != nil {
		return evalkit.Verdict{}, err
	}
	if strings.TrimSpace(raw) == "" {
		return evalkit.Verdict{}, unreadable(f.name, "the answer is empty")
	}
	if strings.TrimSpace(raw) == "$ERROR$" {
		return evalkit.Verdict{}, unreadable(f.name, "the judge call failed: the answer is FastChat's $ERROR$ marker, not a verdict")
	}
	v, err := f.parse(raw, scale)
	if err != nil {
		return evalkit.Verdict{}, err
	}
	v.Raw = raw
	return v, nil
}

// MarshalJSON writes the format as its name, so a request keys a
// recording by it.
func (f *Format) MarshalJSON() ([]byte, error) { return json.Marshal(f.name) }

// String returns the name.
func (f *Format) String() string { return f.name }

func unreadable(name string, format string, args ...any) error {
	return fmt.Errorf("%w: %s: %s", evalkit.ErrUnreadableVerdict, name, fmt.Sprintf(format, args...))
}

// quote quotes at most n bytes of s for a message.
func quote(s string, n int) string {
	if len(s) > n {
		cut := n
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
		return fmt.Sprintf("%q…", s[:cut])
	}
	return fmt.Sprintf("%q", s)
}

// tail quotes the end of s.
func tail(s string) string {
	s = strings.TrimSpace(s)
	if len(s) <= 80 {
		return fmt.Sprintf("%q", s)
	}
	cut := len(s) - 80
	for cut < len(s) && s[cut]&0xC0 == 0x80 {
		cut++
	}
	return fmt.Sprintf("…%q", s[cut:])
}

// Formats lists this package's fixed formats, for tables and tests.
func Formats() []*Format {
	return []*Format{MTBenchSingle, MTBenchPair, ArenaHard, PrometheusAbsolute, PrometheusRelative, VicunaPair, InspectGrade, JSONObject}
}

var errNoPreference = errors.New("the verdict states no preference")
