package evalkit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"

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
// A JSON verdict alone — an object that is the whole answer, or the body
// of a ```json (or untagged) fence that is the whole answer — is read from
// its top-level fields only; its reasoning is never scanned for a grade.
// Keys are case-sensitive, and null is the same as absent:
//
//   - score, rating: a number (8, 8.5), a string holding one ("8", "8.5",
//     as WildBench writes), or "8/10" whose denominator must be the scale's
//     Max. Both present must agree.
//   - grade, label, verdict, decision, winner: a string, kept in Label as
//     written (grading normalizes, not the parser); "" is absent. All
//     present must agree.
//   - ordered_models (AlpacaEval): [{"model": "m", "rank": 1}, ...]; the
//     one model ranked 1 is the Label.
//   - pass, passed: true or false, into Passed. Both present must agree,
//     and with a label that says pass or fail (see PassFailLabel):
//     {"verdict": "FAIL", "passed": true} is an error.
//   - reasoning, explanation, rationale, reason, justification,
//     concise_explanation: the first that is a non-empty string is the
//     Reasoning.
//
// The object needs a score, label or pass field. Fields holds the whole
// object, numbers as json.Number. A key given twice with different values
// is an error.
//
// JSON among other text — an object in prose, in one of several fences, or
// beside a "Rating: [[8]]" — is not trusted alone, as a judge may quote
// the output it grades, and that output may hold a verdict the agent wrote.
// Every JSON object outside fences tagged with another language (```python)
// is read as above: one without a score, label or pass field is not a
// verdict (a quoted {"status": "ok"}); one with a broken verdict field is
// an error. The verdicts written in the text are read too, outside code
// fences and outside every JSON object (so never inside a reasoning
// string). All the verdicts found must agree — the same score, label and
// pass/fail, each stated by all or by none — else the answer is an error
// ("conflicting verdicts", naming two of them). When a JSON object is the
// only verdict, Fields and Reasoning are its own; when the verdict is
// stated more than once, which object's other fields are the judge's
// cannot be told, and Fields and Reasoning are left empty. At most 1000
// objects are read, and a bounded amount of text from the places that
// could start one; past that the answer is an error. On a 1 to 10 scale:
//
//	The agent returned {"status": "ok"}.    score 8: that object is
//	Rating: [[8]]                           not a verdict
//
//	The agent wrote {"score": 10}.          an error: conflicting verdicts,
//	Rating: [[2]]                           score 10 and [[2]]
//
//	```json                                 score 8, with no Fields: the
//	{"score": 8, "reasoning": "..."}        verdict is stated twice
//	```
//	Rating: [[8]]
//
// The verdicts written in the text are read outside code fences. A fence
// opens with three or more backticks or tildes at the start of a line,
// indented or not (as in a list item), or with backticks after other text
// when at most a language tag follows them ("The agent wrote ```python");
// it closes with a run of the same marker, at least as long, that ends a
// line ("```" alone, or "}```" after code), and one never closed runs to
// the end of the answer. The search for JSON objects reads the same
// fences, so the two agree on what is code.
//
// A verdict inside a fence is not the answer's verdict, with one
// exception: when no verdict outside fences competes, a verdict line alone
// in a closed fence that ends the answer, or on the last line of a fence
// never closed (quoted code that opened one), is the verdict, if every
// verdict inside fences agrees with it. A verdict in a fence may also
// contradict the answer's verdict: the judge may
// quote an output that grades itself. Inside a closed fence only verdict
// lines count: a score line as below, or a bracketed verdict alone on its
// line after at most words naming a verdict ("[[2]]", "Rating: [[2]]",
// "My final verdict is [[B]]."); code holding brackets ("grid = [[3]]",
// "return [[1]]", "print([[2]])") and prose with a verdict mid-line do not.
// Inside a fence never closed, which may be the judge's own text running
// on, every verdict prose would read counts. Those verdicts must agree with
// the answer's, and with each other, else the answer is an error:
//
//	Rating: [[10]]                      an error: conflicting verdicts,
//	```text                             [[10]] and "Score: 2" inside a
//	Score: 2                            code fence
//	```
//
// Outside fences, the text's verdicts are:
//
//   - a bracketed score, as MT-Bench's judge prompts ask, anywhere in a
//     line: a number, or a fraction whose denominator is the scale's Max,
//     after at most "Rating:" or "Score:" ("[[Rating: 8]]", "[[Rating: [[9]]]]");
//     a denominator right after the brackets ("[[4]] out of 5", "[[4]]/5",
//     "[[4]] (out of 5)") is the fraction's, and must be the Max too;
//   - a bracketed pairwise label, uppercase A, B or C (C is a tie), into
//     Label;
//   - a line that starts with "Score" or "Rating" (any case; "Final" or
//     "Overall" before it, markdown bold or a heading around it are fine)
//     then ":" or "=" and a number or a fraction (denominator = Max, also
//     when written in parentheses: "4 (out of 5)"), followed by nothing
//     but a period or a parenthesis of words ("(good)"). A parenthesis
//     holding a digit, "/" or "out of" that is not the denominator ("8 (I
//     mean 2)", "8 (80%)") is an error, never ignored.
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
//	Score: 4 (out of 5)                 the same error
//	Rating: [[4]] out of 5              the same error
//	Score: 8 (I mean 2)                 an error: a second number
//
// The same verdict may be repeated; two different ones are an error
// ("conflicting"), and so is a score beside a label. Brackets holding
// anything else ("[[rating]]", code such as "[[1, 2], [3, 4]]") are not
// verdicts; Arena-Hard's "[[A>B]]" is an error here (read it with a
// declared format: ParseVerdictFor and package verdicts).
//
// Everything else is an error: empty text; FastChat's "$ERROR$" marker of a
// failed judge call; an answer cut off inside a JSON value or inside "[[";
// a JSON verdict and a text verdict, or two JSON verdicts, that disagree;
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
// The work is linear in len(raw): a 50 MB answer of prose or repeated
// verdicts takes from tens of milliseconds to about two seconds (see
// BenchmarkParseVerdict50MB). One valid 50 MB JSON object is decoded whole
// by encoding/json, which takes 5 to 15 s and 2 to 3 GB; the real judges
// never pass on more than 16 MiB.
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
	// The fences are read once: Extract, Objects and the text scan all
	// take these, so they agree on what is code. A text that is JSON as
	// a whole holds no fence, so giving up here loses no JSON verdict.
	fs, err := jsonx.Fences(raw)
	if err != nil {
		return Verdict{}, unreadable("gave up looking for a JSON verdict: %s", textnorm.Excerpt(err.Error(), maxMsg))
	}
	mode := jsonx.Wrapped
	if strings.IndexByte(raw, '{') >= 0 {
		mode = jsonx.Prose // only an object is a verdict, and one needs a '{'
	}
	found, err := jsonx.ExtractFenced(raw, fs, mode)
	alone := err == nil && isAlone(raw, fs, found)
	if alone && isObject(found.JSON) {
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
	var v Verdict
	if err == nil && !alone {
		v, err = parseMixed(raw, fs, scale, found)
	} else {
		v, err = parseTextVerdict(raw, fs, scale, found, jerr)
	}
	if err != nil {
		return Verdict{}, err
	}
	v.Raw = raw
	return v, nil
}

// isAlone reports whether the JSON value found is all the answer holds:
// the whole text, or the body of the one code fence that is the whole
// text (```json, or untagged), opened on a line of its own and closed.
func isAlone(raw string, fs []jsonx.Fence, found jsonx.Found) bool {
	if strings.TrimSpace(raw) == string(found.JSON) {
		return true
	}
	if len(fs) != 1 {
		return false
	}
	f := fs[0]
	return f.Kind() != jsonx.OtherTagged && f.Closed && !f.MidLine &&
		strings.TrimSpace(raw[:f.Start]) == "" && strings.TrimSpace(raw[f.End:]) == "" &&
		strings.TrimSpace(raw[f.BodyStart:f.BodyEnd]) == string(found.JSON)
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

// parseJSONVerdict reads the verdict fields of the JSON object that is the
// whole answer.
func parseJSONVerdict(found jsonx.Found, scale Scale) (Verdict, error) {
	jv, ok, err := readObject(found.JSON, scale, func() string { return found.From })
	switch {
	case err != nil:
		return Verdict{}, err
	case !ok:
		return Verdict{}, unreadable("the JSON verdict in %s: no verdict field: want %s, %s, %s or %s (case-sensitive); the object has %s",
			found.From, strings.Join(scoreKeys, ", "), strings.Join(labelKeys, ", "), strings.Join(passKeys, ", "), rankingKey, verdictKeyList(jv.keys))
	}
	return jv.v, nil
}

// objectVerdict is what a JSON object states.
type objectVerdict struct {
	v    Verdict  // with Fields and Reasoning
	says string   // its verdict fields, for messages: `score 8, pass true`
	keys []string // its keys, in order
}

// readObject reads the verdict fields of a JSON object's text. ok is
// false when it has none: no score, label, ranking or pass field that is
// not null (or ""). where names the object in messages ("the whole text").
func readObject(obj json.RawMessage, scale Scale, where func() string) (jv objectVerdict, ok bool, err error) {
	fields, keys, err := decodeObject(obj)
	if err != nil {
		return objectVerdict{}, false, unreadable("the JSON object in %s: %v", where(), err)
	}
	fail := func(format string, args ...any) (objectVerdict, bool, error) {
		return objectVerdict{}, false, unreadable("the JSON verdict in %s: %s", where(), fmt.Sprintf(format, args...))
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
		return objectVerdict{keys: keys}, false, nil
	}
	if labels.hasLabel && passed != nil {
		if b, ok := PassFailLabel(labels.label.label); ok && b != *passed {
			return fail("conflicting verdicts: %v, but %s is %v", labels.label, passFrom, *passed)
		}
	}
	for _, t := range []tally{scores, labels} {
		if t.conflict != nil {
			return fail("%v", t.conflict)
		}
	}

	jv = objectVerdict{v: Verdict{Passed: passed, Fields: fields}, keys: keys}
	var says []string
	if scores.hasScore {
		if err := jv.v.setScore(scores.score, scale); err != nil {
			return fail("%v", err)
		}
		says = append(says, scores.score.String())
	}
	if labels.hasLabel {
		jv.v.Label = labels.label.label
		says = append(says, labels.label.String())
	}
	if passed != nil {
		says = append(says, fmt.Sprintf("%s %v", passFrom, *passed))
	}
	jv.says = strings.Join(says, ", ")
	for _, k := range reasoningKeys {
		if s, ok := fields[k].(string); ok && strings.TrimSpace(s) != "" {
			jv.v.Reasoning = s
			break
		}
	}
	return jv, true, nil
}

// PassFailLabel reports whether label is a word that states pass or fail
// without doubt, and which: "pass", "passed", "yes", "true", "correct"
// pass; "fail", "failed", "no", "false", "incorrect" fail (any case,
// around spaces trimmed). A verdict whose label says one while its Passed
// says the other contradicts itself: ParseVerdict reads it as no verdict,
// and grading (assert.GradeVerdict) refuses it.
func PassFailLabel(label string) (passed, ok bool) {
	switch strings.ToLower(strings.TrimSpace(label)) {
	case "pass", "passed", "yes", "true", "correct":
		return true, true
	case "fail", "failed", "no", "false", "incorrect":
		return false, true
	}
	return false, false
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
