package jsonx_test

import (
	"fmt"

	"github.com/evalkit-go/evalkit/internal/jsonx"
)

func ExampleExtract() {
	text := "Type used:\n```ts\nconst sample = { id: 7 };\n```\nAnswer:\n```json\n{\"status\": \"shipped\"}\n```"
	found, err := jsonx.Extract(text, jsonx.Wrapped)
	fmt.Println(string(found.JSON), "from", found.From, err)

	_, err = jsonx.Extract("Run this:\n```python\nprint({'ok': 1})\n```", jsonx.Prose)
	fmt.Println(err)
	// Output:
	// {"status": "shipped"} from the ```json fence at line 6 <nil>
	// no JSON found: the only fence is tagged python; there is no JSON object or array outside the fences
}
