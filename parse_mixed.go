package evalkit

// Answers that hold JSON among other text: every JSON object with verdict
// fields, and the verdicts written in the text outside them, must agree.
// See ParseVerdict.

import (
	"encoding/json"
	"errors"
	"io"
	"strings"

	"github.com/evalkit-go/evalkit/internal/jsonx"
)

// Bounds of the search for JSON objects in an answer.
const (
	maxObjects       = 1000     // JSON objects read, with verdict fields or not
	maxFailedStarts  = 10000    // '{' that start no JSON object
	minObjectBudget  = 16 << 20 // bytes read from the starts, at least
	objectBudgetMult = 2        // or this many times the answer's length
)

// parseMixed reads an answer in which JSON is not alone: found is the
// first JSON value internal/jsonx found in it. Every JSON object outside
// fences tagged with another language is read; those with verdict fields
// and the text's own verdict, read outside fences and objects, must agree.
func parseMixed(raw string, scale Scale, found jsonx.Found) (Verdict, error) {
	objs, err := findObjects(raw)
	if err != nil {
		return Verdict{}, err
	}
	var (
		claims    []claim
		plain     string // the first object without verdict fields
		foundText = string(found.JSON)
		seenFound = !isObject(found.JSON)
	)
	for _, o := range objs {
		text := raw[o.start:o.end]
		seenFound = seenFound || text == foundText
		where := func() string { return "the text at " + jsonx.Position(raw, o.start) }
		jv, ok, err := readObject(json.RawMessage(text), scale, where)
		switch {
		case err != nil:
			return Verdict{}, err
		case ok:
			claims = append(claims, claim{v: jv.v, json: true, says: func() string {
				return jv.says + " in the JSON object in " + where()
			}})
		case plain == "":
			plain = "the JSON object in " + where() + " (" + verdictKeyList(jv.keys) + ")"
		}
	}
	if !seenFound {
		// internal/jsonx read an object where the line-by-line search
		// did not (in what it took for a code fence): it counts too.
		jv, ok, err := readObject(found.JSON, scale, func() string { return found.From })
		switch {
		case err != nil:
			return Verdict{}, err
		case ok:
			claims = append(claims, claim{v: jv.v, json: true, says: func() string {
				return jv.says + " in the JSON object in " + found.From
			}})
		}
	}

	tv := scanText(maskObjects(raw, objs), scale)
	why := "it is not valid JSON"
	if len(objs) == 0 && !isObject(found.JSON) {
		why = "the first JSON value, in " + found.From + ", is not an object"
	}
	if err := tv.err(scale, why); err != nil {
		return Verdict{}, err
	}
	if v, ok, err := tv.verdict(scale); err != nil {
		return Verdict{}, err
	} else if ok {
		claims = append(claims, claim{v: v, says: tv.said})
	}

	if len(claims) == 0 {
		return Verdict{}, noVerdict(raw, tv.inFence, plain)
	}
	first := claims[0]
	for _, c := range claims[1:] {
		if !first.agrees(c) {
			return Verdict{}, unreadable("conflicting verdicts: %s, and %s", first.says(), c.says())
		}
	}
	v := Verdict{Score: first.v.Score, RawScore: first.v.RawScore, Scored: first.v.Scored, Label: first.v.Label, Passed: first.v.Passed}
	if len(claims) == 1 && first.json {
		// The one verdict object: its other fields are the judge's too.
		v.Fields, v.Reasoning = first.v.Fields, first.v.Reasoning
	}
	return v, nil
}

// claim is one verdict an answer states: a JSON object's, or the text's.
type claim struct {
	v    Verdict
	json bool
	says func() string // for messages: "score 8 in the JSON object in the text at line 2, column 5"
}

// agrees reports whether two claims state the same verdict: the same
// score, label and pass/fail, each given by both or by neither.
func (c claim) agrees(o claim) bool {
	a, b := c.v, o.v
	return a.Scored == b.Scored && a.RawScore == b.RawScore && a.Label == b.Label &&
		(a.Passed == nil) == (b.Passed == nil) && (a.Passed == nil || *a.Passed == *b.Passed)
}

// span is a JSON object's place in an answer: raw[start:end].
type span struct{ start, end int }

// findObjects returns the JSON objects of raw outside code fences tagged
// with another language (```python), left to right: each '{' that starts
// one, the object then skipped whole (an object inside it is its value).
// An object that the answer ends inside is an error (cut off), and so is
// more work than the bounds above allow.
func findObjects(raw string) ([]span, error) {
	budget := max(minObjectBudget, objectBudgetMult*len(raw))
	var (
		objs   []span
		failed int
		fence  fenceState
	)
	for pos := 0; pos < len(raw); {
		lineEnd := len(raw)
		if i := strings.IndexByte(raw[pos:], '\n'); i >= 0 {
			lineEnd = pos + i
		}
		if pos == 0 || raw[pos-1] == '\n' {
			line := strings.TrimSuffix(raw[pos:lineEnd], "\r")
			if fence.line(line) || (fence.in && !fence.jsonish) {
				pos = lineEnd + 1
				continue
			}
		}
		next := lineEnd + 1 // where to go on: the next line, or after an object that ends on a later one
		for pos < lineEnd {
			k := strings.IndexByte(raw[pos:lineEnd], '{')
			if k < 0 {
				break
			}
			at := pos + k
			pos = at + 1
			if !objectStart(raw, at) {
				continue
			}
			end, read, err := objectEnd(raw, at)
			budget -= read
			switch {
			case err == nil && len(objs) == maxObjects:
				return nil, unreadable("gave up looking for JSON verdicts: the answer holds more than %d JSON objects", maxObjects)
			case err == nil:
				objs = append(objs, span{at, end})
				pos = end
			case errors.Is(err, io.ErrUnexpectedEOF):
				return nil, unreadable("the answer is cut off: it ends inside the JSON object at %s", jsonx.Position(raw, at))
			default:
				failed++
			}
			if budget < 0 || failed > maxFailedStarts {
				return nil, unreadable("gave up looking for JSON verdicts: %d '{' start no JSON object (the search's work limit)", failed)
			}
			if pos > lineEnd {
				next = pos
				break
			}
		}
		pos = next
	}
	return objs, nil
}

// objectStart reports whether the '{' at raw[at] could start a JSON
// object: a key, '}' or the end of the text follows it, after white space.
func objectStart(raw string, at int) bool {
	k := at + 1
	for k < len(raw) && (raw[k] == ' ' || raw[k] == '\t' || raw[k] == '\n' || raw[k] == '\r') {
		k++
	}
	return k == len(raw) || raw[k] == '"' || raw[k] == '}'
}

// objectEnd returns the end of the JSON object starting at raw[at], and
// how many bytes reading it cost. The error is io.ErrUnexpectedEOF when
// the text ends inside the object.
func objectEnd(raw string, at int) (end, read int, err error) {
	dec := json.NewDecoder(strings.NewReader(raw[at:]))
	var v skipValue
	var se *json.SyntaxError
	switch err := dec.Decode(&v); {
	case err == nil:
		n := int(dec.InputOffset())
		return at + n, n, nil
	case errors.As(err, &se):
		return 0, int(se.Offset) + decoderRead, err
	default:
		return 0, len(raw) - at, err
	}
}

// decoderRead is the least a json.Decoder reads.
const decoderRead = 512

// skipValue is a JSON value decoded only to be checked.
type skipValue struct{}

func (*skipValue) UnmarshalJSON([]byte) error { return nil }

// maskObjects returns raw with each object replaced by "{…}" on its last
// line, its line breaks kept, so the text around it keeps its line numbers
// and nothing inside it reads as a verdict.
func maskObjects(raw string, objs []span) string {
	if len(objs) == 0 {
		return raw
	}
	var b strings.Builder
	b.Grow(len(raw))
	last := 0
	for _, o := range objs {
		b.WriteString(raw[last:o.start])
		b.WriteString(strings.Repeat("\n", strings.Count(raw[o.start:o.end], "\n")))
		b.WriteString("{…}")
		last = o.end
	}
	b.WriteString(raw[last:])
	return b.String()
}
