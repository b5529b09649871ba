package assert

// Checks on what the tools answered: the text of their results and the
// media they returned.

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/evalkit-go/evalkit"
)

// resultScope is the calls a result check reads: those of tool (every call
// when tool is ""), in the order made.
type resultScope struct {
	sc    toolScope
	calls []int
	tool  string
}

func resultCalls(check, param string, tr *evalkit.Transcript, s Scope, tool string) (resultScope, error) {
	if tool != "" {
		if problem := toolNameProblem(tool); problem != "" {
			return resultScope{}, paramErr(check, param, "%s", problem)
		}
	}
	sc, err := scopedCalls(check, tr, s)
	if err != nil {
		return resultScope{}, err
	}
	if tool != "" {
		if err := undeclared(check, tr, toolRef{param, []string{tool}}); err != nil {
			return resultScope{}, err
		}
	}
	rs := resultScope{sc: sc, tool: tool}
	for i, c := range sc.calls {
		if tool == "" || c.Name == tool {
			rs.calls = append(rs.calls, i)
		}
	}
	return rs, nil
}

// none is the failure of a result check that found no call to read.
func (rs resultScope) none() Result {
	summary := "no tool calls"
	if rs.tool != "" {
		summary = quoteName(rs.tool) + " was not called"
	}
	return fail(0, summary, rs.sc.withScope([]Detail{calledDetail(rs.sc.calls)})...)
}

// of names the calls read: "calls to search", "tool calls".
func (rs resultScope) of(n int) string {
	if rs.tool == "" {
		return plural(n, "tool result")
	}
	return plural(n, "result") + " of " + shortName(rs.tool)
}

// occurrenceResult grades a count of matching results against the number
// wanted.
func (rs resultScope) occurrenceResult(matched, want int, what string, misses []Detail) Result {
	score := min(1, ratio(matched, want))
	if matched >= want {
		return pass(score, fmt.Sprintf("%d of %s %s", matched, rs.of(len(rs.calls)), what))
	}
	summary := fmt.Sprintf("%d of %s %s, want at least %d", matched, rs.of(len(rs.calls)), what, want)
	return fail(score, summary, rs.sc.withScope(misses)...)
}

// missLines bounds the per-result lines of a failure.
type missLines struct {
	b bounded
}

func (m *missLines) add(format string, args ...any) { m.b.add(format, args...) }

func (m *missLines) details() []Detail {
	out := make([]Detail, 0, m.b.len())
	for _, l := range m.b.list() {
		out = append(out, Detail{"result", l})
	}
	return out
}

// ToolResultIncludes passes when at least Occurrence results (1 when 0) of
// calls to Tool — of every call, when Tool is "" — each contain every one
// of Patterns, ignoring case unless CaseSensitive (Unicode folding, as
// Contains). A call without a result contains nothing. Score is matched
// results over Occurrence, capped at 1. The failure lists each result that
// falls short (the first 10):
//
//	result: call 2: missing "confirmed": "{\"status\": \"pending\"}"
//
// Scope defaults to Session. Tool never called fails. Errors
// (*ParamError): no patterns, an empty pattern, a negative Occurrence, a
// tool name with whitespace or a near miss of a declared tool.
//
// Registry type "tool_result_includes", params: tool, patterns,
// occurrence, case_sensitive, scope. As PromptKit's tool_result_includes.
type ToolResultIncludes struct {
	Tool          string
	Patterns      []string
	Occurrence    int
	CaseSensitive bool
	Scope         Scope
}

func buildToolResultIncludes(p *params) (Check, error) {
	var c ToolResultIncludes
	var err error
	if c.Tool, _, err = p.str(false, "tool", "tool_name"); err != nil {
		return nil, err
	}
	if c.Patterns, _, err = p.strs(true, "patterns"); err != nil {
		return nil, err
	}
	if c.Occurrence, err = occurrence(p); err != nil {
		return nil, err
	}
	if c.CaseSensitive, _, err = p.boolean("case_sensitive"); err != nil {
		return nil, err
	}
	c.Scope, err = p.scope()
	return c, err
}

// occurrence reads PromptKit's occurrence: the number of results that must
// match, at least 1.
func occurrence(p *params) (int, error) {
	n, ok, err := p.count("occurrence")
	if err == nil && ok && n == 0 {
		return 0, p.err("occurrence", "0 results checks nothing: want 1 or more")
	}
	return n, err
}

func (c ToolResultIncludes) validate() error {
	const check = "tool_result_includes"
	if err := needles(check, c.Patterns); err != nil {
		return err
	}
	if c.Occurrence < 0 {
		return paramErr(check, "occurrence", "want a whole number >= 1, got %d", c.Occurrence)
	}
	return checkScope(check, c.Scope)
}

// Check implements Check.
func (c ToolResultIncludes) Check(_ context.Context, tr *evalkit.Transcript) (Result, error) {
	const check = "tool_result_includes"
	if err := c.validate(); err != nil {
		return Result{}, err
	}
	rs, err := resultCalls(check, "tool", tr, c.Scope, c.Tool)
	if err != nil {
		return Result{}, err
	}
	if len(rs.calls) == 0 {
		return rs.none(), nil
	}
	m := newMatcher(c.Patterns, c.CaseSensitive)
	matched := 0
	var misses missLines
	misses.b.max = maxProblems
	for _, i := range rs.calls {
		res := rs.sc.calls[i].Result
		if res == nil {
			misses.add("call %d: no result", i+1)
			continue
		}
		hay := m.prepare(res.Content)
		var missing []string
		for k, pat := range c.Patterns {
			if m.index(hay, k) < 0 {
				missing = append(missing, pat)
			}
		}
		if len(missing) == 0 {
			matched++
			continue
		}
		misses.add("call %d: missing %s: %s", i+1, quoteList(missing), excerpt(res.Content))
	}
	return rs.occurrenceResult(matched, max(c.Occurrence, 1), "include "+joinQuoted(c.Patterns, "and"), misses.details()), nil
}

// Describe implements Describer.
func (c ToolResultIncludes) Describe() string {
	return describeLine(fmt.Sprintf("%s %s %s (%s)%s", occurrenceWords(c.Occurrence), resultsOf(c.Tool), "include "+joinQuoted(c.Patterns, "and"), caseWords(c.CaseSensitive), callsScope(c.Scope)))
}

func occurrenceWords(n int) string {
	if n <= 1 {
		return "at least 1 of the"
	}
	return fmt.Sprintf("at least %d of the", n)
}

func resultsOf(tool string) string {
	if tool == "" {
		return "tool results"
	}
	return "results of " + quoteName(tool)
}

// ToolResultMatches passes when at least Occurrence results (1 when 0) of
// calls to Tool — of every call, when Tool is "" — match the RE2 pattern
// Pattern. Score, scope and errors are ToolResultIncludes'; a pattern that
// can match the empty string is an error (it would match any result).
//
// Registry type "tool_result_matches", params: tool, pattern, occurrence,
// scope. As PromptKit's tool_result_matches.
type ToolResultMatches struct {
	Tool       string
	Pattern    string
	Occurrence int
	Scope      Scope
}

func buildToolResultMatches(p *params) (Check, error) {
	var c ToolResultMatches
	var err error
	if c.Tool, _, err = p.str(false, "tool", "tool_name"); err != nil {
		return nil, err
	}
	if c.Pattern, _, err = p.str(true, "pattern"); err != nil {
		return nil, err
	}
	if c.Occurrence, err = occurrence(p); err != nil {
		return nil, err
	}
	c.Scope, err = p.scope()
	return c, err
}

func (c ToolResultMatches) compile() (*regexp.Regexp, error) {
	const check = "tool_result_matches"
	if c.Pattern == "" {
		return nil, paramErr(check, "pattern", "empty: an empty pattern matches any result")
	}
	re, err := compileRegex(check, "pattern", c.Pattern)
	if err != nil {
		return nil, err
	}
	if canMatchEmpty(c.Pattern) {
		return nil, paramErr(check, "pattern", "%q can match an empty string, so it matches any result: require at least one character", c.Pattern)
	}
	if c.Occurrence < 0 {
		return nil, paramErr(check, "occurrence", "want a whole number >= 1, got %d", c.Occurrence)
	}
	return re, checkScope(check, c.Scope)
}

func (c ToolResultMatches) validate() error {
	_, err := c.compile()
	return err
}

// Check implements Check.
func (c ToolResultMatches) Check(_ context.Context, tr *evalkit.Transcript) (Result, error) {
	const check = "tool_result_matches"
	re, err := c.compile()
	if err != nil {
		return Result{}, err
	}
	rs, err := resultCalls(check, "tool", tr, c.Scope, c.Tool)
	if err != nil {
		return Result{}, err
	}
	if len(rs.calls) == 0 {
		return rs.none(), nil
	}
	matched := 0
	var misses missLines
	misses.b.max = maxProblems
	for _, i := range rs.calls {
		res := rs.sc.calls[i].Result
		switch {
		case res == nil:
			misses.add("call %d: no result", i+1)
		case re.MatchString(res.Content):
			matched++
		default:
			misses.add("call %d: no match: %s", i+1, excerpt(res.Content))
		}
	}
	return rs.occurrenceResult(matched, max(c.Occurrence, 1), "match "+quoteName(c.Pattern), misses.details()), nil
}

// Describe implements Describer.
func (c ToolResultMatches) Describe() string {
	return describeLine(fmt.Sprintf("%s %s match the regular expression %s%s", occurrenceWords(c.Occurrence), resultsOf(c.Tool), quoteName(c.Pattern), callsScope(c.Scope)))
}

// mediaKinds are the media types tool_result_has_media takes, with the
// Part.Type each stands for ("document" is PromptKit's word for a file).
var mediaKinds = map[string]string{"image": "image", "audio": "audio", "video": "video", "document": "file", "file": "file"}

// partKind is a part's media kind: its Type, or for a part of a type
// evalkit does not know, the major type of its MIME type.
func partKind(p evalkit.Part) string {
	switch p.Type {
	case "image", "audio", "video", "file":
		return p.Type
	}
	major, _, _ := strings.Cut(mimeBase(p.MIMEType), "/")
	switch major {
	case "image", "audio", "video":
		return major
	case "application", "text":
		return "file"
	}
	return p.Type
}

// mimeBase is a MIME type without parameters, lower-cased.
func mimeBase(m string) string {
	base, _, _ := strings.Cut(m, ";")
	return strings.ToLower(strings.TrimSpace(base))
}

// mediaLines lists the media of the results read, for a failure.
func (rs resultScope) mediaLines() []Detail {
	lines := bounded{max: maxProblems}
	for _, i := range rs.calls {
		res := rs.sc.calls[i].Result
		if res == nil {
			continue
		}
		for _, p := range res.Parts {
			mt := p.MIMEType
			if mt == "" {
				mt = "no MIME type"
			}
			lines.add("call %d: %s (%s)", i+1, partKind(p), mt)
		}
	}
	if lines.empty() {
		return []Detail{{"media", "none"}}
	}
	out := make([]Detail, 0, lines.len())
	for _, l := range lines.list() {
		out = append(out, Detail{"media", l})
	}
	return out
}

// ToolResultHasMedia passes when a result of a call to Tool — of any call,
// when Tool is "" — holds a media part (ToolResult.Parts) of MediaType:
// "image", "audio", "video" or "document" (a file part; "file" is read as
// "document" too), or any media part when MediaType is "". A part's kind is
// its Part.Type, or the major MIME type for a part of another type. The
// failure lists the media the results hold. Scope defaults to Session.
// Tool never called fails.
//
// Errors (*ParamError): an unknown MediaType, a tool name with whitespace
// or a near miss of a declared tool.
//
// Registry type "tool_result_has_media", params: tool, media_type, scope.
// As PromptKit's tool_result_has_media.
type ToolResultHasMedia struct {
	Tool      string
	MediaType string
	Scope     Scope
}

func buildToolResultHasMedia(p *params) (Check, error) {
	var c ToolResultHasMedia
	var err error
	if c.Tool, _, err = p.str(false, "tool", "tool_name"); err != nil {
		return nil, err
	}
	if c.MediaType, _, err = p.str(false, "media_type"); err != nil {
		return nil, err
	}
	c.Scope, err = p.scope()
	return c, err
}

func (c ToolResultHasMedia) validate() error {
	const check = "tool_result_has_media"
	if _, ok := mediaKinds[c.MediaType]; c.MediaType != "" && !ok {
		return paramErr(check, "media_type", "want \"image\", \"audio\", \"video\" or \"document\", got %q", c.MediaType)
	}
	return checkScope(check, c.Scope)
}

// Check implements Check.
func (c ToolResultHasMedia) Check(_ context.Context, tr *evalkit.Transcript) (Result, error) {
	const check = "tool_result_has_media"
	if err := c.validate(); err != nil {
		return Result{}, err
	}
	rs, err := resultCalls(check, "tool", tr, c.Scope, c.Tool)
	if err != nil {
		return Result{}, err
	}
	if len(rs.calls) == 0 {
		return rs.none(), nil
	}
	want := mediaKinds[c.MediaType]
	what := "media"
	if c.MediaType != "" {
		what = c.MediaType + " media"
	}
	for _, i := range rs.calls {
		res := rs.sc.calls[i].Result
		if res == nil {
			continue
		}
		for _, p := range res.Parts {
			if want == "" || partKind(p) == want {
				return pass(1, fmt.Sprintf("call %d returned %s (%s)", i+1, what, firstNonEmpty(p.MIMEType, "no MIME type"))), nil
			}
		}
	}
	return fail(0, fmt.Sprintf("none of %s holds %s", rs.of(len(rs.calls)), what), rs.sc.withScope(rs.mediaLines())...), nil
}

func firstNonEmpty(s ...string) string {
	for _, v := range s {
		if v != "" {
			return v
		}
	}
	return ""
}

// Describe implements Describer.
func (c ToolResultHasMedia) Describe() string {
	what := "media"
	if c.MediaType != "" {
		what = c.MediaType + " media"
	}
	return describeLine(fmt.Sprintf("a result of %s holds %s%s", strings.TrimPrefix(resultsOf(c.Tool), "results of "), what, callsScope(c.Scope)))
}

// ToolResultMediaType passes when a result of a call to Tool — of any call,
// when Tool is "" — holds a media part whose MIME type is MIMEType,
// compared without parameters and ignoring case ("image/png" matches
// "image/PNG; x=1"); "image/*" matches any image type. A part whose MIME
// type was not recorded matches nothing: its type is unknown, not
// assumed. The failure lists the media the results hold. Scope defaults to
// Session. Tool never called fails.
//
// Errors (*ParamError): no MIMEType or one that is not type/subtype, a
// tool name with whitespace or a near miss of a declared tool.
//
// Registry type "tool_result_media_type", params: tool, mime_type, scope.
// As PromptKit's tool_result_media_type.
type ToolResultMediaType struct {
	Tool     string
	MIMEType string
	Scope    Scope
}

func buildToolResultMediaType(p *params) (Check, error) {
	var c ToolResultMediaType
	var err error
	if c.Tool, _, err = p.str(false, "tool", "tool_name"); err != nil {
		return nil, err
	}
	if c.MIMEType, _, err = p.str(true, "mime_type"); err != nil {
		return nil, err
	}
	c.Scope, err = p.scope()
	return c, err
}

func (c ToolResultMediaType) validate() error {
	const check = "tool_result_media_type"
	major, minor, ok := strings.Cut(mimeBase(c.MIMEType), "/")
	if !ok || major == "" || minor == "" || major == "*" {
		return paramErr(check, "mime_type", "want a MIME type such as \"image/png\" or \"image/*\", got %q", c.MIMEType)
	}
	return checkScope(check, c.Scope)
}

// Check implements Check.
func (c ToolResultMediaType) Check(_ context.Context, tr *evalkit.Transcript) (Result, error) {
	const check = "tool_result_media_type"
	if err := c.validate(); err != nil {
		return Result{}, err
	}
	rs, err := resultCalls(check, "tool", tr, c.Scope, c.Tool)
	if err != nil {
		return Result{}, err
	}
	if len(rs.calls) == 0 {
		return rs.none(), nil
	}
	want := mimeBase(c.MIMEType)
	wildcard, isWild := strings.CutSuffix(want, "/*")
	for _, i := range rs.calls {
		res := rs.sc.calls[i].Result
		if res == nil {
			continue
		}
		for _, p := range res.Parts {
			got := mimeBase(p.MIMEType)
			if got == "" {
				continue
			}
			major, _, _ := strings.Cut(got, "/")
			if got == want || (isWild && major == wildcard) {
				return pass(1, fmt.Sprintf("call %d returned %s", i+1, p.MIMEType)), nil
			}
		}
	}
	return fail(0, fmt.Sprintf("none of %s holds %s media", rs.of(len(rs.calls)), c.MIMEType), rs.sc.withScope(rs.mediaLines())...), nil
}

// Describe implements Describer.
func (c ToolResultMediaType) Describe() string {
	return describeLine(fmt.Sprintf("a result of %s holds %s media%s", strings.TrimPrefix(resultsOf(c.Tool), "results of "), c.MIMEType, callsScope(c.Scope)))
}
