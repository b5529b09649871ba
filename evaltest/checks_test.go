package evaltest_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	evalassert "github.com/evalkit-go/evalkit/assert"
	"github.com/evalkit-go/evalkit/evaltest"
)

// Equals' failure messages, exactly: the call as written with its options,
// got before want, the diff of the canonical forms.
func TestEqualsMessages(t *testing.T) {
	tests := []struct {
		name  string
		chain func(e *evaltest.Expectation)
		want  string
	}{
		{"text with rules", func(e *evaltest.Expectation) { e.Equals("Paris", evalassert.Trim(), evalassert.CaseInsensitive()) },
			`Equals("Paris", Trim(), CaseInsensitive()): got " LYON\n", want "Paris"
diff (-want +got):
  string(
- 	"paris",
+ 	"lyon",
  )`},
		{"any of", func(e *evaltest.Expectation) { e.Equals(evalassert.AnyOf{"Paris", "Paris, France"}) },
			`Equals(assert.AnyOf{"Paris", "Paris, France"}): got " LYON\n", want one of "Paris", "Paris, France"
diff (-want +got):
  string(
- 	"Paris",
+ 	" LYON\n",
  )`},
		{"struct literal with rules", func(e *evaltest.Expectation) {
			e.Check(evalassert.Equals{Expected: "lyon", Rules: evalassert.Rules{CaseInsensitive: true}})
		},
			`Check(assert.Equals{Expected: "lyon", Rules: assert.Rules{CaseInsensitive: true}}): got " LYON\n", want "lyon"
diff (-want +got):
  string(
- 	"lyon",
+ 	" lyon\n",
  )`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := report(func(et *evaltest.T) { tt.chain(et.Expect(chat(" LYON\n"))) })
			assert.Equal(t, []string{normalizeSpace(tt.want + "\ntranscript: 2 messages")}, normalizeAll(tb.errors))
		})
	}

	tb := report(func(et *evaltest.T) {
		et.Expect(chat(`{"order": {"status": "Shipped "}}`)).
			Equals("shipped", evalassert.At("order.status"), evalassert.CaseInsensitive(), evalassert.Trim()).
			Equals(map[string]any{"order": map[string]any{"status": "shipped"}}, evalassert.CaseInsensitive(), evalassert.TrimLines())
	})
	assert.Empty(t, tb.errors)
}
