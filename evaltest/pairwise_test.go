package evaltest_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	evalassert "github.com/evalkit-go/evalkit/assert"
	"github.com/evalkit-go/evalkit/evaltest"
	"github.com/evalkit-go/evalkit/verdicts"
)

// The fluent API judges a pair both ways and grades the preference: the
// judge sees game 1 and game 2 with the answers swapped, and a failure
// reads as the preference against what was wanted.
func TestJudgePairBothWays(t *testing.T) {
	var reqs []evalkit.JudgeRequest
	// A judge biased to the first position: it always prefers A.
	biased := evalkit.JudgeFunc(func(_ context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
		reqs = append(reqs, req)
		return evalkit.ParseVerdictFor(req, "Assistant A is better.\nMy final verdict is: [[A>B]]")
	})
	tb := reportWith([]evaltest.Option{evaltest.WithJudge(biased)}, func(et *evaltest.T) {
		et.Expect(nineMessages()).
			Judge("Closes the conversation politely", evalassert.Against("Bye."), evalassert.VerdictFormat(verdicts.ArenaHard),
				evalassert.BothWays(verdicts.Tie), evalassert.Prefers("A"))
	})
	require.Len(t, reqs, 2)
	assert.Equal(t, [2]int{1, 2}, [2]int{reqs[0].Game, reqs[1].Game})
	assert.Equal(t, [2]string{"You're welcome.", "Bye."}, [2]string{reqs[0].Content, reqs[0].ContentB})
	assert.Equal(t, [2]string{"Bye.", "You're welcome."}, [2]string{reqs[1].Content, reqs[1].ContentB})
	assert.Equal(t, []string{`Judge("Closes the conversation politely", Against("Bye."), VerdictFormat("arena-hard/1"), BothWays(verdicts.Tie), Prefers("A")): preference A=B, want A better
reasoning: game 1: A>B; game 2 (answers swapped): A>B, which is B>A in game 1's order; inconsistent, so a tie
label: "A=B"
transcript: 9 messages`}, tb.errors)
}
