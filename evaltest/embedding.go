package evaltest

import (
	"context"
	"errors"
	"fmt"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/golden"
	"github.com/evalkit-go/evalkit/internal/judgehttp"
)

// recordedEmbedder is the T's embedder (WithEmbedder) as its checks ask
// it: through the T's recording when it has an identity with a provider
// (openaiembedder's), so its vectors are recorded and replayed beside the
// judges' verdicts, under the same mode; directly otherwise (a fake such
// as judgefake.BagOfWords, ModeLive). Every call is metered by the judge
// budget.
type recordedEmbedder struct {
	t    *T
	live evalkit.Embedder
}

// embedder is the T's embedder as checks ask it, or nil without one.
func (t *T) embedder() evalkit.Embedder {
	if t.x.embedder == nil {
		return nil
	}
	// The deadline wraps the whole call, recorded or live (see Context).
	return waitingEmbedder{recordedEmbedder{t: t, live: t.x.embedder}}
}

// Embed implements evalkit.Embedder.
func (r recordedEmbedder) Embed(ctx context.Context, texts []string) ([][]float64, error) {
	var meter *budgetMeter
	if budget := currentBudget(); budget != nil {
		if err := budget.check(); err != nil {
			return nil, err
		}
		meter = budget.meter(r.t.topTest())
		ctx = judgehttp.WithMeter(ctx, meter)
	}
	rec, err := r.t.embedRecorder(r.live)
	if err != nil {
		return nil, err
	}
	var vecs [][]float64
	if rec == nil {
		vecs, err = r.live.Embed(ctx, texts)
	} else {
		vecs, err = rec.Embed(ctx, texts)
	}
	if errors.Is(err, golden.ErrNotRecorded) {
		err = fmt.Errorf("%w (%s)", err, hintCommand("record", r.t.topTest(), "record the missing embeddings against the live API")[len("hint: "):])
	}
	if err != nil {
		return nil, err
	}
	if berr := meter.err(); berr != nil {
		return nil, berr
	}
	return vecs, nil
}

// embedRecorder is the recorder live answers through, or nil when it is
// not recorded.
func (t *T) embedRecorder(live evalkit.Embedder) (*golden.EmbedRecorder, error) {
	if t.x.parent != nil {
		return t.x.parent.embedRecorder(live)
	}
	mode, err := t.resolveMode()
	if err != nil {
		return nil, err
	}
	inner := live
	if w, isWaiting := live.(waitingEmbedder); isWaiting {
		inner = w.e
	}
	if _, isOwn := inner.(*golden.EmbedRecorder); isOwn {
		return nil, nil // the user's own recording: asked directly, never recorded twice
	}
	id, ok := live.(evalkit.Identifier)
	if mode == golden.ModeLive || !ok || id.Identity().Provider == "" {
		return nil, nil
	}
	t.rec.mu.Lock()
	defer t.rec.mu.Unlock()
	rec, err := t.openRecording(mode)
	if err != nil {
		return nil, err
	}
	return rec.Embedder(live)
}
