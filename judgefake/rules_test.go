package judgefake_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/judgefake"
)

func TestJudgefakeRules(t *testing.T) {
	errAPI := errors.New("judge API failed")
	rules := judgefake.Rules{
		{Keyword: "$ERROR$", Err: errAPI},
		{Pattern: `(?i)\brefund(ed)?\b`, Keyword: "$", Verdict: evalkit.Verdict{Score: 1, Scored: true, Reasoning: "refund with amount"}},
		{Pattern: `(?i)\brefund(ed)?\b`, Verdict: evalkit.Verdict{Score: 0.5, Scored: true, Reasoning: "refund, no amount"}},
		{Keyword: "sorry", Verdict: evalkit.Verdict{Label: "apology"}},
	}
	tests := []struct {
		content string
		want    evalkit.Verdict
		err     error
	}{
		{"$ERROR$ refund", evalkit.Verdict{}, errAPI},
		{"Your REFUND of $42 is on its way.", evalkit.Verdict{Score: 1, RawScore: 5, Scored: true, Reasoning: "refund with amount"}, nil},
		{"You were refunded.", evalkit.Verdict{Score: 0.5, RawScore: 3, Scored: true, Reasoning: "refund, no amount"}, nil},
		{"I'm sorry, the refund is late", evalkit.Verdict{Score: 0.5, RawScore: 3, Scored: true, Reasoning: "refund, no amount"}, nil},
		{"so sorry", evalkit.Verdict{Label: "apology"}, nil},
	}
	for _, tt := range tests {
		v, err := rules.Judge(context.Background(), request(tt.content, scale1to5))
		if tt.err != nil {
			assert.Same(t, tt.err, err, tt.content)
		} else {
			assert.NoError(t, err, tt.content)
		}
		assert.Equal(t, tt.want, v, tt.content)
	}

	v, err := rules.Judge(context.Background(), request("Sorry", scale1to5))
	assert.EqualError(t, err, `judgefake: none of 4 rules matches the content "Sorry"; end Rules with {Otherwise: true, ...} for a default`)
	assert.Equal(t, evalkit.Verdict{}, v)

	long := strings.Repeat("é", 100)
	_, err = rules.Judge(context.Background(), request(long, scale1to5))
	assert.ErrorContains(t, err, `matches the content "`+strings.Repeat("é", 40)+`"… (200 bytes);`)
}

func TestJudgefakeRulesOtherwiseIsTheDefault(t *testing.T) {
	rules := judgefake.Rules{
		{Keyword: "refund", Verdict: evalkit.Verdict{Score: 1, Scored: true}},
		{Otherwise: true, Verdict: evalkit.Verdict{Score: 0, Scored: true, Reasoning: "off topic"}},
	}
	v, err := rules.Judge(context.Background(), request("hello", scale1to10))
	require.NoError(t, err)
	assert.Equal(t, evalkit.Verdict{Score: 0, RawScore: 1, Scored: true, Reasoning: "off topic"}, v)
}

func TestJudgefakeRulesReportsEveryBrokenRule(t *testing.T) {
	rules := judgefake.Rules{
		{Keyword: "ok", Verdict: evalkit.Verdict{Score: 1, Scored: true}},
		{Verdict: evalkit.Verdict{Score: 1, Scored: true}},
		{Pattern: `(unclosed`},
		{Otherwise: true, Keyword: "x"},
		{Keyword: "bad", Verdict: evalkit.Verdict{Score: 3, Scored: true}},
	}
	// The first rule matches, but a broken table is never trusted.
	v, err := rules.Judge(context.Background(), request("ok", evalkit.Scale{}))
	assert.EqualError(t, err, strings.Join([]string{
		"judgefake: Rules[1] has no Keyword, Pattern or Otherwise, so it would match everything by accident",
		"judgefake: Rules[2] Pattern \"(unclosed\": error parsing regexp: missing closing ): `(unclosed`",
		"judgefake: Rules[3] sets Otherwise and a Keyword or Pattern; Otherwise matches everything",
	}, "\n"))
	assert.Equal(t, evalkit.Verdict{}, v)

	_, err = rules[4:].Judge(context.Background(), request("bad", evalkit.Scale{}))
	assert.EqualError(t, err, "judgefake: Rules[0] verdict: score 3 is outside [0,1]")
}

func TestJudgefakeRulesEmpty(t *testing.T) {
	_, err := judgefake.Rules{}.Judge(context.Background(), request("x", evalkit.Scale{}))
	assert.EqualError(t, err, `judgefake: none of 0 rules matches the content "x"; end Rules with {Otherwise: true, ...} for a default`)
}
