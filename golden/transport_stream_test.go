package golden_test

import (
	"bufio"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit/golden"
)

// Real event streams as the providers send them (OpenAI's "Streaming" and
// Anthropic's "Streaming Messages" references), events whole.
var (
	openaiStream = []string{
		"data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1700000000,\"model\":\"gpt-4o\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"finish_reason\":null}]}\n\n",
		"data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1700000000,\"model\":\"gpt-4o\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Your reservation \"},\"finish_reason\":null}]}\n\n",
		"data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1700000000,\"model\":\"gpt-4o\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"is cancelled.\"},\"finish_reason\":null}]}\n\n",
		"data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1700000000,\"model\":\"gpt-4o\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":20,\"completion_tokens\":5,\"total_tokens\":25}}\n\n",
		"data: [DONE]\n\n",
	}
	anthropicStream = []string{
		"event: message_start\ndata: {\"type\":\"message_start\",\"message\":{\"id\":\"msg_1\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[],\"model\":\"claude-sonnet-4-5\",\"stop_reason\":null,\"stop_sequence\":null,\"usage\":{\"input_tokens\":25,\"output_tokens\":1}}}\n\n",
		"event: content_block_start\ndata: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n\n",
		"event: ping\ndata: {\"type\": \"ping\"}\n\n",
		"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"Your reservation \"}}\n\n",
		"event: content_block_delta\ndata: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"text_delta\",\"text\":\"is cancelled.\"}}\n\n",
		"event: content_block_stop\ndata: {\"type\":\"content_block_stop\",\"index\":0}\n\n",
		"event: message_delta\ndata: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\",\"stop_sequence\":null},\"usage\":{\"output_tokens\":5}}\n\n",
		"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
	}
)

// streamServer serves events as an event stream, one at a time: after
// each it waits until the client says it read it (on read) or goes away.
// A transport that held the stream back until it ended would never let
// the client read the first event.
func streamServer(t *testing.T, events []string, read <-chan struct{}) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		w.Header().Set("X-Request-Id", "req_volatile_1")
		flusher := w.(http.Flusher)
		for _, ev := range events {
			io.WriteString(w, ev)
			flusher.Flush()
			select {
			case <-read:
			case <-r.Context().Done():
				return
			}
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

// readEvents reads a stream as a streaming client does, event by event,
// saying after each that it read it.
func readEvents(t *testing.T, body io.Reader, read chan<- struct{}) []string {
	t.Helper()
	br := bufio.NewReader(body)
	var events []string
	var cur strings.Builder
	for {
		line, err := br.ReadString('\n')
		cur.WriteString(line)
		if line == "\n" {
			events = append(events, cur.String())
			cur.Reset()
			if read != nil {
				read <- struct{}{}
			}
		}
		if err == io.EOF {
			require.Empty(t, cur.String(), "the stream ends between events")
			return events
		}
		require.NoError(t, err)
	}
}

func streamRequest(t *testing.T, url, body string) *http.Request {
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, url, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	return req
}

// Streaming responses in both providers' shapes record event by event as
// they arrive, and replay one event per read, byte for byte.
func TestTransportStreams(t *testing.T) {
	for _, tc := range []struct {
		name, path, body string
		events           []string
	}{
		{"openai", "/v1/chat/completions", `{"model": "gpt-4o", "stream": true, "stream_options": {"include_usage": true}, "messages": [{"role": "user", "content": "Cancel Z7GOZK."}]}`, openaiStream},
		{"anthropic", "/v1/messages", `{"model": "claude-sonnet-4-5", "max_tokens": 256, "stream": true, "messages": [{"role": "user", "content": "Cancel Z7GOZK."}]}`, anthropicStream},
	} {
		t.Run(tc.name, func(t *testing.T) {
			read := make(chan struct{})
			srv := streamServer(t, tc.events, read)
			path := httpPath(t)
			rec, err := golden.NewTransport(path, srv.Client().Transport, golden.WithMode(golden.ModeRecord))
			require.NoError(t, err)
			resp, err := rec.RoundTrip(streamRequest(t, srv.URL+tc.path, tc.body))
			require.NoError(t, err)
			assert.Equal(t, 200, resp.StatusCode)
			assert.Equal(t, "text/event-stream; charset=utf-8", resp.Header.Get("Content-Type"))
			assert.Empty(t, resp.Header.Get("X-Request-Id"), "the client gets the response as it replays")
			got := readEvents(t, resp.Body, read)
			require.NoError(t, resp.Body.Close())
			assert.Equal(t, tc.events, got, "recorded as it streamed")
			require.NoError(t, rec.Save())

			f, err := golden.LoadHTTP(path)
			require.NoError(t, err)
			require.Len(t, f.Interactions, 1)
			events := f.Interactions[0].Response.Events
			require.Len(t, events, len(tc.events))
			assert.NoError(t, golden.Verify(path))

			srv.Close() // replay needs no server
			replay, err := golden.NewTransport(path, neverLive(t))
			require.NoError(t, err)
			resp, err = replay.RoundTrip(streamRequest(t, srv.URL+tc.path, tc.body))
			require.NoError(t, err)
			assert.Equal(t, int64(-1), resp.ContentLength)
			buf := make([]byte, 64<<10)
			var reads []string
			for {
				n, err := resp.Body.Read(buf)
				if n > 0 {
					reads = append(reads, string(buf[:n]))
				}
				if err == io.EOF {
					break
				}
				require.NoError(t, err)
			}
			assert.Equal(t, tc.events, reads, "one event per read, byte for byte")
		})
	}
}

// How events are kept: a name and compact JSON data as parts, data that is
// not JSON as text, anything else whole.
func TestTransportStreamEventForms(t *testing.T) {
	stream := []string{
		"event: ping\ndata: {\"type\": \"ping\"}\n\n", // not compact: whole
		": keep-alive\n\n",                            // a comment
		"id: 7\ndata: {\"a\":1}\n\n",                  // an id field
		"data: {\"a\":1}\r\n\r\n",                     // CRLF
		"data: [DONE]\n\n",
		"event: message_stop\ndata: {\"type\":\"message_stop\"}\n\n",
		"data: {\"cut\":", // an unterminated tail
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, strings.Join(stream, ""))
	}))
	defer srv.Close()
	path := httpPath(t)
	rec, err := golden.NewTransport(path, srv.Client().Transport, golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	resp, err := rec.RoundTrip(streamRequest(t, srv.URL+"/v1/chat/completions", `{"stream": true}`))
	require.NoError(t, err)
	data, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, strings.Join(stream, ""), string(data))
	require.NoError(t, rec.Save())
	f, err := golden.LoadHTTP(path)
	require.NoError(t, err)
	assert.Equal(t, []golden.Event{
		{Raw: stream[0]},
		{Raw: stream[1]},
		{Raw: stream[2]},
		{Raw: stream[3]},
		{DataText: "[DONE]"},
		{Event: "message_stop", Data: []byte(`{"type":"message_stop"}`)},
		{Raw: stream[6]},
	}, stripIndent(f.Interactions[0].Response.Events))
}

// stripIndent compacts events' JSON data as the file indents it.
func stripIndent(events []golden.Event) []golden.Event {
	out := make([]golden.Event, len(events))
	for i, e := range events {
		if e.Data != nil {
			e.Data = []byte(strings.Join(strings.Fields(string(e.Data)), ""))
		}
		out[i] = e
	}
	return out
}

// A client that stops reading early still leaves the whole stream
// recorded; a stream that breaks records nothing.
func TestTransportStreamClosedEarly(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, strings.Join(openaiStream, ""))
	}))
	defer srv.Close()
	path := httpPath(t)
	rec, err := golden.NewTransport(path, srv.Client().Transport, golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	resp, err := rec.RoundTrip(streamRequest(t, srv.URL+"/v1/chat/completions", `{"stream": true}`))
	require.NoError(t, err)
	first := make([]byte, 10)
	_, err = io.ReadFull(resp.Body, first)
	require.NoError(t, err)
	require.NoError(t, resp.Body.Close())
	require.NoError(t, rec.Save())
	f, err := golden.LoadHTTP(path)
	require.NoError(t, err)
	require.Len(t, f.Interactions, 1)
	assert.Len(t, f.Interactions[0].Response.Events, len(openaiStream))

	broken := rtFunc(func(r *http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"text/event-stream"}},
			Body: io.NopCloser(io.MultiReader(strings.NewReader(openaiStream[0]), errReader{}))}, nil
	})
	path2 := httpPath(t)
	rec2, err := golden.NewTransport(path2, broken, golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	resp, err = rec2.RoundTrip(streamRequest(t, "http://fake/v1/chat/completions", `{"stream": true}`))
	require.NoError(t, err)
	_, err = io.ReadAll(resp.Body)
	assert.ErrorContains(t, err, "golden: reading the live event stream: connection reset")
	require.NoError(t, rec2.Save())
	_, err = golden.LoadHTTP(path2)
	assert.ErrorIs(t, err, fs.ErrNotExist, "nothing recorded")
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errors.New("connection reset by peer") }

// A stream that never ends — a server sending keep-alive pings forever —
// does not hang a client that closes it early: Close waits StreamDrain,
// cuts it, records nothing, and Save says so. A stream left unread and
// unclosed is not recorded either, and Save names it.
func TestTransportStreamThatNeverEnds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		endless := rtFunc(func(r *http.Request) (*http.Response, error) {
			pr, pw := io.Pipe()
			go func() {
				io.WriteString(pw, openaiStream[0])
				for {
					time.Sleep(time.Second)
					if _, err := io.WriteString(pw, ": ping\n\n"); err != nil {
						return
					}
				}
			}()
			return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"text/event-stream"}}, Body: pr}, nil
		})
		path := httpPath(t)
		rec, err := golden.NewTransport(path, endless, golden.WithMode(golden.ModeRecord))
		require.NoError(t, err)
		resp, err := rec.RoundTrip(streamRequest(t, "http://fake/v1/chat/completions", `{"stream": true}`))
		require.NoError(t, err)
		first := make([]byte, 10)
		_, err = io.ReadFull(resp.Body, first)
		require.NoError(t, err)
		start := time.Now()
		require.NoError(t, resp.Body.Close())
		assert.Equal(t, golden.StreamDrain, time.Since(start), "Close waits StreamDrain, then cuts")

		unread, err := rec.RoundTrip(streamRequest(t, "http://fake/v1/responses", `{"stream": true}`))
		require.NoError(t, err)
		assert.EqualError(t, rec.Save(), "golden: the streamed response to POST /v1/chat/completions was closed by the client before its end and did not end within 5s: not recorded (read the stream to its end)\n"+
			"golden: the streamed response to POST /v1/responses was neither read to its end nor closed: not recorded")
		_, err = golden.LoadHTTP(path)
		assert.ErrorIs(t, err, fs.ErrNotExist, "nothing recorded")
		unread.Body.Close()
		time.Sleep(2 * time.Second) // the servers' next pings fail, and they return
	})
}
