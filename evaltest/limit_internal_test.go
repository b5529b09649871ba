package evaltest

import (
	"context"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/judgefake"
)

func TestParseJudgeLimit(t *testing.T) {
	l, err := parseJudgeLimit("", "")
	require.NoError(t, err)
	assert.Nil(t, l, "unset: no limiter")
	for conc, want := range map[[2]string]string{
		{"8", ""}:     "8 in flight",
		{"", "500"}:   "500/min",
		{"4", "90.5"}: "4 in flight, 90.5/min",
	} {
		l, err := parseJudgeLimit(conc[0], conc[1])
		require.NoError(t, err)
		assert.Equal(t, want, l.String())
	}
	for conc, want := range map[[2]string]string{
		{"0", ""}:    `EVALKIT_JUDGE_CONCURRENCY="0": want a whole number >= 1 (judge calls in flight)`,
		{"2.5", ""}:  `EVALKIT_JUDGE_CONCURRENCY="2.5": want a whole number >= 1 (judge calls in flight)`,
		{"", "-1"}:   `EVALKIT_JUDGE_RPM="-1": want a number > 0 (judge calls started a minute)`,
		{"", "NaN"}:  `EVALKIT_JUDGE_RPM="NaN": want a number > 0 (judge calls started a minute)`,
		{"", "fast"}: `EVALKIT_JUDGE_RPM="fast": want a number > 0 (judge calls started a minute)`,
	} {
		_, err := parseJudgeLimit(conc[0], conc[1])
		assert.EqualError(t, err, want)
	}
	assert.Equal(t, "no limit", NewJudgeLimiter(0, 0).String())
}

// TestJudgeLimiterWaitCancel: a call that gives up waiting for its start
// gives its turn back, and frees its slot.
func TestJudgeLimiterWaitCancel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l := NewJudgeLimiter(2, 60) // one a second
		release, err := l.wait(context.Background())
		require.NoError(t, err)
		release()

		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		defer cancel()
		start := time.Now()
		_, err = l.wait(ctx) // its turn is at 1 s
		assert.ErrorIs(t, err, context.DeadlineExceeded)
		assert.Equal(t, 100*time.Millisecond, time.Since(start))

		release, err = l.wait(context.Background())
		require.NoError(t, err)
		assert.Equal(t, time.Second, time.Since(start), "the turn given back is taken by the next call")
		release()
		assert.Empty(t, l.slots, "every slot freed")

		done, cancelled := context.WithCancel(context.Background())
		cancelled()
		_, err = l.wait(done)
		assert.ErrorIs(t, err, context.Canceled)
	})
}

// TestLimitedJudgeError: the error of a call that gave up waiting says
// what it waited for, and the wrapper keeps the judge's identity.
func TestLimitedJudgeError(t *testing.T) {
	hold := NewJudgeLimiter(1, 0)
	release, err := hold.wait(context.Background())
	require.NoError(t, err)
	defer release()
	tt := &T{limiter: hold}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = tt.limited(judgefake.Pass()).Judge(ctx, evalkit.JudgeRequest{Criteria: "x", Content: "y"})
	assert.EqualError(t, err, "waiting for the judge limiter (1 in flight): context canceled")

	id := evalkit.Identity{Provider: "openai", Model: "m"}
	assert.Equal(t, id, tt.limited(identified{id}).(evalkit.Identifier).Identity())
}

type identified struct{ id evalkit.Identity }

func (identified) Judge(context.Context, evalkit.JudgeRequest) (evalkit.Verdict, error) {
	return evalkit.Verdict{}, nil
}
func (i identified) Identity() evalkit.Identity { return i.id }
