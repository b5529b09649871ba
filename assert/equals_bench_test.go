package assert_test

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/evalkit-go/evalkit/assert"
)

// BenchmarkEqualsVsBaseline compares equals with what it replaces: == on
// the text, strings.EqualFold with strings.TrimSpace for case-insensitive
// trimmed text, and json.Unmarshal with reflect.DeepEqual for JSON (which
// compares 7 and 7.0 alike but knows no rules).
func BenchmarkEqualsVsBaseline(b *testing.B) {
	ctx := context.Background()
	short := "The capital of France is Paris."
	long := strings.Repeat("Die Rückerstattung ist erfolgt. ", 1<<20/33)
	doc := `{"order": {"id": "#W123", "status": " Shipped ", "items": [{"sku": "A-1", "qty": 2}, {"sku": "B-7", "qty": 1}]}}`
	var want any
	if err := json.Unmarshal([]byte(doc), &want); err != nil {
		b.Fatal(err)
	}
	for _, bc := range []struct {
		name string
		c    assert.Equals
		text string
	}{
		{"text_exact/short", assert.Equals{Expected: short}, short},
		{"text_rules/short", assert.Equals{Expected: strings.ToUpper(short), Rules: assert.Rules{CaseInsensitive: true, Trim: true, CollapseWhitespace: true}}, " " + short + "\n"},
		{"text_exact/1MB", assert.Equals{Expected: long}, long},
		{"text_rules/1MB", assert.Equals{Expected: long, Rules: assert.Rules{CaseInsensitive: true, Trim: true}}, long},
		{"json_expression", assert.Equals{Expected: "shipped", Expression: "order.status", Rules: assert.Rules{CaseInsensitive: true, Trim: true}}, doc},
		{"json_whole", assert.Equals{Expected: want}, doc},
	} {
		tr := textChat(bc.text)
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.text)))
			b.ReportAllocs()
			for b.Loop() {
				if res, err := bc.c.Check(ctx, tr); err != nil || !res.Passed {
					b.Fatal(res, err)
				}
			}
		})
	}
	b.Run("baseline=/short", func(b *testing.B) {
		got := strings.Clone(short)
		for b.Loop() {
			if got != short {
				b.Fatal()
			}
		}
	})
	b.Run("baseline=strings.EqualFold/short", func(b *testing.B) {
		got := " " + short + "\n"
		for b.Loop() {
			if !strings.EqualFold(strings.TrimSpace(got), strings.ToUpper(short)) {
				b.Fatal()
			}
		}
	})
	b.Run("baseline=strings.EqualFold/1MB", func(b *testing.B) {
		got := strings.Clone(long)
		b.SetBytes(int64(len(long)))
		for b.Loop() {
			if !strings.EqualFold(strings.TrimSpace(got), strings.TrimSpace(long)) {
				b.Fatal()
			}
		}
	})
	b.Run("baseline=json.Unmarshal+reflect.DeepEqual", func(b *testing.B) {
		b.SetBytes(int64(len(doc)))
		for b.Loop() {
			var got any
			if err := json.Unmarshal([]byte(doc), &got); err != nil || !reflect.DeepEqual(got, want) {
				b.Fatal(err)
			}
		}
	})
}
