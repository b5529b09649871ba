package golden

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/internal/secret"
	"github.com/evalkit-go/evalkit/internal/textnorm"
)

// Embedding is what an embedder returned for one call: one vector per
// text, in the order of the texts (Summary.Texts).
type Embedding struct {
	Vectors [][]float64 `json:"vectors"`
}

// KindEmbedding is the Summary.Kind of an embedding entry.
const KindEmbedding evalkit.ContentKind = "embedding"

// errNoLive is a Recorder made by Open asked to judge.
var errNoLive = errors.New("golden: this Recorder was made by Open and has no live judge: ask one made by For")

// Open returns a Recorder for the recording at path with no live judge of
// its own: it reads the recording as New does, and For (judges) and
// Embedder (embedders) make the recorders that answer; all of them share
// its entries, mode and Save. Its own Judge is an error.
func Open(path string, opts ...Option) (*Recorder, error) {
	return New(path, nil, append(slices.Clone(opts), func(s *store) { s.opening = true })...)
}

// EmbedRecorder is an evalkit.Embedder that answers from a recording of a
// live embedder's vectors, and records them, as its Mode says: an
// embedding call is a recorded exchange like a verdict. Entries live in the
// judge recording they share (Recorder.Embedder), keyed by SHA-256 over
// the canonical JSON of the embedder's Identity and the texts, in order
// (see Key). It is safe for concurrent use.
type EmbedRecorder struct {
	st   *store
	live evalkit.Embedder
	id   identityKey
}

// Embedder returns an EmbedRecorder for live on r's recording. live must
// be an evalkit.Identifier with a Provider (the model keys the entries;
// openaiembedder's does), except in ModeLive. r is made by New, which
// wants a judge with an identity even when only embeddings are recorded:
// give the judge the test uses, or let evaltest.WithEmbedder record them.
func (r *Recorder) Embedder(live evalkit.Embedder) (*EmbedRecorder, error) {
	if live == nil {
		return nil, fmt.Errorf("golden: no live embedder")
	}
	e := &EmbedRecorder{st: r.st, live: live}
	if r.st.mode == ModeLive {
		return e, nil
	}
	idr, ok := live.(evalkit.Identifier)
	if !ok {
		return nil, fmt.Errorf("golden: %T has no Identity, so its vectors cannot be keyed: give it an Identity method (evalkit.Identifier), or use ModeLive", live)
	}
	id := idr.Identity()
	if id.Provider == "" {
		return nil, fmt.Errorf("golden: %T's Identity has no Provider, so its vectors cannot be keyed", live)
	}
	ci, err := canonicalIdentity(id)
	if err != nil {
		return nil, err
	}
	for _, v := range ci.secrets {
		secret.Learn("credential", v) // every output of the process keeps it out
	}
	e.id = ci
	return e, nil
}

// Identity returns the live embedder's identity.
func (e *EmbedRecorder) Identity() evalkit.Identity {
	if idr, ok := e.live.(evalkit.Identifier); ok {
		return idr.Identity()
	}
	return evalkit.Identity{}
}

// Path returns the recording's path.
func (e *EmbedRecorder) Path() string { return e.st.path }

// Embed implements evalkit.Embedder: EmbedOrigin without the origin.
func (e *EmbedRecorder) Embed(ctx context.Context, texts []string) ([][]float64, error) {
	v, _, err := e.EmbedOrigin(ctx, texts)
	return v, err
}

// EmbedOrigin answers texts as the mode says (Recorder.JudgeOrigin's
// rules: replay never calls the live embedder, and a miss is a
// *NotRecordedError), and says where the vectors came from. Vectors the
// live embedder returns are checked before they are recorded: one per
// text, all of one length, finite — an embedder that breaks its contract
// is an error, and nothing is recorded for it.
func (e *EmbedRecorder) EmbedOrigin(ctx context.Context, texts []string) ([][]float64, Origin, error) {
	st := e.st
	if st.mode == ModeLive {
		v, err := e.live.Embed(ctx, texts)
		return v, OriginLive, err
	}
	if len(texts) == 0 {
		return nil, OriginReplayed, fmt.Errorf("golden: no texts to embed")
	}
	if err := ctx.Err(); err != nil {
		return nil, OriginReplayed, err
	}
	k, err := keyEmbed(e.id, texts)
	if err != nil {
		return nil, OriginReplayed, err
	}
	st.mu.Lock()
	ent, hit := st.entries[k.key]
	if hit && ent.Embedding != nil && (st.mode != ModeRefresh || st.fresh[k.key]) {
		st.used[k.key] = true
		st.mu.Unlock()
		return copyVectors(ent.Embedding.Vectors), OriginReplayed, nil
	}
	if st.mode == ModeReplay {
		nr := st.embedMiss(e, texts, k)
		st.mu.Unlock()
		return nil, OriginReplayed, nr
	}
	if c := st.inflight[k.key]; c != nil {
		st.mu.Unlock()
		select {
		case <-c.done:
			return copyVectors(c.vecs), OriginRecorded, c.err
		case <-ctx.Done():
			return nil, OriginRecorded, ctx.Err()
		}
	}
	c := &call{done: make(chan struct{})}
	st.inflight[k.key] = c
	st.mu.Unlock()

	c.vecs, c.err = e.record(ctx, texts, k)
	st.mu.Lock()
	delete(st.inflight, k.key)
	st.mu.Unlock()
	close(c.done)
	return copyVectors(c.vecs), OriginRecorded, c.err
}

// record asks the live embedder and files its vectors.
func (e *EmbedRecorder) record(ctx context.Context, texts []string, k requestKey) ([][]float64, error) {
	st := e.st
	vecs, err := embedLive(ctx, e.live, texts)
	if err != nil {
		return nil, err
	}
	if err := checkVectors(vecs, len(texts)); err != nil {
		return nil, fmt.Errorf("golden: the live embedder: %w", err)
	}
	red := secret.Now() // the process's one redactor: the embedder's own key is learned (see NewEmbed)
	clean := func(s string) string {
		s = red.Clean(s)
		if st.redact != nil {
			s = st.redact(s)
		}
		return s
	}
	var id evalkit.Identity
	if err := decodeUseNumber(mustCanonical(secret.Value(e.id.tree, clean)), &id); err != nil {
		return nil, fmt.Errorf("golden: the embedder's Identity: %w", err)
	}
	sum := Summary{Kind: KindEmbedding}
	for _, t := range texts {
		sum.Texts = append(sum.Texts, textnorm.Excerpt(clean(t), maxExcerpt))
	}
	ent := Entry{Key: k.key, Judge: id, Request: sum, Digests: k.digests,
		Embedding: &Embedding{Vectors: copyVectors(vecs)}, RecordedAt: st.now().UTC().Truncate(time.Second)}
	st.mu.Lock()
	if old, ok := st.entries[k.key]; ok && old.Embedding != nil && slices.EqualFunc(old.Embedding.Vectors, vecs, slices.Equal) {
		ent.RecordedAt = old.RecordedAt
	}
	if old, ok := st.entries[k.key]; !ok || !sameEntry(old, ent) {
		st.entries[k.key] = ent
		st.dirty = true
	}
	st.fresh[k.key], st.used[k.key] = true, true
	st.mu.Unlock()
	return vecs, nil
}

// embedLive calls the live embedder, turning a panic into an error.
func embedLive(ctx context.Context, e evalkit.Embedder, texts []string) (v [][]float64, err error) {
	defer func() {
		if p := recover(); p != nil {
			v, err = nil, fmt.Errorf("golden: the live embedder panicked: %v", p)
		}
	}()
	return e.Embed(ctx, slices.Clone(texts))
}

// checkVectors wants n vectors of one positive length, every component
// finite: what JSON can record and a replay can trust.
func checkVectors(vecs [][]float64, n int) error {
	if len(vecs) != n {
		return fmt.Errorf("%d vectors for %d texts", len(vecs), n)
	}
	for i, v := range vecs {
		if len(v) == 0 || len(v) != len(vecs[0]) {
			return fmt.Errorf("vector %d has %d dimensions, vector 0 %d", i, len(v), len(vecs[0]))
		}
		for j, f := range v {
			if math.IsNaN(f) || math.IsInf(f, 0) {
				return fmt.Errorf("vector %d, component %d is %v", i, j, f)
			}
		}
	}
	return nil
}

func copyVectors(vecs [][]float64) [][]float64 {
	if vecs == nil {
		return nil
	}
	out := make([][]float64, len(vecs))
	for i, v := range vecs {
		out[i] = slices.Clone(v)
	}
	return out
}

// keyEmbed keys an embedding call: the identity and {"embed": texts}.
func keyEmbed(id identityKey, texts []string) (requestKey, error) {
	list := make([]any, len(texts))
	for i, t := range texts {
		list[i] = t
	}
	return keyFields(id, map[string]any{"embed": list})
}

// embedMiss builds the replay miss for an embedding call: the nearest
// embedding entry is the one differing in the fewest of the identity's
// fields and texts. st.mu is held.
func (st *store) embedMiss(e *EmbedRecorder, texts []string, k requestKey) *NotRecordedError {
	nr := &NotRecordedError{Path: st.path, Key: k.key, NoFile: !st.exists && len(st.entries) == 0, Texts: len(texts)}
	clean := secret.Now().Clean
	now := flatten("judge", secret.Value(e.id.tree, clean))
	best, shared, nearest := -1, 0, ""
	for _, key := range slices.Sorted(maps.Keys(st.entries)) {
		ent := st.entries[key]
		if ent.Embedding == nil {
			continue
		}
		n, common := textsDiffer(texts, ent.Request.Texts, clean)
		n += len(judgeDifferences(now, ent))
		if best < 0 || n < best || n == best && common > shared {
			best, shared, nearest = n, common, key
		}
	}
	if nearest == "" {
		return nr
	}
	ent := st.entries[nearest]
	nr.Nearest, nr.NearestRecordedAt = nearest, ent.RecordedAt
	nr.Differs = judgeDifferences(now, ent)
	if len(texts) != len(ent.Request.Texts) {
		nr.Differs = append(nr.Differs, Difference{Field: "texts", Now: strconv.Itoa(len(texts)) + " texts", Recorded: strconv.Itoa(len(ent.Request.Texts)) + " texts"})
	}
	for i := range min(len(texts), len(ent.Request.Texts)) {
		if now, then := textnorm.Excerpt(clean(texts[i]), maxExcerpt), ent.Request.Texts[i]; now != then {
			d := Difference{Field: fmt.Sprintf("texts[%d]", i)}
			d.Now, d.Recorded = textDifference(clean(texts[i]), then)
			nr.Differs = append(nr.Differs, d)
		}
	}
	return nr
}

// textsDiffer counts the texts that differ from a recorded entry's
// excerpts, and the difference in number; common is how many bytes the
// differing ones share at their start, to tell near entries apart.
func textsDiffer(texts, recorded []string, clean func(string) string) (n, common int) {
	n = max(len(texts), len(recorded)) - min(len(texts), len(recorded))
	for i := range min(len(texts), len(recorded)) {
		now := textnorm.Excerpt(clean(texts[i]), maxExcerpt)
		if now == recorded[i] {
			continue
		}
		n++
		p := 0
		for p < len(now) && p < len(recorded[i]) && now[p] == recorded[i][p] {
			p++
		}
		common += p
	}
	return n, common
}

var _ evalkit.Embedder = (*EmbedRecorder)(nil)
