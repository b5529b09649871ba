package evalkit

import "context"

// Embedder turns texts into embedding vectors: an embeddings API
// (OpenAI's text-embedding-3-small, a local model), or a deterministic fake
// in tests. Embed returns one vector per text, in order, all of one
// dimension; a vector's units are the model's own (many models return
// vectors of Euclidean length 1). An embedder that cannot embed every text
// returns an error, never a partial or zero vector.
type Embedder interface {
	Embed(ctx context.Context, texts []string) ([][]float64, error)
}
