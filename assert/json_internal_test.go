package assert

import "testing"

func TestQuoteHyphenated(t *testing.T) {
	tests := []struct {
		expr, want string
		found      bool
	}{
		{"tags.created-by", `tags."created-by"`, true},
		{"a.x-request-id.b", `a."x-request-id".b`, true},
		{"created-by", `"created-by"`, true},
		{"a-b-c.d || e-f", `"a-b-c".d || "e-f"`, true},
		{`tags."created-by"`, "", false},
		{"a - b", "", false},
		{"a-1", "", false},
		{"items[?name == 'a-b']", "", false},
		{"items[?name == `\"a-b\"`]", "", false},
		{`"it's \"x-y\""`, "", false},
		{"$x-y", "", false},
		{"length(a)-b", "", false},
	}
	for _, tt := range tests {
		got, found := quoteHyphenated(tt.expr)
		if found != tt.found || (found && got != tt.want) {
			t.Errorf("quoteHyphenated(%q) = %q, %v; want %q, %v", tt.expr, got, found, tt.want, tt.found)
		}
	}
}
