package assert

import (
	"context"
	"fmt"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/internal/fold"
	"github.com/evalkit-go/evalkit/internal/textnorm"
)

func textChecks() map[string]func(*params) (Check, error) {
	return map[string]func(*params) (Check, error){
		"contains":         buildContains,
		"contains_any":     buildContainsAny,
		"content_excludes": buildContentExcludes,
		"regex":            buildRegex,
		"min_length":       buildMinLength,
		"max_length":       buildMaxLength,
	}
}

// Contains passes when the output contains every one of Patterns. Matching is
// case-insensitive with full Unicode case folding ("STRASSE" contains
// "straße") unless CaseSensitive is set; either way text and patterns are
// compared in Unicode NFC without invisible format characters (zero-width
// spaces, soft hyphens), and CRLF line endings read as LF.
// Score is the fraction of patterns found. With Turn scope (the default) it
// reads the last assistant message; with Session scope each pattern may
// appear in any assistant message. An empty list, and a pattern that is
// empty or only invisible format characters (it would match any text), is
// an error (a *ParamError on "patterns"); so for ContainsAny and
// ContentExcludes.
//
// Registry type "contains" (alias "content_includes"), params: patterns,
// case_sensitive, scope. As PromptKit's contains.
type Contains struct {
	Patterns      []string
	CaseSensitive bool
	Scope         Scope
}

func buildContains(p *params) (Check, error) {
	var c Contains
	var err error
	if c.Patterns, _, err = p.strs(true, "patterns"); err != nil {
		return nil, err
	}
	if c.CaseSensitive, _, err = p.boolean("case_sensitive"); err != nil {
		return nil, err
	}
	c.Scope, err = p.scope()
	return c, err
}

func (c Contains) validate() error { return needles("contains", c.Patterns) }

// Check implements Check.
func (c Contains) Check(_ context.Context, tr *evalkit.Transcript) (Result, error) {
	if err := c.validate(); err != nil {
		return Result{}, err
	}
	outs, err := outputs("contains", tr, c.Scope.or(Turn))
	if err != nil {
		return Result{}, err
	}
	m := newMatcher(c.Patterns, c.CaseSensitive)
	found := make([]bool, len(c.Patterns))
	for _, o := range outs {
		hay := m.prepare(o.text)
		for i := range c.Patterns {
			if !found[i] && m.index(hay, i) >= 0 {
				found[i] = true
			}
		}
	}
	var missing []string
	for i, ok := range found {
		if !ok {
			missing = append(missing, c.Patterns[i])
		}
	}
	score := ratio(len(c.Patterns)-len(missing), len(c.Patterns))
	if len(missing) == 0 {
		return pass(score, "found all "+strconv.Itoa(len(c.Patterns))+" patterns"), nil
	}
	return fail(score, "missing "+quoteList(missing), searched(outs)...), nil
}

// ContainsAny passes when some assistant message contains at least one of
// Patterns, matched as Contains matches. With Session scope (the default, as
// PromptKit's contains_any) it reads every assistant message; with Turn scope
// the last one. Score is 1 or 0.
//
// Registry type "contains_any" (alias "content_includes_any"), params:
// patterns, case_sensitive, scope.
type ContainsAny struct {
	Patterns      []string
	CaseSensitive bool
	Scope         Scope
}

func buildContainsAny(p *params) (Check, error) {
	c, err := buildContains(p)
	if err != nil {
		return nil, err
	}
	return ContainsAny(c.(Contains)), nil
}

func (c ContainsAny) validate() error { return needles("contains_any", c.Patterns) }

// Check implements Check.
func (c ContainsAny) Check(_ context.Context, tr *evalkit.Transcript) (Result, error) {
	if err := c.validate(); err != nil {
		return Result{}, err
	}
	outs, err := outputs("contains_any", tr, c.Scope.or(Session))
	if err != nil {
		return Result{}, err
	}
	m := newMatcher(c.Patterns, c.CaseSensitive)
	for _, o := range outs {
		hay := m.prepare(o.text)
		for i, pat := range c.Patterns {
			if at := m.index(hay, i); at >= 0 {
				return pass(1, fmt.Sprintf("found %q in %s", pat, o.label()),
					Detail{"found", m.quote(o.text, hay, at, len(m.needles[i]))}), nil
			}
		}
	}
	return fail(0, "none of "+quoteList(c.Patterns)+" found", searched(outs)...), nil
}

// ContentExcludes passes when no assistant message contains any of Patterns.
// With Session scope (the default, as PromptKit's content_excludes) it scans
// every assistant message; with Turn scope the last one. MatchWords restricts
// matches to whole words (PromptKit's match_mode: word_boundary), so "ass"
// does not match "assist"; a word character is a letter, digit, mark or
// underscore of any script (RE2's \b knows only ASCII), and in scripts
// written without spaces (Han, kana, Thai) patterns match anywhere. An empty
// message excludes everything; a transcript without an assistant message is
// an error, since a missing answer must not satisfy an exclusion. Score is 1
// or 0.
//
// Registry type "content_excludes" (aliases "content_not_includes",
// "banned_words"), params: patterns, case_sensitive, match_mode ("substring"
// or "word_boundary"), scope.
type ContentExcludes struct {
	Patterns      []string
	CaseSensitive bool
	MatchWords    bool
	Scope         Scope
}

func buildContentExcludes(p *params) (Check, error) {
	c, err := buildContains(p)
	if err != nil {
		return nil, err
	}
	ce := ContentExcludes{Patterns: c.(Contains).Patterns, CaseSensitive: c.(Contains).CaseSensitive, Scope: c.(Contains).Scope}
	mode, ok, err := p.str(false, "match_mode")
	switch {
	case err != nil:
		return nil, err
	case !ok || mode == "substring":
	case mode == "word_boundary":
		ce.MatchWords = true
	default:
		return nil, p.err("match_mode", "want \"substring\" or \"word_boundary\", got %q", mode)
	}
	return ce, nil
}

func (c ContentExcludes) validate() error { return needles("content_excludes", c.Patterns) }

// Check implements Check.
func (c ContentExcludes) Check(_ context.Context, tr *evalkit.Transcript) (Result, error) {
	if err := c.validate(); err != nil {
		return Result{}, err
	}
	outs, err := outputs("content_excludes", tr, c.Scope.or(Session))
	if err != nil {
		return Result{}, err
	}
	m := newMatcher(c.Patterns, c.CaseSensitive)
	var words []*regexp.Regexp
	if c.MatchWords {
		for _, needle := range m.needles {
			re, err := wordPattern(needle)
			if err != nil {
				return Result{}, err
			}
			words = append(words, re)
		}
	}
	var details []Detail
	for _, o := range outs {
		hay := m.prepare(o.text)
		for i, pat := range c.Patterns {
			at := -1
			if c.MatchWords {
				if loc := words[i].FindStringSubmatchIndex(hay); loc != nil {
					at = loc[2]
				}
			} else {
				at = m.index(hay, i)
			}
			if at >= 0 {
				details = append(details, Detail{"found", fmt.Sprintf("%q in %s: %s", pat, o.label(), m.quote(o.text, hay, at, len(m.needles[i])))})
			}
		}
	}
	if len(details) == 0 {
		return pass(1, fmt.Sprintf("none of %d patterns found in %s", len(c.Patterns), scopeWords(outs))), nil
	}
	const maxFound = 10
	if len(details) > maxFound {
		details = append(details[:maxFound], Detail{"found", fmt.Sprintf("… and %d more", len(details)-maxFound)})
	}
	return fail(0, "found excluded content", details...), nil
}

// wordPattern matches needle as a whole word: where the needle begins or ends
// with a letter, digit or underscore (in any script), the text next to it must
// not be one, so "ass" does not match "assist" but "дурак" matches in
// "ты дурак" and "#W123" matches in "order #W123." RE2's \b knows only ASCII
// letters, so it would never match a Cyrillic word. In scripts written without
// spaces (Han, kana, Thai) the needle matches as a substring. The needle is
// the capture group.
func wordPattern(needle string) (*regexp.Regexp, error) {
	expr := "(" + regexp.QuoteMeta(needle) + ")"
	if first, _ := utf8.DecodeRuneInString(needle); isWordRune(first) {
		expr = `(?:^|[^\p{L}\p{N}\p{M}_])` + expr
	}
	if last, _ := utf8.DecodeLastRuneInString(needle); isWordRune(last) {
		expr += `(?:$|[^\p{L}\p{N}\p{M}_])`
	}
	return compileRegex("content_excludes", "patterns", expr) // fails only past RE2's size limit
}

// isWordRune reports whether a needle edge of r needs a word boundary.
// Scripts written without spaces between words (Han, kana, Thai, ...) have no
// boundary to find, so there the needle matches as a substring.
func isWordRune(r rune) bool {
	if unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar) {
		return false
	}
	return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r)
}

// Regex passes when Pattern (Go RE2 syntax) matches the output, or with
// NoMatch when it does not. Semantics are RE2's: ^ and $ bind to the whole
// text unless the pattern sets (?m); matching is case-sensitive unless it sets
// (?i). A pattern that can match an empty string ("refund|", "x*", "\b\d*",
// "(?m)^$") is an error, since it would pass on any text; with NoMatch it is
// allowed, as `^\s*$` with NoMatch is a real check ("the answer is not
// blank"). A pattern no text could match ("[^\x00-\x{10FFFF}]", "$x": text
// after the end) is an error too, with or without NoMatch: it would pass,
// or fail, on any text. CRLF line endings read as LF, so (?m)^...$ works on
// Windows-style text. With Turn scope (the default) it reads the last assistant message;
// with Session scope some assistant message must match (with NoMatch, none
// may). Patterns compile once per process. Score is 1 or 0.
//
// Registry type "regex" (alias "content_matches"), params: pattern,
// expect_match (default true), scope. As PromptKit's regex.
type Regex struct {
	Pattern string
	NoMatch bool
	Scope   Scope
}

func buildRegex(p *params) (Check, error) {
	var c Regex
	var err error
	if c.Pattern, _, err = p.str(true, "pattern"); err != nil {
		return nil, err
	}
	expect, ok, err := p.boolean("expect_match")
	if err != nil {
		return nil, err
	}
	c.NoMatch = ok && !expect
	c.Scope, err = p.scope()
	return c, err
}

func (c Regex) validate() error {
	if c.Pattern == "" {
		return paramErr("regex", "pattern", "empty: an empty pattern matches any text")
	}
	if _, err := compileRegex("regex", "pattern", c.Pattern); err != nil {
		return err
	}
	if !c.NoMatch && canMatchEmpty(c.Pattern) {
		return paramErr("regex", "pattern", "%q can match an empty string, so it matches any text: require at least one character", c.Pattern)
	}
	return matchable("regex", "pattern", c.Pattern)
}

// matchable rejects a pattern that no text could match (see neverMatches):
// with NoMatch it would pass on any output, and without it fail on any.
func matchable(check, param, pattern string) error {
	if why := neverMatches(pattern); why != "" {
		return paramErr(check, param, "%s can never match any text (%s), so a check on it proves nothing", excerpt(pattern), why)
	}
	return nil
}

// neverMatches says why no text could hold a match of the pattern, or "":
// a character class holding no character ("[^\x00-\x{10FFFF}]"), text
// required after the end of the text ("$x", "\zx"), or before its start
// ("x\A"). It mirrors canMatchEmpty and is as sound: what it reports is
// impossible, and what it does not see (two line anchors, word boundaries)
// it leaves alone. The pattern must already compile.
func neverMatches(pattern string) string { return factsOf(pattern).never }

// regexFacts are what canMatchEmpty and neverMatches say of a pattern,
// worked out once per pattern: parsing it again on every check cost more
// than the match.
type regexFacts struct {
	empty bool   // canMatchEmpty
	never string // neverMatches
}

var (
	factsCache  sync.Map // pattern -> regexFacts
	factsCached atomic.Int64
)

func factsOf(pattern string) regexFacts {
	if f, ok := factsCache.Load(pattern); ok {
		return f.(regexFacts)
	}
	var f regexFacts
	if re, err := syntax.Parse(pattern, syntax.Perl); err == nil {
		re = re.Simplify()
		f = regexFacts{empty: nullable(re), never: impossible(re)}
	}
	if factsCached.Add(1) <= maxCachedRegexps {
		factsCache.Store(pattern, f)
	}
	return f
}

func impossible(re *syntax.Regexp) string {
	switch re.Op {
	case syntax.OpNoMatch:
		return "it holds a class of no characters"
	case syntax.OpCharClass:
		if len(re.Rune) == 0 {
			return "it holds a class of no characters"
		}
	case syntax.OpCapture, syntax.OpPlus:
		return impossible(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min > 0 {
			return impossible(re.Sub[0])
		}
	case syntax.OpAlternate:
		why := ""
		for _, sub := range re.Sub {
			if why = impossible(sub); why == "" {
				return ""
			}
		}
		return why
	case syntax.OpConcat:
		ended, consumed := false, false
		for _, sub := range re.Sub {
			if why := impossible(sub); why != "" {
				return why
			}
			for sub.Op == syntax.OpCapture {
				sub = sub.Sub[0]
			}
			switch {
			case sub.Op == syntax.OpBeginText && consumed:
				return "it requires text before the start of the text"
			case sub.Op == syntax.OpEndText:
				ended = true
			case minRunes(sub) > 0:
				if ended {
					return "it requires text after the end of the text"
				}
				consumed = true
			}
		}
	}
	return ""
}

// minRunes is the fewest characters a match of re consumes.
func minRunes(re *syntax.Regexp) int {
	switch re.Op {
	case syntax.OpLiteral:
		return len(re.Rune)
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return 1
	case syntax.OpCapture, syntax.OpPlus:
		return minRunes(re.Sub[0])
	case syntax.OpRepeat:
		return min(re.Min, 1<<16) * minRunes(re.Sub[0])
	case syntax.OpConcat:
		n := 0
		for _, sub := range re.Sub {
			n += minRunes(sub)
		}
		return n
	case syntax.OpAlternate:
		n := -1
		for _, sub := range re.Sub {
			if m := minRunes(sub); n < 0 || m < n {
				n = m
			}
		}
		return max(n, 0)
	}
	return 0 // empty, anchors, boundaries, star, quest, no match
}

// canMatchEmpty reports whether some match of the pattern could hold no
// characters, taking every anchor and boundary (^, $, \b) as satisfiable:
// "refund|", "x*", "\b\d*", "(?m)^$". Such a pattern proves nothing when it
// matches. The pattern must already compile.
func canMatchEmpty(pattern string) bool { return factsOf(pattern).empty }

func nullable(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary, syntax.OpStar, syntax.OpQuest:
		return true
	case syntax.OpLiteral:
		return len(re.Rune) == 0
	case syntax.OpCapture, syntax.OpPlus:
		return nullable(re.Sub[0])
	case syntax.OpRepeat:
		return re.Min == 0 || nullable(re.Sub[0])
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			if !nullable(sub) {
				return false
			}
		}
		return true
	case syntax.OpAlternate:
		for _, sub := range re.Sub {
			if nullable(sub) {
				return true
			}
		}
		return false
	}
	return false // character classes, any character, no match
}

// Check implements Check.
func (c Regex) Check(_ context.Context, tr *evalkit.Transcript) (Result, error) {
	if err := c.validate(); err != nil {
		return Result{}, err
	}
	re, _ := compileRegex("regex", "pattern", c.Pattern)
	outs, err := outputs("regex", tr, c.Scope.or(Turn))
	if err != nil {
		return Result{}, err
	}
	for _, o := range outs {
		loc := re.FindStringIndex(o.text)
		if loc == nil {
			continue
		}
		match := o.label() + " matched " + excerpt(o.text[loc[0]:loc[1]])
		if c.NoMatch {
			return fail(0, "pattern matched, want no match", Detail{"match", match}), nil
		}
		return pass(1, match), nil
	}
	if c.NoMatch {
		return pass(1, "no match in "+scopeWords(outs)), nil
	}
	return fail(0, "no match", searched(outs)...), nil
}

// regexCache holds compiled patterns by their text, at most maxCachedRegexps
// of them; past that, patterns compile and are not kept.
var (
	regexCache  sync.Map // pattern -> *regexp.Regexp
	regexCached atomic.Int64
)

const maxCachedRegexps = 10_000

// compileRegex compiles a pattern once per process; an invalid one is a
// *ParamError naming the check and the parameter that gave it.
func compileRegex(check, param, pattern string) (*regexp.Regexp, error) {
	if re, ok := regexCache.Load(pattern); ok {
		return re.(*regexp.Regexp), nil
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return nil, paramErr(check, param, "invalid regular expression: %v", err)
	}
	if regexCached.Add(1) <= maxCachedRegexps {
		regexCache.Store(pattern, re)
	}
	return re, nil
}

// MinLength passes when the output has at least Min characters (Unicode code
// points, after CRLF reads as LF; PromptKit counts bytes). Score is
// length/Min, capped at 1. With Turn scope (the default) it reads the last
// assistant message; with Session scope every assistant message that has text
// must pass, and the score is the fraction that does.
//
// Registry type "min_length", params: min (or min_characters, min_chars), scope.
type MinLength struct {
	Min   int
	Scope Scope
}

func buildMinLength(p *params) (Check, error) {
	n, _, err := p.count("min", "min_characters", "min_chars")
	if err != nil {
		return nil, err
	}
	s, err := p.scope()
	return MinLength{Min: n, Scope: s}, err
}

func (c MinLength) validate() error {
	if c.Min <= 0 {
		return paramErr("min_length", "min", "want a length > 0, got %d", c.Min)
	}
	return nil
}

// Check implements Check.
func (c MinLength) Check(_ context.Context, tr *evalkit.Transcript) (Result, error) {
	if err := c.validate(); err != nil {
		return Result{}, err
	}
	return lengthCheck("min_length", tr, c.Scope, func(n int) (bool, float64) {
		return n >= c.Min, float64(n) / float64(c.Min)
	}, fmt.Sprintf("want >= %d", c.Min))
}

// MaxLength passes when the output has at most Max characters, counted as
// MinLength counts. Score is Max/length, capped at 1.
//
// Registry type "max_length" (alias "length"), params: max (or
// max_characters, max_chars), scope.
type MaxLength struct {
	Max   int
	Scope Scope
}

func buildMaxLength(p *params) (Check, error) {
	n, _, err := p.count("max", "max_characters", "max_chars")
	if err != nil {
		return nil, err
	}
	s, err := p.scope()
	return MaxLength{Max: n, Scope: s}, err
}

func (c MaxLength) validate() error {
	if c.Max <= 0 {
		return paramErr("max_length", "max", "want a length > 0, got %d", c.Max)
	}
	return nil
}

// Check implements Check.
func (c MaxLength) Check(_ context.Context, tr *evalkit.Transcript) (Result, error) {
	if err := c.validate(); err != nil {
		return Result{}, err
	}
	return lengthCheck("max_length", tr, c.Scope, func(n int) (bool, float64) {
		if n == 0 {
			return true, 1
		}
		return n <= c.Max, float64(c.Max) / float64(n)
	}, fmt.Sprintf("want <= %d", c.Max))
}

func lengthCheck(check string, tr *evalkit.Transcript, scope Scope, judge func(n int) (bool, float64), want string) (Result, error) {
	outs, err := outputs(check, tr, scope.or(Turn))
	if err != nil {
		return Result{}, err
	}
	if scope.or(Turn) == Session {
		outs = withText(outs)
	}
	var failed []Detail
	total := 0.0
	lengths := make([]int, len(outs))
	for i, o := range outs {
		n := utf8.RuneCountInString(o.text)
		lengths[i] = n
		ok, score := judge(n)
		total += clamp01(score)
		if !ok {
			failed = append(failed, Detail{"got", fmt.Sprintf("%d characters in %s", n, o.label())})
		}
	}
	if len(outs) == 1 {
		ok, score := judge(lengths[0])
		summary := fmt.Sprintf("%d characters, %s", lengths[0], want)
		if ok {
			return pass(score, summary), nil
		}
		return fail(score, summary, emptyNote(outs[0])...), nil
	}
	if len(outs) == 0 {
		return fail(0, "no assistant message has text"), nil
	}
	score := total / float64(len(outs))
	if len(failed) == 0 {
		return pass(score, fmt.Sprintf("all %d assistant messages %s characters", len(outs), strings.TrimPrefix(want, "want "))), nil
	}
	return fail(score, fmt.Sprintf("%d of %d assistant messages fail, %s", len(failed), len(outs), want), failed...), nil
}

// needles rejects pattern lists that would pass vacuously: an empty list
// ("any of nothing"), an empty pattern (every text contains "", and a
// trailing comma in a list makes one), or one made only of invisible
// format characters (U+200B, a soft hyphen, a BOM, U+2060...), which the
// search removes as it removes them from the text, leaving "".
func needles(check string, patterns []string) error {
	if len(patterns) == 0 {
		return paramErr(check, "patterns", "empty list: give at least one pattern")
	}
	for i, p := range patterns {
		switch {
		case p == "":
			return paramErr(check, "patterns", "item %d is empty: an empty pattern matches any text", i)
		case fold.Canonical(p) == "":
			return paramErr(check, "patterns", "item %d, %s, is only invisible characters (%s): the search ignores them, "+
				"so it would be empty and match any text", i, excerpt(p), formatChars(p))
		}
	}
	return nil
}

// matcher searches for patterns with or without Unicode case folding.
type matcher struct {
	fold    bool
	needles []string
}

func newMatcher(patterns []string, caseSensitive bool) matcher {
	m := matcher{fold: !caseSensitive, needles: make([]string, len(patterns))}
	for i, p := range patterns {
		m.needles[i] = m.prepare(textnorm.Newlines(p))
	}
	return m
}

// prepare puts text in the form needles are searched in: canonical (NFC,
// no invisible format characters), and case-folded unless case-sensitive.
func (m matcher) prepare(text string) string {
	if m.fold {
		return fold.Fold(text)
	}
	return fold.Canonical(text)
}

func (m matcher) index(hay string, i int) int { return strings.Index(hay, m.needles[i]) }

// quote shows the match at bytes [at, at+n) of hay, text prepared, as
// text says it: the folded match mapped back to the bytes it came from
// ("İİ ERROR" where the folded text reads "i̇i̇ error"), with some context
// on either side; the folded text only when it cannot be mapped back.
func (m matcher) quote(text, hay string, at, n int) string {
	if i, j, ok := fold.Original(text, m.fold, at, at+n); ok {
		return snippet(text, i, j-i)
	}
	return snippet(hay, at, n)
}

// snippet shows a match with some context on either side.
func snippet(s string, at, n int) string {
	const ctx = 40
	start, end := max(0, at-ctx), min(len(s), at+n+ctx)
	for start > 0 && !utf8.RuneStart(s[start]) {
		start--
	}
	for end < len(s) && !utf8.RuneStart(s[end]) {
		end++
	}
	// Not inside a key: the redactor could not tell its piece from text.
	if start > 0 {
		start = min(textnorm.Cut(s, start, true), at)
	}
	end = max(textnorm.Cut(s, end, false), at+n)
	out := fmt.Sprintf("%q", s[start:end])
	if start > 0 {
		out = "…" + out
	}
	if end < len(s) {
		out += "…"
	}
	return out
}

// searched describes what a failed text check read, for its details.
func searched(outs []output) []Detail {
	if len(outs) == 1 {
		if note := emptyNote(outs[0]); note != nil {
			return note
		}
		return []Detail{{"output", excerpt(outs[0].text)}}
	}
	return []Detail{{"searched", scopeWords(outs)}}
}

func scopeWords(outs []output) string {
	if len(outs) == 1 {
		return outs[0].label()
	}
	withText := 0
	for _, o := range outs {
		if o.text != "" {
			withText++
		}
	}
	s := fmt.Sprintf("%d assistant messages", len(outs))
	if withText < len(outs) {
		s += fmt.Sprintf(" (%d with text, the others only called tools)", withText)
	}
	return s
}
