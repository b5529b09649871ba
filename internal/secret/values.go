package secret

import (
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// The values the process knows are secret: those of its environment
// variables whose names mark them as credentials (read again whenever the
// environment changes), and those learned as they are seen — the values
// of credential-named request headers, query parameters and body fields
// that the HTTP recording transport, the judges, classifiers and
// evaluators send, the judges' API keys, and what users register
// (evaltest.RegisterSecret). The registry is process-wide and only grows:
// a value seen once is kept out of every later output.

var registry struct {
	mu     sync.Mutex
	labels map[string]string // value → label, the first given
	gen    uint64            // bumped on every new value
}

// Learn adds value to the values redacted everywhere, named label
// ("header:api-key", "secret:crm-token"). Values shorter than MinSecret
// are not kept: replacing them would garble text, and no provider issues
// keys that short. A value learned twice keeps its first label.
func Learn(label, value string) {
	if len(value) < MinSecret {
		return
	}
	registry.mu.Lock()
	defer registry.mu.Unlock()
	if _, ok := registry.labels[value]; ok {
		return
	}
	if registry.labels == nil {
		registry.labels = map[string]string{}
	}
	registry.labels[value] = label
	registry.gen++
}

// LearnSeen is Learn for a value seen on the wire rather than given by a
// user: a value that does not look like a credential — all digits, or
// shorter than 16 bytes and of one kind of character only ("password",
// "localhost") — is not kept, so a header such as "Cookie: theme=dark"
// does not take a word out of every message.
func LearnSeen(label, value string) {
	if plausible(value) {
		Learn(label, value)
	}
}

// plausible reports whether a value seen on the wire or in the
// environment may be a credential (see LearnSeen).
func plausible(v string) bool {
	if len(v) < MinSecret {
		return false
	}
	var lower, upper, digit, other bool
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case 'a' <= c && c <= 'z':
			lower = true
		case 'A' <= c && c <= 'Z':
			upper = true
		case '0' <= c && c <= '9':
			digit = true
		default:
			other = true
		}
	}
	kinds := 0
	for _, k := range []bool{lower, upper, digit, other} {
		if k {
			kinds++
		}
	}
	switch {
	case digit && kinds == 1:
		return false
	case kinds == 1 && len(v) < 16:
		return false
	}
	return true
}

// EnvName reports whether an environment variable of this name holds a
// credential: its last word (split at "_") is KEY, APIKEY, TOKEN, SECRET,
// PASSWORD, PASSWD, PASS, PWD, PAT, AUTH, CREDENTIAL or CREDENTIALS
// (OPENAI_API_KEY, GITHUB_TOKEN, DB_PASSWORD, GITLAB_PAT), or any word is
// SECRET, PASSWORD or APIKEY (CLIENT_SECRET_VALUE), or it is one of AWS's
// credential variables (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
// AWS_SESSION_TOKEN, AWS_SECURITY_TOKEN). PATH, HOME, PWD, OLDPWD,
// AWS_REGION, AWS_PROFILE and other settings are not.
func EnvName(name string) bool {
	n := strings.ToUpper(name)
	switch n {
	case "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_SECURITY_TOKEN":
		return true
	}
	words := strings.FieldsFunc(n, func(r rune) bool { return r == '_' || r == '-' || r == '.' })
	if len(words) == 0 {
		return false
	}
	switch words[len(words)-1] {
	case "KEY", "APIKEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL", "CREDENTIALS":
		return true
	case "PASS", "PWD", "PAT", "AUTH":
		return len(words) > 1 // not PWD, the working directory
	}
	return slices.ContainsFunc(words, func(w string) bool { return w == "SECRET" || w == "PASSWORD" || w == "APIKEY" })
}

// envValues returns the credential values of env ("NAME=value" pairs),
// labelled "env:NAME": those EnvName flags, that look like credentials
// (see LearnSeen), and that are not the path of a file (a variable such
// as GOOGLE_APPLICATION_CREDENTIALS names the file that holds the key).
func envValues(env []string) []known {
	var out []known
	for _, kv := range env {
		name, v, ok := strings.Cut(kv, "=")
		if !ok || !EnvName(name) || !plausible(v) {
			continue
		}
		if strings.HasPrefix(v, "/") || strings.HasPrefix(v, "./") || strings.HasPrefix(v, "~/") {
			if _, err := os.Stat(v); err == nil {
				continue
			}
		}
		out = append(out, known{value: v, label: "env:" + name})
	}
	return out
}

// current is the table in use, and what it was built from.
type snapshot struct {
	t   *table
	env []string
	gen uint64
}

var (
	cur     atomic.Pointer[snapshot]
	buildMu sync.Mutex
)

// tableNow returns the table of the shapes and the values known now: it
// is rebuilt when the environment or the registry changed since it was
// last built (reading the environment costs about a microsecond).
func tableNow() *table {
	env := os.Environ()
	registry.mu.Lock()
	gen := registry.gen
	registry.mu.Unlock()
	if s := cur.Load(); s != nil && s.gen == gen && slices.Equal(s.env, env) {
		return s.t
	}
	buildMu.Lock()
	defer buildMu.Unlock()
	if s := cur.Load(); s != nil && s.gen == gen && slices.Equal(s.env, env) {
		return s.t
	}
	vals := envValues(env)
	registry.mu.Lock()
	gen = registry.gen
	for v, label := range registry.labels {
		vals = append(vals, known{value: v, label: label})
	}
	registry.mu.Unlock()
	// Longer values first, so a value that holds another is found whole;
	// then by value, so the table does not depend on map order. The
	// environment's label wins over a learned one for the same value.
	slices.SortFunc(vals, func(a, b known) int {
		if len(a.value) != len(b.value) {
			return len(b.value) - len(a.value)
		}
		if c := strings.Compare(a.value, b.value); c != 0 {
			return c
		}
		if ea, eb := strings.HasPrefix(a.label, "env:"), strings.HasPrefix(b.label, "env:"); ea != eb {
			if ea {
				return -1
			}
			return 1
		}
		return strings.Compare(a.label, b.label)
	})
	vals = slices.CompactFunc(vals, func(a, b known) bool { return a.value == b.value })
	t := newTable(vals, true)
	cur.Store(&snapshot{t: t, env: env, gen: gen})
	return t
}
