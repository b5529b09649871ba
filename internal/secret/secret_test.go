package secret_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/internal/secret"
)

func TestSecretName(t *testing.T) {
	for _, name := range []string{"Authorization", "Proxy-Authorization", "X-Api-Key", "api-key", "Ocp-Apim-Subscription-Key", "Helicone-Auth",
		"X-Amz-Security-Token", "X-Client-Secret", "X-Password", "Cookie", "X-Goog-Signature", "Idempotency-Key", "api_key", "key"} {
		assert.True(t, secret.Name(name), name)
	}
	for _, name := range []string{"Accept", "Content-Type", "Anthropic-Version", "Anthropic-Beta", "HTTP-Referer", "X-Title", "api-version", "User-Agent"} {
		assert.False(t, secret.Name(name), name)
	}
}

// Field flags credential fields and settings, and leaves the generation
// settings that change a verdict alone.
func TestSecretField(t *testing.T) {
	for _, name := range []string{"api_key", "apiKey", "x-api-key", "API-KEY", "openai_api_key", "authorization", "Proxy-Authorization",
		"access_token", "client_secret", "password", "db_password", "private_key", "aws_secret_access_key", "credentials", "token", "key", "cookie"} {
		assert.True(t, secret.Field(name), name)
	}
	for _, name := range []string{"max_tokens", "max_completion_tokens", "stop_token", "eos_token", "seed", "temperature", "top_k",
		"model", "keywords", "monkey", "tokens", "prompt_version", "aggregate"} {
		assert.False(t, secret.Field(name), name)
	}
}

// Param flags the query parameters that carry credentials, and none that
// tells requests apart.
func TestSecretParam(t *testing.T) {
	for _, name := range []string{"key", "api-key", "api_key", "apikey", "access_token", "token", "sig", "Signature", "X-Amz-Signature",
		"X-Amz-Security-Token", "X-Amz-Credential", "client_secret", "password", "auth", "subscription-key"} {
		assert.True(t, secret.Param(name), name)
	}
	for _, name := range []string{"max_tokens", "keyword", "keywords", "author", "sort_key", "page_token", "next_token", "api-version",
		"monkey", "tokens", "q", "model"} {
		assert.False(t, secret.Param(name), name)
	}
}

// Find sees the documented key formats and the generic shapes, and takes
// no prose for a key.
func TestSecretFind(t *testing.T) {
	for _, s := range []string{
		"key sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv",
		"sk-ant-api03-Zx9y8W7v6U5t4S3r2Q1p0",
		"AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q",
		"AKIAIOSFODNN7EXAMPLE",
		"ghp_" + strings.Repeat("a1", 18),
		"hf_" + strings.Repeat("Ab1", 11),
		"xoxb-1234567890-abcdef",
		"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
		"-----BEGIN RSA PRIVATE KEY-----",
		"Authorization: Bearer sk-test-AAAA1111",
		"Proxy-Authorization: Basic c3ZjOmh1bnRlcjItdGVzdA==",
		"https://svc:hunter2-test@judge.example.test/v1",
		"https://judge.example.test/v1?key=AIzaTEST3333&alt=json",
		`{"api_key": "body-secret-4444"}`,
		"X-Api-Key=ak-test-2222",
		"sk-test-AAAA1111",
	} {
		assert.NotEmpty(t, secret.Find(s), s)
		red := secret.Clean(s)
		assert.Contains(t, red, "[redacted:", s)
		assert.Empty(t, secret.Find(red), "redacted, %q has nothing left to find", red)
	}
	for _, s := range []string{
		"The assistant has a basic understanding of the task-management-system-design problem.",
		"Bearer instruments and token economics are discussed.",
		`api_key = os.environ["OPENAI_API_KEY"]`,
		`"max_tokens": 512, "temperature": 0`,
		"password = 'hunter2'",
		"desk-organisation-and-risk-assessment-framework",
		"https://example.com/search?q=refund+policy&page=2",
		`"key": "sha256:9e9fbb8d7cd8c5f8cfd2be1ddb665b740b3b6a0537a70d67a0e12f7f1282a985"`,
		"sorted(word_counts.items(), key=itemgetter(1), reverse=True)",
		"The monkey=banana123 and the turkey: stuffing42 are fine.",
		"Skip the task-1234567890abcdef entirely.",
	} {
		assert.Empty(t, secret.Find(s), s)
		assert.Equal(t, s, secret.Clean(s), s)
	}
}

func TestSecretClean(t *testing.T) {
	assert.Equal(t, "Authorization: Bearer [redacted:openai-key], key=[redacted:credential]&alt=json",
		secret.Clean("Authorization: Bearer sk-test-AAAA1111, key=AIzaTEST3333&alt=json"))
	assert.Equal(t, "no secret here", secret.Clean("no secret here"))
	f := secret.Find("Bearer sk-test-AAAA1111")
	assert.Equal(t, "sk-t (4 of 16 bytes)", f[0].Masked, "a finding never holds the secret")
	assert.Equal(t, "openai-key", f[0].Label)
}

func TestSecretRedactVerdict(t *testing.T) {
	const leak = "sk-LEAKCHECK-q7Zp9Wv3Xy5Tb2Nm"
	yes := true
	v := evalkit.Verdict{
		Score: 0.8, RawScore: 8, Scored: true, Label: "pass", Passed: &yes,
		Model: "m " + leak, Raw: "echo " + leak, Reasoning: "echo " + leak,
		Criteria: []evalkit.CriterionScore{{Name: "tone", Reasoning: leak}},
		Fields:   map[string]any{"reasoning": leak, "api_key": "plain-value-1", "n": []any{leak, 1.0}},
		Votes:    []evalkit.Vote{{Judge: "judge 1", Verdict: evalkit.Verdict{Raw: leak}, Err: "failed: " + leak}},
		Games:    []evalkit.Verdict{{Raw: "game 1 " + leak}, {Reasoning: "game 2 " + leak}},
	}
	orig := v.Criteria
	secret.RedactVerdict(&v, func(s string) string { return secret.Redact(s, []string{leak}) })
	const r = "[redacted:openai-key]"
	assert.Equal(t, evalkit.Verdict{
		Score: 0.8, RawScore: 8, Scored: true, Label: "pass", Passed: &yes,
		Model: "m " + r, Raw: "echo " + r, Reasoning: "echo " + r,
		Criteria: []evalkit.CriterionScore{{Name: "tone", Reasoning: r}},
		Fields:   map[string]any{"reasoning": r, "api_key": "[redacted:credential]", "n": []any{r, 1.0}},
		Votes:    []evalkit.Vote{{Judge: "judge 1", Verdict: evalkit.Verdict{Raw: r}, Err: "failed: " + r}},
		Games:    []evalkit.Verdict{{Raw: "game 1 " + r}, {Reasoning: "game 2 " + r}},
	}, v)
	assert.Equal(t, leak, orig[0].Reasoning, "the caller's slices are not written to")
}

// Redact finds a secret percent-encoded in any part, and replaces the
// encoded run; other percent signs stay as they are. The key here has no
// shape of its own, so only Redact's list finds it.
func TestSecretRedactPercentEncoded(t *testing.T) {
	const key = "Zq7-proj-SECRETKEY0123456789abcdefXYZ"
	const r = "[redacted:secret]"
	for in, want := range map[string]string{
		"denied for X%20Zq7%2Dproj%2DSECRETKEY0123456789abcdefXYZ":              "denied for X%20" + r,
		"k=Zq7%2dproj%2dSECRETKEY0123456789abcdefXYZ&x=1":                       "k=" + r + "&x=1",
		"%5Aq7-proj-SECRETKEY0123456789abcdefXYZ%":                              r + "%",
		"plain " + key + " and encoded Zq7%2Dproj-SECRETKEY0123456789abcdefXYZ": "plain " + r + " and encoded " + r,
		"100% sure, %zz, %2":                             "100% sure, %zz, %2",
		"Zq7%2Dproj%2DSECRETKEY0123456789abcdefXY (cut)": "Zq7%2Dproj%2DSECRETKEY0123456789abcdefXY (cut)",
	} {
		assert.Equal(t, want, secret.Redact(in, []string{key}), in)
	}
	assert.Equal(t, "a%2Db", secret.Redact("a%2Db", []string{"a-b"}), "shorter than MinSecret")

	// JSON escapes, as a judge's raw JSON answer holds an echoed key.
	for in, want := range map[string]string{
		`{"label": "\u005a\u0071\u0037-proj-SECRETKEY0123456789abcdefXYZ"}`: `{"label": "` + r + `"}`,
		`seen: Zq7-proj-SECRETKEY0123456789abcdef\u0058\u0059\u005A.`:       `seen: ` + r + `.`,
		`{"a": "\\", "b": "\u00e9", "c": "\"quoted\""}`:                     `{"a": "\\", "b": "\u00e9", "c": "\"quoted\""}`,
	} {
		assert.Equal(t, want, secret.Redact(in, []string{key}), in)
	}
	assert.Equal(t, `"`+r+`"`, secret.Redact(`"tok\/abc\/12345678"`, []string{"tok/abc/12345678"}), `JSON's \/`)
	// Shapes are found encoded too.
	assert.Equal(t, "denied for Bearer%20[redacted:openai-key]", secret.Clean("denied for Bearer%20sk%2Dproj%2DSECRETKEY0123456789abcdefXYZ"))
}

// RedactVerdict redacts the label and the keys of Fields, which a judge
// echoing a key (JSON-escaped, so decoded plain) may hold; keys that
// redaction makes equal keep their values apart.
func TestSecretRedactVerdictLabelAndKeys(t *testing.T) {
	const leak = "sk-LEAKCHECK-q7Zp9Wv3Xy5Tb2Nm"
	v := evalkit.Verdict{Label: leak, Fields: map[string]any{
		leak: 1.0, "x " + leak: map[string]any{leak: "y"}, "[redacted]": 2.0, "[redacted:openai-key]": 4.0, "kept": 3.0,
	}}
	secret.RedactVerdict(&v, func(s string) string { return secret.Redact(s, []string{leak}) })
	const r = "[redacted:openai-key]"
	assert.Equal(t, evalkit.Verdict{Label: r, Fields: map[string]any{
		r + " (2)": 1.0, "x " + r: map[string]any{r: "y"}, "[redacted]": 2.0, r: 4.0, "kept": 3.0,
	}}, v)
}

// Shapes found case-insensitively are found in any case, though a text
// is searched only for the shapes whose hints it holds; a text of a
// hundred thousand keys is redacted whole (a finding's overlap with the
// others is a binary search, not a scan).
func TestSecretFindAtScale(t *testing.T) {
	for _, s := range []string{"API_KEY=Body-Secret-4444", "AUTHORIZATION: BEARER ab12cd34ef56", "HTTPS://svc:hunter2-test@judge.example.test/v1",
		"GET /x?signature=abc123def456ghi789", "GET /x?x_signature=abc123def456ghi789",
		"Authorization: baſic dXNlcjpwYXNzMTIzNDU2", "xsſecret: abc123def456ghi"} {
		assert.Equal(t, 1, len(secret.Find(s)), s)
	}
	var b strings.Builder
	for i := range 100_000 {
		fmt.Fprintf(&b, "sk-test-%010d Bearer tok%010d\n", i, i)
	}
	found := secret.Find(b.String())
	assert.Len(t, found, 200_000)
	assert.NotContains(t, secret.Clean(b.String()), "sk-test-")
}
