package golden

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/evalkit-go/evalkit/internal/secret"
)

// Transport is an http.RoundTripper that records the HTTP exchanges of the
// code under test — an agent's calls to its model API — and replays them,
// as its Mode says: go-vcr's recorder, with matching made for LLM APIs.
// Give its Client (or the Transport itself) to an OpenAI or Anthropic SDK,
// langchaingo or plain net/http code. Make one with NewTransport.
//
// A request is filed under a key: the SHA-256 of the canonical JSON of the
// test sending it (WithTest), its method, its URL's origin (scheme and
// host; every loopback host alike, without its port: see
// HTTPRequest.Origin) and path, its query and its body — a JSON body as
// canonical JSON (object keys sorted, numbers in their shortest form),
// without credential fields and the fields WithIgnoreFields names; a
// multipart body (an audio transcription, a file upload) by its parts —
// names, file names, part types, content — never by the boundary the
// client draws at random for each request (see FormPart). Never a header
// (Authorization, api-key and x-api-key included), never a credential
// query parameter ("key", "api-key", "sig", ...: a name naming a
// credential, as a body field's does; a query such as max_tokens=5 or
// keyword=refund keys), so rotating a key replays. Identical requests are
// counted per test: the first replays the first response recorded for
// its key, the second the second, and so on (Interaction.Occurrence), so
// sibling subtests and repeated attempts sending one request each replay
// their own answers.
//
// A transient failure — status 408, 409, 429 or 5xx, what SDKs retry —
// that a later identical request of the test gets an answer for is not
// recorded: SDK retries leave only the answer, and replay neither repeats
// the failure nor waits. A transient failure nothing answered is recorded;
// replayed, it is not counted (the SDK's retry meets it again, as it did
// live) and it says to retry at once (Retry-After: 0, Retry-After-Ms: 0).
//
// Streaming responses (Content-Type text/event-stream) are recorded event
// by event and replayed one event per read, so streaming clients work in
// every mode; a recorded stream reaches the client event by event as it
// arrives, not when it ends: an event once the text after it shows its
// last word is no key's head, or once the stream pauses for StreamIdle.
// The text the events carry is redacted as a whole, so a key a model
// streams across events is not written, whole or in part.
//
// Nothing that looks like a credential is written: no request header, no
// credential query value, no credential body field, no key-shaped string,
// no value the process knows is secret — a credential header's value
// echoed in a response among them (see internal/secret; WithRedact for a
// user's own patterns) —, in text or in bytes that are not UTF-8; of a
// response's header only what clients act on (see HTTPResponse). In record and refresh mode the client gets a response as
// it will replay: redacted, with the kept header only.
//
// A body sent or received with Content-Encoding gzip or deflate is
// decoded before it is redacted, keyed and written, so a recording holds
// it as plain JSON or text, and a request keys alike compressed or not.
// Its response replays decoded, with no Content-Encoding header, in every
// mode: a client that asked for gzip itself (an Accept-Encoding header)
// reads it as plain, as it reads any response without Content-Encoding.
// A body in another coding (br, zstd, ...) cannot be redacted, so it is
// an error, and nothing of it is recorded.
//
// Every exchange is kept in memory too, in the order the responses came,
// so Transcript can build the agent's transcript from the last model call.
//
// A Transport is safe for concurrent use. Transports on one file in one
// mode share its recording within a process: parallel tests lose nothing.
// Transports of one test (WithTest) share its count of identical requests
// until they are closed; a Transport of no test counts on its own.
type Transport struct {
	st       *httpStore
	live     http.RoundTripper
	ignore   [][]string
	redact   func(string) string
	test     string
	count    *counter
	missHint *string // WithMissResponses

	mu     sync.Mutex
	misses []*NotRecordedError
	open   map[*streamBody]string // live streams not yet ended → their request
	cut    []error                // live streams the client left before their end
	log    []exchange             // exchanges, answered or not, in the order they ended
	closed bool
}

// counter counts the requests of a test (or of a Transport of no test),
// for their order in the file, and its identical requests, and holds its
// transient failures not yet answered.
type counter struct {
	mu      sync.Mutex
	calls   int                    // requests so far, for their order in the file
	seen    map[string]int         // key → identical requests so far
	pending map[string]Interaction // key → its last transient failure, not counted
	open    int                    // the test's Transports not closed
}

func newCounter() *counter {
	return &counter{seen: map[string]int{}, pending: map[string]Interaction{}}
}

// next counts a request with key and returns its occurrence and its
// place among the requests counted, from 1.
func (c *counter) next(key string) (n, seq int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls++
	c.seen[key]++
	return c.seen[key], c.calls
}

// undo takes back occurrence n of key, when it is still the last: a retry
// of the request takes its place.
func (c *counter) undo(key string, n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.seen[key] == n {
		c.seen[key]--
	}
}

// WithMissResponses makes a Transport answer a replay miss with a response
// instead of an error: status 404, X-Should-Retry: false and a JSON body
// in the shape both OpenAI's and Anthropic's SDKs read,
// {"type": "error", "error": {"type": "not_recorded", "code":
// "evalkit_not_recorded", "message": …}}, whose message is the miss's
// error text, then hint. SDKs retry a transport error (openai-go and
// anthropic-sdk-go three times, with back-off, each a miss of its own) and
// 408, 409, 429 and 5xx, but not a 404 they are told not to retry. Misses
// still lists every miss; evaltest fails the test with them.
func WithMissResponses(hint string) Option { return func(s *store) { s.missHint = &hint } }

// httpStore is one HTTP recording in memory, shared by the Transports on
// its file in one mode.
type httpStore struct {
	path  string
	mode  Mode
	usage string
	now   func() time.Time

	mu       sync.Mutex
	entries  map[string]Interaction // by ID
	fresh    map[string]bool        // IDs the live API answered through this store
	used     map[string]bool        // IDs answered through this store
	inflight map[string]*httpCall
	tests    map[string]*counter // open tests' counts (WithTest)
	dirty    bool
	exists   bool
	sum      string
	partial  bool
	notes    []string       // see Transport.Notes
	pos      map[string]int // by ID: its place among its test's requests this run (httporder.go)
	moved    bool           // a call's place changed since the file was last written
	fileIdx  map[string]int // by ID: its place in the file as read
}

// httpCall is a live exchange that other identical requests wait for.
type httpCall struct {
	done chan struct{}
	in   Interaction
	err  error
}

// httpStores holds the recordings open in this process, by absolute path
// and mode. Never removed: a process records a file once, and a later
// -count run replays what an earlier one recorded.
var httpStores struct {
	sync.Mutex
	m map[string]*httpStore
}

// WithIgnoreFields leaves fields of a JSON request body out of a
// Transport's keys: volatile ones, such as "user", "metadata.user_id",
// "stream_options" or a request id, that change from run to run without
// changing the answer. A path is field names joined by dots; where it
// meets an array it goes on in every element ("messages.name" is every
// message's name). Ignored fields are still written. It applies to
// Transports only; give every Transport on a file the same fields, or
// they key alike requests differently.
func WithIgnoreFields(paths ...string) Option {
	return func(s *store) { s.ignore = append(s.ignore, paths...) }
}

// NewTransport returns a Transport for the HTTP recording at path
// (by convention testdata/evalkit/<TestName>.http.json), sending what it
// does not replay through live (http.DefaultTransport when nil). Options:
// WithMode (default ModeReplay), WithRedact, WithIgnoreFields,
// WithUsageLog.
//
// In every mode but ModeLive the recording is read once per process and
// shared with the other Transports on it in that mode: a file that does
// not exist is an empty recording (replay then misses every request); a
// file that is not a version 1 HTTP recording is an error naming it (see
// DecodeHTTP), as are an unknown mode, a bad WithIgnoreFields path, and a
// WithUsageLog directory other than the one the shared recording has.
// NewTransport never sends a request.
func NewTransport(path string, live http.RoundTripper, opts ...Option) (*Transport, error) {
	cfg := &store{path: path, now: time.Now}
	for _, o := range opts {
		o(cfg)
	}
	if cfg.mode < ModeReplay || cfg.mode > ModeLive {
		return nil, fmt.Errorf("golden: %v is not a mode", cfg.mode)
	}
	ignore, err := parseIgnore(cfg.ignore)
	if err != nil {
		return nil, err
	}
	if live == nil {
		live = http.DefaultTransport
	}
	t := &Transport{live: live, ignore: ignore, redact: cfg.redact, test: cfg.test, missHint: cfg.missHint, count: newCounter()}
	if cfg.mode == ModeLive {
		t.st = &httpStore{path: path, mode: ModeLive}
		return t, nil
	}
	t.st, err = openHTTPStore(cfg)
	if err != nil {
		return nil, err
	}
	if t.test != "" {
		t.count = t.st.testCounter(t.test)
	}
	return t, nil
}

// testCounter returns the count of test's identical requests, counting one
// more open Transport.
func (st *httpStore) testCounter(test string) *counter {
	st.mu.Lock()
	defer st.mu.Unlock()
	c := st.tests[test]
	if c == nil {
		c = newCounter()
		if st.tests == nil {
			st.tests = map[string]*counter{}
		}
		st.tests[test] = c
		if test != "" {
			// The test runs anew (-count, or another mode's run in this
			// process): the places of its last run's calls say nothing of
			// this one's, and would tie with them.
			for id := range st.pos {
				if in, ok := st.entries[id]; ok && in.Test == test {
					delete(st.pos, id)
				}
			}
		}
	}
	c.mu.Lock()
	c.open++
	c.mu.Unlock()
	return c
}

// Close ends the Transport's part in its test's count of identical
// requests (WithTest): once every Transport of the test is closed, a new
// Transport for a test of that name — the test run again by -count —
// counts from 1 again. A transient failure not yet answered is filed as
// Save would file it. Call Close when the test ends, after Save (evaltest
// does); a Transport of no test need not be closed. Close never fails and
// may be called more than once.
func (t *Transport) Close() error {
	t.mu.Lock()
	closed := t.closed
	t.closed = true
	t.mu.Unlock()
	if closed || t.st.mode == ModeLive {
		return nil
	}
	t.filePending()
	if t.test == "" {
		return nil
	}
	st := t.st
	st.mu.Lock()
	defer st.mu.Unlock()
	c := st.tests[t.test]
	if c != t.count {
		return nil
	}
	c.mu.Lock()
	c.open--
	last := c.open <= 0
	c.mu.Unlock()
	if last {
		delete(st.tests, t.test)
	}
	return nil
}

func openHTTPStore(cfg *store) (*httpStore, error) {
	id := absPath(cfg.path) + "\x00" + cfg.mode.String()
	httpStores.Lock()
	defer httpStores.Unlock()
	if st := httpStores.m[id]; st != nil {
		st.mu.Lock()
		defer st.mu.Unlock()
		switch {
		case cfg.usage == "" || cfg.usage == st.usage:
		case st.usage == "":
			st.usage = cfg.usage
		default:
			return nil, fmt.Errorf("golden: %s is open with its usage log in %s, not %s", cfg.path, st.usage, cfg.usage)
		}
		return st, nil
	}
	st := &httpStore{
		path: cfg.path, mode: cfg.mode, usage: cfg.usage, now: cfg.now,
		entries: map[string]Interaction{}, fresh: map[string]bool{}, used: map[string]bool{}, inflight: map[string]*httpCall{},
	}
	var journal []Interaction // replayed, not merged: see journalInMemory
	if hasJournal(cfg.path) {
		// A run ended before saving: what it paid for is merged first (or
		// was, by another process, when this finds no journal after all).
		notes, err := recoverJournal(httpKind, cfg.path)
		if err != nil && cfg.mode == ModeReplay {
			journal, notes, err = journalInMemory(httpKind, cfg.path, err)
		}
		if err != nil {
			return nil, err
		}
		st.notes = notes
	}
	data, err := readFile(cfg.path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, err
	default:
		f, err := DecodeHTTP(cfg.path, data)
		if err != nil {
			return nil, err
		}
		st.fileIdx = make(map[string]int, len(f.Interactions))
		for i, in := range f.Interactions {
			st.entries[in.ID()] = in
			st.fileIdx[in.ID()] = i
		}
		st.exists, st.sum = true, sha256Hex(data)
	}
	for _, in := range journal {
		st.entries[in.ID()] = in
	}
	if httpStores.m == nil {
		httpStores.m = map[string]*httpStore{}
	}
	httpStores.m[id] = st
	return st, nil
}

// Client returns a new *http.Client that sends through t.
func (t *Transport) Client() *http.Client { return &http.Client{Transport: t} }

// Path returns the recording's path, as given to NewTransport.
func (t *Transport) Path() string { return t.st.path }

// Mode returns the Transport's mode.
func (t *Transport) Mode() Mode { return t.st.mode }

// Misses returns the replay misses RoundTrip returned so far, in order:
// what an adapter such as evaltest reports when the code under test
// swallowed the error.
func (t *Transport) Misses() []*NotRecordedError {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]*NotRecordedError, len(t.misses))
	copy(out, t.misses)
	return out
}

// RoundTrip implements http.RoundTripper. It reads and closes the
// request's body, then, by mode:
//
//   - ModeReplay: the recorded response, or an error wrapping
//     ErrNotRecorded — a *NotRecordedError naming the request, the
//     nearest recorded one and what differs. Never a live request.
//   - ModeRecord: the recorded response, or live's, which is recorded.
//   - ModeRefresh: live's response, asked once per identical request
//     and recorded.
//   - ModeLive: live's response, as it is; nothing is recorded.
//
// Concurrent identical requests with the same occurrence make one live
// request. A response is recorded once it is read to its end (a body
// closed early is read to its end first, for at most StreamDrain, after
// which it is cut, not recorded, and Save says so); a live error, or a body that
// ends in one, records nothing and is returned as it is, and the request
// is not counted. A request whose context is done is an error before
// anything else.
func (t *Transport) RoundTrip(req *http.Request) (*http.Response, error) {
	body, err := readRequestBody(req)
	if err != nil {
		return nil, err
	}
	if err := req.Context().Err(); err != nil {
		return nil, err
	}
	learnRequest(req)
	st := t.st
	if st.mode == ModeLive {
		if req.Header.Get("Content-Encoding") == "" {
			learnBody(req.Header.Get("Content-Type"), body)
		}
		return t.liveRoundTrip(req, body)
	}
	plainBody := body
	codings, err := contentCodings(req.Header)
	if err == nil && len(codings) > 0 {
		plainBody, err = decodeBody(codings, body)
	}
	if err != nil {
		return nil, fmt.Errorf("golden: the body of %s %s: %w", req.Method, req.URL.Path, err)
	}
	learnBody(req.Header.Get("Content-Type"), plainBody)
	kr, err := keyHTTPRequest(req.Method, req.URL, req.Header.Get("Content-Type"), plainBody, t.test, t.cleaner(), t.ignore)
	if err != nil {
		return nil, err
	}
	n, seq := t.count.next(kr.key)
	id := kr.key + "#" + strconv.Itoa(n)

	st.mu.Lock()
	if st.mode != ModeReplay {
		st.noteCall(id, seq) // where the file will list it (httporder.go)
	}
	in, hit := st.entries[id]
	if hit && (st.mode != ModeRefresh || st.fresh[id]) {
		st.used[id] = true
		_, followed := st.entries[kr.key+"#"+strconv.Itoa(n+1)]
		st.mu.Unlock()
		resp := in.response(req)
		if transient(in.Response) && !followed {
			// Recorded as the last answer it got: the retry meets it again.
			t.count.undo(kr.key, n)
			noWait(resp.Header)
		}
		t.logExchange(kr.written, in.Response)
		return resp, nil
	}
	if st.mode == ModeReplay {
		nr := st.notRecorded(kr, n, t.ignore)
		st.mu.Unlock()
		t.count.undo(kr.key, n)
		t.mu.Lock()
		t.misses = append(t.misses, nr)
		t.mu.Unlock()
		t.logFailure(req.Method, req.URL.Path, nr)
		if t.missHint != nil {
			return missResponse(nr, *t.missHint, req), nil
		}
		return nil, nr
	}
	if c := st.inflight[id]; c != nil {
		st.mu.Unlock()
		select {
		case <-c.done:
			if c.err != nil {
				t.logFailure(req.Method, req.URL.Path, c.err)
				return nil, c.err
			}
			t.logExchange(kr.written, c.in.Response)
			return c.in.response(req), nil
		case <-req.Context().Done():
			return nil, req.Context().Err()
		}
	}
	c := &httpCall{done: make(chan struct{})}
	st.inflight[id] = c
	st.mu.Unlock()
	return t.record(req, body, kr, n, c)
}

// record sends req live and files its response under kr and n.
func (t *Transport) record(req *http.Request, body []byte, kr keyedRequest, n int, c *httpCall) (*http.Response, error) {
	resp, err := roundTripLive(t.live, withBody(req, body))
	if err != nil {
		t.finish(kr.key, n, c, Interaction{}, err)
		t.logFailure(req.Method, req.URL.Path, err)
		return nil, err
	}
	codings, err := contentCodings(resp.Header)
	if err != nil {
		resp.Body.Close()
		err = fmt.Errorf("golden: the live response to %s %s: %w", req.Method, req.URL.Path, err)
		t.finish(kr.key, n, c, Interaction{}, err)
		t.logFailure(req.Method, req.URL.Path, err)
		return nil, err
	}
	in := Interaction{Key: kr.key, Occurrence: n, Test: t.test, Request: kr.written, Response: HTTPResponse{Status: resp.StatusCode, Header: keptHeader(resp.Header)}}
	if isEventStream(resp.Header) {
		in.Response.Events = []Event{}
		out := in.response(req)
		src := resp.Body
		if len(codings) > 0 {
			src = &decodedStream{src: src, codings: codings}
		}
		sb := &streamBody{src: src, red: newSSERedactor(t.redact), hook: t.redact, in: in}
		what := req.Method + " " + req.URL.Path
		t.mu.Lock()
		if t.open == nil {
			t.open = map[*streamBody]string{}
		}
		t.open[sb] = what
		t.mu.Unlock()
		sb.done = func(in Interaction, err error) {
			t.mu.Lock()
			delete(t.open, sb)
			if sb.cut.Load() && err != nil { // cut, not ended just after the drain's time
				t.cut = append(t.cut, fmt.Errorf("golden: the streamed response to %s was closed by the client before its end and did not end within %v: not recorded (read the stream to its end)", what, StreamDrain))
			}
			t.mu.Unlock()
			in = t.finish(kr.key, n, c, in, err)
			if err == nil {
				t.logExchange(kr.written, in.Response)
			} else {
				t.logFailure(req.Method, req.URL.Path, err)
			}
		}
		out.Body = sb
		return out, nil
	}
	data, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		err = fmt.Errorf("golden: reading the live response to %s %s: %w", req.Method, req.URL.Path, err)
		t.finish(kr.key, n, c, Interaction{}, err)
		t.logFailure(req.Method, req.URL.Path, err)
		return nil, err
	}
	if len(codings) > 0 {
		if data, err = decodeBody(codings, data); err != nil {
			err = fmt.Errorf("golden: the live response to %s %s: %w", req.Method, req.URL.Path, err)
			t.finish(kr.key, n, c, Interaction{}, err)
			t.logFailure(req.Method, req.URL.Path, err)
			return nil, err
		}
	}
	if err := t.fillBody(&in.Response, data); err != nil {
		t.finish(kr.key, n, c, Interaction{}, err)
		t.logFailure(req.Method, req.URL.Path, err)
		return nil, err
	}
	if transient(in.Response) {
		in = t.finishTransient(kr.key, n, c, in)
	} else {
		in = t.finish(kr.key, n, c, in, nil)
	}
	t.logExchange(kr.written, in.Response)
	return in.response(req), nil
}

// finishTransient holds a transient failure back from the recording: the
// request is not counted, and the failure is filed at Save only if no
// later identical request of the test is answered first.
func (t *Transport) finishTransient(key string, n int, c *httpCall, in Interaction) Interaction {
	st := t.st
	in.RecordedAt = st.now().UTC().Truncate(time.Second)
	t.count.mu.Lock()
	if t.count.seen[key] == n {
		t.count.seen[key]--
	}
	t.count.pending[key] = in
	t.count.mu.Unlock()
	st.mu.Lock()
	delete(st.inflight, key+"#"+strconv.Itoa(n))
	st.mu.Unlock()
	c.in = in
	close(c.done)
	return in
}

// filePending files the test's transient failures no answer followed, as
// the last answers their requests got.
func (t *Transport) filePending() {
	t.count.mu.Lock()
	pending := t.count.pending
	t.count.pending = map[string]Interaction{}
	t.count.mu.Unlock()
	if len(pending) == 0 {
		return
	}
	st := t.st
	st.mu.Lock()
	defer st.mu.Unlock()
	for _, in := range pending {
		id := in.ID()
		if _, taken := st.entries[id]; taken {
			continue
		}
		st.journal(in)
		st.entries[id] = in
		st.dirty = true
		st.fresh[id], st.used[id] = true, true
	}
}

// transient reports whether a recorded response is a failure SDKs retry:
// 408, 409, 429 or 5xx, not a stream.
func transient(r HTTPResponse) bool {
	s := r.Status
	return r.Events == nil && (s == http.StatusRequestTimeout || s == http.StatusConflict || s == http.StatusTooManyRequests || s >= 500)
}

// noWait makes a replayed transient failure ask for a retry at once.
func noWait(h http.Header) {
	if h.Get("Retry-After") != "" || h.Get("Retry-After-Ms") != "" {
		h.Set("Retry-After", "0")
		h.Set("Retry-After-Ms", "0")
	}
}

// missResponse answers a replay miss (see WithMissResponses).
func missResponse(nr *NotRecordedError, hint string, req *http.Request) *http.Response {
	msg := nr.Error()
	if hint != "" {
		msg += "\n" + hint
	}
	var e struct {
		Type  string `json:"type"`
		Error struct {
			Type    string `json:"type"`
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	e.Type, e.Error.Type, e.Error.Code, e.Error.Message = "error", "not_recorded", "evalkit_not_recorded", msg
	data, _ := json.Marshal(e)
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(data)))
	h.Set("X-Should-Retry", "false")
	h.Set("X-Evalkit-Not-Recorded", nr.Key)
	return &http.Response{
		Status: "404 Not Found", StatusCode: http.StatusNotFound,
		Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: h, Body: io.NopCloser(bytes.NewReader(data)), ContentLength: int64(len(data)),
		Request: req,
	}
}

// finish files a recorded interaction (err nil) and wakes the requests
// waiting for it; with an error, the request is not counted. It returns
// the interaction as filed.
func (t *Transport) finish(key string, n int, c *httpCall, in Interaction, err error) Interaction {
	st := t.st
	id := key + "#" + strconv.Itoa(n)
	if err != nil {
		t.count.undo(key, n) // a retry of the request takes its place
	} else {
		t.count.mu.Lock()
		delete(t.count.pending, key) // answered: the failure before is not recorded
		t.count.mu.Unlock()
	}
	changed := false
	if err == nil {
		st.mu.Lock()
		in.RecordedAt = st.now().UTC().Truncate(time.Second)
		old, ok := st.entries[id]
		if ok && sameJSON(old.Response, in.Response) && sameJSON(old.Request, in.Request) {
			in.RecordedAt = old.RecordedAt // asked again alike: the file keeps its bytes
		} else {
			changed = true
		}
		st.mu.Unlock()
	}
	if changed {
		// Durable now, whatever ends the run before Save. Journaled before
		// it is filed: a Save that files it removes the journal after.
		st.journal(in)
	}
	st.mu.Lock()
	if err == nil {
		if changed {
			st.entries[id] = in
			st.dirty = true
		}
		st.fresh[id], st.used[id] = true, true
	}
	delete(st.inflight, id)
	st.mu.Unlock()
	c.in, c.err = in, err
	close(c.done)
	return in
}

// fillBody sets a recorded response's body from the bytes received,
// decoded: JSON, text or (bytes that are not UTF-8) base64, each redacted.
func (t *Transport) fillBody(r *HTTPResponse, data []byte) error {
	clean := t.cleaner()
	switch {
	case len(data) == 0:
	case !utf8.Valid(data):
		r.BodyBase64 = cleanGzip([]byte(clean(string(data))), clean)
	case json.Valid(data):
		clean, err := cleanJSON(data, clean)
		if err != nil {
			return fmt.Errorf("golden: the response body: %w", err)
		}
		r.Body = clean
	default:
		r.BodyText = clean(string(data))
	}
	return nil
}

// maxGzipText bounds what cleanGzip decodes of a gzip payload, in bytes.
const maxGzipText = 64 << 20

// cleanGzip redacts a body that is itself gzip data (gzip's magic number,
// no Content-Encoding: a .gz download, a server that compresses without
// saying so): recorded as it came, base64, it held what it compresses
// whole. Its text, redacted, is compressed again when redaction changed
// it; data that is not gzip, or decodes to more than maxGzipText bytes or
// to bytes that are not text, is left as it is.
func cleanGzip(data []byte, clean func(string) string) []byte {
	if !bytes.HasPrefix(data, []byte{0x1f, 0x8b}) {
		return data
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return data
	}
	text, err := io.ReadAll(io.LimitReader(zr, maxGzipText+1))
	if err != nil || len(text) > maxGzipText || !utf8.Valid(text) {
		return data
	}
	cleaned := clean(string(text))
	if cleaned == string(text) {
		return data
	}
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(cleaned))
	zw.Close()
	return b.Bytes()
}

// cleaner returns what redacts the text of one request or response for
// writing: the process's one redactor (internal/secret: the secrets it
// knows now, credential shapes), then the user's hook. It is fast enough
// (about 4 ms of CPU a mebibyte) that an agent's conversation, sent again
// with every call, is scanned whole each time.
func (t *Transport) cleaner() func(string) string {
	r := secret.Now()
	return func(s string) string {
		s = r.Clean(s)
		if t.redact != nil {
			s = t.redact(s)
		}
		return s
	}
}

// journal appends a recorded interaction to the recording's journal (see
// JournalSuffix). A journal that cannot be written is a note: Save writes
// the interaction still.
func (st *httpStore) journal(in Interaction) {
	if err := appendJournal(st.path, in); err != nil {
		st.mu.Lock()
		st.notes = append(st.notes, fmt.Sprintf("%s: the response to %s %s was not journaled, and is lost should the run end before Save: %v", st.path, in.Request.Method, in.Request.Path, err))
		st.mu.Unlock()
	}
}

// Notes returns what the reading and saving of the Transport's recording
// had to say, as Recorder.Notes does; the Transports sharing a recording
// share its notes, each returned once.
func (t *Transport) Notes() []string {
	t.st.mu.Lock()
	defer t.st.mu.Unlock()
	out := t.st.notes
	t.st.notes = nil
	return out
}

// MarkPartial says the run using this recording did not run everything
// that uses it (a filtered, failed or skipped test): the usage log Save
// writes says so, and prune leaves the recording alone.
func (t *Transport) MarkPartial() {
	t.st.mu.Lock()
	t.st.partial = true
	t.st.mu.Unlock()
}

// Save writes the recording when the mode and what happened say so, as
// Recorder.Save does: in ModeRecord, when something was recorded, every
// interaction — those on disk now, so a concurrent run's are kept, and
// this process's; in ModeRefresh, exactly the interactions the live API
// answered, when they differ from the file; in ModeReplay and ModeLive,
// never. The write is atomic, and the same interactions write the same
// bytes; reading, merging and writing hold the recording's lock, as
// Recorder.Save's do, so two processes recording one file lose nothing. With WithUsageLog, every mode but ModeLive then writes the usage
// log. Save may be called again, from any Transport on the file; it
// writes only what changed since. A file on disk that no longer reads as
// a recording is an error, and is not overwritten.
//
// A live stream of this Transport that was neither read to its end nor
// closed, or that was cut (see RoundTrip), is not recorded, and Save
// returns an error naming its request, after writing the rest.
func (t *Transport) Save() error {
	st := t.st
	if st.mode == ModeLive {
		return nil
	}
	t.filePending()
	if err := t.save(); err != nil {
		return err
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	errs := slices.Clone(t.cut)
	for _, what := range slices.Sorted(maps.Values(t.open)) {
		errs = append(errs, fmt.Errorf("golden: the streamed response to %s was neither read to its end nor closed: not recorded", what))
	}
	return errors.Join(errs...)
}

func (t *Transport) save() error {
	st := t.st
	st.mu.Lock()
	defer st.mu.Unlock()
	if err := st.write(); err != nil {
		return err
	}
	if st.usage != "" && st.exists {
		_ = writeUsage(st.usage, Usage{Recording: absPath(st.path), SHA256: st.sum, Keys: sortedKeys(st.used), Partial: st.partial})
	}
	return nil
}

// write writes the recording when its mode and what happened say so (see
// Save), holding its lock.
func (st *httpStore) write() error {
	switch {
	case st.mode == ModeRecord && (st.dirty || st.moved), st.mode == ModeRefresh && len(st.fresh) > 0:
		return withFileLock(st.path, st.writeLocked)
	}
	return nil
}

func (st *httpStore) writeLocked() error {
	k := httpKind
	k.marshal = func(ins []Interaction) ([]byte, error) { // each test's calls in its order (httporder.go)
		return (&HTTPFile{Version: Version, Interactions: st.ordered(ins)}).Marshal()
	}
	notes, err := saveLocked(k, st.mode, st.path, st.entries, st.fresh, &st.exists, &st.sum)
	st.notes = append(st.notes, notes...)
	if err != nil {
		return err
	}
	st.dirty, st.moved = false, false
	return nil
}

// readRequestBody reads and closes a request's body.
func readRequestBody(req *http.Request) ([]byte, error) {
	if req.Body == nil || req.Body == http.NoBody {
		return nil, nil
	}
	defer req.Body.Close()
	data, err := io.ReadAll(req.Body)
	if err != nil {
		return nil, fmt.Errorf("golden: reading the body of %s %s: %w", req.Method, req.URL.Path, err)
	}
	return data, nil
}

// withBody returns a copy of req that sends body.
func withBody(req *http.Request, body []byte) *http.Request {
	out := req.Clone(req.Context())
	out.ContentLength = int64(len(body))
	if body == nil {
		out.Body, out.GetBody = http.NoBody, nil
		return out
	}
	out.Body = io.NopCloser(bytes.NewReader(body))
	out.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	return out
}

// roundTripLive sends req through live, turning a panic into an error.
func roundTripLive(live http.RoundTripper, req *http.Request) (resp *http.Response, err error) {
	defer func() {
		if p := recover(); p != nil {
			resp, err = nil, fmt.Errorf("golden: the live transport panicked: %v", p)
		}
	}()
	resp, err = live.RoundTrip(req)
	if err == nil && resp == nil {
		err = fmt.Errorf("golden: the live transport returned no response and no error")
	}
	return resp, err
}

// keptHeaders are the response header fields a recording keeps. Not
// Content-Encoding: a body is recorded decoded.
var keptHeaders = []string{"Content-Type", "Retry-After", "Retry-After-Ms", "X-Should-Retry"}

func keptHeader(h http.Header) http.Header {
	var out http.Header
	for _, name := range keptHeaders {
		if vs := h.Values(name); len(vs) > 0 {
			if out == nil {
				out = http.Header{}
			}
			out[name] = append([]string(nil), vs...)
		}
	}
	return out
}

func isEventStream(h http.Header) bool {
	mt, _, err := mime.ParseMediaType(h.Get("Content-Type"))
	return err == nil && mt == "text/event-stream"
}

// response builds the response an interaction replays.
func (in Interaction) response(req *http.Request) *http.Response {
	r := in.Response
	h := r.Header.Clone()
	if h == nil {
		h = http.Header{}
	}
	resp := &http.Response{
		Status:     strconv.Itoa(r.Status) + " " + http.StatusText(r.Status),
		StatusCode: r.Status,
		Proto:      "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header:  h,
		Request: req,
	}
	if r.Events != nil {
		resp.Body, resp.ContentLength = &eventReader{events: r.Events}, -1
		return resp
	}
	var data []byte
	switch {
	case r.Body != nil:
		var b bytes.Buffer
		json.Compact(&b, r.Body)
		data = b.Bytes()
	case r.BodyText != "":
		data = []byte(r.BodyText)
	default:
		data = r.BodyBase64
	}
	h.Set("Content-Length", strconv.Itoa(len(data)))
	resp.Body, resp.ContentLength = io.NopCloser(bytes.NewReader(data)), int64(len(data))
	return resp
}

// eventReader replays a recorded stream: each Read returns at most one
// event, so a streaming client reads it as the events came.
type eventReader struct {
	events []Event
	cur    []byte
}

func (r *eventReader) Read(p []byte) (int, error) {
	for len(r.cur) == 0 {
		if len(r.events) == 0 {
			return 0, io.EOF
		}
		r.cur, r.events = r.events[0].bytes(), r.events[1:]
	}
	n := copy(p, r.cur)
	r.cur = r.cur[n:]
	return n, nil
}

func (r *eventReader) Close() error { return nil }

// streamBody passes a live event stream to the client event by event,
// redacted as it will replay, and records it; the recording is filed when
// the stream ends, its events redacted together (see sseRedactor), so a
// key the model streams across events is not in it, whole or in part.
// The client gets an event once the text after it settles it (its last
// word may be the head of a key), or once the live stream has sent
// nothing for StreamIdle, so a client that waits for an event before the
// server sends the next is never stuck.
type streamBody struct {
	src  io.ReadCloser
	red  *sseRedactor        // the client's; nil: nothing redacted
	hook func(string) string // the user's WithRedact, for the recording
	raws [][]byte            // the events received, for the recording
	in   Interaction
	done func(Interaction, error)

	mu       sync.Mutex
	chunks   chan streamChunk // what the reader goroutine read, once started
	buf      []byte           // received, not yet a whole event
	out      []byte           // redacted, not yet read by the client
	srcErr   error            // the live stream's read error, io.EOF at its end
	finished bool
	scanned  int         // the bytes of buf searched for an event's end
	err      error       // what Read returns once out is drained
	cut      atomic.Bool // Close stopped waiting for the stream's end
}

func (s *streamBody) Read(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for len(s.out) == 0 {
		if s.err != nil {
			return 0, s.err
		}
		s.fill()
	}
	n := copy(p, s.out)
	s.out = s.out[n:]
	return n, nil
}

// StreamIdle is how long a live stream may send nothing before the
// events held back for the client (see streamBody) are passed on.
const StreamIdle = 50 * time.Millisecond

// streamChunk is one read of the live stream.
type streamChunk struct {
	data []byte
	err  error
}

// read starts the goroutine that reads the live stream, until it ends or
// fails: fill waits for its chunks, or for StreamIdle.
func (s *streamBody) read() {
	s.chunks = make(chan streamChunk, 1)
	go func() {
		for {
			buf := make([]byte, 4096)
			n, err := s.src.Read(buf)
			s.chunks <- streamChunk{buf[:n], err}
			if err != nil {
				return
			}
		}
	}()
}

// fill reads from the live stream until an event is whole or the stream
// ends. s.mu is held.
func (s *streamBody) fill() {
	if s.chunks == nil {
		s.read()
	}
	for {
		if ev, rest, ok := cutEventFrom(s.buf, max(0, s.scanned-3)); ok {
			s.buf, s.scanned = rest, 0
			s.emit(ev)
			if len(s.out) > 0 {
				return
			}
			continue
		}
		s.scanned = len(s.buf) // no event ends before: a long event is searched once, not per read
		if s.srcErr != nil {
			if s.red != nil && !errors.Is(s.srcErr, io.EOF) {
				s.queue(s.red.finish()) // what came, though nothing is recorded
			}
			if !errors.Is(s.srcErr, io.EOF) {
				s.end(fmt.Errorf("golden: reading the live event stream: %w", s.srcErr))
				return
			}
			if len(s.buf) > 0 {
				s.emit(s.buf) // an unterminated tail, kept whole
				s.buf = nil
			}
			if s.red != nil {
				s.queue(s.red.finish())
				rec := newSSERedactor(s.hook)
				for _, raw := range s.raws {
					s.in.Response.Events = append(s.in.Response.Events, rec.add(raw, false)...)
				}
				s.in.Response.Events = append(s.in.Response.Events, rec.finish()...)
			}
			s.end(nil)
			return
		}
		var c streamChunk
		if s.red != nil && s.red.held() {
			idle := time.NewTimer(StreamIdle)
			select {
			case c = <-s.chunks:
				idle.Stop()
			case <-idle.C:
				s.queue(s.red.finish()) // the stream pauses: pass on what is held
				if len(s.out) > 0 {
					return
				}
				c = <-s.chunks
			}
		} else {
			c = <-s.chunks
		}
		s.buf = append(s.buf, c.data...)
		s.srcErr = c.err
	}
}

// emit takes one event: queued for the client, redacted, and kept for
// the recording.
func (s *streamBody) emit(raw []byte) {
	if s.red == nil {
		ev := parseEvent(raw, func(s string) string { return s })
		s.in.Response.Events = append(s.in.Response.Events, ev)
		s.out = append(s.out, ev.bytes()...)
		return
	}
	s.raws = append(s.raws, bytes.Clone(raw))
	s.queue(s.red.add(raw, false))
}

// queue passes events on to the client.
func (s *streamBody) queue(evs []Event) {
	for _, ev := range evs {
		s.out = append(s.out, ev.bytes()...)
	}
}

// end finishes the stream: it is recorded when err is nil.
func (s *streamBody) end(err error) {
	if s.finished {
		return
	}
	s.finished = true
	s.src.Close()
	if err != nil {
		s.err = err
		s.done(Interaction{}, err)
		return
	}
	s.err = io.EOF
	s.done(s.in, nil)
}

// StreamDrain is how long closing a live stream before its end waits for
// the rest of it, so that a client that stops reading early (at a
// "[DONE]" event, say) still leaves a whole recording. A stream that goes
// on longer is cut: closed, and not recorded.
const StreamDrain = 5 * time.Second

// Close reads what is left of the live stream, for at most StreamDrain,
// then closes it.
func (s *streamBody) Close() error {
	drain := time.AfterFunc(StreamDrain, func() {
		s.cut.Store(true)
		s.src.Close() // ends a Read blocked in fill
	})
	defer drain.Stop()
	s.mu.Lock()
	defer s.mu.Unlock()
	for !s.finished {
		s.fill()
	}
	s.out = nil
	return nil
}

// cutEventFrom returns the first whole event of buf, its terminating
// blank line included, and the rest; buf's first from bytes start no
// event's terminating blank line.
func cutEventFrom(buf []byte, from int) (event, rest []byte, ok bool) {
	end := -1
	for _, sep := range []string{"\n\n", "\r\n\r\n", "\r\r"} {
		if i := bytes.Index(buf[from:], []byte(sep)); i >= 0 && (end < 0 || from+i+len(sep) < end) {
			end = from + i + len(sep)
		}
	}
	if end < 0 {
		return nil, buf, false
	}
	return buf[:end], buf[end:], true
}

// parseEvent reads one event as a recording keeps it (see Event), its
// text redacted by clean.
func parseEvent(raw []byte, clean func(string) string) Event {
	if !utf8.Valid(raw) {
		return Event{RawBase64: []byte(clean(string(raw)))}
	}
	text, ok := strings.CutSuffix(string(raw), "\n\n")
	if ok && !strings.ContainsAny(text, "\r") {
		lines := strings.Split(text, "\n")
		var ev Event
		if name, isName := strings.CutPrefix(lines[0], "event: "); isName && len(lines) == 2 && name != "" {
			ev.Event, lines = name, lines[1:]
		}
		if data, isData := strings.CutPrefix(lines[0], "data: "); isData && len(lines) == 1 {
			if json.Valid([]byte(data)) && isCompact(data) {
				if c, err := cleanJSON([]byte(data), clean); err == nil {
					ev.Data = c
					return ev
				}
			}
			if !json.Valid([]byte(data)) {
				ev.DataText = clean(data)
				if ev.DataText == "" && ev.Event == "" {
					return Event{Raw: string(raw)}
				}
				return ev
			}
		}
	}
	return Event{Raw: clean(string(raw))}
}

func isCompact(s string) bool {
	var b bytes.Buffer
	return json.Compact(&b, []byte(s)) == nil && b.String() == s
}

// sameJSON reports whether a and b encode alike.
func sameJSON(a, b any) bool {
	x, errX := json.Marshal(a)
	y, errY := json.Marshal(b)
	return errX == nil && errY == nil && bytes.Equal(x, y)
}

var _ http.RoundTripper = (*Transport)(nil)
