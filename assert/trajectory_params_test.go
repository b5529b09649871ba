package assert_test

// trajectoryParams are minimal valid parameters of the trajectory checks
// and their aliases, part of minimalParams (validate_test.go), so the
// walks over every registered type cover them too.
var trajectoryParams = map[string]map[string]any{
	"tool_call_chain":            {"steps": []any{map[string]any{"tool": "search"}, map[string]any{"tool": "book", "no_error": true}}},
	"tool_calls_with_args":       {"tool_name": "search", "args_match": map[string]any{"q": "(?i)refund"}},
	"tool_args_excluded":         {"tool_name": "issue_refund", "excluded_args": map[string]any{"order_id": "#W1"}},
	"tool_args_excluded_session": {"tool_name": "issue_refund", "excluded_args": map[string]any{"order_id": "#W1"}},
	"tools_not_called_with_args": {"tool_name": "issue_refund", "forbidden_args": map[string]any{"order_id": []any{"#W1"}}},
	"tool_anti_pattern":          {"patterns": []any{map[string]any{"sequence": []any{"book", "book"}}}},
	"tool_no_repeat":             {"tools": []any{"search"}},
	"tool_efficiency":            {"max_calls": 10},
	"invariant_fields_preserved": {"tool": "search", "fields": []any{"order_id"}},
	"tool_result_includes":       {"tool": "search", "patterns": []any{"ok"}},
	"tool_result_matches":        {"tool": "search", "pattern": "ok"},
	"tool_result_has_media":      {"tool": "screenshot", "media_type": "image"},
	"tool_result_media_type":     {"tool": "screenshot", "mime_type": "image/png"},
	"tool_exec":                  {"tool": "run_tests"},
	"tool_call_order":            {"stages": []any{[]any{"search", "lookup"}, "book"}},
	"tool_calls_valid":           {},
	"is_valid_openai_tools_call": {},
	"tool_calls_acceptable":      {"ground_truth": []any{map[string]any{"search": map[string]any{"q": []any{"refund", ""}}}}},
	"bfcl_ast":                   {"ground_truth": []any{map[string]any{"search": map[string]any{"q": []any{"refund"}}}}},
}
