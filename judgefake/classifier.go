package judgefake

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/evalkit-go/evalkit"
)

// Deterministic fake classifiers (evalkit.Classifier), in the manner of the
// fake judges: each validates the request (evalkit.ClassifyRequest.Validate)
// and returns that error for an invalid one, then the context's error if
// it is done, and only then does what its name says. Every classification
// a fake returns passes evalkit.Classification.Validate, or the call is an
// error saying why; every error comes with the zero Classification.

// classifierFunc is the fakes' own Classifier, with a name for %v.
type classifierFunc struct {
	name string
	f    func(ctx context.Context, req evalkit.ClassifyRequest) (evalkit.Classification, error)
}

func (c *classifierFunc) Classify(ctx context.Context, req evalkit.ClassifyRequest) (evalkit.Classification, error) {
	return c.f(ctx, req)
}

func (c *classifierFunc) String() string { return c.name }

func beginClassify(ctx context.Context, req evalkit.ClassifyRequest) error {
	if err := req.Validate(); err != nil {
		return err
	}
	return ctxErr(ctx)
}

// classification returns a copy of scores as a Classification, or the
// error that makes it one no check may grade.
func classification(scores []evalkit.LabelScore, model string) (evalkit.Classification, error) {
	cl := evalkit.Classification{Scores: slices.Clone(scores), Model: model}
	if err := cl.Validate(); err != nil {
		return evalkit.Classification{}, err
	}
	return cl, nil
}

// Scores returns a classifier that answers every valid request with
// scores, in the order given, and Model "judgefake".
//
//	c := judgefake.Scores(evalkit.LabelScore{Label: "positive", Score: 0.9}, evalkit.LabelScore{Label: "negative", Score: 0.1})
//
// A score outside [0,1], an empty label or a label scored twice makes
// every call an error.
func Scores(scores ...evalkit.LabelScore) evalkit.Classifier {
	scores = slices.Clone(scores)
	return &classifierFunc{name: fmt.Sprintf("judgefake.Scores(%d labels)", len(scores)), f: func(ctx context.Context, req evalkit.ClassifyRequest) (evalkit.Classification, error) {
		if err := beginClassify(ctx, req); err != nil {
			return evalkit.Classification{}, err
		}
		cl, err := classification(scores, "judgefake")
		if err != nil {
			return evalkit.Classification{}, fmt.Errorf("judgefake: Scores: %w", err)
		}
		return cl, nil
	}}
}

// ClassifierErr returns a classifier that returns err for every valid
// request, unwrapped; ClassifierErr(nil) fails every call saying so.
func ClassifierErr(err error) evalkit.Classifier {
	return &classifierFunc{name: fmt.Sprintf("judgefake.ClassifierErr(%v)", err), f: func(ctx context.Context, req evalkit.ClassifyRequest) (evalkit.Classification, error) {
		if err := beginClassify(ctx, req); err != nil {
			return evalkit.Classification{}, err
		}
		if err == nil {
			return evalkit.Classification{}, errors.New("judgefake: ClassifierErr was given a nil error")
		}
		return evalkit.Classification{}, err
	}}
}

// ClassifierRules is a classifier written as data, as Rules is a judge:
// the first rule that matches the request's input decides the scores.
// A text request matches on its Text; an image or audio request on its
// part's Name, then its URL.
//
//	c := judgefake.ClassifierRules{
//		{Pattern: `(?i)\b(idiot|stupid)\b`, Scores: []evalkit.LabelScore{{Label: "toxic", Score: 0.97}}},
//		{Otherwise: true, Scores: []evalkit.LabelScore{{Label: "toxic", Score: 0.02}}},
//	}
//
// A request no rule matches is an error; a rule with none of Keyword,
// Pattern and Otherwise, with Otherwise and a Keyword or Pattern, or with
// a Pattern that does not compile, makes every call an error naming it.
type ClassifierRules []ClassifierRule

// ClassifierRule is one line of ClassifierRules.
type ClassifierRule struct {
	// Keyword matches when the input contains it, byte for byte.
	Keyword string
	// Pattern is a regular expression (RE2) that must match the input.
	// With Keyword, both must match.
	Pattern string
	// Otherwise matches every request.
	Otherwise bool
	// Scores are the answer when the rule decides.
	Scores []evalkit.LabelScore
	// Err, when set, is returned instead.
	Err error
}

// Classify answers as the first matching rule says.
func (rs ClassifierRules) Classify(ctx context.Context, req evalkit.ClassifyRequest) (evalkit.Classification, error) {
	if err := beginClassify(ctx, req); err != nil {
		return evalkit.Classification{}, err
	}
	res, err := rs.compile()
	if err != nil {
		return evalkit.Classification{}, err
	}
	input := req.Text
	if req.Media != nil {
		input = req.Media.Name
		if input == "" {
			input = req.Media.URL
		}
	}
	for i, r := range rs {
		if !r.Otherwise {
			if r.Keyword != "" && !strings.Contains(input, r.Keyword) {
				continue
			}
			if res[i] != nil && !res[i].MatchString(input) {
				continue
			}
		}
		if r.Err != nil {
			return evalkit.Classification{}, r.Err
		}
		cl, err := classification(r.Scores, "judgefake")
		if err != nil {
			return evalkit.Classification{}, fmt.Errorf("judgefake: ClassifierRules[%d]: %w", i, err)
		}
		return cl, nil
	}
	return evalkit.Classification{}, fmt.Errorf("judgefake: none of %d classifier rules matches the input %s; end ClassifierRules with {Otherwise: true, ...} for a default", len(rs), excerpt(input, 80))
}

func (rs ClassifierRules) compile() ([]*regexp.Regexp, error) {
	rules := make(Rules, len(rs))
	for i, r := range rs {
		rules[i] = Rule{Keyword: r.Keyword, Pattern: r.Pattern, Otherwise: r.Otherwise}
	}
	res, err := rules.compile()
	if err != nil {
		return nil, errors.New(strings.ReplaceAll(err.Error(), "judgefake: Rules[", "judgefake: ClassifierRules["))
	}
	return res, nil
}

// ClassifierSpy is a classifier that records every request and lets
// another answer. Make one with SpyClassifier.
type ClassifierSpy struct {
	c    evalkit.Classifier
	mu   sync.Mutex
	reqs []evalkit.ClassifyRequest
}

// SpyClassifier returns a classifier that records every request — valid
// or not, in call order — then answers as c does.
func SpyClassifier(c evalkit.Classifier) *ClassifierSpy { return &ClassifierSpy{c: c} }

// Classify records req, validates it, and lets the spied classifier answer.
func (s *ClassifierSpy) Classify(ctx context.Context, req evalkit.ClassifyRequest) (evalkit.Classification, error) {
	s.mu.Lock()
	s.reqs = append(s.reqs, cloneClassify(req))
	s.mu.Unlock()
	if err := beginClassify(ctx, req); err != nil {
		return evalkit.Classification{}, err
	}
	if s.c == nil {
		return evalkit.Classification{}, errors.New("judgefake: SpyClassifier was given a nil classifier")
	}
	return s.c.Classify(ctx, req)
}

// Requests returns copies of the requests recorded so far, in call order.
func (s *ClassifierSpy) Requests() []evalkit.ClassifyRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]evalkit.ClassifyRequest, len(s.reqs))
	for i, r := range s.reqs {
		out[i] = cloneClassify(r)
	}
	return out
}

func cloneClassify(r evalkit.ClassifyRequest) evalkit.ClassifyRequest {
	r.Labels = slices.Clone(r.Labels)
	r.Context = slices.Clone(r.Context)
	if r.Media != nil {
		m := *r.Media
		m.Data = slices.Clone(m.Data)
		r.Media = &m
	}
	if r.Examples != nil {
		ex := make(map[string][]string, len(r.Examples))
		for k, v := range r.Examples {
			ex[k] = slices.Clone(v)
		}
		r.Examples = ex
	}
	return r
}
