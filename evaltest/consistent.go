package evaltest

import (
	"context"
	"fmt"
	"strconv"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
	"github.com/evalkit-go/evalkit/internal/textnorm"
)

// WithEmbedder gives the T an embedder (an embeddings API client, or a
// fake in tests): the one Similar, SetExpectation.Consistent and the
// embedding checks Eval builds (cosine_similarity with reference_text,
// consistent) embed with. Without it, those are evaluation errors naming
// this option. An embedder with an identity (openaiembedder's) is recorded
// into the test's judge recording and replayed under the T's mode, as a
// judge is (golden.EmbedRecorder): CI then needs no network and no key. A
// fake (judgefake.BagOfWords) is asked directly. Its calls stop at the
// test's deadline (see Context).
func WithEmbedder(e evalkit.Embedder) Option {
	return func(t *T) { t.x.embedder = e }
}

// SetExpectation is a chain of checks over several transcripts at once —
// the attempts of a Repeat, N runs of one prompt — started by T.ExpectAll.
// Each method runs its check at once and reports a failure or an error at
// the caller's line, like Expectation's.
type SetExpectation struct {
	t   *T
	trs []*evalkit.Transcript
	ok  bool
}

// ExpectAll starts a chain of checks over the transcripts together, such
// as whether their answers agree:
//
//	rep := et.Repeat(5, attempt, evaltest.All())
//	et.ExpectAll(rep.Transcripts()...).Consistent(0.4)
func (t *T) ExpectAll(trs ...*evalkit.Transcript) *SetExpectation {
	return &SetExpectation{t: t, trs: trs, ok: true}
}

// OK reports whether every check of the chain so far passed.
func (s *SetExpectation) OK() bool { return s.ok }

// Consistent checks that every transcript's last answer lies within
// maxDistance of the centroid of the answers' embeddings, embedded with
// the T's embedder (WithEmbedder; assert.Consistent). A failure names the
// outliers:
//
//	Consistent(0.4): 1 of 5 candidates lie farther than 0.4 from the centroid: candidate 4
//	consensus: candidate 2 (distance 0.21, confidence 0.83): "Refunds are accepted within 30 days."
//	outlier: candidate 4 (distance 0.93, confidence 0.45): "Our store opens at 9am."
//	distances: 0.25, 0.21, 0.30, 0.93, 0.27
//	transcripts: 5
func (s *SetExpectation) Consistent(maxDistance float64) *SetExpectation {
	s.t.tb.Helper()
	label := call("Consistent", maxDistance)
	if s.t.x.embedder == nil {
		s.report(label, "consistent", setCheckFunc(func(context.Context, []*evalkit.Transcript) (assert.Result, error) {
			return assert.Result{}, fmt.Errorf("consistent: %w: give evaltest.New the option evaltest.WithEmbedder(e)", assert.ErrNoEmbedder)
		}))
		return s
	}
	s.report(label, "consistent", assert.Consistent{Embedder: s.t.embedder(), MaxDistance: maxDistance})
	return s
}

// Check runs any check over the transcripts together.
func (s *SetExpectation) Check(c assert.SetCheck) *SetExpectation {
	s.t.tb.Helper()
	label := textnorm.Excerpt("Check("+describe(c)+")", maxLabel)
	if c == nil {
		c = setCheckFunc(func(context.Context, []*evalkit.Transcript) (assert.Result, error) {
			return assert.Result{}, fmt.Errorf("nil check")
		})
	}
	s.report(label, fmt.Sprintf("%T", c), c)
	return s
}

// Eval runs the registered check type that reads several transcripts
// ("consistent") with declarative params, as Expectation.Eval does for one
// transcript. A type whose check reads one transcript only is an error.
func (s *SetExpectation) Eval(checkType string, params map[string]any) *SetExpectation {
	s.t.tb.Helper()
	s.eval(call("Eval", checkType, params), checkType, params)
	return s
}

// eval is Eval reported under label.
func (s *SetExpectation) eval(label, checkType string, params map[string]any) {
	s.t.tb.Helper()
	reg := s.t.evalRegistry(nil)
	if reg == nil {
		reg = assert.NewRegistry()
	}
	s.report(label, checkType, setCheckFunc(func(ctx context.Context, trs []*evalkit.Transcript) (assert.Result, error) {
		c, err := reg.Build(checkType, params)
		if err != nil {
			return assert.Result{}, err
		}
		sc, ok := c.(assert.SetCheck)
		if !ok {
			return assert.Result{}, fmt.Errorf("%s checks one transcript at a time, not several together", checkType)
		}
		return sc.CheckSet(ctx, trs)
	}))
}

type setCheckFunc func(ctx context.Context, trs []*evalkit.Transcript) (assert.Result, error)

func (f setCheckFunc) CheckSet(ctx context.Context, trs []*evalkit.Transcript) (assert.Result, error) {
	return f(ctx, trs)
}

func (s *SetExpectation) report(label, checkType string, c assert.SetCheck) {
	s.t.tb.Helper()
	res, err := runSetCheck(s.t.Context(), c, s.trs)
	if err == nil && !res.Passed && res.Summary == "" {
		res.Summary = "failed"
	}
	if err == nil && res.Passed {
		s.t.observe(label, checkType, res, nil, nil, "", nil, true)
		return
	}
	s.ok = false
	msg := outcome(label, res, err) + "\ntranscripts: " + strconv.Itoa(len(s.trs))
	s.t.observe(label, checkType, res, err, nil, msg, nil, true)
	s.t.fail(msg, err != nil, false)
}

func runSetCheck(ctx context.Context, c assert.SetCheck, trs []*evalkit.Transcript) (res assert.Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = assert.Result{}, fmt.Errorf("the check panicked: %v", r)
		}
	}()
	res, err = c.CheckSet(ctx, trs)
	return res, whyStopped(ctx, err)
}
