package evalkit

// Answers that hold JSON among other text: every JSON object with verdict
// fields, and the verdicts written in the text outside them, must agree.
// See ParseVerdict.

import (
	"encoding/json"
	"errors"

	"github.com/evalkit-go/evalkit/internal/jsonx"
	"github.com/evalkit-go/evalkit/internal/textnorm"
)

// parseMixed reads an answer in which JSON is not alone: fs are its code
// fences and found is the first JSON value internal/jsonx found in it.
// Every JSON object outside fences tagged with another language is read;
// those with verdict fields and the text's own verdict, read outside
// fences and objects, must agree.
func parseMixed(raw string, fs []jsonx.Fence, scale Scale, found jsonx.Found) (Verdict, error) {
	objs, err := jsonx.Objects(raw, fs)
	if err != nil {
		var e *jsonx.Error
		if errors.As(err, &e) && e.CutOff {
			return Verdict{}, unreadable("the answer is cut off: %s", textnorm.Excerpt(e.Msg, maxMsg))
		}
		return Verdict{}, unreadable("gave up looking for JSON verdicts: %s", textnorm.Excerpt(err.Error(), maxMsg))
	}
	var (
		claims    []claim
		plain     string // the first object without verdict fields
		foundText = string(found.JSON)
		seenFound = !isObject(found.JSON)
	)
	for _, o := range objs {
		text := raw[o.Start:o.End]
		seenFound = seenFound || text == foundText
		where := func() string { return "the text at " + jsonx.Position(raw, o.Start) }
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
		// Objects lists the object Extract found, as both read the same
		// fences; should they ever disagree, it counts too (fail closed).
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

	tv := scanText(raw, fs, objs, scale)
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
	// A verdict inside a code fence is never the answer's, but one that
	// disagrees with it makes the answer unreadable.
	if fc, has, err := tv.fenceClaim(scale); err != nil {
		return Verdict{}, err
	} else if has {
		claims = append(claims, fc)
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
