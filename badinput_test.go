package evalkit_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
)

// The root package's entry points against bad input: malformed, empty,
// huge, wrong-typed and hostile. Each gives a clear error naming the
// input, or a value, and never a panic, a hang or an error of unbounded
// length. The huge inputs (a 50 MB answer, 100,000 messages) are made
// once and skipped under -short.

// maxBadInputError bounds the text of an error about bad input.
const maxBadInputError = 2048

// hugeText is a 50 MB model answer: a sentence, then a base64 image.
var hugeText = sync.OnceValue(func() string {
	return "Total due: 42.00 EUR. data:image/png;base64," + strings.Repeat("QUFB", 50<<20/4)
})

// manyMessages is an OpenAI chat message list of 100,000 messages: user
// turns, tool calls and their results.
var manyMessages = sync.OnceValue(func() []byte {
	var b strings.Builder
	b.WriteString("[")
	for i := range 100_000 {
		if i > 0 {
			b.WriteString(",")
		}
		switch i % 4 {
		case 0:
			fmt.Fprintf(&b, `{"role": "user", "content": "question %d"}`, i)
		case 1:
			fmt.Fprintf(&b, `{"role": "assistant", "content": null, "tool_calls": [{"id": "c%d", "type": "function", "function": {"name": "lookup", "arguments": "{\"n\": %d}"}}]}`, i, i)
		case 2:
			fmt.Fprintf(&b, `{"role": "tool", "tool_call_id": "c%d", "content": "ok"}`, i-1)
		default:
			fmt.Fprintf(&b, `{"role": "assistant", "content": "answer %d"}`, i)
		}
	}
	b.WriteString("]")
	return []byte(b.String())
})

func skipHuge(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("huge input: skipped under -short")
	}
}

// decodeInputs are bad transcripts: each must be a *DecodeError.
func decodeInputs() map[string]string {
	in := map[string]string{
		"empty":                     "",
		"white space":               " \n\t ",
		"BOM only":                  "\xef\xbb\xbf",
		"null":                      "null",
		"true":                      "true",
		"a number":                  "42",
		"a string":                  `"hello"`,
		"an empty object":           "{}",
		"a list of null":            "[null]",
		"a list of numbers":         "[1, 2]",
		"not JSON":                  "Sure! Here is the transcript.",
		"a NUL byte":                "[{\"role\": \"user\", \"content\": \"a\x00b\"}]",
		"trailing data":             `[{"role": "user", "content": "x"}] [1]`,
		"trailing comma":            `[{"role": "user", "content": "x"},]`,
		"single quotes":             `[{'role': 'user', 'content': 'x'}]`,
		"unknown role":              `[{"role": "wizard", "content": "x"}]`,
		"role a number":             `[{"role": 1, "content": "x"}]`,
		"role null":                 `[{"role": null, "content": "x"}]`,
		"no role":                   `[{"content": "x"}]`,
		"content a number":          `[{"role": "user", "content": 7}]`,
		"content an object":         `[{"role": "user", "content": {"text": "x"}}]`,
		"content parts of numbers":  `[{"role": "user", "content": [1, 2]}]`,
		"a part with no type":       `[{"role": "user", "content": [{"text": "x"}]}]`,
		"tool_calls a string":       `[{"role": "assistant", "tool_calls": "call it"}]`,
		"tool_calls of numbers":     `[{"role": "assistant", "tool_calls": [1]}]`,
		"a call with no name":       `[{"role": "assistant", "tool_calls": [{"id": "c", "type": "function", "function": {"arguments": "{}"}}]}]`,
		"a duplicated key":          `[{"role": "user", "content": "x", "content": "y"}]`,
		"a key twice by case":       `[{"role": "user", "content": "x", "Content": "y"}]`,
		"messages a string":         `{"messages": "x"}`,
		"messages and input":        `{"messages": [{"role": "user", "content": "x"}], "input": [{"role": "user", "content": "y"}]}`,
		"two choices":               `{"choices": [{"message": {"role": "assistant", "content": "a"}}, {"message": {"role": "assistant", "content": "b"}}]}`,
		"an API error body":         `{"error": {"message": "Rate limit reached", "type": "requests"}}`,
		"a hosted tool call":        `{"output": [{"type": "web_search_call", "id": "ws_1", "status": "completed"}], "status": "completed"}`,
		"tool_use with no id":       `{"messages": [{"role": "assistant", "content": [{"type": "tool_use", "name": "f", "input": {}}]}]}`,
		"nested 100k lists":         strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000),
		"nested 100k objects":       strings.Repeat(`{"a":`, 100_000) + "1" + strings.Repeat("}", 100_000),
		"a 1 MB role":               `[{"role": "` + strings.Repeat("r", 1<<20) + `", "content": "x"}]`,
		"a 1 MB part type":          `[{"role": "user", "content": [{"type": "` + strings.Repeat("t", 1<<20) + `", "text": "x"}]}]`,
		"a 1 MB unknown tool":       `{"output": [{"type": "` + strings.Repeat("x", 1<<20) + `_call", "id": "x"}], "status": "completed"}`,
		"a cut-off real transcript": agentRun[:len(agentRun)/2],
	}
	return in
}

// decodeAccepted are hostile inputs that are transcripts: Decode reads
// them, and a check decides (C12: arguments that are valid JSON but no
// object fail the argument checks; unknown fields are ignored; JSON's
// replacement character stands for invalid UTF-8).
func decodeAccepted() map[string]string {
	return map[string]string{
		"arguments a number":            `[{"role": "assistant", "tool_calls": [{"id": "c", "type": "function", "function": {"name": "f", "arguments": 5}}]}]`,
		"arguments a list":              `[{"role": "assistant", "tool_calls": [{"id": "c", "type": "function", "function": {"name": "f", "arguments": [1]}}]}]`,
		"invalid UTF-8":                 "[{\"role\": \"user\", \"content\": \"\xff\xfe\"}]",
		"an empty list":                 "[]",
		"a 1 MB unknown key":            `[{"` + strings.Repeat("k", 1<<20) + `": 1, "role": "user", "content": "x"}]`,
		"RTL override and ANSI escapes": "[{\"role\": \"assistant\", \"content\": \"\u202egnp.exe \\u001b[31mred\"}]",
	}
}

func checkDecodeErr(t *testing.T, tr *evalkit.Transcript, err error) {
	t.Helper()
	require.Error(t, err)
	assert.Nil(t, tr, "a transcript beside an error")
	var de *evalkit.DecodeError
	require.True(t, errors.As(err, &de), "a %T, want a *DecodeError: %v", err, err)
	assert.LessOrEqual(t, len(err.Error()), maxBadInputError, "bounded: %.300s…", err)
}

func TestBadInputDecode(t *testing.T) {
	inputs := decodeInputs()
	for name, in := range inputs {
		t.Run(name, func(t *testing.T) {
			tr, err := evalkit.Decode([]byte(in))
			checkDecodeErr(t, tr, err)
			trs, err := evalkit.DecodeAll([]byte(in))
			if err == nil {
				// DecodeAll reads a list of transcript objects; a list of
				// messages is one transcript, so only the shapes that are
				// no transcript at all must fail here too.
				assert.NotEmpty(t, trs)
			} else {
				assert.LessOrEqual(t, len(err.Error()), maxBadInputError)
			}
		})
	}
	accepted := decodeAccepted()
	for name, in := range accepted {
		tr, err := evalkit.Decode([]byte(in))
		require.NoError(t, err, name)
		_ = evalkit.RenderTranscript(tr, evalkit.RenderOptions{})
	}
	// Every cut of a real transcript is an error naming a place in it.
	cuts := 0
	for n := 1; n < len(agentRun); n += max(1, len(agentRun)/200) {
		tr, err := evalkit.Decode([]byte(agentRun[:n]))
		if tr != nil && err == nil {
			t.Errorf("a transcript cut at byte %d decoded", n)
			continue
		}
		checkDecodeErr(t, tr, err)
		cuts++
	}
	t.Logf("bad-input count: Decode %d inputs (%d refused, %d accepted, %d cuts)", len(inputs)+len(accepted)+cuts, len(inputs), len(accepted), cuts)
}

// A 50 MB answer and 100,000 messages decode, and every view of them
// works.
func TestBadInputDecodeHuge(t *testing.T) {
	skipHuge(t)
	body, err := json.Marshal([]map[string]any{{"role": "user", "content": "Total?"}, {"role": "assistant", "content": hugeText()}})
	require.NoError(t, err)
	_, err = evalkit.Decode(body)
	assert.EqualError(t, err, "evalkit: the input is 50.0 MiB, past the limit of 32 MiB for a transcript (EVALKIT_MAX_TRANSCRIPT_BYTES raises it)")
	// Past the limit, raised: read whole.
	t.Setenv("EVALKIT_MAX_TRANSCRIPT_BYTES", "256MiB")
	tr, err := evalkit.Decode(body)
	require.NoError(t, err)
	last, ok := tr.LastAssistant()
	require.True(t, ok)
	assert.Len(t, last.Content, len(hugeText()))

	tr, err = evalkit.Decode(manyMessages())
	require.NoError(t, err)
	assert.Len(t, tr.Messages, 100_000)
	assert.Len(t, tr.ToolCalls(), 25_000)
	for _, c := range tr.ToolCalls()[:10] {
		assert.NotNil(t, c.Result, "every call pairs with its result")
	}
	rendered := evalkit.RenderTranscript(tr, evalkit.RenderOptions{})
	assert.NotEmpty(t, rendered)

	t.Log("bad-input count: Decode 2 huge inputs")
}

// Load names the file in every error.
func TestBadInputLoad(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{"empty.json": "", "null.json": "null", "cut.json": agentRun[:100], "role.json": `[{"role": 1}]`}
	for name, content := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644))
	}
	for name := range files {
		path := filepath.Join(dir, name)
		_, err := evalkit.Load(path)
		require.Error(t, err)
		assert.Contains(t, err.Error(), path, "the error names the file")
		_, err = evalkit.LoadAll(path)
		require.Error(t, err)
		assert.Contains(t, err.Error(), path)
	}
	for _, path := range []string{filepath.Join(dir, "missing.json"), dir} {
		_, err := evalkit.Load(path)
		require.Error(t, err)
		assert.Contains(t, err.Error(), path)
	}
	t.Logf("bad-input count: Load %d inputs", len(files)+2)
}

// verdictInputs are judge answers ParseVerdict must refuse.
func verdictInputs() map[string]string {
	return map[string]string{
		"empty":                           "",
		"white space":                     " \n ",
		"$ERROR$":                         "$ERROR$",
		"prose":                           "The answer is good.",
		"a score past the scale":          "Rating: [[11]]",
		"a negative score":                "Rating: [[-1]]",
		"a score of 1e309":                "Rating: [[1e309]]",
		"NaN":                             `{"score": NaN}`,
		"NaN as a string":                 `{"score": "NaN"}`,
		"Infinity":                        `{"score": "Infinity"}`,
		"a score that is a list":          `{"score": [8]}`,
		"a score that is an object":       `{"score": {"value": 8}}`,
		"a score that is null":            `{"score": null}`,
		"a score that is true":            `{"score": true}`,
		"two scores":                      "Rating: [[3]] ... Rating: [[8]]",
		"JSON and text disagree":          `{"score": 9} Rating: [[2]]`,
		"cut off":                         `{"score": 8, "reasoning": "The answer`,
		"a fence never closed":            "```json\n{\"score\": 8",
		"an empty object":                 "{}",
		"an object of no verdict":         `{"status": "ok"}`,
		"a verdict contradicting itself":  `{"verdict": "FAIL", "passed": true}`,
		"a label of invisible characters": "[[\u200b]]",
		"invalid UTF-8":                   "Rating: [[\xff]]",
		"a NUL":                           "Rating: [[\x00]]",
		"10k open brackets":               strings.Repeat("[[", 10_000),
		"10k open braces":                 strings.Repeat("{", 10_000),
		"100k nested lists":               strings.Repeat("[", 100_000) + strings.Repeat("]", 100_000),
		"1 MB of digits":                  "Rating: [[" + strings.Repeat("9", 1<<20) + "]]",
		"1 MB key":                        `{"` + strings.Repeat("k", 1<<20) + `": 1}`,
		"ANSI escapes":                    "\x1b[31mRating: [[\x1b[0m",
	}
}

func TestBadInputParseVerdict(t *testing.T) {
	scales := []evalkit.Scale{{Min: 1, Max: 10}, {Min: 0, Max: 1}, {Min: 1, Max: 5}}
	inputs := verdictInputs()
	for name, in := range inputs {
		t.Run(name, func(t *testing.T) {
			for _, scale := range scales {
				v, err := evalkit.ParseVerdict(in, scale)
				if err == nil {
					// Only a verdict on the scale may come back.
					require.True(t, v.Scored || v.Label != "" || v.Passed != nil, "an empty verdict for %.60q", in)
					if v.Scored {
						require.False(t, math.IsNaN(v.Score) || v.Score < 0 || v.Score > 1, "score %v", v.Score)
					}
					t.Errorf("read a verdict from %.60q on %v: %+v", in, scale, v)
					continue
				}
				assert.ErrorIs(t, err, evalkit.ErrUnreadableVerdict)
				assert.LessOrEqual(t, len(err.Error()), maxBadInputError, "bounded: %.200s…", err)
			}
		})
	}
	t.Logf("bad-input count: ParseVerdict %d inputs × %d scales", len(inputs), len(scales))
}

func TestBadInputParseVerdictHuge(t *testing.T) {
	skipHuge(t)
	huge := hugeText()
	for name, in := range map[string]string{
		"50 MB of prose":               huge,
		"50 MB, then a verdict":        huge + " Rating: [[8]]",
		"50 MB of open braces":         strings.Repeat("{", 50<<20),
		"50 MB reasoning in an object": `{"score": 8, "reasoning": "` + huge + `"}`,
	} {
		v, err := evalkit.ParseVerdict(in, evalkit.Scale{Min: 1, Max: 10})
		if err != nil {
			assert.ErrorIs(t, err, evalkit.ErrUnreadableVerdict, name)
			assert.LessOrEqual(t, len(err.Error()), maxBadInputError, name)
			continue
		}
		assert.Equal(t, 8.0, v.RawScore, name)
	}
	t.Log("bad-input count: ParseVerdict 4 huge inputs")
}
