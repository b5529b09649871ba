package evaltest_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/evaltest"
)

// RegisterSecret's doc: a value an environment variable named as a
// credential already redacts keeps that variable's label, whether it is
// registered after the variable is set or before.
func TestRegisterSecretKeepsTheEnvLabel(t *testing.T) {
	for _, c := range []struct{ name, value string }{
		{"after", "crm-Zx81Qp4Lm2Vb9Tk0"},
		{"before", "crm-Hy27Rw5Nc8Ds3Fj6"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.name == "after" {
				t.Setenv("CRM_TOKEN", c.value)
				evaltest.RegisterSecret("crm-token-"+c.name, c.value)
			} else {
				evaltest.RegisterSecret("crm-token-"+c.name, c.value)
				t.Setenv("CRM_TOKEN", c.value)
			}
			tb := runTB("TestSecret", func(tb testing.TB) {
				evaltest.New(tb).Expect(&evalkit.Transcript{Messages: []evalkit.Message{
					{Role: evalkit.RoleAssistant, Content: "your session is " + c.value},
				}}).Contains("refund")
			})
			msg := strings.Join(tb.errors, "\n")
			assert.Contains(t, msg, "[redacted:env:CRM_TOKEN]")
			assert.NotContains(t, msg, "[redacted:secret:")
			assert.NotContains(t, msg, c.value)
		})
	}
}
