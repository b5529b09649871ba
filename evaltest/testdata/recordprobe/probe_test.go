// Package recordprobe is run by evaltest's TestRecordingEndToEnd with a
// real go test: parallel and same-named subtests recording through one
// judge. It runs in $PROBE_DIR, so its recordings are written there, and
// its judge refuses to be asked when $PROBE_NO_LIVE is set.
package recordprobe

import (
	"context"
	"errors"
	"fmt"
	"os"
	"testing"

	"github.com/evalkit-go/evalkit"
	"github.com/evalkit-go/evalkit/evaltest"
	"github.com/evalkit-go/evalkit/judgefake"
)

func TestMain(m *testing.M) {
	if dir := os.Getenv("PROBE_DIR"); dir != "" {
		if err := os.Chdir(dir); err != nil {
			panic(err)
		}
	}
	os.Exit(m.Run())
}

// judge is a deterministic fake with a real judge's identity, so evaltest
// records it.
type judge struct{}

func (judge) Judge(ctx context.Context, req evalkit.JudgeRequest) (evalkit.Verdict, error) {
	if os.Getenv("PROBE_NO_LIVE") != "" {
		return evalkit.Verdict{}, errors.New("the live judge was asked")
	}
	return judgefake.Pass().Judge(ctx, req)
}

func (judge) Identity() evalkit.Identity {
	return evalkit.Identity{Provider: "openai", Model: "gpt-4.1-mini", Settings: map[string]any{"temperature": 0}}
}

func TestRefund(t *testing.T) {
	for i := range 6 {
		t.Run("case", func(t *testing.T) { // case, case#01, ... case#05
			t.Parallel()
			tr := &evalkit.Transcript{Messages: []evalkit.Message{
				{Role: evalkit.RoleUser, Content: "Refund order #W123"},
				{Role: evalkit.RoleAssistant, Content: fmt.Sprintf("Refund %d issued.", i%3)},
			}}
			evaltest.New(t, evaltest.WithJudge(judge{})).Expect(tr).
				Judge("Confirms the refund").
				JudgeSession("Resolves the request")
		})
	}
}
