// Package fakeembed is a deterministic evalkit.Embedder for evalkit's own
// tests: texts that share words get nearby vectors, with no model.
package fakeembed

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"strings"
	"unicode"
)

// Words embeds a text as a bag of words: each lower-cased word (a run of
// letters and digits) adds ±1 at a dimension chosen by its FNV-1a hash, and
// the vector is scaled to Euclidean length 1. Texts with the same words get
// the same vector, in any process; texts with no word in common are about
// √2 apart. Dim is the vector length (64 when zero). A text with no word is
// an error, as a real embedder's refusal of empty input.
type Words struct {
	Dim int
}

// Embed implements evalkit.Embedder.
func (w Words) Embed(ctx context.Context, texts []string) ([][]float64, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	dim := w.Dim
	if dim == 0 {
		dim = 64
	}
	out := make([][]float64, len(texts))
	for i, text := range texts {
		v := make([]float64, dim)
		words := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
		if len(words) == 0 {
			return nil, fmt.Errorf("fakeembed: text %d has no words", i)
		}
		for _, word := range words {
			h := fnv.New64a()
			h.Write([]byte(word))
			sum := h.Sum64()
			sign := 1.0
			if sum>>63 == 1 {
				sign = -1
			}
			v[sum%uint64(dim)] += sign
		}
		n := 0.0
		for _, x := range v {
			n += x * x
		}
		n = math.Sqrt(n)
		if n == 0 { // words whose signs cancel out
			v[0], n = 1, 1
		}
		for j := range v {
			v[j] /= n
		}
		out[i] = v
	}
	return out, nil
}
