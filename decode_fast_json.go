package evalkit

// The JSON reader of Decode's fast path (decode_fast.go): strict RFC 8259
// syntax, strings as encoding/json decodes them (escapes but surrogates,
// valid UTF-8 only), objects' keys compared for duplicates. Every reader
// returns false where encoding/json would fail or decode differently; the
// caller then gives the input to the precise path.

import (
	"bytes"
	"strconv"
	"unicode/utf8"
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

// keySet holds an object's keys, to find one given twice.
type keySet struct {
	small [16][]byte
	n     int
	more  [][]byte
}

// add records key, and returns false when it is already there, or is
// there ignoring case (encoding/json would read both into one field).
func (s *keySet) add(key []byte) bool {
	for i := range min(s.n, len(s.small)) {
		if bytes.EqualFold(s.small[i], key) {
			return false
		}
	}
	for _, k := range s.more {
		if bytes.EqualFold(k, key) {
			return false
		}
	}
	if s.n < len(s.small) {
		s.small[s.n] = key
	} else {
		s.more = append(s.more, key)
	}
	s.n++
	return true
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
	b := append(d.buf[:0], d.data[start:d.i]...)
	for d.i < len(d.data) {
		c := d.data[d.i]
		switch {
		case c == '"':
			d.i++
			d.buf = b
			return b, true
		case c < 0x20:
			return nil, false
		case c != '\\':
			run := d.i
			for d.i < len(d.data) && d.data[d.i] != '"' && d.data[d.i] != '\\' && d.data[d.i] >= 0x20 {
				d.i++
			}
			if !utf8.Valid(d.data[run:d.i]) {
				return nil, false
			}
			b = append(b, d.data[run:d.i]...)
			continue
		}
		if d.i+1 >= len(d.data) {
			return nil, false
		}
		switch e := d.data[d.i+1]; e {
		case '"', '\\', '/':
			b = append(b, e)
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			if d.i+6 > len(d.data) {
				return nil, false
			}
			r, ok := hex4(d.data[d.i+2 : d.i+6])
			if !ok || (r >= 0xD800 && r < 0xE000) {
				return nil, false // surrogates: left to encoding/json's rules
			}
			b = utf8.AppendRune(b, rune(r))
			d.i += 6
			continue
		default:
			return nil, false
		}
		d.i += 2
	}
	return nil, false
}

// hex4 reads the four hex digits of a \u escape.
func hex4(h []byte) (rune, bool) {
	var r rune
	for _, c := range h {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
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
	case c == '{' || c == '[':
		if depth >= maxFastDepth {
			return nil, false
		}
		d.i++
		d.space()
		end := byte('}')
		if c == '[' {
			end = ']'
		}
		if !d.eat(end) {
			for {
				if c == '{' {
					if !d.skipString() {
						return nil, false
					}
					d.space()
					if !d.eat(':') {
						return nil, false
					}
					d.space()
				}
				if _, ok := d.skip(depth + 1); !ok {
					return nil, false
				}
				d.space()
				if d.eat(end) {
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
				if _, ok := hex4(d.data[d.i+2 : d.i+6]); !ok {
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
