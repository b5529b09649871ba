package openaijudge_test

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/internal/judgeprompt"
	"github.com/evalkit-go/evalkit/judgefake"
)

// A metric step asks for items, not a score: the prompt is a task with no
// scale, the schema is the step's, and the answer's object is the verdict.
func TestOpenaijudgeMetricStep(t *testing.T) {
	step, err := judgeprompt.ExtractStep(judgeprompt.Claims)
	require.NoError(t, err)
	j, tr := newJudge(t, []judgefake.Reply{judgefake.Text(`{"claims": ["Refunds take five days."]}`)})
	v, err := j.Judge(context.Background(), step.Request(evalkit.JudgeRequest{Content: "Refunds take five days."}))
	require.NoError(t, err)
	assert.False(t, v.Scored)
	assert.Equal(t, []any{"Refunds take five days."}, v.Fields["claims"])

	reqs := tr.Requests()
	require.Len(t, reqs, 1)
	b := body(t, reqs[0])
	msgs := b["messages"].([]any)
	user := msgs[1].(map[string]any)["content"].(string)
	assert.True(t, strings.HasPrefix(user, "Carry out the task below"), user)
	assert.NotContains(t, user, "# Scale")
	assert.Contains(t, user, "<<<BEGIN CONTENT ")
	rf := b["response_format"].(map[string]any)["json_schema"].(map[string]any)
	assert.Equal(t, "claims", firstKey(rf["schema"].(map[string]any)["properties"].(map[string]any)))
}

func firstKey(m map[string]any) string {
	for k := range m {
		return k
	}
	return ""
}
