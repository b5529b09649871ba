package jsonx

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// DuplicateKey returns where data, a JSON value, first gives a key twice
// in one object, at any depth: the path to the key ("result.status.state",
// "items[2].id"), and true. encoding/json keeps the last of two keys
// silently, so a reply saying {"passed": false, "passed": true} would
// pass; a reader of outside answers asks here first. Data that is not
// JSON has no duplicate (the caller's decoding reports it).
func DuplicateKey(data []byte) (string, bool) {
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
	for {
		tok, err := dec.Token()
		if err != nil {
			return "", false
		}
		top := len(stack) - 1
		if s, ok := tok.(string); ok && top >= 0 && stack[top].obj && stack[top].wantKey {
			if stack[top].keys[s] {
				return path(s), true
			}
			stack[top].keys[s], stack[top].key, stack[top].wantKey = true, s, false
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
