package judgefake

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
)

// Server is a fake model API on a real local socket (an httptest.Server)
// that speaks both OpenAI Chat Completions and Anthropic Messages and
// answers from a script. Make one with NewServer; Close it when done.
type Server struct {
	// URL is the server's base URL, "http://127.0.0.1:port", with no
	// trailing slash. An OpenAI client's base URL is URL+"/v1"; an
	// Anthropic client's is URL.
	URL string

	ts        *httptest.Server
	sc        *script
	closed    chan struct{}
	closeOnce sync.Once
}

// NewServer starts a Server that answers requests with replies, one
// each, in the order the requests arrive.
//
// It serves POST /v1/chat/completions (and any path ending in
// /chat/completions, as Azure OpenAI and OpenAI-compatible servers use)
// with OpenAI's shape ("created" is always Created, so two recordings of
// one script are the same):
//
//	{"id": "chatcmpl-judgefake-1", "object": "chat.completion", "created": 1700000000, "model": "gpt-4o",
//	 "choices": [{"index": 0, "message": {"role": "assistant", "content": "<Text>"}, "finish_reason": "stop"}],
//	 "usage": {"prompt_tokens": 90, "completion_tokens": 4, "total_tokens": 94}}
//
// and POST /v1/messages with Anthropic's:
//
//	{"id": "msg_judgefake_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
//	 "content": [{"type": "text", "text": "<Text>"}], "stop_reason": "end_turn", "stop_sequence": null,
//	 "usage": {"input_tokens": 90, "output_tokens": 4}}
//
// An Anthropic request that forces a tool — "tool_choice" {"type": "tool",
// "name": …}, or {"type": "any"} with a single tool — gets a tool_use block
// instead, {"type": "tool_use", "id": "toolu_judgefake_1", "name": …,
// "input": <Text parsed as a JSON object>}, and stop_reason "tool_use". A
// request for structured output (OpenAI's "response_format", Anthropic's
// "output_format" or "output_config") gets Text as the answer: the script
// is what the model writes.
//
// and POST /v1/responses (any path ending in /responses) with OpenAI
// Responses' {"id": "resp_judgefake_1", "object": "response",
// "status": "completed", "output": [a message item with the text, a
// function_call item per tool call], "usage"}.
//
// A request with "stream": true gets its answer as the API streams it
// (Content-Type text/event-stream, written event by event): Chat
// Completions chunks (the content word by word, each tool call's id and
// name on its first delta, its arguments in two more, a usage chunk when
// stream_options.include_usage asks, then [DONE]); Anthropic's
// message_start, content blocks with their deltas, message_delta and
// message_stop; Responses' events from response.created to
// response.completed. FaultCutOff cuts a stream after half its events and
// FaultMalformed breaks its middle event.
//
// Error replies carry the provider's error body: OpenAI's {"error":
// {"message", "type", "param", "code"}} (type "requests" and code
// "rate_limit_exceeded" for 429, "server_error" for 5xx,
// "invalid_request_error" otherwise), Anthropic's {"type": "error",
// "error": {"type", "message"}} (rate_limit_error for 429,
// overloaded_error for 529, api_error for other 5xx, and the documented
// 4xx types).
//
// Like the real APIs, it refuses with a 400 a body that is not a JSON
// object, one without "model" or "messages" (a Responses request without
// "input"), and an Anthropic request without an anthropic-version header or a positive
// "max_tokens" or that forces a tool it does not define. Such a request
// takes no reply from the script. Those refusals, unknown paths, other
// methods, a reply that cannot be built, and requests after the script is
// used up (a 400 saying so, which judges do not retry, so a scripting
// mistake never shifts the script) are also recorded as problems that Err
// returns: a test that ends with require.NoError(t, srv.Err()) catches a
// judge that asked for more than it should.
//
// The server records every request (see Requests) and is safe for
// concurrent use; concurrent requests take replies in arrival order.
func NewServer(replies ...Reply) *Server {
	return newServerWith(func(closed <-chan struct{}) *script { return newScript(replies, closed) })
}

// newServerWith starts a Server answering from the script mk makes.
func newServerWith(mk func(closed <-chan struct{}) *script) *Server {
	s := &Server{closed: make(chan struct{})}
	s.sc = mk(s.closed)
	s.ts = httptest.NewServer(http.HandlerFunc(s.handle))
	s.URL = s.ts.URL
	return s
}

func (s *Server) handle(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		// The client went away while sending; there is no one to answer.
		return
	}
	o := s.sc.serve(r.Context(), r.Method, r.URL, r.Header, body)
	switch {
	case o.err != nil:
		// The request's context ended; the client has gone.
		return
	case o.reset:
		reset(w)
		return
	}
	for k, vs := range o.header {
		w.Header()[k] = vs
	}
	w.WriteHeader(o.status)
	if o.events == nil {
		w.Write(o.body)
		return
	}
	flush := http.NewResponseController(w)
	for _, ev := range o.events { // event by event, as a streaming API sends
		if _, err := w.Write(ev); err != nil {
			return
		}
		flush.Flush()
	}
}

// reset closes the connection under w at once, with an RST where the
// platform allows.
func reset(w http.ResponseWriter) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
	if tcp, ok := conn.(*net.TCPConn); ok {
		tcp.SetLinger(0)
	}
	conn.Close()
}

// Client returns an *http.Client for the server (httptest's).
func (s *Server) Client() *http.Client { return s.ts.Client() }

// Requests returns copies of the requests received so far, in arrival
// order, credentials redacted (see Request).
func (s *Server) Requests() []Request { return s.sc.Requests() }

// Err returns every problem the server met, one error each joined with
// errors.Join, or nil: requests it refused or did not expect (see
// NewServer).
func (s *Server) Err() error { return s.sc.Err() }

// Close ends every stalled or delayed request (their connections are
// closed), shuts the server down and waits for its handlers to return.
// Close is safe to call more than once.
func (s *Server) Close() {
	s.closeOnce.Do(func() {
		close(s.closed)
		s.ts.Close()
	})
}

// Transport is an in-memory http.RoundTripper with the same script,
// formats and faults as Server, and no socket: a judge given
// &http.Client{Transport: t} (or t.Client()) talks to it at any URL. It
// is made for testing/synctest bubbles, where a real socket would block
// the bubble: a stall blocks on the request's context, a Delay is a timer,
// and a Retry-After is only a header, so retries, backoff and timeouts all
// run in virtual time. Make one with NewTransport.
type Transport struct {
	sc *script
}

// NewTransport returns a Transport that answers requests with script, one
// reply each, in the order the requests arrive; see NewServer for what it
// answers and what it refuses.
//
// Faults become what a real transport would return: a stall or a delay
// cut short returns the request context's error; a reset returns a
// *net.OpError wrapping syscall.ECONNRESET.
func NewTransport(script ...Reply) *Transport {
	return &Transport{sc: newScript(script, nil)}
}

// RoundTrip answers req from the script. It reads and closes req's body.
// A request whose context is already done gets the context's error and
// is not recorded, as a real transport never sends it.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if err := ctxErr(req.Context()); err != nil {
		// Like a real transport: a request whose context is done is
		// never sent, so it is neither recorded nor answered.
		if req.Body != nil {
			req.Body.Close()
		}
		return nil, err
	}
	var body []byte
	if req.Body != nil {
		var err error
		body, err = io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, fmt.Errorf("judgefake: reading the request body: %w", err)
		}
	}
	o := t.sc.serve(req.Context(), req.Method, req.URL, req.Header, body)
	switch {
	case o.err != nil:
		return nil, o.err
	case o.reset:
		return nil, &net.OpError{Op: "read", Net: "tcp", Err: errConnReset}
	}
	length := int64(len(o.body))
	if o.events != nil {
		length = -1
		o.header.Del("Content-Length")
	}
	return &http.Response{
		Status:        strconv.Itoa(o.status) + " " + http.StatusText(o.status),
		StatusCode:    o.status,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        o.header,
		Body:          io.NopCloser(bytes.NewReader(o.body)),
		ContentLength: length,
		Request:       req,
	}, nil
}

// Client returns a new *http.Client that uses t.
func (t *Transport) Client() *http.Client { return &http.Client{Transport: t} }

// Requests returns copies of the requests received so far, in arrival
// order, credentials redacted (see Request).
func (t *Transport) Requests() []Request { return t.sc.Requests() }

// Err returns every problem the transport met, joined, or nil; see
// Server.Err.
func (t *Transport) Err() error { return t.sc.Err() }
