package evaltest_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/evaltest"
)

// Regression test for issue 15's finding 1: the process's own
// OPENAI_API_KEY and an AWS key id in an agent's answer were printed by
// failing Contains, Equals (and its diff), Regex, JSONPath and Excludes,
// and written to the results file (messages and the transcript line).
func TestIssue15CredentialsInFailureMessagesAndResults(t *testing.T) {
	key := "sk-proj-Qm4Tz8Lw2Xc6Vb9Nr1Ks5Hd7Jf3Gp0Ya" + strings.Repeat("Lk7Mn3", 6)
	const awsID = "AKIAZ7QW3RT5YU2OP4LK"
	t.Setenv("OPENAI_API_KEY", key)
	results := filepath.Join(t.TempDir(), "results.jsonl")
	t.Setenv("EVALKIT_REPORT", results)

	answer := "Done. For the record, I used " + key + " and " + awsID + " to reach the API."
	text := &evalkit.Transcript{Messages: []evalkit.Message{{Role: evalkit.RoleUser, Content: "Refund #W123"}, {Role: evalkit.RoleAssistant, Content: answer}}}
	jsonAnswer := &evalkit.Transcript{Messages: []evalkit.Message{{Role: evalkit.RoleAssistant, Content: `{"note": "` + key + ` ` + awsID + `", "refund": 1}`}}}
	tb := report(func(et *evaltest.T) {
		et.Expect(text).
			Contains("refund issued").
			Equals("Your refund of $42 is issued.").
			Regex(`^Refunded \$\d+`).
			Excludes(key).
			Excludes(awsID).
			Contains("the answer") // passes nothing, fails again: one more message
		et.Expect(jsonAnswer).
			JSONPath("note", "nothing to note").
			Equals(map[string]any{"refund": 2})
	})
	require.Len(t, tb.errors, 8, "every check failed")
	fragments := []string{key, key[len(key)-8:], key[8:16], awsID, awsID[4:12], awsID[len(awsID)-8:]}
	for _, msg := range tb.errors {
		for _, f := range fragments {
			assert.NotContains(t, msg, f)
		}
		assert.Contains(t, msg, "[redacted:", "the message says what it removed: %s", msg)
	}
	data, err := os.ReadFile(results)
	require.NoError(t, err)
	for _, f := range fragments {
		assert.NotContains(t, string(data), f, "the results file")
	}
	assert.Contains(t, string(data), `"kind":"transcript"`)
	assert.Contains(t, string(data), "[redacted:openai-key]")
	assert.Contains(t, string(data), "[redacted:aws-access-key-id]")
}
