package assert

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/evalkit-go/evalkit/internal/jsonx"
)

// Parse once: the JSON checks of one output (json_path ×10, a schema,
// field_presence, equals on JSON) share what they make of its text — where
// its JSON is, and that JSON decoded — through a small process-wide cache
// keyed by the text itself and the extraction mode.
//
// Why it is correct: the key is the text's content, not the transcript or
// the message, so nothing about the transcript needs to stay put. A Go
// string never changes, so an entry can never describe other text than its
// key; a message given new content has a new key. What the cache holds is
// shared by the checks that read it and is never written: JMESPath
// evaluation reads its data (internal/query sorts a copy where the
// library's sort_by would sort in place), the schema validator reads its
// document, and results are built from new values.
//
// Memory: at most maxParsedEntries texts and maxParsedBytes of text (a
// decoded tree is a few times its text); a text longer than that budget is
// parsed and not kept. Eviction is first in, first out: the checks of one
// output run one after another, so the entry they share is the newest.
// Safe for concurrent use: parallel tests share the cache, and an entry is
// decoded once even when two checks ask for it at the same moment.
const (
	maxParsedEntries = 64
	maxParsedBytes   = 4 << 20
)

// parsedKey is what a parse is cached under.
type parsedKey struct {
	text string
	mode jsonx.Mode
}

// parsed is one output text read in one mode.
type parsed struct {
	found jsonx.Found
	err   error // jsonx.Extract's: no JSON found

	plainOnce sync.Once
	plain     any // numbers as float64, for JMESPath (query.SearchDecoded)
	plainErr  error
	// Set by Plain when its quick decoder read the JSON: then no key
	// is given twice (that decoder refuses one) and plainShort is
	// ShortNumbers, so Conflict and ShortNumbers need no scan of their
	// own. plainDone is stored last, so a reader that loads true sees both.
	plainQuick, plainShort bool
	plainDone              atomic.Bool

	exactOnce sync.Once
	exact     any // numbers as json.Number, for JSON Schema
	exactErr  error

	shortOnce sync.Once
	short     bool // see ShortNumbers

	conflictOnce sync.Once
	conflict     error // see Conflict
}

// Conflict returns the *jsonx.ConflictError of a key the JSON gives twice
// in one object with different values, or nil. Which value the output
// means cannot be told (encoding/json keeps the last, other readers the
// first), so a check that reads it has no answer. One scan of the JSON,
// once per text.
func (p *parsed) Conflict() error {
	p.conflictOnce.Do(func() {
		if p.plainDone.Load() && p.plainQuick {
			return // decoded by quickJSON, which refuses a key given twice
		}
		p.conflict = jsonx.Conflicts(p.found.JSON)
	})
	return p.conflict
}

// Plain returns the JSON decoded as json.Unmarshal decodes into an any:
// numbers as float64, the shape JMESPath reads. It must not be modified.
func (p *parsed) Plain() (any, error) {
	p.plainOnce.Do(func() {
		if v, short, ok := quickPlainJSONShort(p.found.JSON); ok {
			p.plain, p.plainQuick, p.plainShort = v, true, short
		} else {
			p.plain, p.plainErr = slowDecodeJSON(p.found.JSON)
		}
		p.plainDone.Store(true)
	})
	return p.plain, p.plainErr
}

// Exact returns the JSON decoded as the schema validator reads it:
// numbers as json.Number, keeping every digit. It must not be modified.
func (p *parsed) Exact() (any, error) {
	p.exactOnce.Do(func() {
		p.exact, p.exactErr = jsonschema.UnmarshalJSON(bytes.NewReader(p.found.JSON))
		if p.exactErr != nil {
			p.exactErr = fmt.Errorf("decoding JSON: %w", p.exactErr)
		}
	})
	return p.exact, p.exactErr
}

// ShortNumbers reports whether every number in the JSON is written with
// at most 15 significant digits and a modest exponent: then Plain's
// float64 for it is the number as written, and the schema validator,
// which reads every number as the big.Rat of its %v text, judges Plain
// exactly as it judges Exact. A float64 holds any decimal of 15
// significant digits exactly enough that its shortest text (what %v
// writes) is that decimal: "19.99" stays 19.99, while
// "9007199254740993" (16 digits) would read as ...992 and
// "3.0000000000000001" as the integer 3.
func (p *parsed) ShortNumbers() bool {
	p.shortOnce.Do(func() {
		if p.plainDone.Load() && p.plainQuick {
			p.short = p.plainShort
			return
		}
		p.short = shortNumbers(p.found.JSON)
	})
	return p.short
}

// shortNumbers scans valid JSON for a number with more than 15
// significant digits, or whose magnitude is beyond 10^±290 (which a
// float64 holds inexactly, as a subnormal, or not at all).
func shortNumbers(js []byte) bool {
	for i := 0; i < len(js); i++ {
		switch c := js[i]; {
		case c == '"':
			for i++; i < len(js) && js[i] != '"'; i++ {
				if js[i] == '\\' {
					i++
				}
			}
		case c == '-' || '0' <= c && c <= '9':
			n, short := shortNumber(js[i:])
			if !short {
				return false
			}
			i += n - 1 // the loop's i++ reads the byte after the number
		}
	}
	return true
}

// shortNumber reads the number at the start of js (valid JSON's number
// grammar) and reports how many bytes it takes, and whether it is short
// as ShortNumbers means: at most 15 significant digits, and its first
// significant digit's power of ten within ±290.
func shortNumber(js []byte) (n int, short bool) {
	i := 0
	digit := func(i int) bool { return i < len(js) && '0' <= js[i] && js[i] <= '9' }
	if i < len(js) && js[i] == '-' {
		i++
	}
	sig, intSig, fracZeros := 0, 0, 0 // significant digits; of them, before the point; zeros after the point before them
	frac := false
	for ; digit(i) || i < len(js) && js[i] == '.'; i++ {
		switch {
		case js[i] == '.':
			frac = true
		case js[i] == '0' && sig == 0:
			if frac {
				fracZeros++
			}
		default:
			sig++
			if !frac {
				intSig++
			}
		}
	}
	exp := 0
	if i < len(js) && (js[i] == 'e' || js[i] == 'E') {
		i++
		neg := i < len(js) && js[i] == '-'
		if i < len(js) && (js[i] == '-' || js[i] == '+') {
			i++
		}
		for ; digit(i); i++ {
			if exp = exp*10 + int(js[i]-'0'); exp > 1000 {
				return i, false
			}
		}
		if neg {
			exp = -exp
		}
	}
	if sig > 15 {
		return i, false
	}
	if sig > 0 {
		mag := exp + intSig - 1 // the power of ten of the first significant digit
		if intSig == 0 {
			mag = exp - fracZeros - 1
		}
		if mag > 290 || mag < -290 {
			return i, false
		}
	}
	return i, true
}

var parseCache struct {
	sync.Mutex
	m     map[parsedKey]*parsed
	ring  [maxParsedEntries]parsedKey // the keys in m, oldest at head
	head  int
	n     int
	bytes int // of the texts in m

	// The entry found or added last, and its key: the checks of one
	// output ask for it one after another, and comparing a key with the
	// same string is a pointer comparison, where a map lookup hashes the
	// whole text.
	lastKey parsedKey
	last    *parsed
}

// parseOutput returns what text holds in mode, from the cache when it has
// been read before.
func parseOutput(text string, mode jsonx.Mode) *parsed {
	if len(text) > maxParsedBytes {
		return extractParsed(text, mode)
	}
	k := parsedKey{text, mode}
	c := &parseCache
	c.Lock()
	if c.last != nil && c.lastKey == k {
		p := c.last
		c.Unlock()
		return p
	}
	if p, ok := c.m[k]; ok {
		c.lastKey, c.last = k, p
		c.Unlock()
		return p
	}
	// Extract under the lock would serialize parallel tests; extract
	// outside it, and keep whichever entry lands first.
	c.Unlock()
	p := extractParsed(text, mode)
	c.Lock()
	defer c.Unlock()
	if old, ok := c.m[k]; ok {
		c.lastKey, c.last = k, old
		return old
	}
	if c.m == nil {
		c.m = make(map[parsedKey]*parsed, maxParsedEntries)
	}
	for c.n > 0 && (c.n == maxParsedEntries || c.bytes+len(text) > maxParsedBytes) {
		oldest := c.ring[c.head]
		c.ring[c.head] = parsedKey{} // let the text go
		c.head = (c.head + 1) % maxParsedEntries
		c.n--
		delete(c.m, oldest)
		c.bytes -= len(oldest.text)
		if c.last != nil && c.lastKey == oldest {
			c.lastKey, c.last = parsedKey{}, nil
		}
	}
	c.m[k] = p
	c.lastKey, c.last = k, p
	c.ring[(c.head+c.n)%maxParsedEntries] = k
	c.n++
	c.bytes += len(text)
	return p
}

func extractParsed(text string, mode jsonx.Mode) *parsed {
	found, err := jsonx.Extract(text, mode)
	return &parsed{found: found, err: err}
}

// decodeJSON decodes found JSON with numbers as float64, as JMESPath needs:
// the result is in query.Normalize's shape, for Query.SearchDecoded.
func decodeJSON(raw json.RawMessage) (any, error) {
	if v, ok := quickPlainJSON(raw); ok {
		return v, nil
	}
	return slowDecodeJSON(raw)
}

// slowDecodeJSON is decodeJSON by encoding/json, for what quickPlainJSON leaves.
func slowDecodeJSON(raw json.RawMessage) (any, error) {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, fmt.Errorf("decoding JSON: %w", err)
	}
	return v, nil
}
