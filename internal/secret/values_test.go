package secret_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/evalkit-go/evalkit/internal/secret"
)

// Environment variables named as credentials are redacted by name, read
// again when the environment changes; settings, paths, short values and
// words are not.
func TestValuesFromEnvironment(t *testing.T) {
	for _, name := range []string{"OPENAI_API_KEY", "ANTHROPIC_API_KEY", "AZURE_OPENAI_KEY", "GITHUB_TOKEN", "DB_PASSWORD", "CLIENT_SECRET",
		"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "SMTP_PASS", "DB_PWD", "GITLAB_PAT", "HF_TOKEN", "COHERE_API_KEY",
		"google_credentials", "CLIENT_SECRET_VALUE", "MY_APIKEY"} {
		assert.True(t, secret.EnvName(name), name)
	}
	for _, name := range []string{"PATH", "HOME", "PWD", "OLDPWD", "AWS_REGION", "AWS_PROFILE", "AWS_DEFAULT_REGION", "TOKENIZERS_PARALLELISM",
		"GOFLAGS", "EVALKIT_MODE", "SSH_AUTH_SOCK", "GIT_ASKPASS", "KEYBOARD", "MAX_TOKENS", "TOKEN_COUNT", "API_KEY_FILE"} {
		assert.False(t, secret.EnvName(name), name)
	}

	t.Setenv("EVALKIT_CANARY_API_KEY", "Vb7Nm2Kq9Wx4Rt6Yz1Pl")
	assert.Equal(t, "key [redacted:env:EVALKIT_CANARY_API_KEY] used", secret.Clean("key Vb7Nm2Kq9Wx4Rt6Yz1Pl used"))
	t.Setenv("EVALKIT_CANARY_API_KEY", "Hg5Fd3Sa1Lk8Jh6Gf4Dq")
	assert.Equal(t, "now [redacted:env:EVALKIT_CANARY_API_KEY]", secret.Clean("now Hg5Fd3Sa1Lk8Jh6Gf4Dq"), "read again")

	t.Setenv("FEATURE_TOKEN", "true")             // a boolean
	t.Setenv("SHORT_SECRET", "x1y2z3")            // shorter than MinSecret
	t.Setenv("DB_PASSWORD", "password")           // a word: one kind of character, short
	t.Setenv("RETRY_TOKEN", "1234567890")         // digits
	file := filepath.Join(t.TempDir(), "sa.json") // a path to the key, not the key
	os.WriteFile(file, []byte("{}"), 0o600)
	t.Setenv("GOOGLE_CREDENTIALS", file)
	for _, s := range []string{"it is true", "x1y2z3", "the password field", "call 1234567890", "read " + file} {
		assert.Equal(t, s, secret.Clean(s), s)
	}
}

// Learned values are labelled as learned; a value seen on the wire that
// does not look like a credential is not kept.
func TestValuesLearned(t *testing.T) {
	secret.Learn("secret:crm", "crm-Tk4Lp9Qz2Wm7")
	assert.Equal(t, "[redacted:secret:crm] and more", secret.Clean("crm-Tk4Lp9Qz2Wm7 and more"))
	secret.Learn("secret:other", "crm-Tk4Lp9Qz2Wm7")
	assert.Equal(t, "[redacted:secret:crm]", secret.Clean("crm-Tk4Lp9Qz2Wm7"), "the first label stays")
	secret.LearnSeen("header:cookie", "darkmode")
	secret.LearnSeen("header:x-api-key", "0123456789abcdef0123456789abcdef")
	assert.Equal(t, "darkmode on", secret.Clean("darkmode on"))
	assert.Equal(t, "echo [redacted:header:x-api-key].", secret.Clean("echo 0123456789abcdef0123456789abcdef."))
}
