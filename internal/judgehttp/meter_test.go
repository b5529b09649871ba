package judgehttp_test

import (
	"context"
	"errors"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit/internal/judgehttp"
)

// countingMeter refuses every attempt past allow, and notes what it saw.
type countingMeter struct {
	allow    int
	attempts []int
	spent    []judgehttp.Cost
}

var errSpent = errors.New("budget spent")

func (m *countingMeter) Attempt(client string, n int) error {
	if len(m.attempts) >= m.allow {
		return errSpent
	}
	m.attempts = append(m.attempts, n)
	return nil
}

func (m *countingMeter) Spend(c judgehttp.Cost) { m.spent = append(m.spent, c) }

// The Meter is asked before every attempt, retries included, with the
// attempt's number; a refusal stops the call unsent and is wrapped.
func TestJudgehttpMeter(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := &countingMeter{allow: 10}
		c, s := newClient(t, status(503, overloaded), status(429, overloaded), ok(`{}`))
		resp, err := c.Post(judgehttp.WithMeter(context.Background(), m), "http://judge.test", nil, nil)
		require.NoError(t, err)
		assert.Equal(t, 3, resp.Attempts)
		assert.Equal(t, []int{1, 2, 3}, m.attempts)
		assert.Equal(t, 3, s.requests())
	})
	synctest.Test(t, func(t *testing.T) {
		m := &countingMeter{allow: 0}
		c, s := newClient(t, ok(`{}`))
		_, err := c.Post(judgehttp.WithMeter(context.Background(), m), "http://judge.test", nil, nil)
		assert.EqualError(t, err, "testjudge: 0 attempts: budget spent")
		assert.ErrorIs(t, err, errSpent)
		assert.Equal(t, 0, s.requests())
	})
	synctest.Test(t, func(t *testing.T) {
		m := &countingMeter{allow: 2}
		c, s := newClient(t, status(503, overloaded), status(503, overloaded), ok(`{}`))
		_, err := c.Post(judgehttp.WithMeter(context.Background(), m), "http://judge.test", nil, nil)
		assert.EqualError(t, err, "testjudge: 2 attempts: HTTP 503 Service Unavailable: The server is overloaded; not retrying: budget spent")
		assert.ErrorIs(t, err, errSpent)
		var e *judgehttp.Error
		require.ErrorAs(t, err, &e)
		assert.Equal(t, 503, e.Status())
		assert.Equal(t, 2, s.requests())
	})
	m := &countingMeter{}
	judgehttp.Spend(judgehttp.WithMeter(context.Background(), m), judgehttp.Cost{Client: "testjudge", Model: "m", USD: 0.5, Priced: true})
	judgehttp.Spend(context.Background(), judgehttp.Cost{USD: 1}) // no meter: nothing to tell
	assert.Equal(t, []judgehttp.Cost{{Client: "testjudge", Model: "m", USD: 0.5, Priced: true}}, m.spent)
}
