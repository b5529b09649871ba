package judgehttp_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/iotest"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit/internal/judgehttp"
)

// roundTrip adapts a function to an http.RoundTripper.
type roundTrip func(*http.Request) (*http.Response, error)

func (f roundTrip) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// reply is one scripted outcome: a response, or a transport error.
type reply struct {
	status int
	header http.Header
	body   string
	err    error
	stall  bool      // block until the request's context ends
	reader io.Reader // body reader instead of body
}

// script serves replies in order and counts the requests it saw; it fails
// the test on a request past the end.
type script struct {
	t       *testing.T
	mu      sync.Mutex
	replies []reply
	seen    []*http.Request
}

func (s *script) RoundTrip(r *http.Request) (*http.Response, error) {
	s.mu.Lock()
	n := len(s.seen)
	s.seen = append(s.seen, r)
	s.mu.Unlock()
	if n >= len(s.replies) {
		s.t.Errorf("request %d past the script's %d replies", n+1, len(s.replies))
		return nil, errors.New("script exhausted")
	}
	rep := s.replies[n]
	if rep.stall {
		<-r.Context().Done()
		return nil, r.Context().Err()
	}
	if rep.err != nil {
		return nil, rep.err
	}
	body := rep.reader
	if body == nil {
		body = strings.NewReader(rep.body)
	}
	h := rep.header
	if h == nil {
		h = http.Header{}
	}
	return &http.Response{StatusCode: rep.status, Header: h, Body: io.NopCloser(body), Request: r}, nil
}

func (s *script) requests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.seen)
}

func newClient(t *testing.T, replies ...reply) (*judgehttp.Client, *script) {
	s := &script{t: t, replies: replies}
	return &judgehttp.Client{Name: "testjudge", HTTP: &http.Client{Transport: s}, MaxRetries: 3}, s
}

func ok(body string) reply { return reply{status: 200, body: body} }

func status(code int, body string, kv ...string) reply {
	h := http.Header{}
	for i := 0; i+1 < len(kv); i += 2 {
		h.Set(kv[i], kv[i+1])
	}
	return reply{status: code, header: h, body: body}
}

const overloaded = `{"error": {"message": "The server is overloaded", "type": "server_error"}}`

func TestJudgehttpSuccess(t *testing.T) {
	c, s := newClient(t, ok(`{"ok": true}`))
	resp, err := c.Post(context.Background(), "http://judge.test/v1/x", http.Header{"Authorization": {"Bearer k"}}, []byte(`{"a":1}`))
	require.NoError(t, err)
	assert.Equal(t, `{"ok": true}`, string(resp.Body))
	assert.Equal(t, 1, resp.Attempts)
	req := s.seen[0]
	assert.Equal(t, http.MethodPost, req.Method)
	assert.Equal(t, "application/json", req.Header.Get("Content-Type"))
	assert.Equal(t, "Bearer k", req.Header.Get("Authorization"))
	body, err := io.ReadAll(req.Body)
	require.NoError(t, err)
	assert.Equal(t, `{"a":1}`, string(body))
}

// TestJudgehttpRetryAfter: the wait is the server's, to the nanosecond of
// virtual time, in each form it may take.
func TestJudgehttpRetryAfter(t *testing.T) {
	tests := []struct {
		name   string
		header []string
		want   time.Duration
	}{
		{"seconds", []string{"Retry-After", "20"}, 20 * time.Second},
		{"fractional seconds", []string{"Retry-After", "1.5"}, 1500 * time.Millisecond},
		{"milliseconds first", []string{"Retry-After", "20", "Retry-After-Ms", "250"}, 250 * time.Millisecond},
		{"zero", []string{"Retry-After", "0"}, 0},
		{"unreadable falls back to backoff", []string{"Retry-After", "soon"}, 500 * time.Millisecond},
		{"NaN falls back to backoff", []string{"Retry-After", "NaN"}, 500 * time.Millisecond},
		{"infinity falls back to backoff", []string{"Retry-After", "+Inf"}, 500 * time.Millisecond},
		{"negative zero falls back to backoff", []string{"Retry-After", "-0"}, 500 * time.Millisecond},
		{"NaN milliseconds fall back to backoff", []string{"Retry-After-Ms", "NaN"}, 500 * time.Millisecond},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				c, s := newClient(t, status(429, `{"error": {"message": "slow down"}}`, tt.header...), ok(`{}`))
				start := time.Now()
				resp, err := c.Post(context.Background(), "http://judge.test", nil, nil)
				require.NoError(t, err)
				assert.Equal(t, tt.want, time.Since(start))
				assert.Equal(t, 2, resp.Attempts)
				assert.Equal(t, 2, s.requests())
			})
		})
	}
}

func TestJudgehttpRetryAfterDate(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// Virtual time starts on a whole second, as HTTP dates are written.
		at := time.Now().Add(30 * time.Second).UTC().Format(http.TimeFormat)
		c, _ := newClient(t, status(503, overloaded, "Retry-After", at), ok(`{}`))
		start := time.Now()
		_, err := c.Post(context.Background(), "http://judge.test", nil, nil)
		require.NoError(t, err)
		assert.Equal(t, 30*time.Second, time.Since(start))
	})
}

// TestJudgehttpBackoff: without Retry-After the waits are 0.5 s, 1 s, 2 s.
func TestJudgehttpBackoff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c, _ := newClient(t, status(500, overloaded), status(502, "bad gateway"), status(529, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`), ok(`{}`))
		start := time.Now()
		resp, err := c.Post(context.Background(), "http://judge.test", nil, nil)
		require.NoError(t, err)
		assert.Equal(t, 3500*time.Millisecond, time.Since(start))
		assert.Equal(t, 4, resp.Attempts)
	})
}

func TestJudgehttpRetriesExhausted(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c, s := newClient(t, status(429, `{"error": {"message": "Rate limit reached for gpt-4.1-mini", "type": "requests"}}`, "Retry-After", "2"),
			status(429, `{"error": {"message": "Rate limit reached for gpt-4.1-mini", "type": "requests"}}`, "Retry-After", "2"),
			status(429, `{"error": {"message": "Rate limit reached for gpt-4.1-mini", "type": "requests"}}`, "Retry-After", "2"),
			status(429, `{"error": {"message": "Rate limit reached for gpt-4.1-mini", "type": "requests"}}`, "Retry-After", "2"))
		start := time.Now()
		_, err := c.Post(context.Background(), "http://judge.test", nil, nil)
		assert.EqualError(t, err, "testjudge: 4 attempts: HTTP 429 rate limited (Retry-After 2s): Rate limit reached for gpt-4.1-mini")
		assert.Equal(t, 6*time.Second, time.Since(start))
		assert.Equal(t, 4, s.requests())
		var e *judgehttp.Error
		require.ErrorAs(t, err, &e)
		assert.Equal(t, 429, e.Status())
		assert.True(t, e.Retryable())
	})
}

func TestJudgehttpNoRetry(t *testing.T) {
	tests := []struct {
		name  string
		reply reply
		want  string
	}{
		{"400", status(400, `{"error": {"message": "Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model.", "type": "invalid_request_error", "param": "response_format"}}`),
			"testjudge: 1 attempt: HTTP 400 Bad Request: Invalid parameter: 'response_format' of type 'json_schema' is not supported with this model."},
		{"401", status(401, `{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}`),
			"testjudge: 1 attempt: HTTP 401 Unauthorized: invalid x-api-key"},
		{"404 html", status(404, "<html>\n<body>Not   Found</body></html>"),
			"testjudge: 1 attempt: HTTP 404 Not Found: <html> <body>Not Found</body></html>"},
		{"unknown host", reply{err: &net.DNSError{Err: "no such host", Name: "judge.test", IsNotFound: true}},
			"testjudge: 1 attempt: Post \"http://judge.test\": lookup judge.test: no such host"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, s := newClient(t, tt.reply)
			_, err := c.Post(context.Background(), "http://judge.test", nil, nil)
			assert.EqualError(t, err, tt.want)
			assert.Equal(t, 1, s.requests())
		})
	}
}

func TestJudgehttpParam(t *testing.T) {
	c, _ := newClient(t, status(400, `{"error": {"message": "bad", "param": "response_format"}}`))
	_, err := c.Post(context.Background(), "http://judge.test", nil, nil)
	var e *judgehttp.Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, "response_format", e.Param())
	assert.Equal(t, "bad", e.Message())
	assert.False(t, e.Retryable())
}

// TestJudgehttpDeadline: a wait that would pass the context's deadline is
// not started; the call fails at once and says why.
func TestJudgehttpDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c, s := newClient(t, status(429, `{"error": {"message": "Rate limit reached"}}`, "Retry-After", "20"), ok(`{}`))
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		start := time.Now()
		_, err := c.Post(ctx, "http://judge.test", nil, nil)
		assert.EqualError(t, err, "testjudge: 1 attempt: HTTP 429 rate limited (Retry-After 20s): Rate limit reached; not retrying: waiting 20s would pass the context deadline (5s left)")
		assert.ErrorIs(t, err, context.DeadlineExceeded)
		assert.Equal(t, time.Duration(0), time.Since(start), "failed without sleeping")
		assert.Equal(t, 1, s.requests())
	})
}

// TestJudgehttpDeadlineMidRequest: the context ends while the server
// stalls; the error is the context's, not a retryable timeout.
func TestJudgehttpDeadlineMidRequest(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c, s := newClient(t, status(503, overloaded), reply{stall: true})
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		start := time.Now()
		_, err := c.Post(ctx, "http://judge.test", nil, nil)
		assert.EqualError(t, err, "testjudge: 2 attempts: context deadline exceeded")
		assert.ErrorIs(t, err, context.DeadlineExceeded)
		assert.Equal(t, 5*time.Second, time.Since(start))
		assert.Equal(t, 2, s.requests())
	})
}

func TestJudgehttpMaxWait(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c, _ := newClient(t, status(429, `{"error": {"message": "quota"}}`, "Retry-After", "3600"))
		start := time.Now()
		_, err := c.Post(context.Background(), "http://judge.test", nil, nil)
		assert.EqualError(t, err, "testjudge: 1 attempt: HTTP 429 rate limited (Retry-After 1h0m0s): quota; not retrying: the server asks to wait 1h0m0s, longer than the 1m0s a judge waits")
		assert.Equal(t, time.Duration(0), time.Since(start))
	})
}

func TestJudgehttpCancelWhileWaiting(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c, _ := newClient(t, status(503, overloaded, "Retry-After", "10"))
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(3*time.Second, cancel)
		start := time.Now()
		_, err := c.Post(ctx, "http://judge.test", nil, nil)
		assert.EqualError(t, err, "testjudge: 1 attempt: HTTP 503 Service Unavailable (Retry-After 10s): The server is overloaded; stopped waiting to retry: context canceled")
		assert.ErrorIs(t, err, context.Canceled)
		assert.Equal(t, 3*time.Second, time.Since(start))
	})
}

// TestJudgehttpStall: a server that never answers times out each attempt,
// and the timeouts are retried.
func TestJudgehttpStall(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c, s := newClient(t, reply{stall: true}, reply{stall: true})
		c.MaxRetries = 1
		c.AttemptTimeout = 10 * time.Second
		start := time.Now()
		_, err := c.Post(context.Background(), "http://judge.test", nil, nil)
		assert.EqualError(t, err, "testjudge: 2 attempts: timeout: no complete response within 10s")
		assert.Equal(t, 20500*time.Millisecond, time.Since(start))
		assert.Equal(t, 2, s.requests())
	})
}

func TestJudgehttpStallThenAnswer(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c, _ := newClient(t, reply{stall: true}, ok(`{"fine": 1}`))
		start := time.Now()
		resp, err := c.Post(context.Background(), "http://judge.test", nil, nil)
		require.NoError(t, err)
		assert.Equal(t, `{"fine": 1}`, string(resp.Body))
		assert.Equal(t, judgehttp.DefaultAttemptTimeout+500*time.Millisecond, time.Since(start))
	})
}

// TestJudgehttpConnectionFaults: resets, refusals and bodies cut off
// mid-read are retried.
func TestJudgehttpConnectionFaults(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		reset := &net.OpError{Op: "read", Net: "tcp", Err: errors.New("connection reset by peer")}
		cut := reply{status: 200, reader: io.MultiReader(strings.NewReader(`{"choices": [`), iotest.ErrReader(io.ErrUnexpectedEOF))}
		c, s := newClient(t, reply{err: reset}, cut, ok(`{"whole": true}`))
		resp, err := c.Post(context.Background(), "http://judge.test", nil, nil)
		require.NoError(t, err)
		assert.Equal(t, `{"whole": true}`, string(resp.Body))
		assert.Equal(t, 3, s.requests())
	})
	synctest.Test(t, func(t *testing.T) {
		cut := reply{status: 200, reader: io.MultiReader(strings.NewReader(`{"choices": [`), iotest.ErrReader(io.ErrUnexpectedEOF))}
		c, _ := newClient(t, cut)
		c.MaxRetries = 0
		_, err := c.Post(context.Background(), "http://judge.test", nil, nil)
		assert.EqualError(t, err, "testjudge: 1 attempt: HTTP 200 OK: reading the response body: unexpected EOF")
		assert.ErrorIs(t, err, io.ErrUnexpectedEOF)
	})
}

func TestJudgehttpBodyTooLarge(t *testing.T) {
	c, s := newClient(t, reply{status: 200, reader: io.LimitReader(zeros{}, judgehttp.MaxBody+1)})
	_, err := c.Post(context.Background(), "http://judge.test", nil, nil)
	assert.EqualError(t, err, "testjudge: 1 attempt: HTTP 200 OK: the response body is larger than 16 MiB")
	assert.Equal(t, 1, s.requests())
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

// TestJudgehttpRedaction: a credential echoed by a server never reaches an
// error's text.
func TestJudgehttpRedaction(t *testing.T) {
	const key = "sk-test-AAAA1111"
	c, _ := newClient(t, status(401, `{"error": {"message": "Incorrect API key provided: sk-test-AAAA1111."}}`))
	c.Secrets = []string{key, ""}
	_, err := c.Post(context.Background(), "http://judge.test/?key="+key, nil, nil)
	assert.EqualError(t, err, "testjudge: 1 attempt: HTTP 401 Unauthorized: Incorrect API key provided: [redacted:openai-key].")
	assert.NotContains(t, err.Error(), key)
}

// TestJudgehttpRealServer runs the client over real HTTP once.
func TestJudgehttpRealServer(t *testing.T) {
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if calls.Add(1) == 1 {
			w.Header().Set("Retry-After", "0")
			w.WriteHeader(http.StatusServiceUnavailable)
			fmt.Fprint(w, overloaded)
			return
		}
		body, _ := io.ReadAll(r.Body)
		fmt.Fprintf(w, `{"echo": %s}`, body)
	}))
	defer srv.Close()
	c := &judgehttp.Client{Name: "testjudge", HTTP: srv.Client(), MaxRetries: 1}
	resp, err := c.Post(context.Background(), srv.URL, nil, []byte(`{"n": 7}`))
	require.NoError(t, err)
	assert.Equal(t, `{"echo": {"n": 7}}`, string(resp.Body))
	assert.Equal(t, 2, resp.Attempts)
}

// TestJudgehttpConcurrent shares one client between goroutines (run with
// -race). Every request's first attempt is refused with a 503, so each
// Post retries once; which goroutine gets which reply does not depend on
// scheduling.
func TestJudgehttpConcurrent(t *testing.T) {
	var seen sync.Map // the X-N header of each request already refused once
	c := &judgehttp.Client{Name: "testjudge", MaxRetries: 2, HTTP: &http.Client{Transport: roundTrip(func(r *http.Request) (*http.Response, error) {
		if _, again := seen.LoadOrStore(r.Header.Get("X-N"), true); !again {
			return &http.Response{StatusCode: 503, Header: http.Header{"Retry-After": {"0"}}, Body: io.NopCloser(strings.NewReader(overloaded))}, nil
		}
		return &http.Response{StatusCode: 200, Header: http.Header{}, Body: io.NopCloser(strings.NewReader(`{}`))}, nil
	})}}
	var wg sync.WaitGroup
	for i := range 32 {
		wg.Go(func() {
			resp, err := c.Post(context.Background(), "http://judge.test", http.Header{"X-N": {strconv.Itoa(i)}}, []byte(`{}`))
			if assert.NoError(t, err) {
				assert.Equal(t, 2, resp.Attempts)
			}
		})
	}
	wg.Wait()
}

func TestJudgehttpRetryAfterParse(t *testing.T) {
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		header []string
		want   time.Duration
		ok     bool
	}{
		{[]string{"Retry-After", "7"}, 7 * time.Second, true},
		{[]string{"Retry-After", " 7 "}, 7 * time.Second, true},
		{[]string{"Retry-After", "Sun, 29 Nov 2026 12:00:42 GMT"}, 42 * time.Second, true},
		{[]string{"Retry-After", "Sun, 29 Nov 2026 11:00:00 GMT"}, 0, true},
		{[]string{"Retry-After-Ms", "1500.5"}, 1500500 * time.Microsecond, true},
		{[]string{"Retry-After-Ms", "x", "Retry-After", "3"}, 3 * time.Second, true},
		{[]string{"Retry-After", "-1"}, 0, false},
		{[]string{"Retry-After", "tomorrow"}, 0, false},
		// Only digits, with an optional fraction, are a delay: ParseFloat's
		// NaN, infinities, signs, exponents and hex are not.
		{[]string{"Retry-After", "NaN"}, 0, false},
		{[]string{"Retry-After", "+Inf"}, 0, false},
		{[]string{"Retry-After", "Inf"}, 0, false},
		{[]string{"Retry-After", "-0"}, 0, false},
		{[]string{"Retry-After", "+5"}, 0, false},
		{[]string{"Retry-After", "1e3"}, 0, false},
		{[]string{"Retry-After", "0x10"}, 0, false},
		{[]string{"Retry-After", "1e400"}, 0, false},
		{[]string{"Retry-After", "5."}, 0, false},
		{[]string{"Retry-After", ".5"}, 0, false},
		{[]string{"Retry-After", "1_0"}, 0, false},
		{[]string{"Retry-After", "99999999999"}, 0, false},
		{[]string{"Retry-After-Ms", "NaN", "Retry-After", "2"}, 2 * time.Second, true},
		{[]string{"Retry-After-Ms", "-0"}, 0, false},
		{[]string{"Retry-After-Ms", "Inf"}, 0, false},
		{[]string{"Retry-After-Ms", "1e13"}, 0, false},
		{[]string{"Retry-After-Ms", "0x10"}, 0, false},
		{[]string{"Retry-After-Ms", "0"}, 0, true},
		{nil, 0, false},
	}
	for _, tt := range tests {
		h := http.Header{}
		for i := 0; i+1 < len(tt.header); i += 2 {
			h.Set(tt.header[i], tt.header[i+1])
		}
		got, ok := judgehttp.RetryAfter(h, now)
		assert.Equal(t, tt.ok, ok, "%v", tt.header)
		assert.Equal(t, tt.want, got, "%v", tt.header)
	}
}

func TestJudgehttpProviderMessage(t *testing.T) {
	tests := []struct{ body, msg, param string }{
		{`{"error": {"message": "Invalid schema", "type": "invalid_request_error", "param": "response_format", "code": null}}`, "Invalid schema", "response_format"},
		{`{"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}`, "Overloaded", ""},
		{`{"error": "model \"llama9\" not found, try pulling it first"}`, `model "llama9" not found, try pulling it first`, ""},
		{`{"message": "Bad request", "code": 400}`, "Bad request", ""},
		{`{"detail": "Not authenticated"}`, "Not authenticated", ""},
		{`{"detail": [{"loc": ["body"], "msg": "field required"}]}`, `{"detail": [{"loc": ["body"], "msg": "field required"}]}`, ""},
		{"upstream connect error\r\n\tor disconnect", "upstream connect error\r\n\tor disconnect", ""},
		{"", "", ""},
	}
	for _, tt := range tests {
		msg, param := judgehttp.ProviderMessage([]byte(tt.body))
		assert.Equal(t, tt.msg, msg, tt.body)
		assert.Equal(t, tt.param, param, tt.body)
	}
}

func TestJudgehttpBound(t *testing.T) {
	assert.Equal(t, "a b c", judgehttp.Bound("  a\n\n b\t\x00c ", 100))
	assert.Equal(t, "abc…", judgehttp.Bound("abcdef", 3))
	assert.Equal(t, "é…", judgehttp.Bound("éé", 3), "cut at a rune boundary")
	long := judgehttp.Bound(strings.Repeat("x", 10000), judgehttp.MaxMessage)
	assert.Len(t, long, judgehttp.MaxMessage+len("…"))
}

func TestJudgehttpLookupPrice(t *testing.T) {
	prices := map[string]float64{"gpt-4.1": 2, "gpt-4.1-mini": 0.4, "claude-haiku-4-5": 1}
	tests := []struct {
		models []string
		want   float64
		ok     bool
	}{
		{[]string{"gpt-4.1-mini"}, 0.4, true},
		{[]string{"gpt-4.1-mini-2025-04-14"}, 0.4, true},
		{[]string{"gpt-4.1-2025-04-14"}, 2, true},
		{[]string{"claude-haiku-4-5-20251001"}, 1, true},
		{[]string{"gpt-4.1-turbo"}, 0, false},
		{[]string{"gpt-4.1-mini-2025"}, 0, false},
		{[]string{"", "llama3", "gpt-4.1"}, 2, true},
		{[]string{"openai/gpt-4.1-mini"}, 0, false},
	}
	for _, tt := range tests {
		got, ok := judgehttp.LookupPrice(prices, tt.models...)
		assert.Equal(t, tt.ok, ok, "%v", tt.models)
		assert.Equal(t, tt.want, got, "%v", tt.models)
	}
}

// TestJudgehttpNeverFollowsRedirects: a judge API that redirects is not
// followed — not to another host (Go would forward x-api-key and api-key
// there, stripping only Authorization and cookies), not to the same one.
// The 3xx is an error naming the status and where it pointed, without the
// target's path or query, and it is not retried.
func TestJudgehttpNeverFollowsRedirects(t *testing.T) {
	for _, code := range []int{http.StatusMovedPermanently, http.StatusFound, http.StatusTemporaryRedirect, http.StatusPermanentRedirect} {
		t.Run(strconv.Itoa(code), func(t *testing.T) {
			var stolen atomic.Int32
			evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				stolen.Add(1)
				w.WriteHeader(http.StatusOK)
			}))
			defer evil.Close()
			var asked atomic.Int32
			origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				asked.Add(1)
				http.Redirect(w, r, evil.URL+"/steal?token=abc", code)
			}))
			defer origin.Close()
			// The user's client follows redirects; the judge's copy must not,
			// and the user's client must be left as it was.
			followed := 0
			user := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { followed++; return nil }}
			c := &judgehttp.Client{Name: "testjudge", HTTP: user, MaxRetries: 3}
			header := http.Header{"X-Api-Key": {"sk-ant-secret"}, "Api-Key": {"azure-secret"}, "Authorization": {"Bearer sk-secret"}}
			_, err := c.Post(context.Background(), origin.URL+"/v1/messages", header, []byte(`{}`))
			want := fmt.Sprintf("testjudge: 1 attempt: HTTP %d %s to %s: not followed: a judge sends its credentials only to its base URL; set the base URL to the API's own address",
				code, http.StatusText(code), evil.URL)
			assert.EqualError(t, err, want)
			var e *judgehttp.Error
			require.ErrorAs(t, err, &e)
			assert.Equal(t, code, e.Status())
			assert.False(t, e.Retryable())
			assert.Equal(t, int32(1), asked.Load(), "a redirect is not retried")
			assert.Zero(t, stolen.Load(), "the redirect target got a request")
			assert.Zero(t, followed, "the user's CheckRedirect was consulted")
			assert.NotNil(t, user.CheckRedirect, "the user's client is unchanged")
		})
	}
}

// TestJudgehttpRedirectLocation: where a redirect pointed is named by its
// scheme and host only.
func TestJudgehttpRedirectLocation(t *testing.T) {
	tests := []struct{ location, want string }{
		{"https://user:pw@other.example:8443/v1/x?key=k#f", "HTTP 307 Temporary Redirect to https://other.example:8443: not followed"},
		{"/v1/chat/completions/", "HTTP 307 Temporary Redirect to http://judge.test: not followed"},
		{"", "HTTP 307 Temporary Redirect with no Location: not followed"},
		{"http://bad\x7fhost/", "1 attempt: a redirect to a Location that does not parse: not followed"},
	}
	for _, tt := range tests {
		c, _ := newClient(t, status(307, "<a href>moved</a>", "Location", tt.location))
		_, err := c.Post(context.Background(), "http://judge.test/v1", nil, nil)
		require.Error(t, err)
		assert.Contains(t, err.Error(), tt.want, "Location %q", tt.location)
		assert.NotContains(t, err.Error(), "moved", "the redirect's body is not a provider message")
	}
}

// TestJudgehttpRetriesAreCapped: a MaxRetries of a billion against a server
// that is always rate limited stops after judgehttp.MaxRetries retries,
// and says why.
func TestJudgehttpRetriesAreCapped(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var calls atomic.Int32
		c := &judgehttp.Client{Name: "testjudge", MaxRetries: 1 << 30, HTTP: &http.Client{Transport: roundTrip(func(r *http.Request) (*http.Response, error) {
			calls.Add(1)
			return &http.Response{StatusCode: 429, Header: http.Header{"Retry-After-Ms": {"1"}}, Body: io.NopCloser(strings.NewReader(`{"error": {"message": "slow down"}}`))}, nil
		})}}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		start := time.Now()
		_, err := c.Post(ctx, "http://judge.test", nil, nil)
		assert.EqualError(t, err, "testjudge: 11 attempts: HTTP 429 rate limited (Retry-After 1ms): slow down; not retrying: 10 retries is the most a judge makes")
		assert.Equal(t, int32(judgehttp.MaxRetries+1), calls.Load())
		assert.Equal(t, 10*time.Millisecond, time.Since(start))
	})
	synctest.Test(t, func(t *testing.T) {
		// At the cap exactly, running out is the usual message.
		c, s := newClient(t, status(503, overloaded), status(503, overloaded), status(503, overloaded), status(503, overloaded), status(503, overloaded),
			status(503, overloaded), status(503, overloaded), status(503, overloaded), status(503, overloaded), status(503, overloaded), status(503, overloaded))
		c.MaxRetries = judgehttp.MaxRetries
		_, err := c.Post(context.Background(), "http://judge.test", nil, nil)
		assert.EqualError(t, err, "testjudge: 11 attempts: HTTP 503 Service Unavailable: The server is overloaded")
		assert.Equal(t, 11, s.requests())
	})
}
