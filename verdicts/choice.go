package verdicts

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/evalkit-go/evalkit"
)

// Choice is a single-token choice: the whole answer is one of tokens, as
// written (case matters: AlpacaEval's "m" and "M" are two answers). Label
// is the token. Token "A" or "B" also sets Preference (A>B or B>A).
//
// Sources: tatsu-lab/alpaca_eval, whose alpaca_eval_clf_gpt4_turbo and
// weighted_alpaca_eval_gpt4_turbo judges answer one token, "m" or "M",
// read from its log-probabilities (completion_parsers.py logprob_parser);
// openai/evals' model-graded "classify" evals (classify_utils.py
// get_choice), whose judge answers one of its choice strings ("A", "B",
// "Y", "N"). Deviation where get_choice guesses: it takes a line that
// starts or ends with a choice ("A good answer" is "A"); here the answer,
// trimmed of spaces and of punctuation around it, must be the token.
//
// It panics on no tokens or an empty one: a format is declared in code.
func Choice(tokens ...string) *Format {
	if len(tokens) == 0 || slices.Contains(tokens, "") {
		panic("verdicts.Choice: give at least one token, none empty")
	}
	tokens = slices.Clone(tokens)
	name := "choice/1:" + strings.Join(tokens, ",")
	f := &Format{
		name:         name,
		source:       "tatsu-lab/alpaca_eval (m/M), openai/evals classify_utils.py (choice strings)",
		instructions: fmt.Sprintf("Answer with exactly one of %s and nothing else.", quoteAll(tokens)),
	}
	f.parse = func(raw string, _ evalkit.Scale) (evalkit.Verdict, error) {
		ans := strings.TrimFunc(raw, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsPunct(r) && r != '_' })
		if !slices.Contains(tokens, ans) {
			return evalkit.Verdict{}, unreadable(name, "the answer %s is not one of %s", quote(strings.TrimSpace(raw), 60), quoteAll(tokens))
		}
		v := evalkit.Verdict{Label: ans}
		if ans == "A" || ans == "B" {
			v.Preference = &evalkit.Preference{Winner: ans, Strength: 1}
		}
		return v, nil
	}
	return f
}

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ", ")
}

// JSONObject is a JSON verdict object that is the whole answer (or the
// body of the one ```json fence that is), as structured output gives: its
// score, label, pass and reasoning fields are read as evalkit.ParseVerdict
// reads them, and Fields holds the whole object. With a verdict JSON
// Schema in the request, the object needs no verdict field, and grading
// checks it against the schema (assert.GradeVerdict, the judged checks).
// JSON inside prose, or a text verdict, is an error: the format is an
// object alone.
//
// Source: OpenAI structured outputs (response_format json_schema) and
// Anthropic tool input, as evalkit's own judges ask; WildBench's and
// AlpacaEval's JSON verdicts.
var JSONObject = &Format{
	name:         "json-object/1",
	source:       "structured output (OpenAI json_schema, Anthropic tool input); WildBench, AlpacaEval JSON verdicts",
	instructions: "Reply with only one JSON object and nothing else.",
	parse: func(raw string, scale evalkit.Scale) (evalkit.Verdict, error) {
		text := strings.TrimSpace(raw)
		body := text
		if strings.HasPrefix(body, "```") {
			nl := strings.IndexByte(body, '\n')
			if nl < 0 || !strings.HasSuffix(body, "```") || strings.TrimSpace(body[3:nl]) != "json" && strings.TrimSpace(body[3:nl]) != "" {
				return evalkit.Verdict{}, unreadable("json-object/1", "the answer is not one JSON object: it starts %s", quote(text, 40))
			}
			body = strings.TrimSpace(body[nl+1 : len(body)-3])
		}
		if !strings.HasPrefix(body, "{") || !strings.HasSuffix(body, "}") {
			return evalkit.Verdict{}, unreadable("json-object/1", "the answer is not one JSON object: it starts %s", quote(text, 40))
		}
		// The object alone, as a request with a schema asks: ParseVerdictFor
		// reads it, fields without a verdict field included.
		return evalkit.ParseVerdictFor(evalkit.JudgeRequest{Scale: scale, VerdictSchema: []byte(`{}`)}, body)
	},
}
