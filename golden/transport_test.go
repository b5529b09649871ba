package golden_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit/golden"
	"github.com/evalkit-go/evalkit/judgefake"
)

// rtFunc is an http.RoundTripper made of a function.
type rtFunc func(*http.Request) (*http.Response, error)

func (f rtFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// countingLive counts the requests it passes to next.
type countingLive struct {
	next  http.RoundTripper
	calls atomic.Int64
}

func (c *countingLive) RoundTrip(r *http.Request) (*http.Response, error) {
	c.calls.Add(1)
	return c.next.RoundTrip(r)
}

// neverLive is a live transport that fails the test if it is asked.
func neverLive(t *testing.T) http.RoundTripper {
	return rtFunc(func(r *http.Request) (*http.Response, error) {
		t.Errorf("the live API was asked: %s %s", r.Method, r.URL.Path)
		return nil, errors.New("the live API was asked")
	})
}

func httpPath(t *testing.T) string {
	return filepath.Join(t.TempDir(), "testdata", "evalkit", "TestAgent.http.json")
}

const chatBody = `{"model": "gpt-4o", "temperature": 0, "messages": [{"role": "system", "content": "You are an airline agent."}, {"role": "user", "content": "Cancel reservation Z7GOZK."}]}`

// chat sends one chat completion through client and returns the status
// and the assistant's content (or the body when it has none).
func chat(t *testing.T, client *http.Client, url, body string, header map[string]string) (int, string, error) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, url, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	if m := regexp.MustCompile(`"content":"([^"]*)"`).FindSubmatch(data); m != nil {
		return resp.StatusCode, string(m[1]), nil
	}
	return resp.StatusCode, string(data), nil
}

// Record, then replay with no live API: identical requests replay in
// order; key order, credentials, headers and a loopback host's name and
// port do not key; another host does; a third identical request is a miss
// that says how many were recorded.
func TestTransportRecordThenReplay(t *testing.T) {
	path := httpPath(t)
	live := &countingLive{next: judgefake.NewTransport(judgefake.Texts("Checking.", "Cancelled.", "Done.")...)}
	rec, err := golden.NewTransport(path, live, golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	url := "http://127.0.0.1:41234/v1/chat/completions"
	for _, want := range []string{"Checking.", "Cancelled."} {
		status, got, err := chat(t, rec.Client(), url, chatBody, map[string]string{"Authorization": "Bearer sk-live-key-0123456789abcdef"})
		require.NoError(t, err)
		assert.Equal(t, 200, status)
		assert.Equal(t, want, got, "the client gets the live answer")
	}
	require.NoError(t, rec.Save())
	assert.EqualValues(t, 2, live.calls.Load())

	f, err := golden.LoadHTTP(path)
	require.NoError(t, err)
	require.Len(t, f.Interactions, 2)
	assert.Equal(t, f.Interactions[0].Key, f.Interactions[1].Key, "identical requests, one key")
	assert.Equal(t, []int{1, 2}, []int{f.Interactions[0].Occurrence, f.Interactions[1].Occurrence})
	assert.Equal(t, "/v1/chat/completions", f.Interactions[0].Request.Path)
	assert.Equal(t, "http://localhost", f.Interactions[0].Request.Origin, "a loopback host is written without its port")
	assert.NoError(t, golden.Verify(path))

	replay, err := golden.NewTransport(path, neverLive(t))
	require.NoError(t, err)
	reordered := `{"messages": [{"content": "You are an airline agent.", "role": "system"}, {"content": "Cancel reservation Z7GOZK.", "role": "user"}], "temperature": 0.0, "model": "gpt-4o"}`
	other := "http://localhost:5555/v1/chat/completions?api-key=sk-other-key-0123456789"
	for _, want := range []string{"Checking.", "Cancelled."} {
		status, got, err := chat(t, replay.Client(), other, reordered, map[string]string{"Authorization": "Bearer sk-rotated-9876543210fedcba"})
		require.NoError(t, err)
		assert.Equal(t, 200, status)
		assert.Equal(t, want, got)
	}
	_, _, err = chat(t, replay.Client(), "https://api.openai.com/v1/chat/completions", chatBody, nil)
	var nr *golden.NotRecordedError
	require.ErrorAs(t, err, &nr, "another host is another backend")
	require.Len(t, nr.Differs, 1)
	assert.Equal(t, `origin: now "https://api.openai.com", recorded "http://localhost"`, nr.Differs[0].String())
	_, _, err = chat(t, replay.Client(), url, chatBody, nil)
	require.ErrorIs(t, err, golden.ErrNotRecorded)
	require.ErrorAs(t, err, &nr)
	assert.Equal(t, 3, nr.Occurrence)
	assert.Equal(t, 2, nr.Recorded)
	assert.Equal(t, fmt.Sprintf("golden: not recorded: %s holds 2 responses to this POST /v1/chat/completions, and this is request 3 like it (key %s)", path, golden.ShortKey(nr.Key)), nr.Error())
	assert.Len(t, replay.Misses(), 2)

	fresh, err := golden.NewTransport(path, neverLive(t))
	require.NoError(t, err)
	_, got, err := chat(t, fresh.Client(), url, chatBody, nil)
	require.NoError(t, err)
	assert.Equal(t, "Checking.", got, "each Transport counts identical requests on its own")
}

// A miss names the request, the nearest recorded one and what differs,
// field by field; a missing file says so.
func TestTransportMissNamesNearest(t *testing.T) {
	path := httpPath(t)
	rec, err := golden.NewTransport(path, judgefake.NewTransport(judgefake.Texts("a", "b")...), golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	url := "http://fake/v1/chat/completions"
	_, _, err = chat(t, rec.Client(), url, chatBody, nil)
	require.NoError(t, err)
	_, _, err = chat(t, rec.Client(), url, `{"model": "gpt-4o", "messages": [{"role": "user", "content": "Something else entirely."}]}`, nil)
	require.NoError(t, err)
	require.NoError(t, rec.Save())

	replay, err := golden.NewTransport(path, neverLive(t))
	require.NoError(t, err)
	changed := strings.Replace(chatBody, "You are an airline agent.", "You are a terse airline agent.", 1)
	changed = strings.Replace(changed, `"temperature": 0`, `"temperature": 0.7`, 1)
	_, _, err = chat(t, replay.Client(), url, changed, nil)
	var nr *golden.NotRecordedError
	require.ErrorAs(t, err, &nr)
	assert.Equal(t, "POST /v1/chat/completions", nr.Request)
	assert.NotEmpty(t, nr.Nearest)
	assert.Equal(t, []golden.Difference{
		{Field: "body.messages[0].content", Now: `"You are a terse airline agent."`, Recorded: `"You are an airline agent."`},
		{Field: "body.temperature", Now: "0.7", Recorded: "0"},
	}, nr.Differs)
	assert.Equal(t, fmt.Sprintf(`golden: not recorded: %s has no response for this POST /v1/chat/completions (key %s); nearest recorded request %s differs in body.messages[0].content: now "You are a terse airline agent.", recorded "You are an airline agent."; body.temperature: now 0.7, recorded 0`,
		path, golden.ShortKey(nr.Key), golden.ShortKey(nr.Nearest)), nr.Error())

	_, _, err = chat(t, replay.Client(), "http://fake/v1/embeddings", chatBody, nil)
	require.ErrorAs(t, err, &nr)
	assert.Equal(t, []golden.Difference{{Field: "path", Now: `"/v1/embeddings"`, Recorded: `"/v1/chat/completions"`}}, nr.Differs)

	none, err := golden.NewTransport(filepath.Join(t.TempDir(), "TestGone.http.json"), neverLive(t))
	require.NoError(t, err)
	_, _, err = chat(t, none.Client(), url, chatBody, nil)
	require.ErrorAs(t, err, &nr)
	assert.True(t, nr.NoFile)
	assert.Contains(t, nr.Error(), "TestGone.http.json does not exist (POST /v1/chat/completions, key sha256:")
}

// Ignored fields do not key, at any depth and through arrays; a bad path
// is an error.
func TestTransportIgnoreFields(t *testing.T) {
	path := httpPath(t)
	opts := []golden.Option{golden.WithIgnoreFields("user", "metadata.request_id", "messages.name", "stream_options")}
	rec, err := golden.NewTransport(path, judgefake.NewTransport(judgefake.Text("ok")), append(opts, golden.WithMode(golden.ModeRecord))...)
	require.NoError(t, err)
	body := `{"model": "gpt-4o", "user": "u-1", "metadata": {"request_id": "r-1", "team": "a"}, "messages": [{"role": "user", "name": "ann", "content": "hi"}]}`
	_, _, err = chat(t, rec.Client(), "http://fake/v1/chat/completions", body, nil)
	require.NoError(t, err)
	require.NoError(t, rec.Save())

	replay, err := golden.NewTransport(path, neverLive(t), opts...)
	require.NoError(t, err)
	volatile := `{"model": "gpt-4o", "user": "u-2", "stream_options": {"include_usage": true}, "metadata": {"request_id": "r-2", "team": "a"}, "messages": [{"role": "user", "name": "bob", "content": "hi"}]}`
	_, got, err := chat(t, replay.Client(), "http://fake/v1/chat/completions", volatile, nil)
	require.NoError(t, err)
	assert.Equal(t, "ok", got)
	_, _, err = chat(t, replay.Client(), "http://fake/v1/chat/completions", strings.Replace(volatile, `"team": "a"`, `"team": "b"`, 1), nil)
	assert.ErrorIs(t, err, golden.ErrNotRecorded, "a field not ignored still keys")

	_, err = golden.NewTransport(path, nil, golden.WithIgnoreFields("metadata..id"))
	assert.EqualError(t, err, `golden: WithIgnoreFields("metadata..id"): a path is field names joined by dots, such as "metadata.user_id"`)
}

// A live transport error records nothing and does not count; a transient
// failure (here a 429 with Retry-After) that a retry got an answer for is
// not recorded either, so replay neither fails nor waits.
func TestTransportStatusesAndLiveErrors(t *testing.T) {
	path := httpPath(t)
	failures := 0
	flaky := rtFunc(func(r *http.Request) (*http.Response, error) {
		if failures == 0 {
			failures++
			return nil, errors.New("connection reset by peer")
		}
		return judgefake.NewTransport(judgefake.RateLimited(2e9), judgefake.Text("ok")).RoundTrip(r)
	})
	live := judgefake.NewTransport(judgefake.RateLimited(2e9), judgefake.Text("ok"))
	rec, err := golden.NewTransport(path, rtFunc(func(r *http.Request) (*http.Response, error) {
		if failures == 0 {
			return flaky.RoundTrip(r)
		}
		return live.RoundTrip(r)
	}), golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	url := "http://fake/v1/chat/completions"
	_, _, err = chat(t, rec.Client(), url, chatBody, nil)
	require.ErrorContains(t, err, "connection reset by peer")
	status, _, err := chat(t, rec.Client(), url, chatBody, nil)
	require.NoError(t, err)
	assert.Equal(t, 429, status)
	status, got, err := chat(t, rec.Client(), url, chatBody, nil)
	require.NoError(t, err)
	assert.Equal(t, 200, status)
	assert.Equal(t, "ok", got)
	require.NoError(t, rec.Save())

	f, err := golden.LoadHTTP(path)
	require.NoError(t, err)
	require.Len(t, f.Interactions, 1, "the failures are not recorded, and the retry that was answered takes their place")
	assert.Equal(t, 1, f.Interactions[0].Occurrence)
	assert.Equal(t, 200, f.Interactions[0].Response.Status)

	replay, err := golden.NewTransport(path, neverLive(t))
	require.NoError(t, err)
	status, got, err = chat(t, replay.Client(), url, chatBody, nil)
	require.NoError(t, err)
	assert.Equal(t, 200, status)
	assert.Equal(t, "ok", got)
}

// A transient failure no retry got past is what the agent ended with: it
// is recorded with the header clients act on, and replayed, it is not
// counted (the retry meets it again, as live) and asks for no wait. A
// failure that is not transient (400) is recorded and counted as any
// answer. A recording made before (a 500 followed by its answer) replays
// as it was recorded.
func TestTransportTransientFailureNotAnswered(t *testing.T) {
	path := httpPath(t)
	live := judgefake.NewTransport(judgefake.RateLimited(2e9), judgefake.RateLimited(2e9), judgefake.Status(400))
	rec, err := golden.NewTransport(path, live, golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	url := "http://fake/v1/chat/completions"
	for _, want := range []int{429, 429} {
		status, _, err := chat(t, rec.Client(), url, chatBody, nil)
		require.NoError(t, err)
		assert.Equal(t, want, status)
	}
	other := strings.Replace(chatBody, "Z7GOZK", "ABC123", 1)
	status, _, err := chat(t, rec.Client(), url, other, nil)
	require.NoError(t, err)
	assert.Equal(t, 400, status)
	require.NoError(t, rec.Save())

	f, err := golden.LoadHTTP(path)
	require.NoError(t, err)
	require.Len(t, f.Interactions, 2, "one 429 (the last) and the 400")
	statuses := map[int]http.Header{}
	for _, in := range f.Interactions {
		assert.Equal(t, 1, in.Occurrence)
		statuses[in.Response.Status] = in.Response.Header
	}
	assert.Equal(t, http.Header{"Content-Type": {"application/json"}, "Retry-After": {"2"}}, statuses[429])
	assert.Contains(t, statuses, 400)

	replay, err := golden.NewTransport(path, neverLive(t))
	require.NoError(t, err)
	for range 3 { // an SDK's attempts
		req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(chatBody))
		require.NoError(t, err)
		resp, err := replay.RoundTrip(req)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, 429, resp.StatusCode)
		assert.Equal(t, "429 Too Many Requests", resp.Status)
		assert.Equal(t, "0", resp.Header.Get("Retry-After"), "replay asks for no wait")
		assert.Equal(t, "0", resp.Header.Get("Retry-After-Ms"))
	}
	status, _, err = chat(t, replay.Client(), url, other, nil)
	require.NoError(t, err)
	assert.Equal(t, 400, status)
	_, _, err = chat(t, replay.Client(), url, other, nil)
	assert.ErrorIs(t, err, golden.ErrNotRecorded, "a 400 is counted as any answer")
	assert.Empty(t, replay.Misses()[1:])

	// A recording of the old kind: the 429 at occurrence 1, its answer at 2.
	old, err := golden.NewTransport(path+".old", judgefake.NewTransport(judgefake.Text("ok")), golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	_, _, err = chat(t, old.Client(), url, chatBody, nil)
	require.NoError(t, err)
	require.NoError(t, old.Save())
	g, err := golden.LoadHTTP(path + ".old")
	require.NoError(t, err)
	answer := g.Interactions[0]
	failure := answer
	failure.Response = golden.HTTPResponse{Status: 500, Body: []byte(`{"error":{"message":"boom"}}`)}
	answer.Occurrence = 2
	require.NoError(t, golden.WriteHTTPFile(path+".old", &golden.HTTPFile{Version: 1, Interactions: []golden.Interaction{failure, answer}}))
	replayOld, err := golden.NewTransport(path+".old", neverLive(t))
	require.NoError(t, err)
	status, _, err = chat(t, replayOld.Client(), url, chatBody, nil)
	require.NoError(t, err)
	assert.Equal(t, 500, status)
	status, got, err := chat(t, replayOld.Client(), url, chatBody, nil)
	require.NoError(t, err)
	assert.Equal(t, 200, status)
	assert.Equal(t, "ok", got)
}

// ModeLive records nothing and reads nothing; ModeRefresh asks everything
// again and drops what no request used; a done context is an error first.
func TestTransportLiveAndRefresh(t *testing.T) {
	path := httpPath(t)
	live := &countingLive{next: judgefake.NewTransport(judgefake.Texts("a", "b", "c", "d")...)}
	lt, err := golden.NewTransport(path, live, golden.WithMode(golden.ModeLive))
	require.NoError(t, err)
	_, got, err := chat(t, lt.Client(), "http://fake/v1/chat/completions", chatBody, nil)
	require.NoError(t, err)
	assert.Equal(t, "a", got)
	require.NoError(t, lt.Save())
	_, err = os.Stat(path)
	assert.True(t, os.IsNotExist(err), "live mode writes nothing")

	rec, err := golden.NewTransport(path, live, golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	for _, body := range []string{chatBody, `{"model": "gpt-4o", "messages": [{"role": "user", "content": "old"}]}`} {
		_, _, err = chat(t, rec.Client(), "http://fake/v1/chat/completions", body, nil)
		require.NoError(t, err)
	}
	require.NoError(t, rec.Save())

	ref, err := golden.NewTransport(path, live, golden.WithMode(golden.ModeRefresh))
	require.NoError(t, err)
	_, got, err = chat(t, ref.Client(), "http://fake/v1/chat/completions", chatBody, nil)
	require.NoError(t, err)
	assert.Equal(t, "d", got, "refresh asks again")
	require.NoError(t, ref.Save())
	f, err := golden.LoadHTTP(path)
	require.NoError(t, err)
	require.Len(t, f.Interactions, 1, "the request no one sent is dropped")
	assert.EqualValues(t, 4, live.calls.Load())

	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://fake/v1/chat/completions", strings.NewReader(chatBody))
	require.NoError(t, err)
	_, err = ref.RoundTrip(req)
	assert.ErrorIs(t, err, context.Canceled)
	assert.EqualValues(t, 4, live.calls.Load())
}

// A recording that does not read is an error naming it; an unknown
// version says to update; CRLF line endings replay.
func TestTransportFiles(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "TestBad.http.json")
	require.NoError(t, os.WriteFile(bad, []byte(`{"version": 2, "interactions": []}`), 0o644))
	_, err := golden.NewTransport(bad, nil)
	assert.EqualError(t, err, "golden: "+bad+": format version 2, and this evalkit reads version 1: update evalkit, or re-record the file")
	require.NoError(t, os.WriteFile(bad, []byte(`{"version": 1, "interactions": [{"key": "sha256:00", "occurrence": 1}]}`), 0o644))
	_, err = golden.NewTransport(bad, nil)
	assert.EqualError(t, err, "golden: "+bad+`: interaction 1: key "sha256:00" is not sha256: and 64 hex digits`)
	require.NoError(t, os.WriteFile(bad, []byte("{\"version\": 1,\n \"interactions\": [}"), 0o644))
	_, err = golden.NewTransport(bad, nil)
	assert.ErrorContains(t, err, "not an HTTP recording: line 2, column 19: invalid character '}'")

	path := httpPath(t)
	rec, err := golden.NewTransport(path, judgefake.NewTransport(judgefake.Text("ok")), golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	_, _, err = chat(t, rec.Client(), "http://fake/v1/chat/completions", chatBody, nil)
	require.NoError(t, err)
	require.NoError(t, rec.Save())
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	crlf := filepath.Join(filepath.Dir(path), "TestCRLF.http.json")
	require.NoError(t, os.WriteFile(crlf, []byte(strings.ReplaceAll(string(data), "\n", "\r\n")), 0o644))
	replay, err := golden.NewTransport(crlf, neverLive(t))
	require.NoError(t, err)
	_, got, err := chat(t, replay.Client(), "http://fake/v1/chat/completions", chatBody, nil)
	require.NoError(t, err)
	assert.Equal(t, "ok", got)
	assert.NoError(t, golden.Verify(crlf), "CRLF is a checkout's doing, not a problem")
}

// Prune drops the interactions the last full run did not use, and only
// with the evidence of a usage log.
func TestTransportPrune(t *testing.T) {
	path := httpPath(t)
	usage := t.TempDir()
	rec, err := golden.NewTransport(path, judgefake.NewTransport(judgefake.Texts("a", "b")...), golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	for _, body := range []string{chatBody, `{"model": "gpt-4o", "messages": [{"role": "user", "content": "old"}]}`} {
		_, _, err = chat(t, rec.Client(), "http://fake/v1/chat/completions", body, nil)
		require.NoError(t, err)
	}
	require.NoError(t, rec.Save())

	_, err = golden.PruneHTTP(path, usage, false)
	require.ErrorIs(t, err, golden.ErrNoEvidence)

	replay, err := golden.NewTransport(path, neverLive(t), golden.WithUsageLog(usage))
	require.NoError(t, err)
	_, _, err = chat(t, replay.Client(), "http://fake/v1/chat/completions", chatBody, nil)
	require.NoError(t, err)
	require.NoError(t, replay.Save())
	dropped, err := golden.PruneHTTP(path, usage, true)
	require.NoError(t, err)
	require.Len(t, dropped, 1)
	assert.Contains(t, string(dropped[0].Request.Body), "old")
	dropped, err = golden.PruneHTTP(path, usage, false)
	require.NoError(t, err)
	require.Len(t, dropped, 1)
	f, err := golden.LoadHTTP(path)
	require.NoError(t, err)
	assert.Len(t, f.Interactions, 1)
	assert.NoError(t, golden.Verify(path))
}

// A query keys by every parameter that names no credential: a recording
// made with max_tokens=5 does not replay for max_tokens=500, nor one for
// keyword=refund for keyword=cancel; a rotated key, signature or token
// replays.
func TestTransportQueryKeys(t *testing.T) {
	live := rtFunc(func(r *http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"text/plain"}}, Body: io.NopCloser(strings.NewReader("ok"))}, nil
	})
	const recorded = "/v1/search?max_tokens=5&keyword=refund&author=jane&sort_key=a&page_token=p1&api-version=1" +
		"&key=AIzaSyA-0123456789abcdefghijklmnopqrstu&sig=sv2024abcdef0123&X-Amz-Signature=0123456789abcdef&access_token=tok0123456789"
	path := httpPath(t)
	rec, err := golden.NewTransport(path, live, golden.WithMode(golden.ModeRecord))
	require.NoError(t, err)
	send := func(tr http.RoundTripper, query string) error {
		req, err := http.NewRequest(http.MethodGet, "http://fake"+query, nil)
		require.NoError(t, err)
		resp, err := tr.RoundTrip(req)
		if err == nil {
			resp.Body.Close()
		}
		return err
	}
	require.NoError(t, send(rec, recorded))
	require.NoError(t, rec.Save())
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	for _, secret := range []string{"AIzaSyA", "sv2024abcdef", "0123456789abcdef", "tok0123456789"} {
		assert.NotContains(t, string(data), secret)
	}
	assert.Regexp(t, `"max_tokens": \[\s*"5"\s*\]`, string(data), "a query parameter that names no credential is written")

	for _, tc := range []struct {
		name, query string
		hit         bool
	}{
		{"the same", recorded, true},
		{"rotated credentials", "/v1/search?max_tokens=5&keyword=refund&author=jane&sort_key=a&page_token=p1&api-version=1" +
			"&key=AIzaSyB-9999999999abcdefghijklmnopqrstu&sig=sv2025zzzzzz9999&X-Amz-Signature=ffffffffffffffff&access_token=tok9999999999", true},
		{"parameters reordered", "/v1/search?access_token=tok0123456789&api-version=1&page_token=p1&sort_key=a&author=jane&keyword=refund&max_tokens=5" +
			"&key=AIzaSyA-0123456789abcdefghijklmnopqrstu&sig=sv2024abcdef0123&X-Amz-Signature=0123456789abcdef", true},
		{"max_tokens", strings.Replace(recorded, "max_tokens=5", "max_tokens=500", 1), false},
		{"keyword", strings.Replace(recorded, "keyword=refund", "keyword=cancel", 1), false},
		{"author", strings.Replace(recorded, "author=jane", "author=joe", 1), false},
		{"sort_key", strings.Replace(recorded, "sort_key=a", "sort_key=b", 1), false},
		{"page_token", strings.Replace(recorded, "page_token=p1", "page_token=p2", 1), false},
		{"api-version", strings.Replace(recorded, "api-version=1", "api-version=2", 1), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			replay, err := golden.NewTransport(path, neverLive(t))
			require.NoError(t, err)
			err = send(replay, tc.query)
			if tc.hit {
				assert.NoError(t, err)
			} else {
				assert.ErrorIs(t, err, golden.ErrNotRecorded)
			}
		})
	}
}
