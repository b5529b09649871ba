// Package secret finds and redacts credentials: in what the real judges
// return (internal/judgehttp) and in what recordings write (golden). It
// holds the rules both share, so there is one list of what a credential
// looks like. Standard library and the root package only.
package secret

import (
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/evalkit-go/evalkit"
)

// Redacted replaces a secret in text.
const Redacted = "[redacted]"

// MinSecret is the shortest value treated as a secret. Shorter values are
// placeholders — the "x", "EMPTY" or "ollama" a local server is given as
// its key — and replacing them everywhere would garble errors and
// verdicts; no provider issues keys that short.
const MinSecret = 8

// Name reports whether a header or query parameter of this name may carry
// a credential: its name contains, in any case, "key", "auth", "token",
// "secret", "password", "cookie" or "signature" (Authorization, X-Api-Key,
// Api-Key, Ocp-Apim-Subscription-Key, Helicone-Auth, X-Amz-Security-Token,
// ...). judgefake redacts the headers of the requests it records by the
// same rule. It is too wide for JSON fields and settings ("max_tokens"
// holds "token"): see Field.
func Name(name string) bool {
	n := strings.ToLower(name)
	for _, w := range []string{"key", "auth", "token", "secret", "password", "cookie", "signature"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// Field reports whether a JSON field or a judge setting of this name holds
// a credential: "api_key", "apiKey", "x-api-key", "authorization",
// "access_token", "client_secret", "password", "private_key", ... — the
// name with case, "-" and "_" ignored is one of a list of credential
// names, or ends in "apikey", "secret", "password", "passwd",
// "credential(s)", "privatekey", "secretkey", "accesskey", "cookie" or
// "authorization". Generation settings such as "max_tokens", "stop_token"
// or "seed" are not credentials: dropping them from a recording's key
// would let a stale verdict replay.
func Field(name string) bool {
	switch n := fieldName(name); n {
	case "key", "token", "auth", "bearer", "signature", "sig", "pwd", "cookie", "setcookie",
		"accesstoken", "authtoken", "bearertoken", "idtoken", "refreshtoken", "sessiontoken",
		"securitytoken", "apitoken", "xamzsecuritytoken", "subscriptionkey", "ocpapimsubscriptionkey":
		return true
	default:
		for _, suffix := range []string{"apikey", "secret", "password", "passwd", "credential", "credentials",
			"privatekey", "secretkey", "accesskey", "cookie", "authorization"} {
			if strings.HasSuffix(n, suffix) {
				return true
			}
		}
	}
	return false
}

// fieldName is a name as Field compares it: lower case, letters and
// digits only.
func fieldName(name string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'A' && r <= 'Z':
			return r + 'a' - 'A'
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			return r
		}
		return -1
	}, name)
}

// Param reports whether a URL query parameter of this name holds a
// credential, as recordings key and write queries: a name Field flags
// ("key", "api-key", "access_token", "sig", ...) or one ending, with case,
// "-" and "_" ignored, in "signature" (X-Amz-Signature, as presigned URLs
// carry it). Name is too wide for a query that keys a recording:
// max_tokens=5, keyword=refund or author=jane must tell requests apart.
func Param(name string) bool {
	return Field(name) || strings.HasSuffix(fieldName(name), "signature")
}

// Redact replaces every secret of at least MinSecret bytes in s by
// "[redacted]", as written, percent-encoded ("Bearer%20sk%2Dproj%2D…", as
// a server echoes a request's URL or header) or JSON-escaped
// ("\u0073\u006b-…", as a judge's raw JSON answer may hold it) in any
// part: the text is read decoded to find them, and the encoded run that
// decodes to the secret is replaced.
func Redact(s string, secrets []string) string {
	for _, secret := range secrets {
		if len(secret) >= MinSecret {
			s = strings.ReplaceAll(s, secret, Redacted)
		}
	}
	if strings.IndexByte(s, '%') >= 0 || strings.IndexByte(s, '\\') >= 0 {
		s = redactEncoded(s, secrets)
	}
	return s
}

// redactEncoded replaces the percent-encoded or JSON-escaped runs of s
// that decode to a secret.
func redactEncoded(s string, secrets []string) string {
	// Decode once to look, and map offsets back only when a secret is
	// there, which is rare: a judge's raw answer holds many escapes.
	text := decodeEscapes(s, nil)
	if !slices.ContainsFunc(secrets, func(secret string) bool { return len(secret) >= MinSecret && strings.Contains(text, secret) }) {
		return s
	}
	from := make([]int, 0, len(s)+1) // from[k] is where the k-th decoded byte starts in s
	decodeEscapes(s, &from)
	from = append(from, len(s))
	cut := make([]bool, len(s))
	found := false
	for _, secret := range secrets {
		if len(secret) < MinSecret {
			continue
		}
		for at := 0; ; {
			k := strings.Index(text[at:], secret)
			if k < 0 {
				break
			}
			start, end := at+k, at+k+len(secret)
			for i := from[start]; i < from[end]; i++ {
				cut[i] = true
			}
			found, at = true, end
		}
	}
	if !found {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if !cut[i] {
			b.WriteByte(s[i])
			i++
			continue
		}
		b.WriteString(Redacted)
		for i < len(s) && cut[i] {
			i++
		}
	}
	return b.String()
}

// decodeEscapes returns s with its percent and JSON escapes decoded, and
// when from is not nil appends to it, for each decoded byte, the offset in
// s where it starts.
func decodeEscapes(s string, from *[]int) string {
	dec := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		n, b := escape(s, i)
		if n == 0 {
			if from != nil {
				*from = append(*from, i)
			}
			dec = append(dec, s[i])
			i++
			continue
		}
		for range b {
			if from != nil {
				*from = append(*from, i)
			}
		}
		dec = append(dec, b...)
		i += n
	}
	return string(dec)
}

// escape reads the escape at s[i], if one starts there: "%2D", or JSON's
// "\u002d", "\/", "\\" and "\"". It returns its length in s, 0 when there
// is none, and the bytes it stands for.
func escape(s string, i int) (int, []byte) {
	switch {
	case s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
		return 3, []byte{unhex(s[i+1])<<4 | unhex(s[i+2])}
	case s[i] != '\\' || i+1 >= len(s):
		return 0, nil
	}
	switch c := s[i+1]; c {
	case '/', '\\', '"':
		return 2, []byte{c}
	case 'u':
		if i+5 < len(s) && isHex(s[i+2]) && isHex(s[i+3]) && isHex(s[i+4]) && isHex(s[i+5]) {
			r := rune(unhex(s[i+2]))<<12 | rune(unhex(s[i+3]))<<8 | rune(unhex(s[i+4]))<<4 | rune(unhex(s[i+5]))
			return 6, utf8.AppendRune(nil, r)
		}
	}
	return 0, nil
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}

// RedactVerdict replaces text in what v holds from the reply, by f: the
// model's name, the whole answer, the label, the reasoning (the verdict's
// and each criterion's), the keys and string values of Fields — a string
// under a field name that Field flags is replaced whole — and the same in
// every panel vote. A judge that echoes a key, even JSON-escaped
// ("\u0073\u006b-…", which decoding makes plain), may put it anywhere the
// verdict's JSON holds text. Scores are left alone.
func RedactVerdict(v *evalkit.Verdict, f func(string) string) {
	v.Model = f(v.Model)
	v.Label = f(v.Label)
	v.Raw = f(v.Raw)
	v.Reasoning = f(v.Reasoning)
	if v.Criteria != nil {
		v.Criteria = append([]evalkit.CriterionScore(nil), v.Criteria...)
		for i := range v.Criteria {
			v.Criteria[i].Reasoning = f(v.Criteria[i].Reasoning)
		}
	}
	if v.Fields != nil {
		v.Fields = Value(v.Fields, f).(map[string]any)
	}
	if v.Votes != nil {
		v.Votes = append([]evalkit.Vote(nil), v.Votes...)
		for i := range v.Votes {
			RedactVerdict(&v.Votes[i].Verdict, f)
			v.Votes[i].Err = f(v.Votes[i].Err)
		}
	}
	if v.Games != nil {
		// A pair judged both ways: each game is a judge's whole answer.
		v.Games = append([]evalkit.Verdict(nil), v.Games...)
		for i := range v.Games {
			RedactVerdict(&v.Games[i], f)
		}
	}
	if v.ToolCalls != nil {
		v.ToolCalls = append([]evalkit.JudgeToolCall(nil), v.ToolCalls...)
		for i := range v.ToolCalls {
			c := &v.ToolCalls[i]
			c.Result, c.Error = f(c.Result), f(c.Error)
			if len(c.Args) > 0 {
				a := f(string(c.Args))
				if !json.Valid([]byte(a)) {
					b, _ := json.Marshal(a) // the redacted text, kept as a string
					a = string(b)
				}
				c.Args = json.RawMessage(a)
			}
		}
	}
}

// Value returns a copy of a decoded JSON value with every string and
// every object key passed through f, and every string of at least
// MinSecret bytes under an object key that Field flags replaced by
// "[redacted]" whole. Keys that f makes equal are told apart by a suffix,
// " (2)", " (3)", so no value is lost.
func Value(v any, f func(string) string) any {
	switch v := v.(type) {
	case string:
		return f(v)
	case map[string]any:
		out := make(map[string]any, len(v))
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys) // so the suffixes do not depend on map order
		for _, k := range keys {
			x := v[k]
			key := f(k)
			if key != k {
				for n := 2; ; n++ {
					if _, taken := v[key]; !taken {
						if _, taken = out[key]; !taken {
							break
						}
					}
					key = f(k) + " (" + strconv.Itoa(n) + ")"
				}
			}
			if s, ok := x.(string); ok && Field(k) && len(s) >= MinSecret {
				out[key] = Redacted
				continue
			}
			out[key] = Value(x, f)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = Value(x, f)
		}
		return out
	}
	return v
}

// A shape is what one kind of credential looks like in text. The part of
// a match that is the secret is the submatch named "s", or the whole match.
type shape struct {
	name string
	re   *regexp.Regexp
	// random says the secret must hold a letter and a digit, so prose
	// ("Bearer instruments", "api_key = os.environ") is never taken for
	// a key.
	random bool
	// hints are texts, lower case, one of which every match holds: a text
	// holding none is not searched (the regexp costs about 50 ms a
	// megabyte, a search for a hint well under one).
	hints []string
}

// shapes are the credentials found by their look. The prefixes are the
// providers' documented key formats; the generic shapes (an auth scheme,
// a URL's password, a query parameter or an assignment with a credential
// name) need a value that looks random.
var shapes = []shape{
	{"an OpenAI or Anthropic key (sk-…)", regexp.MustCompile(`\bsk-[A-Za-z0-9_\-]{10,}`), true, []string{"sk-"}},
	{"a Google API key (AIza…)", regexp.MustCompile(`\bAIza[0-9A-Za-z_\-]{35}`), false, []string{"aiza"}},
	{"an AWS access key id", regexp.MustCompile(`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`), false, []string{"akia", "asia"}},
	{"a GitHub token", regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})`), false, []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"}},
	{"a GitLab token (glpat-…)", regexp.MustCompile(`\bglpat-[A-Za-z0-9_\-]{20,}`), false, []string{"glpat-"}},
	{"a Slack token (xox…)", regexp.MustCompile(`\bxox[abposr]-[A-Za-z0-9\-]{10,}`), false, []string{"xox"}},
	{"a Hugging Face token (hf_…)", regexp.MustCompile(`\bhf_[A-Za-z0-9]{30,}`), false, []string{"hf_"}},
	{"a JSON Web Token", regexp.MustCompile(`\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}`), false, []string{"eyj"}},
	{"a private key", regexp.MustCompile(`-----BEGIN [A-Z ]*PRIVATE KEY-----`), false, []string{"-----begin "}},
	{"a Bearer, Basic or token credential", regexp.MustCompile(`(?i)\b(?:bearer|basic|token)\s+(?P<s>[A-Za-z0-9._~+/=\-]{8,})`), true, []string{"bearer", "basic", "token"}},
	{"a password in a URL", regexp.MustCompile(`(?i)\b[a-z][a-z0-9+.\-]*://[^/\s:@]+:(?P<s>[^/\s@]{8,})@`), false, []string{"://"}},
	{"a credential in a URL query", regexp.MustCompile(`[?&](?:[A-Za-z0-9_\-]*(?:key|token|auth|secret|password|signature|sig))=(?P<s>[^&\s"'#<>\\]{8,})`), true, []string{"key=", "token=", "auth=", "secret=", "password=", "signature=", "sig="}},
	{"a credential assigned to a credential name", regexp.MustCompile(`(?i)["']?(?P<n>[A-Za-z0-9_\-]*(?:key|secret|password|passwd|token|authorization|credential))["']?\s*[:=]\s*["']?(?P<s>[^"'\s,;}&\\]{8,})`), true, []string{"key", "secret", "passw", "token", "authorization", "credential"}},
}

// digest is a value that names itself a SHA-256 digest, such as a
// recording's key: a hash of content, not a credential.
var digest = regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)

// Finding is one credential-shaped string in a text.
type Finding struct {
	// Kind says what it looks like: "an OpenAI or Anthropic key (sk-…)".
	Kind string
	// Masked is the secret's first four bytes and its length, never the
	// secret: "sk-t… (16 bytes)".
	Masked     string
	start, end int
}

// Find returns the credential-shaped strings in s, in order, each once:
// where two shapes find one string, the more specific (a provider's key
// format before "Bearer …") names it.
func Find(s string) []Finding {
	var out, add []Finding // out is sorted by start, its findings apart
	// The hints are searched for in s lowered as (?i) matches it: ToLower
	// maps the Kelvin sign to k, but leaves the long s (ſ), which (?i)
	// folds to s.
	lower := strings.ReplaceAll(strings.ToLower(s), "ſ", "s")
	for _, sh := range shapes {
		if !slices.ContainsFunc(sh.hints, func(h string) bool { return strings.Contains(lower, h) }) {
			continue
		}
		si, ni := sh.re.SubexpIndex("s"), sh.re.SubexpIndex("n")
		add = add[:0]
		for _, m := range sh.re.FindAllStringSubmatchIndex(s, -1) {
			start, end := m[0], m[1]
			if si >= 0 {
				start, end = m[2*si], m[2*si+1]
			}
			if ni >= 0 && !Field(s[m[2*ni]:m[2*ni+1]]) {
				continue
			}
			val := s[start:end]
			if strings.Contains(val, Redacted) || digest.MatchString(val) || sh.random && !random(val) {
				continue
			}
			if overlaps(out, start, end) {
				continue // a more specific shape found it first
			}
			add = append(add, Finding{Kind: sh.name, Masked: mask(val), start: start, end: end})
		}
		if len(add) > 0 {
			out = append(out, add...)
			slices.SortFunc(out, func(a, b Finding) int { return a.start - b.start })
		}
	}
	return out
}

// overlaps reports whether [start, end) overlaps one of found, sorted by
// start and apart (so sorted by end too): a binary search, as a text may
// hold a hundred thousand keys.
func overlaps(found []Finding, start, end int) bool {
	i, _ := slices.BinarySearchFunc(found, start, func(f Finding, start int) int {
		if f.end <= start {
			return -1
		}
		return 1
	})
	return i < len(found) && found[i].start < end
}

// RedactShapes replaces every credential-shaped string in s (see Find) by
// "[redacted]".
func RedactShapes(s string) string {
	found := Find(s)
	if len(found) == 0 {
		return s
	}
	cut := make([]bool, len(s))
	for _, f := range found {
		for i := f.start; i < f.end; i++ {
			cut[i] = true
		}
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if !cut[i] {
			b.WriteByte(s[i])
			i++
			continue
		}
		b.WriteString(Redacted)
		for i < len(s) && cut[i] {
			i++
		}
	}
	return b.String()
}

// random reports whether s holds both a letter and a digit.
func random(s string) bool {
	letter, digit := false, false
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			digit = true
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z':
			letter = true
		}
	}
	return letter && digit
}

func mask(s string) string {
	head := s
	if len(head) > 4 {
		head = head[:4]
	}
	return head + "… (" + strconv.Itoa(len(s)) + " bytes)"
}
