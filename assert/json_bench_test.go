package assert_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	jmespath "github.com/jmespath-community/go-jmespath/pkg/api"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
	"github.com/evalkit-go/evalkit/internal/benchdata"
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

// parseOnceQueries are ten json_path checks on one answer, as a test
// asserting on several fields of an agent's JSON writes them.
var parseOnceQueries = []struct {
	expr string
	want any
}{
	{"reservation.reservation_id", "FQ8APE"},
	{"reservation.user_id", "omar_rossi_1241"},
	{"reservation.origin", "EWR"},
	{"reservation.destination", "ORD"},
	{"reservation.cabin", "basic_economy"},
	{"reservation.total_baggages", 3.0},
	{"reservation.flights[0].flight_number", "HAT056"},
	{"length(reservation.flights)", 2.0},
	{"reservation.passengers[0].last_name", "Rossi"},
	{"status", "updated"},
}

// BenchmarkJSONPathParseOnce runs ten json_path checks on one answer (a
// real τ-bench reservation, 1.6 KB of JSON) against the baseline of one
// json.Unmarshal and the ten expressions compiled once with the JMESPath
// library itself: the checks share one parse of the answer (the parse
// cache) and one compilation of each expression (the query cache). Each
// iteration reads another answer, so the parse is never the previous
// iteration's. The target is ≤ 1.3× the baseline.
func BenchmarkJSONPathParseOnce(b *testing.B) {
	ctx := context.Background()
	runs := chainRuns(b)
	compiled := make([]jmespath.JMESPath, len(parseOnceQueries))
	for i, q := range parseOnceQueries {
		var err error
		if compiled[i], err = jmespath.Compile(q.expr); err != nil {
			b.Fatal(err)
		}
	}
	baseline := func(b *testing.B, tr *evalkit.Transcript) {
		var data any
		if err := json.Unmarshal([]byte(tr.Messages[len(tr.Messages)-1].Content), &data); err != nil {
			b.Fatal(err)
		}
		for j, q := range compiled {
			got, err := q.Search(data)
			if err != nil || got != parseOnceQueries[j].want {
				b.Fatal(parseOnceQueries[j].expr, got, err)
			}
		}
	}
	b.Run("baseline=unmarshal+10compiled", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			baseline(b, runs[i%len(runs)])
			i++
		}
	})
	checks := make([]assert.Check, len(parseOnceQueries))
	for i, q := range parseOnceQueries {
		checks[i] = assert.JSONPath{Expression: q.expr, Expected: q.want}
	}
	tenChecks := func(b *testing.B, tr *evalkit.Transcript) {
		for _, c := range checks {
			if res, err := c.Check(ctx, tr); err != nil || !res.Passed {
				b.Fatal(res.Summary, err)
			}
		}
	}
	b.Run("json_path×10", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			tenChecks(b, runs[i%len(runs)])
			i++
		}
	})
	b.Run("paired/json_path×10", func(b *testing.B) {
		i := 0
		ratio := benchdata.Paired(b, func() { baseline(b, runs[i%len(runs)]) }, func() {
			tenChecks(b, runs[i%len(runs)])
			i++
		})
		b.ReportMetric(ratio, "x-baseline")
	})
}

// BenchmarkJSONSchemaVsValidateOnly runs one json_schema check (the
// schema a Go map, as tests write it) on the τ-bench answer against the
// baseline of validating alone: the schema compiled once by
// santhosh-tekuri/jsonschema, then per iteration the answer decoded and
// validated. "fresh" reads another answer each iteration (it is decoded
// each time, as in the baseline); "repeated" checks one answer again, as a
// Repeat or a second schema on one output does. The target is ≤ 1.2× the
// baseline.
func BenchmarkJSONSchemaVsValidateOnly(b *testing.B) {
	ctx := context.Background()
	runs := chainRuns(b)
	schema := benchdata.Schema()
	text, err := json.Marshal(schema)
	if err != nil {
		b.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(text))
	if err != nil {
		b.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("schema.json", doc); err != nil {
		b.Fatal(err)
	}
	sch, err := c.Compile("schema.json")
	if err != nil {
		b.Fatal(err)
	}
	validate := func(b *testing.B, tr *evalkit.Transcript) {
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(tr.Messages[len(tr.Messages)-1].Content))
		if err != nil {
			b.Fatal(err)
		}
		if err := sch.Validate(v); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("baseline=validate-only", func(b *testing.B) {
		b.ReportAllocs()
		i := 0
		for b.Loop() {
			validate(b, runs[i%len(runs)])
			i++
		}
	})
	check := assert.JSONSchema{Schema: schema}
	run := func(b *testing.B, mode string, i int) {
		tr := runs[0]
		if mode == "fresh" {
			tr = runs[i%len(runs)]
		}
		if res, err := check.Check(ctx, tr); err != nil || !res.Passed {
			b.Fatal(res.Summary, err)
		}
	}
	for _, mode := range []string{"fresh", "repeated"} {
		b.Run("json_schema_"+mode, func(b *testing.B) {
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				run(b, mode, i)
				i++
			}
		})
	}
	for _, mode := range []string{"fresh", "repeated"} {
		b.Run("paired/json_schema_"+mode, func(b *testing.B) {
			i := 0
			ratio := benchdata.Paired(b, func() { validate(b, runs[i%len(runs)]) }, func() {
				run(b, mode, i)
				i++
			})
			b.ReportMetric(ratio, "x-baseline")
		})
	}
}
