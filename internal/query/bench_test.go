package query

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/jmespath-community/go-jmespath/pkg/parsing"
)

// benchData is about 1 MB of decoded JSON: 5000 line items.
func benchData(b *testing.B) any {
	var items []string
	for i := range 5000 {
		items = append(items, fmt.Sprintf(`{"sku": "SKU-%05d", "qty": %d, "price": %d.99, "tags": ["a", "b", "c"], "note": "%s"}`, i, i%7, i%300, strings.Repeat("x", 120)))
	}
	var v any
	if err := json.Unmarshal([]byte(`{"refund": {"amount": 42.0}, "items": [`+strings.Join(items, ", ")+`]}`), &v); err != nil {
		b.Fatal(err)
	}
	return v
}

// BenchmarkSearch is the baseline: Search walks the whole input to check
// that it is normalized before every evaluation.
func BenchmarkSearch(b *testing.B) {
	data := benchData(b)
	q, err := Compile("refund.amount")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := q.Search(data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSearchDecoded evaluates the same query on the same decoded data
// without the walk.
func BenchmarkSearchDecoded(b *testing.B) {
	data := benchData(b)
	q, err := Compile("refund.amount")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := q.SearchDecoded(data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCompileLimits is the cost of the checks Compile makes before
// parsing, on an expression at the length limit.
func BenchmarkCompileLimits(b *testing.B) {
	expr := strings.Repeat(`a."created-by-a-long-key" || `, MaxExprLen/32-1) + "c"
	b.ReportAllocs()
	b.SetBytes(int64(len(expr)))
	for b.Loop() {
		if se := guard(expr); se != nil {
			b.Fatal(se)
		}
	}
}

// BenchmarkCompile is the cost of compiling one expression, without the
// cache.
func BenchmarkCompile(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, _, _, err := compile(`items[?qty > ` + "`1`" + `].sku | sort(@) | [0]`); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSearchFilter filters and projects the 5000 line items: what
// every node's step costs on a query that visits each item. The baseline
// is the same query with the steps left out (BenchmarkSearchFilterUncounted).
func BenchmarkSearchFilter(b *testing.B) {
	benchFilter(b, func(q *Query) *Query { return q })
}

// BenchmarkSearchFilterUncounted is BenchmarkSearchFilter's query without
// its step functions.
func BenchmarkSearchFilterUncounted(b *testing.B) {
	benchFilter(b, func(q *Query) *Query {
		node, err := parsing.NewParser().Parse(q.expr)
		if err != nil {
			b.Fatal(err)
		}
		return &Query{expr: q.expr, node: node}
	})
}

func benchFilter(b *testing.B, prep func(*Query) *Query) {
	data := benchData(b)
	q, err := Compile("items[?qty > `1` && contains(tags, 'b')].{sku: sku, total: price * qty} | length(@)")
	if err != nil {
		b.Fatal(err)
	}
	q = prep(q)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := q.SearchDecoded(data); err != nil {
			b.Fatal(err)
		}
	}
}
