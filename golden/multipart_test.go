package golden_test

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit/golden"
)

// transcription posts an audio transcription upload as go-openai and
// openai-go build it with mime/multipart — a file part, then the fields —
// under a boundary mime/multipart draws at random, with headers a client
// sets anew for every request (an idempotency key, a request id).
func transcription(t *testing.T, c *http.Client, audioPath, language string, extra map[string]string) (*http.Response, error) {
	t.Helper()
	audio, err := os.ReadFile(audioPath)
	require.NoError(t, err)
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	h := make(textproto.MIMEHeader)
	h.Set("Content-Disposition", `form-data; name="file"; filename="`+audioPath[strings.LastIndex(audioPath, "/")+1:]+`"`)
	h.Set("Content-Type", "application/octet-stream")
	fw, err := w.CreatePart(h)
	require.NoError(t, err)
	_, err = fw.Write(audio)
	require.NoError(t, err)
	fields := map[string]string{"model": "whisper-1", "language": language, "response_format": "json", "temperature": "0"}
	for k, v := range extra {
		fields[k] = v
	}
	for _, k := range []string{"model", "language", "response_format", "temperature", "api_key"} {
		if v, ok := fields[k]; ok {
			require.NoError(t, w.WriteField(k, v))
		}
	}
	require.NoError(t, w.Close())
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, "https://api.openai.com/v1/audio/transcriptions", &b)
	require.NoError(t, err)
	req.Header.Set("Content-Type", w.FormDataContentType())
	req.Header.Set("Idempotency-Key", randomHex())
	req.Header.Set("X-Request-Id", randomHex())
	return c.Do(req)
}

func randomHex() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}

const (
	wavPath = "../assert/media/testdata/tone_1500ms.wav"
	mp3Path = "../assert/media/testdata/tone_2s.mp3"
)

// An upload recorded once replays on every later run, though its
// multipart boundary and its request ids are new each time: it is keyed
// by its parts (names, file names, part types, content), never by the
// boundary. A different file, or a different field, still misses, and the
// miss says which part differs. The recording holds the file's digest,
// not its bytes, and no credential field's value.
func TestTransportMultipartUploadReplays(t *testing.T) {
	path := httpPath(t)
	calls := 0
	live := rtFunc(func(r *http.Request) (*http.Response, error) {
		calls++
		io.Copy(io.Discard, r.Body)
		return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(strings.NewReader(`{"text": "A steady tone."}`))}, nil
	})
	rec, err := golden.NewTransport(path, live, golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	const key = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789"
	resp, err := transcription(t, rec.Client(), wavPath, "en", map[string]string{"api_key": key})
	require.NoError(t, err)
	resp.Body.Close()
	require.NoError(t, rec.Save())
	require.Equal(t, 1, calls)

	data, err := os.ReadFile(path)
	require.NoError(t, err)
	text := string(data)
	assert.NotContains(t, text, "RIFF", "the audio's bytes are not written")
	assert.NotContains(t, text, key)
	assert.NotContains(t, text, "boundary")
	assert.Contains(t, text, `"filename": "tone_1500ms.wav"`)
	assert.Contains(t, text, `"value": "whisper-1"`)
	assert.Contains(t, text, `"size": 24044`)
	require.NoError(t, golden.Verify(path))

	replay, err := golden.NewTransport(path, rtFunc(func(*http.Request) (*http.Response, error) {
		return nil, errors.New("replay sent a request")
	}))
	require.NoError(t, err)
	for range 2 { // two more runs, each with its own boundary
		resp, err := transcription(t, replay.Client(), wavPath, "en", map[string]string{"api_key": "sk-proj-rotatedrotatedrotatedrotated0123"})
		require.NoError(t, err, "the same upload replays")
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		assert.JSONEq(t, `{"text": "A steady tone."}`, string(body))
		replay = mustTransport(t, path)
	}

	_, err = transcription(t, replay.Client(), mp3Path, "en", nil)
	var nr *golden.NotRecordedError
	require.ErrorAs(t, err, &nr, "another file misses")
	assert.Contains(t, nr.Error(), "multipart[0].filename")
	assert.Contains(t, nr.Error(), "multipart[0].sha256")

	_, err = transcription(t, mustTransport(t, path).Client(), wavPath, "fr", nil)
	require.ErrorAs(t, err, &nr, "another field misses")
	assert.Contains(t, nr.Error(), `multipart[1].value: now "fr", recorded "en"`)
}

func mustTransport(t *testing.T, path string) *golden.Transport {
	t.Helper()
	tr, err := golden.NewTransport(path, rtFunc(func(*http.Request) (*http.Response, error) {
		return nil, errors.New("replay sent a request")
	}))
	require.NoError(t, err)
	return tr
}
