package jsonx

// maxDepth is the deepest nesting scanValue accepts, the same limit
// encoding/json applies, so a value scanValue accepts also decodes.
const maxDepth = 10000

// scanValue reads one JSON value (RFC 8259) starting at s[i], which must not
// be whitespace, and returns the offset just past it. When s[i:] does not
// start with a complete JSON value, ok is false and end is the offset of the
// first byte that cannot continue a value (len(s) when the text ends first),
// so a caller scanning prose stops reading junk as soon as it is junk.
//
// It does not check UTF-8, as encoding/json's Valid does not.
func scanValue(s string, i int) (end int, ok bool) {
	// stack holds the open containers: '{' or '['.
	var stack []byte
	for {
		// Expect a value at s[i].
		i = skipSpace(s, i)
		if i >= len(s) {
			return len(s), false
		}
		switch c := s[i]; {
		case c == '{' || c == '[':
			if len(stack) >= maxDepth {
				return i, false
			}
			stack = append(stack, c)
			i = skipSpace(s, i+1)
			if i >= len(s) {
				return len(s), false
			}
			if c == '{' {
				if s[i] == '}' {
					stack = stack[:len(stack)-1]
					i++
					break
				}
				if i, ok = scanKey(s, i); !ok {
					return i, false
				}
				continue
			}
			if s[i] == ']' {
				stack = stack[:len(stack)-1]
				i++
				break
			}
			continue
		case c == '"':
			if i, ok = scanString(s, i); !ok {
				return i, false
			}
		case c == '-' || ('0' <= c && c <= '9'):
			if i, ok = scanNumber(s, i); !ok {
				return i, false
			}
		case c == 't':
			if i, ok = scanWord(s, i, "true"); !ok {
				return i, false
			}
		case c == 'f':
			if i, ok = scanWord(s, i, "false"); !ok {
				return i, false
			}
		case c == 'n':
			if i, ok = scanWord(s, i, "null"); !ok {
				return i, false
			}
		default:
			return i, false
		}
		// A value ended at i: close containers or move to the next element.
		for {
			if len(stack) == 0 {
				return i, true
			}
			i = skipSpace(s, i)
			if i >= len(s) {
				return len(s), false
			}
			top := stack[len(stack)-1]
			switch {
			case s[i] == ',' && top == '{':
				if i, ok = scanKey(s, skipSpace(s, i+1)); !ok {
					return i, false
				}
			case s[i] == ',':
				i++
			case (s[i] == '}' && top == '{') || (s[i] == ']' && top == '['):
				stack = stack[:len(stack)-1]
				i++
				continue
			default:
				return i, false
			}
			break
		}
	}
}

// scanKey reads `"key" :` at s[i] and returns the offset after the colon.
func scanKey(s string, i int) (int, bool) {
	if i >= len(s) {
		return len(s), false
	}
	if s[i] != '"' {
		return i, false
	}
	i, ok := scanString(s, i)
	if !ok {
		return i, false
	}
	i = skipSpace(s, i)
	if i >= len(s) {
		return len(s), false
	}
	if s[i] != ':' {
		return i, false
	}
	return i + 1, true
}

func scanString(s string, i int) (int, bool) {
	for i++; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"':
			return i + 1, true
		case c < 0x20:
			return i, false
		case c == '\\':
			i++
			if i >= len(s) {
				return len(s), false
			}
			switch s[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				for k := 0; k < 4; k++ {
					i++
					if i >= len(s) {
						return len(s), false
					}
					if !isHex(s[i]) {
						return i, false
					}
				}
			default:
				return i, false
			}
		}
	}
	return len(s), false
}

func scanNumber(s string, i int) (int, bool) {
	if s[i] == '-' {
		i++
	}
	switch {
	case i >= len(s):
		return len(s), false
	case s[i] == '0':
		i++
	case '1' <= s[i] && s[i] <= '9':
		i = skipDigits(s, i)
	default:
		return i, false
	}
	if i < len(s) && s[i] == '.' {
		i++
		j := skipDigits(s, i)
		if j == i {
			return min(j, len(s)), false
		}
		i = j
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		j := skipDigits(s, i)
		if j == i {
			return min(j, len(s)), false
		}
		i = j
	}
	return i, true
}

func scanWord(s string, i int, word string) (int, bool) {
	for k := 0; k < len(word); k++ {
		if i+k >= len(s) {
			return len(s), false
		}
		if s[i+k] != word[k] {
			return i + k, false
		}
	}
	return i + len(word), true
}

func skipDigits(s string, i int) int {
	for i < len(s) && '0' <= s[i] && s[i] <= '9' {
		i++
	}
	return i
}

func skipSpace(s string, i int) int {
	for i < len(s) && isSpace(s[i]) {
		i++
	}
	return i
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isHex(c byte) bool {
	return ('0' <= c && c <= '9') || ('a' <= c && c <= 'f') || ('A' <= c && c <= 'F')
}
