package jsonx

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fenceWant is what a test expects of one fence: its tag, body, whether it
// is closed and whether it opened mid-line.
type fenceWant struct {
	tag, body       string
	closed, midLine bool
}

func TestJsonxFences(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []fenceWant
	}{
		{"fence", "a\n```ts\nx\n```\nb", []fenceWant{{"ts", "x\n", true, false}}},
		{"untagged", "```\n{}\n```", []fenceWant{{"", "{}\n", true, false}}},
		{"info string after the tag", "```json title=out\n{}\n```", []fenceWant{{"json", "{}\n", true, false}}},
		{"tildes", "~~~python\nx\n~~~", []fenceWant{{"python", "x\n", true, false}}},
		{"indented three spaces", "   ```go\nx\n   ```", []fenceWant{{"go", "x\n   ", true, false}}},
		{"indented in a list item", "1. Run:\n\n      ```sh\n      ls\n      ```\n2. Done", []fenceWant{{"sh", "      ls\n      ", true, false}}},
		{"indented with a tab", "\t```\nx\n\t```", []fenceWant{{"", "x\n\t", true, false}}},
		{"CRLF", "```json\r\n{}\r\n```\r\nok", []fenceWant{{"json", "{}\r\n", true, false}}},
		{"never closed", "```python\nx = 1\nRating: [[8]]", []fenceWant{{"python", "x = 1\nRating: [[8]]", false, false}}},
		{"a longer closing run", "```\nx\n`````", []fenceWant{{"", "x\n", true, false}}},
		{"a shorter run does not close", "````md\n```py\nx\n```\n````", []fenceWant{{"md", "```py\nx\n```\n", true, false}}},
		{"tildes do not close backticks", "```\nx\n~~~\n```", []fenceWant{{"", "x\n~~~\n", true, false}}},
		{"a run with an info string does not close", "```\nx\n```python\ny\n```", []fenceWant{{"", "x\n```python\ny\n", true, false}}},
		{"two fences", "```a\n1\n```\ntext\n~~~b\n2\n~~~", []fenceWant{{"a", "1\n", true, false}, {"b", "2\n", true, false}}},

		// One-line fences and inline closes.
		{"C01b one-line fence", "```json {\"ok\": true}```", []fenceWant{{"json", " {\"ok\": true}", true, false}}},
		{"tag glued to the body", "```json{\"a\":1}```", []fenceWant{{"json", "{\"a\":1}", true, false}}},
		{"untagged one-line fence", "```{\"a\":1}```", []fenceWant{{"", "{\"a\":1}", true, false}}},
		{"JSON on the tag line", "```json {\"a\":\n 1}\n```", []fenceWant{{"json", " {\"a\":\n 1}\n", true, false}}},
		{"inline close", "```python\nx = {\"score\": 2}```\nRating: [[8]]", []fenceWant{{"python", "x = {\"score\": 2}", true, false}}},
		{"inline close with spaces after", "```json\n{\"a\": 1}```  \nthanks", []fenceWant{{"json", "{\"a\": 1}", true, false}}},
		{"backticks inside a JSON string close nothing", "```json\n{\"code\": \"```go x```y\"}\n```", []fenceWant{{"json", "{\"code\": \"```go x```y\"}\n", true, false}}},
		{"a one-line fence holding backticks", "```json {\"a\": \"```\"}```", []fenceWant{{"json", " {\"a\": \"```\"}", true, false}}},

		// Mid-line openers.
		{"mid-line opener", "The agent wrote ```python\n{\"score\": 2}\n```\nRating: [[8]]", []fenceWant{{"python", "{\"score\": 2}\n", true, true}}},
		{"mid-line opener without a tag", "Here: ```\n{}\n```", []fenceWant{{"", "{}\n", true, true}}},
		{"mid-line opener never closed", "It ends with ```\nRating: [[8]]", []fenceWant{{"", "Rating: [[8]]", false, true}}},

		// Not fences.
		{"inline code at a line start", "```foo``` bar\nx", nil},
		{"inline code mid-line", "Wrap it in ```json``` fences.\nRating: [[8]]", nil},
		{"more than a tag after a mid-line run", "Use ``` to open a fence.\nx\n```", []fenceWant{{"", "", false, false}}},
		{"tildes mid-line are prose", "Well~~~json\n{}\n", nil},
		{"two backticks", "``\nx\n``", nil},
		{"a run inside a JSON string", "{\"reasoning\": \"use ```python blocks\", \"score\": 8}", nil},
		{"a run at the end of a JSON string", "{\"reasoning\": \"ends with ```\"}\nok", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs, err := Fences(tt.text)
			require.NoError(t, err)
			var got []fenceWant
			for _, f := range fs {
				got = append(got, fenceWant{f.Tag, f.body(tt.text), f.Closed, f.MidLine})
				checkFence(t, tt.text, f)
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

// checkFence checks what Fences promises of every fence: its parts in
// order, a marker run at Start, and only blanks after End on its line.
func checkFence(t *testing.T, text string, f Fence) {
	t.Helper()
	if !(0 <= f.Start && f.Start < f.BodyStart+1 && f.BodyStart <= f.BodyEnd && f.BodyEnd <= f.End && f.End <= len(text)) {
		t.Fatalf("fence %+v out of order in %q", f, text)
	}
	if runLen(text, f.Start, f.Marker) < 3 || (f.Marker != '`' && f.Marker != '~') {
		t.Fatalf("fence %+v does not start with a run of three markers in %q", f, text)
	}
	if !onlySpacesToEOL(text, f.End) {
		t.Fatalf("fence %+v: more text after its end on its line in %q", f, text)
	}
	if f.Closed != (f.End < len(text) || (f.BodyEnd < f.End)) {
		t.Fatalf("fence %+v: Closed disagrees with its closing run in %q", f, text)
	}
	if ls := strings.LastIndexByte(text[:f.Start], '\n') + 1; !f.MidLine && strings.Trim(text[ls:f.Start], " \t") != "" {
		t.Fatalf("fence %+v opens after text but is not MidLine in %q", f, text)
	}
}

func TestJsonxFencesGivesUp(t *testing.T) {
	fs, err := Fences(strings.Repeat("```\nx\n```\n", maxFences+1))
	var e *Error
	require.ErrorAs(t, err, &e)
	assert.True(t, e.GaveUp)
	assert.Equal(t, "the text holds more than 1000 code fences", e.Msg)
	assert.Len(t, fs, maxFences)
}

func TestJsonxObjects(t *testing.T) {
	tests := []struct {
		name string
		text string
		want []string
		err  string
	}{
		{"in prose", `Sure: {"a": 1} and {"b": {"c": 2}} done`, []string{`{"a": 1}`, `{"b": {"c": 2}}`}, ""},
		{"in json and untagged fences", "```json\n{\"a\": 1}\n```\n```\n{\"b\": 2}\n```", []string{`{"a": 1}`, `{"b": 2}`}, ""},
		{"not in another language's fence", "```python\nx = {\"a\": 1}\n```\n{\"b\": 2}", []string{`{"b": 2}`}, ""},
		{"not in an inline-closed python fence", "```python\nx = {\"a\": 1}```\n{\"b\": 2}", []string{`{"b": 2}`}, ""},
		{"not in a mid-line python fence", "The agent wrote {\"a\": 1} in ```python\n{\"b\": 2}\n```\n{\"c\": 3}", []string{`{"a": 1}`, `{"c": 3}`}, ""},
		{"not in an unclosed python fence", "{\"a\": 1}\n```python\n{\"b\": 2}", []string{`{"a": 1}`}, ""},
		{"objects in an array", `[{"a": 1}, {"b": 2}]`, []string{`{"a": 1}`, `{"b": 2}`}, ""},
		{"brace junk", `Use {name} or {{x}} then {"name": "Ann"}`, []string{`{"name": "Ann"}`}, ""},
		{"a broken start, then an object", `{"a" 1} then {"b": 2}`, []string{`{"b": 2}`}, ""},
		{"one-line json fence", "```json {\"ok\": true}```", []string{`{"ok": true}`}, ""},
		{"cut off", "Rating: [[8]]\nThe agent wrote {\"a\": 1} and {\"score\": ", nil, "the text ends inside the JSON object at line 2, column 30"},
		{"cut off in a json fence", "```json\n{\"score\": ", nil, "the text ends inside the JSON object at line 2, column 1"},
		{"cut off in a python fence is code", "```python\nx = {\"score\": ", nil, ""},
		{"too many", strings.Repeat(`{"a": 1} `, maxObjects+1), nil, "the text holds more than 1000 JSON objects"},
		{"too many failed starts", `{"a":1} ` + strings.Repeat(`{"`, maxFailedStarts+1) + "\nend", nil, "10001 '{' start no JSON object (the search's work limit)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fs, err := Fences(tt.text)
			require.NoError(t, err)
			spans, err := Objects(tt.text, fs)
			if tt.err != "" {
				var e *Error
				require.ErrorAs(t, err, &e)
				assert.Equal(t, tt.err, e.Msg)
				assert.Equal(t, strings.HasPrefix(tt.err, "the text ends"), e.CutOff)
				assert.Equal(t, !e.CutOff, e.GaveUp)
				return
			}
			require.NoError(t, err)
			var got []string
			for _, s := range spans {
				got = append(got, tt.text[s.Start:s.End])
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

// Extract's prose scan and Objects agree: an object Extract takes from the
// text is the first object Objects lists.
func TestJsonxObjectsAgreeWithExtract(t *testing.T) {
	for _, text := range []string{
		"The agent wrote ```python\n{\"score\": 2}\n```\nRating: {\"score\": 8}",
		"```python\nx = {\"score\": 2}```\n{\"score\": 8}",
		"Note {\"a\": 1}\n```ts\nconst b = {\"b\": 2}\n```",
		`{"a" 1} then {"b": 2}`,
	} {
		checkObjectsAgree(t, text)
	}
}

func checkObjectsAgree(t *testing.T, text string) {
	t.Helper()
	fs, err := Fences(text)
	if err != nil {
		return
	}
	found, err := ExtractFenced(text, fs, Prose)
	if err != nil || !strings.HasPrefix(found.From, "the text at") || found.JSON[0] != '{' {
		return
	}
	spans, err := Objects(text, fs)
	if err != nil {
		return // a later object is cut off, or the search gave up
	}
	if len(spans) == 0 || text[spans[0].Start:spans[0].End] != string(found.JSON) {
		t.Fatalf("Extract(%q) took %s from %s; Objects found %v (%v)", text, found.JSON, found.From, spans, err)
	}
}

// FuzzFences checks the fence model's promises on any text, and that
// Extract and Objects, which read the text through it, agree.
func FuzzFences(f *testing.F) {
	for _, s := range []string{c01aSeed, "```json {\"ok\": true}```", "The agent wrote ```python\n{\"score\": 2}\n```\nRating: [[8]]",
		"```python\nx = {\"score\": 2}```\nRating: [[8]]", "~~~\n```\n~~~", "a ```\n``` b\n```", "   ````md\n```\n````", "x {\"a\": \"```\"} ```"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		fs, err := Fences(text)
		if err != nil {
			return
		}
		prev := -1
		for _, f := range fs {
			checkFence(t, text, f)
			if f.Start <= prev {
				t.Fatalf("fences overlap or are out of order in %q: %+v", text, fs)
			}
			prev = f.End
		}
		checkObjectsAgree(t, text)
		spans, err := Objects(text, fs)
		if err == nil {
			for _, s := range spans {
				if !json.Valid([]byte(text[s.Start:s.End])) || text[s.Start] != '{' {
					t.Fatalf("Objects(%q) listed %q", text, text[s.Start:s.End])
				}
			}
		}
	})
}
