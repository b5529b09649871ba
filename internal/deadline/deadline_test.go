package deadline_test

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit/internal/deadline"
)

func TestMarginFor(t *testing.T) {
	for timeout, want := range map[time.Duration]time.Duration{
		0:                1 * time.Second, // not known
		1 * time.Second:  500 * time.Millisecond,
		4 * time.Second:  1 * time.Second,
		20 * time.Second: 1 * time.Second,
		time.Minute:      3 * time.Second,
		10 * time.Minute: 30 * time.Second, // go test's default
		time.Hour:        3 * time.Minute,
	} {
		assert.Equal(t, want, deadline.MarginFor(timeout), "-timeout %v", timeout)
	}
	assert.Nil(t, deadline.For(time.Time{}, time.Minute), "no deadline, no stop")
}

// A call that ignores its context is left behind at the stop, with an
// error naming it, the request it was making and how long each ran.
func TestWaitStopsAtTheDeadline(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		start := time.Now()
		stop := deadline.For(start.Add(20*time.Second), 20*time.Second)
		ctx, cancel := deadline.WithStop(context.Background(), stop)
		defer cancel()
		release := make(chan struct{})
		defer close(release)
		_, err := deadline.Wait(ctx, "judge openai gpt-4.1-mini", func(ctx context.Context) (int, error) {
			time.Sleep(5 * time.Second)
			deadline.Calling(ctx, "POST", "https://user:pw@api.example.com/v1/chat/completions?key=secret")
			<-release // ignores its context
			return 1, nil
		})
		require.Error(t, err)
		assert.Equal(t, `judge openai gpt-4.1-mini: no answer in 19s (waiting for POST https://api.example.com/v1/chat/completions for 14s): evalkit stopped waiting 1s before go test's -timeout 20s ends the test binary`, err.Error())
		assert.ErrorIs(t, err, context.DeadlineExceeded)
		var de *deadline.Error
		require.ErrorAs(t, err, &de)
		assert.Equal(t, stop, de.Stop)
		assert.Equal(t, 19*time.Second+50*time.Millisecond, time.Since(start), "it stops at the deadline less the margin, and a grace for the call's own error")
	})
}

// A call that honours its context returns its own error at the stop,
// which the *Error wraps.
func TestWaitWrapsTheCallsError(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := deadline.WithStop(context.Background(), deadline.For(time.Now().Add(10*time.Second), 10*time.Second))
		defer cancel()
		own := errors.New("openaijudge: 1 attempt: context deadline exceeded")
		_, err := deadline.Wait(ctx, "judge", func(ctx context.Context) (string, error) {
			<-ctx.Done()
			return "", own
		})
		assert.ErrorIs(t, err, own)
		assert.ErrorIs(t, err, context.DeadlineExceeded)
		assert.Contains(t, err.Error(), "judge: no answer in 9s: evalkit stopped waiting 1s before go test's -timeout 10s")
	})
}

// Before the stop, Wait is the call: its answer, its error, its panic as
// an error. A context cancelled otherwise is the call's to report.
func TestWaitIsTheCallBeforeTheStop(t *testing.T) {
	ctx, cancel := deadline.WithStop(context.Background(), deadline.For(time.Now().Add(time.Hour), time.Hour))
	defer cancel()
	v, err := deadline.Wait(ctx, "judge", func(context.Context) (int, error) { return 7, nil })
	assert.NoError(t, err)
	assert.Equal(t, 7, v)
	own := errors.New("HTTP 500")
	_, err = deadline.Wait(ctx, "judge", func(context.Context) (int, error) { return 0, own })
	assert.Equal(t, own, err)
	_, err = deadline.Wait(ctx, "judge", func(context.Context) (int, error) { panic("boom") })
	assert.EqualError(t, err, "judge panicked: boom")

	cctx, ccancel := context.WithCancel(ctx)
	ccancel()
	_, err = deadline.Wait(cctx, "judge", func(ctx context.Context) (int, error) { return 0, ctx.Err() })
	assert.Equal(t, context.Canceled, err)
	assert.Nil(t, deadline.Of(cctx))

	// No deadline: the call runs on the caller's goroutine.
	v, err = deadline.Wait(context.Background(), "judge", func(context.Context) (int, error) { return 8, nil })
	assert.NoError(t, err)
	assert.Equal(t, 8, v)
}

func TestCleanURL(t *testing.T) {
	assert.Equal(t, "https://api.example.com/v1/x", deadline.CleanURL("https://u:p@api.example.com/v1/x?key=sk-secret#frag"))
	assert.Equal(t, "(a URL that does not parse)", deadline.CleanURL("http://[::1"))
}
