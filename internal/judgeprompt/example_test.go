package judgeprompt_test

import (
	"fmt"
	"strings"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/internal/judgeprompt"
)

func ExampleRender() {
	msgs, err := judgeprompt.Render(evalkit.JudgeRequest{
		Criteria: "States the refund amount",
		Content:  "Your refund of $42 is on its way.",
		Scale:    evalkit.Scale{Min: 1, Max: 5},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	lines := strings.Split(msgs.User, "\n")
	fmt.Println(lines[0])
	fmt.Println(lines[len(lines)-2])
	// Output:
	// Grade the content below against the criteria.
	// {"reasoning": "<your assessment in a few sentences>", "score": <a number from 1 to 5>}
}

func ExampleSchema() {
	schema, _ := judgeprompt.Schema(evalkit.JudgeRequest{Criteria: "Is polite", Scale: evalkit.Scale{Min: 0, Max: 1}})
	fmt.Println(string(schema))
	// Output:
	// {"type":"object","properties":{"reasoning":{"type":"string","description":"Why the content earns its score, written before the score."},"score":{"type":"number","description":"The score, a number from 0 to 1."}},"required":["reasoning","score"],"additionalProperties":false}
}
