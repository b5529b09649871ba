package judgefake

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/evalkit-go/evalkit"
)

// Rules is a judge written as data: an ordered list of rules, the first of
// which that matches the request's Content decides the answer.
//
//	judge := judgefake.Rules{
//		{Keyword: "$ERROR$", Err: errors.New("judge API failed")},
//		{Pattern: `(?i)\brefund(ed)?\b`, Verdict: evalkit.Verdict{Score: 0.9, Scored: true}},
//		{Otherwise: true, Verdict: evalkit.Verdict{Score: 0.2, Scored: true}},
//	}
//
// A request no rule matches gets an error saying so; end the list with an
// Otherwise rule to give a default instead. Verdicts are made consistent
// with the request's scale as Fixed does.
//
// Every call checks the whole list first and returns one error naming
// every broken rule: one with none of Keyword, Pattern and Otherwise, one
// with Otherwise and a Keyword or Pattern, one whose Pattern does not
// compile. Rules is safe for concurrent use as long as nobody changes it.
type Rules []Rule

// Rule is one line of Rules.
type Rule struct {
	// Keyword matches when the request's Content contains it, byte for
	// byte (case matters).
	Keyword string
	// Pattern is a regular expression (Go's regexp syntax, RE2) that
	// matches when it matches anywhere in the request's Content. Use (?i)
	// for case-insensitive matching. When both Keyword and Pattern are
	// set, both must match.
	Pattern string
	// Otherwise makes the rule match every request: the default for
	// requests no earlier rule matched.
	Otherwise bool
	// Verdict is the answer when the rule decides.
	Verdict evalkit.Verdict
	// Err, when set, is returned instead of Verdict.
	Err error
}

// Judge validates req, returns the context's error if it is done, then
// answers as the first matching rule says.
func (rs Rules) Judge(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
	if err := begin(ctx, req); err != nil {
		return evalkit.Verdict{}, err
	}
	res, err := rs.compile()
	if err != nil {
		return evalkit.Verdict{}, err
	}
	for i, r := range rs {
		if !r.Otherwise {
			if r.Keyword != "" && !strings.Contains(req.Content, r.Keyword) {
				continue
			}
			if res[i] != nil && !res[i].MatchString(req.Content) {
				continue
			}
		}
		if r.Err != nil {
			return evalkit.Verdict{}, r.Err
		}
		v, err := onScale(r.Verdict, req.Scale.OrDefault())
		if err != nil {
			return evalkit.Verdict{}, fmt.Errorf("judgefake: Rules[%d] verdict: %w", i, err)
		}
		return v, nil
	}
	return evalkit.Verdict{}, fmt.Errorf("judgefake: none of %d rules matches the content %s; end Rules with {Otherwise: true, ...} for a default", len(rs), excerpt(req.Content, 80))
}

// compile checks every rule and compiles the patterns, index for index.
func (rs Rules) compile() ([]*regexp.Regexp, error) {
	res := make([]*regexp.Regexp, len(rs))
	var errs []error
	for i, r := range rs {
		switch {
		case r.Otherwise && (r.Keyword != "" || r.Pattern != ""):
			errs = append(errs, fmt.Errorf("judgefake: Rules[%d] sets Otherwise and a Keyword or Pattern; Otherwise matches everything", i))
		case !r.Otherwise && r.Keyword == "" && r.Pattern == "":
			errs = append(errs, fmt.Errorf("judgefake: Rules[%d] has no Keyword, Pattern or Otherwise, so it would match everything by accident", i))
		case r.Pattern != "":
			re, err := regexp.Compile(r.Pattern)
			if err != nil {
				errs = append(errs, fmt.Errorf("judgefake: Rules[%d] Pattern %q: %w", i, r.Pattern, err))
				continue
			}
			res[i] = re
		}
	}
	return res, errors.Join(errs...)
}

// excerpt quotes s, cut to about n bytes with a marker.
func excerpt(s string, n int) string {
	if len(s) <= n {
		return fmt.Sprintf("%q", s)
	}
	cut := n
	for cut > 0 && !isRuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%q… (%d bytes)", s[:cut], len(s))
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }
