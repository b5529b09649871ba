package query_test

import (
	"encoding/json"
	"fmt"

	"github.com/evalkit-go/evalkit/internal/query"
)

func ExampleCompile() {
	q, _ := query.Compile("$.fees[?fee == `20`] | length(@)")
	n, _ := q.Search(map[string]any{"fees": []any{map[string]any{"fee": json.Number("20.0")}, map[string]any{"fee": 5}}})
	fmt.Println(n)

	_, err := query.Compile("tags.v1.2")
	fmt.Println(err)
	// Output:
	// 1
	// invalid JMESPath "tags.v1.2": Expected identifier, lbracket, or lbrace (at offset 8)
}
