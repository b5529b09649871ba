package jsonx

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestJsonxExtract(t *testing.T) {
	tests := []struct {
		name  string
		text  string
		mode  Mode
		want  string // the JSON found, or "" for an error
		from  string
		error string // a substring of the error
	}{
		// Strict.
		{name: "object", text: ` {"a": 1} `, mode: Strict, want: `{"a": 1}`, from: "the whole text"},
		{name: "scalar", text: "42", mode: Strict, want: "42"},
		{name: "string scalar", text: `"hi"`, mode: Strict, want: `"hi"`},
		{name: "null", text: "null\n", mode: Strict, want: "null"},
		{name: "strict rejects fence", text: "```json\n{}\n```", mode: Strict,
			error: "invalid character '`' looking for beginning of value at line 1, column 1"},
		{name: "trailing text", text: `{"a": 1} done`, mode: Strict,
			error: "invalid character 'd' after top-level value at line 1, column 10"},
		{name: "cut off", text: `{"city": "Lyon", "forecast": "light rain until eve`, mode: Strict,
			error: "unexpected end of input (cut off?) at line 1, column 51"},
		{name: "empty", text: " \n ", mode: Strict, error: "the output is empty"},
		{name: "second line", text: "{\n  \"a\": tru\n}", mode: Strict,
			error: "invalid character '\\n' in literal true (expecting 'e') at line 2, column 11"},

		// Wrapped.
		{name: "C01a json fence wins over ts fence", mode: Wrapped,
			text: "Type used:\n```ts\nconst sample = { id: 7 };\n```\nAnswer:\n```json\n{\"status\": \"shipped\", \"items\": 2}\n```",
			want: `{"status": "shipped", "items": 2}`, from: "the ```json fence at line 6"},
		{name: "C01b one-line json fence", text: "```json {\"ok\": true}```", mode: Wrapped,
			want: `{"ok": true}`, from: "the ```json fence at line 1"},
		{name: "C01c python fence", text: "Run this:\n```python\nprint({'ok': 1})\n```", mode: Wrapped,
			error: "no JSON found: the only fence is tagged python"},
		{name: "whole text is JSON", text: "{\"a\": \"```json\\n{}\\n```\"}", mode: Wrapped, want: "{\"a\": \"```json\\n{}\\n```\"}"},
		{name: "scalar whole text", text: "true", mode: Wrapped, want: "true"},
		{name: "tag is case-insensitive", text: "```JSON\n[1, 2]\n```", mode: Wrapped, want: "[1, 2]", from: "the ```JSON fence at line 1"},
		{name: "jsonc tag", text: "```jsonc\n{}\n```", mode: Wrapped, want: "{}"},
		{name: "json fence holds a scalar", text: "```json\n\"yes\"\n```", mode: Wrapped, want: `"yes"`},
		{name: "tag glued to body", text: "```json{\"a\":1}```", mode: Wrapped, want: `{"a":1}`},
		{name: "body on the tag line", text: "```json {\"a\":\n 1}\n```", mode: Wrapped, want: "{\"a\":\n 1}"},
		{name: "untagged fence", text: "Here:\n```\n{\"a\": 1}\n```\nbye", mode: Wrapped, want: `{"a": 1}`, from: "the untagged fence at line 2"},
		{name: "untagged one-line fence", text: "```{\"a\":1}```", mode: Wrapped, want: `{"a":1}`},
		{name: "sloppy closing", text: "```json\n{\"a\": 1}```\nthanks", mode: Wrapped, want: `{"a": 1}`},
		{name: "info string after the tag", text: "```json title=out\n{\"a\": 1}\n```", mode: Wrapped, want: `{"a": 1}`},
		{name: "backticks inside a JSON string", text: "```json\n{\"code\": \"```go x```y\"}\n```", mode: Wrapped, want: "{\"code\": \"```go x```y\"}"},
		{name: "longer fence", text: "````json\n{\"a\": \"```\"}\n````", mode: Wrapped, want: "{\"a\": \"```\"}"},
		{name: "indented fence", text: "Answer:\n  ```json\n  {\"a\": 1}\n  ```", mode: Wrapped, want: `{"a": 1}`},
		{name: "first valid json fence", text: "```json\n{\"a\": 1}\n```\n```json\n{\"b\": 2}\n```", mode: Wrapped, want: `{"a": 1}`},
		{name: "untagged scalar is not JSON", text: "```\n404\n```", mode: Wrapped,
			error: "no JSON found: the untagged fence at line 1 does not hold a JSON object or array"},
		{name: "untagged shell output", text: "```\n$ ls\n```", mode: Wrapped,
			error: "the untagged fence at line 1 does not hold a JSON object or array"},
		{name: "invalid json fence is the answer", text: "```json\n{\"a\": 1,}\n```\n```\n{\"b\": 2}\n```", mode: Wrapped,
			error: "the ```json fence at line 1 is not valid JSON: invalid character '}' looking for beginning of object key string at line 2, column 9"},
		{name: "cut-off json fence", text: "```json\n{\"city\": \"Ly", mode: Wrapped,
			error: "the ```json fence at line 1 is not valid JSON: unexpected end of input (cut off?) at line 2, column 13 (the fence is never closed)"},
		{name: "empty json fence", text: "```json\n```", mode: Wrapped, error: "the ```json fence at line 1 is empty"},
		{name: "several other fences", text: "```ts\nx\n```\n```python\ny\n```\n```ts\nz\n```", mode: Wrapped,
			error: "no JSON found: the fences tagged ts, python are not JSON"},
		{name: "no fence", text: "Sure! The answer is 42.", mode: Wrapped,
			error: "no JSON found: the text is not JSON (invalid character 'S' looking for beginning of value at line 1, column 1); there is no code fence"},
		{name: "wrapped does not read prose", text: `The result: {"a": 1}`, mode: Wrapped, error: "there is no code fence"},

		// The first json fence is the answer, even when a later one parses.
		{name: "broken json fence is not replaced by a later one", text: "```json\n{\"a\": 1,}\n```\nFixed:\n```json\n{\"a\": 1}\n```", mode: Wrapped,
			error: "the ```json fence at line 1 is not valid JSON: invalid character '}' looking for beginning of object key string at line 2, column 9"},
		{name: "broken json fence, prose mode", text: "```json\n{\"a\": \n```\n```json\n{\"a\": 1}\n```\nor {\"a\": 2}", mode: Prose,
			error: "the ```json fence at line 1 is not valid JSON"},

		// Tilde fences (CommonMark).
		{name: "tilde json fence", text: "Answer:\n~~~json\n{\"a\": 1}\n~~~", mode: Wrapped, want: `{"a": 1}`, from: "the ~~~json fence at line 2"},
		{name: "untagged tilde fence", text: "~~~\n[1, 2]\n~~~\nbye", mode: Wrapped, want: "[1, 2]", from: "the untagged fence at line 1"},
		{name: "longer tilde fence holds tildes", text: "~~~~json\n{\"a\": \"~~~\"}\n~~~~", mode: Wrapped, want: `{"a": "~~~"}`},
		{name: "tilde fence holds backticks", text: "~~~json\n{\"a\": \"```\"}\n```\n~~~", mode: Wrapped,
			error: "the ~~~json fence at line 1 is not valid JSON"},
		{name: "backtick fence not closed by tildes", text: "```json\n{\"a\": 1}\n~~~\n```", mode: Wrapped,
			error: "the ```json fence at line 1 is not valid JSON"},
		{name: "indented tilde fence", text: "Answer:\n  ~~~json\n  {\"a\": 1}\n  ~~~", mode: Wrapped, want: `{"a": 1}`},
		{name: "tildes mid-line are prose", text: "Well~~~json {\"a\": 1}~~~", mode: Wrapped, error: "there is no code fence"},
		{name: "tilde python fence", text: "~~~python\nprint({'ok': 1})\n~~~", mode: Prose,
			error: "no JSON found: the only fence is tagged python; there is no JSON object or array outside the fences"},

		// Strict trims Unicode white space around the value, nothing inside it.
		{name: "NBSP and ideographic space around", text: "\u00a0{\"a\": 1}\u3000\n", mode: Strict, want: `{"a": 1}`},
		{name: "NEL and line separator around", text: "\u0085[1]\u2028", mode: Strict, want: "[1]"},
		{name: "NBSP inside is not JSON", text: "{\"a\":\u00a01}", mode: Strict, error: "invalid character"},
		{name: "byte order mark is not white space", text: "\ufeff{\"a\": 1}", mode: Strict, error: "invalid character '\\ufeff' looking for beginning of value at line 1, column 1"},
		{name: "zero-width space is not white space", text: "\u200b{}", mode: Strict, error: "looking for beginning of value at line 1, column 1"},

		// Prose.
		{name: "object in prose", text: `Sure! The result is {"a": [1, {"b": "}"}]} as asked.`, mode: Prose,
			want: `{"a": [1, {"b": "}"}]}`, from: "the text at line 1, column 21"},
		{name: "array in prose", text: "Items:\n[1, 2, 3]\nDone.", mode: Prose, want: "[1, 2, 3]", from: "the text at line 2, column 1"},
		{name: "fence preferred to prose", text: "Draft {\"a\": 1}\n```json\n{\"b\": 2}\n```", mode: Prose, want: `{"b": 2}`},
		{name: "brace junk before the object", text: `Use {name} or {{x}} then {"name": "Ann"}`, mode: Prose, want: `{"name": "Ann"}`},
		{name: "invalid candidate before the object", text: `{"a" 1} then {"b": 2}`, mode: Prose, want: `{"b": 2}`},
		{name: "nested object found whole", text: `x {"a": {"b": 1}} y`, mode: Prose, want: `{"a": {"b": 1}}`},
		{name: "scalars in prose are not JSON", text: "The answer is 42 and true.", mode: Prose,
			error: "no JSON found: the text is not JSON (invalid character 'T' looking for beginning of value at line 1, column 1); there is no JSON object or array in it"},
		{name: "C01c in prose mode", text: "Run this:\n```python\nprint({'ok': 1})\n```", mode: Prose,
			error: "no JSON found: the only fence is tagged python; there is no JSON object or array outside the fences"},
		{name: "JSON inside another language's fence is skipped", text: "```python\nx = {\"a\": 1}\n```\nno json here", mode: Prose,
			error: "no JSON found: the only fence is tagged python"},
		{name: "JSON after another language's fence", text: "```ts\nconst a = {\"x\": 1}\n```\nResult: {\"b\": 2}", mode: Prose, want: `{"b": 2}`},
		{name: "cut off in prose", text: `Here it is: {"city": "Lyon", "forecast": "light rain until eve`, mode: Prose,
			error: "no JSON found: the object starting at line 1, column 13 is not valid JSON: unexpected end of input (cut off?) at line 1, column 63"},
		{name: "unquoted keys in prose", text: "Result: {a: 1}", mode: Prose,
			error: "no JSON found: the text is not JSON (invalid character 'R' looking for beginning of value at line 1, column 1); there is no JSON object or array in it"},
		{name: "bad candidate reported", text: `Result: {"a": 1 "b": 2}`, mode: Prose,
			error: "no JSON found: the object starting at line 1, column 9 is not valid JSON: invalid character '\"' after object key:value pair at line 1, column 17"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Extract(tt.text, tt.mode)
			if tt.error != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.error)
				var e *Error
				require.True(t, errors.As(err, &e), "want an *Error, got %T", err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(got.JSON))
			assert.True(t, json.Valid(got.JSON))
			if tt.from != "" {
				assert.Equal(t, tt.from, got.From)
			}
		})
	}
}

func TestJsonxExtractCutOffFlag(t *testing.T) {
	for _, mode := range []Mode{Strict, Wrapped, Prose} {
		_, err := Extract(`{"city": "Lyon", "forecast": "light rain until eve`, mode)
		var e *Error
		require.True(t, errors.As(err, &e))
		assert.True(t, e.CutOff, "mode %v: %v", mode, err)
	}
	_, err := Extract(`{"a": 1}}`, Strict)
	var e *Error
	require.True(t, errors.As(err, &e))
	assert.False(t, e.CutOff)
}

// hostileInputs are 20 MiB texts built to make a JSON search slow:
// unclosed brackets, fences, quotes and keys at every byte.
func hostileInputs() map[string]string {
	const size = 20 << 20
	return map[string]string{
		"A":             strings.Repeat("A", size),
		"{":             strings.Repeat("{", size),
		"[":             strings.Repeat("[", size),
		"backtick":      strings.Repeat("`", size),
		"fences":        strings.Repeat("```\n", size/4),
		"open fences":   strings.Repeat("``` ", size/4),
		"quotes":        strings.Repeat(`{"`, size/2),
		"keys":          strings.Repeat(`{"a":`, size/5),
		"image in text": "Total due: 42.00 EUR. data:image/png;base64," + strings.Repeat("A", size),
		"tildes":        strings.Repeat("~", size),
		"tilde fences":  strings.Repeat("~~~\n", size/4),
		"tildes inline": strings.Repeat("~~~ ", size/4),
		"long tag":      "```" + strings.Repeat("t", size),
		"many tags":     strings.Repeat("```a\nx\n```\n```b\nx\n```\n", 400) + "```" + strings.Repeat("c", 1<<20) + "\nx\n```",
	}
}

// TestJsonxExtractHostile checks that hostile output is answered with a
// bounded message in every mode. Its cost is measured by
// BenchmarkExtractHostile, not timed here: quadratic behaviour on these
// 20 MiB inputs would run for hours and trip go test's timeout.
func TestJsonxExtractHostile(t *testing.T) {
	for name, text := range hostileInputs() {
		for _, mode := range []Mode{Strict, Wrapped, Prose} {
			t.Run(name+"/"+mode.String(), func(t *testing.T) {
				_, err := Extract(text, mode)
				require.Error(t, err)
				assert.Less(t, len(err.Error()), 1000, "the message must stay bounded")
			})
		}
	}
}

// BenchmarkExtractHostile measures Extract on each hostile input in Prose
// mode, the one that reads the most, against the baseline of a byte loop
// over the same text (json.Valid would stop at the first bad byte): the
// search should stay within a constant factor of one pass.
func BenchmarkExtractHostile(b *testing.B) {
	inputs := hostileInputs()
	names := make([]string, 0, len(inputs))
	for name := range inputs {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		text := inputs[name]
		b.Run(name+"/baseline=byte-loop", func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				n := 0
				for i := 0; i < len(text); i++ {
					if text[i] == '{' || text[i] == '`' {
						n++
					}
				}
				_ = n
			}
		})
		b.Run(name+"/Extract", func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				_, _ = Extract(text, Prose)
			}
		})
	}
}

func TestJsonxExtractGivesUp(t *testing.T) {
	_, err := Extract(strings.Repeat("[", 20<<20), Prose)
	var e *Error
	require.True(t, errors.As(err, &e))
	assert.True(t, e.GaveUp, "%v", err)
	assert.Contains(t, err.Error(), "gave up")
}

func TestJsonxScanValueMatchesEncodingJSON(t *testing.T) {
	for _, s := range scanSeeds {
		checkScan(t, s)
	}
}

func FuzzScanValue(f *testing.F) {
	for _, s := range scanSeeds {
		f.Add(s)
	}
	f.Fuzz(checkScan)
}

var scanSeeds = []string{
	`{}`, `[]`, `{"a":1}`, `[1,2,3]`, `{"a":[true,false,null]}`, `{"a":"\u00e9\n"}`,
	`[-0.5e+10, 0, 1E3]`, `[01]`, `[1.]`, `[1e]`, `[-]`, `{"a" 1}`, `{"a":1,}`, `[1,]`,
	`{"a":"x`, `["\x"]`, "[\"\x01\"]", `[tru]`, `[nul]`, `{"a":{"b":{"c":[[]]}}}`, `{} x`,
	`[1] [2]`, `{"a":1}}`, " [ 1 , 2 ] ", `"str"`, `12`, `["\uZZZZ"]`, `{,}`, `[,1]`,
}

// checkScan holds scanValue to encoding/json: from every '{' or '[' of s,
// a value scanValue accepts is valid JSON, and a valid JSON value is what
// scanValue reads.
func checkScan(t *testing.T, s string) {
	for i := 0; i < len(s); i++ {
		if s[i] != '{' && s[i] != '[' {
			continue
		}
		end, ok := scanValue(s, i)
		if end < i || end > len(s) {
			t.Fatalf("scanValue(%q, %d) = %d: out of range", s, i, end)
		}
		if ok && !json.Valid([]byte(s[i:end])) {
			t.Fatalf("scanValue(%q, %d) accepted %q, which encoding/json rejects", s, i, s[i:end])
		}
		if !ok && json.Valid([]byte(s[i:])) {
			t.Fatalf("scanValue(%q, %d) rejected valid JSON", s, i)
		}
		if ok {
			var v json.RawMessage
			dec := json.NewDecoder(strings.NewReader(s[i:]))
			if err := dec.Decode(&v); err != nil || int(dec.InputOffset()) != end-i {
				t.Fatalf("scanValue(%q, %d) = %d, encoding/json read %d (%v)", s, i, end, dec.InputOffset(), err)
			}
		}
	}
}

func TestJsonxPosition(t *testing.T) {
	assert.Equal(t, "line 1, column 1", Position("abc", 0))
	assert.Equal(t, "line 2, column 3", Position("ab\ncd", 5))
	assert.Equal(t, "line 1, column 3", Position("éé x", 4))
	assert.Equal(t, "line 1, column 4", Position("abc", 99))
}

func TestJsonxExtractTooManyFences(t *testing.T) {
	_, err := Extract(strings.Repeat("```ts\nx\n```\n", maxFences+1), Wrapped)
	var e *Error
	require.True(t, errors.As(err, &e))
	assert.True(t, e.GaveUp)
	assert.Equal(t, "no JSON found: gave up after 1000 code fences", err.Error())

	found, err := Extract(strings.Repeat("```ts\nx\n```\n", maxFences-1)+"```json\n{}\n```", Wrapped)
	require.NoError(t, err)
	assert.Equal(t, "{}", string(found.JSON))
}

// FuzzExtract checks that Extract never panics and that what it returns is
// valid JSON taken from the text.
func FuzzExtract(f *testing.F) {
	for _, s := range []string{c01aSeed, "```json {\"ok\": true}```", "~~~json\n{}\n~~~", "~~~\n```json\n[1]\n```\n~~~", "Run:\n```python\nprint({'ok': 1})\n```",
		`Sure: {"a": [1, "}"]} ok`, "```\n[1]\n```", `{"city": "Ly`, "[[[", "{{{", "``````"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		_, err := Extract(text, Strict)
		if valid := json.Valid([]byte(strings.TrimSpace(text))); valid != (err == nil) {
			t.Fatalf("Extract(%q, Strict): %v; json.Valid says %v", text, err, valid)
		}
		if err != nil && !strings.Contains(err.Error(), " at line ") && err.Error() != "the output is empty" {
			t.Fatalf("Extract(%q, Strict): %q has no position", text, err)
		}
		for _, mode := range []Mode{Strict, Wrapped, Prose} {
			found, err := Extract(text, mode)
			if err != nil {
				var e *Error
				if !errors.As(err, &e) {
					t.Fatalf("error %T, want *Error", err)
				}
				continue
			}
			if !json.Valid(found.JSON) || !strings.Contains(text, string(found.JSON)) || found.From == "" {
				t.Fatalf("Extract(%q, %v) = %q from %q", text, mode, found.JSON, found.From)
			}
		}
	})
}

const c01aSeed = "Type used:\n```ts\nconst sample = { id: 7 };\n```\nAnswer:\n```json\n{\"status\": \"shipped\", \"items\": 2}\n```"

// A syntax error at a letter of more than one byte quotes that letter, as
// the text has it, not the byte encoding/json read ('Ä' for the first
// byte of 'İ').
func TestSyntaxErrorQuotesTheCharacter(t *testing.T) {
	_, err := Extract("İİ ERROR: not JSON", Strict)
	if err == nil || !strings.Contains(err.Error(), "invalid character 'İ' looking for beginning of value at line 1, column 1") {
		t.Fatalf("got %v", err)
	}
}
