package jsonx

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// DuplicateKey returns where data, a JSON value, first gives a key twice
// in one object, at any depth: the path to the key ("result.status.state",
// "items[2].id"), and true. encoding/json keeps the last of two keys
// silently, so a reply saying {"passed": false, "passed": true} would
// pass; a reader of outside answers asks here first. Keys are compared as
// they are, as a map[string]any holds them. Data that does not read as
// JSON is an error, never "no duplicate".
func DuplicateKey(data []byte) (string, bool, error) { return duplicateKey(data, false) }

// DuplicateFoldedKey is DuplicateKey with keys compared as encoding/json
// matches them to struct fields — case-insensitively, with Unicode's
// simple folding ("Result" and "ſtatus" fill the fields result and
// status) — for a reply decoded into a struct, which cannot then name a
// field twice either.
func DuplicateFoldedKey(data []byte) (string, bool, error) { return duplicateKey(data, true) }

func duplicateKey(data []byte, fold bool) (string, bool, error) {
	type frame struct {
		obj     bool
		keys    map[string]bool
		key     string
		index   int
		wantKey bool
	}
	var stack []frame
	path := func(last string) string {
		var b strings.Builder
		for _, f := range stack[:len(stack)-1] {
			if f.obj {
				if b.Len() > 0 {
					b.WriteByte('.')
				}
				b.WriteString(f.key)
			} else {
				b.WriteString("[" + strconv.Itoa(f.index) + "]")
			}
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(last)
		return b.String()
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber() // 1e400 is JSON, though no float64
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) && len(stack) == 0 {
			return "", false, nil
		}
		if err != nil {
			return "", false, err
		}
		top := len(stack) - 1
		if s, ok := tok.(string); ok && top >= 0 && stack[top].obj && stack[top].wantKey {
			folded := s
			if fold {
				folded = foldKey(s)
			}
			if stack[top].keys[folded] {
				return path(s), true, nil
			}
			stack[top].keys[folded], stack[top].key, stack[top].wantKey = true, s, false
			continue
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			stack = stack[:top]
			continue
		}
		// A value begins: the object holding it wants a key next, the
		// array holding it counts it.
		if top >= 0 {
			if stack[top].obj {
				stack[top].wantKey = true
			} else {
				stack[top].index++
			}
		}
		if d, ok := tok.(json.Delim); ok {
			stack = append(stack, frame{obj: d == '{', keys: map[string]bool{}, wantKey: d == '{', index: -1})
		}
	}
}

// foldKey is s with every rune at the smallest of its simple case folding
// orbit: two keys fold alike exactly when strings.EqualFold (and so
// encoding/json's field matching) takes them for one.
func foldKey(s string) string {
	ascii := true
	for i := 0; i < len(s) && ascii; i++ {
		ascii = s[i] < utf8.RuneSelf
	}
	if ascii {
		return strings.ToUpper(s) // an ASCII letter's orbit is least at its capital
	}
	return strings.Map(func(r rune) rune {
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			least = min(least, f)
		}
		return least
	}, s)
}
