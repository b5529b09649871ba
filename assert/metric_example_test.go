package assert_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
	"github.com/evalkit-go/evalkit/judgefake"
)

func exampleRun() *evalkit.Transcript {
	return &evalkit.Transcript{Messages: []evalkit.Message{
		{Role: evalkit.RoleSystem, Content: "You are Acme's refund assistant."},
		{Role: evalkit.RoleUser, Content: "How long do refunds take?"},
		{Role: evalkit.RoleAssistant, Content: "Refunds take five business days. Our office is in Berlin."},
	}}
}

// answer_relevancy through the registry, with PromptKit's params and a
// judge scripted per step: the statements, then a verdict each.
func ExampleAnswerRelevancy() {
	judge := judgefake.Sequence(
		evalkit.Verdict{Fields: map[string]any{"statements": []any{"Refunds take five business days.", "The office is in Berlin."}}},
		evalkit.Verdict{Fields: map[string]any{"verdicts": []any{
			map[string]any{"verdict": "yes", "reason": "answers the question"},
			map[string]any{"verdict": "no", "reason": "the user did not ask where the office is"},
		}}},
	)
	reg := assert.NewRegistry().WithJudge(judge)
	res, err := reg.Eval(context.Background(), "assertion", exampleRun(), map[string]any{
		"eval_type": "answer_relevancy", "min_score": 0.5, "eval_params": map[string]any{"rubric": "Greetings do not count."},
	})
	fmt.Println(res.Passed, res.Score, res.Summary, err)
	for _, d := range res.Details {
		fmt.Printf("%s: %s\n", d.Label, d.Text)
	}
	// Output:
	// true 0.5 score 0.50, want >= 0.50 <nil>
	// check: answer relevancy 0.50: 1 of 2 statements relevant to the question
	// statement 2: no: "The office is in Berlin." — the user did not ask where the office is
	// statement 1: yes: "Refunds take five business days." — answers the question
}

// The PII pre-pass alone: deterministic, no model, findings masked.
func ExamplePIIPatterns() {
	tr := &evalkit.Transcript{Messages: []evalkit.Message{
		{Role: evalkit.RoleAssistant, Content: "Order #W1234567 shipped 2024-05-01; the card on file is 4111 1111 1111 1111."},
	}}
	res, err := assert.PIIPatterns{}.Check(context.Background(), tr)
	fmt.Println(res.Passed, res.Summary, res.Details[0].Text, err)
	// Output: false found 1 PII value by pattern card in messages[0] at byte 56: "•••• •••• •••• 1111" <nil>
}

// A classifier's score is graded by the assertion around it.
func ExampleClassifierScore() {
	toxic := assert.ClassifierScore{
		Classifier: judgefake.Scores(evalkit.LabelScore{Label: "toxic", Score: 0.04}, evalkit.LabelScore{Label: "insult", Score: 0.02}),
		Task:       assert.TaskToxicity, Model: "unitary/toxic-bert", ExpectedLabel: "toxic",
	}
	max := 0.3
	res, err := assert.Assertion{Eval: toxic, MaxScore: &max}.Check(context.Background(), exampleRun())
	fmt.Println(res.Passed, res.Summary, err)
	_, err = toxic.Check(context.Background(), exampleRun())
	fmt.Println(err != nil)
	// Output:
	// true score 0.04, want <= 0.30 <nil>
	// true
}

// A topic policy on the user's message, decided by a topic classifier.
func ExampleTopicPolicy() {
	policy := assert.TopicPolicy{
		Classifier:  judgefake.Scores(evalkit.LabelScore{Label: "refunds", Score: 0.94}, evalkit.LabelScore{Label: "politics", Score: 0.01}),
		Description: "Helps Acme customers with refunds.",
		Allowed:     []string{"refunds", "orders"},
		Disallowed:  []string{"politics"},
	}
	res, err := policy.Check(context.Background(), exampleRun())
	fmt.Println(res.Passed, res.Summary, err)
	// Output: true messages[1] is on the allowed topic "refunds" (score 0.94) <nil>
}

// An external evaluator over HTTP: the request is POSTed as JSON, the
// answer is {passed, score, reasoning}.
func ExampleRESTEval() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		_, _ = io.WriteString(w, `{"passed": true, "score": 0.9, "reasoning": "Answers with the number of days."}`)
	}))
	defer srv.Close()
	res, err := assert.RESTEval{URL: srv.URL, Criteria: "States how long refunds take"}.Check(context.Background(), exampleRun())
	fmt.Println(res.Passed, res.Score, res.Summary, err)
	// Output: true 0.9 rest_eval: the evaluator passed the output (score 0.9) <nil>
}

// MetricCheck is what evaltest's fluent metrics run: options as for Judge.
func ExampleMetricCheck() {
	judge := judgefake.Sequence(evalkit.Verdict{Fields: map[string]any{"verdicts": []any{
		map[string]any{"verdict": "yes", "reason": "agrees"},
		map[string]any{"verdict": "no", "reason": "the answer says Berlin, the document Paris"},
	}}})
	c := assert.MetricCheck(judge, "hallucination",
		assert.Context("Refunds take five business days.", "Our office is in Paris."), assert.MinScore(0.9))
	res, err := c.Check(context.Background(), exampleRun())
	fmt.Println(res.Passed, res.Summary, res.Details[0].Text, err)
	// Output: false score 0.50, want >= 0.90 hallucination 0.50: the answer contradicts 1 of 2 contexts <nil>
}

// An A2A agent as the evaluator: JSON-RPC message/send, the verdict in the
// agent's reply.
func ExampleA2AEval() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			ID string `json:"id"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		fmt.Fprintf(w, `{"jsonrpc": "2.0", "id": %q, "result": {"kind": "message", "role": "agent", "parts": [
			{"kind": "text", "text": "{\"passed\": false, \"score\": 0.3, \"reasoning\": \"Mentions an office nobody asked about.\"}"}]}}`, req.ID)
	}))
	defer srv.Close()
	res, err := assert.A2AEval{AgentURL: srv.URL}.Check(context.Background(), exampleRun())
	fmt.Println(res.Passed, res.Summary, err)
	fmt.Println(res.Details[0].Text)
	// Output:
	// false a2a_eval: the evaluator failed the output (score 0.3) <nil>
	// Mentions an office nobody asked about.
}
