package judgehttp_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/internal/judgehttp"
)

// leakKey is recognizable in any part: no six bytes of it occur in the
// messages under test by chance.
const leakKey = "sk-LEAKCHECK-q7Zp9Wv3Xy5Tb2Nm"

// assertNoLeak fails if s holds any six consecutive bytes of leakKey.
func assertNoLeak(t *testing.T, s string, msgAndArgs ...any) {
	t.Helper()
	for i := 0; i+6 <= len(leakKey); i++ {
		if strings.Contains(s, leakKey[i:i+6]) {
			assert.Fail(t, fmt.Sprintf("%q holds %q, part of the key", s, leakKey[i:i+6]), msgAndArgs...)
			return
		}
	}
}

// TestJudgehttpRedactsBeforeBounding: a key that straddles the message's
// bound is redacted whole, not cut and left in part.
func TestJudgehttpRedactsBeforeBounding(t *testing.T) {
	pad := strings.Repeat("x", judgehttp.MaxMessage-10)
	for _, body := range []string{
		`{"error": {"message": "` + pad + ` ` + leakKey + `"}}`,
		pad + " " + leakKey,
		`{"detail": "` + pad + `\n` + leakKey + `"}`,
		`{"error": "key: ` + strings.ReplaceAll(leakKey, "-", `\u002d`) + `"}`,
	} {
		c, _ := newClient(t, status(401, body))
		c.Secrets = []string{leakKey}
		_, err := c.Post(context.Background(), "http://judge.test", nil, nil)
		require.Error(t, err)
		assertNoLeak(t, err.Error(), body)
		var e *judgehttp.Error
		require.ErrorAs(t, err, &e)
		assertNoLeak(t, e.Message(), body)
		assert.LessOrEqual(t, len(e.Message()), judgehttp.MaxMessage+len("…"))
	}
}

// TestJudgehttpTransportErrorURL: a transport error names the URL without
// its password or any query value.
func TestJudgehttpTransportErrorURL(t *testing.T) {
	c, _ := newClient(t, reply{err: &net.DNSError{Err: "no such host", Name: "judge.test", IsNotFound: true}})
	_, err := c.Post(context.Background(), "http://user:"+leakKey+"@judge.test/v1/chat/completions?api-version=2024-10-21&api-key="+leakKey, nil, nil)
	assert.EqualError(t, err, `testjudge: 1 attempt: Post "http://[redacted]@judge.test/v1/chat/completions?api-version=[redacted]&api-key=[redacted]": lookup judge.test: no such host`)
	var ue *url.Error
	require.ErrorAs(t, err, &ue)
	assertNoLeak(t, ue.URL, "the unwrapped *url.Error")

	c, _ = newClient(t)
	_, err = c.Post(context.Background(), "http://judge.test/\x7f?key="+leakKey, nil, nil)
	assert.EqualError(t, err, `testjudge: 1 attempt: the URL does not parse (it is not shown, as it may hold a credential): net/url: invalid control character in URL`)
}

func TestJudgehttpRedactURL(t *testing.T) {
	tests := []struct{ in, want string }{
		{"https://api.openai.com/v1/chat/completions", "https://api.openai.com/v1/chat/completions"},
		{"https://u:pw@h.test/v1", "https://[redacted]@h.test/v1"},
		{"https://token@h.test/v1", "https://[redacted]@h.test/v1"},
		{"https://h.test/v1?api-version=2024-10-21&api-key=k", "https://h.test/v1?api-version=[redacted]&api-key=[redacted]"},
		{"https://h.test/v1?sk-bare-token", "https://h.test/v1?[redacted]"},
		{"https://h.test/v1?sk-name-only=&a=1", "https://h.test/v1?[redacted]&a=[redacted]"},
		{"https://h.test/v1?", "https://h.test/v1"},
		{"https://h.test/v1#frag-secret", "https://h.test/v1"},
		{"http://h\x7f/", "(a URL that does not parse)"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, judgehttp.RedactURL(tt.in), tt.in)
	}
}

func TestJudgehttpSecrets(t *testing.T) {
	base, err := url.Parse("https://user:url-password-1@h.test/v1?api-version=2024-10-21&api-key=query-key-12")
	require.NoError(t, err)
	header := http.Header{"Helicone-Auth": {"Bearer helicone-tok-1"}, "Anthropic-Beta": {"tools-2024-04-04"}}
	got := judgehttp.Secrets("sk-api-key-1", base, header)
	assert.ElementsMatch(t, []string{"sk-api-key-1", "url-password-1", "query-key-12", "Bearer helicone-tok-1", "helicone-tok-1"}, got)
}

// TestJudgehttpRedactShortValues: values shorter than MinSecret are a local
// server's placeholder keys, and are left alone.
func TestJudgehttpRedactShortValues(t *testing.T) {
	assert.Equal(t, "the reply explains EMPTY", judgehttp.Redact("the reply explains EMPTY", []string{"x", "EMPTY", "ollama", ""}))
	assert.Equal(t, "key [redacted].", judgehttp.Redact("key 12345678.", []string{"12345678"}))
}

func TestJudgehttpRedactError(t *testing.T) {
	plain := fmt.Errorf("openaijudge: %w: no verdict", evalkit.ErrUnreadableVerdict)
	assert.Same(t, plain, judgehttp.RedactError(plain, []string{leakKey}), "nothing to redact: the same error")
	assert.NoError(t, judgehttp.RedactError(nil, []string{leakKey}))

	httpErr := func() error {
		c, _ := newClient(t, status(400, "bad"))
		_, err := c.Post(context.Background(), "http://judge.test", nil, nil)
		return err
	}()
	err := fmt.Errorf("openaijudge: %s: %w: the answer ends %q (%w)", leakKey, evalkit.ErrUnreadableVerdict, "key "+leakKey, httpErr)
	red := judgehttp.RedactError(err, []string{leakKey})
	assert.Equal(t, `openaijudge: [redacted]: evalkit: unreadable judge verdict: the answer ends "key [redacted]" (testjudge: 1 attempt: HTTP 400 Bad Request: bad)`, red.Error())
	assert.ErrorIs(t, red, evalkit.ErrUnreadableVerdict)
	var e *judgehttp.Error
	require.ErrorAs(t, red, &e)
	assert.Equal(t, 400, e.Status())
	assert.Nil(t, errors.Unwrap(red), "the unredacted text is not one Unwrap away")
}

func TestJudgehttpRedactVerdict(t *testing.T) {
	v := evalkit.Verdict{
		Score: 0.8, RawScore: 8, Scored: true, Label: "pass",
		Model:     leakKey,
		Raw:       `{"reasoning": "echo ` + leakKey + `", "score": 8}`,
		Reasoning: "echo " + leakKey,
		Criteria:  []evalkit.CriterionScore{{Name: "tone", Reasoning: leakKey}},
		Fields:    map[string]any{"reasoning": "echo " + leakKey, "score": 8.0, "notes": []any{leakKey, true}},
	}
	judgehttp.RedactVerdict(&v, []string{leakKey})
	assert.Equal(t, evalkit.Verdict{
		Score: 0.8, RawScore: 8, Scored: true, Label: "pass",
		Model:     "[redacted]",
		Raw:       `{"reasoning": "echo [redacted]", "score": 8}`,
		Reasoning: "echo [redacted]",
		Criteria:  []evalkit.CriterionScore{{Name: "tone", Reasoning: "[redacted]"}},
		Fields:    map[string]any{"reasoning": "echo [redacted]", "score": 8.0, "notes": []any{"[redacted]", true}},
	}, v)
}
