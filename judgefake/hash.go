package judgefake

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"fmt"

	"github.com/evalkit-go/evalkit"
)

// Hash returns a judge whose verdict is a stable pseudo-random function of
// the request and seed: the same request and seed always get the same
// verdict, in any process, on any platform; a different seed or any change
// to the request gets an unrelated one. Use it where a test needs varied
// but reproducible verdicts, such as exercising a threshold over many
// requests.
//
// The verdict's Score is one of 0, 0.001, …, 0.999, 1: the first 8 bytes
// of SHA-256(seed, 0x00, the request's canonical JSON), read big-endian,
// modulo 1001, divided by 1000. RawScore is that score on the request's scale, Scored is true, Passed is
// Score ≥ 0.5, and Reasoning says where the score came from. The
// canonical JSON is the request's JSON with keys sorted, the zero Scale
// written as evalkit.DefaultScale and the verdict schema re-encoded, so
// requests that mean the same get the same verdict.
func Hash(seed string) evalkit.Judge {
	return newJudge(fmt.Sprintf("judgefake.Hash(%q)", seed), func(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
		if err := begin(ctx, req); err != nil {
			return evalkit.Verdict{}, err
		}
		canon, err := canonicalJSON(req)
		if err != nil {
			return evalkit.Verdict{}, fmt.Errorf("judgefake: Hash: %w", err)
		}
		h := sha256.New()
		h.Write([]byte(seed))
		h.Write([]byte{0})
		h.Write(canon)
		sum := h.Sum(nil)
		score := float64(binary.BigEndian.Uint64(sum[:8])%1001) / 1000
		scale := req.Scale.OrDefault()
		return evalkit.Verdict{
			Score:     score,
			RawScore:  scale.Raw(score),
			Scored:    true,
			Passed:    ptr(score >= 0.5),
			Reasoning: fmt.Sprintf("judgefake.Hash(%q): score %.3f from the request's hash", seed, score),
		}, nil
	})
}

// canonicalJSON encodes req with sorted keys, the default scale spelled
// out and the verdict schema normalized.
func canonicalJSON(req evalkit.JudgeRequest) ([]byte, error) {
	req.Scale = req.Scale.OrDefault()
	b, err := json.Marshal(req)
	if err != nil {
		return nil, fmt.Errorf("encoding the request: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("decoding the request: %w", err)
	}
	// Maps encode with sorted keys; json.Number keeps numbers as written.
	return json.Marshal(v)
}
