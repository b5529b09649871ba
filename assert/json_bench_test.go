package assert_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/evalkit-go/evalkit/assert"
)

// jsonBenchOutputs are the answers the JSON-check benchmarks read: a small
// order object, the same object in a json fence after prose (read with
// extract_json), and a 1 MB object of 5000 line items.
func jsonBenchOutputs() map[string]string {
	const order = `{"order_id": "#W123", "status": "shipped", "refund": {"amount": 42.0, "currency": "EUR"}, "items": [{"sku": "A1", "qty": 2}, {"sku": "B2", "qty": 1}]}`
	var items []string
	for i := range 5000 {
		items = append(items, fmt.Sprintf(`{"sku": "SKU-%05d", "qty": %d, "price": %d.99, "tags": ["a", "b", "c"], "note": "%s"}`, i, i%7, i%300, strings.Repeat("x", 120)))
	}
	return map[string]string{
		"small":  order,
		"fenced": "Here is the order you asked for. I checked the refund too.\n\n```json\n" + order + "\n```\nAnything else?",
		"1MB":    `{"order_id": "#W123", "status": "shipped", "refund": {"amount": 42.0, "currency": "EUR"}, "items": [` + strings.Join(items, ", ") + `]}`,
	}
}

func benchJSONCheck(b *testing.B, c assert.Check) {
	ctx := context.Background()
	outputs := jsonBenchOutputs()
	for _, name := range []string{"small", "fenced", "1MB"} {
		tr := jsonAnswer(outputs[name])
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(outputs[name])))
			for b.Loop() {
				res, err := c.Check(ctx, tr)
				if err != nil || !res.Passed {
					b.Fatalf("%+v, %v", res, err)
				}
			}
		})
	}
}

func BenchmarkChecksJSONValid(b *testing.B) {
	benchJSONCheck(b, assert.JSONValid{ExtractJSON: true})
}

func BenchmarkChecksJSONPath(b *testing.B) {
	benchJSONCheck(b, assert.JSONPath{Expression: "refund.amount", Expected: 42, ExtractJSON: true})
}

func BenchmarkChecksJSONSchema(b *testing.B) {
	benchJSONCheck(b, assert.JSONSchema{ExtractJSON: true, Schema: map[string]any{
		"type":     "object",
		"required": []any{"order_id", "status", "items"},
		"properties": map[string]any{
			"order_id": map[string]any{"type": "string", "pattern": "^#W[0-9]+$"},
			"status":   map[string]any{"enum": []any{"pending", "shipped", "delivered"}},
			"items": map[string]any{"type": "array", "items": map[string]any{
				"type": "object", "required": []any{"sku", "qty"},
				"properties": map[string]any{"qty": map[string]any{"type": "integer", "minimum": 0}},
			}},
		},
	}})
}

func BenchmarkChecksFieldPresence(b *testing.B) {
	benchJSONCheck(b, assert.FieldPresence{Fields: []string{"order_id", "refund.amount", "items[0].sku"}, ExtractJSON: true})
}

// BenchmarkChecksFieldPresenceManyFields looks up 50 fields in each
// answer. Each lookup used to walk the whole decoded answer again (50 walks
// of the 1 MB answer); the decoded data is now searched as it is.
func BenchmarkChecksFieldPresenceManyFields(b *testing.B) {
	fields := []string{"order_id", "status", "refund.amount", "refund.currency"}
	for i := range 46 {
		fields = append(fields, fmt.Sprintf("items[%d].sku", i%2))
	}
	benchJSONCheck(b, assert.FieldPresence{Fields: fields, ExtractJSON: true})
}
