package secret_test

import (
	"encoding/json"
	"testing"

	"github.com/evalkit-go/evalkit/internal/secret"
	"github.com/evalkit-go/evalkit/internal/secret/secrettest"
)

// Whatever the text: Clean never panics, keeps JSON JSON, and a Stream
// fed the text in two pieces gives what Clean gives the whole.
func FuzzClean(f *testing.F) {
	for _, fake := range secrettest.All() {
		f.Add(fake.Text, uint16(len(fake.Text)/2))
		data, _ := json.Marshal(map[string]string{"content": fake.Text})
		f.Add(string(data), uint16(7))
	}
	f.Add(`got "sk-proj-Ab3d"… [30 more bytes]`, uint16(3))
	f.Add("…\\\"Zx9Lq2Wx5Tn7Vb4Kc1Hs9 here", uint16(1))
	f.Fuzz(func(t *testing.T, text string, cut uint16) {
		got := secret.Clean(text)
		if json.Valid([]byte(text)) && !json.Valid(secret.CleanBytes([]byte(text))) {
			t.Fatalf("CleanBytes(%q) is not JSON: %q", text, secret.CleanBytes([]byte(text)))
		}
		i := int(cut) % (len(text) + 1)
		var s secret.Stream
		s.WriteString(text[:i])
		end := s.Settle(false)
		part := s.Text(0, end)
		s.WriteString(text[i:])
		end2 := s.Settle(true)
		if whole := part + s.Text(end, end2); whole != got {
			t.Fatalf("cut at %d, the stream gives %q, Clean %q", i, whole, got)
		}
	})
}
