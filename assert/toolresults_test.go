package assert_test

import (
	"testing"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/assert"
)

// withParts gives the result of call n (from 1) media parts.
func withParts(tr *evalkit.Transcript, n int, parts ...evalkit.Part) *evalkit.Transcript {
	seen := 0
	for i, m := range tr.Messages {
		if m.Role == evalkit.RoleTool {
			if seen++; seen == n {
				tr.Messages[i].Parts = parts
			}
		}
	}
	return tr
}

func TestToolResultIncludes(t *testing.T) {
	tr := refundTrajectory()
	runCases(t, []evalCase{
		{name: "ignoring case", tr: tr, check: "tool_result_includes", params: map[string]any{"tool": "get_order_details", "patterns": []any{"DELIVERED", "total"}}, want: PASS,
			summary: `1 of 1 result of get_order_details include "DELIVERED" and "total"`},
		{name: "case-sensitive", tr: tr, check: "tool_result_includes", params: map[string]any{"tool": "get_order_details", "patterns": []any{"DELIVERED"}, "case_sensitive": true}, want: FAIL,
			summary: `0 of 1 result of get_order_details include "DELIVERED", want at least 1`,
			details: []assert.Detail{{Label: "result", Text: `call 1: missing "DELIVERED": "{\"total\": 42, \"status\": \"delivered\"}"`}}},
		{name: "occurrence", tr: tr, check: "tool_result_includes", params: map[string]any{"tool": "issue_refund", "patterns": []any{"refunded"}, "occurrence": 2}, want: FAIL, score: ptr(0.5),
			summary: `1 of 2 results of issue_refund include "refunded", want at least 2`},
		{name: "every tool", tr: tr, check: "tool_result_includes", params: map[string]any{"patterns": []any{"status"}, "occurrence": 2}, want: PASS},
		{name: "no result", tr: toolTranscript(toolStep{name: "a", noResult: true}), check: "tool_result_includes", params: map[string]any{"patterns": []any{"x"}}, want: FAIL,
			details: []assert.Detail{{Label: "result", Text: "call 1: no result"}}},
		{name: "never called", tr: tr, check: "tool_result_includes", params: map[string]any{"tool": "send_email", "patterns": []any{"x"}}, want: FAIL, summary: `"send_email" was not called`},
		{name: "no calls", tr: toolCalls(), check: "tool_result_includes", params: map[string]any{"patterns": []any{"x"}}, want: FAIL, summary: "no tool calls"},
		{name: "empty pattern", tr: tr, check: "tool_result_includes", params: map[string]any{"patterns": []any{""}}, want: ERROR, param: "patterns"},
		{name: "occurrence 0", tr: tr, check: "tool_result_includes", params: map[string]any{"patterns": []any{"x"}, "occurrence": 0}, want: ERROR, param: "occurrence"},
		{name: "tool with whitespace", tr: tr, check: "tool_result_includes", params: map[string]any{"tool": "a ", "patterns": []any{"x"}}, want: ERROR, param: "tool"},
	})
}

func TestToolResultMatches(t *testing.T) {
	tr := refundTrajectory()
	runCases(t, []evalCase{
		{name: "match", tr: tr, check: "tool_result_matches", params: map[string]any{"tool": "issue_refund", "pattern": `"status":"refunded"`}, want: PASS,
			summary: `1 of 2 results of issue_refund match "\"status\":\"refunded\""`},
		{name: "occurrence", tr: tr, check: "tool_result_matches", params: map[string]any{"pattern": `^\{`, "occurrence": 3}, want: FAIL, score: ptr(2.0 / 3),
			details: []assert.Detail{{Label: "result", Text: `call 2: no match: "Error: amount mismatch"`}}},
		{name: "matches anything", tr: tr, check: "tool_result_matches", params: map[string]any{"pattern": "x*"}, want: ERROR, param: "pattern"},
		{name: "invalid", tr: tr, check: "tool_result_matches", params: map[string]any{"pattern": "("}, want: ERROR, param: "pattern"},
		{name: "missing", tr: tr, check: "tool_result_matches", params: map[string]any{}, want: ERROR, param: "pattern"},
	})
}

func TestToolResultMedia(t *testing.T) {
	shots := func() *evalkit.Transcript {
		return withParts(toolCalls("browse", "screenshot"), 2,
			evalkit.Part{Type: "image", MIMEType: "image/PNG; x=1", Data: []byte{0x89, 'P', 'N', 'G'}},
			evalkit.Part{Type: "file", MIMEType: "application/pdf", Name: "r.pdf"})
	}
	runCases(t, []evalCase{
		{name: "image", tr: shots(), check: "tool_result_has_media", params: map[string]any{"tool": "screenshot", "media_type": "image"}, want: PASS,
			summary: "call 2 returned image media (image/PNG; x=1)"},
		{name: "document is a file part", tr: shots(), check: "tool_result_has_media", params: map[string]any{"media_type": "document"}, want: PASS},
		{name: "any media", tr: shots(), check: "tool_result_has_media", params: map[string]any{}, want: PASS},
		{name: "no audio", tr: shots(), check: "tool_result_has_media", params: map[string]any{"media_type": "audio"}, want: FAIL,
			summary: "none of 2 tool results holds audio media",
			details: []assert.Detail{{Label: "media", Text: "call 2: image (image/PNG; x=1)"}, {Label: "media", Text: "call 2: file (application/pdf)"}}},
		{name: "other tool has none", tr: shots(), check: "tool_result_has_media", params: map[string]any{"tool": "browse"}, want: FAIL,
			details: []assert.Detail{{Label: "media", Text: "none"}}},
		{name: "unknown kind", tr: shots(), check: "tool_result_has_media", params: map[string]any{"media_type": "hologram"}, want: ERROR, param: "media_type"},

		{name: "mime type without parameters, any case", tr: shots(), check: "tool_result_media_type", params: map[string]any{"tool": "screenshot", "mime_type": "image/png"}, want: PASS},
		{name: "wildcard", tr: shots(), check: "tool_result_media_type", params: map[string]any{"mime_type": "application/*"}, want: PASS},
		{name: "other type", tr: shots(), check: "tool_result_media_type", params: map[string]any{"mime_type": "image/jpeg"}, want: FAIL,
			summary: "none of 2 tool results holds image/jpeg media"},
		{name: "undeclared type matches nothing", check: "tool_result_media_type",
			tr:     withParts(toolCalls("shot"), 1, evalkit.Part{Type: "image", Data: []byte{1}}),
			params: map[string]any{"mime_type": "image/*"}, want: FAIL,
			details: []assert.Detail{{Label: "media", Text: "call 1: image (no MIME type)"}}},
		{name: "not a mime type", tr: shots(), check: "tool_result_media_type", params: map[string]any{"mime_type": "png"}, want: ERROR, param: "mime_type"},
		{name: "mime type missing", tr: shots(), check: "tool_result_media_type", params: map[string]any{}, want: ERROR, param: "mime_type"},
	})
}
