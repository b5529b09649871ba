package evalkit

// Verdicts written in text: bracketed verdicts and score lines, read
// outside code fences (as internal/jsonx reads them). See ParseVerdict.

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/evalkit-go/evalkit/internal/jsonx"
	"github.com/evalkit-go/evalkit/internal/textnorm"
)

// parseTextVerdict reads bracketed verdicts and score lines outside the
// code fences fs. found and jerr are what internal/jsonx returned: a JSON
// value that is not an object, or why there is none.
func parseTextVerdict(raw string, fs []jsonx.Fence, scale Scale, found jsonx.Found, jerr *jsonx.Error) (Verdict, error) {
	tv := scanText(raw, fs, nil, scale)
	why := "it is not valid JSON"
	switch {
	case jerr != nil:
		why = textnorm.Excerpt(jerr.Msg, maxMsg)
	case len(found.JSON) > 0:
		why = "the first JSON value, in " + found.From + ", is not an object"
	}
	if err := tv.err(scale, why); err != nil {
		return Verdict{}, err
	}
	v, ok, err := tv.verdict(scale)
	switch {
	case err != nil:
		return Verdict{}, err
	case !ok:
		if v, ok := tv.lastFenceVerdict(raw, fs, scale); ok {
			return v, nil
		}
		return Verdict{}, noVerdict(raw, tv.inFence, "")
	}
	switch fc, has, err := tv.fenceClaim(scale); {
	case err != nil:
		return Verdict{}, err
	case has && !(claim{v: v}).agrees(fc):
		return Verdict{}, unreadable("conflicting verdicts: %s, and %s", tv.said(), fc.says())
	}
	return v, nil
}

// lastFenceVerdict reads a verdict the judge put in a code fence at the
// end of its answer, when no verdict outside fences competes with it: the
// body of a closed fence that ends the answer is that verdict alone (a
// verdict line, see fenceVerdictLine), or the last line of a fence never
// closed is one (an opening fence in quoted code left the rest of the
// answer inside it). Every verdict inside fences must agree with it.
func (tv *textVerdicts) lastFenceVerdict(raw string, fs []jsonx.Fence, scale Scale) (Verdict, bool) {
	if len(fs) == 0 || tv.fence.conflict != nil {
		return Verdict{}, false
	}
	f := fs[len(fs)-1]
	body := strings.TrimSpace(raw[f.BodyStart:f.BodyEnd])
	if f.Closed {
		if strings.TrimSpace(raw[f.End:]) != "" || strings.Contains(body, "\n") {
			return Verdict{}, false
		}
	} else {
		body = strings.TrimSpace(body[strings.LastIndexByte(body, '\n')+1:])
	}
	r, ok := fenceVerdictLine(body)
	if !ok {
		return Verdict{}, false
	}
	fc, has, err := tv.fenceClaim(scale)
	var v Verdict
	switch {
	case err != nil || !has:
		return Verdict{}, false
	case r.isLabel:
		v.Label = r.label
	default:
		if v.setScore(r, scale) != nil {
			return Verdict{}, false
		}
	}
	if !(claim{v: v}).agrees(fc) {
		return Verdict{}, false
	}
	return v, true
}

// textVerdicts is what scanText found in the text outside code fences.
type textVerdicts struct {
	t         tally
	fence     tally    // the verdicts stated inside code fences (see fenced)
	inFence   *reading // a verdict seen inside a code fence, for the message
	jsonLike  string   // where text looks like a JSON verdict
	unsupport string   // a bracketed verdict this parser does not read
	badLine   string   // a score line with more after its number
	badDenom  *reading // a denominator that is not the scale's Max
}

// scanText reads the bracketed verdicts and score lines of raw line by
// line, outside its code fences fs (what jsonx.Fences returned) and its
// JSON objects objs: each object reads as "{…}" on the line it ends on,
// so nothing inside one is a verdict and the lines around it keep their
// numbers. A line may be partly prose: the text before a fence opened
// mid-line ("The agent wrote ```python") is read. Inside a fence's body
// scanText only notes, for messages, a verdict it would have read there,
// and, in a fence that may hold JSON, text that looks like a JSON verdict.
func scanText(raw string, fs []jsonx.Fence, objs []jsonx.Span, scale Scale) textVerdicts {
	var tv textVerdicts
	mask := objectMask{raw: raw, objs: objs}
	lineNo := 0
	for ls := 0; ls < len(raw); {
		le := len(raw)
		if i := strings.IndexByte(raw[ls:], '\n'); i >= 0 {
			le = ls + i
		}
		next := le + 1
		lineNo++
		if le > ls && raw[le-1] == '\r' {
			le--
		}
		for len(fs) > 0 && fs[0].End <= ls {
			fs = fs[1:] // closed on an earlier line
		}
		proseEnd, bodyStart, bodyEnd := le, 0, 0
		if len(fs) > 0 && fs[0].Start < next { // a fence touches this line
			f := fs[0]
			proseEnd = min(max(f.Start, ls), le) // ls unless it opens here
			bodyStart, bodyEnd = max(f.BodyStart, ls), min(f.BodyEnd, le)
		}
		if ls < proseEnd {
			tv.prose(mask.text(ls, proseEnd), lineNo, scale)
		}
		if bodyStart < bodyEnd {
			tv.fenced(mask.text(bodyStart, bodyEnd), fs[0], lineNo)
		}
		ls = next
	}
	return tv
}

// fenced reads a line of a fence's body, or the part of one. A verdict
// there is never the answer's verdict, but it may contradict it: a verdict
// line (see fenceVerdictLine) is kept in tv.fence, and in a fence never
// closed, so is every verdict prose would read (a bracketed verdict
// anywhere in a line, a score line). The first bracketed verdict is also
// kept for the message saying verdicts are not read in fences, and in a
// fence that may hold JSON, text that looks like a JSON verdict is noted
// as it is in prose.
func (tv *textVerdicts) fenced(line string, f jsonx.Fence, lineNo int) {
	if tv.jsonLike == "" && f.Kind() != jsonx.OtherTagged {
		if k, ok := jsonVerdictKey(line); ok {
			tv.jsonLike = fmt.Sprintf("%q at line %d", k, lineNo)
		}
	}
	if !f.Closed {
		brackets(line, func(content, _ string) bool {
			if r, ok := bracketVerdict(content); ok {
				r.line = lineNo
				tv.fence.add(r)
			}
			return true
		})
		if r, found, _ := lineVerdict(line); found {
			r.as, r.line = line, lineNo
			tv.fence.add(r)
		}
	} else if r, ok := fenceVerdictLine(line); ok {
		r.line = lineNo
		tv.fence.add(r)
	}
	if tv.inFence != nil {
		return
	}
	brackets(line, func(content, _ string) bool {
		if r, ok := bracketVerdict(content); ok {
			r.line = lineNo
			tv.inFence = &r
			return false
		}
		return true
	})
}

// fenceVerdictLine reads a line of a closed fence's body that states a
// verdict in one of the formats read outside fences, and nothing else: a
// score line ("Score: 2", "Rating = 7 (good)"), or a bracketed verdict
// alone on its line, after at most words naming a verdict ("[[2]]",
// "Rating: [[2]]", "My final verdict is [[B]]."). Code holding brackets
// ("grid = [[3]]", "return [[1]]", "print([[2]])") states none.
func fenceVerdictLine(line string) (reading, bool) {
	if r, found, bad := lineVerdict(line); found && !bad {
		r.as = line
		return r, true
	}
	s := strings.TrimRight(skipMarkup(line, true), " \t*_.")
	i := strings.Index(s, "[[")
	if i < 0 || !strings.HasSuffix(s, "]]") || !verdictPrefix(s[:i]) {
		return reading{}, false
	}
	content := s[i+2 : len(s)-2]
	if len(content) > maxBracket || strings.Contains(content, "]]") {
		return reading{}, false
	}
	r, ok := bracketVerdict(strings.TrimSpace(content))
	return r, ok
}

// verdictPrefix reports whether p may come before a bracketed verdict on
// a verdict line: nothing, or words (letters, spaces, markdown emphasis,
// an apostrophe, a colon at the end) naming a verdict.
func verdictPrefix(p string) bool {
	p = strings.TrimRight(p, " \t*_")
	if p == "" {
		return true
	}
	p = strings.TrimSuffix(p, ":")
	for i := 0; i < len(p); i++ {
		c := p[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == ' ' || c == '\'' || c == '*' || c == '_') {
			return false
		}
	}
	lower := strings.ToLower(p)
	for _, w := range []string{"rating", "score", "verdict", "grade", "decision", "judgment", "judgement"} {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}

// fenceClaim is the verdict the text inside code fences states (tv.fence),
// as a claim to check against the answer's: has is false when it states
// none. Verdicts inside fences that disagree among themselves, or a score
// outside the scale, are an error: either contradicts the answer's
// verdict. Call it only when the answer states a verdict outside fences.
func (tv *textVerdicts) fenceClaim(scale Scale) (c claim, has bool, err error) {
	t := tv.fence
	switch {
	case t.conflict != nil:
		return claim{}, false, unreadable("%v, inside code fences, beside the answer's verdict outside them", t.conflict)
	case t.hasLabel:
		return claim{v: Verdict{Label: t.label.label}, says: func() string { return t.label.String() + " inside a code fence" }}, true, nil
	case !t.hasScore:
		return claim{}, false, nil
	}
	var v Verdict
	if err := v.setScore(t.score, scale); err != nil {
		return claim{}, false, unreadable("a verdict inside a code fence cannot agree with the answer's: %v", err)
	}
	return claim{v: v, says: func() string { return t.score.String() + " inside a code fence" }}, true, nil
}

// prose reads the verdicts of a line, or of the part of one, outside code
// fences.
func (tv *textVerdicts) prose(line string, lineNo int, scale Scale) {
	if tv.jsonLike == "" {
		if k, ok := jsonVerdictKey(line); ok {
			tv.jsonLike = fmt.Sprintf("%q at line %d", k, lineNo)
		}
	}
	brackets(line, func(content, after string) bool {
		r, ok := bracketVerdict(content)
		switch {
		case ok:
			r.line = lineNo
			// "[[4]] out of 5", "[[4]]/5", "[[4]] (out of 5)"; of two
			// denominators ("[[4/5]] out of 10"), the one that is not
			// the scale's Max, if any, is the error.
			if d, n := trailingDenom(after); n > 0 && (r.denom == 0 || r.denom == scale.Max) {
				r.denom = d
			}
			if r.denom != 0 && r.denom != scale.Max && tv.badDenom == nil {
				bad := r
				tv.badDenom = &bad
			}
			tv.t.add(r)
		case tv.unsupport == "" && isComparison(content):
			tv.unsupport = fmt.Sprintf("[[%s]] at line %d", textnorm.Excerpt(content, maxBracket), lineNo)
		}
		return true
	})
	switch r, found, bad := lineVerdict(line); {
	case bad:
		if tv.badLine == "" {
			tv.badLine = fmt.Sprintf("the line %s (line %d)", verdictQuote(strings.TrimSpace(line), 80), lineNo)
		}
	case found:
		r.as, r.line = line, lineNo
		if r.denom != 0 && r.denom != scale.Max && tv.badDenom == nil {
			bad := r
			tv.badDenom = &bad
		}
		tv.t.add(r)
	}
}

// objectMask reads parts of raw with its JSON objects masked: each object
// is "{…}" where it ends, and nothing elsewhere. Parts must be asked for
// left to right.
type objectMask struct {
	raw  string
	objs []jsonx.Span
	buf  []byte
}

// text returns raw[start:end], masked.
func (m *objectMask) text(start, end int) string {
	for len(m.objs) > 0 && m.objs[0].End <= start {
		m.objs = m.objs[1:]
	}
	if len(m.objs) == 0 || m.objs[0].Start >= end {
		return m.raw[start:end]
	}
	m.buf = m.buf[:0]
	pos := start
	for _, o := range m.objs {
		if o.Start >= end {
			break
		}
		if o.Start > pos {
			m.buf = append(m.buf, m.raw[pos:o.Start]...)
		}
		if o.End > end {
			pos = end // it goes on past this part
			break
		}
		m.buf = append(m.buf, "{…}"...)
		pos = o.End
	}
	m.buf = append(m.buf, m.raw[pos:end]...)
	return string(m.buf)
}

// err returns why the text's verdicts cannot be read with certainty, or
// nil. why says why no JSON object was read where the text looks like one.
func (tv *textVerdicts) err(scale Scale, why string) error {
	switch {
	case tv.jsonLike != "":
		return unreadable("the answer looks like a JSON verdict (key %s) but no JSON object could be read: %s", tv.jsonLike, why)
	case tv.unsupport != "":
		return unreadable("the bracketed verdict %s is not one this parser reads (it reads [[8]], [[8.5]], [[A]], [[B]], [[C]])", tv.unsupport)
	case tv.badLine != "":
		return unreadable("%s has more after its score than this parser can read with certainty", tv.badLine)
	case tv.t.conflict != nil:
		return unreadable("%v", tv.t.conflict)
	case tv.badDenom != nil:
		return unreadable("%v is out of %v, but the scale is [%v, %v]", *tv.badDenom, tv.badDenom.denom, scale.Min, scale.Max)
	}
	return nil
}

// verdict returns the verdict the text states; ok is false when it states
// none. Call it only when err is nil.
func (tv *textVerdicts) verdict(scale Scale) (v Verdict, ok bool, err error) {
	switch {
	case tv.t.hasLabel:
		return Verdict{Label: tv.t.label.label}, true, nil
	case tv.t.hasScore:
		if err := v.setScore(tv.t.score, scale); err != nil {
			return Verdict{}, false, unreadable("%v", err)
		}
		return v, true, nil
	}
	return Verdict{}, false, nil
}

// said describes the text's verdict for messages: "[[8]] at line 3".
func (tv *textVerdicts) said() string {
	if tv.t.hasLabel {
		return tv.t.label.String()
	}
	return tv.t.score.String()
}

// noVerdict is the error for an answer with nothing this parser reads;
// plain, when not empty, describes a JSON object without verdict fields.
func noVerdict(raw string, inFence *reading, plain string) error {
	text := strings.TrimSpace(raw)
	var hint string
	switch _, n := scanNumber(text); {
	case n > 0 && n == len(text):
		hint = fmt.Sprintf("; a bare number (%s) does not say it is a score: want [[%s]] or \"Rating: %s\"", text, text, text)
	case inFence != nil:
		hint = fmt.Sprintf("; %v is inside a code fence, where verdicts are not read", *inFence)
	case plain != "":
		hint = "; " + plain + " has no verdict field"
	}
	return unreadable("no verdict this parser can read with certainty (it reads a JSON object with a score, label or pass field, [[8]], [[A]], or a line \"Score: 8\")%s; the answer ends %s",
		hint, verdictTail(text, maxQuote))
}

// maxBracket bounds what "[[...]]" may hold to be read as a verdict.
const maxBracket = 24

// brackets calls fn with the content of each "[[...]]" in line (at most
// maxBracket bytes, trimmed of spaces), and the rest of the line after it,
// until fn returns false. In "[[[8]]]" the content is "8".
func brackets(line string, fn func(content, after string) bool) {
	for pos := 0; pos < len(line); {
		k := strings.Index(line[pos:], "[[")
		if k < 0 {
			return
		}
		start := pos + k + 2
		for start < len(line) && line[start] == '[' {
			start++
		}
		window := line[start:min(len(line), start+maxBracket)]
		end := strings.Index(window, "]]")
		if end < 0 {
			pos = start
			continue
		}
		pos = start + end + 2
		if !fn(strings.TrimSpace(window[:end]), strings.TrimLeft(line[pos:], "]")) {
			return
		}
	}
}

// bracketVerdict reads the content of "[[...]]": a score ("8", "8.5",
// "8/10"), after at most a "Rating:" or "Score:" inside the brackets
// ("[[Rating: 8]]"; doubled, "[[Rating: [[9]]]]" holds "Rating: [[9"), or
// a pairwise label ("A", "B", "C").
func bracketVerdict(content string) (reading, bool) {
	for _, w := range []string{"rating", "score"} {
		if hasPrefixFold(content, w) {
			rest := strings.TrimLeft(content[len(w):], " \t")
			if !strings.HasPrefix(rest, ":") {
				return reading{}, false
			}
			num := strings.TrimLeft(rest[1:], " \t[")
			if n, d, k := scanScore(num); k > 0 && k == len(num) {
				return reading{score: n, denom: d, kind: 'b', as: content}, true
			}
			return reading{}, false
		}
	}
	if num, denom, n := scanScore(content); n > 0 && n == len(content) {
		return reading{score: num, denom: denom, kind: 'b', as: content}, true
	}
	if content == "A" || content == "B" || content == "C" {
		return reading{isLabel: true, label: content, kind: 'b', as: content}, true
	}
	return reading{}, false
}

// isComparison reports whether s is an Arena-Hard-style pairwise verdict:
// "A>B", "A>>B", "B>A", "A=B", "A<<B", with optional spaces.
func isComparison(s string) bool {
	s = strings.ReplaceAll(s, " ", "")
	if len(s) < 3 || (s[0] != 'A' && s[0] != 'B') {
		return false
	}
	last := s[len(s)-1]
	if last != 'A' && last != 'B' {
		return false
	}
	op := s[1 : len(s)-1]
	return slices.Contains([]string{">", ">>", "<", "<<", "=", "=="}, op)
}

// lineVerdict reads a line stating a score: "Score: 7", "Rating = 7.5",
// "**Final score:** 4/5", "## Rating: 8 out of 10", "Score: 4 (out of 5)".
// found is false for a line that does not start with a score label
// followed by a number; bad is true for one that does but has more after
// the number (and its denominator) than a closing period or a parenthesis
// of words: a parenthesis holding a digit, "/" or "out of" ("Score: 8
// (I mean 2)", "Score: 4/5 (out of 10)") is more.
func lineVerdict(line string) (r reading, found, bad bool) {
	s := skipMarkup(line, true)
	if s == "" {
		return reading{}, false, false
	}
	switch s[0] { // most lines end here
	case 's', 'S', 'r', 'R', 'f', 'F', 'o', 'O':
	default:
		return reading{}, false, false
	}
	for _, p := range []string{"final ", "overall "} {
		if hasPrefixFold(s, p) {
			s = skipMarkup(s[len(p):], false)
			break
		}
	}
	switch {
	case hasPrefixFold(s, "score"):
		s = s[len("score"):]
	case hasPrefixFold(s, "rating"):
		s = s[len("rating"):]
	default:
		return reading{}, false, false
	}
	s = skipMarkup(s, false)
	if s == "" || (s[0] != ':' && s[0] != '=') {
		return reading{}, false, false
	}
	s = skipMarkup(s[1:], false)
	num, denom, n := scanScore(s)
	if n == 0 {
		return reading{}, false, false // "Rating: [[8]]", "Score: N/A"
	}
	rest := s[n:]
	if d, m := trailingDenom(rest); m > 0 {
		if denom != 0 {
			return reading{}, false, true // "Score: 4/5 (out of 5)"
		}
		denom, rest = d, rest[m:]
	}
	rest = strings.TrimRight(rest, "*_. \t")
	rest = strings.TrimLeft(rest, " \t")
	if rest != "" && (rest[0] != '(' || rest[len(rest)-1] != ')' || mayHoldScore(rest)) {
		return reading{}, false, true
	}
	return reading{score: num, denom: denom, kind: 'l'}, true, false
}

// trailingDenom reads a denominator written after a score: "/ 5",
// "out of 5", or either in parentheses, "(out of 5)". n is the bytes read,
// 0 when s does not start (after spaces) with one.
func trailingDenom(s string) (denom float64, n int) {
	i := skipSpaces(s, 0)
	paren := i < len(s) && s[i] == '('
	if paren {
		i = skipSpaces(s, i+1)
	}
	switch {
	case i < len(s) && s[i] == '/':
		i++
	case hasPrefixFold(s[i:], "out of "):
		i += len("out of ")
	default:
		return 0, 0
	}
	i = skipSpaces(s, i)
	d, m := scanNumber(s[i:])
	if m == 0 || d <= 0 {
		return 0, 0
	}
	i += m
	if paren {
		if i = skipSpaces(s, i); i >= len(s) || s[i] != ')' {
			return 0, 0
		}
		i++
	}
	return d, i
}

func skipSpaces(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}

// mayHoldScore reports whether text after a score could state another
// number for it: a digit, "/" or "out of".
func mayHoldScore(s string) bool {
	return strings.ContainsAny(s, "0123456789/") || strings.Contains(strings.ToLower(s), "out of")
}

// skipMarkup skips spaces and markdown emphasis ("**", "__") at the start
// of s, and at the start of a line also quote and heading markers ("> ",
// "## ").
func skipMarkup(s string, lineStart bool) string {
	i := 0
	for ; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '*', '_':
		case '>', '#':
			if !lineStart {
				return s[i:]
			}
		default:
			return s[i:]
		}
	}
	return ""
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix) &&
		(len(s) == len(prefix) || !isWordByte(s[len(prefix)]) || prefix[len(prefix)-1] == ' ')
}

func isWordByte(c byte) bool {
	return c == '_' || ('a' <= c && c <= 'z') || ('A' <= c && c <= 'Z') || ('0' <= c && c <= '9')
}

// maxNumber bounds a number's text: a longer run of digits is not a score.
const maxNumber = 32

// scanScore reads a score at the start of s: a number ("8", "8.5", "-2",
// "8."), optionally followed by a denominator ("8/10", "8 / 10",
// "8 out of 10"). n is the bytes read, 0 when s does not start with one;
// denom is 0 when none was written.
func scanScore(s string) (num, denom float64, n int) {
	num, n = scanNumber(s)
	if n == 0 {
		return 0, 0, 0
	}
	i := n
	for i < len(s) && s[i] == ' ' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '/':
		i++
	case hasPrefixFold(s[i:], "out of "):
		i += len("out of ")
	default:
		return num, 0, n
	}
	for i < len(s) && s[i] == ' ' {
		i++
	}
	d, m := scanNumber(s[i:])
	if m == 0 || d <= 0 {
		return num, 0, n // "8/" or "8/x": the caller sees what follows the number
	}
	return num, d, i + m
}

// scanNumber reads -?digits(.digits*)? at the start of s.
func scanNumber(s string) (float64, int) {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	digits := i
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	if i == digits {
		return 0, 0
	}
	if i < len(s) && s[i] == '.' {
		i++
		for i < len(s) && '0' <= s[i] && s[i] <= '9' {
			i++
		}
	}
	if i > maxNumber {
		return 0, 0
	}
	f, err := strconv.ParseFloat(strings.TrimSuffix(s[:i], "."), 64)
	if err != nil {
		return 0, 0
	}
	return f, i
}

// jsonVerdictKey finds a verdict key written as a JSON member ("score":)
// at the start of line or after '{' or ','.
func jsonVerdictKey(line string) (string, bool) {
	for pos := 0; pos < len(line); {
		q := strings.IndexByte(line[pos:], '"')
		if q < 0 {
			return "", false
		}
		at := pos + q
		pos = at + 1
		if at+1 >= len(line) || strings.IndexByte(verdictKeyStarts, line[at+1]) < 0 {
			continue // no verdict key starts so: skip the loop below
		}
		for _, k := range verdictKeys {
			after, ok := strings.CutPrefix(line[at+1:], k)
			if !ok || !strings.HasPrefix(after, `"`) || !strings.HasPrefix(strings.TrimLeft(after[1:], " \t"), ":") {
				continue
			}
			before := strings.TrimRight(line[:at], " \t")
			if before == "" || before[len(before)-1] == '{' || before[len(before)-1] == ',' {
				return k, true
			}
		}
	}
	return "", false
}

var verdictKeys = slices.Concat(scoreKeys, labelKeys, passKeys, []string{rankingKey})

// verdictKeyStarts holds the first byte of each verdict key.
var verdictKeyStarts = func() string {
	var b []byte
	for _, k := range verdictKeys {
		b = append(b, k[0])
	}
	return string(b)
}()

// verdictKeyList lists an object's keys for a message, bounded.
func verdictKeyList(keys []string) string {
	if len(keys) == 0 {
		return "no keys"
	}
	var out []string
	for i, k := range keys {
		if i == maxKeys {
			out = append(out, fmt.Sprintf("… (%d keys in all)", len(keys)))
			break
		}
		out = append(out, quoteKey(k))
	}
	return "keys " + strings.Join(out, ", ")
}

func quoteKey(k string) string { return verdictQuote(k, maxKey) }

// verdictQuote quotes the first bytes of s, at most 2×limit of them once
// quoted, saying how much was left out.
func verdictQuote(s string, limit int) string {
	q, part := quoteClipped(s, limit, false)
	if len(part) == len(s) {
		return q
	}
	return q + fmt.Sprintf("… [%d more bytes]", len(s)-len(part))
}

// verdictTail quotes the last bytes of s, at most 2×limit of them once
// quoted, saying how much came before.
func verdictTail(s string, limit int) string {
	q, part := quoteClipped(s, limit, true)
	if len(part) == len(s) {
		return q
	}
	return fmt.Sprintf("[%d bytes before] …", len(s)-len(part)) + q
}

// quoteClipped quotes a clip of s (its start, or its end when tail) short
// enough that the quoted text is at most 2×limit bytes: escapes ("\x01")
// take up to four bytes for one.
func quoteClipped(s string, limit int, tail bool) (quoted, part string) {
	for n := limit; ; n /= 2 {
		part = clip(s, n, tail)
		quoted = strconv.Quote(part)
		if len(quoted) <= 2*limit || n == 0 {
			return quoted, part
		}
	}
}

// clip returns at most n bytes of s, its start or its end, cut on a rune
// boundary.
func clip(s string, n int, tail bool) string {
	if len(s) <= n {
		return s
	}
	if tail {
		cut := len(s) - n
		for cut < len(s) && !utf8.RuneStart(s[cut]) {
			cut++
		}
		return s[cut:]
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut]
}
