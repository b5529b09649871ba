package evaltest_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/evalkit-go/evalkit/evaltest"
	"github.com/evalkit-go/evalkit/judgefake"
)

var sampled = []string{
	"Refunds are accepted within 30 days of delivery.",
	"You can get a refund within 30 days of delivery.",
	"Refunds are accepted within 30 days of the delivery date.",
	"Our store opens at 9am on weekdays.",
}

// A non-deterministic agent answers the same question in each attempt of a
// Repeat; Consistent then checks that the answers agree, and names the
// one that does not.
func TestRepeatThenConsistent(t *testing.T) {
	tb := reportWith([]evaltest.Option{evaltest.WithEmbedder(judgefake.BagOfWords(64))}, func(et *evaltest.T) {
		rep := et.Repeat(4, func(et *evaltest.T) {
			et.Expect(chat(sampled[et.Attempt()-1])).MinLength(10)
		}, evaltest.All())
		et.ExpectAll(rep.Transcripts()...).
			Consistent(0.8).
			Eval("consistent", map[string]any{"max_distance": 1.5})
		et.ExpectAll(rep.Transcripts()...).Eval("contains", map[string]any{"patterns": []any{"x"}})
	})
	assert.Equal(t, []string{
		`Consistent(0.8): 1 of 4 candidates lie farther than 0.8 from the centroid: candidate 4
consensus: candidate 1 (distance 0.49, confidence 0.71): "Refunds are accepted within 30 days of delivery."
outlier: candidate 4 (distance 1.01, confidence 0.41): "Our store opens at 9am on weekdays."
distances: 0.49, 0.64, 0.52, 1.01
transcripts: 4`,
		`Eval("contains", {"patterns":["x"]}): error: contains checks one transcript at a time, not several together
transcripts: 4`,
	}, tb.errors)

	tb = report(func(et *evaltest.T) {
		et.ExpectAll(chat(sampled[0]), chat(sampled[1])).Consistent(0.5)
	})
	assert.Equal(t, []string{"Consistent(0.5): error: consistent: no embedder: give evaltest.New the option evaltest.WithEmbedder(e)\ntranscripts: 2"}, tb.errors)
}
