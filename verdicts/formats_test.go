package verdicts_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/verdicts"
)

// want is what a format reads: a score, a label, a preference, a pass.
type want struct {
	score  float64 // RawScore, when scored
	scored bool
	label  string
	pref   string // Preference.String(), "" for none
	passed *bool
}

func got(v evalkit.Verdict) want {
	w := want{score: v.RawScore, scored: v.Scored, label: v.Label, passed: v.Passed}
	if !v.Scored {
		w.score = 0
	}
	if v.Preference != nil {
		w.pref = v.Preference.String()
	}
	return w
}

var (
	yes, no = true, false
	ten     = evalkit.Scale{Min: 1, Max: 10}
	five    = evalkit.Scale{Min: 1, Max: 5}
)

// Each format reads what its benchmark's rule reads, and refuses, with a
// reason wrapping ErrUnreadableVerdict, where that rule guesses.
func TestFormats(t *testing.T) {
	tests := []struct {
		f     *verdicts.Format
		scale evalkit.Scale
		in    string
		want  want
		err   string // a substring of the refusal
	}{
		{f: verdicts.MTBenchSingle, scale: ten, in: "Good.\nRating: [[8]]", want: want{score: 8, scored: true}},
		{f: verdicts.MTBenchSingle, scale: ten, in: "[[Rating: 7]]\nThe answer is fine.", want: want{score: 7, scored: true}},
		{f: verdicts.MTBenchSingle, scale: ten, in: "Fine.\n[[Rating: [[9]]]]", want: want{score: 9, scored: true}},
		{f: verdicts.MTBenchSingle, scale: ten, in: "Fine.\n```\nRating: [[5]]\n```", want: want{score: 5, scored: true}},
		{f: verdicts.MTBenchSingle, scale: ten, in: "Rating: [[8]], or maybe [[9]]", err: "conflicting scores"},
		{f: verdicts.MTBenchSingle, scale: ten, in: "x = array[0]", err: "no verdict"},
		{f: verdicts.MTBenchSingle, scale: ten, in: "[[A]]", err: "gives no rating, only the label"},
		{f: verdicts.MTBenchSingle, scale: ten, in: "$ERROR$", err: "the judge call failed"},
		{f: verdicts.MTBenchSingle, scale: ten, in: "Rating: [[11]]", err: "outside the scale"},

		{f: verdicts.MTBenchPair, scale: ten, in: "A is better. [[A]]", want: want{label: "A", pref: "A>B"}},
		{f: verdicts.MTBenchPair, scale: ten, in: "Tie: [[C]]", want: want{label: "C", pref: "A=B"}},
		{f: verdicts.MTBenchPair, scale: ten, in: "{\"assistant_a\": {\"score\": 8}, \"assistant_b\": {\"score\": 6}}\n[[A]]", want: want{label: "A", pref: "A>B"}},
		{f: verdicts.MTBenchPair, scale: ten, in: `Output "[[A]]" if A is better. My verdict: [[B]]`, err: "two different verdicts, [[A]] and [[B]]"},
		{f: verdicts.MTBenchPair, scale: ten, in: "Both are fine.", err: "no [[A]], [[B]] or [[C]]"},

		{f: verdicts.ArenaHard, in: "My final verdict is: [[A>>B]]", want: want{label: "A>>B", pref: "A>>B"}},
		{f: verdicts.ArenaHard, in: "Tie, relatively the same: [[A=B]]", want: want{label: "A=B", pref: "A=B"}},
		{f: verdicts.ArenaHard, in: "[[B>A]] ... so my final verdict is [[B>A]]", want: want{label: "B>A", pref: "B>A"}},
		{f: verdicts.ArenaHard, in: "[[A<<B]]", want: want{label: "A<<B", pref: "B>>A"}},
		{f: verdicts.ArenaHard, in: "[[B=A]]", want: want{label: "B=A", pref: "A=B"}},
		{f: verdicts.ArenaHard, in: "First [[A>B]], then on reflection [[B>A]]", err: "two different verdicts, [[A>B]] and [[B>A]]"},
		{f: verdicts.ArenaHard, in: "My final verdict is [B>A]", err: "no [[A>>B]]-style label"},
		{f: verdicts.ArenaHard, in: "[[A>>>B]]", err: "is not one of the labels"},
		{f: verdicts.ArenaHard, in: "[[A]]", err: "is not one of the labels"},

		{f: verdicts.PrometheusAbsolute, scale: five, in: "Feedback: Clear and complete. [RESULT] 4", want: want{score: 4, scored: true}},
		{f: verdicts.PrometheusAbsolute, scale: five, in: "Feedback: ok.\n[RESULT] (5)\n", want: want{score: 5, scored: true}},
		{f: verdicts.PrometheusAbsolute, scale: five, in: "Feedback: fine. Score: 3 out of 5", want: want{score: 3, scored: true}},
		{f: verdicts.PrometheusAbsolute, scale: five, in: "Feedback: [RESULT] 2 at first, but [RESULT] 4", err: "two different results"},
		{f: verdicts.PrometheusAbsolute, scale: five, in: "[RESULT] 4. The response is good.", err: "does not end with"},
		{f: verdicts.PrometheusAbsolute, scale: five, in: "Feedback: x [RESULT] 7", err: "not an integer from 1 to 5"},
		{f: verdicts.PrometheusAbsolute, scale: ten, in: "Feedback: x [RESULT] 4", err: "the format scores 1 to 5"},

		{f: verdicts.PrometheusRelative, in: "Feedback: B is more complete. [RESULT] B", want: want{label: "B", pref: "B>A"}},
		{f: verdicts.PrometheusRelative, in: "Feedback: ...\n[RESULT] A\nThat is all.", want: want{label: "A", pref: "A>B"}},
		{f: verdicts.PrometheusRelative, in: "[RESULT] A\n[RESULT] B", err: "two different results"},
		{f: verdicts.PrometheusRelative, in: "Feedback: both are good.", err: "no \"[RESULT] A\""},

		{f: verdicts.VicunaPair, scale: ten, in: "8 9\nAssistant 2 is more detailed.", want: want{pref: "B>A"}},
		{f: verdicts.VicunaPair, scale: ten, in: "9, 8.5\nBoth good.", want: want{pref: "A>B"}},
		{f: verdicts.VicunaPair, scale: ten, in: "7 7\nEqual.", want: want{pref: "A=B"}},
		{f: verdicts.VicunaPair, scale: ten, in: "First, I will solve it.\n...\nAssistant 1: 10\nAssistant 2: 4", err: "the first line is not two scores"},
		{f: verdicts.VicunaPair, scale: ten, in: "0 9\n...", err: "outside the scale"},

		{f: verdicts.InspectGrade, in: "The answer matches.\nGRADE: C", want: want{label: "C", passed: &yes}},
		{f: verdicts.InspectGrade, in: "Wrong capital.\ngrade: i", want: want{label: "I", passed: &no}},
		{f: verdicts.InspectGrade, in: "Half right.\nGRADE: P (partial)", want: want{label: "P"}},
		{f: verdicts.InspectGrade, in: "GRADE: C\nOn reflection it is wrong.", err: "the last line holds no"},
		{f: verdicts.InspectGrade, in: "GRADE: I at first.\nGRADE: C", err: "two different grades"},
		{f: verdicts.InspectGrade, in: "GRADE: Correct", err: "runs on into a word"},

		{f: verdicts.Choice("m", "M"), in: "M", want: want{label: "M"}},
		{f: verdicts.Choice("m", "M"), in: " m\n", want: want{label: "m"}},
		{f: verdicts.Choice("m", "M"), in: "Output (a) is better.", err: "is not one of \"m\", \"M\""},
		{f: verdicts.Choice("A", "B", "Y", "N"), in: "B.", want: want{label: "B", pref: "B>A"}},
		{f: verdicts.Choice("A", "B", "Y", "N"), in: "A good answer", err: "is not one of"},

		{f: verdicts.JSONObject, scale: ten, in: `{"score": 8, "reasoning": "ok"}`, want: want{score: 8, scored: true}},
		{f: verdicts.JSONObject, scale: ten, in: "```json\n{\"verdict\": \"pass\"}\n```", want: want{label: "pass"}},
		{f: verdicts.JSONObject, scale: ten, in: "Here: {\"score\": 8}", err: "not one JSON object"},
		{f: verdicts.JSONObject, scale: ten, in: "Rating: [[8]]", err: "not one JSON object"},
	}
	for _, tt := range tests {
		t.Run(tt.f.Name()+"/"+tt.in, func(t *testing.T) {
			v, err := tt.f.Parse(tt.in, tt.scale)
			if tt.err != "" {
				require.Error(t, err)
				assert.ErrorIs(t, err, evalkit.ErrUnreadableVerdict)
				assert.ErrorContains(t, err, tt.err)
				assert.Equal(t, evalkit.Verdict{}, v)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got(v))
			assert.Equal(t, tt.in, v.Raw)
		})
	}
}

// A request's format is read by ParseVerdictFor, and keys a recording by
// its name; a bad scale is the caller's error, not the judge's.
func TestFormatInRequest(t *testing.T) {
	req := evalkit.JudgeRequest{Criteria: "x", Content: "a", ContentB: "b", Format: verdicts.ArenaHard}
	v, err := evalkit.ParseVerdictFor(req, "[[A>B]]")
	require.NoError(t, err)
	assert.Equal(t, "A>B", v.Label)
	data, err := json.Marshal(req)
	require.NoError(t, err)
	assert.Contains(t, string(data), `"format":"arena-hard/1"`)

	req.Scale = evalkit.Scale{Min: 5, Max: 1}
	_, err = evalkit.ParseVerdictFor(req, "[[A>B]]")
	require.Error(t, err)
	assert.False(t, errors.Is(err, evalkit.ErrUnreadableVerdict))

	for _, f := range verdicts.Formats() {
		assert.NotEmpty(t, f.Source(), f.Name())
		assert.NotEmpty(t, f.Instructions(), f.Name())
		_, err := f.Parse("", evalkit.Scale{})
		assert.ErrorIs(t, err, evalkit.ErrUnreadableVerdict, f.Name())
	}
	assert.Panics(t, func() { verdicts.Choice() })
}

// ArenaHardScore counts a preference as show_result.py does.
func TestArenaHardScore(t *testing.T) {
	for _, tt := range []struct {
		label  string
		score  float64
		weight int
	}{{"A>>B", 1, 3}, {"A>B", 1, 1}, {"A=B", 0.5, 1}, {"B>A", 0, 1}, {"B>>A", 0, 3}} {
		v, err := verdicts.ArenaHard.Parse("[["+tt.label+"]]", evalkit.Scale{})
		require.NoError(t, err)
		s, w := verdicts.ArenaHardScore(*v.Preference)
		assert.Equal(t, tt.score, s, tt.label)
		assert.Equal(t, tt.weight, w, tt.label)
	}
}

func ExampleFormat_Parse() {
	v, err := verdicts.ArenaHard.Parse("Assistant B is more accurate.\n\nMy final verdict is: [[B>A]]", evalkit.Scale{})
	fmt.Println(v.Label, v.Preference.Winner, v.Preference.Strength, err)
	_, err = verdicts.ArenaHard.Parse("At first [[A>B]]; on reflection [[B>A]]", evalkit.Scale{})
	fmt.Println(err)
	// Output:
	// B>A B 1 <nil>
	// evalkit: unreadable judge verdict: arena-hard/1: two different verdicts, [[A>B]] and [[B>A]]: the benchmark's rule needs one distinct label
}

// Long answers are read whole, as short ones: the rules scan in one pass
// (scan.go), where they once refused an answer over 256 KiB.
func TestFormatsLongAnswer(t *testing.T) {
	prose := strings.Repeat("The response covers the main points but misses the refund window. ", 64<<10) // 4 MiB
	v, err := verdicts.PrometheusAbsolute.Parse("Feedback: "+prose+"[RESULT] 4\n", five)
	require.NoError(t, err)
	assert.Equal(t, 4.0, v.RawScore)
	v, err = verdicts.PrometheusRelative.Parse(prose+"\n[RESULT] B", five)
	require.NoError(t, err)
	assert.Equal(t, "B", v.Label)
	v, err = verdicts.InspectGrade.Parse(prose+"\nGRADE: C", five)
	require.NoError(t, err)
	assert.Equal(t, "C", v.Label)

	lines := strings.Repeat("Result: A\n", 400_000) // 4 MB of verdict lines, one of them different
	_, err = verdicts.PrometheusRelative.Parse(lines+"Result: B\n", five)
	assert.ErrorContains(t, err, "two different results, A and B")
	_, err = verdicts.InspectGrade.Parse(strings.Repeat("GRADE: C\n", 400_000)+"GRADE: I", five)
	assert.ErrorContains(t, err, "two different grades, C and I")
}
