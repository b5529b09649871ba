package evalkit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/evalkit-go/evalkit/internal/jsonx"
	"github.com/evalkit-go/evalkit/internal/textnorm"
)

// ErrUnreadableVerdict is wrapped by every error ParseVerdict returns for
// an answer it cannot read with certainty: the judge answered, but not with
// a verdict. errors.Is(err, ErrUnreadableVerdict) tells it apart from a
// transport or API error, which a judge returns without it.
var ErrUnreadableVerdict = errors.New("evalkit: unreadable judge verdict")

// The top-level keys a JSON verdict is read from. Keys are case-sensitive.
var (
	scoreKeys     = []string{"score", "rating"}
	labelKeys     = []string{"grade", "label", "verdict", "decision", "winner"}
	passKeys      = []string{"pass", "passed"}
	reasoningKeys = []string{"reasoning", "explanation", "rationale", "reason", "justification", "concise_explanation"}
)

// rankingKey is AlpacaEval's ranking field: [{"model": "m", "rank": 1}, ...].
const rankingKey = "ordered_models"

// ParseVerdict reads a verdict from what a judge model wrote. It never
// guesses: an answer it cannot read with certainty is an error wrapping
// ErrUnreadableVerdict, never a low score. The zero Scale means
// DefaultScale; an invalid scale is an error that does not wrap
// ErrUnreadableVerdict (the caller's mistake, not the judge's).
//
// JSON verdicts come first: a JSON object that is the whole answer, or in
// the first ```json fence (else the first untagged fence holding an
// object), or else the first object embedded in prose (internal/jsonx's
// Prose mode). When the answer holds a JSON object, only that first
// object's top-level fields decide: the text around it, later objects and
// its reasoning are never scanned for a grade. Keys are case-sensitive, and
// null is the same as absent:
//
//   - score, rating: a number (8, 8.5), a string holding one ("8", "8.5",
//     as WildBench writes), or "8/10" whose denominator must be the scale's
//     Max. Both present must agree.
//   - grade, label, verdict, decision, winner: a string, kept in Label as
//     written (grading normalizes, not the parser); "" is absent. All
//     present must agree.
//   - ordered_models (AlpacaEval): [{"model": "m", "rank": 1}, ...]; the
//     one model ranked 1 is the Label.
//   - pass, passed: true or false, into Passed. Both present must agree.
//   - reasoning, explanation, rationale, reason, justification,
//     concise_explanation: the first that is a non-empty string is the
//     Reasoning.
//
// The object needs a score, label or pass field. Fields holds the whole
// object, numbers as json.Number. A key given twice with different values
// is an error.
//
// Otherwise, verdicts in the text are read, outside code fences (from a
// line starting with ``` or ~~~ to its closing line):
//
//   - a bracketed score, as MT-Bench's judge prompts ask, anywhere in a
//     line: a number, or a fraction whose denominator is the scale's Max;
//   - a bracketed pairwise label, uppercase A, B or C (C is a tie), into
//     Label;
//   - a line that starts with "Score" or "Rating" (any case; "Final" or
//     "Overall" before it, markdown bold or a heading around it are fine)
//     then ":" or "=" and a number or a fraction (denominator = Max),
//     followed by nothing but a period or a parenthesis.
//
// For example, on a 1 to 10 scale:
//
//	Rating: [[8]]                       score 8
//	... I would rate it a [[8.5]].      score 8.5
//	[[8/10]]                            score 8
//	Final verdict: [[C]]                label "C"
//	Score: 7                            score 7
//	**Final rating:** 8 out of 10       score 8
//	Rating = 7.5 (good)                 score 7.5
//	Score: 4/5                          an error: the scale's Max is 10
//
// The same verdict may be repeated; two different ones are an error
// ("conflicting"), and so is a score beside a label. Brackets holding
// anything else ("[[rating]]", code such as "[[1, 2], [3, 4]]") are not
// verdicts; Arena-Hard's "[[A>B]]" is an error, as it is not read.
//
// Everything else is an error: empty text; FastChat's "$ERROR$" marker of a
// failed judge call; an answer cut off inside a JSON value or inside "[[";
// a JSON value that is not an object ("null", an array); a bare number
// ("5.0") with nothing saying it is a score; a single-bracket "[8]"
// (MT-Bench's fallback rule took "[0]" from code); prose such as "I would
// rate it a 10", "10/10" mid-sentence or "Confidence: 9/10"; a "Score:"
// line with words after its number; text that looks like a JSON verdict
// ("score": 8) where no JSON object can be read; a score outside the scale
// or not finite; an answer so odd (over 1000 code fences, say) that the
// search for JSON gives up. Messages are bounded: they quote at most about
// 200 bytes of the answer.
//
// On success, Raw is raw, RawScore is the number as written (8 for
// "8/10"), Score is it normalized to [0,1] by the scale, and Scored is true
// when a score was read (a pairwise label is not one). Reasoning comes only
// from a JSON field; for a text verdict the explanation is Raw.
//
// The work is a small multiple of len(raw): a 50 MB answer takes from
// tens of milliseconds to about two seconds for the most hostile shapes
// (see BenchmarkParseVerdict50MB).
func ParseVerdict(raw string, scale Scale) (Verdict, error) {
	scale = scale.OrDefault()
	if err := scale.Validate(); err != nil {
		return Verdict{}, err
	}
	text := strings.TrimSpace(raw)
	switch {
	case text == "":
		return Verdict{}, unreadable("the answer is empty")
	case text == "$ERROR$":
		return Verdict{}, unreadable("the judge call failed: the answer is FastChat's $ERROR$ marker, not a verdict")
	}
	mode := jsonx.Wrapped
	if strings.IndexByte(raw, '{') >= 0 {
		mode = jsonx.Prose // only an object is a verdict, and one needs a '{'
	}
	found, err := jsonx.Extract(raw, mode)
	if err == nil && isObject(found.JSON) {
		v, err := parseJSONVerdict(found, scale)
		if err != nil {
			return Verdict{}, err
		}
		v.Raw = raw
		return v, nil
	}
	var jerr *jsonx.Error
	if errors.As(err, &jerr) {
		if jerr.CutOff {
			return Verdict{}, unreadable("the answer is cut off: %s", textnorm.Excerpt(jerr.Msg, maxMsg))
		}
		if jerr.GaveUp {
			return Verdict{}, unreadable("gave up looking for a JSON verdict: %s", textnorm.Excerpt(jerr.Msg, maxMsg))
		}
	}
	// An answer that stops inside "[[" was cut off while writing a verdict,
	// whatever it wrote before.
	end := text[max(0, len(text)-maxBracket-2):]
	if i := strings.LastIndex(end, "[["); i >= 0 && !strings.Contains(end[i:], "]]") && !strings.Contains(end[i:], "\n") {
		return Verdict{}, unreadable("the answer is cut off inside a bracketed verdict: it ends %s", verdictTail(text, 40))
	}
	v, err := parseTextVerdict(raw, scale, found, jerr)
	if err != nil {
		return Verdict{}, err
	}
	v.Raw = raw
	return v, nil
}

// Bounds on what error messages quote, in bytes.
const (
	maxQuote = 100 // a piece of the answer: at most twice that once quoted
	maxMsg   = 300 // a message from internal/jsonx
	maxKey   = 40  // a JSON key
	maxKeys  = 10  // how many keys a message lists
)

func unreadable(format string, args ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrUnreadableVerdict}, args...)...)
}

// isObject reports whether a JSON value's text is an object.
func isObject(j json.RawMessage) bool {
	j = bytes.TrimSpace(j)
	return len(j) > 0 && j[0] == '{'
}

// reading is one verdict the answer states: a score or a label. Its
// description for messages is built only when a message needs it.
type reading struct {
	isLabel bool
	label   string
	score   float64 // the number as written (the numerator of "8/10")
	denom   float64 // 0 when none was written
	as      string  // the bracket's content, the line, or a JSON field's description
	kind    byte    // 'b' bracketed, 'l' a score line, 'j' a JSON field
	line    int     // for 'b' and 'l'
}

func (r reading) same(o reading) bool {
	if r.isLabel != o.isLabel {
		return false
	}
	if r.isLabel {
		return r.label == o.label
	}
	return r.score == o.score
}

// String describes where the verdict was written: "[[8]] at line 12",
// "the line "Score: 4/5" (line 3)", "score \"8\"".
func (r reading) String() string {
	switch r.kind {
	case 'b':
		return fmt.Sprintf("[[%s]] at line %d", textnorm.Excerpt(r.as, maxBracket), r.line)
	case 'l':
		return fmt.Sprintf("the line %s (line %d)", verdictQuote(strings.TrimSpace(r.as), 80), r.line)
	}
	return r.as
}

// tally keeps the first score, the first label and the first conflict of
// the readings it is given, in constant space.
type tally struct {
	score, label       reading
	hasScore, hasLabel bool
	conflict           error
}

func (t *tally) add(r reading) {
	if t.conflict != nil {
		return
	}
	first, has, what := &t.score, &t.hasScore, "scores"
	if r.isLabel {
		first, has, what = &t.label, &t.hasLabel, "labels"
	}
	switch {
	case !*has:
		*first, *has = r, true
	case !first.same(r):
		t.conflict = fmt.Errorf("conflicting %s: %v and %v", what, *first, r)
		return
	}
	if t.hasScore && t.hasLabel {
		t.conflict = fmt.Errorf("conflicting verdicts: a score, %v, and a label, %v", t.score, t.label)
	}
}

// parseJSONVerdict reads the verdict fields of a JSON object.
func parseJSONVerdict(found jsonx.Found, scale Scale) (Verdict, error) {
	fields, keys, err := decodeObject(found.JSON)
	if err != nil {
		return Verdict{}, unreadable("the JSON object in %s: %v", found.From, err)
	}
	fail := func(format string, args ...any) (Verdict, error) {
		return Verdict{}, unreadable("the JSON verdict in %s: %s", found.From, fmt.Sprintf(format, args...))
	}

	var scores, labels tally
	for _, k := range scoreKeys {
		val, ok := fields[k]
		if !ok || val == nil {
			continue
		}
		r, err := jsonScore(k, val)
		if err != nil {
			return fail("%v", err)
		}
		scores.add(r)
	}
	for _, k := range labelKeys {
		val, ok := fields[k]
		if !ok || val == nil {
			continue
		}
		s, isStr := val.(string)
		if !isStr {
			return fail("field %s is %s, want a string", k, jsonKind(val))
		}
		if strings.TrimSpace(s) == "" {
			continue
		}
		labels.add(reading{isLabel: true, label: s, kind: 'j', as: k + " " + verdictQuote(s, 60)})
	}
	if val, ok := fields[rankingKey]; ok && val != nil {
		model, err := rankOne(val)
		if err != nil {
			return fail("%v", err)
		}
		labels.add(reading{isLabel: true, label: model, kind: 'j', as: "the model ranked 1 in " + rankingKey + ", " + verdictQuote(model, 60)})
	}
	var passed *bool
	passFrom := ""
	for _, k := range passKeys {
		val, ok := fields[k]
		if !ok || val == nil {
			continue
		}
		b, isBool := val.(bool)
		if !isBool {
			return fail("field %s is %s, want true or false", k, jsonKind(val))
		}
		if passed != nil && *passed != b {
			return fail("conflicting pass fields: %s is %v, %s is %v", passFrom, *passed, k, b)
		}
		passed, passFrom = &b, k
	}
	if !scores.hasScore && !labels.hasLabel && passed == nil {
		return fail("no verdict field: want %s, %s, %s or %s (case-sensitive); the object has %s",
			strings.Join(scoreKeys, ", "), strings.Join(labelKeys, ", "), strings.Join(passKeys, ", "), rankingKey, verdictKeyList(keys))
	}
	for _, t := range []tally{scores, labels} {
		if t.conflict != nil {
			return fail("%v", t.conflict)
		}
	}

	v := Verdict{Passed: passed, Fields: fields}
	if scores.hasScore {
		if err := v.setScore(scores.score, scale); err != nil {
			return fail("%v", err)
		}
	}
	if labels.hasLabel {
		v.Label = labels.label.label
	}
	for _, k := range reasoningKeys {
		if s, ok := fields[k].(string); ok && strings.TrimSpace(s) != "" {
			v.Reasoning = s
			break
		}
	}
	return v, nil
}

// decodeObject decodes a JSON object, numbers as json.Number, and returns
// its keys in order of appearance. A key given twice with different values
// is an error: encoding/json alone would silently keep the last one.
func decodeObject(obj json.RawMessage) (map[string]any, []string, error) {
	dec := json.NewDecoder(bytes.NewReader(obj))
	dec.UseNumber()
	if _, err := dec.Token(); err != nil { // '{'
		return nil, nil, err
	}
	fields := map[string]any{}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		k, _ := tok.(string)
		var val any
		if err := dec.Decode(&val); err != nil {
			return nil, nil, err
		}
		if prev, dup := fields[k]; dup {
			if !reflect.DeepEqual(prev, val) {
				return nil, nil, fmt.Errorf("key %s is given twice, with different values", quoteKey(k))
			}
			continue
		}
		fields[k] = val
		keys = append(keys, k)
	}
	return fields, keys, nil
}

// jsonScore reads a score field: a number, or a string holding one ("8",
// "8.5", "8/10").
func jsonScore(key string, val any) (reading, error) {
	switch s := val.(type) {
	case json.Number:
		f, err := strconv.ParseFloat(string(s), 64)
		if err != nil || math.IsInf(f, 0) {
			return reading{}, fmt.Errorf("field %s is %s, not a finite number", key, textnorm.Excerpt(string(s), 40))
		}
		return reading{score: f, kind: 'j', as: key + " " + textnorm.Excerpt(string(s), 40)}, nil
	case string:
		num, denom, n := scanScore(strings.TrimSpace(s))
		if n == 0 || n != len(strings.TrimSpace(s)) {
			return reading{}, fmt.Errorf("field %s is the string %s, which is not a number", key, verdictQuote(s, 60))
		}
		return reading{score: num, denom: denom, kind: 'j', as: key + " " + verdictQuote(s, 60)}, nil
	}
	return reading{}, fmt.Errorf("field %s is %s, want a number", key, jsonKind(val))
}

// rankOne returns the model AlpacaEval's ordered_models ranks first.
func rankOne(val any) (string, error) {
	list, ok := val.([]any)
	if !ok {
		return "", fmt.Errorf("field %s is %s, want an array of {model, rank}", rankingKey, jsonKind(val))
	}
	var firsts []string
	for i, e := range list {
		obj, ok := e.(map[string]any)
		if !ok {
			return "", fmt.Errorf("%s[%d] is %s, want {model, rank}", rankingKey, i, jsonKind(e))
		}
		model, ok := obj["model"].(string)
		if !ok {
			return "", fmt.Errorf("%s[%d].model is %s, want a string", rankingKey, i, jsonKind(obj["model"]))
		}
		var rank float64
		switch r := obj["rank"].(type) {
		case json.Number:
			rank, _ = strconv.ParseFloat(string(r), 64)
		case string:
			rank, _ = strconv.ParseFloat(strings.TrimSpace(r), 64)
		default:
			return "", fmt.Errorf("%s[%d].rank is %s, want a number", rankingKey, i, jsonKind(obj["rank"]))
		}
		if rank == 1 {
			firsts = append(firsts, model)
		}
	}
	switch {
	case len(firsts) == 0:
		return "", fmt.Errorf("no model has rank 1 in %s", rankingKey)
	case len(firsts) == 1 && strings.TrimSpace(firsts[0]) == "":
		return "", fmt.Errorf("the model ranked 1 in %s has an empty name", rankingKey)
	case len(firsts) == 1:
		return firsts[0], nil
	}
	return "", fmt.Errorf("%d models have rank 1 in %s: %s and %s", len(firsts), rankingKey, verdictQuote(firsts[0], 60), verdictQuote(firsts[1], 60))
}

// setScore checks a score reading against the scale and sets it.
func (v *Verdict) setScore(r reading, scale Scale) error {
	if r.denom != 0 && r.denom != scale.Max {
		return fmt.Errorf("%v is out of %v, but the scale is [%v, %v]", r, r.denom, scale.Min, scale.Max)
	}
	if math.IsNaN(r.score) || math.IsInf(r.score, 0) {
		return fmt.Errorf("%v is not a finite number", r)
	}
	if r.score < scale.Min || r.score > scale.Max {
		return fmt.Errorf("%v is outside the scale [%v, %v]", r, scale.Min, scale.Max)
	}
	norm, err := scale.Normalize(r.score)
	if err != nil { // unreachable: checked above
		return err
	}
	v.Score, v.RawScore, v.Scored = norm, r.score, true
	return nil
}

// parseTextVerdict reads bracketed verdicts and score lines outside code
// fences. found and jerr are what internal/jsonx returned: a JSON value
// that is not an object, or why there is none.
func parseTextVerdict(raw string, scale Scale, found jsonx.Found, jerr *jsonx.Error) (Verdict, error) {
	var (
		t         tally
		fence     fenceState
		lineNo    int
		inFence   *reading // a verdict seen inside a code fence, for the message
		jsonLike  string   // where text looks like a JSON verdict
		unsupport string   // a bracketed verdict this parser does not read
		badLine   string   // a score line with more after its number
		badDenom  *reading // a denominator that is not the scale's Max
	)
	for rest := raw; rest != ""; {
		var line string
		if i := strings.IndexByte(rest, '\n'); i >= 0 {
			line, rest = rest[:i], rest[i+1:]
		} else {
			line, rest = rest, ""
		}
		lineNo++
		line = strings.TrimSuffix(line, "\r")
		if fence.line(line) {
			continue // an opening or closing fence line
		}
		if jsonLike == "" && (!fence.in || fence.jsonish) {
			if k, ok := jsonVerdictKey(line); ok {
				jsonLike = fmt.Sprintf("%q at line %d", k, lineNo)
			}
		}
		if fence.in {
			if inFence == nil {
				brackets(line, func(content string) bool {
					if r, ok := bracketVerdict(content); ok {
						r.line = lineNo
						seen := r
						inFence = &seen
						return false
					}
					return true
				})
			}
			continue
		}
		brackets(line, func(content string) bool {
			r, ok := bracketVerdict(content)
			switch {
			case ok:
				r.line = lineNo
				if r.denom != 0 && r.denom != scale.Max && badDenom == nil {
					bad := r
					badDenom = &bad
				}
				t.add(r)
			case unsupport == "" && isComparison(content):
				unsupport = fmt.Sprintf("[[%s]] at line %d", textnorm.Excerpt(content, maxBracket), lineNo)
			}
			return true
		})
		switch r, found, bad := lineVerdict(line); {
		case bad:
			if badLine == "" {
				badLine = fmt.Sprintf("the line %s (line %d)", verdictQuote(strings.TrimSpace(line), 80), lineNo)
			}
		case found:
			r.as, r.line = line, lineNo
			if r.denom != 0 && r.denom != scale.Max && badDenom == nil {
				bad := r
				badDenom = &bad
			}
			t.add(r)
		}
	}

	switch {
	case jsonLike != "":
		why := "it is not valid JSON"
		switch {
		case jerr != nil:
			why = textnorm.Excerpt(jerr.Msg, maxMsg)
		case len(found.JSON) > 0:
			why = "the first JSON value, in " + found.From + ", is not an object"
		}
		return Verdict{}, unreadable("the answer looks like a JSON verdict (key %s) but no JSON object could be read: %s", jsonLike, why)
	case unsupport != "":
		return Verdict{}, unreadable("the bracketed verdict %s is not one this parser reads (it reads [[8]], [[8.5]], [[A]], [[B]], [[C]])", unsupport)
	case badLine != "":
		return Verdict{}, unreadable("%s has more after its score than this parser can read with certainty", badLine)
	case t.conflict != nil:
		return Verdict{}, unreadable("%v", t.conflict)
	case badDenom != nil:
		return Verdict{}, unreadable("%v is out of %v, but the scale is [%v, %v]", *badDenom, badDenom.denom, scale.Min, scale.Max)
	case t.hasLabel:
		return Verdict{Label: t.label.label}, nil
	case t.hasScore:
		var v Verdict
		if err := v.setScore(t.score, scale); err != nil {
			return Verdict{}, unreadable("%v", err)
		}
		return v, nil
	}
	return Verdict{}, noVerdict(raw, inFence)
}

// noVerdict is the error for an answer with nothing this parser reads.
func noVerdict(raw string, inFence *reading) error {
	text := strings.TrimSpace(raw)
	var hint string
	if _, n := scanNumber(text); n > 0 && n == len(text) {
		hint = fmt.Sprintf("; a bare number (%s) does not say it is a score: want [[%s]] or \"Rating: %s\"", text, text, text)
	} else if inFence != nil {
		hint = fmt.Sprintf("; %v is inside a code fence, where verdicts are not read", *inFence)
	}
	return unreadable("no verdict this parser can read with certainty (it reads a JSON object with a score, label or pass field, [[8]], [[A]], or a line \"Score: 8\")%s; the answer ends %s",
		hint, verdictTail(text, maxQuote))
}

// maxBracket bounds what "[[...]]" may hold to be read as a verdict.
const maxBracket = 24

// brackets calls fn with the content of each "[[...]]" in line (at most
// maxBracket bytes, trimmed of spaces) until fn returns false. In "[[[8]]]"
// the content is "8".
func brackets(line string, fn func(content string) bool) {
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
		if !fn(strings.TrimSpace(window[:end])) {
			return
		}
	}
}

// bracketVerdict reads the content of "[[...]]": a score ("8", "8.5",
// "8/10") or a pairwise label ("A", "B", "C").
func bracketVerdict(content string) (reading, bool) {
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
// "**Final score:** 4/5", "## Rating: 8 out of 10". found is false for a
// line that does not start with a score label followed by a number; bad is
// true for one that does but has more after the number than a closing
// period or a parenthesis.
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
	rest := strings.TrimRight(s[n:], "*_. \t")
	rest = strings.TrimLeft(rest, " \t")
	if rest != "" && !(rest[0] == '(' && rest[len(rest)-1] == ')') {
		return reading{}, false, true
	}
	return reading{score: num, denom: denom, kind: 'l'}, true, false
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

// fenceState follows markdown code fences line by line: a line starting
// (after indentation) with three or more backticks or tildes opens a fence,
// and a line holding only a run of the same character at least as long
// closes it.
type fenceState struct {
	in      bool
	jsonish bool // tagged json (or untagged): JSON verdicts may live there
	marker  byte
	n       int
}

// line advances the state over one line and reports whether it was a
// fence's opening or closing line.
func (f *fenceState) line(line string) bool {
	s := strings.TrimLeft(line, " \t")
	if len(s) < 3 || (s[0] != '`' && s[0] != '~') {
		return false
	}
	n := 0
	for n < len(s) && s[n] == s[0] {
		n++
	}
	if n < 3 {
		return false
	}
	rest := strings.TrimSpace(s[n:])
	if f.in {
		if s[0] == f.marker && n >= f.n && rest == "" {
			*f = fenceState{}
			return true
		}
		return false
	}
	tag := rest
	if i := strings.IndexAny(tag, " \t{"); i >= 0 {
		tag = tag[:i]
	}
	if s[0] == '`' && strings.Contains(rest, "`") {
		return false // "```code```" on one line is inline code, not a fence
	}
	tag = strings.ToLower(tag)
	*f = fenceState{in: true, marker: s[0], n: n, jsonish: tag == "" || strings.HasPrefix(tag, "json")}
	return true
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
