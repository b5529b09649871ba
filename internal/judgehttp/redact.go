package judgehttp

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/internal/secret"
)

// Redacted replaces what may be a secret where a URL is shown
// (RedactedURL): secret.Redacted.
const Redacted = secret.Redacted

// Secrets lists what a judge must keep out of everything it returns: its
// API key, the base URL's password, the values of the base URL's query
// parameters and of the headers whose names secret.Name flags (for a value
// with a scheme, "Bearer tok", the token alone too). It also teaches them
// to the process's one redactor (secret.Learn), so no other output of the
// process — a recording's request summary, a failure message, a report —
// shows them either: labelled "api-key", "url-password",
// "query:<name>" and "header:<name>".
func Secrets(apiKey string, base *url.URL, header http.Header) []string {
	secrets := []string{apiKey}
	secret.Learn("api-key", apiKey)
	if base != nil {
		if base.User != nil {
			if p, ok := base.User.Password(); ok {
				secrets = append(secrets, p)
				secret.Learn("url-password", p)
			}
		}
		for name, vs := range base.Query() {
			if secret.Name(name) {
				secrets = append(secrets, vs...)
				for _, v := range vs {
					secret.Learn("query:"+strings.ToLower(name), v)
				}
			}
		}
	}
	for name, vs := range header {
		if !secret.Name(name) {
			continue
		}
		label := "header:" + strings.ToLower(name)
		for _, v := range vs {
			// A scheme's credential alone, so "Bearer" stays readable;
			// the whole value when the credential is too short to keep.
			if _, token, ok := strings.Cut(v, " "); ok && len(strings.TrimSpace(token)) >= secret.MinSecret {
				v = strings.TrimSpace(token)
			}
			secrets = append(secrets, v)
			secret.Learn(label, v)
		}
	}
	return secrets
}

// Redact returns s through the process's one redactor, secrets removed
// too (secret.Redact): every secret of at least secret.MinSecret bytes,
// written plain, percent-encoded or JSON-escaped, and every credential
// shape, each replaced by its label ("[redacted:api-key]").
func Redact(s string, secrets []string) string { return secret.Redact(s, secrets) }

// RedactURL returns rawURL fit for a message: see RedactedURL. A URL that
// does not parse is not echoed at all.
func RedactURL(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return "(a URL that does not parse)"
	}
	return RedactedURL(u)
}

// RedactedURL returns u for a message, with its user information and the
// value of every query parameter replaced by "[redacted]" (a parameter
// with no value is replaced whole) and no fragment:
// "https://[redacted]@host/v1?api-version=[redacted]". Any query value may
// be a key (Azure's api-key, a gateway's token, a signed URL's
// signature), and which ones are is not knowable, so none is printed.
func RedactedURL(u *url.URL) string {
	c := *u
	c.User = nil
	c.RawQuery, c.ForceQuery = "", false
	c.Fragment, c.RawFragment = "", ""
	s := c.String()
	if u.User != nil {
		if i := strings.Index(s, "//"); i >= 0 {
			s = s[:i+2] + Redacted + "@" + s[i+2:]
		}
	}
	if u.RawQuery != "" {
		pairs := strings.Split(u.RawQuery, "&")
		for i, p := range pairs {
			if name, value, _ := strings.Cut(p, "="); value != "" {
				pairs[i] = name + "=" + Redacted
			} else if p != "" {
				pairs[i] = Redacted
			}
		}
		s += "?" + strings.Join(pairs, "&")
	}
	return s
}

// RedactError returns err with every secret replaced in its text. An error
// whose text holds no secret is returned as it is; otherwise the result's
// text is redacted, errors.Is and errors.As still see err and its chain,
// and errors.Unwrap gives nothing, so err's own text is not at hand.
func RedactError(err error, secrets []string) error {
	if err == nil {
		return nil
	}
	text := err.Error()
	if redacted := Redact(text, secrets); redacted != text {
		return &redactedError{text: redacted, err: err}
	}
	return err
}

type redactedError struct {
	text string
	err  error
}

func (e *redactedError) Error() string        { return e.text }
func (e *redactedError) Is(target error) bool { return errors.Is(e.err, target) }
func (e *redactedError) As(target any) bool   { return errors.As(e.err, target) }

// RedactVerdict replaces every secret in what v holds from the reply: the
// model's name, the whole answer, the label, the reasoning (the verdict's
// and each criterion's) and the keys and string values of Fields (see
// secret.RedactVerdict). Scores are left alone.
func RedactVerdict(v *evalkit.Verdict, secrets []string) {
	secret.RedactVerdict(v, func(s string) string { return secret.Redact(s, secrets) })
}

// ParseBaseURL parses a judge's base URL. Its error does not echo the URL,
// which may hold a credential: "the base URL does not parse (it is not
// shown, as it may hold a credential): invalid character " " in host name".
func ParseBaseURL(rawURL string) (*url.URL, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, fmt.Errorf("the base URL does not parse (it is not shown, as it may hold a credential): %w", err)
	}
	return u, nil
}
