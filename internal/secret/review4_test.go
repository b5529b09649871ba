package secret_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

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
