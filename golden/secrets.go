package golden

import (
	"encoding/base64"
	"net/http"
	"net/url"
	"strings"

	"github.com/evalkit-go/evalkit/internal/secret"
)

// learnRequest teaches the process's redactor (internal/secret) the
// credentials a request carries, before anything of it or of its
// response is keyed or written: the values of its credential-named
// headers (secret.Name: Authorization, api-key, x-api-key, Cookie, …;
// a scheme's credential alone too, and a Basic credential's password),
// of its credential-named query parameters (secret.Param) and of its
// URL's password. A server that echoes one back — an Azure-style
// "api-key: <32 hex digits>" in an error body — then has it redacted
// there too, and so has every other output of the process.
func learnRequest(req *http.Request) {
	for name, vs := range req.Header {
		if !secret.Name(name) {
			continue
		}
		label := "header:" + strings.ToLower(name)
		for _, v := range vs {
			learnHeaderValue(label, strings.EqualFold(name, "Cookie"), v)
		}
	}
	if req.URL == nil {
		return
	}
	learnURL(req.URL)
}

// learnHeaderValue learns one credential header's value.
func learnHeaderValue(label string, cookie bool, v string) {
	v = strings.TrimSpace(v)
	scheme, cred, ok := strings.Cut(v, " ")
	cred = strings.TrimSpace(cred)
	if !ok || cookie || len(cred) < secret.MinSecret {
		secret.LearnSeen(label, v) // whole, unless its credential is
	}
	if cookie {
		for _, c := range strings.Split(v, ";") {
			if _, val, ok := strings.Cut(strings.TrimSpace(c), "="); ok {
				secret.LearnSeen(label, strings.Trim(val, `"`))
			}
		}
		return
	}
	if !ok {
		return
	}
	secret.LearnSeen(label, cred)
	if strings.EqualFold(scheme, "Basic") {
		if dec, err := base64.StdEncoding.DecodeString(cred); err == nil {
			if _, pass, ok := strings.Cut(string(dec), ":"); ok {
				secret.LearnSeen(label, pass)
			}
		}
	}
}

// learnURL learns a URL's password and the values of its credential
// query parameters.
func learnURL(u *url.URL) {
	if u.User != nil {
		if p, ok := u.User.Password(); ok {
			secret.LearnSeen("url-password", p)
		}
	}
	for name, vs := range u.Query() {
		if secret.Param(name) {
			for _, v := range vs {
				secret.LearnSeen("query:"+strings.ToLower(name), v)
			}
		}
	}
}
