package verdicts

import (
	"strconv"
	"strings"

	"github.com/evalkit-go/evalkit"
)

// PrometheusAbsolute is Prometheus 2's direct assessment: "Feedback: ...
// [RESULT] 4", an integer from 1 to 5 that ends the answer. The request's
// Scale must be 1 to 5.
//
// Source: prometheus-eval/prometheus-eval, prometheus_eval/parser.py
// (_parse_output_absolute): a marker ([RESULT], [SCORE], Score:, Result:,
// [Result]:, "score of"; any case), an integer, at most a closing bracket,
// "/5" or "out of 5", then only white space to the end; 1 to 5. The same
// rule here. Deviation: a marker earlier in the answer with another number
// ("[RESULT] 2 ... [RESULT] 4") is an error, not ignored.
var PrometheusAbsolute = &Format{
	name:         "prometheus-absolute/2",
	source:       "prometheus-eval/prometheus-eval libs/prometheus-eval/prometheus_eval/parser.py",
	instructions: `Write a detailed feedback, then a score that is an integer between 1 and 5. The output format should look as follows: "Feedback: (write a feedback for criteria) [RESULT] (an integer number between 1 and 5)".`,
	parse:        parsePrometheusAbsolute,
}

func parsePrometheusAbsolute(raw string, scale evalkit.Scale) (evalkit.Verdict, error) {
	if scale != (evalkit.Scale{Min: 1, Max: 5}) {
		return evalkit.Verdict{}, unreadable("prometheus-absolute/2", "the format scores 1 to 5, but the request's scale is [%v, %v]: set its Scale to 1–5", scale.Min, scale.Max)
	}
	result, ok := promAbsEnd(raw)
	if !ok {
		return evalkit.Verdict{}, unreadable("prometheus-absolute/2", "the answer does not end with \"[RESULT] n\"; it ends %s", tail(raw))
	}
	n, err := strconv.Atoi(result)
	if err != nil || n < 1 || n > 5 {
		return evalkit.Verdict{}, unreadable("prometheus-absolute/2", "the result %s is not an integer from 1 to 5", quote(result, 20))
	}
	for _, o := range promAbsAll(raw) {
		if o != result {
			return evalkit.Verdict{}, unreadable("prometheus-absolute/2", "two different results, [RESULT] %s and [RESULT] %s", quote(o, 20), result)
		}
	}
	norm, _ := scale.Normalize(float64(n))
	return evalkit.Verdict{Score: norm, RawScore: float64(n), Scored: true}, nil
}

// PrometheusRelative is Prometheus 2's pairwise ranking: "Feedback: ...
// [RESULT] A" (or B) at the end of a line.
//
// Source: prometheus-eval/prometheus-eval, prometheus_eval/parser.py
// (_parse_output_relative): the first marker ([RESULT], [RESULT:,
// [Response, [Result], [Result:, or "Result:" at a line's start; any case)
// followed by A or B, an optional "]", and the end of a line. The same rule
// here. Deviation: a second such verdict naming the other answer is an
// error, not ignored. Label is
// "A" or "B"; Preference A>B or B>A.
var PrometheusRelative = &Format{
	name:         "prometheus-relative/2",
	source:       "prometheus-eval/prometheus-eval libs/prometheus-eval/prometheus_eval/parser.py",
	instructions: `Write a detailed feedback comparing the two responses, then choose the better one. The output format should look as follows: "Feedback: (write a feedback for criteria) [RESULT] (Either "A" or "B")".`,
	parse:        parsePrometheusRelative,
}

func parsePrometheusRelative(raw string, _ evalkit.Scale) (evalkit.Verdict, error) {
	ms := promRel(raw)
	if ms == nil {
		return evalkit.Verdict{}, unreadable("prometheus-relative/2", "no \"[RESULT] A\" or \"[RESULT] B\" at the end of a line; the answer ends %s", tail(raw))
	}
	w := ms[0]
	for _, m := range ms[1:] {
		if m != w {
			return evalkit.Verdict{}, unreadable("prometheus-relative/2", "two different results, %s and %s", w, m)
		}
	}
	return evalkit.Verdict{Label: w, Preference: &evalkit.Preference{Winner: w, Strength: 1}}, nil
}

// VicunaPair is the Vicuna benchmark's pairwise review (FastChat's first
// evaluation): the judge's first line holds the two assistants' scores,
// "8 9" or "8, 9", on a 1 to 10 scale, and its explanation follows.
//
// Source: lm-sys/FastChat, fastchat/eval/eval_gpt_review.py parse_score
// (removed in 2023, commit a0ba8c97): the first line, commas made spaces,
// split on spaces, must be exactly two numbers; else [-1, -1], fixed by
// hand. The same rule here, with runs of spaces as one separator. Each
// score must be on the request's Scale. The scores are Criteria
// "assistant 1" and "assistant 2"; Preference is the higher one's (A is
// assistant 1), a tie when equal.
var VicunaPair = &Format{
	name:         "vicuna-pair/1",
	source:       "lm-sys/FastChat fastchat/eval/eval_gpt_review.py parse_score (before a0ba8c97)",
	instructions: "Please first output a single line containing only two values indicating the scores for Assistant 1 and 2, respectively. The two scores are separated by a space. In the subsequent line, please provide a comprehensive explanation of your evaluation.",
	parse:        parseVicunaPair,
}

func parseVicunaPair(raw string, scale evalkit.Scale) (evalkit.Verdict, error) {
	first, _, _ := strings.Cut(raw, "\n")
	fields := strings.Fields(strings.ReplaceAll(first, ",", " "))
	if len(fields) != 2 {
		return evalkit.Verdict{}, unreadable("vicuna-pair/1", "the first line is not two scores: %s", quote(first, 80))
	}
	var v evalkit.Verdict
	var raws [2]float64
	for i, f := range fields {
		x, err := strconv.ParseFloat(f, 64)
		if err != nil {
			return evalkit.Verdict{}, unreadable("vicuna-pair/1", "the first line is not two scores: %s is not a number", quote(f, 40))
		}
		norm, err := scale.Normalize(x)
		if err != nil {
			return evalkit.Verdict{}, unreadable("vicuna-pair/1", "assistant %d's score: %v", i+1, strings.TrimPrefix(err.Error(), "evalkit: "))
		}
		raws[i] = x
		v.Criteria = append(v.Criteria, evalkit.CriterionScore{Name: "assistant " + strconv.Itoa(i+1), Score: norm, RawScore: x})
	}
	p := evalkit.Preference{}
	switch {
	case raws[0] > raws[1]:
		p = evalkit.Preference{Winner: "A", Strength: 1}
	case raws[1] > raws[0]:
		p = evalkit.Preference{Winner: "B", Strength: 1}
	}
	v.Preference = &p
	return v, nil
}

// InspectGrade is inspect_ai's model-graded grade: the judge ends with
// "GRADE: C" (correct), "GRADE: P" (partially correct) or "GRADE: I"
// (incorrect).
//
// Source: UKGovernmentBEIS/inspect_ai, scorer/_model.py (model_graded_qa,
// model_graded_fact): the pattern (?i)GRADE\s*:\s*([CPI])(.*)$ searched in
// the whole completion, which only its last line can match. The same rule
// here, the letter read in upper case. Deviation: a letter run on into a
// word ("GRADE: CI", "GRADE: Correct") is an error, not its first letter;
// a GRADE line earlier with another letter is an error. Label is the
// letter; Passed is true for C, false for I, unset for P.
var InspectGrade = &Format{
	name:         "inspect-grade/1",
	source:       "UKGovernmentBEIS/inspect_ai src/inspect_ai/scorer/_model.py, DEFAULT_GRADE_PATTERN",
	instructions: `After assessing the submitted answer, reply with 'GRADE: $LETTER' (without quotes) where LETTER is one of CPI: "C" for correct answers, "P" for partially correct answers, "I" for incorrect answers.`,
	parse:        parseInspectGrade,
}

func parseInspectGrade(raw string, _ evalkit.Scale) (evalkit.Verdict, error) {
	letter, rest, ok := inspectLast(raw)
	if !ok {
		return evalkit.Verdict{}, unreadable("inspect-grade/1", "the last line holds no \"GRADE: C\", \"GRADE: P\" or \"GRADE: I\"; the answer ends %s", tail(raw))
	}
	if rest != "" && isLetter(rest[0]) {
		return evalkit.Verdict{}, unreadable("inspect-grade/1", "the grade %s runs on into a word: which letter is meant cannot be told", quote(letter+rest, 40))
	}
	g := strings.ToUpper(letter)
	for _, o := range inspectAll(raw) {
		if strings.ToUpper(o) != g {
			return evalkit.Verdict{}, unreadable("inspect-grade/1", "two different grades, %s and %s", strings.ToUpper(o), g)
		}
	}
	v := evalkit.Verdict{Label: g}
	switch g {
	case "C":
		v.Passed = ptr(true)
	case "I":
		v.Passed = ptr(false)
	}
	return v, nil
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

func ptr[T any](v T) *T { return &v }
