package fold

import "testing"

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
