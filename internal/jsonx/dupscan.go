package jsonx

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/evalkit-go/evalkit/internal/textnorm"
)

// Duplicate is a member name an object gives twice: RFC 8259 says such an
// object is not interoperable (encoding/json keeps the last value, other
// parsers the first), so evalkit reads it as an error, never a guess.
type Duplicate struct {
	// Key is the name given twice, as encoding/json decodes it (escapes
	// read: "\u0061" is "a").
	Key string
	// Path is where the second one is: "entries[2].verdict.score".
	Path string
	// Line and Column are where the second name starts (1-based, the
	// column in bytes).
	Line, Column int
	// Offset is the byte offset of the second name in the JSON.
	Offset int
	// Same reports that both were given the same value, byte for byte.
	Same bool
}

// Error says which key, where: `key "score" is given twice (at
// verdict.score, line 3, column 5)`; with Same, "given twice with the same
// value"; otherwise "with different values" when the caller tolerated
// equal ones (see Conflicts).
func (d *Duplicate) Error() string {
	how := ""
	if d.Same {
		how = ", with the same value"
	}
	return fmt.Sprintf("key %s is given twice%s (at %s, line %d, column %d)", textnorm.Quote(d.Key, maxQuotedKey), how, textnorm.Excerpt(d.Path, maxDupPath), d.Line, d.Column)
}

// ConflictError is a Duplicate whose two values differ.
type ConflictError struct{ Duplicate }

func (e *ConflictError) Error() string {
	return fmt.Sprintf("key %s is given twice, with different values (at %s, line %d, column %d): which is meant cannot be told", textnorm.Quote(e.Key, maxQuotedKey), textnorm.Excerpt(e.Path, maxDupPath), e.Line, e.Column)
}

const (
	maxQuotedKey = 120
	maxDupPath   = 240
)

// FirstDuplicate returns the first member name, in the order of the text,
// that an object of js (one JSON value) gives a second time, at any depth.
// It is one pass over the bytes, allocating nothing unless it finds one
// (or a name holds an escape), so a reader can afford it on every value it
// reads. js should be valid JSON: on anything else FirstDuplicate returns
// what it found before the first byte it could not read, never an error;
// the caller's decoding says what is wrong.
func FirstDuplicate(js []byte) (*Duplicate, bool) {
	return scanDuplicates(bytesAsString(js), false)
}

// FirstFoldedDuplicate is FirstDuplicate with names compared as
// encoding/json matches them to struct fields, ignoring case ("score"
// and "Score" fill one field, the last silently winning), for JSON
// decoded into structs. The value of a member named one of maps is a
// map or raw JSON, not a struct: its names are compared exactly, at any
// depth. Key is the second name as written.
func FirstFoldedDuplicate(js []byte, maps ...string) (*Duplicate, bool) {
	d := scanners.Get().(*dupScanner)
	d.fold, d.maps = true, maps
	return d.scan(bytesAsString(js), false)
}

// Conflicts is FirstDuplicate for a reader that accepts a name given twice
// with the same value (byte for byte), which every parser reads alike: it
// returns the first name given twice with different values, as a
// *ConflictError.
func Conflicts(js []byte) error {
	if d, ok := scanDuplicates(bytesAsString(js), true); ok {
		return &ConflictError{*d}
	}
	return nil
}

// ConflictsString is Conflicts for JSON held in a string.
func ConflictsString(js string) error {
	if d, ok := scanDuplicates(js, true); ok {
		return &ConflictError{*d}
	}
	return nil
}

// bytesAsString views b as a string without copying: the scan only reads
// it, and what it returns is copied out (see dupScanner.found).
func bytesAsString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(unsafe.SliceData(b), len(b))
}

// dupScanner reads one JSON value looking for a member name given twice.
type dupScanner struct {
	s       string
	sameOK  bool     // skip names given twice with the same value
	fold    bool     // compare names folded (foldKey), as struct fields match
	maps    []string // with fold, the members whose values are compared exactly
	path    []dupStep
	members []member // the members of the objects being read, outermost first
	keys    []string // the names that needed decoding, by member.key
	dup     *Duplicate
}

// dupStep is one step of the path from the root: a member's name or an
// element's index.
type dupStep struct {
	k0, k1 int // the name's bytes, quotes excluded; k1 < 0 for an index
	index  int
}

// member is one member of an object being read.
type member struct {
	k0, k1 int // the name, quotes excluded
	key    int // 1 + the index in dupScanner.keys of the name decoded, when it needs decoding (escapes, invalid UTF-8) or folding; 0 otherwise
	v0, v1 int // the value
}

// smallObject is how many members an object is compared by a linear
// search; past it, a map.
const smallObject = 16

func scanDuplicates(s string, sameOK bool) (*Duplicate, bool) {
	// A scanner's stacks are reused: a tool call's arguments are scanned
	// in a few hundred nanoseconds, which allocating them would double.
	return scanners.Get().(*dupScanner).scan(s, sameOK)
}

func (d *dupScanner) scan(s string, sameOK bool) (*Duplicate, bool) {
	d.s, d.sameOK = s, sameOK
	d.value(skipBlank(s, 0), 0)
	dup := d.dup
	*d = dupScanner{path: d.path[:0], members: d.members[:0], keys: d.keys[:0]}
	if cap(d.members) <= maxPooled && cap(d.path) <= maxPooled {
		clear(d.keys[:cap(d.keys)]) // let the names go
		scanners.Put(d)
	}
	return dup, dup != nil
}

// scanners holds dupScanners for reuse; one whose stacks grew past
// maxPooled (a document of thousands of members open at once) is dropped.
var scanners = sync.Pool{New: func() any {
	return &dupScanner{path: make([]dupStep, 0, 16), members: make([]member, 0, 64)}
}}

const maxPooled = 1 << 12

// value reads the value at s[i] and returns the offset past it, and false
// when it is not JSON or a duplicate was found (the scan then stops).
func (d *dupScanner) value(i, depth int) (int, bool) {
	s := d.s
	if i >= len(s) || depth > maxDepth {
		return i, false
	}
	switch c := s[i]; {
	case c == '{':
		return d.object(i, depth)
	case c == '[':
		i = skipBlank(s, i+1)
		if i < len(s) && s[i] == ']' {
			return i + 1, true
		}
		d.path = append(d.path, dupStep{k1: -1})
		defer func() { d.path = d.path[:len(d.path)-1] }()
		for n := 0; ; n++ {
			d.path[len(d.path)-1].index = n
			var ok bool
			if i, ok = d.value(i, depth+1); !ok {
				return i, false
			}
			i = skipBlank(s, i)
			if i >= len(s) {
				return i, false
			}
			switch s[i] {
			case ',':
				i = skipBlank(s, i+1)
			case ']':
				return i + 1, true
			default:
				return i, false
			}
		}
	case c == '"':
		return d.skipString(i)
	case c == '-' || ('0' <= c && c <= '9'):
		return scanNumber(s, i)
	case c == 't':
		return scanWord(s, i, "true")
	case c == 'f':
		return scanWord(s, i, "false")
	case c == 'n':
		return scanWord(s, i, "null")
	}
	return i, false
}

func (d *dupScanner) object(i, depth int) (int, bool) {
	s := d.s
	i = skipBlank(s, i+1)
	if i < len(s) && s[i] == '}' {
		return i + 1, true
	}
	// The object's members are d.members[base:]: an object inside one of
	// them adds its own after, and drops them when it ends.
	base := len(d.members)
	var index map[string]int // name → its member, past smallObject
	d.path = append(d.path, dupStep{})
	defer func() {
		d.path = d.path[:len(d.path)-1]
		d.members = d.members[:base]
	}()
	for {
		if i >= len(s) || s[i] != '"' {
			return i, false
		}
		end, plain, ok := d.str(i)
		if !ok {
			return end, false
		}
		m := member{k0: i + 1, k1: end - 1}
		if !plain || d.fold {
			key := s[i+1 : end-1]
			if !plain {
				if err := json.Unmarshal([]byte(s[i:end]), &key); err != nil {
					return i, false
				}
			}
			if d.fold {
				key = foldKey(key)
			}
			d.keys = append(d.keys, key)
			m.key = len(d.keys)
		}
		i = skipBlank(s, end)
		if i >= len(s) || s[i] != ':' {
			return i, false
		}
		i = skipBlank(s, i+1)
		d.path[len(d.path)-1] = dupStep{k0: m.k0, k1: m.k1}
		m.v0 = i
		fold := d.fold
		if fold && len(d.maps) > 0 && slices.Contains(d.maps, s[m.k0:m.k1]) {
			d.fold = false // a map's names, compared exactly
		}
		i, ok = d.value(i, depth+1)
		d.fold = fold
		if !ok {
			return i, false
		}
		m.v1 = i
		// Compare with the members before.
		ms := d.members[base:]
		prev := -1
		if index == nil {
			for j := range ms {
				if d.sameName(&ms[j], &m) {
					prev = j
					break
				}
			}
		} else if j, ok := index[d.name(&m)]; ok {
			prev = j
		}
		if prev >= 0 {
			same := s[ms[prev].v0:ms[prev].v1] == s[m.v0:m.v1]
			if !same || !d.sameOK {
				d.found(&m, same)
				return i, false
			}
		} else {
			d.members = append(d.members, m)
			n := len(d.members) - base
			if index != nil {
				index[d.name(&m)] = n - 1
			} else if n > smallObject {
				index = make(map[string]int, 2*n)
				for j := range d.members[base:] {
					index[d.name(&d.members[base+j])] = j
				}
			}
		}
		i = skipBlank(s, i)
		if i >= len(s) {
			return i, false
		}
		switch s[i] {
		case ',':
			i = skipBlank(s, i+1)
		case '}':
			return i + 1, true
		default:
			return i, false
		}
	}
}

// name is a member's name as encoding/json decodes it.
func (d *dupScanner) name(m *member) string {
	if m.key > 0 {
		return d.keys[m.key-1]
	}
	return d.s[m.k0:m.k1]
}

// written is a member's name as encoding/json decodes it, not folded.
func (d *dupScanner) written(m *member) string {
	if !d.fold {
		return d.name(m)
	}
	var key string
	if json.Unmarshal([]byte(d.s[m.k0-1:m.k1+1]), &key) != nil {
		return d.s[m.k0:m.k1]
	}
	return key
}

func (d *dupScanner) sameName(a, b *member) bool {
	return d.name(a) == d.name(b)
}

// str reads the string at s[i] and returns the offset past it; plain is
// false when the string holds an escape or is not valid UTF-8 (then its
// bytes are not what encoding/json decodes it to).
func (d *dupScanner) str(i int) (end int, plain, ok bool) {
	end, ok = d.skipString(i)
	if !ok {
		return end, false, false
	}
	body := d.s[i+1 : end-1]
	if strings.IndexByte(body, '\\') >= 0 {
		return end, false, true
	}
	for b := 0; b < len(body); b++ {
		if body[b] >= utf8.RuneSelf {
			return end, utf8.ValidString(body), true
		}
	}
	return end, true, true
}

// skipString returns the offset past the string at s[i]: the first quote
// not escaped, found a quote at a time (a vectorized search), never a
// byte at a time.
func (d *dupScanner) skipString(i int) (int, bool) {
	s := d.s
	for j := i + 1; ; {
		k := strings.IndexByte(s[j:], '"')
		if k < 0 {
			return len(s), false
		}
		q := j + k
		// The quote is escaped when an odd number of backslashes come
		// before it.
		n := 0
		for b := q - 1; b > i && s[b] == '\\'; b-- {
			n++
		}
		if n%2 == 0 {
			return q + 1, true
		}
		j = q + 1
	}
}

// found records m as the duplicate, its path and place copied out of the
// text.
func (d *dupScanner) found(m *member, same bool) {
	var b strings.Builder
	for _, st := range d.path {
		if b.Len() > maxDupPath {
			break
		}
		if st.k1 < 0 {
			b.WriteString("[" + strconv.Itoa(st.index) + "]")
			continue
		}
		key := d.s[st.k0:st.k1]
		if st.k0 == m.k0 {
			key = d.written(m)
		}
		writeKey(&b, key)
	}
	before := d.s[:m.k0-1]
	line := strings.Count(before, "\n") + 1
	d.dup = &Duplicate{
		Key:    strings.Clone(d.written(m)),
		Path:   b.String(),
		Line:   line,
		Column: len(before) - strings.LastIndexByte(before, '\n'),
		Offset: m.k0 - 1,
		Same:   same,
	}
}

// writeKey appends a name to a path: ".name", or `["a.b"]` for a name that
// is not a plain word.
func writeKey(b *strings.Builder, key string) {
	plain := key != ""
	for _, r := range key {
		if !(r == '_' || r == '-' || r == '$' || '0' <= r && r <= '9' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z') {
			plain = false
			break
		}
	}
	if !plain {
		b.WriteString("[" + textnorm.Quote(key, maxQuotedKey) + "]")
		return
	}
	if b.Len() > 0 {
		b.WriteByte('.')
	}
	b.WriteString(key)
}

// skipBlank is skipSpace for indented JSON: a run of spaces after a line
// break is skipped eight at a time.
func skipBlank(s string, i int) int {
	for i < len(s) {
		switch s[i] {
		case ' ', '\t', '\r', '\n':
			i++
			for i+8 <= len(s) && s[i:i+8] == "        " {
				i += 8
			}
		default:
			return i
		}
	}
	return i
}
