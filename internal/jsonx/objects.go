package jsonx

import (
	"fmt"
	"strings"
)

// Span is a JSON object's place in a text: text[Start:End].
type Span struct{ Start, End int }

// The work limits of Objects. Each '{' that could start an object is read
// only as far as it stays JSON, so ordinary text costs one pass; hostile
// text ("{"a":{"a":…" at every start) is stopped by these.
const (
	maxObjects       = 1000     // objects found
	maxFailedStarts  = 10000    // '{' that start no object
	minObjectBudget  = 16 << 20 // bytes read from starts, at least
	objectBudgetMult = 2        // or this many times the text's length
)

// Objects returns every JSON object of text outside the fences of fs
// tagged with another language, left to right; fs must be what
// Fences(text) returned. Each '{' that can start an object (a key or '}'
// follows it) is read with the scanner Extract uses, and an object found
// is skipped whole: an object inside it is part of its value, not listed.
// The objects are those the prose scan of Extract could return, and more:
// Extract's is the first of them when it takes one from prose.
//
// The error is an *Error: with CutOff when the text ends inside an
// object, with GaveUp when the search passes its limits (more than 1000
// objects, more than 10000 '{' that start none, or reading more than
// twice the text's length, at least 16 MiB, from the starts).
func Objects(text string, fs []Fence) ([]Span, error) {
	var skip []Fence
	for _, f := range fs {
		if f.Kind() == OtherTagged {
			skip = append(skip, f)
		}
	}
	budget := max(minObjectBudget, objectBudgetMult*len(text))
	var (
		out    []Span
		failed int
	)
	for i := 0; i < len(text); {
		k := strings.IndexByte(text[i:], '{')
		if k < 0 {
			break
		}
		j := i + k
		for len(skip) > 0 && skip[0].End <= j {
			skip = skip[1:]
		}
		if len(skip) > 0 && skip[0].Start <= j {
			i = skip[0].End
			continue
		}
		i = j + 1
		if !canStart(text, j) {
			continue
		}
		end, ok := scanValue(text, j)
		budget -= end - j + 1
		switch {
		case ok && len(out) == maxObjects:
			return nil, &Error{GaveUp: true, Msg: fmt.Sprintf("the text holds more than %d JSON objects", maxObjects)}
		case ok:
			out = append(out, Span{j, end})
			i = end
		case end >= len(text):
			return nil, &Error{CutOff: true, Msg: "the text ends inside the JSON object at " + Position(text, j)}
		default:
			failed++
		}
		if budget < 0 || failed > maxFailedStarts {
			return nil, &Error{GaveUp: true, Msg: fmt.Sprintf("%d '{' start no JSON object (the search's work limit)", failed)}
		}
	}
	return out, nil
}
