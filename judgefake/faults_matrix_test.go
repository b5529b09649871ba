package judgefake_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/anthropicjudge"
	"github.com/evalkit-go/evalkit/judgefake"
	"github.com/evalkit-go/evalkit/openaijudge"
)

// judgeKind builds one of the real judges over an HTTP client.
type judgeKind struct {
	name string
	base func(url string) string // the judge's base URL for a server at url
	make func(base string, c *http.Client, retries int, attempt time.Duration) evalkit.Judge
}

var judgeKinds = []judgeKind{
	{"openaijudge", func(u string) string { return u + "/v1" }, func(base string, c *http.Client, retries int, attempt time.Duration) evalkit.Judge {
		return openaijudge.New(openaijudge.WithBaseURL(base), openaijudge.WithAPIKey("sk-test-matrix-0000"), openaijudge.WithHTTPClient(c),
			openaijudge.WithMaxRetries(retries), openaijudge.WithAttemptTimeout(attempt))
	}},
	{"anthropicjudge", func(u string) string { return u }, func(base string, c *http.Client, retries int, attempt time.Duration) evalkit.Judge {
		return anthropicjudge.New(anthropicjudge.WithBaseURL(base), anthropicjudge.WithAPIKey("sk-ant-test-matrix-0000"), anthropicjudge.WithHTTPClient(c),
			anthropicjudge.WithMaxRetries(retries), anthropicjudge.WithAttemptTimeout(attempt))
	}},
}

const matrixVerdict = `{"reasoning": "States the amount.", "score": 8}`

var matrixRequest = evalkit.JudgeRequest{Criteria: "States the refund amount", Input: "Where is my refund?", Content: "Your refund of $42 is on its way."}

// fault is one way a judge's server misbehaves, and what the judge must
// make of it.
type fault struct {
	name     string
	script   []judgefake.Reply
	retries  int           // the judge's WithMaxRetries
	deadline time.Duration // the call's context deadline; 0 for none
	// want is what the error says after "<judge>: ", "" for a verdict;
	// a trailing "…" makes it a prefix.
	want     string
	attempts int           // requests the server sees
	elapsed  time.Duration // virtual time the call takes
	is       error         // an error the judge's error wraps, if any
}

func repeat(r judgefake.Reply, n int) []judgefake.Reply {
	out := make([]judgefake.Reply, n)
	for i := range out {
		out[i] = r
	}
	return out
}

// faults is every fault judgefake can make, alone, repeated past the
// retries, and before an answer. Retries back off 0.5 s, 1 s, 2 s, ...;
// an attempt times out after a minute.
func faults() []fault {
	v := judgefake.Text(matrixVerdict)
	const minute = time.Minute
	var fs []fault
	for _, status := range []int{500, 502, 503, 504, 529} {
		text := http.StatusText(status)
		if status == 529 {
			text = "overloaded"
		}
		fs = append(fs,
			fault{name: fmt.Sprintf("%d then an answer", status), script: []judgefake.Reply{judgefake.Status(status), v}, retries: 3, attempts: 2, elapsed: 500 * time.Millisecond},
			fault{name: fmt.Sprintf("%d past the retries", status), script: repeat(judgefake.Status(status), 4), retries: 3,
				want: fmt.Sprintf("4 attempts: HTTP %d %s: …", status, text), attempts: 4, elapsed: 3500 * time.Millisecond})
	}
	for _, status := range []int{400, 401, 403, 404, 422} {
		fs = append(fs, fault{name: fmt.Sprintf("%d is not retried", status), script: []judgefake.Reply{judgefake.Status(status)}, retries: 3,
			want: fmt.Sprintf("1 attempt: HTTP %d %s: …", status, http.StatusText(status)), attempts: 1})
	}
	return append(fs,
		fault{name: "429 with Retry-After, then an answer", script: []judgefake.Reply{judgefake.RateLimited(7 * time.Second), v}, retries: 3, attempts: 2, elapsed: 7 * time.Second},
		fault{name: "429 without Retry-After, then an answer", script: []judgefake.Reply{judgefake.RateLimited(0), v}, retries: 3, attempts: 2, elapsed: 500 * time.Millisecond},
		fault{name: "429 with Retry-After past the retries", script: repeat(judgefake.RateLimited(3*time.Second), 3), retries: 2,
			want: "3 attempts: HTTP 429 rate limited (Retry-After 3s): …", attempts: 3, elapsed: 6 * time.Second},
		fault{name: "429 without Retry-After past the retries", script: repeat(judgefake.RateLimited(0), 4), retries: 3,
			want: "4 attempts: HTTP 429 rate limited: …", attempts: 4, elapsed: 3500 * time.Millisecond},
		fault{name: "429 asking a wait past the deadline", script: []judgefake.Reply{judgefake.RateLimited(40 * time.Second), v}, retries: 3, deadline: 30 * time.Second,
			want: "1 attempt: HTTP 429 rate limited (Retry-After 40s): …; not retrying: waiting 40s would pass the context deadline (30s left)", attempts: 1, is: context.DeadlineExceeded},
		fault{name: "429 asking a wait past a judge's patience", script: []judgefake.Reply{judgefake.RateLimited(5 * minute), v}, retries: 3,
			want: "1 attempt: HTTP 429 rate limited (Retry-After 5m0s): …; not retrying: the server asks to wait 5m0s, longer than the 1m0s a judge waits", attempts: 1},
		fault{name: "a retry cap of 50 is 10", script: repeat(judgefake.Status(503), 11), retries: 50,
			want: "11 attempts: HTTP 503 Service Unavailable: …; not retrying: 10 retries is the most a judge makes", attempts: 11, elapsed: 500*time.Millisecond*63 + 30*time.Second*4},
		fault{name: "reset, then an answer", script: []judgefake.Reply{judgefake.ConnReset(), v}, retries: 3, attempts: 2, elapsed: 500 * time.Millisecond},
		fault{name: "resets past the retries", script: repeat(judgefake.ConnReset(), 3), retries: 2,
			want: "3 attempts: Post \"http://judge.test…", attempts: 3, elapsed: 1500 * time.Millisecond},
		fault{name: "stall, then an answer", script: []judgefake.Reply{judgefake.Stall(), v}, retries: 3, attempts: 2, elapsed: minute + 500*time.Millisecond},
		fault{name: "stalls past the retries", script: repeat(judgefake.Stall(), 2), retries: 1,
			want: "2 attempts: timeout: no complete response within 1m0s", attempts: 2, elapsed: 2*minute + 500*time.Millisecond},
		fault{name: "stall past the deadline", script: []judgefake.Reply{judgefake.Stall(), v}, retries: 3, deadline: 20 * time.Second,
			want: "1 attempt: context deadline exceeded", attempts: 1, elapsed: 20 * time.Second, is: context.DeadlineExceeded},
		fault{name: "a late answer past the attempt timeout", script: []judgefake.Reply{{Text: matrixVerdict, Delay: 2 * minute}, v}, retries: 3, attempts: 2, elapsed: minute + 500*time.Millisecond},
		fault{name: "malformed body", script: []judgefake.Reply{{Text: matrixVerdict, Fault: judgefake.FaultMalformed}}, retries: 3,
			want: "1 attempt: HTTP 200: the reply is not a …", attempts: 1},
		fault{name: "cut-off body", script: []judgefake.Reply{judgefake.CutOff(matrixVerdict)}, retries: 3,
			want: "1 attempt: HTTP 200: the reply is not a …", attempts: 1},
		fault{name: "empty body", script: []judgefake.Reply{judgefake.EmptyBody()}, retries: 3,
			want: "1 attempt: HTTP 200: the reply is empty", attempts: 1},
		fault{name: "wrong schema", script: []judgefake.Reply{judgefake.WrongSchema(matrixVerdict)}, retries: 3,
			want: "1 attempt: HTTP 200: the reply is not a …", attempts: 1},
		fault{name: "503, then a malformed body", script: []judgefake.Reply{judgefake.Status(503), {Text: matrixVerdict, Fault: judgefake.FaultMalformed}}, retries: 3,
			want: "2 attempts: HTTP 200: the reply is not a …", attempts: 2, elapsed: 500 * time.Millisecond},
		fault{name: "reset, then an empty body", script: []judgefake.Reply{judgefake.ConnReset(), judgefake.EmptyBody()}, retries: 3,
			want: "2 attempts: HTTP 200: the reply is empty", attempts: 2, elapsed: 500 * time.Millisecond},
		fault{name: "429, then an answer with no verdict", script: []judgefake.Reply{judgefake.RateLimited(time.Second), judgefake.Text(`{"reasoning": "I cannot grade this."}`)}, retries: 3,
			want: "2 attempts: …", attempts: 2, elapsed: time.Second, is: evalkit.ErrUnreadableVerdict},
		fault{name: "an answer cut at the token limit", script: []judgefake.Reply{{Text: `{"reasoning": "The answer st"}`, StopReason: "max_tokens"}}, retries: 3,
			want: "1 attempt: …", attempts: 1, is: evalkit.ErrUnreadableVerdict},
	)
}

// TestFaultMatrix: both real judges against every fault, in virtual time.
// Retries are bounded and honour the context; a fault the judge cannot get
// past is an error that names the cause and the attempts, with no verdict;
// the server sees exactly the attempts the error names.
func TestFaultMatrix(t *testing.T) {
	for _, kind := range judgeKinds {
		for _, f := range faults() {
			t.Run(kind.name+"/"+f.name, func(t *testing.T) {
				synctest.Test(t, func(t *testing.T) {
					tr := judgefake.NewTransport(f.script...)
					judge := kind.make(kind.base("http://judge.test"), tr.Client(), f.retries, time.Minute)
					ctx := context.Background()
					if f.deadline > 0 {
						var cancel context.CancelFunc
						ctx, cancel = context.WithTimeout(ctx, f.deadline)
						defer cancel()
					}
					start := time.Now()
					v, err := judge.Judge(ctx, matrixRequest)
					elapsed := time.Since(start)
					checkFault(t, kind.name, f, v, err)
					assert.Equal(t, f.elapsed, elapsed, "virtual time")
					assert.Len(t, tr.Requests(), f.attempts, "requests sent")
					assert.NoError(t, tr.Err())
				})
			})
		}
	}
}

func checkFault(t *testing.T, judge string, f fault, v evalkit.Verdict, err error) {
	t.Helper()
	if f.want == "" {
		require.NoError(t, err)
		assert.Equal(t, 8.0, v.RawScore)
		return
	}
	require.Error(t, err)
	assert.Equal(t, evalkit.Verdict{}, v, "no verdict beside an error")
	want := judge + ": " + f.want
	if prefix, ok := strings.CutSuffix(want, "…"); ok {
		assert.True(t, strings.HasPrefix(err.Error(), prefix), "%q\ndoes not start with\n%q", err, prefix)
	} else if before, after, ok := strings.Cut(want, "…"); ok {
		assert.True(t, strings.HasPrefix(err.Error(), before) && strings.HasSuffix(err.Error(), after), "%q\nis not\n%q", err, want)
	} else {
		assert.EqualError(t, err, want)
	}
	if f.is != nil {
		assert.ErrorIs(t, err, f.is)
	}
	if !errors.Is(f.is, evalkit.ErrUnreadableVerdict) {
		assert.NotErrorIs(t, err, evalkit.ErrUnreadableVerdict, "a transport fault is not an unreadable verdict")
	}
	assert.Less(t, len(err.Error()), 1024, "bounded")
}

// TestFaultMatrixServer: the faults that need no waiting, over a real
// socket (judgefake.NewServer): each is the error it is in memory. A stall
// ends at an attempt timeout of 50 ms, with no retry, so nothing waits on
// a clock beyond it.
func TestFaultMatrixServer(t *testing.T) {
	for _, kind := range judgeKinds {
		for _, f := range faults() {
			if f.elapsed > 0 || f.deadline > 0 || f.attempts > 1 {
				continue // needs time: TestFaultMatrix covers it in virtual time
			}
			t.Run(kind.name+"/"+f.name, func(t *testing.T) {
				srv := judgefake.NewServer(f.script...)
				defer srv.Close()
				judge := kind.make(kind.base(srv.URL), srv.Client(), f.retries, time.Minute)
				v, err := judge.Judge(context.Background(), matrixRequest)
				checkFault(t, kind.name, f, v, err)
				assert.Len(t, srv.Requests(), f.attempts)
			})
		}
		t.Run(kind.name+"/reset, no retries", func(t *testing.T) {
			srv := judgefake.NewServer(judgefake.ConnReset())
			defer srv.Close()
			_, err := kind.make(kind.base(srv.URL), srv.Client(), 0, time.Minute).Judge(context.Background(), matrixRequest)
			require.Error(t, err)
			assert.True(t, strings.HasPrefix(err.Error(), kind.name+": 1 attempt: Post "), "%v", err)
			assert.Contains(t, err.Error(), "connection reset by peer")
		})
		t.Run(kind.name+"/stall, no retries", func(t *testing.T) {
			srv := judgefake.NewServer(judgefake.Stall())
			defer srv.Close()
			_, err := kind.make(kind.base(srv.URL), srv.Client(), 0, 50*time.Millisecond).Judge(context.Background(), matrixRequest)
			assert.EqualError(t, err, kind.name+": 1 attempt: timeout: no complete response within 50ms")
		})
		t.Run(kind.name+"/cancelled before the call", func(t *testing.T) {
			srv := judgefake.NewServer(judgefake.Text(matrixVerdict))
			defer srv.Close()
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			_, err := kind.make(kind.base(srv.URL), srv.Client(), 3, time.Minute).Judge(ctx, matrixRequest)
			assert.ErrorIs(t, err, context.Canceled)
			assert.Empty(t, srv.Requests(), "nothing sent")
		})
	}
}
