// Package secret is evalkit's one redactor: every writer and printer —
// failure messages and diffs, test attributes, artifacts, results files,
// reports, recordings, the evalkit command's output, the judges' errors —
// passes what it writes through Clean (or a Stream, or a Writer, for
// text that comes in pieces), so nothing secret leaves a test.
//
// Clean removes two things, each replaced by a label that says what was
// removed and never the value ("[redacted:openai-key]",
// "[redacted:env:OPENAI_API_KEY]", "[redacted:header:api-key]"):
//
//   - the values the process knows are secret (see Learn): its
//     credential-named environment variables' (EnvName), the
//     credential-named headers, query parameters and body fields the HTTP
//     recording transport, the judges and the evaluators send, and what
//     users register;
//   - credential shapes, from the list in shapes.go: the documented key
//     formats of model APIs, clouds, payment, version control, package
//     registries, chat and e-mail services, JWTs, private key blocks, and
//     the generic shapes (Bearer and Basic credentials, a URL's password,
//     a value assigned to a credential's name).
//
// Standard library and the root package only.
package secret

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/evalkit-go/evalkit"
)

// Redacted replaces a secret where what it was does not matter, and in
// what keys a recording: a label never keys (see KeyText).
const Redacted = "[redacted]"

// Label is the text that replaces a secret of this kind:
// "[redacted:openai-key]".
func Label(kind string) string { return "[redacted:" + kind + "]" }

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
// digits only, ſ and the Kelvin sign read as s and k.
func fieldName(name string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == 'ſ': // as (?i) reads it
			return 's'
		case r == '\u212a': // the Kelvin sign
			return 'k'
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
// "[redacted:credential]" whole. Keys that f makes equal are told apart by a suffix,
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
				out[key] = Label("credential")
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

// Clean returns s with every secret the process knows and every
// credential shape replaced by its label. It is safe for concurrent use,
// and Clean(Clean(s)) == Clean(s). A mebibyte of text costs about 4 ms
// of CPU (BenchmarkRedact); each call also reads the environment (about
// a microsecond), so a writer cleaning many strings takes a Redactor.
func Clean(s string) string {
	return apply(s, tableNow().find(s))
}

// Redactor is Clean with the secrets the process knew when it was made
// (Now): for a writer that cleans many strings of one output (the fields
// of a recording, the strings of a request), reading the environment
// once.
type Redactor struct{ t *table }

// Now returns a Redactor of the secrets the process knows now.
func Now() Redactor { return Redactor{tableNow()} }

// Clean is Clean with r's secrets.
func (r Redactor) Clean(s string) string { return apply(s, r.t.find(s)) }

// CleanBytes is Clean for bytes: data itself when nothing is found. JSON
// stays JSON: a label holds no quote or backslash, and an escaped secret
// is replaced escapes and all.
func CleanBytes(data []byte) []byte {
	hits := tableNow().find(string(data))
	if len(hits) == 0 {
		return data
	}
	return []byte(apply(string(data), hits))
}

// Redact is Clean that also removes secrets, each of at least MinSecret
// bytes: a judge's own API key and header values, which it passes
// whether or not they were learned. Such a value is labelled as it was
// learned, else "[redacted:secret]".
func Redact(s string, secrets []string) string {
	hits := tableNow().find(s)
	if extra := extraTable(secrets); extra != nil {
		hits = merge(append(hits, extra.find(s)...))
	}
	return apply(s, hits)
}

// extraTable is the table of the secrets of at least MinSecret bytes,
// or nil.
func extraTable(secrets []string) *table {
	var vals []known
	registry.mu.Lock()
	for _, v := range secrets {
		if len(v) < MinSecret {
			continue
		}
		label := registry.labels[v]
		if label == "" {
			label = "secret"
		}
		vals = append(vals, known{value: v, label: label})
	}
	registry.mu.Unlock()
	if len(vals) == 0 {
		return nil
	}
	return newTable(vals, false)
}

// KeyText returns s with every credential shape replaced by "[redacted]",
// unlabelled, and nothing else: what recordings key by, so a key depends
// neither on the environment nor on how labels are worded.
func KeyText(s string) string {
	hits := shapeTable().find(s)
	if len(hits) == 0 {
		return s
	}
	for i := range hits {
		hits[i].label = ""
	}
	return applyPlain(s, hits)
}

// applyPlain is apply with "[redacted]" for every hit.
func applyPlain(s string, hits []hit) string {
	var b strings.Builder
	at := 0
	for _, h := range hits {
		b.WriteString(s[at:h.start])
		b.WriteString(Redacted)
		at = h.end
	}
	b.WriteString(s[at:])
	return b.String()
}

// Unlabel returns s with every label ("[redacted:openai-key]") written
// "[redacted]": what a recording keys by, whatever the label said.
func Unlabel(s string) string {
	if !strings.Contains(s, "[redacted:") {
		return s
	}
	var b strings.Builder
	for {
		i := strings.Index(s, "[redacted:")
		if i < 0 {
			break
		}
		j := strings.IndexByte(s[i:], ']')
		if j < 0 {
			break
		}
		b.WriteString(s[:i])
		b.WriteString(Redacted)
		s = s[i+j+1:]
	}
	b.WriteString(s)
	return b.String()
}

var (
	shapeOnce sync.Once
	shapeTab  *table
)

// shapeTable is the table of the shapes alone.
func shapeTable() *table {
	shapeOnce.Do(func() { shapeTab = newTable(nil, true) })
	return shapeTab
}

// Finding is one credential-shaped string in a text.
type Finding struct {
	// Kind says what it looks like: "an OpenAI API key (sk-proj-…, …)".
	Kind string
	// Label is its kind as a label names it: "openai-key".
	Label string
	// Masked is the secret's first four bytes and its length, never the
	// secret: "sk-t (4 of 16 bytes)".
	Masked     string
	start, end int
}

// Find returns the credential-shaped strings in s, in order, each once:
// where two shapes find one string, the more specific (a provider's key
// format before "Bearer …") names it. Only shapes: the values the process
// knows are not looked for, so what Find says of a file does not depend
// on the environment.
func Find(s string) []Finding {
	hits := shapeTable().find(s)
	out := make([]Finding, 0, len(hits))
	for _, h := range hits {
		out = append(out, Finding{Kind: describe(h.label), Label: h.label, Masked: mask(s[h.start:h.end]), start: h.start, end: h.end})
	}
	return out
}

// describe is what a label's shape says of itself.
func describe(label string) string {
	for _, sh := range shapes {
		if sh.label == label {
			return sh.what
		}
	}
	switch label {
	case "aws-secret-key":
		return "an AWS secret access key (beside its key id)"
	case "basic-auth":
		return "a Basic credential (Authorization: Basic …)"
	case "token":
		return "a Token credential (Authorization: Token …)"
	}
	return label
}

// Shapes lists the shapes' labels and what each looks like, in order.
func Shapes() [][2]string {
	var out [][2]string
	for _, sh := range shapes {
		out = append(out, [2]string{sh.label, sh.what})
	}
	return out
}

func mask(s string) string {
	head := s
	if len(head) > 4 {
		head = head[:4]
	}
	// No "…" after it: that would read as a secret cut short.
	return head + " (" + strconv.Itoa(len(head)) + " of " + strconv.Itoa(len(s)) + " bytes)"
}
