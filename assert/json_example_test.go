package assert_test

import (
	"context"
	"fmt"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
)

func ExampleJSONPath() {
	tr := &evalkit.Transcript{Messages: []evalkit.Message{
		{Role: evalkit.RoleUser, Content: "Refund order #W123"},
		{Role: evalkit.RoleAssistant, Content: "Done:\n```json\n{\"refund\": {\"amount\": 41.5}}\n```"},
	}}
	res, err := assert.JSONPath{Expression: "refund.amount", Expected: 42, AllowWrapped: true}.Check(context.Background(), tr)
	fmt.Println(res.Passed, res.Summary, err)
	// Output: false got 41.5, want 42 <nil>
}

func ExampleJSONSchema() {
	tr := &evalkit.Transcript{Messages: []evalkit.Message{
		{Role: evalkit.RoleAssistant, Content: `{"event_time": "sometime next week"}`},
	}}
	schema := `{"type": "object", "properties": {"event_time": {"type": "string", "format": "date-time"}}}`
	res, _ := assert.Eval(context.Background(), "json_schema", tr, map[string]any{"schema": schema})
	fmt.Println(res.Passed, res.Summary)
	// Output: false does not match the schema: at /event_time: 'sometime next week' is not valid date-time: less than 20 characters long
}

func ExampleJSONValid() {
	tr := &evalkit.Transcript{Messages: []evalkit.Message{
		{Role: evalkit.RoleAssistant, Content: `{"city": "Lyon", "forecast": "light rain until eve`, FinishReason: "length"},
	}}
	res, _ := assert.JSONValid{}.Check(context.Background(), tr)
	fmt.Println(res.Passed, res.Summary)
	for _, d := range res.Details {
		fmt.Printf("%s: %s\n", d.Label, d.Text)
	}
	// Output:
	// false not valid JSON: unexpected end of input (cut off?) at line 1, column 51
	// output: "{\"city\": \"Lyon\", \"forecast\": \"light rain until eve"
	// note: finish_reason is "length": the output was cut off by the token limit
}

func ExampleFieldPresence() {
	tr := &evalkit.Transcript{Messages: []evalkit.Message{
		{Role: evalkit.RoleAssistant, Content: `{"username": "ann", "customer": {"email": "ann@example.com"}}`},
	}}
	res, _ := assert.FieldPresence{Fields: []string{"customer.email", "name"}}.Check(context.Background(), tr)
	fmt.Println(res.Passed, res.Summary, res.Score)
	// Output: false missing "name" 0.5
}
