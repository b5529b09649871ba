package golden

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"mime/multipart"
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

// learnBody learns the credentials a request's body (decoded) carries:
// the string values of credential-named fields (secret.Field) of a JSON
// body, at any depth, of a form-encoded body and of a multipart one's
// text parts. The recording writes them redacted; learned, they are
// redacted where a server echoes them in another form too (a multipart
// "password" part echoed as plain text).
func learnBody(contentType string, body []byte) {
	if len(body) == 0 {
		return
	}
	mt, params, _ := mime.ParseMediaType(contentType)
	switch {
	case strings.HasPrefix(mt, "multipart/") && params["boundary"] != "":
		r := multipart.NewReader(bytes.NewReader(body), params["boundary"])
		for {
			p, err := r.NextRawPart()
			if errors.Is(err, io.EOF) || err != nil {
				return
			}
			if name := p.FormName(); name != "" && p.FileName() == "" && secret.Field(name) {
				if v, err := io.ReadAll(io.LimitReader(p, maxFormValue+1)); err == nil && len(v) <= maxFormValue {
					secret.LearnSeen("field:"+strings.ToLower(name), strings.TrimSpace(string(v)))
				}
			}
			p.Close()
		}
	case mt == "application/x-www-form-urlencoded":
		form, err := url.ParseQuery(string(body))
		if err != nil {
			return
		}
		for name, vs := range form {
			if secret.Field(name) {
				for _, v := range vs {
					secret.LearnSeen("field:"+strings.ToLower(name), v)
				}
			}
		}
	case json.Valid(body):
		var v any
		if json.Unmarshal(body, &v) == nil {
			learnJSON(v)
		}
	}
}

// learnJSON learns the strings under credential-named fields of v.
func learnJSON(v any) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if s, ok := x.(string); ok && secret.Field(k) {
				secret.LearnSeen("field:"+strings.ToLower(k), s)
				continue
			}
			learnJSON(x)
		}
	case []any:
		for _, x := range v {
			learnJSON(x)
		}
	}
}
