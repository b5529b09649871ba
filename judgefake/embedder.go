package judgefake

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"strings"
	"unicode"

	"github.com/evalkit-go/evalkit"
)

// BagOfWords returns a deterministic fake evalkit.Embedder: each text's
// vector of dim components counts its words, hashed into buckets, then is
// scaled to length 1. Texts sharing words point the same way, so the
// cosine of two texts grows with their shared vocabulary (word order
// ignored), the same in any process, on any platform: a stand-in for an
// embeddings API in tests of code that uses an Embedder.
//
// A word is a run of letters and digits, lower-cased. Each word adds ±1
// to the bucket FNV-1a(word) mod dim, the sign from the hash's top bit, so
// unrelated words cancel rather than pile up. A text without words embeds
// as the zero vector — what a check must refuse, which makes it a useful
// case to test. dim below 1 is treated as 1; 256 keeps collisions rare
// for short texts. Embed returns the context's error when ctx is done.
func BagOfWords(dim int) evalkit.Embedder {
	return bagOfWords{dim: max(1, dim)}
}

type bagOfWords struct{ dim int }

func (b bagOfWords) String() string { return fmt.Sprintf("judgefake.BagOfWords(%d)", b.dim) }

func (b bagOfWords) Embed(ctx context.Context, texts []string) ([][]float64, error) {
	if err := ctxErr(ctx); err != nil {
		return nil, err
	}
	out := make([][]float64, len(texts))
	for i, t := range texts {
		v := make([]float64, b.dim)
		for _, w := range strings.FieldsFunc(strings.ToLower(t), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
			h := fnv.New64a()
			h.Write([]byte(w))
			sum := h.Sum64()
			sign := 1.0
			if sum>>63 == 1 {
				sign = -1
			}
			v[sum%uint64(b.dim)] += sign
		}
		norm := 0.0
		for _, f := range v {
			norm += f * f
		}
		if norm > 0 {
			norm = math.Sqrt(norm)
			for k := range v {
				v[k] /= norm
			}
		}
		out[i] = v
	}
	return out, nil
}
