// Package secrettest makes fake credentials of every shape package secret
// redacts, for tests: the security canary (evalkit's canary_test.go), the
// shape tests, the benchmarks. The keys are built at run time from a
// fixed seed, so no key-shaped literal sits in the source, and each run
// plants the same ones. Standard library only; never imported outside
// tests.
package secrettest

import (
	"encoding/base64"
	"math/rand/v2"
	"strings"
)

// Fake is one planted credential.
type Fake struct {
	// Label is the kind it is redacted as: "[redacted:<Label>]".
	Label string
	// Text is a line holding it as it appears in the wild: "Authorization:
	// Bearer …", a connection string, a JSON field.
	Text string
	// Secret is the part that must never be written, whole or in part.
	Secret string
	// Body is Secret's random part, when Secret holds fixed text too (a
	// private key's END line, a JWT's usual header).
	Body string
}

// Fragments are the pieces of f.Secret a leak would show: the secret, and
// its random part's last 8 bytes and the 8 after its first 8.
func (f Fake) Fragments() []string {
	s, body := f.Secret, f.Body
	if body == "" {
		body = s
	}
	out := []string{s}
	if len(body) >= 16 {
		out = append(out, body[len(body)-8:], body[8:16])
	}
	return out
}

// gen makes the random parts of fakes, from a fixed seed.
type gen struct{ r *rand.Rand }

const (
	upper  = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	lower  = "abcdefghijklmnopqrstuvwxyz"
	digits = "0123456789"
	hexLow = "0123456789abcdef"
)

// of returns n characters of set, holding a digit and a letter when set
// has both (so shapes that want a random-looking value take it).
func (g gen) of(set string, n int) string {
	for {
		b := make([]byte, n)
		for i := range b {
			b[i] = set[g.r.IntN(len(set))]
		}
		s := string(b)
		hasD := strings.ContainsAny(s, digits)
		hasL := strings.ContainsAny(s, upper+lower)
		if n < 4 || (hasD || !strings.ContainsAny(set, digits)) && (hasL || !strings.ContainsAny(set, upper+lower)) {
			return s
		}
	}
}

func (g gen) alnum(n int) string     { return g.of(upper+lower+digits, n) }
func (g gen) alnumDash(n int) string { return g.of(upper+lower+digits+"_-", n) }
func (g gen) hex(n int) string       { return g.of(hexLow, n) }
func (g gen) upperDigit(n int) string {
	return g.of(upper+digits, n)
}
func (g gen) lowerDigit(n int) string { return g.of(lower+digits, n) }
func (g gen) digits(n int) string     { return g.of(digits, n) }
func (g gen) b64(n int) string        { return g.of(upper+lower+digits+"+/", n) }

// All returns one or more fakes of every shape package secret knows,
// and of the values a test process learns by name.
func All() []Fake {
	g := gen{rand.New(rand.NewPCG(15, 2026))}
	var out []Fake
	add := func(label, text, secret string) { out = append(out, Fake{Label: label, Text: text, Secret: secret}) }
	key := func(label, secret string) { add(label, "the key is "+secret+" here", secret) }

	// Model APIs.
	key("anthropic-key", "sk-ant-api03-"+g.alnumDash(93)+"AA")
	key("openrouter-key", "sk-or-v1-"+g.hex(64))
	key("openai-key", "sk-proj-"+g.alnumDash(74)+"T3BlbkFJ"+g.alnumDash(74))
	key("openai-key", "sk-svcacct-"+g.alnumDash(58)+"T3BlbkFJ"+g.alnumDash(58))
	key("openai-key", "sk-"+g.alnum(48))
	key("groq-key", "gsk_"+g.alnum(52))
	key("huggingface-token", "hf_"+g.alnum(34))
	key("google-api-key", "AIza"+g.alnumDash(35))
	key("google-oauth-token", "ya29."+g.alnumDash(120))
	key("google-oauth-secret", "GOCSPX-"+g.alnumDash(28))
	key("replicate-token", "r8_"+g.alnum(37))
	key("perplexity-key", "pplx-"+g.alnum(48))
	key("xai-key", "xai-"+g.alnum(80))
	key("langsmith-key", "lsv2_pt_"+g.hex(32)+"_"+g.hex(10))
	key("pinecone-key", "pcsk_"+g.alnum(6)+"_"+g.alnum(60))
	key("tavily-key", "tvly-dev-"+g.alnum(32))
	key("nvidia-key", "nvapi-"+g.alnumDash(64))

	// Clouds.
	id, sk := "AKIA"+g.of(upper+"234567", 16), g.b64(40)
	add("aws-access-key-id", "aws_access_key_id = "+id, id)
	add("aws-secret-key", "[default]\naws_access_key_id = "+id+"\naws_secret_access_key = "+sk+"\n", sk)
	key("aws-session-token", "IQoJb3JpZ2luX2Vj"+g.b64(300))
	key("aws-bedrock-key", "ABSK"+g.b64(120))
	azure := g.b64(86) + "=="
	add("azure-storage-key", "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey="+azure+";EndpointSuffix=core.windows.net", azure)
	key("azure-client-secret", g.alnum(3)+g.digits(1)+"Q~"+g.alnumDash(34))

	// Payment.
	key("stripe-key", "sk_live_"+g.alnum(99))
	key("stripe-key", "rk_live_"+g.alnum(24))
	key("stripe-webhook-secret", "whsec_"+g.alnum(32))
	key("square-token", "sq0atp-"+g.alnumDash(22))
	bt := g.lowerDigit(16) + "$" + g.hex(32)
	out = append(out, Fake{Label: "braintree-token", Text: "the key is access_token$production$" + bt + " here", Secret: "access_token$production$" + bt, Body: bt})

	// Version control and CI.
	key("github-token", "ghp_"+g.alnum(36))
	key("github-token", "ghs_"+g.alnum(36))
	key("github-token", "github_pat_"+g.alnum(22)+"_"+g.alnum(59))
	key("gitlab-token", "glpat-"+g.alnumDash(20))
	key("atlassian-token", "ATATT3"+g.alnumDash(186))
	key("atlassian-token", "ATBB"+g.alnum(32))

	// Package registries.
	key("npm-token", "npm_"+g.alnum(36))
	key("pypi-token", "pypi-AgEIcHlwaS5vcmc"+g.alnumDash(70))
	key("rubygems-token", "rubygems_"+g.hex(48))
	key("dockerhub-token", "dckr_pat_"+g.alnumDash(27))
	key("nuget-key", "oy2"+g.lowerDigit(43))

	// Chat.
	key("slack-token", "xoxb-"+g.digits(12)+"-"+g.digits(12)+"-"+g.alnum(24))
	key("slack-token", "xoxp-"+g.digits(12)+"-"+g.digits(12)+"-"+g.digits(12)+"-"+g.hex(32))
	hook := "T" + g.upperDigit(8) + "/B" + g.upperDigit(8) + "/" + g.alnum(24)
	out = append(out, Fake{Label: "slack-webhook", Text: "post to https://hooks.slack.com/services/" + hook, Secret: "services/" + hook, Body: hook})
	dhook := g.digits(18) + "/" + g.alnumDash(68)
	add("discord-webhook", "post to https://discord.com/api/webhooks/"+dhook, dhook)
	key("discord-token", "MT"+g.alnum(24)+"."+g.alnumDash(6)+"."+g.alnumDash(38))
	key("telegram-bot-token", g.digits(10)+":AA"+g.alnumDash(33))

	// E-mail and messaging.
	key("sendgrid-key", "SG."+g.alnumDash(22)+"."+g.alnumDash(43))
	key("mailgun-key", "key-"+g.hex(32))
	key("mailchimp-key", g.hex(32)+"-us21")
	key("twilio-key", "SK"+g.hex(32))
	key("resend-key", "re_"+g.alnum(8)+"_"+g.alnum(24))

	// Infrastructure and SaaS.
	key("vault-token", "hvs."+g.alnumDash(90))
	key("databricks-token", "dapi"+g.hex(32))
	key("digitalocean-token", "dop_v1_"+g.hex(64))
	key("shopify-token", "shpat_"+g.hex(32))
	key("linear-key", "lin_api_"+g.alnum(40))
	key("notion-token", "ntn_"+g.digits(11)+g.alnum(35))
	key("notion-token", "secret_"+g.alnum(43))
	key("sentry-token", "sntryu_"+g.hex(64))
	key("grafana-token", "glsa_"+g.alnum(32)+"_"+g.hex(8))
	key("doppler-token", "dp.pt."+g.alnum(43))
	key("postman-key", "PMAK-"+g.hex(24)+"-"+g.hex(34))
	key("planetscale-token", "pscale_tkn_"+g.alnumDash(43))
	key("supabase-key", "sbp_"+g.hex(40))
	key("heroku-key", "HRKU-AA"+g.alnumDash(58))
	key("newrelic-key", "NRAK-"+g.upperDigit(27))
	key("figma-token", "figd_"+g.alnumDash(40))
	key("age-secret-key", "AGE-SECRET-KEY-1"+g.upperDigit(58))
	key("1password-token", "ops_eyJ"+g.b64(250))

	// Any provider.
	claims := g.alnumDash(60) + "." + g.alnumDash(43)
	out = append(out, Fake{Label: "jwt", Text: "the key is eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ" + claims + " here",
		Secret: "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ" + claims, Body: claims})
	var pem strings.Builder
	for range 12 {
		pem.WriteString(g.b64(64) + "\n")
	}
	block := "-----BEGIN PRIVATE KEY-----\n" + pem.String() + "-----END PRIVATE KEY-----"
	out = append(out, Fake{Label: "private-key", Text: "key:\n" + block + "\n", Secret: block, Body: strings.TrimSpace(pem.String())})
	tok := g.alnum(40)
	add("bearer-token", "Authorization: Bearer "+tok, tok)
	basic := base64.StdEncoding.EncodeToString([]byte("svc:" + g.alnum(20)))
	add("basic-auth", "Authorization: Basic "+basic, basic)
	tok2 := g.alnum(40)
	add("token", "Authorization: Token "+tok2, tok2)
	pw := g.alnum(24)
	add("url-password", "DATABASE_URL=postgres://app:"+pw+"@db.internal:5432/app", pw)
	cred := g.alnum(28)
	add("credential", `{"db_password": "`+cred+`", "region": "eu-west-1"}`, cred)
	return out
}
