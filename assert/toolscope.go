package assert

// What the tool-call checks share: the calls and orphan results of a scope,
// bounded lists of names and problems, parameter checks for tool names.

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/internal/textnorm"
)

// toolScope is the tool calls a check reads, with the messages they come
// from. calls are shared by the checks of the same messages (see
// linkcache.go): they must not be modified.
type toolScope struct {
	calls []evalkit.ToolCall
	msgs  []evalkit.Message
	turn  bool
	start int // index in Transcript.Messages of msgs[0]
	links *linkEntry
}

// orphans returns the scope's tool messages that answer no call of the
// scope (Transcript.OrphanResults, or Turn.OrphanResults for the last turn).
func (s toolScope) orphans() []evalkit.ToolResult {
	if s.links == nil {
		return nil
	}
	return s.links.orphanResults()
}

// agentActed returns an error wrapping ErrNoOutput, naming the check, when
// the agent did nothing in tr: tr is nil, or none of its messages is the
// assistant's or a tool's (a tool result is what an action of the agent
// got, even when the call is missing). A run that crashed before its
// first answer must not pass the checks of what it must not do
// (tools_not_called, no_tool_errors, a maximum count) any more than
// content_excludes (field case C24 d).
func agentActed(check string, tr *evalkit.Transcript) error {
	if tr == nil {
		return fmt.Errorf("%s: %w: the transcript is nil", check, ErrNoOutput)
	}
	for i := range tr.Messages {
		if r := tr.Messages[i].Role; r == evalkit.RoleAssistant || r == evalkit.RoleTool {
			return nil
		}
	}
	return fmt.Errorf("%s: %w: the transcript has %s and none is from the assistant: the agent did nothing to check", check, ErrNoOutput, plural(len(tr.Messages), "message"))
}

// scopedCalls returns the calls of the whole transcript (Session, the
// default for tool checks) or of its last turn. It wraps ErrNoOutput when
// the agent did nothing (agentActed); no calls, or no last turn, is an
// empty scope.
func scopedCalls(check string, tr *evalkit.Transcript, s Scope) (toolScope, error) {
	if err := agentActed(check, tr); err != nil {
		return toolScope{}, err
	}
	if s.or(Session) == Session {
		l := linked(tr.Messages, 0)
		return toolScope{calls: l.calls, msgs: tr.Messages, links: l}, nil
	}
	t, ok := tr.LastTurn()
	if !ok {
		return toolScope{turn: true, start: -1}, nil
	}
	l := linked(t.Messages, t.Start)
	return toolScope{calls: l.calls, msgs: t.Messages, turn: true, start: t.Start, links: l}, nil
}

func (s toolScope) label() string {
	if s.turn {
		return "the last turn"
	}
	return "the transcript"
}

// withScope adds a "scope" line to a failure's details when the check read
// only the last turn, so a call made earlier is not mistaken for missing.
func (s toolScope) withScope(details []Detail) []Detail {
	switch {
	case !s.turn:
		return details
	case s.start < 0:
		return append(details, Detail{"scope", "last turn: the transcript has no assistant message"})
	}
	return append(details, Detail{"scope", fmt.Sprintf("last turn (messages %d-%d)", s.start, s.start+len(s.msgs)-1)})
}

// calledDetail lists the calls as the failure messages show them:
// "get_order_details ×1, get_user_details ×2", sorted by name.
func calledDetail(calls []evalkit.ToolCall) Detail {
	if len(calls) == 0 {
		return Detail{"called", "none"}
	}
	counts := callCounts(calls)
	names := make([]string, 0, len(counts))
	for n := range counts {
		names = append(names, n)
	}
	sort.Strings(names)
	const maxNames = 20
	parts := make([]string, 0, min(len(names), maxNames)+1)
	for i, n := range names {
		if i == maxNames {
			parts = append(parts, fmt.Sprintf("… and %d more tools", len(names)-maxNames))
			break
		}
		parts = append(parts, fmt.Sprintf("%s ×%d", shortName(n), counts[n]))
	}
	return Detail{"called", strings.Join(parts, ", ")}
}

func toolName(n string) string {
	if n == "" {
		return "(no name)"
	}
	return n
}

// shortName is a tool name as failure messages show it unquoted, bounded:
// names come from the model, which may write anything.
func shortName(n string) string { return textnorm.Excerpt(toolName(n), maxToolName) }

// quoteName is a tool name (or call id) Go-quoted, bounded.
func quoteName(n string) string { return textnorm.Quote(n, maxToolName) }

// maxToolName bounds a tool name shown in a message, in bytes: the longest
// name OpenAI's function calling accepts (64), with room to spare.
const maxToolName = 80

// maxProblems bounds the problems a summary lists.
const maxProblems = 10

// bounded collects the first max lines of a list and counts the rest, so
// that a check given 100,000 tool names still fails in a few lines.
type bounded struct {
	max   int
	items []string
	more  int
}

func (b *bounded) add(format string, args ...any) {
	if len(b.items) < b.max {
		b.items = append(b.items, fmt.Sprintf(format, args...))
		return
	}
	b.more++
}

// addText is add of a line already written (passing summaries build
// theirs without fmt).
func (b *bounded) addText(line string) {
	if len(b.items) < b.max {
		b.items = append(b.items, line)
		return
	}
	b.more++
}

func (b *bounded) len() int    { return len(b.items) + b.more }
func (b *bounded) empty() bool { return b.len() == 0 }

// list returns the lines kept, then "… and N more" when some were not.
func (b *bounded) list() []string {
	if b.more == 0 {
		return b.items
	}
	return append(b.items[:len(b.items):len(b.items)], fmt.Sprintf("… and %d more", b.more))
}

func (b *bounded) join(sep string) string { return strings.Join(b.list(), sep) }

func callCounts(calls []evalkit.ToolCall) map[string]int {
	counts := make(map[string]int, len(calls))
	for _, c := range calls {
		counts[c.Name]++
	}
	return counts
}

// hasArgs reports whether a call's arguments decode to a non-empty object
// (as tool_args reads them: 1e400 is a number, not an error).
func hasArgs(c evalkit.ToolCall) bool {
	args, err := decodeArgs(c)
	return err == nil && len(args) > 0
}

type nameCount struct {
	name string
	n    int
}

// countNames counts each name in a list, in order of first appearance.
func countNames(names []string) []nameCount {
	var out []nameCount
	at := map[string]int{}
	for _, n := range names {
		if i, ok := at[n]; ok {
			out[i].n++
			continue
		}
		at[n] = len(out)
		out = append(out, nameCount{n, 1})
	}
	return out
}

// toolNames rejects an empty list (when required), empty names and names
// with leading or trailing whitespace.
func toolNames(check, param string, names []string, required bool) error {
	if required && len(names) == 0 {
		return paramErr(check, param, "empty list: give at least one tool name")
	}
	for i, n := range names {
		if problem := toolNameProblem(n); problem != "" {
			return paramErr(check, param, "item %d %s", i, problem)
		}
	}
	return nil
}

// toolNameProblem says what is wrong with a tool name a check is given, or
// "" when nothing is. Names match exactly, so " issue_refund" (pasted from a
// list, say) would never match a call and would make tools_not_called pass
// whatever the agent did.
func toolNameProblem(n string) string {
	if plainName(n) {
		return "" // printable ASCII without spaces: nothing to say
	}
	switch {
	case n == "":
		return "is empty: want a tool name"
	case strings.TrimSpace(n) != n:
		return quoteName(n) + " has leading or trailing whitespace: tool names match exactly"
	case strings.IndexFunc(n, func(r rune) bool { return unicode.IsSpace(r) || unicode.Is(unicode.Cf, r) }) >= 0:
		return quoteName(n) + " holds white space or an invisible character: tool names match exactly"
	}
	return ""
}

// plainName reports whether n is non-empty printable ASCII without space:
// no white space or invisible character (Unicode's are all outside ASCII,
// but for ASCII's own white space), so toolNameProblem has nothing to say,
// without a Unicode table lookup for each character of every name of every
// check.
func plainName(n string) bool {
	for i := 0; i < len(n); i++ {
		if c := n[i]; c <= ' ' || c >= 0x7f {
			return false
		}
	}
	return n != ""
}

// toolRef is a parameter of a check that names tools.
type toolRef struct {
	param string
	names []string
}

// undeclared cross-checks the tool names a check was given against the
// transcript: when the transcript declares its tools (Transcript.Tools), a
// name that is neither declared nor used anywhere in the transcript (by a
// call, or as a tool message's name) but within a few edits of one that
// is, is almost certainly a typo, and an
// error naming the parameter, with the nearest known name. A tool that was
// called without being declared is fine: models call tools that do not
// exist. Without declared tools nothing is checked. It reads the whole
// transcript whatever the check's scope.
func undeclared(check string, tr *evalkit.Transcript, refs ...toolRef) error {
	if tr == nil || len(tr.Tools) == 0 {
		return nil
	}
	known := make(map[string]bool, len(tr.Tools))
	for _, t := range tr.Tools {
		known[t.Name] = true
	}
	declared := len(known)
	for _, m := range tr.Messages {
		switch m.Role {
		case evalkit.RoleAssistant:
			for _, c := range m.ToolCalls {
				known[c.Name] = true
			}
		case evalkit.RoleTool:
			if m.Name != "" {
				known[m.Name] = true
			}
		}
	}
	for _, r := range refs {
		for _, n := range r.names {
			if known[n] {
				continue
			}
			// A name far from every known one may be deliberate: a tool the
			// model must not invent, a check shared across agent setups.
			// A near miss is a typo that would make the check vacuous.
			near := nearestName(n, known)
			if near == "" {
				continue
			}
			return paramErr(check, r.param, "%s is not among the transcript's %s and was never called (did you mean %s?)",
				quoteName(n), plural(declared, "tool"), quoteName(near))
		}
	}
	return nil
}

// nearestName returns the known name closest to n by edit distance, with
// case ignored, when it is close enough to be a likely typo (at most a
// third of n's length, and at most 3 edits), or "". So a name that differs
// from a known one only in case ("ISSUE_REFUND" for "issue_refund") is
// always a near miss: tool names are case-sensitive, and the check would
// never see the tool. Ties go to the name first in byte order.
func nearestName(n string, known map[string]bool) string {
	const maxLen = 256 // beyond this a suggestion is noise, and costly
	limit := min(3, max(1, len(n)/3))
	if len(n) > maxLen {
		return ""
	}
	ln := strings.ToLower(n)
	best, bestDist := "", limit+1
	for k := range known {
		if k == "" || len(k) > maxLen {
			continue
		}
		lk := strings.ToLower(k)
		if abs(len(lk)-len(ln)) > limit {
			continue
		}
		if d := textnorm.EditDistance(ln, lk); d < bestDist || (d == bestDist && k < best) {
			best, bestDist = k, d
		}
	}
	return best
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

func checkScope(check string, s Scope) error {
	switch s {
	case DefaultScope, Turn, Session:
		return nil
	}
	return paramErr(check, "scope", "want Turn or Session, got %v", s)
}

// bounds rejects negative bounds and lo > hi.
func bounds(check, loName, hiName string, lo, hi *int) error {
	if lo != nil && *lo < 0 {
		return paramErr(check, loName, "want a whole number >= 0, got %d", *lo)
	}
	if hi != nil && *hi < 0 {
		return paramErr(check, hiName, "want a whole number >= 0, got %d", *hi)
	}
	if lo != nil && hi != nil && *lo > *hi {
		return paramErr(check, loName, "%s %d is more than %s %d", loName, *lo, hiName, *hi)
	}
	return nil
}

// boundsText says an inclusive range: "exactly 2", "1..3", "at least 1",
// "at most 2".
func boundsText(lo, hi *int) string {
	switch {
	case lo != nil && hi != nil && *lo == *hi:
		return fmt.Sprintf("exactly %d", *lo)
	case lo != nil && hi != nil:
		return fmt.Sprintf("%d..%d", *lo, *hi)
	case lo != nil:
		return fmt.Sprintf("at least %d", *lo)
	case hi != nil:
		return fmt.Sprintf("at most %d", *hi)
	}
	return "any number"
}

// optCount reads an optional whole-number parameter as a pointer: nil when
// absent, so that 0 can be a bound.
func optCount(p *params, name string) (*int, error) {
	n, ok, err := p.count(name)
	if err != nil || !ok {
		return nil, err
	}
	return &n, nil
}

func times(n int) string {
	if n == 1 {
		return "1 time"
	}
	return strconv.Itoa(n) + " times" // as fmt's "%d times", a summary on every pass
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
