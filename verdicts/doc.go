// Package verdicts holds declared verdict formats: the ways published
// benchmarks ask an LLM judge to write its verdict, each read by that
// benchmark's own extraction rule, with documented deviations where the
// rule guesses (two different final verdicts is an error, never "the last
// one"). A request that carries a format (evalkit.JudgeRequest.Format) is
// read by it (evalkit.ParseVerdictFor); the generic evalkit.ParseVerdict
// stays conservative.
//
//	v, err := verdicts.ArenaHard.Parse("... My final verdict is: [[B>A]]", evalkit.Scale{})
//	// v.Label "B>A", v.Preference {Winner: "B", Strength: 1}
//
// Pairwise judging both ways (BothWays) asks a judge twice with the
// answers swapped, as MT-Bench and Arena-Hard do to cancel position bias,
// and combines the two games by a stated rule; PositionConsistency
// measures, over a set of such verdicts, how often the two games agreed.
//
// Every refusal is an error wrapping evalkit.ErrUnreadableVerdict with its
// reason, never a low score.
package verdicts
