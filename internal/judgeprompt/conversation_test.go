package judgeprompt_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit/internal/judgeprompt"
)

// A per-turn step names the turns to judge and asks for that many
// verdicts; turn_relevancy says its window; unknown metrics and no turns
// are errors.
func TestJudgepromptTurnVerdictStep(t *testing.T) {
	s, _, err := judgeprompt.TurnVerdictStep("turn_relevancy", []int{1, 2, 4}, 3)
	require.NoError(t, err)
	assert.Equal(t, "turn_relevancy.verdicts/1", s.ID)
	assert.Contains(t, s.Task, "For each of the 3 turns listed below")
	assert.Contains(t, s.Task, "at most the 3 turns that end with it")
	assert.Contains(t, s.Task, "Judge these turns, in this order: 1, 2, 4.")
	assert.Contains(t, s.Task, "exactly 3 verdicts")
	_, _, err = judgeprompt.TurnVerdictStep("turn_relevancy", nil, 3)
	assert.Error(t, err)
	_, _, err = judgeprompt.TurnVerdictStep("coherence", []int{1}, 3)
	assert.Error(t, err)
	assert.Equal(t, "intention", judgeprompt.IntentionsStep().Item)
	assert.Equal(t, "fact", judgeprompt.KnowledgeStep().Item)
}
