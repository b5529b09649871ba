package judgefake_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit/judgefake"
)

// judgeOnce is the smallest client a real judge is: one POST, the
// assistant's content back, or an error that keeps the status and
// Retry-After.
func judgeOnce(ctx context.Context, client *http.Client) (string, *statusError, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "https://api.openai.example/v1/chat/completions", strings.NewReader(openaiBody))
	if err != nil {
		return "", nil, err
	}
	resp, err := client.Do(req)
	if err != nil {
		return "", nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return "", nil, err
	}
	if resp.StatusCode != http.StatusOK {
		secs, _ := strconv.Atoi(resp.Header.Get("Retry-After"))
		return "", &statusError{resp.StatusCode, time.Duration(secs) * time.Second}, nil
	}
	var out struct {
		Choices []struct{ Message struct{ Content string } }
	}
	if err := json.Unmarshal(body, &out); err != nil {
		return "", nil, err
	}
	if len(out.Choices) == 0 {
		return "", nil, errors.New("no choices")
	}
	return out.Choices[0].Message.Content, nil, nil
}

type statusError struct {
	status     int
	retryAfter time.Duration
}

// retrying is a client with the retry rule real judges use: retry 429 and
// 5xx, waiting Retry-After when given, else 1s, 2s, 4s…
func retrying(ctx context.Context, client *http.Client, attempts int) (string, []string, error) {
	var log []string
	backoff := time.Second
	for range attempts {
		text, se, err := judgeOnce(ctx, client)
		if err != nil {
			return "", log, err
		}
		if se == nil {
			return text, log, nil
		}
		wait := backoff
		if se.retryAfter > 0 {
			wait = se.retryAfter
		}
		backoff *= 2
		log = append(log, fmt.Sprintf("%d, wait %v", se.status, wait))
		select {
		case <-time.After(wait):
		case <-ctx.Done():
			return "", log, ctx.Err()
		}
	}
	return "", log, errors.New("out of attempts")
}

func TestJudgefakeTransportStallEndsAtTheDeadlineInVirtualTime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr := judgefake.NewTransport(judgefake.Stall())
		start := time.Now()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		_, _, err := judgeOnce(ctx, tr.Client())
		assert.ErrorIs(t, err, context.DeadlineExceeded)
		assert.Equal(t, 30*time.Second, time.Since(start), "the stall lasts exactly until the deadline, in virtual time")
		assert.Len(t, tr.Requests(), 1)
		assert.NoError(t, tr.Err())
	})
}

func TestJudgefakeTransportStallEndsWithClientTimeout(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr := judgefake.NewTransport(judgefake.Stall())
		client := &http.Client{Transport: tr, Timeout: 90 * time.Second}
		start := time.Now()
		_, _, err := judgeOnce(context.Background(), client)
		require.Error(t, err)
		var ue interface{ Timeout() bool }
		require.ErrorAs(t, err, &ue)
		assert.True(t, ue.Timeout())
		assert.Equal(t, 90*time.Second, time.Since(start))
	})
}

func TestJudgefakeTransportRetryAfterIsServed(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr := judgefake.NewTransport(
			judgefake.RateLimited(7*time.Second),
			judgefake.RateLimited(0),
			judgefake.Reply{Status: 503, RetryAfter: 2500 * time.Millisecond},
			judgefake.Text("Rating: [[8]]"),
		)
		start := time.Now()
		text, log, err := retrying(context.Background(), tr.Client(), 5)
		require.NoError(t, err)
		assert.Equal(t, "Rating: [[8]]", text)
		assert.Equal(t, []string{"429, wait 7s", "429, wait 2s", "503, wait 3s"}, log)
		assert.Equal(t, 12*time.Second, time.Since(start), "7s + 2s backoff + 3s, all virtual")
		assert.Len(t, tr.Requests(), 4)
		assert.NoError(t, tr.Err())
	})
}

func TestJudgefakeTransportDelayIsVirtual(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr := judgefake.NewTransport(judgefake.Reply{Text: "[[4]]", Delay: 45 * time.Second})
		start := time.Now()
		text, _, err := judgeOnce(context.Background(), tr.Client())
		require.NoError(t, err)
		assert.Equal(t, "[[4]]", text)
		assert.Equal(t, 45*time.Second, time.Since(start))
	})
}

func TestJudgefakeTransportDelayCutShortByTheDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr := judgefake.NewTransport(judgefake.Reply{Text: "[[4]]", Delay: time.Minute}, judgefake.Text("[[5]]"))
		start := time.Now()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		_, _, err := judgeOnce(ctx, tr.Client())
		cancel()
		assert.ErrorIs(t, err, context.DeadlineExceeded)
		assert.Equal(t, 10*time.Second, time.Since(start))
		text, _, err := judgeOnce(context.Background(), tr.Client())
		require.NoError(t, err)
		assert.Equal(t, "[[5]]", text)
	})
}

func TestJudgefakeTransportReset(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		tr := judgefake.NewTransport(judgefake.ConnReset())
		_, _, err := judgeOnce(context.Background(), tr.Client())
		assert.ErrorIs(t, err, syscall.ECONNRESET)
		assert.ErrorContains(t, err, "connection reset by peer")
	})
}

func TestJudgefakeTransportReadsAndClosesTheBody(t *testing.T) {
	tr := judgefake.NewTransport(judgefake.Text("x"))
	body := &closeRecorder{Reader: strings.NewReader(openaiBody)}
	req, err := http.NewRequest(http.MethodPost, "http://any.invalid/v1/chat/completions", body)
	require.NoError(t, err)
	resp, err := tr.RoundTrip(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.True(t, body.closed)
	assert.Equal(t, "200 OK", resp.Status)
	assert.Equal(t, "HTTP/1.1", resp.Proto)
	assert.Same(t, req, resp.Request)
	assert.Equal(t, resp.ContentLength, mustLen(t, resp.Header.Get("Content-Length")))
}

type closeRecorder struct {
	io.Reader
	closed bool
}

func (c *closeRecorder) Close() error { c.closed = true; return nil }

func mustLen(t *testing.T, s string) int64 {
	t.Helper()
	n, err := strconv.ParseInt(s, 10, 64)
	require.NoError(t, err)
	return n
}
