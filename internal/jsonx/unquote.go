package jsonx

import "unicode/utf8"

// AppendStringRest appends to b the text of the JSON string data holds
// from j (inside its quotes) up to its closing quote, escapes decoded, and
// returns b and the index just past that quote. It refuses (ok false)
// what the decoders' fast paths leave to encoding/json, whose errors and
// replacement rules are the precise ones: a control character, invalid
// UTF-8, a surrogate escape, an unknown escape, a string with no end.
func AppendStringRest(b, data []byte, j int) (out []byte, end int, ok bool) {
	for j < len(data) {
		c := data[j]
		switch {
		case c == '"':
			return b, j + 1, true
		case c < 0x20:
			return b, j, false
		case c != '\\':
			run := j
			for j < len(data) && data[j] != '"' && data[j] != '\\' && data[j] >= 0x20 {
				j++
			}
			if !utf8.Valid(data[run:j]) {
				return b, j, false
			}
			b = append(b, data[run:j]...)
			continue
		}
		if j+1 >= len(data) {
			return b, j, false
		}
		switch e := data[j+1]; e {
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
			if j+6 > len(data) {
				return b, j, false
			}
			r, ok := Hex4(data[j+2 : j+6])
			if !ok || (r >= 0xD800 && r < 0xE000) {
				return b, j, false // surrogates: encoding/json's rules
			}
			b = utf8.AppendRune(b, r)
			j += 6
			continue
		default:
			return b, j, false
		}
		j += 2
	}
	return b, j, false
}

// Hex4 reads the four hex digits of a \u escape.
func Hex4(h []byte) (rune, bool) {
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
