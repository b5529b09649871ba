package golden

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"net"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/evalkit-go/evalkit/internal/secret"
)

// keyedRequest is one request as a Transport files it: as written, and
// under its key.
type keyedRequest struct {
	written HTTPRequest
	tree    map[string]any // what keys: see keyTree
	key     string
}

// keyHTTPRequest makes a request's written form and key; contentType is
// its Content-Type header, which says whether body is multipart; test is
// the test sending it (WithTest). clean redacts text as the recording
// writes it; ignore lists the body fields left out of the key.
func keyHTTPRequest(method string, u *url.URL, contentType string, body []byte, test string, clean func(string) string, ignore [][]string) (keyedRequest, error) {
	w := HTTPRequest{Method: method, Origin: origin(u), Path: u.Path}
	if w.Path == "" {
		w.Path = "/"
	}
	for name, vs := range u.Query() {
		if w.Query == nil {
			w.Query = url.Values{}
		}
		for _, v := range vs {
			switch {
			case secret.Param(name) && v != "":
				v = secret.Label("query:" + strings.ToLower(name))
			default:
				v = clean(v)
			}
			w.Query[name] = append(w.Query[name], v)
		}
	}
	parts, isMultipart := parseMultipart(contentType, body, clean)
	switch {
	case len(body) == 0:
	case isMultipart:
		w.Multipart = parts
	case !utf8.Valid(body):
		w.BodyBase64 = []byte(clean(string(body)))
	case json.Valid(body):
		tree, err := decodeJSON(body)
		if err != nil {
			return keyedRequest{}, fmt.Errorf("golden: the request body: %w", err)
		}
		data, err := canonical(secret.Value(tree, clean))
		if err != nil {
			return keyedRequest{}, fmt.Errorf("golden: the request body: %w", err)
		}
		w.Body = data
	default:
		w.BodyText = clean(string(body))
	}
	tree, err := keyTree(w, test, ignore)
	if err != nil {
		return keyedRequest{}, err
	}
	return keyedRequest{written: w, tree: tree, key: treeKey(tree)}, nil
}

// keyTree is what a written request keys by: the test sending it (when
// there is one), its method, its origin, its path, its query without
// credential parameters (secret.Param: "key", "api-key", "sig", not
// "max_tokens" or "keyword"), and its body — a JSON body without
// credential fields and ignored fields, its numbers in their shortest
// form; a multipart body by its parts (see multipartTree), never its
// boundary. A recorded request's tree is made the same way, so the two
// compare field by field. Redaction labels key as "[redacted]" whatever
// they say ("[redacted:openai-key]", "[redacted:env:OPENAI_API_KEY]"), so
// a key depends neither on the environment a request was recorded in nor
// on how labels are worded, and recordings made before labels replay.
func keyTree(w HTTPRequest, test string, ignore [][]string) (map[string]any, error) {
	t := map[string]any{"method": w.Method, "path": w.Path}
	if w.Origin != "" {
		t["origin"] = w.Origin
	}
	if test != "" {
		t["test"] = test
	}
	q := map[string]any{}
	for name, vs := range w.Query {
		if secret.Param(name) {
			continue
		}
		list := make([]any, len(vs))
		for i, v := range vs {
			list[i] = secret.Unlabel(v)
		}
		q[name] = list
	}
	if len(q) > 0 {
		t["query"] = q
	}
	switch {
	case w.Multipart != nil:
		t["multipart"] = multipartTree(w.Multipart, ignore)
	case w.Body != nil:
		body, err := decodeJSON(w.Body)
		if err != nil {
			return nil, fmt.Errorf("golden: the request body: %w", err)
		}
		body = dropCredentials(body)
		for _, path := range ignore {
			body = dropPath(body, path)
		}
		t["body"] = shortNumbers(unlabel(body))
	case w.BodyText != "":
		t["body_text"] = secret.Unlabel(w.BodyText)
	case w.BodyBase64 != nil:
		sum := sha256.Sum256([]byte(secret.Unlabel(string(w.BodyBase64))))
		t["body_sha256"] = hex.EncodeToString(sum[:])
	}
	return t, nil
}

// origin is a URL's origin as a recording keeps it (see
// HTTPRequest.Origin): scheme and host in lower case, a port only when it
// is not the scheme's default, every loopback host "localhost" without
// its port, no user or password; "" for a URL with no host.
func origin(u *url.URL) string {
	host := strings.ToLower(u.Hostname())
	if host == "" {
		return ""
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme == "" {
		scheme = "http"
	}
	port := u.Port()
	switch {
	case isLoopback(host):
		host, port = "localhost", ""
	case port == "443" && scheme == "https", port == "80" && scheme == "http":
		port = ""
	}
	if port != "" {
		return scheme + "://" + net.JoinHostPort(host, port)
	}
	if strings.Contains(host, ":") { // an IPv6 address
		host = "[" + host + "]"
	}
	return scheme + "://" + host
}

func isLoopback(host string) bool {
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}

// unlabel returns a decoded JSON value with every string and object key
// passed through secret.Unlabel.
func unlabel(v any) any {
	switch v := v.(type) {
	case string:
		return secret.Unlabel(v)
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			out[secret.Unlabel(k)] = unlabel(x)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = unlabel(x)
		}
		return out
	}
	return v
}

func treeKey(tree map[string]any) string {
	sum := sha256.Sum256(mustCanonical(tree))
	return KeyPrefix + hex.EncodeToString(sum[:])
}

// decodeJSON decodes one JSON value, numbers as json.Number.
func decodeJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("more data after its JSON value")
	}
	return v, nil
}

// dropCredentials returns v without the object fields secret.Field flags,
// at any depth.
func dropCredentials(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			if !secret.Field(k) {
				out[k] = dropCredentials(x)
			}
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = dropCredentials(x)
		}
		return out
	}
	return v
}

// dropPath returns v without the field at path; a path that meets an
// array goes on in every element.
func dropPath(v any, path []string) any {
	if len(path) == 0 {
		return v
	}
	switch x := v.(type) {
	case map[string]any:
		if _, ok := x[path[0]]; !ok {
			return v
		}
		out := maps.Clone(x)
		if len(path) == 1 {
			delete(out, path[0])
		} else {
			out[path[0]] = dropPath(x[path[0]], path[1:])
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = dropPath(e, path)
		}
		return out
	}
	return v
}

// parseIgnore reads WithIgnoreFields' paths: dot-separated field names,
// none empty.
func parseIgnore(paths []string) ([][]string, error) {
	var out [][]string
	for _, p := range paths {
		parts := strings.Split(p, ".")
		if slices.Contains(parts, "") {
			return nil, fmt.Errorf("golden: WithIgnoreFields(%q): a path is field names joined by dots, such as \"metadata.user_id\"", p)
		}
		out = append(out, parts)
	}
	return out, nil
}

// rewriteJSON returns a JSON value compacted, its object keys in the
// order given, every string value passed through f with the name of the
// object field holding it ("" in an array or at the top).
func rewriteJSON(data []byte, f func(field, s string) string) ([]byte, error) {
	return rewriteJSONPath(data, func(_, field, s string) string { return f(field, s) })
}

// rewriteJSONPath is rewriteJSON that also gives f the string's path:
// the field names and array indexes from the top, joined by dots
// ("choices.0.delta.content").
func rewriteJSONPath(data []byte, f func(path, field, s string) string) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var b bytes.Buffer
	// Per open container: is it an object, how many members so far, and
	// (objects) the name of the member being read.
	type level struct {
		object bool
		n      int
		field  string
		key    bool // the next token is a member name
	}
	var stack []level
	str := func(s string) {
		data, _ := json.Marshal(s)
		// json.Marshal escapes <, > and &; undo it as canonical does.
		data = bytes.ReplaceAll(data, []byte(`\u003c`), []byte("<"))
		data = bytes.ReplaceAll(data, []byte(`\u003e`), []byte(">"))
		data = bytes.ReplaceAll(data, []byte(`\u0026`), []byte("&"))
		b.Write(data)
	}
	for {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var top *level
		if len(stack) > 0 {
			top = &stack[len(stack)-1]
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			b.WriteByte(byte(d))
			stack = stack[:len(stack)-1]
			if len(stack) > 0 {
				stack[len(stack)-1].key = stack[len(stack)-1].object
			}
			if len(stack) == 0 {
				break
			}
			continue
		}
		if top != nil {
			if top.object && top.key {
				if top.n > 0 {
					b.WriteByte(',')
				}
				top.n++
				top.field = tok.(string)
				str(top.field)
				b.WriteByte(':')
				top.key = false
				continue
			}
			if !top.object {
				if top.n > 0 {
					b.WriteByte(',')
				}
				top.n++
			}
		}
		field := ""
		if top != nil && top.object {
			field = top.field
		}
		switch v := tok.(type) {
		case json.Delim:
			b.WriteByte(byte(v))
			stack = append(stack, level{object: v == '{', key: v == '{'})
			continue
		case string:
			var path strings.Builder
			for i, l := range stack {
				if i > 0 {
					path.WriteByte('.')
				}
				if l.object {
					path.WriteString(l.field)
				} else {
					path.WriteString(strconv.Itoa(l.n - 1))
				}
			}
			str(f(path.String(), field, v))
		case json.Number:
			b.WriteString(v.String())
		case bool:
			b.WriteString(strconv.FormatBool(v))
		case nil:
			b.WriteString("null")
		}
		if top != nil && top.object {
			top.key = true
		}
		if len(stack) == 0 {
			break
		}
	}
	if dec.More() {
		return nil, fmt.Errorf("more data after its JSON value")
	}
	return b.Bytes(), nil
}

// cleanJSON redacts a JSON value for writing, keeping its key order: a
// string of at least secret.MinSecret bytes under a field secret.Field
// flags becomes "[redacted:credential]", every other string passes
// through clean.
func cleanJSON(data []byte, clean func(string) string) ([]byte, error) {
	return rewriteJSON(data, func(field, s string) string {
		if field != "" && secret.Field(field) && len(s) >= secret.MinSecret {
			return secret.Label("credential")
		}
		return clean(s)
	})
}
