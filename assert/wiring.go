package assert

import (
	"context"
	"maps"
	"net/http"
	"slices"

	"github.com/evalkit-go/evalkit"
)

// wiring is what a Registry gives the checks it builds besides a judge:
// classifiers, the environment variables external evaluators may read,
// and the HTTP client they call with. Registries made from one another
// (WithJudge, WithClassifier, ...) copy it.
type wiring struct {
	classifiers map[string]evalkit.Classifier // "" is the default
	allowEnv    []string
	httpClient  *http.Client
}

func (w wiring) clone() wiring {
	w.classifiers = maps.Clone(w.classifiers)
	w.allowEnv = slices.Clone(w.allowEnv)
	return w
}

// WithClassifier returns a registry whose classifier-backed checks
// (text_sentiment, text_toxicity, image_moderation, audio_emotion,
// topic_policy, and assertions wrapping them) ask c when they name no
// classifier_id. It shares r's check types and keeps r's judge and other
// settings. Without a classifier, building such a check is an error
// wrapping ErrNoClassifier.
func (r *Registry) WithClassifier(c evalkit.Classifier) *Registry {
	return r.WithClassifierID("", c)
}

// WithClassifierID returns a registry that gives c to the checks whose
// classifier_id param is id (PromptKit's classify registry ids); id ""
// is the default, as WithClassifier.
func (r *Registry) WithClassifierID(id string, c evalkit.Classifier) *Registry {
	d := r.derive()
	if d.classifiers == nil {
		d.classifiers = map[string]evalkit.Classifier{}
	}
	d.classifiers[id] = c
	return d
}

// classifier returns the classifier for id, and whether the registry has
// one by that id.
func (r *Registry) classifier(id string) (evalkit.Classifier, bool) {
	if r == nil {
		return nil, false
	}
	c, ok := r.classifiers[id]
	return c, ok
}

// WithEnv returns a registry whose external evaluators (rest_eval,
// a2a_eval, exec_eval) may expand ${NAME} in their headers, auth_token
// and env params for the environment variables named here, and for no
// other: a case file cannot send a variable the test code did not allow
// (a reference to one is an error naming it). It shares r's check types
// and keeps r's judge and other settings.
func (r *Registry) WithEnv(names ...string) *Registry {
	d := r.derive()
	d.allowEnv = append(d.allowEnv, names...)
	return d
}

// WithHTTPClient returns a registry whose external evaluators (rest_eval,
// a2a_eval) call with hc: evaltest.HTTPClient(t).Client, which records and
// replays them, a proxy, a test server's client. Redirects are never
// followed, whatever hc says; nil is http.DefaultClient.
func (r *Registry) WithHTTPClient(hc *http.Client) *Registry {
	d := r.derive()
	d.httpClient = hc
	return d
}

// scoreEmitter is a check whose score an Assertion grades but which holds
// no pass/fail of its own (ClassifierScore), or whose score comes apart
// from its pass/fail (an external evaluator's passed and score):
// emitScore returns the Result whose Score the threshold reads, or an
// error when there is no score to grade.
type scoreEmitter interface {
	emitScore(ctx context.Context, tr *evalkit.Transcript) (Result, error)
}

// metricTables are the check tables of the metrics, classifiers and
// external evaluators, for NewRegistry.
func metricTables() []map[string]func(*params) (Check, error) {
	return []map[string]func(*params) (Check, error){ragChecks(), safetyChecks(), conversationChecks(), classifierChecks(), externalChecks()}
}

// metricAliases are their other names: Ragas' for the RAG metrics.
var metricAliases = map[string]string{
	"context_precision": "contextual_precision",
	"context_recall":    "contextual_recall",
	"context_relevancy": "contextual_relevancy",
}

// metricSessions are the checks with a "_session" type name.
var metricSessions = []string{"rest_eval", "a2a_eval"}
