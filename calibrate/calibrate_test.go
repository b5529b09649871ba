package calibrate_test

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit/calibrate"
	"github.com/evalkit-go/evalkit/internal/hostile"
)

func TestDecodeProblems(t *testing.T) {
	for _, tt := range []struct {
		name, data, want string
	}{
		{"not JSON", `{"id": "a"` + "\n", "calibrate: testdata/gold.jsonl:1: not a gold item: unexpected EOF"},
		{"unknown field", `{"id": "a", "criteria": "c", "content": "x", "lable": "pass"}`, `calibrate: testdata/gold.jsonl:1: not a gold item: json: unknown field "lable"`},
		{"two values", `{"id": "a"} {"id": "b"}`, "calibrate: testdata/gold.jsonl:1: more than one JSON value on the line"},
		{"empty", "# nothing\n\n", "calibrate: gold set testdata/gold.jsonl: no items"},
		{"every problem", strings.Join([]string{
			`{"criteria": " ", "content": "", "label": "yes"}`,
			`{"id": "b", "criteria": "c", "content": "x", "annotators": {"ana": "pass", "ben": "fail"}}`,
			`{"id": "b", "criteria": "c", "content": "x", "score": 1.5, "canary": true}`,
			`{"id": "d", "criteria": "c", "content": "x", "annotators": {"ana": "good"}, "label": "pass"}`,
			`{"id": "e", "criteria": "c", "content": "x"}`,
		}, "\n"), `calibrate: gold set testdata/gold.jsonl: item 1: no id; item 1: no criteria; item 1: no content (a judge grades an answer); item 1: label "yes", want "pass" or "fail"; ` +
			`item 2 ("b"): the annotators split 1–1 and no label settles it: give "label"; ` +
			`item 3 ("b"): score 1.5, want a number in [0,1]; item 3 ("b"): a canary needs a label: the verdict the judge must give; item 3 ("b"): id "b" is given twice; ` +
			`item 4 ("d"): annotator "ana": label "good", want "pass" or "fail"; ` +
			`item 5 ("e"): no label, annotators or score: nothing to calibrate against`},
	} {
		_, err := calibrate.Decode("testdata/gold.jsonl", strings.NewReader(tt.data))
		assert.EqualError(t, err, tt.want, tt.name)
	}
	_, err := calibrate.Load("testdata/missing.jsonl")
	assert.ErrorContains(t, err, "missing.jsonl: no such file or directory")
}

func TestPassesByMajority(t *testing.T) {
	for _, tt := range []struct {
		it         calibrate.Item
		pass, have bool
	}{
		{calibrate.Item{Label: "pass", Annotators: map[string]string{"a": "fail", "b": "fail"}}, true, true},
		{calibrate.Item{Annotators: map[string]string{"a": "pass", "b": "fail", "c": "pass"}}, true, true},
		{calibrate.Item{Annotators: map[string]string{"a": "pass", "b": "fail", "c": "fail"}}, false, true},
		{calibrate.Item{Score: ptr(0.9)}, false, false},
	} {
		pass, have := tt.it.Passes()
		assert.Equal(t, [2]bool{tt.pass, tt.have}, [2]bool{pass, have}, "%+v", tt.it)
	}
}

func ptr[T any](v T) *T { return &v }

func item(id, label string, score *float64) calibrate.Item {
	return calibrate.Item{ID: id, Criteria: "c", Content: "x", Label: label, Score: score}
}

// Wikipedia's "Cohen's kappa" example as a gold set: 50 answers, the
// people's labels against the judge's, 20 both pass, 5 people pass and
// the judge fails, 10 the other way, 15 both fail: kappa 0.4.
func TestMeasureAgainstWikipediaKappa(t *testing.T) {
	var items []calibrate.Item
	var outs []calibrate.Outcome
	add := func(n int, people string, judge bool) {
		for range n {
			items = append(items, item(fmt.Sprint(len(items)), people, nil))
			outs = append(outs, calibrate.Outcome{Passed: judge, Score: map[bool]float64{true: 1}[judge]})
		}
	}
	add(20, "pass", true)
	add(5, "pass", false)
	add(10, "fail", true)
	add(15, "fail", false)
	gold, err := calibrate.New("wikipedia", items)
	require.NoError(t, err)
	r, err := calibrate.Measure(gold, outs)
	require.NoError(t, err)
	assert.InDelta(t, 0.4, r.Kappa, 1e-12)
	assert.InDelta(t, 0.7, r.Accuracy, 1e-12)
	assert.InDelta(t, 0.8, r.TPR, 1e-12)
	assert.InDelta(t, 0.6, r.TNR, 1e-12)
	assert.True(t, math.IsNaN(r.Alpha), "no annotators")
	assert.Equal(t, "no item has annotators", r.Undefined["alpha"])
}

// Scores: people's and the judge's on four answers. Differences 0.1, 0,
// 0.2, 0.1: mean 0.1, max 0.2.
func TestMeasureScores(t *testing.T) {
	gold, err := calibrate.New("scores", []calibrate.Item{item("a", "", ptr(0.9)), item("b", "", ptr(0.2)), item("c", "", ptr(0.6)), item("d", "", ptr(0.1))})
	require.NoError(t, err)
	r, err := calibrate.Measure(gold, []calibrate.Outcome{{Score: 0.8, Passed: true}, {Score: 0.2}, {Score: 0.8, Passed: true}, {Score: 0}})
	require.NoError(t, err)
	assert.Equal(t, 4, r.Scored)
	assert.InDelta(t, 0.1, r.MeanAbsDiff, 1e-12)
	assert.InDelta(t, 0.2, r.MaxAbsDiff, 1e-12)
	assert.Greater(t, r.ScoreAlpha, 0.8)
	assert.True(t, math.IsNaN(r.Kappa), "no labels")
	assert.Equal(t, "accuracy: no items", r.Undefined["accuracy"])

	_, err = calibrate.Measure(gold, []calibrate.Outcome{{Score: 2}, {}, {}, {}})
	assert.EqualError(t, err, `calibrate: item "a": the judge's score 2 is outside [0,1]`)
	_, err = calibrate.Measure(gold, nil)
	assert.EqualError(t, err, "calibrate: 0 outcomes for the 4 items of scores")
	r, err = calibrate.Measure(gold, []calibrate.Outcome{{Err: errors.New("HTTP 503")}, {Score: 0.2}, {Score: 0.6}, {Score: 0.1}})
	require.NoError(t, err)
	assert.Equal(t, []calibrate.ItemError{{ID: "a", Err: errors.New("HTTP 503")}}, r.Errors)
	assert.Equal(t, 3, r.Judged)
}

// A gold file is read as every input is: a key given twice in a line is
// an error (encoding/json kept the last, ignoring case, so a "Label"
// after a "label" flipped the people's verdict unseen), a FIFO is
// refused at once (a plain open waited for a writer for ever), and a file
// past its limit is refused naming the variable that raises it.
func TestLoadBounded(t *testing.T) {
	const good = `{"id": "a", "criteria": "c", "content": "x", "label": "pass"}` + "\n"
	for _, line := range []string{
		`{"id": "b", "criteria": "c", "content": "x", "label": "pass", "Label": "fail"}`,
		`{"id": "b", "criteria": "c", "content": "x", "label": "pass", "label": "fail"}`,
		`{"id": "b", "criteria": "c", "content": "x", "annotators": {"ana": "pass", "ana": "fail", "ben": "pass"}}`,
	} {
		_, err := calibrate.Decode("gold.jsonl", strings.NewReader(good+line+"\n"))
		assert.ErrorContains(t, err, "calibrate: gold.jsonl:2: key ", line)
		assert.ErrorContains(t, err, "is given twice", line)
	}

	dir := t.TempDir()
	fifo := filepath.Join(dir, "gold.jsonl")
	if err := hostile.Mkfifo(fifo); err == nil {
		err, blocked := hostile.ReadWithin(fifo, 5*time.Second, func() error {
			_, err := calibrate.Load(fifo)
			return err
		})
		require.False(t, blocked, "Load blocked on a FIFO")
		assert.EqualError(t, err, "calibrate: "+fifo+" is a named pipe (FIFO), not a regular file: evalkit reads only regular files")
	}

	big := filepath.Join(dir, "big.jsonl")
	require.NoError(t, os.WriteFile(big, []byte(strings.Repeat(good, 100)), 0o644))
	t.Setenv("EVALKIT_MAX_GOLD_BYTES", "4KiB")
	_, err := calibrate.Load(big)
	assert.EqualError(t, err, "calibrate: "+big+": 6.1 KiB, past the limit of 4 KiB for a gold file (EVALKIT_MAX_GOLD_BYTES raises it)")
	_, err = calibrate.Decode("stdin", strings.NewReader(strings.Repeat(good, 100)))
	assert.EqualError(t, err, "calibrate: stdin: more than the limit of 4 KiB for a gold file (EVALKIT_MAX_GOLD_BYTES raises it)")
}
