package golden_test

// The review of sdk (issue 22): inputs a hostile user, or a flaky network,
// gives Transcript and the stream assembly.

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit/golden"
)

// resetReader ends its text with a connection reset, not io.EOF.
type resetReader struct{ r io.Reader }

func (c resetReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	if err == io.EOF {
		return n, errors.New("connection reset by peer")
	}
	return n, err
}

const (
	firstAnswer = `{"id":"c1","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"first answer"},"finish_reason":"stop"}]}`
	secondChunk = "data: {\"id\":\"c2\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"second answer\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n"
)

func replyWith(r *http.Request, ct string, body io.Reader, h ...string) *http.Response {
	io.Copy(io.Discard, r.Body)
	header := http.Header{"Content-Type": {ct}}
	for i := 0; i+1 < len(h); i += 2 {
		header.Set(h[i], h[i+1])
	}
	return &http.Response{StatusCode: 200, Status: "200 OK", Header: header, Body: io.NopCloser(body), Request: r}
}

func chatCall(t *testing.T, tr http.RoundTripper, body string, read func(io.Reader) error) error {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, "https://api.openai.com/v1/chat/completions", strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	resp, err := tr.RoundTrip(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 {
		return errors.New(resp.Status)
	}
	return read(resp.Body)
}

func readAll(r io.Reader) error { _, err := io.ReadAll(r); return err }

// A last model call whose stream the network cut (or that replay did not
// hold) has no transcript: Transcript said so for none of them, and gave
// the call before it as the agent's last, so a test checking the first
// answer passed on a run whose last answer was lost.
func TestTranscriptLastCallUnanswered(t *testing.T) {
	for _, mode := range []golden.Mode{golden.ModeRecord, golden.ModeLive} {
		t.Run(mode.String(), func(t *testing.T) {
			n := 0
			live := rtFunc(func(r *http.Request) (*http.Response, error) {
				if n++; n == 1 {
					return replyWith(r, "application/json", strings.NewReader(firstAnswer)), nil
				}
				return replyWith(r, "text/event-stream", resetReader{strings.NewReader(secondChunk[:60])}), nil
			})
			tr, err := golden.NewTransport(httpPath(t), live, golden.WithMode(mode))
			require.NoError(t, err)
			require.NoError(t, chatCall(t, tr, `{"model":"m","messages":[{"role":"user","content":"one"}]}`, readAll))
			require.Error(t, chatCall(t, tr, `{"model":"m","stream":true,"messages":[{"role":"user","content":"two"}]}`, readAll))
			_, err = tr.Transcript()
			require.Error(t, err)
			assert.Contains(t, err.Error(), "golden: the transcript of the last model call (POST /v1/chat/completions): it got no whole answer: ")
			assert.Contains(t, err.Error(), "connection reset by peer")
		})
	}
	t.Run("replay miss", func(t *testing.T) {
		path := httpPath(t)
		tr, err := golden.NewTransport(path, rtFunc(func(r *http.Request) (*http.Response, error) {
			return replyWith(r, "application/json", strings.NewReader(firstAnswer)), nil
		}), golden.WithMode(golden.ModeRecord))
		require.NoError(t, err)
		require.NoError(t, chatCall(t, tr, `{"model":"m","messages":[{"role":"user","content":"one"}]}`, readAll))
		require.NoError(t, tr.Save())
		tr.Close()
		tr, err = golden.NewTransport(path, nil, golden.WithMode(golden.ModeReplay), golden.WithMissResponses("hint"))
		require.NoError(t, err)
		defer tr.Close()
		require.NoError(t, chatCall(t, tr, `{"model":"m","messages":[{"role":"user","content":"one"}]}`, readAll))
		require.Error(t, chatCall(t, tr, `{"model":"m","messages":[{"role":"user","content":"two"}]}`, readAll))
		_, err = tr.Transcript()
		require.Error(t, err)
		assert.Contains(t, err.Error(), "it got no whole answer: golden: not recorded")
	})
	t.Run("a retry answered", func(t *testing.T) {
		n := 0
		live := rtFunc(func(r *http.Request) (*http.Response, error) {
			if n++; n == 1 {
				return replyWith(r, "text/event-stream", resetReader{strings.NewReader(secondChunk[:60])}), nil
			}
			return replyWith(r, "text/event-stream", strings.NewReader(secondChunk)), nil
		})
		tr, err := golden.NewTransport(httpPath(t), live, golden.WithMode(golden.ModeLive))
		require.NoError(t, err)
		body := `{"model":"m","stream":true,"messages":[{"role":"user","content":"two"}]}`
		require.Error(t, chatCall(t, tr, body, readAll))
		require.NoError(t, chatCall(t, tr, body, readAll))
		got, err := tr.Transcript()
		require.NoError(t, err)
		assert.Equal(t, "second answer", got.Messages[len(got.Messages)-1].Content)
	})
}

// In live mode a compressed answer passes to the client as it came and is
// kept decoded: it was not kept at all, and Transcript said no model call
// went through the client (or gave the call before it).
func TestTranscriptLiveCompressed(t *testing.T) {
	gz := func(s string) io.Reader {
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		zw.Write([]byte(s))
		zw.Close()
		return &b
	}
	for _, stream := range []bool{false, true} {
		live := rtFunc(func(r *http.Request) (*http.Response, error) {
			if stream {
				return replyWith(r, "text/event-stream", gz(secondChunk), "Content-Encoding", "gzip"), nil
			}
			return replyWith(r, "application/json", gz(firstAnswer), "Content-Encoding", "gzip"), nil
		})
		tr, err := golden.NewTransport(httpPath(t), live, golden.WithMode(golden.ModeLive))
		require.NoError(t, err)
		var got []byte
		require.NoError(t, chatCall(t, tr, `{"model":"m","messages":[{"role":"user","content":"one"}]}`, func(r io.Reader) (err error) {
			got, err = io.ReadAll(r)
			return err
		}))
		assert.Equal(t, []byte{0x1f, 0x8b}, got[:2], "the client gets the answer as it came")
		tx, err := tr.Transcript()
		require.NoError(t, err, "stream %v", stream)
		want := map[bool]string{false: "first answer", true: "second answer"}[stream]
		assert.Equal(t, want, tx.Messages[len(tx.Messages)-1].Content)
	}
}

// A client that stops reading a live stream at its last event and closes
// it (openai-go at "[DONE]") still leaves its transcript: the rest is
// read at Close.
func TestTranscriptLiveStreamClosedAtItsEnd(t *testing.T) {
	live := rtFunc(func(r *http.Request) (*http.Response, error) {
		return replyWith(r, "text/event-stream", strings.NewReader(secondChunk)), nil
	})
	tr, err := golden.NewTransport(httpPath(t), live, golden.WithMode(golden.ModeLive))
	require.NoError(t, err)
	require.NoError(t, chatCall(t, tr, `{"model":"m","stream":true,"messages":[{"role":"user","content":"two"}]}`, func(r io.Reader) error {
		_, err := r.Read(make([]byte, 40))
		return err
	}))
	tx, err := tr.Transcript()
	require.NoError(t, err)
	assert.Equal(t, "second answer", tx.Messages[len(tx.Messages)-1].Content)
}

// outputStream is a Responses stream of events, its final response
// listing no output, so the items are assembled from their events.
func outputStream(events ...string) string {
	var b strings.Builder
	for _, ev := range events {
		b.WriteString("data: " + ev + "\n\n")
	}
	b.WriteString(`data: {"type":"response.completed","response":{"id":"r1","status":"completed","output":[]}}` + "\n\n")
	return b.String()
}

// A Responses item's text at a content_index far past its parts made up
// empty parts to fill the gap (10⁸ of them took all memory; five read as
// five blank lines before the text), and an item whose content holds a
// part that is not an object panicked.
func TestAssembleResponsesContentIndex(t *testing.T) {
	added := func(content string) string {
		return `{"type":"response.output_item.added","output_index":0,"item":{"type":"message","id":"m","role":"assistant","content":` + content + `}}`
	}
	delta := func(ci string) string {
		return `{"type":"response.output_text.delta","output_index":0,"content_index":` + ci + `,"delta":"x"}`
	}
	for _, c := range []struct{ name, stream, want string }{
		{"gap", outputStream(added(`[]`), delta("5")), `the stream's event 2: output item 0's text at content_index 5 follows no content part 0`},
		{"huge", outputStream(added(`[]`), delta("100000000")), `the stream's event 2: output item 0's text at content_index 100000000 follows no content part 0`},
		{"null part", outputStream(added(`[null]`), delta("0")), `output item 0's content is not a list of objects: "[null]"`},
		{"number part", outputStream(added(`[1]`), delta("0")), `output item 0's content is not a list of objects: "[1]"`},
		{"bad index", outputStream(added(`[]`), delta(`"0"`)), `the stream's event 2: response.output_text.delta's content_index is not a whole number`},
	} {
		_, err := golden.AssembleStream("responses", []byte(c.stream))
		assert.EqualError(t, err, c.want, c.name)
	}
	body, err := golden.AssembleStream("responses", []byte(outputStream(added(`[]`), delta("0"), delta("1"), delta("1"))))
	require.NoError(t, err)
	assert.JSONEq(t, `{"id":"r1","status":"completed","output":[{"type":"message","id":"m","role":"assistant","content":[
		{"type":"output_text","annotations":[],"text":"x"},{"type":"output_text","annotations":[],"text":"xx"}]}]}`, string(body))
}

// A Chat Completions stream whose server names an event "error", its data
// the error itself with no "error" key ({"message": …}), was read as a
// chunk with no choices: the error went unseen and the reply passed whole.
func TestAssembleChatErrorEvent(t *testing.T) {
	stream := "event: error\ndata: {\"message\":\"upstream model overloaded\"}\n\n" +
		"data: {\"id\":\"x\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hi\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n"
	_, err := golden.AssembleStream("chat", []byte(stream))
	assert.EqualError(t, err, `the stream's event 1: the API sent an error: "{\"message\":\"upstream model overloaded\"}"`)
}

// A stream may begin with a byte order mark, which the SSE standard
// drops: its first event was read as a field named "\ufeffdata" and lost,
// and with it the reply's first words.
func TestAssembleStreamByteOrderMark(t *testing.T) {
	stream := "\ufeffdata: {\"id\":\"x\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"Hello\"},\"finish_reason\":null}]}\n\n" +
		"data: {\"id\":\"x\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\" there\"},\"finish_reason\":\"stop\"}]}\n\ndata: [DONE]\n\n"
	body, err := golden.AssembleStream("chat", []byte(stream))
	require.NoError(t, err)
	assert.Contains(t, string(body), `"content":"Hello there"`)
}
