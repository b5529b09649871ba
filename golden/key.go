package golden

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/internal/secret"
)

// KeyPrefix starts every key: the hash function's name.
const KeyPrefix = "sha256:"

// Key returns the key a recording files a request under: KeyPrefix and the
// hex SHA-256 of the canonical JSON of {"identity": id, "request": req}.
//
// The key holds everything that can change a verdict — the judge's
// provider, model, settings and prompt version, and every field of the
// request — and nothing that cannot: canonical JSON sorts every object's
// keys (a verdict schema or a setting written in another order keys
// alike), has no insignificant space, and writes numbers in their shortest
// form (7, 7.0 and 7e0 key alike). A request's zero Scale keys as
// evalkit.DefaultScale, which it means. Credentials never key: a setting
// whose name holds a credential ("api_key", "authorization", see
// internal/secret.Field) is left out, and a string that looks like a key
// ("sk-…", "Bearer …") keys as "[redacted]", so rotating a key replays.
// An omitted setting is not a zero one: a provider default is not an
// explicit temperature 0.
//
// A field added to JudgeRequest keys only when set (its JSON tag has
// omitempty), so recordings made before it still replay. Key returns an
// error for a request or identity that does not encode as JSON (a verdict
// schema that is not JSON).
func Key(id evalkit.Identity, req evalkit.JudgeRequest) (string, error) {
	ci, err := canonicalIdentity(id)
	if err != nil {
		return "", err
	}
	k, err := keyRequest(ci, req)
	if err != nil {
		return "", err
	}
	return k.key, nil
}

// identityKey is a judge's identity made fit to key and to write.
type identityKey struct {
	tree    any      // canonical JSON value, credentials left out
	json    []byte   // its canonical encoding
	secrets []string // the values of settings left out as credentials
}

// canonicalIdentity decodes id as plain JSON and leaves its credentials
// out: every object key that secret.Field flags is dropped (its string
// values kept as secrets to redact), and key-shaped strings become
// "[redacted]".
func canonicalIdentity(id evalkit.Identity) (identityKey, error) {
	tree, err := plain(id)
	if err != nil {
		return identityKey{}, fmt.Errorf("golden: the judge's Identity does not encode as JSON: %w", err)
	}
	var secrets []string
	tree = sanitize(tree, &secrets)
	data, err := canonical(tree)
	if err != nil {
		return identityKey{}, fmt.Errorf("golden: the judge's Identity does not encode as JSON: %w", err)
	}
	return identityKey{tree: tree, json: data, secrets: secrets}, nil
}

func sanitize(v any, secrets *[]string) any {
	switch v := v.(type) {
	case string:
		return secret.KeyText(v)
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			if secret.Field(k) {
				collect(x, secrets)
				continue
			}
			out[k] = sanitize(x, secrets)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			out[i] = sanitize(x, secrets)
		}
		return out
	}
	return v
}

// collect adds every string in v to secrets.
func collect(v any, secrets *[]string) {
	switch v := v.(type) {
	case string:
		*secrets = append(*secrets, v)
	case map[string]any:
		for _, x := range v {
			collect(x, secrets)
		}
	case []any:
		for _, x := range v {
			collect(x, secrets)
		}
	}
}

// requestKey is one request's key and the digests of its fields.
type requestKey struct {
	key     string
	digests map[string]string // request field → digest of its canonical JSON
}

func keyRequest(id identityKey, req evalkit.JudgeRequest) (requestKey, error) {
	req.Scale = req.Scale.OrDefault()
	tree, err := plain(req)
	if err != nil {
		return requestKey{}, fmt.Errorf("golden: the judge request does not encode as JSON: %w", err)
	}
	fields, _ := tree.(map[string]any)
	return keyFields(id, fields)
}

// keyFields keys a request given as its fields, plain JSON: Key's
// canonical JSON of {"identity": id, "request": fields}, and each field's
// digest.
func keyFields(id identityKey, fields map[string]any) (requestKey, error) {
	digests := make(map[string]string, len(fields))
	var b bytes.Buffer
	b.WriteString(`{"identity":`)
	b.Write(id.json)
	b.WriteString(`,"request":{`)
	// The request object written out field by field, in sorted order as
	// canonical writes it, so each field's digest comes from the same bytes.
	for i, field := range slices.Sorted(maps.Keys(fields)) {
		name, err := canonical(field)
		if err != nil {
			return requestKey{}, fmt.Errorf("golden: the judge request does not encode as JSON: %w", err)
		}
		data, err := canonical(fields[field])
		if err != nil {
			return requestKey{}, fmt.Errorf("golden: the judge request does not encode as JSON: %w", err)
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(name)
		b.WriteByte(':')
		b.Write(data)
		sum := sha256.Sum256(data)
		digests[field] = hex.EncodeToString(sum[:digestBytes])
	}
	b.WriteString("}}")
	sum := sha256.Sum256(b.Bytes())
	return requestKey{key: KeyPrefix + hex.EncodeToString(sum[:]), digests: digests}, nil
}

// digestBytes is the length of a field digest: 64 bits tell two values
// apart for a message, and are no key.
const digestBytes = 8

// plain returns v as encoding/json sees it: objects as map[string]any,
// numbers as json.Number in their shortest form.
func plain(v any) (any, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var tree any
	if err := dec.Decode(&tree); err != nil {
		return nil, err
	}
	return shortNumbers(tree), nil
}

// shortNumbers writes every number in its shortest form: an integer as
// digits (no sign on zero; one past int64 as written, so two such integers
// never key alike), any other as the shortest float64 text.
func shortNumbers(v any) any {
	switch v := v.(type) {
	case json.Number:
		return json.Number(shortNumber(string(v)))
	case map[string]any:
		for k, x := range v {
			v[k] = shortNumbers(x)
		}
	case []any:
		for i, x := range v {
			v[i] = shortNumbers(x)
		}
	}
	return v
}

func shortNumber(s string) string {
	if !strings.ContainsAny(s, ".eE") {
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return strconv.FormatInt(n, 10)
		}
		return s // JSON's integers have no leading zeros: its digits are its shortest form
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) {
		return s // beyond float64: kept as written
	}
	if f == math.Trunc(f) && math.Abs(f) < 1<<53 {
		return strconv.FormatInt(int64(f), 10)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// canonical encodes a plain JSON value with sorted object keys, no
// insignificant space and no HTML escaping.
func canonical(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
