package textnorm

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestNewlines(t *testing.T) {
	if got := Newlines("a\r\nb\r\n"); got != "a\nb\n" {
		t.Errorf("Newlines = %q", got)
	}
	if got := Newlines("a\rb"); got != "a\rb" {
		t.Errorf("a lone CR is kept, got %q", got)
	}
}

func TestExcerptAndQuote(t *testing.T) {
	if got := Excerpt("short", 10); got != "short" {
		t.Errorf("Excerpt(short) = %q", got)
	}
	long := strings.Repeat("é", 100) // 200 bytes
	got := Excerpt(long, 11)
	if !utf8.ValidString(got) || !strings.HasSuffix(got, "… [190 more bytes]") || !strings.HasPrefix(got, "ééééé") {
		t.Errorf("Excerpt cut badly: %q", got)
	}
	if got := Quote("a\"b"+strings.Repeat("x", 50), 4); got != `"a\"bx"… [49 more bytes]` {
		t.Errorf("Quote = %q", got)
	}
}
