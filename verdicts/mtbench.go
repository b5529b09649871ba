package verdicts

import (
	"fmt"
	"strings"

	"github.com/evalkit-go/evalkit"
)

// MTBenchSingle is MT-Bench's single-answer grading: the judge writes its
// explanation, then "Rating: [[8]]" on a 1 to 10 scale.
//
// Source: lm-sys/FastChat, fastchat/llm_judge/common.py (run_judge_single):
// the first "[[n]]", else the first "[n]", else -1. Here the answer is read
// by evalkit.ParseVerdict, which reads every "[[n]]" (also "[[Rating: 8]]"
// and the doubled "[[Rating: [[9]]]]") outside code fences, a verdict alone
// in a fence that ends the answer, and "Rating: 8" lines and JSON verdicts.
// Deviations where the official rule guesses: two different bracketed
// scores are an error, not the first; the single-bracket fallback is not
// read (it took "[0]" from code); a pairwise label is an error.
var MTBenchSingle = &Format{
	name:         "mt-bench-single/1",
	source:       "lm-sys/FastChat fastchat/llm_judge/common.py, run_judge_single",
	instructions: `After providing your explanation, you must rate the response on a scale of 1 to 10 by strictly following this format: "[[rating]]", for example: "Rating: [[5]]".`,
	parse: func(raw string, scale evalkit.Scale) (evalkit.Verdict, error) {
		v, err := evalkit.ParseVerdict(raw, scale)
		switch {
		case err != nil:
			return evalkit.Verdict{}, fmt.Errorf("%s: %w", "mt-bench-single/1", err)
		case !v.Scored:
			return evalkit.Verdict{}, unreadable("mt-bench-single/1", "the answer gives no rating, only the label %s", quote(v.Label, 40))
		}
		return v, nil
	},
}

// MTBenchPair is MT-Bench's pairwise comparison: the judge ends with
// "[[A]]" if assistant A is better, "[[B]]" if B is, "[[C]]" for a tie.
//
// Source: lm-sys/FastChat, fastchat/llm_judge/common.py (run_judge_pair,
// output format "[[A]]"): "[[A]]" anywhere in the answer wins, else
// "[[B]]", else "[[C]]" (tie), else "error". Here the three labels are
// looked for the same way, and exactly one of them must be found:
// deviation where the official rule guesses, an answer holding two
// different labels ("[[A]]" quoted from the instructions, then "[[B]]") is
// an error, not A. Scores the judge gives each assistant along the way
// (in JSON or prose) are not the verdict and are not read. Label is "A",
// "B" or "C"; Preference is A>B, B>A or a tie.
var MTBenchPair = &Format{
	name:         "mt-bench-pair/1",
	source:       "lm-sys/FastChat fastchat/llm_judge/common.py, run_judge_pair",
	instructions: `After providing your explanation, output your final verdict by strictly following this format: "[[A]]" if assistant A is better, "[[B]]" if assistant B is better, and "[[C]]" for a tie.`,
	parse: func(raw string, _ evalkit.Scale) (evalkit.Verdict, error) {
		var found []string
		for _, l := range []string{"A", "B", "C"} {
			if strings.Contains(raw, "[["+l+"]]") {
				found = append(found, l)
			}
		}
		switch len(found) {
		case 0:
			return evalkit.Verdict{}, unreadable("mt-bench-pair/1", "no [[A]], [[B]] or [[C]]; the answer ends %s", tail(raw))
		case 1:
		default:
			return evalkit.Verdict{}, unreadable("mt-bench-pair/1", "two different verdicts, [[%s]] and [[%s]]: which is final cannot be told", found[0], found[1])
		}
		p := evalkit.Preference{Winner: found[0], Strength: 1}
		if found[0] == "C" {
			p = evalkit.Preference{}
		}
		return evalkit.Verdict{Label: found[0], Preference: &p}, nil
	},
}
