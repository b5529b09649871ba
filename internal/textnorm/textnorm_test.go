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

func TestEditDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{{"", "", 0}, {"", "abc", 3}, {"kitten", "sitting", 3}, {"patterns", "pattern", 1}, {"flaw", "lawn", 2}, {"é", "e", 2}} {
		if got := EditDistance(c.a, c.b); got != c.want {
			t.Errorf("EditDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := EditDistance(c.b, c.a); got != c.want {
			t.Errorf("EditDistance(%q, %q) = %d, want %d (symmetric)", c.b, c.a, got, c.want)
		}
	}
}
