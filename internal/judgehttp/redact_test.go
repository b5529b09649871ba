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

// TestJudgehttpErrorsNeverHoldTheKey: however a server echoes the key in
// an error, no part of it reaches the error, its Message or its Param: cut
// by the 64 KiB cap on what is read of an error body, wherever the cut
// falls in it; percent-encoded in any part, as a server echoes a request's
// header or URL; named as the provider's "param".
func TestJudgehttpErrorsNeverHoldTheKey(t *testing.T) {
	const cap = 64 << 10
	encoded := strings.ReplaceAll(leakKey, "-", "%2D")
	bodies := map[string]string{
		"percent-encoded":         "denied for Bearer%20" + encoded,
		"percent-encoded, lower":  "denied for Bearer%20" + strings.ReplaceAll(leakKey, "-", "%2d"),
		"all percent-encoded":     "key=" + allEncoded(leakKey) + " denied",
		"percent-encoded in JSON": `{"error": {"message": "denied for Bearer%20` + encoded + `"}}`,
		"as the param":            `{"error": {"message": "bad", "param": "` + leakKey + `"}}`,
		"as the param, encoded":   `{"error": {"message": "bad", "param": "` + encoded + `"}}`,
	}
	for cut := 1; cut < len(leakKey); cut += 3 {
		// White space collapses when the message is bounded, so what is
		// left at the cap is quoted.
		bodies[fmt.Sprintf("cut by the cap after %d bytes", cut)] = strings.Repeat(" ", cap-cut) + leakKey + " more"
		bodies[fmt.Sprintf("cut by the cap after %d bytes, in JSON", cut)] = `{"error": {"message": "` + strings.Repeat(" ", cap-cut-25) + leakKey + `"}}`
	}
	for name, body := range bodies {
		t.Run(name, func(t *testing.T) {
			c, _ := newClient(t, status(403, body))
			c.Secrets = []string{leakKey}
			_, err := c.Post(context.Background(), "http://judge.test", nil, nil)
			require.Error(t, err)
			var e *judgehttp.Error
			require.ErrorAs(t, err, &e)
			for _, s := range []string{err.Error(), e.Message(), e.Param()} {
				assertNoLeak(t, s)
				assertNoLeak(t, strings.ReplaceAll(s, "%2D", "-"))
			}
		})
	}
	// A body cut at the cap says so, and keeps what precedes the cut run.
	c, _ := newClient(t, status(403, strings.Repeat("x ", cap)))
	_, err := c.Post(context.Background(), "http://judge.test", nil, nil)
	var e *judgehttp.Error
	require.ErrorAs(t, err, &e)
	assert.True(t, strings.HasSuffix(e.Message(), "…"), e.Message())
}

// allEncoded percent-encodes every byte of s.
func allEncoded(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		fmt.Fprintf(&b, "%%%02X", s[i])
	}
	return b.String()
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
	assert.ElementsMatch(t, []string{"sk-api-key-1", "url-password-1", "query-key-12", "helicone-tok-1"}, got)
}

// TestJudgehttpRedactShortValues: values shorter than MinSecret are a local
// server's placeholder keys, and are left alone.
func TestJudgehttpRedactShortValues(t *testing.T) {
	assert.Equal(t, "the reply explains EMPTY", judgehttp.Redact("the reply explains EMPTY", []string{"x", "EMPTY", "ollama", ""}))
	assert.Equal(t, "key [redacted:secret].", judgehttp.Redact("key 12345678.", []string{"12345678"}))
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
	assert.Equal(t, `openaijudge: [redacted:openai-key]: evalkit: unreadable judge verdict: the answer ends "key [redacted:openai-key]" (testjudge: 1 attempt: HTTP 400 Bad Request: bad)`, red.Error())
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
		Model:     "[redacted:openai-key]",
		Raw:       `{"reasoning": "echo [redacted:openai-key]", "score": 8}`,
		Reasoning: "echo [redacted:openai-key]",
		Criteria:  []evalkit.CriterionScore{{Name: "tone", Reasoning: "[redacted:openai-key]"}},
		Fields:    map[string]any{"reasoning": "echo [redacted:openai-key]", "score": 8.0, "notes": []any{"[redacted:openai-key]", true}},
	}, v)

	// A key the judge wrote JSON-escaped is plain once decoded: in the
	// label and in the keys of Fields too.
	escaped := ""
	for _, r := range leakKey {
		escaped += fmt.Sprintf(`\u%04x`, r)
	}
	parsed, err := evalkit.ParseVerdict(`{"score": 8, "label": "`+escaped+`", "`+escaped+`": 1, "reasoning": "`+escaped+`"}`, evalkit.Scale{Min: 1, Max: 10})
	require.NoError(t, err)
	require.Equal(t, leakKey, parsed.Label, "decoding made it plain")
	judgehttp.RedactVerdict(&parsed, []string{leakKey})
	assert.Equal(t, "[redacted:openai-key]", parsed.Label)
	assert.Equal(t, "[redacted:openai-key]", parsed.Reasoning)
	assert.NotContains(t, parsed.Raw, escaped[:36], "the raw answer keeps no escaped key")
	assert.Contains(t, parsed.Fields, "[redacted:openai-key]")
	for k, val := range parsed.Fields {
		assertNoLeak(t, k)
		assertNoLeak(t, fmt.Sprint(val))
	}
}
