package golden_test

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit/golden"
)

// A recording is checked when it is read, not only by `evalkit golden
// verify`: each of these replayed (and passed) before. Each is an error
// naming the file and the entry, from every reader: Load, New (replay and
// record, whose Save would merge the file), and Verify.
func TestRecordingCheckedAtLoad(t *testing.T) {
	path := recordingPath(t)
	req := refundRequest()
	record(t, path, newLive(testIdentity), req)
	f, err := golden.Load(path)
	require.NoError(t, err)
	entry := "entry 1 (" + golden.ShortKey(f.Entries[0].Key) + ")"
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	text := string(data)

	edit := func(t *testing.T, old, new string) string {
		t.Helper()
		edited := strings.Replace(text, old, new, 1)
		require.NotEqual(t, text, edited, "the edit applies")
		return edited
	}
	for _, tc := range []struct {
		name, data, want string
	}{
		// The raw score is the judge's own number; the score was raised.
		{"a score edited", edit(t, `"score": 0.9,`, `"score": 1,`),
			entry + ": score 1 is not raw_score 9 on the scale [0, 10] (one was edited?): restore the value recorded, or delete the entry and record it again (EVALKIT_MODE=record)"},
		// encoding/json took the last value: the one a reviewer sees
		// first is not the one that replayed.
		{"a key given twice", edit(t, `"score": 0.9,`, `"score": 0.9, "passed": false,`),
			entry + `: key "passed" is given twice (at entries[0].verdict.passed, line 37, column 9): which value replays cannot be told (encoding/json takes the last, other readers the first): keep one, or delete the entry and record it again (EVALKIT_MODE=record)`},
		// encoding/json fills a field ignoring case: the pair given again
		// in capitals, consistent with each other, replayed 0.2.
		{"a key given twice in another case", edit(t, `"score": 0.9,`, `"score": 0.9, "Score": 0.2, "RAW_SCORE": 2,`),
			entry + `: key "Score" is given twice (at entries[0].verdict.Score, line 33, column 23): which value replays cannot be told (encoding/json takes the last, other readers the first): keep one, or delete the entry and record it again (EVALKIT_MODE=record)`},
		{"a key given twice with the same value", edit(t, `"scored": true,`, `"scored": true, "scored": true,`),
			entry + `: key "scored" is given twice, with the same value (at entries[0].verdict.scored, line 35, column 25): evalkit never writes a key twice: keep one, or delete the entry and record it again (EVALKIT_MODE=record)`},
		{"the version given twice", edit(t, `"version": 1,`, `"version": 1, "version": 1,`),
			`key "version" is given twice, with the same value (at version, line 2, column 17): evalkit never writes a key twice: keep one, or delete the entry and record it again (EVALKIT_MODE=record)`},
		{"a byte order mark", "\xef\xbb\xbf" + text,
			"starts with a UTF-8 byte order mark, which evalkit never writes (an editor added it?): save the file without it"},
		{"an unknown version", edit(t, `"version": 1,`, `"version": 2,`),
			"format version 2, and this evalkit reads version 1: update evalkit, or re-record the file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.NoError(t, os.WriteFile(path, []byte(tc.data), 0o644))
			want := "golden: " + path + ": " + tc.want
			_, err := golden.Load(path)
			assert.EqualError(t, err, want, "Load")
			_, err = golden.New(path, mustNotCall(t))
			assert.EqualError(t, err, want, "New, replay")
			_, err = golden.New(path, mustNotCall(t), golden.WithMode(golden.ModeRecord))
			assert.EqualError(t, err, want, "New, record")
			var ve *golden.VerifyError
			require.ErrorAs(t, golden.Verify(path), &ve)
			// Verify lists the problem without the hint.
			assert.Contains(t, ve.Problems, strings.TrimSuffix(tc.want, ": restore the value recorded, or delete the entry and record it again (EVALKIT_MODE=record)"), "Verify")
		})
	}

	// A verdict's fields are the judge's, as it wrote them: two that
	// differ in case are two fields, and the recording replays.
	require.NoError(t, os.WriteFile(path, []byte(edit(t, `"fields": {`, `"fields": {"Tone": 1, "tone": 2, `)), 0o644))
	_, err = golden.Load(path)
	require.NoError(t, err)

	// CRLF line endings (a Windows checkout) still read, and replay.
	require.NoError(t, os.WriteFile(path, []byte(strings.ReplaceAll(text, "\n", "\r\n")), 0o644))
	rec, err := golden.New(path, mustNotCall(t))
	require.NoError(t, err)
	v, err := rec.Judge(context.Background(), req)
	require.NoError(t, err)
	assert.InDelta(t, 0.9, v.Score, 1e-12)
}

// An HTTP recording is checked at load the same way: a key given twice in
// a recorded body (the agent would be replayed the last), a byte order
// mark, an unknown version; each names the file and the interaction.
func TestHTTPRecordingCheckedAtLoad(t *testing.T) {
	key := "sha256:" + strings.Repeat("ab", 32)
	text := `{
  "version": 1,
  "interactions": [
    {
      "key": "` + key + `",
      "occurrence": 1,
      "request": {
        "method": "POST",
        "path": "/v1/chat/completions",
        "body": {"model": "gpt-4.1-mini"}
      },
      "response": {
        "status": 200,
        "body": {"choices": [{"message": {"role": "assistant", "content": "Refund issued."}, "finish_reason": "stop"}]}
      },
      "recorded_at": "2026-01-01T00:00:00Z"
    }
  ]
}
`
	path := filepath.Join(t.TempDir(), "TestX.http.json")
	require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
	_, err := golden.LoadHTTP(path)
	require.NoError(t, err)
	where := "interaction 1 (" + golden.ShortKey(key) + " #1)"
	for _, tc := range []struct{ name, data, want string }{
		{"a key given twice in a body", strings.Replace(text, `"content": "Refund issued."`, `"content": "Refund issued.", "content": "Refund denied."`, 1),
			where + `: key "content" is given twice (at interactions[0].response.body.choices[0].message.content, line 14, column 93): which value replays cannot be told (encoding/json takes the last, other readers the first): keep one, or delete the entry and record it again (EVALKIT_MODE=record)`},
		{"the status given twice", strings.Replace(text, `"status": 200,`, `"status": 200, "status": 500,`, 1),
			where + `: key "status" is given twice (at interactions[0].response.status, line 13, column 24): which value replays cannot be told (encoding/json takes the last, other readers the first): keep one, or delete the entry and record it again (EVALKIT_MODE=record)`},
		{"a byte order mark", "\xef\xbb\xbf" + text,
			"starts with a UTF-8 byte order mark, which evalkit never writes (an editor added it?): save the file without it"},
		{"an unknown version", strings.Replace(text, `"version": 1,`, `"version": 3,`, 1),
			"format version 3, and this evalkit reads version 1: update evalkit, or re-record the file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			require.NoError(t, os.WriteFile(path, []byte(tc.data), 0o644))
			want := "golden: " + path + ": " + tc.want
			_, err := golden.LoadHTTP(path)
			assert.EqualError(t, err, want, "LoadHTTP")
			_, err = golden.NewTransport(path, http.DefaultTransport)
			assert.EqualError(t, err, want, "NewTransport")
			var ve *golden.VerifyError
			require.ErrorAs(t, golden.Verify(path), &ve)
			assert.Contains(t, ve.Problems, tc.want, "Verify")
		})
	}
}
