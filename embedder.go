package evalkit

import "context"

// Embedder turns texts into embedding vectors: one vector per text, in the
// order given, every vector of the same length (the model's dimension).
// Checks such as cosine_similarity ask it to embed the output under test
// and, when they are given a reference text instead of a vector, the
// reference too, in one call.
//
// An Embedder that cannot embed every text returns an error — never a
// zero vector or a short list standing in for a missing one: a check that
// receives one reports it as an error, not as a score. It honours ctx's
// cancellation. Implementations wrap an embeddings API (OpenAI's
// /v1/embeddings, a local model); judgefake.BagOfWords is a deterministic
// fake for tests. As DeepEval's and promptfoo's embedding providers.
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float64, error)
}

// EmbedderFunc adapts a function to an Embedder.
type EmbedderFunc func(ctx context.Context, texts []string) ([][]float64, error)

// Embed calls f.
func (f EmbedderFunc) Embed(ctx context.Context, texts []string) ([][]float64, error) {
	return f(ctx, texts)
}
