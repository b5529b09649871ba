package verdicts

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The rules as the regular expressions they were written as (and as the
// benchmarks' own parsers write them): the reference the scanners of
// scan.go are held to.
var (
	refPromAbsEnd  = regexp.MustCompile(`(?i)(?:\[RESULT\]|\[SCORE\]|Score:?|Result:?|\[Result\]:?|score\s+of)\s*(?:[(\[]|\s)*(\d+)(?:(?:[)\]]|\s)|/\s*5|\s*out\s*of\s*5)?\s*$`)
	refPromAbsAll  = regexp.MustCompile(`(?i)\[RESULT\]\s*(?:[(\[]|\s)*(\d+)`)
	refPromRel     = regexp.MustCompile(`(?im)(?:\[RESULT\]|\[RESULT:\s*|\[Response\s+|\[Result\](?:\s+Response)?|\[Result:\s*|(?:^|\n)Result:?\s*)\s*(A|B)\]?[ \t\r]*$`)
	refInspectLast = regexp.MustCompile(`(?i)GRADE\s*:\s*([CPI])([^\n]*)\n?$`)
	refInspectAll  = regexp.MustCompile(`(?i)GRADE\s*:\s*([CPI])\b`)
)

// sameAsReference returns what differs between the scanners and the
// reference expressions on raw, or "".
func sameAsReference(raw string) string {
	var diffs []string
	group := func(ms [][]string, upper bool) []string {
		var out []string
		for _, m := range ms {
			if upper {
				m[1] = strings.ToUpper(m[1])
			}
			out = append(out, m[1])
		}
		return out
	}
	got, ok := promAbsEnd(raw)
	m := refPromAbsEnd.FindStringSubmatch(raw)
	if ok != (m != nil) || ok && got != m[1] {
		diffs = append(diffs, "promAbsEnd: "+got+" vs "+strings.Join(m, "|"))
	}
	if a, b := promAbsAll(raw), group(refPromAbsAll.FindAllStringSubmatch(raw, -1), false); !slices.Equal(a, b) {
		diffs = append(diffs, "promAbsAll: "+strings.Join(a, ",")+" vs "+strings.Join(b, ","))
	}
	if a, b := promRel(raw), group(refPromRel.FindAllStringSubmatch(raw, -1), true); !slices.Equal(a, b) {
		diffs = append(diffs, "promRel: "+strings.Join(a, ",")+" vs "+strings.Join(b, ","))
	}
	letter, rest, ok := inspectLast(raw)
	m = refInspectLast.FindStringSubmatch(raw)
	if ok != (m != nil) || ok && (letter != m[1] || rest != m[2]) {
		diffs = append(diffs, "inspectLast: "+letter+"|"+rest+" vs "+strings.Join(m, "|"))
	}
	if a, b := inspectAll(raw), group(refInspectAll.FindAllStringSubmatch(raw, -1), false); !slices.Equal(a, b) {
		diffs = append(diffs, "inspectAll: "+strings.Join(a, ",")+" vs "+strings.Join(b, ","))
	}
	return strings.Join(diffs, "; ")
}

// pieces are what the generated answers are made of: every marker of the
// rules in several cases, the bytes around them, and look-alikes.
var pieces = []string{
	"[RESULT]", "[result]", "[Result]", "[RESULT:", "[Result:", "[Response", "Response", "response", "Result", "result:", "Result:",
	"[SCORE]", "Score", "score:", "score of", "out of", "out", "of", "/", "5", "4", "1", "12", "0",
	"(", ")", "[", "]", ":", " ", "  ", "\n", "\n", "\t", "\r", "\f", "\v", "A", "B", "a", "b", "C", "c", "I", "P", "p", "x", "_",
	"GRADE", "grade", "Grade", "GRADE:", "ſ", "reſult", "[REſULT]", "\u212a", "é", "Ａ", "＞", "feedback", ".", "Rating: [[8]]",
}

// The scanners read exactly what the expressions match, on 200,000
// answers made of the rules' own pieces.
func TestScannersMatchTheExpressions(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 17))
	n := 200_000
	if testing.Short() || raceEnabled {
		n = 10_000
	}
	for range n {
		var b strings.Builder
		for range 1 + rng.IntN(14) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		if d := sameAsReference(b.String()); d != "" {
			t.Fatalf("%q: %s", b.String(), d)
		}
	}
	for _, raw := range []string{"", "\n", "[RESULT] 4", "Feedback [RESULT] 4/5 \n", "score of 3 out of 5", "[Result] Response B]\r\n", "x\nResult: A\nResult: b",
		"GRADE: C\n", "grade :\n c.", "GRADE: CI", "GRADE: I\nGRADE: C", "[REſULT] 3", "Score: 4 / 5", "[RESULT] 3 score of 5"} {
		if d := sameAsReference(raw); d != "" {
			t.Errorf("%q: %s", raw, d)
		}
	}
}

// FuzzScanners holds the scanners to the expressions on any answer.
func FuzzScanners(f *testing.F) {
	for _, p := range pieces {
		f.Add(p)
	}
	f.Add("Feedback: x [RESULT] (4)\n")
	f.Add("[Result] Response A]\n")
	f.Add("grade:\n\tP and more")
	f.Fuzz(func(t *testing.T, raw string) {
		if d := sameAsReference(raw); d != "" {
			t.Fatalf("%q: %s", raw, d)
		}
	})
}

// realProse is the bundled real Arena-Hard judgments, joined: 0.36 MB of
// judge prose, markdown and code.
func realProse(b *testing.B) string {
	var sb strings.Builder
	for _, p := range []string{"testdata/arena_hard/el_claude-3.5-sonnet-v2.jsonl", "testdata/arena_hard/el_gpt-4o.jsonl", "testdata/arena_hard/en_gpt-3.5-turbo-0125.jsonl"} {
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			var rec struct {
				Games []struct {
					Judgment string `json:"judgment"`
				} `json:"games"`
			}
			if err := json.Unmarshal([]byte(line), &rec); err != nil {
				b.Fatal(err)
			}
			for _, g := range rec.Games {
				sb.WriteString(g.Judgment)
				sb.WriteString("\n")
			}
		}
	}
	return sb.String()
}

// BenchmarkPrometheusInspectRules reads answers with the three rules'
// scanners against the reference expressions (the baseline, what the
// formats ran before): the real judgments joined and ended with a
// verdict, and 2 MB of "Result: A" lines, the answer that took seconds.
func BenchmarkPrometheusInspectRules(b *testing.B) {
	prose := realProse(b)
	answers := map[string]string{
		"real_prose": prose + "\n[RESULT] 4\nGRADE: C",
		"lines_2MB":  strings.Repeat("Result: A\n", 200_000),
	}
	for _, name := range []string{"real_prose", "lines_2MB"} {
		raw := answers[name]
		b.Run(name+"/scanners", func(b *testing.B) {
			b.SetBytes(int64(len(raw)))
			for b.Loop() {
				promAbsEnd(raw)
				promAbsAll(raw)
				promRel(raw)
				inspectLast(raw)
				inspectAll(raw)
			}
		})
		b.Run(name+"/expressions", func(b *testing.B) {
			b.SetBytes(int64(len(raw)))
			for b.Loop() {
				refPromAbsEnd.FindStringSubmatch(raw)
				refPromAbsAll.FindAllStringSubmatch(raw, -1)
				refPromRel.FindAllStringSubmatch(raw, -1)
				refInspectLast.FindStringSubmatch(raw)
				refInspectAll.FindAllStringSubmatch(raw, -1)
			}
		})
	}
}
