package judgefake

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"

	"github.com/evalkit-go/evalkit"
)

// EmbeddingsServer is a fake OpenAI-compatible embeddings API on a real
// local socket: POST /v1/embeddings (any path ending in /embeddings)
// answered with the vectors of an evalkit.Embedder, such as BagOfWords, in
// OpenAI's shape:
//
//	{"object": "list", "model": "text-embedding-3-small",
//	 "data": [{"object": "embedding", "index": 0, "embedding": [0.12, ...]}],
//	 "usage": {"prompt_tokens": 7, "total_tokens": 7}}
//
// Make one with NewEmbeddingsServer; Close it when done. An embeddings
// client given URL+"/v1" as its base URL talks to it as to the real API.
type EmbeddingsServer struct {
	// URL is the server's base URL, "http://127.0.0.1:port".
	URL string

	ts     *httptest.Server
	closed chan struct{}
	once   sync.Once
	e      evalkit.Embedder
	mu     sync.Mutex
	faults []Reply
	reqs   []Request
	errs   []error
}

// NewEmbeddingsServer starts a server answering with e's vectors. faults
// are the answers to the first requests, one each, in order — Status
// (with RetryAfter) for an error reply in OpenAI's error shape, Fault for
// a broken one (FaultStall, FaultReset, FaultMalformed, FaultEmpty and
// FaultCutOff are served; a zero Reply answers normally) — and every
// later request is answered. Like the real API it refuses with a 400 a
// body that is not a JSON object, one without "model" or "input", an
// input that is not a string or a list of non-empty strings, and an
// "encoding_format" other than "float"; those refusals, other paths and
// methods, and an embedder's error are problems Err returns.
func NewEmbeddingsServer(e evalkit.Embedder, faults ...Reply) *EmbeddingsServer {
	s := &EmbeddingsServer{e: e, faults: faults, closed: make(chan struct{})}
	s.ts = httptest.NewServer(http.HandlerFunc(s.handle))
	s.URL = s.ts.URL
	return s
}

// Client returns an *http.Client for the server.
func (s *EmbeddingsServer) Client() *http.Client { return s.ts.Client() }

// Close ends stalled requests, shuts the server down and waits for its
// handlers; it is safe to call more than once.
func (s *EmbeddingsServer) Close() {
	s.once.Do(func() {
		close(s.closed)
		s.ts.Close()
	})
}

// Requests returns the requests received so far, credentials redacted.
func (s *EmbeddingsServer) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Request, len(s.reqs))
	copy(out, s.reqs)
	return out
}

// Err returns every problem the server met, joined, or nil.
func (s *EmbeddingsServer) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return errors.Join(s.errs...)
}

func (s *EmbeddingsServer) problem(w http.ResponseWriter, status int, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	s.mu.Lock()
	s.errs = append(s.errs, fmt.Errorf("judgefake: embeddings: %s", msg))
	s.mu.Unlock()
	writeEmbeddingsError(w, status, msg, 0)
}

func writeEmbeddingsError(w http.ResponseWriter, status int, msg string, retryAfterSeconds int) {
	typ, code := openaiErrorType(status)
	body, _ := json.Marshal(map[string]any{"error": map[string]any{"message": msg, "type": typ, "param": nil, "code": code}})
	w.Header().Set("Content-Type", "application/json")
	if retryAfterSeconds > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(retryAfterSeconds))
	}
	w.WriteHeader(status)
	w.Write(body)
}

func (s *EmbeddingsServer) handle(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return
	}
	s.mu.Lock()
	s.reqs = append(s.reqs, Request{API: APIOpenAI, Method: r.Method, Path: r.URL.Path, Query: redactQuery(r.URL.Query()), Header: redactHeader(r.Header), Body: body})
	var fault Reply
	faulted := len(s.faults) > 0
	if faulted {
		fault, s.faults = s.faults[0], s.faults[1:]
	}
	s.mu.Unlock()
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/embeddings") {
		s.problem(w, http.StatusNotFound, "%s %s: judgefake serves POST .../embeddings", r.Method, r.URL.Path)
		return
	}
	if faulted && s.fault(w, r, fault) {
		return
	}
	var req struct {
		Model          *string         `json:"model"`
		Input          json.RawMessage `json:"input"`
		EncodingFormat *string         `json:"encoding_format"`
	}
	if err := json.Unmarshal(body, &req); err != nil || len(body) == 0 || body[0] != '{' {
		s.problem(w, http.StatusBadRequest, "the body is not a JSON object")
		return
	}
	if req.Model == nil || *req.Model == "" {
		s.problem(w, http.StatusBadRequest, "you must provide a model parameter")
		return
	}
	if f := req.EncodingFormat; f != nil && *f != "float" {
		s.problem(w, http.StatusBadRequest, "encoding_format %q: judgefake answers float only", *f)
		return
	}
	var texts []string
	var one string
	if err := json.Unmarshal(req.Input, &one); err == nil {
		texts = []string{one}
	} else if err := json.Unmarshal(req.Input, &texts); err != nil {
		s.problem(w, http.StatusBadRequest, "input must be a string or a list of strings")
		return
	}
	if len(texts) == 0 {
		s.problem(w, http.StatusBadRequest, "input is empty")
		return
	}
	tokens := 0
	for i, t := range texts {
		if t == "" {
			s.problem(w, http.StatusBadRequest, "input[%d] is an empty string", i)
			return
		}
		tokens += max(1, len(t)/4)
	}
	vecs, err := s.e.Embed(r.Context(), texts)
	if err == nil && len(vecs) != len(texts) {
		err = fmt.Errorf("%d vectors for %d texts", len(vecs), len(texts))
	}
	if err != nil {
		s.problem(w, http.StatusInternalServerError, "the embedder failed: %v", err)
		return
	}
	data := make([]map[string]any, len(vecs))
	for i, v := range vecs {
		data[i] = map[string]any{"object": "embedding", "index": i, "embedding": v}
	}
	out, err := json.Marshal(map[string]any{"object": "list", "model": *req.Model, "data": data,
		"usage": map[string]any{"prompt_tokens": tokens, "total_tokens": tokens}})
	if err != nil {
		s.problem(w, http.StatusInternalServerError, "the vectors do not encode: %v", err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(out)
}

// fault serves a scripted fault, reporting whether it answered.
func (s *EmbeddingsServer) fault(w http.ResponseWriter, r *http.Request, f Reply) bool {
	switch f.Fault {
	case FaultStall:
		select {
		case <-r.Context().Done():
		case <-s.closed:
		}
		return true
	case FaultReset:
		reset(w)
		return true
	case FaultMalformed:
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"object": "list", "data": [`)
		return true
	case FaultEmpty:
		w.Header().Set("Content-Type", "application/json")
		return true
	case FaultCutOff:
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Content-Length", "1000")
		io.WriteString(w, `{"object": "list", "data": [{"index": 0, "embedding": [0.1,`)
		return true
	}
	if f.Status != 0 && f.Status != http.StatusOK {
		retry := 0
		if f.RetryAfter > 0 {
			retry = int((f.RetryAfter + 999_999_999) / 1_000_000_000)
		}
		msg := f.Text
		if msg == "" {
			msg = "judgefake: scripted " + strconv.Itoa(f.Status)
		}
		writeEmbeddingsError(w, f.Status, msg, retry)
		return true
	}
	return false
}
