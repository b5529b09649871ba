// Package judgehttp is the plumbing the real judges share: one JSON POST
// with bounded retries, backoff that honours Retry-After, the context's
// deadline respected, and errors that say what happened on the wire without
// ever holding a credential (see Redact, RedactURL, RedactError and
// RedactVerdict, which the judges apply to everything they return); and
// the price-table lookup (LookupPrice).
//
//	c := &judgehttp.Client{Name: "openaijudge", HTTP: http.DefaultClient, MaxRetries: 3}
//	resp, err := c.Post(ctx, url, header, body)
//	// err: "openaijudge: 4 attempts: HTTP 429 rate limited (Retry-After 2s): Rate limit reached"
//
// What is retried: HTTP 408, 429 and every 5xx (Anthropic's 529 "overloaded"
// included), a response that did not arrive within the attempt timeout, and
// connection failures (refused, reset, a body cut off mid-read). What is
// not: any other status, an unknown host, a certificate that does not
// verify, and a context that has ended.
//
// Redirects are never followed. A judge's request carries credentials in
// headers (x-api-key, Azure's api-key, a gateway's own), and net/http strips
// only Authorization and cookies when it follows a redirect to another
// host; a judge API has no reason to redirect a POST. A 3xx is an error
// that names the status and the scheme and host it pointed to, and is not
// retried.
//
// The wait before retry n (counting from 0) is the server's Retry-After when
// it sends one (retry-after-ms, or Retry-After in seconds or as an HTTP
// date), else 500 ms × 2^n, at most 30 s. No jitter: a judge makes few calls,
// and a server that wants callers spread out says so in Retry-After. A wait
// longer than MaxWait (default one minute), or one that would end after the
// context's deadline, is not waited: the call fails at once and says why.
//
// A Meter in the context (WithMeter) is asked before every attempt, and
// may refuse it: that is how a caller bounds what judges spend.
package judgehttp

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/evalkit-go/evalkit/internal/deadline"
)

// Defaults for a Client's zero fields.
const (
	DefaultAttemptTimeout = 2 * time.Minute
	DefaultMaxWait        = time.Minute
	// MaxBody bounds a successful response body; a judge's answer is a few
	// kilobytes.
	MaxBody = 16 << 20
	// MaxRetries is the most retries a Client makes, whatever its
	// MaxRetries field asks: eleven attempts at the backoff's 30 s ceiling
	// already span minutes, and a server still failing then will not
	// answer a test run.
	MaxRetries = 10
	// maxErrorBody bounds what is read of an error response.
	maxErrorBody = 64 << 10
	// MaxMessage bounds the provider's error message quoted in an Error.
	MaxMessage = 300

	baseBackoff = 500 * time.Millisecond
	maxBackoff  = 30 * time.Second
)

// Client posts JSON to a provider. Its fields are read-only once it is in
// use; it is safe for concurrent use.
type Client struct {
	// Name prefixes every error: "openaijudge".
	Name string
	// HTTP sends the requests; nil means http.DefaultClient.
	HTTP *http.Client
	// MaxRetries is how many times a failed attempt is retried: 3 means at
	// most 4 attempts. Negative counts as 0, and more than the package's
	// MaxRetries (10) counts as 10.
	MaxRetries int
	// AttemptTimeout bounds one attempt, from sending the request to the
	// last byte of the response; 0 means DefaultAttemptTimeout.
	AttemptTimeout time.Duration
	// MaxWait is the longest wait before a retry, Retry-After included;
	// 0 means DefaultMaxWait.
	MaxWait time.Duration
	// Secrets are replaced by "[redacted]" wherever they would appear in an
	// error's text (an API key echoed in a proxy's error page, say); see
	// Secrets and Redact. A URL in an error (a transport error's) is
	// printed as RedactedURL prints it.
	Secrets []string
}

// Response is a successful (2xx) response, read whole.
type Response struct {
	Status   int
	Header   http.Header
	Body     []byte
	Attempts int
}

// Post sends body to endpoint with the given header (Content-Type is set to
// application/json), retrying as the package doc says, and returns the first
// 2xx response. Every other outcome is an *Error.
func (c *Client) Post(ctx context.Context, endpoint string, header http.Header, body []byte) (*Response, error) {
	return c.Send(ctx, http.MethodPost, endpoint, header, body)
}

// Send is Post with another method (PUT, PATCH, GET with a body): an
// external evaluator may name one. It retries as Post does.
func (c *Client) Send(ctx context.Context, method, endpoint string, header http.Header, body []byte) (*Response, error) {
	client := noRedirects(c.HTTP)
	maxRetries := min(max(c.MaxRetries, 0), MaxRetries)
	meter := meterOf(ctx)
	var last *Error // the failure a retry follows
	tries := 0
	for {
		tries++
		if meter != nil {
			if err := meter.Attempt(c.Name, tries); err != nil {
				if last == nil {
					return nil, &Error{Name: c.Name, attempt: attempt{err: err}, secrets: c.Secrets}
				}
				last.Stop = "not retrying: " + err.Error()
				last.stopErr = err
				return nil, last
			}
		}
		resp, fail := c.try(ctx, client, method, endpoint, header, body)
		if fail == nil {
			resp.Attempts = tries
			return resp, nil
		}
		e := &Error{Name: c.Name, Attempts: tries, attempt: *fail, secrets: c.Secrets}
		last = e
		if !fail.retryable {
			return nil, e
		}
		if tries > maxRetries {
			if c.MaxRetries > MaxRetries {
				e.Stop = fmt.Sprintf("not retrying: %d retries is the most a judge makes", MaxRetries)
			}
			return nil, e
		}
		wait := backoff(tries - 1)
		if fail.hasRetryAfter && fail.retryAfter >= 0 {
			wait = fail.retryAfter
		}
		if limit := c.maxWait(); wait > limit {
			e.Stop = fmt.Sprintf("not retrying: the server asks to wait %v, longer than the %v a judge waits", wait, limit)
			return nil, e
		}
		if deadline, ok := ctx.Deadline(); ok && time.Now().Add(wait).After(deadline) {
			e.Stop = fmt.Sprintf("not retrying: waiting %v would pass the context deadline (%v left)", wait, time.Until(deadline).Round(time.Millisecond))
			e.stopErr = context.DeadlineExceeded
			return nil, e
		}
		timer := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			timer.Stop()
			e.Stop = "stopped waiting to retry: " + ctx.Err().Error()
			e.stopErr = ctx.Err()
			return nil, e
		case <-timer.C:
		}
	}
}

// noRedirects returns a shallow copy of client (http.DefaultClient when
// nil) that does not follow redirects: its CheckRedirect hands back the 3xx
// response itself. The caller's client is not changed.
func noRedirects(client *http.Client) *http.Client {
	if client == nil {
		client = http.DefaultClient
	}
	c := *client
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &c
}

func (c *Client) maxWait() time.Duration {
	if c.MaxWait > 0 {
		return c.MaxWait
	}
	return DefaultMaxWait
}

func (c *Client) attemptTimeout() time.Duration {
	if c.AttemptTimeout > 0 {
		return c.AttemptTimeout
	}
	return DefaultAttemptTimeout
}

// backoff is the wait before retry n (from 0) when the server names none.
func backoff(n int) time.Duration {
	if n >= 6 {
		return maxBackoff
	}
	return min(baseBackoff<<n, maxBackoff)
}

// attempt is how one try failed.
type attempt struct {
	status        int    // HTTP status; 0 when no response arrived
	message       string // the provider's error message, whole: redacted, then bounded, when shown
	param         string // the provider's "param" field, when it names one
	retryAfter    time.Duration
	hasRetryAfter bool
	timeout       time.Duration // the attempt timed out after this long
	redirect      string        // where a 3xx pointed, for humans
	err           error         // the transport or read error
	retryable     bool
}

func (c *Client) try(ctx context.Context, client *http.Client, method, endpoint string, header http.Header, body []byte) (*Response, *attempt) {
	if err := ctx.Err(); err != nil {
		return nil, &attempt{err: err}
	}
	deadline.Calling(ctx, http.MethodPost, endpoint) // named should the test's deadline stop the wait
	timeout := c.attemptTimeout()
	actx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(actx, method, endpoint, bytes.NewReader(body))
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = fmt.Errorf("the URL does not parse (it is not shown, as it may hold a credential): %w", ue.Err)
		}
		return nil, &attempt{err: err}
	}
	for k, vs := range header {
		req.Header[k] = append([]string(nil), vs...)
	}
	req.Header.Set("Content-Type", "application/json")

	resp, err := client.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			// net/http strips the password; the query may hold a key too.
			ue.URL = RedactURL(ue.URL)
		}
		if badLocation(err) {
			// A 3xx whose Location net/http could not parse (it reads it
			// before asking CheckRedirect): nothing was followed, and
			// asking again gets the same answer.
			return nil, &attempt{redirect: "to a Location that does not parse"}
		}
		return nil, transportFailure(ctx, actx, timeout, err)
	}
	defer resp.Body.Close()

	if resp.StatusCode >= 300 && resp.StatusCode < 400 {
		// Drain a little, so the connection can be reused.
		io.Copy(io.Discard, io.LimitReader(resp.Body, maxErrorBody))
		return nil, &attempt{status: resp.StatusCode, redirect: redirectTarget(req.URL, resp.Header.Get("Location"))}
	}

	ok := resp.StatusCode >= 200 && resp.StatusCode < 300
	limit := int64(maxErrorBody)
	if ok {
		limit = MaxBody
	}
	data, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		f := transportFailure(ctx, actx, timeout, fmt.Errorf("reading the response body: %w", err))
		f.status = resp.StatusCode
		if !ok {
			f.retryable = f.retryable && retryableStatus(resp.StatusCode)
		}
		return nil, f
	}
	if ok {
		if int64(len(data)) > limit {
			return nil, &attempt{status: resp.StatusCode, err: fmt.Errorf("the response body is larger than %d MiB", MaxBody>>20)}
		}
		return &Response{Status: resp.StatusCode, Header: resp.Header, Body: data}, nil
	}
	if int64(len(data)) > limit {
		// Cut at the cap, a secret may straddle it: redaction would not
		// know its first part, so the cut drops the run it may be in.
		data = cutRun(data[:limit])
	}
	msg, param := ProviderMessage(data)
	f := &attempt{status: resp.StatusCode, message: msg, param: param, retryable: retryableStatus(resp.StatusCode)}
	f.retryAfter, f.hasRetryAfter = RetryAfter(resp.Header, time.Now())
	return nil, f
}

// transportFailure classifies an error from sending a request or reading
// its response.
func transportFailure(ctx, actx context.Context, timeout time.Duration, err error) *attempt {
	if ctx.Err() != nil {
		// The caller's context ended: the caller's deadline or cancel, not
		// a fault of the server's.
		return &attempt{err: ctx.Err()}
	}
	if actx.Err() != nil {
		return &attempt{timeout: timeout, err: err, retryable: true}
	}
	return &attempt{err: err, retryable: retryableError(err)}
}

// notFollowed says why a redirect was not followed and what to do.
const notFollowed = "not followed: a judge sends its credentials only to its base URL; set the base URL to the API's own address"

// redirectTarget says where a redirect pointed without what may carry a
// credential: the scheme and host of location, read relative to from.
func redirectTarget(from *url.URL, location string) string {
	if location == "" {
		return "with no Location"
	}
	u, err := from.Parse(location)
	if err != nil || u.Host == "" {
		return "to a Location that does not parse"
	}
	return "to " + Bound(u.Scheme+"://"+u.Host, MaxMessage)
}

// badLocation reports whether err is net/http's refusal of a redirect's
// Location header, which it reads before asking CheckRedirect.
func badLocation(err error) bool {
	var ue *url.Error
	return errors.As(err, &ue) && ue.Err != nil && strings.HasPrefix(ue.Err.Error(), "failed to parse Location header")
}

func retryableStatus(status int) bool {
	return status == http.StatusRequestTimeout || status == http.StatusTooManyRequests || status >= 500
}

// retryableError reports whether a transport error may pass: not an unknown
// host, nor a certificate that fails verification.
func retryableError(err error) bool {
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) && dnsErr.IsNotFound {
		return false
	}
	var certErr *tls.CertificateVerificationError
	return !errors.As(err, &certErr)
}

// RetryAfter reads how long the server asks the client to wait:
// retry-after-ms (milliseconds, as OpenAI and Anthropic send it), else
// Retry-After in seconds or as an HTTP date (RFC 9110), measured from now.
// A number is read only when it is digits with an optional fraction
// ("20", "1.5"): RFC 9110's delay-seconds is digits alone, and what else
// strconv.ParseFloat takes — NaN, infinities, signs, exponents, hex —
// would be a wait no server means. A date in the past is a wait of 0. It
// reports false when neither header holds a value it can read, and the
// caller then backs off as if none was sent.
func RetryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, ok := delay(v, 1e12); ok {
			return time.Duration(ms * float64(time.Millisecond)), true
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if s, ok := delay(v, 1e9); ok {
		return time.Duration(s * float64(time.Second)), true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}

// delay reads v as a non-negative decimal number no larger than limit:
// digits, optionally a point and more digits.
func delay(v string, limit float64) (float64, bool) {
	whole, frac, hasPoint := strings.Cut(v, ".")
	if !digits(whole) || hasPoint && !digits(frac) {
		return 0, false
	}
	n, err := strconv.ParseFloat(v, 64)
	if err != nil || n > limit {
		return 0, false
	}
	return n, true
}

// ProviderMessage reads the error message from an error response body, in
// the shapes servers use: OpenAI's and Anthropic's {"error": {"message",
// "param"}}, {"error": "text"} (Ollama, llama.cpp), {"message": "text"},
// {"detail": "text"} (FastAPI servers), else the body itself as text. The
// message is whole: a caller redacts it before bounding it (Bound), or a
// secret cut at the bound would survive in part.
func ProviderMessage(body []byte) (message, param string) {
	var shape struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Detail  json.RawMessage `json:"detail"`
	}
	if json.Unmarshal(body, &shape) == nil {
		var nested struct {
			Message string `json:"message"`
			Param   string `json:"param"`
		}
		var text string
		switch {
		case json.Unmarshal(shape.Error, &nested) == nil && nested.Message != "":
			return nested.Message, nested.Param
		case json.Unmarshal(shape.Error, &text) == nil && text != "":
			return text, ""
		case shape.Message != "":
			return shape.Message, ""
		case json.Unmarshal(shape.Detail, &text) == nil && text != "":
			return text, ""
		}
	}
	return string(body), ""
}

// cutRun drops from the end of a body cut at its cap the run of bytes a
// credential could be made of (letters, digits, "-_.~+/=%", and any byte
// outside ASCII), and marks the cut with "…": whatever secret the run began
// is then neither whole nor in part in what is kept.
func cutRun(data []byte) []byte {
	end := len(data)
	for end > 0 && tokenByte(data[end-1]) {
		end--
	}
	return append(data[:end:end], "…"...)
}

func tokenByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		strings.IndexByte("-_.~+/=%", c) >= 0 || c >= utf8.RuneSelf
}

// Bound returns s on one line — runs of white space and control characters
// become one space — and cut to at most n bytes at a rune boundary, with
// "…" marking a cut.
func Bound(s string, n int) string {
	var b strings.Builder
	space := false
	for _, r := range strings.TrimSpace(s) {
		if unicode.IsSpace(r) || unicode.IsControl(r) {
			space = true
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	out := b.String()
	if len(out) <= n {
		return out
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(out[cut]) {
		cut--
	}
	return out[:cut] + "…"
}

// Error is a failed call: the last attempt's outcome, how many attempts
// were made, and why the client stopped. Its text never holds the client's
// Secrets (see Redact), whole or cut, nor a URL's password or query values.
type Error struct {
	// Name is the client's name: "openaijudge".
	Name string
	// Attempts is how many requests were sent: 0 when a Meter refused the
	// first.
	Attempts int
	// Stop says why a retryable failure was not retried, when that is not
	// simply that the retries ran out.
	Stop string

	attempt
	stopErr error // what stopped the retries: the context's end, or the Meter's refusal
	secrets []string
}

// Status is the last attempt's HTTP status, 0 when no response arrived.
func (e *Error) Status() int { return e.status }

// Message is the provider's error message from the last response,
// redacted and then bounded to MaxMessage bytes on one line.
func (e *Error) Message() string { return Bound(Redact(e.message, e.secrets), MaxMessage) }

// Param is the request field the provider's error names, when it names one
// (OpenAI's "param"), redacted and bounded as Message: a provider may name
// the field by echoing its value.
func (e *Error) Param() string { return Bound(Redact(e.param, e.secrets), MaxMessage) }

// Retryable reports whether the last failure was of a retryable kind.
func (e *Error) Retryable() bool { return e.retryable }

// Error formats the failure as "name: N attempts: cause[: message][; stop]".
func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d attempt", e.Name, e.Attempts)
	if e.Attempts != 1 {
		b.WriteString("s")
	}
	b.WriteString(": ")
	b.WriteString(e.cause())
	if msg := e.Message(); msg != "" {
		b.WriteString(": ")
		b.WriteString(msg)
	}
	if e.Stop != "" {
		b.WriteString("; ")
		b.WriteString(e.Stop)
	}
	return Redact(b.String(), e.secrets)
}

func (e *Error) cause() string {
	var parts []string
	if e.status != 0 {
		s := "HTTP " + strconv.Itoa(e.status)
		switch e.status {
		case http.StatusTooManyRequests:
			s += " rate limited"
		case 529:
			s += " overloaded"
		default:
			if text := http.StatusText(e.status); text != "" {
				s += " " + text
			}
		}
		if e.hasRetryAfter {
			s += fmt.Sprintf(" (Retry-After %v)", e.retryAfter)
		}
		parts = append(parts, s)
	}
	if e.redirect != "" {
		// "HTTP 307 Temporary Redirect to https://host: not followed: …",
		// or "a redirect to …" when net/http gave no response.
		s := "a redirect " + e.redirect
		if len(parts) > 0 {
			s = parts[0] + " " + e.redirect
			parts = parts[:0]
		}
		parts = append(parts, s+": "+notFollowed)
	}
	switch {
	case e.timeout > 0:
		parts = append(parts, fmt.Sprintf("timeout: no complete response within %v", e.timeout))
	case e.err != nil:
		parts = append(parts, e.err.Error())
	}
	return strings.Join(parts, ": ")
}

// Unwrap returns the error behind the failure, if any: what stopped the
// retries (the context's end, a Meter's refusal), else the transport or
// context error of the last attempt. So errors.Is(err,
// context.DeadlineExceeded) holds for a call the context's deadline ended.
func (e *Error) Unwrap() error {
	if e.stopErr != nil {
		return e.stopErr
	}
	return e.err
}
