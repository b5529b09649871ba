package assert_test

// metricParams are minimal valid parameters of the metrics, classifier
// checks and external evaluators (see minimalParams).
var metricParams = map[string]map[string]any{
	"answer_relevancy":     {"question": "Where is my refund?", "rubric": "Greetings do not count"},
	"faithfulness":         {"contexts": []any{"Refunds take 5 days."}, "penalize_ambiguous": true},
	"hallucination":        {"context": "Refunds take 5 days."},
	"contextual_precision": {"contexts": []any{"Refunds take 5 days."}, "question": "How long do refunds take?"},
	"context_precision":    {"contexts": []any{"Refunds take 5 days."}, "expected_output": "Five days."},
	"contextual_recall":    {"contexts": []any{"Refunds take 5 days."}, "reference": "Refunds take five days."},
	"context_recall":       {"context_field": "retrieved", "reference": "Refunds take five days."},
	"contextual_relevancy": {"contexts": []any{"Refunds take 5 days."}},
	"context_relevancy":    {"contexts": []any{"Refunds take 5 days."}, "model": "gpt-4.1"},
	"bias":                 {"scope": "session"},
	"toxicity":             {"criteria": "Sarcasm counts"},
	"pii_leakage":          {"kinds": []any{"email", "card"}},
	"role_violation":       {"system_prompt": "You are a polite support agent for Acme."},
	"text_sentiment":       {"model": "cardiffnlp/twitter-roberta-base-sentiment-latest", "expected_label": "positive"},
	"text_toxicity":        {"model": "unitary/toxic-bert", "expected_label": "toxic"},
	"image_moderation":     {"model": "omni-moderation-latest", "expected_label": "sexual"},
	"audio_emotion":        {"model": "superb/wav2vec2-base-superb-er", "expected_label": "ang", "message_index": -1},
	"topic_policy":         {"description": "Helps users with Acme billing.", "allowed": []any{"billing"}, "disallowed": []any{"politics"}},
	"rest_eval":            {"url": "http://127.0.0.1:9/eval", "timeout": "5s"},
	"rest_eval_session":    {"url": "http://127.0.0.1:9/eval"},
	"a2a_eval":             {"agent_url": "http://127.0.0.1:9/a2a"},
	"a2a_eval_session":     {"agent_url": "http://127.0.0.1:9/a2a", "criteria": "Polite"},
	"exec_eval":            {"command": "true", "args": []any{"--pass"}},

	"conversation_completeness": {"criteria": "A refund counts when issued"},
	"role_adherence":            {"chatbot_role": "You are a polite airline agent."},
	"knowledge_retention":       {"model": "gpt-4.1"},
	"turn_relevancy":            {"window_size": 3},
}
