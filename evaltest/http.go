package evaltest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/evalkit-go/evalkit/golden"
	"github.com/evalkit-go/evalkit/internal/deadline"
)

// HTTPClient returns an *http.Client whose transport records and replays
// the HTTP exchanges the code under test makes through it — an agent's
// calls to its model API — in testdata/evalkit/<TestName>.http.json beside
// the test's judge recordings, one file for a top-level test and all its
// subtests. Give it to the OpenAI or Anthropic SDK (option.WithHTTPClient),
// langchaingo or plain net/http code; see HTTPTransport for a transport of
// your own.
//
// It follows the mode judge recordings follow (see Mode: -evalkit.mode,
// else EVALKIT_MODE, else replay), so EVALKIT_MODE=record go test ./...
// records the agent's calls and the judge's verdicts together, and a
// plain go test ./... replays both with no network and no key. A
// golden.WithMode among opts overrides it for this client; the other
// options are golden.Transport's (golden.WithIgnoreFields for volatile
// request fields, golden.WithRedact for your own secrets). See
// golden.Transport for how requests match and what is written.
//
// In replay mode a request not recorded is an error from the client
// wrapping golden.ErrNotRecorded, which names the request, the nearest
// recorded one and what differs, and ends with the command that records
// it; the test fails with the same when it ends, even if the code under
// test swallowed the error:
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
func HTTPClient(tb testing.TB, opts ...golden.Option) *http.Client {
	tb.Helper()
	return &http.Client{Transport: HTTPTransport(tb, nil, opts...)}
}

// HTTPTransport is HTTPClient's transport, sending what it does not replay
// through live (http.DefaultTransport when nil): for an *http.Client of
// your own, with its timeouts, or a live transport with a proxy.
func HTTPTransport(tb testing.TB, live http.RoundTripper, opts ...golden.Option) http.RoundTripper {
	tb.Helper()
	tb = reporter(tb)
	mode, err := Mode()
	if err != nil {
		tb.Fatalf("HTTPClient(t): error: %v", err)
		return nil
	}
	test, _, _ := strings.Cut(tb.Name(), "/")
	path := filepath.Join("testdata", "evalkit", fileName(test)+golden.HTTPSuffix)
	all := []golden.Option{golden.WithMode(mode), golden.WithTest(tb.Name())}
	if dir := golden.DefaultUsageDir(); dir != "" {
		all = append(all, golden.WithUsageLog(dir))
	}
	tr, err := golden.NewTransport(path, live, append(all, opts...)...)
	if err != nil {
		tb.Fatalf("HTTPClient(t): error: %v", err)
		return nil
	}
	logNotes(tb, tr.Notes()) // a journal recovered, say
	hint := hintCommand("record", test, "record the missing model calls against the live API")
	h := &hinting{tr: tr, hint: hint, stop: stopFor(tb)}
	tb.Cleanup(func() {
		tb.Helper()
		if misses := tr.Misses(); len(misses) > 0 {
			tb.Errorf("%s", missMessage(misses, hint))
		}
		for _, err := range h.stalled() {
			tb.Errorf("HTTPClient(t): error: %v", err)
		}
		if tb.Failed() || tb.Skipped() || filtered() {
			tr.MarkPartial()
		}
		if err := tr.Save(); err != nil {
			tb.Errorf("HTTPClient(t): error: saving the recorded HTTP exchanges: %v", err)
		}
		logNotes(tb, tr.Notes())
	})
	return h
}

// hinting is a golden.Transport whose replay misses end with the command
// that records them, and whose requests stop at the test's deadline (see
// Context): a request, or the reading of its response, still going then
// ends with a *deadline.Error, which the test reports when it ends.
type hinting struct {
	tr   *golden.Transport
	hint string
	stop *deadline.Stop // nil: no deadline

	mu    sync.Mutex
	stops []error // requests the deadline stopped, in order
}

func (h *hinting) RoundTrip(req *http.Request) (*http.Response, error) {
	if h.stop == nil {
		return h.roundTrip(req)
	}
	what := req.Method + " " + deadline.CleanURL(req.URL.String())
	ctx, cancel := deadline.WithStop(req.Context(), h.stop)
	resp, err := deadline.Wait(ctx, what, func(ctx context.Context) (*http.Response, error) {
		return h.roundTrip(req.WithContext(ctx))
	})
	if err != nil {
		cancel()
		h.stopped(err)
		return nil, err
	}
	// The deadline holds while the body is read; closing it lets go.
	resp.Body = &stopBody{ReadCloser: resp.Body, ctx: ctx, cancel: cancel, what: what, start: time.Now(), h: h}
	return resp, nil
}

func (h *hinting) roundTrip(req *http.Request) (*http.Response, error) {
	resp, err := h.tr.RoundTrip(req)
	var nr *golden.NotRecordedError
	if errors.As(err, &nr) {
		return nil, &missError{nr: nr, hint: h.hint}
	}
	return resp, err
}

// stopped notes err when the test's deadline caused it.
func (h *hinting) stopped(err error) {
	var de *deadline.Error
	if !errors.As(err, &de) {
		return
	}
	h.mu.Lock()
	h.stops = append(h.stops, err)
	h.mu.Unlock()
}

// stalled returns the requests the deadline stopped.
func (h *hinting) stalled() []error {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.stops)
}

// stopBody is a response body read under the test's deadline: a read the
// deadline ends returns a *deadline.Error naming the request.
type stopBody struct {
	io.ReadCloser
	ctx    context.Context
	cancel context.CancelFunc
	what   string
	start  time.Time
	h      *hinting
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
			b.once.Do(func() { b.h.stopped(err) })
		}
	}
	return n, err
}

func (b *stopBody) Close() error {
	err := b.ReadCloser.Close()
	b.cancel()
	return err
}

// missError is a replay miss with its hint.
type missError struct {
	nr   *golden.NotRecordedError
	hint string
}

func (e *missError) Error() string { return e.nr.Error() + "\n" + e.hint }
func (e *missError) Unwrap() error { return e.nr }

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
