package golden

// The agent's transcript, built from the exchanges a Transport saw: the
// last model call's request (the conversation so far and the tools) and
// its reply, a streamed reply assembled first (assemble.go).

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/evalkit-go/evalkit"
)

// exchange is one request and its answer, as the recording writes them;
// or, err set, a request that got no whole answer (a replay miss, a live
// error, a stream cut or closed before its end), of which req holds the
// method and path only.
type exchange struct {
	req  HTTPRequest
	resp HTTPResponse
	err  error
}

// logExchange keeps an answered exchange for Transcript.
func (t *Transport) logExchange(req HTTPRequest, resp HTTPResponse) {
	t.mu.Lock()
	t.log = append(t.log, exchange{req: req, resp: resp})
	t.mu.Unlock()
}

// logFailure keeps a request that got no whole answer for Transcript, so
// that it never reads an earlier call as the last.
func (t *Transport) logFailure(method, path string, err error) {
	t.mu.Lock()
	t.log = append(t.log, exchange{req: HTTPRequest{Method: method, Path: path}, err: err})
	t.mu.Unlock()
}

// The model APIs Transcript reads, by the path of their calls.
const (
	apiChat      = "chat"      // OpenAI Chat Completions: …/chat/completions
	apiResponses = "responses" // OpenAI Responses: …/responses
	apiMessages  = "messages"  // Anthropic Messages: …/messages
)

// modelAPI names the model API a request path calls, or "".
func modelAPI(path string) string {
	path = strings.TrimSuffix(path, "/")
	switch {
	case strings.HasSuffix(path, "/chat/completions"):
		return apiChat
	case strings.HasSuffix(path, "/responses"):
		return apiResponses
	case strings.HasSuffix(path, "/messages"):
		return apiMessages
	}
	return ""
}

// ErrNoModelCall is the error Transcript wraps when a Transport saw no
// answered call to a model API.
var ErrNoModelCall = errors.New("golden: no model call")

// Transcript builds the transcript of the agent whose model calls went
// through t: the messages and tools of the last answered call to a model
// API — OpenAI Chat Completions (a path ending in /chat/completions),
// OpenAI Responses (/responses) or Anthropic Messages (/messages) — and
// the reply it got, decoded as evalkit.Decode decodes request and response
// bodies. A streamed reply (server-sent events) is assembled first into
// the body the API would have sent unstreamed: content deltas joined,
// tool calls gathered by index (their argument deltas may interleave; an
// id and a name come on a call's first delta only), Anthropic's content
// blocks by index, usage from whichever event carries it. A Responses call
// that continues an earlier one (previous_response_id) is preceded by the
// calls it continues, when t saw them. Calls to other paths (embeddings,
// say) are skipped. Text is as the recording writes it: credential-shaped
// strings are redacted.
//
// It works in every mode. Errors: no answered model call (ErrNoModelCall);
// a last call that got no whole answer (a replay miss, a live error, a
// stream cut or closed before its end), never read as the call before it;
// a last call answered with an error status, whose body is quoted; a
// stream cut before its end, malformed, or ordered as no API orders it
// (a delta before its block or call starts, an error event), naming the
// event; and evalkit.Decode's errors for a body it cannot read.
func (t *Transport) Transcript() (*evalkit.Transcript, error) {
	t.mu.Lock()
	log := make([]exchange, len(t.log))
	copy(log, t.log)
	t.mu.Unlock()
	for i := len(log) - 1; i >= 0; i-- {
		api := modelAPI(log[i].req.Path)
		if api == "" || log[i].req.Method != http.MethodPost {
			continue
		}
		if err := log[i].err; err != nil {
			return nil, fmt.Errorf("golden: the transcript of the last model call (%s %s): it got no whole answer: %w", log[i].req.Method, log[i].req.Path, err)
		}
		return exchangeTranscript(api, log[:i+1])
	}
	return nil, fmt.Errorf("%w went through this client (%d %s; a model call is a POST to a path ending in /chat/completions, /responses or /messages)", ErrNoModelCall, len(log), plural(len(log), "exchange", "exchanges"))
}

// exchangeTranscript decodes the last exchange of log, an api call, and
// for a Responses call the calls it continues.
func exchangeTranscript(api string, log []exchange) (*evalkit.Transcript, error) {
	last := log[len(log)-1]
	what := last.req.Method + " " + last.req.Path
	tr, err := callTranscript(api, last)
	if err != nil {
		return nil, fmt.Errorf("golden: the transcript of the last model call (%s): %w", what, err)
	}
	if api != apiResponses {
		return tr, nil
	}
	seen := map[string]bool{}
	for prev := previousResponse(last.req.Body); prev != ""; {
		if seen[prev] {
			return nil, fmt.Errorf("golden: the transcript of the last model call (%s): previous_response_id %q loops", what, prev)
		}
		seen[prev] = true
		j := findResponse(log, prev)
		if j < 0 {
			return nil, fmt.Errorf("golden: the transcript of the last model call (%s): it continues response %q (previous_response_id), which this client did not receive", what, prev)
		}
		earlier, err := callTranscript(api, log[j])
		if err != nil {
			return nil, fmt.Errorf("golden: the transcript of the model call %s continued by the last one: %w", log[j].req.Method+" "+log[j].req.Path, err)
		}
		tr = joinTranscripts(earlier, tr)
		prev = previousResponse(log[j].req.Body)
	}
	return tr, nil
}

// callTranscript decodes one call: its request's messages and tools, then
// the reply.
func callTranscript(api string, ex exchange) (*evalkit.Transcript, error) {
	if ex.req.Body == nil {
		return nil, errors.New("the request has no JSON body")
	}
	if s := ex.resp.Status; s < 200 || s > 299 {
		return nil, fmt.Errorf("it was answered %d %s: %s", s, http.StatusText(s), responseExcerpt(ex.resp))
	}
	body, err := responseBody(api, ex.resp)
	if err != nil {
		return nil, err
	}
	req, err := evalkit.Decode(ex.req.Body)
	if err != nil {
		return nil, fmt.Errorf("the request body: %w", err)
	}
	reply, err := evalkit.Decode(body)
	if err != nil {
		return nil, fmt.Errorf("the response body: %w", err)
	}
	req.Messages = append(req.Messages, reply.Messages...)
	if len(req.Tools) == 0 {
		req.Tools = reply.Tools
	}
	return req, nil
}

// responseBody is a reply's JSON body, a stream assembled into one.
func responseBody(api string, r HTTPResponse) ([]byte, error) {
	switch {
	case r.Events != nil:
		return assembleStream(api, r.Events)
	case r.Body != nil:
		return r.Body, nil
	case r.BodyText != "":
		return nil, fmt.Errorf("the response body is not JSON: %s", responseExcerpt(r))
	}
	return nil, errors.New("the response has no body")
}

func responseExcerpt(r HTTPResponse) string {
	var s string
	switch {
	case r.Body != nil:
		var b bytes.Buffer
		json.Compact(&b, r.Body)
		s = b.String()
	case r.BodyText != "":
		s = r.BodyText
	case r.Events != nil:
		s = fmt.Sprintf("a stream of %d %s", len(r.Events), plural(len(r.Events), "event", "events"))
	default:
		return "no body"
	}
	const max = 200
	if len(s) > max {
		s = s[:max] + "…"
	}
	return s
}

// previousResponse is a Responses request's previous_response_id, or "".
func previousResponse(body json.RawMessage) string {
	var r struct {
		Previous string `json:"previous_response_id"`
	}
	json.Unmarshal(body, &r)
	return r.Previous
}

// findResponse returns the index in log of the Responses call whose reply
// has id, or -1.
func findResponse(log []exchange, id string) int {
	for i := len(log) - 2; i >= 0; i-- {
		if modelAPI(log[i].req.Path) != apiResponses || log[i].err != nil {
			continue
		}
		body, err := responseBody(apiResponses, log[i].resp)
		if err != nil {
			continue
		}
		var r struct {
			ID string `json:"id"`
		}
		if json.Unmarshal(body, &r) == nil && r.ID == id {
			return i
		}
	}
	return -1
}

// joinTranscripts puts an earlier call's messages before a later one's,
// dropping the later call's leading system messages the earlier has
// (Responses sends its instructions again with every call).
func joinTranscripts(earlier, later *evalkit.Transcript) *evalkit.Transcript {
	msgs := later.Messages
	k := 0
	for k < len(msgs) && k < len(earlier.Messages) && msgs[k].Role == evalkit.RoleSystem &&
		earlier.Messages[k].Role == evalkit.RoleSystem && msgs[k].Content == earlier.Messages[k].Content {
		k++
	}
	out := *later
	out.Messages = append(append([]evalkit.Message(nil), earlier.Messages...), msgs[k:]...)
	if len(out.Tools) == 0 {
		out.Tools = earlier.Tools
	}
	return &out
}

// liveRoundTrip is RoundTrip in ModeLive: live's response as it is, its
// exchange kept for Transcript (redacted, as a recording would write it).
func (t *Transport) liveRoundTrip(req *http.Request, body []byte) (*http.Response, error) {
	resp, err := t.live.RoundTrip(withBody(req, body))
	if modelAPI(req.URL.Path) == "" || req.Method != http.MethodPost {
		return resp, err
	}
	failed := func(err error) { t.logFailure(req.Method, req.URL.Path, err) }
	if err != nil || resp == nil {
		failed(cmp.Or(err, errors.New("the live transport returned no response")))
		return resp, err
	}
	codings, err := contentCodings(req.Header)
	plain := body
	if err == nil && len(codings) > 0 {
		plain, err = decodeBody(codings, body)
	}
	if err != nil {
		failed(fmt.Errorf("the request body: %w", err))
		return resp, nil
	}
	kr, err := keyHTTPRequest(req.Method, req.URL, req.Header.Get("Content-Type"), plain, t.test, t.cleaner(), t.ignore)
	if err != nil {
		failed(err)
		return resp, nil
	}
	// A compressed response passes to the client as it came; what is kept
	// is its decoded copy.
	rc, err := contentCodings(resp.Header)
	if err != nil {
		failed(fmt.Errorf("the response: %w", err))
		return resp, nil
	}
	plainOf := func(data []byte) ([]byte, error) {
		if len(rc) == 0 {
			return data, nil
		}
		return decodeBody(rc, data)
	}
	r := HTTPResponse{Status: resp.StatusCode, Header: keptHeader(resp.Header)}
	if isEventStream(resp.Header) {
		resp.Body = &teeStream{src: resp.Body, done: func(data []byte, err error) {
			if err == nil {
				data, err = plainOf(data)
			}
			if err != nil {
				failed(fmt.Errorf("the event stream: %w", err))
				return
			}
			r.Events = splitEvents(data, t.cleaner())
			t.logExchange(kr.written, r)
		}}
		return resp, nil
	}
	data, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	resp.Body = io.NopCloser(bytes.NewReader(data))
	if err != nil {
		resp.Body = io.NopCloser(io.MultiReader(bytes.NewReader(data), errReader{err}))
		failed(fmt.Errorf("reading the response: %w", err))
		return resp, nil
	}
	if data, err = plainOf(data); err == nil {
		err = t.fillBody(&r, data)
	}
	if err != nil {
		failed(fmt.Errorf("the response: %w", err))
		return resp, nil
	}
	t.logExchange(kr.written, r)
	return resp, nil
}

type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }

// teeStream passes a live stream through as it is and keeps a copy; done
// gets the copy when the stream ends whole, or the error that ended it, or
// that it was closed before its end.
type teeStream struct {
	src  io.ReadCloser
	done func([]byte, error)

	mu   sync.Mutex
	buf  bytes.Buffer
	over bool
}

func (s *teeStream) Read(p []byte) (int, error) {
	n, err := s.src.Read(p)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.buf.Write(p[:n])
	if err != nil && !s.over {
		s.over = true
		if errors.Is(err, io.EOF) {
			s.done(s.buf.Bytes(), nil)
		} else {
			s.done(nil, err)
		}
	}
	return n, err
}

// Close reads what is left of the stream, for at most StreamDrain (a
// client stops reading at "[DONE]", say), so that the copy is whole.
func (s *teeStream) Close() error {
	s.mu.Lock()
	if !s.over {
		drain := time.AfterFunc(StreamDrain, func() { s.src.Close() })
		_, err := s.buf.ReadFrom(s.src)
		s.over = true
		if drain.Stop() && err == nil {
			s.done(s.buf.Bytes(), nil)
		} else {
			s.done(nil, fmt.Errorf("the client closed the stream before its end, which did not come within %v", StreamDrain))
		}
	}
	s.mu.Unlock()
	return s.src.Close()
}

// splitEvents cuts a stream's bytes into events as a recording keeps them.
func splitEvents(data []byte, clean func(string) string) []Event {
	out := []Event{}
	for len(data) > 0 {
		ev, rest, ok := cutEventFrom(data, 0)
		if !ok {
			out = append(out, parseEvent(data, clean))
			break
		}
		out = append(out, parseEvent(ev, clean))
		data = rest
	}
	return out
}
