package fold

import (
	"strings"
	"testing"
)

func TestFold(t *testing.T) {
	for _, tc := range []struct{ a, b string }{
		{"Refund", "REFUND"},
		{"Straße", "STRASSE"},
		{"Déjà", "DÉJÀ"},
		{"e\u0301", "\u00e9"}, // decomposed and composed é fold alike (NFC)
		{"ΣΊΣΥΦΟΣ", "σίσυφος"},
	} {
		if Fold(tc.a) != Fold(tc.b) {
			t.Errorf("Fold(%q) = %q, Fold(%q) = %q; want equal", tc.a, Fold(tc.a), tc.b, Fold(tc.b))
		}
	}
	if Fold("refund") == Fold("refunds") {
		t.Error("different words fold alike")
	}
}

// A match in folded text maps back to the text as written: the bytes
// whose folding it is, whole letters with their marks.
func TestOriginal(t *testing.T) {
	for _, c := range []struct {
		s, needle string
		caseless  bool
		want      string
	}{
		{"İİ ERROR CODE 42", "error code", true, "ERROR CODE"},
		{"İİ ERROR CODE 42", "i̇i̇", true, "İİ"},
		{"Die STRASSE und die Straße", "straße", true, "STRASSE"},
		{"pass\u200bword: hunter2", "password", true, "pass\u200bword"},
		{"Cafe\u0301 ouvert", "café", true, "Cafe\u0301"},
		{"Ünïcödé text", "cöd", false, "cöd"},
		{"plain ascii", "ascii", true, "ascii"},
	} {
		f := Fold(c.s)
		if !c.caseless {
			f = Canonical(c.s)
		}
		n := Fold(c.needle)
		if !c.caseless {
			n = Canonical(c.needle)
		}
		at := strings.Index(f, n)
		if at < 0 {
			t.Fatalf("%q: %q not in %q", c.s, n, f)
		}
		i, j, ok := Original(c.s, c.caseless, at, at+len(n))
		if !ok || c.s[i:j] != c.want {
			t.Errorf("Original(%q, %q) = %q, %v; want %q", c.s, c.needle, c.s[i:j], ok, c.want)
		}
	}
	if _, _, ok := Original("İstanbul", true, 3, 99); ok {
		t.Error("a range past the folded text maps to nothing")
	}
}
