package evaltest

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/internal/deadline"
)

// Context returns the context a test's model calls run under: tb.Context(),
// which ends when the test ends, ended too a margin before go test's
// -timeout deadline (testing.T.Deadline) — the larger of 1s and 5% of
// -timeout (30s of the default 10m), at most half of it. Judges,
// classifiers, embedders and external evaluators asked through a T, and
// requests through HTTPClient, stop waiting there and fail the test with a
// message naming the call and how long it ran, where Go's "test timed out"
// panic would name none and save no recording:
//
//	Judge("Confirms the refund", MinScore(0.80)): error: judge openai gpt-4.1-mini, criteria "Confirms the refund": no answer in 18.9s (waiting for POST https://api.openai.com/v1/chat/completions for 18.9s): evalkit stopped waiting 1s before go test's -timeout 20s ends the test binary
//
// Its error then wraps context.DeadlineExceeded. Run the agent, or a
// simulated user, under it (T.Context returns it). A TB without a Deadline
// (a testing.B, a fake) gets tb.Context() as it is.
func Context(tb testing.TB) context.Context {
	tb = base(tb) // the test itself: evaltest's redacting reporter has no Deadline
	if ctx, ok := testContexts.Load(tb); ok {
		return ctx.(context.Context)
	}
	if _, ok := tb.(interface{ Deadline() (time.Time, bool) }); !ok {
		return tb.Context()
	}
	ctx, cancel := deadline.WithStop(tb.Context(), stopFor(tb))
	if prev, loaded := testContexts.LoadOrStore(tb, ctx); loaded {
		cancel()
		return prev.(context.Context)
	}
	cleanup(tb, func() {
		cancel()
		testContexts.Delete(tb)
	})
	return ctx
}

// testContexts holds Context's context per running test.
var testContexts sync.Map // testing.TB → context.Context

// testTimeout is go test's -timeout (the flag test.timeout), 0 when it is
// not known.
func testTimeout() time.Duration {
	f := flag.Lookup("test.timeout")
	if f == nil {
		return 0
	}
	d, err := time.ParseDuration(f.Value.String())
	if err != nil {
		return 0
	}
	return d
}

// stopFor is the Stop of tb's Context, nil when it has none: tb has no
// Deadline, go test runs with -timeout 0, or tb runs in a synctest bubble,
// whose clock is not the one go test's deadline is on (and whose
// testing.T.Deadline panics).
func stopFor(tb testing.TB) (stop *deadline.Stop) {
	d, ok := base(tb).(interface{ Deadline() (time.Time, bool) })
	if !ok {
		return nil
	}
	defer func() {
		if recover() != nil {
			stop = nil
		}
	}()
	at, has := d.Deadline()
	if !has {
		return nil
	}
	return deadline.For(at, testTimeout())
}

// whyStopped is a check's error, saying why when the test's deadline (see
// Context) ended it and the error does not say so yet: an external
// evaluator's "context deadline exceeded", say.
func whyStopped(ctx context.Context, err error) error {
	if err == nil {
		return nil
	}
	stop := deadline.Of(ctx)
	if stop == nil {
		return err
	}
	var named *deadline.Error
	if errors.As(err, &named) || strings.Contains(err.Error(), stop.Error()) {
		return err
	}
	return fmt.Errorf("%w: %v", err, stop)
}

// judgeWhat names a judge call in a deadline message: `judge openai
// gpt-4.1-mini, criteria "Confirms the refund"`, the judge's set name when
// it has one.
func judgeWhat(j evalkit.Judge, req evalkit.JudgeRequest) string {
	var b strings.Builder
	b.WriteString("judge")
	if n, ok := j.(evalkit.NamedJudge); ok {
		if name, variant := n.JudgeName(); name != "" {
			b.WriteString(" " + evalkit.Provenance{Name: name, Variant: variant}.Ref())
		}
	}
	if id, ok := j.(evalkit.Identifier); ok {
		if who := id.Identity(); who.Provider != "" {
			b.WriteString(" " + who.Provider)
			if who.Model != "" {
				b.WriteString(" " + who.Model)
			}
		}
	}
	if req.Criteria != "" {
		fmt.Fprintf(&b, ", criteria %q", cutCriteria(req.Criteria))
	}
	return b.String()
}

// waitingClassifier is a classifier whose calls stop at the test's
// deadline (see Context).
type waitingClassifier struct{ c evalkit.Classifier }

func (w waitingClassifier) Classify(ctx context.Context, req evalkit.ClassifyRequest) (evalkit.Classification, error) {
	return deadline.Wait(ctx, fmt.Sprintf("classifier %T", w.c), func(ctx context.Context) (evalkit.Classification, error) {
		return w.c.Classify(ctx, req)
	})
}

// waitingEmbedder is an embedder whose calls stop at the test's deadline.
// It has the identity of the embedder it wraps, so an embeddings client is
// still recorded and replayed (see T.embedRecorder).
type waitingEmbedder struct{ e evalkit.Embedder }

// Identity is the wrapped embedder's, or the zero Identity (not recorded).
func (w waitingEmbedder) Identity() evalkit.Identity {
	if id, ok := w.e.(evalkit.Identifier); ok {
		return id.Identity()
	}
	return evalkit.Identity{}
}

func (w waitingEmbedder) Embed(ctx context.Context, texts []string) ([][]float64, error) {
	var live any = w.e
	if r, ok := w.e.(recordedEmbedder); ok {
		live = r.live // name the user's embedder, not evaltest's wrapper
	}
	return deadline.Wait(ctx, fmt.Sprintf("embedder %T (%d texts)", live, len(texts)), func(ctx context.Context) ([][]float64, error) {
		return w.e.Embed(ctx, texts)
	})
}
