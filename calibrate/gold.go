package calibrate

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/evalkit-go/evalkit/internal/inputs"
	"github.com/evalkit-go/evalkit/internal/jsonx"
)

// Item is one example of a gold set: an answer (Content) to a request
// (Input), the criteria a judge grades it against, and what people said of
// it. One line of a gold file:
//
//	{"id": "refund-3", "criteria": "Confirms the refund and states the amount",
//	 "input": "Where is my refund?", "content": "Your refund of $42 is on its way.",
//	 "annotators": {"ana": "pass", "ben": "pass", "kim": "fail"}}
type Item struct {
	// ID names the item, unique in its set. Required.
	ID string `json:"id"`
	// Criteria are what the judge grades against. Required.
	Criteria string `json:"criteria"`
	// Input is the user's request the content answers; may be empty.
	Input string `json:"input,omitempty"`
	// Content is the answer judged. Required.
	Content string `json:"content"`
	// Reference is an optional reference answer, given to the judge.
	Reference string `json:"reference,omitempty"`
	// Label is the people's verdict, "pass" or "fail". Without it, the
	// majority of Annotators decides.
	Label string `json:"label,omitempty"`
	// Annotators hold each annotator's "pass" or "fail", by annotator.
	Annotators map[string]string `json:"annotators,omitempty"`
	// Score is the people's score in [0,1], when they scored.
	Score *float64 `json:"score,omitempty"`
	// Canary marks a known answer: a known-bad one (Label "fail") the judge
	// must fail, or a known-good one it must pass. A judge that gets a
	// canary wrong fails the calibration, whatever its agreement.
	Canary bool `json:"canary,omitempty"`
}

// Passes reports the people's verdict: Label, else the annotators'
// majority; ok is false when the item has neither (a score only).
func (it Item) Passes() (pass, ok bool) {
	if it.Label != "" {
		return it.Label == "pass", true
	}
	if len(it.Annotators) == 0 {
		return false, false
	}
	yes := 0
	for _, l := range it.Annotators {
		if l == "pass" {
			yes++
		}
	}
	return 2*yes > len(it.Annotators), true
}

// Gold is a human-labelled gold set: the items, in the order given.
type Gold struct {
	// Name names the set in messages: its file's base name, or what New
	// was given.
	Name  string
	Items []Item
}

// New returns the gold set of items, checked: every problem found, each
// naming the item (see Load's list).
func New(name string, items []Item) (*Gold, error) {
	g := &Gold{Name: name, Items: items}
	var problems []string
	seen := map[string]bool{}
	for i, it := range items {
		where := fmt.Sprintf("item %d", i+1)
		if it.ID != "" {
			where += fmt.Sprintf(" (%q)", it.ID)
		}
		for _, p := range it.problems() {
			problems = append(problems, where+": "+p)
		}
		if it.ID != "" && seen[it.ID] {
			problems = append(problems, fmt.Sprintf("%s: id %q is given twice", where, it.ID))
		}
		seen[it.ID] = true
	}
	if len(items) == 0 {
		problems = append(problems, "no items")
	}
	if len(problems) > 0 {
		return nil, fmt.Errorf("calibrate: gold set %s: %s", name, strings.Join(problems, "; "))
	}
	return g, nil
}

func (it Item) problems() []string {
	var out []string
	if it.ID == "" {
		out = append(out, "no id")
	}
	if strings.TrimSpace(it.Criteria) == "" {
		out = append(out, "no criteria")
	}
	if strings.TrimSpace(it.Content) == "" {
		out = append(out, "no content (a judge grades an answer)")
	}
	if it.Label != "" && it.Label != "pass" && it.Label != "fail" {
		out = append(out, fmt.Sprintf("label %q, want \"pass\" or \"fail\"", it.Label))
	}
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for k := range it.Annotators {
			if !yield(k) {
				return
			}
		}
	}) {
		if l := it.Annotators[name]; l != "pass" && l != "fail" {
			out = append(out, fmt.Sprintf("annotator %q: label %q, want \"pass\" or \"fail\"", name, l))
		}
	}
	if it.Label == "" && len(it.Annotators) > 0 {
		yes := 0
		for _, l := range it.Annotators {
			if l == "pass" {
				yes++
			}
		}
		if 2*yes == len(it.Annotators) {
			out = append(out, fmt.Sprintf("the annotators split %d–%d and no label settles it: give \"label\"", yes, yes))
		}
	}
	if it.Score != nil && !(*it.Score >= 0 && *it.Score <= 1) {
		out = append(out, fmt.Sprintf("score %v, want a number in [0,1]", *it.Score))
	}
	if it.Label == "" && len(it.Annotators) == 0 && it.Score == nil {
		out = append(out, "no label, annotators or score: nothing to calibrate against")
	}
	if _, ok := it.Passes(); it.Canary && !ok {
		out = append(out, "a canary needs a label: the verdict the judge must give")
	}
	return out
}

// MaxLine bounds one line of a gold file, in bytes.
const MaxLine = 8 << 20

// Load reads a gold file: JSON Lines, one Item a line; blank lines and
// lines starting with "#" are skipped. Errors name the file and line: a
// line that is not an Item (an unknown field included), and, from New,
// every item's problems — no id, criteria or content, a label other than
// "pass" or "fail", annotators split evenly with no label, a score outside
// [0,1], nothing to calibrate against, a canary without a label, an id
// given twice. A key given twice in a line ({"label": "pass", "Label":
// "fail"}: encoding/json keeps the last, matching names without regard to
// case) is an error, as is a file that is not a regular file (a FIFO is
// refused, never waited on) or is past 64 MiB (EVALKIT_MAX_GOLD_BYTES).
func Load(path string) (*Gold, error) {
	f, _, err := inputs.Open(path, inputs.Gold)
	if err != nil {
		return nil, fmt.Errorf("calibrate: %w", err)
	}
	defer f.Close()
	return Decode(path, f)
}

// Decode is Load reading r; name says which file in errors and names the
// set (its base name). It reads at most EVALKIT_MAX_GOLD_BYTES (64 MiB).
func Decode(name string, r io.Reader) (*Gold, error) {
	max, err := inputs.Gold.Value()
	if err != nil {
		return nil, fmt.Errorf("calibrate: %w", err)
	}
	lr := &io.LimitedReader{R: r, N: max + 1}
	var items []Item
	sc := bufio.NewScanner(lr)
	sc.Buffer(make([]byte, 0, 64<<10), MaxLine)
	for n := 1; sc.Scan(); n++ {
		if lr.N <= 0 {
			break // past the limit: the line may be cut
		}
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		if key, dup, _ := jsonx.DuplicateFoldedKey(line); dup {
			// A label given twice is a verdict that cannot be told.
			return nil, fmt.Errorf("calibrate: %s:%d: key %q is given twice (keys are matched to fields ignoring case)", name, n, key)
		}
		var it Item
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&it); err != nil {
			return nil, fmt.Errorf("calibrate: %s:%d: not a gold item: %v", name, n, err)
		}
		if dec.More() {
			return nil, fmt.Errorf("calibrate: %s:%d: more than one JSON value on the line", name, n)
		}
		items = append(items, it)
	}
	if lr.N <= 0 {
		return nil, fmt.Errorf("calibrate: %w", &inputs.LimitError{Name: name, Limit: inputs.Gold, Max: max, Got: max + 1, AtLeast: true})
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("calibrate: %s: a line longer than %d bytes", name, MaxLine)
		}
		return nil, fmt.Errorf("calibrate: %s: %w", name, err)
	}
	g, err := New(name, items)
	if err != nil {
		return nil, err
	}
	g.Name = filepath.Base(name)
	return g, nil
}
