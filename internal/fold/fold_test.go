package fold

import (
	"math/rand/v2"
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

// Fold's word-at-a-time ASCII path is strings.ToLower: every byte value
// at every position of strings 0 to 40 bytes long (so in a whole word, in
// the tail, and at each edge of 'A'..'Z'), on lower-case, upper-case and
// mixed text around it, and random ASCII and non-ASCII strings.
func TestFoldASCIIIsToLower(t *testing.T) {
	check := func(s string) {
		t.Helper()
		got, ok := lowerASCII(s)
		if ascii := isASCII(s); ok != ascii || ok && got != strings.ToLower(s) {
			t.Fatalf("lowerASCII(%q) = %q, %v; want %q, %v", s, got, ok, strings.ToLower(s), ascii)
		}
		if ok && got != s && !strings.ContainsFunc(s, func(r rune) bool { return 'A' <= r && r <= 'Z' }) {
			t.Fatalf("lowerASCII(%q) copied text without an upper-case letter", s)
		}
		if want := CaseFold(Canonical(s)); Fold(s) != want {
			t.Fatalf("Fold(%q) = %q, want %q", s, Fold(s), want)
		}
	}
	for _, base := range []string{"abcdefghijklmnopqrstuvwxyz0123456789_-", "THE QUICK BROWN FOX JUMPS OVER THE LAZY", "Mixed Case: Order #W123, User ID x_1"} {
		for n := 0; n <= 40 && n <= len(base); n++ {
			for pos := 0; pos < n; pos++ {
				for c := 0; c < 256; c++ {
					b := []byte(base[:n])
					b[pos] = byte(c)
					check(string(b))
				}
			}
			check(base[:n])
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []rune("aZ@[`{\x00\x7fAzé\u0130ß ")
	for range 20000 {
		r := make([]rune, rng.IntN(50))
		for i := range r {
			r[i] = alphabet[rng.IntN(len(alphabet))]
			if rng.IntN(4) > 0 {
				r[i] = rune(rng.IntN(128))
			}
		}
		check(string(r))
	}
}

// BenchmarkFoldASCII folds an answer as the text checks do, against
// strings.ToLower (what Fold called before).
func BenchmarkFoldASCII(b *testing.B) {
	s := strings.Repeat(`{"summary": "The user Yusuf Rossi (yusuf_rossi_9620) asked to CANCEL order #W2378156; refund of $54.04 issued.", "tools": ["get_order_details"]} `, 12)
	b.Run("baseline=strings.ToLower", func(b *testing.B) {
		b.SetBytes(int64(len(s)))
		for b.Loop() {
			_ = strings.ToLower(s)
		}
	})
	b.Run("Fold", func(b *testing.B) {
		b.SetBytes(int64(len(s)))
		for b.Loop() {
			_ = Fold(s)
		}
	})
}
