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
	// Query is the URL's query, with credential values redacted.
	Query url.Values
	// Header is the request's header with credential values redacted:
	// Authorization and Proxy-Authorization keep their scheme ("Bearer
	// [REDACTED]"); X-Api-Key, Api-Key, Cookie and any header whose name
	// contains "token", "secret", "password" or "api-key" become
	// "[REDACTED]". An empty value stays empty, so a test can tell a
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
		lower := strings.ToLower(name)
		switch {
		case lower == "authorization" || lower == "proxy-authorization":
			for i, v := range vs {
				if v == "" {
					continue
				}
				if scheme, _, ok := strings.Cut(v, " "); ok {
					vs[i] = scheme + " " + Redacted
				} else {
					vs[i] = Redacted
				}
			}
		case isCredentialName(lower) || lower == "x-api-key" || lower == "api-key" || lower == "cookie":
			redactAll(vs)
		}
	}
	return out
}

// redactQuery returns a copy of q with credential values redacted: the
// parameters key, api-key, api_key, apikey, and any whose name contains
// "token", "secret", "password" or "api-key".
func redactQuery(q url.Values) url.Values {
	out := cloneValues(q)
	for name, vs := range out {
		lower := strings.ToLower(name)
		if isCredentialName(lower) || lower == "key" || lower == "api_key" || lower == "apikey" {
			redactAll(vs)
		}
	}
	return out
}

func isCredentialName(lower string) bool {
	for _, w := range []string{"token", "secret", "password", "api-key"} {
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
