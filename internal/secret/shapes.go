package secret

import "strings"

// A shape is what one kind of credential looks like in text: the
// literal it starts with (a provider's documented prefix) or a word it
// follows ("Bearer", "api_key ="), and a matcher that, given where the
// anchor is, says where the secret is. Label names the kind in
// "[redacted:<label>]"; What says it for people (verify, the docs).
//
// The list is ours, written from the providers' documented key formats
// and from what GitHub secret scanning, gitleaks and trufflehog describe;
// RELIABILITY.md has it as a table. Keys that have no shape of their own
// (Cohere, Mistral, Together, an Azure OpenAI key's 32 hex digits, a
// Mailgun signing key) are found by name instead: an environment
// variable's, a header's, a query parameter's, or an assignment's
// ("api_key: …").
type shape struct {
	label string
	what  string
	// prefixes are case-sensitive literals a secret starts with; words are
	// lower-case words found in any case (ſ and the Kelvin sign as (?i)
	// reads them) that a secret follows.
	prefixes []string
	words    []string
	// match reports the secret at an anchor: s[at:at+n] is the prefix or
	// word. It appends what it finds to hits (several for a pair, such as
	// an AWS key id and the secret key beside it).
	match func(s string, at, n int, hits *[]hit)
}

// hit is one secret found: s[start:end], named by label. prio orders
// hits that start alike: the lower names the secret.
type hit struct {
	start, end int
	label      string
	prio       int
}

// Character sets of key bodies.
var (
	alnum      = set("A-Za-z0-9")
	alnumDash  = set("A-Za-z0-9_-")
	alnumUnder = set("A-Za-z0-9_")
	hexLower   = set("0-9a-f")
	hexAny     = set("0-9a-fA-F")
	upperDigit = set("A-Z0-9")
	base64Set  = set("A-Za-z0-9+/=")
	lowerDigit = set("a-z0-9")
	wordSet    = set("A-Za-z0-9_") // \w, for boundaries
)

// tok is a shape made of a prefix and a run of body characters: at least
// min of them (and at most max, when max > 0, else no match: a weak
// prefix needs the exact length). Unless loose, the byte before the
// prefix must not be a word character. With random, the body must hold a
// letter and a digit. A body cut by a failure message's excerpt marker
// ("…") is taken, however short, once its prefix is whole.
type tok struct {
	label, what string
	prefixes    []string
	body        charset
	min, max    int
	loose       bool
	random      bool
}

func (t tok) shape() shape {
	return shape{label: t.label, what: t.what, prefixes: t.prefixes, match: func(s string, at, n int, hits *[]hit) {
		if !t.loose && at > 0 && wordSet.has(s[at-1]) {
			return
		}
		end := at + n
		for end < len(s) && t.body.has(s[end]) {
			end++
		}
		body := end - at - n
		switch {
		case t.max > 0 && body > t.max:
			return
		case body < t.min && !(cutAt(s, end) && body > 0):
			return
		case t.random && body >= t.min && !random(s[at+n:end]):
			return
		}
		*hits = append(*hits, hit{start: at, end: end, label: t.label})
	}}
}

// shapes is the list, most specific first: where two shapes find one
// string, the first names it. Provider formats come before the generic
// shapes (an auth scheme, an assignment, a URL's password or query), and
// the values the process knows (see Learn) between them.
var shapes = buildShapes()

// valuePrio is where known values rank among the shapes: after every
// provider format, before the generic shapes.
var valuePrio int

func buildShapes() []shape {
	providers := []shape{
		// Model APIs.
		tok{label: "anthropic-key", what: "an Anthropic API key (sk-ant-…)", prefixes: []string{"sk-ant-"}, body: alnumDash, min: 20}.shape(),
		tok{label: "openrouter-key", what: "an OpenRouter API key (sk-or-…)", prefixes: []string{"sk-or-"}, body: alnumDash, min: 20}.shape(),
		tok{label: "openai-key", what: "an OpenAI API key (sk-…)",
			prefixes: []string{"sk-"}, body: alnumDash, min: 10, random: true}.shape(),
		tok{label: "groq-key", what: "a Groq API key (gsk_…)", prefixes: []string{"gsk_"}, body: alnum, min: 40}.shape(),
		tok{label: "huggingface-token", what: "a Hugging Face token (hf_…, api_org_…)", prefixes: []string{"hf_", "api_org_"}, body: alnum, min: 30}.shape(),
		tok{label: "google-api-key", what: "a Google API key (AIza…)", prefixes: []string{"AIza"}, body: alnumDash, min: 35, loose: true}.shape(),
		tok{label: "google-oauth-token", what: "a Google OAuth token (ya29.…, 1//0…)", prefixes: []string{"ya29.", "1//0"}, body: alnumDash, min: 20}.shape(),
		tok{label: "google-oauth-secret", what: "a Google OAuth client secret (GOCSPX-…)", prefixes: []string{"GOCSPX-"}, body: alnumDash, min: 24}.shape(),
		tok{label: "replicate-token", what: "a Replicate API token (r8_…)", prefixes: []string{"r8_"}, body: alnum, min: 30}.shape(),
		tok{label: "perplexity-key", what: "a Perplexity API key (pplx-…)", prefixes: []string{"pplx-"}, body: alnum, min: 40}.shape(),
		tok{label: "xai-key", what: "an xAI API key (xai-…)", prefixes: []string{"xai-"}, body: alnum, min: 60}.shape(),
		tok{label: "langsmith-key", what: "a LangSmith API key (lsv2_pt_…, lsv2_sk_…)", prefixes: []string{"lsv2_pt_", "lsv2_sk_"}, body: alnumUnder, min: 30}.shape(),
		tok{label: "pinecone-key", what: "a Pinecone API key (pcsk_…)", prefixes: []string{"pcsk_"}, body: alnumUnder, min: 40}.shape(),
		tok{label: "tavily-key", what: "a Tavily API key (tvly-…)", prefixes: []string{"tvly-"}, body: alnumDash, min: 30}.shape(),
		tok{label: "nvidia-key", what: "an NVIDIA API key (nvapi-…)", prefixes: []string{"nvapi-"}, body: alnumDash, min: 40}.shape(),

		// Clouds.
		awsKeyID(),
		tok{label: "aws-session-token", what: "an AWS session token (FwoGZXIvYXdzE…, IQoJb3JpZ2luX2Vj…)", prefixes: []string{"FwoGZXIvYXdzE", "IQoJb3JpZ2luX2Vj"}, body: base64Set, min: 80}.shape(),
		tok{label: "aws-bedrock-key", what: "an Amazon Bedrock API key (ABSK…)", prefixes: []string{"ABSK"}, body: base64Set, min: 100}.shape(),
		afterLiteral("azure-storage-key", "an Azure storage account key (AccountKey=…)", "AccountKey=", base64Set, 40),
		azureClientSecret(),

		// Payment.
		tok{label: "stripe-key", what: "a Stripe key (sk_live_…, rk_live_…)",
			prefixes: []string{"sk_live_", "sk_test_", "sk_prod_", "rk_live_", "rk_test_", "rk_prod_"}, body: alnum, min: 10}.shape(),
		tok{label: "stripe-webhook-secret", what: "a Stripe webhook signing secret (whsec_…)", prefixes: []string{"whsec_"}, body: base64Set, min: 24}.shape(),
		tok{label: "square-token", what: "a Square access token or secret (sq0atp-…, sq0csp-…)", prefixes: []string{"sq0atp-", "sq0csp-"}, body: alnumDash, min: 22}.shape(),
		tok{label: "braintree-token", what: "a Braintree access token (access_token$production$…)", prefixes: []string{"access_token$production$", "access_token$sandbox$"}, body: set("0-9a-z$"), min: 40}.shape(),

		// Version control and CI.
		tok{label: "github-token", what: "a GitHub token (ghp_…, gho_…, ghs_…)", prefixes: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_"}, body: alnum, min: 36}.shape(),
		tok{label: "github-token", what: "a GitHub fine-grained token (github_pat_…)", prefixes: []string{"github_pat_"}, body: alnumUnder, min: 22}.shape(),
		tok{label: "gitlab-token", what: "a GitLab token (glpat-…)",
			prefixes: []string{"glpat-", "gldt-", "glptt-", "glrt-", "glcbt-", "gloas-", "glsoat-", "glffct-", "glft-", "glimt-", "glagent-", "GR1348941"},
			body:     set("A-Za-z0-9_.-"), min: 20}.shape(),
		tok{label: "atlassian-token", what: "an Atlassian token (ATATT3…)", prefixes: []string{"ATATT3"}, body: set("A-Za-z0-9_=-"), min: 150}.shape(),
		tok{label: "atlassian-token", what: "a Bitbucket app password (ATBB…)", prefixes: []string{"ATBB"}, body: alnum, min: 28}.shape(),

		// Package registries.
		tok{label: "npm-token", what: "an npm access token (npm_…)", prefixes: []string{"npm_"}, body: alnum, min: 36}.shape(),
		tok{label: "pypi-token", what: "a PyPI upload token (pypi-AgEIcHlwaS5vcmc…)", prefixes: []string{"pypi-AgEIcHlwaS5vcmc", "pypi-AgENdGVzdC5weXBpLm9yZw"}, body: alnumDash, min: 50}.shape(),
		tok{label: "rubygems-token", what: "a RubyGems API key (rubygems_…)", prefixes: []string{"rubygems_"}, body: hexLower, min: 48}.shape(),
		tok{label: "dockerhub-token", what: "a Docker Hub access token (dckr_pat_…)", prefixes: []string{"dckr_pat_"}, body: alnumDash, min: 24}.shape(),
		tok{label: "nuget-key", what: "a NuGet API key (oy2…)", prefixes: []string{"oy2"}, body: lowerDigit, min: 43, max: 43}.shape(),

		// Chat.
		tok{label: "slack-token", what: "a Slack token (xoxb-…, xoxp-…)",
			prefixes: []string{"xoxb-", "xoxp-", "xoxa-", "xoxr-", "xoxs-", "xoxo-", "xoxe-", "xoxe.xox", "xapp-"}, body: alnumDash, min: 10}.shape(),
		afterLiteral("slack-webhook", "a Slack webhook URL (hooks.slack.com/services/…)", "hooks.slack.com/", set("A-Za-z0-9+/_-"), 20),
		afterLiteral("discord-webhook", "a Discord webhook URL (discord.com/api/webhooks/…)", "discord.com/api/webhooks/", set("A-Za-z0-9/_-"), 20),
		afterLiteral("discord-webhook", "a Discord webhook URL (discordapp.com/api/webhooks/…)", "discordapp.com/api/webhooks/", set("A-Za-z0-9/_-"), 20),
		discordToken(),
		telegramToken(),

		// E-mail and messaging.
		sendGridKey(),
		tok{label: "mailgun-key", what: "a Mailgun API key (key-…)", prefixes: []string{"key-"}, body: hexLower, min: 32, max: 32}.shape(),
		mailchimpKey(),
		tok{label: "twilio-key", what: "a Twilio API key (SK…)", prefixes: []string{"SK"}, body: hexAny, min: 32, max: 32}.shape(),
		tok{label: "resend-key", what: "a Resend API key (re_…)", prefixes: []string{"re_"}, body: alnumUnder, min: 30, random: true}.shape(),

		// Infrastructure and SaaS.
		tok{label: "vault-token", what: "a HashiCorp Vault token (hvs.…, hvb.…)", prefixes: []string{"hvs.", "hvb."}, body: alnumDash, min: 80}.shape(),
		tok{label: "databricks-token", what: "a Databricks token (dapi…)", prefixes: []string{"dapi"}, body: hexLower, min: 32, max: 32}.shape(),
		tok{label: "digitalocean-token", what: "a DigitalOcean token (dop_v1_…)", prefixes: []string{"dop_v1_", "doo_v1_", "dor_v1_"}, body: hexLower, min: 64}.shape(),
		tok{label: "shopify-token", what: "a Shopify token (shpat_…)", prefixes: []string{"shpat_", "shpca_", "shppa_", "shpss_"}, body: hexAny, min: 32}.shape(),
		tok{label: "linear-key", what: "a Linear API key (lin_api_…)", prefixes: []string{"lin_api_"}, body: alnum, min: 40}.shape(),
		tok{label: "notion-token", what: "a Notion token (ntn_…, secret_…)", prefixes: []string{"ntn_"}, body: alnum, min: 40}.shape(),
		tok{label: "notion-token", what: "a Notion integration secret (secret_…)", prefixes: []string{"secret_"}, body: alnum, min: 43, max: 43, random: true}.shape(),
		tok{label: "sentry-token", what: "a Sentry token (sntrys_…, sntryu_…)", prefixes: []string{"sntrys_", "sntryu_"}, body: set("A-Za-z0-9+/=_"), min: 40}.shape(),
		tok{label: "grafana-token", what: "a Grafana token (glc_…, glsa_…)", prefixes: []string{"glc_", "glsa_"}, body: set("A-Za-z0-9+/=_"), min: 32}.shape(),
		tok{label: "doppler-token", what: "a Doppler token (dp.pt.…, dp.st.…)", prefixes: []string{"dp.pt.", "dp.st.", "dp.sa.", "dp.ct."}, body: alnum, min: 40}.shape(),
		tok{label: "postman-key", what: "a Postman API key (PMAK-…)", prefixes: []string{"PMAK-"}, body: set("a-fA-F0-9-"), min: 50}.shape(),
		tok{label: "planetscale-token", what: "a PlanetScale token (pscale_tkn_…)", prefixes: []string{"pscale_tkn_", "pscale_pw_", "pscale_oauth_"}, body: set("A-Za-z0-9_.=-"), min: 32}.shape(),
		tok{label: "supabase-key", what: "a Supabase key (sbp_…, sb_secret_…)", prefixes: []string{"sbp_", "sb_secret_"}, body: alnumDash, min: 24}.shape(),
		tok{label: "heroku-key", what: "a Heroku API key (HRKU-…)", prefixes: []string{"HRKU-"}, body: alnumDash, min: 50}.shape(),
		tok{label: "newrelic-key", what: "a New Relic user key (NRAK-…)", prefixes: []string{"NRAK-"}, body: upperDigit, min: 27}.shape(),
		tok{label: "figma-token", what: "a Figma token (figd_…)", prefixes: []string{"figd_"}, body: alnumDash, min: 40}.shape(),
		tok{label: "age-secret-key", what: "an age secret key (AGE-SECRET-KEY-1…)", prefixes: []string{"AGE-SECRET-KEY-1"}, body: upperDigit, min: 58}.shape(),
		tok{label: "1password-token", what: "a 1Password service account token (ops_eyJ…)", prefixes: []string{"ops_eyJ"}, body: base64Set, min: 100}.shape(),

		// Any provider.
		jwt(),
		privateKey(),
	}
	valuePrio = len(providers)
	generic := []shape{
		authScheme(),
		urlPassword(),
		assignment(),
	}
	return append(providers, generic...)
}

// afterLiteral is a shape where the secret is what follows a literal
// (the path of a webhook URL, an Azure connection string's AccountKey):
// at least min body characters, the literal itself kept.
func afterLiteral(label, what, lit string, body charset, min int) shape {
	return shape{label: label, what: what, prefixes: []string{lit}, match: func(s string, at, n int, hits *[]hit) {
		end := at + n
		for end < len(s) && body.has(s[end]) {
			end++
		}
		if end-at-n >= min || cutAt(s, end) && end > at+n {
			*hits = append(*hits, hit{start: at + n, end: end, label: label})
		}
	}}
}

// awsKeyID finds an AWS access key id (AKIA…, ASIA…, ABIA…, ACCA…: 20
// characters) and, within 256 bytes of it, the secret access key beside
// it: a run of exactly 40 base64 characters holding upper and lower case
// and a digit, as credential files, environment dumps and SDK errors put
// them.
func awsKeyID() shape {
	return shape{label: "aws-access-key-id", what: "an AWS access key id (AKIA…, ASIA…)",
		prefixes: []string{"AKIA", "ASIA", "ABIA", "ACCA"}, match: func(s string, at, n int, hits *[]hit) {
			if at > 0 && wordSet.has(s[at-1]) {
				return
			}
			end := at + n
			for end < len(s) && upperDigit.has(s[end]) {
				end++
			}
			if end-at != 20 || end < len(s) && wordSet.has(s[end]) {
				return
			}
			*hits = append(*hits, hit{start: at, end: end, label: "aws-access-key-id"})
			lo, hi := max(0, at-256), min(len(s), end+256)
			for i := lo; i < hi; {
				if !base64Set.has(s[i]) || s[i] == '=' {
					i++
					continue
				}
				j := i
				for j < len(s) && base64Set.has(s[j]) && s[j] != '=' {
					j++
				}
				if j-i == 40 && (i == 0 || !base64Set.has(s[i-1])) && mixed(s[i:j]) {
					*hits = append(*hits, hit{start: i, end: j, label: "aws-secret-key"})
				}
				i = j
			}
		}}
}

// mixed reports whether s holds an upper-case letter, a lower-case
// letter and a digit.
func mixed(s string) bool {
	var up, lo, dig bool
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case 'A' <= c && c <= 'Z':
			up = true
		case 'a' <= c && c <= 'z':
			lo = true
		case '0' <= c && c <= '9':
			dig = true
		}
	}
	return up && lo && dig
}

// azureClientSecret finds an Entra ID (Azure AD) client secret: three
// characters, a digit, "Q~", then 31 to 34 more.
func azureClientSecret() shape {
	body := set("A-Za-z0-9_~.-")
	head := set("A-Za-z0-9_~.")
	return shape{label: "azure-client-secret", what: "an Azure (Entra ID) client secret (…Q~…)", prefixes: []string{"Q~"}, match: func(s string, at, n int, hits *[]hit) {
		start := at - 4
		if start < 0 || !isDigit(s[at-1]) || !head.has(s[start]) || !head.has(s[start+1]) || !head.has(s[start+2]) {
			return
		}
		if start > 0 && body.has(s[start-1]) {
			return
		}
		end := at + n
		for end < len(s) && body.has(s[end]) {
			end++
		}
		if l := end - at - n; l >= 31 && l <= 34 || cutAt(s, end) {
			*hits = append(*hits, hit{start: start, end: end, label: "azure-client-secret"})
		}
	}}
}

// discordToken finds a Discord bot token: a base64 user id (24 to 26
// characters, starting M, N or O), ".", 6 characters, ".", 27 to 38.
func discordToken() shape {
	return shape{label: "discord-token", what: "a Discord bot token", prefixes: dotAfterWord(), match: func(s string, at, n int, hits *[]hit) {
		dot := at + 1 // the anchor is a word character and the "."
		start := dot
		for start > 0 && dot-start < 27 && alnumDash.has(s[start-1]) {
			start--
		}
		if l := dot - start; l < 24 || l > 26 || start > 0 && alnumDash.has(s[start-1]) || s[start] != 'M' && s[start] != 'N' && s[start] != 'O' {
			return
		}
		i := dot + 1
		for i < len(s) && alnumDash.has(s[i]) {
			i++
		}
		if i-dot-1 != 6 || i >= len(s) || s[i] != '.' {
			return
		}
		end := i + 1
		for end < len(s) && alnumDash.has(s[end]) {
			end++
		}
		if l := end - i - 1; l >= 27 && l <= 38 || cutAt(s, end) {
			*hits = append(*hits, hit{start: start, end: end, label: "discord-token"})
		}
	}}
}

// dotAfterWord lists the two-byte anchors "<base64url character>.".
func dotAfterWord() []string {
	var out []string
	for c := 0; c < 256; c++ {
		if alnumDash.has(byte(c)) {
			out = append(out, string([]byte{byte(c), '.'}))
		}
	}
	return out
}

// telegramToken finds a Telegram bot token: the bot's id (8 to 10
// digits), ":", then 35 characters.
func telegramToken() shape {
	var anchors []string
	for c := '0'; c <= '9'; c++ {
		anchors = append(anchors, string(c)+":")
	}
	return shape{label: "telegram-bot-token", what: "a Telegram bot token", prefixes: anchors, match: func(s string, at, n int, hits *[]hit) {
		colon := at + 1
		start := colon
		for start > 0 && isDigit(s[start-1]) {
			start--
		}
		if l := colon - start; l < 8 || l > 10 || start > 0 && wordSet.has(s[start-1]) {
			return
		}
		end := colon + 1
		for end < len(s) && alnumDash.has(s[end]) {
			end++
		}
		if l := end - colon - 1; l == 35 || l > 0 && l < 35 && cutAt(s, end) {
			if random(s[colon+1 : end]) {
				*hits = append(*hits, hit{start: start, end: end, label: "telegram-bot-token"})
			}
		}
	}}
}

// sendGridKey finds a SendGrid API key: "SG.", 22 characters, ".", 43.
func sendGridKey() shape {
	return shape{label: "sendgrid-key", what: "a SendGrid API key (SG.….…)", prefixes: []string{"SG."}, match: func(s string, at, n int, hits *[]hit) {
		if at > 0 && wordSet.has(s[at-1]) {
			return
		}
		end := at + n
		for end < len(s) && (alnumDash.has(s[end]) || s[end] == '.') {
			end++
		}
		if end-at-n >= 60 || cutAt(s, end) && end-at-n >= 1 {
			*hits = append(*hits, hit{start: at, end: end, label: "sendgrid-key"})
		}
	}}
}

// mailchimpKey finds a Mailchimp API key: 32 hex digits, "-us" and the
// data centre's number.
func mailchimpKey() shape {
	return shape{label: "mailchimp-key", what: "a Mailchimp API key (…-us…)", prefixes: []string{"-us"}, match: func(s string, at, n int, hits *[]hit) {
		start := at
		for start > 0 && at-start < 33 && hexLower.has(s[start-1]) {
			start--
		}
		if at-start != 32 || start > 0 && wordSet.has(s[start-1]) {
			return
		}
		end := at + n
		for end < len(s) && end-at-n < 2 && isDigit(s[end]) {
			end++
		}
		if end == at+n {
			return
		}
		*hits = append(*hits, hit{start: start, end: end, label: "mailchimp-key"})
	}}
}

// jwt finds a JSON Web Token: "eyJ…" (a JSON object, base64url) ".eyJ…"
// and its signature, if any.
func jwt() shape {
	return shape{label: "jwt", what: "a JSON Web Token (eyJ….eyJ….…)", prefixes: []string{"eyJ"}, match: func(s string, at, n int, hits *[]hit) {
		if at > 0 && alnumDash.has(s[at-1]) {
			return
		}
		i := at + n
		for i < len(s) && alnumDash.has(s[i]) {
			i++
		}
		if i-at < 10 || !strings.HasPrefix(s[i:], ".eyJ") {
			return
		}
		j := i + 4
		for j < len(s) && alnumDash.has(s[j]) {
			j++
		}
		if j-i < 10 && !cutAt(s, j) {
			return
		}
		end := j
		if end < len(s) && s[end] == '.' {
			end++
			for end < len(s) && alnumDash.has(s[end]) {
				end++
			}
		}
		*hits = append(*hits, hit{start: at, end: end, label: "jwt"})
	}}
}

// privateKey finds a PEM private key block, "-----BEGIN … PRIVATE
// KEY-----" through its "-----END … PRIVATE KEY-----" (within 64 KiB),
// or, when no end is there (a key cut short, or still streaming), through
// the base64 lines that follow. Its lines may be joined by "\n" escapes,
// as in a GCP service account's JSON.
func privateKey() shape {
	return shape{label: "private-key", what: "a private key (-----BEGIN … PRIVATE KEY-----)", prefixes: []string{"-----BEGIN "}, match: func(s string, at, n int, hits *[]hit) {
		i := at + n
		for i < len(s) && i-at < 100 && (upperDigit.has(s[i]) || s[i] == ' ' || s[i] == '_' || s[i] == '-') && !strings.HasPrefix(s[i:], "-----") {
			i++
		}
		head := s[at+n : i]
		if !strings.HasSuffix(head, "PRIVATE KEY") && !strings.HasSuffix(head, "PRIVATE KEY BLOCK") || !strings.HasPrefix(s[i:], "-----") {
			return
		}
		i += 5
		if e := strings.Index(s[i:min(len(s), i+64<<10)], "-----END "); e >= 0 {
			end := i + e + len("-----END ")
			for end < len(s) && end-i-e < 120 && (upperDigit.has(s[end]) || s[end] == ' ' || s[end] == '_') {
				end++
			}
			if strings.HasPrefix(s[end:], "-----") {
				end += 5
			}
			*hits = append(*hits, hit{start: at, end: end, label: "private-key"})
			return
		}
		end := i
		for end < len(s) {
			switch {
			case base64Set.has(s[end]) || s[end] == ' ' || s[end] == '\n' || s[end] == '\r' || s[end] == '\t' || s[end] == ':' || s[end] == ',' || s[end] == '-':
				end++
			case s[end] == '\\':
				// "\n" as JSON writes a line break, "\\n" as JSON
				// inside JSON does, or escapes cut by an excerpt.
				j := end
				for j < len(s) && s[j] == '\\' {
					j++
				}
				if j < len(s) && (s[j] == 'n' || s[j] == 'r') {
					end = j + 1
					continue
				}
				if !cutAt(s, j) {
					*hits = append(*hits, hit{start: at, end: end, label: "private-key"})
					return
				}
				end = j
			default:
				*hits = append(*hits, hit{start: at, end: end, label: "private-key"})
				return
			}
		}
		*hits = append(*hits, hit{start: at, end: end, label: "private-key"})
	}}
}

// authScheme finds the credential of an HTTP auth scheme written out:
// "Bearer <token>", "Basic <base64>", "Token <token>", in any case. The
// credential must look random (a letter and a digit), so prose
// ("Bearer instruments") is left alone.
func authScheme() shape {
	cred := set("A-Za-z0-9._~+/=-")
	return shape{label: "bearer-token", what: "a Bearer, Basic or Token credential", words: []string{"bearer", "basic", "token"}, match: func(s string, at, n int, hits *[]hit) {
		if at > 0 && wordSet.has(s[at-1]) {
			return
		}
		i := at + n
		sp := i
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		if i == sp {
			return
		}
		end := i
		for end < len(s) && cred.has(s[end]) {
			end++
		}
		if end-i < MinSecret && !(cutAt(s, end) && end-i >= 4) || !random(s[i:end]) {
			return
		}
		label := "bearer-token"
		switch c := s[at]; {
		case c == 'b' || c == 'B' || c == 0xC5: // "basic", ſ cannot start "bearer"
			if foldWord(s, at, "basic") > 0 {
				label = "basic-auth"
			}
		case c == 't' || c == 'T':
			label = "token"
		}
		*hits = append(*hits, hit{start: i, end: end, label: label})
	}}
}

// urlPassword finds the password of a URL's user information:
// scheme://user:password@host.
func urlPassword() shape {
	return shape{label: "url-password", what: "a password in a URL (scheme://user:password@host)", prefixes: []string{"://"}, match: func(s string, at, n int, hits *[]hit) {
		if at == 0 || !isLetter(s[at-1]) {
			return
		}
		i := at + n
		u := i
		for i < len(s) && !isSpace(s[i]) && s[i] != '/' && s[i] != ':' && s[i] != '@' && s[i] != '"' && s[i] != '\'' {
			i++
		}
		if i == u || i >= len(s) || s[i] != ':' {
			return
		}
		p := i + 1
		end := p
		for end < len(s) && !isSpace(s[end]) && s[end] != '/' && s[end] != '@' && s[end] != '"' && s[end] != '\'' {
			end++
		}
		if end-p < MinSecret || end >= len(s) || s[end] != '@' || strings.Contains(s[p:end], "[redacted") {
			return
		}
		*hits = append(*hits, hit{start: p, end: end, label: "url-password"})
	}}
}

// assignment finds a value given to a credential's name: in JSON, YAML,
// .env files, code and URLs ("api_key": "…", API_KEY=…, password: …,
// ?key=…&). The name is the run of name characters around a credential
// word; it must be one Field flags ("max_tokens" is not), or, in a URL's
// query, end in key, token, auth, secret, password or sig(nature). A
// quoted value runs to its closing quote, any other over the characters
// of a token; either way it must look random (a letter and a digit).
func assignment() shape {
	val := set("A-Za-z0-9_.~+/=!@#$%^*-")
	return shape{label: "credential", what: "a value given to a credential's name (api_key: …)",
		words: []string{"key", "secret", "passw", "pwd", "token", "auth", "credential", "sig", "cookie"}, match: func(s string, at, n int, hits *[]hit) {
			// The name around the word.
			start := at
			for start > 0 && nameByte(s[start-1]) {
				start--
			}
			end := at + n
			for end < len(s) && nameByte(s[end]) {
				end++
			}
			name := s[start:end]
			query := start > 0 && (s[start-1] == '?' || s[start-1] == '&')
			i := end
			if !query {
				i = skipQuote(s, i)
				for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
					i++
				}
			}
			if i >= len(s) || s[i] != '=' && s[i] != ':' {
				return
			}
			if query && s[i] != '=' {
				return
			}
			if query {
				if !queryName(name) {
					return
				}
			} else if !Field(name) {
				return
			}
			i++
			if !query {
				if i < len(s) && s[i] == '=' { // :=, ==
					i++
				}
				for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
					i++
				}
			}
			vs, ve := i, i
			if q, w := quoteAt(s, i); w > 0 && !query {
				vs = i + w
				ve = vs
				for ve < len(s) && ve-vs <= 1024 && s[ve] != '\n' && !strings.HasPrefix(s[ve:], q) {
					ve++
				}
				if ve >= len(s) || !strings.HasPrefix(s[ve:], q) {
					// Unclosed: a token run, as unquoted.
					ve = vs
					for ve < len(s) && val.has(s[ve]) {
						ve++
					}
				}
			} else {
				for ve < len(s) && val.has(s[ve]) && !(query && s[ve] == '&') {
					ve++
				}
				for ve > vs && s[ve-1] == '.' { // a sentence's full stop
					ve--
				}
			}
			v := s[vs:ve]
			if len(v) < MinSecret && !(cutAt(s, ve) && len(v) >= 4) || !random(v) || strings.Contains(v, "[redacted") || isDigest(v) {
				return
			}
			*hits = append(*hits, hit{start: vs, end: ve, label: "credential"})
		}}
}

// queryName reports whether a URL query parameter's name ends in a
// credential word.
func queryName(name string) bool {
	n := fieldName(name)
	for _, w := range []string{"key", "token", "auth", "secret", "password", "signature", "sig"} {
		if strings.HasSuffix(n, w) {
			return true
		}
	}
	return false
}

// nameByte reports whether c may be part of a setting's name: a letter,
// digit, "_" or "-", or a byte of a non-ASCII rune (ſ, K).
func nameByte(c byte) bool { return wordSet.has(c) || c == '-' || c >= 0x80 }

// skipQuote steps over a closing quote after a name: ", ', or JSON's \".
func skipQuote(s string, i int) int {
	if _, w := quoteAt(s, i); w > 0 {
		return i + w
	}
	return i
}

// quoteAt returns the quote at s[i] and its width: `"`, `'`, or one
// escaped once or more (`\"` inside a JSON string, `\\\"` inside a JSON
// string inside another).
func quoteAt(s string, i int) (string, int) {
	switch {
	case i >= len(s):
		return "", 0
	case s[i] == '"' || s[i] == '\'':
		return s[i : i+1], 1
	}
	j := i
	for j < len(s) && j-i < 16 && s[j] == '\\' {
		j++
	}
	if j > i && j < len(s) && s[j] == '"' {
		return s[i : j+1], j + 1 - i
	}
	return "", 0
}

// cutAt reports whether s is cut at i by a failure message's excerpt
// marker: "…" right there, or after a closing quote (textnorm.Quote) as
// written, JSON-escaped or HTML-escaped.
func cutAt(s string, i int) bool {
	const mark = "…"
	if i >= len(s) {
		return false
	}
	return strings.HasPrefix(s[i+quoteLen(s, i):], mark)
}

// quoteLen is the length of the quote at s[i], as written (" or '),
// JSON-escaped (\") or HTML-escaped (&#34;, &#39;, &quot;), or 0.
func quoteLen(s string, i int) int {
	for _, q := range []string{`"`, `'`, `\"`, "&#34;", "&#39;", "&quot;"} {
		if strings.HasPrefix(s[i:], q) {
			return len(q)
		}
	}
	return 0
}

// keyLike reports whether a run cut out of a longer text looks like part
// of a key rather than of a word or a name: a letter and a digit, and
// both cases of letters, or hex digits only and at least 16 of them.
func keyLike(run string) bool {
	if !random(run) {
		return false
	}
	var up, lo, nonHex bool
	for i := 0; i < len(run); i++ {
		c := run[i]
		up = up || 'A' <= c && c <= 'Z'
		lo = lo || 'a' <= c && c <= 'z'
		nonHex = nonHex || !hexAny.has(c)
	}
	return up && lo || !nonHex && len(run) >= 16
}

// isDigest reports whether v names itself a SHA-256 digest
// ("sha256:<64 hex>"), such as a recording's key: a hash of content, not
// a credential.
func isDigest(v string) bool {
	h, ok := strings.CutPrefix(v, "sha256:")
	if !ok || len(h) != 64 {
		return false
	}
	for i := 0; i < len(h); i++ {
		if !hexLower.has(h[i]) {
			return false
		}
	}
	return true
}

func isDigit(c byte) bool  { return '0' <= c && c <= '9' }
func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isSpace(c byte) bool  { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// random reports whether s holds both a letter and a digit.
func random(s string) bool {
	letter, digit := false, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case '0' <= c && c <= '9':
			digit = true
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
			letter = true
		}
	}
	return letter && digit
}

// charset is a set of bytes.
type charset [4]uint64

func (c *charset) has(b byte) bool { return c[b>>6]&(1<<(b&63)) != 0 }

// set makes a charset from ranges and bytes: "A-Za-z0-9_-" (a "-" last is
// itself).
func set(spec string) charset {
	var c charset
	for i := 0; i < len(spec); i++ {
		lo, hi := spec[i], spec[i]
		if i+2 < len(spec) && spec[i+1] == '-' {
			hi = spec[i+2]
			i += 2
		}
		for b := int(lo); b <= int(hi); b++ {
			c[b>>6] |= 1 << (b & 63)
		}
	}
	return c
}
