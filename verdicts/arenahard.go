package verdicts

import (
	"regexp"

	"github.com/evalkit-go/evalkit"
)

// ArenaHard is Arena-Hard-Auto's five-level pairwise verdict: the judge
// ends with one of "[[A>>B]]" (A significantly better), "[[A>B]]",
// "[[A=B]]" (tie), "[[B>A]]" or "[[B>>A]]".
//
// Source: lmarena/arena-hard-auto, gen_judgment.py get_score (v0.1): every
// match of \[\[([AB<>=]+)\]\] in the judgment; exactly one distinct label
// must be found, else no score. Its labels map to preferences as
// show_result.py maps them to scores, mirrored forms included ("A<B" is
// "B>A", "B=A" a tie, "B<<A" is "A>>B"). The same rule here: no label, two
// distinct labels, or a label that is not one of those ("[[A]]",
// "[[A>>>B]]") is an error. Deviation: the later v2.0 rule takes the last
// of several distinct labels, and falls back to single brackets "[A>B]";
// both guess, and neither is read. Label is the label as written;
// Preference its meaning (see ArenaHardScore for its scores).
var ArenaHard = &Format{
	name:   "arena-hard/1",
	source: "lmarena/arena-hard-auto gen_judgment.py get_score (v0.1) and show_result.py",
	instructions: "After providing your explanation, you must output only one of the following choices as your final verdict with a label:\n\n" +
		"1. Assistant A is significantly better: [[A>>B]]\n2. Assistant A is slightly better: [[A>B]]\n3. Tie, relatively the same: [[A=B]]\n" +
		"4. Assistant B is slightly better: [[B>A]]\n5. Assistant B is significantly better: [[B>>A]]\n\n" +
		`Example output: "My final verdict is tie: [[A=B]]".`,
	parse: parseArenaHard,
}

var arenaLabel = regexp.MustCompile(`\[\[([AB<>=]+)\]\]`)

// arenaPreferences are the labels show_result.py scores, with their meaning.
var arenaPreferences = map[string]evalkit.Preference{
	"A>>B": {Winner: "A", Strength: 2}, "B<<A": {Winner: "A", Strength: 2},
	"A>B": {Winner: "A", Strength: 1}, "B<A": {Winner: "A", Strength: 1},
	"A=B": {}, "B=A": {},
	"B>A": {Winner: "B", Strength: 1}, "A<B": {Winner: "B", Strength: 1},
	"B>>A": {Winner: "B", Strength: 2}, "A<<B": {Winner: "B", Strength: 2},
}

func parseArenaHard(raw string, _ evalkit.Scale) (evalkit.Verdict, error) {
	var labels []string
	for _, m := range arenaLabel.FindAllStringSubmatch(raw, -1) {
		if len(labels) == 0 || labels[0] != m[1] {
			if len(labels) == 1 {
				return evalkit.Verdict{}, unreadable("arena-hard/1", "two different verdicts, [[%s]] and [[%s]]: the benchmark's rule needs one distinct label", labels[0], m[1])
			}
			labels = append(labels, m[1])
		}
	}
	if len(labels) == 0 {
		return evalkit.Verdict{}, unreadable("arena-hard/1", "no [[A>>B]]-style label (the benchmark scores none); the answer ends %s", tail(raw))
	}
	p, ok := arenaPreferences[labels[0]]
	if !ok {
		return evalkit.Verdict{}, unreadable("arena-hard/1", "[[%s]] is not one of the labels A>>B, A>B, A=B, B>A, B>>A", labels[0])
	}
	return evalkit.Verdict{Label: labels[0], Preference: &p}, nil
}

// ArenaHardScore is a preference's score for answer A as Arena-Hard's
// show_result.py counts it: 1 for a win, 0.5 for a tie, 0 for a loss, and
// weight 3 for a strong preference (A>>B or B>>A), else 1: the result
// counts as that many battles.
func ArenaHardScore(p evalkit.Preference) (score float64, weight int) {
	weight = 1
	if p.Strength == 2 {
		weight = 3
	}
	switch p.Winner {
	case "A":
		return 1, weight
	case "B":
		return 0, weight
	}
	return 0.5, 1
}
