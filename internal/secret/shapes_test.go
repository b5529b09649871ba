package secret_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit/internal/secret"
	"github.com/evalkit-go/evalkit/internal/secret/secrettest"
)

// Every shape on the list is redacted, labelled by its kind, with
// nothing of the key left; and every shape has a fake in secrettest, so
// a shape added without one fails here.
func TestShapesEveryKind(t *testing.T) {
	fakes := secrettest.All()
	labels := map[string]bool{}
	for _, f := range fakes {
		labels[f.Label] = true
		got := secret.Clean(f.Text)
		assert.Contains(t, got, secret.Label(f.Label), "%s: %q", f.Label, got)
		for _, frag := range f.Fragments() {
			assert.NotContains(t, got, frag, "%s: %q", f.Label, got)
		}
		found := secret.Find(f.Text)
		require.NotEmpty(t, found, f.Label)
		assert.True(t, slices.ContainsFunc(found, func(x secret.Finding) bool { return x.Label == f.Label }), "%s: Find says %+v", f.Label, found)
		assert.Equal(t, got, secret.Clean(got), "%s: Clean is idempotent", f.Label)
	}
	for _, sh := range secret.Shapes() {
		assert.True(t, labels[sh[0]], "shape %s (%s) has no fake in secrettest", sh[0], sh[1])
	}
	t.Logf("shapes: %d entries, %d labels; fakes: %d", len(secret.Shapes()), len(labels), len(fakes))
}

// A fake in JSON (escaped as a JSON string holds it), percent-encoded in
// a URL, and all of them on one line: still redacted, and the JSON still
// JSON.
func TestShapesEncodedAndTogether(t *testing.T) {
	var all []string
	for _, f := range secrettest.All() {
		all = append(all, f.Text)
		doc, err := json.Marshal(map[string]string{"answer": f.Text})
		require.NoError(t, err)
		got := secret.CleanBytes(doc)
		assert.True(t, json.Valid(got), "%s: %s", f.Label, got)
		for _, frag := range f.Fragments() {
			assert.NotContains(t, string(got), frag, f.Label)
		}
	}
	line := strings.Join(all, " | ")
	got := secret.Clean(line)
	for _, f := range secrettest.All() {
		for _, frag := range f.Fragments() {
			assert.NotContains(t, got, frag, f.Label)
		}
	}
}

// A failure message cuts long text with "…": a key cut there is still
// redacted, however little of its body is left, and so is a known value's
// head.
func TestShapesCutByAnExcerpt(t *testing.T) {
	for in, want := range map[string]string{
		`got "my key sk-proj-Ab3d"… [300 more bytes]`:     `got "my key [redacted:openai-key]"… [300 more bytes]`,
		`the key ghp_Zx9y… [300 more bytes]`:              `the key [redacted:github-token]… [300 more bytes]`,
		`Authorization: Bearer abc12… [30 more bytes]`:    `Authorization: Bearer [redacted:bearer-token]… [30 more bytes]`,
		`{"password": "Tr0ub4d… [30 more bytes]`:          `{"password": "[redacted:credential]… [30 more bytes]`,
		`the description says sk-… and that is all`:       `the description says sk-… and that is all`,
		`looks like an OpenAI API key (sk-…): sk-p (4 of`: `looks like an OpenAI API key (sk-…): sk-p (4 of`,
	} {
		assert.Equal(t, want, secret.Clean(in), in)
	}
	secret.Learn("secret:cut-test", "Qw8rTy6uIo4pAs2dFg0h")
	assert.Equal(t, "x [redacted:secret:cut-test]… [9 more bytes]", secret.Clean("x Qw8rTy6u… [9 more bytes]"))
}

// Prose, code and data that name credentials or look random without
// being keys are left alone: words, identifiers, hashes, UUIDs, numbers.
func TestShapesLeaveProseAlone(t *testing.T) {
	for _, s := range []string{
		"Each token of the API key is counted; the secret to a good password is length.",
		"The bearer of this letter, a basic user, asked for a token of thanks.",
		"commit 9fceb02d0ae598e95dc970b74767f19372d61af8 and sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
		"order 550e8400-e29b-41d4-a716-446655440000 shipped to 90210",
		"max_tokens=4096&temperature=0.7&top_k=40&page_token=next",
		"The task-force skipped SKU 1234 and asked: key=value, secret=shh.",
		"def get_api_key(): return os.environ['OPENAI_API_KEY']",
		"https://example.com/a/b?query=refund&sort=date",
		"2024-05-15T15:00:00Z 12345678:90 ratio 1.2.3.4",
	} {
		assert.Equal(t, s, secret.Clean(s), s)
	}
}

// ſ and the Kelvin sign are read as (?i) reads them.
func TestShapesFoldedWords(t *testing.T) {
	for _, s := range []string{"Authorization: baſic dXNlcjpwYXNzMTIzNDU2", "xsſecret: abc123def456ghi", "api_\u212aey=abc123def456ghi"} {
		assert.Contains(t, secret.Clean(s), "[redacted:", s)
	}
}

// KeyText, what recordings key by, replaces shapes by "[redacted]"
// whatever the environment holds; Unlabel makes labels that.
func TestKeyTextAndUnlabel(t *testing.T) {
	t.Setenv("EVALKIT_TEST_API_KEY", "Qp4Lm8Rt2Vx6Zb0Nc3Hj")
	assert.Equal(t, "key [redacted] value Qp4Lm8Rt2Vx6Zb0Nc3Hj", secret.KeyText("key sk-proj-Ab3dEf6hIj9kLm2nOp5q value Qp4Lm8Rt2Vx6Zb0Nc3Hj"))
	assert.Equal(t, "a [redacted] b [redacted] c [redacted", secret.Unlabel("a [redacted:openai-key] b [redacted:env:X_KEY] c [redacted"))
	assert.Equal(t, "plain", secret.Unlabel("plain"))
}
