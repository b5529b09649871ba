package secret_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit/internal/secret"
)

// Regression tests of the fourth hostile review of issue 15.

// Variables named as credentials in ways the rule missed: a number, a
// stage or a role after the credential's word, a word that ends in
// PASSWORD (PostgreSQL's PGPASSWORD), a passphrase, a cookie. Their
// values were written plain everywhere.
func TestReview4EnvNames(t *testing.T) {
	for _, name := range []string{"OPENAI_API_KEY_2", "OPENAI_API_KEY_V2", "GITHUB_TOKEN_RO", "DB_PASSWORD_PROD", "STRIPE_KEY_LIVE",
		"PGPASSWORD", "MYSQLPASSWORD", "GPG_PASSPHRASE", "SESSION_COOKIE", "ANTHROPIC_AUTH_TOKEN", "HF_TOKEN", "AZURE_OPENAI_API_KEY",
		"db_password", "openai_key", "SLACK_BOT_TOKEN_BACKUP", "SMTP_PASS_2"} {
		assert.True(t, secret.EnvName(name), name)
	}
	for _, name := range []string{"API_KEY_FILE", "TOKEN_URL", "KEY_ID", "KEY_NAME", "TOKEN_COUNT", "MAX_TOKENS", "PWD", "PWD_2", "OLDPWD",
		"GIT_ASKPASS", "SSH_AUTH_SOCK", "COOKIE_DOMAIN", "AUTH_2", "TOKENIZERS_PARALLELISM", "KEYBOARD"} {
		assert.False(t, secret.EnvName(name), name)
	}
	const v = "Qw3Er5Ty7Ui9Op1As2Df"
	t.Setenv("PGPASSWORD", v)
	assert.Equal(t, "psql with [redacted:env:PGPASSWORD]", secret.Clean("psql with "+v))
}

// A value the process knows, written in another case: an answer that
// shouts a key, or a hex key upper-cased, which is the key.
func TestReview4KnownValuesInAnyCase(t *testing.T) {
	const azure = "0f3a9c2b7d1e4f5a8b6c0d9e2f1a3b4c"
	t.Setenv("AZURE_OPENAI_API_KEY", azure)
	for _, s := range []string{azure, strings.ToUpper(azure)} {
		assert.Equal(t, "key [redacted:env:AZURE_OPENAI_API_KEY].", secret.Clean("key "+s+"."))
	}
	const mixed = "Vb7Nm2Kq9Wx4Rt6Yz1Pl"
	secret.Learn("secret:crm", mixed)
	for _, s := range []string{strings.ToUpper(mixed), strings.ToLower(mixed)} {
		assert.Equal(t, "[redacted:secret:crm]", secret.Clean(s))
	}
	assert.Equal(t, "[redacted:secret]", secret.Redact(strings.ToUpper("Zx8Cv6Bn4Mm2Ll0Kk9Jj"), []string{"Zx8Cv6Bn4Mm2Ll0Kk9Jj"}), "a judge's own secrets")
}

// Credentials in contexts the shapes missed, each written plain: a Basic
// credential whose base64 holds no digit (user:secret), a Telegram token
// in its bot URL, a URL password with no user name (redis://:pw@) or
// shorter than 8 bytes, a Go MySQL DSN, JSON escaped into HTML, Go's
// printing of an http.Header, a form-encoded body (+ for a space), JSON
// escaped twice, a key glued to an identifier by "_", a password of
// letters and symbols.
func TestReview4ShapesInContext(t *testing.T) {
	for in, want := range map[string]string{
		"Authorization: Basic dXNlcjpzZWNyZXQ=":                                                                                             "Authorization: Basic [redacted:basic-auth]",
		"GET https://api.telegram.org/bot1234567890:AAHk3j2Lm9Xq8Rt7Yu6Io5Pa4Sd3Fg2Hj1K/getMe":                                              "GET https://api.telegram.org/bot[redacted:telegram-bot-token]/getMe",
		"REDIS_URL=redis://:Pw7xK2mQ9vL4nR8t@cache:6379/0":                                                                                  "REDIS_URL=redis://:[redacted:url-password]@cache:6379/0",
		"postgres://app:hunter2@db:5432/app":                                                                                                "postgres://app:[redacted:url-password]@db:5432/app",
		"dsn root:Pw7xK2mQ9vL4nR8t@tcp(127.0.0.1:3306)/app?parseTime=true":                                                                  "dsn root:[redacted:url-password]@tcp(127.0.0.1:3306)/app?parseTime=true",
		`{&#34;db_password&#34;: &#34;b0KhzYG2OCwchQw6fuNqE7vYkNrp&#34;}`:                                                                   `{&#34;db_password&#34;: &#34;[redacted:credential]&#34;}`,
		`{&quot;api_key&quot;: &quot;b0KhzYG2OCwchQw6fuNqE7vYkNrp&quot;}`:                                                                   `{&quot;api_key&quot;: &quot;[redacted:credential]&quot;}`,
		"map[Api-Key:[b0KhzYG2OCwchQw6fuNqE7vYkNrp] Content-Type:[application/json]]":                                                       "map[Api-Key:[[redacted:credential]] Content-Type:[application/json]]",
		"body=key%3A%0A-----BEGIN+PRIVATE+KEY-----%0AMIIEvQIBADANBgkqhkiG9w0BAQEFAASC%2BKcwggSjAgEAAoIBAQC7%0A-----END+PRIVATE+KEY-----%0A": "body=key%3A%0A[redacted:private-key]%0A",
		`"{\"k\":\"sk\\u002dproj\\u002dQ5TbRRlNdXLkK4U30ox0ecLUfztZugQzMRO5ShNn1gG\"}"`:                                                     `"{\"k\":\"[redacted:openai-key]\"}"`,
		"u=https%3A%2F%2Fx.io%2F%3Fk%3Dsk%252Dproj%252DQ5TbRRlNdXLkK4U30ox0ecLUfztZugQzMRO5ShNn1gG":                                         "u=https%3A%2F%2Fx.io%2F%3Fk%3D[redacted:openai-key]",
		"lookup_sk-proj-Q5TbRRlNdXLkK4U30ox0ecLUfztZugQzMRO5ShNn1gG":                                                                        "lookup_[redacted:openai-key]",
		"host=db user=app password=P@ssword!Strong dbname=x":                                                                                "host=db user=app password=[redacted:credential] dbname=x",
		`{"password": "correcthorsebatterystaple"}`:                                                                                         `{"password": "[redacted:credential]"}`,
	} {
		assert.Equal(t, want, secret.Clean(in), in)
	}
	// Known values escaped as html/template escapes them: a base64 key
	// holds "+", written "&#43;".
	const aws = "wJalrXUtnFEMI+K7MDENG+bPxRfiCYEXAMPLEKE1"
	t.Setenv("AWS_SECRET_ACCESS_KEY", aws)
	assert.Equal(t, "<td>[redacted:env:AWS_SECRET_ACCESS_KEY]</td>", secret.Clean("<td>"+strings.ReplaceAll(aws, "+", "&#43;")+"</td>"))
	// Still left alone.
	for _, s := range []string{
		"Basic training is a must; see https://x.io/:8080@", "the bot12345678: is down", "ssh://git@github.com:org/repo",
		"password: required", `"password": "********"`, "rock&roll &amp; more &#43; &lt;b&gt;", "a+b=c with %2B and %252B",
		"task_sk-12 and mask-1234567890", "Bearer instruments and Basic ideas",
		// Placeholders in answers of the real corpus (Arena-Hard).
		`password             = "example-password"`, `username = 'your_username'\npassword = 'your_password'`,
	} {
		assert.Equal(t, s, secret.Clean(s), s)
	}
}

// A private key a model streams inside a Markdown quote ("> " before
// each line): Clean of the whole finds it BEGIN to END, but a Stream
// that had not yet seen the END took the key to stop at the first "> "
// and settled the lines after it plain. FuzzClean found the same with a
// stray byte in a line of the key.
func TestReview4StreamedQuotedPrivateKey(t *testing.T) {
	var pem strings.Builder
	pem.WriteString("> -----BEGIN PRIVATE KEY-----\n")
	body := "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7Vb3Xk9Lm2Pq8Rt"
	for i := range 20 {
		pem.WriteString("> " + body[i%7:] + body[:i%7] + "\n")
	}
	pem.WriteString("> -----END PRIVATE KEY-----\n")
	text := "Here it is:\n" + pem.String() + "Keep it safe."
	whole := secret.Clean(text)
	assert.Equal(t, "Here it is:\n> [redacted:private-key]\nKeep it safe.", whole)
	for cut := 0; cut < len(text); cut += 37 {
		var s secret.Stream
		s.WriteString(text[:cut])
		end := s.Settle(false)
		got := s.Text(0, end)
		s.WriteString(text[cut:])
		got += s.Text(end, s.Settle(true))
		require.Equal(t, whole, got, "cut at %d", cut)
	}
}
