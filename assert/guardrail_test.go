package assert_test

import (
	"errors"
	"testing"

	testify "github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit/assert"
)

// PromptKit's guardrail wrapper: it triggers below min_score (1 with no
// bound), and a check passes when it does not trigger.
func TestGuardrailWrapper(t *testing.T) {
	runCases(t, []evalCase{
		{name: "clean output does not trigger", tr: textChat("Your refund is on its way."), check: "guardrail",
			params: map[string]any{"eval_type": "content_excludes", "eval_params": map[string]any{"patterns": []any{"password"}}},
			want:   PASS, summary: "guardrail not triggered: score 1.00, want >= 1.00"},
		{name: "a banned word triggers it, with its action", tr: textChat("Your password is hunter2."), check: "guardrail",
			params: map[string]any{"eval_type": "content_excludes", "eval_params": map[string]any{"patterns": []any{"password"}}, "action": "warn"},
			want:   FAIL, summary: "guardrail triggered (warn): score 0.00, want >= 1.00",
			hasDetails: []assert.Detail{{Label: "action", Text: "warn"}}},
		{name: "max_score bounds a score from above", tr: textChat("Refund, refund, refund."), check: "guardrail",
			params: map[string]any{"eval_type": "contains", "eval_params": map[string]any{"patterns": []any{"refund", "order"}}, "max_score": 0.4},
			want:   FAIL, summary: "guardrail triggered (block): score 0.50, want <= 0.40"},
		{name: "a guardrail cannot wrap an assertion", tr: textChat("x"), check: "guardrail",
			params: map[string]any{"eval_type": "assertion"}, want: ERROR, param: "eval_type"},
		{name: "an unknown action param is the guardrail's", tr: textChat("x"), check: "guardrail",
			params: map[string]any{"eval_type": "contains", "eval_params": map[string]any{"patterns": []any{"x"}}, "actoin": "block"}, want: ERROR, param: "actoin"},
	})
}

// An opt-in type says which package holds it and how to add it.
func TestUnknownOptInType(t *testing.T) {
	for typ, pkg := range assert.OptInTypes() {
		err := assert.Validate(typ, map[string]any{"formats": []any{"png"}})
		require.True(t, errors.Is(err, assert.ErrUnknownCheck), "%s: %v", typ, err)
		testify.Contains(t, err.Error(), "github.com/evalkit-go/evalkit/"+pkg)
		testify.Contains(t, err.Error(), "media.NewRegistry()")
		testify.Contains(t, err.Error(), "evaltest.WithRegistry(reg)")
	}
	testify.Len(t, assert.OptInTypes(), len(promptKitMediaTypes))
	for _, typ := range promptKitMediaTypes {
		testify.Equal(t, "assert/media", assert.OptInTypes()[typ])
	}
}
