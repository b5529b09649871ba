package evaltest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/golden"
	"github.com/evalkit-go/evalkit/internal/deadline"
)

// HTTPRecording is the client HTTPClient returns: an *http.Client whose
// transport records and replays the test's HTTP exchanges, and the
// transcript of the agent that made them. Its Do method is what the
// OpenAI and Anthropic SDKs, go-openai and langchaingo take
// (option.WithHTTPClient(rec), config.HTTPClient = rec,
// openai.WithHTTPClient(rec)); where an *http.Client itself is wanted,
// give rec.Client. It is an http.RoundTripper too.
type HTTPRecording struct {
	*http.Client
	tb   testing.TB
	tr   *golden.Transport
	hint string
	stop *deadline.Stop // nil: no deadline

	mu    sync.Mutex
	stops []error // requests the deadline stopped, in order
}

// HTTPClient returns a client whose transport records and replays the
// HTTP exchanges the code under test makes through it — an agent's calls
// to its model API — in testdata/evalkit/<TestName>.http.json beside the
// test's judge recordings, one file for a top-level test and all its
// subtests. Each exchange is keyed with the test (or subtest, or Repeat
// attempt) that sent it, so sibling subtests sending identical requests
// replay their own answers, in order. Give it to the OpenAI or Anthropic
// SDK (option.WithHTTPClient(rec)), go-openai, langchaingo or plain
// net/http code (rec.Client); see HTTPTransport for a transport of your
// own. An SDK that will not start without a key takes APIKey's. When the
// agent is done, rec.Transcript() is its transcript, built from its last
// model call:
//
//	rec := evaltest.HTTPClient(t)
//	client := openai.NewClient(option.WithAPIKey(evaltest.APIKey(t, "OPENAI_API_KEY")), option.WithHTTPClient(rec))
//	runAgent(t.Context(), client, "I want a refund for order #W123")
//	et.Expect(rec.Transcript()).ToolsCalled("get_order_details", "issue_refund")
//
// It follows the mode judge recordings follow (see Mode: -evalkit.mode,
// else EVALKIT_MODE, else replay), so EVALKIT_MODE=record go test ./...
// records the agent's calls and the judge's verdicts together, and a
// plain go test ./... replays both with no network and no key. A
// golden.WithMode among opts overrides it for this client; the other
// options are golden.Transport's (golden.WithIgnoreFields for volatile
// request fields, golden.WithRedact for your own secrets). See
// golden.Transport for how requests match, what is written, and how SDK
// retries after a 429 or 5xx are recorded (the failures are not).
//
// In replay mode a request not recorded gets a 404 response that SDKs do
// not retry (X-Should-Retry: false), whose error message names the
// request, the nearest recorded one and what differs, and ends with the
// command that records it; the test fails with the same when it ends, even
// if the code under test swallowed the error:
//
//	agent_test.go:31: HTTPClient(t): error: golden: not recorded: testdata/evalkit/TestAgent.http.json has no response for this POST /v1/chat/completions (key sha256:3f2a9c4d5e6f)
//	    nearest: sha256:9b1c2d3e4f5a (recorded 2026-05-01T10:00:00Z)
//	    differs: body.messages[0].content: now "You are a terse airline agent.", recorded "# Airline Agent Policy…"
//	    hint: EVALKIT_MODE=record go test ./agent -run '^TestAgent$'   # record the missing model calls against the live API
//
// Each request, and the reading of its response, stops at the test's
// deadline (see Context) with an error naming the request, which the test
// also reports when it ends. Each exchange obtained in record or refresh
// mode is journaled at once (see golden.JournalSuffix), so a run that ends
// before the test does loses none.
//
// The recording is read at the first call and written when the test ends.
// A bad mode or a recording that does not read fails the test at once
// (tb.Fatalf), so call HTTPClient from the test's goroutine.
func HTTPClient(tb testing.TB, opts ...golden.Option) *HTTPRecording {
	tb.Helper()
	return HTTPTransport(tb, nil, opts...)
}

// HTTPTransport is HTTPClient sending what it does not replay through
// live (http.DefaultTransport when nil): a live transport with a proxy, or
// a fake standing in for the live API when recording. The result is an
// http.RoundTripper, for an *http.Client of your own with its timeouts.
func HTTPTransport(tb testing.TB, live http.RoundTripper, opts ...golden.Option) *HTTPRecording {
	tb.Helper()
	tb = reporter(tb)
	mode, err := Mode()
	if err != nil {
		tb.Fatalf("HTTPClient(t): error: %v", err)
		return nil
	}
	test, _, _ := strings.Cut(tb.Name(), "/")
	path := filepath.Join("testdata", "evalkit", fileName(test)+golden.HTTPSuffix)
	hint := hintCommand("record", test, "record the missing model calls against the live API")
	all := []golden.Option{golden.WithMode(mode), golden.WithTest(testScope(tb)), golden.WithMissResponses(hint)}
	if dir := golden.DefaultUsageDir(); dir != "" {
		all = append(all, golden.WithUsageLog(dir))
	}
	tr, err := golden.NewTransport(path, live, append(all, opts...)...)
	if err != nil {
		tb.Fatalf("HTTPClient(t): error: %v", err)
		return nil
	}
	logNotes(tb, tr.Notes()) // a journal recovered, say
	rec := &HTTPRecording{tb: tb, tr: tr, hint: hint, stop: stopFor(tb)}
	rec.Client = &http.Client{Transport: rec}
	tb.Cleanup(func() {
		tb.Helper()
		if misses := tr.Misses(); len(misses) > 0 {
			tb.Errorf("%s", missMessage(misses, hint))
		}
		for _, err := range rec.stalled() {
			tb.Errorf("HTTPClient(t): error: %v", err)
		}
		if tb.Failed() || tb.Skipped() || filtered() {
			tr.MarkPartial()
		}
		if err := tr.Save(); err != nil {
			tb.Errorf("HTTPClient(t): error: saving the recorded HTTP exchanges: %v", err)
		}
		tr.Close()
		logNotes(tb, tr.Notes())
	})
	return rec
}

// testScope names the test an exchange belongs to — its key's test and
// the recording's "test" field, one name for both: the test's full name,
// and for a Repeat attempt its number ("TestAgent/refund (attempt 2)"), so
// attempts replay their own answers even when they run concurrently. It
// looks through the reporter wrapping tb and through a T given as a
// testing.TB to the attempt's own TB.
func testScope(tb testing.TB) string {
	for {
		switch x := tb.(type) {
		case *redactingTB:
			tb = x.TB
		case *T:
			tb = x.tb
		case *attemptTB:
			return fmt.Sprintf("%s (attempt %d)", x.Name(), x.index)
		default:
			return tb.Name()
		}
	}
}

// RoundTrip implements http.RoundTripper: the recorded response, or live's
// as the mode says (see HTTPClient), stopped at the test's deadline.
func (r *HTTPRecording) RoundTrip(req *http.Request) (*http.Response, error) {
	if r.stop == nil {
		return r.tr.RoundTrip(req)
	}
	what := req.Method + " " + deadline.CleanURL(req.URL.String())
	ctx, cancel := deadline.WithStop(req.Context(), r.stop)
	resp, err := deadline.Wait(ctx, what, func(ctx context.Context) (*http.Response, error) {
		return r.tr.RoundTrip(req.WithContext(ctx))
	})
	if err != nil {
		cancel()
		r.stopped(err)
		return nil, err
	}
	// The deadline holds while the body is read; closing it lets go.
	resp.Body = &stopBody{ReadCloser: resp.Body, ctx: ctx, cancel: cancel, what: what, start: time.Now(), r: r}
	return resp, nil
}

// stopped notes err when the test's deadline caused it.
func (r *HTTPRecording) stopped(err error) {
	var de *deadline.Error
	if !errors.As(err, &de) {
		return
	}
	r.mu.Lock()
	r.stops = append(r.stops, err)
	r.mu.Unlock()
}

// stalled returns the requests the deadline stopped.
func (r *HTTPRecording) stalled() []error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.stops)
}

// stopBody is a response body read under the test's deadline: a read the
// deadline ends returns a *deadline.Error naming the request.
type stopBody struct {
	io.ReadCloser
	ctx    context.Context
	cancel context.CancelFunc
	what   string
	start  time.Time
	r      *HTTPRecording
	once   sync.Once
}

func (b *stopBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil && err != io.EOF {
		if stop := deadline.Of(b.ctx); stop != nil {
			var de *deadline.Error
			if !errors.As(err, &de) {
				err = &deadline.Error{What: "reading the response to " + b.what, Waited: time.Since(b.start), Stop: stop, Err: err}
			}
			b.once.Do(func() { b.r.stopped(err) })
		}
	}
	return n, err
}

func (b *stopBody) Close() error {
	err := b.ReadCloser.Close()
	b.cancel()
	return err
}

// Transcript returns the transcript of the agent whose model calls went
// through this client: the messages and tools of its last call to OpenAI
// Chat Completions, OpenAI Responses or Anthropic Messages, then the reply
// it got, a streamed reply assembled (golden.Transport.Transcript). When
// there is no such call, or it cannot be decoded (an error status, a cut
// stream), the test stops (tb.Fatalf) with the reason:
//
//	agent_test.go:40: HTTPClient(t).Transcript(): error: golden: the transcript of the last model call (POST /v1/messages): it was answered 400 Bad Request: {"type":"error",…}
func (r *HTTPRecording) Transcript() *evalkit.Transcript {
	r.tb.Helper()
	tr, err := r.tr.Transcript()
	if err != nil {
		r.tb.Fatalf("HTTPClient(t).Transcript(): error: %v", err)
		return nil
	}
	return tr
}

// replayKey is the key APIKey gives an SDK in replay mode.
const replayKey = "evalkit-replay-no-key"

// APIKey returns the API key an SDK is built with: in replay mode (the
// default) a placeholder, "evalkit-replay-no-key", since nothing is sent
// to the live API and some SDKs (anthropic-sdk-go, langchaingo) refuse to
// start without a key; in record, refresh and live mode the value of the
// environment variable env. The key is never written to a recording
// either way. When env is unset or empty outside replay mode, the test
// stops (tb.Fatalf) naming it, rather than record the API's 401 — also
// when the SDK is pointed at a local fake server (judgefake.NewServer),
// which needs no real key: set env to any value to record against it.
//
//	client := anthropic.NewClient(option.WithAPIKey(evaltest.APIKey(t, "ANTHROPIC_API_KEY")), option.WithHTTPClient(evaltest.HTTPClient(t)))
func APIKey(tb testing.TB, env string) string {
	tb.Helper()
	tb = reporter(tb)
	mode, err := Mode()
	if err != nil {
		tb.Fatalf("APIKey(t, %q): error: %v", env, err)
		return ""
	}
	if mode == golden.ModeReplay {
		return replayKey
	}
	key := os.Getenv(env)
	if key == "" {
		tb.Fatalf("APIKey(t, %q): error: %s is not set, and mode %s asks the live API; set it, or replay (unset EVALKIT_MODE)\n"+
			"hint: recording against a local fake server (judgefake.NewServer), not the live API? Any value will do: %s=fake EVALKIT_MODE=%s go test …", env, env, mode, env, mode)
		return ""
	}
	return key
}

// missMessage renders a test's replay misses: the first in full, how many
// more, the hint.
func missMessage(misses []*golden.NotRecordedError, hint string) string {
	first := misses[0]
	var b strings.Builder
	b.WriteString("HTTPClient(t): error: " + first.Headline())
	if first.Nearest != "" {
		fmt.Fprintf(&b, "\nnearest: %s (recorded %s)", golden.ShortKey(first.Nearest), first.NearestRecordedAt.Format("2006-01-02T15:04:05Z07:00"))
	}
	for i, d := range first.Differs {
		if i == maxDiffers {
			fmt.Fprintf(&b, "\n… and %d more differences", len(first.Differs)-maxDiffers)
			break
		}
		b.WriteString("\ndiffers: " + d.String())
	}
	if n := len(misses) - 1; n > 0 {
		fmt.Fprintf(&b, "\n… and %d more %s not recorded", n, map[bool]string{true: "request", false: "requests"}[n == 1])
	}
	b.WriteString("\n" + hint)
	return b.String()
}
