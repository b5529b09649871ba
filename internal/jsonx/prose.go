package jsonx

import (
	"encoding/json"
	"fmt"
	"strings"
)

// The prose scan's work limits. Candidate starts are the '{' and '[' that
// could begin a JSON value; each is read only as far as it stays JSON, so
// ordinary text costs one pass. Hostile text ("[[[[…", nested to the depth
// limit at every start) could cost quadratic time; the scan stops there.
const (
	minScanBudget  = 64 << 20 // bytes read from candidate starts, at least
	scanBudgetMult = 8        // or this many times the text's length
)

// scanProse returns the first JSON object or array in text outside the fences
// tagged with another language. The error is nil on success; otherwise it
// says why the best candidate (the one that read furthest) is not JSON, or
// that the scan gave up.
func scanProse(text string, fs []Fence) (Found, *Error) {
	budget := max(minScanBudget, scanBudgetMult*len(text))
	var skip []Fence
	for _, f := range fs {
		if f.Kind() == OtherTagged {
			skip = append(skip, f)
		}
	}
	bestStart, bestEnd, candidates := -1, -1, 0
	for i := 0; i < len(text); i++ {
		j := strings.IndexAny(text[i:], "{[")
		if j < 0 {
			break
		}
		i += j
		if len(skip) > 0 && i >= skip[0].Start {
			if i < skip[0].End {
				i = skip[0].End - 1
				skip = skip[1:]
				continue
			}
			skip = skip[1:]
			i-- // re-examine i against the next fence
			continue
		}
		if !canStart(text, i) {
			continue
		}
		candidates++
		end, ok := scanValue(text, i)
		if ok {
			raw := text[i:end]
			if json.Valid([]byte(raw)) { // always, unless scanValue has a bug
				return Found{JSON: json.RawMessage(raw), From: "the text at " + Position(text, i)}, nil
			}
		}
		if end > bestEnd {
			bestStart, bestEnd = i, end
		}
		budget -= end - i + 1
		if budget < 0 {
			return Found{}, &Error{GaveUp: true, Msg: fmt.Sprintf(
				"no JSON found: gave up after reading %d candidate starts (the scan's work limit) without finding a JSON object or array", candidates)}
		}
	}
	if bestStart < 0 {
		if len(fs) > 0 {
			return Found{}, &Error{Msg: "there is no JSON object or array outside the fences"}
		}
		return Found{}, &Error{Msg: "there is no JSON object or array in it"}
	}
	// Report the candidate that read furthest with encoding/json's reason.
	var raw json.RawMessage
	err := json.Unmarshal([]byte(text[bestStart:min(bestEnd+1, len(text))]), &raw)
	e := syntaxError(text, bestStart, err)
	what := "object"
	if text[bestStart] == '[' {
		what = "array"
	}
	e.Msg = "the " + what + " starting at " + Position(text, bestStart) + " is not valid JSON: " + e.Msg
	e.candidate = true
	return Found{}, e
}

// canStart reports whether the '{' or '[' at text[i] could begin a JSON
// value, looking at the next byte that is not white space: a key or '}' after
// '{', a value or ']' after '['. It keeps "{{{{" and "[see below]" from
// being read as candidates.
func canStart(text string, i int) bool {
	k := skipSpace(text, i+1)
	if k >= len(text) {
		return true // cut off right after the bracket: worth reporting
	}
	c := text[k]
	if text[i] == '{' {
		return c == '"' || c == '}'
	}
	switch c {
	case '{', '[', '"', ']', '-', 't', 'f', 'n':
		return true
	}
	return '0' <= c && c <= '9'
}
