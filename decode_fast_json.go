package evalkit

// The JSON reader of Decode's fast path (decode_fast.go): strict RFC 8259
// syntax, strings as encoding/json decodes them (escapes but surrogates,
// valid UTF-8 only), objects' keys compared for duplicates. Every reader
// returns false where encoding/json would fail or decode differently; the
// caller then gives the input to the precise path.

import (
	"bytes"
	"strconv"
	"unicode"
	"unicode/utf8"

	"github.com/evalkit-go/evalkit/internal/jsonx"
)

func (d *fastDec) peek() byte {
	if d.i < len(d.data) {
		return d.data[d.i]
	}
	return 0
}

func (d *fastDec) eat(c byte) bool {
	if d.i < len(d.data) && d.data[d.i] == c {
		d.i++
		return true
	}
	return false
}

func (d *fastDec) space() {
	for d.i < len(d.data) {
		switch d.data[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

// spaceThen skips white space and reports whether anything follows.
func (d *fastDec) spaceThen() bool {
	d.space()
	return d.i < len(d.data)
}

// members iterates over the members of the object at d.i, calling f with
// each key (unescaped keys are not read: they go to the precise path)
// with d.i at its value, which f must read. keys collects the keys seen,
// so that a key given twice, or two keys equal ignoring case, returns
// false. It returns false for anything but a well-formed object.
func (d *fastDec) members(keys *keySet, f func(key []byte) bool) bool {
	if !d.eat('{') {
		return false
	}
	d.space()
	if d.eat('}') {
		return true
	}
	for {
		key, ok := d.key()
		if !ok || !keys.add(key) {
			return false
		}
		d.space()
		if !d.eat(':') {
			return false
		}
		d.space()
		if !f(key) {
			return false
		}
		d.space()
		if d.eat('}') {
			return true
		}
		if !d.eat(',') {
			return false
		}
		d.space()
	}
}

// key reads an object key without escapes or control characters, valid
// UTF-8.
func (d *fastDec) key() ([]byte, bool) {
	if !d.eat('"') {
		return nil, false
	}
	start := d.i
	for d.i < len(d.data) {
		c := d.data[d.i]
		switch {
		case c == '"':
			key := d.data[start:d.i]
			d.i++
			return key, utf8.Valid(key)
		case c == '\\' || c < 0x20:
			return nil, false
		}
		d.i++
	}
	return nil, false
}

// keySet holds an object's keys, to find one given twice: the first
// len(small) compared one by one, the rest found in a map by their folded
// form, so that an object of a million keys costs a million lookups, not
// half a million million comparisons.
type keySet struct {
	small [16][]byte
	n     int
	more  map[string]struct{} // folded keys, once past small
}

// add records key, and returns false when it is already there, or is
// there ignoring case (encoding/json would read both into one field).
func (s *keySet) add(key []byte) bool {
	if s.n < len(s.small) {
		for i := range s.n {
			if bytes.EqualFold(s.small[i], key) {
				return false
			}
		}
		s.small[s.n] = key
		s.n++
		return true
	}
	if s.more == nil {
		s.more = make(map[string]struct{}, 2*len(s.small))
		for _, k := range s.small {
			s.more[foldKey(k)] = struct{}{}
		}
	}
	f := foldKey(key)
	if _, ok := s.more[f]; ok {
		return false
	}
	s.more[f] = struct{}{}
	s.n++
	return true
}

// foldKey is key with each rune replaced by the least rune that folds to
// it (unicode.SimpleFold's orbit): two valid UTF-8 keys are equal ignoring
// case, as bytes.EqualFold tells, exactly when their foldKeys are equal.
func foldKey(key []byte) string {
	b := make([]byte, 0, len(key))
	for i := 0; i < len(key); {
		c := key[i]
		if c < utf8.RuneSelf {
			if 'A' <= c && c <= 'Z' {
				c += 'a' - 'A'
			}
			b = append(b, c)
			i++
			continue
		}
		r, size := utf8.DecodeRune(key[i:])
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			least = min(least, f)
		}
		if 'A' <= least && least <= 'Z' { // K (Kelvin) reads k, as ASCII K does
			least += 'a' - 'A'
		}
		b = utf8.AppendRune(b, least)
		i += size
	}
	return string(b)
}

// foldsTo reports whether key equals one of names ignoring case (as
// encoding/json matches keys to fields): a key the fast path does not
// read under that exact name, or not at all.
func foldsTo(key []byte, names ...string) bool {
	for _, n := range names {
		if equalFold(key, n) {
			return true
		}
	}
	return false
}

// equalFold is bytes.EqualFold(key, []byte(name)) for an ASCII name,
// without converting it.
func equalFold(key []byte, name string) bool {
	if len(key) != len(name) {
		for _, c := range key {
			if c >= utf8.RuneSelf { // a rune that folds to ASCII (K, ſ) is longer
				return bytes.EqualFold(key, []byte(name))
			}
		}
		return false
	}
	for i, c := range key {
		n := name[i]
		if c == n {
			continue
		}
		if c >= utf8.RuneSelf {
			return bytes.EqualFold(key, []byte(name))
		}
		if c|0x20 != n|0x20 || c|0x20 < 'a' || c|0x20 > 'z' {
			return false
		}
	}
	return true
}

// null reads null if it is next.
func (d *fastDec) null() bool {
	if bytes.HasPrefix(d.data[d.i:], []byte("null")) {
		d.i += 4
		return true
	}
	return false
}

// str reads a JSON string as encoding/json decodes it, for strings that
// are valid UTF-8 and whose \u escapes are not surrogates (anything else
// returns false).
func (d *fastDec) str() (string, bool) {
	b, ok := d.strBytes()
	if !ok {
		return "", false
	}
	return string(b), true
}

// strBytes is str, returning bytes valid until the next read.
func (d *fastDec) strBytes() ([]byte, bool) {
	if !d.eat('"') {
		return nil, false
	}
	start := d.i
	for d.i < len(d.data) {
		c := d.data[d.i]
		switch {
		case c == '"':
			s := d.data[start:d.i]
			d.i++
			return s, utf8.Valid(s)
		case c == '\\':
			return d.unescape(start)
		case c < 0x20:
			return nil, false
		}
		d.i++
	}
	return nil, false
}

// unescape reads the rest of a string that has an escape at d.i, its text
// starting at start.
func (d *fastDec) unescape(start int) ([]byte, bool) {
	if !utf8.Valid(d.data[start:d.i]) {
		return nil, false
	}
	b, end, ok := jsonx.AppendStringRest(append(d.buf[:0], d.data[start:d.i]...), d.data, d.i)
	if !ok {
		return nil, false
	}
	d.i, d.buf = end, b
	return b, true
}

// nullableStr reads a string, or null as "".
func (d *fastDec) nullableStr() (string, bool) {
	if d.null() {
		return "", true
	}
	return d.str()
}

// number reads a JSON number's text.
func (d *fastDec) number() ([]byte, bool) {
	start := d.i
	d.eat('-')
	switch {
	case d.eat('0'):
	case d.i < len(d.data) && d.data[d.i] >= '1' && d.data[d.i] <= '9':
		d.digits()
	default:
		return nil, false
	}
	if d.eat('.') && !d.digits() {
		return nil, false
	}
	if d.eat('e') || d.eat('E') {
		if !d.eat('+') {
			d.eat('-')
		}
		if !d.digits() {
			return nil, false
		}
	}
	return d.data[start:d.i], true
}

// digits reads one digit or more.
func (d *fastDec) digits() bool {
	start := d.i
	for d.i < len(d.data) && d.data[d.i] >= '0' && d.data[d.i] <= '9' {
		d.i++
	}
	return d.i > start
}

// float reads a number as encoding/json decodes it into a float64.
func (d *fastDec) float() (float64, bool) {
	n, ok := d.number()
	if !ok {
		return 0, false
	}
	f, err := strconv.ParseFloat(string(n), 64)
	return f, err == nil
}

// skip reads any JSON value, checking it is well-formed, and returns its
// text.
func (d *fastDec) skip(depth int) ([]byte, bool) {
	start := d.i
	switch c := d.peek(); {
	case c == '"':
		if !d.skipString() {
			return nil, false
		}
	case c == '{':
		if depth >= maxFastDepth || !d.skipObject(depth) {
			return nil, false
		}
	case c == '[':
		if depth >= maxFastDepth {
			return nil, false
		}
		d.i++
		d.space()
		if !d.eat(']') {
			for {
				if _, ok := d.skip(depth + 1); !ok {
					return nil, false
				}
				d.space()
				if d.eat(']') {
					break
				}
				if !d.eat(',') {
					return nil, false
				}
				d.space()
			}
		}
	case c == '-' || c >= '0' && c <= '9':
		if _, ok := d.number(); !ok {
			return nil, false
		}
	case c == 't':
		if !bytes.HasPrefix(d.data[d.i:], []byte("true")) {
			return nil, false
		}
		d.i += 4
	case c == 'f':
		if !bytes.HasPrefix(d.data[d.i:], []byte("false")) {
			return nil, false
		}
		d.i += 5
	case c == 'n':
		if !d.null() {
			return nil, false
		}
	default:
		return nil, false
	}
	return d.data[start:d.i], true
}

// skipObject reads an object, checking it is well-formed. A key given
// twice, even in a value the fast path only skips (a call's arguments,
// metadata), is the precise path's to judge, and so is an escaped key:
// as members reads keys.
func (d *fastDec) skipObject(depth int) bool {
	var keys keySet
	return d.members(&keys, func([]byte) bool {
		_, ok := d.skip(depth + 1)
		return ok
	})
}

// skipString reads a string, checking its escapes; its bytes may be any
// but control characters, as for encoding/json.
func (d *fastDec) skipString() bool {
	if !d.eat('"') {
		return false
	}
	for d.i < len(d.data) {
		c := d.data[d.i]
		switch {
		case c == '"':
			d.i++
			return true
		case c < 0x20:
			return false
		case c == '\\':
			if d.i+1 >= len(d.data) {
				return false
			}
			switch d.data[d.i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				d.i += 2
			case 'u':
				if d.i+6 > len(d.data) {
					return false
				}
				if _, ok := jsonx.Hex4(d.data[d.i+2 : d.i+6]); !ok {
					return false
				}
				d.i += 6
			default:
				return false
			}
			continue
		}
		d.i++
	}
	return false
}

// copyOf returns a copy of b (a value the transcript keeps must not share
// the caller's buffer, as encoding/json's json.RawMessage does not).
func copyOf(b []byte) []byte { return append([]byte(nil), b...) }
