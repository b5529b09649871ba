package judgefake

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// Request is one HTTP request a Server or Transport received, as it was
// sent except for credentials: tests assert on it — that temperature 0 and
// a seed were sent, that the prompt never states the pass threshold.
type Request struct {
	// API is APIOpenAI or APIAnthropic, by the path; empty for a path
	// judgefake does not serve.
	API string
	// Method and Path are the request line's, such as "POST" and
	// "/v1/chat/completions".
	Method, Path string
	// Query is the URL's query, with credential values redacted by the
	// rule Header's are.
	Query url.Values
	// Header is the request's header with credential values redacted by
	// the rule the real judges keep credentials out of their errors with:
	// a header whose name contains, in any case, "key", "auth", "token",
	// "secret", "password", "cookie" or "signature" (X-Api-Key, Api-Key,
	// Ocp-Apim-Subscription-Key, Helicone-Auth, X-Amz-Security-Token,
	// Cookie, Idempotency-Key too) has its values replaced by
	// "[REDACTED]". Authorization and Proxy-Authorization keep their
	// scheme, and other such headers a Bearer or Basic scheme ("Bearer
	// [REDACTED]"). An empty value stays empty, so a test can tell a
	// missing credential from a present one.
	Header http.Header
	// Body is the request body, byte for byte.
	Body []byte
}

// Redacted is what a credential's value is replaced with.
const Redacted = "[REDACTED]"

// Prompt returns the text the request puts before the model, in order and
// joined by newlines: Anthropic's "system" (a string or text blocks), then
// every message's content (a string, or the text of its text parts or
// blocks). It returns "" for a body that is not a chat request.
func (r Request) Prompt() string {
	var body struct {
		System   json.RawMessage `json:"system"`
		Messages []struct {
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if json.Unmarshal(r.Body, &body) != nil {
		return ""
	}
	var parts []string
	parts = appendText(parts, body.System)
	for _, m := range body.Messages {
		parts = appendText(parts, m.Content)
	}
	return strings.Join(parts, "\n")
}

// appendText appends the text of a content field: a string, or a list of
// parts or blocks with a "text".
func appendText(parts []string, raw json.RawMessage) []string {
	if len(raw) == 0 {
		return parts
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		if s != "" {
			parts = append(parts, s)
		}
		return parts
	}
	var blocks []struct {
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &blocks) == nil {
		for _, b := range blocks {
			if b.Text != "" {
				parts = append(parts, b.Text)
			}
		}
	}
	return parts
}

func (r Request) clone() Request {
	r.Query = cloneValues(r.Query)
	r.Header = r.Header.Clone()
	r.Body = slices.Clone(r.Body)
	return r
}

func cloneValues(v url.Values) url.Values {
	if v == nil {
		return nil
	}
	out := make(url.Values, len(v))
	for k, vs := range v {
		out[k] = slices.Clone(vs)
	}
	return out
}

// redactHeader returns a copy of h with credential values redacted.
func redactHeader(h http.Header) http.Header {
	out := h.Clone()
	if out == nil {
		out = http.Header{}
	}
	for name, vs := range out {
		if !isCredentialName(name) {
			continue
		}
		lower := strings.ToLower(name)
		anyScheme := lower == "authorization" || lower == "proxy-authorization"
		for i, v := range vs {
			if v == "" {
				continue
			}
			scheme, _, ok := strings.Cut(v, " ")
			if ok && (anyScheme || strings.EqualFold(scheme, "Bearer") || strings.EqualFold(scheme, "Basic")) {
				vs[i] = scheme + " " + Redacted
			} else {
				vs[i] = Redacted
			}
		}
	}
	return out
}

// redactQuery returns a copy of q with credential values redacted: those
// of the parameters whose names isCredentialName flags.
func redactQuery(q url.Values) url.Values {
	out := cloneValues(q)
	for name, vs := range out {
		if isCredentialName(name) {
			redactAll(vs)
		}
	}
	return out
}

// isCredentialName reports whether a header or query parameter of this
// name may carry a credential: its name contains, in any case, "key",
// "auth", "token", "secret", "password", "cookie" or "signature". It is
// the rule of the real judges (internal/secret.Name), which
// judgefake may not import; a test keeps the two in step.
func isCredentialName(name string) bool {
	lower := strings.ToLower(name)
	for _, w := range []string{"key", "auth", "token", "secret", "password", "cookie", "signature"} {
		if strings.Contains(lower, w) {
			return true
		}
	}
	return false
}

func redactAll(vs []string) {
	for i, v := range vs {
		if v != "" {
			vs[i] = Redacted
		}
	}
}
