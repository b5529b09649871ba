package evalkit_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/anthropicjudge"
	evalassert "github.com/evalkit-go/evalkit/assert"
	"github.com/evalkit-go/evalkit/evaltest"
	"github.com/evalkit-go/evalkit/golden"
	"github.com/evalkit-go/evalkit/judgefake"
	"github.com/evalkit-go/evalkit/openaijudge"
)

// The judge steps end to end, through a real judge client over HTTP: what
// the check grades must be what the judge is asked for. A label criterion
// or the judge's own pass/fail makes the request ask for a label from the
// menu; a threshold asks for a score only.
func TestJudgeStepsEndToEnd(t *testing.T) {
	tr := airlineRun(1, 1) // a real run that cancelled the right reservation
	for _, api := range []string{judgefake.APIOpenAI, judgefake.APIAnthropic} {
		t.Run(api, func(t *testing.T) {
			srv := judgefake.NewServer(
				judgefake.Text(`{"reasoning": "Looked up Z7GOZK before cancelling it.", "score": 9, "label": "yes"}`),
				judgefake.Text(`{"reasoning": "Cancelled and said so.", "score": 8, "label": "pass"}`),
				judgefake.Text(`{"reasoning": "Never states the refund window.", "score": 5.5}`),
			)
			defer srv.Close()
			var judge evalkit.Judge
			if api == judgefake.APIOpenAI {
				judge = openaijudge.New(openaijudge.WithBaseURL(srv.URL+"/v1"), openaijudge.WithAPIKey("sk-test"), openaijudge.WithHTTPClient(srv.Client()))
			} else {
				judge = anthropicjudge.New(anthropicjudge.WithBaseURL(srv.URL), anthropicjudge.WithAPIKey("sk-test"), anthropicjudge.WithHTTPClient(srv.Client()))
			}
			tb := &capturingTB{TB: t}
			// Live: this test is about the wire; recordings have their own.
			evaltest.New(tb, evaltest.WithJudge(judge), evaltest.WithMode(golden.ModeLive)).Expect(tr).
				JudgeToolCalls("Looks the reservation up before cancelling it", evalassert.PassingLabels("yes"), evalassert.OfferedLabels("yes", "no")).
				Judge("Confirms the cancellation").
				Judge("States the refund window", evalassert.MinScore(0.8))
			require.NoError(t, srv.Err())
			require.Len(t, tb.failures, 1, "%q", tb.failures)
			assert.True(t, strings.HasPrefix(tb.failures[0], `Judge("States the refund window", MinScore(0.80)): score 0.55, want >= 0.80`), tb.failures[0])

			reqs := srv.Requests()
			require.Len(t, reqs, 3)
			assert.Contains(t, string(reqs[0].Body), `"enum":["yes","no"]`, "the label menu is asked for")
			assert.Contains(t, string(reqs[1].Body), `"enum":["pass","fail"]`, "a bare judge is asked for pass or fail")
			assert.NotContains(t, string(reqs[2].Body), `"label"`, "a threshold asks for a score only")
			for i, r := range reqs {
				assert.NotContains(t, string(r.Body), "0.8", "request %d: the threshold never reaches the judge", i)
				assert.NotContains(t, fmt.Sprint(r.Header), "sk-test", "request %d: credentials are not recorded", i)
			}
		})
	}
}
