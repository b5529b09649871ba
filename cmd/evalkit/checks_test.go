package main

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// CHECKS.md is what the registry says: regenerated here and compared, so
// a parameter added to a check without its words, or words changed
// without regenerating, fails.
func TestChecksMarkdown(t *testing.T) {
	code, out, errOut := runCLI("checks", "-md")
	require.Equal(t, 0, code, errOut)
	committed, err := os.ReadFile("../../CHECKS.md")
	require.NoError(t, err)
	if string(committed) != out {
		t.Errorf("CHECKS.md differs from what the registry says (first difference at line %d)\nhint: go run ./cmd/evalkit checks -md > CHECKS.md", firstDiff(string(committed), out))
	}
	for _, want := range []string{"## contains\n", "Aliases: `content_includes`.", "| `tool_names` (or `tools`) | list of strings | required |", "```yaml\nevals:\n  - type: tools_called\n"} {
		assert.Contains(t, out, want)
	}
}

func firstDiff(a, b string) int {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(la), len(lb)) {
		if la[i] != lb[i] {
			return i + 1
		}
	}
	return min(len(la), len(lb)) + 1
}

// evalkit checks TYPE documents a type named by an alias too, and an
// unknown type is an error with the nearest name.
func TestChecksCommand(t *testing.T) {
	code, out, errOut := runCLI("checks", "content_includes")
	require.Equal(t, 0, code, errOut)
	assert.True(t, strings.HasPrefix(out, "contains (aliases: content_includes)\n"), out)
	assert.Contains(t, out, "  patterns · list of strings · required\n")
	assert.Contains(t, out, "  case_sensitive · boolean · default: false · evalkit's own\n")
	assert.Contains(t, out, "example:\n  - type: contains\n")
	code, out, _ = runCLI("checks")
	require.Equal(t, 0, code)
	assert.Contains(t, out, "tool_args ")
	code, _, errOut = runCLI("checks", "tools_caled")
	assert.Equal(t, 1, code)
	assert.Contains(t, errOut, `did you mean "tools_called"?`)
}
