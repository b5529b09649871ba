package evaltest

import "github.com/evalkit-go/evalkit/assert"

// The multi-turn metrics, each over the whole conversation in numbered
// turns and asking the T's judge through its recording, as the other
// metrics do (see metrics.go). Each scores turn by turn (or intention by
// intention) and its failure lists the turns that cost the score, with the
// judge's reason:
//
//	KnowledgeRetention(MinScore(0.90)): score 0.83, want >= 0.90
//	check: knowledge_retention 0.83: 5 of 6 turns keep what the user said (3 facts)
//	turn 2: no: "Could you please provide your user ID?" — the user gave omar_rossi_1241 in turn 1
//	turn 1: yes: …
//	judge: gpt-4.1-mini (replayed testdata/evalkit/TestChange.judge.json)

// ConversationCompleteness checks how many of the user's intentions the
// conversation satisfied (assert.ConversationCompleteness, as DeepEval's
// conversation_completeness).
func (e *Expectation) ConversationCompleteness(opts ...assert.JudgeOption) *Expectation {
	e.t.tb.Helper()
	e.metric("ConversationCompleteness", "conversation_completeness", opts)
	return e
}

// RoleAdherence checks how many of the assistant's turns keep the role of
// the transcript's system prompt, or assert.Role's (assert.RoleAdherence,
// as DeepEval's role_adherence).
func (e *Expectation) RoleAdherence(opts ...assert.JudgeOption) *Expectation {
	e.t.tb.Helper()
	e.metric("RoleAdherence", "role_adherence", opts)
	return e
}

// KnowledgeRetention checks how many of the assistant's turns keep what
// the user told it in earlier turns (assert.KnowledgeRetention, as
// DeepEval's knowledge_retention).
func (e *Expectation) KnowledgeRetention(opts ...assert.JudgeOption) *Expectation {
	e.t.tb.Helper()
	e.metric("KnowledgeRetention", "knowledge_retention", opts)
	return e
}

// TurnRelevancy checks how many of the assistant's replies are relevant to
// the user's message of their turn, in a sliding window of turns
// (assert.Window; assert.TurnRelevancy, as DeepEval's turn_relevancy).
func (e *Expectation) TurnRelevancy(opts ...assert.JudgeOption) *Expectation {
	e.t.tb.Helper()
	e.metric("TurnRelevancy", "turn_relevancy", opts)
	return e
}
