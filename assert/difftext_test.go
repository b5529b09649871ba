package assert_test

import (
	"context"
	"sync"
	"testing"

	testify "github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
)

// A diff built when read (Result.DiffText) is one text for every copy of
// the result and every goroutine reading it (run under -race by make
// race), built from what the check saw: a transcript changed after the
// check does not change it.
func TestDiffTextCopiesAndConcurrentReads(t *testing.T) {
	tr := &evalkit.Transcript{Messages: []evalkit.Message{
		{Role: evalkit.RoleUser, Content: "refund #W1"},
		{Role: evalkit.RoleAssistant, ToolCalls: []evalkit.ToolCall{{ID: "1", Name: "refund", Args: []byte(`{"order": "#W1", "amount": 56}`)}}},
	}}
	res, err := assert.ToolArgs{Tool: "refund", Args: map[string]any{"order": "#W1", "amount": 42}}.Check(context.Background(), tr)
	require.NoError(t, err)
	require.False(t, res.Passed)
	testify.Empty(t, res.Diff, "tool_args leaves its diff to DiffText")
	copied := res
	tr.Messages[1].ToolCalls[0].Args[len(`{"order": "#W1", "amount": `)] = '9' // 96, in place, after the check
	var wg sync.WaitGroup
	texts := make([]string, 16)
	for i := range texts {
		wg.Go(func() {
			if i%2 == 0 {
				texts[i] = res.DiffText()
			} else {
				texts[i] = copied.DiffText()
			}
		})
	}
	wg.Wait()
	for _, text := range texts {
		testify.Equal(t, texts[0], text)
	}
	testify.Contains(t, texts[0], "42")
	testify.Contains(t, texts[0], "56", "the arguments the check read")
	testify.NotContains(t, texts[0], "96")
	testify.Empty(t, assert.Result{}.DiffText())
}
