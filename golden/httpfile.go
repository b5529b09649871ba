package golden

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/evalkit-go/evalkit/internal/jsonx"
	"github.com/evalkit-go/evalkit/internal/textnorm"
)

// File name suffixes of the two kinds of recording. evaltest names them
// testdata/evalkit/<TestName>.judge.json and <TestName>.http.json; Verify,
// Prune and the evalkit command tell them apart by these.
const (
	JudgeSuffix = ".judge.json"
	HTTPSuffix  = ".http.json"
)

// HTTPFile is a recording of HTTP exchanges: what a Transport replays. On
// disk it is JSON with "version": 1 and its interactions test by test (by
// name), each test's in the order it made them (see WithTest), indented
// by two spaces, LF line endings and a trailing newline — so a
// re-recording is a reviewable diff that reads as the conversation, and
// recording the same calls twice writes the same bytes. A file checked
// out with CRLF line endings reads the same.
type HTTPFile struct {
	// Version is the format version: Version (1).
	Version int `json:"version"`
	// Interactions are the recorded exchanges, grouped by Test (in name
	// order) when written, each test's in the order given.
	Interactions []Interaction `json:"interactions"`
}

// Interaction is one recorded request and the response it got.
type Interaction struct {
	// Key is what the request is filed under (see Transport):
	// "sha256:" and 64 hex digits over its method, path, query and
	// canonical body, credentials and ignored fields left out.
	Key string `json:"key"`
	// Occurrence counts identical requests: 1 for the first request with
	// this key a Transport sent (its test's Transports, with WithTest), 2
	// for the second, and so on. Repeated identical requests replay their
	// responses in this order.
	Occurrence int `json:"occurrence"`
	// Test is the test that made the request (see WithTest), "TestAgent/refund";
	// "" for a Transport given no test name. It is part of the key: sibling
	// tests sending identical requests each replay their own responses.
	Test string `json:"test,omitempty"`
	// Request is the request as it was sent, credentials redacted.
	Request HTTPRequest `json:"request"`
	// Response is the response it got, as it replays.
	Response HTTPResponse `json:"response"`
	// RecordedAt is when the response was recorded, in UTC, to the
	// second.
	RecordedAt time.Time `json:"recorded_at"`
}

// ID returns the interaction's identity in a recording, as usage logs
// name it: the key, "#" and the occurrence ("sha256:…#2").
func (i Interaction) ID() string { return i.Key + "#" + strconv.Itoa(i.Occurrence) }

// HTTPRequest is a recorded request. No header is kept: headers carry
// credentials and transport details, and never key.
type HTTPRequest struct {
	// Method is the request method: "POST".
	Method string `json:"method"`
	// Origin is the URL's scheme and host, "https://api.openai.com", its
	// port only when it is not the scheme's default; never a user or
	// password. Every loopback host (localhost, 127.0.0.1, ::1) is
	// "http://localhost" (or https), without its port: a local test
	// server listens on a new port each run. It is part of the key, so two
	// backends answering identical bodies are told apart.
	Origin string `json:"origin,omitempty"`
	// Path is the URL's path: "/v1/chat/completions".
	Path string `json:"path"`
	// Query is the URL's query; the values of parameters named as
	// credentials ("key", "api-key", "token", "access_token", "sig",
	// "X-Amz-Signature", ...: see internal/secret.Param) are
	// "[redacted]", and key-shaped strings in any other are.
	Query url.Values `json:"query,omitempty"`
	// Body is a JSON body as canonical JSON (object keys sorted),
	// credential fields and key-shaped strings redacted.
	Body json.RawMessage `json:"body,omitempty"`
	// BodyText is a body that is not JSON, as text.
	BodyText string `json:"body_text,omitempty"`
	// BodyBase64 is a body that is not UTF-8 text, credential shapes
	// redacted. A compressed body (Content-Encoding gzip or deflate) is
	// kept decoded, as JSON or text.
	BodyBase64 []byte `json:"body_base64,omitempty"`
	// Multipart is a multipart body (an upload), part by part, without
	// its boundary (see FormPart).
	Multipart []FormPart `json:"multipart,omitempty"`
}

// HTTPResponse is a recorded response. Of its header only Content-Type,
// Retry-After, Retry-After-Ms and X-Should-Retry are kept: what clients
// act on. Dates, request ids, rate-limit counters and cookies are not, so
// re-recording does not churn and nothing secret is written; nor is
// Content-Encoding, since a compressed body is recorded decoded (a
// recording made before that, with a Content-Encoding header and its body
// in body_base64, replays as it was recorded).
type HTTPResponse struct {
	// Status is the status code: 200, 429, ...
	Status int `json:"status"`
	// Header holds the kept header fields.
	Header http.Header `json:"header,omitempty"`
	// Body is a JSON body, its key order as sent. Replay sends it
	// compacted.
	Body json.RawMessage `json:"body,omitempty"`
	// BodyText is a body that is neither JSON nor an event stream.
	BodyText string `json:"body_text,omitempty"`
	// BodyBase64 is a body that is not UTF-8 text, credential shapes
	// redacted. A compressed body is kept decoded, in Body or BodyText.
	BodyBase64 []byte `json:"body_base64,omitempty"`
	// Events is a server-sent event stream (Content-Type
	// text/event-stream), one element per event, in order: replay sends
	// one event per read, so streaming clients see the stream as it came.
	Events []Event `json:"events,omitempty"`
}

// Event is one server-sent event of a recorded stream. An event made of
// an optional "event: NAME" line and one "data: ..." line, LF-terminated,
// is kept as its parts; any other (comments, id or retry fields, several
// data lines, CRLF line endings, an unterminated tail) is kept whole in
// Raw (RawBase64 when it is not UTF-8). Either way it replays byte for
// byte.
type Event struct {
	// Event is the event's name ("message_start"), "" for none.
	Event string `json:"event,omitempty"`
	// Data is the event's data when it is compact JSON, as OpenAI and
	// Anthropic send it.
	Data json.RawMessage `json:"data,omitempty"`
	// DataText is the event's data when it is not JSON: "[DONE]".
	DataText string `json:"data_text,omitempty"`
	// Raw is an event kept whole, its terminating blank line included.
	Raw string `json:"raw,omitempty"`
	// RawBase64 is an event kept whole that is not UTF-8 text.
	RawBase64 []byte `json:"raw_base64,omitempty"`
}

// bytes returns the event as it is sent.
func (e Event) bytes() []byte {
	if e.RawBase64 != nil {
		return e.RawBase64
	}
	if e.Raw != "" {
		return []byte(e.Raw)
	}
	var b bytes.Buffer
	if e.Event != "" {
		b.WriteString("event: " + e.Event + "\n")
	}
	b.WriteString("data: ")
	if e.Data != nil {
		json.Compact(&b, e.Data)
	} else {
		b.WriteString(e.DataText)
	}
	b.WriteString("\n\n")
	return b.Bytes()
}

// LoadHTTP reads and checks the HTTP recording at path (see DecodeHTTP).
// A file that does not exist is an error wrapping fs.ErrNotExist.
func LoadHTTP(path string) (*HTTPFile, error) {
	data, err := readFile(path)
	if err != nil {
		return nil, err
	}
	return DecodeHTTP(path, data)
}

// DecodeHTTP reads an HTTP recording; name says which file in errors. It
// returns an error naming the file for anything that is not a version 1
// HTTP recording: JSON that does not parse (with its line and column), no
// version or another one, an interaction whose key is not a key, whose
// occurrence is not positive or is given twice for its key, or that has no
// method, path or status, and, as Decode, a UTF-8 byte order mark and a
// JSON key given twice in any object, naming the interaction. Interactions
// need not be sorted; CRLF line endings are read as LF.
func DecodeHTTP(name string, data []byte) (*HTTPFile, error) {
	if err := checkBytes(name, data); err != nil {
		return nil, err
	}
	var f struct {
		Version      *int          `json:"version"`
		Interactions []Interaction `json:"interactions"`
	}
	// Exact names: the bodies an HTTP recording holds are any JSON.
	dups := scanDuplicates(data, jsonx.FirstDuplicate)
	dec := json.NewDecoder(bytes.NewReader(data))
	err := dec.Decode(&f)
	if err == nil && dec.More() {
		err = fmt.Errorf("more data after its JSON object")
	}
	dup := <-dups // before any return: the scan reads data
	switch {
	case f.Version != nil && *f.Version != Version && !versionError(err):
		return nil, fmt.Errorf("golden: %s: format version %d, and this evalkit reads version %d: update evalkit, or re-record the file", name, *f.Version, Version)
	case err != nil:
		return nil, fmt.Errorf("golden: %s: not an HTTP recording: %s", name, jsonError(data, err))
	case f.Version == nil:
		return nil, fmt.Errorf("golden: %s: not an HTTP recording: it has no \"version\"", name)
	}
	seen := make(map[string]bool, len(f.Interactions))
	for i, in := range f.Interactions {
		where := fmt.Sprintf("golden: %s: interaction %d", name, i+1)
		if err := checkInteraction(in); err != nil {
			return nil, fmt.Errorf("%s: %w", where, err)
		}
		if seen[in.ID()] {
			return nil, fmt.Errorf("%s: key %s, occurrence %d, is given twice", where, ShortKey(in.Key), in.Occurrence)
		}
		seen[in.ID()] = true
	}
	if err := duplicateKey(name, dup, "interactions", func(i int) string {
		if i < len(f.Interactions) {
			in := f.Interactions[i]
			return fmt.Sprintf("interaction %d (%s #%d)", i+1, ShortKey(in.Key), in.Occurrence)
		}
		return ""
	}); err != nil {
		return nil, err
	}
	if f.Interactions == nil {
		f.Interactions = []Interaction{}
	}
	return &HTTPFile{Version: Version, Interactions: f.Interactions}, nil
}

// checkInteraction refuses an interaction that a Transport cannot have
// written: a key that is not a key, an occurrence below 1, no method or
// path, a status that is not one.
func checkInteraction(in Interaction) error {
	switch {
	case !validKey(in.Key):
		return fmt.Errorf("key %s is not %s and 64 hex digits", textnorm.Quote(in.Key, maxQuotedKey), KeyPrefix)
	case in.Occurrence < 1:
		return fmt.Errorf("occurrence %d is not 1 or more", in.Occurrence)
	case in.Request.Method == "" || in.Request.Path == "":
		return errors.New("the request has no method or path")
	case in.Response.Status < 100 || in.Response.Status > 999:
		return fmt.Errorf("status %d is not an HTTP status", in.Response.Status)
	}
	return nil
}

// isHTTPPath reports whether path names an HTTP recording (HTTPSuffix).
func isHTTPPath(path string) bool { return strings.HasSuffix(path, HTTPSuffix) }

// Marshal returns the file's bytes as they are written: interactions
// grouped by test (by name), each test's in the order given, two-space
// indent, LF, a trailing newline, no HTML escaping. It returns an error
// for an interaction given twice.
func (f *HTTPFile) Marshal() ([]byte, error) {
	out := HTTPFile{Version: Version, Interactions: slices.Clone(f.Interactions)}
	if out.Interactions == nil {
		out.Interactions = []Interaction{}
	}
	byTest(out.Interactions)
	seen := make(map[string]bool, len(out.Interactions))
	for _, in := range out.Interactions {
		if seen[in.ID()] {
			return nil, fmt.Errorf("golden: key %s, occurrence %d, is given twice", in.Key, in.Occurrence)
		}
		seen[in.ID()] = true
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		return nil, fmt.Errorf("golden: encoding the recording: %w", err)
	}
	return b.Bytes(), nil
}

func compareInteractions(a, b Interaction) int {
	if c := strings.Compare(a.Key, b.Key); c != 0 {
		return c
	}
	return a.Occurrence - b.Occurrence
}

// WriteHTTPFile writes f to path atomically, as WriteFile does.
func WriteHTTPFile(path string, f *HTTPFile) error {
	data, err := f.Marshal()
	if err != nil {
		return err
	}
	return writeAtomic(path, data)
}
